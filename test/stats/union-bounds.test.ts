/**
 * LCB/UCB over every resolution (SPEC §3 revision 2) against brute force over every subset S of
 * the open tasks: the exact bound equals the brute-force extremes, the conservative bounds lie on
 * the safe side of them (LCB ≤ min, UCB ≥ max), for z and t quantiles, paired and clustered SEs.
 */
import { describe, expect, it } from "vitest";
import { quantileFunction } from "../../src/core/stats/quantile.js";
import { clusteredStandardError, pairedStandardError } from "../../src/core/stats/standard-error.js";
import {
  conservativeClusteredBounds,
  conservativePairedBounds,
  exactUnionBounds,
} from "../../src/core/stats/union-bounds.js";
import { exactRatioBounds } from "../../src/core/stats/validity-bounds.js";
import { prng } from "../helpers/prng.js";

const qz = quantileFunction({ quantile: "z", confidence: 0.95 });
const qt = quantileFunction({ quantile: "t", confidence: 0.95 });

interface Brute {
  readonly min: number;
  readonly max: number;
  /** Counts (−1, 0, +1) of the smallest minimising set. */
  readonly minSize: number;
}

/** Every subset of U, with the SE computed from scratch. */
function brute(
  V: readonly number[],
  U: readonly number[],
  q: (nu: number) => number,
  se: (values: number[], members: number[]) => { se: number | null; nu: number | null },
): Brute {
  let min = Infinity;
  let max = -Infinity;
  let minSize = Infinity;
  for (let mask = 0; mask < 1 << U.length; mask++) {
    const members: number[] = [];
    for (let j = 0; j < U.length; j++) if ((mask >> j) & 1) members.push(j);
    const values = [...V, ...members.map((j) => U[j] as number)];
    const s = se(values, members);
    if (s.se === null || s.nu === null) return { min: Number.NaN, max: Number.NaN, minSize: -1 };
    const mean = values.reduce((x, y) => x + y, 0) / values.length;
    const lo = mean - q(s.nu) * s.se;
    const hi = mean + q(s.nu) * s.se;
    if (lo < min - 1e-12 || (lo <= min + 1e-12 && members.length < minSize)) {
      if (lo < min - 1e-12 || members.length < minSize) minSize = members.length;
      min = Math.min(min, lo);
    }
    max = Math.max(max, hi);
  }
  return { min, max, minSize };
}

const paired = (values: number[]) => {
  const se = pairedStandardError(values);
  return { se, nu: se === null ? null : values.length - 1 };
};

function sums(V: readonly number[]) {
  return { n: V.length, sum: V.reduce((a, b) => a + b, 0), sumSq: V.reduce((a, b) => a + b * b, 0) };
}

function counts(U: readonly number[]) {
  return {
    minus: U.filter((x) => x === -1).length,
    zero: U.filter((x) => x === 0).length,
    plus: U.filter((x) => x === 1).length,
  };
}

describe("exactUnionBounds (single attempt, paired)", () => {
  it("equals brute force over every subset on random small cases (z and t)", () => {
    const r = prng(101);
    const pick = () => ([-1, 0, 1] as const)[Math.floor(r() * 3)] as number;
    let compared = 0;
    for (let t = 0; t < 1500; t++) {
      const V = Array.from({ length: 2 + Math.floor(r() * 14) }, pick);
      const U = Array.from({ length: Math.floor(r() * 10) }, pick);
      for (const q of [qz, qt]) {
        const e = exactUnionBounds(sums(V), counts(U), q);
        const b = brute(V, U, q, paired);
        if (Number.isNaN(b.min)) {
          expect(e).toBeNull();
          continue;
        }
        expect(e).not.toBeNull();
        expect(e?.lower.value).toBeCloseTo(b.min, 11);
        expect(e?.upper.value).toBeCloseTo(b.max, 11);
        const l = e?.lower;
        if (l === undefined) throw new Error("unreachable");
        expect(l.minus + l.zero + l.plus).toBe(b.minSize);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(2500);
  });

  it("is null when N_v < 2 (the resolution S = ∅ has no SE)", () => {
    expect(exactUnionBounds({ n: 1, sum: 1, sumSq: 1 }, { minus: 3, zero: 1, plus: 1 }, qz)).toBeNull();
  });

  it("reports the attaining counts and the SE, ν, q at that set", () => {
    const V = [1, 1, 0, 0, -1, 1, 0, 1];
    const U = [-1, -1, 0, 1];
    const e = exactUnionBounds(sums(V), counts(U), qt);
    if (e === null) throw new Error("null");
    const l = e.lower;
    const members = [
      ...new Array<number>(l.minus).fill(-1),
      ...new Array<number>(l.zero).fill(0),
      ...new Array<number>(l.plus).fill(1),
    ];
    const all = [...V, ...members];
    expect(l.se).toBeCloseTo(pairedStandardError(all) as number, 14);
    expect(l.nu).toBe(all.length - 1);
    expect(l.q).toBe(qt(all.length - 1));
    expect(l.value).toBeCloseTo(all.reduce((a, b) => a + b, 0) / all.length - l.q * l.se, 14);
  });

  it("worked example: the union LCB is below the S_L figure (V: 2 × −1, 3 × 0, 5 × +1; U: 1 × −1, 3 × 0)", () => {
    // S_L (Dinkelbach) adds every value below the running mean: the −1 and all three ties, n = 14,
    // Σd = 2, Σd² = 8: 2/14 − z·sqrt((8 − 4/14)/(14·13)) = −0.195784. The union minimum adds only
    // the −1 (n = 11): 2/11 − z·sqrt((8 − 4/11)/(11·10)) = −0.251567; the ties lower the SE more
    // than they lower the margin.
    const V = [-1, -1, 0, 0, 0, 1, 1, 1, 1, 1];
    const U = [-1, 0, 0, 0];
    const r = exactRatioBounds(3, 10, U);
    expect(r.lowerSet.length).toBe(4);
    const sl = [...V, ...U];
    const slFigure = 2 / 14 - qz(13) * (pairedStandardError(sl) as number);
    expect(slFigure).toBeCloseTo(-0.195784, 6);
    const e = exactUnionBounds(sums(V), counts(U), qz);
    expect(e?.lower.value).toBeCloseTo(-0.251567, 6);
    expect(e?.lower).toMatchObject({ minus: 1, zero: 0, plus: 0 });
    expect((e?.lower.value as number) < slFigure).toBe(true);
  });
});

describe("conservativePairedBounds (any d, paired)", () => {
  it("is ≤ the brute-force minimum and ≥ the maximum on random multi-attempt cases", () => {
    const r = prng(202);
    const pick = () => [-1, -0.5, -0.25, 0, 0.25, 0.5, 1][Math.floor(r() * 7)] as number;
    for (let t = 0; t < 1500; t++) {
      const V = Array.from({ length: 2 + Math.floor(r() * 14) }, pick);
      const U = Array.from({ length: Math.floor(r() * 10) }, pick);
      const distinct = [...new Set(U)];
      const m = exactRatioBounds(
        V.reduce((a, b) => a + b, 0),
        V.length,
        U,
      );
      for (const q of [qz, qt]) {
        const c = conservativePairedBounds(
          sums(V),
          distinct,
          distinct.map((x) => U.filter((y) => y === x).length),
          m.lower as number,
          m.upper as number,
          q,
        );
        const b = brute(V, U, q, paired);
        expect(c).not.toBeNull();
        expect(c?.lower.value).toBeLessThanOrEqual(b.min + 1e-12);
        expect(c?.upper.value).toBeGreaterThanOrEqual(b.max - 1e-12);
      }
    }
  });
});

describe("conservativeClusteredBounds (CR2 and CR1)", () => {
  it("is ≤ the brute-force minimum and ≥ the maximum on random clustered cases", () => {
    const r = prng(303);
    const pick = () => [-1, -0.5, 0, 0.5, 1][Math.floor(r() * 5)] as number;
    let checked = 0;
    for (let t = 0; t < 1200; t++) {
      const G = 2 + Math.floor(r() * 4);
      const nV = 2 + Math.floor(r() * 12);
      const V = Array.from({ length: nV }, pick);
      const vc = Array.from({ length: nV }, () => Math.floor(r() * G));
      const U = Array.from({ length: Math.floor(r() * 9) }, pick);
      const uc = Array.from({ length: U.length }, () => Math.floor(r() * G));
      const validSize = new Array<number>(G).fill(0);
      const validSum = new Array<number>(G).fill(0);
      vc.forEach((g, i) => {
        validSize[g] = (validSize[g] as number) + 1;
        validSum[g] = (validSum[g] as number) + (V[i] as number);
      });
      if (validSize.filter((x) => x > 0).length < 2) continue;
      const m = exactRatioBounds(
        V.reduce((a, b) => a + b, 0),
        V.length,
        U,
      );
      for (const correction of ["cr2", "cr1"] as const) {
        for (const q of [qz, qt]) {
          const c = conservativeClusteredBounds(
            sums(V),
            {
              validSize,
              validSum,
              openCluster: uc,
              openValue: U,
              openCount: U.map(() => 1),
              clusterCount: G,
            },
            m.lower as number,
            m.upper as number,
            correction,
            q,
          );
          const b = brute(V, U, q, (values, members) => {
            const clusterOf = [...vc, ...members.map((j) => uc[j] as number)];
            return clusteredStandardError(values, clusterOf, G, correction);
          });
          expect(c).not.toBeNull();
          expect(c?.lower.value).toBeLessThanOrEqual(b.min + 1e-12);
          expect(c?.upper.value).toBeGreaterThanOrEqual(b.max - 1e-12);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(3000);
  });

  it("is null with fewer than 2 clusters in V", () => {
    const c = conservativeClusteredBounds(
      { n: 3, sum: 1, sumSq: 1 },
      {
        validSize: [3, 0],
        validSum: [1, 0],
        openCluster: [1],
        openValue: [1],
        openCount: [1],
        clusterCount: 2,
      },
      0,
      0.5,
      "cr2",
      qz,
    );
    expect(c).toBeNull();
  });
});
