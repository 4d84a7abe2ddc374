/**
 * The max-t step-down's critical values (docs/rank.md "Multiplicity"; Romano & Wolf 2005). The
 * pairs of a ranking share models, so their t-statistics are correlated (a − b and a − c move
 * together); the (1 − α) quantile of the largest |t| over the pairs still unordered is then below
 * Holm's Bonferroni value, and the step-down orders more pairs at the same family-wise error.
 *
 * The joint law of the pairs' t-statistics is that of the models' mean scores: a normal with the
 * models' score covariance Σ on the common set (paired: the tasks' scores; clustered: the clusters'
 * sums), so a pair's t is (Z_a − Z_b)/√(Σ_aa + Σ_bb − 2Σ_ab). The quantile is taken over a fixed
 * number of normal draws from a fixed seed (the same inputs give the same bytes), and it is never
 * allowed above Holm's α/(2(m − r)) one-sided value: on every data set the procedure orders every
 * pair Holm would.
 */
import type { AttemptCounts } from "../model.js";
import type { MarginSettings } from "../policy/policy-types.js";
import { normalQuantile } from "../stats/normal-quantile.js";
import { seededUniforms } from "../stats/seeded-uniforms.js";
import { VALID_CODE } from "../stats/task-columns.js";
import { effectiveAttempts, lostResults, type InfraErrorsPolicy } from "../stats/task-scores.js";
import type { CommonSet } from "./common-set.js";
import { pairIndices } from "./rank-pairs.js";
import type { LevelSchedule } from "./step-down.js";

/** How many normal draws the quantile is taken over: its Monte-Carlo error is ~0.01 in t at 5%. */
export const MAX_T_DRAWS = 10_000;
/** The draws' fixed seed: a ranking is a function of its inputs alone. */
export const MAX_T_SEED = 20_050_101;

/**
 * Σ of the models' mean scores on the common set's labelled-valid tasks (the point estimate's
 * set), up to a common factor (only correlations and ratios are used): paired, Σ_ab = Σ_j
 * (s_aj − s̄_a)(s_bj − s̄_b); clustered, the same over the clusters' sums of centred scores (a task
 * without a cluster is a cluster of its own). A task's score is pass / K*, and under
 * `infra_errors: bound` the middle of its range. null with fewer than 2 such tasks.
 */
export function scoreCovariance(
  set: CommonSet,
  infra: InfraErrorsPolicy,
  standardError: MarginSettings["standard_error"],
): Float64Array | null {
  const k = set.counts.length;
  const rows: number[] = [];
  for (let j = 0; j < set.validity.length; j++) {
    if (set.validity[j] !== VALID_CODE) continue;
    if (set.counts.every((c) => effectiveAttempts(c[j], infra) > 0)) rows.push(j);
  }
  if (rows.length < 2) return null;
  const score = (m: number, j: number): number => {
    const c = set.counts[m]?.[j] as AttemptCounts;
    return (c.pass + lostResults(c, infra) / 2) / effectiveAttempts(c, infra);
  };
  const mean = new Float64Array(k);
  for (const j of rows) for (let m = 0; m < k; m++) mean[m] = (mean[m] as number) + score(m, j);
  for (let m = 0; m < k; m++) mean[m] = (mean[m] as number) / rows.length;
  // The units the covariance sums over: tasks (paired) or clusters (clustered).
  const unitOf = new Map<number, number>();
  const unit = (j: number): number => {
    const c = standardError === "clustered" ? (set.cluster[j] as number) : -1;
    const key = c < 0 ? -1 - j : c;
    let u = unitOf.get(key);
    if (u === undefined) {
      u = unitOf.size;
      unitOf.set(key, u);
    }
    return u;
  };
  const sums: Float64Array[] = [];
  for (const j of rows) {
    const u = unit(j);
    const s = sums[u] ?? (sums[u] = new Float64Array(k));
    for (let m = 0; m < k; m++) s[m] = (s[m] as number) + score(m, j) - (mean[m] as number);
  }
  const cov = new Float64Array(k * k);
  for (const s of sums) {
    for (let a = 0; a < k; a++) {
      const sa = s[a] as number;
      if (sa === 0) continue;
      for (let b = 0; b < k; b++) cov[a * k + b] = (cov[a * k + b] as number) + sa * (s[b] as number);
    }
  }
  return cov;
}

/**
 * L with L·Lᵀ = Σ (k × k, row-major), for a positive semidefinite Σ: a pivot that is zero up to
 * rounding (two models with the same scores, or one that is a mix of others) gets a zero column,
 * so that model's draw is the combination of the others' that Σ says it is.
 */
export function semidefiniteCholesky(cov: Float64Array, k: number): Float64Array {
  const l = new Float64Array(k * k);
  let scale = 0;
  for (let i = 0; i < k; i++) scale = Math.max(scale, cov[i * k + i] as number);
  const tiny = scale * 1e-12;
  for (let j = 0; j < k; j++) {
    let d = cov[j * k + j] as number;
    for (let p = 0; p < j; p++) d -= (l[j * k + p] as number) ** 2;
    if (!(d > tiny)) continue;
    const root = Math.sqrt(d);
    l[j * k + j] = root;
    for (let i = j + 1; i < k; i++) {
      let s = cov[i * k + j] as number;
      for (let p = 0; p < j; p++) s -= (l[i * k + p] as number) * (l[j * k + p] as number);
      l[i * k + j] = s / root;
    }
  }
  return l;
}

/** `draws` × k standard normals (Box–Muller), then each row multiplied by L: draws of the models' Z. */
function modelDraws(l: Float64Array, k: number, draws: number, seed: number): Float64Array {
  const next = seededUniforms(seed);
  const e = new Float64Array(k);
  const z = new Float64Array(draws * k);
  for (let b = 0; b < draws; b++) {
    for (let i = 0; i < k; i += 2) {
      const r = Math.sqrt(-2 * Math.log(1 - next()));
      const angle = 2 * Math.PI * next();
      e[i] = r * Math.cos(angle);
      if (i + 1 < k) e[i + 1] = r * Math.sin(angle);
    }
    for (let i = 0; i < k; i++) {
      let s = 0;
      for (let p = 0; p <= i; p++) s += (l[i * k + p] as number) * (e[p] as number);
      z[b * k + i] = s;
    }
  }
  return z;
}

/** The one-sided level whose normal quantile is c: Φ(−c), by bisection on Φ⁻¹ (in (0, ½]). */
export function upperTail(c: number): number {
  if (!(c > 0)) return 0.5;
  let lo = 0;
  let hi = 0.5;
  for (let i = 0; i < 2000; i++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    // Φ⁻¹ rises with its argument; the lower tail keeps small levels exact (1 − 10⁻⁹ would not).
    if (normalQuantile(mid) < -c) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Holm's level for one side of each of the pairs still unordered: α/(2(m − r)). */
export const PAIRWISE_HOLM: LevelSchedule = (alpha, m, r) => alpha / (2 * (m - r));

/**
 * The max-t step-down's schedule for the pairs (a, b) of `pairs`: after some pairs are ordered,
 * each side of every pair still unordered is tested one-sided at Φ(−c), c the (1 − α) quantile
 * over the draws of max |t| over those pairs, but never at a level below PAIRWISE_HOLM's. A pair
 * whose scores do not differ on any task (zero variance) cannot move the maximum and is left out
 * of it; with one pair left, or no covariance (fewer than 2 valid tasks), the level is Holm's.
 */
export function maxTSchedule(
  cov: Float64Array | null,
  pairs: readonly (readonly [number, number])[],
  k: number,
  draws = MAX_T_DRAWS,
  seed = MAX_T_SEED,
): LevelSchedule {
  if (cov === null || pairs.length < 2) return PAIRWISE_HOLM;
  const z = modelDraws(semidefiniteCholesky(cov, k), k, draws, seed);
  let scale = 0;
  for (let i = 0; i < k; i++) scale = Math.max(scale, cov[i * k + i] as number);
  // Flat arrays: the loop below runs draws × pairs times a round (5·10⁷ at 100 models).
  const first = Int32Array.from(pairs, ([a]) => a);
  const second = Int32Array.from(pairs, ([, b]) => b);
  const inverseSd = Float64Array.from(pairs, ([a, b]) => {
    const v = (cov[a * k + a] as number) + (cov[b * k + b] as number) - 2 * (cov[a * k + b] as number);
    return v > scale * 1e-12 ? 1 / Math.sqrt(v) : 0;
  });
  // Each draw's largest |t| and the pair it came from, for the pairs open when last computed: the
  // pairs left only shrink from round to round, so a draw whose largest pair is still open keeps
  // its maximum and only the others are recomputed (a second call on the same pairs recomputes
  // none).
  const largest = new Float64Array(draws);
  const argmax = new Int32Array(draws).fill(-1);
  let lastOpen: Uint8Array | null = null;
  return (alpha, m, r, ordered) => {
    const holm = PAIRWISE_HOLM(alpha, m, r, ordered);
    const isOpen = new Uint8Array(m);
    const list: number[] = [];
    for (let p = 0; p < m; p++) {
      if (ordered?.[p] === 1 || (inverseSd[p] as number) <= 0) continue;
      isOpen[p] = 1;
      list.push(p);
    }
    if (m - r < 2 || list.length === 0) return holm;
    const shrunk = lastOpen !== null && list.every((p) => lastOpen?.[p] === 1);
    const open = Int32Array.from(list);
    const n = open.length;
    for (let b = 0; b < draws; b++) {
      if (shrunk && isOpen[argmax[b] as number] === 1) continue;
      let max = 0;
      let at = open[0] as number;
      const row = b * k;
      for (let i = 0; i < n; i++) {
        const p = open[i] as number;
        const d = (z[row + (first[p] as number)] as number) - (z[row + (second[p] as number)] as number);
        const t = (d < 0 ? -d : d) * (inverseSd[p] as number);
        if (t > max) {
          max = t;
          at = p;
        }
      }
      largest[b] = max;
      argmax[b] = at;
    }
    lastOpen = isOpen;
    const sorted = largest.slice().sort();
    const c = sorted[Math.min(draws - 1, Math.ceil((1 - alpha) * draws) - 1)] as number;
    return Math.max(upperTail(c), holm);
  };
}

/** The family procedure of a ranking: its name in the report and its levels. */
export interface RankProcedure {
  readonly method: "max_t" | "holm_pairs";
  readonly schedule: LevelSchedule;
}

/**
 * The gate's procedure for a ranking of k models on `set`. With a paired SE, the max-t step-down.
 * With a clustered SE, Holm at α/(2(m − r)): each pair's clustered bound is itself only near its
 * level with few clusters (about 1.2 times it in the far tail with 25, docs/rank.md), and Holm's
 * slack absorbs that where max-t, which spends α exactly, would not.
 */
export function rankProcedure(
  set: CommonSet,
  infra: InfraErrorsPolicy,
  standardError: MarginSettings["standard_error"],
  k: number,
): RankProcedure {
  if (standardError === "clustered") return { method: "holm_pairs", schedule: PAIRWISE_HOLM };
  return {
    method: "max_t",
    schedule: maxTSchedule(scoreCovariance(set, infra, standardError), pairIndices(k), k),
  };
}
