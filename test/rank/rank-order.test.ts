/** Holm's batch step-down, the rank intervals and groups, and the reviews to settle, against brute force. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stepDown } from "../../src/core/rank/step-down.js";
import { rankOrder } from "../../src/core/rank/rank-order.js";
import { reviewsToSettle } from "../../src/core/rank/rank.js";
import type { MarginAnalysis } from "../../src/core/stats/margin.js";
import { exactRatioBounds, pessimisticBounds } from "../../src/core/stats/validity-bounds.js";
import { buildPolicy } from "../stats/dataset-builder.js";

describe("stepDown", () => {
  it("orders exactly the pairs Holm's sequential procedure over the 2m directional claims orders", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            up: fc.double({ min: 0, max: 1, noNaN: true }),
            gap: fc.double({ min: 0, max: 1, noNaN: true }),
          }),
          {
            minLength: 1,
            maxLength: 12,
          },
        ),
        fc.constantFrom(0.05, 0.1, 0.2),
        (raw, alpha) => {
          // A pair's two one-sided p-values: "a above b" and "b above a" cannot both be small
          // (LCB ≤ UCB), so they sum to at least 1.
          const ps = raw.map((x) => ({ up: x.up, down: Math.min(1, 1 - x.up + x.gap) }));
          const m = ps.length;
          // A claim holds at level L exactly when its one-sided p-value is below L.
          const out = stepDown(m, alpha, (p, level) => {
            const x = ps[p] as { up: number; down: number };
            return { lcb: x.up < level ? 1 : -1, ucb: x.down < level ? -1 : 1 };
          });
          // Sequential Holm over the 2m claims: the i-th smallest (0-based) tested at α/(2m − i).
          const claims = ps
            .flatMap((x, p) => [
              { p, v: x.up },
              { p, v: x.down },
            ])
            .sort((x, y) => x.v - y.v);
          const expected = new Set<number>();
          for (let i = 0; i < 2 * m; i++) {
            const s = claims[i] as { p: number; v: number };
            if (!(s.v < alpha / (2 * m - i))) break;
            expected.add(s.p);
          }
          const got = new Set(ps.map((_, p) => p).filter((p) => out.ordered[p] === 1));
          expect(got).toEqual(expected);
          expect(out.orderedPairs).toBe(expected.size);
          // Every unresolved pair reports the last level.
          for (let p = 0; p < m; p++) if (out.ordered[p] === 0) expect(out.level[p]).toBe(out.finalLevel);
          // The last round's level: α/(2m − r) after r orderings.
          if (expected.size < m) expect(out.finalLevel).toBe(alpha / (2 * m - expected.size));
          expect(out.finalLevel).toBe(Math.max(...out.level));
        },
      ),
    );
  });

  it("another schedule (the simulation's comparisons) runs the same step-down at its levels", () => {
    const levels: number[] = [];
    const out = stepDown(
      2,
      0.1,
      (p, level) => {
        levels.push(level);
        return p === 0 || level > 0.06 ? { lcb: 1, ucb: 2 } : { lcb: -1, ucb: 1 };
      },
      () => false,
      (alpha, m, r) => alpha / (m - r),
    );
    expect(out.orderedPairs).toBe(2);
    expect(levels).toEqual([0.05, 0.05, 0.1]);
  });

  it("a pair set aside as never ordered still reports its bounds at the last level", () => {
    const seen: [number, number][] = [];
    const out = stepDown(
      3,
      0.06,
      (p, level) => {
        seen.push([p, level]);
        return p === 0 ? { lcb: 1, ucb: 2 } : { lcb: -1, ucb: 1 };
      },
      (p) => p === 2,
    );
    expect(out.ordered[0]).toBe(1);
    // Round 1 at α/(2·3) = 0.01 orders pair 0; round 2 at α/(6 − 1) = 0.012 orders nothing.
    expect(out.level[2]).toBeCloseTo(0.012, 15);
    expect(out.level[1]).toBeCloseTo(0.012, 15);
    // Pair 2 was computed at 0.01 and once more at 0.012; pair 1 in both rounds.
    expect(seen.filter(([p]) => p === 2).map(([, l]) => l)).toEqual([0.01, 0.012]);
  });
});

/** Every order of 0..k−1 (k ≤ 6). */
function permutations(k: number): number[][] {
  if (k === 0) return [[]];
  return permutations(k - 1).flatMap((p) =>
    Array.from({ length: k }, (_, i) => [...p.slice(0, i), k - 1, ...p.slice(i)]),
  );
}

describe("rankOrder", () => {
  it("rank intervals and groups equal brute force over the orders consistent with the relation", () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 2, max: 6 })
          .chain((k) =>
            fc.tuple(
              fc.constant(k),
              fc.array(fc.boolean(), { minLength: k * k, maxLength: k * k }),
              fc.shuffledSubarray([...Array(k).keys()], { minLength: k, maxLength: k }),
            ),
          ),
        ([k, bits, order]) => {
          // A relation consistent with the score order `order` (only earlier above later), closed under transitivity.
          const pos = new Array<number>(k);
          order.forEach((m, p) => (pos[m] = p));
          const above = new Uint8Array(k * k);
          for (let i = 0; i < k; i++)
            for (let j = 0; j < k; j++)
              if ((pos[i] as number) < (pos[j] as number) && bits[i * k + j]) above[i * k + j] = 1;
          for (let via = 0; via < k; via++)
            for (let i = 0; i < k; i++)
              for (let j = 0; j < k; j++) if (above[i * k + via] && above[via * k + j]) above[i * k + j] = 1;
          const got = rankOrder(k, above, order);
          const consistent = permutations(k).filter((perm) => {
            const at = new Array<number>(k);
            perm.forEach((m, p) => (at[m] = p));
            for (let i = 0; i < k; i++)
              for (let j = 0; j < k; j++)
                if (above[i * k + j] && !((at[i] as number) < (at[j] as number))) return false;
            return true;
          });
          for (let i = 0; i < k; i++) {
            const ranks = consistent.map((perm) => perm.indexOf(i) + 1);
            expect(got.rankLow[i]).toBe(Math.min(...ranks));
            expect(got.rankHigh[i]).toBe(Math.max(...ranks));
          }
          // A cut after p: every consistent order puts the same p models first (those of the score order).
          const cuts: number[] = [];
          for (let p = 1; p < k; p++) {
            const top = new Set(order.slice(0, p));
            if (consistent.every((perm) => perm.slice(0, p).every((m) => top.has(m)))) cuts.push(p);
          }
          const expectedGroups: number[][] = [];
          let from = 0;
          for (const c of [...cuts, k]) {
            expectedGroups.push(order.slice(from, c));
            from = c;
          }
          expect(got.groups).toEqual(expectedGroups);
          got.groups.forEach((g, gi) => {
            g.forEach((m) => {
              expect(got.group[m]).toBe(gi + 1);
            });
          });
        },
      ),
    );
  });
});

describe("reviewsToSettle", () => {
  const lowHigh = (vSum: number, nv: number, open: number[], pessimistic: boolean) => {
    if (pessimistic) return pessimisticBounds(vSum, nv, open.length, -1, 1);
    return exactRatioBounds(vSum, nv, open);
  };
  it("is the fewest resolutions after which the validity band leaves 0, by brute force", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(-1, -0.5, 0, 0.5, 1), { minLength: 1, maxLength: 8 }),
        fc.array(fc.constantFrom(-1, -0.5, 0, 0.5, 1), { minLength: 0, maxLength: 7 }),
        fc.boolean(),
        (valid, open, pessimistic) => {
          const vSum = valid.reduce((s: number, x) => s + x, 0);
          const d = Float64Array.from(open);
          const x = {
            margin: vSum / valid.length,
            observedLow: vSum / valid.length,
            observedHigh: vSum / valid.length,
            commonValidTasks: valid.length,
            unresolvedLow: d,
            unresolvedHigh: d,
          } as unknown as MarginAnalysis;
          const policy = buildPolicy({ validity_bound: pessimistic ? "pessimistic" : "exact" });
          const got = reviewsToSettle(x, policy);
          // Each open task stays open (0), is resolved valid (1) or broken (2).
          let best = { up: Infinity, down: Infinity };
          for (let code = 0; code < 3 ** open.length; code++) {
            let c = code;
            let s = vSum;
            let n = valid.length;
            const still: number[] = [];
            let moves = 0;
            for (const d of open) {
              const what = c % 3;
              c = Math.floor(c / 3);
              if (what === 0) still.push(d);
              else {
                moves++;
                if (what === 1) {
                  s += d;
                  n++;
                }
              }
            }
            const b = lowHigh(s, n, still, pessimistic);
            if ((b.lower as number) > 1e-12) best = { ...best, up: Math.min(best.up, moves) };
            if ((b.upper as number) < -1e-12) best = { ...best, down: Math.min(best.down, moves) };
          }
          expect(got.up).toBe(best.up === Infinity ? null : best.up);
          expect(got.down).toBe(best.down === Infinity ? null : best.down);
        },
      ),
    );
  });
});
