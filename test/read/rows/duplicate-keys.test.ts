/**
 * A JSON line with the same key twice is a located input error (SPEC §1.1 guesses
 * nothing about a bad line), on every parse path: the byte scanner (which hands such a line to
 * JSON.parse) and JSON.parse (any line with an escape); results and reviews files alike.
 */
import { basename } from "node:path";

import { describe, expect, it } from "vitest";

import { fixtures, inputError, review, row, toJsonl, readNamed } from "../fixtures.js";

const fx = fixtures("dupkeys");

/** The base row's JSON with `extra` spliced in before its closing brace. */
const withKeys = (extra: string, over: Record<string, unknown> = {}): string =>
  JSON.stringify(row(over)).replace(/}$/, `,${extra}}`);

describe("a repeated key is a located error", () => {
  const read = (path: string) => readNamed([path]);

  const cases: [string, string, string | undefined, string][] = [
    // [what, line 3, field, message]
    [
      "result twice, different values",
      withKeys('"result":"fail"'),
      "result",
      'the key "result" is given twice',
    ],
    [
      "result twice, the same value",
      withKeys('"result":"pass"'),
      "result",
      'the key "result" is given twice',
    ],
    ["task_id twice", withKeys('"task_id":"t2"'), "task_id", 'the key "task_id" is given twice'],
    [
      "an ignored key twice",
      withKeys('"run_id":"a","run_id":"b"'),
      "run_id",
      'the key "run_id" is given twice',
    ],
    [
      "a key spelt once with an escape (same key after unescaping)",
      withKeys('"\\u0072esult":"fail"'),
      "result",
      'the key "result" is given twice',
    ],
    [
      "a repeated key that is not a plain name (not shown as the field, quoted escaped)",
      withKeys('"a\\nb":1,"a\\u000ab":2'),
      undefined,
      'the key "a\\nb" is given twice',
    ],
    [
      "evidence twice",
      withKeys('"evidence":["x"],"evidence":"y"'),
      "evidence",
      'the key "evidence" is given twice',
    ],
  ];

  it.each(cases)("%s", async (_what, bad, field, message) => {
    const path = await fx.write(
      `dup-${Math.random().toString(36).slice(2)}.jsonl`,
      toJsonl([row(), row({ model_config: "cand" }), bad, row({ task_id: "t9" })]),
    );
    const err = await inputError(read(path));
    expect(err.total).toBe(1);
    const [p] = err.problems;
    expect(p?.location).toEqual({ file: basename(path), line: 3 });
    expect(p?.field).toBe(field);
    expect(p?.message).toContain(message);
    expect(p?.message).toContain("expected each field once");
  });

  it("the same key in nested objects, or once per object, is not a repeat", async () => {
    const path = await fx.write(
      `nested-${Math.random().toString(36).slice(2)}.jsonl`,
      toJsonl([
        row(),
        row({ model_config: "cand" }),
        withKeys('"meta":{"result":"fail","k":1,"k":2},"more":[{"a":1},{"a":2}]'),
        withKeys('"result_2":"fail","Result":"x"'),
      ]),
    );
    const d = await read(path);
    expect(d.rowsRead).toBe(4);
  });
});

describe("a repeated key in a reviews file", () => {
  it("is a located error too", async () => {
    const results = await fx.jsonl("rev-results.jsonl", [row(), row({ model_config: "cand" })]);
    const reviews = await fx.write(
      "rev-reviews.jsonl",
      toJsonl([review(), JSON.stringify(review()).replace(/}$/, ',"validity":"broken"}')]),
    );
    const err = await inputError(readNamed([results], [reviews]));
    expect(err.problems).toEqual([
      {
        location: { file: "rev-reviews.jsonl", line: 2 },
        field: "validity",
        message: 'the key "validity" is given twice on this line; expected each field once',
      },
    ]);
  });
});
