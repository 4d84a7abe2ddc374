/**
 * The one place the `infra_errors` mode enters the comparison (docs/spec.md §3.8): each task's
 * d = m_candidate − m_baseline as an interval [d^lo, d^hi]. Under `exclude` and `count_as_fail`
 * it is a point; under `bound` each model's score lies in [pass / K*, (pass + lost) / K*], so
 * d^lo takes the candidate's low end and the baseline's high end, d^hi the reverse. Everything
 * downstream (the margin, its bounds, the fragility, rank) reads these intervals, not the mode.
 */
import type { TaskColumns } from "./task-columns.js";
import { scoreRerunVariance, type InfraErrorsPolicy, type PointInfraErrorsPolicy } from "./task-scores.js";

export interface TaskIntervals {
  /** d^lo of every task where both models have K* ≥ 1; NaN elsewhere (not a task of C). */
  readonly low: Float64Array;
  /** d^hi; the very array `low` when no task has a lost result. */
  readonly high: Float64Array;
  /** The re-run variance terms of both scores added; NaN when either is undefined (K < 2) or d is an interval. */
  readonly rerun: Float64Array;
}

/** The intervals under each mode. */
type IntervalModes = Readonly<Record<InfraErrorsPolicy, TaskIntervals>>;

/**
 * By the columns' count arrays, the candidate's then the baseline's (both shared by every label
 * overlay of one dataset: withLabels; a rank pairs one model's array with several others'): the
 * analysis of the dataset under each infra mode, fragility's verification and each review
 * revision read the counts once, not at each.
 */
const intervalsByCounts = new WeakMap<object, WeakMap<object, IntervalModes>>();

/**
 * The intervals under the three modes in one walk over the counts: they differ only where a model
 * has an infra error. `exclude` counts K* = passes + fails, the other two add the infra errors;
 * `count_as_fail` and `bound` agree where no result is lost. Each mode shares the arrays of the
 * one before it until the first task where it differs (then they are copied and kept apart).
 */
function intervalsOfEveryMode(columns: TaskColumns): IntervalModes {
  const n = columns.validity.length;
  const lowEx = new Float64Array(n);
  const rerunEx = new Float64Array(n);
  let lowAll = lowEx;
  let rerunAll = rerunEx;
  // bound's ends and re-run terms: count_as_fail's until a lost result.
  let lowBound = lowEx;
  let highBound = lowEx;
  let rerunBound = rerunEx;
  for (let i = 0; i < n; i++) {
    const a = columns.candidate[i];
    const b = columns.baseline[i];
    if (a === undefined || b === undefined) {
      lowEx[i] = Number.NaN;
      rerunEx[i] = Number.NaN;
      if (lowAll !== lowEx) {
        lowAll[i] = Number.NaN;
        rerunAll[i] = Number.NaN;
      }
      if (lowBound !== lowAll) {
        lowBound[i] = Number.NaN;
        highBound[i] = Number.NaN;
        rerunBound[i] = Number.NaN;
      }
      continue;
    }
    const la = a.infra_error;
    const lb = b.infra_error;
    const kaEx = a.pass + a.fail;
    const kbEx = b.pass + b.fail;
    pointInterval(lowEx, rerunEx, i, a.pass, kaEx, b.pass, kbEx);
    if (lowAll === lowEx && la + lb > 0) {
      lowAll = lowEx.slice();
      rerunAll = rerunEx.slice();
      lowBound = lowAll;
      highBound = lowAll;
      rerunBound = rerunAll;
    }
    if (lowAll === lowEx) continue;
    const ka = kaEx + la;
    const kb = kbEx + lb;
    pointInterval(lowAll, rerunAll, i, a.pass, ka, b.pass, kb);
    if (lowBound === lowAll && la + lb > 0 && ka > 0 && kb > 0) {
      lowBound = lowAll.slice();
      highBound = lowAll.slice();
      rerunBound = rerunAll.slice();
    }
    if (lowBound === lowAll) continue;
    if (ka === 0 || kb === 0) {
      lowBound[i] = Number.NaN;
      highBound[i] = Number.NaN;
      rerunBound[i] = Number.NaN;
      continue;
    }
    // Each score lies in [pass / K*, (pass + lost) / K*] (a point when nothing is lost).
    const aLow = a.pass / ka;
    const bLow = b.pass / kb;
    const bHigh = lb === 0 ? bLow : (b.pass + lb) / kb;
    lowBound[i] = aLow - bHigh;
    highBound[i] = (la === 0 ? aLow : (a.pass + la) / ka) - bLow;
    rerunBound[i] = la + lb > 0 ? Number.NaN : (rerunAll[i] as number);
  }
  return {
    exclude: { low: lowEx, high: lowEx, rerun: rerunEx },
    count_as_fail: { low: lowAll, high: lowAll, rerun: rerunAll },
    bound: { low: lowBound, high: highBound, rerun: rerunBound },
  };
}

/** A point d (no lost result) and its re-run term into task i's slots; NaN when a K* is 0. */
function pointInterval(
  low: Float64Array,
  rerun: Float64Array,
  i: number,
  passA: number,
  ka: number,
  passB: number,
  kb: number,
): void {
  if (ka === 0 || kb === 0) {
    low[i] = Number.NaN;
    rerun[i] = Number.NaN;
    return;
  }
  const aLow = passA / ka;
  const bLow = passB / kb;
  low[i] = aLow - bLow;
  const va = scoreRerunVariance(aLow, ka);
  const vb = scoreRerunVariance(bLow, kb);
  rerun[i] = va === null || vb === null ? Number.NaN : va + vb;
}

/** The d interval of every task (labels do not enter). Shared: never modify it. */
export function taskIntervals(columns: TaskColumns, infra: InfraErrorsPolicy): TaskIntervals {
  let byBaseline = intervalsByCounts.get(columns.candidate);
  if (byBaseline === undefined) {
    byBaseline = new WeakMap();
    intervalsByCounts.set(columns.candidate, byBaseline);
  }
  let modes = byBaseline.get(columns.baseline);
  if (modes === undefined || modes.exclude.low.length !== columns.validity.length) {
    modes = intervalsOfEveryMode(columns);
    byBaseline.set(columns.baseline, modes);
  }
  return modes[infra];
}

/**
 * dₜ = m_candidate − m_baseline of every task under a mode whose scores are points, NaN where a
 * model has K* = 0 (not a task of C); labels do not enter. Shared, never modify it.
 */
export function taskDifferences(columns: TaskColumns, infra: PointInfraErrorsPolicy): Float64Array {
  return taskIntervals(columns, infra).low;
}
