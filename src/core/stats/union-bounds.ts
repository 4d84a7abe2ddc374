/**
 * LCB and UCB over every resolution of the open labels (SPEC §3 revision 2):
 *
 *     LCB = min over S ⊆ U of [ Δ(S) − q(S)·SE(V ∪ S) ],  UCB = max over S of [ Δ(S) + q(S)·SE(V ∪ S) ].
 *
 * Exact (paired SE, every d on U in {−1, 0, +1}). Δ(S) and SE(V ∪ S) depend only on the counts
 * (k₋, k₀, k₊) that join. Write k = |S|, b = k₊ − k₋ and a = k₊ + k₋ (the nonzero tasks): then
 * n = N_v + k, Σd = Σ_V d + b, Σd² = Σ_V d² + a. For fixed (k, b) a larger a only adds to the sum
 * of squares, so the LCB (UCB) is attained at the largest feasible a: a(b) = min(k′, 2k₋max + b,
 * 2k₊max − b) with k′ ∈ {k, k − 1} of b's parity. Within one parity class a(b) is concave in b, so
 * g(b) = Σd² − (Σd)²/n is concave, √g concave, and b ↦ Δ − c·√g (c = q/√(n(n−1)) fixed for fixed
 * k) is convex: its minimum over the feasible interval of b is found by a binary search on the
 * sign of its forward difference (UCB: concave, same search). O(D log D) for D open tasks.
 *
 * Conservative otherwise (multi-attempt, clustered, or past EXACT_UNION_WORK_BUDGET): Δ_L − q_max·
 * SE_max and Δ_H + q_max·SE_max, with Δ_L ≤ Δ(S) ≤ Δ_H (the exact margin bounds), SE_max ≥
 * SE(V ∪ S) and q_max ≥ q(S) for every S; each is proved where it is computed below.
 */
import type { QuantileFunction } from "./quantile.js";

/** Most evaluations of Δ − q·SE the exact enumeration may make before the conservative bound is used. */
export const EXACT_UNION_WORK_BUDGET = 20_000_000;

/** Two bound values closer than this are equal (the smaller set wins). */
const TIE = 1e-12;

export interface ExactBound {
  readonly value: number;
  readonly se: number;
  readonly nu: number;
  readonly q: number;
  /** How many open tasks with d = −1, 0, +1 the attaining set S holds (the smallest such S). */
  readonly minus: number;
  readonly zero: number;
  readonly plus: number;
}

/** Sufficient statistics of V: N_v, Σ_V d, Σ_V d². */
export interface ValidSums {
  readonly n: number;
  readonly sum: number;
  readonly sumSq: number;
}

/** Open tasks of C by d, single-attempt: how many have d = −1, 0, +1. */
export interface OpenCounts {
  readonly minus: number;
  readonly zero: number;
  readonly plus: number;
}

/**
 * The exact LCB and UCB over every S for single-attempt open tasks and a paired SE (ν = n − 1).
 * null when N_v < 2 (S = ∅ leaves the SE undefined, so no bound holds at every resolution) or the
 * enumeration would exceed `budget` evaluations.
 */
export function exactUnionBounds(
  v: ValidSums,
  u: OpenCounts,
  quantile: QuantileFunction,
  budget: number = EXACT_UNION_WORK_BUDGET,
): { readonly lower: ExactBound; readonly upper: ExactBound } | null {
  if (v.n < 2) return null;
  const D = u.minus + u.zero + u.plus;
  const cost = (D + 6) * 4 * (Math.ceil(Math.log2(D + 2)) + 2);
  if (cost > budget) return null;
  let lower: ExactBound | null = null;
  let upper: ExactBound | null = null;
  // Branch and bound over k: for |S| = k the mean is at least sumMin(k)/n (−1s first, then ties,
  // then +1s) and at most sumMax(k)/n, and SS(V ∪ S) ≤ SS_V + Σ_S (d − d̄_V)² ≤ SS_V + W(k), W(k)
  // the k largest (d − d̄_V)² of U; so k cannot beat the best bound so far when
  // sumMin/n − c·√(SS_V + W) (resp. sumMax/n + c·√(SS_V + W)) is already on the wrong side of it.
  const mean = v.sum / v.n;
  const ssV = Math.max(0, v.sumSq - v.sum * mean);
  const classes = [
    { w: (1 + mean) ** 2, c: u.minus },
    { w: mean * mean, c: u.zero },
    { w: (1 - mean) ** 2, c: u.plus },
  ].sort((x, y) => y.w - x.w);
  const W = (k: number): number => {
    let left = k;
    let out = 0;
    for (const cl of classes) {
      const take = Math.min(left, cl.c);
      out += take * cl.w;
      left -= take;
    }
    return out;
  };
  const hopeless = (k: number, n: number, c: number): boolean => {
    if (lower === null || upper === null) return false;
    const spread = c * Math.sqrt(ssV + W(k));
    const sumMin = v.sum - Math.min(k, u.minus) + Math.max(0, k - u.minus - u.zero);
    const sumMax = v.sum + Math.min(k, u.plus) - Math.max(0, k - u.plus - u.zero);
    const lowerHopeless = sumMin / n - spread > lower.value + TIE;
    const upperHopeless = sumMax / n + spread < upper.value - TIE;
    return lowerHopeless && upperHopeless;
  };
  // q falls as ν grows (confidence > 0.5), and ν = N_v + k − 1 ≥ N_v − 1: a k hopeless with this
  // largest q (a hair above it, for rounding) is hopeless with its own q too, which then need not
  // be computed (most k are pruned, and each new ν is a t-quantile). Off if q is seen to grow.
  const qLargest = quantile(v.n - 1);
  const qBound = quantile(v.n - 1 + D) <= qLargest ? qLargest * (1 + 1e-9) : Number.NaN;
  const visit = (k: number, prune: boolean): void => {
    const n = v.n + k;
    const nu = n - 1;
    if (prune && hopeless(k, n, qBound / Math.sqrt(n * nu))) return;
    const q = quantile(nu);
    const c = q / Math.sqrt(n * nu);
    if (prune && hopeless(k, n, c)) return;
    const r = k - u.zero; // the fewest nonzero tasks that k tasks must hold
    for (let par = 0; par < 2 && par <= k; par++) {
      const kp = k - par;
      if (kp < r) continue;
      let lo = Math.max(-u.minus, -kp, r - 2 * u.minus);
      let hi = Math.min(u.plus, kp, 2 * u.plus - r);
      // b ≡ k′ (mod 2)
      if ((((lo - kp) % 2) + 2) % 2 !== 0) lo++;
      if ((((hi - kp) % 2) + 2) % 2 !== 0) hi--;
      if (lo > hi) continue;
      const steps = (hi - lo) / 2;
      for (let sign = -1; sign <= 1; sign += 2) {
        // sign −1: minimise the convex Δ − c√g; sign +1: maximise the concave Δ + c√g, i.e.
        // minimise its negative. Smallest t whose forward difference is ≥ 0 (the lowest b wins
        // ties). Plain numbers in the loop: this runs per state in the fragility searches.
        let a0 = 0;
        let a1 = steps;
        while (a0 < a1) {
          const mid = (a0 + a1) >> 1;
          const f0 = -sign * boundAt(v, u, n, c, kp, lo + 2 * mid, sign);
          const f1 = -sign * boundAt(v, u, n, c, kp, lo + 2 * mid + 2, sign);
          if (f1 - f0 >= 0) a1 = mid;
          else a0 = mid + 1;
        }
        const bb = lo + 2 * a0;
        const value = boundAt(v, u, n, c, kp, bb, sign);
        const aa = Math.min(kp, 2 * u.minus + bb, 2 * u.plus - bb);
        const size = k;
        // The smallest set among values within TIE of the extreme.
        const current = sign < 0 ? lower : upper;
        const better =
          current === null ||
          (sign < 0 ? value < current.value - TIE : value > current.value + TIE) ||
          (Math.abs(value - current.value) <= TIE && size < current.minus + current.zero + current.plus);
        if (!better) continue;
        const sum = v.sum + bb;
        const ss = Math.max(0, v.sumSq + aa - (sum * sum) / n);
        const found: ExactBound = {
          value,
          se: Math.sqrt(ss / (n * nu)),
          nu,
          q,
          minus: (aa - bb) / 2,
          zero: k - aa,
          plus: (aa + bb) / 2,
        };
        if (sign < 0) lower = found;
        else upper = found;
      }
    }
  };
  // Seeds: the sizes where the extremes usually are (S_L-like and S_H-like sets, all of U).
  for (const k of new Set([u.minus, u.minus + u.zero, u.plus, u.plus + u.zero, D])) visit(k, false);
  for (let k = 0; k <= D; k++) visit(k, true);
  if (lower === null || upper === null) return null;
  return { lower, upper };
}

/** Δ ± c·√g at (k′ = the largest nonzero count of b's parity, b) with n = N_v + k tasks. */
function boundAt(
  v: ValidSums,
  u: OpenCounts,
  n: number,
  c: number,
  kp: number,
  b: number,
  sign: number,
): number {
  const a = Math.min(kp, 2 * u.minus + b, 2 * u.plus - b);
  const sum = v.sum + b;
  const ss = Math.max(0, v.sumSq + a - (sum * sum) / n);
  return sum / n + sign * c * Math.sqrt(ss);
}

/**
 * One block of c open tasks of equal weight w joining after `base` tasks whose weights sum to A:
 * the largest (A + x·w)/(y(y − 1)), y = base + x, over x = 1..c, or `best` when larger. Within the
 * block the ratio is linear over a positive convex quadratic in x, hence quasi-concave: its
 * maximum is at x = c or at the integers around the stationary point, where w·y² + 2B·y − B = 0
 * with B = A − w·base.
 */
export function blockMaximum(best: number, A: number, w: number, c: number, base: number): number {
  const end = base + c;
  let out = Math.max(best, (A + c * w) / (end * (end - 1)));
  // Interior points exist only for c ≥ 2 (0 < x < c).
  if (w > 0 && c >= 2) {
    const B = A - w * base;
    const disc = B * B + w * B;
    if (disc >= 0) {
      const x0 = Math.floor((-B + Math.sqrt(disc)) / w - base);
      for (let x = x0; x <= x0 + 1; x++) {
        if (x > 0 && x < c) {
          const y = base + x;
          out = Math.max(out, (A + x * w) / (y * (y - 1)));
        }
      }
    }
  }
  return out;
}

export interface ConservativeBound {
  readonly value: number;
  /** SE_max: an upper bound of SE(V ∪ S) over every S. */
  readonly se: number;
  /** The smallest ν any S can give (its q is q_max). */
  readonly nu: number;
  readonly q: number;
}

/**
 * Paired SE, any d on U: SE(V ∪ S)² = SS(V ∪ S)/(n(n−1)), and the sum of squares about the new
 * mean is at most the one about d̄_V: SS(V ∪ S) ≤ SS_V + Σ_S (d − d̄_V)² ≤ SS_V + W_k, W_k the sum
 * of the k = |S| largest (d − d̄_V)² over U. So SE_max² = max_k (SS_V + W_k)/((N_v + k)(N_v + k − 1)).
 * ν = n − 1 ≥ N_v − 1, and t_ν⁻¹ decreases in ν, so q_max = q(N_v − 1). null when N_v < 2.
 * `values`/`counts`: the distinct d on U and how many tasks have each.
 */
export function conservativePairedBounds(
  v: ValidSums,
  values: ArrayLike<number>,
  counts: ArrayLike<number>,
  marginLower: number,
  marginUpper: number,
  quantile: QuantileFunction,
): { readonly lower: ConservativeBound; readonly upper: ConservativeBound } | null {
  const se = conservativePairedSe(v, values, counts);
  if (se === null) return null;
  const nu = v.n - 1;
  const q = quantile(nu);
  return {
    lower: { value: marginLower - q * se, se, nu, q },
    upper: { value: marginUpper + q * se, se, nu, q },
  };
}

/** SE_max of conservativePairedBounds; null when N_v < 2. */
export function conservativePairedSe(
  v: ValidSums,
  values: ArrayLike<number>,
  counts: ArrayLike<number>,
): number | null {
  return new PairedSeScan(values).se(v, counts instanceof Float64Array ? counts : Float64Array.from(counts));
}

/**
 * SE_max of conservativePairedBounds, max_k (SS_V + W_k)/((N_v + k)(N_v + k − 1)), for a fixed
 * list of U's distinct values (not to be changed afterwards) and any V and counts: the fragility
 * searches ask it once per state, thousands of times, with the same values. The number is the plain scan's, to the bit: U's values
 * by (d − d̄_V)² descending, ties by index, and per value its end point and the integers around
 * the stationary point. Three things make it cheap:
 *
 * - Order. For strictly monotone values (checked once here) the distance is V-shaped over the
 *   index (fl(x − d̄) is monotone in x and fl(y²) in |y|), so the order is a merge from both ends —
 *   the left (lower index) first on a tie, a run of equal distances on the right emitted in
 *   ascending index: the order the sort gives, produced only as far as the scan reads it.
 *   Otherwise the order is sorted (distance descending, then index) once per V.
 * - Early stop. Later weights are ≤ the current w, so every later point (y = N_v + k′ tasks,
 *   k′ > k) has numerator ≤ A + (y − N_v − k)·w, A = SS_V + W_k: it lies under g(y) = (B + w·y)/
 *   (y(y − 1)), B = A − (N_v + k)·w. g′(y) has the sign of −h(y), h(y) = w·y² + 2B·y − B, and
 *   h′(y) = 2(B + w·y) ≥ 0 for y ≥ N_v + k, so h(y₀) > 0 at y₀ = N_v + k + 1 makes g decreasing on
 *   [y₀, ∞) and g(y₀) bounds every later point. The scan stops when h(y₀) > 0 and g(y₀)·(1 + ε) <
 *   best, with margins above the rounding of h and of the later sums (≤ 2m + 8 roundings of
 *   positive terms): a point the full scan would still evaluate cannot beat `best` in floating
 *   point either.
 * - Checkpoints. The scan's state (k, W_k, best) before every position it read is kept with the
 *   count it read there. For the same V (the order and distances hold) a new call resumes at the
 *   first position whose count changed — the same operations on the same numbers as a fresh scan —
 *   and returns the last result when none did.
 */
export class PairedSeScan {
  /**
   * Float64Array only, as the counts: with an Array here and a typed array there, the scan's
   * element loads saw several kinds, TurboFan dropped its code after a deopt and the loop ran in
   * the baseline tier, boxing every double (a heap number for each element read, in the fragility
   * search's hottest loop).
   */
  private readonly values: Float64Array;
  private readonly m: number;
  private readonly monotone: boolean;
  /** The order by distance (positions 0..produced−1) and each value's distance (where computed). */
  private readonly order: Int32Array;
  private readonly w: Float64Array;
  /** Before position t: k, W_k and best; and the count read at t. */
  private readonly kAt: Float64Array;
  private readonly wkAt: Float64Array;
  private readonly bestAt: Float64Array;
  private readonly countAt: Float64Array;
  /** The V the order, distances and checkpoints belong to (NaN: none yet). */
  private vN = Number.NaN;
  private vSum = Number.NaN;
  private vSq = Number.NaN;
  private mean = 0;
  private ssV = 0;
  /** The merge from both ends: positions produced so far, its fronts and their distances. */
  private produced = 0;
  private left = 0;
  private right = -1;
  private wl = 0;
  private wr = 0;
  /** How many positions the last scan read (it read the counts at 0..read−1), and its result. */
  private read = 0;
  private result = 0;

  constructor(values: ArrayLike<number>) {
    const m = values.length;
    this.values = values instanceof Float64Array ? values : Float64Array.from(values);
    this.m = m;
    let up = true;
    let down = true;
    for (let j = 1; j < m && (up || down); j++) {
      up &&= (values[j - 1] as number) < (values[j] as number);
      down &&= (values[j - 1] as number) > (values[j] as number);
    }
    this.monotone = up || down;
    this.order = new Int32Array(m);
    this.w = new Float64Array(m);
    this.kAt = new Float64Array(m);
    this.wkAt = new Float64Array(m);
    this.bestAt = new Float64Array(m);
    this.countAt = new Float64Array(m);
  }

  /** SE_max for V's sums and `counts[j]` open tasks of value j; null when N_v < 2. */
  se(v: ValidSums, counts: Float64Array): number | null {
    if (v.n < 2) return null;
    if (v.n === this.vN && v.sum === this.vSum && v.sumSq === this.vSq) {
      let t = 0;
      const order = this.order;
      const countAt = this.countAt;
      while (t < this.read && (counts[order[t] as number] as number) === (countAt[t] as number)) t++;
      if (t === this.read) return this.result;
      return this.scan(t, counts);
    }
    this.vN = v.n;
    this.vSum = v.sum;
    this.vSq = v.sumSq;
    const mean = v.sum / v.n;
    this.mean = mean;
    this.ssV = Math.max(0, v.sumSq - v.sum * mean);
    const m = this.m;
    const values = this.values;
    const w = this.w;
    if (this.monotone) {
      this.produced = 0;
      this.left = 0;
      this.right = m - 1;
      if (m > 0) {
        this.wl = ((values[0] as number) - mean) ** 2;
        this.wr = ((values[m - 1] as number) - mean) ** 2;
        w[0] = this.wl;
        w[m - 1] = this.wr;
      }
    } else {
      const order = this.order;
      for (let j = 0; j < m; j++) {
        w[j] = ((values[j] as number) - mean) ** 2;
        order[j] = j;
      }
      order.sort((x, y) => (w[y] as number) - (w[x] as number) || x - y);
      this.produced = m;
    }
    return this.scan(0, counts);
  }

  /** The scan from position t0, whose checkpoint (or, at 0, the start) holds. */
  private scan(t0: number, counts: Float64Array): number {
    const m = this.m;
    const n = this.vN;
    const ssV = this.ssV;
    const mean = this.mean;
    const values = this.values;
    const order = this.order;
    const w = this.w;
    const kAt = this.kAt;
    const wkAt = this.wkAt;
    const bestAt = this.bestAt;
    const countAt = this.countAt;
    const eps = (m + 16) * 4e-16;
    // The merge from both ends, in locals while scanning (written back below).
    let produced = this.produced;
    let left = this.left;
    let right = this.right;
    let wl = this.wl;
    let wr = this.wr;
    let best = t0 === 0 ? ssV / (n * (n - 1)) : (bestAt[t0] as number);
    let k = t0 === 0 ? 0 : (kAt[t0] as number);
    let wk = t0 === 0 ? 0 : (wkAt[t0] as number);
    // Whether the last value read raised `best` (then the early stop is not tried: still rising).
    let rising = true;
    let t = t0;
    for (; t < m; t++) {
      if (t === produced) {
        if (wl >= wr) {
          order[produced++] = left++;
          if (left <= right) {
            wl = ((values[left] as number) - mean) ** 2;
            w[left] = wl;
          }
        } else {
          // The run of distances equal to wr at the right end (the left front's is smaller).
          let s = right;
          while (s - 1 > left) {
            const x = ((values[s - 1] as number) - mean) ** 2;
            if (x !== wr) break;
            w[s - 1] = x;
            s--;
          }
          for (let j = s; j <= right; j++) order[produced++] = j;
          right = s - 1;
          if (right > left) {
            wr = ((values[right] as number) - mean) ** 2;
            w[right] = wr;
          } else wr = wl;
        }
      }
      kAt[t] = k;
      wkAt[t] = wk;
      bestAt[t] = best;
      const j = order[t] as number;
      // A block of equal w: its maximum is at the end points or the stationary point (blockMaximum).
      const c = counts[j] as number;
      countAt[t] = c;
      if (c <= 0) continue;
      const wj = w[j] as number;
      const base = n + k;
      const A = ssV + wk;
      // With y = N_v + k + x, B = SS_V + W_k − w·(N_v + k): f = (B + w y)/(y(y − 1)).
      const B = A - wj * base;
      if (!rising) {
        const y0 = base + 1;
        const h = wj * y0 * y0 + 2 * B * y0 - B;
        const hScale = wj * y0 * y0 + 2 * Math.abs(B) * y0 + Math.abs(B);
        if (h > 1e-12 * hScale && ((A + wj) / (y0 * (y0 - 1))) * (1 + eps) < best) break;
      }
      const before = best;
      best = blockMaximum(best, A, wj, c, base);
      rising = best > before;
      k += c;
      wk += c * wj;
    }
    this.produced = produced;
    this.left = left;
    this.right = right;
    this.wl = wl;
    this.wr = wr;
    this.read = t < m ? t + 1 : m;
    this.result = Math.sqrt(best);
    return this.result;
  }
}

/**
 * Per cluster g: the valid tasks' count and Σd, and the open tasks' d values with counts. With
 * lost results (docs/spec.md §3.8) d is an interval: `validSum` and `openValue` hold the low
 * ends and `validSumHigh`, `openHigh` the high ends (absent: the same, every d a point).
 */
export interface ClusterSums {
  /** n_g over V, per cluster index. */
  readonly validSize: ArrayLike<number>;
  /** Σ_{V∩g} d (the low ends). */
  readonly validSum: ArrayLike<number>;
  readonly validSumHigh?: ArrayLike<number>;
  /** Open tasks of C: cluster index, value (the low end) and multiplicity (one entry per kind). */
  readonly openCluster: ArrayLike<number>;
  readonly openValue: ArrayLike<number>;
  readonly openHigh?: ArrayLike<number>;
  readonly openCount: ArrayLike<number>;
  readonly clusterCount: number;
}

/**
 * Clustered SE (CR2, or CR1), any d on U. For every S, with μ = Δ(S) ∈ [Δ_L, Δ_H] and cluster g of
 * V ∪ S (n tasks):
 * - The residual sum S_g = Σ_{V∩g}(d − μ) + Σ_{S∩g}(d − μ) lies in [lo_g(μ), hi_g(μ)], adding
 *   every positive resp. negative term of U∩g (with lost results, V's and U's high ends for hi_g
 *   and their low ends for lo_g, whichever way each lost result falls: docs/spec.md §3.8); so
 *   |S_g| ≤ B_g(μ) = max(hi_g(μ), −lo_g(μ)). hi_g and
 *   −lo_g are convex piecewise-linear in μ, B_g ≥ 0, so Σ_g w_g B_g(μ)² is convex and its maximum
 *   over [Δ_L, Δ_H] is at an end point.
 * - CR2: SE² = (1/n) Σ_g S_g²/(n − n_g), and n ≥ N_v, n − n_g ≥ |V \ g| = N_v − n_g^V; so
 *   SE² ≤ (1/N_v) Σ_g B_g²/(N_v − n_g^V). CR1: SE² = G/(G−1)·Σ_g S_g²/n², G ≥ G_V, n ≥ N_v, so
 *   SE² ≤ G_V/(G_V−1)·Σ_g B_g²/N_v².
 * - ν: CR1 G − 1 ≥ G_V − 1. CR2: ν = 1/F(p) with p_g = n_g/n the shares (standard-error.ts),
 *   F = Σ p_g² + Σ_{g≠h} r_g r_h, r_g = p_g²/(1 − p_g), increasing in every p_g; p_g ≤ P_g =
 *   (n_g^V + u_g)/(N_v + u_g) (all of g's open tasks and nothing else join), so F ≤ F̄ with P in
 *   place of p and ν ≥ max(1, 1/F̄) (ν ≥ 1 always); the reported ν is clamped to ≤ G − 1 ≥ G_V − 1,
 *   so ν_min = min(G_V − 1, max(1, 1/F̄)) and q_max = q(ν_min).
 * null when G_V < 2 (S = ∅ leaves the SE undefined).
 */
export function conservativeClusteredBounds(
  v: ValidSums,
  cs: ClusterSums,
  marginLower: number,
  marginUpper: number,
  correction: "cr2" | "cr1",
  quantile: QuantileFunction,
): { readonly lower: ConservativeBound; readonly upper: ConservativeBound } | null {
  const G = cs.clusterCount;
  const nv = v.n;
  let gV = 0;
  for (let g = 0; g < G; g++) if ((cs.validSize[g] as number) > 0) gV++;
  if (gV < 2) return null;
  const open = new Float64Array(G);
  for (let j = 0; j < cs.openCluster.length; j++) {
    const g = cs.openCluster[j] as number;
    open[g] = (open[g] as number) + (cs.openCount[j] as number);
  }
  const hi = new Float64Array(G);
  const lo = new Float64Array(G);
  const validHigh = cs.validSumHigh ?? cs.validSum;
  const openHigh = cs.openHigh ?? cs.openValue;
  const sumB2 = (mu: number): number => {
    for (let g = 0; g < G; g++) {
      const size = (cs.validSize[g] as number) * mu;
      hi[g] = (validHigh[g] as number) - size;
      lo[g] = (cs.validSum[g] as number) - size;
    }
    for (let j = 0; j < cs.openCluster.length; j++) {
      const g = cs.openCluster[j] as number;
      const count = cs.openCount[j] as number;
      const up = ((openHigh[j] as number) - mu) * count;
      const down = ((cs.openValue[j] as number) - mu) * count;
      if (up > 0) hi[g] = (hi[g] as number) + up;
      if (down < 0) lo[g] = (lo[g] as number) + down;
    }
    let s = 0;
    for (let g = 0; g < G; g++) {
      const b = Math.max(hi[g] as number, -(lo[g] as number));
      const b2 = b * b;
      s += correction === "cr1" ? b2 : b2 / (nv - (cs.validSize[g] as number));
    }
    return correction === "cr1" ? ((gV / (gV - 1)) * s) / (nv * nv) : s / nv;
  };
  const se = Math.sqrt(Math.max(sumB2(marginLower), sumB2(marginUpper)));
  let nu = gV - 1;
  if (correction === "cr2") {
    let sumP2 = 0;
    let sumR = 0;
    let sumR2 = 0;
    for (let g = 0; g < G; g++) {
      const ng = (cs.validSize[g] as number) + (open[g] as number);
      if (ng <= 0) continue;
      const p = ng / (nv + (open[g] as number));
      const r = (p * p) / (1 - p);
      sumP2 += p * p;
      sumR += r;
      sumR2 += r * r;
    }
    const fBar = sumP2 + Math.max(0, sumR * sumR - sumR2);
    nu = Math.min(gV - 1, Math.max(1, 1 / fBar));
  }
  const q = quantile(nu);
  return {
    lower: { value: marginLower - q * se, se, nu, q },
    upper: { value: marginUpper + q * se, se, nu, q },
  };
}
