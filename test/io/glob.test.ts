/**
 * The glob syntax of src/io/glob.ts (README: `*`, `?` and `**`, nothing else special) on picomatch,
 * and the walk on fdir: symbolic links listed and never followed, `.git` skipped.
 */
import { rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { globFiles, globToRegExp, hasGlobChars, literalPrefix } from "../../src/io/glob.js";
import { fileTree } from "../helpers/file-tree.js";

const matches = (pattern: string, path: string): boolean => globToRegExp(pattern).test(path);

describe("globToRegExp", () => {
  it("matches *, ? within a segment and ** across segments", () => {
    const re = globToRegExp("out/**/run-?.jsonl*");
    expect(["out/run-1.jsonl", "out/a/b/run-2.jsonl.gz"].every((p) => re.test(p))).toBe(true);
    expect(["out/run-10.jsonl", "other/run-1.jsonl", "out/a/run-1.json"].some((p) => re.test(p))).toBe(false);
    expect(matches("*.jsonl", "a/b.jsonl")).toBe(false);
    expect(matches("**/*.jsonl", "b.jsonl")).toBe(true);
    expect(matches("**/*.jsonl", "a/.hidden/b.jsonl")).toBe(true);
    expect(matches("*.jsonl", ".b.jsonl")).toBe(true);
    expect(matches("a**b", "a/b")).toBe(false);
    expect(matches("a**b", "axxb")).toBe(true);
  });

  it("a last ** is anything below, not the directory itself", () => {
    expect(matches("a/**", "a/b/c")).toBe(true);
    expect(matches("a/**", "a/b")).toBe(true);
    expect(matches("a/**", "a")).toBe(false);
    expect(matches("**", "a/b")).toBe(true);
  });

  it("brackets, braces, negation, extglobs, quotes and backslashes are literal", () => {
    const literal = [
      "[x].jsonl",
      "[!x].jsonl",
      "{a,b}.jsonl",
      "!a.jsonl",
      "+(a).jsonl",
      "@(a|b).jsonl",
      "(a|b).jsonl",
      '"a".jsonl',
      "a\\b.jsonl",
      "a^$.jsonl",
      "a{1..3}.jsonl",
    ];
    for (const p of literal) expect([p, matches(p, p)]).toEqual([p, true]);
    const lookalikes: [string, string][] = [
      ["[x].jsonl", "x.jsonl"],
      ["[!x].jsonl", "y.jsonl"],
      ["{a,b}.jsonl", "a.jsonl"],
      ["!a.jsonl", "b.jsonl"],
      ["+(a).jsonl", "aa.jsonl"],
      ["@(a|b).jsonl", "b.jsonl"],
      ["(a|b).jsonl", "a.jsonl"],
      ['"a".jsonl', "a.jsonl"],
      ["a\\*.jsonl", "a*.jsonl"],
      ["a{1..3}.jsonl", "a2.jsonl"],
    ];
    for (const [p, path] of lookalikes) expect([p, path, matches(p, path)]).toEqual([p, path, false]);
    expect(matches("a\\*.jsonl", "a\\x.jsonl")).toBe(true);
    expect(matches("[*].jsonl", "[x].jsonl")).toBe(true);
  });

  it("agrees with the documented syntax on random patterns and paths", () => {
    // The syntax written out as a RegExp: the reference the library's matching is held to.
    const reference = (pattern: string): RegExp => {
      const segs = pattern.split("/");
      const body = segs
        .map((seg, i) => {
          const last = i === segs.length - 1;
          if (seg === "**") return last ? "(?:[^/]+(?:/[^/]+)*)" : "(?:[^/]+/)*";
          const s = seg
            .replace(/[.+^${}()|[\]\\]/g, "\\$&")
            .replace(/\*/g, "[^/]*")
            .replace(/\?/g, "[^/]");
          return last ? s : `${s}/`;
        })
        .join("");
      return new RegExp(`^${body}$`, "u");
    };
    const char = fc.constantFrom(...Array.from("ab.*?[]{}!()+@|\\^$,-\"'é~# "));
    const segment = fc.oneof(
      fc.constant("**"),
      fc.array(char, { minLength: 1, maxLength: 4 }).map((cs) => cs.join("")),
    );
    const pathSegment = fc
      .array(fc.constantFrom(...Array.from("ab.[]{}!()+@|\\^$,-\"'é~# ")), { minLength: 1, maxLength: 3 })
      .map((cs) => cs.join(""))
      .filter((s) => s !== "." && s !== "..");
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join("/")),
        fc.array(pathSegment, { minLength: 1, maxLength: 4 }).map((s) => s.join("/")),
        (pattern, path) => {
          // A path made from the pattern, so that matches are common, and a random one.
          const made = pattern
            .split("/")
            .flatMap((s) => (s === "**" ? ["a", "b.c"].slice(0, path.length % 3) : [s.replace(/\*+/g, "x.")]))
            .map((s) => s.replace(/\?/g, "é"))
            .join("/");
          for (const p of [made, path]) {
            if (p === "" || p.split("/").some((s) => s === "" || s === "." || s === "..")) continue;
            expect([pattern, p, globToRegExp(pattern).test(p)]).toEqual([
              pattern,
              p,
              reference(pattern).test(p),
            ]);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe("literalPrefix and hasGlobChars", () => {
  it("the leading segments without * or ?", () => {
    expect(literalPrefix("out/x/**/*.jsonl")).toBe("out/x");
    expect(literalPrefix("out/r?/a.jsonl")).toBe("out");
    expect(literalPrefix("*.jsonl")).toBe("");
    expect(literalPrefix("a/b.jsonl")).toBe("a");
    expect(hasGlobChars("a/[b].jsonl")).toBe(false);
    expect(hasGlobChars("a/b?.jsonl")).toBe(true);
  });
});

describe("globFiles", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const tree = (files: readonly string[]): string => {
    const d = fileTree("gate-glob-", files);
    dirs.push(d);
    return d;
  };

  it("lists matching files and links below the literal prefix, sorted; links are not followed", () => {
    const ws = tree([
      "out/b.jsonl",
      "out/a/c.jsonl",
      "out/a/skip.txt",
      "top.jsonl",
      ".git/x.jsonl",
      "out/.git/y.jsonl",
    ]);
    const outside = tree(["d/secret.jsonl", "f.jsonl"]);
    symlinkSync(join(outside, "f.jsonl"), join(ws, "out/file-link.jsonl"));
    symlinkSync(join(outside, "d"), join(ws, "out/dir-link.jsonl"));
    symlinkSync(join(outside, "d"), join(ws, "out/dirs"));
    symlinkSync(join(ws, "nowhere"), join(ws, "out/broken.jsonl"));
    expect(globFiles(ws, "out/**/*.jsonl")).toEqual([
      "out/a/c.jsonl",
      "out/b.jsonl",
      "out/broken.jsonl",
      "out/dir-link.jsonl",
      "out/file-link.jsonl",
    ]);
    expect(globFiles(ws, "**/*.jsonl")).toEqual([
      "out/a/c.jsonl",
      "out/b.jsonl",
      "out/broken.jsonl",
      "out/dir-link.jsonl",
      "out/file-link.jsonl",
      "top.jsonl",
    ]);
    expect(globFiles(ws, "*/?.jsonl")).toEqual(["out/b.jsonl"]);
    expect(globFiles(ws, "missing/*.jsonl")).toEqual([]);
    // A linked directory named in the literal prefix is read, as a path written out would be.
    expect(globFiles(ws, "out/dirs/*.jsonl")).toEqual(["out/dirs/secret.jsonl"]);
  });

  it("directories that match are not listed; names with glob-like characters are found", () => {
    const ws = tree(["a.jsonl/inner.txt", "[x]/{y}.jsonl", "!z.jsonl"]);
    expect(globFiles(ws, "*.jsonl")).toEqual(["!z.jsonl"]);
    expect(globFiles(ws, "[x]/*.jsonl")).toEqual(["[x]/{y}.jsonl"]);
  });
});
