/**
 * A bad line of a results export or a reviews file is one problem naming the file, the line, the
 * field and what was expected (row-checks.ts; the byte scanner hands every line it does not
 * accept to those checks).
 */
import { tableRecords } from "../../../src/core/model.js";

import { describe, expect, it } from "vitest";

import { InputError } from "../../../src/core/errors.js";
import { MAX_ID_LENGTH, readDataset } from "../../../src/read/read-dataset.js";
import { fixtures, inputError, review, row, toJsonl, readNamed } from "../fixtures.js";

const fx = fixtures("row-errors");
const HEADER1 = "The results/reviews input has 1 problem:";

/** Two good rows (so both models exist), then `bad` as line 3. */
async function readWithBadLine(name: string, bad: string): Promise<InputError> {
  const path = await fx.write(name, toJsonl([row(), row({ model_config: "cand" }), bad]));
  return inputError(readNamed([path]));
}

const j = (over: Record<string, unknown>): string => JSON.stringify(row(over));

describe("a bad export line is one problem naming file, line, field and what was expected", () => {
  const cases: [string, string, string][] = [
    [
      "result value",
      j({ result: "passed" }),
      `field "result": expected one of pass, fail, infra_error, missing; got "passed"`,
    ],
    [
      "result type",
      j({ result: 1 }),
      `field "result": expected one of pass, fail, infra_error, missing; got 1`,
    ],
    ["array line", "[1,2]", "expected a JSON object; got an array"],
    ["number line", "42", "expected a JSON object; got 42"],
    ["null line", "null", "expected a JSON object; got null"],
    ["string line", '"row"', 'expected a JSON object; got "row"'],
    [
      "task_id missing",
      j({ task_id: undefined }),
      `field "task_id": expected a non-empty string; the field is missing`,
    ],
    ["task_id number", j({ task_id: 17 }), `field "task_id": expected a non-empty string; got 17`],
    [
      "task_id empty",
      j({ task_id: "" }),
      `field "task_id": expected a non-empty string; got an empty string`,
    ],
    ["task_id null", j({ task_id: null }), `field "task_id": expected a non-empty string; got null`],
    [
      "task_id object",
      j({ task_id: { id: 1 } }),
      `field "task_id": expected a non-empty string; got an object`,
    ],
    [
      "task_id too long",
      j({ task_id: "x".repeat(MAX_ID_LENGTH + 1) }),
      `field "task_id": expected at most 4096 characters; got 4097`,
    ],
    [
      "dataset_revision with NUL",
      j({ dataset_revision: "a\u0000b" }),
      `field "dataset_revision": expected no control characters (U+0000-U+001F, U+007F-U+009F); got "a\\u0000b"`,
    ],
    [
      "task_id with a tab",
      j({ task_id: "t\t1" }),
      `field "task_id": expected no control characters (U+0000-U+001F, U+007F-U+009F); got "t\\t1"`,
    ],
    [
      "model_config with ESC (shown escaped)",
      j({ model_config: "m\u001b[31m" }),
      `field "model_config": expected no control characters (U+0000-U+001F, U+007F-U+009F); got "m\\u001b[31m"`,
    ],
    [
      "harness_revision with a C1 control (shown escaped)",
      j({ harness_revision: "h\u009b1" }),
      `field "harness_revision": expected no control characters (U+0000-U+001F, U+007F-U+009F); got "h\\u009b1"`,
    ],
    [
      "validity value",
      j({ validity: "ok" }),
      `field "validity": expected one of unreviewed, valid, broken, disputed; got "ok"`,
    ],
    [
      "validity missing",
      j({ validity: undefined }),
      `field "validity": expected one of unreviewed, valid, broken, disputed; the field is missing`,
    ],
    [
      "review_revision negative",
      j({ review_revision: -1 }),
      `field "review_revision": expected an integer >= 0; got -1`,
    ],
    [
      "review_revision fraction",
      j({ review_revision: 1.5 }),
      `field "review_revision": expected an integer >= 0; got 1.5`,
    ],
    [
      "review_revision string",
      j({ review_revision: "3" }),
      `field "review_revision": expected an integer >= 0; got "3"`,
    ],
    [
      "review_revision unsafe",
      '{"task_id":"t1","dataset_revision":"ds1","harness_revision":"h1","model_config":"base","validity":"valid","result":"pass","review_revision":9007199254740993}',
      `field "review_revision": expected an integer >= 0 no larger than 9007199254740991; got 9007199254740992`,
    ],
    [
      "review_revision missing",
      j({ review_revision: undefined }),
      `field "review_revision": expected an integer >= 0; the field is missing`,
    ],
    [
      "evidence number",
      j({ evidence: 3 }),
      `field "evidence": expected a string or an array of strings; got 3`,
    ],
    [
      "evidence object",
      j({ evidence: { a: 1 } }),
      `field "evidence": expected a string or an array of strings; got an object`,
    ],
    ["evidence item", j({ evidence: ["a", 3] }), `field "evidence[1]": expected a string; got 3`],
    [
      "evidence item with a newline",
      j({ evidence: ["a", "b\nc"] }),
      `field "evidence[1]": expected no control characters (U+0000-U+001F, U+007F-U+009F); got "b\\nc"`,
    ],
    [
      "attempt fraction",
      j({ attempt: 1.5 }),
      `field "attempt": expected a non-empty string or an integer; got 1.5`,
    ],
    [
      "attempt boolean",
      j({ attempt: true }),
      `field "attempt": expected a non-empty string or an integer; got true`,
    ],
    [
      "attempt array",
      j({ attempt: [1] }),
      `field "attempt": expected a non-empty string or an integer; got an array`,
    ],
    [
      "attempt empty",
      j({ attempt: "" }),
      `field "attempt": expected a non-empty string; got an empty string`,
    ],
    ["cluster number", j({ cluster: 3 }), `field "cluster": expected a non-empty string; got 3`],
    [
      "result missing",
      j({ result: undefined }),
      `field "result": expected one of pass, fail, infra_error, missing (or, for a pre-aggregated row, the four counts passes, fails, infra_errors, missing); the field is missing`,
    ],
    [
      "result null",
      j({ result: null }),
      `field "result": expected one of pass, fail, infra_error, missing (or, for a pre-aggregated row, the four counts passes, fails, infra_errors, missing); the field is missing`,
    ],
    [
      "result and counts",
      j({ passes: 1 }),
      `field "result": a row has either "result" (one attempt) or the counts passes, fails, infra_errors, missing (a pre-aggregated row), not both; this one also has "passes"`,
    ],
    [
      "counts incomplete",
      j({ result: undefined, passes: 1, fails: 2 }),
      `field "infra_errors": expected an integer >= 0; the field is missing (field "missing" on this line is wrong too)`,
    ],
    [
      "count negative",
      j({ result: undefined, passes: 1, fails: -1, infra_errors: 0, missing: 0 }),
      `field "fails": expected an integer >= 0; got -1`,
    ],
    [
      "count string",
      j({ result: undefined, passes: "1", fails: 0, infra_errors: 0, missing: 0 }),
      `field "passes": expected an integer >= 0; got "1"`,
    ],
    [
      "counts all zero",
      j({ result: undefined, passes: 0, fails: 0, infra_errors: 0, missing: 0 }),
      `field "passes": a pre-aggregated row needs at least one count above 0; all four are 0`,
    ],
    [
      "attempt on an aggregated row",
      j({ result: undefined, passes: 1, fails: 0, infra_errors: 0, missing: 0, attempt: 1 }),
      `field "attempt": not allowed on a pre-aggregated row (one with counts instead of a result)`,
    ],
    [
      "several wrong fields",
      j({ task_id: 1, validity: "x", result: "y" }),
      `field "task_id": expected a non-empty string; got 1 (fields "validity", "result" on this line are wrong too)`,
    ],
    [
      "a long bad value is shown cut",
      j({ result: "r".repeat(100) }),
      `field "result": expected one of pass, fail, infra_error, missing; got "${"r".repeat(60)}"… (100 characters)`,
    ],
  ];

  it.each(cases)("%s", async (name, line, expected) => {
    const err = await readWithBadLine(`bad-${name.replace(/\W+/g, "-")}.jsonl`, line);
    expect(err.message).toBe(`${HEADER1}\n  bad-${name.replace(/\W+/g, "-")}.jsonl:3: ${expected}`);
    expect(err.total).toBe(1);
    expect(err.stack).toBeDefined();
  });

  it("reports invalid JSON with the parser's reason", async () => {
    const err = await readWithBadLine("bad-json.jsonl", '{"task_id": "t1",');
    expect(
      err.message.startsWith(
        `${HEADER1}\n  bad-json.jsonl:3: expected a JSON object; the line is not valid JSON (`,
      ),
    ).toBe(true);
    expect(err.problems[0]?.location).toEqual({ file: "bad-json.jsonl", line: 3 });
    expect(err.problems[0]?.field).toBeUndefined();
  });

  it("escapes control characters that the parser quotes from the line", async () => {
    const err = await readWithBadLine("bad-esc.jsonl", "\u001b[2J\u009b1m");
    // The parser's wording varies with the Node version; the escaping does not.
    expect(err.message).toContain(`bad-esc.jsonl:3: expected a JSON object; the line is not valid JSON (`);
    expect(err.message).toContain(`\\u001b[2J\\u009b1m`);
    // eslint-disable-next-line no-control-regex
    expect(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(err.message)).toBe(false);
  });

  it("ignores unknown fields and treats null in an optional field as absent", async () => {
    const path = await fx.jsonl("nulls.jsonl", [
      row({ evidence: null, attempt: null, cluster: null, passes: null, extra: { x: [1] } }),
      row({ model_config: "cand", note: 5, reviewer: 7 }),
    ]);
    const d = await readDataset({ results: [path], reviews: [], baseline: "base", candidate: "cand" });
    expect(tableRecords(d.tasks)[0]?.baseline).toEqual({ pass: 1, fail: 0, infra_error: 0, missing: 0 });
    expect(tableRecords(d.tasks)[0]?.cluster).toBeUndefined();
  });
});

describe("bad review lines", () => {
  async function readReviews(name: string, lines: readonly unknown[]): Promise<InputError> {
    const results = await fx.jsonl(`${name}-results.jsonl`, [row(), row({ model_config: "cand" })]);
    const reviews = await fx.jsonl(`${name}.jsonl`, lines);
    return inputError(readNamed([results], [reviews]));
  }

  it("names the reviews file, line and field", async () => {
    const err = await readReviews("rev-bad", [
      review(),
      review({ reviewer: 3 }),
      review({ note: 3 }),
      review({ note: "bell\u0007" }),
      review({ review_revision: undefined }),
      review({ task_id: undefined, validity: "fine" }),
      "not json",
    ]);
    expect(err.message.split("\n").slice(0, 6)).toEqual([
      "The results/reviews input has 6 problems:",
      `  rev-bad.jsonl:2: field "reviewer": expected a non-empty string; got 3`,
      `  rev-bad.jsonl:3: field "note": expected a string; got 3`,
      `  rev-bad.jsonl:4: field "note": expected no control characters other than tab and line ends; got "bell\\u0007"`,
      `  rev-bad.jsonl:5: field "review_revision": expected an integer >= 0; the field is missing`,
      `  rev-bad.jsonl:6: field "task_id": expected a non-empty string; the field is missing (field "validity" on this line is wrong too)`,
    ]);
    expect(err.message.split("\n")[6]).toMatch(
      /^ {2}rev-bad\.jsonl:7: expected a JSON object; the line is not valid JSON \(/,
    );
  });

  it("accepts a note with newlines and tabs, and a review without model or harness fields", async () => {
    const results = await fx.jsonl("rev-ok-results.jsonl", [row(), row({ model_config: "cand" })]);
    const reviews = await fx.jsonl("rev-ok.jsonl", [
      review({ note: "line 1\n\tline 2\r\n", reviewer: "bob" }),
    ]);
    const d = await readDataset({
      results: [results],
      reviews: [reviews],
      baseline: "base",
      candidate: "cand",
    });
    expect(tableRecords(d.tasks)[0]?.history[1]).toMatchObject({
      note: "line 1\n\tline 2\r\n",
      reviewer: "bob",
      revision: 2,
    });
  });
});
