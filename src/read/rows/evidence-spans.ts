/**
 * A row's evidence array as the byte scanner found it (row-scanner.ts): its ASCII items as spans
 * of the line, `spans[2k]` the first byte of item k and `spans[2k + 1]` its closing quote. These
 * decide whether the list can be handed over packed (packed-evidence.ts) and make the packed
 * string, without a string an item.
 */

import { SEPARATOR_CODE } from "./packed-evidence.js";
import { sameBytes, sameChars, slice } from "./scanner-parts.js";

/**
 * Whether the n ASCII items of spans (in `b`, whose byte 0 `v` reads at `base`) joined by the packed
 * list's separator are the characters of `list` (so SpanPacker would make a string equal to it).
 * An ASCII list is compared as bytes, four at a time, against its UTF-8 encoding, kept while the
 * next row expects the same list: comparing code units one by one was most of the evidence's scan
 * on exports whose rows repeat a task's list.
 */
export class ListMatcher {
  private list = "";
  /** Whether `bytes` holds `list` (every character ASCII: one byte each). */
  private ascii = false;
  private bytes = Buffer.alloc(256);
  private view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.length);

  spansAre(b: Buffer, spans: Int32Array, n: number, v: DataView, base: number, list: string): boolean {
    if (joinedSize(spans, n) !== list.length) return false;
    if (list !== this.list) this.encode(list);
    if (!this.ascii) return spansAreChars(b, spans, n, list);
    return spansAreBytes(spans, n, v, base, this.view, 0);
  }

  private encode(list: string): void {
    // Room for 4 bytes more than one a character: a list with a character outside ASCII then
    // writes more bytes than it has characters even when cut short.
    if (list.length + 4 > this.bytes.length) {
      this.bytes = Buffer.alloc(Math.max(list.length + 4, 2 * this.bytes.length));
      this.view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.length);
    }
    this.list = list;
    this.ascii = this.bytes.write(list, 0, "utf8") === list.length;
  }
}

/** The bytes of the n items of spans joined by the packed list's separator. */
export function joinedSize(spans: Int32Array, n: number): number {
  let size = n - 1;
  for (let k = 0; k < n; k++) size += (spans[2 * k + 1] ?? 0) - (spans[2 * k] ?? 0);
  return size;
}

/**
 * Whether the n items of spans (read through `v` at `base`) joined by the separator are the
 * bytes `lv` holds from `at` on (as many as joinedSize: the caller has compared the sizes).
 */
export function spansAreBytes(
  spans: Int32Array,
  n: number,
  v: DataView,
  base: number,
  lv: DataView,
  at: number,
): boolean {
  for (let k = 0; k < n; k++) {
    if (k > 0 && lv.getUint8(at++) !== SEPARATOR_CODE) return false;
    const begin = spans[2 * k] ?? 0;
    const length = (spans[2 * k + 1] ?? 0) - begin;
    if (!sameBytes(v, base + begin, lv, at, length)) return false;
    at += length;
  }
  return true;
}

/**
 * Writes the n items of spans (read through `v` at `base`) joined by the separator into `out`
 * from `w` on; returns where they end. Four bytes at a time: up to 3 bytes past the end are
 * written too (the caller leaves room), and up to 3 read past an item (the line goes on with its
 * closing quote at least).
 */
export function copySpans(
  spans: Int32Array,
  n: number,
  v: DataView,
  base: number,
  out: DataView,
  w: number,
): number {
  for (let k = 0; k < n; k++) {
    if (k > 0) out.setUint8(w++, SEPARATOR_CODE);
    const begin = spans[2 * k] ?? 0;
    const length = (spans[2 * k + 1] ?? 0) - begin;
    for (let j = 0; j < length; j += 4) out.setInt32(w + j, v.getInt32(base + begin + j, true), true);
    w += length;
  }
  return w;
}

/** ListMatcher.spansAre for a list with a character outside ASCII, a character at a time. */
function spansAreChars(b: Buffer, spans: Int32Array, n: number, list: string): boolean {
  let at = 0;
  for (let k = 0; k < n; k++) {
    if (k > 0 && list.charCodeAt(at++) !== SEPARATOR_CODE) return false;
    const begin = spans[2 * k] ?? 0;
    const close = spans[2 * k + 1] ?? 0;
    if (!sameChars(b, begin, close, list, at)) return false;
    at += close - begin;
  }
  return true;
}

/** Whether the n items of spans are pairwise different (their bytes read through `v`, the line's
 * byte 0 at `base`). */
export function distinctSpans(spans: Int32Array, n: number, v: DataView, base: number): boolean {
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

/** Joins spans into a packed list, in a buffer of its own grown as needed. */
export class SpanPacker {
  private packing = Buffer.alloc(2 * 1024);
  private packingView = new DataView(this.packing.buffer, this.packing.byteOffset, this.packing.length);

  /** The n items of spans (read through `v` at `base`) joined by the separator, as one string. */
  pack(spans: Int32Array, n: number, v: DataView, base: number): string {
    const size = joinedSize(spans, n);
    // (+3: the words copied below may write up to 3 bytes past the last item.)
    if (size + 3 > this.packing.length) {
      this.packing = Buffer.alloc(Math.max(size + 3, 2 * this.packing.length));
      this.packingView = new DataView(this.packing.buffer, this.packing.byteOffset, this.packing.length);
    }
    const w = copySpans(spans, n, v, base, this.packingView, 0);
    return slice(this.packing, 0, w, true);
  }
}
