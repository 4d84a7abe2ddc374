/**
 * Reading one plain results file in byte ranges on several threads (issue 15). The file is cut
 * at line ends into ranges; the main thread reads the first into the DatasetBuilder itself, and
 * each later range is read by a worker thread (src/range-worker.ts) from the same open file into
 * a builder of its own, whose state (range-merge.ts snapshotOf: typed arrays and arrays of strings,
 * posted once) the main thread then absorbs in range order. No line or row crosses threads.
 *
 * Each range is split with line-splitter.ts's LineSplitter, so its lines are exactly those a read of
 * the whole file gives (a range starts right after an LF: BOM, CR, blank and overlong lines come
 * out the same), numbered from 1 in a worker and moved by the lines of the earlier ranges when
 * absorbed. The main thread hashes the file meanwhile (see readInRanges).
 *
 * Only a clean range is absorbed. A worker that cannot start, dies, or finds a problem in its
 * range (the lines would be reported with their numbers) leaves its range to the main thread,
 * which reads it into the builder itself, in order, as a sequential read would. When absorbing
 * finds what a sequential read would have reported (range-merge.ts: a conflict across
 * ranges, a passed cap), or the file cannot be read or changes meanwhile, the builder is spoilt:
 * the caller reads every file again, one line after another ("restart"), for the exact messages.
 */

import { createHash, type Hash } from "node:crypto";
import { fstatSync, readSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { Worker } from "node:worker_threads";

import type { BuilderSnapshot, DatasetBuilder } from "./builder/dataset-builder.js";
import { columnBuffers } from "./builder/column-transfer.js";
import type { InputLimits } from "./limits.js";
import { hashInWorker, type PendingHash } from "./lines/file-hash.js";
import { READ_CHUNK_BYTES } from "./lines/file-stream.js";
import { LineSplitter, type FirstLineCheck } from "./lines/line-splitter.js";

export interface RangeReadOptions {
  /** The worker script: the bundle's range-worker.js (see src/range-worker.ts). */
  readonly script: URL;
  /** Ranges a file is cut into, the main thread's included; below 2 a file is read whole. */
  readonly ranges: number;
  /** Files smaller than this are read whole (starting a thread costs time and memory of its own). */
  readonly minBytes?: number;
  /** For tests: where to cut (byte offsets, each moved to the next line end) instead of k/ranges. */
  readonly cuts?: readonly number[];
  /** Tasks a worker may hold before it leaves its range to the main thread (default MAX_RANGE_TASKS). */
  readonly maxTasks?: number;
  /**
   * On a file smaller than `belowBytes`, a worker holding more than `ids` attempt ids leaves its
   * range to the main thread too: merging them is what a range read's memory grows with (the
   * default's line, read-threads.ts). Unset: no such limit.
   */
  readonly attemptLimit?: { readonly ids: number; readonly belowBytes: number };
  /** For tests: tasks per part of a range's state (default PART_TASKS). */
  readonly partTasks?: number;
  /** For tests: reads a range instead of a worker thread. */
  readonly readElsewhere?: (task: RangeTask) => RangeReader;
  /** For tests: hashes the whole file instead of a hash thread (when the second range is given back). */
  readonly hashElsewhere?: (fh: FileHandle) => PendingHash;
}

export const DEFAULT_RANGE_MIN_BYTES = 32 * 1024 * 1024;

/** What a range worker is given (its workerData). */
export interface RangeTask {
  /** The file, open on the main thread (read by position: the same file the hash worker reads). */
  readonly fd: number;
  readonly start: number;
  /** Where the range ends (exclusive); -1: at the end of the file. */
  readonly end: number;
  readonly fileIndex: number;
  readonly fileNames: readonly string[];
  readonly baseline: string;
  readonly candidate: string;
  readonly limits: Partial<InputLimits> | undefined;
  readonly partTasks: number;
  /** Past this many tasks the worker stops and leaves its range to the main thread (see MAX_RANGE_TASKS). */
  readonly maxTasks: number;
  /** Past this many attempt ids held, likewise (RangeReadOptions.attemptLimit; else Infinity). */
  readonly maxAttemptIds: number;
}

/**
 * A worker's answer once its range is read: what it read, and in how many parts it posts its
 * builder's state (each asked for in turn); or that the range has a problem (the main thread
 * reads it then).
 */
export type RangeAnswer =
  | {
      readonly lines: number;
      readonly nonBlankLines: number;
      readonly bytes: number;
      readonly parts: number;
    }
  | { readonly problem: true; readonly why?: string };

/**
 * Tasks per part of a range's state. Posted whole, a task-heavy range's state (a string and
 * arrays a task) is decoded at once and outlives several collections before it is absorbed.
 */
const PART_TASKS = 32 * 1024;

/**
 * ... and at most about this many attempt ids a part: a part's ids are posted in slabs of their
 * own and copied again into the main thread's pool, so an attempt-heavy range posted whole has
 * all of them in three places at once and grows the main thread's young generation. Smaller
 * parts cost no time; below this size they gain little memory (BENCHMARKS.md).
 */
const PART_ATTEMPT_IDS = 32 * 1024;

/** Tasks per part of a range of `tasks` tasks holding `ids` attempt ids (at most `partTasks`). */
export function tasksPerPart(tasks: number, ids: number, partTasks: number): number {
  const byIds = ids > 0 ? Math.floor((tasks * PART_ATTEMPT_IDS) / ids) : partTasks;
  return Math.max(1, Math.min(partTasks, byIds));
}

/**
 * A task-heavy export (each range holding most tasks again, for another model) costs more to
 * merge than to read, in CPU time and in memory. A worker past this many tasks stops, and the
 * main thread reads its range.
 */
export const MAX_RANGE_TASKS = 64 * 1024;

/** A range read (by a worker): its answer, and the parts of its state to post. */
export interface RangeState {
  readonly answer: RangeAnswer;
  part(k: number): { readonly snapshot: BuilderSnapshot; readonly transfer: ArrayBuffer[] };
}

/** The main thread's view of a range being read elsewhere (a worker thread; in process in tests). */
export interface RangeReader {
  /** The answer; undefined when the reader could not start, died, or answered something else. */
  readonly answer: Promise<RangeAnswer | undefined>;
  /** Part k of the state (after the answer); undefined when the reader died. */
  part(k: number): Promise<BuilderSnapshot | undefined>;
  stop(): Promise<void>;
}

/** What reading a range gave (a builder holds its lines). */
export interface RangeRead {
  /** The number of its last line (blank lines counted), from the lines before it. */
  readonly lines: number;
  readonly nonBlankLines: number;
  readonly bytes: number;
  /** The file's line cap was passed (reported): later lines are not read. */
  readonly halted: boolean;
  /** The first line showed that the file is not JSON lines (reported): no line was read. */
  readonly refused: boolean;
  /** Why the read stopped at a limit (stopPast), if it did: then it may end in half a line. */
  readonly past?: string;
}

/** Reads `length` bytes at `position` into `buffer` (synchronously in a worker, asynchronously here). */
export type ReadAt = (buffer: Buffer, length: number, position: number) => number | Promise<number>;

/**
 * Reads the bytes [start, end) of a file (end -1: to its end) as results lines into `builder`,
 * numbered after `lineNo` lines; the splitter's problems are the builder's. `stopPast` (a
 * worker's) ends the read at the first chunk after which the builder is no longer healthy or
 * holds more tasks or attempt ids (its range is then read again). `firstLine` (the first range's)
 * looks at the file's first line (FirstLineCheck). Read errors are thrown.
 */
export async function readRange(
  read: ReadAt,
  start: number,
  end: number,
  lineNo: number,
  builder: DatasetBuilder,
  fileIndex: number,
  stopPast?: RangeLimits,
  hash?: { update(chunk: Buffer): unknown },
  firstLine?: FirstLineCheck,
): Promise<RangeRead> {
  const splitter = new LineSplitter(
    {
      bytes: (bytes, begin, stop, line, flags) => {
        builder.addResultBytes(bytes, begin, stop, flags, fileIndex, line);
      },
    },
    (line, message) => {
      builder.fileProblem(fileIndex, line, message);
    },
    lineNo,
    firstLine,
  );
  // Two buffers, used in turn, as file-stream.ts reads a whole file: the next chunk is read (on
  // libuv's thread pool, for the main thread) while this one is split, instead of waiting for
  // each read. The splitter copies what it carries, so a buffer is free again once push returns.
  let buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  let spare = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  const wantAt = (at: number): number => (end < 0 ? READ_CHUNK_BYTES : Math.min(READ_CHUNK_BYTES, end - at));
  let pos = start;
  let want = wantAt(pos);
  let next: number | Promise<number> = want === 0 ? 0 : read(buffer, want, pos);
  let past: string | undefined;
  try {
    while (want > 0) {
      const n = await next;
      if (n === 0) {
        if (end >= 0) throw new Error("the file ended before the range did");
        break;
      }
      pos += n;
      const chunk = buffer.subarray(0, n);
      [buffer, spare] = [spare, buffer];
      want = wantAt(pos);
      next = want === 0 ? 0 : read(buffer, want, pos);
      hash?.update(chunk);
      splitter.push(chunk);
      if (splitter.refused) break;
      if (stopPast === undefined) continue;
      if (!builder.healthy()) break;
      // (Decided here: the half line the splitter still holds makes a line that is no task.)
      past = pastLimits(builder, stopPast, pos - start, splitter.nonBlankLines);
      if (past !== undefined) break;
    }
  } finally {
    // A read still in flight (the loop left early) ends before the caller may close the file.
    await Promise.resolve(next).catch(() => 0);
  }
  splitter.end();
  return {
    lines: splitter.lines,
    nonBlankLines: splitter.nonBlankLines,
    bytes: pos - start,
    halted: splitter.halted,
    refused: splitter.refused,
    ...(past === undefined ? {} : { past }),
  };
}

/** A worker's limits (RangeTask): tasks and attempt ids held, and the bytes of its range. */
interface RangeLimits {
  readonly tasks: number;
  readonly attemptIds: number;
  readonly bytes: number;
}

/**
 * An attempt-id limit is also taken as passed once the first PROJECT_AFTER_BYTES of the range,
 * scaled to all of it, hold more: attempt ids come with a compared model's rows, as a rule spread
 * through the file, and a range given back early costs little (the worker's start and 8 MiB read
 * on another core), where one given back late was read for nothing. A wrong guess only changes
 * who reads the range.
 */
const PROJECT_AFTER_BYTES = 8 * 1024 * 1024;

/**
 * Which limit the range's state has passed after `read` of its bytes and `lines` non-blank lines,
 * if any (for a note). Where an attempt-id limit is set (the default's, below 1 GiB), the task
 * limit is also taken as passed once the first PROJECT_AFTER_BYTES made a new task of every line
 * and, scaled to the range, would pass it (a task-heavy range given back late was read for
 * nothing, and its worker's heap lived on). Only there: tasks do not spread like attempt ids (a range may begin
 * with one model's pass over 50,000 tasks, then repeat them), and a wrong guess costs more on a
 * larger file, where ranges are most of the speed.
 */
function pastLimits(
  builder: DatasetBuilder,
  limits: RangeLimits,
  read: number,
  lines: number,
): string | undefined {
  const tasks = builder.taskCount();
  const newEveryLine =
    limits.attemptIds < Infinity && read >= PROJECT_AFTER_BYTES && lines > 0 && tasks >= lines;
  if (tasks > limits.tasks || (newEveryLine && (tasks / read) * limits.bytes > limits.tasks))
    return `more than ${limits.tasks} tasks`;
  const ids = builder.heldAttemptIds();
  const projected =
    read >= PROJECT_AFTER_BYTES &&
    limits.attemptIds < Infinity &&
    (ids / read) * limits.bytes > limits.attemptIds;
  return ids > limits.attemptIds || projected ? `more than ${limits.attemptIds} attempt ids` : undefined;
}

/** Hashes the file from `start` to its end; returns the bytes hashed. */
async function hashRest(read: ReadAt, start: number, hash: Hash): Promise<number> {
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  let pos = start;
  for (;;) {
    const n = await read(buffer, buffer.length, pos);
    if (n === 0) return pos - start;
    hash.update(buffer.subarray(0, n));
    pos += n;
  }
}

/**
 * The first range (the main thread's) is the smaller: the main thread also hashes the whole file
 * and absorbs the others' state (with an even split it would wait for the worker).
 */
const FIRST_RANGE_SHARE = 0.4;

const WORKER_YOUNG_MB = 8;

function defaultCuts(size: number, n: number): number[] {
  const first = n === 2 ? FIRST_RANGE_SHARE : 1 / n;
  return Array.from({ length: n - 1 }, (_, k) => Math.floor(size * (first + (k * (1 - first)) / (n - 1))));
}

/** How far past a cut the reader looks for the line end to cut at (a longer line is overlong anyway). */
const CUT_SEARCH_BYTES = 2 * 1024 * 1024;

/**
 * Where the ranges start: 0, then just after the first LF at or after each k/n of the file. A cut
 * with no LF near it is dropped (its bytes join the range before).
 */
export async function rangeStarts(
  fh: FileHandle,
  size: number,
  n: number,
  cuts: readonly number[] = defaultCuts(size, n),
): Promise<number[]> {
  const starts = [0];
  const window = Buffer.allocUnsafe(64 * 1024);
  for (const at of cuts) {
    const target = Math.max(at, (starts[starts.length - 1] ?? 0) + 1);
    let cut = -1;
    for (let pos = target - 1; cut < 0 && pos < size && pos < target + CUT_SEARCH_BYTES;) {
      const got = (await fh.read(window, 0, window.length, pos)).bytesRead;
      if (got === 0) break;
      const at = window.subarray(0, got).indexOf(0x0a);
      if (at >= 0) cut = pos + at + 1;
      pos += got;
    }
    if (cut > 0 && cut < size) starts.push(cut);
  }
  return starts;
}

function isRangeAnswer(m: unknown): m is RangeAnswer {
  if (typeof m !== "object" || m === null) return false;
  if ("problem" in m) return m.problem === true;
  return "lines" in m && typeof m.lines === "number" && "parts" in m && typeof m.parts === "number";
}

function isPart(m: unknown): m is { part: number; snapshot: BuilderSnapshot } {
  return typeof m === "object" && m !== null && "part" in m && "snapshot" in m;
}

function startRange(script: URL, task: RangeTask, onNote: (message: string) => void): RangeReader {
  let worker: Worker;
  try {
    worker = new Worker(script, {
      workerData: task,
      // Its builder's state lives long: a small young generation keeps the peak RSS down.
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    });
  } catch (e) {
    onNote(
      `cannot start a range reader (${e instanceof Error ? e.message : String(e)}); reading its range here`,
    );
    return {
      answer: Promise.resolve(undefined),
      part: () => Promise.resolve(undefined),
      stop: () => Promise.resolve(),
    };
  }
  let settleAnswer: ((a: RangeAnswer | undefined) => void) | undefined;
  const answer = new Promise<RangeAnswer | undefined>((settle) => {
    settleAnswer = settle;
  });
  let waiting: ((s: BuilderSnapshot | undefined) => void) | undefined;
  let dead = false;
  let stopping = false;
  const die = (): void => {
    dead = true;
    settleAnswer?.(undefined);
    waiting?.(undefined);
    waiting = undefined;
  };
  worker.on("message", (m: unknown) => {
    if (isPart(m)) {
      const settle = waiting;
      waiting = undefined;
      settle?.(m.snapshot);
    } else {
      const a = isRangeAnswer(m) ? m : undefined;
      settleAnswer?.(a);
      // A range given back: nothing more is asked of its worker, whose heap would otherwise live
      // on to the end of the first range's read.
      if (a !== undefined && "problem" in a) {
        stopping = true;
        void worker.terminate();
      }
    }
  });
  worker.once("error", (e: unknown) => {
    onNote(`a range reader failed (${e instanceof Error ? e.message : String(e)}); reading its range here`);
    die();
  });
  worker.once("exit", (code: number) => {
    if (!stopping && !dead) onNote(`a range reader exited with code ${code}; reading its range here`);
    die();
  });
  return {
    answer,
    part: (k) =>
      dead
        ? Promise.resolve(undefined)
        : new Promise((settle) => {
            waiting = settle;
            worker.postMessage(k);
          }),
    stop: async () => {
      stopping = true;
      await worker.terminate();
    },
  };
}

/**
 * Returns once the reactions to `answer` registered before this call have run, if it is settled
 * already (a settled promise's reactions are queued before those of the race's second entry).
 */
async function settledYet(answer: Promise<unknown>): Promise<void> {
  await Promise.race([answer, Promise.resolve()]);
}

/** A whole file read in ranges; "restart": the builder is spoilt, read every file again in order. */
export type RangedFile = { readonly sha256: string; readonly nonBlankLines: number } | "restart";

/**
 * Reads the results file `abs` (plain, not gzip: the caller checks) in ranges into `builder`,
 * which holds what the files before it gave. Returns undefined, having read nothing, when the file
 * cannot be cut (it is then read whole as usual).
 */
export async function readInRanges(
  abs: string,
  builder: DatasetBuilder,
  task: Omit<RangeTask, "fd" | "start" | "end" | "partTasks" | "maxTasks" | "maxAttemptIds">,
  options: RangeReadOptions,
  onNote: (message: string) => void,
  firstLine?: FirstLineCheck,
): Promise<RangedFile | undefined> {
  let fh: FileHandle;
  try {
    fh = await open(abs, "r");
  } catch {
    return undefined;
  }
  const workers: RangeReader[] = [];
  let rehash: PendingHash | undefined;
  try {
    const size = (await fh.stat()).size;
    const starts = await rangeStarts(fh, size, options.ranges, options.cuts);
    if (starts.length < 2) return undefined;
    onNote(`reading ${task.fileNames[task.fileIndex] ?? "?"} in ${starts.length} byte ranges`);
    for (let k = 1; k < starts.length; k++) {
      const range = {
        ...task,
        fd: fh.fd,
        start: starts[k] ?? 0,
        end: starts[k + 1] ?? -1,
        partTasks: options.partTasks ?? PART_TASKS,
        maxTasks: options.maxTasks ?? MAX_RANGE_TASKS,
        maxAttemptIds:
          options.attemptLimit !== undefined && size < options.attemptLimit.belowBytes
            ? options.attemptLimit.ids
            : Infinity,
      };
      const elsewhere = options.readElsewhere;
      workers.push(elsewhere === undefined ? startRange(options.script, range, onNote) : elsewhere(range));
    }
    const open_ = fh;
    const read: ReadAt = async (buffer, length, position) =>
      (await open_.read(buffer, 0, length, position)).bytesRead;
    // Hashed here: the first range as it is read, then the rest while the workers read it (this
    // thread has time then, and a hash thread would be a third on two cores).
    const hash = createHash("sha256");
    // A second range given back while the first is read (task- or attempt-heavy: RangeLimits) is
    // this thread's to read next: from then on the file is hashed on a thread of its own, from its
    // start, as a sequential read hashes it, and not here (where it would delay the read of the
    // range given back).
    let hashHere = true;
    let decided = false;
    const sink = {
      update: (chunk: Buffer): void => {
        if (hashHere) hash.update(chunk);
      },
    };
    const second = workers.length === 1 ? workers[0]?.answer : undefined;
    void second?.then((answer) => {
      if (decided || (answer !== undefined && !("problem" in answer))) return;
      hashHere = false;
      rehash = (options.hashElsewhere ?? hashInWorker)(fh);
    });
    let done = await readRange(
      read,
      0,
      starts[1] ?? -1,
      0,
      builder,
      task.fileIndex,
      undefined,
      sink,
      firstLine,
    );
    // Not JSON lines: the sequential read says so.
    if (done.refused) return "restart";
    if (second !== undefined && !done.halted) await settledYet(second);
    decided = true;
    let hashed = hashHere ? done.bytes + (await hashRest(read, done.bytes, hash)) : -1;
    let lines = done.lines;
    let nonBlankLines = done.nonBlankLines;
    let bytes = done.bytes;
    for (let k = 1; k < starts.length; k++) {
      if (done.halted) return "restart";
      const reader = workers[k - 1];
      const answer = await reader?.answer;
      if (reader !== undefined && answer !== undefined && !("problem" in answer) && builder.healthy()) {
        for (let part = 0; part < answer.parts; part++) {
          const snapshot = await reader.part(part);
          // Its last part in hand, the worker goes before that part is absorbed: its heap and the
          // absorbed copy together would be the range read's peak.
          if (part === answer.parts - 1) await reader.stop();
          // A reader that dies after a part was absorbed leaves the builder half merged.
          if (snapshot === undefined || !builder.absorb(snapshot, lines)) return "restart";
        }
        lines += answer.lines;
        nonBlankLines += answer.nonBlankLines;
        bytes += answer.bytes;
        continue;
      }
      if (answer !== undefined && "problem" in answer) {
        onNote(`reading byte range ${k + 1} here: its reader found ${answer.why ?? "a problem"}`);
      }
      // Read here, in order: what a sequential read does (its problems with their line numbers).
      done = await readRange(read, starts[k] ?? 0, starts[k + 1] ?? -1, lines, builder, task.fileIndex);
      lines = done.lines;
      nonBlankLines += done.nonBlankLines;
      bytes += done.bytes;
    }
    let sha256: string | undefined;
    if (rehash !== undefined) {
      const whole = await rehash.result;
      rehash = undefined;
      if ("error" in whole) return "restart";
      hashed = whole.bytes;
      sha256 = whole.digest;
    }
    // A file that changed while it was read: the sequential read says so.
    if (hashed !== bytes) return "restart";
    return { sha256: sha256 ?? hash.digest("hex"), nonBlankLines };
  } catch {
    return "restart";
  } finally {
    // (Settled before the file is closed: the hash thread reads it by its fd.)
    await rehash?.cancel().catch(() => undefined);
    for (const w of workers) await w.stop().catch(() => undefined);
    await fh.close().catch(() => undefined);
  }
}

/**
 * The body of a range worker (src/range-worker.ts): reads its range into a builder of its own;
 * answers with what it read and the parts of the builder's state, or that the range has a problem.
 */
export async function readRangeState(
  task: RangeTask,
  makeBuilder: (task: RangeTask) => DatasetBuilder,
): Promise<RangeState> {
  const builder = makeBuilder(task);
  const read: ReadAt = (buffer, length, position) => readSync(task.fd, buffer, 0, length, position);
  const bytes = (task.end < 0 ? fstatSync(task.fd).size : task.end) - task.start;
  const limits = { tasks: task.maxTasks, attemptIds: task.maxAttemptIds, bytes };
  const done = await readRange(read, task.start, task.end, 0, builder, task.fileIndex, limits);
  const past = done.past ?? pastLimits(builder, limits, done.bytes, done.nonBlankLines);
  if (!builder.healthy() || done.halted || past !== undefined) {
    return {
      answer: {
        problem: true,
        // (A read stopped at a limit may end in half a line: the limit is why.)
        why: past ?? "a problem in its range",
      },
      part: () => {
        throw new Error("range-read: a range with a problem has no state to post");
      },
    };
  }
  const tasks = builder.taskCount();
  const size = tasksPerPart(tasks, builder.heldAttemptIds(), task.partTasks);
  const parts = Math.max(1, Math.ceil(tasks / size));
  return {
    answer: { lines: done.lines, nonBlankLines: done.nonBlankLines, bytes: done.bytes, parts },
    part: (k) => {
      const snapshot = builder.snapshot(k * size, Math.min(tasks, (k + 1) * size), k === parts - 1);
      return { snapshot, transfer: columnBuffers(snapshot.cols) };
    },
  };
}
