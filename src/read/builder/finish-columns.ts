/**
 * What the builder's last step (dataset-finish.ts) puts beside the task table when an export has
 * it: the metrics of the compared (or ranked) models and the tasks' benchmarks, in the table's
 * order. An export without them costs nothing here: no column is made.
 */

import {
  compareCodeUnits,
  type DatasetMetrics,
  type MetricColumn,
  type ModelsMetrics,
} from "../../core/model.js";
import type { ModelColumns } from "./builder-columns.js";
import type { BuilderState } from "./builder-state.js";

/**
 * The metrics of `models` by task of the table (`universe`: the builder's task numbers in table
 * order), the names any of them carries; undefined when none carries a metric.
 */
export function metricsOf(
  b: BuilderState,
  models: readonly ModelColumns[],
  universe: Uint32Array,
): ModelsMetrics | undefined {
  const carried = b.metricNames
    .map((name, j) => ({ name, j }))
    .filter(({ j }) => models.some((m) => m.metrics[j] !== undefined))
    .sort((x, y) => compareCodeUnits(x.name, y.name));
  if (carried.length === 0) return undefined;
  return {
    names: carried.map((c) => c.name),
    byModel: models.map((m) => carried.map(({ j }) => column(m, j, universe))),
  };
}

/** A model's column of metric j in table order. */
function column(m: ModelColumns, j: number, universe: Uint32Array): MetricColumn | undefined {
  const sums = m.metrics[j];
  if (sums === undefined) return undefined;
  const sum = new Float64Array(universe.length);
  const count = new Float64Array(universe.length);
  for (let u = 0; u < universe.length; u++) {
    const i = universe[u] ?? 0;
    const n = sums.count[i] ?? 0;
    if (n === 0) continue;
    count[u] = n;
    sum[u] = sums.rounded(i);
  }
  return { sum, count };
}

/** The compared pair's metrics as the Dataset holds them; undefined when neither carries one. */
export function datasetMetrics(b: BuilderState, universe: Uint32Array): DatasetMetrics | undefined {
  const both = metricsOf(b, [b.cols.baseline, b.cols.candidate], universe);
  if (both === undefined) return undefined;
  return { names: both.names, baseline: both.byModel[0] ?? [], candidate: both.byModel[1] ?? [] };
}

/** The tasks' benchmarks in table order, and their sorted names; undefined when all are the default. */
export interface TableBenchmarks {
  /** The benchmark of task u, an index into `names`. */
  readonly column: Uint16Array;
  /** Every benchmark of the table's tasks, sorted (code units). */
  readonly names: readonly string[];
}

export function tableBenchmarks(b: BuilderState, universe: Uint32Array): TableBenchmarks | undefined {
  const held = b.cols.benchmark;
  if (held === undefined) return undefined;
  const present = new Uint8Array(b.benchmarkNames.length);
  let other = false;
  for (let u = 0; u < universe.length; u++) {
    const k = held[universe[u] ?? 0] ?? 0;
    present[k] = 1;
    if (k !== 0) other = true;
  }
  if (!other) return undefined;
  const kept = b.benchmarkNames
    .map((name, k) => ({ name, k }))
    .filter(({ k }) => present[k] === 1)
    .sort((x, y) => compareCodeUnits(x.name, y.name));
  const names = kept.map((x) => x.name);
  const rank = new Uint16Array(b.benchmarkNames.length);
  kept.forEach(({ k }, r) => (rank[k] = r));
  const column = new Uint16Array(universe.length);
  for (let u = 0; u < universe.length; u++) column[u] = rank[held[universe[u] ?? 0] ?? 0] ?? 0;
  return { column, names };
}
