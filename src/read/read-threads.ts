/**
 * Which worker threads a bundle reads large results files with: the range-worker.js built next
 * to it (src/range-worker.ts). By default the main thread reads, scans and builds (the byte
 * scanner, rows/row-scanner.ts) while a hash thread computes the file's SHA-256; a plain results file
 * of at least AUTO_RANGE_MIN_BYTES is read in 2 byte ranges when the machine has two cores or
 * more (range-read.ts): the main thread reads the first range and hashes the file,
 * a range worker the second, each into builder state of its own, merged in range order; no line
 * or row crosses threads, and the report is the same byte for byte. Below
 * AUTO_RANGE_LEAN_BELOW_BYTES a range worker that holds (or, from its first 8 MiB, would hold)
 * more than AUTO_RANGE_MAX_ATTEMPT_IDS attempt ids gives its range back to the main thread, as
 * one past 65,536 tasks always does: merging what such a range holds costs more than reading it
 * here. The figures are in BENCHMARKS.md.
 *
 * MODEL_GATE_READ_RANGES=N (2 to MAX_READ_RANGES) reads a plain results file of at least
 * DEFAULT_RANGE_MIN_BYTES in N ranges, with no attempt-id limit; `0` or `1` reads every file
 * whole.
 *
 * MODEL_GATE_PARSE_THREADS started a parse pool (worker threads parsing lines the main thread
 * split), which cost more than it saved once the byte scanner read rows on the main thread; it
 * was removed. A value set is no longer read: the read is the default one, and a debug note says
 * so.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";

import type { RangeReadOptions } from "./range-read.js";

const RANGE_WORKER_FILE = "range-worker.js";
const MAX_READ_RANGES = 8;
/** Without MODEL_GATE_READ_RANGES, plain results files this large are read in 2 ranges. */
export const AUTO_RANGE_MIN_BYTES = 256 * 1024 ** 2;
/**
 * ... and below this size a range worker holding more than AUTO_RANGE_MAX_ATTEMPT_IDS attempt ids
 * leaves its range to the main thread: merging them costs memory, and at this size memory comes
 * first. 640 Ki ids is the worker's share of a 10⁶-row export whose every row is an attempt of a
 * compared model (the bench's deep-attempts shape); more is given back. From 1 GiB, speed comes
 * first.
 */
export const AUTO_RANGE_LEAN_BELOW_BYTES = 1024 ** 3;
export const AUTO_RANGE_MAX_ATTEMPT_IDS = 640 * 1024;

/** How a bundle reads large results files (the CLI and the action pass it to the reader). */
export interface ReadThreads {
  /** Byte ranges read on range-worker.js threads; absent: every file is read whole. */
  readonly ranges?: RangeReadOptions;
  /** Said in the debug output of a read (a setting that is no longer read). */
  readonly note?: string;
}

function count(raw: string | undefined): number | undefined {
  return raw !== undefined && /^\d{1,2}$/.test(raw) ? Number(raw) : undefined;
}

/**
 * Options for the bundle at `bundleUrl` (its import.meta.url); undefined when there is no
 * range-worker.js next to it (running from source, as the tests do).
 */
export function bundledReadThreads(
  bundleUrl: string,
  env: Readonly<Record<string, string | undefined>>,
  cores: number = availableParallelism(),
): ReadThreads | undefined {
  const script = new URL(RANGE_WORKER_FILE, bundleUrl);
  if (script.protocol !== "file:" || !existsSync(fileURLToPath(script))) return undefined;
  const parseThreads = env["MODEL_GATE_PARSE_THREADS"];
  const note =
    parseThreads === undefined || parseThreads === ""
      ? undefined
      : `MODEL_GATE_PARSE_THREADS is no longer read (the parse pool was removed: it cost more than it ` +
        `saved); reading as without it`;
  const given = env["MODEL_GATE_READ_RANGES"];
  // (Any value given, even one not understood, is the user's choice: only an unset one is ours.)
  const auto = (given === undefined || given === "") && cores >= 2;
  const ranges = auto ? 2 : Math.min(count(given) ?? 0, MAX_READ_RANGES);
  return {
    ...(ranges < 2
      ? {}
      : {
          ranges: {
            script,
            ranges,
            ...(auto
              ? {
                  minBytes: AUTO_RANGE_MIN_BYTES,
                  attemptLimit: { ids: AUTO_RANGE_MAX_ATTEMPT_IDS, belowBytes: AUTO_RANGE_LEAN_BELOW_BYTES },
                }
              : {}),
          },
        }),
    ...(note === undefined ? {} : { note }),
  };
}
