/**
 * One benchmark's tasks as a Dataset of their own (docs/spec.md §4.6): the gate runs its whole
 * comparison on it, so tasks of different benchmarks never mix. The tasks are a view by index
 * (nothing is copied but the index list and, when the export has metrics, their columns).
 *
 * What is per benchmark and what is the export's: the tasks, their labels, the dataset
 * revisions each model ran (from the tasks it has rows on), the harness revisions of its rows (the
 * reader keeps them by benchmark) and the review revisions are the benchmark's; duplicate rows,
 * rows read, input files and the labels that match no task are the export's.
 */
import {
  compareCodeUnits,
  DEFAULT_BENCHMARK,
  type AttemptCounts,
  type Dataset,
  type DatasetMetrics,
  type MetricColumn,
  type ModelSummary,
  type ReviewEvent,
  type TaskRecord,
  type TaskTable,
  type Validity,
} from "../model.js";

/** The tasks of `base` at `indices` (ascending), read through. */
export function subsetTable(base: TaskTable, indices: Uint32Array): TaskTable {
  return new SubsetTable(base, indices);
}

class SubsetTable implements TaskTable {
  constructor(
    private readonly base: TaskTable,
    private readonly indices: Uint32Array,
  ) {}

  get length(): number {
    return this.indices.length;
  }
  private at(i: number): number {
    const j = this.indices[i];
    if (j === undefined) throw new Error(`TaskTable: no task ${i} (of ${this.indices.length})`);
    return j;
  }
  datasetRevision(i: number): string {
    return this.base.datasetRevision(this.at(i));
  }
  taskId(i: number): string {
    return this.base.taskId(this.at(i));
  }
  validity(i: number): Validity {
    return this.base.validity(this.at(i));
  }
  reviewRevision(i: number): number {
    return this.base.reviewRevision(this.at(i));
  }
  cluster(i: number): string | undefined {
    return this.base.cluster(this.at(i));
  }
  benchmark(i: number): string {
    return this.base.benchmark(this.at(i));
  }
  baseline(i: number): AttemptCounts | undefined {
    return this.base.baseline(this.at(i));
  }
  candidate(i: number): AttemptCounts | undefined {
    return this.base.candidate(this.at(i));
  }
  evidence(i: number): readonly string[] {
    return this.base.evidence(this.at(i));
  }
  labelCount(i: number): number {
    return this.base.labelCount(this.at(i));
  }
  lastLabelRevision(i: number): number {
    return this.base.lastLabelRevision(this.at(i));
  }
  eventRevision(i: number, k: number): number {
    return this.base.eventRevision(this.at(i), k);
  }
  eventValidity(i: number, k: number): Validity {
    return this.base.eventValidity(this.at(i), k);
  }
  eventFile(i: number, k: number): string {
    return this.base.eventFile(this.at(i), k);
  }
  eventLine(i: number, k: number): number {
    return this.base.eventLine(this.at(i), k);
  }
  history(i: number): readonly ReviewEvent[] {
    return this.base.history(this.at(i));
  }
  record(i: number): TaskRecord {
    return this.base.record(this.at(i));
  }
}

export function subsetColumn(c: MetricColumn | undefined, indices: Uint32Array): MetricColumn | undefined {
  if (c === undefined) return undefined;
  const sum = new Float64Array(indices.length);
  const count = new Float64Array(indices.length);
  indices.forEach((j, i) => {
    sum[i] = c.sum[j] as number;
    count[i] = c.count[j] as number;
  });
  return { sum, count };
}

function subsetMetrics(m: DatasetMetrics, indices: Uint32Array): DatasetMetrics {
  return {
    names: m.names,
    baseline: m.baseline.map((c) => subsetColumn(c, indices)),
    candidate: m.candidate.map((c) => subsetColumn(c, indices)),
  };
}

function sorted(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareCodeUnits);
}

/** The model's summary on one benchmark: the dataset revisions of its tasks here, its rows' harness revisions here. */
function summaryOn(
  s: ModelSummary,
  tasks: TaskTable,
  side: "baseline" | "candidate",
  name: string,
): ModelSummary {
  const revisions: string[] = [];
  for (let i = 0; i < tasks.length; i++)
    if (tasks[side](i) !== undefined) revisions.push(tasks.datasetRevision(i));
  const rest: ModelSummary = { ...s };
  delete (rest as { harnessByBenchmark?: unknown }).harnessByBenchmark;
  const harness = s.harnessByBenchmark?.[name];
  return {
    ...rest,
    datasetRevisions: sorted(revisions),
    ...(harness !== undefined ? { harnessRevisions: harness } : {}),
  };
}

/** The task indices of each benchmark of the Dataset (or the rank's ModelsDataset), by name. */
export function benchmarkIndices(dataset: { readonly tasks: TaskTable }): Map<string, Uint32Array> {
  const lists = new Map<string, number[]>();
  const tasks = dataset.tasks;
  for (let i = 0; i < tasks.length; i++) {
    const name = tasks.benchmark(i);
    const list = lists.get(name);
    if (list === undefined) lists.set(name, [i]);
    else list.push(i);
  }
  return new Map([...lists].map(([name, list]) => [name, Uint32Array.from(list)]));
}

/** The Dataset of the tasks at `indices` (one benchmark's, ascending), named `name`. */
export function benchmarkDataset(dataset: Dataset, name: string, indices: Uint32Array): Dataset {
  const tasks = new SubsetTable(dataset.tasks, indices);
  const reviewRevisions = new Set<number>();
  for (let i = 0; i < tasks.length; i++) {
    for (let k = 0; k < tasks.labelCount(i); k++) reviewRevisions.add(tasks.eventRevision(i, k));
  }
  const metrics = dataset.metrics;
  const rest: Dataset = { ...dataset };
  delete (rest as { metrics?: unknown }).metrics;
  delete (rest as { benchmarks?: unknown }).benchmarks;
  return {
    ...rest,
    tasks,
    baseline: summaryOn(dataset.baseline, tasks, "baseline", name),
    candidate: summaryOn(dataset.candidate, tasks, "candidate", name),
    reviewRevisions: [...reviewRevisions].sort((a, b) => a - b),
    ...(metrics !== undefined ? { metrics: subsetMetrics(metrics, indices) } : {}),
    ...(name !== DEFAULT_BENCHMARK ? { benchmarks: [name] } : {}),
  };
}
