import { chmod, mkdir, readFile, symlink } from "node:fs/promises";
import { tableRecords } from "../../src/core/model.js";
import { basename, join } from "node:path";
import { gzipSync } from "node:zlib";

import { describe, expect, it } from "vitest";

import { InputError } from "../../src/core/errors.js";
import { MAX_ID_LENGTH, MAX_LINE_BYTES, readDataset } from "../../src/read/read-dataset.js";
import { fixtures, inputError, review, row, toJsonl } from "./fixtures.js";

const fx = fixtures("errors");
const HEADER1 = "The results/reviews input has 1 problem:";

/** Two good rows (so both models exist), then `bad` as line 3. */
async function readWithBadLine(name: string, bad: string): Promise<InputError> {
  const path = await fx.write(name, toJsonl([row(), row({ model_config: "cand" }), bad]));
  return inputError(
    readDataset({ results: [path], reviews: [], baseline: "base", candidate: "cand", displayPath: basename }),
  );
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
    return inputError(
      readDataset({
        results: [results],
        reviews: [reviews],
        baseline: "base",
        candidate: "cand",
        displayPath: basename,
      }),
    );
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

describe("the problem list", () => {
  it("lists the first 20 of 25 bad lines and the total", async () => {
    const lines: unknown[] = [row(), row({ model_config: "cand" })];
    for (let i = 0; i < 25; i++) lines.push(row({ task_id: `t${i}`, result: "passed" }));
    const path = await fx.jsonl("bad25.jsonl", lines);
    const err = await inputError(
      readDataset({
        results: [path],
        reviews: [],
        baseline: "base",
        candidate: "cand",
        displayPath: basename,
      }),
    );
    const expected = [
      "The results/reviews input has 25 problems:",
      ...Array.from(
        { length: 20 },
        (_, i) =>
          `  bad25.jsonl:${i + 3}: field "result": expected one of pass, fail, infra_error, missing; got "passed"`,
      ),
      "  … and 5 more (25 in all)",
    ];
    expect(err.message).toBe(expected.join("\n"));
    expect(err.total).toBe(25);
    expect(err.problems.length).toBe(20);
  });

  it("collects problems across files into one error, in file order", async () => {
    const a = await fx.jsonl("multi-a.jsonl", [row(), row({ validity: "bad" })]);
    const b = await fx.jsonl("multi-b.jsonl", [
      row({ model_config: "cand", result: "?" }),
      row({ model_config: "cand" }),
    ]);
    const r = await fx.jsonl("multi-r.jsonl", [review({ validity: 1 })]);
    const err = await inputError(
      readDataset({
        results: [a, b],
        reviews: [r],
        baseline: "base",
        candidate: "cand",
        displayPath: basename,
      }),
    );
    expect(err.message).toBe(
      [
        "The results/reviews input has 3 problems:",
        `  multi-a.jsonl:2: field "validity": expected one of unreviewed, valid, broken, disputed; got "bad"`,
        `  multi-b.jsonl:1: field "result": expected one of pass, fail, infra_error, missing; got "?"`,
        `  multi-r.jsonl:1: field "validity": expected one of unreviewed, valid, broken, disputed; got 1`,
      ].join("\n"),
    );
  });
});

describe("unknown model ids", () => {
  it("lists the ids present, sorted", async () => {
    const path = await fx.jsonl("models.jsonl", [
      row({ model_config: "zeta" }),
      row({ model_config: "alpha" }),
      row(),
    ]);
    const err = await inputError(
      readDataset({
        results: [path],
        reviews: [],
        baseline: "base",
        candidate: "nope",
        displayPath: basename,
      }),
    );
    expect(err.message).toBe(
      `${HEADER1}\n  the candidate model_config "nope" does not appear in the export; model_config ids present (3): "alpha", "base", "zeta"`,
    );
  });

  it("caps the list at 20 ids with the count, and reports both roles", async () => {
    const rows = Array.from({ length: 25 }, (_, i) =>
      row({ model_config: `m${String(i).padStart(2, "0")}` }),
    );
    const path = await fx.jsonl("models25.jsonl", rows);
    const err = await inputError(
      readDataset({ results: [path], reviews: [], baseline: "x", candidate: "y", displayPath: basename }),
    );
    const shown = Array.from({ length: 20 }, (_, i) => `"m${String(i).padStart(2, "0")}"`).join(", ");
    expect(err.message).toBe(
      [
        "The results/reviews input has 2 problems:",
        `  the baseline model_config "x" does not appear in the export; model_config ids present (25): ${shown}, … (25 in all)`,
        `  the candidate model_config "y" does not appear in the export; model_config ids present (25): ${shown}, … (25 in all)`,
      ].join("\n"),
    );
  });

  it("puts the unknown id first, before line problems", async () => {
    const path = await fx.jsonl("models-bad.jsonl", [row(), row({ result: "x" })]);
    const err = await inputError(
      readDataset({
        results: [path],
        reviews: [],
        baseline: "base",
        candidate: "cand",
        displayPath: basename,
      }),
    );
    expect(err.message).toBe(
      [
        "The results/reviews input has 2 problems:",
        `  the candidate model_config "cand" does not appear in the export; model_config ids present (1): "base"`,
        `  models-bad.jsonl:2: field "result": expected one of pass, fail, infra_error, missing; got "x"`,
      ].join("\n"),
    );
  });

  it("says so when the export has no valid rows", async () => {
    const path = await fx.write("empty.jsonl", "\n\n");
    const err = await inputError(
      readDataset({
        results: [path],
        reviews: [],
        baseline: "base",
        candidate: "cand",
        displayPath: basename,
      }),
    );
    expect(err.message).toBe(
      [
        "The results/reviews input has 2 problems:",
        `  the baseline model_config "base" does not appear in the export: the export has no valid rows`,
        `  the candidate model_config "cand" does not appear in the export: the export has no valid rows`,
      ].join("\n"),
    );
  });
});

describe("files", () => {
  it("names a missing file, a directory and a file given twice before reading anything", async () => {
    const good = await fx.jsonl("files-good.jsonl", [row(), row({ model_config: "cand" })]);
    const dir = join(fx.dir, "a-dir");
    await mkdir(dir);
    const err = await inputError(
      readDataset({
        results: [good, join(fx.dir, "nope.jsonl"), dir],
        reviews: [good],
        baseline: "base",
        candidate: "cand",
        displayPath: basename,
      }),
    );
    expect(err.message).toBe(
      [
        "Cannot read 3 input files:",
        "  nope.jsonl: no such file",
        "  a-dir: expected a results file; this is a directory",
        "  files-good.jsonl: the same file is given twice (first as results file files-good.jsonl); its rows would count twice",
      ].join("\n"),
    );
  });

  it("sees through a symbolic link when checking for a file given twice", async () => {
    const good = await fx.jsonl("link-target.jsonl", [row(), row({ model_config: "cand" })]);
    const link = join(fx.dir, "link.jsonl");
    await symlink(good, link);
    const err = await inputError(
      readDataset({
        results: [good, link],
        reviews: [],
        baseline: "base",
        candidate: "cand",
        displayPath: basename,
      }),
    );
    expect(err.message).toBe(
      "Cannot read an input file:\n  link.jsonl: the same file is given twice (first as results file link-target.jsonl); its rows would count twice",
    );
  });

  // Root reads anything, so there is nothing to test as root.
  it.skipIf(process.getuid?.() === 0)("names an unreadable file", async () => {
    const path = await fx.jsonl("noperm.jsonl", [row()]);
    await chmod(path, 0o000);
    const err = await inputError(
      readDataset({
        results: [path],
        reviews: [],
        baseline: "base",
        candidate: "cand",
        displayPath: basename,
      }),
    );
    expect(err.message).toBe(`${HEADER1}\n  noperm.jsonl: permission denied`);
  });

  it("names a truncated gzip file, without a stack trace in the message", async () => {
    const rows = Array.from({ length: 200 }, (_, i) => row({ task_id: `t${i}` }));
    const full = gzipSync(toJsonl([...rows, row({ model_config: "cand" })]));
    const path = await fx.write("trunc.jsonl.gz", full.subarray(0, full.length - 20));
    const err = await inputError(
      readDataset({
        results: [path],
        reviews: [],
        baseline: "base",
        candidate: "cand",
        displayPath: basename,
      }),
    );
    expect(err.message).toBe(
      `${HEADER1}\n  trunc.jsonl.gz: could not decompress the gzip data (unexpected end of file); the file is truncated or corrupt`,
    );
  });

  it("names a corrupt gzip file", async () => {
    const full = gzipSync(toJsonl([row(), row({ model_config: "cand" })]));
    const bad = Buffer.from(full);
    bad.fill(0xff, 10, full.length - 8);
    const path = await fx.write("corrupt.jsonl.gz", bad);
    const err = await inputError(
      readDataset({
        results: [path],
        reviews: [],
        baseline: "base",
        candidate: "cand",
        displayPath: basename,
      }),
    );
    expect(err.message).toMatch(
      /^The results\/reviews input has 1 problem:\n {2}corrupt\.jsonl\.gz: could not decompress the gzip data \([^)]+\); the file is truncated or corrupt$/,
    );
  });

  it("names files in other formats instead of reporting every line", async () => {
    const utf16 = await fx.write(
      "utf16.jsonl",
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(toJsonl([row()]), "utf16le")]),
    );
    const zstd = await fx.write("data.jsonl.zst", Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0, 0]));
    const good = await fx.jsonl("formats-good.jsonl", [row(), row({ model_config: "cand" })]);
    const err = await inputError(
      readDataset({
        results: [good, utf16, zstd],
        reviews: [],
        baseline: "base",
        candidate: "cand",
        displayPath: basename,
      }),
    );
    expect(err.message).toBe(
      [
        "The results/reviews input has 2 problems:",
        "  utf16.jsonl: the file is UTF-16 text; expected UTF-8 JSON lines",
        "  data.jsonl.zst: the file is zstd-compressed; only plain or gzip-compressed JSON lines are read",
      ].join("\n"),
    );
  });

  it("names a line that is not UTF-8", async () => {
    const bytes = Buffer.concat([
      Buffer.from(toJsonl([row(), row({ model_config: "cand" })])),
      Buffer.from('{"task_id":"t'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}\n'),
    ]);
    const path = await fx.write("latin.jsonl", bytes);
    const err = await inputError(
      readDataset({
        results: [path],
        reviews: [],
        baseline: "base",
        candidate: "cand",
        displayPath: basename,
      }),
    );
    expect(err.message).toBe(`${HEADER1}\n  latin.jsonl:3: the line is not valid UTF-8 text`);
  });

  it("reports an overlong line without reading it whole, and goes on with the next lines", async () => {
    const ok = JSON.stringify(row({ model_config: "cand" }));
    // Exactly MAX_LINE_BYTES (padding with spaces inside the line) is accepted; one more byte is not.
    const atLimit = ok + " ".repeat(MAX_LINE_BYTES - Buffer.byteLength(ok));
    const overLimit = JSON.stringify(row({ evidence: "x".repeat(MAX_LINE_BYTES) }));
    const text = [
      JSON.stringify(row()),
      atLimit,
      overLimit,
      JSON.stringify(row({ result: "?" })),
      overLimit,
    ].join("\n");
    const path = await fx.write("long.jsonl", text);
    const gzPath = await fx.write("long.jsonl.gz", gzipSync(text));
    for (const [p, name] of [
      [path, "long.jsonl"],
      [gzPath, "long.jsonl.gz"],
    ] as const) {
      const err = await inputError(
        readDataset({
          results: [p],
          reviews: [],
          baseline: "base",
          candidate: "cand",
          displayPath: basename,
        }),
      );
      expect(err.message).toBe(
        [
          "The results/reviews input has 3 problems:",
          `  ${name}:3: the line is longer than 1048576 bytes (the limit); one JSON object per line is expected`,
          `  ${name}:4: field "result": expected one of pass, fail, infra_error, missing; got "?"`,
          `  ${name}:5: the line is longer than 1048576 bytes (the limit); one JSON object per line is expected`,
        ].join("\n"),
      );
    }
    const d = await readDataset({
      results: [await fx.write("long-ok.jsonl", [JSON.stringify(row()), atLimit].join("\r\n"))],
      reviews: [],
      baseline: "base",
      candidate: "cand",
    });
    expect(d.rowsRead).toBe(2);
    expect((await readFile(path)).length).toBeGreaterThan(2 * MAX_LINE_BYTES);
  });

  it("rejects bad options", async () => {
    const err = await inputError(readDataset({ results: [], reviews: [], baseline: "", candidate: "cand" }));
    expect(err.message).toBe(
      [
        "The reader was given invalid options:",
        `  field "baseline": expected a non-empty model_config id`,
        `  field "results": expected at least one results file`,
      ].join("\n"),
    );
  });
});
