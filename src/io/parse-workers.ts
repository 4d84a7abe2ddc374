/**
 * Which worker threads a bundle uses to read large results files: the range-worker.js and
 * parse-worker.js built next to it. By default none: the main thread reads, scans and builds
 * (the byte scanner, scan-row.ts) while a hash thread computes the file's SHA-256.
 *
 * MODEL_GATE_READ_RANGES=N (2 to MAX_READ_RANGES) reads a plain results file of at least
 * DEFAULT_RANGE_MIN_BYTES in N byte ranges (src/core/input/range-read.ts): the main thread reads
 * the first and hashes the file, one range worker each later range, each into builder state of
 * its own, merged in range order; no line or row crosses threads, and the report is the same
 * byte for byte. Unset, a file of at least AUTO_RANGE_MIN_BYTES is read in 2 ranges when the
 * machine has two cores or more, and any smaller file whole; below AUTO_RANGE_LEAN_BELOW_BYTES a
 * range worker that holds (or, from its first 8 MiB, would hold) more than
 * AUTO_RANGE_MAX_ATTEMPT_IDS attempt ids gives its range back to the main thread, as one past
 * 65,536 tasks always does. On this project's 2-core machine at 10⁶ rows (~0.6 GB) ranges took
 * ~0.8× the wall time of a sequential read on the generator's, wide-evidence and deep-attempts
 * shapes at +7–24 MiB of peak memory (deep-attempts, 600,000 attempt ids in the worker's range,
 * +12 MiB: ranges post attempt ids in parts); many-tasks is given back after its first 8 MiB,
 * every line of which made a new task (range-read.ts). At 10⁷ rows
 * (6 GB) 0.6–0.7× (11.7–15.0 s against 16.4–22.4 s), where the read is nearly all of the run.
 * `0` or `1` reads every file whole.
 *
 * MODEL_GATE_PARSE_THREADS=N (at most MAX_PARSE_THREADS) starts the older parse pool instead
 * (src/core/input/parse-pool.ts: the main thread splits, workers parse the lines and send rows
 * back), which costs more than it saves since the byte scanner. 0 or unset: off.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";

import type { ParseWorkerOptions } from "../core/input/parse-pool.js";

const WORKER_FILE = "parse-worker.js";
const RANGE_WORKER_FILE = "range-worker.js";
const MAX_PARSE_THREADS = 4;
const MAX_READ_RANGES = 8;
/** Without MODEL_GATE_READ_RANGES, plain results files this large are read in 2 ranges. */
export const AUTO_RANGE_MIN_BYTES = 256 * 1024 ** 2;
/**
 * ... and below this size a range worker holding more than AUTO_RANGE_MAX_ATTEMPT_IDS attempt ids
 * leaves its range to the main thread: merging them costs ~20 bytes an id in parts of 32 Ki ids
 * (range-read.ts; ~50 posted whole), and at this size the 150 MB of a ≤ 10,000-task export comes
 * first. 640 Ki ids is the worker's share of a 10⁶-row export whose every row is an attempt of a
 * compared model (deep-attempts: 600,000 ids, +12 MiB, 137–140 MiB in all); more is given back.
 * From 1 GiB, speed comes first (10⁷ rows in < 15 s).
 */
export const AUTO_RANGE_LEAN_BELOW_BYTES = 1024 ** 3;
export const AUTO_RANGE_MAX_ATTEMPT_IDS = 640 * 1024;

function count(raw: string | undefined): number | undefined {
  return raw !== undefined && /^\d{1,2}$/.test(raw) ? Number(raw) : undefined;
}

/**
 * Options for the bundle at `bundleUrl` (its import.meta.url); undefined when there is no
 * parse-worker.js next to it (running from source, as the tests do).
 */
export function bundledParseWorkers(
  bundleUrl: string,
  env: Readonly<Record<string, string | undefined>>,
  cores: number = availableParallelism(),
): ParseWorkerOptions | undefined {
  const script = new URL(WORKER_FILE, bundleUrl);
  if (script.protocol !== "file:" || !existsSync(fileURLToPath(script))) return undefined;
  const threads = Math.min(count(env["MODEL_GATE_PARSE_THREADS"]) ?? 0, MAX_PARSE_THREADS);
  const rangeScript = new URL(RANGE_WORKER_FILE, bundleUrl);
  const given = env["MODEL_GATE_READ_RANGES"];
  // (Any value given, even one not understood, is the user's choice: only an unset one is ours.)
  const auto = (given === undefined || given === "") && cores >= 2;
  const ranges = threads > 0 ? 0 : auto ? 2 : Math.min(count(given) ?? 0, MAX_READ_RANGES);
  if (ranges < 2 || !existsSync(fileURLToPath(rangeScript))) return { script, threads };
  return {
    script,
    threads,
    ranges: {
      script: rangeScript,
      ranges,
      ...(auto
        ? {
            minBytes: AUTO_RANGE_MIN_BYTES,
            attemptLimit: { ids: AUTO_RANGE_MAX_ATTEMPT_IDS, belowBytes: AUTO_RANGE_LEAN_BELOW_BYTES },
          }
        : {}),
    },
  };
}
