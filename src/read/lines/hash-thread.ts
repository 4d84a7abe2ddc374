/**
 * SHA-256 of a large plain file on a thread of its own, over the very bytes the reader reads.
 *
 * The hash is native but synchronous: on the reading thread it is about a tenth of a task-heavy
 * export's read. Here the reader reads each chunk into a slot of a small ring of shared memory and
 * goes on with its lines; a worker hashes the slots in order. Nothing is read twice and nothing
 * is copied, so with no core to spare the work is the same as hashing on the reading thread, and
 * with one the hash is off the critical path. (A thread that read the file a second time, by its
 * own fd, showed no clear gain on a busy machine: BENCHMARKS.md.)
 *
 * The reader may reuse a slot only once the worker has hashed it: the worker publishes how many
 * chunks it has hashed, and the reader awaits that count or the worker's end (Atomics.waitAsync:
 * the event loop runs, so a worker that dies is noticed) in the rare case it is a whole ring
 * ahead. A worker that cannot start, fails or dies leaves `digest()` undefined: the caller then
 * hashes the bytes it read again itself, so the digest never depends on threads being available.
 */

import { Worker } from "node:worker_threads";

/** Plain files from this size are hashed on a thread: below it, starting one costs more than it
 * saves (and its memory would show in the peak RSS of small exports). */
export const HASH_THREAD_MIN_BYTES = 64 * 1024 * 1024;

/** Slots in the ring: the reader runs this many chunks ahead of the hash at most. */
const SLOTS = 8;

// The control words (Int32 each): chunks handed over, chunks hashed, the total once the read has
// ended (-1 before), then each slot's byte count.
const FILLED = 0;
const HASHED = 1;
const TOTAL = 2;
const LENGTHS = 3;

/**
 * How long the idle worker sleeps before it looks for chunks again. The reader does not wake it
 * for each chunk (a wake is a system call on the reading thread, a chunk), only once the read has
 * ended; the ring gives the worker many milliseconds of slack.
 */
const POLL_MS = 1;

/** The worker: only node: built-ins, run from text (it needs none of the bundle). */
const HASH_THREAD_SOURCE = `
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const ctrl = new Int32Array(workerData.control);
const data = workerData.data;
const slotBytes = workerData.slotBytes;
const hash = createHash("sha256");
let done = 0;
for (;;) {
  const filled = Atomics.load(ctrl, ${FILLED});
  while (done < filled) {
    const slot = done % ${SLOTS};
    hash.update(new Uint8Array(data, slot * slotBytes, Atomics.load(ctrl, ${LENGTHS} + slot)));
    done++;
    Atomics.store(ctrl, ${HASHED}, done);
    Atomics.notify(ctrl, ${HASHED});
  }
  const total = Atomics.load(ctrl, ${TOTAL});
  if (total >= 0 && done >= total) break;
  Atomics.wait(ctrl, ${FILLED}, done, ${POLL_MS});
}
parentPort.postMessage({ digest: hash.digest("hex"), chunks: done });
`;

interface AtomicsWaitAsync {
  waitAsync(
    ta: Int32Array,
    index: number,
    value: number,
    timeout: number,
  ): { async: false; value: string } | { async: true; value: Promise<string> };
}

/** A bound on each wait for a slot (the wait also ends with the worker): no waiter outlives it long. */
const WAIT_SLICE_MS = 100;

export class HashThread {
  private readonly control: Int32Array;
  private readonly slots: Buffer[];
  /** Buffers handed out so far (the next one is slot `given % SLOTS`). */
  private given = 0;
  private filled = 0;
  /** Set once the worker has failed or exited without a digest: the caller hashes again. */
  private failed = false;
  private ended = false;
  private readonly answer: Promise<string | undefined>;

  private constructor(
    private readonly worker: Worker,
    control: SharedArrayBuffer,
    data: SharedArrayBuffer,
    slotBytes: number,
  ) {
    this.control = new Int32Array(control);
    this.slots = Array.from({ length: SLOTS }, (_, k) => Buffer.from(data, k * slotBytes, slotBytes));
    this.answer = new Promise((settle) => {
      const fail = (): void => {
        this.failed = true;
        settle(undefined);
      };
      worker.once("message", (m: unknown) => {
        if (
          typeof m === "object" &&
          m !== null &&
          "digest" in m &&
          typeof m.digest === "string" &&
          "chunks" in m &&
          m.chunks === this.filled
        )
          settle(m.digest);
        else fail();
      });
      worker.once("error", fail);
      worker.once("exit", fail);
    });
  }

  /**
   * Starts the worker, with slots of `slotBytes`; undefined when no thread can be started (the
   * caller hashes on its own thread). `source` is the worker's script: the tests pass one that
   * fails.
   */
  static start(slotBytes: number, source: string = HASH_THREAD_SOURCE): HashThread | undefined {
    const control = new SharedArrayBuffer(4 * (LENGTHS + SLOTS));
    new Int32Array(control)[TOTAL] = -1;
    const data = new SharedArrayBuffer(SLOTS * slotBytes);
    let worker: Worker;
    try {
      worker = new Worker(source, {
        eval: true,
        workerData: { control, data, slotBytes },
        // It only hashes: a small heap keeps its share of the peak RSS small.
        resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
      });
    } catch {
      return undefined;
    }
    return new HashThread(worker, control, data, slotBytes);
  }

  /** The buffer to read the next chunk into, once the worker is done with what it held. */
  buffer(): Buffer | Promise<Buffer> {
    const i = this.given++;
    const slot = this.slots[i % SLOTS] as Buffer;
    // Chunk i reuses the slot of chunk i - SLOTS: that one must be hashed.
    const needed = i - SLOTS + 1;
    if (this.failed || Atomics.load(this.control, HASHED) >= needed) return slot;
    return this.slotFreed(needed).then(() => slot);
  }

  private async slotFreed(needed: number): Promise<void> {
    const atomics = Atomics as unknown as AtomicsWaitAsync;
    for (;;) {
      const hashed = Atomics.load(this.control, HASHED);
      if (this.failed || hashed >= needed) return;
      const w = atomics.waitAsync(this.control, HASHED, hashed, WAIT_SLICE_MS);
      // (Raced with the worker's end: a wait on shared memory holds no event loop open, so with
      // the worker gone and nothing else pending, Node would exit mid-read.)
      if (w.async) await Promise.race([w.value, this.answer]);
    }
  }

  /** The chunk just read into the last buffer given: the worker hashes it. */
  update(chunk: Buffer): void {
    if (this.failed || this.ended) return;
    const slot = this.filled % SLOTS;
    Atomics.store(this.control, LENGTHS + slot, chunk.length);
    this.filled++;
    Atomics.store(this.control, FILLED, this.filled);
  }

  /** The digest of every chunk given, once the file is read; undefined if the worker failed. */
  async digest(): Promise<string | undefined> {
    if (!this.failed && !this.ended) {
      this.ended = true;
      Atomics.store(this.control, TOTAL, this.filled);
      Atomics.notify(this.control, FILLED);
    }
    const digest = await this.answer;
    await this.stop();
    return digest;
  }

  /** Stops the worker (a read that ended early, or after the digest). */
  async stop(): Promise<void> {
    this.ended = true;
    await this.worker.terminate();
  }
}
