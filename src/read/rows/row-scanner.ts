/**
 * A byte scanner for the common shape of an export row (issue 15): it reads the fields the gate
 * needs straight from the line's UTF-8 bytes, without building the object JSON.parse builds
 * (which was most of the reader's time), and accepts a line only when it is sure of it.
 *
 * `scan` returns true only for a line that is valid JSON, a flat object whose keys are all
 * distinct, and a row checkExportRow accepts; then `out` holds exactly what checkExportRow would
 * put there. For any other line it returns false and the caller takes the JSON.parse path
 * (rows.ts), which finds and words every problem: so both paths have the same checks and the same
 * messages by construction, and the scanner only has to be right about what it accepts
 * (test/input/scan-row.test.ts compares both on fuzzed lines).
 *
 * What it leaves to JSON.parse (returns false): any backslash (escapes), any control byte, DEL or
 * byte C2 (U+0080–U+00BF: C1 controls are refused in ids) inside a string, an object or array as
 * the value of a field the gate ignores, numbers with a fraction, an exponent or a minus sign, or
 * of more than 15 digits in a field the gate reads, a wrong type or value anywhere, a repeated key,
 * more than MAX_OTHER_KEYS other keys.
 *
 * What makes it cheap per row (most of a row's bytes are the same as in the row before):
 * - The line's shape: the bytes of the row before from the end of one value to the start of the
 *   next (`,"key":` with its spaces), remembered with the field each key names. A line whose keys
 *   come in the same order matches them byte for byte, which also proves them distinct and the
 *   punctuation right (the same bytes in the same place parse the same way); where it differs,
 *   the scanner reads key by key from there, and the line's shape replaces the old one.
 * - The four fields that repeat in runs (dataset and harness revisions, model, cluster) are
 *   compared with the bytes of their last value, then looked up in a small table of recent values
 *   by their bytes: a value seen recently comes back as the same string object, and no string is
 *   made. (A table for task ids and evidence items too cost more than the strings it saved:
 *   measured.)
 * - Bytes are compared, and strings searched for their closing quote, four at a time (DataView
 *   reads, which the JIT inlines; Buffer.compare costs ~150 ns a call, more than the few dozen
 *   bytes of a field, and indexOf would still leave every byte to check for control bytes).
 * It allocates nothing for a row but the strings it hands out (task id, evidence items or, for the
 * builder, one packed evidence list: see the constructor; attempt and repeating values when new).
 */

import { MAX_EVIDENCE_LENGTH, MAX_EVIDENCE_PER_TASK, MAX_ID_LENGTH } from "../limits.js";
import { SEPARATOR_CODE } from "./packed-evidence.js";
import type { ExportRow } from "./row-checks.js";
import type { Validity } from "../../core/model.js";

/** Buffer's native slicers (on its prototype in every Node release this runs on); toString
 * with a range validates its arguments first, a cost per string on this path. */
interface Slicer {
  latin1Slice(begin: number, end: number): string;
  utf8Slice(begin: number, end: number): string;
}
const FAST_SLICE =
  typeof (Buffer.prototype as unknown as Partial<Slicer>).latin1Slice === "function" &&
  typeof (Buffer.prototype as unknown as Partial<Slicer>).utf8Slice === "function";

// Field ids, by bit.
const F_TASK = 0;
const F_DATASET = 1;
const F_HARNESS = 2;
const F_MODEL = 3;
const F_VALIDITY = 4;
const F_RESULT = 5;
const F_REVIEW_REVISION = 6;
const F_ATTEMPT = 7;
const F_EVIDENCE = 8;
const F_CLUSTER = 9;
const F_PASSES = 10;
const F_FAILS = 11;
const F_INFRA_ERRORS = 12;
const F_MISSING = 13;
const F_OTHER = -1;
const KNOWN_FIELDS = 14;

const REQUIRED =
  (1 << F_TASK) |
  (1 << F_DATASET) |
  (1 << F_HARNESS) |
  (1 << F_MODEL) |
  (1 << F_VALIDITY) |
  (1 << F_REVIEW_REVISION);
const COUNTS = (1 << F_PASSES) | (1 << F_FAILS) | (1 << F_INFRA_ERRORS) | (1 << F_MISSING);

/** Keys of fields the gate ignores, remembered per line to find a repeated one. */
const MAX_OTHER_KEYS = 32;
/** A shape's keys and bytes at most (a longer one is not remembered). */
const MAX_SHAPE_KEYS = KNOWN_FIELDS + MAX_OTHER_KEYS;
const MAX_SHAPE_BYTES = 2048;

/** The longest string a StringTable holds, and the slots of the one for the fields that repeat
 * in runs (a cache of ids and evidence items by their bytes cost more than the strings it saved:
 * measured). */
const SLOT_BYTES = 96;
const REPEAT_SLOTS = 1 << 10;
/** A repeating field's bytes are remembered up to this length (longer ones: a string compare). */
const MAX_REPEAT_BYTES = 1024;
/** Evidence arrays of up to this many items are reused, one per length. */
const REUSED_EVIDENCE_LENGTHS = 8;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

/** How a string's byte is treated: one table load per byte. */
const BYTE_PLAIN = 0;
const BYTE_QUOTE = 1;
/** Leave the line to JSON.parse: C0 controls (invalid unescaped), backslash, DEL, C2. */
const BYTE_OTHER = 2;
const BYTE_NON_ASCII = 3;
const BYTE_CLASS = new Uint8Array(256);
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

function bytesOf(s: string): Uint8Array {
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

const KEYS: readonly (readonly [Uint8Array, number])[] = [
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
];
/** KEYS by length (keys are 5–16 bytes long). */
const KEYS_BY_LENGTH: (readonly [Uint8Array, number])[][] = [];
for (const entry of KEYS) (KEYS_BY_LENGTH[entry[0].length] ??= []).push(entry);

/** The values of validity and result, by index (each starts with its own letter: see wordAt). */
const VALIDITIES: readonly Validity[] = ["valid", "broken", "disputed", "unreviewed"];
const VALIDITY_WORDS: readonly Uint8Array[] = VALIDITIES.map(bytesOf);
const RESULT_WORDS: readonly Uint8Array[] = ["pass", "fail", "infra_error", "missing"].map(bytesOf);
const TRUE = bytesOf("true");
const FALSE = bytesOf("false");
const NULL = bytesOf("null");

function equalAt(b: Uint8Array, begin: number, end: number, word: Uint8Array): boolean {
  if (end - begin !== word.length) return false;
  for (let k = 0; k < word.length; k++) if (b[begin + k] !== word[k]) return false;
  return true;
}

/**
 * The index of the word of `words` that the JSON string at `p` is (`"word"`), or -1. The words
 * start with distinct letters and hold no quote: one candidate, compared with the bytes up to the
 * closing quote that must follow it.
 */
function wordAt(b: Buffer, p: number, end: number, words: readonly Uint8Array[]): number {
  if (b[p] !== QUOTE) return -1;
  const first = p + 1 < end ? b[p + 1] : -1;
  for (let w = 0; w < words.length; w++) {
    const word = words[w];
    if (word === undefined || word[0] !== first) continue;
    const close = p + 1 + word.length;
    return close < end && b[close] === QUOTE && equalAt(b, p + 1, close, word) ? w : -1;
  }
  return -1;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

/** The first position from `p` that is not JSON whitespace (`end` when the line ends first). */
function skipSpace(b: Buffer, p: number, end: number): number {
  while (p < end && isSpace(b[p] ?? 0)) p++;
  return p;
}

/** `word` at `p`: the position after it, or -1. */
function literal(b: Buffer, p: number, end: number, word: Uint8Array): number {
  const stop = p + word.length;
  return stop <= end && equalAt(b, p, stop, word) ? stop : -1;
}

/** Any JSON number at `p` (validated, not converted): the position after it, or -1. */
function number(b: Buffer, p: number, end: number): number {
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
function digits(b: Buffer, p: number, end: number): number {
  while (p < end && isDigit(b[p] ?? 0)) p++;
  return p;
}

function keyId(b: Buffer, begin: number, end: number): number {
  const candidates = KEYS_BY_LENGTH[end - begin];
  if (candidates === undefined) return F_OTHER;
  for (const [word, id] of candidates) if (equalAt(b, begin, end, word)) return id;
  return F_OTHER;
}

/**
 * Whether v[at, at + n) holds the bytes of r[rat, rat + n): four bytes at a time (DataView reads
 * are inlined by the JIT; a native compare costs more per call than these bytes do).
 */
function sameBytes(v: DataView, at: number, r: DataView, rat: number, n: number): boolean {
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
function plainWord(x: number): boolean {
  const q = x ^ 0x22222222;
  const s = x ^ 0x5c5c5c5c;
  return (
    ((x | ((x - 0x20202020) & ~x) | ((q - 0x01010101) & ~q) | ((s - 0x01010101) & ~s) | (x + 0x01010101)) &
      0x80808080) ===
    0
  );
}

function slice(b: Buffer, begin: number, end: number, ascii: boolean): string {
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
class RepeatCache {
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
function shortHash(v: DataView, at: number, n: number): number {
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
class StringTable {
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
class Shape {
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

export class RowScanner {
  /** Set by stringEnd: whether the string just scanned is all ASCII. */
  private ascii = true;
  /** Set by the value readers: the string or count read. */
  private text = "";
  private num = 0;
  /** Per line: the fields given as null, and whether an attempt was given. */
  private nulls = 0;
  private attemptGiven = false;
  private readonly otherKeys = new Int32Array(2 * MAX_OTHER_KEYS);
  private readonly items: string[] = [];
  /** An evidence array's items as they stand in the line: begin and end (closing quote) of each. */
  private spans = new Int32Array(2 * MAX_EVIDENCE_PER_TASK);
  /** Where a packed evidence list is put together (packEvidence), grown as needed. */
  private packing = Buffer.alloc(2 * 1024);
  private packingView = new DataView(this.packing.buffer, this.packing.byteOffset, this.packing.length);
  private readonly evidenceArrays: string[][] = Array.from({ length: REUSED_EVIDENCE_LENGTHS + 1 }, (_, n) =>
    new Array<string>(n).fill(""),
  );
  private readonly dataset = new RepeatCache();
  private readonly harness = new RepeatCache();
  private readonly model = new RepeatCache();
  private readonly cluster = new RepeatCache();
  private readonly repeats = new StringTable(REPEAT_SLOTS);
  private shape = new Shape();
  /** A view of the line's buffer (b.buffer: b starts at `base` in it), kept while it is the same. */
  private view: DataView = new DataView(new ArrayBuffer(0));
  private viewOf: ArrayBufferLike | undefined;
  /** The buffer `view` and `base` were last set for. */
  private viewed: Buffer | undefined;
  private base = 0;
  private nextShape = new Shape();

  /**
   * With `packEvidence`, an evidence array of 2 to MAX_EVIDENCE_PER_TASK distinct, non-empty ASCII
   * items comes as `packedEvidence`, one string (see ExportRow), instead of a string an item: the
   * builder keeps a task's list packed, and a task-heavy export's rows each made three strings
   * where one does (the items and their join; ~4–5% of the many-tasks preset's wall time). Only a reader
   * that knows packedEvidence may ask for it.
   */
  constructor(private readonly packEvidence = false) {}

  /**
   * Scans the line `b[begin, end)` (valid UTF-8, no line end) into `out`. true: the row is valid
   * and `out` holds it (its evidence array is reused by later calls: copy what you keep);
   * false: parse the line with JSON.parse instead (`out` is then in an unspecified state).
   */
  scan(b: Buffer, begin: number, end: number, out: ExportRow): boolean {
    out.result = -1;
    out.passes = 0;
    out.fails = 0;
    out.infraErrors = 0;
    out.missing = 0;
    out.evidence = undefined;
    out.packedEvidence = undefined;
    out.packedItems = 0;
    out.attempt = undefined;
    out.cluster = undefined;
    this.nulls = 0;
    this.attemptGiven = false;
    if (b !== this.viewed) {
      this.viewed = b;
      this.base = b.byteOffset;
      if (b.buffer !== this.viewOf) {
        this.viewOf = b.buffer;
        this.view = new DataView(b.buffer);
      }
    }
    const view = this.view;
    const base = this.base;
    let seen = 0;
    let others = 0;
    let p = begin;

    // The keys of the shape, as long as they match.
    const shape = this.shape;
    const count = shape.ok ? shape.count : 0;
    let k = 0;
    for (; k < count; k++) {
      const q = shape.match(view, base, p, end, k);
      if (q < 0) break;
      const field = shape.fields[k] ?? F_OTHER;
      if (field === F_OTHER) {
        this.otherKeys[2 * others] = p + (shape.keyBegin[k] ?? 0);
        this.otherKeys[2 * others + 1] = p + (shape.keyEnd[k] ?? 0);
        others++;
      } else {
        seen |= 1 << field;
      }
      p = this.value(b, q, end, field, out);
      if (p < 0) return false;
    }
    if (k === count && count > 0 && shape.match(view, base, p, end, k) === end)
      return this.complete(seen, out);

    // Key by key from there (the line's start, or the end of a value), recording the line's shape.
    const next = this.nextShape;
    next.startFrom(shape, k);
    let from: number;
    for (; ; k++) {
      from = p;
      if (k === 0) {
        p = skipSpace(b, p, end);
        if (b[p] !== LBRACE || p >= end) return false;
        p = skipSpace(b, p + 1, end);
        if (p >= end || b[p] === RBRACE) return false; // {} lacks every field
      } else {
        p = skipSpace(b, p, end);
        if (p >= end) return false;
        const c = b[p];
        if (c === RBRACE) break;
        if (c !== COMMA) return false;
        p = skipSpace(b, p + 1, end);
      }
      // A key.
      if (p >= end || b[p] !== QUOTE) return false;
      const keyBegin = p + 1;
      const keyEnd = this.stringEnd(b, keyBegin, end);
      if (keyEnd < 0) return false;
      const field = keyId(b, keyBegin, keyEnd);
      if (field === F_OTHER) {
        if (!this.newOtherKey(b, keyBegin, keyEnd, others)) return false;
        others++;
      } else {
        const bit = 1 << field;
        if ((seen & bit) !== 0) return false;
        seen |= bit;
      }
      p = skipSpace(b, keyEnd + 1, end);
      if (p >= end || b[p] !== COLON) return false;
      p = skipSpace(b, p + 1, end);
      next.add(b, from, p, field, keyBegin - from, keyEnd - from);
      // Its value.
      p = this.value(b, p, end, field, out);
      if (p < 0) return false;
    }
    // Only spaces after the object.
    for (let q = p + 1; q < end; q++) if (!isSpace(b[q] ?? 0)) return false;
    if (!this.complete(seen, out)) return false;
    next.add(b, from, end);
    if (next.ok) {
      this.nextShape = shape;
      this.shape = next;
    }
    return true;
  }

  /** The checks of a whole row once its fields are read: `seen` has a bit per key given. */
  private complete(seen: number, out: ExportRow): boolean {
    const given = seen & ~this.nulls;
    if ((given & REQUIRED) !== REQUIRED) return false;
    const counts = given & COUNTS;
    if ((given & (1 << F_RESULT)) !== 0) return counts === 0;
    // Pre-aggregated: all four counts, at least one above 0, and no attempt.
    if (counts !== COUNTS || this.attemptGiven) return false;
    if (out.passes === 0 && out.fails === 0 && out.infraErrors === 0 && out.missing === 0) return false;
    out.result = -1;
    return true;
  }

  /**
   * The string whose contents start at `begin`: returns the index of its closing quote, or -1 to
   * give up (no closing quote, or a byte left to JSON.parse: see the file's comment). Sets
   * `ascii`.
   */
  private stringEnd(b: Buffer, begin: number, end: number): number {
    const v = this.view;
    const base = this.base;
    let ascii = true;
    let p = begin;
    for (;;) {
      // Four bytes at a time while none of them is special (see plainWord), then the four bytes
      // that hold one (or the last ones) byte by byte.
      while (p + 4 <= end && plainWord(v.getInt32(base + p, true))) p += 4;
      const stop = p + 4 < end ? p + 4 : end;
      for (; p < stop; p++) {
        const k = BYTE_CLASS[b[p] ?? 0] ?? BYTE_OTHER;
        if (k === BYTE_PLAIN) continue;
        if (k === BYTE_QUOTE) {
          this.ascii = ascii;
          return p;
        }
        if (k === BYTE_OTHER) return -1;
        ascii = false;
      }
      if (p >= end) return -1;
    }
  }

  /** A key the gate ignores: false when the line already had it (or too many such keys). */
  private newOtherKey(b: Buffer, begin: number, end: number, count: number): boolean {
    if (count >= MAX_OTHER_KEYS) return false;
    const keys = this.otherKeys;
    const n = end - begin;
    for (let k = 0; k < count; k++) {
      const at = keys[2 * k] ?? 0;
      if ((keys[2 * k + 1] ?? 0) - at !== n) continue;
      let i = 0;
      while (i < n && b[at + i] === b[begin + i]) i++;
      if (i === n) return false;
    }
    keys[2 * count] = begin;
    keys[2 * count + 1] = end;
    return true;
  }

  /** The value of `field` at `p`, into `out`: the position after it, or -1 to give up. */
  private value(b: Buffer, p: number, end: number, field: number, out: ExportRow): number {
    if (p >= end) return -1;
    const c = b[p] ?? 0;
    if (field === F_OTHER) {
      // A value of a field the gate ignores: a string, number or literal (objects and arrays: no).
      if (c === QUOTE) {
        const close = this.stringEnd(b, p + 1, end);
        return close < 0 ? -1 : close + 1;
      }
      if (c === 0x74) return literal(b, p, end, TRUE);
      if (c === 0x66) return literal(b, p, end, FALSE);
      if (c === 0x6e) return literal(b, p, end, NULL);
      return number(b, p, end);
    }
    if (c === 0x6e) {
      // null: the same as absent for an optional field, an error for a required one.
      const q = literal(b, p, end, NULL);
      if (q >= 0) this.nulls |= 1 << field;
      return q;
    }
    switch (field) {
      case F_TASK: {
        const q = this.id(b, p, end, MAX_ID_LENGTH, false);
        if (q >= 0) out.taskId = this.text;
        return q;
      }
      case F_DATASET: {
        const q = this.repeated(b, p, end, this.dataset);
        if (q >= 0) out.datasetRevision = this.text;
        return q;
      }
      case F_HARNESS: {
        const q = this.repeated(b, p, end, this.harness);
        if (q >= 0) out.harnessRevision = this.text;
        return q;
      }
      case F_MODEL: {
        const q = this.repeated(b, p, end, this.model);
        if (q >= 0) out.modelConfig = this.text;
        return q;
      }
      case F_CLUSTER: {
        const q = this.repeated(b, p, end, this.cluster);
        if (q >= 0) out.cluster = this.text;
        return q;
      }
      case F_VALIDITY: {
        const w = wordAt(b, p, end, VALIDITY_WORDS);
        const validity = VALIDITIES[w];
        if (validity === undefined) return -1;
        out.validity = validity;
        return p + 2 + (VALIDITY_WORDS[w]?.length ?? 0);
      }
      case F_RESULT: {
        const r = wordAt(b, p, end, RESULT_WORDS);
        if (r < 0) return -1;
        out.result = r;
        return p + 2 + (RESULT_WORDS[r]?.length ?? 0);
      }
      case F_REVIEW_REVISION: {
        const q = this.count(b, p, end);
        if (q >= 0) out.reviewRevision = this.num;
        return q;
      }
      case F_PASSES:
      case F_FAILS:
      case F_INFRA_ERRORS:
      case F_MISSING: {
        const q = this.count(b, p, end);
        if (q < 0) return -1;
        const v = this.num;
        if (field === F_PASSES) out.passes = v;
        else if (field === F_FAILS) out.fails = v;
        else if (field === F_INFRA_ERRORS) out.infraErrors = v;
        else out.missing = v;
        return q;
      }
      case F_ATTEMPT: {
        const q = c === QUOTE ? this.id(b, p, end, MAX_ID_LENGTH, false) : this.count(b, p, end);
        if (q < 0) return -1;
        out.attempt = c === QUOTE ? this.text : this.num;
        this.attemptGiven = true;
        return q;
      }
      case F_EVIDENCE:
        return this.evidence(b, p, end, c, out);
      default:
        return -1;
    }
  }

  /** An integer >= 0 of at most 15 digits (always safe) at `p`, into `num`: the position after
   * it, or -1 to give up. */
  private count(b: Buffer, p: number, end: number): number {
    const start = p;
    const first = b[p] ?? 0;
    let v = 0;
    if (first === ZERO) {
      p++;
    } else if (first > ZERO && first <= NINE) {
      while (p < end) {
        const d = b[p] ?? 0;
        if (!isDigit(d)) break;
        v = v * 10 + (d - ZERO);
        p++;
      }
      if (p - start > 15) return -1;
    } else {
      return -1;
    }
    // A fraction or an exponent may still make an integer (1.0, 1e2): JSON.parse decides.
    const after = p < end ? b[p] : -1;
    if (after === 0x2e || after === 0x65 || after === 0x45) return -1;
    this.num = v;
    return p;
  }

  /**
   * An identifier's string at `p`, into `text`: non-empty (unless `allowEmpty`), at most
   * `maxLength` UTF-16 code units, no control character (stringEnd refuses C0, DEL and C1
   * bytes). Returns the position after its closing quote, or -1.
   */
  private id(b: Buffer, p: number, end: number, maxLength: number, allowEmpty: boolean): number {
    if (b[p] !== QUOTE) return -1;
    const begin = p + 1;
    const close = this.stringEnd(b, begin, end);
    if (close < 0 || (close === begin && !allowEmpty)) return -1;
    const n = close - begin;
    if (this.ascii) {
      if (n > maxLength) return -1;
      this.text = slice(b, begin, close, true);
      return close + 1;
    }
    // UTF-8 never takes fewer bytes than UTF-16 code units: only a long one needs its length.
    const s = slice(b, begin, close, false);
    if (s.length > maxLength) return -1;
    this.text = s;
    return close + 1;
  }

  /** A field that repeats in runs (see RepeatCache), into `text`; as `id`. */
  private repeated(b: Buffer, p: number, end: number, cache: RepeatCache): number {
    if (b[p] !== QUOTE) return -1;
    const begin = p + 1;
    const n0 = cache.length;
    const close = begin + n0;
    if (n0 > 0 && close < end && b[close] === QUOTE) {
      // The same bytes as a value already read: the same valid id.
      const at = this.base + begin;
      const v =
        cache.slot >= 0
          ? this.repeats.at(cache.slot, this.view, at, n0)
          : sameBytes(this.view, at, cache.view, 0, n0)
            ? cache.value
            : undefined;
      if (v !== undefined) {
        this.text = v;
        return close + 1;
      }
    }
    const q = this.stringEnd(b, begin, end);
    if (q <= begin) return -1;
    const ascii = this.ascii;
    const n = q - begin;
    if (n > MAX_ID_LENGTH && (ascii || slice(b, begin, q, false).length > MAX_ID_LENGTH)) return -1;
    const short = n <= SLOT_BYTES;
    const v = short
      ? this.repeats.get(b, this.view, this.base + begin, begin, q, ascii)
      : slice(b, begin, q, ascii);
    cache.set(b, begin, q, v, short ? this.repeats.slot : -1);
    this.text = v;
    return q + 1;
  }

  /** `evidence` at `p` (first byte `c`): a string or an array of strings, into `out`. */
  private evidence(b: Buffer, p: number, end: number, c: number, out: ExportRow): number {
    if (c === QUOTE) {
      const q = this.id(b, p, end, MAX_EVIDENCE_LENGTH, true);
      if (q >= 0) out.evidence = this.text;
      return q;
    }
    if (c !== LBRACKET) return -1;
    p = skipSpace(b, p + 1, end);
    if (p >= end) return -1;
    const items = this.items;
    let n = 0;
    // Whether the items so far may be packed: ASCII, non-empty, and within the cap. An ASCII
    // item's string is made only once it is known the list is not packed (spans say where).
    let packable = this.packEvidence;
    if (b[p] === RBRACKET) {
      p++;
    } else {
      for (;;) {
        // (What id() checks of an item, with its string left for later when ASCII.)
        if (b[p] !== QUOTE) return -1;
        const begin = p + 1;
        const close = this.stringEnd(b, begin, end);
        if (close < 0) return -1;
        if (this.ascii) {
          if (close - begin > MAX_EVIDENCE_LENGTH) return -1;
          if (close === begin) packable = false;
          if (n < MAX_EVIDENCE_PER_TASK) {
            this.spans[2 * n] = begin;
            this.spans[2 * n + 1] = close;
          } else {
            packable = false;
          }
          items[n++] = packable ? "" : slice(b, begin, close, true);
        } else {
          const s = slice(b, begin, close, false);
          if (s.length > MAX_EVIDENCE_LENGTH) return -1;
          packable = false;
          items[n++] = s;
        }
        p = skipSpace(b, close + 1, end);
        if (p >= end) return -1;
        const next = b[p];
        p++;
        if (next === RBRACKET) break;
        if (next !== COMMA) return -1;
        p = skipSpace(b, p, end);
        if (p >= end) return -1;
      }
    }
    if (packable && n >= 2 && this.distinctSpans(n)) {
      out.packedEvidence = this.packSpans(n);
      out.packedItems = n;
      return p;
    }
    if (this.packEvidence) this.unpackSpans(b, n);
    // An array of exactly n items, reused for that length (no array per row).
    let list = this.evidenceArrays[n];
    if (list === undefined) {
      list = items.slice(0, n);
    } else {
      for (let i = 0; i < n; i++) list[i] = items[i] ?? "";
    }
    out.evidence = list;
    return p;
  }

  /**
   * Makes the strings of the ASCII items left for later (evidence): each stands as "" in items
   * with its span non-empty (an item made at once is non-empty, or empty in the line too).
   */
  private unpackSpans(b: Buffer, n: number): void {
    const items = this.items;
    const spans = this.spans;
    for (let k = 0; k < n && k < MAX_EVIDENCE_PER_TASK; k++) {
      if (items[k] === "") {
        const begin = spans[2 * k] ?? 0;
        const close = spans[2 * k + 1] ?? 0;
        if (close > begin) items[k] = slice(b, begin, close, true);
      }
    }
  }

  /** Whether the n items of spans are pairwise different (compared by their bytes). */
  private distinctSpans(n: number): boolean {
    const spans = this.spans;
    const v = this.view;
    const base = this.base;
    for (let k = 1; k < n; k++) {
      const bk = spans[2 * k] ?? 0;
      const lk = (spans[2 * k + 1] ?? 0) - bk;
      for (let j = 0; j < k; j++) {
        const bj = spans[2 * j] ?? 0;
        if ((spans[2 * j + 1] ?? 0) - bj === lk && sameBytes(v, base + bk, v, base + bj, lk)) return false;
      }
    }
    return true;
  }

  /** The n items of spans joined by the packed list's separator, as one string. */
  private packSpans(n: number): string {
    const spans = this.spans;
    let size = n - 1;
    for (let k = 0; k < n; k++) size += (spans[2 * k + 1] ?? 0) - (spans[2 * k] ?? 0);
    // (+3: the words copied below may write up to 3 bytes past the last item.)
    if (size + 3 > this.packing.length) {
      this.packing = Buffer.alloc(Math.max(size + 3, 2 * this.packing.length));
      this.packingView = new DataView(this.packing.buffer, this.packing.byteOffset, this.packing.length);
    }
    const out = this.packing;
    const ov = this.packingView;
    const v = this.view;
    const base = this.base;
    let w = 0;
    for (let k = 0; k < n; k++) {
      if (k > 0) out[w++] = SEPARATOR_CODE;
      const begin = spans[2 * k] ?? 0;
      const length = (spans[2 * k + 1] ?? 0) - begin;
      // Four bytes at a time (the last word may take up to 3 bytes after the item: the line
      // goes on with its closing quote at least, and the next item or separator overwrites them).
      for (let j = 0; j < length; j += 4) ov.setInt32(w + j, v.getInt32(base + begin + j, true), true);
      w += length;
    }
    return slice(out, 0, w, true);
  }
}
