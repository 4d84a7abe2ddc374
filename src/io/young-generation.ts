/**
 * Holds V8's young generation small while a large export is read. A read keeps most of what it
 * allocates (task ids, evidence lists, counts), so V8 sees a high survival rate and doubles the
 * young generation again and again, Node 24 (V8 13, GitHub's runtime for this action) to four
 * times the size Node 20 stops at. That space is resident memory on top of what the read holds,
 * so the peak RSS depended on the Node version (BENCHMARKS.md).
 *
 * The size limit V8 offers (--max-semi-space-size) is read once, when the process starts, and a
 * process cannot set it for itself; the growth factor is read at each growth. So once the new
 * space has reached the cap, growth is stopped (--semi-space-growth-factor=1). The cap is
 * YOUNG_GENERATION_CAP_BYTES until the reader says the read has become task-heavy (as many tasks
 * as its full collections start at), then LARGE_READ_YOUNG_GENERATION_BYTES. On an export of few
 * tasks the young generation is a real share of the peak, and a larger one saves nothing; a
 * task-heavy read holds old objects that point at young ones (its growing columns), which every
 * young collection must visit, so fewer, larger young collections save it time, at a small share
 * of its peak.
 *
 * Left alone when the user set the young generation's size themselves (NODE_OPTIONS or node's
 * own flags). Changes no result, only where memory goes: MODEL_GATE_COLLECT=0 turns it off with
 * the full collections (docs/large-exports.md).
 *
 * A gzip read also asks for a young collection every so often (youngGenerationFor's `collect`,
 * src/read/lines/file-stream.ts GZIP_COLLECT_BYTES): zlib's buffers of lines die young, but their
 * bytes lie outside V8's heap and hasten no collection.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { youngCollection } from "./full-collection.js";

/** The new space at which its growth stops, until the read has become task-heavy. */
export const YOUNG_GENERATION_CAP_BYTES = 8 * 1024 * 1024;

/** The cap of a task-heavy read: half of the new space Node 20 grows to. */
export const LARGE_READ_YOUNG_GENERATION_BYTES = 16 * 1024 * 1024;

/** V8's own growth factor, set again when a task-heavy read's cap is raised. */
const DEFAULT_GROWTH_FACTOR = 2;

/** What the cap reads and sets of V8 (a test passes fakes). */
export interface V8Heap {
  /** The new space's size in bytes now. */
  newSpaceBytes(): number;
  setFlags(flags: string): void;
}

/** This process's V8. */
export const NODE_V8: V8Heap = {
  newSpaceBytes: () => getHeapSpaceStatistics().find((s) => s.space_name === "new_space")?.space_size ?? 0,
  setFlags: (flags) => {
    setFlagsFromString(flags);
  },
};

/** A flag that sets the young generation's size or growth, given to node by the user (V8 takes
 * `_` for `-` in a flag's name). */
const USER_SIZED = /--(?:(?:max|min)[-_]semi[-_]space[-_]size|semi[-_]space[-_]growth[-_]factor)/;

/**
 * A check to call as a read goes on (every few thousand lines), told whether the read has become
 * task-heavy: once the new space has reached the cap it stops its growth; once the read is
 * task-heavy it lets it grow to the larger cap and stops it there, and from then on returns at
 * once. Undefined when the user sized the young generation (`execArgv`, NODE_OPTIONS) or
 * MODEL_GATE_COLLECT=0 turns the gate's memory measures off.
 */
export function youngGenerationCap(
  env: Readonly<Record<string, string | undefined>>,
  execArgv: readonly string[],
  heap: V8Heap = NODE_V8,
): ((taskHeavy: boolean) => void) | undefined {
  if (env["MODEL_GATE_COLLECT"] === "0") return undefined;
  if (execArgv.some((a) => USER_SIZED.test(a)) || USER_SIZED.test(env["NODE_OPTIONS"] ?? ""))
    return undefined;
  // held: the growth is stopped now; large: the read is task-heavy (the larger cap applies);
  // done: nothing is left to do.
  let held = false;
  let large = false;
  let done = false;
  const growth = (factor: number): boolean => {
    try {
      heap.setFlags(`--semi-space-growth-factor=${factor}`);
      return true;
    } catch {
      // A V8 that refuses the flag grows its young generation as it would have: nothing else changes.
      return false;
    }
  };
  return (taskHeavy) => {
    if (done) return;
    if (!large && taskHeavy) {
      large = true;
      if (held) {
        held = false;
        if (!growth(DEFAULT_GROWTH_FACTOR)) done = true;
        return;
      }
    }
    if (held) return;
    if (heap.newSpaceBytes() < (large ? LARGE_READ_YOUNG_GENERATION_BYTES : YOUNG_GENERATION_CAP_BYTES))
      return;
    held = true;
    if (!growth(1) || large) done = true;
  };
}

/**
 * What a read asks of the young generation (src/read/read-dataset.ts YoungGeneration): the cap,
 * and a young collection every so often on a gzip file. Undefined with MODEL_GATE_COLLECT=0.
 */
export function youngGenerationFor(
  env: Readonly<Record<string, string | undefined>>,
  execArgv: readonly string[],
): { readonly cap?: (taskHeavy: boolean) => void; readonly collect?: () => void } | undefined {
  if (env["MODEL_GATE_COLLECT"] === "0") return undefined;
  const cap = youngGenerationCap(env, execArgv);
  const collect = youngCollection();
  return { ...(cap === undefined ? {} : { cap }), ...(collect === undefined ? {} : { collect }) };
}
