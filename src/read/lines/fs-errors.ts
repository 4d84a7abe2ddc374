/** File-system errors as short, stack-free sentences for the reader's messages. */
import { errorCode, fsCodeWords } from "../../core/fs-error-words.js";

export { errorCode };

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A short, stack-free sentence for a failed open/stat/read (the words of fs-error-words.ts). */
export function describeFsError(e: unknown): string {
  return fsCodeWords(e) ?? `cannot read the file (${errorCode(e) ?? errorMessage(e)})`;
}
