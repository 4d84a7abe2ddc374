import { basename } from "node:path";

import { describe, expect, it } from "vitest";

import { tableRecords, type Dataset } from "../../src/core/model.js";
import { MAX_EVIDENCE_PER_TASK, readDataset } from "../../src/read/read-dataset.js";
import { fixtures, inputError, review, row, readNamed } from "./fixtures.js";

const fx = fixtures("semantics");
const HEADER1 = "The results/reviews input has 1 problem:";

async function read(name: string, rows: readonly unknown[], reviews?: readonly unknown[]): Promise<Dataset> {
  const results = await fx.jsonl(`${name}.jsonl`, rows);
  const reviewFiles = reviews === undefined ? [] : [await fx.jsonl(`${name}-reviews.jsonl`, reviews)];
  return readDataset({
    results: [results],
    reviews: reviewFiles,
    baseline: "base",
    candidate: "cand",
    displayPath: basename,
  });
}

async function readError(
  name: string,
  rows: readonly unknown[],
  reviews?: readonly unknown[],
): Promise<string> {
  return (await inputError(read(name, rows, reviews))).message;
}

const c = (pass: number, fail = 0, infra_error = 0, missing = 0): object => ({
  pass,
  fail,
  infra_error,
  missing,
});

describe("repeated attempts", () => {
  it("folds a repeated attempt with the same result into one and counts the duplicates per model", async () => {
    const d = await read("dup-same", [
      row({ attempt: 1 }),
      row({ attempt: 1 }),
      row({ attempt: 2, result: "fail" }),
      row({ attempt: 1 }),
      row({ model_config: "cand", attempt: "e1", result: "infra_error" }),
      row({ model_config: "cand", attempt: "e1", result: "infra_error" }),
    ]);
    expect(tableRecords(d.tasks)[0]?.baseline).toEqual(c(1, 1));
    expect(tableRecords(d.tasks)[0]?.candidate).toEqual(c(0, 0, 1));
    expect(d.baseline.duplicateRows).toBe(2);
    expect(d.candidate.duplicateRows).toBe(1);
    expect(d.rowsRead).toBe(6);
  });

  it("counts each row without an attempt as its own attempt", async () => {
    const d = await read("no-attempt", [row(), row(), row(), row({ model_config: "cand" })]);
    expect(tableRecords(d.tasks)[0]?.baseline).toEqual(c(3));
    expect(d.baseline.duplicateRows).toBe(0);
  });

  it('keeps attempt 1 and attempt "1" apart, and the same attempt on two harness revisions apart', async () => {
    const d = await read("attempt-types", [
      row({ attempt: 1 }),
      row({ attempt: "1" }),
      row({ attempt: 1, harness_revision: "h2" }),
      row({ attempt: 1, task_id: "t2" }),
      row({ model_config: "cand" }),
    ]);
    expect(tableRecords(d.tasks).map((t) => t.baseline)).toEqual([c(3), c(1)]);
    expect(d.baseline.duplicateRows).toBe(0);
    expect(d.baseline.harnessRevisions).toEqual(["h1", "h2"]);
  });

  it("rejects a repeated attempt with a different result, naming both lines", async () => {
    const msg = await readError("dup-diff", [
      row({ attempt: 1 }),
      row({ model_config: "cand" }),
      row({ attempt: 1, result: "fail" }),
    ]);
    expect(msg).toBe(
      `${HEADER1}\n  dup-diff.jsonl:3: field "result": conflicts with dup-diff.jsonl:1: the same attempt ` +
        `(model_config "base", task "t1", dataset_revision "ds1", harness_revision "h1", attempt 1) is "pass" ` +
        `there and "fail" here; a repeated attempt must repeat its result`,
    );
  });

  it("names the other file when the conflicting attempts are in two files", async () => {
    const a = await fx.jsonl("dup-file-a.jsonl", [row({ attempt: "x" }), row({ model_config: "cand" })]);
    const b = await fx.jsonl("dup-file-b.jsonl", [row({ attempt: "x", result: "missing" })]);
    const err = await inputError(readNamed([a, b]));
    expect(err.message).toBe(
      `${HEADER1}\n  dup-file-b.jsonl:1: field "result": conflicts with dup-file-a.jsonl:1: the same attempt ` +
        `(model_config "base", task "t1", dataset_revision "ds1", harness_revision "h1", attempt "x") is "pass" ` +
        `there and "missing" here; a repeated attempt must repeat its result`,
    );
    expect(err.problems[0]?.location).toEqual({ file: "dup-file-b.jsonl", line: 1 });
  });

  it("checks repeated attempts of the two compared models only", async () => {
    const d = await read("dup-other", [
      row(),
      row({ model_config: "cand" }),
      row({ model_config: "other", attempt: 1 }),
      row({ model_config: "other", attempt: 1, result: "fail" }),
    ]);
    expect(d.modelsPresent).toEqual(["base", "cand", "other"]);
  });

  it("counts a row for both roles when baseline and candidate are the same id", async () => {
    const path = await fx.jsonl("same-id.jsonl", [
      row({ attempt: 1 }),
      row({ attempt: 1 }),
      row({ result: "fail" }),
    ]);
    const d = await readDataset({ results: [path], reviews: [], baseline: "base", candidate: "base" });
    expect(tableRecords(d.tasks)[0]?.baseline).toEqual(c(1, 1));
    expect(tableRecords(d.tasks)[0]?.candidate).toEqual(c(1, 1));
    expect(d.baseline.duplicateRows).toBe(1);
    expect(d.candidate.duplicateRows).toBe(1);
  });
});

describe("cluster", () => {
  it("takes the task's one cluster from any row that gives it", async () => {
    const d = await read("cluster-ok", [
      row(),
      row({ model_config: "cand", cluster: "repo-a" }),
      row({ model_config: "other", cluster: "repo-a" }),
      row({ task_id: "t2" }),
    ]);
    expect(tableRecords(d.tasks).map((t) => t.cluster)).toEqual(["repo-a", undefined]);
    expect("cluster" in (tableRecords(d.tasks)[1] ?? {})).toBe(false);
  });

  it("rejects two clusters for one task, naming both lines", async () => {
    const msg = await readError("cluster-two", [
      row({ cluster: "a" }),
      row({ model_config: "cand" }),
      row({ model_config: "other", cluster: "b" }),
      row({ model_config: "cand", cluster: "c" }),
    ]);
    expect(msg).toBe(
      `${HEADER1}\n  cluster-two.jsonl:3: field "cluster": task "t1" (dataset_revision "ds1") has cluster "a" at ` +
        `cluster-two.jsonl:1 and "b" here; a task belongs to one cluster`,
    );
  });

  it("ignores a cluster conflict on a task neither compared model ran", async () => {
    const d = await read("cluster-outside", [
      row(),
      row({ model_config: "cand" }),
      row({ task_id: "t9", model_config: "other", cluster: "a" }),
      row({ task_id: "t9", model_config: "other", cluster: "b" }),
    ]);
    expect(tableRecords(d.tasks).map((t) => t.taskId)).toEqual(["t1"]);
  });
});

describe("validity labels", () => {
  it("takes the label at the highest review revision, in any row order, and keeps the history", async () => {
    const d = await read(
      "labels",
      [
        row({ validity: "disputed", review_revision: 3, evidence: "r3.json" }),
        row({ model_config: "cand", validity: "valid", review_revision: 1 }),
        row({ model_config: "other", validity: "broken", review_revision: 2 }),
        row({ validity: "disputed", review_revision: 3 }),
        row({ task_id: "t2", model_config: "cand", validity: "valid", review_revision: 1 }),
      ],
      [
        review({ validity: "valid", review_revision: 1 }),
        review({ validity: "broken", review_revision: 0, reviewer: "carol" }),
        review({ task_id: "t2", validity: "broken", review_revision: 4, reviewer: "dan", note: "no test" }),
      ],
    );
    const [t1, t2] = tableRecords(d.tasks);
    expect(t1?.validity).toBe("disputed");
    expect(t1?.reviewRevision).toBe(3);
    expect(t1?.history).toEqual([
      {
        revision: 0,
        validity: "broken",
        source: { file: "labels-reviews.jsonl", line: 2 },
        reviewer: "carol",
        evidence: [],
      },
      { revision: 1, validity: "valid", source: { file: "labels.jsonl", line: 2 }, evidence: [] },
      { revision: 2, validity: "broken", source: { file: "labels.jsonl", line: 3 }, evidence: [] },
      { revision: 3, validity: "disputed", source: { file: "labels.jsonl", line: 1 }, evidence: ["r3.json"] },
    ]);
    expect(t2?.validity).toBe("broken");
    expect(t2?.reviewRevision).toBe(4);
    expect(t2?.history).toEqual([
      { revision: 1, validity: "valid", source: { file: "labels.jsonl", line: 5 }, evidence: [] },
      {
        revision: 4,
        validity: "broken",
        source: { file: "labels-reviews.jsonl", line: 3 },
        reviewer: "dan",
        note: "no test",
        evidence: [],
      },
    ]);
    expect(d.reviewRevisions).toEqual([0, 1, 2, 3, 4]);
  });

  it("rejects two labels at the highest revision (export against reviews), naming both sources", async () => {
    const msg = await readError(
      "label-conflict",
      [row({ review_revision: 1 }), row({ model_config: "cand", validity: "valid", review_revision: 2 })],
      [review({ validity: "broken", review_revision: 2 })],
    );
    expect(msg).toBe(
      `${HEADER1}\n  label-conflict-reviews.jsonl:1: field "validity": task "t1" (dataset_revision "ds1") has two ` +
        `different labels at its highest review_revision 2: "valid" at label-conflict.jsonl:2 and "broken" here; ` +
        `record a disagreement as a later revision labelled "disputed"`,
    );
  });

  it("rejects two labels at the highest revision within the export, from any model's rows", async () => {
    const msg = await readError("label-conflict-export", [
      row(),
      row({ model_config: "cand" }),
      row({ model_config: "other", validity: "broken" }),
    ]);
    expect(msg).toBe(
      `${HEADER1}\n  label-conflict-export.jsonl:3: field "validity": task "t1" (dataset_revision "ds1") has two ` +
        `different labels at its highest review_revision 1: "valid" at label-conflict-export.jsonl:1 and "broken" ` +
        `here; record a disagreement as a later revision labelled "disputed"`,
    );
  });

  it("accepts a disagreement recorded as a later revision labelled disputed, keeping both earlier labels", async () => {
    const d = await read(
      "label-resolved",
      [row(), row({ model_config: "cand" }), row({ model_config: "other", validity: "broken" })],
      [review({ validity: "disputed", review_revision: 2, evidence: ["a.log", "b.log"] })],
    );
    expect(tableRecords(d.tasks)[0]?.validity).toBe("disputed");
    expect(tableRecords(d.tasks)[0]?.history.map((e) => [e.revision, e.validity, e.source.line])).toEqual([
      [1, "valid", 1],
      [1, "broken", 3],
      [2, "disputed", 1],
    ]);
    expect(tableRecords(d.tasks)[0]?.evidence).toEqual(["a.log", "b.log"]);
  });

  it("leaves out reviews of tasks neither compared model ran, even conflicting ones", async () => {
    const d = await read(
      "review-outside",
      [row(), row({ model_config: "cand" }), row({ task_id: "t7", model_config: "other" })],
      [
        review({ task_id: "t7", validity: "broken", review_revision: 5 }),
        review({ task_id: "t7", validity: "valid", review_revision: 5 }),
        review({ task_id: "nowhere", review_revision: 9 }),
        // One row that labels a compared task: a file that labels none is an error (unmatched-reviews.test.ts).
        review({ task_id: "t1", validity: "valid", review_revision: 1 }),
      ],
    );
    expect(tableRecords(d.tasks).map((t) => t.taskId)).toEqual(["t1"]);
    expect(d.reviewRevisions).toEqual([1]);
    expect(d.rowsRead).toBe(7);
  });

  it("keeps broken tasks in the output", async () => {
    const d = await read("broken", [
      row({ validity: "broken" }),
      row({ model_config: "cand", validity: "broken" }),
    ]);
    expect(tableRecords(d.tasks).map((t) => [t.taskId, t.validity])).toEqual([["t1", "broken"]]);
  });
});

describe("evidence", () => {
  it("de-duplicates in first-seen order, ignores empty strings and keeps at most MAX_EVIDENCE_PER_TASK", async () => {
    const items = Array.from({ length: 30 }, (_, i) => `e${i}`);
    const d = await read(
      "evidence",
      [
        row({ evidence: ["e0", "", "e1", "e0"] }),
        row({ model_config: "cand", evidence: "e1" }),
        row({ model_config: "other", evidence: items.slice(2, 15) }),
      ],
      [review({ evidence: items })],
    );
    expect(MAX_EVIDENCE_PER_TASK).toBe(20);
    expect(tableRecords(d.tasks)[0]?.evidence).toEqual(items.slice(0, 20));
    // The label (1, valid) is carried by the three export rows: their evidence, in order.
    expect(tableRecords(d.tasks)[0]?.history[0]?.evidence).toEqual(items.slice(0, 15));
    expect(tableRecords(d.tasks)[0]?.history[1]?.evidence).toEqual(items.slice(0, 20));
  });

  it("keeps a row's items after rows of the same task and label without them, or as a list (the builder's last-row shortcut)", async () => {
    // Row by row the builder skips a row equal to the last one it added (same task, label and
    // items): a row with no evidence, or with the same item as a list or as a string, is not equal.
    const d = await read("evidence-runs", [
      row({ task_id: "t0", evidence: "x" }),
      row({ attempt: 1 }),
      row({ attempt: 2, evidence: "x" }),
      row({ attempt: 3, evidence: ["y"] }),
      row({ attempt: 4, evidence: ["y"] }),
      row({ attempt: 5, evidence: ["y", "z"] }),
      row({ attempt: 6, evidence: "y" }),
      row({ model_config: "cand", evidence: [] }),
      row({ model_config: "cand", attempt: 2 }),
    ]);
    const records = tableRecords(d.tasks);
    expect(records.map((r) => [r.taskId, r.evidence])).toEqual([
      ["t0", ["x"]],
      ["t1", ["x", "y", "z"]],
    ]);
  });
});

describe("pre-aggregated rows", () => {
  const agg = (passes: number, fails: number, infra_errors: number, missing: number, over = {}): object =>
    row({ result: undefined, passes, fails, infra_errors, missing, ...over });

  it("stand for that many attempts, per harness revision", async () => {
    const d = await read("agg", [
      agg(3, 1, 0, 0),
      agg(1, 0, 2, 1, { harness_revision: "h2" }),
      row({ model_config: "cand", attempt: 1 }),
      agg(0, 0, 0, 4, { model_config: "cand", harness_revision: "h3" }),
    ]);
    expect(tableRecords(d.tasks)[0]?.baseline).toEqual(c(4, 1, 2, 1));
    expect(tableRecords(d.tasks)[0]?.candidate).toEqual(c(1, 0, 0, 4));
    expect(d.baseline.harnessRevisions).toEqual(["h1", "h2"]);
    expect(d.candidate.harnessRevisions).toEqual(["h1", "h3"]);
  });

  it("rejects two aggregates of one key, naming both lines", async () => {
    const msg = await readError("agg-two", [agg(1, 0, 0, 0), row({ model_config: "cand" }), agg(0, 1, 0, 0)]);
    expect(msg).toBe(
      `${HEADER1}\n  agg-two.jsonl:3: a second pre-aggregated row for model_config "base", task "t1", dataset_revision ` +
        `"ds1", harness_revision "h1"; the first is at agg-two.jsonl:1. Two aggregates of the same attempts are ` +
        `ambiguous: give one row with the totals`,
    );
  });

  it("rejects aggregated and per-attempt rows for one key, in either order", async () => {
    const msg1 = await readError("agg-mix1", [agg(1, 0, 0, 0), row({ model_config: "cand" }), row()]);
    expect(msg1).toBe(
      `${HEADER1}\n  agg-mix1.jsonl:3: pre-aggregated and per-attempt rows for the same model_config "base", task ` +
        `"t1", dataset_revision "ds1", harness_revision "h1" (the other kind is at agg-mix1.jsonl:1); whether the ` +
        `aggregate includes those attempts is ambiguous: give one kind only`,
    );
    const msg2 = await readError("agg-mix2", [
      row({ model_config: "cand" }),
      row({ model_config: "cand", attempt: 2 }),
      agg(0, 1, 0, 0, { model_config: "cand" }),
      row(),
    ]);
    expect(msg2).toBe(
      `${HEADER1}\n  agg-mix2.jsonl:3: pre-aggregated and per-attempt rows for the same model_config "cand", task ` +
        `"t1", dataset_revision "ds1", harness_revision "h1" (the other kind is at agg-mix2.jsonl:1); whether the ` +
        `aggregate includes those attempts is ambiguous: give one kind only`,
    );
  });
});
