/**
 * The committed real-data fixtures (test/fixtures/real-data): `model-gate import` of public
 * SWE-bench results and validity annotations, made by scripts/test-fixtures.mjs, whose README.md
 * names each source file, its origin and the command. Each import left its rows
 * (`NAME.jsonl.gz`, where a test reads them) and its notes on stderr (`NAME.notes.txt`).
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";

export const REAL_DATA_DIR = resolve(import.meta.dirname, "../fixtures/real-data");

/** The path of an import's rows, NAME.jsonl.gz (a results export or a reviews file). */
export function realData(name: string): string {
  const path = join(REAL_DATA_DIR, `${name}.jsonl.gz`);
  if (!existsSync(path)) throw new Error(`no fixture ${path}: see scripts/test-fixtures.mjs`);
  return path;
}

/** An import's rows, parsed. */
export function realDataRows(name: string): Record<string, unknown>[] {
  return gunzipSync(readFileSync(realData(name)))
    .toString("utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** An import's notes, one per line, without the "model-gate import: " each starts with. */
export function realDataNotes(name: string): string[] {
  return readFileSync(join(REAL_DATA_DIR, `${name}.notes.txt`), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => l.replace(/^model-gate import: /, ""));
}

/** The committed imports of whole real eval-tool outputs (test/fixtures/tool-imports, same script). */
export const TOOL_IMPORTS_DIR = resolve(import.meta.dirname, "../fixtures/tool-imports");

/** The path of a tool-output import's rows, NAME.jsonl.gz. */
export function toolImport(name: string): string {
  const path = join(TOOL_IMPORTS_DIR, `${name}.jsonl.gz`);
  if (!existsSync(path)) throw new Error(`no fixture ${path}: see scripts/test-fixtures.mjs`);
  return path;
}

/** A tool-output import's rows, parsed. */
export function toolImportRows(name: string): Record<string, unknown>[] {
  return gunzipSync(readFileSync(toolImport(name)))
    .toString("utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
