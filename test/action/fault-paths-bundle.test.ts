/**
 * The GitHub API faults of fault-paths.test.ts end to end: the committed bundle dist/index.js as a
 * child process whose GITHUB_API_URL is the dropping proxy (test/action/fault-harness.ts) in front
 * of the fake GitHub: the comment create's 422 and the dropped check run create, comment listing,
 * GET /user, comment update and base policy calls. The annotations update cannot be dropped end
 * to end: the action never sends one (an error lists at most 20 problems, so at most 20
 * annotations, all in the create), which a test here shows with a policy of 60 located problems.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/core/report/report-types.js";
import { CLEAR_ACCEPT_ROWS as ACCEPT_ROWS, exportText, policyYaml, tasks, type TaskRow } from "./exports.js";
import { commentBody } from "./helpers.js";
import {
  BASE_SHA,
  commandLines as commands,
  DIST,
  distExists,
  HEAD_SHA,
  POLICY_PATH,
  PR_NUMBER,
  RESULTS_PATH,
  runDist,
  type RunResult,
} from "./run-action.js";
import { COMMENT_422, fake, proxy, useFaultServers } from "./fault-harness.js";

useFaultServers();

/** The mirror image: the baseline alone passes 20: reject. */
const REJECT_ROWS: TaskRow[] = [
  ...tasks(20, "b-only", { validity: "valid", a: "fail", b: "pass" }),
  ...tasks(30, "both", { validity: "valid", a: "pass", b: "pass" }),
  ...tasks(10, "neither", { validity: "valid", a: "fail", b: "fail" }),
];

/**
 * The bundle on a pull request, its GitHub API behind the proxy (retry base 1 ms: run-action.ts).
 * `policy` names another policy file (its base version must be set on the fake), the PR's copy
 * being `policyText`.
 */
function runBundle(
  rows: readonly TaskRow[],
  opts: { readonly policy?: string; readonly policyText?: string; readonly comment?: string } = {},
): Promise<RunResult> {
  const policy = opts.policy ?? POLICY_PATH;
  return runDist({
    fake,
    event: "pull_request",
    inputs: {
      results: RESULTS_PATH,
      policy,
      baseline: "cfg-baseline",
      candidate: "cfg-candidate",
      ...(opts.comment !== undefined ? { comment: opts.comment } : {}),
    },
    files: { [RESULTS_PATH]: exportText(rows), [policy]: opts.policyText ?? policyYaml() },
    env: { GITHUB_API_URL: proxy.baseUrl },
  });
}

/** The failed tries the action logs (::debug::), as "POST /repos/{owner}/{repo}/check-runs try 1". */
function failedTryLines(r: RunResult): string[] {
  return commands(r, "debug")
    .map((l) => /^::debug::(\S+ \S+): (?:no answer|GitHub answered \d+) \(.*\) on try (\d+)$/.exec(l))
    .filter((m) => m !== null)
    .map((m) => `${m[1]} try ${m[2]}`);
}

function reportOf(r: RunResult): Report {
  return JSON.parse(readFileSync(r.outputs["report-path"] ?? "", "utf8")) as Report;
}

/** The verdict reached the summary, the outputs and the report file. */
function expectVerdictDelivered(r: RunResult, verdict: "accept" | "reject"): void {
  expect(r.outputs["verdict"]).toBe(verdict);
  expect(r.outputs["common-valid-tasks"]).toBe("60");
  expect(r.summary).toMatch(verdict === "accept" ? /^## ✅ accept — / : /^## ❌ reject — /);
  expect(reportOf(r).verdict).toBe(verdict);
}

const VERDICT_ERROR = /^::error::Model gate verdict: reject \(fail-on: reject-or-unresolved\)\. /;

describe("end to end: the bundle (dist/index.js) with its GitHub API behind the proxy", () => {
  beforeAll(() => {
    // CI builds dist/ first (action.test.ts builds it when missing); these tests only run it.
    if (!distExists()) throw new Error(`${DIST} is missing: run \`npm run package\` first`);
  });

  it.each([
    ["accept", ACCEPT_ROWS, 0],
    ["reject", REJECT_ROWS, 1],
  ] as const)(
    "422 on the comment create (%s): one warning, no retry, comment-id empty; the verdict alone decides the step",
    async (verdict, rows, code) => {
      fake.fail("issues/create-comment", { status: 422 });
      proxy.answer({
        method: "POST",
        path: new RegExp(`/issues/${PR_NUMBER}/comments$`),
        status: 422,
        body: COMMENT_422,
      });
      const r = await runBundle(rows);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(code);
      expectVerdictDelivered(r, verdict);
      expect(fake.calls()).toEqual([
        "GET repos/get-content",
        "GET repos/list-commits",
        "GET checks/list-for-ref",
        "POST graphql",
        "GET issues/list-comments",
        "POST checks/create",
        "GET issues/list-comments",
        "POST issues/create-comment",
      ]);
      expect(
        fake.requests.filter((q) => q.operationId === "issues/create-comment").map((q) => q.status),
      ).toEqual([422]);
      expect(fake.comments).toEqual([]);
      expect(fake.checkRuns.map((c) => [c.head_sha, c.conclusion])).toEqual([
        [HEAD_SHA, verdict === "accept" ? "success" : "failure"],
      ]);
      expect(r.outputs["check-run-id"]).toBe(String(fake.checkRuns[0]?.id));
      expect(r.outputs["comment-id"]).toBe("");
      expect(commands(r, "warning")).toEqual([
        "::warning::Could not create the gate comment: GitHub rejected the request with 422 " +
          "(Validation Failed; body is too long (maximum is 65536 characters)).",
      ]);
      // Tried once: a 422 is GitHub's answer, and the write is not tried again after listing.
      expect(failedTryLines(r)).toEqual(["POST /repos/{owner}/{repo}/issues/{issue_number}/comments try 1"]);
      expect(r.stdout).not.toContain("listing again before try");
      const errors = commands(r, "error");
      if (verdict === "accept") expect(errors).toEqual([]);
      else {
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatch(VERDICT_ERROR);
      }
    },
  );

  it("check run create dropped every time: 3 tries with backoff, one warning; the comment is still posted", async () => {
    proxy.drop({ method: "POST", path: /\/check-runs$/, when: "before" });
    const r = await runBundle(ACCEPT_ROWS);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expectVerdictDelivered(r, "accept");
    expect(proxy.calls()).toEqual([
      "GET /repos/acme/models/contents/gate%2Fpolicy.yaml",
      "GET /repos/acme/models/commits",
      `GET /repos/acme/models/commits/${HEAD_SHA}/check-runs`,
      "POST /graphql",
      `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
      "POST /repos/acme/models/check-runs [dropped before]",
      "POST /repos/acme/models/check-runs [dropped before]",
      "POST /repos/acme/models/check-runs [dropped before]",
      `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
      `POST /repos/acme/models/issues/${PR_NUMBER}/comments`,
      `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
    ]);
    expect(failedTryLines(r)).toEqual([
      "POST /repos/{owner}/{repo}/check-runs try 1",
      "POST /repos/{owner}/{repo}/check-runs try 2",
      "POST /repos/{owner}/{repo}/check-runs try 3",
    ]);
    expect(fake.checkRuns).toEqual([]);
    expect(fake.comments.map((c) => c.issue)).toEqual([PR_NUMBER]);
    expect(r.outputs["check-run-id"]).toBe("");
    expect(r.outputs["comment-id"]).toBe(String(fake.comments[0]?.id));
    expect(commands(r, "warning")).toEqual([
      '::warning::Could not create the check run "Model acceptance gate": the request to GitHub failed ' +
        "(other side closed) 3 times; giving up. The verdict is in the job summary and the step outputs.",
    ]);
    expect(commands(r, "error")).toEqual([]);
  });

  it("check run create dropped after GitHub created it: retried once, two identical runs, the second's id", async () => {
    proxy.drop({ method: "POST", path: /\/check-runs$/, when: "after", times: 1 });
    const r = await runBundle(REJECT_ROWS);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
    expectVerdictDelivered(r, "reject");
    expect(fake.calls().filter((c) => c === "POST checks/create")).toHaveLength(2);
    expect(failedTryLines(r)).toEqual(["POST /repos/{owner}/{repo}/check-runs try 1"]);
    expect(fake.checkRuns.map((c) => [c.head_sha, c.conclusion])).toEqual([
      [HEAD_SHA, "failure"],
      [HEAD_SHA, "failure"],
    ]);
    expect(r.outputs["check-run-id"]).toBe(String(fake.checkRuns[1]?.id));
    expect(r.outputs["comment-id"]).toBe(String(fake.comments[0]?.id));
    expect(commands(r, "warning")).toEqual([]);
    const errors = commands(r, "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(VERDICT_ERROR);
  });

  it("comment listing dropped every time: 3 tries with backoff, one warning, no comment; the check run is there", async () => {
    proxy.drop({ method: "GET", path: new RegExp(`/issues/${PR_NUMBER}/comments$`), when: "before" });
    const r = await runBundle(ACCEPT_ROWS);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expectVerdictDelivered(r, "accept");
    expect(proxy.calls().slice(-3)).toEqual(
      Array(3).fill(`GET /repos/acme/models/issues/${PR_NUMBER}/comments [dropped before]`),
    );
    expect(fake.calls()).toEqual([
      "GET repos/get-content",
      "GET repos/list-commits",
      "GET checks/list-for-ref",
      "POST graphql",
      "POST checks/create",
    ]);
    // Listed twice, 3 tries each: for the run history (an info line), then for the comment (the
    // warning); each call counts its own tries (the second's first retry waits 1 unit, not 16).
    expect(failedTryLines(r)).toEqual([
      "GET /repos/{owner}/{repo}/issues/{issue_number}/comments try 1",
      "GET /repos/{owner}/{repo}/issues/{issue_number}/comments try 2",
      "GET /repos/{owner}/{repo}/issues/{issue_number}/comments try 3",
      "GET /repos/{owner}/{repo}/issues/{issue_number}/comments try 1",
      "GET /repos/{owner}/{repo}/issues/{issue_number}/comments try 2",
      "GET /repos/{owner}/{repo}/issues/{issue_number}/comments try 3",
    ]);
    expect(fake.comments).toEqual([]);
    expect(r.outputs["check-run-id"]).toBe(String(fake.checkRuns[0]?.id));
    expect(r.outputs["comment-id"]).toBe("");
    expect(commands(r, "warning")).toEqual([
      "::warning::Could not list the pull request's comments to find the previous gate comment: the request " +
        "to GitHub failed (other side closed) 3 times; giving up. The verdict is in the job summary and the step outputs.",
    ]);
    expect(commands(r, "error")).toEqual([]);
  });

  it("GraphQL refused and GET /user dropped every time: 3 tries, one warning, no comment (it could be a second)", async () => {
    fake.fail("graphql", { status: 200, graphqlErrorType: "FORBIDDEN" });
    proxy.drop({ method: "GET", path: /^\/user$/, when: "before" });
    const r = await runBundle(ACCEPT_ROWS);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expectVerdictDelivered(r, "accept");
    // Asked once, in the "Earlier runs" phase (before the verdict); the check run follows.
    expect(proxy.calls().slice(-4)).toEqual([
      ...Array<string>(3).fill("GET /user [dropped before]"),
      "POST /repos/acme/models/check-runs",
    ]);
    expect(fake.calls()).toEqual([
      "GET repos/get-content",
      "GET repos/list-commits",
      "GET checks/list-for-ref",
      "POST graphql",
      "POST checks/create",
    ]);
    expect(failedTryLines(r)).toEqual(["GET /user try 1", "GET /user try 2", "GET /user try 3"]);
    expect(fake.comments).toEqual([]);
    expect(r.outputs["check-run-id"]).toBe(String(fake.checkRuns[0]?.id));
    expect(r.outputs["comment-id"]).toBe("");
    expect(commands(r, "warning")).toEqual([
      "::warning::Could not tell which comments are the gate's (GraphQL viewer and GET /user), so no comment " +
        "is posted (a guess " +
        "could post a second one): the request to GitHub failed (other side closed) 3 times; giving up. The " +
        "verdict is not affected.",
    ]);
    expect(commands(r, "error")).toEqual([]);
  });

  it("comment update dropped every time: 3 tries, each after listing again, one warning; the old comment stays, comment-id empty", async () => {
    const old = commentBody("0".repeat(64), "old");
    const mine = fake.addComment(PR_NUMBER, old);
    proxy.drop({ method: "PATCH", path: /\/issues\/comments\/\d+$/, when: "before" });
    const r = await runBundle(ACCEPT_ROWS);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expectVerdictDelivered(r, "accept");
    expect(proxy.calls()).toEqual([
      "GET /repos/acme/models/contents/gate%2Fpolicy.yaml",
      "GET /repos/acme/models/commits",
      `GET /repos/acme/models/commits/${HEAD_SHA}/check-runs`,
      "POST /graphql",
      `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
      "POST /repos/acme/models/check-runs",
      ...Array.from({ length: 3 }, () => [
        `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
        `PATCH /repos/acme/models/issues/comments/${mine.id} [dropped before]`,
      ]).flat(),
    ]);
    expect(commands(r, "debug").filter((l) => l.includes("listing again before try"))).toEqual([
      "::debug::writing the gate comment failed (no answer); listing again before try 2",
      "::debug::writing the gate comment failed (no answer); listing again before try 3",
    ]);
    expect(fake.comments.map((c) => [c.id, c.body, c.updates])).toEqual([[mine.id, old, 0]]);
    expect(r.outputs["check-run-id"]).toBe(String(fake.checkRuns[0]?.id));
    expect(r.outputs["comment-id"]).toBe("");
    expect(commands(r, "warning")).toEqual([
      "::warning::Could not update the gate comment: the request to GitHub failed (other side closed) 3 times; " +
        "giving up. The verdict is in the job summary and the step outputs.",
    ]);
    expect(commands(r, "error")).toEqual([]);
  });

  it("comment update dropped once (reject): listed again, updated in place, comment-id its id; no warning", async () => {
    const mine = fake.addComment(PR_NUMBER, commentBody("0".repeat(64), "old"));
    proxy.drop({ method: "PATCH", path: /\/issues\/comments\/\d+$/, when: "before", times: 1 });
    const r = await runBundle(REJECT_ROWS);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
    expectVerdictDelivered(r, "reject");
    expect(fake.calls().slice(-3)).toEqual([
      "GET issues/list-comments",
      "GET issues/list-comments",
      "PATCH issues/update-comment",
    ]);
    expect(fake.comments.map((c) => [c.id, c.updates])).toEqual([[mine.id, 1]]);
    expect(mine.body).toMatch(/^## ❌ reject — /m);
    expect(r.outputs["comment-id"]).toBe(String(mine.id));
    expect(r.outputs["check-run-id"]).toBe(String(fake.checkRuns[0]?.id));
    expect(commands(r, "warning")).toEqual([]);
    const errors = commands(r, "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(VERDICT_ERROR);
  });

  // The action sends annotations only for a policy (or input) error, one per listed problem, and an
  // InputError lists at most 20 (MAX_LISTED_PROBLEMS): the check run is created with all of them in
  // one request, so the update that adds annotations 51 and on is never sent and cannot be dropped.
  it("a base policy with 60 located problems: 20 annotations in the create, no update to drop", async () => {
    const path = "gate/bad-policy.yaml";
    const bad = policyYaml() + Array.from({ length: 60 }, (_, i) => `unknown_${i}: 1`).join("\n") + "\n";
    fake.setFile(BASE_SHA, path, bad);
    proxy.drop({ method: "PATCH", path: /\/check-runs\/\d+$/, when: "before" });
    const r = await runBundle(ACCEPT_ROWS, { policy: path, policyText: bad });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
    expect(proxy.calls()).toEqual([
      "GET /repos/acme/models/contents/gate%2Fbad-policy.yaml",
      "GET /repos/acme/models/commits",
      `GET /repos/acme/models/commits/${HEAD_SHA}/check-runs`,
      "POST /graphql",
      `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
      "POST /repos/acme/models/check-runs",
    ]);
    const run0 = fake.checkRuns[0];
    expect([run0?.conclusion, run0?.output.title]).toEqual(["failure", "Policy error: no verdict"]);
    expect(run0?.annotations.length).toBe(20);
    expect(run0?.annotationRequests).toBe(1);
    expect(r.summary).toMatch(/^## ❗ policy error — no verdict\n/);
    expect(r.summary).toContain("- … and 40 more\n");
    expect(r.outputs["check-run-id"]).toBe(String(run0?.id));
    expect(r.outputs["verdict"]).toBeUndefined();
    expect(commands(r, "warning")).toEqual([]);
    const errors = commands(r, "error");
    expect(errors.filter((l) => l.startsWith(`::error file=${path},`))).toHaveLength(9);
    expect(errors.filter((l) => l.startsWith("::error::"))).toEqual([
      expect.stringMatching(/^::error::Invalid policy file gate\/bad-policy\.yaml: 60 problems%0A/),
    ]);
  });

  it("base policy contents dropped once: retried, and the run is as normal", async () => {
    proxy.drop({ method: "GET", path: /\/contents\//, when: "before", times: 1 });
    const r = await runBundle(ACCEPT_ROWS);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expectVerdictDelivered(r, "accept");
    expect(proxy.calls()).toEqual([
      "GET /repos/acme/models/contents/gate%2Fpolicy.yaml [dropped before]",
      "GET /repos/acme/models/contents/gate%2Fpolicy.yaml",
      "GET /repos/acme/models/commits",
      `GET /repos/acme/models/commits/${HEAD_SHA}/check-runs`,
      "POST /graphql",
      `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
      "POST /repos/acme/models/check-runs",
      `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
      `POST /repos/acme/models/issues/${PR_NUMBER}/comments`,
      `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
    ]);
    expect(failedTryLines(r)).toEqual(["GET /repos/{owner}/{repo}/contents/{path} try 1"]);
    expect(reportOf(r).provenance.policy.source).toBe(`base commit ${BASE_SHA} (contents API)`);
    expect(reportOf(r).provenance.policy.last_commit).toBe("9".repeat(40));
    expect(r.outputs["check-run-id"]).toBe(String(fake.checkRuns[0]?.id));
    expect(r.outputs["comment-id"]).toBe(String(fake.comments[0]?.id));
    expect(commands(r, "warning")).toEqual([]);
    expect(commands(r, "error")).toEqual([]);
  });

  // By design: the base commit's policy decides, and when neither the contents API nor the
  // checkout can give it, the PR's own copy must not; the run stops with an error (no verdict).
  it("base policy contents dropped every time (no fetch-depth: 0): 3 tries, then an error, no verdict; a failed check run, no comment", async () => {
    proxy.drop({ method: "GET", path: /\/contents\//, when: "before" });
    const r = await runBundle(ACCEPT_ROWS);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
    expect(proxy.calls()).toEqual([
      ...Array<string>(3).fill("GET /repos/acme/models/contents/gate%2Fpolicy.yaml [dropped before]"),
      "POST /repos/acme/models/check-runs",
    ]);
    expect(failedTryLines(r)).toEqual([
      "GET /repos/{owner}/{repo}/contents/{path} try 1",
      "GET /repos/{owner}/{repo}/contents/{path} try 2",
      "GET /repos/{owner}/{repo}/contents/{path} try 3",
    ]);
    const message =
      "Cannot read the policy gate/policy.yaml at the pull request's base commit bbbbbbbbbbbb, and the PR's own " +
      "copy must not decide. contents API: no answer (other side closed); git: the checkout does not have commit " +
      `${BASE_SHA}. GitHub did not answer: re-run the job, or check out with fetch-depth: 0 so that git can answer.`;
    expect(commands(r, "error")).toEqual([`::error::${message}`]);
    expect(commands(r, "warning")).toEqual([]);
    expect(r.summary).toMatch(/^## ❗ input error — no verdict\n/);
    expect(r.summary).toContain(
      "Cannot read the policy gate/policy\\.yaml at the pull request's base commit bbbbbbbbbbbb, and the PR's own " +
        "copy must not decide\\. contents API: no answer \\(other side closed\\);",
    );
    expect(fake.checkRuns.map((c) => [c.head_sha, c.conclusion, c.output.title])).toEqual([
      [HEAD_SHA, "failure", "Input error: no verdict"],
    ]);
    expect(fake.comments).toEqual([]);
    expect(r.outputs).toEqual({ "check-run-id": String(fake.checkRuns[0]?.id) });
  });

  it('base policy commits dropped every time: 3 tries, then the last commit is "unknown"; no warning, the run is as normal', async () => {
    proxy.drop({ method: "GET", path: /\/commits$/, when: "before" });
    const r = await runBundle(ACCEPT_ROWS);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expectVerdictDelivered(r, "accept");
    expect(proxy.calls().slice(0, 4)).toEqual([
      "GET /repos/acme/models/contents/gate%2Fpolicy.yaml",
      ...Array<string>(3).fill("GET /repos/acme/models/commits [dropped before]"),
    ]);
    expect(fake.calls()).toEqual([
      "GET repos/get-content",
      "GET checks/list-for-ref",
      "POST graphql",
      "GET issues/list-comments",
      "POST checks/create",
      "GET issues/list-comments",
      "POST issues/create-comment",
      "GET issues/list-comments",
    ]);
    expect(failedTryLines(r)).toEqual([
      "GET /repos/{owner}/{repo}/commits try 1",
      "GET /repos/{owner}/{repo}/commits try 2",
      "GET /repos/{owner}/{repo}/commits try 3",
    ]);
    expect(commands(r, "debug")).toContain("::debug::commits API: error other side closed; trying git log");
    expect(reportOf(r).provenance.policy.last_commit).toBeNull();
    expect(reportOf(r).provenance.policy.source).toBe(`base commit ${BASE_SHA} (contents API)`);
    expect(r.summary).toContain("| Policy last changed in | unknown |");
    expect(r.outputs["check-run-id"]).toBe(String(fake.checkRuns[0]?.id));
    expect(r.outputs["comment-id"]).toBe(String(fake.comments[0]?.id));
    expect(commands(r, "warning")).toEqual([]);
    expect(commands(r, "error")).toEqual([]);
  });
});
