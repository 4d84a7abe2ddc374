/**
 * packed-evidence.ts against the same questions asked of the list itself: on random lists of
 * distinct, non-empty items without control characters (what the reader keeps) and random
 * queries — prefixes, runs from each item, items of the list and others, items that are parts of
 * an item or span two — every answer is the array's.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  pack,
  packedEquals,
  packedIndexOf,
  packedRunAt,
  packedStartsWith,
  unpack,
} from "../../../src/read/rows/packed-evidence.js";

/** Short items over few letters, so parts of items and repeats across items are common. */
const item = fc.string({ unit: fc.constantFrom("a", "b", "/", "é"), minLength: 1, maxLength: 4 });
const list = fc.uniqueArray(item, { maxLength: 6 });
/**
 * A row's item: any short string without a control character (empty too: rows may give one; the
 * reader refuses control characters), often one of the list's or a part of one.
 */
const query = (items: readonly string[]): fc.Arbitrary<string> =>
  items.length === 0
    ? fc.string({ unit: fc.constantFrom("a", "b", "/", "é"), maxLength: 5 })
    : fc.oneof(
        fc.constantFrom(...items),
        fc.string({ unit: fc.constantFrom("a", "b", "/", "é"), maxLength: 5 }),
        fc
          .tuple(fc.constantFrom(...items), fc.nat(4), fc.nat(4))
          .map(([s, a, b]) => s.slice(Math.min(a, b), Math.max(a, b))),
      );

/** The array's answers (as the builder asked them before lists were packed). */
function startsWithList(kept: readonly string[], evidence: string | readonly string[]): boolean {
  if (typeof evidence === "string") return kept[0] === evidence;
  if (evidence.length > kept.length) return false;
  return evidence.every((e, k) => kept[k] === e);
}
function runAtList(kept: readonly string[], start: number, evidence: readonly string[]): boolean {
  if (start + evidence.length > kept.length) return false;
  return evidence.every((e, k) => kept[start + k] === e);
}
/** The character offset of item k in the packed list. */
function offsetOf(kept: readonly string[], k: number): number {
  let at = 0;
  for (let j = 0; j < k; j++) at += (kept[j] as string).length + 1;
  return at;
}

describe("packed evidence lists", () => {
  it("pack and unpack: the same items; none is undefined", () => {
    expect(pack(undefined)).toBeUndefined();
    expect(pack([])).toBeUndefined();
    expect(unpack(undefined)).toBeUndefined();
    fc.assert(
      fc.property(list, (items) => {
        const packed = pack(items);
        if (items.length === 0) {
          expect(packed).toBeUndefined();
          return;
        }
        expect(unpack(packed)).toStrictEqual(items);
      }),
      { numRuns: 500 },
    );
  });

  it("startsWith, runs from each item, equality and indexOf answer as the list does", () => {
    const cases = list.chain((items) =>
      fc.record({
        items: fc.constant(items),
        one: query(items),
        several: fc.array(query(items), { maxLength: 4 }),
        from: fc.nat(Math.max(0, items.length - 1)),
      }),
    );
    fc.assert(
      fc.property(cases, ({ items, one, several, from }) => {
        const packed = pack(items);
        expect(packedStartsWith(packed, one)).toBe(items.length > 0 && startsWithList(items, one));
        expect(packedStartsWith(packed, several)).toBe(items.length > 0 && startsWithList(items, several));
        expect(packedEquals(packed, several)).toBe(
          several.length === items.length && several.every((s, k) => items[k] === s),
        );
        expect(packedEquals(packed, items)).toBe(true);
        const at = packedIndexOf(packed, one);
        const k = one.length === 0 ? -1 : items.indexOf(one);
        expect(at).toBe(k < 0 ? -1 : offsetOf(items, k));
        if (items.length > 0) {
          const start = offsetOf(items, from);
          expect(packedRunAt(packed, start, several)).toBe(runAtList(items, from, several));
          expect(packedRunAt(packed, start, one)).toBe(runAtList(items, from, [one]));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("a row's items that the list lacks, or holds in another order, are not a run", () => {
    const packed = pack(["logs/a.txt", "https://x/y", "logs/b.txt"]);
    expect(packedStartsWith(packed, ["logs/a.txt", "https://x/y"])).toBe(true);
    expect(packedStartsWith(packed, ["logs/a.txt", ""])).toBe(false);
    expect(packedStartsWith(packed, ["logs/a"])).toBe(false);
    expect(packedRunAt(packed, 11, ["https://x/y", "logs/b.txt"])).toBe(true);
    expect(packedRunAt(packed, 11, ["https://x/y", "logs/b.txt", "c"])).toBe(false);
    expect(packedRunAt(packed, 11, ["logs/b.txt"])).toBe(false);
    expect(packedIndexOf(packed, "logs/b.txt")).toBe(23);
    expect(packedIndexOf(packed, "b.txt")).toBe(-1);
    expect(packedIndexOf(packed, "")).toBe(-1);
    expect(packedEquals(packed, ["logs/a.txt", "https://x/y"])).toBe(false);
    expect(packedEquals(undefined, undefined)).toBe(true);
    expect(packedEquals(undefined, [])).toBe(true);
    expect(packedEquals(packed, undefined)).toBe(false);
  });
});
