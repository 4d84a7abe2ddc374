/**
 * Domain types shared by the reader, the statistics, the decision and the report.
 * SPEC §1.1 (export rows), §1.2 (reviews) and §2 (sets).
 */

export const VALIDITIES = ["unreviewed", "valid", "broken", "disputed"] as const;
export type Validity = (typeof VALIDITIES)[number];

/** The index of a validity in VALIDITIES (the readers' label columns store it as a small number). */
export function validityCode(v: Validity): number {
  return v === "unreviewed" ? 0 : v === "valid" ? 1 : v === "broken" ? 2 : 3;
}

export const RESULTS = ["pass", "fail", "infra_error", "missing"] as const;
export type AttemptResult = (typeof RESULTS)[number];

/** Counts of one model's attempts on one task, by result. */
export interface AttemptCounts {
  pass: number;
  fail: number;
  infra_error: number;
  missing: number;
}

/** Where a fact came from: a file and a 1-based line. */
export interface Source {
  readonly file: string;
  readonly line: number;
}

/** One validity label of a task at one review revision (kept as history, never overwritten). */
export interface ReviewEvent {
  readonly revision: number;
  readonly validity: Validity;
  readonly source: Source;
  readonly reviewer?: string;
  readonly note?: string;
  readonly evidence: readonly string[];
}

/**
 * Placeholder revisions. A harness revision that is `unknown` or begins with `unknown:` (the
 * letters in any case) is reserved to say "no revision is known": the importers write
 * `unknown:<kind>` when the source names no harness. A placeholder is a label, not a revision, so
 * it never satisfies "same harness revision" and fails "real harness revisions" (docs/spec.md §4.2
 * "Placeholder harness revisions").
 */
export const PLACEHOLDER_REVISION_PREFIX = "unknown:";

export function isPlaceholderRevision(revision: string): boolean {
  return /^unknown(?::|$)/i.test(revision);
}

/**
 * The benchmark of a task whose rows name none (docs/spec.md §1.1 `benchmark`): an export without
 * the field is one benchmark of this name.
 */
export const DEFAULT_BENCHMARK = "default";

/** A task is keyed by (dataset_revision, task_id). */
export interface TaskKey {
  readonly datasetRevision: string;
  readonly taskId: string;
}

/** Locale-independent string order (UTF-16 code units), so outputs do not depend on the machine's locale. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Everything the gate knows about one task after reading the export and the reviews. */
export interface TaskRecord extends TaskKey {
  /** Effective validity: the label at the highest review revision (SPEC §1.2). */
  readonly validity: Validity;
  readonly reviewRevision: number;
  /** Distinct (revision, label) events, ascending by revision then source; includes the effective one. */
  readonly history: readonly ReviewEvent[];
  /** Evidence paths/URLs from rows and reviews, de-duplicated, in first-seen order. */
  readonly evidence: readonly string[];
  /** `cluster` of the task's rows, when given (one value per task; a conflict is an input error). */
  readonly cluster?: string;
  /** `benchmark` of the task's rows when it is not DEFAULT_BENCHMARK (one per task, like cluster). */
  readonly benchmark?: string;
  /** Attempt counts of the baseline and the candidate; undefined when that model has no row. */
  readonly baseline?: AttemptCounts;
  readonly candidate?: AttemptCounts;
}

/** What the reader learned about one of the two compared models. */
export interface ModelSummary {
  readonly config: string;
  /** Sorted, distinct harness revisions of this model's rows. */
  readonly harnessRevisions: readonly string[];
  /** Sorted, distinct dataset revisions of this model's rows. */
  readonly datasetRevisions: readonly string[];
  /** Rows that repeated an attempt already seen with the same result (SPEC §1.1). */
  readonly duplicateRows: number;
  /**
   * The harness revisions of this model's rows by their task's benchmark (name → sorted, distinct);
   * only when its rows are in more than one benchmark (docs/spec.md §4.6: each benchmark's harness
   * checks look at its own rows).
   */
  readonly harnessByBenchmark?: Readonly<Record<string, readonly string[]>>;
}

export interface InputFileDigest {
  readonly path: string;
  readonly sha256: string;
  /** Which kind of input the file was given as. */
  readonly kind: "results" | "reviews";
}

/**
 * Labels that match no compared task (docs/spec.md §1.2 "Reviews"): rows of one reviews
 * file, or the export's labelled tasks of other models (`file` undefined), under dataset
 * revisions that no task of the baseline or the candidate has.
 */
export interface UnmatchedLabels {
  readonly file?: string;
  /** Review rows (a reviews file) or labelled tasks (the export) under those revisions. */
  readonly rows: number;
  /** All rows of the reviews file; undefined for the export. */
  readonly of: number | undefined;
  /** The revisions, sorted (a reviews file names at most 100; `moreRevisions` when it names more). */
  readonly revisions: readonly string[];
  readonly moreRevisions: boolean;
}

/**
 * The Dataset's tasks, read by index: TaskRecord objects cost four objects a task (the record,
 * its history array, an event, a source object), several times the task's numbers, all made at
 * the read's end whether or not anything asks for them. The reader's table
 * (src/read/builder/task-table.ts) holds the numbers in typed arrays and makes a record, a
 * history or a source only when asked; the statistics read the fields they need by index.
 * `recordTable` wraps records made elsewhere (tests, a view as of an earlier review). Every
 * method's answer is what `record(i)` holds.
 */
export interface TaskTable {
  readonly length: number;
  datasetRevision(i: number): string;
  taskId(i: number): string;
  validity(i: number): Validity;
  reviewRevision(i: number): number;
  cluster(i: number): string | undefined;
  /** The task's benchmark: DEFAULT_BENCHMARK when its rows name none (record(i).benchmark absent). */
  benchmark(i: number): string;
  baseline(i: number): AttemptCounts | undefined;
  candidate(i: number): AttemptCounts | undefined;
  evidence(i: number): readonly string[];
  /** history(i).length, without making the events. */
  labelCount(i: number): number;
  /** The revision of history(i)'s last event (the highest); -1 when it has none. */
  lastLabelRevision(i: number): number;
  /** history(i)[k].revision and .validity, without making the events. */
  eventRevision(i: number, k: number): number;
  eventValidity(i: number, k: number): Validity;
  /** history(i)[k].source's file and line, without making the event. */
  eventFile(i: number, k: number): string;
  eventLine(i: number, k: number): number;
  /** Made on each call by the reader's table (do not hold many): ascending by revision, then source. */
  history(i: number): readonly ReviewEvent[];
  /** Task i as one record (made on each call by the reader's table). */
  record(i: number): TaskRecord;
}

/** A TaskTable over records already made. */
class RecordTable implements TaskTable {
  constructor(private readonly records: readonly TaskRecord[]) {}

  get length(): number {
    return this.records.length;
  }

  record(i: number): TaskRecord {
    const t = this.records[i];
    if (t === undefined) throw new Error(`TaskTable: no task ${i} (of ${this.records.length})`);
    return t;
  }

  datasetRevision(i: number): string {
    return this.record(i).datasetRevision;
  }
  taskId(i: number): string {
    return this.record(i).taskId;
  }
  validity(i: number): Validity {
    return this.record(i).validity;
  }
  reviewRevision(i: number): number {
    return this.record(i).reviewRevision;
  }
  cluster(i: number): string | undefined {
    return this.record(i).cluster;
  }
  benchmark(i: number): string {
    return this.record(i).benchmark ?? DEFAULT_BENCHMARK;
  }
  baseline(i: number): AttemptCounts | undefined {
    return this.record(i).baseline;
  }
  candidate(i: number): AttemptCounts | undefined {
    return this.record(i).candidate;
  }
  evidence(i: number): readonly string[] {
    return this.record(i).evidence;
  }
  labelCount(i: number): number {
    return this.record(i).history.length;
  }
  lastLabelRevision(i: number): number {
    const h = this.record(i).history;
    return h[h.length - 1]?.revision ?? -1;
  }
  history(i: number): readonly ReviewEvent[] {
    return this.record(i).history;
  }
  eventRevision(i: number, k: number): number {
    return eventOf(this.record(i), i, k).revision;
  }
  eventValidity(i: number, k: number): Validity {
    return eventOf(this.record(i), i, k).validity;
  }
  eventFile(i: number, k: number): string {
    return eventOf(this.record(i), i, k).source.file;
  }
  eventLine(i: number, k: number): number {
    return eventOf(this.record(i), i, k).source.line;
  }
}

/** Event k of task i's record (`i` only names the task in the error). */
function eventOf(record: TaskRecord, i: number, k: number): ReviewEvent {
  const e = record.history[k];
  if (e === undefined) throw new Error(`TaskTable: task ${i} has no event ${k}`);
  return e;
}

/** Records as a TaskTable (they are not copied: never modify them). */
export function recordTable(records: readonly TaskRecord[]): TaskTable {
  return new RecordTable(records);
}

/** A table with some tasks' records replaced (task index → record); the others read through. */
class OverlayTable implements TaskTable {
  constructor(
    private readonly base: TaskTable,
    private readonly replaced: ReadonlyMap<number, TaskRecord>,
  ) {}

  get length(): number {
    return this.base.length;
  }

  record(i: number): TaskRecord {
    return this.replaced.get(i) ?? this.base.record(i);
  }

  datasetRevision(i: number): string {
    return this.replaced.get(i)?.datasetRevision ?? this.base.datasetRevision(i);
  }
  taskId(i: number): string {
    return this.replaced.get(i)?.taskId ?? this.base.taskId(i);
  }
  validity(i: number): Validity {
    return this.replaced.get(i)?.validity ?? this.base.validity(i);
  }
  reviewRevision(i: number): number {
    return this.replaced.get(i)?.reviewRevision ?? this.base.reviewRevision(i);
  }
  cluster(i: number): string | undefined {
    const r = this.replaced.get(i);
    return r === undefined ? this.base.cluster(i) : r.cluster;
  }
  benchmark(i: number): string {
    const r = this.replaced.get(i);
    return r === undefined ? this.base.benchmark(i) : (r.benchmark ?? DEFAULT_BENCHMARK);
  }
  baseline(i: number): AttemptCounts | undefined {
    const r = this.replaced.get(i);
    return r === undefined ? this.base.baseline(i) : r.baseline;
  }
  candidate(i: number): AttemptCounts | undefined {
    const r = this.replaced.get(i);
    return r === undefined ? this.base.candidate(i) : r.candidate;
  }
  evidence(i: number): readonly string[] {
    return this.replaced.get(i)?.evidence ?? this.base.evidence(i);
  }
  labelCount(i: number): number {
    return this.replaced.get(i)?.history.length ?? this.base.labelCount(i);
  }
  lastLabelRevision(i: number): number {
    const r = this.replaced.get(i);
    if (r === undefined) return this.base.lastLabelRevision(i);
    return r.history[r.history.length - 1]?.revision ?? -1;
  }
  history(i: number): readonly ReviewEvent[] {
    return this.replaced.get(i)?.history ?? this.base.history(i);
  }
  eventRevision(i: number, k: number): number {
    const r = this.replaced.get(i);
    return r === undefined ? this.base.eventRevision(i, k) : eventOf(r, i, k).revision;
  }
  eventValidity(i: number, k: number): Validity {
    const r = this.replaced.get(i);
    return r === undefined ? this.base.eventValidity(i, k) : eventOf(r, i, k).validity;
  }
  eventFile(i: number, k: number): string {
    const r = this.replaced.get(i);
    return r === undefined ? this.base.eventFile(i, k) : eventOf(r, i, k).source.file;
  }
  eventLine(i: number, k: number): number {
    const r = this.replaced.get(i);
    return r === undefined ? this.base.eventLine(i, k) : eventOf(r, i, k).source.line;
  }
}

/**
 * The same tasks with some records replaced (e.g. relabelled): only those are held, so a view of a
 * 10⁶-task Dataset that changes a few labels costs what it changes.
 */
export function withReplacedRecords(table: TaskTable, replaced: ReadonlyMap<number, TaskRecord>): TaskTable {
  return replaced.size === 0 ? table : new OverlayTable(table, replaced);
}

/** Every task of a table as a record, in table order. */
export function tableRecords(table: TaskTable): TaskRecord[] {
  const out: TaskRecord[] = [];
  for (let i = 0; i < table.length; i++) out.push(table.record(i));
  return out;
}

/**
 * One model's figures of one metric (docs/spec.md §1.1 `metrics`), by task index of the Dataset's
 * table: what a guardrail averages (the mean of task i is sum[i] / count[i] when count[i] > 0).
 */
export interface MetricColumn {
  /**
   * The metric summed over the model's attempts on task i that carry it (0 when none does): the
   * exact sum of the values the rows give, rounded once, so it does not depend on row order.
   */
  readonly sum: Float64Array;
  /** How many of the model's attempts on task i carry the metric (an integer; 0: none). */
  readonly count: Float64Array;
}

/**
 * The metrics of the compared models' attempts. Only made when some attempt of the baseline or
 * the candidate carries one: an export without metrics costs nothing here.
 */
export interface DatasetMetrics {
  /** Every metric name some attempt of the baseline or the candidate carries, sorted (code units). */
  readonly names: readonly string[];
  /** baseline[k]: metric names[k] of the baseline; undefined when none of its attempts carries it. */
  readonly baseline: readonly (MetricColumn | undefined)[];
  /** candidate[k]: the same for the candidate. */
  readonly candidate: readonly (MetricColumn | undefined)[];
}

/** The metrics of several models (the rank's), by task of one table. */
export interface ModelsMetrics {
  /** Every metric name some attempt of one of the models carries, sorted (code units). */
  readonly names: readonly string[];
  /** byModel[k][j]: model k's column of metric names[j]; undefined when none of its attempts carries it. */
  readonly byModel: readonly (readonly (MetricColumn | undefined)[])[];
}

/** The reader's output: the whole input reduced to per-(model, task) counts. */
export interface Dataset {
  /** Tasks that appear for the baseline or the candidate, sorted by (dataset_revision, task_id). Broken included. */
  readonly tasks: TaskTable;
  readonly baseline: ModelSummary;
  readonly candidate: ModelSummary;
  /** Every model_config seen in the export, sorted. */
  readonly modelsPresent: readonly string[];
  /** Results files then reviews files, in the order given. */
  readonly inputs: readonly InputFileDigest[];
  /** Rows read in all (non-blank lines), for the report. */
  readonly rowsRead: number;
  /** Sorted, distinct review revisions seen (export and reviews). */
  readonly reviewRevisions: readonly number[];
  /**
   * The metrics the compared models' attempts carry (docs/spec.md §1.1 `metrics`); absent when
   * none carries one.
   */
  readonly metrics?: DatasetMetrics;
  /**
   * The benchmarks of the tasks (tasks.benchmark(i)), sorted and distinct; absent when every task
   * is in DEFAULT_BENCHMARK (then `datasetBenchmarks` gives [DEFAULT_BENCHMARK]).
   */
  readonly benchmarks?: readonly string[];
  /** Present when some labels match no compared task (a headline warning). */
  readonly unmatchedLabels?: readonly UnmatchedLabels[];
  /**
   * Revisions only one model has that are the sha256 of their own task ids, as an importer
   * writes them for a file read without one --tasks list (the reader hashes; the core does not).
   */
  readonly idDerivedRevisions?: readonly string[];
  /**
   * Only for one of the rank's reads (ReadOptions.pairOfMany): the reviews files that label no
   * task of this read's two models (evaluate's reader refuses such a file instead).
   */
  readonly unmatchedReviewFiles?: readonly string[];
}

/** The benchmarks of a Dataset's tasks, sorted (docs/spec.md §1.1 `benchmark`). */
export function datasetBenchmarks(dataset: Pick<Dataset, "benchmarks">): readonly string[] {
  return dataset.benchmarks ?? DEFAULT_BENCHMARK_LIST;
}

const DEFAULT_BENCHMARK_LIST: readonly string[] = Object.freeze([DEFAULT_BENCHMARK]);
