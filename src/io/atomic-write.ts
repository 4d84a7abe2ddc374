import { randomBytes } from "node:crypto";
import { realpathSync, statSync } from "node:fs";
import { chmod, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * Writes a file so that readers see either the previous complete file or the new complete file,
 * never a half-written one: write a temporary file in the same directory (same filesystem), then
 * rename it over the target, which POSIX makes atomic. A failed write (a full disk: ENOSPC, a
 * quota, EIO) removes the temporary file and leaves the previous file as it was.
 *
 * An existing target that is a symbolic link is written through (the file it names is replaced
 * and the link kept), keeping the previous file's permission bits. An existing target that is not
 * a regular file (a directory, device, FIFO, socket) is refused (EEXIST-like error with code
 * "ENOTREGULAR"): a rename would replace a device node with a plain file. (No imports from this
 * project: a test runs this file alone in a child process it kills.)
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array | Iterable<string>,
): Promise<void> {
  let target: string;
  let mode: number | undefined;
  try {
    target = realpathSync(path);
    const st = statSync(target);
    if (!st.isFile())
      throw Object.assign(new Error(`${path} is not a regular file`), {
        code: st.isDirectory() ? "EISDIR" : "ENOTREGULAR",
      });
    mode = st.mode & 0o7777;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EISDIR" || code === "ENOTREGULAR") throw error;
    // No such file yet (or a dangling link: written as a new file at `path`).
    target = path;
  }
  const tmp = join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`,
  );
  try {
    await writeFile(tmp, data, { flag: "wx" });
    if (mode !== undefined) await chmod(tmp, mode);
    await rename(tmp, target);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}
