/**
 * Parsing a large results export on worker threads (issue 4: JSON.parse was ~45% of the main
 * thread on a 10⁶-row export, and it is the one step that needs no shared state).
 *
 * The main thread still reads, hashes and splits the file (line-stream.ts) and still builds the
 * Dataset (dataset-builder.ts); only "parse the line and check its fields" moves. Lines go to the
 * workers in batches, round robin; the answers (row-codec.ts) are applied strictly in line order,
 * together with the problems the line splitter reported between those lines, so the Dataset and
 * every message come out exactly as when the lines are parsed on the main thread.
 *
 * At most QUEUED_PER_THREAD batches per thread are in flight: when the workers fall behind, the
 * reader waits for them (memory stays bounded). A batch keeps its lines until it is applied, so
 * when a worker cannot start or dies (out of memory, a bug), its batches, and every later one,
 * are parsed on the main thread instead: same output, only slower. A note says so. There is no
 * timeout: the worker answers every batch or dies (an exception in it ends it with an "error"
 * event), and parsing a line cannot loop.
 */

import { Worker } from "node:worker_threads";

import {
  BatchDecoder,
  batchLines,
  isEncodedBatch,
  newSlot,
  type DecodedLineSink,
  type EncodedBatch,
  type LineBatch,
  type Slot,
} from "./row-codec.js";
import { LINE_PLAIN } from "./line-flags.js";
import type { ByteLines } from "./line-stream.js";
import type { RangeReadOptions } from "./range-read.js";
import type { ExportRow } from "./rows.js";

export interface ParseWorkerOptions {
  /** The worker script: the bundle's parse-worker.js (see src/parse-worker.ts). */
  readonly script: URL;
  /** How many worker threads; 0 parses on the main thread. */
  readonly threads: number;
  /** Results files smaller than this are parsed on the main thread (starting a thread costs ~30 ms). */
  readonly minBytes?: number;
  /** Read large plain results files in byte ranges instead (range-read.ts; the bundle's choice). */
  readonly ranges?: RangeReadOptions;
}

export const DEFAULT_PARSE_MIN_BYTES = 8 * 1024 * 1024;
/*
 * Tuned on the 10⁶-row bench export (BENCHMARKS.md): smaller batches cost more per line and,
 * oddly, more memory (more messages, more native buffers between collections); larger ones
 * leave a thread idle longer at the start and the end.
 */
/** A batch is sent once it holds this many lines, or its slot (of SLOT_BYTES) is full. */
const BATCH_LINES = 8192;
const SLOT_BYTES = 512 * 1024;
const MAX_FREE_SLOTS = 16;
const QUEUED_PER_THREAD = 2;
/** A worker only parses: its heap holds a batch, its garbage and the interning table (row-codec.ts). */
const WORKER_HEAP_MB = 64;
const WORKER_YOUNG_MB = 4;
/** Answer buffers held for reuse per worker. */
const MAX_SPARE = 8;

/** Where the lines of one results file end up: a DatasetBuilder for that file. */
export interface ResultsLineTarget {
  /** Parses, checks and adds one line on this thread. */
  parseLine(text: string, line: number, plain: boolean): void;
  /** Adds a row checked by a worker (reused between calls: copy what you keep). */
  addRow(row: ExportRow, line: number): void;
  /** A line a worker found bad. */
  lineIssue(line: number, field: string | undefined, message: string): void;
  /** A problem the line splitter reported (line undefined: the whole file). */
  fileProblem(line: number | undefined, message: string): void;
}

interface Pending {
  /** The slot of its lines; undefined for a batch of splitter problems only. */
  readonly slot: Slot | undefined;
  readonly lines: number;
  readonly lineNos: number[];
  /** Splitter problems, each before the line at position `at` (the line count: after all). */
  readonly problems: { at: number; line: number | undefined; message: string }[];
  /** The worker that parses it, or undefined to parse on the main thread. */
  readonly thread: WorkerThread | undefined;
  /** The answer once it came; undefined after settling means: parse on the main thread. */
  answer: EncodedBatch | undefined;
  settled: boolean;
  done: Promise<void>;
}

class WorkerThread {
  readonly decoder = new BatchDecoder();
  private readonly waiting = new Map<number, (answer: EncodedBatch | undefined) => void>();
  failed = false;

  constructor(
    private readonly worker: Worker,
    onFailure: (why: string) => void,
  ) {
    worker.on("message", (m: unknown) => {
      if (!isEncodedBatch(m)) return;
      const settle = this.waiting.get(m.seq);
      this.waiting.delete(m.seq);
      settle?.(m);
    });
    const fail = (why: string): void => {
      if (this.failed) return;
      this.failed = true;
      for (const settle of this.waiting.values()) settle(undefined);
      this.waiting.clear();
      onFailure(why);
    };
    worker.on("error", (e: unknown) => {
      fail(e instanceof Error ? e.message : String(e));
    });
    worker.on("exit", (code: number) => {
      fail(`it exited with code ${code}`);
    });
  }

  /** Buffers of decoded answers, to give back with the next batch (see LineBatch.spare). */
  private spare: ArrayBuffer[] = [];

  giveBack(answer: EncodedBatch): void {
    if (this.spare.length < MAX_SPARE) this.spare.push(answer.records.buffer, answer.evidence.buffer);
  }

  send(batch: Omit<LineBatch, "spare">): Promise<EncodedBatch | undefined> {
    if (this.failed) return Promise.resolve(undefined);
    const spare = this.spare;
    this.spare = [];
    return new Promise((settle) => {
      this.waiting.set(batch.seq, settle);
      try {
        this.worker.postMessage({ ...batch, spare }, spare);
      } catch {
        this.waiting.delete(batch.seq);
        settle(undefined);
      }
    });
  }

  async stop(): Promise<void> {
    this.failed = true;
    await this.worker.terminate();
  }
}

export class ParsePool {
  private threads: WorkerThread[] | undefined = undefined;
  private next = 0;
  private seq = 0;
  private noted = false;

  constructor(
    private readonly options: ParseWorkerOptions,
    private readonly onNote: (message: string) => void,
  ) {}

  /** Whether a file of `bytes` bytes is parsed on worker threads. */
  wants(bytes: number): boolean {
    return this.options.threads > 0 && bytes >= (this.options.minBytes ?? DEFAULT_PARSE_MIN_BYTES);
  }

  private start(): WorkerThread[] {
    if (this.threads !== undefined) return this.threads;
    const threads: WorkerThread[] = [];
    for (let i = 0; i < this.options.threads; i++) {
      try {
        const worker = new Worker(this.options.script, {
          resourceLimits: {
            maxOldGenerationSizeMb: WORKER_HEAP_MB,
            maxYoungGenerationSizeMb: WORKER_YOUNG_MB,
          },
        });
        threads.push(
          new WorkerThread(worker, (why) => {
            this.note(`a parse worker stopped (${why}); its lines are parsed on the main thread`);
          }),
        );
      } catch (e) {
        this.note(
          `cannot start a parse worker (${e instanceof Error ? e.message : String(e)}); parsing on the main thread`,
        );
        break;
      }
    }
    if (threads.length > 0) this.onNote(`parsing large results files on ${threads.length} worker thread(s)`);
    this.threads = threads;
    return threads;
  }

  private note(message: string): void {
    if (this.noted) return;
    this.noted = true;
    this.onNote(message);
  }

  /** The next live worker, round robin; undefined when none is left. */
  private pick(): WorkerThread | undefined {
    const threads = this.start();
    for (let tries = 0; tries < threads.length; tries++) {
      const t = threads[this.next++ % threads.length];
      if (t !== undefined && !t.failed) return t;
    }
    return undefined;
  }

  private readonly freeSlots: Slot[] = [];

  /** @internal A slot for a batch, with room for a line of `bytes` bytes. */
  takeSlot(bytes: number): Slot {
    const i = this.freeSlots.findIndex((slot) => slot.data.byteLength >= bytes);
    const [reused] = i < 0 ? [] : this.freeSlots.splice(i, 1);
    return reused ?? newSlot(Math.max(bytes, SLOT_BYTES), BATCH_LINES);
  }

  /** @internal A slot whose batch was applied (no thread reads it any more). */
  releaseSlot(slot: Slot): void {
    if (this.freeSlots.length < MAX_FREE_SLOTS) this.freeSlots.push(slot);
  }

  /** The callbacks that stream one results file through the pool into `target`. */
  file(target: ResultsLineTarget): PooledFile {
    return new PooledFile(this, target, QUEUED_PER_THREAD * Math.max(1, this.options.threads));
  }

  /** @internal Sends a batch to a worker. */
  dispatch(batch: Omit<LineBatch, "seq" | "spare">): {
    thread: WorkerThread | undefined;
    answer: Promise<EncodedBatch | undefined>;
  } {
    const thread = this.pick();
    if (thread === undefined) return { thread, answer: Promise.resolve(undefined) };
    return { thread, answer: thread.send({ ...batch, seq: this.seq++ }) };
  }

  /** Stops the workers; call once every file is finished (or the read failed). */
  async close(): Promise<void> {
    const threads = this.threads ?? [];
    this.threads = [];
    await Promise.all(threads.map((t) => t.stop().catch(() => undefined)));
  }
}

/** One results file's lines and problems, in order, through the pool. */
export class PooledFile {
  private slot: Slot | undefined = undefined;
  private data: Buffer = Buffer.alloc(0);
  private offsets: Int32Array = new Int32Array(0);
  private flags: Uint8Array = new Uint8Array(0);
  /** Lines in the slot. */
  private count = 0;
  /** Bytes of the slot in use (copied runs). */
  private used = 0;
  /** The run of lines not copied yet: `run[runStart, runEnd)`, to go to the slot at runAt. */
  private run: Buffer | undefined = undefined;
  private runStart = 0;
  private runEnd = 0;
  private runAt = 0;
  private lineNos: number[] = [];
  private problems: Pending["problems"] = [];
  private readonly queue: Pending[] = [];

  constructor(
    private readonly pool: ParsePool,
    private readonly target: ResultsLineTarget,
    private readonly maxQueued: number,
  ) {}

  /**
   * line-stream's lines as bytes, copied into the batch's slot. Consecutive lines of one chunk are
   * copied together (the line ends and skipped blank lines between them too: offsets say where
   * each line is), once per run instead of once per line (a third of the main thread's time).
   * A run is copied before its chunk's afterChunk returns, while its bytes are still valid.
   */
  readonly lines: ByteLines = {
    bytes: (bytes, begin, end, line, flags) => {
      const capacity = this.data.length;
      if (this.run !== bytes || begin < this.runEnd || this.runAt + (end - this.runStart) > capacity) {
        this.copyRun();
        if (this.used + (end - begin) > capacity) {
          if (this.count > 0 || this.problems.length > 0) this.flush();
          else if (this.slot !== undefined) this.pool.releaseSlot(this.slot); // empty, too small
          this.useSlot(this.pool.takeSlot(end - begin));
        }
        this.run = bytes;
        this.runStart = begin;
        this.runAt = this.used;
      }
      this.runEnd = end;
      const n = this.count++;
      this.offsets[2 * n] = this.runAt + (begin - this.runStart);
      this.offsets[2 * n + 1] = this.runAt + (end - this.runStart);
      this.flags[n] = flags;
      this.lineNos.push(line);
      if (this.count >= BATCH_LINES) this.flush();
    },
  };

  private useSlot(slot: Slot | undefined): void {
    this.slot = slot;
    this.data = slot === undefined ? Buffer.alloc(0) : Buffer.from(slot.data);
    this.offsets = slot === undefined ? new Int32Array(0) : new Int32Array(slot.offsets);
    this.flags = slot === undefined ? new Uint8Array(0) : new Uint8Array(slot.flags);
    this.count = 0;
    this.used = 0;
  }

  /** Copies the pending run of lines into the slot. */
  private copyRun(): void {
    const run = this.run;
    if (run === undefined) return;
    run.copy(this.data, this.runAt, this.runStart, this.runEnd);
    this.used = this.runAt + (this.runEnd - this.runStart);
    this.run = undefined;
  }

  /** line-stream's ProblemHandler: kept in place between the lines. */
  readonly onProblem = (line: number | undefined, message: string): void => {
    this.problems.push({ at: this.lineNos.length, line, message });
  };

  /** After each chunk read: applies the answers that came, and waits while too many are pending. */
  readonly afterChunk = async (): Promise<void> => {
    this.copyRun();
    this.applySettled();
    while (this.queue.length > this.maxQueued) {
      const head = this.queue[0];
      if (head === undefined) break;
      await head.done;
      this.applySettled();
    }
  };

  /** After the file's last line: sends the rest and applies everything, in order. */
  async finish(): Promise<void> {
    this.flush();
    for (;;) {
      const head = this.queue[0];
      if (head === undefined) return;
      await head.done;
      this.applySettled();
    }
  }

  private flush(): void {
    this.copyRun();
    if (this.count === 0 && this.problems.length === 0) return;
    const slot = this.count > 0 ? this.slot : undefined;
    const sent = slot === undefined ? undefined : this.pool.dispatch({ ...slot, lines: this.count });
    const pending: Pending = {
      slot,
      lines: this.count,
      lineNos: this.lineNos,
      problems: this.problems,
      thread: sent?.thread,
      answer: undefined,
      settled: sent === undefined,
      done: Promise.resolve(),
    };
    if (sent !== undefined) {
      pending.done = sent.answer.then((answer) => {
        pending.answer = answer;
        pending.settled = true;
      });
    }
    this.queue.push(pending);
    // A slot without lines (only problems came) is kept for the next lines.
    if (slot !== undefined) this.useSlot(undefined);
    this.lineNos = [];
    this.problems = [];
  }

  /** Applies the settled batches at the head of the queue. */
  private applySettled(): void {
    for (;;) {
      const head = this.queue[0];
      if (head === undefined || !head.settled) return;
      this.queue.shift();
      this.apply(head);
      if (head.slot !== undefined) this.pool.releaseSlot(head.slot);
    }
  }

  private apply(batch: Pending): void {
    const target = this.target;
    const { lineNos, problems } = batch;
    let p = 0;
    const problemsBefore = (at: number): void => {
      for (; p < problems.length; p++) {
        const problem = problems[p];
        if (problem === undefined || problem.at > at) return;
        target.fileProblem(problem.line, problem.message);
      }
    };
    const answer = batch.answer;
    if (answer !== undefined && batch.thread !== undefined) {
      const sink: DecodedLineSink = {
        row: (row, i) => {
          problemsBefore(i);
          target.addRow(row, lineNos[i] ?? 0);
        },
        problem: (field, message, i) => {
          problemsBefore(i);
          target.lineIssue(lineNos[i] ?? 0, field, message);
        },
      };
      batch.thread.decoder.decode(answer, sink);
      batch.thread.giveBack(answer);
    } else if (batch.slot !== undefined) {
      const line = batchLines({ ...batch.slot, lines: batch.lines });
      const flags = new Uint8Array(batch.slot.flags, 0, batch.lines);
      for (let i = 0; i < batch.lines; i++) {
        problemsBefore(i);
        target.parseLine(line(i), lineNos[i] ?? 0, ((flags[i] ?? 0) & LINE_PLAIN) !== 0);
      }
    }
    problemsBefore(Number.POSITIVE_INFINITY);
  }
}
