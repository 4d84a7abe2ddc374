/**
 * Which parse workers a bundle uses (src/core/input/parse-pool.ts): the parse-worker.js built
 * next to it, with no thread by default. Since the byte scanner (scan-row.ts) the main thread
 * parses a plain export faster than it can hand the lines to a worker and take the rows back
 * (BENCHMARKS.md: on every shape measured the pool cost more CPU and more wall time on 2
 * cores), so the second core is left to the hash worker. MODEL_GATE_PARSE_THREADS=N (at most
 * MAX_PARSE_THREADS) turns the pool on; 0 or unset parses on the main thread.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

import type { ParseWorkerOptions } from "../core/input/parse-pool.js";

const WORKER_FILE = "parse-worker.js";
const MAX_PARSE_THREADS = 4;

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
  const raw = env["MODEL_GATE_PARSE_THREADS"];
  const threads = raw !== undefined && /^\d{1,2}$/.test(raw) ? Math.min(Number(raw), MAX_PARSE_THREADS) : 0;
  return { script, threads };
}
