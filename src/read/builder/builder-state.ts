/**
 * What a DatasetBuilder holds, shared by its parts: the tasks (the column store,
 * builder-columns.ts) and how a row finds its task, the strings kept once, the models seen and
 * the compared models' totals, what is held against the caps (InputLimits), and the problems
 * found so far. The labels (label-history.ts) and the row path (dataset-builder.ts) are the layers
 * built on it (one object: see label-history.ts); the Dataset made at the end (dataset-finish.ts)
 * works on it; nothing outside src/read/builder does.
 *
 * Sources (file, line) are packed into one safe integer: fileIndex * 2^32 + line.
 */

import type { InputProblem } from "../../core/errors.js";
import {
  compareCodeUnits,
  DEFAULT_BENCHMARK,
  type AttemptCounts,
  type ModelsMetrics,
} from "../../core/model.js";
import { quote } from "../../core/quote.js";
import { DEFAULT_INPUT_LIMITS, MAX_BENCHMARKS, MAX_METRICS, type InputLimits } from "../limits.js";
import {
  AttemptPool,
  F_BASELINE,
  F_CANDIDATE,
  F_LABEL0,
  F_RANKED,
  TaskColumns,
  TaskIndex,
} from "./builder-columns.js";
import { LINE_RADIX, small } from "./task-table.js";

/** Harness-kind entries: packed source * 2 + kind. */
export const KIND_ATTEMPTS = 0;
export const KIND_AGGREGATED = 1;

/** Keeps the first problems in full and counts the rest. */
export class ProblemList {
  readonly items: InputProblem[] = [];
  total = 0;

  add(p: InputProblem): void {
    this.total++;
    if (this.items.length < 20) this.items.push(p);
  }

  /** Adds another list's problems after these (as if each had been added here). */
  append(other: ProblemList): void {
    for (const p of other.items) this.add(p);
    this.total += other.total - other.items.length;
  }
}

/** The tasks of one dataset revision. */
export interface RevisionTasks {
  readonly name: string;
  /** Its index in BuilderState.revisionList (TaskColumns.revision). */
  readonly index: number;
}

export interface ModelState {
  readonly harnessRevisions: Set<string>;
  readonly datasetRevisions: Set<string>;
  duplicateRows: number;
  /** Attempts counted (pre-aggregated rows add their counts): kept a safe integer. */
  attempts: number;
  /** The harness revisions of its rows by their task's benchmark (an index into benchmarkNames). */
  readonly harnessByBenchmark: Map<number, Set<string>>;
  /** The harness and dataset revisions of the model's last row counted (already in the sets), and its task's benchmark. */
  lastHarness: string | undefined;
  lastBenchmark: number;
  lastRevision: RevisionTasks | undefined;
}

export function newModelState(): ModelState {
  return {
    harnessRevisions: new Set(),
    datasetRevisions: new Set(),
    duplicateRows: 0,
    attempts: 0,
    harnessByBenchmark: new Map(),
    lastHarness: undefined,
    lastBenchmark: -1,
    lastRevision: undefined,
  };
}

/**
 * The rank's models in one read (a K-model read, src/read/read-models.ts): each keeps its own
 * columns and totals exactly as the baseline and the candidate do, and every task one of them ran
 * is in the universe. Given ids (`--models`) are ranked in that order; without them (`every`)
 * each model is ranked from its first row on, in the order first seen. The counts and summaries
 * are filled by finish (dataset-finish.ts), by task of the Dataset's table.
 */
export class RankedModels {
  readonly ids: string[] = [];
  readonly byId = new Map<string, number>();
  readonly states: ModelState[] = [];
  /** counts[k][u]: ranked model k's attempts on the table's task u (after finish). */
  counts: (AttemptCounts | undefined)[][] = [];
  /** The ranked models' metrics by task of the table (after finish; undefined: none carries one). */
  metrics: ModelsMetrics | undefined = undefined;
  /** Every model of the export is ranked (no ids given). */
  readonly every: boolean;

  constructor(
    given: readonly string[] | null,
    /** The builder's columns: a ranked model's are added there. */
    private readonly cols: TaskColumns,
  ) {
    this.every = given === null;
    for (const id of given ?? []) this.add(id);
  }

  /** Ranks one more model; its index. */
  add(id: string): number {
    const k = this.ids.length;
    this.ids.push(id);
    this.byId.set(id, k);
    this.states.push(newModelState());
    this.cols.addRanked();
    return k;
  }
}

export interface ReviewFileState {
  rows: number;
  matched: number;
  readonly byRevision: Map<string, number>;
  /** Rows under revisions past MAX_REVISIONS_HELD. */
  otherRows: number;
}

export class BuilderState {
  /** dataset_revision → its index. */
  readonly revisions = new Map<string, RevisionTasks>();
  /** The same, by revision index. */
  readonly revisionList: RevisionTasks[] = [];
  readonly cols = new TaskColumns();
  /** Task numbers by (revision index, task_id). */
  index = new TaskIndex();
  /** Cluster and harness strings repeat across tasks: keep one copy of each. */
  private readonly strings = new Map<string, string>();
  /** The harness revision interned last (rows of a harness revision come in runs). */
  lastHarness: string | undefined = undefined;
  readonly models = new Set<string>();
  readonly baselineState = newModelState();
  readonly candidateState = newModelState();
  readonly lineProblems = new ProblemList();
  readonly limits: InputLimits;
  /** A cap was passed (reported): later lines are not held. */
  stopped = false;
  /**
   * This read is the rank's (ReadOptions.pairOfMany): the two models need not appear (the rank
   * checks its models against modelsPresent), and a reviews file that labels none of the read's
   * tasks is named in the Dataset, not refused (the rank refuses it in its own words).
   */
  pairOfMany = false;
  /** The rank's models when this is a K-model read (set before the first row), else undefined. */
  ranked: RankedModels | undefined = undefined;
  attemptIds = 0;
  /** Blocks of every AttemptIds of this builder (freed with it). */
  readonly attemptPool = new AttemptPool();
  /** Per reviews file (by file index): rows read, rows that labelled a compared task, rows by dataset revision. */
  readonly reviewFiles = new Map<number, ReviewFileState>();
  heldChars = 0;
  /** Metric names some compared (or ranked) model's attempt carries, by index (ModelColumns.metrics). */
  readonly metricNames: string[] = [];
  private readonly metricIndex = new Map<string, number>();
  /** Benchmark names by index (TaskColumns.benchmark); 0 is the default. */
  readonly benchmarkNames: string[] = [DEFAULT_BENCHMARK];
  private readonly benchmarkIndex = new Map<string, number>([[DEFAULT_BENCHMARK, 0]]);
  /** The benchmark a row named last, and its index (rows of one benchmark come in runs). */
  private lastBenchmark = DEFAULT_BENCHMARK;
  private lastBenchmarkIndex = 0;

  constructor(
    readonly baseline: string,
    readonly candidate: string,
    /** Display names of the input files, by file index. */
    readonly fileNames: readonly string[],
    limits: Partial<InputLimits> = {},
  ) {
    this.limits = { ...DEFAULT_INPUT_LIMITS, ...limits };
  }

  /** Reports a passed cap at `src` and stops holding what later lines bring. */
  capPassed(src: number, message: string): void {
    this.lineProblem(src, undefined, `${message}; the rest of the input is not read`);
    this.stopped = true;
  }

  /** After each line: reports when the text or attempt ids held have passed their caps. */
  checkHeld(src: number): void {
    if (this.stopped) return;
    if (this.heldChars > this.limits.maxHeldChars) {
      this.capPassed(
        src,
        `the input holds more than ${this.limits.maxHeldChars} characters of distinct ids, revisions, ` +
          `clusters, attempt ids, evidence, reviewers and notes (the limit, which bounds the memory used)`,
      );
    } else if (this.attemptIds > this.limits.maxAttemptIds) {
      this.capPassed(
        src,
        `${this.ranked === undefined ? "the baseline and the candidate" : "the ranked models"} have more than ` +
          `${this.limits.maxAttemptIds} distinct attempt ids ` +
          `(the limit, which bounds the memory used to fold repeated attempts); give such exports as ` +
          `pre-aggregated rows (passes, fails, infra_errors, missing)`,
      );
    }
  }

  /** An attempt id kept to recognise its repeats. */
  holdAttempt(attempt: string | number | undefined): string | number | undefined {
    if (attempt !== undefined) {
      this.attemptIds++;
      if (typeof attempt === "string") this.heldChars += attempt.length;
    }
    return attempt;
  }

  src(fileIndex: number, line: number): number {
    return fileIndex * LINE_RADIX + line;
  }

  where(src: number): string {
    const file = this.fileNames[Math.floor(src / LINE_RADIX)] ?? "?";
    return `${file}:${src % LINE_RADIX}`;
  }

  locationOf(src: number): { file: string; line: number } {
    return { file: this.fileNames[Math.floor(src / LINE_RADIX)] ?? "?", line: small(src % LINE_RADIX) };
  }

  /** A problem of a whole file (line undefined) or of one line, reported by the line streamer. */
  fileProblem(fileIndex: number, line: number | undefined, message: string): void {
    const file = this.fileNames[fileIndex] ?? "?";
    this.lineProblems.add({ location: line === undefined ? { file } : { file, line }, message });
  }

  lineProblem(src: number, field: string | undefined, message: string): void {
    const location = this.locationOf(src);
    this.lineProblems.add(field === undefined ? { location, message } : { location, field, message });
  }

  intern(value: string): string {
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    this.strings.set(value, value);
    this.heldChars += value.length;
    return value;
  }

  internHarness(value: string): string {
    let held = this.lastHarness;
    if (value !== held) {
      held = this.intern(value);
      this.lastHarness = held;
    }
    return held;
  }

  /** The index of metric `name`, held from now on; -1 when that passes MAX_METRICS (reported). */
  metricOf(name: string, src: number): number {
    const k = this.metricIndex.get(name);
    if (k !== undefined) return k;
    if (this.metricNames.length >= MAX_METRICS) {
      this.capPassed(
        src,
        `the compared models' attempts carry more than ${MAX_METRICS} distinct metric names (the limit, ` +
          `which bounds the memory a metric adds); the next is ${quote(name)}`,
      );
      return -1;
    }
    this.heldChars += name.length;
    this.metricIndex.set(name, this.metricNames.length);
    this.metricNames.push(name);
    return this.metricNames.length - 1;
  }

  /**
   * The index of benchmark `name` (undefined: the default), held from now on; -1 when that passes
   * MAX_BENCHMARKS (reported).
   */
  benchmarkOf(name: string | undefined, src: number): number {
    if (name === undefined) return 0;
    if (name === this.lastBenchmark) return this.lastBenchmarkIndex;
    let k = this.benchmarkIndex.get(name);
    if (k === undefined) {
      if (this.benchmarkNames.length >= MAX_BENCHMARKS) {
        this.capPassed(src, `the export names more than ${MAX_BENCHMARKS} distinct benchmarks (the limit)`);
        return -1;
      }
      const held = this.intern(name);
      k = this.benchmarkNames.length;
      this.benchmarkIndex.set(held, k);
      this.benchmarkNames.push(held);
    }
    this.lastBenchmark = name;
    this.lastBenchmarkIndex = k;
    return k;
  }

  /** The index of benchmark `name` if any row named it, else -1 (nothing is held). */
  knownBenchmark(name: string): number {
    return this.benchmarkIndex.get(name) ?? -1;
  }

  /** Where task i's first row is (the source of its first label: every row adds one), if known. */
  firstRowOf(i: number): string | undefined {
    return ((this.cols.flags[i] ?? 0) & F_LABEL0) === 0 ? undefined : this.where(this.cols.label0Src[i] ?? 0);
  }

  /** Task i's benchmark. */
  benchmarkOfTask(i: number): string {
    return this.benchmarkNames[this.cols.benchmark?.[i] ?? 0] ?? DEFAULT_BENCHMARK;
  }

  revisionOf(i: number): string {
    return this.revisionList[this.cols.revision[i] ?? 0]?.name ?? "";
  }

  /** Whether the reviews can matter: call after all results files. */
  inUniverse(i: number): boolean {
    return ((this.cols.flags[i] ?? 0) & (F_BASELINE | F_CANDIDATE | F_RANKED)) !== 0;
  }

  /** Every model_config seen, sorted. */
  modelsPresent(): string[] {
    return [...this.models].sort(compareCodeUnits);
  }
}
