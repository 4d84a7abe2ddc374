/**
 * Golden Markdown files in test/golden/: what users see, committed, so a reviewer sees in the diff
 * how a change alters it. `UPDATE_GOLDEN=1` rewrites them.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { expect } from "vitest";

export const GOLDEN_DIR = resolve(import.meta.dirname, "../golden");

export function expectGolden(name: string, actual: string): void {
  const path = resolve(GOLDEN_DIR, name);
  if (process.env["UPDATE_GOLDEN"] === "1") {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  if (!existsSync(path))
    throw new Error(`golden file ${name} is missing; run with UPDATE_GOLDEN=1 to create it`);
  expect(actual, `golden ${name} (UPDATE_GOLDEN=1 rewrites it)`).toBe(readFileSync(path, "utf8"));
}
