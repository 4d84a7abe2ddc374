/**
 * The Dataset's tasks as the reader hands them on: columns by task index in dataset order, read
 * through the TaskTable methods (model.ts), with records, history events and their `{file, line}`
 * sources made only when asked: a TaskRecord a task (record, history array, event, source) would
 * cost several times the numbers and pointers a task costs here, and be made for every task at
 * the read's end whether or not anything asks for it.
 *
 * The task ids, clusters and evidence lists are the DatasetBuilder's own strings (never modified
 * once it has finished), read through `order` (task index → the builder's task number); a task's
 * evidence is one packed string (packed-evidence.ts), unpacked when asked. Each task's label
 * events are one run of the event columns, ascending by revision then source, as `history` lists
 * them; an event's evidence is the task's list unless `eventEvidence` holds another.
 */
import type {
  AttemptCounts,
  ReviewEvent,
  Source,
  TaskRecord,
  TaskTable,
  Validity,
} from "../../core/model.js";
import { DEFAULT_BENCHMARK, VALIDITIES } from "../../core/model.js";
import { unpack } from "../rows/packed-evidence.js";
import type { EvidenceArena, ListHandle } from "../rows/evidence-arena.js";

/** Packed sources: fileIndex * LINE_RADIX + line (as the builder packs them). */
export const LINE_RADIX = 2 ** 32;

/** Who gave an event and why, when a review said (most events have neither). */
export interface EventMeta {
  readonly reviewer: string | undefined;
  readonly note: string | undefined;
}

/** The evidence of a task or event without any (shared: records are never modified). */
export const NO_EVIDENCE: readonly string[] = Object.freeze([]);

/**
 * A number read from a Float64Array, as a small integer when it is one. A record's field that
 * first receives a boxed double (what a Float64Array read gives before the code is optimised)
 * boxes every later value too: 16 bytes more a field of every record.
 */
export function small(x: number): number {
  const k = x | 0;
  return k === x ? k : x;
}

/** The builder's columns the table reads (shared, by the builder's task number). */
export interface BuilderStrings {
  readonly taskIds: readonly string[];
  readonly clusters: readonly (string | undefined)[];
  /** Packed (packed-evidence.ts): a string or its handle in `arena`; undefined: none. */
  readonly evidence: readonly (string | ListHandle | undefined)[];
  readonly arena: EvidenceArena;
}

/**
 * Filled by the DatasetBuilder (`setTask` and `setEvent`, in any order: it fills in its own task
 * order, reading its columns in order), then read. Each task's run of events is known beforehand.
 */
export class ColumnTaskTable implements TaskTable {
  readonly length: number;
  /** Task index → the builder's task number (for its strings). */
  private readonly order: Uint32Array;
  /** Task index → its dataset revision's index in `revisionNames`. */
  private readonly revisionIndex: Uint32Array;
  private readonly validityCode: Uint8Array;
  private readonly reviewRevisions: Float64Array;
  private readonly baselines: (AttemptCounts | undefined)[];
  private readonly candidates: (AttemptCounts | undefined)[];
  /** Task i's events are eventStart[i] … eventStart[i + 1] - 1. */
  private readonly eventStart: Uint32Array;
  private readonly eventRevisions: Float64Array;
  private readonly eventValidities: Uint8Array;
  private readonly eventSource: Float64Array;
  /** Event index → its evidence when it is not the task's list. */
  private readonly eventEvidence = new Map<number, readonly string[]>();
  /** Event index → reviewer and note, when either was given. */
  private readonly eventMeta = new Map<number, EventMeta>();
  private filled = 0;
  /** Task index → its benchmark's index in benchmarkNames; undefined: every task in the default. */
  private benchmarkColumn: Uint16Array | undefined;
  private benchmarkNames: readonly string[] = [];

  constructor(
    size: number,
    /** Task i's events will be eventStart[i] … eventStart[i + 1] - 1 (size + 1 entries; kept). */
    eventStart: Uint32Array,
    private readonly strings: BuilderStrings,
    private readonly revisionNames: readonly string[],
    private readonly files: readonly string[],
  ) {
    this.length = size;
    this.order = new Uint32Array(size);
    this.revisionIndex = new Uint32Array(size);
    this.validityCode = new Uint8Array(size);
    this.reviewRevisions = new Float64Array(size);
    this.baselines = new Array<AttemptCounts | undefined>(size);
    this.candidates = new Array<AttemptCounts | undefined>(size);
    if (eventStart.length !== size + 1)
      throw new Error("ColumnTaskTable: eventStart is not one a task and one more");
    this.eventStart = eventStart;
    const events = eventStart[size] ?? 0;
    this.eventRevisions = new Float64Array(events);
    this.eventValidities = new Uint8Array(events);
    this.eventSource = new Float64Array(events);
  }

  /** Task i (in dataset order); its events go to eventStart[i] … with `setEvent`. */
  setTask(
    i: number,
    builderTask: number,
    revisionIndex: number,
    validityCode: number,
    reviewRevision: number,
    baseline: AttemptCounts | undefined,
    candidate: AttemptCounts | undefined,
  ): void {
    this.filled++;
    this.order[i] = builderTask;
    this.revisionIndex[i] = revisionIndex;
    this.validityCode[i] = validityCode;
    this.reviewRevisions[i] = reviewRevision;
    this.baselines[i] = baseline;
    this.candidates[i] = candidate;
  }

  /** Event e (a task's events in history order). `evidence`: its list when not the task's. */
  setEvent(
    e: number,
    revision: number,
    validityCode: number,
    source: number,
    evidence: readonly string[] | undefined,
    meta: EventMeta | undefined,
  ): void {
    this.eventRevisions[e] = revision;
    this.eventValidities[e] = validityCode;
    this.eventSource[e] = source;
    if (evidence !== undefined) this.eventEvidence.set(e, evidence);
    if (meta !== undefined) this.eventMeta.set(e, meta);
  }

  /** The tasks' benchmarks (task index → index into `names`), when some are not the default. */
  setBenchmarks(column: Uint16Array, names: readonly string[]): void {
    if (column.length !== this.length)
      throw new Error("ColumnTaskTable: a benchmark column of another length");
    this.benchmarkColumn = column;
    this.benchmarkNames = names;
  }

  /** Whether every task was added. */
  complete(): boolean {
    return this.filled === this.length;
  }

  private at(i: number): number {
    if (!(i >= 0 && i < this.filled)) throw new Error(`TaskTable: no task ${i} (of ${this.filled})`);
    return this.order[i] as number;
  }

  datasetRevision(i: number): string {
    this.at(i);
    return this.revisionNames[this.revisionIndex[i] as number] ?? "";
  }
  taskId(i: number): string {
    return this.strings.taskIds[this.at(i)] ?? "";
  }
  validity(i: number): Validity {
    this.at(i);
    return VALIDITIES[this.validityCode[i] as number] ?? "unreviewed";
  }
  reviewRevision(i: number): number {
    this.at(i);
    return small(this.reviewRevisions[i] as number);
  }
  cluster(i: number): string | undefined {
    return this.strings.clusters[this.at(i)];
  }
  benchmark(i: number): string {
    this.at(i);
    const column = this.benchmarkColumn;
    return column === undefined
      ? DEFAULT_BENCHMARK
      : (this.benchmarkNames[column[i] as number] ?? DEFAULT_BENCHMARK);
  }
  baseline(i: number): AttemptCounts | undefined {
    this.at(i);
    return this.baselines[i];
  }
  candidate(i: number): AttemptCounts | undefined {
    this.at(i);
    return this.candidates[i];
  }
  /** (A new array on each call.) */
  evidence(i: number): readonly string[] {
    return unpack(this.strings.arena.textOf(this.strings.evidence[this.at(i)])) ?? NO_EVIDENCE;
  }
  labelCount(i: number): number {
    this.at(i);
    return (this.eventStart[i + 1] as number) - (this.eventStart[i] as number);
  }
  lastLabelRevision(i: number): number {
    this.at(i);
    const end = this.eventStart[i + 1] as number;
    return end > (this.eventStart[i] as number) ? small(this.eventRevisions[end - 1] as number) : -1;
  }

  eventRevision(i: number, k: number): number {
    return small(this.eventRevisions[this.eventAt(i, k)] as number);
  }
  eventValidity(i: number, k: number): Validity {
    return VALIDITIES[this.eventValidities[this.eventAt(i, k)] as number] ?? "unreviewed";
  }
  eventFile(i: number, k: number): string {
    return this.files[Math.floor((this.eventSource[this.eventAt(i, k)] as number) / LINE_RADIX)] ?? "?";
  }
  eventLine(i: number, k: number): number {
    return small((this.eventSource[this.eventAt(i, k)] as number) % LINE_RADIX);
  }
  private eventAt(i: number, k: number): number {
    this.at(i);
    const e = (this.eventStart[i] as number) + k;
    if (!(k >= 0 && e < (this.eventStart[i + 1] as number)))
      throw new Error(`TaskTable: task ${i} has no event ${k}`);
    return e;
  }

  history(i: number): readonly ReviewEvent[] {
    const taskEvidence = this.evidence(i);
    const out: ReviewEvent[] = [];
    for (let e = this.eventStart[i] as number; e < (this.eventStart[i + 1] as number); e++) {
      out.push(
        reviewEvent(
          small(this.eventRevisions[e] as number),
          VALIDITIES[this.eventValidities[e] as number] ?? "unreviewed",
          this.sourceOf(this.eventSource[e] as number),
          this.eventEvidence.get(e) ?? taskEvidence,
          this.eventMeta.get(e),
        ),
      );
    }
    return out;
  }

  private sourceOf(src: number): Source {
    return { file: this.files[Math.floor(src / LINE_RADIX)] ?? "?", line: small(src % LINE_RADIX) };
  }

  record(i: number): TaskRecord {
    const history = this.history(i);
    const datasetRevision = this.datasetRevision(i);
    const taskId = this.taskId(i);
    const validity = this.validity(i);
    const reviewRevision = this.reviewRevision(i);
    const evidence = this.evidence(i);
    const cluster = this.cluster(i);
    const benchmark = this.benchmark(i);
    const b = this.baselines[i];
    const c = this.candidates[i];
    // The keys in the order the reader always gave them.
    const out: {
      -readonly [K in keyof TaskRecord]: TaskRecord[K];
    } = { datasetRevision, taskId, validity, reviewRevision, history, evidence };
    if (cluster !== undefined) out.cluster = cluster;
    if (benchmark !== DEFAULT_BENCHMARK) out.benchmark = benchmark;
    if (b !== undefined) out.baseline = b;
    if (c !== undefined) out.candidate = c;
    return out;
  }
}

/** A history event (reviewer and note only when given, after the evidence). */
function reviewEvent(
  revision: number,
  validity: Validity,
  source: Source,
  evidence: readonly string[],
  meta: EventMeta | undefined,
): ReviewEvent {
  if (meta === undefined || (meta.reviewer === undefined && meta.note === undefined)) {
    return { revision, validity, source, evidence };
  }
  const event: {
    -readonly [K in keyof ReviewEvent]: ReviewEvent[K];
  } = { revision, validity, source, evidence };
  if (meta.reviewer !== undefined) event.reviewer = meta.reviewer;
  if (meta.note !== undefined) event.note = meta.note;
  return event;
}
