/** File-name helpers for default model-config ids. */
import { basename, dirname, resolve } from "node:path";

/** The file's base name without the first matching suffix, e.g. `gpt-4o.run1.json` → `gpt-4o.run1`. */
export function baseNameWithout(file: string, suffixes: readonly string[]): string {
  const base = basename(file);
  for (const s of suffixes) {
    if (base.toLowerCase().endsWith(s) && base.length > s.length)
      return base.slice(0, base.length - s.length);
  }
  return base;
}

/**
 * The name of the directory holding the file, skipping directories named in `skip`:
 * `evaluation/verified/20240620_x/results/results.json` with skip ["results"] → `20240620_x`.
 * Undefined when there is no such directory name (e.g. the file is at the filesystem root).
 */
export function enclosingName(file: string, skip: readonly string[] = []): string | undefined {
  let dir = dirname(resolve(file));
  for (;;) {
    const name = basename(dir);
    if (name === "") return undefined;
    if (!skip.includes(name)) return name;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}
