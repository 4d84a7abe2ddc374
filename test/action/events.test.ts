/**
 * Every event the action runs on, end to end: the committed bundle as a child process against the
 * OpenAPI- and GraphQL-validating fake GitHub. What decides (the base commit's policy or the
 * checkout's), which commit gets the check run, and whether a comment is posted.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Report } from "../../src/core/report/report-types.js";
import { CLEAR_ACCEPT_ROWS as ROWS, exportText, policyYaml } from "./exports.js";
import { FakeGitHub } from "./fake-github.js";
import {
  BASE_SHA,
  HEAD_SHA,
  MERGE_GROUP_SHA,
  POLICY_PATH,
  PR_NUMBER,
  PUSH_SHA,
  RESULTS_PATH,
  runDist,
  workflowCommands,
  useFakeGitHub,
  type EventKind,
  type RunResult,
  gateInputs,
} from "./run-action.js";

/** The base's policy needs 100 common valid tasks (60 here: unresolved); the change's needs 10. */
const STRICT = policyYaml({ minTasks: 100 });
const LOOSE = policyYaml({ minTasks: 10 });

const fakes = useFakeGitHub();

async function startFake(): Promise<FakeGitHub> {
  const fake = await fakes.start();
  fake.setFile(BASE_SHA, POLICY_PATH, STRICT);
  fake.setCommits(BASE_SHA, POLICY_PATH, ["9".repeat(40)]);
  return fake;
}

function run(
  f: FakeGitHub,
  event: EventKind,
  inputs: Record<string, string> = {},
  checkoutPolicy: string | null = LOOSE,
): Promise<RunResult> {
  const files: Record<string, string> = { [RESULTS_PATH]: exportText(ROWS) };
  if (checkoutPolicy !== null) files[POLICY_PATH] = checkoutPolicy;
  return runDist({
    fake: f,
    event,
    inputs: gateInputs({ "fail-on": "never", ...inputs }),
    files,
  });
}

function report(r: RunResult): Report {
  return JSON.parse(readFileSync(r.outputs["report-path"] ?? "", "utf8")) as Report;
}

function errors(r: RunResult): string[] {
  return workflowCommands(r.stdout)
    .filter((c) => c.name === "error")
    .map((c) => c.line);
}

describe("merge_group (merge queue)", () => {
  it("the base commit's policy decides (not the queued change's edit), check run on merge_group.head_sha, no comment", async () => {
    const f = await startFake();
    const r = await run(f, "merge_group");
    expect(r.code).toBe(0);
    expect(r.outputs["verdict"]).toBe("unresolved");
    const rep = report(r);
    expect(rep.provenance.policy.source).toBe(`base commit ${BASE_SHA} (contents API)`);
    expect((rep.policy_changes ?? []).map((c) => [c.key, c.loosening])).toEqual([
      ["accept_if.common_valid_tasks", true],
    ]);
    expect(f.checkRuns.map((c) => [c.head_sha, c.conclusion])).toEqual([[MERGE_GROUP_SHA, "failure"]]);
    expect(f.comments).toEqual([]);
    expect(r.outputs["comment-id"]).toBe("");
    expect(f.calls()).toEqual([
      "GET repos/get-content",
      "GET repos/list-commits",
      "GET checks/list-for-ref",
      "POST checks/create",
    ]);
  });

  it("a policy missing at the merge group's base is an error naming the merge group, with a failed check", async () => {
    const f = await fakes.start();
    const r = await run(f, "merge_group");
    expect(r.code).toBe(1);
    expect(errors(r).at(-1)).toContain(
      `The policy ${POLICY_PATH} does not exist at the merge group's base commit ${BASE_SHA.slice(0, 12)}.`,
    );
    expect(f.checkRuns.map((c) => [c.head_sha, c.conclusion])).toEqual([[MERGE_GROUP_SHA, "failure"]]);
  });
});

describe("workflow_run (the secure fork pattern)", () => {
  it("same-repository PR listed in the event: confirmed by the API, base policy, check run on workflow_run.head_sha, comment", async () => {
    const f = await startFake();
    f.setPullRequest(PR_NUMBER, { headSha: HEAD_SHA, baseSha: BASE_SHA });
    const r = await run(f, "workflow_run", {}, null);
    expect(r.code).toBe(0);
    expect(r.outputs["verdict"]).toBe("unresolved");
    expect(report(r).provenance.policy.source).toBe(`base commit ${BASE_SHA} (contents API)`);
    expect(report(r).policy_changes ?? []).toEqual([]);
    expect(f.calls().slice(0, 3)).toEqual([
      "GET pulls/get",
      "GET repos/get-content",
      "GET repos/list-commits",
    ]);
    expect(f.checkRuns.map((c) => c.head_sha)).toEqual([HEAD_SHA]);
    expect(f.comments.map((c) => c.issue)).toEqual([PR_NUMBER]);
    expect(workflowCommands(r.stdout).filter((c) => c.name === "warning")).toEqual([]);
  });

  it("fork PR (empty pull_requests): the pull-request input, confirmed; the default branch's checkout does not decide", async () => {
    const f = await startFake();
    f.setPullRequest(PR_NUMBER, { headSha: HEAD_SHA, baseSha: BASE_SHA, headRepo: "outsider/models" });
    const r = await run(f, "workflow_run_fork", { "pull-request": String(PR_NUMBER) }, LOOSE);
    expect(r.code).toBe(0);
    expect(r.outputs["verdict"]).toBe("unresolved");
    expect(report(r).policy_changes ?? []).toEqual([]);
    expect(f.checkRuns.map((c) => c.head_sha)).toEqual([HEAD_SHA]);
    expect(f.comments.map((c) => c.issue)).toEqual([PR_NUMBER]);
    expect(r.stdout).toContain(`workflow_run: pull request #${PR_NUMBER} confirmed`);
  });

  it("a forged pull-request number (another PR, other head) is refused: no verdict, no comment on it", async () => {
    const f = await startFake();
    f.setPullRequest(7, { headSha: "a".repeat(40), baseSha: "1".repeat(40) });
    const r = await run(f, "workflow_run_fork", { "pull-request": "7" });
    expect(r.code).toBe(1);
    expect(r.outputs["verdict"]).toBeUndefined();
    expect(errors(r).at(-1)).toContain(
      `Pull request #7's head is ${"a".repeat(12)}, but the workflow_run ran on ${HEAD_SHA.slice(0, 12)}`,
    );
    expect(f.comments).toEqual([]);
    expect(f.calls()).not.toContain("GET repos/get-content");
    // The failed check goes on the run's own commit, never on the forged PR's.
    expect(f.checkRuns.map((c) => [c.head_sha, c.conclusion])).toEqual([[HEAD_SHA, "failure"]]);
  });

  it("no pull request listed and no input: a clear error", async () => {
    const f = await startFake();
    const r = await run(f, "workflow_run_fork");
    expect(r.code).toBe(1);
    expect(errors(r).at(-1)).toContain("pass its number as the pull-request input");
    expect(f.calls()).not.toContain("GET pulls/get");
  });

  it("an input naming a PR GitHub did not list is refused; a PR that does not exist is an error", async () => {
    const f = await startFake();
    const r = await run(f, "workflow_run", { "pull-request": "43" });
    expect(r.code).toBe(1);
    expect(errors(r).at(-1)).toContain("pull-request: #43 is not among the pull requests GitHub lists");
    const missing = await run(f, "workflow_run_fork", { "pull-request": "99" });
    expect(errors(missing).at(-1)).toContain("Pull request #99 does not exist in acme/models");
  });

  it("a bad pull-request input is an input error", async () => {
    const f = await startFake();
    const r = await run(f, "workflow_run_fork", { "pull-request": "42; rm -rf /" });
    expect(r.code).toBe(1);
    expect(errors(r).at(-1)).toContain('field "pull-request": must be a pull request number');
    expect(f.requests).toEqual([]);
  });
});

describe("events that keep today's behaviour", () => {
  it("pull_request_target: the base policy decides, check run on the PR head, comment on the PR", async () => {
    const f = await startFake();
    const r = await run(f, "pull_request_target");
    expect(r.outputs["verdict"]).toBe("unresolved");
    expect(report(r).provenance.policy.source).toBe(`base commit ${BASE_SHA} (contents API)`);
    expect(f.checkRuns.map((c) => c.head_sha)).toEqual([HEAD_SHA]);
    expect(f.comments.map((c) => c.issue)).toEqual([PR_NUMBER]);
  });

  it.each(["push", "schedule", "workflow_dispatch"] as const)(
    "%s: the checked-out policy decides, check run on GITHUB_SHA, no comment",
    async (event) => {
      const f = await startFake();
      const r = await run(f, event);
      expect(r.code).toBe(0);
      expect(r.outputs["verdict"]).toBe("accept");
      expect(report(r).provenance.policy.source).toBe("file");
      // The gate's earlier runs on the commit are read (no comment off a pull request), then the check run.
      expect(f.calls()).toEqual(["GET checks/list-for-ref", "POST checks/create"]);
      expect(f.checkRuns.map((c) => c.head_sha)).toEqual([PUSH_SHA]);
    },
  );

  it("pull-request given on another event is ignored with a warning", async () => {
    const f = await startFake();
    const r = await run(f, "push", { "pull-request": "42" });
    expect(r.outputs["verdict"]).toBe("accept");
    expect(
      workflowCommands(r.stdout)
        .filter((c) => c.name === "warning")
        .map((c) => c.line),
    ).toEqual(["::warning::pull-request is used only on workflow_run events; on push it is ignored."]);
  });
});

describe("an event payload that lacks what its event needs", () => {
  /**
   * The bundle on `event` with the file at GITHUB_EVENT_PATH holding `text` (or, with null, no
   * GITHUB_EVENT_PATH at all); returns the run and that file's path.
   */
  async function runWithPayload(
    event: EventKind,
    text: string | null,
  ): Promise<{ r: RunResult; path: string; f: FakeGitHub }> {
    const f = await startFake();
    f.setPullRequest(PR_NUMBER, { headSha: HEAD_SHA, baseSha: BASE_SHA });
    const env: Record<string, string> = {};
    let path = "";
    const r = await runDist({
      fake: f,
      event,
      inputs: gateInputs({ "fail-on": "never" }),
      files: { [RESULTS_PATH]: exportText(ROWS), [POLICY_PATH]: LOOSE },
      prepare: (workspace) => {
        path = join(workspace, "..", "event-under-test.json");
        if (text === null) env["GITHUB_EVENT_PATH"] = "";
        else {
          writeFileSync(path, text);
          env["GITHUB_EVENT_PATH"] = path;
        }
      },
      env,
    });
    return { r, path, f };
  }

  // Was: a pull_request event whose payload was missing, null, {} or [] ran under the checkout's
  // (the pull request's own) policy and reported a verdict with no error.
  it.each([
    ["pull_request", "null", (p: string) => `GITHUB_EVENT_PATH ${p} holds null, not an event payload`],
    ["pull_request", "[]", (p: string) => `GITHUB_EVENT_PATH ${p} holds an array, not an event payload`],
    [
      "pull_request",
      "{}",
      (p: string) => `GITHUB_EVENT_PATH ${p}: the pull_request event payload has no pull_request.`,
    ],
    [
      "pull_request",
      null,
      () => "GITHUB_EVENT_PATH is not set, so the pull_request event's payload cannot be read.",
    ],
    [
      "pull_request_target",
      JSON.stringify({ pull_request: { number: PR_NUMBER, base: {}, head: { sha: HEAD_SHA } } }),
      (p: string) =>
        `GITHUB_EVENT_PATH ${p}: the pull_request_target event payload has no pull_request.base.sha.`,
    ],
    [
      "merge_group",
      "{}",
      (p: string) => `GITHUB_EVENT_PATH ${p}: the merge_group event payload has no merge_group.`,
    ],
    [
      "workflow_run",
      JSON.stringify({ workflow_run: { head_sha: HEAD_SHA } }),
      (p: string) =>
        `GITHUB_EVENT_PATH ${p}: the workflow_run event payload has no workflow_run.pull_requests.`,
    ],
  ] as const)(
    "%s with the payload %s: one error naming the file and field; no verdict, no call to GitHub",
    async (event, text, message) => {
      const { r, path, f } = await runWithPayload(event, text);
      expect(r.code).toBe(1);
      expect(errors(r)).toHaveLength(1);
      expect(errors(r)[0]).toContain(message(path));
      expect(r.outputs["verdict"]).toBeUndefined();
      expect(r.summary).toMatch(/^## ❗ input error — no verdict\n/);
      expect(f.requests).toEqual([]);
      expect(r.stdout).not.toMatch(/verdict (is in|goes to)/);
      expect(r.stdout + r.stderr).not.toMatch(/Internal error|this is a bug/i);
    },
  );
});
