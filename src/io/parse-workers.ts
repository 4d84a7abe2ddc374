/**
 * Which worker threads a bundle uses to read large results files: the range-worker.js and
 * parse-worker.js built next to it.
 *
 * By default a plain results file of at least DEFAULT_RANGE_MIN_BYTES is read in byte ranges
 * (src/core/input/range-read.ts): the main thread reads the first range, one range worker each
 * later range, each into builder state of its own, merged in range order; with
 * os.availableParallelism() ranges, at most MAX_READ_RANGES, and none with one core. On 2 cores
 * this took less CPU time and less wall time than a sequential read on every shape measured
 * (BENCHMARKS.md). MODEL_GATE_READ_RANGES=0 (or 1) reads every file on the main thread; =N cuts
 * a file into N ranges (at most MAX_READ_RANGES).
 *
 * The older parse pool (src/core/input/parse-pool.ts: the main thread splits, workers parse the
 * lines and send rows back) costs more than it saves since the byte scanner (scan-row.ts) and
 * is off: MODEL_GATE_PARSE_THREADS=N (at most MAX_PARSE_THREADS) turns it on instead of ranges.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";

import type { ParseWorkerOptions } from "../core/input/parse-pool.js";

const WORKER_FILE = "parse-worker.js";
const RANGE_WORKER_FILE = "range-worker.js";
const MAX_PARSE_THREADS = 4;
const MAX_READ_RANGES = 8;

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
  const ranges = Math.min(count(env["MODEL_GATE_READ_RANGES"]) ?? (threads > 0 ? 0 : cores), MAX_READ_RANGES);
  if (ranges < 2 || !existsSync(fileURLToPath(rangeScript))) return { script, threads };
  return { script, threads, ranges: { script: rangeScript, ranges } };
}
