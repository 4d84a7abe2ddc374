/**
 * How a parse worker hands checked export rows back to the main thread (see parse-pool.ts).
 *
 * Posting parsed objects between threads would cost as much as parsing them again, so a batch of
 * lines comes back as numbers plus strings: one fixed-size record of a Float64Array per line, and
 * every string of a record as a reference. The ids, revisions, clusters and evidence that repeat
 * from row to row are interned in a table that both sides keep (the worker sends each new entry
 * once, in the batch that first uses it); anything else (attempt ids, messages, strings past the
 * table's cap) goes in the batch's own list. The main thread then gets the same string object
 * for every row of a task, which also makes its Map lookups and comparisons cheap.
 *
 * Every number of a row is a safe integer (checked by checkExportRow), so a Float64Array holds it
 * exactly; -0 survives too.
 */

import { VALIDITIES, type Validity } from "../model.js";
import { LINE_ASCII, LINE_PLAIN } from "./line-flags.js";
import { checkExportRow, emptyExportRow, LineIssues, parseObject, type ExportRow } from "./rows.js";
import { RowScanner } from "./scan-row.js";

/** Record fields, by offset. A problem record uses only TAG, FIELD and MESSAGE. */
const TAG = 0;
const TASK = 1;
const DATASET = 2;
const HARNESS = 3;
const MODEL = 4;
const VALIDITY = 5;
const REVIEW_REVISION = 6;
const RESULT = 7;
const PASSES = 8;
const FAILS = 9;
const INFRA_ERRORS = 10;
const MISSING = 11;
const ATTEMPT_KIND = 12;
const ATTEMPT = 13;
const CLUSTER = 14;
/** Evidence: -1 for none, else how many references follow in the batch's evidence list. */
const EVIDENCE_COUNT = 15;
const EVIDENCE_START = 16;
export const RECORD_SIZE = 17;
const FIELD = 1;
const MESSAGE = 2;

const TAG_ROW = 0;
const TAG_PROBLEM = 1;
const ATTEMPT_NONE = 0;
const ATTEMPT_NUMBER = 1;
const ATTEMPT_STRING = 2;
/** An absent optional string. References are table ids (>= 0) or -(batch index + 1). */
const NO_STRING = Number.NaN;

/**
 * Characters the interning table may hold on each side; past it, strings travel in their batch.
 * Bounds the memory of both copies of the table (~2 bytes a character each).
 */
export const INTERN_MAX_CHARS = 4 * 1024 * 1024;

/**
 * Where the main thread puts a batch's lines for a worker: shared memory it fills, and reuses once
 * the answer came (no copy per message, no decoding and no garbage on the main thread): the
 * lines' UTF-8 bytes back to back in `data`, and per line its begin and end in `data` (two
 * Int32 in `offsets`) and its flags (one byte in `flags`: line-flags.ts).
 */
export interface Slot {
  readonly data: SharedArrayBuffer;
  readonly offsets: SharedArrayBuffer;
  readonly flags: SharedArrayBuffer;
}

/** A batch sent to a worker: the first `lines` lines of a slot. */
export interface LineBatch extends Slot {
  readonly seq: number;
  readonly lines: number;
  /**
   * Buffers of earlier answers, given back (transferred) for reuse: a new pair per batch made
   * ~40 MB of garbage ArrayBuffers pile up on the main thread between collections.
   */
  readonly spare: readonly ArrayBuffer[];
}

/** A slot for `lines` lines of `bytes` bytes in all. */
export function newSlot(bytes: number, lines: number): Slot {
  return {
    data: new SharedArrayBuffer(bytes),
    offsets: new SharedArrayBuffer(2 * lines * Int32Array.BYTES_PER_ELEMENT),
    flags: new SharedArrayBuffer(lines),
  };
}

/** ASCII lines are decoded in pieces of about this many bytes (see batchLines). */
const PIECE_BYTES = 32 * 1024;

/**
 * The lines of a batch as text, for i = 0, 1, … in order. Workers import this module: it must not
 * pull in the reader's streams, zlib and crypto.
 *
 * Runs of ASCII lines are decoded as latin1 (the same text for ASCII) in pieces of about
 * PIECE_BYTES and cut, instead of one native call per line; pieces stay small because a much
 * larger string is allocated outside V8's regular pages (a map and an unmap each time). Other
 * lines are decoded one by one.
 */
export function batchLines(batch: Slot & { readonly lines: number }): (i: number) => string {
  const n = batch.lines;
  const offsets = new Int32Array(batch.offsets, 0, 2 * n);
  const flags = new Uint8Array(batch.flags, 0, n);
  const bytes = Buffer.from(batch.data);
  let piece = "";
  let pieceStart = 0;
  let pieceEnd = -1;
  return (i) => {
    const begin = offsets[2 * i] ?? 0;
    const end = offsets[2 * i + 1] ?? 0;
    if (((flags[i] ?? 0) & LINE_ASCII) === 0) return bytes.toString("utf8", begin, end);
    if (begin < pieceStart || end > pieceEnd) {
      let stop = end;
      for (let k = i + 1; k < n; k++) {
        const next = offsets[2 * k + 1] ?? 0;
        if (next - begin > PIECE_BYTES || ((flags[k] ?? 0) & LINE_ASCII) === 0) break;
        stop = next;
      }
      piece = bytes.toString("latin1", begin, stop);
      pieceStart = begin;
      pieceEnd = stop;
    }
    return piece.slice(begin - pieceStart, end - pieceStart);
  };
}

/** What a worker sends back for a LineBatch: one record per line, in order. */
export interface EncodedBatch {
  readonly seq: number;
  /** New interning table entries, appended in order. */
  readonly interned: readonly string[];
  /** Strings referenced by this batch only. */
  readonly local: readonly string[];
  readonly records: Float64Array<ArrayBuffer>;
  readonly evidence: Float64Array<ArrayBuffer>;
}

export function isLineBatch(m: unknown): m is LineBatch {
  if (typeof m !== "object" || m === null) return false;
  const b = m as Partial<LineBatch>;
  return (
    typeof b.seq === "number" &&
    typeof b.lines === "number" &&
    b.data instanceof SharedArrayBuffer &&
    b.offsets instanceof SharedArrayBuffer &&
    b.flags instanceof SharedArrayBuffer &&
    b.offsets.byteLength >= 8 * b.lines &&
    b.flags.byteLength >= b.lines &&
    Array.isArray(b.spare) &&
    b.spare.every((x) => x instanceof ArrayBuffer)
  );
}

export function isEncodedBatch(m: unknown): m is EncodedBatch {
  if (typeof m !== "object" || m === null) return false;
  const b = m as Partial<EncodedBatch>;
  return (
    typeof b.seq === "number" &&
    Array.isArray(b.interned) &&
    Array.isArray(b.local) &&
    b.records instanceof Float64Array &&
    b.evidence instanceof Float64Array
  );
}

/** What a worker remembers of a task id it interned (see BatchEncoder.taskCache). */
interface TaskCache {
  readonly ref: number;
  cluster: string | undefined;
  clusterRef: number;
  readonly evidence: string[];
  readonly evidenceRefs: number[];
}

/** Spare answer buffers a worker keeps (two per batch in flight are enough). */
const MAX_FREE_BUFFERS = 16;

/** Evidence items remembered per task, by position. */
const CACHED_EVIDENCE_ITEMS = 4;

/** The worker side: parses and checks lines exactly as DatasetBuilder.addResultLine does. */
export class BatchEncoder {
  private readonly table = new Map<string, number>();
  private readonly tasks = new Map<string, TaskCache>();
  private tableChars = 0;
  private readonly free: ArrayBuffer[] = [];
  private readonly issues = new LineIssues();
  private readonly row = emptyExportRow();
  private readonly scanner = new RowScanner();
  // Per batch:
  private interned: string[] = [];
  private local: string[] = [];
  private localIndex = new Map<string, number>();
  private evidence: number[] = [];
  // The last value of the fields that come in runs, and its reference.
  private lastDataset = "";
  private lastDatasetRef = NO_STRING;
  private lastHarness = "";
  private lastHarnessRef = NO_STRING;
  private lastModel = "";
  private lastModelRef = NO_STRING;

  encode(batch: LineBatch): EncodedBatch {
    this.interned = [];
    this.local = [];
    this.localIndex = new Map();
    this.evidence = [];
    // A cached reference may be a batch reference, valid in its own batch only.
    this.lastDatasetRef = NO_STRING;
    this.lastHarnessRef = NO_STRING;
    this.lastModelRef = NO_STRING;
    for (const buffer of batch.spare) if (this.free.length < MAX_FREE_BUFFERS) this.free.push(buffer);
    const n = batch.lines;
    const flags = new Uint8Array(batch.flags, 0, n);
    const line = batchLines(batch);
    const records = this.take(n * RECORD_SIZE);
    const issues = this.issues;
    const row = this.row;
    const data = Buffer.from(batch.data);
    const offsets = new Int32Array(batch.offsets, 0, 2 * n);
    for (let i = 0; i < n; i++) {
      const at = i * RECORD_SIZE;
      // The common row shape by the byte scanner, anything else as DatasetBuilder.addResultLine.
      if (this.scanner.scan(data, offsets[2 * i] ?? 0, offsets[2 * i + 1] ?? 0, row)) {
        this.encodeRow(records, at);
        continue;
      }
      issues.reset();
      const obj = parseObject(line(i), issues);
      if (obj === undefined || !checkExportRow(obj, row, issues, ((flags[i] ?? 0) & LINE_PLAIN) !== 0)) {
        records[at + TAG] = TAG_PROBLEM;
        records[at + FIELD] = issues.field === undefined ? NO_STRING : this.localRef(issues.field);
        records[at + MESSAGE] = this.localRef(issues.text());
        continue;
      }
      this.encodeRow(records, at);
    }
    // The table is never reset: the main thread's copy stays in step because it decodes one
    // worker's batches in the order they were encoded (see parse-pool.ts).
    return {
      seq: batch.seq,
      interned: this.interned,
      local: this.local,
      records,
      evidence: this.evidenceRecords(),
    };
  }

  private evidenceRecords(): Float64Array<ArrayBuffer> {
    const refs = this.evidence;
    const out = this.take(refs.length);
    for (let k = 0; k < refs.length; k++) out[k] = refs[k] ?? 0;
    return out;
  }

  /** A Float64Array of `length` over a spare buffer when one is large enough. */
  private take(length: number): Float64Array<ArrayBuffer> {
    const bytes = length * Float64Array.BYTES_PER_ELEMENT;
    const i = this.free.findIndex((b) => b.byteLength >= bytes);
    if (i < 0) return new Float64Array(length);
    const [buffer] = this.free.splice(i, 1);
    return buffer === undefined ? new Float64Array(length) : new Float64Array(buffer, 0, length);
  }

  private encodeRow(records: Float64Array, at: number): void {
    const row = this.row;
    records[at + TAG] = TAG_ROW;
    const task = this.taskCache(row.taskId);
    records[at + TASK] = task === undefined ? this.ref(row.taskId) : task.ref;
    if (row.datasetRevision !== this.lastDataset || Number.isNaN(this.lastDatasetRef)) {
      this.lastDataset = row.datasetRevision;
      this.lastDatasetRef = this.ref(row.datasetRevision);
    }
    records[at + DATASET] = this.lastDatasetRef;
    if (row.harnessRevision !== this.lastHarness || Number.isNaN(this.lastHarnessRef)) {
      this.lastHarness = row.harnessRevision;
      this.lastHarnessRef = this.ref(row.harnessRevision);
    }
    records[at + HARNESS] = this.lastHarnessRef;
    if (row.modelConfig !== this.lastModel || Number.isNaN(this.lastModelRef)) {
      this.lastModel = row.modelConfig;
      this.lastModelRef = this.ref(row.modelConfig);
    }
    records[at + MODEL] = this.lastModelRef;
    records[at + VALIDITY] = VALIDITIES.indexOf(row.validity);
    records[at + REVIEW_REVISION] = row.reviewRevision;
    records[at + RESULT] = row.result;
    records[at + PASSES] = row.passes;
    records[at + FAILS] = row.fails;
    records[at + INFRA_ERRORS] = row.infraErrors;
    records[at + MISSING] = row.missing;
    const attempt = row.attempt;
    if (attempt === undefined) {
      records[at + ATTEMPT_KIND] = ATTEMPT_NONE;
    } else if (typeof attempt === "number") {
      records[at + ATTEMPT_KIND] = ATTEMPT_NUMBER;
      records[at + ATTEMPT] = attempt;
    } else {
      records[at + ATTEMPT_KIND] = ATTEMPT_STRING;
      records[at + ATTEMPT] = this.localRef(attempt);
    }
    const cluster = row.cluster;
    if (cluster === undefined) {
      records[at + CLUSTER] = NO_STRING;
    } else if (task !== undefined && cluster === task.cluster) {
      records[at + CLUSTER] = task.clusterRef;
    } else {
      const ref = this.ref(cluster);
      records[at + CLUSTER] = ref;
      if (task !== undefined && ref >= 0) {
        task.cluster = cluster;
        task.clusterRef = ref;
      }
    }
    const evidence = row.evidence;
    if (evidence === undefined) {
      records[at + EVIDENCE_COUNT] = -1;
    } else if (typeof evidence === "string") {
      records[at + EVIDENCE_COUNT] = 1;
      records[at + EVIDENCE_START] = this.evidence.length;
      this.evidence.push(this.evidenceRef(task, 0, evidence));
    } else {
      records[at + EVIDENCE_COUNT] = evidence.length;
      records[at + EVIDENCE_START] = this.evidence.length;
      for (let k = 0; k < evidence.length; k++) {
        this.evidence.push(this.evidenceRef(task, k, evidence[k] ?? ""));
      }
    }
  }

  /**
   * The cache entry of a task id, made when the id is interned. Rows of a task usually repeat its
   * cluster and evidence: comparing with the last ones is much cheaper than hashing them again
   * (hashing ~100-character strings was a quarter of a worker's time).
   */
  private taskCache(taskId: string): TaskCache | undefined {
    const known = this.tasks.get(taskId);
    if (known !== undefined) return known;
    const ref = this.ref(taskId);
    if (ref < 0) return undefined;
    const entry: TaskCache = {
      ref,
      cluster: undefined,
      clusterRef: NO_STRING,
      evidence: [],
      evidenceRefs: [],
    };
    this.tasks.set(taskId, entry);
    return entry;
  }

  /** The reference of evidence item `k` of a row of `task`, through the task's cache. */
  private evidenceRef(task: TaskCache | undefined, k: number, item: string): number {
    if (task !== undefined && k < task.evidence.length && item === task.evidence[k]) {
      return task.evidenceRefs[k] ?? this.ref(item);
    }
    const ref = this.ref(item);
    if (task !== undefined && ref >= 0 && k < CACHED_EVIDENCE_ITEMS && k <= task.evidence.length) {
      task.evidence[k] = item;
      task.evidenceRefs[k] = ref;
    }
    return ref;
  }

  /** A table reference, interning `s` while the table has room; else a batch reference. */
  private ref(s: string): number {
    const id = this.table.get(s);
    if (id !== undefined) return id;
    if (this.tableChars + s.length > INTERN_MAX_CHARS) return this.localRef(s);
    const next = this.table.size;
    this.table.set(s, next);
    this.tableChars += s.length;
    this.interned.push(s);
    return next;
  }

  private localRef(s: string): number {
    let i = this.localIndex.get(s);
    if (i === undefined) {
      i = this.local.length;
      this.local.push(s);
      this.localIndex.set(s, i);
    }
    return -(i + 1);
  }
}

/** Receives a decoded line: a checked row (reused between calls: copy what you keep) or a problem. */
export interface DecodedLineSink {
  row(row: ExportRow, index: number): void;
  problem(field: string | undefined, message: string, index: number): void;
}

/** The main-thread side of one worker: its copy of the interning table. */
export class BatchDecoder {
  private readonly table: string[] = [];
  private readonly row = emptyExportRow();
  /** The evidence of the current row; ExportRow users copy the items, never keep the array. */
  private readonly evidence: string[] = [];

  /** Calls `sink` for each line of the batch, in order (index = the line's position in the batch). */
  decode(batch: EncodedBatch, sink: DecodedLineSink): void {
    for (const s of batch.interned) this.table.push(s);
    const { records, local } = batch;
    const str = (ref: number): string => (ref >= 0 ? this.table[ref] : local[-ref - 1]) ?? "";
    const row = this.row;
    const n = records.length / RECORD_SIZE;
    for (let i = 0; i < n; i++) {
      const at = i * RECORD_SIZE;
      if (records[at + TAG] === TAG_PROBLEM) {
        const field = records[at + FIELD] ?? NO_STRING;
        sink.problem(Number.isNaN(field) ? undefined : str(field), str(records[at + MESSAGE] ?? 0), i);
        continue;
      }
      row.taskId = str(records[at + TASK] ?? 0);
      row.datasetRevision = str(records[at + DATASET] ?? 0);
      row.harnessRevision = str(records[at + HARNESS] ?? 0);
      row.modelConfig = str(records[at + MODEL] ?? 0);
      row.validity = validityAt(records[at + VALIDITY] ?? 0);
      row.reviewRevision = records[at + REVIEW_REVISION] ?? 0;
      row.result = records[at + RESULT] ?? -1;
      row.passes = records[at + PASSES] ?? 0;
      row.fails = records[at + FAILS] ?? 0;
      row.infraErrors = records[at + INFRA_ERRORS] ?? 0;
      row.missing = records[at + MISSING] ?? 0;
      const attemptKind = records[at + ATTEMPT_KIND];
      const attempt = records[at + ATTEMPT] ?? 0;
      row.attempt =
        attemptKind === ATTEMPT_NUMBER ? attempt : attemptKind === ATTEMPT_STRING ? str(attempt) : undefined;
      const cluster = records[at + CLUSTER] ?? NO_STRING;
      row.cluster = Number.isNaN(cluster) ? undefined : str(cluster);
      const count = records[at + EVIDENCE_COUNT] ?? -1;
      if (count < 0) {
        row.evidence = undefined;
      } else {
        const start = records[at + EVIDENCE_START] ?? 0;
        const items = this.evidence;
        items.length = count;
        for (let k = 0; k < count; k++) items[k] = str(batch.evidence[start + k] ?? 0);
        row.evidence = items;
      }
      sink.row(row, i);
    }
  }
}

function validityAt(i: number): Validity {
  return VALIDITIES[i] ?? "unreviewed";
}
