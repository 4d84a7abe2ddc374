/**
 * A small reader of ZIP archives held in memory (PKWARE APPNOTE 6.3), enough for Inspect's `.eval`
 * logs: the central directory (ZIP64 too), stored and deflated entries, CRC-32 checked. Entries are
 * inflated with node:zlib, each bounded by what is left of the import's byte budget, so a zip bomb
 * stops at the cap. Anything else — several disks, encryption, another compression method, a name
 * given twice, a directory that does not add up — is refused, naming the archive and the entry.
 */
import { inflateRawSync } from "node:zlib";
import { fileError } from "./common.js";

export interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly flags: number;
  readonly crc: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly localOffset: number;
}

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const END64 = 0x06064b50;
const END64_LOCATOR = 0x07064b50;
const STORED = 0;
const DEFLATED = 8;
const U16 = 0xffff;
const U32 = 0xffffffff;

/** True when the bytes start like a ZIP archive (a local header, or the end record of an empty one). */
export function isZip(data: Uint8Array): boolean {
  if (data.length < 4 || data[0] !== 0x50 || data[1] !== 0x4b) return false;
  return (data[2] === 3 && data[3] === 4) || (data[2] === 5 && data[3] === 6);
}

function u64(buf: Buffer, at: number, file: string): number {
  const v = buf.readBigUInt64LE(at);
  if (v > BigInt(Number.MAX_SAFE_INTEGER))
    fileError(file, `a ZIP64 size or offset (${v}) is beyond any file read here`);
  return Number(v);
}

/** Finds the end-of-central-directory record: at most 65,535 bytes of comment after it. */
function findEnd(buf: Buffer, file: string): number {
  const last = buf.length - 22;
  for (let at = last; at >= 0 && at >= last - U16; at--) {
    if (buf.readUInt32LE(at) === END && at + 22 + buf.readUInt16LE(at + 20) === buf.length) return at;
  }
  return fileError(
    file,
    "not a complete ZIP archive: no end-of-central-directory record (is the file cut short?)",
  );
}

/** The entries of the central directory, in its order. */
export function readZipDirectory(data: Uint8Array, file: string): ZipEntry[] {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (buf.length < 22) fileError(file, "not a ZIP archive: shorter than its end record");
  const end = findEnd(buf, file);
  if (buf.readUInt16LE(end + 4) !== 0 || buf.readUInt16LE(end + 6) !== 0) {
    fileError(file, "a ZIP archive split over several disks is not read");
  }
  let count = buf.readUInt16LE(end + 10);
  let size = buf.readUInt32LE(end + 12);
  let offset = buf.readUInt32LE(end + 16);
  if (count === U16 || size === U32 || offset === U32) {
    const locator = end - 20;
    if (locator < 0 || buf.readUInt32LE(locator) !== END64_LOCATOR) {
      fileError(file, "the ZIP end record points to a ZIP64 record that is not there");
    }
    const at = u64(buf, locator + 8, file);
    if (at + 56 > buf.length || buf.readUInt32LE(at) !== END64) {
      fileError(file, "the ZIP64 end-of-central-directory record is not where its locator says");
    }
    count = u64(buf, at + 32, file);
    size = u64(buf, at + 40, file);
    offset = u64(buf, at + 48, file);
  }
  if (offset + size > buf.length) fileError(file, "the ZIP central directory runs past the end of the file");
  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > offset + size || buf.readUInt32LE(at) !== CENTRAL) {
      fileError(file, `the ZIP central directory ends after ${i} of the ${count} entries it announces`);
    }
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    const next = at + 46 + nameLength + extraLength + commentLength;
    if (next > offset + size) fileError(file, `ZIP entry ${i + 1} runs past the central directory`);
    const name = buf.toString("utf8", at + 46, at + 46 + nameLength);
    let compressedSize = buf.readUInt32LE(at + 20);
    let uncompressed = buf.readUInt32LE(at + 24);
    let localOffset = buf.readUInt32LE(at + 42);
    if (compressedSize === U32 || uncompressed === U32 || localOffset === U32) {
      // The ZIP64 extra field holds, in this order, only the values that overflowed.
      const extra = findExtra(buf, at + 46 + nameLength, extraLength, 0x0001);
      if (extra === undefined) fileError(file, `ZIP entry ${JSON.stringify(name)} lacks its ZIP64 sizes`);
      let p = extra.start;
      const take = () => {
        if (p + 8 > extra.end)
          fileError(file, `ZIP entry ${JSON.stringify(name)}: its ZIP64 field is too short`);
        const v = u64(buf, p, file);
        p += 8;
        return v;
      };
      if (uncompressed === U32) uncompressed = take();
      if (compressedSize === U32) compressedSize = take();
      if (localOffset === U32) localOffset = take();
    }
    if (names.has(name))
      fileError(
        file,
        `the ZIP archive holds ${JSON.stringify(name)} twice: which one is meant would be a guess`,
      );
    names.add(name);
    entries.push({
      name,
      flags: buf.readUInt16LE(at + 8),
      method: buf.readUInt16LE(at + 10),
      crc: buf.readUInt32LE(at + 16),
      compressedSize,
      size: uncompressed,
      localOffset,
    });
    at = next;
  }
  return entries;
}

function findExtra(
  buf: Buffer,
  start: number,
  length: number,
  id: number,
): { start: number; end: number } | undefined {
  let p = start;
  while (p + 4 <= start + length) {
    const tag = buf.readUInt16LE(p);
    const size = buf.readUInt16LE(p + 2);
    if (tag === id) return { start: p + 4, end: Math.min(p + 4 + size, start + length) };
    p += 4 + size;
  }
  return undefined;
}

/** How many bytes the entries read so far may still inflate to (shared by one archive's reads). */
export interface InflateBudget {
  left: number;
}

/** One entry's bytes, inflated and checked against its size and CRC-32. */
export function readZipEntry(data: Uint8Array, entry: ZipEntry, file: string, budget: InflateBudget): Buffer {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const where = `ZIP entry ${JSON.stringify(entry.name)}`;
  if ((entry.flags & 0x1) !== 0) fileError(file, `${where} is encrypted`);
  const at = entry.localOffset;
  if (at + 30 > buf.length || buf.readUInt32LE(at) !== LOCAL)
    fileError(file, `${where}: no local header at offset ${at}`);
  const start = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28);
  const stop = start + entry.compressedSize;
  if (stop > buf.length) fileError(file, `${where} runs past the end of the file`);
  if (entry.size > budget.left) {
    fileError(
      file,
      `${where} inflates to ${entry.size} bytes, past the ${budget.left} bytes left of the import limit`,
    );
  }
  let out: Buffer;
  if (entry.method === STORED) out = buf.subarray(start, stop);
  else if (entry.method === DEFLATED) {
    try {
      out = inflateRawSync(buf.subarray(start, stop), { maxOutputLength: Math.max(1, entry.size) });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE")
        fileError(file, `${where} inflates to more than the ${entry.size} bytes its header says`);
      return fileError(file, `${where} is not valid deflate data`);
    }
  } else
    return fileError(
      file,
      `${where} uses compression method ${entry.method}; only stored (0) and deflate (8) are read`,
    );
  if (out.length !== entry.size) {
    fileError(file, `${where} inflates to ${out.length} bytes, but its header says ${entry.size}`);
  }
  if (crc32(out) !== entry.crc) fileError(file, `${where} fails its CRC-32 check: the archive is damaged`);
  budget.left -= out.length;
  return out;
}

let table: Uint32Array | undefined;

/** CRC-32 (ISO 3309, the polynomial ZIP uses). */
export function crc32(data: Uint8Array): number {
  if (table === undefined) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (const b of data) c = (table[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
