/**
 * A row's evidence array as the byte scanner found it (row-scanner.ts): its ASCII items as spans
 * of the line, `spans[2k]` the first byte of item k and `spans[2k + 1]` its closing quote. These
 * decide whether the list can be handed over packed (packed-evidence.ts) and make the packed
 * string, without a string an item.
 */

import { SEPARATOR_CODE } from "./packed-evidence.js";
import { sameBytes, sameChars, slice } from "./scanner-parts.js";

/**
 * Whether the n ASCII items of spans (in `b`) joined by the packed list's separator are the
 * characters of `list` (so SpanPacker would make a string equal to it).
 */
export function spansAre(b: Buffer, spans: Int32Array, n: number, list: string): boolean {
  let size = n - 1;
  for (let k = 0; k < n; k++) size += (spans[2 * k + 1] ?? 0) - (spans[2 * k] ?? 0);
  if (size !== list.length) return false;
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
    let size = n - 1;
    for (let k = 0; k < n; k++) size += (spans[2 * k + 1] ?? 0) - (spans[2 * k] ?? 0);
    // (+3: the words copied below may write up to 3 bytes past the last item.)
    if (size + 3 > this.packing.length) {
      this.packing = Buffer.alloc(Math.max(size + 3, 2 * this.packing.length));
      this.packingView = new DataView(this.packing.buffer, this.packing.byteOffset, this.packing.length);
    }
    const out = this.packing;
    const ov = this.packingView;
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
