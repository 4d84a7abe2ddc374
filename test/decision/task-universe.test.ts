/**
 * Two files imported without one --tasks list: each importer hashes its own file's task
 * ids into the dataset revision, so the same tasks count as different ones and none is common. The
 * gate tells this from a genuine difference (a partial run, another benchmark) and advises a
 * re-import with one task list instead of running hundreds of tasks again. The real-data part
 * evaluates two public SWE-Bench Pro runs as `model-gate import` wrote them, without and with the
 * benchmark's task list (test/fixtures/real-data; its README.md names the sources and commands).
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluate } from "../../src/core/decision/evaluate.js";
import { separateTaskUniverses } from "../../src/core/decision/task-universe.js";
import { taskIdsRevision } from "../../src/read/derived-revisions.js";
import type { Report } from "../../src/core/report/report-types.js";
import type { Check } from "../../src/core/verdict-types.js";
import { computeDatasetRevision } from "../../src/importers/common.js";
import { cliInProcess } from "../helpers/run-cli.js";
import { realData } from "../helpers/real-data.js";
import { buildDataset, buildPolicy, type TaskSpec } from "../stats/dataset-builder.js";

const ctx = { canary: null, expired: false } as const;
const policy = buildPolicy({ common_valid_tasks: ">= 10", missing_fraction: "< 2%" });
const check = (checks: readonly Check[], id: string): Check => {
  const c = checks.find((k) => k.id === id);
  if (c === undefined) throw new Error(`no check ${id}`);
  return c;
};

/** A baseline on ids [0, nb) and a candidate on ids [from, from + nc), each under `rev(ids)`. */
function twoFiles(
  nb: number,
  from: number,
  nc: number,
  rev: (ids: readonly string[], side: string) => string = (ids) => taskIdsRevision(ids),
) {
  const id = (i: number) => `django__django-${10000 + i}`;
  const b = Array.from({ length: nb }, (_, i) => id(i));
  const c = Array.from({ length: nc }, (_, i) => id(from + i));
  const rb = rev(b, "baseline");
  const rc = rev(c, "candidate");
  const tasks: TaskSpec[] = [
    ...b.map((t, i): TaskSpec => ({ id: t, rev: rb, b: i % 2 === 0 ? "pass" : "fail" })),
    ...c.map((t, i): TaskSpec => ({ id: t, rev: rc, a: i % 3 === 0 ? "fail" : "pass" })),
  ];
  return buildDataset(tasks);
}

describe("taskIdsRevision", () => {
  it("is sha256 of the distinct ids sorted by UTF-8 bytes, joined by \\n, as every importer writes it", () => {
    const ids = ["b", "a", "é", "Z", "a", "😀", "ｚ"];
    const sorted = ["Z", "a", "b", "é", "ｚ", "😀"];
    const hex = createHash("sha256").update(sorted.join("\n"), "utf8").digest("hex");
    expect(taskIdsRevision(ids)).toBe(`sha256:${hex}`);
    expect(computeDatasetRevision(ids)).toBe(taskIdsRevision(ids));
    expect(taskIdsRevision([])).toBe(`sha256:${createHash("sha256").update("").digest("hex")}`);
  });
});

describe("separateTaskUniverses", () => {
  it("finds two files' own task universes with ids in common", () => {
    const split = separateTaskUniverses(twoFiles(30, 2, 30));
    expect(split).not.toBeNull();
    expect(split?.sharedTaskIds).toBe(28);
    expect(split?.baseline.taskIds).toBe(30);
    expect(split?.candidate.taskIds).toBe(30);
    expect(split?.derivedRevisions).toHaveLength(2);
  });

  it("finds it when only one side's revision is the hash of its own ids", () => {
    const split = separateTaskUniverses(
      twoFiles(30, 2, 30, (ids, side) =>
        side === "baseline" ? taskIdsRevision(ids) : "sha256:" + "e".repeat(64),
      ),
    );
    expect(split?.derivedRevisions).toEqual([
      taskIdsRevision(Array.from({ length: 30 }, (_, i) => `django__django-${10000 + i}`)),
    ]);
  });

  it("is null for one revision, named revisions, or revisions whose ids do not overlap", () => {
    expect(separateTaskUniverses(twoFiles(30, 2, 30, () => "sha256:" + "a".repeat(64)))).toBeNull();
    expect(separateTaskUniverses(twoFiles(30, 2, 30, (_, side) => `verified@${side}`))).toBeNull();
    // Another benchmark: no id in common, though each revision is the hash of its ids.
    expect(separateTaskUniverses(twoFiles(30, 30, 30))).toBeNull();
    // A hash that is not of its own ids (a list with ids the file does not have, say).
    expect(separateTaskUniverses(twoFiles(30, 2, 30, (ids) => taskIdsRevision([...ids, "x"])))).toBeNull();
  });
});

describe("the checks' advice", () => {
  it("two files without one task list: re-import both with one --tasks list, not run more tasks", () => {
    const e = evaluate(twoFiles(30, 2, 30), policy, ctx);
    const rev = check(e.checks, "dataset_revision").detail;
    expect(rev).toContain("28 task ids are in both");
    expect(rev).toContain("both are the hash of their own task ids");
    expect(rev).toContain("Re-import both files with one --tasks list");
    // The fix is said once, by the dataset-revision check; the others point at it.
    expect(check(e.checks, "common_valid_tasks").detail).toContain(
      "28 task ids are in both models' results under two dataset revisions, so none is common: see Same dataset revisions",
    );
    const all = e.checks.map((k) => k.detail).join("\n");
    expect(all.split(/re-import both files with one --tasks list/i).length - 1).toBe(1);
    for (const side of ["baseline", "candidate"]) {
      const d = check(e.checks, `missing_fraction_${side}`).detail;
      expect(d).toContain(`28 of its 30 missing tasks are task ids it has under its own dataset revision`);
      expect(d).not.toMatch(/running the \w+ on \d+ of its/);
    }
    expect(e.reasons.join("\n")).toContain("Re-import both files with one --tasks list");
  });

  it("a genuine partial run on one revision: run the missing tasks", () => {
    const tasks: TaskSpec[] = Array.from({ length: 30 }, (_, i) => ({
      id: `t${i}`,
      a: "pass",
      ...(i < 25 ? { b: "fail" as const } : {}),
    }));
    const e = evaluate(buildDataset(tasks), policy, ctx);
    expect(check(e.checks, "dataset_revision").passed).toBe(true);
    expect(check(e.checks, "missing_fraction_baseline").detail).toContain(
      "running the baseline on 5 of its 5 missing tasks would satisfy it",
    );
    expect(e.checks.map((k) => k.detail).join("\n")).not.toContain("--tasks");
  });

  it("another benchmark version: run both on the same revision, no re-import advice", () => {
    const e = evaluate(
      twoFiles(30, 0, 30, (_, side) => `verified@${side}`),
      policy,
      ctx,
    );
    expect(check(e.checks, "dataset_revision").detail).toBe(
      "The dataset revisions differ: only the baseline ran verified@baseline; only the candidate ran verified@candidate — run both models on the same dataset revision(s).",
    );
    expect(e.checks.map((k) => k.detail).join("\n")).not.toContain("--tasks");
  });
});

const BASELINE = "gpt-5-250-turns-10132025";
const CANDIDATE = "kimi-k2-instruct-10132025";

describe("real data: two SWE-Bench Pro runs imported without --tasks", () => {
  const dir = mkdtempSync(join(tmpdir(), "gate-universe-"));
  const policyFile = join(dir, "policy.yaml");
  writeFileSync(policyFile, readFileSync(resolve(import.meta.dirname, "../../policy.example.yaml"), "utf8"));

  async function gate(files: readonly string[]): Promise<{ report: Report; text: string; markdown: string }> {
    const args = ["evaluate", "--results", ...files, "--policy", policyFile];
    const who = ["--baseline", BASELINE, "--candidate", CANDIDATE, "--today", "2026-11-29"];
    const json = await cliInProcess([...args, ...who, "--format", "json"]);
    const text = await cliInProcess([...args, ...who, "--format", "text"]);
    const markdown = await cliInProcess([...args, ...who]);
    return { report: JSON.parse(json.stdout) as Report, text: text.stdout, markdown: markdown.stdout };
  }

  it("says to re-import both with one --tasks list, and why, in every format", async () => {
    const { report, text, markdown } = await gate([
      realData("pro-gpt-5-250-turns-own-ids"),
      realData("pro-kimi-k2-own-ids"),
    ]);
    expect(report.comparison.common_tasks).toBe(0);
    const rev = check(report.checks, "dataset_revision");
    expect(rev.passed).toBe(false);
    expect(rev.detail).toContain("728 task ids are in both");
    expect(rev.detail).toContain(
      "Re-import both files with one --tasks list (TASKS: the benchmark's task ids, one per line) — " +
        "`model-gate import swebench-pro FILE --tasks TASKS` — so that both carry one dataset revision.",
    );
    const missing = check(report.checks, "missing_fraction_baseline").detail;
    expect(missing).toContain(
      "728 of its 729 missing tasks are task ids it has under its own dataset revision",
    );
    expect(missing).not.toContain("running the baseline on");
    expect(text.replace(/\s+/g, " ")).toContain("Re-import both files with one --tasks list");
    expect(markdown).toContain("<code>model\\-gate import swebench\\-pro FILE \\-\\-tasks TASKS</code>");
  });

  it("once both are imported with one --tasks list, they share a revision and 728 tasks", async () => {
    // Both imported with the benchmark's 731 listed ids as --tasks: what the advice asks for.
    const { report } = await gate([realData("pro-gpt-5-250-turns"), realData("pro-kimi-k2")]);
    expect(check(report.checks, "dataset_revision").passed).toBe(true);
    expect(report.comparison.common_tasks).toBe(728);
    expect(check(report.checks, "missing_fraction_baseline").detail).toContain(
      // The baseline's 2 listed tasks absent from its file (test/importers/real-data.test.ts).
      "The baseline has no pass, fail or infra_error attempt on 2 of 731 tasks",
    );
  });
});
