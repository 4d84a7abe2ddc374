/**
 * AttemptIds (src/read/builder/builder-columns.ts): the builder's attempt ids of one (compared model,
 * task, harness revision) → packed source and result, held in an array for small integer ids and
 * a Map otherwise. It must answer exactly as a Map would, 1 and "1" apart, on any sequence of ids.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { AttemptIds, AttemptPool } from "../../../src/read/builder/builder-columns.js";

const id = fc.oneof(
  fc.integer({ min: 0, max: 80 }),
  fc.integer({ min: 0, max: 10_000 }),
  fc.constantFrom(0, 1, 2, 63, 64, 4095, 4096, 2 ** 31, Number.MAX_SAFE_INTEGER),
  fc.constantFrom("1", "0", "a", "run-1", ""),
);

describe("AttemptIds", () => {
  it("answers as a Map on random sequences of new ids and lookups (dense, sparse, strings)", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(id, fc.nat({ max: 2 ** 40 })), { maxLength: 200 }), (ops) => {
        const ids = new AttemptIds();
        const map = new Map<string | number, number>();
        for (const [k, packed] of ops) {
          // The builder sets an id only when it is not held yet (a repeat is a duplicate or a conflict).
          expect(ids.get(k)).toBe(map.get(k));
          if (!map.has(k)) {
            ids.set(k, packed);
            map.set(k, packed);
          }
          expect(ids.get(k)).toBe(map.get(k));
        }
        for (const [k] of ops) expect(ids.get(k)).toBe(map.get(k));
        for (const k of [1, "1", 0, "0", 4096, 99999]) expect(ids.get(k)).toBe(map.get(k));
      }),
      { numRuns: 300 },
    );
  });

  it("answers as Maps when many share one pool (blocks grown out of are reused), across files and lines", () => {
    // Packed values as the builder makes them: file * 2^34 + line * 4 + result, lines up to 2^32 - 1
    // (the block holds lines below 2^30 of one file; the rest goes to the Map).
    const packed = fc
      .tuple(
        fc.constantFrom(0, 0, 0, 1, 9999),
        fc.oneof(fc.nat({ max: 2000 }), fc.constantFrom(2 ** 30 - 2, 2 ** 30 - 1, 2 ** 30, 2 ** 32 - 1)),
        fc.nat({ max: 3 }),
      )
      .map(([file, line, result]) => file * 2 ** 34 + line * 4 + result);
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.nat({ max: 5 }),
            fc.oneof(fc.nat({ max: 20 }), fc.nat({ max: 70 }), fc.nat({ max: 300 }), id),
            packed,
          ),
          {
            maxLength: 400,
          },
        ),
        (ops) => {
          const pool = new AttemptPool();
          const sets = Array.from({ length: 6 }, () => new AttemptIds(pool));
          const maps = Array.from({ length: 6 }, () => new Map<string | number, number>());
          for (const [which, k, v] of ops) {
            const ids = sets[which] as AttemptIds;
            const map = maps[which] as Map<string | number, number>;
            expect(ids.get(k)).toBe(map.get(k));
            // Also a value set again (not what the builder does, but what a Map does).
            ids.set(k, v);
            map.set(k, v);
            expect(ids.get(k)).toBe(v);
          }
          sets.forEach((ids, which) => {
            const map = maps[which] as Map<string | number, number>;
            for (let k = 0; k <= 300; k++) expect(ids.get(k)).toBe(map.get(k));
            for (const [k, v] of map) expect(ids.get(k)).toBe(v);
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps 1 and "1" apart and a packed value of 0', () => {
    const ids = new AttemptIds();
    ids.set(1, 0);
    expect(ids.get(1)).toBe(0);
    expect(ids.get("1")).toBeUndefined();
    ids.set("1", 7);
    expect(ids.get("1")).toBe(7);
    expect(ids.get(1)).toBe(0);
  });
});
