/**
 * PairedSeScan (behind conservativePairedSe) produces the order by (d − d̄_V)² lazily (a merge from
 * both ends), stops the scan once no later point can beat the maximum, and on a later call with
 * the same V resumes from the first count that changed. Every call must give the plain
 * computation's number to the bit: every distinct value's distance, a full sort (distance
 * descending, ties by index), every candidate point of the scan. And that number must be the
 * brute-force maximum over every k of (SS_V + W_k)/((N_v + k)(N_v + k − 1)).
 */
import { describe, expect, it } from "vitest";
import { PairedSeScan, conservativePairedSe, type ValidSums } from "../../src/core/stats/union-bounds.js";
import { prng } from "../helpers/prng.js";

/** The scan before the lazy merge and the early stop: the reference, kept deliberately plain. */
function plainSe(v: ValidSums, values: readonly number[], counts: readonly number[]): number | null {
  if (v.n < 2) return null;
  const mean = v.sum / v.n;
  const ssV = Math.max(0, v.sumSq - v.sum * mean);
  const w = values.map((x) => (x - mean) ** 2);
  const order = values.map((_, j) => j).sort((x, y) => (w[y] as number) - (w[x] as number) || x - y);
  let best = ssV / (v.n * (v.n - 1));
  let k = 0;
  let wk = 0;
  for (const j of order) {
    const c = counts[j] as number;
    if (c <= 0) continue;
    const wj = w[j] as number;
    const end = v.n + k + c;
    best = Math.max(best, (ssV + wk + c * wj) / (end * (end - 1)));
    if (wj > 0) {
      const base = v.n + k;
      const B = ssV + wk - wj * base;
      const disc = B * B + wj * B;
      if (disc >= 0) {
        const x0 = Math.floor((-B + Math.sqrt(disc)) / wj - base);
        for (let x = x0; x <= x0 + 1; x++) {
          if (x > 0 && x < c) {
            const y = base + x;
            best = Math.max(best, (ssV + wk + x * wj) / (y * (y - 1)));
          }
        }
      }
    }
    k += c;
    wk += c * wj;
  }
  return Math.sqrt(best);
}

/** Every k from 0 to |U|, the k largest distances summed one task at a time. */
function bruteSe(v: ValidSums, values: readonly number[], counts: readonly number[]): number {
  const mean = v.sum / v.n;
  const ssV = Math.max(0, v.sumSq - v.sum * mean);
  const tasks: number[] = [];
  values.forEach((x, j) => {
    for (let c = 0; c < (counts[j] as number); c++) tasks.push((x - mean) ** 2);
  });
  tasks.sort((x, y) => y - x);
  let best = ssV / (v.n * (v.n - 1));
  let wk = 0;
  tasks.forEach((x, i) => {
    wk += x;
    const n = v.n + i + 1;
    best = Math.max(best, (ssV + wk) / (n * (n - 1)));
  });
  return Math.sqrt(best);
}

/** Distinct values ascending, of one of several shapes (with near-duplicates and exact ties). */
function randomValues(r: () => number, shape: number, m: number): number[] {
  const set = new Set<number>();
  // Bounded: every shape yields a new value with high probability; give up after 50·m draws.
  for (let draws = 0; set.size < m && draws < 50 * m; draws++) {
    if (shape === 0) set.add(Math.round((r() * 2 - 1) * 50) / 50);
    else if (shape === 1) set.add(r() * 2 - 1);
    else if (shape === 2) {
      // Pass rates over 45–50 attempts, as multi-attempt exports give: many near-duplicates
      // (-0.16 and -0.16000000000000003), whose distances to the mean can round equal.
      const ka = 45 + Math.floor(r() * 6);
      const kb = 45 + Math.floor(r() * 6);
      set.add(Math.floor(r() * (ka + 1)) / ka - Math.floor(r() * (kb + 1)) / kb);
    } else {
      // Clusters of values a few ulps apart: runs of equal distance on both sides of the mean.
      const centre = Math.round((r() * 2 - 1) * 8) / 8;
      set.add(centre + Math.floor(r() * 6) * Number.EPSILON * 0.5);
    }
  }
  return [...set].sort((x, y) => x - y);
}

describe("conservativePairedSe: the lazy merge and the early stop give the plain scan's number", () => {
  it("to the bit on random inputs, ascending and descending, and match the brute force over k", () => {
    const r = prng(20261215);
    let checked = 0;
    for (let trial = 0; trial < 600; trial++) {
      const shape = trial % 4;
      const values = randomValues(r, shape, 1 + Math.floor(r() * 150));
      const big = r() < 0.3;
      const counts = values.map(() => (r() < 0.15 ? 0 : 1 + Math.floor(r() * (big ? 400 : 6))));
      const n = 2 + Math.floor(r() * (r() < 0.5 ? 20 : 3000));
      // The mean on a value now and then (a zero distance), else anywhere in [−1, 1].
      const mean = r() < 0.2 ? (values[Math.floor(r() * values.length)] as number) : r() * 2 - 1;
      const v: ValidSums = { n, sum: mean * n, sumSq: mean * mean * n + (r() < 0.1 ? 0 : r() * n) };
      const plain = plainSe(v, values, counts);
      expect(conservativePairedSe(v, values, counts)).toBe(plain);
      expect(new PairedSeScan(values).se(v, Float64Array.from(counts))).toBe(plain);
      const down = [...values].reverse();
      const downCounts = [...counts].reverse();
      expect(new PairedSeScan(down).se(v, Float64Array.from(downCounts))).toBe(plainSe(v, down, downCounts));
      expect(conservativePairedSe(v, down, downCounts)).toBe(plainSe(v, down, downCounts));
      if (counts.reduce((a, b) => a + b, 0) <= 5000) {
        expect(plain as number).toBeCloseTo(bruteSe(v, values, counts), 12);
      }
      checked++;
    }
    expect(checked).toBe(600);
  });

  it("non-monotone values take the sort and the same scan", () => {
    const r = prng(7);
    for (let trial = 0; trial < 200; trial++) {
      const values = randomValues(r, trial % 4, 3 + Math.floor(r() * 120));
      for (let i = values.length - 1; i > 0; i--) {
        const j = Math.floor(r() * (i + 1));
        [values[i], values[j]] = [values[j] as number, values[i] as number];
      }
      const counts = values.map(() => 1 + Math.floor(r() * 9));
      const n = 2 + Math.floor(r() * 400);
      const mean = r() * 2 - 1;
      const v: ValidSums = { n, sum: mean * n, sumSq: mean * mean * n + r() * n };
      expect(conservativePairedSe(v, values, counts)).toBe(plainSe(v, values, counts));
    }
  });

  it("stops early yet keeps the maximum when it lies past many small values", () => {
    // Two far values at the ends and many near the mean: the maximum joins the far ones only.
    const values = [-1, ...Array.from({ length: 99 }, (_, j) => (j - 49) / 1000), 1];
    const counts = values.map((_, j) => (j === 0 || j === 100 ? 3 : 50));
    const v: ValidSums = { n: 40, sum: 0, sumSq: 0.4 };
    const plain = plainSe(v, values, counts);
    expect(new PairedSeScan(values).se(v, Float64Array.from(counts))).toBe(plain);
    expect(plain as number).toBeCloseTo(bruteSe(v, values, counts), 14);
    // Joining the six ±1 tasks (and nothing else) attains it: SS 0.4 + 6 over 46·45.
    expect(plain).toBe(Math.sqrt((0.4 + 3 + 3) / (46 * 45)));
  });

  it("one scan over many states (counts and V changing as a search changes them): each call as a fresh plain scan", () => {
    const r = prng(99);
    let calls = 0;
    let hits = 0;
    for (let trial = 0; trial < 60; trial++) {
      const values = randomValues(r, trial % 4, 2 + Math.floor(r() * 120));
      if (trial % 3 === 2) values.reverse();
      // Not monotone: the smallest (or largest) value moved to the end.
      if (trial % 5 === 4) values.push(values.shift() as number);
      const scan = new PairedSeScan(values);
      const counts = values.map(() => Math.floor(r() * 8));
      let n = 2 + Math.floor(r() * 300);
      let mean = r() * 2 - 1;
      let sumSq = mean * mean * n + r() * n;
      let last: number | null = null;
      for (let step = 0; step < 80; step++) {
        const move = r();
        if (move < 0.6) {
          // One task of some value leaves or joins U; sometimes back and forth (the greedy's try).
          const j = Math.floor(r() * values.length);
          counts[j] = Math.max(0, (counts[j] as number) + (r() < 0.5 ? -1 : 1));
        } else if (move < 0.8) {
          n += 1;
          mean += (r() - 0.5) / n;
          sumSq += r();
        }
        // else: nothing changed, the cached answer
        const v: ValidSums = { n, sum: mean * n, sumSq: Math.max(sumSq, mean * mean * n) };
        const got = scan.se(v, Float64Array.from(counts));
        const want = plainSe(v, values, counts);
        expect(got).toBe(want);
        if (got === last) hits++;
        last = got;
        calls++;
      }
    }
    expect(calls).toBe(60 * 80);
    expect(hits).toBeGreaterThan(100);
  });

  it("N_v < 2: null", () => {
    expect(new PairedSeScan([0.5]).se({ n: 1, sum: 0, sumSq: 0 }, Float64Array.from([2]))).toBeNull();
  });
});
