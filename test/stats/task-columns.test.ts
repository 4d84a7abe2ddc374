/**
 * The figures' columns (src/core/stats/task-columns.ts): one walk over the records, made once per
 * dataset; other labels replace the label column alone. That the evaluation with the labels as of
 * a revision equals the one of the records as of it is checked on random exports by
 * test/history/labels-as-of.test.ts.
 */
import { describe, expect, it } from "vitest";
import { tableRecords } from "../../src/core/model.js";
import { taskColumns, validityCode, withLabels } from "../../src/core/stats/task-columns.js";
import { buildDataset } from "./dataset-builder.js";

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
