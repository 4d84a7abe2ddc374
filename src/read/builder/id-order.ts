/**
 * Task numbers in the code-unit order of their ids (compareCodeUnits), for the dataset order of
 * a revision's tasks: the one sort of every task a read makes. The same order as sorting with
 * compareCodeUnits, in less time: the numbers are first counted into buckets by their id's first
 * code unit (ASCII ones a bucket each, every other one in a last bucket, which sorts after them
 * all), so each comparison sort is over a smaller bucket, with a comparator that compares two
 * strings once, not twice (the ids are distinct: see idOrder).
 */

/** Buckets: 0 for "", 1 + c for an ASCII first code unit c, ASCII_BUCKETS + 1 for any other. */
const ASCII_BUCKETS = 128;
const BUCKETS = ASCII_BUCKETS + 2;

function bucketOf(id: string): number {
  if (id.length === 0) return 0;
  const c = id.charCodeAt(0);
  return c < ASCII_BUCKETS ? c + 1 : ASCII_BUCKETS + 1;
}

/**
 * Sorts `tasks` (task numbers, indices into `ids`) in place so that their ids are in code-unit
 * order. The ids of the numbers in `tasks` must be pairwise distinct (a revision's task ids are):
 * two numbers whose ids are equal are left in an unspecified order.
 */
export function idOrder(tasks: Uint32Array, ids: readonly (string | undefined)[]): void {
  const n = tasks.length;
  const starts = new Int32Array(BUCKETS + 1);
  const buckets = new Uint8Array(n);
  for (let k = 0; k < n; k++) {
    const bucket = bucketOf(ids[tasks[k] ?? 0] ?? "");
    buckets[k] = bucket;
    starts[bucket + 1] = (starts[bucket + 1] ?? 0) + 1;
  }
  for (let c = 0; c < BUCKETS; c++) starts[c + 1] = (starts[c + 1] ?? 0) + (starts[c] ?? 0);
  const fill = starts.slice();
  // (Sorted as Arrays: V8's typed-array sort with a comparator is slower.)
  const sorted = new Array<number>(n);
  for (let k = 0; k < n; k++) {
    const bucket = buckets[k] ?? 0;
    const at = fill[bucket] ?? 0;
    sorted[at] = tasks[k] ?? 0;
    fill[bucket] = at + 1;
  }
  // (One string comparison a call: distinct ids are never equal, and a number equals only itself.)
  const before = (x: number, y: number): number => ((ids[x] ?? "") < (ids[y] ?? "") ? -1 : x === y ? 0 : 1);
  let w = 0;
  for (let c = 0; c < BUCKETS; c++) {
    const from = starts[c] ?? 0;
    const to = starts[c + 1] ?? 0;
    if (to - from > 1) {
      const part = sorted.slice(from, to);
      part.sort(before);
      for (let k = 0; k < part.length; k++) tasks[w++] = part[k] ?? 0;
    } else if (to > from) {
      tasks[w++] = sorted[from] ?? 0;
    }
  }
}
