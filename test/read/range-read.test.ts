/**
 * Reading a results file in byte ranges (src/read/range-read.ts) must change nothing but the
 * speed: on random exports (labels, evidence past its cap, attempts repeated across ranges,
 * conflicting results, aggregates, clusters and their conflicts, bad lines, blank lines, CRLF,
 * BOMs, caps passed) cut at random line ends into 1–4 ranges, every range after the first read
 * by a builder of its own and absorbed in order (in process here: the worker's body,
 * answerRange, with its answer passed through a structured clone as postMessage does), the
 * Dataset or the InputError (message, problems, total) is exactly the sequential read's.
 * test/read/range-worker.test.ts does the same through real worker threads.
 */

import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { DatasetBuilder } from "../../src/read/builder/dataset-builder.js";
import type { FileHash, PendingHash } from "../../src/read/lines/file-hash.js";
import {
  readRangeState,
  tasksPerPart,
  type RangeReader,
  type RangeReadOptions,
  type RangeTask,
} from "../../src/read/range-read.js";
import { readDataset, type InputLimits, type ReadOptions } from "../../src/read/read-dataset.js";
import { prng } from "../helpers/prng.js";
import { row } from "./fixtures.js";
import { settle, type Outcome } from "../helpers/read-outcome.js";

const dir = mkdtempSync(join(tmpdir(), "gate-ranges-"));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function outcome(opts: ReadOptions): Promise<Outcome> {
  return settle(readDataset(opts));
}

/** The worker's body in process; what it posts cloned as postMessage clones it. */
function inProcess(task: RangeTask): RangeReader {
  const state = readRangeState(
    task,
    (t) => new DatasetBuilder(t.baseline, t.candidate, t.fileNames, t.limits),
  );
  return {
    answer: state.then((s) => structuredClone(s.answer)),
    part: async (k) => {
      const { snapshot, transfer } = (await state).part(k);
      return structuredClone(snapshot, { transfer });
    },
    stop: () => Promise.resolve(),
  };
}

/** readDataset with the results file read in 2 ranges cut at `cut` (in process), its notes kept. */
function inTwoRanges(
  opts: ReadOptions,
  cut: number,
  notes: string[],
  more: Partial<RangeReadOptions>,
): Promise<Outcome> {
  return outcome({
    ...opts,
    onNote: (m) => {
      notes.push(m);
    },
    readRanges: {
      script: new URL("file:///nowhere/range-worker.js"),
      ranges: 2,
      minBytes: 0,
      cuts: [cut],
      readElsewhere: inProcess,
      ...more,
    },
  });
}

const RESULTS = ["pass", "fail", "infra_error", "missing"] as const;
const VALIDITIES = ["unreviewed", "valid", "broken", "disputed"] as const;
const usual = (task: string, revision: number): string =>
  VALIDITIES[(task.charCodeAt(1) + revision) % VALIDITIES.length] ?? "valid";

interface Export {
  readonly text: string;
  /** Byte offsets of line starts after the first (where a cut may land). */
  readonly lineStarts: number[];
}

/** A random export: rows in runs by model, as exports come, with every kind of trouble now and then. */
function randomExport(rnd: () => number, trouble: number): Export {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const nTasks = 1 + Math.floor(rnd() * 12);
  const tasks = Array.from({ length: nTasks }, (_, k) => ({ ds: rnd() < 0.8 ? "ds1" : "ds2", id: `t${k}` }));
  const models = ["base", "cand", "other", ...(rnd() < 0.2 ? ["x1", "x2"] : [])];
  const pool = Array.from({ length: 30 }, (_, k) => `ev/${k}`);
  const lines: string[] = [];
  const n = 1 + Math.floor(rnd() * 80);
  const resultOf = (model: string, task: string, harness: string, attempt: unknown): string =>
    RESULTS[(model.length * 3 + task.length * 7 + String(attempt).length + harness.length) % 4] ?? "pass";
  for (let k = 0; k < n; k++) {
    const r = rnd();
    if (r < trouble * 0.05) {
      lines.push(pick(["", "   ", "not json", '{"task_id":', "\t"]));
      continue;
    }
    const t = pick(tasks);
    const model = pick(models);
    const harness = rnd() < 0.85 ? "h1" : "h2";
    const revision = rnd() < 0.7 ? 0 : Math.floor(rnd() * 3);
    const row: Record<string, unknown> = {
      task_id: t.id,
      dataset_revision: t.ds,
      harness_revision: harness,
      model_config: model,
      // Mostly one validity per (task, revision): two at a task's top revision are a problem.
      validity: rnd() < trouble * 0.05 ? pick(VALIDITIES) : usual(t.id, revision),
      review_revision: revision,
    };
    if (rnd() < trouble * 0.03 && model !== "other") {
      row["passes"] = 1 + Math.floor(rnd() * 3);
      row["fails"] = Math.floor(rnd() * 2);
      row["infra_errors"] = 0;
      row["missing"] = 0;
    } else {
      const attempt =
        rnd() < 0.15 ? undefined : rnd() < 0.1 ? `a${Math.floor(rnd() * 3)}` : Math.floor(rnd() * 6);
      if (attempt !== undefined) row["attempt"] = attempt;
      row["result"] = rnd() < trouble * 0.03 ? pick(RESULTS) : resultOf(model, t.id, harness, attempt);
    }
    const e = rnd();
    if (e < 0.3) row["evidence"] = pick(pool);
    else if (e < 0.7) {
      const m = rnd() < 0.15 ? 14 : Math.floor(rnd() * 4);
      row["evidence"] = Array.from({ length: m }, () => (rnd() < 0.5 ? pick(pool.slice(0, 4)) : pick(pool)));
    }
    if (rnd() < 0.6) row["cluster"] = rnd() < trouble * 0.05 ? "other-cluster" : `c-${t.id}`;
    let line = JSON.stringify(row);
    if (rnd() < 0.05) line += "\r";
    if (rnd() < 0.03) line = `\ufeff${line}`;
    lines.push(line);
  }
  const text = lines.join("\n") + (rnd() < 0.7 ? "\n" : "");
  const lineStarts: number[] = [];
  let at = 0;
  for (const l of lines.slice(0, -1)) {
    at += Buffer.byteLength(l) + 1;
    lineStarts.push(at);
  }
  return { text, lineStarts };
}

function randomLimits(rnd: () => number): Partial<InputLimits> | undefined {
  if (rnd() < 0.75) return undefined;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  return pick<Partial<InputLimits>>([
    { maxTasks: 1 + Math.floor(rnd() * 8) },
    { maxModels: 2 + Math.floor(rnd() * 2) },
    { maxLabelsPerTask: 1 + Math.floor(rnd() * 3) },
    { maxAttemptIds: 2 + Math.floor(rnd() * 30) },
    { maxHeldChars: 40 + Math.floor(rnd() * 400) },
  ]);
}

interface Case {
  readonly results: string[];
  readonly reviews: string[];
  readonly limits: Partial<InputLimits> | undefined;
  readonly cuts: number[];
  readonly ranges: number;
  readonly partTasks: number;
  readonly maxTasks: number;
}

function randomCase(seed: number): Case {
  const rnd = prng(seed);
  const trouble = rnd() < 0.6 ? 0 : 1;
  const files = rnd() < 0.8 ? 1 : 2;
  const results: string[] = [];
  let cuts: number[] = [];
  let ranges = 1;
  for (let f = 0; f < files; f++) {
    const ex = randomExport(rnd, trouble);
    const path = join(dir, `r${seed}-${f}.jsonl`);
    writeFileSync(path, (f === 0 && rnd() < 0.1 ? "\ufeff" : "") + ex.text);
    results.push(path);
    // The cuts of the last file (one set of cut points for every file; those past a file's end
    // are dropped by the reader).
    ranges = 1 + Math.floor(rnd() * 4);
    const shuffled = ex.lineStarts.filter(() => rnd() < 0.5);
    cuts = shuffled.slice(0, ranges - 1).sort((a, b) => a - b);
    if (rnd() < 0.2) cuts = cuts.map((c) => Math.max(1, c - 1 - Math.floor(rnd() * 30)));
  }
  const reviews: string[] = [];
  if (rnd() < 0.3) {
    const path = join(dir, `v${seed}.jsonl`);
    const rows = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => {
      const task = `t${Math.floor(rnd() * 3)}`;
      const revision = 3 + Math.floor(rnd() * 2);
      return JSON.stringify({
        task_id: task,
        dataset_revision: "ds1",
        review_revision: revision,
        validity: usual(task, revision),
        ...(rnd() < 0.5 ? { reviewer: "ann" } : {}),
        ...(rnd() < 0.5 ? { evidence: [`rv/${Math.floor(rnd() * 3)}`] } : {}),
      });
    });
    writeFileSync(path, rows.join("\n") + "\n");
    reviews.push(path);
  }
  return {
    results,
    reviews,
    limits: randomLimits(rnd),
    cuts,
    ranges: Math.max(ranges, cuts.length + 1),
    partTasks: 1 + Math.floor(rnd() * 5),
    maxTasks: rnd() < 0.1 ? Math.floor(rnd() * 4) : 1000,
  };
}

function optionsOf(c: Case, notes: string[]): ReadOptions {
  return {
    results: c.results,
    reviews: c.reviews,
    baseline: "base",
    candidate: "cand",
    displayPath: (abs) => abs.slice(dir.length + 1),
    onNote: (m) => {
      notes.push(m);
    },
    ...(c.limits === undefined ? {} : { limits: c.limits }),
  };
}

describe("a results file read in byte ranges: the sequential read's Dataset or InputError", () => {
  it("on 3,000 random exports cut into 1–4 ranges", async () => {
    const tally = { merged: 0, mergedDatasets: 0, restarted: 0, datasets: 0, errors: 0 };
    for (let seed = 1; seed <= 3000; seed++) {
      const c = randomCase(seed);
      const sequential = await outcome(optionsOf(c, []));
      const notes: string[] = [];
      let clean = 0;
      const ranged = await outcome({
        ...optionsOf(c, notes),
        readRanges: {
          script: new URL("file:///nowhere/range-worker.js"),
          ranges: c.ranges,
          minBytes: 0,
          cuts: c.cuts,
          partTasks: c.partTasks,
          maxTasks: c.maxTasks,
          readElsewhere: (task) => {
            const reader = inProcess(task);
            return {
              ...reader,
              answer: reader.answer.then((a) => {
                if (a !== undefined && !("problem" in a)) clean++;
                return a;
              }),
            };
          },
        },
      });
      expect(ranged, `seed ${seed}`).toStrictEqual(sequential);
      if (notes.some((n) => n.startsWith("reading the input again"))) tally.restarted++;
      else if (clean > 0) {
        tally.merged++;
        if (sequential.kind === "dataset") tally.mergedDatasets++;
      }
      tally[sequential.kind === "dataset" ? "datasets" : "errors"]++;
    }
    if (process.env["RANGE_TALLY"] !== undefined) console.log(tally);
    // The draw reaches both outcomes, and both the merge and the fallback.
    expect(tally.datasets).toBeGreaterThan(600);
    expect(tally.errors).toBeGreaterThan(600);
    expect(tally.mergedDatasets).toBeGreaterThan(800);
    expect(tally.merged - tally.mergedDatasets).toBeGreaterThan(100);
    expect(tally.restarted).toBeGreaterThan(30);
  }, 120_000);
});

describe("a second range given back (a task-heavy export) while the first is read", () => {
  // 40 tasks of both models, one row each: cut after the first 30 lines.
  const lines = ["base", "cand"].flatMap((model) =>
    Array.from({ length: 40 }, (_, k) =>
      JSON.stringify(
        row({
          task_id: `t${k}`,
          model_config: model,
          validity: k % 5 === 0 ? "broken" : "valid",
          result: (k * 7 + model.length) % 3 === 0 ? "fail" : "pass",
          evidence: [`ev/${k}`],
        }),
      ),
    ),
  );
  const text = lines.join("\n") + "\n";
  const path = join(dir, "given-back.jsonl");
  writeFileSync(path, text);
  const cut = Buffer.byteLength(lines.slice(0, 30).join("\n") + "\n");
  const base: ReadOptions = { results: [path], reviews: [], baseline: "base", candidate: "cand" };
  const realHash = (fh: FileHandle): PendingHash => {
    const result = (async (): Promise<FileHash> => {
      const bytes = await fh.readFile();
      return { digest: createHash("sha256").update(bytes).digest("hex"), bytes: bytes.length };
    })();
    return { result, cancel: () => result.then(() => undefined) };
  };
  const givenBack = (settled: Promise<void>): RangeReader => ({
    answer: settled.then(() => ({ problem: true as const })),
    part: () => Promise.resolve(undefined),
    stop: () => Promise.resolve(),
  });

  const ranged = (
    reader: () => RangeReader,
    hashElsewhere: (fh: FileHandle) => PendingHash,
    notes: string[],
  ): Promise<Outcome> => inTwoRanges(base, cut, notes, { readElsewhere: reader, hashElsewhere });

  it("hashes the file on a thread of its own from then on: the sequential read's Dataset, digest included", async () => {
    const sequential = await outcome(base);
    expect(sequential.kind).toBe("dataset");
    let calls = 0;
    const notes: string[] = [];
    const got = await ranged(
      () => givenBack(Promise.resolve()),
      (fh) => {
        calls++;
        return realHash(fh);
      },
      notes,
    );
    expect(got).toStrictEqual(sequential);
    expect(calls).toBe(1);
    expect(notes.some((n) => n.startsWith("reading the input again"))).toBe(false);
  });

  it("a range given back only after the first is read is hashed here, as before", async () => {
    const sequential = await outcome(base);
    let calls = 0;
    let release = (): void => undefined;
    const late = new Promise<void>((r) => {
      release = r;
    });
    const got = ranged(
      () => givenBack(late),
      (fh) => {
        calls++;
        return realHash(fh);
      },
      [],
    );
    // The first range is 30 short lines: read long before this timer fires.
    setTimeout(release, 200);
    expect(await got).toStrictEqual(sequential);
    expect(calls).toBe(0);
  });

  it("a hash thread that fails sends the read back to the start: still the sequential read's Dataset", async () => {
    const sequential = await outcome(base);
    const notes: string[] = [];
    const got = await ranged(
      () => givenBack(Promise.resolve()),
      () => ({
        result: Promise.resolve({ error: { code: "EIO", message: "i/o error" } }),
        cancel: () => Promise.resolve(),
      }),
      notes,
    );
    expect(got).toStrictEqual(sequential);
    expect(notes.some((n) => n.startsWith("reading the input again"))).toBe(true);
  });
});

describe("a range whose first 8 MiB make a new task of every line is taken as task-heavy", () => {
  // Before the cut a few rows; after it 30,000 tasks of the baseline, one row each (~9.5 MiB),
  // then the candidate's rows of the same tasks: 30,000 tasks in the worker's range in all, but
  // its first 8 MiB, every line a new task, project ~2 × 26,000.
  const taskRow = (model: string, t: number): string =>
    JSON.stringify(
      row({
        task_id: `t${t}`,
        model_config: model,
        result: (t + model.length) % 3 === 0 ? "fail" : "pass",
        run_id: `run-${model}-${"y".repeat(200)}`,
      }),
    );
  const head = [taskRow("base", 0), taskRow("cand", 0)].join("\n") + "\n";
  const lines: string[] = [];
  for (const model of ["base", "cand"]) for (let t = 1; t <= 30_000; t++) lines.push(taskRow(model, t));
  const path = join(dir, "task-heavy-start.jsonl");
  writeFileSync(path, head + lines.join("\n") + "\n");
  const cut = Buffer.byteLength(head);
  const base: ReadOptions = { results: [path], reviews: [], baseline: "base", candidate: "cand" };
  const givenBack = (notes: string[], tasks: number): boolean =>
    notes.includes(`reading byte range 2 here: its reader found more than ${tasks} tasks`);
  // The default's attempt-id limit (far above these ranges' ids), under which tasks are projected.
  const attemptLimit = { ids: 10 ** 9, belowBytes: 10 ** 12 };

  it("given back early (below the limit in all), the sequential read's Dataset; with a repeat among them, merged", async () => {
    expect(Buffer.byteLength(lines.slice(0, 30_000).join("\n"))).toBeGreaterThan(8 * 1024 * 1024);
    const sequential = await outcome(base);
    expect(sequential.kind).toBe("dataset");
    const early: string[] = [];
    expect(await inTwoRanges(base, cut, early, { maxTasks: 40_000, attemptLimit })).toStrictEqual(sequential);
    expect(givenBack(early, 40_000)).toBe(true);
    // Above what the first 8 MiB project: merged.
    const above: string[] = [];
    expect(await inTwoRanges(base, cut, above, { maxTasks: 70_000, attemptLimit })).toStrictEqual(sequential);
    expect(above.some((n) => n.startsWith("reading byte range 2 here"))).toBe(false);
    // Without an attempt-id limit (ranges asked for, or a file of 1 GiB or more): no guess.
    const asked: string[] = [];
    expect(await inTwoRanges(base, cut, asked, { maxTasks: 40_000 })).toStrictEqual(sequential);
    expect(asked.some((n) => n.startsWith("reading byte range 2 here"))).toBe(false);
  });

  it("a range that repeats a task within its first 8 MiB is merged (the limit is checked as it was)", async () => {
    // The same rows with the first task's row given twice at the range's start.
    const twice = join(dir, "task-heavy-repeat.jsonl");
    writeFileSync(twice, head + [lines[0], ...lines].join("\n") + "\n");
    const opts = { ...base, results: [twice] };
    const sequential = await outcome(opts);
    expect(sequential.kind).toBe("dataset");
    const notes: string[] = [];
    expect(await inTwoRanges(opts, cut, notes, { maxTasks: 40_000, attemptLimit })).toStrictEqual(sequential);
    expect(notes.some((n) => n.startsWith("reading byte range 2 here"))).toBe(false);
  });
});

describe("a CSV table read in ranges (issue 27)", () => {
  it("is one problem for the file, as the sequential read says, and no range is merged", async () => {
    const path = join(dir, "table.csv");
    const text = [
      "task_id,model_config,result",
      ...Array.from({ length: 5000 }, (_, i) => `t${i},base,pass`),
    ];
    writeFileSync(path, text.join("\n") + "\n");
    const opts: ReadOptions = { results: [path], reviews: [], baseline: "base", candidate: "cand" };
    const sequential = await outcome(opts);
    expect(sequential.kind === "error" ? sequential.problems.map((p) => p.location) : []).toEqual([
      { file: path, line: 1 },
    ]);
    const notes: string[] = [];
    expect(await inTwoRanges(opts, 20_000, notes, {})).toStrictEqual(sequential);
    expect(notes).toContain("reading the input again, one line after another, for the exact messages");
  });
});

describe("tasks per part of a range's state", () => {
  it("at most partTasks, and about 32 Ki attempt ids a part, at least one task", () => {
    expect(tasksPerPart(500_000, 0, 32 * 1024)).toBe(32 * 1024);
    expect(tasksPerPart(500_000, 500_000, 32 * 1024)).toBe(32 * 1024);
    expect(tasksPerPart(10_000, 600_000, 32 * 1024)).toBe(546);
    expect(tasksPerPart(200, 50_000, 32 * 1024)).toBe(131);
    expect(tasksPerPart(200, 50_000, 100)).toBe(100);
    expect(tasksPerPart(3, 10 ** 9, 32 * 1024)).toBe(1);
  });
});

describe("a worker past its attempt-id limit (the default's, below 1 GiB) gives its range back", () => {
  // 200 tasks × 200 attempts of the baseline, then of the candidate (held attempt ids), then of a
  // model not compared (none held): ~24 MB, the worker's range (the last 60%) ~14 MB.
  const attemptRow = (model: string, t: number, a: number): string =>
    JSON.stringify(
      row({
        task_id: `t${t}`,
        model_config: model,
        validity: t % 7 === 0 ? "broken" : "valid",
        result: (t * 3 + a + model.length) % 4 === 0 ? "fail" : "pass",
        attempt: a,
        run_id: `run-${model}-${a}-${"x".repeat(120)}`,
      }),
    );
  const lines: string[] = [];
  for (const model of ["base", "cand", "other"])
    for (let a = 1; a <= 200; a++) for (let t = 0; t < 200; t++) lines.push(attemptRow(model, t, a));
  const text = lines.join("\n") + "\n";
  const path = join(dir, "attempt-heavy.jsonl");
  writeFileSync(path, text);
  const size = Buffer.byteLength(text);
  const cut = Math.floor(size * 0.4);
  // Attempt ids the worker's range holds: the candidate's rows after the cut.
  const candEnd = Buffer.byteLength(lines.slice(0, 2 * 200 * 200).join("\n") + "\n");
  const base: ReadOptions = { results: [path], reviews: [], baseline: "base", candidate: "cand" };

  async function readWith(attemptLimit: {
    ids: number;
    belowBytes: number;
  }): Promise<{ got: Outcome; notes: string[] }> {
    const notes: string[] = [];
    const got = await inTwoRanges(base, cut, notes, { attemptLimit });
    return { got, notes };
  }
  const givenBack = (notes: string[], ids: number): boolean =>
    notes.includes(`reading byte range 2 here: its reader found more than ${ids} attempt ids`);

  it("past the limit: given back, the sequential read's Dataset; above it, or on a larger file: merged", async () => {
    expect(size).toBeGreaterThan(16 * 1024 * 1024);
    const sequential = await outcome(base);
    expect(sequential.kind).toBe("dataset");
    const past = await readWith({ ids: 1000, belowBytes: size + 1 });
    expect(past.got).toStrictEqual(sequential);
    expect(givenBack(past.notes, 1000)).toBe(true);
    const above = await readWith({ ids: 1_000_000, belowBytes: size + 1 });
    expect(above.got).toStrictEqual(sequential);
    expect(above.notes.some((n) => n.startsWith("reading byte range 2 here"))).toBe(false);
    const larger = await readWith({ ids: 1000, belowBytes: size });
    expect(larger.got).toStrictEqual(sequential);
    expect(larger.notes.some((n) => n.startsWith("reading byte range 2 here"))).toBe(false);
  });

  it("an attempt-heavy range posts its state in parts of about 32 Ki attempt ids", async () => {
    // Cut at a quarter: the worker holds the baseline's last 10,000 attempts and all 40,000 of the
    // candidate's, over 200 tasks: 200 · 32,768 / 50,000 = 131 tasks a part, so 2 parts.
    const quarter = Buffer.byteLength(lines.slice(0, 30_000).join("\n") + "\n");
    const answers: number[] = [];
    const asked: number[] = [];
    const got = await inTwoRanges(base, quarter, [], {
      readElsewhere: (task) => {
        const reader = inProcess(task);
        return {
          ...reader,
          answer: reader.answer.then((a) => {
            if (a !== undefined && !("problem" in a)) answers.push(a.parts);
            return a;
          }),
          part: (k) => {
            asked.push(k);
            return reader.part(k);
          },
        };
      },
    });
    expect(got).toStrictEqual(await outcome(base));
    expect(answers).toEqual([2]);
    expect(asked).toEqual([0, 1]);
  });

  it("a range whose first 8 MiB, scaled to all of it, passes the limit is given back early", async () => {
    // The range holds the candidate's attempts after the cut (~(candEnd − cut) bytes' worth), then
    // only rows of a model not compared: fewer ids than the limit in all, but its first 8 MiB, all
    // of them the candidate's, project more.
    const rowBytes = size / lines.length;
    const held = Math.round((candEnd - cut) / rowBytes);
    const projected = Math.round(((8 * 1024 * 1024) / rowBytes) * ((size - cut) / (8 * 1024 * 1024)));
    expect(candEnd - cut).toBeGreaterThan(8 * 1024 * 1024);
    const limit = held + 500;
    expect(projected).toBeGreaterThan(limit);
    const sequential = await outcome(base);
    const early = await readWith({ ids: limit, belowBytes: size + 1 });
    expect(early.got).toStrictEqual(sequential);
    expect(givenBack(early.notes, limit)).toBe(true);
  });
});
