/**
 * jsonChunks (src/core/report/report-json.ts) against JSON.stringify(value, null, 2) + "\n": the
 * pieces joined are the same text, on random values and on the edge cases JSON.stringify has
 * rules for (skipped keys, null array items, toJSON, empty containers, runs longer than a batch).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonChunks } from "../../src/core/report/report-json.js";

function joined(value: object, size?: number): string {
  return [...jsonChunks(value, size)].join("");
}

function expected(value: object): string {
  return JSON.stringify(value, null, 2) + "\n";
}

/** Plain data as a report holds it, plus what JSON.stringify leaves out or writes as null. */
const anyValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.string({ unit: "binary" }),
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.array(tie("value"), { maxLength: 6 }),
    fc.dictionary(fc.string({ unit: "binary", maxLength: 4 }), tie("value"), { maxKeys: 6 }),
  ),
})).value;

describe("jsonChunks", () => {
  it("joins to JSON.stringify's text on random objects and arrays, in pieces of any size", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.array(anyValue), fc.dictionary(fc.string({ unit: "binary" }), anyValue)),
        fc.integer({ min: 1, max: 64 }),
        (value, size) => {
          expect(joined(value, size)).toBe(expected(value));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("follows JSON.stringify's rules for values without a text, holes, toJSON and empty containers", () => {
    const sparse: unknown[] = [1];
    sparse[3] = "x";
    const value = {
      skipped: undefined,
      fn: () => 1,
      sym: Symbol("s"),
      items: [undefined, () => 1, Symbol("t"), Number.NaN, -0, Infinity],
      sparse,
      when: new Date(Date.UTC(2026, 11, 1)),
      wrapped: { toJSON: () => ({ inner: [1, 2] }) },
      gone: { toJSON: () => undefined },
      empty: {},
      emptyList: [],
      onlySkipped: { a: undefined },
      nested: [[], [{}], [[1, [2, { b: [] }]]]],
      'key "quoted"\n': "line\nbreak \u2028 \u0000",
      10: "integer keys come first",
    };
    expect(joined(value)).toBe(expected(value));
    expect(joined(value, 1)).toBe(expected(value));
    expect(joined([])).toBe("[]\n");
    expect(joined({})).toBe("{}\n");
  });

  it("cuts a long list of task ids into pieces: the chunk size and one batch at most", () => {
    const ids = Array.from({ length: 5000 }, (_, i) => `owner__repo-${i}`);
    const report = {
      verdict: "accept",
      broken_tasks: { count: ids.length, by_dataset_revision: [{ dataset_revision: "r", task_ids: ids }] },
      mixed: [...ids.slice(0, 1500), { x: 1 }, ...ids.slice(0, 1030), [ids.slice(0, 2)]],
    };
    const chunks = [...jsonChunks(report, 4096)];
    expect(chunks.join("")).toBe(expected(report));
    // Every piece but the last reaches the size; none is longer than the size and one batch of
    // 1,024 ids (their text and indentation: at most 30 characters each here).
    for (const c of chunks.slice(0, -1)) expect(c.length).toBeGreaterThanOrEqual(4096);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThanOrEqual(4096 + 1024 * 30);
    expect(chunks.length).toBeGreaterThanOrEqual(8);
  });
});
