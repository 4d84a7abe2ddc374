/**
 * A tiny glob for the `results` and `reviews` inputs (Node 20 has no fs.globSync): `*` matches
 * within one path segment, `?` one character of a segment, `**` as a whole segment any number of
 * segments (including none). Nothing else is special: `[`, `{` and `!` are literal characters,
 * so a path that contains them still works when written out.
 *
 * Matching is on `/`-separated paths relative to a root directory. The walk does not follow
 * symbolic links to directories (no loops, no escape); a symbolic link to a file is returned and
 * the caller decides (after realpath) whether its target is acceptable.
 */
import { readdirSync, type Dirent } from "node:fs";
import { join } from "node:path";

export function hasGlobChars(pattern: string): boolean {
  return /[*?]/.test(pattern);
}

/** Compiles one glob (already `/`-separated, relative, no `.`/`..` segments) to a RegExp. */
export function globToRegExp(pattern: string): RegExp {
  const segments = pattern.split("/");
  let re = "";
  segments.forEach((seg, i) => {
    const last = i === segments.length - 1;
    if (seg === "**") {
      // Any number of whole segments, each followed by "/"; as the last segment, anything below.
      re += last ? "(?:[^/]+(?:/[^/]+)*)?" : "(?:[^/]+/)*";
      return;
    }
    for (const ch of seg) {
      if (ch === "*") re += "[^/]*";
      else if (ch === "?") re += "[^/]";
      else re += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
    if (!last) re += "/";
  });
  return new RegExp(`^${re}$`, "u");
}

/** The leading segments of a pattern that contain no glob characters: where the walk starts. */
export function literalPrefix(pattern: string): string {
  const segments = pattern.split("/");
  const out: string[] = [];
  for (const seg of segments.slice(0, -1)) {
    if (hasGlobChars(seg)) break;
    out.push(seg);
  }
  return out.join("/");
}

/** Directories never descended into: version control internals are not inputs. */
const SKIP_DIRS = new Set([".git"]);

/**
 * Paths (relative to `root`, `/`-separated, sorted) of files and symbolic links below `root`
 * that match `pattern`. `pattern` is relative to `root`.
 */
export function globFiles(root: string, pattern: string): string[] {
  const regex = globToRegExp(pattern);
  const start = literalPrefix(pattern);
  const out: string[] = [];
  const walk = (rel: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(rel === "" ? root : join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const child = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) walk(child);
      } else if ((e.isFile() || e.isSymbolicLink()) && regex.test(child)) {
        out.push(child);
      }
    }
  };
  walk(start);
  return out.sort();
}
