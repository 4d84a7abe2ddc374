/**
 * The comparison of SPEC §3: dₜ = m_A,t − m_B,t on the common set C, the observed margin Δ̂ over
 * the valid tasks V, the margin bounds Δ_L, Δ_H over subsets of the unresolved tasks U (one S for
 * both models), the standard errors and the confidence bounds LCB, UCB.
 */
import type { AttemptCounts, Dataset } from "../model.js";
import type { MarginSettings } from "../policy/policy-types.js";
import { normalQuantile } from "./normal-quantile.js";
import { clusteredStandardError, pairedStandardError, rerunStandardError } from "./standard-error.js";
import { quantileFunction } from "./quantile.js";
import { BROKEN_CODE, DISPUTED_CODE, taskColumns, VALID_CODE, type TaskColumns } from "./task-columns.js";
import { effectiveAttempts, scoreRerunVariance, type InfraErrorsPolicy } from "./task-scores.js";
import {
  conservativeClusteredBounds,
  conservativePairedBounds,
  exactUnionBounds,
  type ConservativeBound,
  type ExactBound,
} from "./union-bounds.js";
import { exactRatioBounds, pessimisticBounds } from "./validity-bounds.js";
import { ExactSum, exactNearZero } from "./exact-sum.js";

/**
 * How LCB/UCB were taken (SPEC §3 revision 2): exact over every resolution, a conservative bound
 * over every resolution, or the seed's pessimistic resolution (validity_bound: pessimistic).
 */
export type BoundKind = "exact" | "conservative" | "pessimistic";

export interface MarginAnalysis {
  /** |T|: non-broken tasks that appear for either model. */
  readonly universeTasks: number;
  readonly brokenTasks: number;
  readonly commonTasks: number;
  /** N_v */
  readonly commonValidTasks: number;
  /** D = disputed + unreviewed */
  readonly unresolvedTasks: number;
  readonly disputedTasks: number;
  readonly unreviewedTasks: number;
  /** φ = D / (N_v + D); null when C is empty. */
  readonly disputedFraction: number | null;
  /** Δ̂ = Σ_V d / N_v; null when N_v = 0. */
  readonly margin: number | null;
  readonly marginLower: number | null;
  readonly marginUpper: number | null;
  readonly validitySensitivity: number | null;
  readonly validitySensitivityUpside: number | null;
  readonly seValid: number | null;
  readonly seLower: number | null;
  readonly seUpper: number | null;
  readonly seRerun: number | null;
  /** Degrees of freedom of seValid / seLower / seUpper (paired: n − 1; CR2: Bell–McCaffrey; CR1: G − 1). */
  readonly nuValid: number | null;
  readonly nuLower: number | null;
  readonly nuUpper: number | null;
  /** The quantile kind and the quantiles q used on V, for LCB and for UCB (t: with that bound's ν). */
  readonly quantile: "t" | "z";
  readonly qValid: number | null;
  readonly qLower: number | null;
  readonly qUpper: number | null;
  /** G over V when clustered (tasks with a cluster only), else null. */
  readonly clusters: number | null;
  /** The largest cluster's share of V (clustered SE with every common task clustered), else null. */
  readonly largestClusterShare: number | null;
  /** Tasks of C without a `cluster` (clustered SE only; then every SE is null). */
  readonly tasksWithoutCluster: number;
  /** Design effect (SPEC §3): the paired and the CR2 SE on V, when every common task has a cluster. */
  readonly sePairedValid: number | null;
  readonly seCr2Valid: number | null;
  /** Φ⁻¹(confidence), whatever the quantile kind. */
  readonly z: number;
  readonly lcb: number | null;
  readonly ucb: number | null;
  /**
   * The margin term of LCB / UCB, so that LCB = marginAtLcb − qLower·seLower: Δ(S) at the set S
   * that attains an exact bound, Δ_L / Δ_H for a conservative or pessimistic one; null with the bound.
   */
  readonly marginAtLcb: number | null;
  readonly marginAtUcb: number | null;
  /** How LCB and UCB were taken; null when they are null. */
  readonly lcbKind: BoundKind | null;
  readonly ucbKind: BoundKind | null;
  /**
   * Positions (into unresolvedTaskIndices) of the smallest S attaining an exact LCB / UCB, −1
   * tasks first, then ties, then +1, each in dataset order; null unless that bound is exact.
   */
  readonly lcbSet: readonly number[] | null;
  readonly ucbSet: readonly number[] | null;
  /** Indices into dataset.tasks of the tasks of U, in dataset order. */
  readonly unresolvedTaskIndices: readonly number[];
  /** dₜ of the tasks of U, aligned with unresolvedTaskIndices. */
  readonly unresolvedD: Float64Array;
  /** Positions (into unresolvedTaskIndices) of S_L and S_H, most extreme first. */
  readonly lowerSet: readonly number[];
  readonly upperSet: readonly number[];
}

export interface MarginOptions {
  readonly infra: InfraErrorsPolicy;
  readonly margin: MarginSettings;
}

/** Per task, what the margin takes from the attempt counts alone (labels do not enter). */
interface TaskPairs {
  /** d = m_candidate − m_baseline where both models have K* ≥ 1; NaN elsewhere. */
  readonly d: Float64Array;
  /** The re-run variance terms of both scores added; NaN when either is undefined (K < 2). */
  readonly rerun: Float64Array;
}

/**
 * By the columns' count arrays, the candidate's then the baseline's (both shared by every label
 * overlay of one dataset: withLabels; a rank pairs one model's array with several others'), then
 * by infra policy. evaluate() runs analyseMargin for the dataset, for fragility's verification
 * and for each review revision: the counts are read once, not at each.
 */
const pairsByCounts = new WeakMap<object, WeakMap<object, Map<InfraErrorsPolicy, TaskPairs>>>();

function taskPairs(columns: TaskColumns, infra: InfraErrorsPolicy): TaskPairs {
  let byBaseline = pairsByCounts.get(columns.candidate);
  if (byBaseline === undefined) {
    byBaseline = new WeakMap();
    pairsByCounts.set(columns.candidate, byBaseline);
  }
  let byInfra = byBaseline.get(columns.baseline);
  if (byInfra === undefined) {
    byInfra = new Map();
    byBaseline.set(columns.baseline, byInfra);
  }
  const known = byInfra.get(infra);
  if (known !== undefined && known.d.length === columns.validity.length) return known;
  const n = columns.validity.length;
  const d = new Float64Array(n);
  const rerun = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const a = columns.candidate[i];
    const b = columns.baseline[i];
    const ka = effectiveAttempts(a, infra);
    const kb = effectiveAttempts(b, infra);
    if (a === undefined || b === undefined || ka === 0 || kb === 0) {
      d[i] = Number.NaN;
      rerun[i] = Number.NaN;
      continue;
    }
    const ma = a.pass / ka;
    const mb = b.pass / kb;
    d[i] = ma - mb;
    const va = scoreRerunVariance(ma, ka);
    const vb = scoreRerunVariance(mb, kb);
    rerun[i] = va === null || vb === null ? Number.NaN : va + vb;
  }
  const pairs = { d, rerun };
  byInfra.set(infra, pairs);
  return pairs;
}

/**
 * dₜ = m_candidate − m_baseline of every task, NaN where a model has K* = 0 (not a task of C);
 * labels do not enter. Shared, never modify it.
 */
export function taskDifferences(columns: TaskColumns, infra: InfraErrorsPolicy): Float64Array {
  return taskPairs(columns, infra).d;
}

/**
 * Compute the comparison. With `validity_bound: pessimistic` every task of U joins with d = −1
 * (lower) resp. +1 (upper), so S_L = S_H = U and the SEs are taken over V ∪ U with those
 * replaced values. With `standard_error: clustered` every task of C must carry a `cluster`; if any
 * lacks one the SEs (and so LCB/UCB) are null rather than guessed — the caller reports it.
 * LCB/UCB are null when N_v = 0 (no anchor for the margin) or the SE is undefined. `columns`
 * (default: the dataset's own) may carry other labels for the same tasks.
 */
export function analyseMargin(
  dataset: Dataset,
  opts: MarginOptions,
  columns: TaskColumns = taskColumns(dataset),
): MarginAnalysis {
  const validity = columns.validity;
  const n = validity.length;
  const infra = opts.infra;
  const clustered = opts.margin.standard_error === "clustered";
  const correction = opts.margin.cluster_correction;
  const validD = new Float64Array(n);
  // (Typed, at most one a task: pushed onto arrays, these were most of an evaluation's garbage.)
  const validTask = new Int32Array(n);
  const unresolvedD = new Float64Array(n);
  let dCount = 0;
  const unresolvedTaskIndices: number[] = [];
  let universe = 0;
  let broken = 0;
  let disputed = 0;
  let unreviewed = 0;
  let nv = 0;
  let validSum = 0;
  let rerunOk = true;
  const rerunTerms = new Float64Array(n);
  // Clusters numbered in order of first appearance among the common tasks (g below counts them).
  const clusterNumber = new Int32Array(columns.clusterCount).fill(-1);
  let g = 0;
  const clusterOfTask = new Int32Array(n).fill(-1);
  let withoutCluster = 0;
  const pairs = taskPairs(columns, infra);

  for (let i = 0; i < n; i++) {
    const label = validity[i] as number;
    if (label === BROKEN_CODE) {
      broken++;
      continue;
    }
    universe++;
    const d = pairs.d[i] as number;
    // (NaN: not a task of C.)
    if (d !== d) continue;
    {
      const k = columns.cluster[i] as number;
      if (k < 0) withoutCluster++;
      else {
        let c = clusterNumber[k] as number;
        if (c < 0) {
          c = g++;
          clusterNumber[k] = c;
        }
        clusterOfTask[i] = c;
      }
    }
    if (label === VALID_CODE) {
      validD[nv] = d;
      validTask[nv] = i;
      validSum += d;
      const rerun = pairs.rerun[i] as number;
      if (rerun !== rerun) rerunOk = false;
      else rerunTerms[nv] = rerun;
      nv++;
    } else {
      if (label === DISPUTED_CODE) disputed++;
      else unreviewed++;
      unresolvedD[dCount++] = d;
      unresolvedTaskIndices.push(i);
    }
  }

  const uD = unresolvedD.slice(0, dCount);
  const vD = validD.subarray(0, nv);
  let marginLower: number | null;
  let marginUpper: number | null;
  let lowerSet: readonly number[];
  let upperSet: readonly number[];
  // Values of the tasks of S_L / S_H as they enter the SE (pessimistic: replaced by ∓1).
  let lowerValues: Float64Array;
  let upperValues: Float64Array;
  if (opts.margin.validity_bound === "exact") {
    const bounds = exactRatioBounds(validSum, nv, uD);
    marginLower = bounds.lower;
    marginUpper = bounds.upper;
    lowerSet = bounds.lowerSet;
    upperSet = bounds.upperSet;
    lowerValues = Float64Array.from(lowerSet, (j) => uD[j] as number);
    upperValues = Float64Array.from(upperSet, (j) => uD[j] as number);
  } else {
    const bounds = pessimisticBounds(validSum, nv, dCount, -1, 1);
    marginLower = bounds.lower;
    marginUpper = bounds.upper;
    const all = Array.from({ length: dCount }, (_, j) => j);
    lowerSet = all;
    upperSet = all;
    lowerValues = new Float64Array(dCount).fill(-1);
    upperValues = new Float64Array(dCount).fill(1);
  }
  // Counts are integers: a bound (or the margin) at 0 is exactly 0, not −1.85e-17 (exact-sum.ts).
  const exact = exactFigures(columns, infra, validTask.subarray(0, nv), unresolvedTaskIndices);
  const pessimistic = opts.margin.validity_bound === "pessimistic";
  marginLower = exact.ratio(marginLower, pessimistic ? [] : lowerSet, pessimistic ? -dCount : 0);
  marginUpper = exact.ratio(marginUpper, pessimistic ? [] : upperSet, pessimistic ? dCount : 0);

  const concat = (extra: Float64Array): Float64Array => {
    const out = new Float64Array(nv + extra.length);
    out.set(vD, 0);
    out.set(extra, nv);
    return out;
  };
  const clustersOf = (set: readonly number[]): Int32Array => {
    const out = new Int32Array(nv + set.length);
    for (let j = 0; j < nv; j++) out[j] = clusterOfTask[validTask[j] as number] as number;
    for (let j = 0; j < set.length; j++) {
      out[nv + j] = clusterOfTask[unresolvedTaskIndices[set[j] as number] as number] as number;
    }
    return out;
  };

  const everyClustered = withoutCluster === 0 && nv + dCount > 0;
  const sePairedValid = pairedStandardError(vD);
  const cr2Valid = everyClustered ? clusteredStandardError(vD, clustersOf([]), g, "cr2") : null;
  let seValid: number | null;
  let seLower: number | null;
  let seUpper: number | null;
  let nuValid: number | null;
  let nuLower: number | null;
  let nuUpper: number | null;
  let clusters: number | null = null;
  let largestClusterShare: number | null = null;
  if (!clustered) {
    const lowerAll = concat(lowerValues);
    const upperAll = concat(upperValues);
    seValid = sePairedValid;
    seLower = pairedStandardError(lowerAll);
    seUpper = pairedStandardError(upperAll);
    nuValid = seValid === null ? null : nv - 1;
    nuLower = seLower === null ? null : lowerAll.length - 1;
    nuUpper = seUpper === null ? null : upperAll.length - 1;
  } else if (everyClustered) {
    const v =
      correction === "cr2" && cr2Valid !== null
        ? cr2Valid
        : clusteredStandardError(vD, clustersOf([]), g, correction);
    const lo = clusteredStandardError(concat(lowerValues), clustersOf(lowerSet), g, correction);
    const hi = clusteredStandardError(concat(upperValues), clustersOf(upperSet), g, correction);
    clusters = v.clusters;
    largestClusterShare = v.largestShare;
    seValid = v.se;
    seLower = lo.se;
    seUpper = hi.se;
    nuValid = v.nu;
    nuLower = lo.nu;
    nuUpper = hi.nu;
  } else {
    const seen = new Set<number>();
    for (let j = 0; j < nv; j++) {
      const c = clusterOfTask[validTask[j] as number] as number;
      if (c >= 0) seen.add(c);
    }
    clusters = seen.size;
    seValid = seLower = seUpper = null;
    nuValid = nuLower = nuUpper = null;
  }

  const seRerun = rerunOk && nv > 0 ? rerunStandardError(rerunTerms.subarray(0, nv)) : null;
  const confidence = opts.margin.confidence;
  const z = normalQuantile(confidence);
  const kind = opts.margin.quantile;
  const quantileOf = quantileFunction(opts.margin);
  const q = (nu: number | null): number | null => (nu === null ? null : quantileOf(nu));
  const qValid = q(nuValid);
  const qLower = q(nuLower);
  const qUpper = q(nuUpper);
  const margin = exact.ratio(nv > 0 ? validSum / nv : null, [], 0);
  let lcb =
    margin !== null && marginLower !== null && seLower !== null && qLower !== null
      ? marginLower - qLower * seLower
      : null;
  let ucb =
    margin !== null && marginUpper !== null && seUpper !== null && qUpper !== null
      ? marginUpper + qUpper * seUpper
      : null;
  let lcbKind: BoundKind | null = opts.margin.validity_bound === "pessimistic" ? "pessimistic" : null;
  let ucbKind: BoundKind | null = lcbKind;
  let lcbSet: number[] | null = null;
  let ucbSet: number[] | null = null;
  let marginAtLcb = lcb === null ? null : marginLower;
  let marginAtUcb = ucb === null ? null : marginUpper;
  let lower: ExactBound | ConservativeBound | null = null;
  let upper: ExactBound | ConservativeBound | null = null;
  if (
    opts.margin.validity_bound === "exact" &&
    margin !== null &&
    marginLower !== null &&
    marginUpper !== null &&
    seValid !== null
  ) {
    // The bound over every resolution (SPEC §3 revision 2).
    let validSq = 0;
    for (let j = 0; j < nv; j++) validSq += (vD[j] as number) ** 2;
    const sums = { n: nv, sum: validSum, sumSq: validSq };
    const single = uD.every((x) => x === -1 || x === 0 || x === 1);
    const exact =
      !clustered && single
        ? exactUnionBounds(
            sums,
            {
              minus: uD.filter((x) => x === -1).length,
              zero: uD.filter((x) => x === 0).length,
              plus: uD.filter((x) => x === 1).length,
            },
            quantileOf,
          )
        : null;
    let kind: BoundKind = "exact";
    if (exact !== null) {
      lower = exact.lower;
      upper = exact.upper;
      lcbSet = attainingSet(uD, exact.lower);
      ucbSet = attainingSet(uD, exact.upper);
      // Δ(S) = (Σ_V d + Σ_S d)/(N_v + |S|), single-attempt d ∈ {−1, 0, +1}.
      const at = (b: ExactBound): number => (validSum + b.plus - b.minus) / (nv + b.minus + b.zero + b.plus);
      marginAtLcb = at(exact.lower);
      marginAtUcb = at(exact.upper);
    } else {
      kind = "conservative";
      const [uValues, uCounts] = valueCounts(uD);
      const r = clustered
        ? conservativeClusteredBounds(
            sums,
            clusterSums(vD, clustersOf([]), uD, clustersOf(Array.from(uD, (_, j) => j)).subarray(nv), g),
            marginLower,
            marginUpper,
            correction,
            quantileOf,
          )
        : conservativePairedBounds(sums, uValues, uCounts, marginLower, marginUpper, quantileOf);
      lower = r?.lower ?? null;
      upper = r?.upper ?? null;
      marginAtLcb = marginLower;
      marginAtUcb = marginUpper;
    }
    lcb = lower?.value ?? null;
    ucb = upper?.value ?? null;
    seLower = lower?.se ?? null;
    seUpper = upper?.se ?? null;
    nuLower = lower?.nu ?? null;
    nuUpper = upper?.nu ?? null;
    lcbKind = lower === null ? null : kind;
    ucbKind = upper === null ? null : kind;
  } else if (opts.margin.validity_bound === "exact") {
    // No SE on V: the resolution that breaks every open task has no bound, so none holds at all.
    lcb = ucb = null;
  }
  const qLowerOut = lower !== null ? lower.q : opts.margin.validity_bound === "exact" ? null : qLower;
  const qUpperOut = upper !== null ? upper.q : opts.margin.validity_bound === "exact" ? null : qUpper;
  if (lcb === null) lcbKind = marginAtLcb = null;
  if (ucb === null) ucbKind = marginAtUcb = null;

  return {
    universeTasks: universe,
    brokenTasks: broken,
    commonTasks: nv + dCount,
    commonValidTasks: nv,
    unresolvedTasks: dCount,
    disputedTasks: disputed,
    unreviewedTasks: unreviewed,
    disputedFraction: nv + dCount > 0 ? dCount / (nv + dCount) : null,
    margin,
    marginLower,
    marginUpper,
    validitySensitivity: margin !== null && marginLower !== null ? margin - marginLower : null,
    validitySensitivityUpside: margin !== null && marginUpper !== null ? marginUpper - margin : null,
    seValid,
    seLower,
    seUpper,
    seRerun,
    nuValid,
    nuLower,
    nuUpper,
    quantile: kind,
    qValid,
    qLower: qLowerOut,
    qUpper: qUpperOut,
    clusters,
    largestClusterShare,
    tasksWithoutCluster: clustered ? withoutCluster : 0,
    sePairedValid,
    seCr2Valid: cr2Valid?.se ?? null,
    z,
    lcb,
    ucb,
    marginAtLcb,
    marginAtUcb,
    lcbKind,
    ucbKind,
    lcbSet,
    ucbSet,
    unresolvedTaskIndices,
    unresolvedD: uD,
    lowerSet,
    upperSet,
  };
}

/**
 * A ratio over V ∪ S (S: positions in U) plus `extra` (the pessimistic bound's ∓|U|), computed in
 * floating point, made exact near 0 from the counts (exact-sum.ts): the divisor is |V| + |S| + 0.
 */
function exactFigures(
  columns: TaskColumns,
  infra: InfraErrorsPolicy,
  valid: Int32Array,
  unresolved: readonly number[],
): { ratio: (value: number | null, open: readonly number[], extra: number) => number | null } {
  return {
    ratio: (value, open, extra) =>
      exactNearZero(value, valid.length + (extra === 0 ? open.length : Math.abs(extra)), () => {
        const s = new ExactSum();
        const add = (i: number): void => {
          s.addDifference(columns.candidate[i] as AttemptCounts, columns.baseline[i] as AttemptCounts, infra);
        };
        for (const i of valid) add(i);
        for (const j of open) add(unresolved[j] as number);
        s.add(extra, 1);
        return s;
      }),
  };
}

/** The positions in U of the attaining set: the first `minus` tasks with d = −1, etc. (dataset order). */
function attainingSet(uD: Float64Array, b: ExactBound): number[] {
  const left = new Map<number, number>([
    [-1, b.minus],
    [0, b.zero],
    [1, b.plus],
  ]);
  const out: number[] = [];
  for (const value of [-1, 0, 1]) {
    for (let j = 0; j < uD.length; j++) {
      if (uD[j] !== value) continue;
      const l = left.get(value) as number;
      if (l === 0) break;
      out.push(j);
      left.set(value, l - 1);
    }
  }
  return out;
}

/** Distinct values of U and how many tasks have each. */
function valueCounts(uD: Float64Array): [Float64Array, Float64Array] {
  const m = new Map<number, number>();
  for (const x of uD) m.set(x, (m.get(x) ?? 0) + 1);
  return [Float64Array.from(m.keys()), Float64Array.from(m.values())];
}

/** Per-cluster sums of V and the (cluster, value) kinds of U, for the conservative clustered bound. */
function clusterSums(vD: Float64Array, vc: Int32Array, uD: Float64Array, uc: Int32Array, g: number) {
  const validSize = new Float64Array(g);
  const validSum = new Float64Array(g);
  for (let j = 0; j < vD.length; j++) {
    const c = vc[j] as number;
    validSize[c] = (validSize[c] as number) + 1;
    validSum[c] = (validSum[c] as number) + (vD[j] as number);
  }
  return {
    validSize,
    validSum,
    openCluster: uc,
    openValue: uD,
    openCount: new Float64Array(uD.length).fill(1),
    clusterCount: g,
  };
}
