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
 * It allocates nothing on its own for a row but the strings it hands out, and the four fields
 * that repeat from row to row in runs (dataset and harness revisions, model, cluster) come back
 * as the same string object as on the row before when their bytes are equal.
 */

import { MAX_EVIDENCE_LENGTH, MAX_ID_LENGTH } from "./limits.js";
import type { ExportRow } from "./rows.js";
import type { Validity } from "../model.js";

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

/** How string() treats a byte inside a string: one table load per byte. */
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

const VALIDITY_BYTES: readonly (readonly [Uint8Array, Validity])[] = [
  [bytesOf("valid"), "valid"],
  [bytesOf("broken"), "broken"],
  [bytesOf("disputed"), "disputed"],
  [bytesOf("unreviewed"), "unreviewed"],
];
const RESULT_BYTES: readonly Uint8Array[] = ["pass", "fail", "infra_error", "missing"].map(bytesOf);
const TRUE = bytesOf("true");
const FALSE = bytesOf("false");
const NULL = bytesOf("null");

function equalAt(b: Uint8Array, begin: number, end: number, word: Uint8Array): boolean {
  if (end - begin !== word.length) return false;
  for (let k = 0; k < word.length; k++) if (b[begin + k] !== word[k]) return false;
  return true;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

/** The last string made for a field that repeats in runs, and the bytes it was made of. */
class RepeatCache {
  value = "";

  /** The string of b[begin, end), the cached one when it is the same (a native compare of two
   * flat strings is far cheaper than comparing the bytes in a loop here). */
  get(b: Buffer, begin: number, end: number, ascii: boolean): string {
    const s = slice(b, begin, end, ascii);
    if (s === this.value) return this.value;
    this.value = s;
    return s;
  }
}

function slice(b: Buffer, begin: number, end: number, ascii: boolean): string {
  if (FAST_SLICE) {
    const s = b as unknown as Slicer;
    return ascii ? s.latin1Slice(begin, end) : s.utf8Slice(begin, end);
  }
  return b.toString(ascii ? "latin1" : "utf8", begin, end);
}

export class RowScanner {
  private pos = 0;
  /** Set by string(): whether the string just scanned is all ASCII. */
  private ascii = true;
  private readonly otherKeys = new Int32Array(2 * MAX_OTHER_KEYS);
  private readonly evidence: string[] = [];
  private readonly dataset = new RepeatCache();
  private readonly harness = new RepeatCache();
  private readonly model = new RepeatCache();
  private readonly cluster = new RepeatCache();

  /**
   * Scans the line `b[begin, end)` (valid UTF-8, no line end) into `out`. true: the row is valid
   * and `out` holds it (its evidence array is reused by the next call: copy what you keep);
   * false: parse the line with JSON.parse instead (`out` is then in an unspecified state).
   */
  scan(b: Buffer, begin: number, end: number, out: ExportRow): boolean {
    this.pos = begin;
    if (!this.skipSpace(b, end) || b[this.pos] !== LBRACE) return false;
    this.pos++;
    if (!this.skipSpace(b, end)) return false;
    let seen = 0;
    let nulls = 0;
    let others = 0;
    let attemptGiven = false;
    out.result = -1;
    out.passes = 0;
    out.fails = 0;
    out.infraErrors = 0;
    out.missing = 0;
    out.evidence = undefined;
    out.attempt = undefined;
    out.cluster = undefined;
    if (b[this.pos] === RBRACE) return false; // {} lacks every field
    for (;;) {
      // A key.
      if (b[this.pos] !== QUOTE) return false;
      const keyBegin = this.pos + 1;
      const keyEnd = this.string(b, keyBegin, end);
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
      this.pos = keyEnd + 1;
      if (!this.skipSpace(b, end) || b[this.pos] !== COLON) return false;
      this.pos++;
      if (!this.skipSpace(b, end)) return false;
      // Its value.
      const c = b[this.pos];
      if (field === F_OTHER) {
        if (!this.skipValue(b, end)) return false;
      } else if (c === 0x6e) {
        // null: the same as absent for an optional field, an error for a required one.
        if (!this.literal(b, end, NULL)) return false;
        nulls |= 1 << field;
      } else if (!this.fieldValue(b, end, field, out)) {
        return false;
      } else if (field === F_ATTEMPT) {
        attemptGiven = true;
      }
      if (!this.skipSpace(b, end)) return false;
      const next = b[this.pos];
      this.pos++;
      if (next === RBRACE) break;
      if (next !== COMMA || !this.skipSpace(b, end)) return false;
    }
    // Only spaces after the object.
    while (this.pos < end) {
      if (!isSpace(b[this.pos] ?? 0)) return false;
      this.pos++;
    }
    const given = seen & ~nulls;
    if ((given & REQUIRED) !== REQUIRED) return false;
    const counts = given & COUNTS;
    if ((given & (1 << F_RESULT)) !== 0) {
      if (counts !== 0) return false;
    } else {
      // Pre-aggregated: all four counts, at least one above 0, and no attempt.
      if (counts !== COUNTS || attemptGiven) return false;
      if (out.passes === 0 && out.fails === 0 && out.infraErrors === 0 && out.missing === 0) return false;
      out.result = -1;
    }
    return true;
  }

  /** Skips JSON whitespace; false when the line ends there. */
  private skipSpace(b: Buffer, end: number): boolean {
    let p = this.pos;
    while (p < end && isSpace(b[p] ?? 0)) p++;
    this.pos = p;
    return p < end;
  }

  /**
   * The string whose contents start at `begin`: returns the index of its closing quote, or -1 to
   * give up (no closing quote, or a byte left to JSON.parse: see the file's comment). Sets
   * `ascii`.
   */
  private string(b: Buffer, begin: number, end: number): number {
    let ascii = true;
    for (let p = begin; p < end; p++) {
      const k = BYTE_CLASS[b[p] ?? 0] ?? BYTE_OTHER;
      if (k === BYTE_PLAIN) continue;
      if (k === BYTE_QUOTE) {
        this.ascii = ascii;
        return p;
      }
      if (k === BYTE_OTHER) return -1;
      ascii = false;
    }
    return -1;
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

  private literal(b: Buffer, end: number, word: Uint8Array): boolean {
    const stop = this.pos + word.length;
    if (stop > end || !equalAt(b, this.pos, stop, word)) return false;
    this.pos = stop;
    return true;
  }

  /** A value of a field the gate ignores: a string, number or literal (objects and arrays: no). */
  private skipValue(b: Buffer, end: number): boolean {
    const c = b[this.pos] ?? 0;
    if (c === QUOTE) {
      const close = this.string(b, this.pos + 1, end);
      if (close < 0) return false;
      this.pos = close + 1;
      return true;
    }
    if (c === 0x74) return this.literal(b, end, TRUE);
    if (c === 0x66) return this.literal(b, end, FALSE);
    if (c === 0x6e) return this.literal(b, end, NULL);
    return this.number(b, end);
  }

  /** Any JSON number (validated, not converted). */
  private number(b: Buffer, end: number): boolean {
    const at = (q: number): number => (q < end ? (b[q] ?? -1) : -1);
    let p = this.pos;
    if (at(p) === MINUS) p++;
    const first = at(p);
    if (first === ZERO) {
      p++;
    } else if (first > ZERO && first <= NINE) {
      while (isDigit(at(p))) p++;
    } else {
      return false;
    }
    if (at(p) === 0x2e) {
      p++;
      if (!isDigit(at(p))) return false;
      while (isDigit(at(p))) p++;
    }
    const e = at(p);
    if (e === 0x65 || e === 0x45) {
      p++;
      if (at(p) === 0x2b || at(p) === MINUS) p++;
      if (!isDigit(at(p))) return false;
      while (isDigit(at(p))) p++;
    }
    this.pos = p;
    return true;
  }

  /** An integer >= 0 of at most 15 digits (always safe); -1 to give up. */
  private count(b: Buffer, end: number): number {
    let p = this.pos;
    const first = p < end ? (b[p] ?? 0) : -1;
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
      if (p - this.pos > 15) return -1;
    } else {
      return -1;
    }
    // A fraction or an exponent may still make an integer (1.0, 1e2): JSON.parse decides.
    const after = p < end ? b[p] : -1;
    if (after === 0x2e || after === 0x65 || after === 0x45) return -1;
    this.pos = p;
    return v;
  }

  /**
   * An identifier's string at `pos`: non-empty, at most MAX_ID_LENGTH UTF-16 code units, no
   * control character (string() refuses C0, DEL and C1 bytes). Returns the end of its contents
   * (the closing quote) or -1; `pos` is then past the closing quote.
   */
  private idString(b: Buffer, end: number, maxLength: number, allowEmpty: boolean): number {
    if (b[this.pos] !== QUOTE) return -1;
    const begin = this.pos + 1;
    const close = this.string(b, begin, end);
    if (close < 0 || (close === begin && !allowEmpty)) return -1;
    // UTF-8 never takes fewer bytes than UTF-16 code units: only a long one needs decoding.
    if (close - begin > maxLength && (this.ascii || slice(b, begin, close, false).length > maxLength)) {
      return -1;
    }
    this.pos = close + 1;
    return close;
  }

  private id(b: Buffer, end: number): string | undefined {
    const begin = this.pos + 1;
    const close = this.idString(b, end, MAX_ID_LENGTH, false);
    return close < 0 ? undefined : slice(b, begin, close, this.ascii);
  }

  private repeated(b: Buffer, end: number, cache: RepeatCache): string | undefined {
    const begin = this.pos + 1;
    const close = this.idString(b, end, MAX_ID_LENGTH, false);
    return close < 0 ? undefined : cache.get(b, begin, close, this.ascii);
  }

  private evidenceItem(b: Buffer, end: number): string | undefined {
    const begin = this.pos + 1;
    const close = this.idString(b, end, MAX_EVIDENCE_LENGTH, true);
    return close < 0 ? undefined : slice(b, begin, close, this.ascii);
  }

  /** The value of a field the gate reads (not null), into `out`; false to give up. */
  private fieldValue(b: Buffer, end: number, field: number, out: ExportRow): boolean {
    switch (field) {
      case F_TASK: {
        const v = this.id(b, end);
        if (v === undefined) return false;
        out.taskId = v;
        return true;
      }
      case F_DATASET: {
        const v = this.repeated(b, end, this.dataset);
        if (v === undefined) return false;
        out.datasetRevision = v;
        return true;
      }
      case F_HARNESS: {
        const v = this.repeated(b, end, this.harness);
        if (v === undefined) return false;
        out.harnessRevision = v;
        return true;
      }
      case F_MODEL: {
        const v = this.repeated(b, end, this.model);
        if (v === undefined) return false;
        out.modelConfig = v;
        return true;
      }
      case F_CLUSTER: {
        const v = this.repeated(b, end, this.cluster);
        if (v === undefined) return false;
        out.cluster = v;
        return true;
      }
      case F_VALIDITY: {
        const begin = this.pos + 1;
        const close = b[this.pos] === QUOTE ? this.string(b, begin, end) : -1;
        if (close < 0) return false;
        for (const [word, validity] of VALIDITY_BYTES) {
          if (equalAt(b, begin, close, word)) {
            out.validity = validity;
            this.pos = close + 1;
            return true;
          }
        }
        return false;
      }
      case F_RESULT: {
        const begin = this.pos + 1;
        const close = b[this.pos] === QUOTE ? this.string(b, begin, end) : -1;
        if (close < 0) return false;
        for (let r = 0; r < RESULT_BYTES.length; r++) {
          const word = RESULT_BYTES[r];
          if (word !== undefined && equalAt(b, begin, close, word)) {
            out.result = r;
            this.pos = close + 1;
            return true;
          }
        }
        return false;
      }
      case F_REVIEW_REVISION: {
        const v = this.count(b, end);
        if (v < 0) return false;
        out.reviewRevision = v;
        return true;
      }
      case F_PASSES:
      case F_FAILS:
      case F_INFRA_ERRORS:
      case F_MISSING: {
        const v = this.count(b, end);
        if (v < 0) return false;
        if (field === F_PASSES) out.passes = v;
        else if (field === F_FAILS) out.fails = v;
        else if (field === F_INFRA_ERRORS) out.infraErrors = v;
        else out.missing = v;
        return true;
      }
      case F_ATTEMPT: {
        if (b[this.pos] === QUOTE) {
          const v = this.id(b, end);
          if (v === undefined) return false;
          out.attempt = v;
          return true;
        }
        const v = this.count(b, end);
        if (v < 0) return false;
        out.attempt = v;
        return true;
      }
      case F_EVIDENCE: {
        if (b[this.pos] === QUOTE) {
          const v = this.evidenceItem(b, end);
          if (v === undefined) return false;
          out.evidence = v;
          return true;
        }
        if (b[this.pos] !== LBRACKET) return false;
        this.pos++;
        const items = this.evidence;
        items.length = 0;
        if (!this.skipSpace(b, end)) return false;
        if (b[this.pos] === RBRACKET) {
          this.pos++;
          out.evidence = items;
          return true;
        }
        for (;;) {
          const v = this.evidenceItem(b, end);
          if (v === undefined || !this.skipSpace(b, end)) return false;
          items.push(v);
          const next = b[this.pos];
          this.pos++;
          if (next === RBRACKET) break;
          if (next !== COMMA || !this.skipSpace(b, end)) return false;
        }
        out.evidence = items;
        return true;
      }
      default:
        return false;
    }
  }
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

function keyId(b: Buffer, begin: number, end: number): number {
  const candidates = KEYS_BY_LENGTH[end - begin];
  if (candidates === undefined) return F_OTHER;
  for (const [word, id] of candidates) if (equalAt(b, begin, end, word)) return id;
  return F_OTHER;
}
