/**
 * Every message is true of the run that prints it, end to end with the committed bundle: where a
 * warning says the verdict (or the error) is, it is there; a run that stopped with no verdict
 * never says where "the verdict" is.
 */
import { Buffer } from "node:buffer";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLEAR_ACCEPT_ROWS as ROWS, exportText, policyYaml } from "./exports.js";
import type { FakeGitHub } from "./fake-github.js";
import {
  BASE_SHA,
  commandLines,
  POLICY_PATH,
  RESULTS_PATH,
  runDist,
  useFakeGitHub,
  gateInputs,
} from "./run-action.js";

const fakes = useFakeGitHub();

async function startFake(basePolicy = true): Promise<FakeGitHub> {
  const f = await fakes.start();
  if (basePolicy) f.setFile(BASE_SHA, POLICY_PATH, policyYaml());
  return f;
}

/** The bundle on a pull request; `setup` may break a runner variable (it gets the workspace). */
function run(f: FakeGitHub, setup: (workspace: string) => Record<string, string> = () => ({})) {
  const env: Record<string, string> = {};
  return runDist({
    fake: f,
    event: "pull_request",
    inputs: gateInputs(),
    files: { [RESULTS_PATH]: exportText(ROWS), [POLICY_PATH]: policyYaml() },
    prepare: (workspace) => {
      Object.assign(env, setup(workspace));
    },
    env,
  });
}

describe("where the verdict is, said only where it is true", () => {
  // Was: "… The verdict is in the job summary and the step outputs." after "input error — no verdict".
  it("an input error whose failed check run is refused: the warning says there is no verdict and the error is in the summary", async () => {
    const f = await startFake(false);
    f.fail("checks/create", { status: 403 });
    const r = await run(f);
    expect(r.code).toBe(1);
    expect(r.summary).toMatch(/^## ❗ input error — no verdict\n/);
    expect(commandLines(r, "warning")).toEqual([
      '::warning::Could not create the check run "Model acceptance gate": GitHub answered 403 (Resource not ' +
        "accessible by integration). The token lacks the permission: the job needs `permissions: checks: write`. " +
        "No verdict: the error is in the job summary.",
    ]);
    expect(r.stdout).not.toMatch(/verdict (is|goes)/);
  });

  it("an input error with no usable job summary either: the error is in this log", async () => {
    const f = await startFake(false);
    f.fail("checks/create", { status: 503 });
    const r = await run(f, (ws) => {
      const dir = join(ws, "..", "summary-dir");
      mkdirSync(dir);
      return { GITHUB_STEP_SUMMARY: dir };
    });
    expect(r.code).toBe(1);
    expect(commandLines(r, "warning")).toEqual([
      '::warning::Could not create the check run "Model acceptance gate": GitHub answered 503 (Server Error) 3 times; ' +
        "giving up. No verdict: the error is in this log.",
    ]);
  });

  it("a verdict whose job summary cannot be written: a failed check run's warning names the step outputs only", async () => {
    const f = await startFake();
    f.fail("checks/create", { status: 502 });
    const r = await run(f, (ws) => {
      const dir = join(ws, "..", "summary-dir");
      mkdirSync(dir);
      return { GITHUB_STEP_SUMMARY: dir };
    });
    expect(r.code).toBe(1); // the summary's ::error:: fails the step
    expect(r.outputs["verdict"]).toBe("accept");
    expect(commandLines(r, "warning")).toEqual([
      '::warning::Could not create the check run "Model acceptance gate": GitHub answered 502 (Server Error) 3 times; ' +
        "giving up. The verdict is in the step outputs.",
    ]);
    expect(commandLines(r, "error")).toHaveLength(1);
    expect(commandLines(r, "error")[0]).toMatch(
      /^::error::GITHUB_STEP_SUMMARY .* cannot be written \(.*\): the job summary is missing\.$/,
    );
  });

  it("a verdict whose step outputs cannot be set: the warning names the job summary only", async () => {
    const f = await startFake();
    f.fail("checks/create", { status: 502 });
    const r = await run(f, (ws) => ({ GITHUB_OUTPUT: join(ws, "..", "no-such-dir", "output.txt") }));
    expect(r.code).toBe(1);
    expect(r.summary).toMatch(/^## ✅ accept — /);
    expect(commandLines(r, "warning")).toEqual([
      '::warning::Could not create the check run "Model acceptance gate": GitHub answered 502 (Server Error) 3 times; ' +
        "giving up. The verdict is in the job summary.",
    ]);
    expect(commandLines(r, "error")).toEqual([
      expect.stringMatching(
        /^::error::GITHUB_OUTPUT .* cannot be written \(no such file\): the step outputs are not set\.$/,
      ),
    ]);
  });
});

describe("what a run says it did, it did", () => {
  function runOn(
    f: FakeGitHub,
    event: "push" | "merge_group",
    env: Record<string, string>,
    policy: string | Buffer,
  ) {
    return runDist({
      fake: f,
      event,
      inputs: gateInputs(),
      files: { [RESULTS_PATH]: exportText(ROWS) },
      prepare: (workspace) => {
        mkdirSync(join(workspace, "gate"), { recursive: true });
        writeFileSync(join(workspace, POLICY_PATH), policy);
      },
      env,
    });
  }

  // Was: "(GITHUB_SHA is not set)" also when it was set to something that is not a commit id.
  it.each([
    ["unset", "", "GITHUB_SHA is not set"],
    ["not a commit id", "HEAD", 'GITHUB_SHA "HEAD" is not a full commit id'],
  ])("push with GITHUB_SHA %s: the warning says which, and no check run is created", async (_n, sha, why) => {
    const f = await startFake(false);
    const r = await runOn(f, "push", { GITHUB_SHA: sha }, policyYaml());
    expect(r.code).toBe(0);
    expect(r.outputs["verdict"]).toBe("accept");
    expect(commandLines(r, "warning")).toEqual([
      `::warning::No commit to attach the check run to (${why}); no check run.`,
    ]);
    expect(f.checkRuns).toEqual([]);
    expect(r.outputs["check-run-id"]).toBe("");
  });

  // Was: "The pull request's version of … is not valid UTF-8" in a merge queue.
  it("merge_group whose queued policy is not UTF-8: the warning names the merge group, the base's policy decides", async () => {
    const f = await startFake();
    const r = await runOn(f, "merge_group", {}, Buffer.from([0x6f, 0x77, 0xff, 0x0a]));
    expect(r.code).toBe(0);
    expect(r.outputs["verdict"]).toBe("accept");
    expect(commandLines(r, "warning")).toEqual([
      `::warning::The merge group's version of ${POLICY_PATH} is not valid UTF-8; the base commit's version decides.`,
    ]);
  });
});
