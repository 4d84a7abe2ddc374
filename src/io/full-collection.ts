/**
 * A full garbage collection the gate can ask for where a large read leaves most of its memory as
 * garbage: in the builder's last step (dataset-finish.ts) once the read-only state is dropped (before the
 * Dataset's table is made beside what is held), once the read returns (the builder itself), and
 * once the fragility search is done (before the evaluations at each review revision). V8 collects
 * when its heuristics say so, usually later, and the peak RSS is then the live state plus that
 * garbage; a collection at these points costs little beside the read (figures in BENCHMARKS.md;
 * below COLLECT_MIN_TASKS none is asked).
 *
 * node does not expose `gc` without --expose-gc, which a user's `node dist/cli.js` or GitHub's
 * runner does not pass: the flag is set for a moment to take `gc` from a new context (as Jest's
 * leak detector does) and cleared again. Undefined when that fails: the gate then runs as before.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let cached: (() => void) | null | undefined;

export function fullCollection(): (() => void) | undefined {
  if (cached !== undefined) return cached ?? undefined;
  cached = null;
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === "function") {
    cached = () => {
      (exposed as () => void)();
    };
    return cached;
  }
  try {
    setFlagsFromString("--expose-gc");
    const gc: unknown = runInNewContext("gc");
    if (typeof gc === "function")
      cached = () => {
        (gc as () => void)();
      };
  } catch {
    // No collection on request: nothing else changes.
  } finally {
    setFlagsFromString("--no-expose-gc");
  }
  return cached ?? undefined;
}

/** fullCollection(), unless MODEL_GATE_COLLECT=0 turns the collections off (docs/large-exports.md). */
export function fullCollectionFor(
  env: Readonly<Record<string, string | undefined>>,
): (() => void) | undefined {
  return env["MODEL_GATE_COLLECT"] === "0" ? undefined : fullCollection();
}
