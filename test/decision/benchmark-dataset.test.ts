/**
 * One benchmark's Dataset (docs/spec.md §4.6), on six hand-built tasks of three benchmarks
 * (test/model/hand-built.ts): what is the benchmark's (its tasks, the dataset and harness revisions
 * of its rows, its review revisions, its metrics' columns) and what stays the export's. The
 * table's accessors are checked one by one in test/model/task-table-views.test.ts.
 */
import { describe, expect, it } from "vitest";

import { benchmarkDataset, subsetColumn } from "../../src/core/decision/benchmark-dataset.js";
import { datasetBenchmarks, tableRecords, type Dataset } from "../../src/core/model.js";
import { handBuiltDataset, RECORDS } from "../model/hand-built.js";

function split(name: string, indices: readonly number[], dataset: Dataset = handBuiltDataset()): Dataset {
  return benchmarkDataset(dataset, name, Uint32Array.from(indices));
}

describe("benchmarkDataset", () => {
  it("terminal-bench (tasks 3, 4): its tasks, revisions, review revisions and metric columns; the export's counts", () => {
    const whole = handBuiltDataset();
    const d = split("terminal-bench", [3, 4], whole);
    expect(tableRecords(d.tasks)).toEqual([RECORDS[3], RECORDS[4]]);
    expect(d.baseline).toStrictEqual({
      config: "cfg-base",
      harnessRevisions: ["h2", "h3"],
      datasetRevisions: ["ds-b"],
      duplicateRows: 2,
    });
    expect(d.candidate).toStrictEqual({
      config: "cfg-cand",
      harnessRevisions: ["h1"],
      datasetRevisions: ["ds-b"],
      duplicateRows: 0,
    });
    expect(d.reviewRevisions).toEqual([1, 4]);
    expect(d.metrics).toStrictEqual({
      names: ["cost_usd", "latency_s"],
      baseline: [undefined, undefined],
      candidate: [{ sum: Float64Array.of(30, 40), count: Float64Array.of(3, 4) }, undefined],
    });
    expect(d.benchmarks).toEqual(["terminal-bench"]);
    expect(datasetBenchmarks(d)).toEqual(["terminal-bench"]);
    // The export's, shared as they are.
    expect(d.modelsPresent).toBe(whole.modelsPresent);
    expect(d.inputs).toBe(whole.inputs);
    expect(d.rowsRead).toBe(40);
    expect(d.unmatchedLabels).toBe(whole.unmatchedLabels);
  });

  it("default (tasks 2, 5): each model's dataset revisions only from the tasks it has rows on; no benchmarks list", () => {
    const d = split("default", [2, 5]);
    expect(d.baseline.datasetRevisions).toEqual(["ds-c"]);
    expect(d.baseline.harnessRevisions).toEqual(["h3"]);
    expect(d.candidate.datasetRevisions).toEqual(["ds-a", "ds-c"]);
    expect(d.reviewRevisions).toEqual([5]);
    expect(d.metrics?.candidate[0]).toStrictEqual({
      sum: Float64Array.of(20, 50),
      count: Float64Array.of(2, 5),
    });
    expect("benchmarks" in d).toBe(false);
    expect(datasetBenchmarks(d)).toEqual(["default"]);
  });

  it("swe-verified (tasks 0, 1) of an export without metrics: no metrics; every label's revision counts", () => {
    const whole = handBuiltDataset();
    delete (whole as { metrics?: unknown }).metrics;
    const d = split("swe-verified", [0, 1], whole);
    expect("metrics" in d).toBe(false);
    expect(d.reviewRevisions).toEqual([1, 2, 3]);
    expect(d.baseline.datasetRevisions).toEqual(["ds-a"]);
    expect(d.baseline.harnessRevisions).toEqual(["h1"]);
    expect(d.candidate.datasetRevisions).toEqual(["ds-a"]);
  });
});

describe("subsetColumn", () => {
  it("the column's sums and counts at the indices, in their order; no column, none", () => {
    const column = { sum: Float64Array.of(1.5, 2.5, 3.5, 4.5), count: Float64Array.of(1, 2, 3, 4) };
    expect(subsetColumn(column, Uint32Array.of(1, 3))).toStrictEqual({
      sum: Float64Array.of(2.5, 4.5),
      count: Float64Array.of(2, 4),
    });
    expect(subsetColumn(column, Uint32Array.of())).toStrictEqual({
      sum: new Float64Array(0),
      count: new Float64Array(0),
    });
    expect(subsetColumn(undefined, Uint32Array.of(0))).toBeUndefined();
  });
});
