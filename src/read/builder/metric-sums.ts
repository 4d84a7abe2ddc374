/**
 * A compared model's sums of one metric by task (SPEC §1.1 `metrics`), held exactly: the sum of a
 * task is the exact sum of every value its rows gave, rounded once when asked (`rounded`). So it is
 * the same whatever the order of the rows, however the attempts are split over files, and a
 * pre-aggregated row's exact sum counts as its attempts would (floating-point addition in row order
 * would differ in the last bits from one order to another, and the report prints full doubles).
 *
 * Each sum is two doubles, hi + lo with hi the sum rounded and lo the exact rest (Knuth's TwoSum
 * keeps both exact); a sum whose exact value needs more than two doubles (values of one metric
 * more than ~2^50 apart on one task) moves to a list of non-overlapping doubles (Shewchuk's
 * expansion, as Python's math.fsum holds it), rounded once at the end. Counts are doubles too: a
 * pre-aggregated row may say any safe integer.
 */

function grown(a: Float64Array, size: number): Float64Array {
  const b = new Float64Array(size);
  b.set(a.subarray(0, Math.min(a.length, size)));
  return b;
}

export class MetricSums {
  private hi: Float64Array;
  private lo: Float64Array;
  /** How many attempts carry the metric, by task. */
  count: Float64Array;
  /** Tasks whose exact sum needs more than hi and lo: its partials, smallest first (hi, lo unused). */
  private spilled: Map<number, number[]> | undefined;

  constructor(size: number) {
    this.hi = new Float64Array(size);
    this.lo = new Float64Array(size);
    this.count = new Float64Array(size);
  }

  grow(size: number): void {
    this.hi = grown(this.hi, size);
    this.lo = grown(this.lo, size);
    this.count = grown(this.count, size);
  }

  /**
   * Adds `value` (finite, >= 0), the sum over `attempts` attempts, to task i. Returns false, adding
   * nothing, when the sum would pass the largest double.
   */
  add(i: number, value: number, attempts: number): boolean {
    const spill = this.spilled?.get(i);
    if (spill !== undefined) {
      const next = spill.slice();
      grow(next, value);
      if (!Number.isFinite(roundedSum(next))) return false;
      this.spilled?.set(i, next);
      this.count[i] = (this.count[i] ?? 0) + attempts;
      return true;
    }
    const h = this.hi[i] ?? 0;
    const l = this.lo[i] ?? 0;
    // s + e = h + value exactly (TwoSum).
    const s = h + value;
    const bs = s - h;
    const e = h - (s - bs) + (value - bs);
    // t + f = e + l exactly.
    const t = e + l;
    const bt = t - e;
    const f = e - (t - bt) + (l - bt);
    if (!Number.isFinite(s)) return false;
    if (f !== 0) {
      // Three parts: the sum needs the expansion.
      const parts = [l, h];
      grow(parts, value);
      (this.spilled ??= new Map()).set(i, parts);
      this.count[i] = (this.count[i] ?? 0) + attempts;
      return true;
    }
    // hi + lo = s + t exactly, hi = s + t rounded.
    const hi = s + t;
    const bh = hi - s;
    if (!Number.isFinite(hi)) return false;
    this.hi[i] = hi;
    this.lo[i] = s - (hi - bh) + (t - bh);
    this.count[i] = (this.count[i] ?? 0) + attempts;
    return true;
  }

  /** Task i's sum, rounded once (round to nearest, ties to even). */
  rounded(i: number): number {
    const spill = this.spilled?.get(i);
    return spill === undefined ? (this.hi[i] ?? 0) : roundedSum(spill);
  }
}

/**
 * Adds x to the partials (non-overlapping, increasing in magnitude, their sum exact), keeping them
 * so (Shewchuk's Grow-Expansion with zeros dropped, as in Python's msum recipe).
 */
function grow(partials: number[], x: number): void {
  let n = 0;
  for (const p of partials) {
    let y = p;
    if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
    const hi = x + y;
    const lo = y - (hi - x);
    if (lo !== 0) partials[n++] = lo;
    x = hi;
  }
  partials.length = n;
  partials.push(x);
}

/** The partials' exact sum rounded once (math.fsum's last step, with its half-way correction). */
export function roundedSum(partials: readonly number[]): number {
  let n = partials.length;
  if (n === 0) return 0;
  let hi = partials[--n] as number;
  let lo = 0;
  while (n > 0) {
    const x = hi;
    const y = partials[--n] as number;
    hi = x + y;
    const yr = hi - x;
    lo = y - yr;
    if (lo !== 0) break;
  }
  // A sum exactly half-way between two doubles rounds by the sign of what lies below it.
  const below = n > 0 ? (partials[n - 1] as number) : 0;
  if ((lo < 0 && below < 0) || (lo > 0 && below > 0)) {
    const y = lo * 2;
    const x = hi + y;
    if (y === x - hi) hi = x;
  }
  return hi;
}

const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);

/** Two 32-bit hashes of a name and a value's bits (FNV-1a over the name, then mixed). */
function entryHash(name: string, value: number, seed: number): number {
  let h = seed;
  for (let k = 0; k < name.length; k++) h = Math.imul(h ^ name.charCodeAt(k), 0x01000193);
  bits[0] = value;
  h = Math.imul(h ^ (words[0] as number), 0x85ebca6b);
  h = Math.imul(h ^ (words[1] as number), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/**
 * A 52-bit fingerprint of one attempt's metrics (names and values, in any order; 0 for none):
 * what the builder keeps of an attempt's metrics to tell whether a duplicate row of it carries the
 * same ones. Two different sets of metrics share one with odds of about 1 in 4.5·10^15.
 */
export function metricsFingerprint(names: readonly string[], values: Float64Array, count: number): number {
  if (count === 0) return 0;
  let a = 0;
  let b = 0;
  for (let k = 0; k < count; k++) {
    const name = names[k] as string;
    const value = values[k] as number;
    // XOR: the same entries in another order give the same fingerprint.
    a ^= entryHash(name, value, 0x811c9dc5);
    b ^= entryHash(name, value, 0x9e3779b9);
  }
  const f = (a >>> 0) * 2 ** 20 + (b >>> 12);
  return f === 0 ? 1 : f;
}
