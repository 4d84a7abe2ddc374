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
 * null when n < 2.
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

export interface ClusteredStandardError {
  /** null when G < 2. */
  readonly se: number | null;
  /** G, the number of distinct clusters among the values. */
  readonly clusters: number;
}

/**
 * Cluster-robust SE with the CR1 small-sample factor:
 *     (1/n) · sqrt( G/(G−1) · Σ_c (Σ_{t∈c} (dₜ − d̄))² ).
 * `clusterOf[i]` is the cluster of values[i] as an integer in [0, clusterCount). With every task
 * in its own cluster (G = n) this equals the paired SE exactly.
 */
export function clusteredStandardError(
  values: ArrayLike<number>,
  clusterOf: ArrayLike<number>,
  clusterCount: number,
): ClusteredStandardError {
  const n = values.length;
  if (clusterOf.length !== n)
    throw new RangeError("clusteredStandardError: values and clusterOf differ in length");
  if (n === 0) return { se: null, clusters: 0 };
  const m = mean(values);
  const sums = new Float64Array(clusterCount);
  const seen = new Uint8Array(clusterCount);
  let g = 0;
  for (let i = 0; i < n; i++) {
    const c = clusterOf[i] as number;
    if (seen[c] === 0) {
      seen[c] = 1;
      g++;
    }
    sums[c] = (sums[c] as number) + ((values[i] as number) - m);
  }
  if (g < 2) return { se: null, clusters: g };
  let ss = 0;
  for (let c = 0; c < clusterCount; c++) {
    const s = sums[c] as number;
    ss += s * s;
  }
  return { se: Math.sqrt(((g / (g - 1)) * ss) / (n * n)), clusters: g };
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
