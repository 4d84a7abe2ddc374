import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  ascendingOrder,
  exactRatioBounds,
  pessimisticBounds,
  TIE_TOLERANCE,
} from "../../src/core/stats/validity-bounds.js";

const EPS = 1e-12;

/** min/max of (baseSum + Σ_S x)/(baseCount + |S|) over all 2^D subsets, and the smallest optimiser sizes. */
function bruteForce(baseSum: number, baseCount: number, extras: readonly number[]) {
  let lower: number | null = null;
  let upper: number | null = null;
  const ratios: { ratio: number; size: number }[] = [];
  for (let mask = 0; mask < 1 << extras.length; mask++) {
    let sum = baseSum;
    let count = baseCount;
    for (let i = 0; i < extras.length; i++) {
      if (mask & (1 << i)) {
        sum += extras[i] as number;
        count++;
      }
    }
    if (count === 0) continue;
    const r = sum / count;
    ratios.push({ ratio: r, size: count - baseCount });
    lower = lower === null ? r : Math.min(lower, r);
    upper = upper === null ? r : Math.max(upper, r);
  }
  const minSize = (target: number | null) =>
    target === null
      ? 0
      : Math.min(...ratios.filter((x) => Math.abs(x.ratio - target) <= 1e-9).map((x) => x.size));
  return { lower, upper, lowerSize: minSize(lower), upperSize: minSize(upper) };
}

function ratioOf(baseSum: number, baseCount: number, extras: readonly number[], set: readonly number[]) {
  let sum = baseSum;
  for (const i of set) sum += extras[i] as number;
  return sum / (baseCount + set.length);
}

/** A task score k/K with K ≤ 4 (single and repeated attempts). */
const score = fc.integer({ min: 1, max: 4 }).chain((k) => fc.integer({ min: 0, max: k }).map((p) => p / k));
const diff = fc.tuple(score, score).map(([a, b]) => a - b);
const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);

describe("exactRatioBounds", () => {
  it("equals brute force over all subsets, per model (scores) — values and smallest optimising sets", () => {
    fc.assert(
      fc.property(
        fc.array(score, { maxLength: 12 }),
        fc.array(score, { maxLength: 8 }),
        (valid, unresolved) => {
          const b = exactRatioBounds(sum(valid), valid.length, unresolved);
          const bf = bruteForce(sum(valid), valid.length, unresolved);
          if (bf.lower === null || bf.upper === null) {
            expect(b.lower).toBeNull();
            expect(b.upper).toBeNull();
            return;
          }
          expect(b.lower).toBeCloseTo(bf.lower, 12);
          expect(b.upper).toBeCloseTo(bf.upper, 12);
          expect(ratioOf(sum(valid), valid.length, unresolved, b.lowerSet)).toBeCloseTo(bf.lower, 12);
          expect(ratioOf(sum(valid), valid.length, unresolved, b.upperSet)).toBeCloseTo(bf.upper, 12);
          expect(b.lowerSet.length).toBe(bf.lowerSize);
          expect(b.upperSet.length).toBe(bf.upperSize);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("without the sets (withSets false) gives the very same bounds and leaves the sets empty", () => {
    fc.assert(
      fc.property(
        fc.array(score, { maxLength: 12 }),
        fc.array(fc.oneof(score, fc.constantFrom(0, 0.5, 1)), { maxLength: 40 }),
        (valid, unresolved) => {
          const withSets = exactRatioBounds(sum(valid), valid.length, unresolved);
          const bare = exactRatioBounds(sum(valid), valid.length, unresolved, false);
          expect(bare.lower).toBe(withSets.lower);
          expect(bare.upper).toBe(withSets.upper);
          expect(bare.lowerSet).toStrictEqual([]);
          expect(bare.upperSet).toStrictEqual([]);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("equals brute force for the margin (d = m_A − m_B in [−1, 1])", () => {
    fc.assert(
      fc.property(
        fc.array(diff, { maxLength: 12 }),
        fc.array(diff, { maxLength: 8 }),
        (valid, unresolved) => {
          const b = exactRatioBounds(sum(valid), valid.length, unresolved);
          const bf = bruteForce(sum(valid), valid.length, unresolved);
          if (bf.lower === null || bf.upper === null) return;
          expect(b.lower).toBeCloseTo(bf.lower, 12);
          expect(b.upper).toBeCloseTo(bf.upper, 12);
          expect(b.lowerSet.length).toBe(bf.lowerSize);
          expect(b.upperSet.length).toBe(bf.upperSize);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("one shared S is tighter than subtracting the per-model intervals", () => {
    const pair = fc.tuple(score, score);
    fc.assert(
      fc.property(
        fc.array(pair, { maxLength: 12 }),
        fc.array(pair, { maxLength: 8 }),
        (valid, unresolved) => {
          const col = (xs: readonly (readonly [number, number])[], j: 0 | 1) => xs.map((x) => x[j]);
          const dV = valid.map(([a, b]) => a - b);
          const dU = unresolved.map(([a, b]) => a - b);
          const m = exactRatioBounds(sum(dV), dV.length, dU);
          const a = exactRatioBounds(sum(col(valid, 0)), valid.length, col(unresolved, 0));
          const b = exactRatioBounds(sum(col(valid, 1)), valid.length, col(unresolved, 1));
          if (m.lower === null || m.upper === null || a.lower === null || a.upper === null) return;
          if (b.lower === null || b.upper === null) return;
          expect(m.lower).toBeGreaterThanOrEqual(a.lower - b.upper - EPS);
          expect(m.upper).toBeLessThanOrEqual(a.upper - b.lower + EPS);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("is contained in the pessimistic bound", () => {
    fc.assert(
      fc.property(
        fc.array(diff, { maxLength: 12 }),
        fc.array(diff, { maxLength: 8 }),
        (valid, unresolved) => {
          const e = exactRatioBounds(sum(valid), valid.length, unresolved);
          const p = pessimisticBounds(sum(valid), valid.length, unresolved.length, -1, 1);
          if (e.lower === null || e.upper === null || p.lower === null || p.upper === null) return;
          expect(e.lower).toBeGreaterThanOrEqual(p.lower - EPS);
          expect(e.upper).toBeLessThanOrEqual(p.upper + EPS);
        },
      ),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(
        fc.array(score, { maxLength: 12 }),
        fc.array(score, { maxLength: 8 }),
        (valid, unresolved) => {
          const e = exactRatioBounds(sum(valid), valid.length, unresolved);
          const p = pessimisticBounds(sum(valid), valid.length, unresolved.length, 0, 1);
          if (e.lower === null || e.upper === null || p.lower === null || p.upper === null) return;
          expect(e.lower).toBeGreaterThanOrEqual(p.lower - EPS);
          expect(e.upper).toBeLessThanOrEqual(p.upper + EPS);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("matches the single-attempt closed form [P_v/(N_v+F_U), (P_v+P_U)/(N_v+P_U)]", () => {
    fc.assert(
      fc.property(fc.nat(30), fc.nat(30), fc.nat(8), fc.nat(8), (pv, fv, pu, fu) => {
        fc.pre(pv + fv > 0);
        const extras = [...Array<number>(pu).fill(1), ...Array<number>(fu).fill(0)];
        const b = exactRatioBounds(pv, pv + fv, extras);
        expect(b.lower).toBeCloseTo(pv / (pv + fv + (pv > 0 ? fu : 0)), 12);
        expect(b.upper).toBeCloseTo((pv + (fv > 0 ? pu : 0)) / (pv + fv + (fv > 0 ? pu : 0)), 12);
      }),
    );
  });

  it("handles empty inputs: no base and no extras is undefined, no base means non-empty S", () => {
    expect(exactRatioBounds(0, 0, [])).toEqual({ lower: null, upper: null, lowerSet: [], upperSet: [] });
    expect(exactRatioBounds(3, 4, [])).toEqual({ lower: 0.75, upper: 0.75, lowerSet: [], upperSet: [] });
    const b = exactRatioBounds(0, 0, [0.5, 1, 0, 0, 1]);
    expect(b).toEqual({ lower: 0, upper: 1, lowerSet: [2], upperSet: [1] });
  });

  it("breaks ties deterministically: by value, then by index (task key), smallest set", () => {
    // Base mean 0.5: extras equal to 0.5 never join; equal extremes join in index order.
    const b = exactRatioBounds(1, 2, [0.5, 0, 1, 0.5, 0, 1]);
    expect(b.lowerSet).toEqual([1, 4]);
    expect(b.upperSet).toEqual([2, 5]);
    expect(b.lower).toBeCloseTo(1 / 4, 15);
    expect(b.upper).toBeCloseTo(3 / 4, 15);
    // Values equal to the optimum (not to the base mean) stay out too.
    const c = exactRatioBounds(2, 4, [0, 0.4, 0.4]);
    // 2/5 = 0.4 after adding the 0: the 0.4s are ties with the optimum.
    expect(c.lowerSet).toEqual([0]);
    expect(c.lower).toBeCloseTo(0.4, 15);
  });

  it("ascendingOrder sorts by value then index", () => {
    expect(Array.from(ascendingOrder([0.5, -1, 0.5, 0, -1]))).toEqual([1, 4, 3, 0, 2]);
  });

  it("ascendingOrder equals a comparator sort by (value, index), runs and -0 included", () => {
    const value = fc.oneof(
      fc.constantFrom(-1, -0, 0, 1, 0.5, -0.5, 1 / 3, 2 / 3),
      fc.integer({ min: -10, max: 10 }).map((k) => k / 7),
    );
    fc.assert(
      fc.property(fc.array(value, { maxLength: 60 }), fc.nat({ max: 4 }), (base, repeat) => {
        // Runs of equal values (the fast path) as well as alternating ones.
        const values = base.flatMap((v) => Array<number>(1 + (repeat % 3)).fill(v));
        const expected = values
          .map((_, i) => i)
          .sort((x, y) => (values[x] as number) - (values[y] as number) || x - y);
        expect(Array.from(ascendingOrder(values))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("tolerance is far below the gap between distinct ratios on realistic sizes", () => {
    // Two ratios over ≤ 10⁶ tasks with scores k/K (K ≤ 10) differ by ≥ 1/(10⁶·10⁶·10²).
    expect(TIE_TOLERANCE).toBeLessThan(1e-11);
  });
});

describe("pessimisticBounds", () => {
  it("joins every unresolved task at its worst and best value", () => {
    expect(pessimisticBounds(6, 10, 4, 0, 1)).toEqual({ lower: 6 / 14, upper: 10 / 14 });
    expect(pessimisticBounds(4, 20, 6, -1, 1)).toEqual({ lower: -2 / 26, upper: 10 / 26 });
    expect(pessimisticBounds(0, 0, 0, -1, 1)).toEqual({ lower: null, upper: null });
    expect(pessimisticBounds(0, 0, 3, 0, 1)).toEqual({ lower: 0, upper: 1 });
  });
});
