/**
 * The globs of the `results` and `reviews` inputs (files of the workspace) and of repository paths
 * (policy-log's `--evidence`, the files an input glob matched at the base commit). One syntax for
 * all: `*` matches within one path segment, `?` one character of a segment, `**` as a whole
 * segment any number of segments (including none). Nothing else is special: `[`, `{`, `!`, `(`,
 * `\` and the rest are literal, so a path that contains them still works when written out.
 *
 * picomatch matches, given the pattern with every other ASCII punctuation character escaped
 * (toPicomatch): its brackets, braces, extglobs, negation, quotes and backslash escapes would
 * otherwise apply. fdir (the crawler under tinyglobby) walks: tinyglobby either drops every
 * symbolic link or follows linked directories, out of the workspace too, while the inputs need
 * each link listed and none followed, so that the caller can judge the link's real path (no
 * loops, no escape).
 *
 * Patterns are `/`-separated and relative, without `.` or `..` segments; matching is on
 * `/`-separated relative paths.
 */
import { join } from "node:path";
import { fdir } from "fdir";
import picomatch from "picomatch/posix.js";

export function hasGlobChars(pattern: string): boolean {
  return /[*?]/.test(pattern);
}

/**
 * The pattern in picomatch's syntax: ASCII punctuation but `*`, `?` and `/` escaped. A backslash
 * becomes the class `[\\]`: picomatch collapses runs of backslashes, so `\\` would not survive a
 * backslash-escaped character after it.
 */
function toPicomatch(pattern: string): string {
  return pattern
    .replace(/[!-)+-.:->@[-`{-~]/g, (c) => (c === "\\" ? "[\\\\]" : `\\${c}`))
    .replace(/(^|\/)\*\*$/, "$1**/*"); // a last `**` is anything below, not the directory itself
}

/** A RegExp that tests whether a path matches `pattern`. */
export function globToRegExp(pattern: string): RegExp {
  return picomatch.makeRe(toPicomatch(pattern), {
    dot: true,
    nobrace: true,
    noextglob: true,
    nonegate: true,
  });
}

/** The leading segments of a pattern that contain no glob characters: where a walk starts. */
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
 * Paths (relative to `root`, `/`-separated, sorted) of the files and symbolic links below `root`
 * that match `pattern` (relative to `root`). Links are listed, never followed; a directory that
 * cannot be read is passed over.
 */
export function globFiles(root: string, pattern: string): string[] {
  const regex = globToRegExp(pattern);
  const start = literalPrefix(pattern);
  const under = (rel: string): string => (start === "" ? rel : `${start}/${rel}`);
  const found = new fdir({
    relativePaths: true,
    pathSeparator: "/",
    suppressErrors: true,
    exclude: (dirName) => SKIP_DIRS.has(dirName),
    filters: [(rel) => regex.test(under(rel))],
  })
    .crawl(start === "" ? root : join(root, start))
    .sync();
  return found.map(under).sort();
}
