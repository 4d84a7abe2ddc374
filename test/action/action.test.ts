/**
 * End to end: the committed dist/index.js as a child process against the loopback fake GitHub,
 * which fails the test on any request GitHub would reject (see fake-github.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMENT_MARKER } from "../../src/core/report/escape.js";
import type { Report } from "../../src/core/report/report-types.js";
import { readDigest, readHeader } from "../../src/action/sticky-comment.js";
import { exportText, policyYaml, tasks, writeExport, type TaskRow } from "./exports.js";
import { ACTIONS_BOT, FakeGitHub, type Identity } from "./fake-github.js";
import { expectGolden } from "./golden.js";
import {
  BASE_SHA,
  commandLines as commands,
  HEAD_SHA,
  PR_NUMBER,
  PUSH_SHA,
  runDist,
  workflowCommands,
  useFakeGitHub,
  type EventKind,
  type RunResult,
  gateInputs,
  POLICY_PATH,
  RESULTS_PATH,
} from "./run-action.js";

const LAST_POLICY_COMMIT = "9".repeat(40);
const ALICE: Identity = { login: "alice", id: 7, type: "User", installation: false };

const fakes = useFakeGitHub();

async function startFake(basePolicy: string | null = policyYaml()): Promise<FakeGitHub> {
  const fake = await fakes.start();
  if (basePolicy !== null) {
    fake.setFile(BASE_SHA, POLICY_PATH, basePolicy);
    fake.setCommits(BASE_SHA, POLICY_PATH, [LAST_POLICY_COMMIT, "8".repeat(40)]);
  }
  return fake;
}

/** 60 valid tasks: candidate alone passes 20, both 30, neither 10; 3 disputed the baseline alone passes. */
const ACCEPT_ROWS: TaskRow[] = [
  ...tasks(20, "a-only", { validity: "valid", a: "pass", b: "fail" }),
  ...tasks(30, "both", { validity: "valid", a: "pass", b: "pass" }),
  ...tasks(10, "neither", { validity: "valid", a: "fail", b: "fail" }),
  ...tasks(3, "open", { validity: "disputed", a: "fail", b: "pass" }),
];

/** The mirror image: the baseline alone passes 20. */
const REJECT_ROWS: TaskRow[] = [
  ...tasks(20, "b-only", { validity: "valid", a: "fail", b: "pass" }),
  ...tasks(30, "both", { validity: "valid", a: "pass", b: "pass" }),
  ...tasks(10, "neither", { validity: "valid", a: "fail", b: "fail" }),
];

interface Scenario {
  readonly event?: EventKind;
  readonly rows?: readonly TaskRow[];
  readonly inputs?: Readonly<Record<string, string>>;
  readonly headPolicy?: string | null;
  readonly files?: Readonly<Record<string, string>>;
  readonly env?: Readonly<Record<string, string>>;
}

function run(f: FakeGitHub, s: Scenario = {}): Promise<RunResult> {
  const files: Record<string, string> = { [RESULTS_PATH]: exportText(s.rows ?? ACCEPT_ROWS), ...s.files };
  const head = s.headPolicy === undefined ? policyYaml() : s.headPolicy;
  if (head !== null) files[POLICY_PATH] = head;
  return runDist({
    fake: f,
    event: s.event ?? "pull_request",
    inputs: gateInputs(s.inputs),
    files,
    ...(s.env !== undefined ? { env: s.env } : {}),
  });
}

function report(r: RunResult): Report {
  return JSON.parse(readFileSync(r.outputs["report-path"] ?? "", "utf8")) as Report;
}

/** Only the commands @actions/core emits for this action; nothing injected. */
function expectOnlyOwnCommands(r: RunResult): void {
  for (const c of workflowCommands(r.stdout))
    expect(["debug", "warning", "error", "group", "endgroup"]).toContain(c.name);
}

describe("the action on a pull request", () => {
  it("accept: summary, outputs, report file, a successful check run on the head SHA and one comment", async () => {
    const f = await startFake();
    const r = await run(f);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const rep = report(r);
    expect(r.outputs).toEqual({
      verdict: "accept",
      margin: "0.3333333333333333",
      "margin-lower": "0.2698412698412698",
      "margin-upper": "0.3333333333333333",
      lcb: String(rep.comparison.lcb),
      "common-valid-tasks": "60",
      "disputed-fraction": "0.047619047619047616",
      "infra-error-rate-baseline": "0",
      "infra-error-rate-candidate": "0",
      "review-fragility": String(rep.comparison.review_fragility),
      "verdict-exclude": "accept",
      "verdict-count-as-fail": "accept",
      "verdict-bound": "accept",
      // No guardrails in the policy and no metrics in the export: empty.
      guardrails: "",
      benchmarks: "",
      "run-count": "1",
      "report-path": `${r.runnerTemp}/model-gate-report.json`,
      "check-run-id": String(f.checkRuns[0]?.id),
      "comment-id": String(f.comments[0]?.id),
    });
    expect(rep.verdict).toBe("accept");
    expect(rep.provenance.policy).toMatchObject({
      path: POLICY_PATH,
      source: `base commit ${BASE_SHA} (contents API)`,
      last_commit: LAST_POLICY_COMMIT,
    });
    expect(rep.provenance.inputs.map((i) => i.path)).toEqual([RESULTS_PATH]);
    // Reads before the verdict (base policy, earlier runs and the comment's history), writes after.
    expect(f.calls()).toEqual([
      "GET repos/get-content",
      "GET repos/list-commits",
      "GET checks/list-for-ref",
      "POST graphql",
      "GET issues/list-comments",
      "POST checks/create",
      "GET issues/list-comments",
      "POST issues/create-comment",
      "GET issues/list-comments",
    ]);
    expect(f.checkRuns).toHaveLength(1);
    expect(f.checkRuns[0]).toMatchObject({
      head_sha: HEAD_SHA,
      name: "Model acceptance gate",
      status: "completed",
      conclusion: "success",
    });
    expect(f.checkRuns[0]?.output.title).toBe("Accept: margin +33.33 pp, lower bound +15.52 pp > δ₀ 0.00 pp");
    expect(f.checkRuns[0]?.output.summary).toBe(r.summary);
    expect(f.comments).toHaveLength(1);
    const comment = f.comments[0];
    expect(comment?.user.login).toBe("github-actions[bot]");
    expect(comment?.issue).toBe(PR_NUMBER);
    expect(
      comment?.body.startsWith(
        `${COMMENT_MARKER}\n<!-- model-acceptance-gate:key Model%20acceptance%20gate -->\n<!-- model-acceptance-gate:digest `,
      ),
    ).toBe(true);
    expect(readDigest(comment?.body ?? "")).toMatch(/^[0-9a-f]{64}$/);
    expect(commands(r, "warning")).toEqual([]);
    expect(commands(r, "error")).toEqual([]);
    expectGolden("action-accept-summary.md", r.summary);
    expectGolden("action-accept-comment.md", comment?.body ?? "");
  });

  it("the log is folded by phase (inputs, policy, append-only, earlier runs, reading, verdict, GitHub), groups never nested", async () => {
    const f = await startFake();
    const r = await run(f);
    const folds = workflowCommands(r.stdout).filter((c) => c.name === "group" || c.name === "endgroup");
    expect(folds.map((c) => c.line)).toEqual(
      ["Inputs", "Policy", "Append-only", "Earlier runs", "Reading the results", "Verdict", "GitHub"].flatMap(
        (g) => [`::group::${g}`, "::endgroup::"],
      ),
    );
    const lines = r.stdout.split("\n");
    const inGroup = (name: string): string[] => {
      const start = lines.indexOf(`::group::${name}`);
      const end = lines.indexOf("::endgroup::", start);
      return lines.slice(start + 1, end);
    };
    expect(inGroup("Inputs")).toContain(
      `Gate run: event pull_request; repository acme/models; commit ${HEAD_SHA}; pull request #${PR_NUMBER}; 1 results file, 0 reviews files; policy ${POLICY_PATH}.`,
    );
    expect(inGroup("Policy")).toContain(
      `Policy ${POLICY_PATH}: base commit ${BASE_SHA} (contents API); last changed in ${LAST_POLICY_COMMIT}.`,
    );
    expect(inGroup("Reading the results")).toContain("Read 126 rows from 1 file.");
    expect(inGroup("Verdict")).toContain("Accept: margin +33.33 pp, lower bound +15.52 pp > δ₀ 0.00 pp.");
    expect(inGroup("GitHub")).toEqual(
      expect.arrayContaining([
        `Check run "Model acceptance gate" created on ${HEAD_SHA} (id ${f.checkRuns[0]?.id}).`,
        `Gate comment created on pull request #${PR_NUMBER} (id ${f.comments[0]?.id}).`,
      ]),
    );
  });

  it("an input error is reported in its own fold, after the phase that failed", async () => {
    const f = await startFake(null);
    const r = await run(f);
    expect(r.code).toBe(1);
    const folds = workflowCommands(r.stdout)
      .filter((c) => c.name === "group")
      .map((c) => c.line);
    expect(folds).toEqual(["::group::Inputs", "::group::Policy", "::group::Reporting the error"]);
    expect(r.stdout.trimEnd().split("\n").at(-1)).toMatch(
      /^::error::The policy gate\/policy.yaml does not exist/,
    );
  });

  it("reject: a failing check run, and the step fails once with one message", async () => {
    const f = await startFake();
    const r = await run(f, { rows: REJECT_ROWS });
    expect(r.code).toBe(1);
    expect(r.outputs["verdict"]).toBe("reject");
    expect(r.outputs["margin"]).toBe("-0.3333333333333333");
    expect(f.checkRuns.map((c) => c.conclusion)).toEqual(["failure"]);
    const errors = commands(r, "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^::error::Model gate verdict: reject \(fail-on: reject-or-unresolved\)\. /);
    expectGolden("action-reject-summary.md", r.summary);
  });

  it("unresolved with on_unresolved: neutral gives a neutral check; fail-on: reject keeps the step green", async () => {
    const policy = policyYaml({ minTasks: 100, onUnresolved: "neutral" });
    const f = await startFake(policy);
    const r = await run(f, { headPolicy: policy, inputs: { "fail-on": "reject" } });
    expect(r.code).toBe(0);
    expect(r.outputs["verdict"]).toBe("unresolved");
    expect(f.checkRuns.map((c) => c.conclusion)).toEqual(["neutral"]);
    expect(commands(r, "error")).toEqual([]);
    expectGolden("action-unresolved-summary.md", r.summary);
  });

  it("an expired policy with on_expired: neutral: the title and the comment's first line say so, the accept's check is neutral", async () => {
    const policy = policyYaml({ revisit: "2020-01-31" }).replace("on_expired: warn", "on_expired: neutral");
    const f = await startFake(policy);
    const r = await run(f, { headPolicy: policy });
    expect(r.code).toBe(0);
    expect(r.outputs["verdict"]).toBe("accept");
    expect(f.checkRuns.map((c) => c.conclusion)).toEqual(["neutral"]);
    expect(f.checkRuns[0]?.output.title).toMatch(/^Accept \(policy expired 2020-01-31\): margin /);
    const body = f.comments[0]?.body ?? "";
    const firstLine = body.split("\n").find((l) => l.trim() !== "" && !l.startsWith("<!--")) ?? "";
    expect(firstLine).toMatch(/^## ✅ accept \(⌛ policy expired 2020-01-31\) — candidate /);
    expect(commands(r, "warning")).toContainEqual(
      expect.stringContaining(
        "Policy expired on 2020-01-31; owner @acme/eval-owners must re-examine the thresholds",
      ),
    );
  });

  it("unresolved with on_unresolved: fail gives a failing check and fails the step by default", async () => {
    const policy = policyYaml({ minTasks: 100 });
    const f = await startFake(policy);
    const r = await run(f, { headPolicy: policy });
    expect(r.code).toBe(1);
    expect(r.outputs["verdict"]).toBe("unresolved");
    expect(f.checkRuns.map((c) => c.conclusion)).toEqual(["failure"]);
    expect(commands(r, "error")).toHaveLength(1);
  });

  it("a second run updates the same comment, found on page 2, and on-change leaves it alone", async () => {
    const f = await startFake();
    for (let i = 0; i < 120; i++)
      f.addComment(PR_NUMBER, `discussion ${i}`, i % 3 === 0 ? ACTIONS_BOT : ALICE);
    const first = await run(f);
    const id = first.outputs["comment-id"];
    expect(f.comments).toHaveLength(121);
    const second = await run(f, { rows: REJECT_ROWS, inputs: { "fail-on": "never" } });
    expect(second.outputs["comment-id"]).toBe(id);
    expect(second.code).toBe(0);
    expect(f.comments).toHaveLength(121);
    const mine = f.comments.find((c) => String(c.id) === id);
    expect(mine?.updates).toBe(1);
    expect(mine?.body).toContain("reject");
    const listing = f.requests
      .filter((q) => q.operationId === "issues/list-comments")
      .map((q) => q.query["page"]);
    // Each run first lists for its run history; the first run then lists, creates, then lists again
    // (a parallel run's comment?); the second lists and updates.
    expect(listing).toEqual(["1", "2", "1", "2", "1", "2", "1", "2", "1", "2"]);

    f.requests.length = 0;
    const third = await run(f, { rows: REJECT_ROWS, inputs: { "fail-on": "never", comment: "on-change" } });
    expect(third.outputs["comment-id"]).toBe(id);
    expect(f.calls().filter((c) => c.includes("comment"))).toEqual([
      "GET issues/list-comments",
      "GET issues/list-comments",
      "GET issues/list-comments",
      "GET issues/list-comments",
    ]);
    expect(mine?.updates).toBe(1);

    const fourth = await run(f, { inputs: { comment: "on-change" } });
    expect(fourth.outputs["comment-id"]).toBe(id);
    expect(mine?.updates).toBe(2);
    expect(f.comments).toHaveLength(121);
  });

  it("leaves a marker comment by another author alone and posts its own", async () => {
    const f = await startFake();
    const planted = f.addComment(PR_NUMBER, `${COMMENT_MARKER}\nfake verdict: accept`, ALICE);
    const r = await run(f);
    expect(planted.updates).toBe(0);
    expect(planted.body).toBe(`${COMMENT_MARKER}\nfake verdict: accept`);
    expect(f.comments).toHaveLength(2);
    expect(r.outputs["comment-id"]).toBe(String(f.comments[1]?.id));
    expect(f.comments[1]?.user.login).toBe("github-actions[bot]");
  });

  it("comment: never makes no comment calls", async () => {
    const f = await startFake();
    const r = await run(f, { inputs: { comment: "never" } });
    expect(r.outputs["comment-id"]).toBe("");
    expect(f.calls().some((c) => c.includes("comment") || c.includes("users"))).toBe(false);
  });

  it("fork PR: writes are refused (403); warnings name the permissions, the verdict is in the summary and outputs", async () => {
    const f = await startFake();
    for (const op of ["checks/create", "issues/create-comment", "issues/update-comment"])
      f.fail(op, { status: 403 });
    const r = await run(f, { event: "fork" });
    expect(r.code).toBe(0);
    expect(r.outputs["verdict"]).toBe("accept");
    expect(r.outputs["margin"]).toBe("0.3333333333333333");
    expect(r.outputs["check-run-id"]).toBe("");
    expect(r.outputs["comment-id"]).toBe("");
    expect(r.summary).toContain("## ✅ accept");
    const warnings = commands(r, "warning");
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain("the job needs `permissions: checks: write` (not granted to forks)");
    expect(warnings[1]).toContain("the job needs `permissions: pull-requests: write` (not granted to forks)");
    expect(f.checkRuns).toEqual([]);
    expect(f.comments).toEqual([]);
  });

  it("a PR that loosens its own policy is judged by the base policy, and the loosening is flagged", async () => {
    const strict = policyYaml({ minTasks: 100 });
    const loose = policyYaml({ minTasks: 10, confidence: 0.8 });
    const f = await startFake(strict);
    const r = await run(f, { headPolicy: loose, inputs: { "fail-on": "never" } });
    expect(r.code).toBe(0);
    expect(r.outputs["verdict"]).toBe("unresolved");
    const rep = report(r);
    expect(rep.policy_changes).toEqual([
      { key: "accept_if.common_valid_tasks", base: ">= 100", head: ">= 10", loosening: true },
      { key: "margin.confidence", base: "0.95", head: "0.8", loosening: true },
    ]);
    expect(rep.provenance.policy.last_commit).toBe(LAST_POLICY_COMMIT);
    expect(rep.checks.find((c) => c.id === "common_valid_tasks")).toMatchObject({
      threshold: ">= 100",
      passed: false,
    });
    expect(r.summary).toContain("<b>Policy changes in this pull request</b>");
    expect(r.summary).toContain("⚠️ loosening");
    expect(r.summary).toContain(LAST_POLICY_COMMIT);
    expect(f.comments[0]?.body).toContain("⚠️ loosening");
    expectGolden("action-loosening-summary.md", r.summary);
  });

  it("a policy file that does not exist at the base commit fails with an explanation and a failed check", async () => {
    const f = await startFake(null);
    const r = await run(f);
    expect(r.code).toBe(1);
    const errors = commands(r, "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(
      `::error::The policy gate/policy.yaml does not exist at the pull request's base commit ${BASE_SHA.slice(0, 12)}. On a pull request the base branch's policy decides`,
    );
    expect(r.outputs["verdict"]).toBeUndefined();
    expect(f.checkRuns.map((c) => [c.conclusion, c.output.title, c.head_sha])).toEqual([
      ["failure", "Input error: no verdict", HEAD_SHA],
    ]);
    expect(r.summary).toContain("input error — no verdict");
    expect(f.comments).toEqual([]);
  });

  it("retries 5xx with backoff and then succeeds, without warnings", async () => {
    const f = await startFake();
    f.fail("checks/create", { status: 502, times: 2 });
    f.fail("issues/list-comments", { status: 503, times: 1 });
    f.fail("repos/get-content", { status: 500, times: 1 });
    const r = await run(f);
    expect(r.code).toBe(0);
    expect(f.requests.filter((q) => q.operationId === "checks/create").map((q) => q.status)).toEqual([
      502, 502, 201,
    ]);
    expect(f.checkRuns).toHaveLength(1);
    expect(f.comments).toHaveLength(1);
    expect(commands(r, "warning")).toEqual([]);
    expect(r.outputs["check-run-id"]).toBe(String(f.checkRuns[0]?.id));
  });

  it("a 5xx that does not stop gives up with one warning; the rest still happens", async () => {
    const f = await startFake();
    f.fail("checks/create", { status: 500 });
    const r = await run(f);
    expect(r.code).toBe(0);
    expect(f.requests.filter((q) => q.operationId === "checks/create")).toHaveLength(3);
    const warnings = commands(r, "warning");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("GitHub answered 500 (Server Error) 3 times; giving up");
    expect(r.outputs["check-run-id"]).toBe("");
    expect(r.outputs["comment-id"]).toBe(String(f.comments[0]?.id));
  });
});

describe("several gates on one pull request, upgrades and races", () => {
  it("two gate steps (check-name) keep a comment each; each re-run updates its own", async () => {
    const f = await startFake();
    const pro = await run(f, { inputs: { "check-name": "SWE-Bench Pro gate" } });
    const verified = await run(f, { inputs: { "check-name": "SWE-bench Verified gate" } });
    expect(f.comments).toHaveLength(2);
    expect(pro.outputs["comment-id"]).not.toBe(verified.outputs["comment-id"]);
    const again = await run(f, {
      rows: REJECT_ROWS,
      inputs: { "check-name": "SWE-Bench Pro gate", "fail-on": "never" },
    });
    expect(again.outputs["comment-id"]).toBe(pro.outputs["comment-id"]);
    expect(f.comments).toHaveLength(2);
    const byId = (id: string | undefined) => f.comments.find((c) => String(c.id) === id);
    expect(byId(pro.outputs["comment-id"])?.body).toContain("## ❌ reject");
    expect(byId(pro.outputs["comment-id"])?.body).toContain("SWE\\-Bench Pro gate");
    expect(byId(verified.outputs["comment-id"])?.body).toContain("## ✅ accept");
    expect(f.checkRuns.map((c) => c.name)).toEqual([
      "SWE-Bench Pro gate",
      "SWE-bench Verified gate",
      "SWE-Bench Pro gate",
    ]);
  });

  it("comment-key separates two steps with the same check name", async () => {
    const f = await startFake();
    await run(f, { inputs: { "comment-key": "matrix-a" } });
    await run(f, { inputs: { "comment-key": "matrix-b" } });
    await run(f, { inputs: { "comment-key": "matrix-a" } });
    expect(f.comments.map((c) => [readHeader(c.body)?.key, c.updates])).toEqual([
      ["matrix-a", 1],
      ["matrix-b", 0],
    ]);
  });

  it("upgrading: the comment an earlier version wrote (today's marker, no key) is updated, not left stale", async () => {
    const f = await startFake();
    const old = f.addComment(
      PR_NUMBER,
      `${COMMENT_MARKER}\n<!-- model-acceptance-gate:digest ${"0".repeat(64)} -->\n## ✅ accept — old\n`,
    );
    const r = await run(f);
    expect(r.outputs["comment-id"]).toBe(String(old.id));
    expect(f.comments).toHaveLength(1);
    expect(old.updates).toBe(1);
    expect(readHeader(old.body)?.key).toBe("Model%20acceptance%20gate");
  });

  it("a create–create race (two runs listing at once) ends in one comment", async () => {
    const f = await startFake();
    // Neither create is answered until both runs have sent theirs, so each run listed the comments
    // and found none before either comment existed: the race, however many times each run lists
    // (a run reads the comments for its history only when it sees the other's check run first).
    f.holdTogether("issues/create-comment", 2);
    const [a, b] = await Promise.all([run(f), run(f, { rows: REJECT_ROWS, inputs: { "fail-on": "never" } })]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(f.requests.filter((q) => q.operationId === "issues/create-comment")).toHaveLength(2);
    expect(f.requests.filter((q) => q.operationId === "issues/delete-comment").map((q) => q.status)).toEqual([
      204,
    ]);
    expect(f.comments).toHaveLength(1);
    const id = String(f.comments[0]?.id);
    expect([a.outputs["comment-id"], b.outputs["comment-id"]]).toEqual([id, id]);
    const info = [a, b].flatMap((r) => r.stdout.split("\n")).filter((l) => l.includes("at the same time"));
    expect(info).toHaveLength(1);
    expect(commands(a, "warning")).toEqual([]);
    expect(commands(b, "warning")).toEqual([]);
  });

  it("another GitHub App's token: GraphQL viewer names it, so a re-run updates its comment (no second one)", async () => {
    const f = await startFake();
    const app: Identity = { login: "eval-gate[bot]", id: 990001, type: "Bot", installation: true };
    f.tokens.set("ghs_eval_gate_app_token", app);
    const env = { "INPUT_GITHUB-TOKEN": "ghs_eval_gate_app_token" };
    const first = await run(f, { env });
    const second = await run(f, { env, rows: REJECT_ROWS, inputs: { "fail-on": "never" } });
    expect(f.comments.map((c) => [c.user.login, c.updates])).toEqual([["eval-gate[bot]", 1]]);
    expect(second.outputs["comment-id"]).toBe(first.outputs["comment-id"]);
    expect(f.calls().filter((c) => c.includes("users"))).toEqual([]);
  });

  it("GraphQL refused: the fallbacks (GET /user, then github-actions[bot]) still find the comment", async () => {
    const f = await startFake();
    f.fail("graphql", { status: 200, graphqlErrorType: "FORBIDDEN" });
    const first = await run(f);
    const second = await run(f);
    expect(second.outputs["comment-id"]).toBe(first.outputs["comment-id"]);
    expect(f.comments).toHaveLength(1);
    expect(f.calls().filter((c) => c.includes("graphql") || c.includes("users"))).toEqual([
      "POST graphql",
      "GET users/get-authenticated",
      "POST graphql",
      "GET users/get-authenticated",
    ]);
    expect(commands(second, "warning")).toEqual([]);
  });
});

describe("the action outside a pull request", () => {
  it("push: the checked-out policy decides, the check run goes on GITHUB_SHA, no comment", async () => {
    const f = await startFake(null);
    const r = await run(f, { event: "push" });
    expect(r.code).toBe(0);
    expect(r.outputs["verdict"]).toBe("accept");
    expect(r.outputs["comment-id"]).toBe("");
    expect(f.calls()).toEqual(["GET checks/list-for-ref", "POST checks/create"]);
    expect(f.checkRuns[0]?.head_sha).toBe(PUSH_SHA);
    expect(report(r).provenance.policy).toMatchObject({ source: "file", last_commit: null });
  });

  it("a broken policy becomes annotations on its lines, in the check run and as error commands", async () => {
    const f = await startFake(null);
    const broken = policyYaml()
      .replace('common_valid_tasks: ">= 50"', 'common_valid_tasks: "at least 50"')
      .replace("on_expired: warn", 'on_expired: warn\n"evil\\n::error::pwned @octocat": 1');
    const r = await run(f, { event: "push", headPolicy: broken });
    expect(r.code).toBe(1);
    expectOnlyOwnCommands(r);
    const run0 = f.checkRuns[0];
    expect(run0?.conclusion).toBe("failure");
    expect(run0?.output.title).toBe("Policy error: no verdict");
    expect(run0?.annotations.map((a) => [a.path, a.start_line, a.annotation_level])).toEqual([
      [POLICY_PATH, 4, "failure"],
      [POLICY_PATH, 8, "failure"],
    ]);
    const located = commands(r, "error").filter((l) => l.startsWith("::error file="));
    expect(located.map((l) => /^::error file=([^,]+),line=(\d+)/.exec(l)?.slice(1))).toEqual([
      [POLICY_PATH, "4"],
      [POLICY_PATH, "8"],
    ]);
    // One failure message besides the located annotations.
    expect(commands(r, "error").filter((l) => l.startsWith("::error::"))).toHaveLength(1);
    expect(r.stdout).not.toMatch(/^\s*::error::pwned/m);
    expect(run0?.annotations[0]?.title).toBe("Policy key evil␤::error::pwned @octocat");
    expect(run0?.annotations.every((a) => !a.message.includes("\n"))).toBe(true);
    expect(r.summary.startsWith("## ❗ policy error — no verdict\n")).toBe(true);
    expect(r.summary).not.toMatch(/@octocat/);
    expect(run0?.output.summary).toBe(r.summary);
  });

  it("120 policy problems would be sent 50 per request (here the loader lists at most 20)", async () => {
    const f = await startFake(null);
    const extra = Array.from({ length: 30 }, (_, i) => `unknown_${i}: 1`).join("\n");
    const r = await run(f, { event: "push", headPolicy: policyYaml() + extra + "\n" });
    expect(r.code).toBe(1);
    const run0 = f.checkRuns[0];
    expect(run0?.annotations.length).toBe(20);
    expect(run0?.annotationRequests).toBe(1);
  });

  it("without a token: no GitHub calls, the verdict still in the summary, outputs and report", async () => {
    const f = await startFake();
    const r = await run(f, { env: { "INPUT_GITHUB-TOKEN": "" }, event: "push" });
    expect(r.code).toBe(0);
    expect(f.requests).toEqual([]);
    expect(r.outputs["verdict"]).toBe("accept");
    expect(r.outputs["check-run-id"]).toBe("");
    expect(r.summary).toContain("## ✅ accept");
  });

  it("bad inputs fail the step with one clear message and no stack", async () => {
    const f = await startFake();
    const r = await run(f, { inputs: { results: "../../etc/passwd", comment: "sometimes" } });
    expect(r.code).toBe(1);
    expect(commands(r, "error")).toEqual([
      "::error::The action's inputs are invalid (2 problems):%0A" +
        '  field "results": "../../etc/passwd" is outside GITHUB_WORKSPACE; inputs must be files of the workspace%0A' +
        '  field "comment": must be one of "always", "on-change", "never", got "sometimes"',
    ]);
    expect(r.stdout).not.toContain("    at ");
    expect(f.requests).toEqual([]);
  });
});

describe("untrusted text", () => {
  const HOSTILE_IDS = [
    "evil\u2028::error::pwned",
    "@octocat please look",
    "fixes #123",
    "a|b|c",
    "`rm -rf /`",
    "<img src=x onerror=alert(1)>",
    COMMENT_MARKER,
    "\u202Egnp.exe",
    "[click](javascript:alert(1))",
    "::stop-commands::token",
  ];
  const rows: TaskRow[] = [
    ...ACCEPT_ROWS,
    ...HOSTILE_IDS.map((id, i): TaskRow => ({
      id,
      validity: i % 2 === 0 ? "disputed" : "unreviewed",
      a: i % 3 === 0 ? "fail" : "pass",
      b: "pass",
      evidence: ["javascript:alert(1)", "https://evil.example/@x#1", "<script>alert(1)</script>"],
    })),
    { id: "broken <b>@team</b> #9", validity: "broken", a: "pass", b: "fail" },
  ];

  function expectInert(markdown: string, label: string): void {
    expect(markdown, label).not.toMatch(/@octocat|@team/);
    expect(markdown, label).not.toMatch(/#123|#9\b/);
    expect(markdown, label).not.toMatch(/<img|<script|broken <b>/);
    expect(markdown, label).not.toContain("\u202E");
    expect(markdown, label).not.toContain("](javascript:");
    expect(markdown, label).not.toMatch(/(?<!\\)`rm/);
    expect(markdown, label).not.toMatch(/(?<!\\)\|b(?<!\\)\|c/);
  }

  it("hostile task ids and evidence render inert in the summary, comment, check run and log", async () => {
    const f = await startFake();
    const r = await run(f, { rows, inputs: { "fail-on": "never" } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expectInert(r.summary, "summary");
    expect(r.summary.split(COMMENT_MARKER)).toHaveLength(1);
    const body = f.comments[0]?.body ?? "";
    expectInert(body, "comment");
    expect(body.split(COMMENT_MARKER)).toHaveLength(2);
    expect(body.startsWith(COMMENT_MARKER)).toBe(true);
    expectInert(f.checkRuns[0]?.output.summary ?? "", "check run");
    expect(f.checkRuns[0]?.output.title).not.toMatch(/[@#<`]/);
    expectOnlyOwnCommands(r);
    expect(r.stdout).not.toMatch(/^\s*::(error|stop-commands)::/m);
    expect(r.stdout).not.toContain("\u202E");
    expect(report(r).comparison.influential_tasks.map((t) => t.task_id)).toContain("@octocat please look");
    expectGolden("action-hostile-comment.md", body);
  });

  it("a task id with a line break and ::error:: is refused by the reader, and the log stays inert", async () => {
    const f = await startFake();
    const r = await run(f, {
      rows: [...ACCEPT_ROWS, { id: "evil\n::error::pwned", validity: "disputed", a: "pass", b: "fail" }],
    });
    expect(r.code).toBe(1);
    expectOnlyOwnCommands(r);
    expect(r.stdout).not.toMatch(/^\s*::error::pwned/m);
    const located = commands(r, "error").filter((l) => l.startsWith("::error file="));
    expect(located.map((l) => /^::error file=([^,]+),line=(\d+)/.exec(l)?.slice(1))).toEqual([
      [RESULTS_PATH, "127"],
      [RESULTS_PATH, "128"],
    ]);
    expect(f.checkRuns.map((c) => [c.conclusion, c.output.title, c.annotations.length])).toEqual([
      ["failure", "Input error: no verdict", 0],
    ]);
    expectInert(f.checkRuns[0]?.output.summary ?? "", "check run");
    expect(f.checkRuns[0]?.output.summary).not.toContain("\n::error");
  });
});

describe("size limits", () => {
  it("a 100,000-task export fits every GitHub limit, trimmed with a visible note where needed", async () => {
    const f = await startFake();
    // Ids that escaping inflates (each @ and # becomes an entity plus a zero-width space) make the
    // bounded task lists long enough to overflow a comment and a check run, not the job summary.
    const long = "@#".repeat(40);
    const big: TaskRow[] = [
      ...tasks(40_000, `valid-${long}`, { validity: "valid", a: "pass", b: "fail" }),
      ...tasks(40_000, `tie-${long}`, { validity: "valid", a: "pass", b: "pass" }),
      ...tasks(18_000, `base-${long}`, { validity: "valid", a: "fail", b: "pass" }),
      ...tasks(1_000, `open-${long}`, {
        validity: "disputed",
        a: "fail",
        b: "pass",
        evidence: [`https://logs.example/${long}`],
      }),
      ...tasks(1_000, `broken-${long}`, { validity: "broken", a: "pass", b: "fail" }),
    ];
    expect(big).toHaveLength(100_000);
    const r = await runDist({
      fake: f,
      event: "pull_request",
      inputs: {
        results: "out/big.jsonl.gz",
        policy: POLICY_PATH,
        baseline: "cfg-baseline",
        candidate: "cfg-candidate",
      },
      files: { [POLICY_PATH]: policyYaml() },
      prepare: (ws) => {
        writeExport(join(ws, "out/big.jsonl.gz"), big);
      },
    });
    expect(r.stderr).toBe("");
    expect(r.outputs["verdict"]).toBe("accept");
    expect(r.outputs["common-valid-tasks"]).toBe("98000");
    expect(report(r).provenance.rows_read).toBe(200_000);
    const body = f.comments[0]?.body ?? "";
    const checkSummary = f.checkRuns[0]?.output.summary ?? "";
    expect(Buffer.byteLength(r.summary)).toBeLessThanOrEqual(1024 * 1024);
    expect(body.length).toBeLessThanOrEqual(65_536);
    expect(checkSummary.length).toBeLessThanOrEqual(65_535);
    expect(body.startsWith(COMMENT_MARKER)).toBe(true);
    for (const text of [r.summary, body, checkSummary]) expect(text).toContain("## ✅ accept");
    expect(r.summary.length).toBeGreaterThan(65_536);
    expect(r.summary).not.toContain("Trimmed to fit");
    expect(body).toContain("⚠️ Trimmed to fit GitHub's");
    expect(checkSummary).toContain("⚠️ Trimmed to fit GitHub's 65535-character limit");
  }, 180_000);
});
