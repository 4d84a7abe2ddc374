/**
 * What changed since the last run, task by task (docs/spec.md §3.7, docs/runs.md): two runs of the
 * bundle on a pull request in a real git workspace. The second run finds the first as the newest
 * verified history row, reads its results again at its head commit with git, and reports exactly
 * which tasks flipped for which model.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/core/report/report-types.js";
import { exportText, policyYaml, tasks, type TaskRow } from "./exports.js";
import { commitFiles, git, initRepo } from "./helpers.js";
import {
  cleanupRuns,
  gateInputs,
  POLICY_PATH,
  RESULTS_PATH,
  runDist,
  useFakeGitHub,
  type RunResult,
} from "./run-action.js";

const fakes = useFakeGitHub();
const dirs: string[] = [];

afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  cleanupRuns();
});

/** 60 valid tasks: the candidate alone passes 20, both 30, neither 10 (margin 20/60). */
const FIRST: readonly TaskRow[] = [
  ...tasks(20, "a-only", { validity: "valid", a: "pass", b: "fail" }),
  ...tasks(30, "both", { validity: "valid", a: "pass", b: "pass" }),
  ...tasks(10, "neither", { validity: "valid", a: "fail", b: "fail" }),
];

/**
 * Three flips: the candidate fails a-only-00000 and passes neither-00003; the baseline fails
 * both-00007. The candidate alone now passes 21 (margin 21/60).
 */
const SECOND: readonly TaskRow[] = FIRST.map((t) => {
  if (t.id === "a-only-00000") return { ...t, a: "fail" };
  if (t.id === "neither-00003") return { ...t, a: "pass" };
  if (t.id === "both-00007") return { ...t, b: "fail" };
  return t;
});

function report(r: RunResult): Report {
  return JSON.parse(readFileSync(r.outputs["report-path"] ?? "", "utf8")) as Report;
}

describe("what changed since the last run, in a git checkout (dist/index.js)", () => {
  it("re-reads the previous run's results at its head commit and lists the flipped tasks per model", async () => {
    const f = await fakes.start();
    const ws = realpathSync(mkdtempSync(join(tmpdir(), "gate-since-ws-")));
    dirs.push(ws);
    initRepo(ws);
    const base = commitFiles(ws, { [POLICY_PATH]: policyYaml() }, "base: the policy");
    f.setFile(base, POLICY_PATH, policyYaml());
    f.setCommits(base, POLICY_PATH, [base]);
    const head1 = commitFiles(ws, { [RESULTS_PATH]: exportText(FIRST) }, "results of the first eval");

    const run = (sha: string): Promise<RunResult> =>
      runDist({
        fake: f,
        event: "pull_request",
        workspace: ws,
        inputs: gateInputs(),
        payload: {
          action: "synchronize",
          number: 42,
          pull_request: {
            number: 42,
            base: { sha: base, ref: "main", repo: { full_name: "acme/models" } },
            head: { sha, ref: "tune", repo: { full_name: "acme/models" } },
          },
          repository: { full_name: "acme/models" },
        },
      });

    const r1 = await run(head1);
    expect(r1.code).toBe(0);
    expect(r1.outputs["verdict"]).toBe("accept");
    expect(report(r1).since_last_run).toBeNull();

    const head2 = commitFiles(ws, { [RESULTS_PATH]: exportText(SECOND) }, "results flipped");
    expect(git(ws, "rev-parse", "HEAD")).toBe(head2);
    const r2 = await run(head2);
    expect(r2.code).toBe(0);
    const since = report(r2).since_last_run;
    expect(since).toMatchObject({
      unavailable: null,
      previous: { head_sha: head1, verdict: "accept" },
      inputs_changed: { results: true, reviews: false, policy: false },
      models_changed: false,
      verdict: { before: "accept", after: "accept", changed: false },
    });
    const rev = "sha256:0001";
    expect(since?.candidate).toEqual({
      model: "cfg-candidate",
      pass_to_fail_count: 1,
      pass_to_fail: [{ dataset_revision: rev, task_id: "a-only-00000", before: 1, after: 0 }],
      fail_to_pass_count: 1,
      fail_to_pass: [{ dataset_revision: rev, task_id: "neither-00003", before: 0, after: 1 }],
      only_previous: 0,
      only_current: 0,
    });
    expect(since?.baseline).toEqual({
      model: "cfg-baseline",
      pass_to_fail_count: 1,
      pass_to_fail: [{ dataset_revision: rev, task_id: "both-00007", before: 1, after: 0 }],
      fail_to_pass_count: 0,
      fail_to_pass: [],
      only_previous: 0,
      only_current: 0,
    });
    const margin = since?.margin;
    expect(margin?.before).toBeCloseTo(20 / 60, 12);
    expect(margin?.after).toBeCloseTo(21 / 60, 12);
    expect(margin?.change).toBe((margin?.after ?? NaN) - (margin?.before ?? NaN));
    expect(margin?.change).toBeCloseTo(1 / 60, 12);
    // The three flipped tasks are the movers (d: +1 → 0, 0 → +1, 0 → +1), each 1/60 of Δ̂.
    expect(since?.movers?.count).toBe(3);
    expect(since?.movers?.tasks.map((t) => [t.task_id, t.d_before, t.d_after]).sort()).toEqual([
      ["a-only-00000", 1, 0],
      ["both-00007", 0, 1],
      ["neither-00003", 0, 1],
    ]);
    expect(r2.stdout).toContain(`Since the last run: compared task by task with the run on ${head1}.`);
    // The sticky comment (one, edited) shows the section.
    expect(f.comments).toHaveLength(1);
    const body = f.comments[0]?.body ?? "";
    expect(body).toContain(
      "<summary><b>What changed since the last run</b> — verdict accept as before; Δ̂ +1.67 pp; 3 tasks flipped; 0 labels changed; changed: results</summary>",
    );
    expect(body).toContain(
      `Compared with the previous run at commit <code>${head1.slice(0, 12)}</code> (verdict accept).`,
    );
    expect(body).toContain("| Δ̂ (margin) | +33.33 pp | +35.00 pp | +1.67 pp |");
    expect(body).toContain(
      [
        "- candidate <code>cfg\\-candidate</code>: 1 pass → fail, 1 fail → pass",
        "- baseline <code>cfg\\-baseline</code>: 1 pass → fail, 0 fail → pass",
      ].join("\n"),
    );
    expect(body).toContain(
      [
        "| <code>a\\-only\\-00000</code> | candidate | pass → fail | 100% | 0% |",
        "| <code>neither\\-00003</code> | candidate | fail → pass | 0% | 100% |",
        "| <code>both\\-00007</code> | baseline | pass → fail | 100% | 0% |",
      ].join("\n"),
    );
  }, 120_000);
});
