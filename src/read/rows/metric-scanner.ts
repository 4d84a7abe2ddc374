/**
 * The byte scanner's reader of a metric object (`metrics`, `metrics_sum`, `metrics_n`: SPEC §1.1),
 * for row-scanner.ts: a flat object of names matching [a-z][a-z0-9_]{0,63} to numbers or null,
 * read from the line's bytes. Like the rest of the scanner it only has to be right about what it
 * accepts: anything else (an escape in a name, a bad name, a minus sign, a string, a nested value, a
 * name given twice, too many names) gives the line to JSON.parse and metric-checks.ts, which word
 * the problem.
 *
 * Numbers are converted as JSON.parse converts them (the double nearest the decimal): exactly,
 * without making a string, when the digits form an integer below 2^53 and the decimal exponent is
 * at most 22 either way (the integer and the power of ten are then exact doubles, and one IEEE
 * multiplication or division rounds their exact product or quotient once: Clinger's fast path);
 * otherwise through Number() of the number's text.
 */

import { MAX_METRICS } from "../limits.js";
import {
  COLON,
  COMMA,
  LBRACE,
  QUOTE,
  RBRACE,
  StringTable,
  isDigit,
  literal,
  NULL,
  skipSpace,
  ZERO,
} from "./scanner-parts.js";

/** 10^0 … 10^22: every one an exact double. */
const POW10 = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

/** Significant digits below which the digits of a number form an integer below 2^53. */
const EXACT_DIGITS = 15;

/** Longest metric name, in bytes (ASCII: one byte a character). */
const MAX_NAME_BYTES = 64;

export class MetricScanner {
  /** Metric names by their bytes: a name seen before comes back as the same string. */
  private readonly table = new StringTable(64);
  /** Set by number() and integer(): the value read. */
  private num = 0;
  /** Set by read(): the entries read (null ones left out). */
  count = 0;

  /** The names of the object being read, null values included (to find a name given twice). */
  private readonly keys: string[] = new Array<string>(MAX_METRICS).fill("");

  /**
   * The metric object at `p` into names[0, count) and values[0, count) (`integers`: values must be
   * integers, as metrics_n's; null values are left out): the position after it, or -1 to give up.
   */
  read(
    b: Buffer,
    view: DataView,
    base: number,
    p: number,
    end: number,
    names: string[],
    values: Float64Array,
    integers: boolean,
  ): number {
    this.count = 0;
    if (b[p] !== LBRACE) return -1;
    p = skipSpace(b, p + 1, end);
    if (p < end && b[p] === RBRACE) return p + 1;
    const keys = this.keys;
    for (let n = 0; ; n++) {
      if (p >= end || b[p] !== QUOTE || n >= MAX_METRICS) return -1;
      const begin = p + 1;
      const close = nameEnd(b, begin, end);
      if (close < 0) return -1;
      const name = this.table.get(b, view, base + begin, begin, close, true);
      for (let k = 0; k < n; k++) if (keys[k] === name) return -1;
      keys[n] = name;
      p = skipSpace(b, close + 1, end);
      if (p >= end || b[p] !== COLON) return -1;
      p = skipSpace(b, p + 1, end);
      if (p >= end) return -1;
      if (b[p] === 0x6e) {
        // null: the metric is absent.
        p = literal(b, p, end, NULL);
        if (p < 0) return -1;
      } else {
        p = integers ? this.integer(b, p, end) : this.number(b, p, end);
        if (p < 0) return -1;
        names[this.count] = name;
        values[this.count] = this.num;
        this.count++;
      }
      p = skipSpace(b, p, end);
      if (p >= end) return -1;
      const c = b[p];
      if (c === RBRACE) return p + 1;
      if (c !== COMMA) return -1;
      p = skipSpace(b, p + 1, end);
    }
  }

  /** An integer >= 0 of at most 15 digits at `p` into `num`: the position after it, or -1. */
  private integer(b: Buffer, p: number, end: number): number {
    const start = p;
    let v = 0;
    if (b[p] === ZERO) p++;
    else {
      while (p < end && isDigit(b[p] ?? 0)) v = v * 10 + ((b[p++] ?? 0) - ZERO);
      if (p === start || p - start > EXACT_DIGITS) return -1;
    }
    const after = p < end ? b[p] : -1;
    if (after === 0x2e || after === 0x65 || after === 0x45 || (after !== -1 && isDigit(after ?? 0)))
      return -1;
    this.num = v;
    return p;
  }

  /** A JSON number >= 0 (no minus sign) at `p` into `num`, as JSON.parse converts it; or -1. */
  private number(b: Buffer, p: number, end: number): number {
    const start = p;
    let digits = 0;
    let mantissa = 0;
    let scale = 0;
    if (b[p] === ZERO) {
      p++;
    } else if (p < end && isDigit(b[p] ?? 0)) {
      for (; p < end && isDigit(b[p] ?? 0); p++) {
        if (digits < EXACT_DIGITS) mantissa = mantissa * 10 + ((b[p] ?? 0) - ZERO);
        else scale++;
        digits++;
      }
    } else {
      return -1;
    }
    if (p < end && b[p] === 0x2e) {
      p++;
      const first = p;
      for (; p < end && isDigit(b[p] ?? 0); p++) {
        const d = (b[p] ?? 0) - ZERO;
        // Leading zeros of the fraction are not significant digits.
        if (digits === 0 && d === 0) {
          scale--;
          continue;
        }
        if (digits < EXACT_DIGITS) {
          mantissa = mantissa * 10 + d;
          scale--;
        }
        digits++;
      }
      if (p === first) return -1;
    }
    let exponent = 0;
    const e = p < end ? b[p] : -1;
    if (e === 0x65 || e === 0x45) {
      p++;
      let negative = false;
      if (p < end && (b[p] === 0x2b || b[p] === 0x2d)) negative = b[p++] === 0x2d;
      const first = p;
      for (; p < end && isDigit(b[p] ?? 0); p++) {
        if (exponent < 1e6) exponent = exponent * 10 + ((b[p] ?? 0) - ZERO);
      }
      if (p === first) return -1;
      if (negative) exponent = -exponent;
    }
    const power = scale + exponent;
    let v: number;
    if (digits <= EXACT_DIGITS && power >= -22 && power <= 22) {
      v = power < 0 ? mantissa / (POW10[-power] as number) : mantissa * (POW10[power] as number);
    } else {
      v = Number(b.toString("latin1", start, p));
    }
    if (!Number.isFinite(v)) return -1;
    this.num = v;
    return p;
  }
}

/** The closing quote of a metric name whose bytes start at `begin`, or -1 when they are not one. */
function nameEnd(b: Buffer, begin: number, end: number): number {
  const first = b[begin] ?? 0;
  if (first < 0x61 || first > 0x7a) return -1;
  const stop = Math.min(end, begin + MAX_NAME_BYTES + 1);
  for (let p = begin + 1; p < stop; p++) {
    const c = b[p] ?? 0;
    if (c === QUOTE) return p;
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f)) return -1;
  }
  return -1;
}
