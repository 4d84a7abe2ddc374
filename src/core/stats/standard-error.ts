/**
 * Standard errors of a mean margin over a set of tasks (SPEC §3, "run variance").
 * Each function takes the per-task values dₜ of the set it is used on.
 */

/** Arithmetic mean; callers guarantee n ≥ 1. */
function mean(values: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i] as number;
  return s / values.length;
}

/**
 * Paired SE (Miller 2024, eq. 7): sqrt( Σ (dₜ − d̄)² / (n (n − 1)) ), two-pass for accuracy.
 * null when n < 2. Its degrees of freedom are n − 1.
 */
export function pairedStandardError(values: ArrayLike<number>): number | null {
  const n = values.length;
  if (n < 2) return null;
  const m = mean(values);
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const e = (values[i] as number) - m;
    ss += e * e;
  }
  return Math.sqrt(ss / (n * (n - 1)));
}

export type ClusterCorrection = "cr2" | "cr1";

export interface ClusteredStandardError {
  /** null when G < 2. */
  readonly se: number | null;
  /** Degrees of freedom of the SE: Bell–McCaffrey (CR2) or G − 1 (CR1); null when G < 2. */
  readonly nu: number | null;
  /** G, the number of distinct clusters among the values. */
  readonly clusters: number;
  /** The largest cluster's share of the values, max n_g / n; null when there are none. */
  readonly largestShare: number | null;
}

/**
 * The clustered SE and its degrees of freedom from per-cluster sizes n_g and residual sums
 * S_g = Σ_{t∈g} (dₜ − d̄) (SPEC §3 revision 2), over the clusters with n_g > 0 (`count` entries of
 * the arrays are read; empty ones are skipped). n = Σ n_g.
 *
 * CR2 (Bell & McCaffrey 2002) for the intercept-only model: the hat matrix is J/n, so the block
 * (I − H_gg)^(−1/2) scales a cluster's residual sum by (1 − n_g/n)^(−1/2) and
 *     SE² = Σ_g S_g² / (n (n − n_g)).
 * Its Satterthwaite degrees of freedom under a working identity covariance are
 * ν = (Σ_g Q_gg)² / Σ_g Σ_h Q_gh² with Q_gh = a_g a_h (δ_gh n_g − n_g n_h / n),
 * a_g = (1/n)(1 − n_g/n)^(−1/2); here Q_gg = n_g/n² (so the trace is 1/n) and, off the diagonal,
 * Q_gh² = w_g w_h / n⁴ with w_g = n_g² / (n − n_g), which gives
 *     ν = n² / ( Σ_g n_g² + (Σ_g w_g)² − Σ_g w_g² ).
 * Q is positive semi-definite of rank G − 1, so 1 ≤ ν ≤ G − 1.
 * CR1: SE = (1/n) sqrt( G/(G−1) · Σ_g S_g² ), ν = G − 1.
 * With G < 2 (or every task in one cluster) both are null.
 */
export function clusteredFromSums(
  n: number,
  sizes: ArrayLike<number>,
  residualSums: ArrayLike<number>,
  count: number,
  correction: ClusterCorrection,
): { readonly se: number | null; readonly nu: number | null; readonly clusters: number } {
  let g = 0;
  let ss = 0;
  let sumW = 0;
  let sumW2 = 0;
  let sumN2 = 0;
  for (let c = 0; c < count; c++) {
    const ng = sizes[c] as number;
    if (ng <= 0) continue;
    g++;
    const s = residualSums[c] as number;
    if (correction === "cr1") {
      ss += s * s;
      continue;
    }
    const rest = n - ng;
    if (rest <= 0) continue; // one cluster holds everything: G = 1 below
    ss += (s * s) / rest;
    const w = (ng * ng) / rest;
    sumW += w;
    sumW2 += w * w;
    sumN2 += ng * ng;
  }
  if (g < 2) return { se: null, nu: null, clusters: g };
  if (correction === "cr1") return { se: Math.sqrt(((g / (g - 1)) * ss) / (n * n)), nu: g - 1, clusters: g };
  const crossW = sumW * sumW - sumW2;
  const nu = (n * n) / (sumN2 + Math.max(0, crossW));
  // Rounding can only move ν by ulps; keep it inside [1, G − 1], where it provably lies.
  return { se: Math.sqrt(ss / n), nu: Math.min(g - 1, Math.max(1, nu)), clusters: g };
}

/**
 * Cluster-robust SE (CR2 by default, or CR1) and its degrees of freedom over `values`, with
 * `clusterOf[i]` the cluster of values[i] as an integer in [0, clusterCount). With every task in
 * its own cluster (G = n) both equal the paired SE exactly, and CR2's ν is n − 1.
 */
export function clusteredStandardError(
  values: ArrayLike<number>,
  clusterOf: ArrayLike<number>,
  clusterCount: number,
  correction: ClusterCorrection = "cr2",
): ClusteredStandardError {
  const n = values.length;
  if (clusterOf.length !== n)
    throw new RangeError("clusteredStandardError: values and clusterOf differ in length");
  if (n === 0) return { se: null, nu: null, clusters: 0, largestShare: null };
  const m = mean(values);
  const sums = new Float64Array(clusterCount);
  const sizes = new Float64Array(clusterCount);
  for (let i = 0; i < n; i++) {
    const c = clusterOf[i] as number;
    sizes[c] = (sizes[c] as number) + 1;
    sums[c] = (sums[c] as number) + ((values[i] as number) - m);
  }
  let largest = 0;
  for (let c = 0; c < clusterCount; c++) largest = Math.max(largest, sizes[c] as number);
  const r = clusteredFromSums(n, sizes, sums, clusterCount, correction);
  return { ...r, largestShare: largest / n };
}

/**
 * Re-run-only SE: sqrt( Σₜ (s²_A,t/K_A,t + s²_B,t/K_B,t) ) / n, given each task's term
 * s²_A/K_A + s²_B/K_B (see scoreRerunVariance). null when n = 0; the caller decides that every
 * task has ≥ 2 attempts for both models.
 */
export function rerunStandardError(taskTerms: ArrayLike<number>): number | null {
  const n = taskTerms.length;
  if (n === 0) return null;
  let s = 0;
  for (let i = 0; i < n; i++) s += taskTerms[i] as number;
  return Math.sqrt(s) / n;
}
