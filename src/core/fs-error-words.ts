/**
 * File-system errno codes in words, for every message that names a failed open, read or write:
 * the one map both the reader (src/read/lines/fs-errors.ts) and the file checks (src/io/file-kind.ts)
 * use. Pure text (here, under the core, because read/ and io/ may both import the core and not each
 * other); the codes users know are the keys.
 */
const FS_CODE_WORDS: Readonly<Record<string, string>> = {
  ENOENT: "no such file",
  ENOTDIR: "no such file (a parent of the path is not a directory)",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "it is a directory",
  ELOOP: "too many levels of symbolic links",
  ENAMETOOLONG: "the path is too long",
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is exceeded",
  EFBIG: "the file is too large for the file system or the process's file size limit",
  EROFS: "the file system is read-only",
  EIO: "an I/O error",
  ENXIO: "a FIFO with no reader or a device that is not there",
  ENOTREGULAR: "it is not a regular file",
};

/** The error's `code` when it has a string one (Node's fs errors do). */
export function errorCode(e: unknown): string | undefined {
  if (typeof e === "object" && e !== null && "code" in e && typeof e.code === "string") return e.code;
  return undefined;
}

/** The words for the error's code, or undefined for a code not in the map (or none). */
export function fsCodeWords(e: unknown): string | undefined {
  const code = errorCode(e);
  return code === undefined ? undefined : FS_CODE_WORDS[code];
}
