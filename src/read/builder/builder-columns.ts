/**
 * The DatasetBuilder's per-task state, by task number (0, 1, … in the order the tasks are first
 * seen): typed arrays for the numbers, plain arrays for the strings and evidence lists, and side
 * maps for what few tasks have (a second label, a second harness revision, more than one attempt
 * id, a cluster conflict): a few objects a task would cost a task-heavy export most of its memory.
 */

import type { Validity } from "../../core/model.js";
import { MetricSums } from "./metric-sums.js";
import { EvidenceArena, type ListHandle } from "../rows/evidence-arena.js";

/** Bits of TaskColumns.flags. */
export const F_BASELINE = 1;
export const F_CANDIDATE = 2;
/** The task's first label is held inline (label0Revision, label0Validity, label0Src). */
export const F_LABEL0 = 4;
/** The first label's evidence is its own list (label0Evidence), not the task's list. */
export const F_LABEL0_OWN = 8;
/** The task has labels after its first (moreLabels). */
export const F_MORE_LABELS = 16;
/** One of the rank's models (RankedModels: a K-model read) has a row on the task. */
export const F_RANKED = 32;
/**
 * The task_id is plain text (isPlainText: it came from a row the byte scanner read, which makes
 * no other), so the scanner may be told to expect it (RowScanner.expect).
 */
export const F_PLAIN_ID = 64;

/**
 * One distinct (revision, validity) of a task after its first. Source, reviewer and note are those
 * of the first row or review that gave it; the evidence is that of every row and review that gave
 * it (first seen first, capped). While `own` is false its list is the task's (the same items).
 */
export interface LabelEvent {
  readonly revision: number;
  readonly validity: Validity;
  readonly src: number;
  readonly reviewer: string | undefined;
  readonly note: string | undefined;
  own: boolean;
  evidence: string[] | undefined;
}

/** A task's labels after its first: one held alone (the usual case: no array a task), or several. */
export type LaterLabels = LabelEvent | LabelEvent[];

/** How many labels `held` is (undefined: none). */
export function laterCount(held: LaterLabels | undefined): number {
  return held === undefined ? 0 : Array.isArray(held) ? held.length : 1;
}

/** The k-th of the labels `held`, for a k below laterCount(held) (so `held` is defined). */
export function laterAt(held: LaterLabels | undefined, k: number): LabelEvent {
  return Array.isArray(held) ? (held[k] as LabelEvent) : (held as LabelEvent);
}

/** A further harness revision of a (compared model, task): how its rows came, the attempts seen. */
interface HarnessState {
  readonly harness: string;
  /** Packed source of the first row * 2 + kind (per-attempt or pre-aggregated). */
  readonly info: number;
  /** The first attempt value seen and its packed source * 4 + result index (no Map for one attempt). */
  a0: string | number | undefined;
  a0info: number;
  /** The first attempt's metrics fingerprint (0: none; see AttemptIds.fingerprint). */
  a0fp: number;
  /** Further attempt values → packed source * 4 + result index. */
  more: AttemptIds | undefined;
}

/** Integer attempt ids below this are held in an array indexed by the id. */
const DENSE_ATTEMPTS = 1 << 12;

/** 2^34: a packed value is file * 2^34 + line * 4 + result (dataset-builder.ts's source * 4 + result). */
const PACKED_FILE = 2 ** 34;
/** The largest value a slot holds (0 marks a free slot). */
const SLOT_MAX = 2 ** 32 - 1;
/** Slots of one slab of an AttemptPool (256 KiB); blocks are 8 … DENSE_ATTEMPTS slots. */
const SLAB_SLOTS = 1 << 16;
/** Block sizes by class: 8 << class. */
const MIN_BLOCK = 8;

/**
 * Blocks of Uint32 slots for every AttemptIds of a builder, in slabs of SLAB_SLOTS: a typed array
 * per (model, task) costs hundreds of bytes of ArrayBuffer bookkeeping each and leaves every array
 * it grew out of as garbage until a full collection. A block an AttemptIds grows out of is kept
 * for the next one that grows to its size.
 */
export class AttemptPool {
  readonly slabs: Uint32Array[] = [];
  /**
   * The metrics fingerprints of the slabs' attempts, slot for slot (0: none), made for a slab
   * only once one of its attempts carries metrics: an export without metrics holds none.
   */
  readonly fingerprints: (Float64Array | undefined)[] = [];
  /** Free blocks by class, as slab * SLAB_SLOTS + offset. */
  private readonly free: number[][] = [];
  /** Where the next new block of the last slab starts. */
  private used = SLAB_SLOTS;

  /** A block of MIN_BLOCK << cls zeroed slots, as slab * SLAB_SLOTS + offset. */
  take(cls: number): number {
    const reused = this.free[cls]?.pop();
    if (reused !== undefined) return reused;
    const size = MIN_BLOCK << cls;
    if (this.used + size > SLAB_SLOTS) {
      this.slabs.push(new Uint32Array(SLAB_SLOTS));
      this.used = 0;
    }
    const at = (this.slabs.length - 1) * SLAB_SLOTS + this.used;
    this.used += size;
    return at;
  }

  /** Returns a block (zeroed here) for reuse. */
  give(cls: number, block: number): void {
    const s = Math.floor(block / SLAB_SLOTS);
    const at = block % SLAB_SLOTS;
    this.slabs[s]?.fill(0, at, at + (MIN_BLOCK << cls));
    this.fingerprints[s]?.fill(0, at, at + (MIN_BLOCK << cls));
    (this.free[cls] ??= []).push(block);
  }

  /** The fingerprints of slab s, made on first use. */
  fingerprintsOf(s: number): Float64Array {
    let f = this.fingerprints[s];
    if (f === undefined) {
      f = new Float64Array(SLAB_SLOTS);
      this.fingerprints[s] = f;
    }
    return f;
  }
}

/** The pool of AttemptIds made without one (a builder passes its own, freed with it). */
const SHARED_POOL = new AttemptPool();

/**
 * Attempt ids → packed source * 4 + result index, as a Map would hold them (1 and "1" apart).
 * Attempts are usually numbered 1, 2, 3, …: those sit in a block of Uint32 slots indexed by the id
 * (4 bytes an id, where a Map entry takes ~40 and its table grows by doubling; an AttemptPool
 * holds the blocks), as line * 4 + result + 1 of the file of the first such id; anything else (a
 * string, a sparse or large id, another file, a line past 2^30) in a Map: an attempt-heavy export
 * would otherwise hold a Map entry an attempt.
 */
export class AttemptIds {
  /** The block (AttemptPool.take), its slab and offset there (undefined: no block yet), its
   * class, the ids in it. */
  private block = 0;
  private slab: Uint32Array | undefined;
  private at = 0;
  private cls = 0;
  private denseCount = 0;
  /** The file (packed / 2^34) of every value in the block; -1 before the first. */
  private file = -1;
  private other: Map<string | number, number> | undefined;
  /** Fingerprints of the ids in `other` that carry metrics. */
  private otherFingerprints: Map<string | number, number> | undefined;

  constructor(private readonly pool: AttemptPool = SHARED_POOL) {}

  private capacity(): number {
    return this.slab === undefined ? 0 : MIN_BLOCK << this.cls;
  }

  private inDense(id: string | number): id is number {
    return (
      typeof id === "number" &&
      Number.isInteger(id) &&
      id >= 0 &&
      (id < this.capacity() || id < Math.min(DENSE_ATTEMPTS, 4 * this.denseCount + 64))
    );
  }

  get(id: string | number): number | undefined {
    const slab = this.slab;
    if (typeof id === "number" && slab !== undefined && id >= 0 && id < MIN_BLOCK << this.cls) {
      // (A fraction is never held in the block: `slab[at + 1.5]` reads nothing.)
      const v = slab[this.at + id];
      if (v !== undefined && v !== 0 && Number.isInteger(id)) return this.file * PACKED_FILE + v - 1;
    }
    return this.other?.get(id);
  }

  /**
   * The metrics fingerprint `set` was given for `id` (0: none, or an id not held): a duplicate row
   * of the attempt must carry the same metrics (dataset-builder.ts).
   */
  fingerprint(id: string | number): number {
    const slab = this.slab;
    if (typeof id === "number" && slab !== undefined && id >= 0 && id < MIN_BLOCK << this.cls) {
      const v = slab[this.at + id];
      if (v !== undefined && v !== 0 && Number.isInteger(id)) {
        return this.pool.fingerprints[Math.floor(this.block / SLAB_SLOTS)]?.[this.at + id] ?? 0;
      }
    }
    return this.otherFingerprints?.get(id) ?? 0;
  }

  /** Holds a new id: its packed source * 4 + result, and its metrics fingerprint (0: none). */
  set(id: string | number, packed: number, fingerprint = 0): void {
    const file = Math.floor(packed / PACKED_FILE);
    const slot = packed - file * PACKED_FILE + 1;
    if (
      !this.inDense(id) ||
      !Number.isSafeInteger(packed) ||
      packed < 0 ||
      slot > SLOT_MAX ||
      (this.file >= 0 && file !== this.file)
    ) {
      if (this.inBlock(id)) this.clear(id);
      (this.other ??= new Map()).set(id, packed);
      if (fingerprint !== 0) (this.otherFingerprints ??= new Map()).set(id, fingerprint);
      else this.otherFingerprints?.delete(id);
      return;
    }
    if (id >= this.capacity()) this.grow(id);
    this.file = file;
    const slab = this.slab as Uint32Array;
    if (slab[this.at + id] === 0) this.denseCount++;
    slab[this.at + id] = slot;
    const s = Math.floor(this.block / SLAB_SLOTS);
    if (fingerprint !== 0) this.pool.fingerprintsOf(s)[this.at + id] = fingerprint;
    else {
      const f = this.pool.fingerprints[s];
      if (f !== undefined) f[this.at + id] = 0;
    }
    this.other?.delete(id);
    this.otherFingerprints?.delete(id);
  }

  private inBlock(id: string | number): id is number {
    return typeof id === "number" && Number.isInteger(id) && id >= 0 && id < this.capacity();
  }

  private clear(id: number): void {
    const slab = this.slab as Uint32Array;
    if (slab[this.at + id] !== 0) this.denseCount--;
    slab[this.at + id] = 0;
    const f = this.pool.fingerprints[Math.floor(this.block / SLAB_SLOTS)];
    if (f !== undefined) f[this.at + id] = 0;
  }

  /** A block with room for `id`; the values move over and the old block goes back to the pool. */
  private grow(id: number): void {
    let cls = this.slab === undefined ? 0 : this.cls + 1;
    while (MIN_BLOCK << cls <= id) cls++;
    const block = this.pool.take(cls);
    const slab = this.pool.slabs[Math.floor(block / SLAB_SLOTS)] as Uint32Array;
    const at = block % SLAB_SLOTS;
    const old = this.slab;
    if (old !== undefined) {
      const size = MIN_BLOCK << this.cls;
      slab.set(old.subarray(this.at, this.at + size), at);
      const f = this.pool.fingerprints[Math.floor(this.block / SLAB_SLOTS)];
      if (f !== undefined) {
        this.pool.fingerprintsOf(Math.floor(block / SLAB_SLOTS)).set(f.subarray(this.at, this.at + size), at);
      }
      this.pool.give(this.cls, this.block);
    }
    this.block = block;
    this.slab = slab;
    this.at = at;
    this.cls = cls;
  }
}

function grownF64(a: Float64Array, size: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(size);
  b.set(a);
  return b;
}

function grownU32(a: Uint32Array, size: number): Uint32Array<ArrayBuffer> {
  const b = new Uint32Array(size);
  b.set(a);
  return b;
}

/** The largest count a narrow (Uint32) count column holds. */
export const NARROW_COUNT_MAX = 0xffffffff;

function grownCounts(a: Uint32Array | Float64Array, size: number): Uint32Array | Float64Array {
  const b = a instanceof Float64Array ? new Float64Array(size) : new Uint32Array(size);
  b.set(a);
  return b;
}

function grownU8(a: Uint8Array, size: number): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(size);
  b.set(a);
  return b;
}

/**
 * A compared model on every task: its first harness revision inline (harness undefined: no row
 * of this model on the task), the counts, further attempt ids and harness revisions by task.
 */
export class ModelColumns {
  readonly harness: (string | undefined)[] = [];
  readonly a0: (string | number | undefined)[] = [];
  info = new Float64Array(0);
  a0info = new Float64Array(0);
  /**
   * The counts: Uint32 columns (4 bytes a task each, where Float64 takes 8) until a count passes NARROW_COUNT_MAX (a pre-aggregated row can hold any safe integer),
   * then all four Float64 (widen). Written through setCounts, or checked against
   * NARROW_COUNT_MAX first: a Uint32Array would wrap a larger value silently.
   */
  pass: Uint32Array | Float64Array = new Uint32Array(0);
  fail: Uint32Array | Float64Array = new Uint32Array(0);
  infraError: Uint32Array | Float64Array = new Uint32Array(0);
  missing: Uint32Array | Float64Array = new Uint32Array(0);
  /** 1 where the model has a row on the task (a ranked model's own flag: F_RANKED is shared). */
  seen = new Uint8Array(0);
  narrow = true;
  /** The first attempt's metrics fingerprint by task (0: none), made once an attempt carries metrics. */
  a0fp: Float64Array | undefined;
  /** The model's sums by metric index (BuilderState.metricNames), made for a metric once it carries it. */
  readonly metrics: (MetricSums | undefined)[] = [];
  private size = 0;
  /** Task → attempt values after the first of its first harness revision. */
  readonly more = new Map<number, AttemptIds>();
  /** Task → further harness revisions. */
  readonly others = new Map<number, Map<string, HarnessState>>();

  /** Task i's further harness revisions, the map made on first use. */
  othersOf(i: number): Map<string, HarnessState> {
    let others = this.others.get(i);
    if (others === undefined) {
      others = new Map();
      this.others.set(i, others);
    }
    return others;
  }

  grow(size: number): void {
    this.size = size;
    this.info = grownF64(this.info, size);
    this.a0info = grownF64(this.a0info, size);
    if (this.a0fp !== undefined) this.a0fp = grownF64(this.a0fp, size);
    for (const m of this.metrics) m?.grow(size);
    this.pass = grownCounts(this.pass, size);
    this.fail = grownCounts(this.fail, size);
    this.infraError = grownCounts(this.infraError, size);
    this.missing = grownCounts(this.missing, size);
    this.seen = grownU8(this.seen, size);
  }

  /** The count columns as Float64 (every count of the model then held exactly to 2^53). */
  widen(): void {
    if (!this.narrow) return;
    this.narrow = false;
    this.pass = Float64Array.from(this.pass);
    this.fail = Float64Array.from(this.fail);
    this.infraError = Float64Array.from(this.infraError);
    this.missing = Float64Array.from(this.missing);
  }

  /** Task i's four counts (safe integers), the columns widened first when one needs it. */
  setCounts(i: number, pass: number, fail: number, infraError: number, missing: number): void {
    if (
      this.narrow &&
      (pass > NARROW_COUNT_MAX ||
        fail > NARROW_COUNT_MAX ||
        infraError > NARROW_COUNT_MAX ||
        missing > NARROW_COUNT_MAX)
    )
      this.widen();
    this.pass[i] = pass;
    this.fail[i] = fail;
    this.infraError[i] = infraError;
    this.missing[i] = missing;
  }

  push(): void {
    this.harness.push(undefined);
    this.a0.push(undefined);
  }

  /** Task i's first attempt's fingerprint (0: none). */
  setA0Fingerprint(i: number, fingerprint: number): void {
    if (fingerprint !== 0) (this.a0fp ??= new Float64Array(this.size))[i] = fingerprint;
    else if (this.a0fp !== undefined) this.a0fp[i] = 0;
  }

  /** The sums of metric k, made on first use. */
  metricSums(k: number): MetricSums {
    let m = this.metrics[k];
    if (m === undefined) {
      m = new MetricSums(this.size);
      while (this.metrics.length < k) this.metrics.push(undefined);
      this.metrics[k] = m;
    }
    return m;
  }

  /**
   * Drops what only the read needs (harness revisions and attempt ids, to fold repeats and catch
   * conflicts), keeping the counts: the Dataset is made at the read's peak memory
   * (dataset-finish.ts), which is lower without them.
   */
  releaseAttempts(): void {
    this.harness.length = 0;
    this.a0.length = 0;
    this.info = new Float64Array(0);
    this.a0info = new Float64Array(0);
    this.a0fp = undefined;
    this.more.clear();
    this.others.clear();
  }
}

export class TaskColumns {
  count = 0;
  private capacity = 0;
  readonly taskIds: string[] = [];
  /**
   * The task's evidence (de-duplicated, first seen first, capped), packed (packed-evidence.ts): a
   * string, or its handle in `arena` (a task's first list as the scanner wrote it).
   */
  readonly evidence: (string | ListHandle | undefined)[] = [];
  /** Where the scanner writes the lists it packs (evidence-arena.ts). */
  readonly arena = new EvidenceArena();
  readonly clusters: (string | undefined)[] = [];
  /** Index of the task's dataset revision (DatasetBuilder.revisionList). */
  revision = new Uint32Array(0);
  flags = new Uint8Array(0);
  topRevision = new Float64Array(0);
  /** Index into VALIDITIES. */
  topValidity = new Uint8Array(0);
  clusterSrc = new Float64Array(0);
  label0Revision = new Float64Array(0);
  label0Validity = new Uint8Array(0);
  label0Src = new Float64Array(0);
  /** Task → the first label's own evidence list (F_LABEL0_OWN). */
  readonly label0Evidence = new Map<number, string[] | undefined>();
  /** Task → reviewer and note of its first label, when given (a review). */
  readonly label0Meta = new Map<number, { reviewer: string | undefined; note: string | undefined }>();
  /**
   * Task → its labels after the first, in the order found (F_MORE_LABELS): by task number, not a
   * Map, and a lone one without an array: an export whose models label a task differently has
   * one on every task, and each object or Map entry a task costs time to make and to collect.
   */
  readonly moreLabels: (LaterLabels | undefined)[] = [];
  /** Task → its later labels by labelKey, once it has LABEL_SCAN_MAX of them (label-history.ts). */
  readonly labelIndex = new Map<number, Map<string, LabelEvent>>();
  /** Task → the first row that contradicted its cluster. */
  readonly clusterConflicts = new Map<number, { readonly value: string; readonly src: number }>();
  /**
   * The task's benchmark (an index into BuilderState.benchmarkNames; 0 the default), made once a
   * row names another: an export without benchmarks holds none.
   */
  benchmark: Uint16Array | undefined;
  /** Task → the first row that named another benchmark than the task's. */
  readonly benchmarkConflicts = new Map<number, { readonly value: string; readonly src: number }>();
  readonly baseline = new ModelColumns();
  readonly candidate = new ModelColumns();
  /** The rank's models in a K-model read (RankedModels), in the order first seen or given. */
  readonly ranked: ModelColumns[] = [];

  /** A ranked model's columns, sized for the tasks held so far. */
  addRanked(): ModelColumns {
    const m = new ModelColumns();
    m.grow(this.capacity);
    for (let i = 0; i < this.count; i++) m.push();
    this.ranked.push(m);
    return m;
  }

  /**
   * Task i's packed list as a string. A handle is read out of the arena once: the string then
   * takes its place (the same items), so a task whose list is looked at again reads it once.
   */
  listOf(i: number): string | undefined {
    const list = this.evidence[i];
    if (typeof list !== "number") return list;
    const s = this.arena.string(list);
    this.evidence[i] = s;
    return s;
  }

  /** A new task's number. */
  add(revision: number, taskId: string): number {
    if (this.count === this.capacity) this.grow(Math.max(1024, this.capacity * 2));
    const i = this.count++;
    this.taskIds.push(taskId);
    this.evidence.push(undefined);
    this.clusters.push(undefined);
    this.moreLabels.push(undefined);
    this.revision[i] = revision;
    this.topRevision[i] = -1;
    this.baseline.push();
    this.candidate.push();
    for (const m of this.ranked) m.push();
    return i;
  }

  /** The benchmark column, made on first use (every task so far in the default). */
  benchmarks(): Uint16Array {
    return (this.benchmark ??= new Uint16Array(this.capacity));
  }

  private grow(size: number): void {
    this.capacity = size;
    if (this.benchmark !== undefined) {
      const b = new Uint16Array(size);
      b.set(this.benchmark);
      this.benchmark = b;
    }
    this.revision = grownU32(this.revision, size);
    this.flags = grownU8(this.flags, size);
    this.topRevision = grownF64(this.topRevision, size);
    this.topValidity = grownU8(this.topValidity, size);
    this.clusterSrc = grownF64(this.clusterSrc, size);
    this.label0Revision = grownF64(this.label0Revision, size);
    this.label0Validity = grownU8(this.label0Validity, size);
    this.label0Src = grownF64(this.label0Src, size);
    this.baseline.grow(size);
    this.candidate.grow(size);
    for (const m of this.ranked) m.grow(size);
  }
}

/**
 * Task numbers by (dataset revision index, task_id): open addressing over one Int32Array of
 * (hash, task number + 1) pairs. A miss, the usual case for a new task of a task-heavy export,
 * touches one cache line instead of a Map's bucket, entries and key strings; the task's own
 * strings are compared only when the hashes agree.
 */
export class TaskIndex {
  private table = new Int32Array(2 * 1024);
  private mask = 1023;
  private size = 0;
  /** The empty slot where the last missed key would go (see add). */
  private free = 0;

  static hash(revision: number, taskId: string): number {
    let h = Math.imul(revision + 1, 0x9e3779b1) ^ 0x811c9dc5;
    for (let k = 0; k < taskId.length; k++) h = Math.imul(h ^ taskId.charCodeAt(k), 0x01000193);
    return h ^ (h >>> 15);
  }

  /** The task number of (revision, taskId) with hash h, or -1. */
  find(h: number, revision: number, taskId: string, cols: TaskColumns): number {
    const table = this.table;
    let s = h & this.mask;
    for (;;) {
      const v = table[2 * s + 1] ?? 0;
      if (v === 0) {
        this.free = s;
        return -1;
      }
      if (table[2 * s] === h) {
        const i = v - 1;
        if (cols.taskIds[i] === taskId && cols.revision[i] === revision) return i;
      }
      s = (s + 1) & this.mask;
    }
  }

  /** Adds task i with hash h: call right after `find` missed it. */
  add(h: number, i: number): void {
    this.table[2 * this.free] = h;
    this.table[2 * this.free + 1] = i + 1;
    this.size++;
    // At most half full: probes stay short.
    if (2 * this.size > this.mask) this.grow();
  }

  private grow(): void {
    const old = this.table;
    const slots = 2 * (this.mask + 1);
    this.table = new Int32Array(2 * slots);
    this.mask = slots - 1;
    for (let s = 0; s < old.length; s += 2) {
      const v = old[s + 1] ?? 0;
      if (v === 0) continue;
      const h = old[s] ?? 0;
      let t = h & this.mask;
      while ((this.table[2 * t + 1] ?? 0) !== 0) t = (t + 1) & this.mask;
      this.table[2 * t] = h;
      this.table[2 * t + 1] = v;
    }
  }
}
