/**
 * The comparison's sets (SPEC §2) read from the task columns and the d intervals
 * (task-intervals.ts): T, the common set C split into V and U, the clusters of C, and each task's
 * d ends. Labels come from the columns (an overlay may carry other labels for the same tasks).
 */
import { BROKEN_CODE, DISPUTED_CODE, VALID_CODE, type TaskColumns } from "./task-columns.js";
import type { TaskIntervals } from "./task-intervals.js";

export interface ComparisonSets {
  /** |T|: non-broken tasks that appear for either model. */
  readonly universe: number;
  readonly broken: number;
  readonly disputed: number;
  readonly unreviewed: number;
  /** N_v, and V's tasks (indices into the dataset) with their d ends, in dataset order. */
  readonly nv: number;
  readonly validTask: Int32Array;
  readonly validLow: Float64Array;
  /** The very array validLow when no task of V has a lost result. */
  readonly validHigh: Float64Array;
  /** Σ_V d^lo and Σ_V d^hi, summed in dataset order. */
  readonly validSumLow: number;
  readonly validSumHigh: number;
  /** U's tasks (indices into the dataset) and their d ends, in dataset order. */
  readonly openTask: number[];
  readonly openLow: Float64Array;
  /** The very array openLow when no task of U has a lost result. */
  readonly openHigh: Float64Array;
  /** Each task's cluster numbered in order of first appearance among the common tasks; −1: none or not in C. */
  readonly clusterOfTask: Int32Array;
  /** How many clusters the common tasks have, and how many common tasks have none. */
  readonly clusters: number;
  readonly withoutCluster: number;
  /** V's re-run terms (K* ≥ 2 for both, no lost result); null when one is undefined. */
  readonly rerun: Float64Array | null;
  /** Tasks of V, and of U, whose d is an interval (a lost result). */
  readonly validLost: number;
  readonly openLost: number;
}

export function comparisonSets(columns: TaskColumns, intervals: TaskIntervals): ComparisonSets {
  const validity = columns.validity;
  const n = validity.length;
  const { low, high } = intervals;
  const pointOnly = high === low;
  // (Typed, at most one a task: pushed onto arrays, these were most of an evaluation's garbage.)
  const validLow = new Float64Array(n);
  const validHigh = pointOnly ? validLow : new Float64Array(n);
  const validTask = new Int32Array(n);
  const openLow = new Float64Array(n);
  const openHigh = pointOnly ? openLow : new Float64Array(n);
  const openTask: number[] = [];
  const rerunTerms = new Float64Array(n);
  const clusterNumber = new Int32Array(columns.clusterCount).fill(-1);
  const clusterOfTask = new Int32Array(n).fill(-1);
  let universe = 0;
  let broken = 0;
  let disputed = 0;
  let unreviewed = 0;
  let nv = 0;
  let open = 0;
  let validSumLow = 0;
  let validSumHigh = 0;
  let rerunOk = true;
  let g = 0;
  let withoutCluster = 0;
  let validLost = 0;
  let openLost = 0;
  for (let i = 0; i < n; i++) {
    const label = validity[i] as number;
    if (label === BROKEN_CODE) {
      broken++;
      continue;
    }
    universe++;
    const lo = low[i] as number;
    // (NaN: not a task of C.)
    if (lo !== lo) continue;
    const hi = high[i] as number;
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
    // (Counters of rare cases add 0 or 1 on every task: a branch first taken deep into the loop
    // would send V8's optimised code back to the interpreter.)
    if (label === VALID_CODE) {
      validLow[nv] = lo;
      validHigh[nv] = hi;
      validTask[nv] = i;
      validSumLow += lo;
      validSumHigh += hi;
      validLost += hi !== lo ? 1 : 0;
      const rerun = intervals.rerun[i] as number;
      if (rerun !== rerun) rerunOk = false;
      else rerunTerms[nv] = rerun;
      nv++;
    } else {
      disputed += label === DISPUTED_CODE ? 1 : 0;
      unreviewed += label === DISPUTED_CODE ? 0 : 1;
      openLow[open] = lo;
      openHigh[open] = hi;
      openLost += hi !== lo ? 1 : 0;
      open++;
      openTask.push(i);
    }
  }
  const vLow = validLow.subarray(0, nv);
  const uLow = openLow.slice(0, open);
  // Points share one array for both ends, so `high === low` says "no lost result" at once.
  return {
    universe,
    broken,
    disputed,
    unreviewed,
    nv,
    validTask: validTask.subarray(0, nv),
    validLow: vLow,
    validHigh: validLost === 0 ? vLow : validHigh.subarray(0, nv),
    validSumLow,
    validSumHigh: validLost === 0 ? validSumLow : validSumHigh,
    openTask,
    openLow: uLow,
    openHigh: openLost === 0 ? uLow : openHigh.slice(0, open),
    clusterOfTask,
    clusters: g,
    withoutCluster,
    rerun: rerunOk && nv > 0 ? rerunTerms.subarray(0, nv) : null,
    validLost,
    openLost,
  };
}
