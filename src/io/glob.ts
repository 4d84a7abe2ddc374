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
import { realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { fdir } from "fdir";
import picomatch from "picomatch/posix.js";
import { InputError } from "../core/errors.js";

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

/** One file a command-line argument named: its absolute path, and how messages show it. */
export interface FileArg {
  readonly abs: string;
  readonly shown: string;
}

/**
 * The values of a command-line file flag, expanded as the action expands its `results` and
 * `reviews` inputs (src/action/inputs.ts), so that a quoted pattern (`--results 'runs/*.jsonl'`,
 * as a workflow writes it) means what it means there: a value without `*` or `?` is a path, taken
 * as given (the reader says if it is missing); a value with them is a pattern over the files
 * below its literal leading directories (absolute, or relative to `cwd`), its matches sorted; every
 * file is read once, where it first comes; a pattern that matches nothing is an InputError naming
 * the flag and the pattern. Matches are shown as the pattern's directory plus the matched path.
 */
export function expandFileArgs(cwd: string, flag: string, values: readonly string[]): FileArg[] {
  const out: FileArg[] = [];
  const seen = new Set<string>();
  const add = (abs: string, shown: string): void => {
    let key = abs;
    try {
      key = realpathSync(abs);
    } catch {
      // A missing file is the reader's to report, by the name given.
    }
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ abs, shown });
  };
  for (const value of values) {
    if (!hasGlobChars(value)) {
      add(resolve(cwd, value), value);
      continue;
    }
    const prefix = literalPrefix(value);
    const dir = prefix === "" && value.startsWith("/") ? "/" : prefix;
    const base = resolve(cwd, dir === "" ? "." : dir);
    const rel = value.slice(prefix.length).replace(/^\/+/, "");
    const matches = globFiles(base, rel);
    if (matches.length === 0) {
      throw new InputError(
        `${flag} ${JSON.stringify(value)} matches no file (looked in ${dir === "" ? "the current directory" : JSON.stringify(dir)}). ` +
          "A pattern's * and ? match within one path segment, ** any number of segments.",
      );
    }
    for (const m of matches) add(join(base, m), dir === "" ? m : dir === "/" ? `/${m}` : `${dir}/${m}`);
  }
  return out;
}
