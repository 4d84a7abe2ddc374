/**
 * Functions a reader can hold: no function in src/ over MAX_FUNCTION_LINES lines, no source file
 * over MAX_SOURCE_FILE_LINES, no test file over MAX_TEST_FILE_LINES. A function is counted from its
 * first token (its doc comment excluded) to its closing brace, nested functions inside it included.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { useScratch } from "../hardening/helpers.js";

const require = createRequire(import.meta.url);
// typescript is a dev dependency; its CommonJS API is the parser this needs.
const ts = require("typescript") as typeof import("typescript");

const MAX_FUNCTION_LINES = 120;
const MAX_SOURCE_FILE_LINES = 700;
const MAX_TEST_FILE_LINES = 900;

const scratch = useScratch("house-sizes-");

function lineCount(text: string): number {
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

/** Each function with a body longer than `max` lines: "file:line name (n lines)". */
function longFunctions(file: string, max: number): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: import("typescript").Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = sf.getLineAndCharacterOfPosition(node.end).line;
      const n = last - first + 1;
      const name = node.name === undefined ? "(anonymous)" : node.name.getText(sf);
      if (n > max) out.push(`${file}:${first + 1} ${name} (${n} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function tracked(dir: string): string[] {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", dir], {
    encoding: "utf8",
  });
  return listed.split("\n").filter((f) => f.endsWith(".ts"));
}

describe("sizes a reader can hold", () => {
  it("the count finds a long function, an arrow and a method, not a short one (it can fail)", () => {
    const body = (k: number): string => Array.from({ length: k }, (_, i) => `  x += ${i};`).join("\n");
    const file = scratch.write(
      [
        `function long() {\n  let x = 0;\n${body(5)}\n  return x;\n}`,
        `function short() {\n  return 1;\n}`,
        `const arrow = () => {\n${body(4)}\n};`,
        `class C {\n  method() {\n${body(4)}\n  }\n}`,
      ].join("\n"),
      "sample.ts",
    );
    expect(longFunctions(file, 5)).toEqual([
      `${file}:1 long (9 lines)`,
      `${file}:13 (anonymous) (6 lines)`,
      `${file}:20 method (6 lines)`,
    ]);
  });

  it(`no function in src/ is over ${MAX_FUNCTION_LINES} lines`, () => {
    const files = tracked("src");
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap((f) => longFunctions(f, MAX_FUNCTION_LINES))).toEqual([]);
  });

  it(`no source file is over ${MAX_SOURCE_FILE_LINES} lines, no test file over ${MAX_TEST_FILE_LINES}`, () => {
    const over = (files: string[], max: number): string[] =>
      files
        .map((f) => `${f} ${lineCount(readFileSync(f, "utf8"))}`)
        .filter((l) => Number(l.split(" ")[1]) > max);
    const tests = tracked("test");
    expect(tests.length).toBeGreaterThan(50);
    expect(over(tracked("src"), MAX_SOURCE_FILE_LINES)).toEqual([]);
    expect(over(tests, MAX_TEST_FILE_LINES)).toEqual([]);
  });
});
