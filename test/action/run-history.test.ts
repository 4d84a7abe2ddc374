/**
 * The PR remembers (docs/runs.md): this gate's runs on a head commit counted from its own
 * check runs (external_id), the comment's run-history block verified against them, re-run
 * shopping in the headline, and the `reruns` policy. The committed bundle against the fake GitHub.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SCHEMA_VERSION, type Report } from "../../src/core/report/report-types.js";
import { readRunsBlock, RUNS_BLOCK_PREFIX } from "../../src/action/run-history.js";
import { RUN_HISTORY_MAX } from "../../src/core/run-history/runs-report.js";
import { exportText, policyYaml, tasks, type TaskRow } from "./exports.js";
import { FakeGitHub, LIMITS } from "./fake-github.js";
import {
  BASE_SHA,
  commandLines,
  gateInputs,
  HEAD_SHA,
  POLICY_PATH,
  RESULTS_PATH,
  runDist,
  useFakeGitHub,
  type RunResult,
} from "./run-action.js";

const fakes = useFakeGitHub();

async function startFake(policy = policyYaml()): Promise<FakeGitHub> {
  const fake = await fakes.start();
  fake.setFile(BASE_SHA, POLICY_PATH, policy);
  fake.setCommits(BASE_SHA, POLICY_PATH, ["9".repeat(40)]);
  return fake;
}

/** `n` valid tasks, the candidate alone passing a third: accept from 50 tasks (the policy's minimum), else unresolved. */
function rows(n: number, prefix = "t"): TaskRow[] {
  const k = Math.floor(n / 3);
  return [
    ...tasks(k, `${prefix}-a`, { validity: "valid", a: "pass", b: "fail" }),
    ...tasks(n - k, `${prefix}-both`, { validity: "valid", a: "pass", b: "pass" }),
  ];
}

interface Run {
  readonly rows?: readonly TaskRow[];
  readonly files?: Readonly<Record<string, string>>;
  readonly inputs?: Readonly<Record<string, string>>;
  readonly sha?: string;
}

function run(f: FakeGitHub, s: Run = {}): Promise<RunResult> {
  const files: Record<string, string> = {
    [RESULTS_PATH]: exportText(s.rows ?? rows(60)),
    [POLICY_PATH]: policyYaml(),
    ...s.files,
  };
  const sha = s.sha ?? HEAD_SHA;
  const payload = {
    action: "synchronize",
    number: 42,
    pull_request: {
      number: 42,
      base: { sha: BASE_SHA, ref: "main", repo: { full_name: "acme/models" } },
      head: { sha, ref: "tune", repo: { full_name: "acme/models" } },
    },
    repository: { full_name: "acme/models" },
  };
  return runDist({ fake: f, event: "pull_request", payload, inputs: gateInputs(s.inputs), files });
}

function report(r: RunResult): Report {
  return JSON.parse(readFileSync(r.outputs["report-path"] ?? "", "utf8")) as Report;
}

function warnings(r: RunResult): string[] {
  return commandLines(r, "warning");
}

/** Three runs on one head commit with other results each time: unresolved, unresolved, accept. */
async function shopped(f: FakeGitHub): Promise<RunResult[]> {
  const out: RunResult[] = [];
  for (const n of [40, 45, 60]) out.push(await run(f, { rows: rows(n, `r${n}`) }));
  return out;
}

describe("the run history on a pull request", () => {
  it("three runs on one head commit: run-count 3, history rows newest first, the shopping headline", async () => {
    const f = await startFake();
    const [r1, r2, r3] = await shopped(f);
    expect([r1, r2, r3].map((r) => r?.outputs["verdict"])).toEqual(["unresolved", "unresolved", "accept"]);
    expect([r1, r2, r3].map((r) => r?.outputs["run-count"])).toEqual(["1", "2", "3"]);
    const r = r3 as RunResult;
    expect(r.code).toBe(0);
    const rep = report(r);
    expect(rep.schema_version).toBe(SCHEMA_VERSION);
    expect(rep.runs).toMatchObject({
      run_count: 3,
      earlier_verdicts: ["unresolved", "unresolved"],
      earlier_other_results: 2,
      towards_accept: true,
      history: "verified",
      unavailable: null,
      rows_not_kept: 0,
      reruns: { mode: "latest", effect: "none", detail: null },
    });
    expect(rep.runs?.rows.map((x) => x.verdict)).toEqual(["accept", "unresolved", "unresolved"]);
    // The previous run (the newest verified row) is compared by its figures: its results are not a
    // file the repository holds at its commit (the fake has none), so the per-task parts are left out.
    expect(rep.since_last_run).toMatchObject({
      previous: { verdict: "unresolved" },
      unavailable: expect.stringMatching(
        /^the previous run's results are not files tracked in the repository at d{12}/,
      ) as unknown,
      baseline: null,
      movers: null,
    });
    expect(rep.runs?.rows.map((x) => x.head_sha)).toEqual([HEAD_SHA, HEAD_SHA, HEAD_SHA]);
    // The check runs were listed with filter=all and the check name, and each carries its record.
    const lists = f.requests.filter((q) => q.operationId === "checks/list-for-ref");
    expect(lists.map((q) => q.query)).toEqual(
      Array.from({ length: 3 }, () => ({
        check_name: "Model acceptance gate",
        filter: "all",
        per_page: "100",
        page: "1",
      })),
    );
    expect(f.checkRuns.map((c) => c.external_id?.split(" ").slice(0, 2).join(" "))).toEqual([
      "model-gate/1 unresolved",
      "model-gate/1 unresolved",
      "model-gate/1 accept",
    ]);
    const shopping = "accept on the 3rd run of the same config; earlier: unresolved, unresolved";
    expect(f.checkRuns[2]?.output.title).toBe(
      `Accept: margin +33.33 pp, lower bound +23.08 pp > δ₀ 0.00 pp — ${shopping}`,
    );
    expect(r.summary).toContain(`**🔁 ${shopping}** — the eval was re-run on this commit with other results`);
    expect(r.stdout).toContain(`— ${shopping}.`);
    // One comment, its block holding the three summaries and nothing per task.
    expect(f.comments).toHaveLength(1);
    const body = f.comments[0]?.body ?? "";
    const block = readRunsBlock(body);
    expect(block.kind).toBe("read");
    if (block.kind === "read") expect(block.block.runs).toHaveLength(3);
    expect(
      Buffer.from(/model-gate:runs v1 (\S+) -->/.exec(body)?.[1] ?? "", "base64").toString(),
    ).not.toMatch(/r60-a|task/);
    expect(body).toContain("<b>Runs of this gate</b> — 3 on this commit, re-run towards accept");
  }, 120_000);

  it("a new push (another head commit) is not shopping; the history still shows the earlier commit", async () => {
    const f = await startFake();
    await run(f, { rows: rows(40) });
    const r = await run(f, { rows: rows(60), sha: "a".repeat(40) });
    const rep = report(r);
    // What changed since the last run (the newest verified row): by its figures, since the
    // workspace is not a git checkout, so the previous run's results cannot be read at its commit.
    expect(rep.since_last_run).toMatchObject({
      unavailable:
        "the previous run's results are not files tracked in the repository at dddddddddddd (out/results.jsonl: the workspace is not a git checkout)",
      previous: { head_sha: HEAD_SHA, verdict: "unresolved" },
      verdict: { before: "unresolved", after: "accept", changed: true },
      inputs_changed: { results: true, reviews: false, policy: false },
    });
    expect(r.outputs["run-count"]).toBe("1");
    expect(rep.runs).toMatchObject({
      run_count: 1,
      earlier_verdicts: [],
      towards_accept: false,
      history: "verified",
    });
    expect(rep.runs?.rows.map((x) => [x.head_sha, x.verdict])).toEqual([
      ["a".repeat(40), "accept"],
      [HEAD_SHA, "unresolved"],
    ]);
    expect(f.checkRuns[1]?.output.title).toBe("Accept: margin +33.33 pp, lower bound +23.08 pp > δ₀ 0.00 pp");
    expect(r.summary).not.toContain("🔁");
  }, 60_000);

  it("an edited block: one warning, ignored for deciding, no crash; the check runs still count the re-runs", async () => {
    const f = await startFake();
    await run(f, { rows: rows(40) });
    await run(f, { rows: rows(45) });
    const c = f.comments[0];
    if (c === undefined) throw new Error("no comment");
    // The PR author rewrites the remembered verdicts to accept (a valid block, wrong digest).
    const block = readRunsBlock(c.body);
    if (block.kind !== "read") throw new Error("no block");
    const forged = { ...block.block, runs: block.block.runs.map((x) => ({ ...x, verdict: "accept" })) };
    c.body = c.body.replace(
      /model-gate:runs v1 \S+ -->/,
      `model-gate:runs v1 ${Buffer.from(JSON.stringify(forged)).toString("base64")} -->`,
    );
    const r = await run(f, { rows: rows(60) });
    expect(r.code).toBe(0);
    const rep = report(r);
    expect(rep.runs).toMatchObject({
      run_count: 3,
      earlier_verdicts: ["unresolved", "unresolved"],
      towards_accept: true,
      history: "display_only",
    });
    expect(warnings(r).filter((w) => w.includes("run history"))).toHaveLength(1);
    expect(r.summary).toContain("shown only, never used to decide");
    // The next block does not carry the forged rows forward.
    const next = readRunsBlock(f.comments[0]?.body ?? "");
    expect(next.kind === "read" ? next.block.runs.map((x) => x.verdict) : null).toEqual(["accept"]);

    // A broken block (not base64): the same, one warning.
    const c2 = f.comments[0];
    if (c2 === undefined) throw new Error("no comment");
    c2.body = c2.body.replace(/model-gate:runs v1 \S+ -->/, "model-gate:runs v1 %%%not-base64 -->");
    const r2 = await run(f, { rows: rows(60) });
    expect(r2.code).toBe(0);
    expect(
      warnings(r2).filter((w) => w.includes("run history is ignored: the run-history block is not base64")),
    ).toHaveLength(1);
    expect(report(r2).runs).toMatchObject({ run_count: 4, history: "none" });
  }, 120_000);

  it("a deleted comment: the check runs still count the re-runs", async () => {
    const f = await startFake();
    await run(f, { rows: rows(40) });
    await run(f, { rows: rows(45) });
    f.comments.splice(0);
    const r = await run(f, { rows: rows(60) });
    expect(r.outputs["run-count"]).toBe("3");
    expect(report(r).runs).toMatchObject({ run_count: 3, towards_accept: true, history: "none" });
    expect(f.checkRuns[2]?.output.title).toContain(
      "— accept on the 3rd run of the same config; earlier: unresolved, unresolved",
    );
  }, 120_000);

  it("two gates on one pull request keep separate histories", async () => {
    const f = await startFake();
    await run(f, { rows: rows(40) });
    const other = { "check-name": "Second gate" };
    const r = await run(f, { rows: rows(60), inputs: other });
    expect(r.outputs["run-count"]).toBe("1");
    expect(report(r).runs).toMatchObject({ run_count: 1, towards_accept: false, history: "none" });
    const r2 = await run(f, { rows: rows(60) });
    expect(r2.outputs["run-count"]).toBe("2");
    expect(f.comments).toHaveLength(2);
  }, 120_000);

  it("the comment stays within 65,536 characters with a full history", async () => {
    const f = await startFake();
    let last: RunResult | null = null;
    for (let i = 0; i < RUN_HISTORY_MAX + 2; i++) last = await run(f, { rows: rows(60 + i) });
    const body = f.comments[0]?.body ?? "";
    expect(body.length).toBeLessThanOrEqual(LIMITS.commentBody);
    expect(body).toContain(RUNS_BLOCK_PREFIX);
    const rep = report(last as RunResult);
    expect(rep.runs?.rows).toHaveLength(RUN_HISTORY_MAX);
    expect(rep.runs?.rows_not_kept).toBe(2);
    expect(rep.runs?.run_count).toBe(RUN_HISTORY_MAX + 2);
    expect(body).toContain("_2 older runs not kept._");
  }, 600_000);
});

describe("the reruns policy", () => {
  it("reruns: fail rejects a re-run with other results, with the reason", async () => {
    const f = await startFake(policyYaml() + "reruns: fail\n");
    const r1 = await run(f, { rows: rows(40) });
    expect(r1.outputs["verdict"]).toBe("unresolved");
    const r = await run(f, { rows: rows(60) });
    expect(r.outputs["verdict"]).toBe("reject");
    const rep = report(r);
    expect(rep.runs?.reruns).toMatchObject({ mode: "fail", effect: "rejected" });
    expect(rep.reasons[0]).toMatch(
      /^Check reruns fails: The eval was re-run on this commit: 1 earlier run of this gate had other results than this run's \(results [0-9a-f]{16}\): check run \d+ \(unresolved, results [0-9a-f]{16}\)\./,
    );
    expect(f.checkRuns[1]?.conclusion).toBe("failure");
    expect(f.checkRuns[1]?.output.title).toBe(
      "Reject: the eval was re-run on this commit with other results (reruns: fail); margin +33.33 pp",
    );
    // The same results again is not a re-run of the eval: accept stands.
    const g = await startFake(policyYaml() + "reruns: fail\n");
    await run(g, { rows: rows(60) });
    const same = await run(g, { rows: rows(60) });
    expect(same.outputs["verdict"]).toBe("accept");
    expect(same.outputs["run-count"]).toBe("2");
  }, 120_000);

  it("reruns: fail when the check runs cannot be read: unresolved, never accept", async () => {
    const f = await startFake(policyYaml() + "reruns: fail\n");
    f.fail("checks/list-for-ref", { status: 403 });
    const r = await run(f, { rows: rows(60) });
    expect(r.outputs["verdict"]).toBe("unresolved");
    expect(r.outputs["run-count"]).toBe("");
    const rep = report(r);
    expect(rep.runs).toMatchObject({
      unavailable: expect.stringMatching(/^listing the check runs failed: 403 /) as unknown,
      reruns: { mode: "fail", effect: "unresolved" },
    });
    expect(warnings(r).filter((w) => w.includes("earlier check runs"))).toHaveLength(1);
  }, 60_000);

  it("reruns: pool decides on every run's export together; a missing one keeps it from accept", async () => {
    const f = await startFake(policyYaml() + "reruns: pool\n");
    // The same 60 tasks run twice (no `attempt` field: each row is an attempt of its own); the
    // second run's candidate fails 5 tasks it passed in the first.
    const first = exportText(rows(60, "p"));
    const second = exportText(rows(60, "p").map((t, i) => (i < 5 ? { ...t, a: "fail" as const } : t)));
    const r1 = await run(f, { files: { [RESULTS_PATH]: first } });
    expect(r1.outputs["verdict"]).toBe("accept");
    // The second run lists only its own export: the first run's is missing.
    const r2 = await run(f, { files: { [RESULTS_PATH]: second } });
    expect(r2.outputs["verdict"]).toBe("unresolved");
    const rep2 = report(r2);
    expect(rep2.runs?.reruns).toMatchObject({ mode: "pool", effect: "unresolved" });
    expect(rep2.runs?.reruns.detail).toMatch(
      /^reruns: pool needs every run's results on this commit among the results inputs; missing: check run \d+ \(accept, results [0-9a-f]{16}\)/,
    );
    // The third lists both exports: the 60 tasks with two attempts each, every earlier run's results among them.
    const r3 = await run(f, {
      files: { [RESULTS_PATH]: first, "out/run2.jsonl": second },
      inputs: { results: `${RESULTS_PATH}\nout/run2.jsonl` },
    });
    const rep3 = report(r3);
    expect(rep3.comparison.common_valid_tasks).toBe(60);
    expect([rep3.models.baseline.attempts, rep3.models.candidate.attempts]).toEqual([120, 120]);
    expect(rep3.checks.find((c) => c.id === "reruns")).toMatchObject({ passed: true, observed: 0 });
    expect(r3.outputs["verdict"]).toBe("accept");
    // Decided on every run's attempts together: not a re-run that shopped for a pass.
    expect(rep3.runs).toMatchObject({
      run_count: 3,
      earlier_verdicts: ["accept", "unresolved"],
      towards_accept: false,
    });
  }, 120_000);
});
