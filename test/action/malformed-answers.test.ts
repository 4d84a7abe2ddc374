/**
 * A GitHub API that answers success with a body that is not what it documents (an HTML page,
 * garbage, JSON of another shape), end to end: the committed bundle against the fake GitHub, whose
 * request checks stay on. Each such answer is a failure of that call, handled as the call's
 * failures are (one warning and the documented empty output, or an input error where the call
 * decides which policy applies), never a success.
 */
import { describe, expect, it } from "vitest";
import { CLEAR_ACCEPT_ROWS as ROWS, exportText, policyYaml } from "./exports.js";
import { GRAPHQL, malformedAnswers, type FakeGitHub, type Fault } from "./fake-github.js";
import {
  BASE_SHA,
  commandLines,
  HEAD_SHA,
  POLICY_PATH,
  PR_NUMBER,
  RESULTS_PATH,
  runDist,
  useFakeGitHub,
  type EventKind,
  gateInputs,
} from "./run-action.js";
import { DELIVERED_NOTE } from "./helpers.js";

const fakes = useFakeGitHub();

function answer(name: string, status: number): Fault {
  const found = malformedAnswers(status).find(([n]) => n === name);
  if (found === undefined) throw new Error(`no malformed answer named ${name}`);
  return found[1];
}

async function startFake(): Promise<FakeGitHub> {
  const f = await fakes.start();
  f.setFile(BASE_SHA, POLICY_PATH, policyYaml());
  f.setCommits(BASE_SHA, POLICY_PATH, ["9".repeat(40)]);
  f.setPullRequest(PR_NUMBER, { headSha: HEAD_SHA, baseSha: BASE_SHA });
  return f;
}

function run(f: FakeGitHub, event: EventKind = "pull_request", inputs: Record<string, string> = {}) {
  return runDist({
    fake: f,
    event,
    inputs: gateInputs(inputs),
    files: { [RESULTS_PATH]: exportText(ROWS), [POLICY_PATH]: policyYaml() },
  });
}

describe("a successful answer that is not what GitHub documents", () => {
  // Was: the log said `Check run "…" created on … (id undefined).` and the check-run-id output was
  // the string "undefined".
  it("the check run create answers 201 with an HTML page: one warning, check-run-id empty; the comment is still posted", async () => {
    const f = await startFake();
    f.fail("checks/create", answer("an HTML page", 201));
    const r = await run(f);
    expect(r.code).toBe(0);
    expect(r.outputs["verdict"]).toBe("accept");
    expect(r.outputs["check-run-id"]).toBe("");
    expect(r.stdout).not.toContain("undefined");
    expect(commandLines(r, "warning")).toEqual([
      '::warning::Could not create the check run "Model acceptance gate": GitHub answered 201 with an HTML page ' +
        `instead of JSON; the answer is not used. ${DELIVERED_NOTE}`,
    ]);
    expect(f.comments.map((c) => c.issue)).toEqual([PR_NUMBER]);
    expect(r.outputs["comment-id"]).toBe(String(f.comments[0]?.id));
    expect(commandLines(r, "error")).toEqual([]);
  });

  it("the comment listing answers garbage labelled JSON: one warning, no comment, comment-id empty", async () => {
    const f = await startFake();
    f.fail("issues/list-comments", answer("garbage labelled JSON", 200));
    const r = await run(f);
    expect(r.code).toBe(0);
    expect(r.outputs["check-run-id"]).toBe(String(f.checkRuns[0]?.id));
    expect(r.outputs["comment-id"]).toBe("");
    expect(f.comments).toEqual([]);
    expect(commandLines(r, "warning")).toEqual([
      "::warning::Could not list the pull request's comments to find the previous gate comment: GitHub answered 200 " +
        `with a body that is not JSON (application/json); the answer is not used. ${DELIVERED_NOTE}`,
    ]);
  });

  it("the comment create answers 201 with JSON of another shape: one warning, comment-id empty", async () => {
    const f = await startFake();
    f.fail("issues/create-comment", answer("JSON of another shape", 201));
    const r = await run(f);
    expect(r.code).toBe(0);
    expect(r.outputs["comment-id"]).toBe("");
    expect(commandLines(r, "warning")).toEqual([
      "::warning::Could not create the gate comment: GitHub answered 201 with JSON that lacks a usable `id`; " +
        `the answer is not used. ${DELIVERED_NOTE}`,
    ]);
    expect(f.calls().filter((c) => c === "POST issues/create-comment")).toHaveLength(1);
  });

  it("GraphQL viewer and GET /user both answer an HTML page: one warning, no comment (a guess could post a second)", async () => {
    const f = await startFake();
    f.fail(GRAPHQL, answer("an HTML page", 200));
    f.fail("users/get-authenticated", answer("an HTML page", 200));
    const r = await run(f);
    expect(r.code).toBe(0);
    expect(r.outputs["comment-id"]).toBe("");
    expect(f.calls().filter((c) => c.includes("comments"))).toEqual([]);
    expect(commandLines(r, "warning")).toEqual([
      "::warning::Could not tell which comments are the gate's (GraphQL viewer and GET /user), so no comment is " +
        "posted (a guess could post a second one): GitHub answered 200 with an HTML page instead of JSON; the answer " +
        // Asked before the verdict (the "Earlier runs" phase reads the comment's run history).
        "is not used. The verdict is not affected.",
    ]);
  });

  // The base commit's policy decides a pull request: an unusable answer is no policy, never the PR's copy.
  it("the base policy's contents answer an HTML page: an error, no verdict; a failed check run, no comment", async () => {
    const f = await startFake();
    f.fail("repos/get-content", answer("an HTML page", 200));
    const r = await run(f);
    expect(r.code).toBe(1);
    expect(r.outputs["verdict"]).toBeUndefined();
    expect(commandLines(r, "error")).toEqual([
      `::error::Cannot read the policy ${POLICY_PATH} at the pull request's base commit ${BASE_SHA.slice(0, 12)}, and the ` +
        "PR's own copy must not decide. contents API: GitHub answered 200 with an HTML page instead of JSON; git: the " +
        `checkout does not have commit ${BASE_SHA}. GitHub's answer could not be used: re-run the job, or check out ` +
        "with fetch-depth: 0 so that git can answer.",
    ]);
    expect(f.checkRuns.map((c) => [c.head_sha, c.conclusion, c.output.title])).toEqual([
      [HEAD_SHA, "failure", "Input error: no verdict"],
    ]);
    expect(f.comments).toEqual([]);
  });

  it("workflow_run: the pull request answers JSON of another shape: it cannot be confirmed, an error, no verdict", async () => {
    const f = await startFake();
    f.fail("pulls/get", answer("JSON of another shape", 200));
    const r = await run(f, "workflow_run");
    expect(r.code).toBe(1);
    expect(r.outputs["verdict"]).toBeUndefined();
    expect(commandLines(r, "error")).toEqual([
      `::error::Cannot confirm pull request #${PR_NUMBER} for this workflow_run (GitHub answered 200 with JSON that ` +
        "lacks a usable `head`), so it is not known which base policy decides. Re-run the job; the token needs " +
        "`pull-requests: read`.",
    ]);
    expect(f.calls()).not.toContain("GET repos/get-content");
  });
});
