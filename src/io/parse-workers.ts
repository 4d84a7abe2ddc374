/**
 * Which parse workers a bundle uses (src/core/input/parse-pool.ts): the parse-worker.js built
 * next to it, one thread per core beyond the main thread's (at least one, at most
 * DEFAULT_MAX_THREADS). MODEL_GATE_PARSE_THREADS=N overrides the count (at most
 * MAX_PARSE_THREADS); 0 parses on the main thread.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";

import type { ParseWorkerOptions } from "../core/input/parse-pool.js";

const WORKER_FILE = "parse-worker.js";
/**
 * With two workers the main thread (reading, hashing, building the Dataset) is already the
 * bottleneck on the bench export; each more thread would cost ~15 MB for little.
 */
const DEFAULT_MAX_THREADS = 2;
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
  const threads =
    raw !== undefined && /^\d{1,2}$/.test(raw)
      ? Math.min(Number(raw), MAX_PARSE_THREADS)
      : Math.min(Math.max(availableParallelism() - 1, 1), DEFAULT_MAX_THREADS);
  return { script, threads };
}
