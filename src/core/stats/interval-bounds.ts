/**
 * Standard-error bounds when some tasks' d are intervals [d^lo, d^hi] (lost results under
 * `infra_errors: bound`, docs/spec.md §3.8): SE_max at least the SE of every resolution, for
 * every d in the intervals.
 *
 * Paired. For any c, Σ (d − d̄)² ≤ Σ (d − c)² and (d_t − c)² ≤ w_t(c) = max((d^lo_t − c)²,
 * (d^hi_t − c)²). Take c = the fixed set's mean at the resolution, which lies in [c_lo, c_hi]
 * (the means of its low and of its high ends): then SE(F ∪ S)² ≤ G(c) = max over k of
 * (Σ_F w_t(c) + W_k(c)) / (n(n − 1)), n = |F| + k, W_k(c) the k largest w of the open tasks. Each
 * w_t is convex in c, so is a sum of the k largest of them (a maximum of sums) and so is G: its
 * maximum over [c_lo, c_hi] is at an end. On points (c_lo = c_hi = d̄_F) this is
 * conservativePairedSe's bound.
 *
 * With no open task (a fixed set) also Σ (d − d̄)² = Σ d² − n·d̄² ≤ Σ max((d^lo)², (d^hi)²) −
 * n·m², m the smallest |d̄| any resolution gives (0 when [c_lo, c_hi] holds 0), and the smaller
 * of the two bounds holds. It is nearly tight when most tasks are points; with open tasks it is
 * not used, so that the bound stays at least the point modes' conservative one (SPEC §3.8).
 *
 * Clustered: conservativeClusteredBounds (union-bounds.ts) with the low and high ends.
 */
import type { QuantileFunction } from "./quantile.js";
import { blockMaximum, conservativeClusteredBounds, type ConservativeBound } from "./union-bounds.js";

/** Tasks by kind: the ends of d and how many tasks have them (one entry per task is fine). */
export interface IntervalKinds {
  readonly low: ArrayLike<number>;
  readonly high: ArrayLike<number>;
  readonly count: ArrayLike<number>;
}

export const NO_KINDS: IntervalKinds = { low: [], high: [], count: [] };

/** Σ count·w(c) over the kinds, w(c) = max((lo − c)², (hi − c)²). */
function weightSum(kinds: IntervalKinds, c: number): number {
  let s = 0;
  for (let j = 0; j < kinds.count.length; j++) {
    const count = kinds.count[j] as number;
    if (count > 0)
      s += count * Math.max(((kinds.low[j] as number) - c) ** 2, ((kinds.high[j] as number) - c) ** 2);
  }
  return s;
}

/** G(c): the largest (Σ_F w(c) + W_k(c)) / (n(n − 1)) over k, by blocks of the open kinds. */
function largestOverPrefixes(fixed: IntervalKinds, n: number, open: IntervalKinds, c: number): number {
  const m = open.count.length;
  const w = new Float64Array(m);
  const order: number[] = [];
  for (let j = 0; j < m; j++) {
    w[j] = Math.max(((open.low[j] as number) - c) ** 2, ((open.high[j] as number) - c) ** 2);
    if ((open.count[j] as number) > 0) order.push(j);
  }
  order.sort((x, y) => (w[y] as number) - (w[x] as number) || x - y);
  let A = weightSum(fixed, c);
  let best = A / (n * (n - 1));
  let k = 0;
  for (const j of order) {
    const count = open.count[j] as number;
    const wj = w[j] as number;
    best = blockMaximum(best, A, wj, count, n + k);
    A += count * wj;
    k += count;
  }
  return best;
}

/** The fixed set's size and the means of its low and high ends; null when it is empty. */
export function kindMeans(kinds: IntervalKinds): { n: number; low: number; high: number } | null {
  let n = 0;
  let low = 0;
  let high = 0;
  for (let j = 0; j < kinds.count.length; j++) {
    const c = kinds.count[j] as number;
    n += c;
    low += c * (kinds.low[j] as number);
    high += c * (kinds.high[j] as number);
  }
  return n === 0 ? null : { n, low: low / n, high: high / n };
}

/**
 * SE_max for a paired SE over the fixed set F and any subset of the open kinds, whichever way
 * every interval falls; null when |F| < 2 (S = ∅ leaves the SE undefined).
 */
export function intervalPairedSe(fixed: IntervalKinds, open: IntervalKinds = NO_KINDS): number | null {
  const means = kindMeans(fixed);
  if (means === null || means.n < 2) return null;
  const { n } = means;
  const at = (c: number): number => largestOverPrefixes(fixed, n, open, c);
  const centred = Math.max(at(means.low), at(means.high));
  let anyOpen = false;
  for (let j = 0; j < open.count.length; j++) anyOpen ||= (open.count[j] as number) > 0;
  if (anyOpen) return Math.sqrt(centred);
  let squares = 0;
  for (let j = 0; j < fixed.count.length; j++) {
    const c = fixed.count[j] as number;
    if (c > 0) squares += c * Math.max((fixed.low[j] as number) ** 2, (fixed.high[j] as number) ** 2);
  }
  const m = means.low <= 0 && means.high >= 0 ? 0 : Math.min(Math.abs(means.low), Math.abs(means.high));
  const raw = Math.max(0, squares - n * m * m) / (n * (n - 1));
  return Math.sqrt(Math.min(centred, raw));
}

/**
 * The conservative paired bounds over every resolution of the intervals and the open kinds:
 * Δ_L − q_max·SE_max and Δ_H + q_max·SE_max, q_max = q(|F| − 1) (ν = n − 1 ≥ |F| − 1).
 */
export function intervalPairedBounds(
  fixed: IntervalKinds,
  open: IntervalKinds,
  marginLower: number,
  marginUpper: number,
  quantile: QuantileFunction,
): { readonly lower: ConservativeBound; readonly upper: ConservativeBound } | null {
  const se = intervalPairedSe(fixed, open);
  if (se === null) return null;
  const nu = (kindMeans(fixed)?.n ?? 0) - 1;
  const q = quantile(nu);
  return {
    lower: { value: marginLower - q * se, se, nu, q },
    upper: { value: marginUpper + q * se, se, nu, q },
  };
}

/** One set of tasks with interval d, by cluster (every task must have one): sizes and sums of both ends. */
export interface ClusteredSet {
  readonly size: ArrayLike<number>;
  readonly sumLow: ArrayLike<number>;
  readonly sumHigh: ArrayLike<number>;
  readonly clusterCount: number;
}

/**
 * The SE bound of one fixed set of interval tasks (no open task), clustered: its residual sums
 * bounded by the low and high ends about μ between the means of its low and its high ends; the
 * denominators and ν are the set's own. null when fewer than 2 clusters have tasks.
 */
export function intervalClusteredSe(
  set: ClusteredSet,
  correction: "cr2" | "cr1",
  quantile: QuantileFunction,
): { readonly se: number; readonly nu: number; readonly low: number; readonly high: number } | null {
  let n = 0;
  let low = 0;
  let high = 0;
  for (let g = 0; g < set.clusterCount; g++) {
    n += set.size[g] as number;
    low += set.sumLow[g] as number;
    high += set.sumHigh[g] as number;
  }
  if (n === 0) return null;
  const r = conservativeClusteredBounds(
    { n, sum: low, sumSq: 0 },
    {
      validSize: set.size,
      validSum: set.sumLow,
      validSumHigh: set.sumHigh,
      openCluster: [],
      openValue: [],
      openCount: [],
      clusterCount: set.clusterCount,
    },
    low / n,
    high / n,
    correction,
    quantile,
  );
  return r === null ? null : { se: r.lower.se, nu: r.lower.nu, low: low / n, high: high / n };
}
