/**
 * The figures' columns (src/core/stats/task-columns.ts): one walk over the records, made once per
 * dataset; other labels replace the label column alone. That the evaluation with the labels as of
 * a revision equals the one of the records as of it is checked on random exports by
 * test/history/labels-as-of.test.ts.
 */
import { describe, expect, it } from "vitest";
import { tableRecords, type Dataset } from "../../src/core/model.js";
import { analyseMargin } from "../../src/core/stats/margin.js";
import { modelFigures } from "../../src/core/stats/model-figures.js";
import { taskColumns, withLabels } from "../../src/core/stats/task-columns.js";
import { validityCode } from "../../src/core/model.js";
import { buildDataset, buildPolicy } from "./dataset-builder.js";

describe("taskColumns", () => {
  const dataset = buildDataset([
    { id: "t1", validity: "valid", cluster: "b", a: "pass", b: "fail" },
    { id: "t2", validity: "broken", cluster: "a", a: "fail" },
    { id: "t3", validity: "disputed", b: { pass: 2, fail: 1 } },
    { id: "t4", validity: "unreviewed", cluster: "b", a: "infra", b: "pass" },
    { id: "t5", validity: "valid", cluster: "a", a: "missing", b: "missing" },
  ]);

  it("holds each task's label code, counts and cluster number (first appearance first), in dataset order", () => {
    const c = taskColumns(dataset);
    expect(Array.from(c.validity)).toEqual(
      (["valid", "broken", "disputed", "unreviewed", "valid"] as const).map(validityCode),
    );
    expect(c.candidate).toEqual(tableRecords(dataset.tasks).map((t) => t.candidate));
    expect(c.baseline).toEqual(tableRecords(dataset.tasks).map((t) => t.baseline));
    expect(c.candidate[2]).toBeUndefined();
    expect(Array.from(c.cluster)).toEqual([0, 1, -1, 0, 1]);
    expect(c.clusterCount).toBe(2);
  });

  it("is made once per dataset", () => {
    expect(taskColumns(dataset)).toBe(taskColumns(dataset));
  });

  it("other labels for the same tasks replace the label column alone", () => {
    const codes = Uint8Array.from(tableRecords(dataset.tasks), () => validityCode("valid"));
    const c = withLabels(taskColumns(dataset), codes);
    expect(c.validity).toBe(codes);
    expect(c.candidate).toBe(taskColumns(dataset).candidate);
    expect(c.cluster).toBe(taskColumns(dataset).cluster);
    expect(taskColumns(dataset).validity).not.toBe(codes);
  });

  it("refuses labels that are not one a task", () => {
    expect(() => withLabels(taskColumns(dataset), new Uint8Array(4))).toThrow(/not one a task/);
  });
});

describe("the per-task figures the margin and the model figures keep per dataset and infra policy", () => {
  const specs = [
    { id: "t1", validity: "valid", a: { pass: 1, infra: 2 }, b: { pass: 1, fail: 1 } },
    { id: "t2", validity: "valid", a: { infra: 1 }, b: "pass" },
    { id: "t3", validity: "disputed", a: { pass: 2, fail: 1 }, b: { fail: 1, infra: 1 } },
    { id: "t4", validity: "valid", a: { pass: 3, fail: 1 }, b: { pass: 1, fail: 3 } },
    { id: "t5", validity: "unreviewed", a: "pass", b: "infra" },
  ] as const;
  const margin = buildPolicy().margin;
  const figures = (d: Dataset, infra: "exclude" | "count_as_fail", columns = taskColumns(d)): unknown => ({
    margin: analyseMargin(d, { infra, margin }, columns),
    baseline: modelFigures(d, "baseline", infra, columns),
    candidate: modelFigures(d, "candidate", infra, columns),
  });

  it("one dataset under both infra policies, in turn, gives what a fresh dataset gives under each", () => {
    const d = buildDataset(specs);
    for (const infra of ["exclude", "count_as_fail", "exclude"] as const) {
      expect(figures(d, infra)).toEqual(figures(buildDataset(specs), infra));
    }
    expect(figures(d, "exclude")).not.toEqual(figures(d, "count_as_fail"));
  });

  it("other labels over the same counts give what a dataset with those labels gives", () => {
    const d = buildDataset(specs);
    figures(d, "exclude");
    const relabelled = specs.map((s, i) => ({ ...s, validity: i % 2 === 0 ? "broken" : "valid" }) as const);
    const codes = Uint8Array.from(relabelled, (s) => validityCode(s.validity));
    expect(figures(d, "exclude", withLabels(taskColumns(d), codes))).toEqual(
      figures(buildDataset(relabelled), "exclude"),
    );
  });
});

describe("a model's counts over the universe", () => {
  /** The counts added task by task over the tasks that are not broken, in dataset order. */
  function expectedCounts(d: Dataset): { passes: number; fails: number; infra_errors: number } {
    let passes = 0;
    let fails = 0;
    let infra = 0;
    for (const r of tableRecords(d.tasks)) {
      if (r.validity === "broken" || r.candidate === undefined) continue;
      passes += r.candidate.pass;
      fails += r.candidate.fail;
      infra += r.candidate.infra_error;
    }
    return { passes, fails, infra_errors: infra };
  }

  it("are the totals less the broken tasks' (small counts), and added task by task past 2^53", () => {
    const big = 2 ** 52 + 1;
    for (const pass of [3, big]) {
      const d = buildDataset([
        { id: "t1", validity: "valid", a: { pass, fail: 1 }, b: "pass" },
        { id: "t2", validity: "broken", a: { pass, infra: 2 }, b: "pass" },
        { id: "t3", validity: "disputed", a: { pass: 1, fail: pass }, b: "fail" },
        { id: "t4", validity: "valid", a: { pass: 7, fail: 3 }, b: "fail" },
      ]);
      const f = modelFigures(d, "candidate", "exclude");
      expect({ passes: f.passes, fails: f.fails, infra_errors: f.infra_errors }).toEqual(expectedCounts(d));
    }
  });
});
