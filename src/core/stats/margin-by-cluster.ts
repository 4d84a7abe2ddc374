/**
 * Where the margin comes from (SPEC §3.6): the observed margin Δ̂ = Σ_V d / N_v split by the
 * tasks' `cluster` (a repository for SWE-bench). Each cluster's contribution Σ_{V∩g} d / N_v;
 * the contributions add up to Δ̂, and the tasks without a cluster form one row of their own.
 */
import { compareCodeUnits, type Dataset } from "../model.js";
import type { ClusterMarginRow, MarginByCluster } from "../verdict-types.js";
import { taskIntervals } from "./task-intervals.js";
import { taskColumns, VALID_CODE, type TaskColumns } from "./task-columns.js";
import type { InfraErrorsPolicy } from "./task-scores.js";

/**
 * A sum of d within this fraction of Σ|d| over the same tasks is 0: the d are fractions rounded to
 * binary floating point, so a sum that is 0 in exact arithmetic may come out as ±1e-17, which would
 * mark a cluster "worse" and make every share meaningless.
 */
export const ZERO_SUM_TOLERANCE = 1e-12;

function snapped(sum: number, absSum: number): number {
  return Math.abs(sum) <= ZERO_SUM_TOLERANCE * absSum ? 0 : sum;
}

/**
 * The sort key of a row: |contribution| to 12 significant digits, so that contributions equal in
 * exact arithmetic (whose floating-point sums differ in the last bits) tie, and the tie goes by
 * name. Rounding keeps the order a total order, as a tolerance in the comparison would not.
 */
export function clusterSortKey(row: ClusterMarginRow): number {
  return Number(Math.abs(row.contribution).toPrecision(12));
}

/** By |contribution| descending (clusterSortKey), then cluster name (code units), the tasks without a cluster last. */
export function compareClusterRows(a: ClusterMarginRow, b: ClusterMarginRow): number {
  const by = clusterSortKey(b) - clusterSortKey(a);
  if (by !== 0) return by;
  if (a.cluster === null || b.cluster === null) {
    return (a.cluster === null ? 1 : 0) - (b.cluster === null ? 1 : 0);
  }
  return compareCodeUnits(a.cluster, b.cluster);
}

/**
 * The margin by cluster over the common valid tasks V, or null when no task of V has a cluster or
 * Δ̂ is undefined (a task of V has a lost result, SPEC §3.8). Sums are taken in dataset order, so
 * the same dataset gives the same numbers.
 */
export function marginByCluster(
  dataset: Dataset,
  infra: InfraErrorsPolicy,
  columns: TaskColumns = taskColumns(dataset),
): MarginByCluster | null {
  const { low: d, high } = taskIntervals(columns, infra);
  const n = columns.validity.length;
  // Slot columns.clusterCount holds the tasks without a cluster.
  const slots = columns.clusterCount + 1;
  const sum = new Float64Array(slots);
  const absSum = new Float64Array(slots);
  const count = new Float64Array(slots);
  const firstTask = new Int32Array(slots).fill(-1);
  let nv = 0;
  let total = 0;
  let totalAbs = 0;
  for (let i = 0; i < n; i++) {
    const di = d[i] as number;
    // (NaN: not a task of C.)
    if (columns.validity[i] !== VALID_CODE || di !== di) continue;
    if (high[i] !== di) return null;
    const k = columns.cluster[i] as number;
    const slot = k < 0 ? columns.clusterCount : k;
    if (firstTask[slot] === -1) firstTask[slot] = i;
    sum[slot] = (sum[slot] as number) + di;
    absSum[slot] = (absSum[slot] as number) + Math.abs(di);
    count[slot] = (count[slot] as number) + 1;
    total += di;
    totalAbs += Math.abs(di);
    nv++;
  }
  const unclustered = count[columns.clusterCount] as number;
  if (nv === unclustered) return null;
  total = snapped(total, totalAbs);
  const rows: ClusterMarginRow[] = [];
  let clusters = 0;
  for (let slot = 0; slot < slots; slot++) {
    const tasks = count[slot] as number;
    if (tasks === 0) continue;
    const named = slot < columns.clusterCount;
    if (named) clusters++;
    const s = snapped(sum[slot] as number, absSum[slot] as number);
    rows.push({
      cluster: named ? (dataset.tasks.cluster(firstTask[slot] as number) ?? null) : null,
      tasks,
      margin: s / tasks,
      contribution: s / nv,
      share: total === 0 ? null : s / total,
      worse: s < 0,
    });
  }
  rows.sort(compareClusterRows);
  return { clusters, rows, unclustered_tasks: unclustered };
}
