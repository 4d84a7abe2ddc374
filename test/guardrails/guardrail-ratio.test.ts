/** R and its bounds (docs/spec.md §4.5): the worked example exactly, and properties on random data. */
import { describe, expect, test } from "vitest";

import { guardrailRatio, type RatioSettings } from "../../src/core/stats/guardrail-ratio.js";
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

describe("the worked example of docs/spec.md §4.5", () => {
  test("means and R exactly; SE(log R) = √(3/1210); bounds R·exp(∓ t₃ · SE)", () => {
    const r = guardrailRatio(A, B, PAIRED);
    expect(r.baselineMean).toBe(5);
    expect(r.candidateMean).toBe(5.5);
    expect(r.ratio).toBe(1.1);
    expect(r.nu).toBe(3);
    expect(r.seLog).toBeCloseTo(Math.sqrt(3 / 1210), 15);
    expect(r.q).toBe(studentTQuantile(0.95, 3));
    expect(r.q).toBeCloseTo(2.353363, 6);
    expect(r.low).toBeCloseTo(0.978367, 6);
    expect(r.high).toBeCloseTo(1.236755, 6);
  });

  test("quantile z: q = Φ⁻¹(0.95) = 1.644854, bounds 1.013498 … 1.193885", () => {
    const r = guardrailRatio(A, B, { ...PAIRED, quantile: "z" });
    expect(r.q).toBeCloseTo(1.644854, 6);
    expect(r.low).toBeCloseTo(1.013498, 6);
    expect(r.high).toBeCloseTo(1.193885, 6);
  });

  test("clustered (CR2) with clusters {1, 2} and {3, 4}: SE = 2/55, ν = 1", () => {
    const r = guardrailRatio(A, B, { ...PAIRED, standardError: "clustered" }, { of: [0, 0, 1, 1], count: 2 });
    expect(r.seLog).toBeCloseTo(2 / 55, 15);
    expect(r.nu).toBe(1);
    expect(r.low).toBeCloseTo(1.1 * Math.exp(-studentTQuantile(0.95, 1) * (2 / 55)), 12);
    expect(r.high).toBeCloseTo(1.1 * Math.exp(studentTQuantile(0.95, 1) * (2 / 55)), 12);
  });
});

describe("edge cases", () => {
  test("a baseline mean of 0 leaves R and its bounds undefined", () => {
    expect(guardrailRatio([0, 0], [1, 2], PAIRED)).toMatchObject({
      ratio: null,
      low: null,
      high: null,
      baselineMean: 0,
      candidateMean: 1.5,
    });
  });
  test("a candidate mean of 0 is R = 0 with bounds 0 … 0", () => {
    expect(guardrailRatio([1, 2], [0, 0], PAIRED)).toMatchObject({ ratio: 0, low: 0, high: 0 });
  });
  test("one task: R, no bounds; no task: nothing", () => {
    expect(guardrailRatio([2], [3], PAIRED)).toMatchObject({
      ratio: 1.5,
      low: null,
      high: null,
      seLog: null,
    });
    expect(guardrailRatio([], [], PAIRED)).toMatchObject({ ratio: null, low: null, high: null });
  });
  test("clustered with a task outside every cluster, or one cluster: no bounds (never a guess)", () => {
    const s = { ...PAIRED, standardError: "clustered" } as const;
    expect(guardrailRatio(A, B, s, { of: [0, 0, 1, -1], count: 2 }).high).toBeNull();
    expect(guardrailRatio(A, B, s, { of: [0, 0, 0, 0], count: 1 }).high).toBeNull();
  });
});

describe("on random skewed data", () => {
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

  test("SE(log R)² = Var(b̄)/b̄² + Var(ā)/ā² − 2 Cov(ā, b̄)/(ā b̄), the delta method written out", () => {
    const rnd = prng(11);
    for (let run = 0; run < 50; run++) {
      const n = 2 + Math.floor(rnd() * 30);
      const [a, b] = draw(rnd, n);
      const ma = a.reduce((s, x) => s + x, 0) / n;
      const mb = b.reduce((s, x) => s + x, 0) / n;
      let vaa = 0;
      let vbb = 0;
      let vab = 0;
      for (let i = 0; i < n; i++) {
        const da = (a[i] as number) - ma;
        const db = (b[i] as number) - mb;
        vaa += da * da;
        vbb += db * db;
        vab += da * db;
      }
      const k = n * (n - 1);
      const se = Math.sqrt(vbb / k / (mb * mb) + vaa / k / (ma * ma) - (2 * vab) / k / (ma * mb));
      const r = guardrailRatio(a, b, PAIRED);
      expect(r.ratio).toBe(mb / ma);
      expect(r.seLog).toBeCloseTo(se, 10);
      const q = studentTQuantile(0.95, n - 1);
      expect(r.low).toBeCloseTo((mb / ma) * Math.exp(-q * se), 10);
      expect(r.high).toBeCloseTo((mb / ma) * Math.exp(q * se), 10);
    }
  });

  test("every task its own cluster gives the paired bounds; scaling the candidate scales R and both bounds", () => {
    const rnd = prng(12);
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
      expect(own.seLog).toBeCloseTo(paired.seLog as number, 12);
      expect(own.high).toBeCloseTo(paired.high as number, 12);
      const doubled = guardrailRatio(
        a,
        b.map((x) => 2 * x),
        PAIRED,
      );
      expect(doubled.ratio).toBeCloseTo(2 * (paired.ratio as number), 12);
      expect(doubled.low).toBeCloseTo(2 * (paired.low as number), 12);
      expect(doubled.high).toBeCloseTo(2 * (paired.high as number), 12);
      expect(paired.low as number).toBeLessThanOrEqual(paired.ratio as number);
      expect(paired.ratio as number).toBeLessThanOrEqual(paired.high as number);
    }
  });
});
