/**
 * ListMatcher (evidence-spans.ts) against the question it answers: whether a row's ASCII items,
 * joined by the packed list's separator, are the expected list's characters. On random lines and
 * lists (the task's own list, another one of the same length, lists with a character outside
 * ASCII or a separator where an item's byte stands, lists longer than the matcher's first buffer),
 * asked in runs through one matcher so that a list it compared before is met again, every answer
 * is the strings' own.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ListMatcher } from "../../../src/read/rows/evidence-spans.js";
import { SEPARATOR } from "../../../src/read/rows/packed-evidence.js";

/** A line holding `items` as a JSON array after `pad` bytes, and the spans of the items in it. */
function lineOf(items: readonly string[], pad: number): { b: Buffer; spans: Int32Array } {
  const text = `${"x".repeat(pad)}{"evidence":[${items.map((s) => `"${s}"`).join(",")}]}`;
  const b = Buffer.from(text, "latin1");
  const spans = new Int32Array(2 * items.length);
  let from = pad;
  items.forEach((s, k) => {
    const begin = text.indexOf(`"${s}"`, from) + 1;
    spans[2 * k] = begin;
    spans[2 * k + 1] = begin + s.length;
    from = begin + s.length + 1;
  });
  return { b, spans };
}

/** A line's byte view as the scanner holds it: the chunk's buffer, the line at `base`. */
function viewOf(b: Buffer): { v: DataView; base: number } {
  // (The line sits in a larger chunk at an offset, as a chunk's lines do.)
  const chunk = Buffer.alloc(b.length + 13);
  b.copy(chunk, 5);
  return { v: new DataView(chunk.buffer, chunk.byteOffset + 5, b.length + 8), base: 0 };
}

const ascii = fc.string({ unit: fc.constantFrom("a", "b", "/", ".", "1"), minLength: 1, maxLength: 9 });
const anyUnit = fc.string({ unit: fc.constantFrom("a", "b", "é", "\n", "€"), minLength: 1, maxLength: 9 });

describe("ListMatcher.spansAre", () => {
  it("answers as the joined items' comparison with the list, run after run through one matcher", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.array(ascii, { minLength: 2, maxLength: 5 }),
            fc.nat(7),
            fc.oneof(
              fc.constant("own"),
              fc.constant("same-length"),
              fc.constant("repeat"),
              fc.array(fc.oneof(ascii, anyUnit), { minLength: 1, maxLength: 4 }),
            ),
          ),
          { minLength: 1, maxLength: 8 },
        ),
        (rows) => {
          const matcher = new ListMatcher();
          let last = "";
          for (const [items, pad, kind] of rows) {
            const own = items.join(SEPARATOR);
            let list: string;
            if (kind === "own") list = own;
            else if (kind === "repeat") list = last;
            else if (kind === "same-length") {
              // One character changed: the same length, so only the bytes can tell.
              const at = pad % own.length;
              list = own.slice(0, at) + (own[at] === "a" ? "b" : "a") + own.slice(at + 1);
            } else list = kind.join(SEPARATOR);
            last = list;
            const { b, spans } = lineOf(items, pad);
            const { v, base } = viewOf(b);
            expect(matcher.spansAre(b, spans, items.length, v, base, list)).toBe(own === list);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it("compares lists longer than its first buffer, and a list met again after another", () => {
    const matcher = new ListMatcher();
    const long = ["a".repeat(300), "b".repeat(200), "c".repeat(5)];
    const other = ["a".repeat(300), "b".repeat(200), "d".repeat(5)];
    const lines = [long, other].map((items) => ({ items, ...lineOf(items, 3) }));
    for (const round of [0, 1]) {
      for (const { items, b, spans } of lines) {
        const { v, base } = viewOf(b);
        expect(matcher.spansAre(b, spans, 3, v, base, long.join(SEPARATOR)), `round ${round}`).toBe(
          items === long,
        );
        expect(matcher.spansAre(b, spans, 3, v, base, other.join(SEPARATOR)), `round ${round}`).toBe(
          items === other,
        );
      }
    }
  });

  it("a list with a character outside ASCII never equals a row's ASCII items", () => {
    const matcher = new ListMatcher();
    const { b, spans } = lineOf(["ab", "ce"], 2);
    const { v, base } = viewOf(b);
    // "\u0165" (ť) ends in the byte of "e": a latin1 encoding would cut it to that byte and match.
    expect(matcher.spansAre(b, spans, 2, v, base, "ab\nc\u0165")).toBe(false);
    expect(matcher.spansAre(b, spans, 2, v, base, "ab\nc\u00e9")).toBe(false);
    // The same matcher then compares an ASCII list by its bytes again.
    expect(matcher.spansAre(b, spans, 2, v, base, "ab\nce")).toBe(true);
    expect(matcher.spansAre(b, spans, 2, v, base, "ab ce")).toBe(false);
    expect(matcher.spansAre(b, spans, 2, v, base, "ab\ncf")).toBe(false);
  });
});
