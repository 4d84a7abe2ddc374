/**
 * Hashing an input file. SHA-256 is native but synchronous: on the main thread it takes time
 * the reader could use. A plain file of at least WORKER_HASH_MIN_BYTES is therefore hashed
 * by a worker thread that reads the same open file (the same file descriptor, by position, so a
 * rename or replacement of the path cannot make it read another file) while the main thread
 * reads it; a smaller one is hashed inline, where starting a thread would cost more than it
 * saves, and so is a gzip file (few bytes to hash for the lines they hold). The digest is of the
 * same bytes as long as the file is not modified while it is read; a change of its length in that
 * time (an export still being written) is caught by comparing the byte counts of both reads, and
 * reported.
 *
 * The worker runs a self-contained script (only node: built-ins) passed as text: it needs none
 * of the bundle. If the worker cannot run at all (it fails to start or dies without an answer),
 * the file is hashed again on the main thread by position, so the digest never depends on
 * threads being available.
 */

import { createHash } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import { Worker } from "node:worker_threads";

import { errorCode, errorMessage } from "./fs-errors.js";

export const WORKER_HASH_MIN_BYTES = 8 * 1024 * 1024;
const HASH_READ_BYTES = 1024 * 1024;

const HASH_WORKER_SOURCE = `
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const { readSync } = require("node:fs");
const { createHash } = require("node:crypto");
const hash = createHash("sha256");
const buf = Buffer.allocUnsafe(workerData.chunk);
let pos = 0;
try {
  for (;;) {
    const n = readSync(workerData.fd, buf, 0, buf.length, pos);
    if (n === 0) break;
    hash.update(buf.subarray(0, n));
    pos += n;
  }
  parentPort.postMessage({ digest: hash.digest("hex"), bytes: pos });
} catch (e) {
  parentPort.postMessage({
    error: {
      code: e && typeof e.code === "string" ? e.code : undefined,
      message: e instanceof Error ? e.message : String(e),
    },
  });
}
`;

/** What a hash of the whole file gives: the digest and the bytes hashed, or a read error. */
export type FileHash =
  | { readonly digest: string; readonly bytes: number }
  | { readonly error: { readonly code: string | undefined; readonly message: string } };

/** A hash of an open file being computed on another thread. */
export interface PendingHash {
  readonly result: Promise<FileHash>;
  /** Stops the worker (when the main read failed); resolves once it no longer uses the fd. */
  readonly cancel: () => Promise<void>;
}

/** Hashes the file by position on the main thread (the fallback when the worker cannot run). */
async function hashByPosition(fh: FileHandle): Promise<FileHash> {
  const hash = createHash("sha256");
  const buf = Buffer.allocUnsafe(HASH_READ_BYTES);
  let pos = 0;
  try {
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) break;
      hash.update(buf.subarray(0, bytesRead));
      pos += bytesRead;
    }
  } catch (e) {
    return { error: { code: errorCode(e), message: errorMessage(e) } };
  }
  return { digest: hash.digest("hex"), bytes: pos };
}

function isFileHash(m: unknown): m is FileHash {
  if (typeof m !== "object" || m === null) return false;
  if ("digest" in m) return typeof m.digest === "string" && "bytes" in m && typeof m.bytes === "number";
  return "error" in m && typeof m.error === "object" && m.error !== null;
}

/** Starts hashing `fh` on a worker thread; the fd must stay open until `result` or `cancel` settles. */
export function hashInWorker(fh: FileHandle): PendingHash {
  let worker: Worker;
  try {
    worker = new Worker(HASH_WORKER_SOURCE, {
      eval: true,
      workerData: { fd: fh.fd, chunk: HASH_READ_BYTES },
      // The worker only hashes: a small heap keeps its share of the peak RSS small.
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
    });
  } catch {
    const result = hashByPosition(fh);
    return { result, cancel: () => result.then(() => undefined) };
  }
  let cancelled = false;
  const answer = new Promise<FileHash | undefined>((settle) => {
    worker.once("message", (m: unknown) => {
      settle(isFileHash(m) ? m : undefined);
    });
    worker.once("error", () => {
      settle(undefined);
    });
    worker.once("exit", () => {
      settle(undefined);
    });
  });
  const result = answer.then((r) => (r !== undefined || cancelled ? r : hashByPosition(fh)));
  return {
    // An undefined answer after a cancel is never awaited as a digest (the read has failed).
    result: result.then((r) => r ?? { error: { code: undefined, message: "cancelled" } }),
    cancel: async () => {
      cancelled = true;
      await worker.terminate();
    },
  };
}
