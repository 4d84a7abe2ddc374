/**
 * The dataset reduced to what a label change can move (fragility, SPEC §4.4): each task's
 * category, its d interval (in exact units), its cluster and both models' side counts.
 */
import type { AttemptCounts, Dataset } from "../model.js";
import type { Policy } from "../policy/policy-types.js";
import { taskColumns } from "../stats/task-columns.js";
import { taskIntervals } from "../stats/task-intervals.js";
import { effectiveAttempts, hasAttempt, lostResults } from "../stats/task-scores.js";

/** Task categories for fragility (indices into Dataset.tasks keep their dataset order). */
export const CAT_VALID = 0; // valid and in C (V)
export const CAT_VALID_OUT = 1; // valid, in T, not in C
export const CAT_OPEN = 2; // disputed/unreviewed and in C (U)
export const CAT_OPEN_OUT = 3; // disputed/unreviewed, in T, not in C
export const CAT_BROKEN_IN = 4; // broken, attempted by both models (K* ≥ 1 for both)
export const CAT_BROKEN_OUT = 5; // broken, not attempted by both

/** Per-task side counts, 6 per task: candidate (infra, pass+fail+infra, missing), then baseline. */
export const SIDE_WIDTH = 6;

export interface TaskTable {
  readonly n: number;
  readonly cat: Uint8Array;
  /**
   * dₜ for tasks attempted by both (V, U, broken-in), else NaN: its low end under
   * `infra_errors: bound` (SPEC §3.8), the high end in dHigh (the very array d when no task has a
   * lost result).
   */
  readonly d: Float64Array;
  readonly dHigh: Float64Array;
  /**
   * dₜ in units of 1/unit, where unit = lcm of every K* involved: exact integers, so the mirror's
   * running sums never drift (adding then removing 1/3 leaves exactly 0, as evaluate's fresh sum
   * does). unit = 1 (and du = d) when that lcm would be too large for exact sums. duHigh: the high
   * ends (the very array du when no task has a lost result).
   */
  readonly du: Float64Array;
  readonly duHigh: Float64Array;
  readonly unit: number;
  /** Cluster index (clustered SE only), −1 when the task has none or SE is paired. */
  readonly cluster: Int32Array;
  readonly clusterCount: number;
  readonly side: Float64Array;
}

/** Writes a model's (infra attempts, pass+fail+infra attempts, missing 0/1) at side[o..o+2]. */
function writeSide(side: Float64Array, o: number, c: AttemptCounts | undefined): void {
  if (c === undefined) {
    side[o + 2] = 1;
    return;
  }
  const pfi = c.pass + c.fail + c.infra_error;
  side[o] = c.infra_error;
  side[o + 1] = pfi;
  side[o + 2] = hasAttempt(c) ? 0 : 1;
}

/**
 * A key for a task's six side counts, equal exactly when the counts are: a number when the
 * counts are small enough to pack exactly, else a string.
 */
export function sideKeyFunction(table: TaskTable): (i: number) => number | string {
  const side = table.side;
  let max = 0;
  for (let j = 0; j < side.length; j++) if ((side[j] as number) > max) max = side[j] as number;
  const base = max + 1;
  if (base ** SIDE_WIDTH < 2 ** 52) {
    return (i) => {
      const o = i * SIDE_WIDTH;
      let k = 0;
      for (let j = 0; j < SIDE_WIDTH; j++) k = k * base + (side[o + j] as number);
      return k;
    };
  }
  return (i) => Array.from(side.subarray(i * SIDE_WIDTH, (i + 1) * SIDE_WIDTH)).join(",");
}

/** A task's d interval as a key of its kind: equal exactly when both ends are. */
export function dKey(table: TaskTable, i: number): string {
  const lo = table.d[i] as number;
  const hi = table.dHigh[i] as number;
  return lo === hi ? String(lo) : `${lo}:${hi}`;
}

export function buildTaskTable(dataset: Dataset, policy: Policy): TaskTable {
  const tasks = dataset.tasks;
  const n = tasks.length;
  const infra = policy.infra_errors;
  const clustered = policy.margin.standard_error === "clustered";
  const cat = new Uint8Array(n);
  const { low: d, high: dHigh } = taskIntervals(taskColumns(dataset), infra);
  const cluster = new Int32Array(n).fill(-1);
  const side = new Float64Array(n * SIDE_WIDTH);
  const clusterIndex = new Map<string, number>();
  const denominators = new Set<number>();
  for (let i = 0; i < n; i++) {
    const a = tasks.candidate(i);
    const b = tasks.baseline(i);
    const ka = effectiveAttempts(a, infra);
    const kb = effectiveAttempts(b, infra);
    const both = a !== undefined && b !== undefined && ka > 0 && kb > 0;
    if (both) {
      denominators.add(ka);
      denominators.add(kb);
      const name = clustered ? tasks.cluster(i) : undefined;
      if (name !== undefined) {
        let c = clusterIndex.get(name);
        if (c === undefined) {
          c = clusterIndex.size;
          clusterIndex.set(name, c);
        }
        cluster[i] = c;
      }
    }
    const validity = tasks.validity(i);
    if (validity === "broken") cat[i] = both ? CAT_BROKEN_IN : CAT_BROKEN_OUT;
    else if (validity === "valid") cat[i] = both ? CAT_VALID : CAT_VALID_OUT;
    else cat[i] = both ? CAT_OPEN : CAT_OPEN_OUT;
    writeSide(side, i * SIDE_WIDTH, a);
    writeSide(side, i * SIDE_WIDTH + 3, b);
  }
  // The common denominator of all scores, when sums of squares in its units stay exact.
  const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
  let unit = 1;
  for (const k of denominators) {
    unit = (unit / gcd(unit, k)) * k;
    if (unit > 1e6) break;
  }
  if (unit > 1e6 || n * unit * unit > 2 ** 52) unit = 1;
  const du = new Float64Array(n).fill(Number.NaN);
  const duHigh = dHigh === d ? du : new Float64Array(n).fill(Number.NaN);
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(d[i])) continue;
    const a = tasks.candidate(i) as AttemptCounts;
    const b = tasks.baseline(i) as AttemptCounts;
    const ua = unit / effectiveAttempts(a, infra);
    const ub = unit / effectiveAttempts(b, infra);
    // The low end counts the baseline's lost results as passes, the high end the candidate's.
    du[i] = unit === 1 ? (d[i] as number) : a.pass * ua - (b.pass + lostResults(b, infra)) * ub;
    if (duHigh !== du) {
      duHigh[i] = unit === 1 ? (dHigh[i] as number) : (a.pass + lostResults(a, infra)) * ua - b.pass * ub;
    }
  }
  return { n, cat, d, dHigh, du, duHigh, unit, cluster, clusterCount: clusterIndex.size, side };
}
