/**
 * Faults of the action (src/action/**, not edited by the hardening work) that the action's own
 * tests do not cover and that behave wrongly today. Each test states the behaviour the gate
 * promises and is marked `it.fails` until the action is fixed (then vitest reports it as passing
 * unexpectedly and the marker must go). They run the committed bundle dist/index.js through
 * test/action's runner and fake GitHub.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";

import { exportText, policyYaml, tasks } from "../action/exports.js";
import { FakeGitHub } from "../action/fake-github.js";
import { cleanupRuns, runDist } from "../action/run-action.js";
import { LONG } from "./helpers.js";

afterAll(() => {
  cleanupRuns();
});

let fake: FakeGitHub | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

const ROWS = [
  ...tasks(20, "a-only", { validity: "valid", a: "pass", b: "fail" }),
  ...tasks(30, "both", { validity: "valid", a: "pass", b: "pass" }),
];

describe("action gaps (it.fails: the action does not do this yet)", () => {
  // Bug: src/action/run.ts reads the checked-out policy with readFile(path, "utf8") (and
  // base-policy.ts decodes the contents API's base64 and `git show` output as UTF-8), so bytes
  // that are not UTF-8 become U+FFFD: the owner shown is altered and the policy sha256 in the
  // provenance (over the decoded text) no longer matches the file. The CLI refuses such a file
  // (commit 74f0da5); the action should too.
  it.fails("a policy file that is not UTF-8 fails the step, naming the file and line", async () => {
    fake = await new FakeGitHub("acme/models").start();
    const r = await runDist({
      fake,
      event: "push",
      inputs: {
        results: "results.jsonl",
        policy: "policy.yaml",
        baseline: "cfg-baseline",
        candidate: "cfg-candidate",
      },
      env: { "INPUT_GITHUB-TOKEN": "" },
      files: { "results.jsonl": exportText(ROWS) },
      prepare: (workspace) => {
        const text = policyYaml().replace(/^owner: .*$/m, 'owner: "@acme/ÿ"');
        writeFileSync(join(workspace, "policy.yaml"), Buffer.from(text, "latin1"));
      },
    });
    expect(r.outputs["verdict"]).toBeUndefined();
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/::error.*policy\.yaml.*not valid UTF-8/);
  });

  // Gap: no request timeout is set on the Octokit client (src/action/github-api.ts retries
  // errors, but a call that never answers is not an error), so a GitHub API that accepts the
  // connection and never answers keeps the step running until the job's timeout (6 h by
  // default). The verdict is already in the outputs and the summary, but the job never ends.
  // Runs only in long fuzz runs (it waits 20 s).
  (LONG ? it.fails : it.skip)(
    "a GitHub API that never answers: the step ends within a bounded time with a warning",
    async () => {
      const sockets = new Set<import("node:net").Socket>();
      const server: Server = createServer(() => {
        // Accept and never answer.
      });
      server.on("connection", (s) => {
        sockets.add(s);
      });
      await new Promise<void>((resolve) => {
        server.listen(0, "127.0.0.1", resolve);
      });
      const port = (server.address() as AddressInfo).port;
      fake = await new FakeGitHub("acme/models").start();
      const started = Date.now();
      const r = await Promise.race([
        runDist({
          fake,
          event: "push",
          inputs: {
            results: "results.jsonl",
            policy: "policy.yaml",
            baseline: "cfg-baseline",
            candidate: "cfg-candidate",
          },
          env: { GITHUB_API_URL: `http://127.0.0.1:${port}` },
          files: { "results.jsonl": exportText(ROWS), "policy.yaml": policyYaml() },
        }),
        new Promise<null>((resolve) =>
          setTimeout(() => {
            resolve(null);
          }, 20_000),
        ),
      ]);
      for (const s of sockets) s.destroy();
      server.close();
      expect(r, "the step was still running after 20 s").not.toBeNull();
      expect(Date.now() - started).toBeLessThan(20_000);
    },
    40_000,
  );
});
