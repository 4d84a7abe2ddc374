/**
 * The byte scanner's parts (row-scanner.ts): the ids of the fields it reads, how it classes the
 * bytes of a string, the JSON pieces it reads from bytes (literals, numbers, whitespace, keys),
 * byte comparisons four bytes at a time, the table that turns recent bytes back into the same
 * string object, and the remembered shape of the last line.
 */

import type { Validity } from "../../core/model.js";

/** Buffer's native slicers (on its prototype in every Node release this runs on); toString
 * with a range validates its arguments first, a cost per string on this path. */
export interface Slicer {
  latin1Slice(begin: number, end: number): string;
  utf8Slice(begin: number, end: number): string;
}
export const FAST_SLICE =
  typeof (Buffer.prototype as unknown as Partial<Slicer>).latin1Slice === "function" &&
  typeof (Buffer.prototype as unknown as Partial<Slicer>).utf8Slice === "function";

// Field ids, by bit.
export const F_TASK = 0;
export const F_DATASET = 1;
export const F_HARNESS = 2;
export const F_MODEL = 3;
export const F_VALIDITY = 4;
export const F_RESULT = 5;
export const F_REVIEW_REVISION = 6;
export const F_ATTEMPT = 7;
export const F_EVIDENCE = 8;
export const F_CLUSTER = 9;
export const F_PASSES = 10;
export const F_FAILS = 11;
export const F_INFRA_ERRORS = 12;
export const F_MISSING = 13;
export const F_BENCHMARK = 14;
export const F_METRICS = 15;
export const F_METRICS_SUM = 16;
export const F_METRICS_N = 17;
export const F_OTHER = -1;
export const KNOWN_FIELDS = 18;

export const REQUIRED =
  (1 << F_TASK) |
  (1 << F_DATASET) |
  (1 << F_HARNESS) |
  (1 << F_MODEL) |
  (1 << F_VALIDITY) |
  (1 << F_REVIEW_REVISION);
export const COUNTS = (1 << F_PASSES) | (1 << F_FAILS) | (1 << F_INFRA_ERRORS) | (1 << F_MISSING);
/** The metric objects of a pre-aggregated row. */
export const METRIC_SUMS = (1 << F_METRICS_SUM) | (1 << F_METRICS_N);

/** Keys of fields the gate ignores, remembered per line to find a repeated one. */
export const MAX_OTHER_KEYS = 32;
/** A shape's keys and bytes at most (a longer one is not remembered). */
export const MAX_SHAPE_KEYS = KNOWN_FIELDS + MAX_OTHER_KEYS;
export const MAX_SHAPE_BYTES = 2048;

/** The longest string a StringTable holds, and the slots of the one for the fields that repeat
 * in runs (a cache of ids and evidence items by their bytes cost more than the strings it saved). */
export const SLOT_BYTES = 96;
export const REPEAT_SLOTS = 1 << 10;
/** A repeating field's bytes are remembered up to this length (longer ones: a string compare). */
export const MAX_REPEAT_BYTES = 1024;
/** Evidence arrays of up to this many items are reused, one per length. */
export const REUSED_EVIDENCE_LENGTHS = 8;

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COLON = 0x3a;
export const COMMA = 0x2c;
export const LBRACE = 0x7b;
export const RBRACE = 0x7d;
export const LBRACKET = 0x5b;
export const RBRACKET = 0x5d;
export const MINUS = 0x2d;
export const ZERO = 0x30;
export const NINE = 0x39;

/** How a string's byte is treated: one table load per byte. */
export const BYTE_PLAIN = 0;
export const BYTE_QUOTE = 1;
/** Leave the line to JSON.parse: C0 controls (invalid unescaped), backslash, DEL, C2. */
export const BYTE_OTHER = 2;
export const BYTE_NON_ASCII = 3;
export const BYTE_CLASS = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  BYTE_CLASS[c] =
    c === QUOTE
      ? BYTE_QUOTE
      : c < 0x20 || c === BACKSLASH || c === 0x7f || c === 0xc2
        ? BYTE_OTHER
        : c >= 0x80
          ? BYTE_NON_ASCII
          : BYTE_PLAIN;
}

export function bytesOf(s: string): Uint8Array {
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

export const KEYS: readonly (readonly [Uint8Array, number])[] = [
  [bytesOf("task_id"), F_TASK],
  [bytesOf("dataset_revision"), F_DATASET],
  [bytesOf("harness_revision"), F_HARNESS],
  [bytesOf("model_config"), F_MODEL],
  [bytesOf("validity"), F_VALIDITY],
  [bytesOf("result"), F_RESULT],
  [bytesOf("review_revision"), F_REVIEW_REVISION],
  [bytesOf("attempt"), F_ATTEMPT],
  [bytesOf("evidence"), F_EVIDENCE],
  [bytesOf("cluster"), F_CLUSTER],
  [bytesOf("passes"), F_PASSES],
  [bytesOf("fails"), F_FAILS],
  [bytesOf("infra_errors"), F_INFRA_ERRORS],
  [bytesOf("missing"), F_MISSING],
  [bytesOf("benchmark"), F_BENCHMARK],
  [bytesOf("metrics"), F_METRICS],
  [bytesOf("metrics_sum"), F_METRICS_SUM],
  [bytesOf("metrics_n"), F_METRICS_N],
];
/** KEYS by length (keys are 5–16 bytes long). */
export const KEYS_BY_LENGTH: (readonly [Uint8Array, number])[][] = [];
for (const entry of KEYS) (KEYS_BY_LENGTH[entry[0].length] ??= []).push(entry);

/** The values of validity and result, by index (WordSet). */
export const VALIDITIES: readonly Validity[] = ["valid", "broken", "disputed", "unreviewed"];
export const TRUE = bytesOf("true");
export const FALSE = bytesOf("false");
export const NULL = bytesOf("null");

export function equalAt(b: Uint8Array, begin: number, end: number, word: Uint8Array): boolean {
  if (end - begin !== word.length) return false;
  for (let k = 0; k < word.length; k++) if (b[begin + k] !== word[k]) return false;
  return true;
}

/**
 * A small set of words that a JSON string may be, e.g. the values of `validity` (at most 12
 * bytes each, no quote). `at` compares a line's bytes with each word a word at a time, four bytes
 * in one DataView read (its first, middle and last four bytes cover a word of 4 to 12 bytes), so
 * the two such values of every row cost a few integer compares, not a loop over their bytes.
 */
export class WordSet {
  readonly words: readonly Uint8Array[];
  private readonly heads: Int32Array;
  private readonly mids: Int32Array;
  private readonly tails: Int32Array;

  constructor(words: readonly string[]) {
    this.words = words.map(bytesOf);
    const word = (w: Uint8Array, at: number): number => new DataView(w.buffer).getInt32(at, true);
    for (const w of this.words) {
      if (w.length < 4 || w.length > 12) throw new Error("WordSet: words of 4 to 12 bytes only");
    }
    this.heads = Int32Array.from(this.words, (w) => word(w, 0));
    this.mids = Int32Array.from(this.words, (w) => word(w, Math.min(4, w.length - 4)));
    this.tails = Int32Array.from(this.words, (w) => word(w, w.length - 4));
  }

  /**
   * The index of the word that the JSON string at `p` (`"word"`) is, or -1; `v` holds the line's
   * buffer with its byte 0 at `base`. Reads only bytes before `end`.
   */
  at(b: Buffer, v: DataView, base: number, p: number, end: number): number {
    if (b[p] !== QUOTE || p + 5 >= end) return -1;
    const at = base + p + 1;
    const head = v.getInt32(at, true);
    const words = this.words;
    for (let w = 0; w < words.length; w++) {
      if (this.heads[w] !== head) continue;
      const n = words[w]?.length ?? 0;
      const close = p + 1 + n;
      return close < end &&
        b[close] === QUOTE &&
        v.getInt32(at + n - 4, true) === this.tails[w] &&
        (n <= 8 || v.getInt32(at + 4, true) === this.mids[w])
        ? w
        : -1;
    }
    return -1;
  }
}

export const VALIDITY_WORDS = new WordSet(VALIDITIES);
export const RESULT_WORDS = new WordSet(["pass", "fail", "infra_error", "missing"]);

export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

export function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

/** The first position from `p` that is not JSON whitespace (`end` when the line ends first). */
export function skipSpace(b: Buffer, p: number, end: number): number {
  while (p < end && isSpace(b[p] ?? 0)) p++;
  return p;
}

/** `word` at `p`: the position after it, or -1. */
export function literal(b: Buffer, p: number, end: number, word: Uint8Array): number {
  const stop = p + word.length;
  return stop <= end && equalAt(b, p, stop, word) ? stop : -1;
}

/** Any JSON number at `p` (validated, not converted): the position after it, or -1. */
export function number(b: Buffer, p: number, end: number): number {
  if (p < end && b[p] === MINUS) p++;
  const first = p < end ? (b[p] ?? 0) : -1;
  if (first === ZERO) {
    p++;
  } else if (first > ZERO && first <= NINE) {
    p = digits(b, p + 1, end);
  } else {
    return -1;
  }
  if (p < end && b[p] === 0x2e) {
    const q = digits(b, p + 1, end);
    if (q === p + 1) return -1;
    p = q;
  }
  const e = p < end ? b[p] : -1;
  if (e === 0x65 || e === 0x45) {
    p++;
    if (p < end && (b[p] === 0x2b || b[p] === MINUS)) p++;
    const q = digits(b, p, end);
    if (q === p) return -1;
    p = q;
  }
  return p;
}

/** The first position from `p` that is not a digit. */
export function digits(b: Buffer, p: number, end: number): number {
  while (p < end && isDigit(b[p] ?? 0)) p++;
  return p;
}

export function keyId(b: Buffer, begin: number, end: number): number {
  const candidates = KEYS_BY_LENGTH[end - begin];
  if (candidates === undefined) return F_OTHER;
  for (const [word, id] of candidates) if (equalAt(b, begin, end, word)) return id;
  return F_OTHER;
}

/**
 * Whether v[at, at + n) holds the bytes of r[rat, rat + n): four bytes at a time (DataView reads
 * are inlined by the JIT; a native compare costs more per call than these bytes do).
 */
export function sameBytes(v: DataView, at: number, r: DataView, rat: number, n: number): boolean {
  if (n < 4) {
    for (let i = 0; i < n; i++) if (v.getUint8(at + i) !== r.getUint8(rat + i)) return false;
    return true;
  }
  const last = n - 4;
  for (let i = 0; i < last; i += 4) if (v.getInt32(at + i, true) !== r.getInt32(rat + i, true)) return false;
  // The last four bytes (overlapping the word before when n is not a multiple of 4).
  return v.getInt32(at + last, true) === r.getInt32(rat + last, true);
}

/**
 * Whether the four bytes of x (any order) are all plain in a string: ASCII, and none a control
 * byte, a quote, a backslash or DEL. Each test is exact on whether some byte has the property
 * (the bit tricks of "Determine if a word has a byte less than n"; DEL as x + 1 reaching 0x80, only
 * once no byte is at or above 0x80).
 */
export function plainWord(x: number): boolean {
  const q = x ^ 0x22222222;
  const s = x ^ 0x5c5c5c5c;
  return (
    ((x | ((x - 0x20202020) & ~x) | ((q - 0x01010101) & ~q) | ((s - 0x01010101) & ~s) | (x + 0x01010101)) &
      0x80808080) ===
    0
  );
}

/**
 * Whether the ASCII bytes b[begin, end) are the characters of `s` from `at` (one byte a
 * character: a non-ASCII byte never equals the character it would be part of). Used where the
 * string a line probably holds is known (RowScanner.expect): comparing costs less than making a
 * string.
 */
export function sameChars(b: Buffer, begin: number, end: number, s: string, at: number): boolean {
  if (at + (end - begin) > s.length) return false;
  for (let j = begin, k = at; j < end; j++, k++) if (b[j] !== s.charCodeAt(k)) return false;
  return true;
}

/**
 * Whether every character of `s` is one the scanner reads as it stands in a string (printable
 * ASCII other than the quote and the backslash): then bytes that are its characters followed by
 * a quote are a valid JSON string of exactly `s` (RowScanner.expect).
 */
export function isPlainText(s: string): boolean {
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c < 0x20 || c >= 0x7f || c === QUOTE || c === BACKSLASH) return false;
  }
  return true;
}

/**
 * Where the JSON string whose contents start at `begin` ends (its closing quote) when its bytes
 * are the characters of `s`, a plain text (isPlainText) or ""; else -1. No byte needs a class
 * check: bytes equal to plain characters are plain.
 */
export function knownStringEnd(b: Buffer, begin: number, end: number, s: string): number {
  const close = begin + s.length;
  return s.length > 0 && close < end && b[close] === QUOTE && sameChars(b, begin, close, s, 0) ? close : -1;
}

export function slice(b: Buffer, begin: number, end: number, ascii: boolean): string {
  if (FAST_SLICE) {
    const s = b as unknown as Slicer;
    return ascii ? s.latin1Slice(begin, end) : s.utf8Slice(begin, end);
  }
  return b.toString(ascii ? "latin1" : "utf8", begin, end);
}

/**
 * The last value of a field that repeats in runs: its length in bytes (-1: not remembered) and
 * where its bytes are, the slot of the StringTable that holds it (short values: the slot's string
 * is then the value, as long as the slot's bytes are the same) or its own copy (`slot` -1).
 */
export class RepeatCache {
  length = -1;
  slot = -1;
  value = "";
  readonly bytes = new Uint8Array(MAX_REPEAT_BYTES);
  readonly view = new DataView(this.bytes.buffer);

  /** Remembers `value`, the string of b[begin, end), which the table holds in `slot` (or -1). */
  set(b: Buffer, begin: number, end: number, value: string, slot: number): void {
    const n = end - begin;
    this.value = value;
    this.slot = slot;
    if (slot >= 0) {
      this.length = n;
    } else if (n <= MAX_REPEAT_BYTES) {
      b.copy(this.bytes, 0, begin, end);
      this.length = n;
    } else {
      this.length = -1;
    }
  }
}

/** A hash of the n bytes at v[at]: their length and three words (first, middle, last). */
export function shortHash(v: DataView, at: number, n: number): number {
  let h = Math.imul(n, 0x9e3779b1);
  if (n >= 4) {
    h = Math.imul(h ^ v.getInt32(at, true), 0x85ebca6b);
    h = Math.imul(h ^ v.getInt32(at + n - 4, true), 0xc2b2ae35);
    h = Math.imul(h ^ v.getInt32(at + ((n - 4) >> 1), true), 0x27d4eb2f);
  } else {
    for (let i = 0; i < n; i++) h = Math.imul(h ^ v.getUint8(at + i), 0x85ebca6b);
  }
  return h ^ (h >>> 15);
}

/**
 * Strings by their bytes (at most SLOT_BYTES), one per slot, a newer one taking the slot: the same
 * bytes give the same string object while it stays, and no string is made. The slot comes from
 * shortHash; the bytes are compared whole.
 */
export class StringTable {
  private readonly strings: string[];
  private readonly lengths: Int32Array;
  private readonly bytes: Uint8Array;
  private readonly view: DataView;
  private readonly mask: number;

  /** `slots`: a power of 2. */
  constructor(slots: number) {
    this.mask = slots - 1;
    this.strings = new Array<string>(slots).fill("");
    this.lengths = new Int32Array(slots).fill(-1);
    this.bytes = new Uint8Array(slots * SLOT_BYTES);
    this.view = new DataView(this.bytes.buffer);
  }

  /** The slot `get` used last. */
  slot = 0;

  /** The string of `slot` when its bytes are the n bytes at v[at]. */
  at(slot: number, v: DataView, at: number, n: number): string | undefined {
    return this.lengths[slot] === n && sameBytes(v, at, this.view, slot * SLOT_BYTES, n)
      ? this.strings[slot]
      : undefined;
  }

  /** The string of the UTF-8 bytes b[begin, end) (ASCII when `ascii`), which `v` holds at `at`. */
  get(b: Buffer, v: DataView, at: number, begin: number, end: number, ascii: boolean): string {
    const n = end - begin;
    const slot = shortHash(v, at, n) & this.mask;
    this.slot = slot;
    const o = slot * SLOT_BYTES;
    if (this.lengths[slot] === n && sameBytes(v, at, this.view, o, n)) return this.strings[slot] ?? "";
    const s = slice(b, begin, end, ascii);
    const bytes = this.bytes;
    for (let i = 0; i < n; i++) bytes[o + i] = b[begin + i] ?? 0;
    this.lengths[slot] = n;
    this.strings[slot] = s;
    return s;
  }
}

/**
 * The shape of the last line read key by key: segment k (k < count) is the bytes from the end of
 * value k - 1 (the line's start for k = 0) to the start of value k, which names `fields[k]`;
 * segment `count` is the bytes from the end of the last value to the line's end.
 */
export class Shape {
  count = 0;
  /** false: the line was too long or had too many keys to remember (the shape is not used). */
  ok = true;
  readonly bytes = new Uint8Array(MAX_SHAPE_BYTES);
  readonly view = new DataView(this.bytes.buffer);
  /** Segment k is bytes[starts[k], starts[k + 1]). */
  readonly starts = new Int32Array(MAX_SHAPE_KEYS + 2);
  readonly fields = new Int8Array(MAX_SHAPE_KEYS);
  /** Where the key's contents begin and end, from the segment's start (other keys: repeats). */
  readonly keyBegin = new Int32Array(MAX_SHAPE_KEYS);
  readonly keyEnd = new Int32Array(MAX_SHAPE_KEYS);

  /** Segment k at p (of a line ending at `end`, read through `v` at `base`): the position after
   * it, or -1. */
  match(v: DataView, base: number, p: number, end: number, k: number): number {
    const s = this.starts[k] ?? 0;
    const n = (this.starts[k + 1] ?? 0) - s;
    return p + n <= end && sameBytes(v, base + p, this.view, s, n) ? p + n : -1;
  }

  /** The first k segments of `other`. */
  startFrom(other: Shape, k: number): void {
    const used = other.starts[k] ?? 0;
    this.bytes.set(other.bytes.subarray(0, used));
    this.starts.set(other.starts.subarray(0, k + 1));
    this.fields.set(other.fields.subarray(0, k));
    this.keyBegin.set(other.keyBegin.subarray(0, k));
    this.keyEnd.set(other.keyEnd.subarray(0, k));
    this.count = k;
    // (k is 0 when `other` is not ok: nothing of it is kept.)
    this.ok = true;
  }

  /** Appends segment b[from, to) (the last one when `field` is undefined). */
  add(b: Buffer, from: number, to: number, field?: number, keyBegin = 0, keyEnd = 0): void {
    if (!this.ok) return;
    const k = this.count;
    const used = this.starts[k] ?? 0;
    if (k >= MAX_SHAPE_KEYS || used + (to - from) > MAX_SHAPE_BYTES) {
      this.ok = false;
      return;
    }
    b.copy(this.bytes, used, from, to);
    this.starts[k + 1] = used + (to - from);
    if (field === undefined) return;
    this.fields[k] = field;
    this.keyBegin[k] = keyBegin;
    this.keyEnd[k] = keyEnd;
    this.count = k + 1;
  }
}
