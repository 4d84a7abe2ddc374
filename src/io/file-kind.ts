/**
 * What kind of file a path is, checked before anything is read or written. Every file the gate
 * reads (policy, results, reviews, importer inputs, the event payload) must be a regular file:
 * a FIFO would block the open or the read forever, /dev/zero and /dev/urandom never end, and a
 * directory is a mistake. Every file it writes (the report, an import's export) must not be an
 * input of the same run, nor an existing device, FIFO, socket or directory, which a rename would
 * replace or a write would feed.
 *
 * Files are opened with O_NONBLOCK, so opening a FIFO returns at once, and the kind is taken
 * from the open descriptor (fstat), so a path swapped after a stat is still caught.
 */
import { constants, fstatSync, openSync, closeSync, realpathSync, statSync, type Stats } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { InputError } from "../core/errors.js";
import { errorCode, fsCodeWords } from "../core/fs-error-words.js";

/** "a directory", "a FIFO (named pipe)", …: what a non-regular file is, for messages. */
export function describeKind(st: Stats): string {
  if (st.isFile()) return "a regular file";
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

/** Why a file operation failed, in words (the map of fs-error-words.ts; other codes kept as given). */
export function describeFsCode(error: unknown): string {
  const words = fsCodeWords(error);
  if (words !== undefined) return words;
  const code = errorCode(error);
  return code !== undefined
    ? `error ${code}`
    : error instanceof Error
      ? (error.message.split("\n")[0] ?? "unknown error")
      : "unknown error";
}

/** A file that is not a regular file, found before it was read. */
export class NotRegularFileError extends Error {
  constructor(
    readonly path: string,
    readonly kind: string,
  ) {
    super(`${kind}, not a regular file`);
    this.name = "NotRegularFileError";
  }
}

// O_NOCTTY: opening a terminal must not make it the controlling terminal.
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/**
 * Opens `path` for reading if it is a regular file; throws NotRegularFileError (never blocking on
 * a FIFO) if it is anything else, and the fs error (ENOENT, EACCES, …) if it cannot be opened.
 */
export async function openRegularFile(path: string): Promise<FileHandle> {
  const fh = await open(path, READ_FLAGS);
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new NotRegularFileError(path, describeKind(st));
  } catch (error) {
    await fh.close().catch(() => undefined);
    throw error;
  }
  return fh;
}

/** openRegularFile, synchronously: returns a file descriptor. */
export function openRegularFileSync(path: string): number {
  const fd = openSync(path, READ_FLAGS);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new NotRegularFileError(path, describeKind(st));
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

/** The file is larger than a reader's cap (found while reading, not after). */
export class FileTooLargeError extends Error {
  constructor(
    readonly path: string,
    readonly maxBytes: number,
  ) {
    super(`the file is larger than ${maxBytes} bytes`);
    this.name = "FileTooLargeError";
  }
}

/**
 * The whole of a regular file, at most `maxBytes` bytes: reading stops as soon as the file is
 * known to be larger (FileTooLargeError), so memory stays within the cap whatever the file is.
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<Buffer> {
  const fh = await openRegularFile(path);
  try {
    // One byte more than the cap tells "exactly the cap" from "larger".
    const buf = Buffer.alloc(Math.min(maxBytes + 1, 64 * 1024));
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, maxBytes + 1 - total), null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) throw new FileTooLargeError(path, maxBytes);
      chunks.push(Buffer.from(buf.subarray(0, bytesRead)));
    }
    return Buffer.concat(chunks, total);
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/**
 * readRegularFile for a user's input: every failure is one InputError naming `role` and the path
 * as the user gave it (`shown`).
 */
export async function readInputFile(
  path: string,
  shown: string,
  role: string,
  maxBytes: number,
): Promise<Buffer> {
  try {
    return await readRegularFile(path, maxBytes);
  } catch (error) {
    throw inputFileError(error, shown, role);
  }
}

/** Why an input file could not be read, in words; null when `error` is a bug, not the file. */
export function inputFileProblem(error: unknown): string | null {
  if (error instanceof NotRegularFileError) return `it is ${error.kind}, not a regular file`;
  if (error instanceof FileTooLargeError) return `it is larger than the limit of ${error.maxBytes} bytes`;
  if ((error as NodeJS.ErrnoException | null)?.code !== undefined) return describeFsCode(error);
  return null;
}

/** The InputError for a failed read of an input file, or `error` itself when it is a bug. */
export function inputFileError(error: unknown, shown: string, role: string): unknown {
  const why = inputFileProblem(error);
  return why === null ? error : new InputError(`Cannot read the ${role} ${shown}: ${why}.`);
}

const APPEND_FLAGS =
  constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK | constants.O_NOCTTY;

/**
 * Appends to a regular file (created if missing), as the runner's GITHUB_STEP_SUMMARY expects.
 * Anything else is refused before a byte is written (a FIFO without a reader fails at once: ENXIO).
 */
export async function appendToRegularFile(path: string, data: string): Promise<void> {
  const fh = await open(path, APPEND_FLAGS, 0o666);
  try {
    const st = await fh.stat();
    if (!st.isFile())
      throw Object.assign(new Error(`${path} is ${describeKind(st)}`), { code: "ENOTREGULAR" });
    await fh.writeFile(data, "utf8");
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** Device and inode: the file's identity, whatever the path (hard links, symbolic links, `..`). */
function identity(st: Stats): string {
  return `${st.dev}:${st.ino}`;
}

/** The real path of `path` if it exists, else the real path of its directory plus its name. */
function realTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return path;
    }
  }
}

/**
 * Why `path` must not be written, or null when it may be: it is (after symbolic links, or as a
 * hard link: same device and inode) one of `inputs`, or it exists and is not a regular file.
 * A missing file or directory is not a problem here (the write says so).
 */
export function outputTargetProblem(
  path: string,
  inputs: readonly { path: string; shown: string }[],
): string | null {
  let st: Stats | null;
  try {
    st = statSync(path);
  } catch {
    st = null;
  }
  if (st !== null && !st.isFile()) return `it is ${describeKind(st)}; only a regular file is replaced`;
  const real = realTarget(path);
  for (const input of inputs) {
    let same = realTarget(input.path) === real;
    if (!same && st !== null) {
      try {
        same = identity(statSync(input.path)) === identity(st);
      } catch {
        // an input that does not exist cannot be overwritten
      }
    }
    if (same) return `it is the input ${input.shown}; writing there would replace it`;
  }
  return null;
}

/** outputTargetProblem as an InputError naming `role` (e.g. "--report"), thrown before reading. */
export function checkOutputTarget(
  path: string,
  shown: string,
  role: string,
  inputs: readonly { path: string; shown: string }[],
): void {
  const problem = outputTargetProblem(path, inputs);
  if (problem !== null)
    throw new InputError(`Refusing to write ${role} ${shown}: ${problem}. Nothing was read or written.`);
}
