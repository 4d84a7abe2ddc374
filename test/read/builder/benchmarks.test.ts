/**
 * A task's benchmark (docs/spec.md §1.1 `benchmark`): named by its rows (none: `default`), one per
 * task whatever the model, read by index on the TaskTable and listed sorted on the Dataset; a
 * review naming a benchmark applies only to that benchmark's tasks (§1.2).
 */
import { describe, expect, it } from "vitest";

import { datasetBenchmarks, DEFAULT_BENCHMARK, tableRecords, type Dataset } from "../../../src/core/model.js";
import { fixtures, inputError, readNamed, review, row } from "../fixtures.js";

const fx = fixtures("benchmarks");

function benchmarks(d: Dataset): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < d.tasks.length; i++) out[d.tasks.taskId(i)] = d.tasks.benchmark(i);
  return out;
}

describe("a task's benchmark", () => {
  it("is what its rows name, `default` without one; the Dataset lists them sorted", async () => {
    const results = await fx.jsonl("named.jsonl", [
      row({ task_id: "a", benchmark: "swe-verified" }),
      row({ task_id: "a", model_config: "cand", benchmark: "swe-verified" }),
      row({ task_id: "b", benchmark: "private-canary" }),
      row({ task_id: "b", model_config: "cand", benchmark: "private-canary", attempt: 1 }),
      row({ task_id: "c" }),
      row({ task_id: "c", model_config: "cand", benchmark: "default" }),
      row({ task_id: "d", model_config: "cand", benchmark: null }),
    ]);
    const d = await readNamed([results]);
    expect(benchmarks(d)).toEqual({ a: "swe-verified", b: "private-canary", c: "default", d: "default" });
    expect(d.benchmarks).toEqual(["default", "private-canary", "swe-verified"]);
    expect(datasetBenchmarks(d)).toEqual(d.benchmarks);
    const records = tableRecords(d.tasks);
    expect(records.map((r) => r.benchmark)).toEqual(["swe-verified", "private-canary", undefined, undefined]);
    expect("benchmark" in (records[2] ?? {})).toBe(false);
  });

  it("costs nothing when no row names one: no list, every task in `default`", async () => {
    const results = await fx.jsonl("plain.jsonl", [
      row(),
      row({ model_config: "cand", benchmark: "default" }),
    ]);
    const d = await readNamed([results]);
    expect(d.benchmarks).toBeUndefined();
    expect(datasetBenchmarks(d)).toEqual([DEFAULT_BENCHMARK]);
    expect(d.tasks.benchmark(0)).toBe("default");
  });

  it("of tasks only other models ran is not listed", async () => {
    const results = await fx.jsonl("other.jsonl", [
      row(),
      row({ model_config: "cand" }),
      row({ model_config: "other", task_id: "t9", benchmark: "elsewhere" }),
    ]);
    const d = await readNamed([results]);
    expect(d.benchmarks).toBeUndefined();
  });

  it("named differently by two rows, of any model, is an input error naming both places", async () => {
    const results = await fx.jsonl("conflict.jsonl", [
      row({ benchmark: "swe" }),
      row({ model_config: "cand", benchmark: "swe" }),
      row({ model_config: "other", benchmark: "canary" }),
      row({ task_id: "t2" }),
      row({ task_id: "t2", model_config: "cand", benchmark: "swe" }),
      row({ task_id: "t2", model_config: "cand", benchmark: "pro" }),
    ]);
    const err = await inputError(readNamed([results]));
    expect(err.message).toBe(
      [
        "The results/reviews input has 2 problems:",
        `  conflict.jsonl:3: field "benchmark": task "t1" (dataset_revision "ds1") is in benchmark "swe" (its first row, at conflict.jsonl:1) and this row names "canary"; a task belongs to one benchmark (a row without one is in "default")`,
        `  conflict.jsonl:5: field "benchmark": task "t2" (dataset_revision "ds1") is in benchmark "default" (its first row, at conflict.jsonl:4) and this row names "swe"; a task belongs to one benchmark (a row without one is in "default")`,
      ].join("\n"),
    );
  });

  it("of a task no compared model ran may differ between its rows (as a cluster may)", async () => {
    const results = await fx.jsonl("elsewhere.jsonl", [
      row(),
      row({ model_config: "cand" }),
      row({ model_config: "x", task_id: "t9", benchmark: "a" }),
      row({ model_config: "y", task_id: "t9", benchmark: "b" }),
    ]);
    await expect(readNamed([results])).resolves.toBeDefined();
  });

  it("is one task's whatever the dataset revision: (revision, task_id) is the task", async () => {
    const results = await fx.jsonl("revisions.jsonl", [
      row({ benchmark: "a" }),
      row({ model_config: "cand", benchmark: "a" }),
      row({ dataset_revision: "ds2", benchmark: "b" }),
      row({ dataset_revision: "ds2", model_config: "cand", benchmark: "b" }),
    ]);
    const d = await readNamed([results]);
    expect([d.tasks.benchmark(0), d.tasks.benchmark(1)]).toEqual(["a", "b"]);
  });
});

describe("a review's benchmark", () => {
  const results = [
    row({ benchmark: "swe" }),
    row({ model_config: "cand", benchmark: "swe" }),
    row({ task_id: "t2" }),
    row({ task_id: "t2", model_config: "cand" }),
  ];

  it("applies to the task when it names the task's benchmark, and without one whatever it is", async () => {
    const reviews = await fx.jsonl("reviews-ok.jsonl", [
      review({ benchmark: "swe", validity: "broken", review_revision: 2 }),
      review({ task_id: "t2", validity: "disputed", review_revision: 2 }),
      review({ task_id: "t2", benchmark: "default", validity: "broken", review_revision: 3 }),
      review({ validity: "valid", review_revision: 4 }),
    ]);
    const d = await readNamed([await fx.jsonl("results-ok.jsonl", results)], [reviews]);
    const byId = Object.fromEntries(
      tableRecords(d.tasks).map((r) => [r.taskId, [r.validity, r.reviewRevision]]),
    );
    expect(byId).toEqual({ t1: ["valid", 4], t2: ["broken", 3] });
  });

  it("naming another benchmark than the task's is an input error naming the review and the task's rows", async () => {
    const reviews = await fx.jsonl("reviews-bad.jsonl", [
      review({ benchmark: "canary" }),
      review({ task_id: "t2", benchmark: "swe" }),
      // A review of a task no compared model ran applies to nothing, as before.
      review({ task_id: "t9", benchmark: "swe" }),
    ]);
    const err = await inputError(readNamed([await fx.jsonl("results-bad.jsonl", results)], [reviews]));
    expect(err.message).toBe(
      [
        "The results/reviews input has 2 problems:",
        `  reviews-bad.jsonl:1: field "benchmark": task "t1" (dataset_revision "ds1") is in benchmark "swe" (its rows, the first at results-bad.jsonl:1) and this review names "canary"; a review that names a benchmark applies only to that benchmark's tasks: name the task's benchmark, or none`,
        `  reviews-bad.jsonl:2: field "benchmark": task "t2" (dataset_revision "ds1") is in benchmark "default" (its rows, the first at results-bad.jsonl:3) and this review names "swe"; a review that names a benchmark applies only to that benchmark's tasks: name the task's benchmark, or none`,
      ].join("\n"),
    );
  });
});
