/** File-system errors as short, stack-free sentences for the reader's messages. */

export function errorCode(e: unknown): string | undefined {
  if (typeof e === "object" && e !== null && "code" in e && typeof e.code === "string") return e.code;
  return undefined;
}

export function errorMessage(e: unknown): string {
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
