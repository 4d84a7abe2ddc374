/**
 * A first label is not a change (docs/history.md): every importer writes each task `unreviewed`
 * at review revision 0 and a reviews file labels it at revision 1, which must not read as "500
 * tasks changed label" or "review revision 1 reclassified 500 tasks" on every run. Only a label
 * given before and changed later is a reclassification. As a new user gets there: `model-gate
 * import` of the results and of a review sheet, then `evaluate`.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Report } from "../../src/core/report/report-types.js";
import { cliInProcess } from "../helpers/run-cli.js";

const TASKS = 40;
const ids = Array.from({ length: TASKS }, (_, i) => `repo__t-${String(i).padStart(3, "0")}`);

/** SWE-Bench Pro style results ({instance_id: resolved}) for two models, imported with one task list. */
async function importedRun(dir: string): Promise<{ results: string[]; tasks: string }> {
  const tasks = join(dir, "tasks.txt");
  writeFileSync(tasks, `${ids.join("\n")}\n`);
  const results: string[] = [];
  for (const [model, passes] of [
    ["cfg-base", (i: number) => i % 3 === 0],
    ["cfg-cand", (i: number) => i % 2 === 0],
  ] as const) {
    const src = join(dir, `${model}.json`);
    writeFileSync(src, JSON.stringify(Object.fromEntries(ids.map((id, i) => [id, passes(i)]))));
    const out = join(dir, `${model}.jsonl`);
    const r = await cliInProcess([
      "import",
      "swebench-pro",
      src,
      "--model-config",
      model,
      "--tasks",
      tasks,
      "--harness-revision",
      "git:abc",
      "-o",
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    results.push(out);
  }
  return { results, tasks };
}

async function reviews(dir: string, name: string, rows: readonly string[], args: readonly string[]) {
  const csv = join(dir, `${name}.csv`);
  writeFileSync(csv, `task_id,validity\n${rows.join("\n")}\n`);
  const out = join(dir, `${name}.jsonl`);
  const r = await cliInProcess(["import", "reviews-csv", csv, "-o", out, ...args]);
  expect(r.code, r.stderr).toBe(0);
  return out;
}

async function evaluateJson(dir: string, results: string[], reviewFiles: string[]): Promise<Report> {
  const policy = join(dir, "policy.yaml");
  writeFileSync(
    policy,
    'owner: "@o"\nrevisit: 2027-03-31\naccept_if:\n  common_valid_tasks: ">= 10"\n  infra_error_rate: "< 1%"\n' +
      '  disputed_fraction: "< 50%"\n  observed_margin: "> validity_sensitivity + run_variance"\n',
  );
  const r = await cliInProcess([
    "evaluate",
    "--results",
    ...results,
    "--reviews",
    ...reviewFiles,
    "--policy",
    policy,
    "--baseline",
    "cfg-base",
    "--candidate",
    "cfg-cand",
    "--format",
    "json",
  ]);
  expect(r.code, r.stderr).toBeLessThan(3);
  return JSON.parse(r.stdout) as Report;
}

describe("first labels are not changes", () => {
  it("import at r0 + one reviews file at r1: no task changed label, no reclassification, no headline", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gate-first-labels-"));
    const run = await importedRun(dir);
    const labels = ids.map((id, i) => `${id},${i % 10 === 0 ? "broken" : "valid"}`);
    const rev = await reviews(dir, "reviews", labels, ["--tasks", run.tasks]);
    const report = await evaluateJson(dir, run.results, [rev]);

    expect(report.review_history.count).toBe(0);
    const change = report.verdict_by_review_revision.changes[0];
    expect(change).toMatchObject({ from_revision: 0, to_revision: 1, tasks_changed: 0, first_labels: TASKS });
    expect(change?.transitions).toEqual([]);
    expect(change?.tasks).toEqual([]);
    expect(report.verdict_by_review_revision.latest_reclassification).toBeNull();
    expect(report.warnings.filter((w) => /reclassified/.test(w))).toEqual([]);

    const md = await cliInProcess([
      "evaluate",
      "--results",
      ...run.results,
      "--reviews",
      rev,
      "--policy",
      join(dir, "policy.yaml"),
      "--baseline",
      "cfg-base",
      "--candidate",
      "cfg-cand",
    ]);
    expect(md.stdout).not.toMatch(/changed label|tasks reclassified|Tasks reclassified/);
    expect(md.stdout).toContain(`r0 → r1: ${TASKS} tasks labelled for the first time;`);
  });

  it("a label given at r1 and changed at r2 is a reclassification, counted and listed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gate-first-labels-"));
    const run = await importedRun(dir);
    const r1 = await reviews(
      dir,
      "r1",
      ids.map((id) => `${id},valid`),
      ["--tasks", run.tasks, "--review-revision", "1"],
    );
    // At r2 the first two tasks turn broken; the others keep their r1 label.
    const r2 = await reviews(
      dir,
      "r2",
      ids.slice(0, 2).map((id) => `${id},broken`),
      ["--tasks", run.tasks, "--review-revision", "2"],
    );
    const report = await evaluateJson(dir, run.results, [r1, r2]);

    expect(report.review_history.count).toBe(2);
    const [first, second] = report.verdict_by_review_revision.changes;
    expect(first).toMatchObject({ tasks_changed: 0, first_labels: TASKS });
    expect(second).toMatchObject({ from_revision: 1, to_revision: 2, tasks_changed: 2, first_labels: 0 });
    expect(second?.transitions).toEqual([{ change: "valid → broken", tasks: 2 }]);
    expect(report.verdict_by_review_revision.latest_reclassification).toMatchObject({
      revision: 2,
      tasks_changed: 2,
    });
  });
});
