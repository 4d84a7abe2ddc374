/**
 * docs/architecture.md "What each may import" holds against the real imports of src/: every
 * import a file makes is allowed by the table (or stays in its own folder, or names a shared
 * leaf), the core's files import only from their own step of the stated order or the ones before
 * it, and no two files import each other in a circle. The doc is the table: change one, change
 * the other.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const doc = readFileSync(join(root, "docs/architecture.md"), "utf8");
const section = doc.slice(doc.indexOf("## What each may import"), doc.indexOf("## Where does my change go"));

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, dir))) {
    const path = `${dir}/${entry}`;
    if (statSync(join(root, path)).isDirectory()) out.push(...sourceFiles(path));
    else if (path.endsWith(".ts") && !path.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** Every relative import and re-export of `file` (static, type-only and dynamic), as src/ paths. */
export function importsOf(file: string, text: string): string[] {
  const specs = [
    ...text.matchAll(/^\s*(?:import|export)\s(?:[^;"]*?\sfrom\s)?"(\.{1,2}\/[^"]+)"/gm),
    ...text.matchAll(/\bimport\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g),
  ].map((m) => m[1] as string);
  return specs.map((spec) => relative(root, resolve(root, dirname(file), spec.replace(/\.js$/, ".ts"))));
}

const FILES = sourceFiles("src");
const EDGES: [string, string][] = FILES.flatMap((f) =>
  importsOf(f, readFileSync(join(root, f), "utf8")).map((to): [string, string] => [f, to]),
);

const ticked = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
const covers = (entry: string, path: string): boolean =>
  entry.endsWith("/") ? path.startsWith(entry) : path === entry;

/** The table: each row's first cell (a file or a folder) and the entries its second cell allows. */
const TABLE = section
  .split("\n")
  .filter((l) => /^\| `src\//.test(l))
  .map((l) => {
    const [, from = "", allowed = ""] = l.split("|").map((c) => c.trim());
    return { from: ticked(from)[0] as string, allowed: ticked(allowed) };
  });
const LEAVES = ticked(section.split("\n").find((l) => l.startsWith("Shared leaves")) ?? "");
const CORE_ORDER = (() => {
  const start = section.indexOf("Inside the core the order");
  const sentence = section.slice(start, section.indexOf(". A file imports only", start));
  return sentence
    .slice(sentence.indexOf(":") + 1)
    .split("→")
    .map((step) => ticked(step).map((p) => `src/core/${p}`));
})();

/** The table row a file belongs to: the longest first cell that covers it. */
function rowOf(file: string): (typeof TABLE)[number] | undefined {
  return TABLE.filter((r) => covers(r.from, file)).sort((a, b) => b.from.length - a.from.length)[0];
}

function coreStep(file: string): number {
  return CORE_ORDER.findIndex((step) => step.some((entry) => covers(entry, file)));
}

describe("docs/architecture.md against the imports of src/", () => {
  it("reads the section: the table's rows, the shared leaves and the core's order", () => {
    expect(TABLE.map((r) => r.from)).toEqual([
      "src/index.ts",
      "src/cli.ts",
      "src/action/",
      "src/cli/",
      "src/importers/",
      "src/git/",
      "src/read/",
      "src/io/",
      "src/core/",
    ]);
    expect(LEAVES).toEqual(["src/version.ts", "src/source-mapped-stack.ts"]);
    expect(CORE_ORDER.length).toBeGreaterThan(5);
    expect(EDGES.length).toBeGreaterThan(500);
  });

  it("every file is in the table, or is a shared leaf", () => {
    expect(FILES.filter((f) => rowOf(f) === undefined && !LEAVES.includes(f))).toEqual([]);
  });

  it("every import is allowed by its file's row", () => {
    const refused = EDGES.filter(([from, to]) => {
      if (LEAVES.includes(to)) return false;
      const row = rowOf(from);
      if (row === undefined) return !LEAVES.includes(from);
      return !covers(row.from, to) && !row.allowed.some((entry) => covers(entry, to));
    }).map(([from, to]) => `${from} -> ${to}`);
    expect(refused).toEqual([]);
  });

  it("every core file is in one step of the core's order, and imports no later step", () => {
    const core = FILES.filter((f) => f.startsWith("src/core/"));
    expect(core.filter((f) => coreStep(f) < 0)).toEqual([]);
    const upward = EDGES.filter(
      ([from, to]) => from.startsWith("src/core/") && coreStep(to) > coreStep(from),
    ).map(([from, to]) => `${from} -> ${to}`);
    expect(upward).toEqual([]);
  });

  it("no two files import each other in a circle", () => {
    const next = new Map<string, string[]>();
    for (const [from, to] of EDGES) next.set(from, [...(next.get(from) ?? []), to]);
    // Tarjan's strongly connected components: a component of more than one file is a circle.
    let index = 0;
    const order = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const circles: string[][] = [];
    const visit = (v: string): void => {
      order.set(v, index);
      low.set(v, index);
      index++;
      stack.push(v);
      onStack.add(v);
      for (const w of next.get(v) ?? []) {
        if (!order.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, order.get(w) as number));
      }
      if (low.get(v) === order.get(v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop() as string;
          onStack.delete(w);
          component.push(w);
        } while (w !== v);
        if (component.length > 1) circles.push(component.sort());
      }
    };
    for (const f of FILES) if (!order.has(f)) visit(f);
    expect(circles).toEqual([]);
  });

  it("finds the imports a file makes, in every form", () => {
    const text = [
      'import { a } from "./a.js";',
      'import type { B } from "../core/b.js";',
      "import {",
      "  c,",
      '} from "./c.js";',
      'export { d } from "./d.js";',
      'export * from "./e.js";',
      'const f = await import("./f.js");',
      'import * as z from "zod";',
    ].join("\n");
    expect(importsOf("src/action/x.ts", text)).toEqual([
      "src/action/a.ts",
      "src/core/b.ts",
      "src/action/c.ts",
      "src/action/d.ts",
      "src/action/e.ts",
      "src/action/f.ts",
    ]);
  });
});
