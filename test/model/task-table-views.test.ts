/**
 * The TaskTables over records and their views, on six hand-built tasks (./hand-built.ts): every
 * accessor of every view answers exactly what the record it stands for holds. The views are the
 * records as a table (recordTable), the table with some records replaced (withReplacedRecords:
 * labels as of an earlier review, a fragility resolution), one benchmark's tasks (subsetTable,
 * the table of benchmarkDataset) and the rank's joined table (tableView).
 */
import { describe, expect, it } from "vitest";

import {
  benchmarkDataset,
  benchmarkIndices,
  subsetTable,
} from "../../src/core/decision/benchmark-dataset.js";
import {
  DEFAULT_BENCHMARK,
  recordTable,
  tableRecords,
  withReplacedRecords,
  type TaskRecord,
  type TaskTable,
} from "../../src/core/model.js";
import { tableView } from "../../src/core/task-table-view.js";
import { handBuiltDataset, RECORDS } from "./hand-built.js";

/** The accessors of one task, each read apart (record(i) aside). */
function readAll(table: TaskTable, i: number) {
  return {
    key: `${table.datasetRevision(i)}/${table.taskId(i)}`,
    validity: table.validity(i),
    reviewRevision: table.reviewRevision(i),
    cluster: table.cluster(i),
    benchmark: table.benchmark(i),
    baseline: table.baseline(i),
    candidate: table.candidate(i),
    evidence: table.evidence(i),
    labelCount: table.labelCount(i),
    lastLabelRevision: table.lastLabelRevision(i),
    events: Array.from({ length: table.labelCount(i) }, (_, k) => [
      table.eventRevision(i, k),
      table.eventValidity(i, k),
      `${table.eventFile(i, k)}:${table.eventLine(i, k)}`,
    ]),
  };
}

/** What readAll must give for a record, from the record's own fields. */
function fieldsOf(r: TaskRecord) {
  return {
    key: `${r.datasetRevision}/${r.taskId}`,
    validity: r.validity,
    reviewRevision: r.reviewRevision,
    cluster: r.cluster,
    benchmark: r.benchmark ?? DEFAULT_BENCHMARK,
    baseline: r.baseline,
    candidate: r.candidate,
    evidence: r.evidence,
    labelCount: r.history.length,
    lastLabelRevision: r.history.length === 0 ? -1 : r.history[r.history.length - 1]?.revision,
    events: r.history.map((e) => [e.revision, e.validity, `${e.source.file}:${e.source.line}`]),
  };
}

/**
 * Task i of `view` is `expected[i]`: every accessor gives the record's value, record(i) and
 * history(i) the record's own objects, and the event past the history throws.
 */
function expectReads(view: TaskTable, expected: readonly TaskRecord[]): void {
  expect(view.length).toBe(expected.length);
  expected.forEach((r, i) => {
    expect(readAll(view, i), `task ${i}`).toStrictEqual(fieldsOf(r));
    expect(view.record(i)).toBe(r);
    expect(view.history(i)).toBe(r.history);
    // A view names the task by its index in the table it reads through.
    expect(() => view.eventRevision(i, r.history.length)).toThrow(`has no event ${r.history.length}`);
  });
}

type Six = readonly [TaskRecord, TaskRecord, TaskRecord, TaskRecord, TaskRecord, TaskRecord];
const [R0, R1, R2, R3, R4, R5] = RECORDS as Six;

describe("recordTable", () => {
  const table = recordTable(RECORDS);

  it("reads each record's fields, by hand for two tasks", () => {
    expect(readAll(table, 0)).toStrictEqual({
      key: "ds-a/astropy-1",
      validity: "valid",
      reviewRevision: 2,
      cluster: "astropy",
      benchmark: "swe-verified",
      baseline: { pass: 2, fail: 1, infra_error: 0, missing: 0 },
      candidate: { pass: 3, fail: 0, infra_error: 0, missing: 0 },
      evidence: ["logs/astropy-1.txt"],
      labelCount: 2,
      lastLabelRevision: 2,
      events: [
        [1, "unreviewed", "results.jsonl:3"],
        [2, "valid", "reviews.jsonl:7"],
      ],
    });
    expect(readAll(table, 2)).toStrictEqual({
      key: "ds-a/flask-3",
      validity: "unreviewed",
      reviewRevision: 0,
      cluster: undefined,
      benchmark: "default",
      baseline: undefined,
      candidate: { pass: 1, fail: 1, infra_error: 0, missing: 1 },
      evidence: ["a.log", "b.log"],
      labelCount: 0,
      lastLabelRevision: -1,
      events: [],
    });
    expectReads(table, RECORDS);
  });

  it("tableRecords gives the records back in order; a task or an event out of range throws, naming it", () => {
    const back = tableRecords(table);
    expect(back).toHaveLength(6);
    back.forEach((r, i) => {
      expect(r).toBe(RECORDS[i]);
    });
    expect(tableRecords(recordTable([]))).toEqual([]);
    expect(() => table.taskId(6)).toThrow("TaskTable: no task 6 (of 6)");
    expect(() => table.eventLine(3, 2)).toThrow("TaskTable: task 3 has no event 2");
  });
});

describe("withReplacedRecords", () => {
  /** Task 1 relabelled, its cluster, benchmark and baseline gone; task 4's labels dropped. */
  const relabelled: TaskRecord = {
    datasetRevision: "ds-a",
    taskId: "django-2",
    validity: "valid",
    reviewRevision: 6,
    history: [
      ...R1.history,
      { revision: 6, validity: "valid", source: { file: "later.jsonl", line: 4 }, evidence: ["pr/12"] },
    ],
    evidence: ["pr/12"],
    candidate: { pass: 0, fail: 0, infra_error: 0, missing: 3 },
  };
  const unlabelled: TaskRecord = { ...R4, validity: "unreviewed", reviewRevision: 0, history: [] };
  const view = withReplacedRecords(
    recordTable(RECORDS),
    new Map([
      [1, relabelled],
      [4, unlabelled],
    ]),
  );

  it("the replaced tasks read as their new records, even where those leave a field out; the others as before", () => {
    expect(readAll(view, 1)).toStrictEqual({
      key: "ds-a/django-2",
      validity: "valid",
      reviewRevision: 6,
      cluster: undefined,
      benchmark: "default",
      baseline: undefined,
      candidate: { pass: 0, fail: 0, infra_error: 0, missing: 3 },
      evidence: ["pr/12"],
      labelCount: 2,
      lastLabelRevision: 6,
      events: [
        [3, "broken", "reviews.jsonl:9"],
        [6, "valid", "later.jsonl:4"],
      ],
    });
    expect(readAll(view, 4)).toMatchObject({
      validity: "unreviewed",
      labelCount: 0,
      lastLabelRevision: -1,
      events: [],
    });
    expectReads(view, [R0, relabelled, R2, R3, unlabelled, R5]);
    expect(() => view.eventFile(4, 0)).toThrow("TaskTable: task 4 has no event 0");
  });

  it("nothing replaced: the table itself, no view", () => {
    const table = recordTable(RECORDS);
    expect(withReplacedRecords(table, new Map())).toBe(table);
  });
});

describe("one benchmark's tasks (subsetTable, benchmarkDataset's table)", () => {
  const parent = recordTable(RECORDS);

  it("benchmarkIndices: each benchmark's task indices, ascending, in first-seen order", () => {
    expect([...benchmarkIndices({ tasks: parent })].map(([name, idx]) => [name, [...idx]])).toEqual([
      ["swe-verified", [0, 1]],
      ["default", [2, 5]],
      ["terminal-bench", [3, 4]],
    ]);
  });

  it.each([
    ["swe-verified", [0, 1]],
    ["default", [2, 5]],
    ["terminal-bench", [3, 4]],
  ] as const)("%s: task i reads as the parent's task indices[i] through every accessor", (name, indices) => {
    const view = benchmarkDataset(handBuiltDataset(), name, Uint32Array.from(indices)).tasks;
    expect(view.length).toBe(indices.length);
    indices.forEach((j, i) => {
      expect(readAll(view, i)).toStrictEqual(readAll(parent, j));
      expect(view.record(i)).toBe(parent.record(j));
      expect(view.history(i)).toBe(parent.history(j));
    });
    expectReads(
      view,
      indices.map((j) => RECORDS[j] as TaskRecord),
    );
  });

  it("the last default task, by hand: the parent's task 5", () => {
    const view = subsetTable(parent, Uint32Array.of(2, 5));
    expect(readAll(view, 1)).toStrictEqual({
      key: "ds-c/plain-1",
      validity: "valid",
      reviewRevision: 5,
      cluster: "plain",
      benchmark: "default",
      baseline: { pass: 1, fail: 1, infra_error: 0, missing: 0 },
      candidate: { pass: 2, fail: 0, infra_error: 0, missing: 0 },
      evidence: [],
      labelCount: 1,
      lastLabelRevision: 5,
      events: [[5, "valid", "results.jsonl:30"]],
    });
  });

  it("a task past the subset throws, naming its index there; an event past a task's history, the parent's error", () => {
    const view = subsetTable(parent, Uint32Array.of(3, 4));
    expect(() => view.taskId(2)).toThrow("TaskTable: no task 2 (of 2)");
    expect(() => view.eventRevision(1, 1)).toThrow("TaskTable: task 4 has no event 1");
  });
});

describe("tableView (the rank's joined table)", () => {
  const left = recordTable([R0, R1, R2]);
  const right = recordTable([R3, R4, R5]);

  it("task i is task index[i] of tables[which[i]]", () => {
    const view = tableView([left, right], Uint32Array.of(1, 0, 1, 0), Uint32Array.of(2, 0, 0, 2));
    expectReads(view, [R5, R0, R3, R2]);
    expect(readAll(view, 2)).toStrictEqual({
      key: "ds-b/tb-hello",
      validity: "disputed",
      reviewRevision: 4,
      cluster: "tb",
      benchmark: "terminal-bench",
      baseline: { pass: 1, fail: 0, infra_error: 0, missing: 0 },
      candidate: { pass: 0, fail: 1, infra_error: 0, missing: 0 },
      evidence: ["tb/hello.cast"],
      labelCount: 2,
      lastLabelRevision: 4,
      events: [
        [1, "valid", "results.jsonl:20"],
        [4, "disputed", "reviews.jsonl:2"],
      ],
    });
  });

  it("which null: every task from the first table, a task may stand twice", () => {
    expectReads(tableView([right], null, Uint32Array.of(1, 1, 0)), [R4, R4, R3]);
  });

  it("out of range or mismatched: an error naming the view's index", () => {
    const view = tableView([left, right], Uint32Array.of(1, 0), Uint32Array.of(0, 1));
    expect(() => view.cluster(2)).toThrow("TaskTable view: no task 2 (of 2)");
    expect(() => view.cluster(-1)).toThrow("TaskTable view: no task -1 (of 2)");
    expect(() => tableView([left], Uint32Array.of(0), Uint32Array.of(0, 1))).toThrow(
      "tableView: which and index differ in length",
    );
  });
});
