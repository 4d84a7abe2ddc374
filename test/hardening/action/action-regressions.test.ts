/**
 * Faults of the action that the action's own tests did not cover and that the hardening work
 * found behaving wrongly; both are fixed (commit 5eec1d2) and these tests keep them fixed. They
 * run the committed bundle dist/index.js through test/action's runner and fake GitHub.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

import { exportText, policyYaml, tasks } from "../../action/exports.js";
import { gateInputs, LOCAL_FILES, runDist, useFakeGitHub } from "../../action/run-action.js";

const fakes = useFakeGitHub();

const ROWS = [
  ...tasks(20, "a-only", { validity: "valid", a: "pass", b: "fail" }),
  ...tasks(30, "both", { validity: "valid", a: "pass", b: "pass" }),
];

describe("action faults found by the hardening work", () => {
  // Was: the action (src/action/evaluate-mode.ts) read the checked-out policy with readFile(path, "utf8") (and
  // base-policy.ts decodes the contents API's base64 and `git show` output as UTF-8), so bytes
  // that are not UTF-8 become U+FFFD: the owner shown is altered and the policy sha256 in the
  // provenance (over the decoded text) no longer matches the file. The CLI refuses such a file
  // (commit 74f0da5); the action should too.
  it("a policy file that is not UTF-8 fails the step, naming the file and line", async () => {
    const fake = await fakes.start();
    const r = await runDist({
      fake,
      event: "push",
      inputs: gateInputs(LOCAL_FILES),
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

  // Was: no request timeout on the Octokit client, so a GitHub API that accepts the connection
  // and never answers kept the step running until the job's timeout (6 h by default). Now each
  // call times out (20 s; 300 ms here through test/helpers/short-waits.mjs) and is retried,
  // then becomes a warning, like a dropped connection.
  it("a GitHub API that never answers: the step ends within a bounded time with a warning", async () => {
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
    const fake = await fakes.start();
    const started = Date.now();
    const r = await Promise.race([
      runDist({
        fake,
        event: "push",
        inputs: gateInputs(LOCAL_FILES),
        env: {
          GITHUB_API_URL: `http://127.0.0.1:${port}`,
          GATE_TEST_REQUEST_TIMEOUT_MS: "300",
        },
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
    // The verdict still reached the outputs, and the unanswered calls became warnings.
    expect(r?.outputs["verdict"]).toMatch(/^(accept|reject|unresolved)$/);
    expect(r?.stdout).toMatch(/::warning::.*check run/i);
  }, 40_000);
});
