/**
 * Streams one input file as lines: plain or gzip (detected by the magic bytes 1f 8b, not by the
 * name), hashed with SHA-256 over its raw bytes as they are read (a large plain file on a thread of
 * its own: hash-thread.ts), split into lines by
 * line-splitter.ts (an overlong line is reported and skipped without ever being held whole; BOMs,
 * CR before LF and blank lines are dropped).
 *
 * Every problem (unreadable file, corrupt gzip, overlong line, bytes that are not UTF-8) is passed
 * to `onProblem` instead of being thrown, so that the caller can collect the problems of all files
 * into one message. Only a bug in `onLine` propagates as an exception.
 */

import { createHash, type Hash } from "node:crypto";
import { open, type FileHandle } from "node:fs/promises";
import { Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, type Gunzip } from "node:zlib";

import { describeFsError, errorCode, errorMessage } from "./fs-errors.js";
import { HASH_THREAD_MIN_BYTES, HashThread } from "./hash-thread.js";
import {
  LineSplitter,
  type ByteLines,
  type FirstLineCheck,
  type LineHandler,
  type ProblemHandler,
} from "./line-splitter.js";

export interface StreamedFile {
  /** SHA-256 of the file's raw bytes (compressed bytes for gzip), hex; undefined when the file could
   * not be read to its end (a problem was reported). */
  readonly sha256: string | undefined;
  /** Non-blank lines seen, well-formed or not. */
  readonly nonBlankLines: number;
}

const READ_CHUNK_BYTES = 256 * 1024;

/**
 * A gzip file's lines between two young collections (streamLines' collectYoung). zlib hands over
 * each chunk of lines in a buffer of its own, dead once its lines are read; a buffer's bytes lie
 * outside V8's heap, so they hasten no collection, and under Node 24 enough of them piled up
 * between collections to put a gzip file's peak RSS well above the same file's read plain
 * (BENCHMARKS.md).
 */
export const GZIP_COLLECT_BYTES = 16 * 1024 * 1024;

/** A format we can name but do not read: saying so beats 1e6 "not valid JSON" messages. */
function sniffUnsupported(head: Buffer, n: number): string | undefined {
  const at = (i: number): number => (i < n ? (head[i] ?? -1) : -1);
  if ((at(0) === 0xff && at(1) === 0xfe) || (at(0) === 0xfe && at(1) === 0xff)) {
    return "the file is UTF-16 text; expected UTF-8 JSON lines";
  }
  if (at(0) === 0x28 && at(1) === 0xb5 && at(2) === 0x2f && at(3) === 0xfd) {
    return "the file is zstd-compressed; only plain or gzip-compressed JSON lines are read";
  }
  if (at(0) === 0xfd && at(1) === 0x37 && at(2) === 0x7a && at(3) === 0x58 && at(4) === 0x5a) {
    return "the file is xz-compressed; only plain or gzip-compressed JSON lines are read";
  }
  if (at(0) === 0x42 && at(1) === 0x5a && at(2) === 0x68 && at(3) >= 0x31 && at(3) <= 0x39) {
    return "the file is bzip2-compressed; only plain or gzip-compressed JSON lines are read";
  }
  if (at(0) === 0x50 && at(1) === 0x4b && at(2) === 0x03 && at(3) === 0x04) {
    return "the file is a zip archive; only plain or gzip-compressed JSON lines are read";
  }
  return undefined;
}
function trailingBytesMessage(gzipBytes: number, fileBytes: number): string {
  const rest = fileBytes - gzipBytes;
  return (
    `the gzip data ends after ${gzipBytes} of the file's ${fileBytes} bytes; the ` +
    `${rest > 0 ? `${rest} bytes` : "bytes"} after it are not gzip data (zero padding, or something ` +
    `appended to the file) and would be ignored: decompress the file and compress it again`
  );
}

/**
 * Reads `absPath` to its end, calling `onLine` for each non-blank line. Never throws for a
 * user-caused problem (those go to `onProblem`); rethrows what `onLine` throws. A `firstLine`
 * check that refuses the file (see FirstLineCheck) leaves it unread (sha256 undefined).
 */
export async function streamLines(
  absPath: string,
  onLine: LineHandler | ByteLines,
  onProblem: ProblemHandler,
  firstLine?: FirstLineCheck,
  /** Called every GZIP_COLLECT_BYTES of a gzip file's lines (see there); never for a plain file. */
  collectYoung?: () => void,
): Promise<StreamedFile> {
  let fh: FileHandle;
  try {
    fh = await open(absPath, "r");
  } catch (e) {
    onProblem(undefined, describeFsError(e));
    return { sha256: undefined, nonBlankLines: 0 };
  }
  const splitter = new LineSplitter(onLine, onProblem, firstLine);
  let gzip = false;
  // What onLine threw (a bug, not user input): rethrown as itself, not as the
  // AbortError the pipeline turns it into.
  let handlerFailed = false;
  let handlerError: unknown;
  let bytesRead = 0;
  let gunzip: Gunzip | undefined;
  let thread: HashThread | undefined;
  try {
    const head = Buffer.alloc(6);
    const headBytes = (await fh.read(head, 0, head.length, 0)).bytesRead;
    gzip = headBytes >= 2 && head[0] === 0x1f && head[1] === 0x8b;
    const unsupported = sniffUnsupported(head, headBytes);
    if (unsupported !== undefined) {
      onProblem(undefined, unsupported);
      return { sha256: undefined, nonBlankLines: 0 };
    }

    // A large plain file is hashed beside the read (hash-thread.ts); the rest on this thread,
    // chunk by chunk (a gzip file's compressed bytes are few for the lines they hold).
    const hash = createHash("sha256");
    if (!gzip && (await fh.stat()).size >= HASH_THREAD_MIN_BYTES) thread = HashThread.start(READ_CHUNK_BYTES);
    const take = (chunk: Buffer): void => {
      try {
        splitter.push(chunk);
      } catch (e) {
        handlerFailed = true;
        handlerError = e;
        throw e;
      }
    };
    if (gzip) {
      // The compressed bytes are hashed on their way to zlib.
      const hasher = new Transform({
        transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
          hash.update(chunk);
          bytesRead += chunk.length;
          callback(null, chunk);
        },
      });
      const source = fh.createReadStream({ start: 0, autoClose: false, highWaterMark: READ_CHUNK_BYTES });
      let sinceCollect = 0;
      const sink = async (chunks: AsyncIterable<Buffer>): Promise<void> => {
        for await (const chunk of chunks) {
          take(chunk);
          sinceCollect += chunk.length;
          if (collectYoung !== undefined && sinceCollect >= GZIP_COLLECT_BYTES) {
            sinceCollect = 0;
            collectYoung();
          }
        }
      };
      gunzip = createGunzip({ chunkSize: READ_CHUNK_BYTES });
      await pipeline(source, hasher, gunzip, sink);
      // zlib stops at a byte after a gzip member that does not start another member (Node treats
      // a zero byte as padding) and drops the rest of the file without an error: lines there
      // would be lost in silence.
      if (gunzip.bytesWritten !== bytesRead) {
        onProblem(undefined, trailingBytesMessage(gunzip.bytesWritten, (await fh.stat()).size));
        return { sha256: undefined, nonBlankLines: splitter.nonBlankLines };
      }
    } else {
      bytesRead = await readPlain(fh, thread ?? hashHere(hash), (chunk) => {
        take(chunk);
        return !splitter.refused;
      });
    }
    if (splitter.refused) return { sha256: undefined, nonBlankLines: splitter.nonBlankLines };
    try {
      splitter.end();
    } catch (e) {
      handlerFailed = true;
      handlerError = e;
      throw e;
    }
    // A hash thread that failed leaves the file to be hashed again here.
    const sha256 =
      thread === undefined
        ? hash.digest("hex")
        : ((await thread.digest()) ?? (await hashAgain(fh, bytesRead)));
    if (sha256 === undefined) {
      onProblem(
        undefined,
        "the file changed while it was read (it is now shorter): read it again once it is written",
      );
      return { sha256: undefined, nonBlankLines: splitter.nonBlankLines };
    }
    return { sha256, nonBlankLines: splitter.nonBlankLines };
  } catch (e) {
    if (handlerFailed) throw handlerError;
    onProblem(undefined, await readFailure(e, fh, gzip, gunzip, bytesRead));
    return { sha256: undefined, nonBlankLines: splitter.nonBlankLines };
  } finally {
    await thread?.stop();
    await fh.close().catch(() => undefined);
  }
}

/** What a read that failed (not in the line handler) says of the file. */
async function readFailure(
  e: unknown,
  fh: FileHandle,
  gzip: boolean,
  gunzip: Gunzip | undefined,
  bytesRead: number,
): Promise<string> {
  const code = errorCode(e);
  if (gunzip !== undefined && code === "ABORT_ERR") {
    // The gunzip stream ended (streamLines) while the file went on.
    const size = await fh.stat().then(
      (st) => st.size,
      () => bytesRead,
    );
    return trailingBytesMessage(gunzip.bytesWritten, size);
  }
  if (gzip && code !== undefined && code.startsWith("Z_"))
    return `could not decompress the gzip data (${errorMessage(e)}); the file is truncated or corrupt`;
  return describeFsError(e);
}

/** The buffers a plain file is read into, and where each chunk read is hashed. */
interface ChunkHash {
  /** A buffer of READ_CHUNK_BYTES for the next chunk, free of every earlier use. */
  buffer(): Buffer | Promise<Buffer>;
  /** The chunk just read into the last buffer given. */
  update(chunk: Buffer): void;
}

/**
 * Hashing on this thread, with two buffers used in turn: the next chunk is read (on libuv's
 * thread pool) while this one's lines are handled, and no new buffer per chunk, which would leave
 * dead buffers between collections. The splitter copies what it carries to the next chunk, and
 * the chunk handler returns once the chunk is used, before its buffer is read into again.
 */
function hashHere(hash: Hash): ChunkHash {
  let spare = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  let next = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  return {
    buffer: () => {
      [spare, next] = [next, spare];
      return spare;
    },
    update: (chunk) => hash.update(chunk),
  };
}

/**
 * Hashes the `length` bytes read again from the file's start, on this thread (a hash thread
 * failed); undefined when the file no longer has them.
 */
async function hashAgain(fh: FileHandle, length: number): Promise<string | undefined> {
  const hash = createHash("sha256");
  const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  for (let position = 0; position < length;) {
    const { bytesRead } = await fh.read(buffer, 0, Math.min(buffer.length, length - position), position);
    if (bytesRead === 0) return undefined;
    hash.update(buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
  return hash.digest("hex");
}

/**
 * Reads a plain file from its start, giving each chunk to `onChunk` until it returns false or the
 * file ends; the bytes read. The next chunk is read while this one's lines are handled; `chunks`
 * says into which buffer, and hashes each chunk as it is read.
 */
async function readPlain(
  fh: FileHandle,
  chunks: ChunkHash,
  onChunk: (chunk: Buffer) => boolean,
): Promise<number> {
  const first = chunks.buffer();
  let buffer = first instanceof Promise ? await first : first;
  let position = 0;
  let reading: Promise<{ bytesRead: number }> | undefined = fh.read(buffer, 0, READ_CHUNK_BYTES, 0);
  try {
    for (;;) {
      const n = (await reading).bytesRead;
      reading = undefined;
      if (n === 0) return position;
      const chunk = buffer.subarray(0, n);
      chunks.update(chunk);
      position += n;
      const next = chunks.buffer();
      buffer = next instanceof Promise ? await next : next;
      reading = fh.read(buffer, 0, READ_CHUNK_BYTES, position);
      if (!onChunk(chunk)) return position;
    }
  } finally {
    // A stop, or a handler that threw, left the next chunk's read running: it must not outlive the
    // caller's fd (and its failure is no one's to report).
    if (reading !== undefined) await reading.catch(() => undefined);
  }
}
