/**
 * The comparison of SPEC §3, step by step as the spec takes it: the sets of §2 with each task's d
 * interval (comparison-sets.ts, task-intervals.ts: the one place the `infra_errors` mode enters),
 * the margin and its bounds (§3.1, margin-bounds.ts), run variance (§3.2, run-variance.ts), the
 * quantiles and the bounds over every resolution (§3.3–3.4, resolution-bounds.ts).
 */
import type { Dataset } from "../model.js";
import { comparisonSets } from "./comparison-sets.js";
import { marginBounds } from "./margin-bounds.js";
import type { MarginAnalysis, MarginOptions } from "./margin-types.js";
import { normalQuantile } from "./normal-quantile.js";
import { quantileFunction } from "./quantile.js";
import { resolutionBounds } from "./resolution-bounds.js";
import { runVariance } from "./run-variance.js";
import { taskColumns, type TaskColumns } from "./task-columns.js";
import { taskIntervals } from "./task-intervals.js";

export type { BoundKind, MarginAnalysis, MarginOptions } from "./margin-types.js";
export { taskDifferences, taskIntervals } from "./task-intervals.js";

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
  const settings = opts.margin;
  const sets = comparisonSets(columns, taskIntervals(columns, opts.infra));
  const mb = marginBounds(sets, columns, opts.infra, settings.validity_bound);
  const quantile = quantileFunction(settings);
  const rv = runVariance(sets, mb, settings, quantile);
  const rb = resolutionBounds(sets, mb, rv, settings, quantile);
  const { nv } = sets;
  const D = sets.openTask.length;
  const { margin, marginLower, marginUpper } = mb;
  return {
    universeTasks: sets.universe,
    brokenTasks: sets.broken,
    commonTasks: nv + D,
    commonValidTasks: nv,
    unresolvedTasks: D,
    disputedTasks: sets.disputed,
    unreviewedTasks: sets.unreviewed,
    disputedFraction: nv + D > 0 ? D / (nv + D) : null,
    margin,
    observedLow: mb.observedLow,
    observedHigh: mb.observedHigh,
    lostValidTasks: sets.validLost,
    lostOpenTasks: sets.openLost,
    marginLower,
    marginUpper,
    validitySensitivity: margin !== null && marginLower !== null ? margin - marginLower : null,
    validitySensitivityUpside: margin !== null && marginUpper !== null ? marginUpper - margin : null,
    seValid: rv.seValid,
    seLower: rb.seLower,
    seUpper: rb.seUpper,
    seRerun: rv.seRerun,
    nuValid: rv.nuValid,
    nuLower: rb.nuLower,
    nuUpper: rb.nuUpper,
    quantile: settings.quantile,
    qValid: rv.nuValid === null ? null : quantile(rv.nuValid),
    qLower: rb.qLower,
    qUpper: rb.qUpper,
    clusters: rv.clusters,
    largestClusterShare: rv.largestClusterShare,
    tasksWithoutCluster: settings.standard_error === "clustered" ? sets.withoutCluster : 0,
    sePairedValid: rv.sePairedValid,
    seCr2Valid: rv.seCr2Valid,
    z: normalQuantile(settings.confidence),
    lcb: rb.lcb,
    ucb: rb.ucb,
    marginAtLcb: rb.marginAtLcb,
    marginAtUcb: rb.marginAtUcb,
    lcbKind: rb.lcbKind,
    ucbKind: rb.ucbKind,
    lcbSet: rb.lcbSet,
    ucbSet: rb.ucbSet,
    unresolvedTaskIndices: sets.openTask,
    unresolvedLow: sets.openLow,
    unresolvedHigh: sets.openHigh,
    lowerSet: mb.lowerSet,
    upperSet: mb.upperSet,
  };
}
