/**
 * RELIABILITY.md names, for each promise, the tests that hold it. Every path it names must exist,
 * every title it quotes after › must be in the file it follows, and every row of a promise table
 * must name at least one test file: a renamed or deleted test cannot leave a promise unheld
 * without this failing.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const text = readFileSync(join(root, "RELIABILITY.md"), "utf8");

/** Paths in code spans: `test/…`, `src/…`. */
function pathsIn(line: string): string[] {
  return [...line.matchAll(/`((?:test|src)\/[^`\s]+)`/g)].map((m) => m[1] ?? "");
}

/** `path` › *title*, *title* …: the titles quoted after each test path, as they are in the code. */
function titlesIn(line: string): { path: string; title: string }[] {
  const out: { path: string; title: string }[] = [];
  for (const part of line.split(/;\s*/)) {
    const m = /`(test\/[^`\s]+)`\s*›\s*(.*)/.exec(part);
    if (m === null) continue;
    for (const t of (m[2] ?? "").matchAll(/\*([^*]+)\*/g)) {
      const title = (t[1] ?? "").replace(/\\_/g, "_").replace(/…/g, "").trim().replace(/,$/, "").trim();
      out.push({ path: m[1] ?? "", title });
    }
  }
  return out;
}

/** The rows of every table whose last column is "Test", with their line numbers. */
function promiseRows(markdown: string): { line: number; text: string }[] {
  const rows: { line: number; text: string }[] = [];
  let inTable = false;
  markdown.split("\n").forEach((line, i) => {
    if (!line.startsWith("|")) {
      inTable = false;
      return;
    }
    if (/\|\s*Test\s*\|\s*$/.test(line)) {
      inTable = true;
      return;
    }
    if (inTable && !/^\|[\s:|-]+\|$/.test(line)) rows.push({ line: i + 1, text: line });
  });
  return rows;
}

describe("RELIABILITY.md", () => {
  it("the checks find what they look for (so a pass means something)", () => {
    const sample = "| p | x |\n|:--|:--|\n| A | `test/a.test.ts` › *one …*, *two*; `src/b.ts` |\n";
    expect(promiseRows("| P | Test |\n" + sample.split("\n").slice(1).join("\n"))).toHaveLength(1);
    expect(pathsIn(sample)).toEqual(["test/a.test.ts", "src/b.ts"]);
    expect(titlesIn("`test/a.test.ts` › *one …*, *\\_\\_proto\\_\\_ x*; `test/c.ts`")).toEqual([
      { path: "test/a.test.ts", title: "one" },
      { path: "test/a.test.ts", title: "__proto__ x" },
    ]);
  });

  it("every test and source path it names exists", () => {
    const paths = [...new Set(pathsIn(text))];
    expect(paths.length).toBeGreaterThan(40);
    expect(paths.filter((p) => !existsSync(join(root, p)))).toEqual([]);
  });

  it("every title it quotes is in the test file it follows", () => {
    const titles = text.split("\n").flatMap(titlesIn);
    expect(titles.length).toBeGreaterThan(30);
    const missing = titles.filter(
      ({ path, title }) =>
        !existsSync(join(root, path)) || !readFileSync(join(root, path), "utf8").includes(title),
    );
    expect(missing).toEqual([]);
  });

  it("every promise names a test file", () => {
    const rows = promiseRows(text);
    expect(rows.length).toBeGreaterThan(60);
    const unheld = rows
      .filter((r) => !pathsIn(r.text).some((p) => p.startsWith("test/")))
      .map((r) => `line ${r.line}: ${r.text}`);
    expect(unheld).toEqual([]);
  });
});
