/**
 * conservativePairedSe orders U's distinct values by (d − d̄_V)² without a sort when they come
 * monotone (a merge from both ends). Same inputs in a shuffled order take the sort path: the two
 * must give the same number, to the bit, for few values (insertion sort) and many (> 64: sort),
 * ascending and descending, including values symmetric about the mean (ties by index).
 */
import { describe, expect, it } from "vitest";
import { conservativePairedSe } from "../../src/core/stats/union-bounds.js";
import { prng as rng } from "../helpers/prng.js";

function shuffled<T>(xs: readonly T[], r: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function se(pairs: readonly (readonly [number, number])[], v: { n: number; sum: number; sumSq: number }) {
  return conservativePairedSe(
    v,
    pairs.map((p) => p[0]),
    pairs.map((p) => p[1]),
  );
}

describe("conservativePairedSe: the merge order equals the sorted order", () => {
  it("on random monotone inputs of 2–200 distinct values, both directions, same result as shuffled", () => {
    const r = rng(20261201);
    let checked = 0;
    for (let trial = 0; trial < 400; trial++) {
      // Multiples of 1/50 (what 50 attempts give: at most 101 values) or arbitrary doubles.
      const grid = r() < 0.5;
      const m = 2 + Math.floor(r() * (grid ? 100 : 199));
      const set = new Set<number>();
      while (set.size < m) set.add(grid ? Math.round((r() * 2 - 1) * 50) / 50 : r() * 2 - 1);
      const asc = [...set].sort((x, y) => x - y).map((d) => [d, 1 + Math.floor(r() * 5)] as const);
      const n = 2 + Math.floor(r() * 500);
      const mean = r() * 2 - 1;
      const v = { n, sum: mean * n, sumSq: mean * mean * n + r() * n };
      const fast = se(asc, v);
      expect(se([...asc].reverse(), v)).toBe(fast);
      const slow = se(shuffled(asc, r), v);
      expect(slow).not.toBeNull();
      // Shuffling moves tied values' indices; on a grid about a grid mean ties occur, and then only
      // the order inside a tie differs, which cannot change the maximum by more than rounding.
      if (grid) expect(Math.abs((slow as number) - (fast as number))).toBeLessThanOrEqual(1e-15);
      else expect(slow).toBe(fast);
      checked++;
    }
    expect(checked).toBe(400);
  });

  it("values symmetric about the mean (equal distances): the lower index first, as the sort does", () => {
    const v = { n: 10, sum: 0, sumSq: 4 };
    const asc = [-0.5, -0.25, 0.25, 0.5].map((d, i) => [d, i + 1] as const);
    // Shuffled into a non-monotone order: the sort path, with the same (value, count) pairs.
    const mixed = [asc[1], asc[3], asc[0], asc[2]] as (readonly [number, number])[];
    expect(se(asc, v)).toBe(se(mixed, v));
  });
});
