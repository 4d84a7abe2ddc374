/**
 * CR2 with Bell–McCaffrey degrees of freedom (SPEC §3 revision 2): the closed forms of
 * clusteredStandardError against (1) a hand computation and (2) the general-matrix definition for
 * the intercept-only model, computed here from dense matrices: hat matrix H = X(XᵀX)⁻¹Xᵀ,
 * adjustment A_g = (I − H_gg)^(−1/2) by a symmetric eigendecomposition, residuals e = (I − H)y,
 * V̂ = (XᵀX)⁻¹ Σ_g X_gᵀ A_g e_g e_gᵀ A_g X_g (XᵀX)⁻¹, and the Satterthwaite ν = (tr B)²/tr(B²) of
 * V̂ = yᵀBy, B = Σ_g u_g u_gᵀ, u_g = (I − H)_{g·}ᵀ A_g X_g (XᵀX)⁻¹ (working identity covariance).
 */
import { describe, expect, it } from "vitest";
import { clusteredStandardError, pairedStandardError } from "../../src/core/stats/standard-error.js";
import { prng } from "../helpers/prng.js";

type Matrix = number[][];

const zeros = (r: number, c: number): Matrix => Array.from({ length: r }, () => new Array<number>(c).fill(0));
const identity = (n: number): Matrix => zeros(n, n).map((row, i) => row.map((_, j) => (i === j ? 1 : 0)));
const transpose = (a: Matrix): Matrix => (a[0] ?? []).map((_, j) => a.map((row) => row[j] as number));
function multiply(a: Matrix, b: Matrix): Matrix {
  const out = zeros(a.length, (b[0] ?? []).length);
  for (let i = 0; i < a.length; i++)
    for (let k = 0; k < b.length; k++) {
      const x = (a[i] as number[])[k] as number;
      if (x === 0) continue;
      const row = out[i] as number[];
      for (let j = 0; j < (b[0] ?? []).length; j++)
        row[j] = (row[j] as number) + x * ((b[k] as number[])[j] as number);
    }
  return out;
}
const sub = (a: Matrix, b: Matrix): Matrix =>
  a.map((row, i) => row.map((x, j) => x - ((b[i] as number[])[j] as number)));

/** Eigen-decomposition of a symmetric matrix by cyclic Jacobi rotations: a = V diag(λ) Vᵀ. */
function symmetricEigen(a0: Matrix): { values: number[]; vectors: Matrix } {
  const n = a0.length;
  const a = a0.map((r) => [...r]);
  const v = identity(n);
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += ((a[p] as number[])[q] as number) ** 2;
    if (off < 1e-30) break;
    for (let p = 0; p < n; p++)
      for (let q = p + 1; q < n; q++) {
        const apq = (a[p] as number[])[q] as number;
        if (Math.abs(apq) < 1e-300) continue;
        const app = (a[p] as number[])[p] as number;
        const aqq = (a[q] as number[])[q] as number;
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = (a[k] as number[])[p] as number;
          const akq = (a[k] as number[])[q] as number;
          (a[k] as number[])[p] = c * akp - s * akq;
          (a[k] as number[])[q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = (a[p] as number[])[k] as number;
          const aqk = (a[q] as number[])[k] as number;
          (a[p] as number[])[k] = c * apk - s * aqk;
          (a[q] as number[])[k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = (v[k] as number[])[p] as number;
          const vkq = (v[k] as number[])[q] as number;
          (v[k] as number[])[p] = c * vkp - s * vkq;
          (v[k] as number[])[q] = s * vkp + c * vkq;
        }
      }
  }
  return { values: a.map((r, i) => r[i] as number), vectors: v };
}

/** M^(−1/2) for a symmetric positive definite M. */
function inverseSqrt(m: Matrix): Matrix {
  const { values, vectors } = symmetricEigen(m);
  const d = values.map((x) => 1 / Math.sqrt(x));
  const scaled = vectors.map((row) => row.map((x, j) => x * (d[j] as number)));
  return multiply(scaled, transpose(vectors));
}

/** CR2 SE and Bell–McCaffrey ν of the mean, from the matrix definitions. */
function cr2ByMatrices(y: readonly number[], cluster: readonly number[]): { se: number; nu: number } {
  const n = y.length;
  const X: Matrix = y.map(() => [1]);
  const xtxInv = 1 / (multiply(transpose(X), X)[0]?.[0] as number);
  const H = multiply(X, transpose(X)).map((row) => row.map((x) => x * xtxInv));
  const IH = sub(identity(n), H);
  const e = multiply(
    IH,
    y.map((v) => [v]),
  ).map((r) => r[0] as number);
  const groups = [...new Set(cluster)];
  let variance = 0;
  const u: number[][] = [];
  for (const g of groups) {
    const idx = cluster.flatMap((c, i) => (c === g ? [i] : []));
    const Hgg = idx.map((i) => idx.map((j) => (H[i] as number[])[j] as number));
    const A = inverseSqrt(sub(identity(idx.length), Hgg));
    const Xg = idx.map(() => [1]);
    const eg = idx.map((i) => [e[i] as number]);
    const s = multiply(multiply(transpose(Xg), A), eg)[0]?.[0] as number;
    variance += (xtxInv * s) ** 2;
    // u_g = (I − H)_{g·}ᵀ A_g X_g (XᵀX)⁻¹
    const rows = idx.map((i) => IH[i] as number[]);
    const w = multiply(A, Xg).map((r) => (r[0] as number) * xtxInv);
    u.push(
      Array.from({ length: n }, (_, k) =>
        rows.reduce((acc, row, r) => acc + (row[k] as number) * (w[r] as number), 0),
      ),
    );
  }
  const dot = (a: number[], b: number[]) => a.reduce((acc, x, i) => acc + x * (b[i] as number), 0);
  let trace = 0;
  let trace2 = 0;
  for (let g = 0; g < u.length; g++) {
    trace += dot(u[g] as number[], u[g] as number[]);
    for (let h = 0; h < u.length; h++) trace2 += dot(u[g] as number[], u[h] as number[]) ** 2;
  }
  return { se: Math.sqrt(variance), nu: (trace * trace) / trace2 };
}

describe("CR2 (Bell–McCaffrey) for the mean", () => {
  it("matches a hand computation: sizes 3, 2, 1", () => {
    // d = [1, 1, 0 | 0, −1 | 1], n = 6, d̄ = 1/3; residual sums S = 1, −5/3, 2/3.
    // SE² = Σ S_g²/(n(n − n_g)) = 1/18 + (25/9)/24 + (4/9)/30 = 201/1080.
    // w_g = n_g²/(n − n_g) = 3, 1, 1/5; ν = 36 / (14 + 4.2² − 10.04) = 36/21.6 = 5/3.
    const r = clusteredStandardError([1, 1, 0, 0, -1, 1], [0, 0, 0, 1, 1, 2], 3);
    expect(r.se).toBeCloseTo(Math.sqrt(201 / 1080), 14);
    expect(r.nu).toBeCloseTo(5 / 3, 14);
    expect(r.clusters).toBe(3);
    expect(r.largestShare).toBe(0.5);
    // CR1 on the same data: 3/2 · (1 + 25/9 + 4/9) / 36 = 57/324, ν = G − 1 = 2.
    const c1 = clusteredStandardError([1, 1, 0, 0, -1, 1], [0, 0, 0, 1, 1, 2], 3, "cr1");
    expect(c1.se).toBeCloseTo(Math.sqrt(57 / 324), 14);
    expect(c1.nu).toBe(2);
    // ... and by the matrices.
    const m = cr2ByMatrices([1, 1, 0, 0, -1, 1], [0, 0, 0, 1, 1, 2]);
    expect(m.se).toBeCloseTo(Math.sqrt(201 / 1080), 12);
    expect(m.nu).toBeCloseTo(5 / 3, 12);
  });

  it("agrees with the general-matrix computation on random clusterings", () => {
    const rand = prng(20261201);
    for (let trial = 0; trial < 60; trial++) {
      const n = 3 + Math.floor(rand() * 22);
      const G = 2 + Math.floor(rand() * Math.min(6, n - 1));
      // Unequal cluster sizes: each task joins cluster ⌊G·u²⌋ (skewed), every cluster non-empty.
      const cluster = Array.from({ length: n }, (_, i) => (i < G ? i : Math.floor(G * rand() ** 2)));
      const y = Array.from({ length: n }, () => [-1, -0.5, 0, 0.5, 1][Math.floor(rand() * 5)] as number);
      const closed = clusteredStandardError(y, cluster, G);
      const m = cr2ByMatrices(y, cluster);
      expect(closed.se).toBeCloseTo(m.se, 11);
      expect(closed.nu).not.toBeNull();
      expect(Math.abs((closed.nu as number) - m.nu) / m.nu).toBeLessThan(1e-10);
      expect(closed.nu as number).toBeGreaterThanOrEqual(1);
      expect(closed.nu as number).toBeLessThanOrEqual(G - 1 + 1e-12);
    }
  });

  it("with every task its own cluster equals the paired SE, with ν = n − 1", () => {
    const y = [1, 0, 0, -1, 1, 1, 0, 0.5];
    const r = clusteredStandardError(
      y,
      y.map((_, i) => i),
      y.length,
    );
    expect(r.se).toBeCloseTo(pairedStandardError(y) as number, 14);
    expect(r.nu).toBeCloseTo(y.length - 1, 12);
  });

  it("equal clusters give ν = G − 1; one cluster holding most tasks gives ν near 1", () => {
    const y = Array.from({ length: 40 }, (_, i) => (i % 3) - 1);
    const equal = clusteredStandardError(
      y,
      y.map((_, i) => i % 8),
      8,
    );
    expect(equal.nu).toBeCloseTo(7, 12);
    // 34 tasks in cluster 0, one each in 1..6: the effective number of clusters collapses.
    const skewed = clusteredStandardError(
      y.slice(0, 40),
      y.map((_, i) => (i < 34 ? 0 : i - 33)),
      7,
    );
    const m = cr2ByMatrices(
      y,
      y.map((_, i) => (i < 34 ? 0 : i - 33)),
    );
    expect(skewed.nu).toBeCloseTo(m.nu, 10);
    expect(skewed.nu as number).toBeLessThan(3);
    expect(skewed.largestShare).toBeCloseTo(34 / 40, 15);
  });

  it("is null with one cluster", () => {
    expect(clusteredStandardError([1, 0, 1], [3, 3, 3], 4)).toEqual({
      se: null,
      nu: null,
      clusters: 1,
      largestShare: 1,
    });
  });
});
