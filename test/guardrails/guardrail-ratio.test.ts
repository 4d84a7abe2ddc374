/**
 * R and its Fieller bounds (docs/spec.md §4.5): the worked example exactly, and on random skewed
 * data against brute force: the bounds are where the t statistic of dₜ(R) = bₜ − R·aₜ, with the
 * policy's SE taken directly on d(R), is ∓q (found by bisection).
 */
import { describe, expect, test } from "vitest";

import { guardrailRatio, type RatioSettings } from "../../src/core/stats/guardrail-ratio.js";
import { normalQuantile } from "../../src/core/stats/normal-quantile.js";
import { clusteredStandardError, pairedStandardError } from "../../src/core/stats/standard-error.js";
import { studentTQuantile } from "../../src/core/stats/student-t-quantile.js";
import { prng } from "../helpers/prng.js";

const PAIRED: RatioSettings = {
  confidence: 0.95,
  quantile: "t",
  standardError: "paired",
  clusterCorrection: "cr2",
};
const A = [2, 4, 6, 8];
const B = [2.5, 4.5, 7, 8];

/** The roots of (ā² − q²V_aa) R² − 2 (ā b̄ − q²V_ab) R + (b̄² − q²V_bb) with the example's figures. */
function exampleRoots(q: number): [number, number] {
  const q2 = q * q;
  const qa = 25 - (q2 * 5) / 3;
  const half = 27.5 - (q2 * 19) / 12;
  const qc = 30.25 - (q2 * 37) / 24;
  const root = Math.sqrt(half * half - qa * qc);
  return [(half - root) / qa, (half + root) / qa];
}

describe("the worked example of docs/spec.md §4.5", () => {
  test("means and R exactly; V_aa = 5/3, V_bb = 37/24, V_ab = 19/12; bounds 1.003276 … 1.372326 at t₃", () => {
    const r = guardrailRatio(A, B, PAIRED);
    expect(r.baselineMean).toBe(5);
    expect(r.candidateMean).toBe(5.5);
    expect(r.ratio).toBe(1.1);
    expect(r.nu).toBe(3);
    expect(r.q).toBe(studentTQuantile(0.95, 3));
    const [low, high] = exampleRoots(studentTQuantile(0.95, 3));
    expect(r.low).toBeCloseTo(low, 12);
    expect(r.high).toBeCloseTo(high, 12);
    expect(r.low).toBeCloseTo(1.003276, 6);
    expect(r.high).toBeCloseTo(1.372326, 6);
  });

  test("quantile z: bounds 1.028165 … 1.237854", () => {
    const r = guardrailRatio(A, B, { ...PAIRED, quantile: "z" });
    expect(r.q).toBe(normalQuantile(0.95));
    const [low, high] = exampleRoots(normalQuantile(0.95));
    expect(r.low).toBeCloseTo(low, 12);
    expect(r.high).toBeCloseTo(high, 12);
    expect(r.low).toBeCloseTo(1.028165, 6);
    expect(r.high).toBeCloseTo(1.237854, 6);
  });
});

describe("edge cases", () => {
  test("a baseline mean of 0 leaves R and its bounds undefined", () => {
    expect(guardrailRatio([0, 0], [1, 2], PAIRED)).toMatchObject({
      ratio: null,
      low: null,
      high: null,
      candidateMean: 1.5,
    });
  });
  test("a candidate that costs 0 everywhere: R = 0, bounds 0 … 0", () => {
    expect(guardrailRatio([1, 2, 3], [0, 0, 0], PAIRED)).toMatchObject({ ratio: 0, low: 0, high: 0 });
  });
  test("a baseline mean not clearly above 0: no upper bound (the guardrail cannot pass)", () => {
    expect(guardrailRatio([0.01, 5, 0.01], [1, 2, 3], PAIRED)).toMatchObject({ low: 0, high: null, nu: 2 });
  });
  test("one task: R, no bounds; no task: nothing", () => {
    expect(guardrailRatio([2], [3], PAIRED)).toMatchObject({ ratio: 1.5, low: null, high: null, q: null });
    expect(guardrailRatio([], [], PAIRED)).toMatchObject({ ratio: null, low: null, high: null });
  });
  test("clustered with a task outside every cluster, or one cluster: no bounds (never a guess)", () => {
    const s = { ...PAIRED, standardError: "clustered" } as const;
    expect(guardrailRatio(A, B, s, { of: [0, 0, 1, -1], count: 2 }).high).toBeNull();
    expect(guardrailRatio(A, B, s, { of: [0, 0, 0, 0], count: 1 }).q).toBeNull();
  });
});

describe("against brute force on random skewed data", () => {
  const draw = (rnd: () => number, n: number): [number[], number[]] => {
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < n; i++) {
      const base = Math.exp(3 * (rnd() - 0.5)) * 0.01;
      a.push(base);
      b.push(base * Math.exp(rnd() - 0.4));
    }
    return [a, b];
  };

  /** The t statistic of d(R) = b − R·a under the settings' SE, taken on d(R) itself. */
  function tStat(a: number[], b: number[], r: number, clusters: number[] | null, s: RatioSettings): number {
    const d = b.map((x, i) => x - r * (a[i] as number));
    const m = d.reduce((x, y) => x + y, 0) / d.length;
    const se =
      clusters === null
        ? pairedStandardError(d)
        : clusteredStandardError(d, clusters, Math.max(...clusters) + 1, s.clusterCorrection).se;
    return m / (se as number);
  }

  /** The R in [lo, hi] where tStat crosses `target` (tStat falls as R grows here). */
  function bisect(f: (r: number) => number, target: number, lo: number, hi: number): number {
    for (let k = 0; k < 200; k++) {
      const mid = (lo + hi) / 2;
      if (f(mid) > target) lo = mid;
      else hi = mid;
    }
    return (lo + hi) / 2;
  }

  test.each([
    ["paired", PAIRED, false],
    ["clustered CR2", { ...PAIRED, standardError: "clustered" } as const, true],
    [
      "clustered CR1, quantile z",
      { ...PAIRED, standardError: "clustered", clusterCorrection: "cr1", quantile: "z" } as const,
      true,
    ],
  ])("%s: each bound is where t(d(R)) = ∓q", (_name, settings, clustered) => {
    const rnd = prng(clustered ? 12 : 11);
    let checked = 0;
    for (let run = 0; run < 40; run++) {
      const n = 8 + Math.floor(rnd() * 40);
      const [a, b] = draw(rnd, n);
      const clusters = clustered ? a.map(() => Math.floor(rnd() * 6)) : null;
      const r = guardrailRatio(a, b, settings, clusters === null ? undefined : { of: clusters, count: 6 });
      if (r.q === null || r.high === null || r.low === null || r.ratio === null) continue;
      const f = (x: number): number => tStat(a, b, x, clusters, settings);
      expect(r.high).toBeCloseTo(bisect(f, -r.q, r.ratio, r.ratio * 100), 9);
      if (r.low > 0) expect(r.low).toBeCloseTo(bisect(f, r.q, 0, r.ratio), 9);
      expect(r.low).toBeLessThanOrEqual(r.ratio);
      expect(r.ratio).toBeLessThanOrEqual(r.high);
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });

  test("every task its own cluster gives the paired bounds; scaling the candidate scales R and both bounds", () => {
    const rnd = prng(13);
    for (let run = 0; run < 30; run++) {
      const n = 3 + Math.floor(rnd() * 20);
      const [a, b] = draw(rnd, n);
      const paired = guardrailRatio(a, b, PAIRED);
      const own = guardrailRatio(
        a,
        b,
        { ...PAIRED, standardError: "clustered" },
        { of: a.map((_, i) => i), count: n },
      );
      expect(own.low).toBeCloseTo(paired.low as number, 10);
      expect(own.high ?? Infinity).toBeCloseTo(paired.high ?? Infinity, 10);
      const doubled = guardrailRatio(
        a,
        b.map((x) => 2 * x),
        PAIRED,
      );
      expect(doubled.ratio).toBeCloseTo(2 * (paired.ratio as number), 12);
      expect(doubled.low).toBeCloseTo(2 * (paired.low as number), 10);
      if (paired.high !== null) expect(doubled.high).toBeCloseTo(2 * paired.high, 10);
    }
  });
});
