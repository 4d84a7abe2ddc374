/** Temp-dir fixtures and reads for the reader's tests (test/read). */

import { mkdtempSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { gzipSync } from "node:zlib";

import { afterAll } from "vitest";

import { InputError } from "../../src/core/errors.js";
import type { Dataset } from "../../src/core/model.js";
import { readDataset, type ReadOptions } from "../../src/read/read-dataset.js";

export interface Fixtures {
  readonly dir: string;
  /** Writes `content` (string or bytes) to `name` in the temp dir and returns its path. */
  write(name: string, content: string | Uint8Array): Promise<string>;
  /** Writes rows as JSON lines (objects are JSON.stringify'd, strings written as they are). */
  jsonl(name: string, rows: readonly unknown[]): Promise<string>;
  /** Like jsonl, gzip-compressed. */
  jsonlGz(name: string, rows: readonly unknown[]): Promise<string>;
}

export function toJsonl(rows: readonly unknown[]): string {
  return rows.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n";
}

/** A temp dir for one test file, removed after its tests. Call at the top level of the test file. */
export function fixtures(prefix: string): Fixtures {
  const dir = mkdtempSync(join(tmpdir(), `gate-read-${prefix}-`));
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const write = async (name: string, content: string | Uint8Array): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, content);
    return path;
  };
  return {
    dir,
    write,
    jsonl: (name, rows) => write(name, toJsonl(rows)),
    jsonlGz: (name, rows) => write(name, gzipSync(toJsonl(rows))),
  };
}

function defined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** An export row with defaults; override any field, or set it to undefined to drop it. */
export function row(over: Record<string, unknown> = {}): Record<string, unknown> {
  const base: Record<string, unknown> = {
    task_id: "t1",
    dataset_revision: "ds1",
    harness_revision: "h1",
    model_config: "base",
    validity: "valid",
    result: "pass",
    review_revision: 1,
  };
  return defined({ ...base, ...over });
}

/** A reviews row with defaults. */
export function review(over: Record<string, unknown> = {}): Record<string, unknown> {
  return defined({ task_id: "t1", dataset_revision: "ds1", validity: "valid", review_revision: 2, ...over });
}

/** The InputError thrown by `p` (fails the test when `p` resolves or throws something else). */
export async function inputError(p: Promise<unknown>): Promise<InputError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error("expected an InputError, but the read succeeded");
}

/**
 * readDataset with the baseline "base" and the candidate "cand" (the defaults of row()), files
 * named by their base names as most messages here are checked; `over` sets anything else.
 */
export function readNamed(
  results: readonly string[],
  reviews: readonly string[] = [],
  over: Partial<ReadOptions> = {},
): Promise<Dataset> {
  return readDataset({
    results,
    reviews,
    baseline: "base",
    candidate: "cand",
    displayPath: basename,
    ...over,
  });
}
