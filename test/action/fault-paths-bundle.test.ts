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
import type { StoredComment } from "./fake-github-parts.js";
import { commentBody } from "./helpers.js";
import { named } from "../helpers/named-cases.js";
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

/** GitHub's tries of one call, as failedTryLines gives them: "GET /user try 1", … */
function tries(call: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => `${call} try ${i + 1}`);
}

const COMMENTS_CALL = "/repos/{owner}/{repo}/issues/{issue_number}/comments";

/**
 * The calls of a run up to its verdict that follow reading the base policy, as the proxy sees them:
 * the policy's last commit, the head's check runs (earlier runs), the gate's identity, the PR's
 * comments (earlier runs' comments).
 */
const PROXY_AFTER_POLICY = [
  "GET /repos/acme/models/commits",
  `GET /repos/acme/models/commits/${HEAD_SHA}/check-runs`,
  "POST /graphql",
  `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
];

/** The first calls of a run as the fake GitHub answers them: the base policy, its last commit, earlier runs, the identity. */
const FAKE_BEFORE_VERDICT = [
  "GET repos/get-content",
  "GET repos/list-commits",
  "GET checks/list-for-ref",
  "POST graphql",
];

/** The gate's comment of an earlier run (its digest all zeros). */
const OLD_COMMENT = commentBody("0".repeat(64), "old");

/**
 * A GitHub fault the run gets past with its verdict. Every such run has no stderr, exits 0 on
 * accept and 1 on reject (fail-on: reject-or-unresolved), delivers the verdict to the summary, the
 * outputs and the report, and logs no error but the reject's one; beyond that each case says what
 * it sets up and what it must see.
 */
interface DeliveredCase {
  readonly name: string;
  readonly verdict: "accept" | "reject";
  /** The gate's comment from an earlier run is on the PR (`expectRun` gets it). */
  readonly oldComment?: true;
  /** Sets the faults up before the run. */
  readonly arrange: () => void;
  /** The check-run-id output: the id of this run of fake.checkRuns, or null: empty. */
  readonly checkRun: 0 | 1 | null;
  /** The comment-id output: the first comment's id, the old comment's, or empty. */
  readonly comment: "first" | "old" | "empty";
  /** The warnings (workflow commands), in order. */
  readonly warnings: readonly string[];
  readonly expectRun: (r: RunResult, old: StoredComment | undefined) => void;
}

const DELIVERED: readonly DeliveredCase[] = [
  ...(["accept", "reject"] as const).map((verdict): DeliveredCase => ({
    name: `422 on the comment create (${verdict}): one warning, no retry, comment-id empty; the verdict alone decides the step`,
    verdict,
    arrange: () => {
      fake.fail("issues/create-comment", { status: 422 });
      proxy.answer({
        method: "POST",
        path: new RegExp(`/issues/${PR_NUMBER}/comments$`),
        status: 422,
        body: COMMENT_422,
      });
    },
    checkRun: 0,
    comment: "empty",
    warnings: [
      "::warning::Could not create the gate comment: GitHub rejected the request with 422 " +
        "(Validation Failed; body is too long (maximum is 65536 characters)).",
    ],
    expectRun: (r) => {
      expect(fake.calls()).toEqual([
        ...FAKE_BEFORE_VERDICT,
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
      // Tried once: a 422 is GitHub's answer, and the write is not tried again after listing.
      expect(failedTryLines(r)).toEqual(tries(`POST ${COMMENTS_CALL}`, 1));
      expect(r.stdout).not.toContain("listing again before try");
    },
  })),
  {
    name: "check run create dropped every time: 3 tries with backoff, one warning; the comment is still posted",
    verdict: "accept",
    arrange: () => {
      proxy.drop({ method: "POST", path: /\/check-runs$/, when: "before" });
    },
    checkRun: null,
    comment: "first",
    warnings: [
      '::warning::Could not create the check run "Model acceptance gate": the request to GitHub failed ' +
        "(other side closed) 3 times; giving up. The verdict is in the job summary and the step outputs.",
    ],
    expectRun: (r) => {
      expect(proxy.calls()).toEqual([
        "GET /repos/acme/models/contents/gate%2Fpolicy.yaml",
        ...PROXY_AFTER_POLICY,
        "POST /repos/acme/models/check-runs [dropped before]",
        "POST /repos/acme/models/check-runs [dropped before]",
        "POST /repos/acme/models/check-runs [dropped before]",
        `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
        `POST /repos/acme/models/issues/${PR_NUMBER}/comments`,
        `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
      ]);
      expect(failedTryLines(r)).toEqual(tries("POST /repos/{owner}/{repo}/check-runs", 3));
      expect(fake.checkRuns).toEqual([]);
      expect(fake.comments.map((c) => c.issue)).toEqual([PR_NUMBER]);
    },
  },
  {
    name: "check run create dropped after GitHub created it: retried once, two identical runs, the second's id",
    verdict: "reject",
    arrange: () => {
      proxy.drop({ method: "POST", path: /\/check-runs$/, when: "after", times: 1 });
    },
    checkRun: 1,
    comment: "first",
    warnings: [],
    expectRun: (r) => {
      expect(fake.calls().filter((c) => c === "POST checks/create")).toHaveLength(2);
      expect(failedTryLines(r)).toEqual(tries("POST /repos/{owner}/{repo}/check-runs", 1));
      expect(fake.checkRuns.map((c) => [c.head_sha, c.conclusion])).toEqual([
        [HEAD_SHA, "failure"],
        [HEAD_SHA, "failure"],
      ]);
    },
  },
  {
    name: "comment listing dropped every time: 3 tries with backoff, one warning, no comment; the check run is there",
    verdict: "accept",
    arrange: () => {
      proxy.drop({ method: "GET", path: new RegExp(`/issues/${PR_NUMBER}/comments$`), when: "before" });
    },
    checkRun: 0,
    comment: "empty",
    warnings: [
      "::warning::Could not list the pull request's comments to find the previous gate comment: the request " +
        "to GitHub failed (other side closed) 3 times; giving up. The verdict is in the job summary and the step outputs.",
    ],
    expectRun: (r) => {
      expect(proxy.calls().slice(-3)).toEqual(
        Array(3).fill(`GET /repos/acme/models/issues/${PR_NUMBER}/comments [dropped before]`),
      );
      expect(fake.calls()).toEqual([...FAKE_BEFORE_VERDICT, "POST checks/create"]);
      // Listed twice, 3 tries each: for the run history (an info line), then for the comment (the
      // warning); each call counts its own tries (the second's first retry waits 1 unit, not 16).
      expect(failedTryLines(r)).toEqual([
        ...tries(`GET ${COMMENTS_CALL}`, 3),
        ...tries(`GET ${COMMENTS_CALL}`, 3),
      ]);
      expect(fake.comments).toEqual([]);
    },
  },
  {
    name: "GraphQL refused and GET /user dropped every time: 3 tries, one warning, no comment (it could be a second)",
    verdict: "accept",
    arrange: () => {
      fake.fail("graphql", { status: 200, graphqlErrorType: "FORBIDDEN" });
      proxy.drop({ method: "GET", path: /^\/user$/, when: "before" });
    },
    checkRun: 0,
    comment: "empty",
    warnings: [
      "::warning::Could not tell which comments are the gate's (GraphQL viewer and GET /user), so no comment " +
        "is posted (a guess " +
        "could post a second one): the request to GitHub failed (other side closed) 3 times; giving up. The " +
        "verdict is not affected.",
    ],
    expectRun: (r) => {
      // Asked once, in the "Earlier runs" phase (before the verdict); the check run follows.
      expect(proxy.calls().slice(-4)).toEqual([
        ...Array<string>(3).fill("GET /user [dropped before]"),
        "POST /repos/acme/models/check-runs",
      ]);
      expect(fake.calls()).toEqual([...FAKE_BEFORE_VERDICT, "POST checks/create"]);
      expect(failedTryLines(r)).toEqual(tries("GET /user", 3));
      expect(fake.comments).toEqual([]);
    },
  },
  {
    name: "comment update dropped every time: 3 tries, each after listing again, one warning; the old comment stays, comment-id empty",
    verdict: "accept",
    oldComment: true,
    arrange: () => {
      proxy.drop({ method: "PATCH", path: /\/issues\/comments\/\d+$/, when: "before" });
    },
    checkRun: 0,
    comment: "empty",
    warnings: [
      "::warning::Could not update the gate comment: the request to GitHub failed (other side closed) 3 times; " +
        "giving up. The verdict is in the job summary and the step outputs.",
    ],
    expectRun: (r, mine) => {
      if (mine === undefined) throw new Error("the case has an old comment");
      expect(proxy.calls()).toEqual([
        "GET /repos/acme/models/contents/gate%2Fpolicy.yaml",
        ...PROXY_AFTER_POLICY,
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
      expect(fake.comments.map((c) => [c.id, c.body, c.updates])).toEqual([[mine.id, OLD_COMMENT, 0]]);
    },
  },
  {
    name: "comment update dropped once (reject): listed again, updated in place, comment-id its id; no warning",
    verdict: "reject",
    oldComment: true,
    arrange: () => {
      proxy.drop({ method: "PATCH", path: /\/issues\/comments\/\d+$/, when: "before", times: 1 });
    },
    checkRun: 0,
    comment: "old",
    warnings: [],
    expectRun: (_r, mine) => {
      if (mine === undefined) throw new Error("the case has an old comment");
      expect(fake.calls().slice(-3)).toEqual([
        "GET issues/list-comments",
        "GET issues/list-comments",
        "PATCH issues/update-comment",
      ]);
      expect(fake.comments.map((c) => [c.id, c.updates])).toEqual([[mine.id, 1]]);
      expect(mine.body).toMatch(/^## ❌ reject — /m);
    },
  },
  {
    name: "base policy contents dropped once: retried, and the run is as normal",
    verdict: "accept",
    arrange: () => {
      proxy.drop({ method: "GET", path: /\/contents\//, when: "before", times: 1 });
    },
    checkRun: 0,
    comment: "first",
    warnings: [],
    expectRun: (r) => {
      expect(proxy.calls()).toEqual([
        "GET /repos/acme/models/contents/gate%2Fpolicy.yaml [dropped before]",
        "GET /repos/acme/models/contents/gate%2Fpolicy.yaml",
        ...PROXY_AFTER_POLICY,
        "POST /repos/acme/models/check-runs",
        `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
        `POST /repos/acme/models/issues/${PR_NUMBER}/comments`,
        `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
      ]);
      expect(failedTryLines(r)).toEqual(tries("GET /repos/{owner}/{repo}/contents/{path}", 1));
      expect(reportOf(r).provenance.policy.source).toBe(`base commit ${BASE_SHA} (contents API)`);
      expect(reportOf(r).provenance.policy.last_commit).toBe("9".repeat(40));
    },
  },
  {
    name: 'base policy commits dropped every time: 3 tries, then the last commit is "unknown"; no warning, the run is as normal',
    verdict: "accept",
    arrange: () => {
      proxy.drop({ method: "GET", path: /\/commits$/, when: "before" });
    },
    checkRun: 0,
    comment: "first",
    warnings: [],
    expectRun: (r) => {
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
      expect(failedTryLines(r)).toEqual(tries("GET /repos/{owner}/{repo}/commits", 3));
      expect(commands(r, "debug")).toContain("::debug::commits API: error other side closed; trying git log");
      expect(reportOf(r).provenance.policy.last_commit).toBeNull();
      expect(reportOf(r).provenance.policy.source).toBe(`base commit ${BASE_SHA} (contents API)`);
      expect(r.summary).toContain("| Policy last changed in | unknown |");
    },
  },
];

describe("end to end: the bundle (dist/index.js) with its GitHub API behind the proxy", () => {
  beforeAll(() => {
    // CI builds dist/ first (action.test.ts builds it when missing); these tests only run it.
    if (!distExists()) throw new Error(`${DIST} is missing: run \`npm run package\` first`);
  });

  it.each(named(DELIVERED))(
    "%s",
    async (_name, { verdict, oldComment, arrange, checkRun, comment, warnings, expectRun }) => {
      const old = oldComment === true ? fake.addComment(PR_NUMBER, OLD_COMMENT) : undefined;
      arrange();
      const r = await runBundle(verdict === "accept" ? ACCEPT_ROWS : REJECT_ROWS);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(verdict === "accept" ? 0 : 1);
      expectVerdictDelivered(r, verdict);
      expectRun(r, old);
      expect(r.outputs["check-run-id"]).toBe(checkRun === null ? "" : String(fake.checkRuns[checkRun]?.id));
      expect(r.outputs["comment-id"]).toBe(
        comment === "empty" ? "" : String((comment === "old" ? old : fake.comments[0])?.id),
      );
      expect(commands(r, "warning")).toEqual(warnings);
      const errors = commands(r, "error");
      if (verdict === "accept") expect(errors).toEqual([]);
      else {
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatch(VERDICT_ERROR);
      }
    },
  );

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
      ...PROXY_AFTER_POLICY,
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
    expect(failedTryLines(r)).toEqual(tries("GET /repos/{owner}/{repo}/contents/{path}", 3));
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
});
