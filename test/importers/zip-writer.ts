/**
 * A minimal ZIP writer for tests (PKWARE APPNOTE 6.3), written apart from src/importers/zip.ts so
 * the reader is checked against archives it did not make: deflated or stored entries, optionally
 * every size and offset in ZIP64 form, and hooks to damage an archive on purpose.
 */
import { deflateRawSync } from "node:zlib";
import { crc32 as zlibCrc32 } from "node:zlib";

export interface WriteEntry {
  name: string;
  data: Buffer | string;
  stored?: boolean;
  flags?: number;
  method?: number;
  /** Written in the central directory instead of the real CRC-32. */
  crc?: number;
  /** Written in the central directory instead of the real uncompressed size. */
  size?: number;
}

export function writeZip(
  entries: readonly WriteEntry[],
  opts: { zip64?: boolean; comment?: string } = {},
): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data, "utf8");
    const body = e.stored === true ? data : deflateRawSync(data);
    const method = e.method ?? (e.stored === true ? 0 : 8);
    const crc = e.crc ?? zlibCrc32(data);
    const size = e.size ?? data.length;
    const name = Buffer.from(e.name, "utf8");
    const flags = (e.flags ?? 0) | 0x0800;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const z64 = opts.zip64 === true;
    const extra = Buffer.alloc(z64 ? 28 : 0);
    if (z64) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(24, 2);
      extra.writeBigUInt64LE(BigInt(size), 4);
      extra.writeBigUInt64LE(BigInt(body.length), 12);
      extra.writeBigUInt64LE(BigInt(offset), 20);
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(z64 ? 45 : 20, 4);
    central.writeUInt16LE(z64 ? 45 : 20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(z64 ? 0xffffffff : body.length, 20);
    central.writeUInt32LE(z64 ? 0xffffffff : size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(extra.length, 30);
    central.writeUInt32LE(z64 ? 0xffffffff : offset, 42);
    centrals.push(central, name, extra);
    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const tail: Buffer[] = [];
  const comment = Buffer.from(opts.comment ?? "", "utf8");
  if (opts.zip64 === true) {
    const end64 = Buffer.alloc(56);
    end64.writeUInt32LE(0x06064b50, 0);
    end64.writeBigUInt64LE(44n, 4);
    end64.writeUInt16LE(45, 12);
    end64.writeUInt16LE(45, 14);
    end64.writeBigUInt64LE(BigInt(entries.length), 24);
    end64.writeBigUInt64LE(BigInt(entries.length), 32);
    end64.writeBigUInt64LE(BigInt(cd.length), 40);
    end64.writeBigUInt64LE(BigInt(offset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(offset + cd.length), 8);
    locator.writeUInt32LE(1, 16);
    tail.push(end64, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(opts.zip64 === true ? 0xffff : entries.length, 8);
  end.writeUInt16LE(opts.zip64 === true ? 0xffff : entries.length, 10);
  end.writeUInt32LE(opts.zip64 === true ? 0xffffffff : cd.length, 12);
  end.writeUInt32LE(opts.zip64 === true ? 0xffffffff : offset, 16);
  end.writeUInt16LE(comment.length, 20);
  return Buffer.concat([...locals, cd, ...tail, end, comment]);
}
