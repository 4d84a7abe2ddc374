/**
 * src/core/json-keys.ts, the one walk of JSON text for its keys (the reader's lines and the
 * importers' files), against the structure the text was written from: random objects and arrays
 * whose objects may repeat a key, written with random spacing and keys spelt with escapes, so the
 * expected answers come from the structure, not from another walk of the text.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { countKeys, firstRepeatedKey } from "../../../src/core/json-keys.js";

type Value = null | number | string | Value[] | { readonly entries: readonly [string, Value][] };

/** Keys and strings over few characters, with quotes, backslashes, colons, brackets and non-ASCII. */
const text = fc.string({
  unit: fc.constantFrom("a", "b", '"', "\\", ":", ",", "{", "]", "é", "\n"),
  maxLength: 3,
});

const value: fc.Arbitrary<Value> = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.integer(),
    text,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.array(fc.tuple(text, tie("value")), { maxLength: 5 }).map((entries) => ({ entries })),
  ),
})).value;

/** Spacing JSON allows between tokens. */
const SPACES = ["", " ", "\n", "\t ", "\r\n"];

/** A string as JSON text: JSON.stringify's, or (escape) every UTF-16 code unit as \uXXXX. */
function quoted(s: string, escape: boolean): string {
  if (!escape) return JSON.stringify(s);
  const units = Array.from(
    { length: s.length },
    (_, i) => `\\u${s.charCodeAt(i).toString(16).padStart(4, "0")}`,
  );
  return `"${units.join("")}"`;
}

/** JSON text of `v`; `pick` chooses spacing and spelling (deterministic per call order). */
function write(v: Value, pick: () => number): string {
  const sp = (): string => SPACES[pick() % SPACES.length] ?? "";
  if (v === null || typeof v === "number") return sp() + JSON.stringify(v) + sp();
  if (typeof v === "string") return sp() + quoted(v, pick() % 3 === 0) + sp();
  if (Array.isArray(v))
    return `${sp()}[${v.length === 0 ? sp() : v.map((x) => write(x, pick)).join(",")}]${sp()}`;
  const body = v.entries.map(([k, x]) => `${sp()}${quoted(k, pick() % 3 === 0)}${sp()}:${write(x, pick)}`);
  return `${sp()}{${v.entries.length === 0 ? sp() : body.join(",")}}${sp()}`;
}

/** Keys in `v` (every object's, or the outermost object's only), repeats included. */
function keysIn(v: Value, top: boolean): number {
  if (v === null || typeof v !== "object") return 0;
  if (Array.isArray(v)) return top ? 0 : v.reduce<number>((n, x) => n + keysIn(x, false), 0);
  return v.entries.reduce<number>((n, [, x]) => n + 1 + (top ? 0 : keysIn(x, false)), 0);
}

/** The first key in text order (a key before its value) that its object has had before. */
function firstRepeat(v: Value, top: boolean): string | undefined {
  if (v === null || typeof v !== "object") return undefined;
  if (Array.isArray(v)) {
    if (top) return undefined;
    for (const x of v) {
      const r = firstRepeat(x, false);
      if (r !== undefined) return r;
    }
    return undefined;
  }
  const seen = new Set<string>();
  for (const [k, x] of v.entries) {
    if (seen.has(k)) return k;
    seen.add(k);
    const r = top ? undefined : firstRepeat(x, false);
    if (r !== undefined) return r;
  }
  return undefined;
}

describe("countKeys and firstRepeatedKey", () => {
  it("count every key, or the outermost object's, and find the first repeat and where it is", () => {
    fc.assert(
      fc.property(value, fc.array(fc.nat(), { minLength: 1, maxLength: 64 }), (v, picks) => {
        let k = 0;
        const json = write(v, () => picks[k++ % picks.length] ?? 0);
        JSON.parse(json); // valid JSON, as the callers guarantee
        for (const top of [false, true]) {
          const scope = top ? "top" : "all";
          expect(countKeys(json, scope)).toBe(keysIn(v, top));
          const expected = firstRepeat(v, top);
          const got = firstRepeatedKey(json, scope);
          expect(got?.key).toBe(expected);
          if (got !== undefined) {
            // The offset is the repeat's opening quote, and the string there is that key.
            expect(json[got.offset]).toBe('"');
            const rest = json.slice(got.offset);
            const end = /^"(?:[^"\\]|\\.)*"/.exec(rest)?.[0] ?? "";
            expect(JSON.parse(end)).toBe(got.key);
          }
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("compare keys as JSON.parse decodes them, and tell keys from values, nested keys and quotes in strings", () => {
    expect(firstRepeatedKey('{"a": 1,\n  "\\u0061": 2}', "top")).toStrictEqual({ key: "a", offset: 11 });
    const fine = '{"a": {"a": "a:"}, "b": ["a", {"a": "\\"a\\": 1"}], "c\\\\": "\\\\", "d": "x\\\\\\"y"}';
    expect(countKeys(fine, "all")).toBe(6);
    expect(countKeys(fine, "top")).toBe(4);
    expect(firstRepeatedKey(fine, "all")).toBeUndefined();
    const nested = '{"x": {"a": 1, "a": 2}, "y": 3}';
    expect(firstRepeatedKey(nested, "top")).toBeUndefined();
    expect(firstRepeatedKey(nested, "all")).toStrictEqual({ key: "a", offset: 15 });
    expect(firstRepeatedKey('{"__proto__": 1, "__proto__": 2}', "top")?.key).toBe("__proto__");
  });

  it("walk any depth without recursion", () => {
    const deep = '{"x":'.repeat(100_000) + '{"a":1,"a":2}' + "}".repeat(100_000);
    expect(countKeys(deep, "all")).toBe(100_002);
    expect(firstRepeatedKey(deep, "all")?.key).toBe("a");
    expect(countKeys(deep, "top")).toBe(1);
  });
});
