/**
 * Splits the bytes of a file into lines, on LF, counting bytes so that an overlong line is
 * reported and skipped without ever being held whole. A UTF-8 BOM at the start of the file, or of
 * a line (as left by concatenating files), and CR before LF are dropped; blank lines are skipped.
 * Every problem of a line (overlong, not UTF-8, past the line cap) goes to the ProblemHandler.
 */

import { isUtf8 } from "node:buffer";

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
 * end; the bytes are valid only during the call. For the byte scanner, which reads most lines
 * without decoding them; a line it leaves to JSON.parse can be asked whether it is plain
 * (plainBytes), as LineHandler is told: the question is asked of that line alone, and only for
 * those lines, instead of scanning every span for it.
 */
export type ByteLineHandler = (bytes: Buffer, begin: number, end: number, line: number) => void;

/** Lines as bytes (see ByteLineHandler) instead of text. */
export interface ByteLines {
  readonly bytes: ByteLineHandler;
}

/** Whether the line `bytes[begin, end)` is plain, as LineHandler's `plain` promises (exactly). */
export function plainBytes(bytes: Buffer, begin: number, end: number): boolean {
  return isPlain(bytes.subarray(begin, end));
}

/** See LineHandler. C2 is the lead byte of U+0080–U+00BF (C1 is U+0080–U+009F). */
function isPlain(bytes: Buffer): boolean {
  return bytes.indexOf(BACKSLASH) === -1 && bytes.indexOf(DEL) === -1 && bytes.indexOf(0xc2) === -1;
}

/** The line `text[begin, end)` of a LineHandler call. */
export function lineOf(text: string, begin: number, end: number): string {
  return begin === 0 && end === text.length ? text : text.slice(begin, end);
}

/** Receives a problem of the file; `line` is undefined when it concerns the whole file. */
export type ProblemHandler = (line: number | undefined, message: string) => void;

/**
 * Looks at the first non-blank line of a file (decoded, no BOM, no line end) before any line is
 * handed out: a message says the file is not JSON lines (e.g. a CSV table), and then none of its
 * lines is (see LineSplitter.refused).
 */
export type FirstLineCheck = (line: string) => string | undefined;

/** The first line is looked at only when it ends within the first chunk and is at most this long. */
const FIRST_LINE_MAX_BYTES = 64 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const BACKSLASH = 0x5c;
const DEL = 0x7f;
/** U+FEFF, the byte order mark (EF BB BF in UTF-8). */
const BOM = 0xfeff;
/** Lines are decoded in spans of about this many bytes (see LineSplitter.wholeLines). */
const SPAN_BYTES = 32 * 1024;

/** Splits byte chunks into lines, counting bytes so that an overlong line is skipped, not buffered. */
export class LineSplitter {
  private carry: Buffer[] = [];
  private carryLength = 0;
  /** The current line is over MAX_LINE_BYTES: drop bytes until its LF. */
  private skipping = false;
  private lineNo = 0;
  private stopped = false;
  nonBlankLines = 0;

  private readonly onLine: LineHandler | undefined;
  private readonly onBytes: ByteLineHandler | undefined;

  /** Set until the first chunk: looks at the first line (see FirstLineCheck). */
  private firstLine: FirstLineCheck | undefined;
  private refusedFile = false;

  constructor(
    lines: LineHandler | ByteLines,
    private readonly onProblem: ProblemHandler,
    firstLine?: FirstLineCheck,
  ) {
    this.firstLine = firstLine;
    this.onLine = typeof lines === "function" ? lines : undefined;
    this.onBytes = typeof lines === "function" ? undefined : lines.bytes;
  }

  /** Whether the first line showed that the file is not JSON lines (reported): no line was read. */
  get refused(): boolean {
    return this.refusedFile;
  }

  push(chunk: Buffer): void {
    // (Once a file: a field test a chunk, not a line.)
    if (this.firstLine !== undefined) this.checkFirstLine(chunk);
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
    if (this.onBytes !== undefined) {
      this.spanBytes(chunk, begin, end);
      return;
    }
    // Three scans of the span (memchr) are far cheaper than a RegExp test of each identifier of
    // each line.
    const plain = isPlain(bytes);
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
  private spanBytes(chunk: Buffer, begin: number, end: number): void {
    let start = begin;
    while (start <= end) {
      let nl = chunk.indexOf(LF, start);
      if (nl === -1 || nl > end) nl = end;
      if (!this.nextLineNo()) return;
      this.emitBytes(chunk, start, nl);
      start = nl + 1;
    }
  }

  /** The first chunk's first non-blank line, given to the FirstLineCheck. */
  private checkFirstLine(chunk: Buffer): void {
    const check = this.firstLine;
    this.firstLine = undefined;
    if (check === undefined || this.carryLength > 0 || this.skipping) return;
    let line = this.lineNo;
    for (let start = 0; ;) {
      const nl = chunk.indexOf(LF, start);
      if (nl === -1 || nl - start > FIRST_LINE_MAX_BYTES) return;
      line++;
      let begin = start;
      let end = nl;
      if (end > begin && chunk[end - 1] === CR) end--;
      if (
        end - begin >= 3 &&
        chunk[begin] === 0xef &&
        chunk[begin + 1] === 0xbb &&
        chunk[begin + 2] === 0xbf
      ) {
        begin += 3;
      }
      if (!isBlank(chunk, begin, end)) {
        const bytes = chunk.subarray(begin, end);
        const message = isUtf8(bytes) ? check(bytes.toString("utf8")) : undefined;
        if (message !== undefined) {
          this.onProblem(line, message);
          this.refusedFile = true;
          this.stopped = true;
        }
        return;
      }
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
      this.onBytes(line, 0, line.length, this.lineNo);
      return;
    }
    const text = line.toString("utf8");
    this.onLine?.(text, 0, text.length, this.lineNo, false);
  }

  /** `emit` for a line of a valid UTF-8 span, as bytes: `chunk[begin, end)`. */
  private emitBytes(chunk: Buffer, begin: number, end: number): void {
    if (end > begin && chunk[end - 1] === CR) end--;
    if (end - begin >= 3 && chunk[begin] === 0xef && chunk[begin + 1] === 0xbb && chunk[begin + 2] === 0xbf) {
      begin += 3;
    }
    if (isBlank(chunk, begin, end)) return;
    this.nonBlankLines++;
    this.onBytes?.(chunk, begin, end, this.lineNo);
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
