/**
 * A CSV or TSV header given where JSON lines are expected (table-header.ts): which first lines are
 * taken for one, and the exact words of the problem for each kind of table and each role.
 */
import { describe, expect, it } from "vitest";

import { tableFileProblem, tableHeader } from "../../../src/read/lines/table-header.js";

const NOT_READ = "not JSON lines, and is not read";
const RESULTS_FIELDS =
  "the gate reads one JSON object per line, with the fields task_id, dataset_revision, harness_revision, model_config, validity, result and review_revision. " +
  "Export the rows as JSON lines (DuckDB: COPY (SELECT …) TO 'out.jsonl' (FORMAT JSON); pandas: df.to_json('out.jsonl', orient='records', lines=True))";

describe("tableHeader", () => {
  it.each([
    ["task_id,model_config,result", "CSV", ["task_id", "model_config", "result"]],
    ["task_id\tresult", "TSV", ["task_id", "result"]],
    // Quoted names, spaces in and around them.
    ['"task_id", "pass@1" ,"score (%)"', "CSV", ["task_id", "pass@1", "score (%)"]],
    ["Instance ID\t label", "TSV", ["Instance ID", "label"]],
    ["instance_id,résultat,_x", "CSV", ["instance_id", "résultat", "_x"]],
  ])("%j is a %s header", (line, kind, names) => {
    expect(tableHeader(line)).toEqual({ kind, names });
  });

  it.each([
    // JSON, valid or not: the reader words its problem line by line.
    '{"task_id":"t1","result":"pass"}',
    '{"task_id": "t1", "result": }',
    "[1,2]",
    '"task_id,result"',
    // One name, numbers, empty names, names too long or not field-like.
    "task_id",
    "1,2,3",
    "task_id,,result",
    "task_id,result,",
    `task_id,${"x".repeat(65)}`,
    "task_id,re$ult",
    "t1,pass,0.5",
  ])("%j is not", (line) => {
    expect(tableHeader(line)).toBeUndefined();
  });
});

describe("tableFileProblem", () => {
  it("a results-like table: what the rows must be and how to get them, for results and reviews", () => {
    expect(tableFileProblem("task_id,model_config,result,validity", "results", "out/res.csv")).toBe(
      `the file is a CSV table (its first line is the header "task_id", "model_config", "result", "validity"), ${NOT_READ}: ` +
        `${RESULTS_FIELDS}, or turn your harness's own output into them with model-gate import (model-gate import --help lists the kinds)`,
    );
    expect(tableFileProblem("task_id\tresult", "reviews", "r.tsv")).toBe(
      `the file is a TSV table (its first line is the header "task_id", "result"), ${NOT_READ}: ` +
        "the gate reads one JSON object per line, with the fields task_id, dataset_revision, validity and review_revision. " +
        "Export the rows as JSON lines (DuckDB: COPY (SELECT …) TO 'out.jsonl' (FORMAT JSON); pandas: df.to_json('out.jsonl', orient='records', lines=True))",
    );
  });

  it("a review sheet: model-gate import reviews-csv with the file's name, and where its output goes", () => {
    const header = "Task_ID,Validity,reviewer,note";
    const shown = `the file is a CSV table (its first line is the header "Task_ID", "Validity", "reviewer", "note"), ${NOT_READ}`;
    expect(tableFileProblem(header, "reviews", "sheets/team.csv")).toBe(
      `${shown}: it looks like a review sheet; turn it into a reviews file with model-gate import reviews-csv sheets/team.csv -o reviews.jsonl`,
    );
    expect(tableFileProblem(header, "results", "my sheet.csv")).toBe(
      `${shown}: it looks like a review sheet; turn it into a reviews file with model-gate import reviews-csv "my sheet.csv" -o reviews.jsonl, ` +
        "and give the output as the reviews file, not as results",
    );
    // With a result column it is no review sheet.
    expect(tableFileProblem("task_id,validity,result", "results", "x.csv")).toContain(RESULTS_FIELDS);
  });

  it("OpenAI's SWE-bench Verified annotations: model-gate import verified-annotations", () => {
    expect(
      tableFileProblem(
        "instance_id,underspecified,underspecified_notes,false_negative,false_negative_notes,other_major_issues,other_notes,difficulty,underspecified_decided_by,false_negative_decided_by,other_major_issues_decided_by,difficulty_decided_by,difficulty_ensemble,filter_out",
        "results",
        "ensembled_annotations_public.csv",
      ),
    ).toBe(
      `the file is a CSV table (its first line is the header "instance_id", "underspecified", "underspecified_notes", "false_negative", ` +
        `"false_negative_notes", "other_major_issues", "other_notes", "difficulty", … (14 columns)), ${NOT_READ}: ` +
        "it looks like OpenAI's SWE-bench Verified annotations; turn them into a reviews file with " +
        "model-gate import verified-annotations ensembled_annotations_public.csv -o reviews.jsonl, and give the output as the reviews file, not as results",
    );
  });

  it("a first line that is no header: no problem (the file is read as JSON lines)", () => {
    expect(tableFileProblem('{"task_id":"t1"}', "results", "a.jsonl")).toBeUndefined();
    expect(tableFileProblem("t1,0.5,pass", "results", "a.csv")).toBeUndefined();
  });
});
