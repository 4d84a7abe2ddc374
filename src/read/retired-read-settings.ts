/**
 * Environment variables that chose how earlier builds read large exports, and no longer do. Every
 * file is now read whole, and hashed, on the main thread: the parse pool (MODEL_GATE_PARSE_THREADS)
 * and the byte-range workers (MODEL_GATE_READ_RANGES) were removed because they did not pay on the
 * two-core machines the gate runs on (BENCHMARKS.md). A value still set changes nothing: the bundles say so in their debug
 * output (MODEL_GATE_DEBUG=1 for the CLI, the step debug log for the action), so that a setting
 * that stopped working is not silently taken for one that works.
 */

const RETIRED: readonly { readonly name: string; readonly why: string }[] = [
  { name: "MODEL_GATE_READ_RANGES", why: "reading in byte ranges was removed: it did not pay on two cores" },
  { name: "MODEL_GATE_PARSE_THREADS", why: "the parse pool was removed: it cost more than it saved" },
];

/** One debug note for each retired setting given a value in `env`, in a fixed order. */
export function retiredReadSettingNotes(env: Readonly<Record<string, string | undefined>>): string[] {
  return RETIRED.filter(({ name }) => (env[name] ?? "") !== "").map(
    ({ name, why }) => `${name} is no longer read (${why}); reading as without it`,
  );
}
