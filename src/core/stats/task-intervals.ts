/**
 * The one place the `infra_errors` mode enters the comparison (docs/spec.md §3.8): each task's
 * d = m_candidate − m_baseline as an interval [d^lo, d^hi]. Under `exclude` and `count_as_fail`
 * it is a point; under `bound` each model's score lies in [pass / K*, (pass + lost) / K*], so
 * d^lo takes the candidate's low end and the baseline's high end, d^hi the reverse. Everything
 * downstream (the margin, its bounds, the fragility, rank) reads these intervals, not the mode.
 */
import type { TaskColumns } from "./task-columns.js";
import {
  effectiveAttempts,
  lostResults,
  scoreRerunVariance,
  type InfraErrorsPolicy,
  type PointInfraErrorsPolicy,
} from "./task-scores.js";

export interface TaskIntervals {
  /** d^lo of every task where both models have K* ≥ 1; NaN elsewhere (not a task of C). */
  readonly low: Float64Array;
  /** d^hi; the very array `low` when no task has a lost result. */
  readonly high: Float64Array;
  /** The re-run variance terms of both scores added; NaN when either is undefined (K < 2) or d is an interval. */
  readonly rerun: Float64Array;
}

/**
 * By the columns' count arrays, the candidate's then the baseline's (both shared by every label
 * overlay of one dataset: withLabels; a rank pairs one model's array with several others'), then
 * by mode. evaluate() analyses the dataset, fragility's verification and each review revision:
 * the counts are read once, not at each.
 */
const intervalsByCounts = new WeakMap<object, WeakMap<object, Map<InfraErrorsPolicy, TaskIntervals>>>();

function computeIntervals(columns: TaskColumns, infra: InfraErrorsPolicy): TaskIntervals {
  const n = columns.validity.length;
  const low = new Float64Array(n);
  let high = low;
  const rerun = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const a = columns.candidate[i];
    const b = columns.baseline[i];
    const ka = effectiveAttempts(a, infra);
    const kb = effectiveAttempts(b, infra);
    if (a === undefined || b === undefined || ka === 0 || kb === 0) {
      low[i] = Number.NaN;
      if (high !== low) high[i] = Number.NaN;
      rerun[i] = Number.NaN;
      continue;
    }
    const la = lostResults(a, infra);
    const lb = lostResults(b, infra);
    // Each score lies in [pass / K*, (pass + lost) / K*] (a point when nothing is lost).
    const aLow = a.pass / ka;
    const bLow = b.pass / kb;
    const bHigh = lb === 0 ? bLow : (b.pass + lb) / kb;
    low[i] = aLow - bHigh;
    // The first interval: from here on the two ends are kept apart.
    if (high === low && la + lb > 0) high = low.slice();
    if (high !== low) high[i] = (la === 0 ? aLow : (a.pass + la) / ka) - bLow;
    const va = scoreRerunVariance(aLow, ka);
    const vb = scoreRerunVariance(bLow, kb);
    rerun[i] = va === null || vb === null || la + lb > 0 ? Number.NaN : va + vb;
  }
  return { low, high, rerun };
}

/** The d interval of every task (labels do not enter). Shared: never modify it. */
export function taskIntervals(columns: TaskColumns, infra: InfraErrorsPolicy): TaskIntervals {
  let byBaseline = intervalsByCounts.get(columns.candidate);
  if (byBaseline === undefined) {
    byBaseline = new WeakMap();
    intervalsByCounts.set(columns.candidate, byBaseline);
  }
  let byMode = byBaseline.get(columns.baseline);
  if (byMode === undefined) {
    byMode = new Map();
    byBaseline.set(columns.baseline, byMode);
  }
  const known = byMode.get(infra);
  if (known !== undefined && known.low.length === columns.validity.length) return known;
  const intervals = computeIntervals(columns, infra);
  byMode.set(infra, intervals);
  return intervals;
}

/**
 * dₜ = m_candidate − m_baseline of every task under a mode whose scores are points, NaN where a
 * model has K* = 0 (not a task of C); labels do not enter. Shared, never modify it.
 */
export function taskDifferences(columns: TaskColumns, infra: PointInfraErrorsPolicy): Float64Array {
  return taskIntervals(columns, infra).low;
}
