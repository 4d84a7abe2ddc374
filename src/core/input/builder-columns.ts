/**
 * The DatasetBuilder's per-task state, by task number (0, 1, … in the order the tasks are first
 * seen): typed arrays for the numbers, plain arrays for the strings and evidence lists, and side
 * maps for what few tasks have (a second label, a second harness revision, more than one attempt
 * id, a cluster conflict). A task-heavy export held ~4 objects a task (~550 bytes) before.
 */

import type { Validity } from "../model.js";

/** Bits of TaskColumns.flags. */
export const F_BASELINE = 1;
export const F_CANDIDATE = 2;
/** The task's first label is held inline (label0Revision, label0Validity, label0Src). */
export const F_LABEL0 = 4;
/** The first label's evidence is its own list (label0Evidence), not the task's list. */
export const F_LABEL0_OWN = 8;
/** The task has labels after its first (moreLabels). */
export const F_MORE_LABELS = 16;

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

/** A task's labels after its first, in the order found; by labelKey once there are many. */
export interface MoreLabels {
  readonly events: LabelEvent[];
  index: Map<string, LabelEvent> | undefined;
}

/** A further harness revision of a (compared model, task): how its rows came, the attempts seen. */
export interface HarnessState {
  readonly harness: string;
  /** Packed source of the first row * 2 + kind (per-attempt or pre-aggregated). */
  readonly info: number;
  /** The first attempt value seen and its packed source * 4 + result index (no Map for one attempt). */
  a0: string | number | undefined;
  a0info: number;
  /** Further attempt values → packed source * 4 + result index. */
  more: AttemptIds | undefined;
}

/** Integer attempt ids below this are held in an array indexed by the id. */
const DENSE_ATTEMPTS = 1 << 12;

/**
 * Attempt ids → packed source * 4 + result index, as a Map would hold them (1 and "1" apart).
 * Attempts are usually numbered 1, 2, 3, …: those sit in an array indexed by the id (8 bytes an
 * id, where a Map entry takes ~40 and its table grows by doubling), anything else in a Map. An
 * attempt-heavy export (10⁴ tasks × 50 attempts of each compared model) held ~10⁶ Map entries.
 */
export class AttemptIds {
  /** packed + 1 at index id; 0: not seen. */
  private dense: Float64Array | undefined;
  /** Ids held in `dense`: it grows only while it stays at most ~4 slots an id (sparse ids: the Map). */
  private denseCount = 0;
  private other: Map<string | number, number> | undefined;

  private inDense(id: string | number): id is number {
    return (
      typeof id === "number" &&
      Number.isInteger(id) &&
      id >= 0 &&
      (id < (this.dense?.length ?? 0) || id < Math.min(DENSE_ATTEMPTS, 4 * this.denseCount + 64))
    );
  }

  get(id: string | number): number | undefined {
    if (
      typeof id === "number" &&
      this.dense !== undefined &&
      Number.isInteger(id) &&
      id >= 0 &&
      id < this.dense.length
    ) {
      const v = this.dense[id] as number;
      if (v !== 0) return v - 1;
    }
    return this.other?.get(id);
  }

  set(id: string | number, packed: number): void {
    if (!this.inDense(id)) {
      (this.other ??= new Map()).set(id, packed);
      return;
    }
    let dense = this.dense;
    if (dense === undefined || id >= dense.length) {
      let size = dense === undefined ? 8 : dense.length;
      while (size <= id) size *= 2;
      const grown = new Float64Array(size);
      if (dense !== undefined) grown.set(dense);
      this.dense = dense = grown;
    }
    if (dense[id] === 0) this.denseCount++;
    dense[id] = packed + 1;
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
  pass = new Float64Array(0);
  fail = new Float64Array(0);
  infraError = new Float64Array(0);
  missing = new Float64Array(0);
  /** Task → attempt values after the first of its first harness revision. */
  readonly more = new Map<number, AttemptIds>();
  /** Task → further harness revisions. */
  readonly others = new Map<number, Map<string, HarnessState>>();

  grow(size: number): void {
    this.info = grownF64(this.info, size);
    this.a0info = grownF64(this.a0info, size);
    this.pass = grownF64(this.pass, size);
    this.fail = grownF64(this.fail, size);
    this.infraError = grownF64(this.infraError, size);
    this.missing = grownF64(this.missing, size);
  }

  push(): void {
    this.harness.push(undefined);
    this.a0.push(undefined);
  }
}

export class TaskColumns {
  count = 0;
  private capacity = 0;
  readonly taskIds: string[] = [];
  /** The task's evidence (de-duplicated, first seen first, capped). */
  readonly evidence: (string[] | undefined)[] = [];
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
  readonly moreLabels = new Map<number, MoreLabels>();
  /** Task → the first row that contradicted its cluster. */
  readonly clusterConflicts = new Map<number, { readonly value: string; readonly src: number }>();
  readonly baseline = new ModelColumns();
  readonly candidate = new ModelColumns();

  /** A new task's number. */
  add(revision: number, taskId: string): number {
    if (this.count === this.capacity) this.grow(Math.max(1024, this.capacity * 2));
    const i = this.count++;
    this.taskIds.push(taskId);
    this.evidence.push(undefined);
    this.clusters.push(undefined);
    this.revision[i] = revision;
    this.topRevision[i] = -1;
    this.baseline.push();
    this.candidate.push();
    return i;
  }

  private grow(size: number): void {
    this.capacity = size;
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
