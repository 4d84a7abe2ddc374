/**
 * The previous file's rows as hashes, for the append-only check (append-only.ts): an
 * open-addressing table of (key hash, value hash, row ordinal, state) in typed arrays, 29 bytes a
 * slot at a load of at most 0.7, so a previous export of 10⁶ rows takes about 60 MB whatever the
 * length of its lines. Several rows may share a key (repeated attempts without an `attempt` id,
 * several reviews of one task at one revision): each is its own slot, matched at most once.
 *
 * Hashes are 53 bits (two 32-bit multiplicative lanes), so a changed row passes for unchanged
 * only if its value collides with the old one: about 1 in 2⁵³.
 */

const EMPTY = 0;
/** An earlier row not yet found in the current files. */
export const PENDING = 1;
/** Found, with the same value. */
export const MATCHED = 2;
/** Not found with its value, but a current row has its key with another value: changed. */
export const CHANGED = 3;

const MAX_LOAD = 0.7;

/** A 53-bit hash of a string (two independent 32-bit lanes). */
export function hash53(s: string): number {
  let a = 0x9e3779b9 ^ s.length;
  let b = 0x7f4a7c15;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x85ebca6b);
    a ^= a >>> 15;
    b = Math.imul(b ^ c, 0xc2b2ae35);
    b ^= b >>> 13;
  }
  a = Math.imul(a ^ (a >>> 16), 0x27d4eb2f);
  a ^= a >>> 15;
  b = Math.imul(b ^ (b >>> 16), 0x165667b1);
  b ^= b >>> 16;
  return (a >>> 0) * 2 ** 21 + (b >>> 11);
}

export class RowTable {
  private capacity: number;
  private keys: Float64Array;
  private values: Float64Array;
  private ordinals: Uint32Array;
  private states: Uint8Array;
  /** For CHANGED slots: the ordinal of the first current row that had the key (capped). */
  readonly changedBy = new Map<number, number>();
  size = 0;

  constructor(initialCapacity = 1024) {
    this.capacity = initialCapacity;
    this.keys = new Float64Array(initialCapacity);
    this.values = new Float64Array(initialCapacity);
    this.ordinals = new Uint32Array(initialCapacity);
    this.states = new Uint8Array(initialCapacity);
  }

  private slotOf(key: number): number {
    // The low bits of the key come from lane b; mixing in the high ones spreads clustered keys.
    return ((key % 0x100000000) ^ Math.floor(key / 0x100000000)) & (this.capacity - 1);
  }

  add(key: number, value: number, ordinal: number): void {
    if (this.size + 1 > this.capacity * MAX_LOAD) this.grow();
    let i = this.slotOf(key);
    while (this.states[i] !== EMPTY) i = (i + 1) & (this.capacity - 1);
    this.keys[i] = key;
    this.values[i] = value;
    this.ordinals[i] = ordinal;
    this.states[i] = PENDING;
    this.size++;
  }

  private grow(): void {
    const { keys, values, ordinals, states } = this;
    this.capacity *= 2;
    this.keys = new Float64Array(this.capacity);
    this.values = new Float64Array(this.capacity);
    this.ordinals = new Uint32Array(this.capacity);
    this.states = new Uint8Array(this.capacity);
    this.size = 0;
    for (let j = 0; j < states.length; j++) {
      if (states[j] !== EMPTY) {
        this.add(keys[j] as number, values[j] as number, ordinals[j] as number);
      }
    }
  }

  /**
   * A current row: matches one pending earlier row with its key and value; when none matches but
   * earlier rows have the key, those are marked CHANGED (by the first such current row).
   */
  see(key: number, value: number, ordinal: number, keepChangedBy: boolean): void {
    const mask = this.capacity - 1;
    let sameKey = false;
    for (let i = this.slotOf(key); this.states[i] !== EMPTY; i = (i + 1) & mask) {
      if (this.keys[i] !== key) continue;
      const st = this.states[i];
      if (st === MATCHED) continue;
      if (this.values[i] === value) {
        this.states[i] = MATCHED;
        this.changedBy.delete(i);
        return;
      }
      sameKey = true;
    }
    if (!sameKey) return;
    for (let i = this.slotOf(key); this.states[i] !== EMPTY; i = (i + 1) & mask) {
      if (this.keys[i] !== key || this.states[i] === MATCHED) continue;
      if (this.states[i] === PENDING) {
        this.states[i] = CHANGED;
        if (keepChangedBy) this.changedBy.set(i, ordinal);
      }
    }
  }

  /** The first `limit` earlier rows not matched, by ordinal (the file order); memory O(limit). */
  firstUnmatched(limit: number): { ordinal: number; state: number; slot: number }[] {
    const out: { ordinal: number; state: number; slot: number }[] = [];
    for (let i = 0; i < this.capacity; i++) {
      const st = this.states[i];
      if (st !== PENDING && st !== CHANGED) continue;
      const ordinal = this.ordinals[i] as number;
      if (out.length === limit && ordinal >= (out[limit - 1]?.ordinal ?? 0)) continue;
      let at = out.length;
      while (at > 0 && (out[at - 1]?.ordinal ?? 0) > ordinal) at--;
      out.splice(at, 0, { ordinal, state: st, slot: i });
      if (out.length > limit) out.pop();
    }
    return out;
  }

  /** Earlier rows not matched, counted without listing them. */
  unmatchedCount(): number {
    let n = 0;
    for (let i = 0; i < this.capacity; i++) {
      const st = this.states[i];
      if (st === PENDING || st === CHANGED) n++;
    }
    return n;
  }
}
