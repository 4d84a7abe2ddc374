/**
 * The builder's metric sums (src/read/builder/metric-sums.ts) against an exact oracle: every
 * double is an integer multiple of 2^-1074, so a BigInt holds their sum exactly; the sum the
 * builder gives must be that sum rounded once (to nearest, ties to even), whatever the order of
 * the values, including sums that need more than two doubles (values far apart).
 */
import { describe, expect, it } from "vitest";

import { metricsFingerprint, MetricSums, roundedSum } from "../../../src/read/builder/metric-sums.js";
import { prng } from "../../helpers/prng.js";

const SCALE = 1074n;

/** x (finite, >= 0) as an integer count of 2^-1074. */
function exact(x: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  if (exponent === 0) return fraction;
  return (fraction | (1n << 52n)) << BigInt(exponent - 1);
}

/** The double nearest n · 2^-1074 (ties to even). */
function nearest(n: bigint): number {
  const length = n.toString(2).length;
  if (n === 0n) return 0;
  if (length <= 53) return Number(n) * 2 ** -1074;
  const shift = BigInt(length - 53);
  let q = n >> shift;
  const rest = n - (q << shift);
  const half = 1n << (shift - 1n);
  if (rest > half || (rest === half && (q & 1n) === 1n)) q += 1n;
  // (q · 2^(shift - 1074): q has at most 54 bits, the power is exact.)
  return Number(q) * 2 ** (Number(shift) - Number(SCALE));
}

function oracle(values: readonly number[]): number {
  return nearest(values.reduce((s, v) => s + exact(v), 0n));
}

function summed(values: readonly number[]): number {
  const sums = new MetricSums(4);
  for (const v of values) expect(sums.add(2, v, 1)).toBe(true);
  expect(sums.count[2]).toBe(values.length);
  return sums.rounded(2);
}

describe("metric sums are exact, rounded once", () => {
  it("the oracle rounds as IEEE addition does on two values", () => {
    const rand = prng(7);
    for (let k = 0; k < 2_000; k++) {
      const a = rand() * 10 ** Math.floor(rand() * 10 - 5);
      const b = rand() * 10 ** Math.floor(rand() * 10 - 5);
      expect(oracle([a, b])).toBe(a + b);
    }
  });

  it("on random values of one scale and of scales far apart, in every order given", () => {
    const rand = prng(20261206);
    let differsFromNaive = 0;
    let wideSums = 0;
    for (let k = 0; k < 3_000; k++) {
      const n = 1 + Math.floor(rand() * 8);
      const wide = k % 3 === 0;
      const values = Array.from({ length: n }, () => {
        const r = rand();
        if (!wide) return Number((r * 2).toFixed(4));
        return r * 2 ** Math.floor(rand() * 400 - 200);
      });
      const expected = oracle(values);
      const got = summed(values);
      expect(got, JSON.stringify(values)).toBe(expected);
      // Another order gives the same bits.
      expect(summed([...values].reverse())).toBe(expected);
      if (values.reduce((s, v) => s + v, 0) !== expected) differsFromNaive++;
      if (wide && n > 2) wideSums++;
    }
    // Adding in row order would have differed from the exact sum on many of these.
    expect(differsFromNaive).toBeGreaterThan(300);
    // (Three values up to 2^400 apart: most of these sums need more than two doubles.)
    expect(wideSums).toBeGreaterThan(500);
  });

  it("on hand-made cases: ties, subnormals, the largest doubles, zeros", () => {
    const cases: number[][] = [
      [0.1, 0.2, 0.3],
      [1, 2 ** -53, 2 ** -53],
      [1, 2 ** -53],
      [1, 2 ** -53, 2 ** -105],
      [2 ** -1074, 2 ** -1074, 2 ** -1073],
      [1e308, 7e307],
      [1e300, 1, 1e-300, 1e-300],
      [0, 0, 0],
      [],
      [2 ** 53, 1, 1],
      [2 ** 53, 1],
    ];
    for (const values of cases) expect(summed(values), JSON.stringify(values)).toBe(oracle(values));
  });

  it("refuses, adding nothing, a sum past the largest double", () => {
    const sums = new MetricSums(1);
    expect(sums.add(0, 1.7e308, 1)).toBe(true);
    expect(sums.add(0, 1e308, 1)).toBe(false);
    expect([sums.rounded(0), sums.count[0]]).toEqual([1.7e308, 1]);
    // Also once the sum needs more than two doubles.
    const wide = new MetricSums(1);
    for (const v of [1e-300, 1, 1e300]) expect(wide.add(0, v, 1)).toBe(true);
    expect(wide.add(0, 1.7976931348623157e308, 2)).toBe(false);
    expect(wide.count[0]).toBe(3);
  });

  it("counts what it is told (a pre-aggregated row's metrics_n), and grows", () => {
    const sums = new MetricSums(2);
    sums.add(1, 2.5, 4);
    sums.grow(10);
    sums.add(9, 1, 1);
    sums.add(1, 0.5, 3);
    expect([sums.rounded(1), sums.count[1], sums.rounded(9), sums.count[9], sums.count[0]]).toEqual([
      3, 7, 1, 1, 0,
    ]);
  });

  it("roundedSum of no partials is 0", () => {
    expect(roundedSum([])).toBe(0);
  });
});

describe("an attempt's metrics fingerprint", () => {
  it("is 0 for none, the same in any order, and differs with a name or a value", () => {
    const f = (names: string[], values: number[]): number =>
      metricsFingerprint(names, Float64Array.from(values), names.length);
    expect(f([], [])).toBe(0);
    const base = f(["cost", "tokens"], [0.5, 12]);
    expect(base).not.toBe(0);
    expect(Number.isSafeInteger(base)).toBe(true);
    expect(f(["tokens", "cost"], [12, 0.5])).toBe(base);
    expect(f(["cost", "tokens"], [0.5, 13])).not.toBe(base);
    expect(f(["cost", "tokenz"], [0.5, 12])).not.toBe(base);
    expect(f(["cost"], [0.5])).not.toBe(base);
    expect(f(["cost"], [0.5 + 2 ** -53])).not.toBe(f(["cost"], [0.5]));
  });
});
