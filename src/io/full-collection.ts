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

type Gc = (options?: { type: "major" | "minor" }) => void;

/** V8's `gc` once taken (null: it could not be). */
let taken: Gc | null | undefined;
let full: (() => void) | undefined;
let young: (() => void) | undefined;

function gcFunction(): Gc | undefined {
  if (taken !== undefined) return taken ?? undefined;
  taken = null;
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === "function") {
    taken = exposed as Gc;
    return taken;
  }
  try {
    setFlagsFromString("--expose-gc");
    const gc: unknown = runInNewContext("gc");
    if (typeof gc === "function") taken = gc as Gc;
  } catch {
    // No collection on request: nothing else changes.
  } finally {
    setFlagsFromString("--no-expose-gc");
  }
  return taken ?? undefined;
}

export function fullCollection(): (() => void) | undefined {
  const gc = gcFunction();
  if (gc === undefined) return undefined;
  full ??= () => {
    gc();
  };
  return full;
}

/**
 * A collection of the young generation alone (V8's minor GC, a few milliseconds): what a gzip
 * read asks for as it goes on (src/read/lines/file-stream.ts GZIP_COLLECT_BYTES).
 */
export function youngCollection(): (() => void) | undefined {
  const gc = gcFunction();
  if (gc === undefined) return undefined;
  young ??= () => {
    gc({ type: "minor" });
  };
  return young;
}

/** fullCollection(), unless MODEL_GATE_COLLECT=0 turns the collections off (docs/large-exports.md). */
export function fullCollectionFor(
  env: Readonly<Record<string, string | undefined>>,
): (() => void) | undefined {
  return env["MODEL_GATE_COLLECT"] === "0" ? undefined : fullCollection();
}
