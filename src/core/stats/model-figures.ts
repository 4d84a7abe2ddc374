/**
 * Per-model figures (SPEC §2): counts on the universe T, infra error rate, missing and
 * lost-to-infra tasks, and the valid-only / all-attempted scores with their validity intervals,
 * both on the model's own attempted tasks and on the common set C.
 */
import type { Dataset } from "../model.js";
import type { ModelCounts, ModelFigures } from "../verdict-types.js";
import { BROKEN_CODE, taskColumns, VALID_CODE, type TaskColumns } from "./task-columns.js";
import type { InfraErrorsPolicy } from "./task-scores.js";
import { exactRatioBounds, pessimisticBounds } from "./validity-bounds.js";

export type Side = "baseline" | "candidate";

/** Scores of one model over a set of tasks, split into valid and unresolved. */
export interface ScoreFigures {
  readonly valid_only_score: number | null;
  readonly all_attempted_score: number | null;
  readonly interval_exact: readonly [number, number] | null;
  readonly interval_pessimistic: readonly [number, number] | null;
}

/**
 * The high ends of a model's scores where some are intervals (lost results under
 * `infra_errors: bound`, SPEC §3.8): Σ_V m^hi, U's high ends, and whether V, U hold an interval.
 */
export interface HighEnds {
  readonly validSum: number;
  readonly unresolved: ArrayLike<number>;
  readonly validLost: boolean;
  readonly unresolvedLost: boolean;
}

/**
 * Scores from the valid tasks' sum and count and the unresolved tasks' scores:
 * valid-only Σ_V m / N_v, all-attempted (Σ_V m + Σ_U m)/(N_v + D), the exact interval (sort and
 * scan, SPEC §2) and the pessimistic one [Σ_V m/(N_v+D), (Σ_V m + D)/(N_v+D)]. With `high`
 * (some scores are intervals: these are the low ends) the intervals take the low ends for the
 * minimum and the high ends for the maximum, and a score averaging an interval is null.
 */
export function scoreFigures(
  validSum: number,
  validCount: number,
  unresolved: ArrayLike<number>,
  high?: HighEnds,
): ScoreFigures {
  const d = unresolved.length;
  let uSum = 0;
  for (let i = 0; i < d; i++) uSum += unresolved[i] as number;
  const low = exactRatioBounds(validSum, validCount, unresolved, false);
  const exact =
    high === undefined ? low : exactRatioBounds(high.validSum, validCount, high.unresolved, false);
  const pess = pessimisticBounds(validSum, validCount, d, 0, 1);
  const pessHigh = high === undefined ? pess : pessimisticBounds(high.validSum, validCount, d, 0, 1);
  const validLost = high?.validLost ?? false;
  const anyLost = validLost || (high?.unresolvedLost ?? false);
  return {
    valid_only_score: validCount > 0 && !validLost ? validSum / validCount : null,
    all_attempted_score: validCount + d > 0 && !anyLost ? (validSum + uSum) / (validCount + d) : null,
    interval_exact: low.lower !== null && exact.upper !== null ? [low.lower, exact.upper] : null,
    interval_pessimistic:
      pess.lower !== null && pessHigh.upper !== null ? [pess.lower, pessHigh.upper] : null,
  };
}

/** Bits of SideTasks.flags. */
const HAS_ATTEMPT = 1;
const LOST_TO_INFRA = 2;
/** The other model has K* ≥ 1 too (the task is in C when not broken). */
const COMMON = 4;

/** Per task, what one model's figures take from the attempt counts alone (labels do not enter). */
interface SideTasks {
  /** m = passes / K*, NaN when the model has no row or K* = 0 (the low end under bound). */
  readonly score: Float64Array;
  /** (passes + lost results) / K*: the very array `score` when the model has no lost result. */
  readonly scoreHigh: Float64Array;
  readonly flags: Uint8Array;
  /**
   * The model's counts over every task, when they add up to safe integers (then every partial sum
   * is exact too, so the universe's counts are these less the broken tasks', whatever the order);
   * undefined otherwise (then they are added task by task, as before).
   */
  readonly totals:
    | { readonly pass: number; readonly fail: number; readonly infra: number; readonly missing: number }
    | undefined;
}

/** A model's SideTasks under each infra mode. */
type SideModes = Readonly<Record<InfraErrorsPolicy, SideTasks>>;

/**
 * By the model's count array, then the other model's (both shared by every label overlay of one
 * dataset: withLabels): each evaluation of the dataset (its own, the other infra readings,
 * fragility's verification, each review revision) reads the counts' scores once, not at each.
 */
const sideTasksByCounts = new WeakMap<object, WeakMap<object, SideModes>>();

function sideTasks(columns: TaskColumns, side: Side, infra: InfraErrorsPolicy): SideTasks {
  const own = columns[side];
  const others = columns[side === "baseline" ? "candidate" : "baseline"];
  let byOthers = sideTasksByCounts.get(own);
  if (byOthers === undefined) {
    byOthers = new WeakMap();
    sideTasksByCounts.set(own, byOthers);
  }
  let modes = byOthers.get(others);
  if (modes === undefined || modes.exclude.score.length !== columns.validity.length) {
    modes = sideTasksOfEveryMode(own, others, columns.validity.length);
    byOthers.set(others, modes);
  }
  return modes[infra];
}

/**
 * SideTasks under the three modes in one walk over the counts: they differ only where a model has
 * an infra error. `count_as_fail` and `bound` count one K* = passes + fails + infra errors, so
 * they share the scores' low ends and the flags; `exclude` shares those arrays too until a task
 * where it differs (then they are copied), and `bound`'s high ends share `count_as_fail`'s scores
 * until a task has a lost result.
 */
function sideTasksOfEveryMode(
  own: TaskColumns["baseline"],
  others: TaskColumns["baseline"],
  n: number,
): SideModes {
  const scoreEx = new Float64Array(n);
  const flagsEx = new Uint8Array(n);
  let scoreAll = scoreEx;
  let flagsAll = flagsEx;
  let scoreHigh = scoreEx;
  let pass = 0;
  let fail = 0;
  let infraError = 0;
  let missing = 0;
  for (let i = 0; i < n; i++) {
    const c = own[i];
    let p = 0;
    let f = 0;
    let x = 0;
    if (c !== undefined) {
      p = c.pass;
      f = c.fail;
      x = c.infra_error;
      pass += p;
      fail += f;
      infraError += x;
      missing += c.missing;
    }
    const o = others[i];
    const otherCounted = o === undefined ? 0 : o.pass + o.fail;
    const otherInfra = o === undefined ? 0 : o.infra_error;
    const kEx = p + f;
    const kAll = kEx + x;
    const base = (kAll > 0 ? HAS_ATTEMPT : 0) | (kEx === 0 && x > 0 ? LOST_TO_INFRA : 0);
    const sEx = c === undefined || kEx === 0 ? Number.NaN : p / kEx;
    const sAll = c === undefined || kAll === 0 ? Number.NaN : p / kAll;
    const high = (p + x) / kAll;
    scoreEx[i] = sEx;
    flagsEx[i] = base | (otherCounted > 0 ? COMMON : 0);
    // The first task where the modes differ: from here on their arrays are kept apart. Every
    // other line runs for every task (a shared array is written the value it holds): a branch
    // first taken deep into a loop sends V8's optimised code back to the interpreter.
    if (scoreAll === scoreEx && x + (otherCounted === 0 ? otherInfra : 0) > 0) {
      scoreAll = scoreEx.slice();
      flagsAll = flagsEx.slice();
      scoreHigh = scoreAll;
    }
    if (scoreHigh === scoreAll && x > 0) scoreHigh = scoreAll.slice();
    scoreAll[i] = sAll;
    flagsAll[i] = base | (otherCounted + otherInfra > 0 ? COMMON : 0);
    scoreHigh[i] = x > 0 ? high : sAll;
  }
  const safe = Number.isSafeInteger(pass + fail + infraError + missing);
  const totals = safe ? { pass, fail, infra: infraError, missing } : undefined;
  return {
    exclude: { score: scoreEx, scoreHigh: scoreEx, flags: flagsEx, totals },
    count_as_fail: { score: scoreAll, scoreHigh: scoreAll, flags: flagsAll, totals },
    bound: { score: scoreAll, scoreHigh, flags: flagsAll, totals },
  };
}

/**
 * The figures of one model. Row counts (attempts, passes, fails, infra_errors, missing_attempts)
 * are the model's attempt rows on the universe T (non-broken tasks), as read: under
 * `count_as_fail` infra errors stay counted as infra errors here (only K* and the scores treat
 * them as fails). `attempts` counts every row, `missing` results included.
 * attempted_tasks = tasks of T with K* ≥ 1. The common set C needs K* ≥ 1 for both models.
 * `columns` (default: the dataset's own) may carry other labels for the same tasks.
 */
export function modelFigures(
  dataset: Dataset,
  side: Side,
  infra: InfraErrorsPolicy,
  columns: TaskColumns = taskColumns(dataset),
): ModelFigures {
  const summary = dataset[side];
  let universe = 0;
  let attempted = 0;
  let missingTasks = 0;
  let lostTasks = 0;
  let ownValidSum = 0;
  let ownValidCount = 0;
  let commonValidSum = 0;
  let commonValidCount = 0;
  // The high ends (lost results under bound, SPEC §3.8): sums, U's ends, and where intervals are.
  let ownValidHigh = 0;
  let commonValidHigh = 0;
  const lost = { ownValid: false, ownOpen: false, commonValid: false, commonOpen: false };
  const validity = columns.validity;
  // The unresolved tasks' scores, at most one a task (typed: arrays pushed onto would box each
  // double and grow again for every review revision, where most tasks are unreviewed early on).
  const ownUnresolved = new Float64Array(validity.length);
  const commonUnresolved = new Float64Array(validity.length);
  const own = columns[side];
  const { score, scoreHigh, flags, totals } = sideTasks(columns, side, infra);
  const points = scoreHigh === score;
  const ownUnresolvedHigh = points ? ownUnresolved : new Float64Array(validity.length);
  const commonUnresolvedHigh = points ? commonUnresolved : new Float64Array(validity.length);
  let ownCount = 0;
  let commonCount = 0;

  const rows = universeCounts(own, validity, totals);
  for (let i = 0; i < validity.length; i++) {
    const label = validity[i] as number;
    if (label === BROKEN_CODE) continue;
    universe++;
    const f = flags[i] as number;
    if ((f & HAS_ATTEMPT) === 0) missingTasks++;
    if ((f & LOST_TO_INFRA) !== 0) lostTasks++;
    const m = score[i] as number;
    // (NaN: not attempted by this model.)
    if (m !== m) continue;
    attempted++;
    const common = (f & COMMON) !== 0;
    const h = scoreHigh[i] as number;
    const interval = h !== m;
    if (label === VALID_CODE) {
      ownValidSum += m;
      ownValidHigh += h;
      ownValidCount++;
      lost.ownValid ||= interval;
      if (common) {
        commonValidSum += m;
        commonValidHigh += h;
        commonValidCount++;
        lost.commonValid ||= interval;
      }
    } else {
      ownUnresolvedHigh[ownCount] = h;
      ownUnresolved[ownCount++] = m;
      lost.ownOpen ||= interval;
      if (common) {
        commonUnresolvedHigh[commonCount] = h;
        commonUnresolved[commonCount++] = m;
        lost.commonOpen ||= interval;
      }
    }
  }

  return {
    ...countsFigures(summary, rows, { universe, attempted, missingTasks, lostTasks }),
    ...scoreFigures(
      ownValidSum,
      ownValidCount,
      ownUnresolved.subarray(0, ownCount),
      highEnds(points, ownValidHigh, ownUnresolvedHigh.subarray(0, ownCount), lost.ownValid, lost.ownOpen),
    ),
    common: scoreFigures(
      commonValidSum,
      commonValidCount,
      commonUnresolved.subarray(0, commonCount),
      highEnds(
        points,
        commonValidHigh,
        commonUnresolvedHigh.subarray(0, commonCount),
        lost.commonValid,
        lost.commonOpen,
      ),
    ),
  };
}

/**
 * The counts and rates of one model alone, without its scores: what the checks, and so a verdict,
 * read of its figures (modelFigures gives the same counts). The evaluations made only for their
 * verdict (the other infra readings, fragility's verification, each review revision) skip the
 * score intervals, which sort the unresolved tasks' scores.
 */
export function modelCounts(
  dataset: Dataset,
  side: Side,
  infra: InfraErrorsPolicy,
  columns: TaskColumns = taskColumns(dataset),
): ModelCounts {
  const validity = columns.validity;
  const { score, flags, totals } = sideTasks(columns, side, infra);
  let universe = 0;
  let attempted = 0;
  let missingTasks = 0;
  let lostTasks = 0;
  for (let i = 0; i < validity.length; i++) {
    if (validity[i] === BROKEN_CODE) continue;
    universe++;
    const f = flags[i] as number;
    if ((f & HAS_ATTEMPT) === 0) missingTasks++;
    if ((f & LOST_TO_INFRA) !== 0) lostTasks++;
    const m = score[i] as number;
    if (m === m) attempted++;
  }
  const rows = universeCounts(columns[side], validity, totals);
  return countsFigures(dataset[side], rows, { universe, attempted, missingTasks, lostTasks });
}

interface RowCounts {
  readonly passes: number;
  readonly fails: number;
  readonly infraErrors: number;
  readonly missingAttempts: number;
}

interface TaskTally {
  readonly universe: number;
  readonly attempted: number;
  readonly missingTasks: number;
  readonly lostTasks: number;
}

function countsFigures(summary: Dataset["baseline"], rows: RowCounts, tally: TaskTally): ModelCounts {
  const { passes, fails, infraErrors, missingAttempts } = rows;
  const rateDenominator = passes + fails + infraErrors;
  return {
    config: summary.config,
    harness_revisions: [...summary.harnessRevisions],
    dataset_revisions: [...summary.datasetRevisions],
    attempts: passes + fails + infraErrors + missingAttempts,
    passes,
    fails,
    infra_errors: infraErrors,
    missing_attempts: missingAttempts,
    duplicate_rows: summary.duplicateRows,
    attempted_tasks: tally.attempted,
    missing_tasks: tally.missingTasks,
    lost_to_infra_tasks: tally.lostTasks,
    infra_error_rate: rateDenominator > 0 ? infraErrors / rateDenominator : null,
    missing_fraction: tally.universe > 0 ? tally.missingTasks / tally.universe : null,
  };
}

/**
 * The model's row counts on the universe T (its rows on non-broken tasks): its totals less the
 * broken tasks' when the totals are known (safe integers: every partial sum is exact), else
 * added task by task.
 */
function universeCounts(
  own: TaskColumns["baseline"],
  validity: Uint8Array,
  totals: SideTasks["totals"],
): RowCounts {
  const sign = totals === undefined ? 1 : -1;
  let passes = totals?.pass ?? 0;
  let fails = totals?.fail ?? 0;
  let infraErrors = totals?.infra ?? 0;
  let missingAttempts = totals?.missing ?? 0;
  for (let i = 0; i < validity.length; i++) {
    // Known totals: take the broken tasks out; else add the others.
    if ((validity[i] === BROKEN_CODE) !== (sign === -1)) continue;
    const c = own[i];
    if (c === undefined) continue;
    passes += sign * c.pass;
    fails += sign * c.fail;
    infraErrors += sign * c.infra_error;
    missingAttempts += sign * c.missing;
  }
  return { passes, fails, infraErrors, missingAttempts };
}

/** The high ends for scoreFigures; undefined when every score is a point. */
function highEnds(
  points: boolean,
  validSum: number,
  unresolved: Float64Array,
  validLost: boolean,
  unresolvedLost: boolean,
): HighEnds | undefined {
  return points ? undefined : { validSum, unresolved, validLost, unresolvedLost };
}
