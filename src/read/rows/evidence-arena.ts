/**
 * Packed evidence lists (packed-evidence.ts) kept as bytes in a few large buffers instead of a
 * string each. A task-heavy export gives most tasks a list of their own on their first row: as
 * strings, each is made in V8's young generation and copied by it twice before it settles. Here a
 * list is its bytes in a chunk outside the heap, named by a handle, a small integer: the builder's
 * column holds the handle, and the scanner compares the next row's items with those bytes.
 *
 * A list is written on trial (`write`: the scanner does not know yet whether the builder keeps
 * it) and kept by `keep`; the next write takes the place of one not kept. A kept list's bytes are
 * never moved or written again, so a handle names the same list for as long as the arena lives.
 * Every item is ASCII (the scanner packs only those): a list's string is its bytes as Latin-1.
 */

import { Buffer } from "node:buffer";
import { copySpans, joinedSize, spansAreBytes } from "./evidence-spans.js";
import { slice } from "./scanner-parts.js";

/** A list's place in the arena (its chunk and byte offset), below 2^30: a small integer on every
 * V8 build, so a column holding it holds no heap number. */
export type ListHandle = number;

const CHUNK_BITS = 20;
/** Bytes a chunk holds at most: a list is at most MAX_EVIDENCE_PER_TASK × (MAX_EVIDENCE_LENGTH + 1)
 * bytes, well within. */
export const ARENA_CHUNK_BYTES = 1 << CHUNK_BITS;
/** The first chunk's size; each next one is twice the last, up to ARENA_CHUNK_BYTES (an export of
 * few tasks holds little evidence). */
export const ARENA_FIRST_CHUNK_BYTES = 64 * 1024;
const OFFSET_MASK = ARENA_CHUNK_BYTES - 1;
/** Chunks at most (about 1 GiB of lists): handles stay below 2^30. Past it lists are strings again. */
export const ARENA_MAX_CHUNKS = 1 << 10;
/** A list's length in bytes, before its bytes. */
const PREFIX_BYTES = 4;
/** Items are copied four bytes at a time: a write may touch up to 3 bytes past its list. */
const WORD_SLACK = 3;

export class EvidenceArena {
  private readonly chunks: Buffer[] = [];
  private readonly views: DataView[] = [];
  /** Bytes of the last chunk taken by kept lists. */
  private used = 0;
  /** The list written on trial and not kept yet (-1: none), and where its bytes end. */
  private trial = -1;
  private trialEnd = 0;

  /** `maxChunks`: at most this many chunks (a test gives fewer to fill the arena). */
  constructor(private readonly maxChunks = ARENA_MAX_CHUNKS) {
    if (!(maxChunks >= 1 && maxChunks <= ARENA_MAX_CHUNKS))
      throw new RangeError(`EvidenceArena: maxChunks must be 1 to ${ARENA_MAX_CHUNKS}`);
  }

  /**
   * Writes the n items of `spans` (begin and closing quote of each, in the line read through `v`,
   * its byte 0 at `base`) joined by the separator, on trial: its handle, or -1 when the arena is
   * full (the caller makes a string instead).
   */
  write(spans: Int32Array, n: number, v: DataView, base: number): ListHandle {
    const size = joinedSize(spans, n);
    const need = PREFIX_BYTES + size + WORD_SLACK;
    let c = this.chunks.length - 1;
    if (c < 0 || this.used + need > (this.chunks[c] as Buffer).length) {
      if (need > ARENA_CHUNK_BYTES || this.chunks.length >= this.maxChunks) return -1;
      const last = this.chunks[c]?.length ?? ARENA_FIRST_CHUNK_BYTES / 2;
      // (Outside Node's shared pool: a chunk is freed only with the arena.)
      const chunk = Buffer.allocUnsafeSlow(Math.min(ARENA_CHUNK_BYTES, Math.max(2 * last, need)));
      this.chunks.push(chunk);
      this.views.push(new DataView(chunk.buffer, chunk.byteOffset, chunk.length));
      this.used = 0;
      c++;
    }
    const out = this.views[c] as DataView;
    const at = this.used;
    out.setUint32(at, size, true);
    // (copySpans may write up to 3 bytes past the list: `need` leaves room, and the next list
    // written overwrites them.)
    const w = copySpans(spans, n, v, base, out, at + PREFIX_BYTES);
    this.trial = (c << CHUNK_BITS) | at;
    this.trialEnd = w;
    return this.trial;
  }

  /** Whether `h` is the list written on trial (not kept yet). */
  onTrial(h: ListHandle): boolean {
    return h === this.trial;
  }

  /** Keeps the list written on trial: its bytes are never written again. */
  keep(h: ListHandle): void {
    if (h !== this.trial) throw new Error(`EvidenceArena: list ${h} is not the one on trial`);
    this.used = this.trialEnd;
    this.trial = -1;
  }

  /** The list's length in characters (one byte each). */
  length(h: ListHandle): number {
    return (this.views[h >>> CHUNK_BITS] as DataView).getUint32(h & OFFSET_MASK, true);
  }

  /** A packed list as a string: a handle's read out of the arena (a new string on each call). */
  textOf(list: string | ListHandle): string;
  textOf(list: string | ListHandle | undefined): string | undefined;
  textOf(list: string | ListHandle | undefined): string | undefined {
    return typeof list === "number" ? this.string(list) : list;
  }

  /** The packed list's string (a new one on each call). */
  string(h: ListHandle): string {
    const chunk = this.chunks[h >>> CHUNK_BITS];
    if (chunk === undefined) throw new Error(`EvidenceArena: no list ${h}`);
    const at = (h & OFFSET_MASK) + PREFIX_BYTES;
    return slice(chunk, at, at + this.length(h), true);
  }

  /** Whether the n items of spans (as write reads them) joined by the separator are list h. */
  spansAre(h: ListHandle, spans: Int32Array, n: number, v: DataView, base: number): boolean {
    const lv = this.views[h >>> CHUNK_BITS] as DataView;
    const at = h & OFFSET_MASK;
    if (joinedSize(spans, n) !== lv.getUint32(at, true)) return false;
    return spansAreBytes(spans, n, v, base, lv, at + PREFIX_BYTES);
  }
}
