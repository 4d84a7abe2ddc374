/**
 * Which worker threads a bundle uses to read large results files: the range-worker.js and
 * parse-worker.js built next to it. By default none: the main thread reads, scans and builds
 * (the byte scanner, scan-row.ts) while a hash thread computes the file's SHA-256.
 *
 * MODEL_GATE_READ_RANGES=N (2 to MAX_READ_RANGES) reads a plain results file of at least
 * DEFAULT_RANGE_MIN_BYTES in N byte ranges (src/core/input/range-read.ts): the main thread reads
 * the first and hashes the file, one range worker each later range, each into builder state of
 * its own, merged in range order; no line or row crosses threads, and the report is the same
 * byte for byte. It is off by default: on this project's shared 2-core machine it took 3–15% more
 * CPU time, up to 50 MB more peak memory and no less wall time on every bench shape at 10⁶ rows,
 * and ~10% less wall time at 10⁷ rows (measured for issue 15); worth it where a core is really free.
 *
 * MODEL_GATE_PARSE_THREADS=N (at most MAX_PARSE_THREADS) starts the older parse pool instead
 * (src/core/input/parse-pool.ts: the main thread splits, workers parse the lines and send rows
 * back), which costs more than it saves since the byte scanner. 0 or unset: off.
 */
import { existsSync } from "node:fs";
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
): ParseWorkerOptions | undefined {
  const script = new URL(WORKER_FILE, bundleUrl);
  if (script.protocol !== "file:" || !existsSync(fileURLToPath(script))) return undefined;
  const threads = Math.min(count(env["MODEL_GATE_PARSE_THREADS"]) ?? 0, MAX_PARSE_THREADS);
  const rangeScript = new URL(RANGE_WORKER_FILE, bundleUrl);
  const ranges = threads > 0 ? 0 : Math.min(count(env["MODEL_GATE_READ_RANGES"]) ?? 0, MAX_READ_RANGES);
  if (ranges < 2 || !existsSync(fileURLToPath(rangeScript))) return { script, threads };
  return { script, threads, ranges: { script: rangeScript, ranges } };
}
