/**
 * Reading in byte ranges through real worker threads (the bundled dist/range-worker.js): the same
 * Dataset or InputError as the sequential read, and when a worker cannot start, dies before it
 * answers, or dies halfway through posting its state, the same again (the range read on the main
 * thread, or the whole input read again), with a note saying so.
 */

import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { InputError, type InputProblem } from "../../src/core/errors.js";
import { readDataset, type ReadOptions } from "../../src/read/read-dataset.js";
import type { Dataset } from "../../src/core/model.js";

const WORKER = new URL("../../dist/range-worker.js", import.meta.url);
const dir = mkdtempSync(join(tmpdir(), "gate-range-worker-"));

beforeAll(() => {
  if (!existsSync(WORKER))
    execFileSync("npm", ["run", "package"], { cwd: resolve(import.meta.dirname, "../.."), stdio: "inherit" });
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

type Outcome =
  | { readonly kind: "dataset"; readonly dataset: Dataset }
  | { readonly kind: "error"; readonly message: string; readonly problems: readonly InputProblem[] };

async function read(
  results: string,
  ranges?: { script: URL; ranges: number },
): Promise<{ outcome: Outcome; notes: string[] }> {
  const notes: string[] = [];
  const opts: ReadOptions = {
    results: [results],
    reviews: [],
    baseline: "base",
    candidate: "cand",
    displayPath: (abs) => abs.slice(dir.length + 1),
    onNote: (m) => {
      notes.push(m);
    },
    ...(ranges === undefined ? {} : { readRanges: { ...ranges, minBytes: 0, partTasks: 97 } }),
  };
  try {
    return { outcome: { kind: "dataset", dataset: await readDataset(opts) }, notes };
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return { outcome: { kind: "error", message: e.message, problems: [...e.problems] }, notes };
  }
}

/**
 * An export in runs by model (as exports come): 600 tasks, each model's attempts 1–3, the
 * candidate's attempts repeated at the end (duplicates of rows in other ranges), labels that
 * change with the model, evidence per (model, task).
 */
function exportText(extra: readonly string[] = []): string {
  const lines: string[] = [];
  const results = ["pass", "fail", "infra_error", "missing"];
  const row = (model: string, t: number, attempt: number): string =>
    JSON.stringify({
      task_id: `task-${t}`,
      dataset_revision: "ds",
      harness_revision: "h1",
      model_config: model,
      validity: model === "cand" ? "valid" : "unreviewed",
      review_revision: model === "cand" ? 1 : 0,
      result: results[(t * 7 + attempt * 3 + model.length) % 4],
      attempt,
      evidence: [`logs/${t}.log`, `${model}/${t}.json`],
      cluster: `c${t % 17}`,
    });
  for (const model of ["base", "other", "cand"]) {
    for (let t = 0; t < 600; t++) for (let a = 1; a <= 1 + (t % 3); a++) lines.push(row(model, t, a));
  }
  for (let t = 0; t < 600; t += 5) lines.push(row("cand", t, 1));
  lines.push(...extra);
  return lines.join("\n") + "\n";
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** A worker script that runs `pre` (a module), then the real one. */
function exitingWorker(name: string, pre: string): URL {
  const first = join(dir, `${name}-pre.mjs`);
  writeFileSync(first, pre);
  const main = join(dir, `${name}.mjs`);
  writeFileSync(
    main,
    `import ${JSON.stringify(pathToFileURL(first).href)};\nimport ${JSON.stringify(WORKER.href)};\n`,
  );
  return pathToFileURL(main);
}

describe("dist/range-worker.js", () => {
  const clean = file("clean.jsonl", exportText());

  it.each([2, 3, 4])("%i ranges: the sequential read's Dataset, the ranges merged", async (ranges) => {
    const sequential = await read(clean);
    expect(sequential.outcome.kind).toBe("dataset");
    const ranged = await read(clean, { script: WORKER, ranges });
    expect(ranged.outcome).toStrictEqual(sequential.outcome);
    expect(ranged.notes).toEqual([`reading clean.jsonl in ${ranges} byte ranges`]);
  });

  it("a conflict across ranges: the sequential read's InputError (read again for it)", async () => {
    // The baseline's attempt 1 of task-4 is "missing" in the first range.
    const conflicting = JSON.stringify({
      task_id: "task-4",
      dataset_revision: "ds",
      harness_revision: "h1",
      model_config: "base",
      validity: "unreviewed",
      review_revision: 0,
      result: "pass",
      attempt: 1,
    });
    const dirty = file("dirty.jsonl", exportText([conflicting]));
    const sequential = await read(dirty);
    expect(sequential.outcome.kind).toBe("error");
    const ranged = await read(dirty, { script: WORKER, ranges: 2 });
    expect(ranged.outcome).toStrictEqual(sequential.outcome);
    expect(ranged.notes.at(-1)).toBe(
      "reading the input again, one line after another, for the exact messages",
    );
  });

  it("a bad line in a worker's range: the sequential read's InputError (the range read here)", async () => {
    const bad = file("bad.jsonl", exportText(["{not json", "", "\ufeff  "]));
    const sequential = await read(bad);
    expect(sequential.outcome.kind).toBe("error");
    const ranged = await read(bad, { script: WORKER, ranges: 3 });
    expect(ranged.outcome).toStrictEqual(sequential.outcome);
    expect(ranged.notes).toEqual([
      "reading bad.jsonl in 3 byte ranges",
      "reading byte range 3 here: its reader found a problem in its range",
    ]);
  });

  it.each([
    [
      "cannot start (no such script)",
      () => pathToFileURL(join(dir, "missing.mjs")),
      "reading its range here",
    ],
    ["exits before it answers", () => exitingWorker("early", "process.exit(1);\n"), "reading its range here"],
    [
      "exits when asked for its state",
      () =>
        exitingWorker(
          "late",
          // Its listener comes before the real worker's: the first request for a part ends it.
          'import { parentPort } from "node:worker_threads";\nparentPort.on("message", () => process.exit(1));\n',
        ),
      "reading the input again",
    ],
  ])("a worker that %s: the same Dataset, and a note", async (_, script, note) => {
    const sequential = await read(clean);
    const ranged = await read(clean, { script: script(), ranges: 2 });
    expect(ranged.outcome).toStrictEqual(sequential.outcome);
    expect(ranged.notes.some((n) => n.includes(note))).toBe(true);
  });
});
