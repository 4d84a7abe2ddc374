/**
 * Streams one input file as lines: plain or gzip (detected by the magic bytes 1f 8b, not by the
 * name), hashed with SHA-256 over its raw bytes (see hashing below), split on LF with
 * a byte-counting splitter so that an overlong line is reported and skipped without ever being held
 * whole. A UTF-8 BOM at the start of the file, or of a line (as left by concatenating files), and
 * CR before LF are dropped; blank lines are skipped.
 *
 * Every problem (unreadable file, corrupt gzip, overlong line, bytes that are not UTF-8) is passed
 * to `onProblem` instead of being thrown, so that the caller can collect the problems of all files
 * into one message. Only a bug in `onLine` propagates as an exception.
 */

import { isAscii, isUtf8 } from "node:buffer";
import { createHash } from "node:crypto";
import { open, type FileHandle } from "node:fs/promises";
import { Worker } from "node:worker_threads";
import { Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, type Gunzip } from "node:zlib";

import { LINE_ASCII, LINE_PLAIN } from "./line-flags.js";
import { MAX_LINE_BYTES, MAX_LINES_PER_FILE } from "../limits.js";

/**
 * Receives each non-blank line, `text.slice(begin, end)` (no BOM, no line end; `text` may hold the
 * lines around it too: a handler that sends lines elsewhere can send the text once), and its
 * 1-based line number. `plain`
 * true promises that the line has no backslash, no DEL and no U+0080–U+00BF character: then no
 * JSON string in it can hold a control character (C0 ones must be escaped in JSON, which takes a
 * backslash; DEL and C1 are absent), and a validator may skip looking for them. false promises
 * nothing.
 */
export type LineHandler = (text: string, begin: number, end: number, line: number, plain: boolean) => void;

/**
 * Receives each non-blank line as its bytes `bytes[begin, end)`: valid UTF-8, no BOM, no line
 * end; the bytes are valid only during the call. `flags` has LINE_PLAIN when the line is plain
 * (as in LineHandler) and LINE_ASCII when every byte is below 0x80; a flag that is not set
 * promises nothing (both are tested per span of lines). For the byte scanner, which reads most
 * lines without decoding them.
 */
export type ByteLineHandler = (
  bytes: Buffer,
  begin: number,
  end: number,
  line: number,
  flags: number,
) => void;

/** Lines as bytes (see ByteLineHandler) instead of text. */
export interface ByteLines {
  readonly bytes: ByteLineHandler;
}

/** The line `text[begin, end)` of a LineHandler call. */
export function lineOf(text: string, begin: number, end: number): string {
  return begin === 0 && end === text.length ? text : text.slice(begin, end);
}

/** Receives a problem of the file; `line` is undefined when it concerns the whole file. */
export type ProblemHandler = (line: number | undefined, message: string) => void;

export interface StreamedFile {
  /** SHA-256 of the file's raw bytes (compressed bytes for gzip), hex; undefined when the file could
   * not be read to its end (a problem was reported). */
  readonly sha256: string | undefined;
  /** Non-blank lines seen, well-formed or not. */
  readonly nonBlankLines: number;
}

const LF = 0x0a;
const CR = 0x0d;
const BACKSLASH = 0x5c;
const DEL = 0x7f;
/** U+FEFF, the byte order mark (EF BB BF in UTF-8). */
const BOM = 0xfeff;
export const READ_CHUNK_BYTES = 256 * 1024;
/** Lines are decoded in spans of about this many bytes (see LineSplitter.wholeLines). */
const SPAN_BYTES = 32 * 1024;

/*
 * Hashing. SHA-256 is native but synchronous: on the main thread it took ~10% of a large read,
 * time the parser could use. A plain file of at least WORKER_HASH_MIN_BYTES is therefore hashed
 * by a worker thread that reads the same open file (the same file descriptor, by position, so a
 * rename or replacement of the path cannot make it read another file) while the main thread
 * parses it; a smaller one is hashed inline, where starting a thread (~tens of ms) would cost
 * more than it saves, and so is a gzip file (few bytes to hash for the lines they hold). The digest is of the same bytes as long as the file is not modified while it is read;
 * a change of its length in that time (an export still being written) is caught by comparing
 * the byte counts of both reads, and reported.
 *
 * The worker runs a self-contained script (only node: built-ins) passed as text: it needs none
 * of the bundle. If the worker cannot run
 * at all (it fails to start or dies without an answer), the file is hashed again on the main
 * thread by position, so the digest never depends on threads being available.
 */
export const WORKER_HASH_MIN_BYTES = 8 * 1024 * 1024;
const HASH_READ_BYTES = 1024 * 1024;

const HASH_WORKER_SOURCE = `
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const { readSync } = require("node:fs");
const { createHash } = require("node:crypto");
const hash = createHash("sha256");
const buf = Buffer.allocUnsafe(workerData.chunk);
let pos = 0;
try {
  for (;;) {
    const n = readSync(workerData.fd, buf, 0, buf.length, pos);
    if (n === 0) break;
    hash.update(buf.subarray(0, n));
    pos += n;
  }
  parentPort.postMessage({ digest: hash.digest("hex"), bytes: pos });
} catch (e) {
  parentPort.postMessage({
    error: {
      code: e && typeof e.code === "string" ? e.code : undefined,
      message: e instanceof Error ? e.message : String(e),
    },
  });
}
`;

/** What a hash of the whole file gives: the digest and the bytes hashed, or a read error. */
export type FileHash =
  | { readonly digest: string; readonly bytes: number }
  | { readonly error: { readonly code: string | undefined; readonly message: string } };

/** A hash of an open file being computed on another thread. */
export interface PendingHash {
  readonly result: Promise<FileHash>;
  /** Stops the worker (when the main read failed); resolves once it no longer uses the fd. */
  readonly cancel: () => Promise<void>;
}

/** Hashes the file by position on the main thread (the fallback when the worker cannot run). */
async function hashByPosition(fh: FileHandle): Promise<FileHash> {
  const hash = createHash("sha256");
  const buf = Buffer.allocUnsafe(HASH_READ_BYTES);
  let pos = 0;
  try {
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) break;
      hash.update(buf.subarray(0, bytesRead));
      pos += bytesRead;
    }
  } catch (e) {
    return { error: { code: errorCode(e), message: errorMessage(e) } };
  }
  return { digest: hash.digest("hex"), bytes: pos };
}

function isFileHash(m: unknown): m is FileHash {
  if (typeof m !== "object" || m === null) return false;
  if ("digest" in m) return typeof m.digest === "string" && "bytes" in m && typeof m.bytes === "number";
  return "error" in m && typeof m.error === "object" && m.error !== null;
}

/** Starts hashing `fh` on a worker thread; the fd must stay open until `result` or `cancel` settles. */
export function hashInWorker(fh: FileHandle): PendingHash {
  let worker: Worker;
  try {
    worker = new Worker(HASH_WORKER_SOURCE, {
      eval: true,
      workerData: { fd: fh.fd, chunk: HASH_READ_BYTES },
      // The worker only hashes: a small heap keeps its share of the peak RSS small.
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
    });
  } catch {
    const result = hashByPosition(fh);
    return { result, cancel: () => result.then(() => undefined) };
  }
  let cancelled = false;
  const answer = new Promise<FileHash | undefined>((settle) => {
    worker.once("message", (m: unknown) => {
      settle(isFileHash(m) ? m : undefined);
    });
    worker.once("error", () => {
      settle(undefined);
    });
    worker.once("exit", () => {
      settle(undefined);
    });
  });
  const result = answer.then((r) => (r !== undefined || cancelled ? r : hashByPosition(fh)));
  return {
    // An undefined answer after a cancel is never awaited as a digest (the read has failed).
    result: result.then((r) => r ?? { error: { code: undefined, message: "cancelled" } }),
    cancel: async () => {
      cancelled = true;
      await worker.terminate();
    },
  };
}

/**
 * Splits byte chunks into lines, counting bytes so that an overlong line is skipped, not buffered.
 * A splitter may start at a line of the file other than its first (`lineNo`: the lines before;
 * range-read.ts reads a file in byte ranges cut at line ends).
 */
export class LineSplitter {
  private carry: Buffer[] = [];
  private carryLength = 0;
  /** The current line is over MAX_LINE_BYTES: drop bytes until its LF. */
  private skipping = false;
  private lineNo: number;
  private stopped = false;
  nonBlankLines = 0;

  private readonly onLine: LineHandler | undefined;
  private readonly onBytes: ByteLineHandler | undefined;

  constructor(
    lines: LineHandler | ByteLines,
    private readonly onProblem: ProblemHandler,
    lineNo = 0,
  ) {
    this.lineNo = lineNo;
    this.onLine = typeof lines === "function" ? lines : undefined;
    this.onBytes = typeof lines === "function" ? undefined : lines.bytes;
  }

  /** The number of the last line split (blank or not), or the lines before when none was. */
  get lines(): number {
    return this.lineNo;
  }

  /** Whether the file's line cap stopped the splitter (reported): later lines are not read. */
  get halted(): boolean {
    return this.stopped;
  }

  push(chunk: Buffer): void {
    if (this.stopped) return;
    const first = chunk.indexOf(LF);
    if (first === -1) {
      this.carryOn(chunk, 0);
      return;
    }
    // The line ending at the first LF may have begun in earlier chunks: the byte-counting path.
    this.lineEnd(chunk, 0, first);
    if (this.stopped) return;
    const last = chunk.lastIndexOf(LF);
    if (last > first) this.wholeLines(chunk, first + 1, last);
    if (last + 1 < chunk.length) this.carryOn(chunk, last + 1);
  }

  /** Bytes from `start` to the end of the chunk, with no LF: the start of a line continued later. */
  private carryOn(chunk: Buffer, start: number): void {
    if (this.stopped || this.skipping) return;
    const rest = chunk.length - start;
    if (rest === 0) return;
    if (this.carryLength + rest > MAX_LINE_BYTES) {
      this.overlong(this.lineNo + 1);
      this.skipping = true;
      return;
    }
    // A copy: the reader reuses its buffer for the next chunk.
    this.carry.push(Buffer.from(chunk.subarray(start)));
    this.carryLength += rest;
  }

  /** The line ending at `chunk[nl]` (an LF), whose bytes in this chunk start at `start`. */
  private lineEnd(chunk: Buffer, start: number, nl: number): void {
    if (!this.nextLineNo()) return;
    if (this.skipping) {
      // The end of a line already reported as overlong.
      this.skipping = false;
    } else if (this.carryLength + (nl - start) > MAX_LINE_BYTES) {
      this.overlong(this.lineNo);
    } else if (this.carryLength === 0) {
      this.emit(chunk.subarray(start, nl));
    } else {
      this.carry.push(chunk.subarray(start, nl));
      const whole = Buffer.concat(this.carry, this.carryLength + (nl - start));
      this.carry = [];
      this.carryLength = 0;
      this.emit(whole);
    }
  }

  /**
   * The lines of `chunk[begin, end)`, which starts a line and ends at an LF (excluded). Checking
   * UTF-8 and decoding once for a span of lines, then cutting the text at "\n", saves two native
   * calls and a Buffer view per line. It gives the same lines: an LF byte is always a whole
   * character in UTF-8, so a span is valid exactly when each of its lines is, and "\n" in the
   * text is exactly an LF byte. Spans are cut at an LF near SPAN_BYTES: a string much larger is
   * allocated outside V8's regular heap pages (a map and unmap each time).
   */
  private wholeLines(chunk: Buffer, begin: number, end: number): void {
    let start = begin;
    while (start <= end && !this.stopped) {
      if (isBlankByte(chunk[start] ?? 0) && end + 1 - start >= 2 * BLANK_BLOCK_BYTES) {
        start = this.skipBlankRun(chunk, start, end + 1);
        if (start > end) return;
      }
      let stop = end;
      if (end - start > SPAN_BYTES) {
        stop = chunk.lastIndexOf(LF, start + SPAN_BYTES);
        // One line longer than a span: up to its LF (chunk[end] is one).
        if (stop < start) stop = chunk.indexOf(LF, start + SPAN_BYTES);
      }
      this.span(chunk, start, stop);
      start = stop + 1;
    }
  }

  /**
   * Skips a run of identical blank lines (such as LF after LF, or CRLF after CRLF) starting at
   * `chunk[start]`, up to `stop` (just after an LF): blocks of the run are compared with the
   * repeated first line by memcmp, so that a gzip stream inflating to gigabytes of blank lines
   * costs about what inflating it costs, not a call per line. Returns where the lines to split
   * one by one begin (at `start` when there is no such run); line numbers count the skipped lines.
   */
  private skipBlankRun(chunk: Buffer, start: number, stop: number): number {
    const nl = chunk.indexOf(LF, start);
    const length = nl + 1 - start;
    if (nl < 0 || nl >= stop || length > MAX_BLANK_PATTERN || !isBlank(chunk, start, nl)) return start;
    let pattern = this.blankPattern;
    if (
      pattern.length === 0 ||
      pattern.length % length !== 0 ||
      pattern.compare(chunk, start, nl + 1, 0, length) !== 0
    ) {
      pattern = Buffer.alloc(length * Math.floor(BLANK_BLOCK_BYTES / length));
      for (let k = 0; k < pattern.length; k += length) chunk.copy(pattern, k, start, nl + 1);
      this.blankPattern = pattern;
    }
    const block = pattern.length;
    const lines = block / length;
    let p = start;
    while (stop - p >= block && this.lineNo + lines <= MAX_LINES_PER_FILE) {
      if (chunk.compare(pattern, 0, block, p, p + block) !== 0) break;
      this.lineNo += lines;
      p += block;
    }
    // The tail of the run in this chunk, shorter than a block.
    const rest = Math.min(stop - p, block) - (Math.min(stop - p, block) % length);
    if (
      rest > 0 &&
      this.lineNo + rest / length <= MAX_LINES_PER_FILE &&
      chunk.compare(pattern, 0, rest, p, p + rest) === 0
    ) {
      this.lineNo += rest / length;
      p += rest;
    }
    return p;
  }

  /** The last block skipBlankRun compared with (the repeated blank line). */
  private blankPattern: Buffer = Buffer.alloc(0);

  /** Whole lines as in wholeLines. A span that is not valid UTF-8 (to name the bad lines) or could
   * hold an overlong line (to count its bytes) goes line by line as bytes. */
  private span(chunk: Buffer, begin: number, end: number): void {
    const bytes = chunk.subarray(begin, end);
    if (end - begin > MAX_LINE_BYTES || !isUtf8(bytes)) {
      let start = begin;
      while (start <= end && !this.stopped) {
        let nl = chunk.indexOf(LF, start);
        if (nl === -1 || nl > end) nl = end;
        this.lineEnd(chunk, start, nl);
        start = nl + 1;
      }
      return;
    }
    // See LineHandler. C2 is the lead byte of U+0080–U+00BF (C1 is U+0080–U+009F); three scans
    // of the span (memchr) are far cheaper than a RegExp test of each identifier of each line.
    const plain = bytes.indexOf(BACKSLASH) === -1 && bytes.indexOf(DEL) === -1 && bytes.indexOf(0xc2) === -1;
    if (this.onBytes !== undefined) {
      this.spanBytes(chunk, begin, end, (plain ? LINE_PLAIN : 0) | (isAscii(bytes) ? LINE_ASCII : 0));
      return;
    }
    const text = chunk.toString("utf8", begin, end);
    let start = 0;
    while (start <= text.length) {
      let nl = text.indexOf("\n", start);
      if (nl === -1) nl = text.length;
      if (!this.nextLineNo()) return;
      this.emitText(text, start, nl, plain);
      start = nl + 1;
    }
  }

  /** `span` for a ByteLineHandler: the same lines, not decoded. */
  private spanBytes(chunk: Buffer, begin: number, end: number, flags: number): void {
    let start = begin;
    while (start <= end) {
      let nl = chunk.indexOf(LF, start);
      if (nl === -1 || nl > end) nl = end;
      if (!this.nextLineNo()) return;
      this.emitBytes(chunk, start, nl, flags);
      start = nl + 1;
    }
  }

  /** The last line, when the file does not end with LF. */
  end(): void {
    if (this.stopped || this.skipping || this.carryLength === 0) return;
    if (!this.nextLineNo()) return;
    const whole = Buffer.concat(this.carry, this.carryLength);
    this.carry = [];
    this.carryLength = 0;
    this.emit(whole);
  }

  private nextLineNo(): boolean {
    if (this.lineNo >= MAX_LINES_PER_FILE) {
      this.onProblem(undefined, `the file has more than ${MAX_LINES_PER_FILE} lines; the rest is not read`);
      this.stopped = true;
      return false;
    }
    this.lineNo++;
    return true;
  }

  private overlong(line: number): void {
    this.nonBlankLines++;
    this.carry = [];
    this.carryLength = 0;
    this.onProblem(
      line,
      `the line is longer than ${MAX_LINE_BYTES} bytes (the limit); one JSON object per line is expected`,
    );
  }

  private emit(bytes: Buffer): void {
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === CR) end--;
    let begin = 0;
    if (end >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
      begin = 3;
    }
    if (isBlank(bytes, begin, end)) return;
    this.nonBlankLines++;
    const line = begin === 0 && end === bytes.length ? bytes : bytes.subarray(begin, end);
    if (!isUtf8(line)) {
      this.onProblem(this.lineNo, "the line is not valid UTF-8 text");
      return;
    }
    if (this.onBytes !== undefined) {
      this.onBytes(line, 0, line.length, this.lineNo, isAscii(line) ? LINE_ASCII : 0);
      return;
    }
    const text = line.toString("utf8");
    this.onLine?.(text, 0, text.length, this.lineNo, false);
  }

  /** `emit` for a line of a valid UTF-8 span, as bytes: `chunk[begin, end)`. */
  private emitBytes(chunk: Buffer, begin: number, end: number, flags: number): void {
    if (end > begin && chunk[end - 1] === CR) end--;
    if (end - begin >= 3 && chunk[begin] === 0xef && chunk[begin + 1] === 0xbb && chunk[begin + 2] === 0xbf) {
      begin += 3;
    }
    if (isBlank(chunk, begin, end)) return;
    this.nonBlankLines++;
    this.onBytes?.(chunk, begin, end, this.lineNo, flags);
  }

  /** `emit` for a line already decoded: `text[begin, end)`, known to be valid UTF-8. */
  private emitText(text: string, begin: number, end: number, plain: boolean): void {
    if (end > begin && text.charCodeAt(end - 1) === CR) end--;
    if (end > begin && text.charCodeAt(begin) === BOM) begin++;
    for (let i = begin; ; i++) {
      if (i === end) return; // blank: only spaces, tabs and CRs
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x09 && c !== CR) break;
    }
    this.nonBlankLines++;
    this.onLine?.(text, begin, end, this.lineNo, plain);
  }
}

/** Blank runs are compared in blocks of about this many bytes (see skipBlankRun). */
const BLANK_BLOCK_BYTES = 16 * 1024;
/** The longest blank line (with its LF) skipBlankRun repeats into a block. */
const MAX_BLANK_PATTERN = 64;

function isBlankByte(b: number): boolean {
  return b === LF || b === 0x20 || b === 0x09 || b === CR;
}

/** Only spaces, tabs and CRs (JSON whitespace; LF cannot occur inside a line). */
function isBlank(bytes: Buffer, begin: number, end: number): boolean {
  for (let i = begin; i < end; i++) {
    const b = bytes[i];
    if (b !== 0x20 && b !== 0x09 && b !== CR) return false;
  }
  return true;
}

/**
 * Whether the file starts with gzip's magic bytes (as streamLines decides); false when it cannot
 * be read (streamLines then reports why).
 */
export async function isGzipFile(absPath: string): Promise<boolean> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(absPath, "r");
    const head = Buffer.alloc(2);
    const n = (await fh.read(head, 0, 2, 0)).bytesRead;
    return n === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } catch {
    return false;
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

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

function errorCode(e: unknown): string | undefined {
  if (typeof e === "object" && e !== null && "code" in e && typeof e.code === "string") return e.code;
  return undefined;
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A short, stack-free sentence for a failed open/stat/read. */
export function describeFsError(e: unknown): string {
  switch (errorCode(e)) {
    case "ENOENT":
      return "no such file";
    case "ENOTDIR":
      return "no such file (a parent of the path is not a directory)";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "is a directory, not a file";
    case "ELOOP":
      return "too many levels of symbolic links";
    case "ENAMETOOLONG":
      return "the path is too long";
    default: {
      const code = errorCode(e);
      return `cannot read the file (${code ?? errorMessage(e)})`;
    }
  }
}

function trailingBytesMessage(gzipBytes: number, fileBytes: number): string {
  const rest = fileBytes - gzipBytes;
  return (
    `the gzip data ends after ${gzipBytes} of the file's ${fileBytes} bytes; the ` +
    `${rest > 0 ? `${rest} bytes` : "bytes"} after it are not gzip data (zero padding, or something ` +
    `appended to the file) and would be ignored: decompress the file and compress it again`
  );
}

/** Reads `absPath` to its end, calling `onLine` for each non-blank line. Never throws for a user-caused
 * problem (those go to `onProblem`); rethrows what `onLine` throws. */
export async function streamLines(
  absPath: string,
  onLine: LineHandler | ByteLines,
  onProblem: ProblemHandler,
): Promise<StreamedFile> {
  let fh: FileHandle;
  try {
    fh = await open(absPath, "r");
  } catch (e) {
    onProblem(undefined, describeFsError(e));
    return { sha256: undefined, nonBlankLines: 0 };
  }
  const splitter = new LineSplitter(onLine, onProblem);
  let gzip = false;
  // What onLine threw (a bug, not user input): rethrown as itself, not as the
  // AbortError the pipeline turns it into.
  let handlerFailed = false;
  let handlerError: unknown;
  let bytesRead = 0;
  let gunzip: Gunzip | undefined;
  let pending: PendingHash | undefined;
  /** The read in flight (plain files): awaited before the fd is closed. */
  let reading: Promise<{ bytesRead: number }> | undefined;
  try {
    const head = Buffer.alloc(6);
    const headBytes = (await fh.read(head, 0, head.length, 0)).bytesRead;
    gzip = headBytes >= 2 && head[0] === 0x1f && head[1] === 0x8b;
    const unsupported = sniffUnsupported(head, headBytes);
    if (unsupported !== undefined) {
      onProblem(undefined, unsupported);
      return { sha256: undefined, nonBlankLines: 0 };
    }

    const size = (await fh.stat()).size;
    // A gzip file's compressed bytes are few next to what is inflated and parsed from them (35 MB
    // for 587 MB): hashing them here costs less than a thread's memory.
    const hashHere = gzip || size < WORKER_HASH_MIN_BYTES;
    pending = hashHere ? undefined : hashInWorker(fh);
    const hash = pending === undefined ? createHash("sha256") : undefined;
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
          hash?.update(chunk);
          bytesRead += chunk.length;
          callback(null, chunk);
        },
      });
      const source = fh.createReadStream({ start: 0, autoClose: false, highWaterMark: READ_CHUNK_BYTES });
      const sink = async (chunks: AsyncIterable<Buffer>): Promise<void> => {
        for await (const chunk of chunks) take(chunk);
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
      // Two buffers, used in turn: the next chunk is read (on libuv's thread pool) while this
      // one's lines are handled, instead of this thread waiting for each read; and no new buffer
      // per chunk, which would leave dead buffers between collections. The splitter copies what
      // it carries to the next chunk, and `take` returns once the chunk is used, before its
      // buffer is read into again.
      let buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
      let spare = Buffer.allocUnsafe(READ_CHUNK_BYTES);
      reading = fh.read(buffer, 0, READ_CHUNK_BYTES, 0);
      for (;;) {
        const n = (await reading).bytesRead;
        reading = undefined;
        if (n === 0) break;
        const chunk = buffer.subarray(0, n);
        bytesRead += n;
        [buffer, spare] = [spare, buffer];
        reading = fh.read(buffer, 0, READ_CHUNK_BYTES, bytesRead);
        hash?.update(chunk);
        take(chunk);
      }
    }
    try {
      splitter.end();
    } catch (e) {
      handlerFailed = true;
      handlerError = e;
      throw e;
    }
    if (pending === undefined) {
      return { sha256: hash?.digest("hex"), nonBlankLines: splitter.nonBlankLines };
    }
    const hashed = await pending.result;
    pending = undefined;
    if ("error" in hashed) {
      onProblem(undefined, describeFsError(hashed.error));
      return { sha256: undefined, nonBlankLines: splitter.nonBlankLines };
    }
    if (hashed.bytes !== bytesRead) {
      onProblem(
        undefined,
        `the file changed while it was read (${bytesRead} bytes, then ${hashed.bytes}); ` +
          `read it once it is complete`,
      );
      return { sha256: undefined, nonBlankLines: splitter.nonBlankLines };
    }
    return { sha256: hashed.digest, nonBlankLines: splitter.nonBlankLines };
  } catch (e) {
    if (handlerFailed) throw handlerError;
    const code = errorCode(e);
    if (gunzip !== undefined && code === "ABORT_ERR") {
      // The gunzip stream ended (see above) while the file went on.
      const size = await fh.stat().then(
        (st) => st.size,
        () => bytesRead,
      );
      onProblem(undefined, trailingBytesMessage(gunzip.bytesWritten, size));
    } else if (gzip && code !== undefined && code.startsWith("Z_")) {
      onProblem(
        undefined,
        `could not decompress the gzip data (${errorMessage(e)}); the file is truncated or corrupt`,
      );
    } else {
      onProblem(undefined, describeFsError(e));
    }
    return { sha256: undefined, nonBlankLines: splitter.nonBlankLines };
  } finally {
    // The worker reads through this fd: stop it before the fd is closed (and its number reused).
    // A handler that threw left the next chunk's read running: it must not outlive the fd (and
    // its failure is no one's to report). First, before anything else is awaited here.
    if (reading !== undefined) await reading.catch(() => undefined);
    if (pending !== undefined) await pending.cancel().catch(() => undefined);
    await fh.close().catch(() => undefined);
  }
}
