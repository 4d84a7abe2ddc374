/**
 * Parsing results files on worker threads (src/core/input/parse-pool.ts, row-codec.ts and the
 * bundled dist/parse-worker.js) must change nothing but the speed: every read here is done twice,
 * inline (no parseWorkers) and through the pool (minBytes 0, so every results file goes through
 * it), and must give the same Dataset, or the same InputError (message, listed problems in the
 * same order, total).
 *
 * The exports are generated from a seeded PRNG and hold what the reader meets in practice (and
 * what it must refuse): several models, attempts as numbers and strings, duplicate and
 * conflicting attempts, pre-aggregated rows, labels, evidence, clusters, non-ASCII text, escapes,
 * control characters, invalid JSON, invalid UTF-8, blank lines, CRLF, BOMs, lines larger than a
 * slot, overlong lines and a last line without LF. Batches sent to the workers are recorded (a spy
 * on Worker.prototype.postMessage) to check that the cases meant to be exercised are: several
 * batches, slots reused, an oversize slot, a batch cut at its line count.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { EventEmitter } from "node:events";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { gzipSync } from "node:zlib";

import { afterAll, afterEach, describe, expect, it, vi } from "vitest";

import { MAX_LISTED_PROBLEMS, type InputProblem } from "../../src/core/errors.js";
import { tableRecords, type Dataset } from "../../src/core/model.js";
import { INTERN_MAX_CHARS } from "../../src/core/input/row-codec.js";
import { MAX_LINE_BYTES, readDataset, type InputLimits } from "../../src/core/input/read-dataset.js";
import { prng } from "../helpers/prng.js";
import { settle, type Outcome } from "../helpers/read-outcome.js";

const WORKER = new URL("../../dist/parse-worker.js", import.meta.url);
const SLOT_BYTES = 512 * 1024;
const BATCH_LINES = 8192;

const dir = mkdtempSync(join(tmpdir(), "gate-parse-pool-"));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

let fileCount = 0;
function writeTemp(name: string, content: Buffer | string): string {
  const path = join(dir, `${fileCount++}-${name}`);
  writeFileSync(path, content);
  return path;
}

// ---------------------------------------------------------------------------------------------
// Reading both ways

interface Read {
  readonly outcome: Outcome;
  readonly notes: readonly string[];
}

interface ReadSpec {
  readonly results: readonly string[];
  readonly reviews?: readonly string[];
  readonly limits?: Partial<InputLimits>;
  /** How every file is named in messages and sources (default: its path). */
  readonly display?: string;
}

async function read(
  spec: ReadSpec,
  parseWorkers?: { script: URL; threads: number; minBytes: number },
): Promise<Read> {
  const notes: string[] = [];
  const opts = {
    results: spec.results,
    reviews: spec.reviews ?? [],
    baseline: "base",
    candidate: "cand",
    onNote: (m: string) => {
      notes.push(m);
    },
    ...(spec.limits === undefined ? {} : { limits: spec.limits }),
    ...(spec.display === undefined ? {} : { displayPath: () => spec.display ?? "" }),
    ...(parseWorkers === undefined ? {} : { parseWorkers }),
  };
  return { outcome: await settle(readDataset(opts)), notes };
}

const inlineCache = new Map<string, Promise<Read>>();

/** The inline read of a spec (cached: several pooled reads compare with it). */
function readInline(spec: ReadSpec): Promise<Read> {
  const key = JSON.stringify(spec);
  let r = inlineCache.get(key);
  if (r === undefined) {
    r = read(spec);
    inlineCache.set(key, r);
  }
  return r;
}

/** Reads `spec` inline and through the pool, checks both agree, and returns both. */
async function compare(
  spec: ReadSpec,
  threads: number,
  script: URL = WORKER,
  minBytes = 0,
): Promise<{ inline: Outcome; pooled: Outcome; notes: readonly string[] }> {
  const inline = await readInline(spec);
  const pooled = await read(spec, { script, threads, minBytes });
  expect(pooled.outcome).toStrictEqual(inline.outcome);
  return { inline: inline.outcome, pooled: pooled.outcome, notes: pooled.notes };
}

function datasetOf(o: Outcome): Dataset {
  if (o.kind !== "dataset") throw new Error(`expected a Dataset, got an InputError:\n${o.message}`);
  return o.dataset;
}

function errorOf(o: Outcome): Extract<Outcome, { kind: "error" }> {
  if (o.kind !== "error") throw new Error("expected an InputError, got a Dataset");
  return o;
}

/** The only note of a pooled read that did not fall back to the main thread. */
const startedNote = (threads: number): string[] => [
  `parsing large results files on ${threads} worker thread(s)`,
];

interface SentBatch {
  readonly lines: number;
  readonly data: SharedArrayBuffer;
}

/** Records the batches posted to any Worker from now on (until the test ends); call to get them. */
function recordBatches(): () => SentBatch[] {
  const spy = vi.spyOn(Worker.prototype, "postMessage");
  return () => {
    const sent: SentBatch[] = [];
    for (const [m] of spy.mock.calls) {
      if (typeof m !== "object" || m === null || !("lines" in m) || !("data" in m)) continue;
      const { lines, data } = m as { lines: unknown; data: unknown };
      if (typeof lines === "number" && data instanceof SharedArrayBuffer) sent.push({ lines, data });
    }
    return sent;
  };
}

// ---------------------------------------------------------------------------------------------
// The generator

class Rand {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = prng(seed);
  }
  float(): number {
    return this.next();
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    const x = xs[this.int(xs.length)];
    if (x === undefined) throw new Error("pick from an empty list");
    return x;
  }
}

const VALIDITIES = ["unreviewed", "valid", "broken", "disputed"] as const;
const RESULTS = ["pass", "fail", "infra_error", "missing"] as const;
type Result = (typeof RESULTS)[number];
const COMPARED = ["base", "cand"] as const;
const NOISE = ["noise-1", "ノイズ-2", "noise 🙂"] as const;

interface Label {
  readonly revision: number;
  readonly validity: (typeof VALIDITIES)[number];
}

/** A task as every file sees it (its id, revision, labels and cluster do not depend on the file). */
interface WorldTask {
  readonly id: string;
  readonly dataset: string;
  readonly labels: readonly Label[];
  readonly cluster: string | undefined;
  readonly evidence: readonly string[];
}

function worldTask(i: number): WorldTask {
  const r = new Rand(0x5eed0000 + i);
  const forms = [`task-${i}`, `tâche-${i}`, `日本-${i}`, `t🙂${i}`, `q"\\${i}`, `plain_${i}`, `Ä${i}`];
  const rev0 = r.int(4);
  const labels: Label[] = [{ revision: rev0, validity: r.pick(VALIDITIES) }];
  // Distinct revisions: two labels at a task's top revision would be an error.
  if (r.chance(0.3)) labels.push({ revision: rev0 + 1 + r.int(3), validity: r.pick(VALIDITIES) });
  const cluster = r.chance(0.3)
    ? undefined
    : r.pick([`repo-${r.int(12)}`, `集群-${r.int(5)}`, `org/repo 😀 ${r.int(3)}`]);
  return {
    id: forms[i % forms.length] ?? `task-${i}`,
    dataset: r.pick(["ds-a", "ds-a", "ds-b", "ds-é"]),
    labels,
    cluster,
    evidence: [`logs/${i}/run.log`, `https://example.com/é/${i}?q=1&x=2`, `s3://bucket/日本/${i}.json`, ""],
  };
}

/** Text for ignored fields: ASCII, non-ASCII, JSON escapes (LF, tab, quote, backslash), DEL, C1. */
const FILLER_SOURCE = (() => {
  const r = new Rand(99);
  const parts = [
    "lorem ipsum ",
    "0123456789",
    "é",
    "日本語",
    "🙂",
    "\n",
    "\t",
    '"',
    "\\",
    "\u007f",
    "\u0085",
    "\u2028",
    "ASCII only text ",
  ];
  let s = "";
  while (s.length < 65536) s += r.pick(parts);
  return s;
})();

function filler(r: Rand, max: number): string {
  const n = r.int(max + 1);
  const at = r.int(FILLER_SOURCE.length - n);
  return FILLER_SOURCE.slice(at, at + n);
}

interface GenOptions {
  readonly seed: number;
  /** Lines of rows (blank lines and planted lines come on top). */
  readonly lines: number;
  /** Longest ignored "log" field. */
  readonly fillerMax: number;
  /** World tasks used. */
  readonly tasks: number;
  /** Plant one bad line of each kind (BAD_KINDS) at random places. */
  readonly dirty: boolean;
  /** Share of rows replaced by short bad lines (an error-heavy export). */
  readonly badRate?: number;
  /** Appended to harness revisions, so that files of one read do not repeat each other's attempts. */
  readonly harnessSuffix?: string;
}

interface Generated {
  readonly bytes: Buffer;
  /** Non-blank lines, as Dataset.rowsRead counts them. */
  readonly nonBlank: number;
  /** Lines planted as bad (each one problem, maybe one more at the end). */
  readonly planted: number;
  readonly aggregated: number;
  readonly duplicates: number;
}

const BAD_KINDS = [
  "json",
  "array",
  "number",
  "missing",
  "control",
  "c1",
  "utf8",
  "utf8-truncated",
  "overlong",
  "conflict",
  "aggregate-twice",
  "cluster",
  "result",
  "zero-counts",
  "attempt-on-aggregate",
] as const;

type Obj = Record<string, unknown>;

function generate(o: GenOptions): Generated {
  const r = new Rand(o.seed);
  const suffix = o.harnessSuffix ?? "";
  const tasks = Array.from({ length: o.tasks }, (_, i) => worldTask(i));
  const lines: { body: Buffer | string; end: string }[] = [];
  let nonBlank = 0;
  let aggregated = 0;
  let duplicates = 0;
  /** Attempt rows of the compared models emitted so far. */
  const attempts: {
    task: WorldTask;
    model: string;
    harness: string;
    attempt: string | number;
    result: Result;
  }[] = [];
  /** model|task|harness → next attempt number. */
  const nextAttempt = new Map<string, number>();
  const aggregatedKeys: { task: WorldTask; model: string; harness: string }[] = [];
  const usedAggregates = new Set<string>();
  const numericUsed = new Set<string>();

  const base = (t: WorldTask, model: string, harness: string): Obj => {
    const label = r.pick(t.labels);
    const row: Obj = {
      task_id: t.id,
      dataset_revision: t.dataset,
      harness_revision: harness,
      model_config: model,
      validity: label.validity,
      review_revision: label.revision,
    };
    const e = r.float();
    if (e < 0.3) row["evidence"] = r.pick(t.evidence);
    else if (e < 0.55) row["evidence"] = t.evidence.slice(r.int(3), 1 + r.int(4));
    else if (e < 0.6) row["evidence"] = null;
    if (t.cluster !== undefined && r.chance(0.7)) row["cluster"] = t.cluster;
    else if (r.chance(0.1)) row["cluster"] = null;
    if (o.fillerMax > 0 && r.chance(0.8)) row["log"] = filler(r, o.fillerMax);
    if (r.chance(0.05)) row["extra"] = { nested: [1, "二", { deep: null }], ok: true };
    return row;
  };

  const attemptRow = (t: WorldTask, model: string, harness: string, result: Result): Obj => {
    const row = base(t, model, harness);
    row["result"] = result;
    const key = `${model}|${t.id}|${harness}`;
    const n = nextAttempt.get(key) ?? 1;
    const kind = r.float();
    let attempt: string | number | undefined;
    if (kind < 0.45) attempt = n;
    else if (kind < 0.65) attempt = `a${n}`;
    // "1" is another attempt than 1: the string of the last number used as a number, if any.
    else if (kind < 0.75) attempt = numericUsed.delete(`${key}|${n - 1}`) ? String(n - 1) : String(n);
    else if (kind < 0.8) attempt = `試行-${n}`;
    else if (kind < 0.85) row["attempt"] = null;
    if (typeof attempt === "number") numericUsed.add(`${key}|${n}`);
    if (attempt !== undefined) {
      row["attempt"] = attempt;
      nextAttempt.set(key, n + 1);
      if ((COMPARED as readonly string[]).includes(model))
        attempts.push({ task: t, model, harness, attempt, result });
    }
    return row;
  };

  const aggregateRow = (t: WorldTask, model: string, harness: string): Obj => {
    const row = base(t, model, harness);
    const counts = [r.int(6), r.int(6), r.int(3), r.int(2)];
    if (counts.reduce((a, b) => a + b, 0) === 0) counts[0] = 1;
    [row["passes"], row["fails"], row["infra_errors"], row["missing"]] = counts;
    if (r.chance(0.1)) row["result"] = null;
    return row;
  };

  /** JSON text of a row, sometimes with the raw variations JSON allows. */
  const text = (row: Obj): string => {
    let s = JSON.stringify(row);
    if (row["review_revision"] === 0 && r.chance(0.3))
      s = s.replace('"review_revision":0', '"review_revision":-0');
    if (r.chance(0.05))
      s = s.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
    if (r.chance(0.03)) s = ` \t${s}  `;
    return s;
  };

  const push = (body: Buffer | string): void => {
    // Not on the first line: the file starts with a BOM already (only one is dropped).
    const bom = lines.length > 0 && r.chance(0.004) ? "\ufeff" : "";
    lines.push({ body: typeof body === "string" ? bom + body : body, end: r.chance(0.15) ? "\r\n" : "\n" });
    nonBlank++;
  };

  const goodLine = (): string => {
    const t = r.pick(tasks);
    const k = r.float();
    if (k < 0.12) {
      // Noise models: labels and clusters count, attempts are not checked.
      return text(attemptRow(t, r.pick(NOISE), `h1${suffix}`, r.pick(RESULTS)));
    }
    const model = r.pick(COMPARED);
    if (k < 0.2) {
      const harness = `h-agg${suffix}`;
      const key = `${model}|${t.id}|${harness}`;
      if (!usedAggregates.has(key)) {
        usedAggregates.add(key);
        aggregatedKeys.push({ task: t, model, harness });
        aggregated++;
        return text(aggregateRow(t, model, harness));
      }
    }
    if (k < 0.3 && attempts.length > 0) {
      const a = r.pick(attempts);
      const row = base(a.task, a.model, a.harness);
      row["result"] = a.result;
      row["attempt"] = a.attempt;
      duplicates++;
      return text(row);
    }
    const harness = r.chance(0.85) ? `h1${suffix}` : `h2${suffix}`;
    return text(attemptRow(t, model, harness, r.pick(RESULTS)));
  };

  const badLine = (kind: (typeof BAD_KINDS)[number]): Buffer | string => {
    const t = r.pick(tasks);
    const row = (): Obj => attemptRow(t, "cand", `h1${suffix}`, r.pick(RESULTS));
    switch (kind) {
      case "json":
        return JSON.stringify(row()).slice(0, 40);
      case "array":
        return '[1,"two",{"three":3}]';
      case "number":
        return "42";
      case "missing": {
        const x = row();
        delete x["harness_revision"];
        return JSON.stringify(x);
      }
      case "control":
        return JSON.stringify({ ...row(), task_id: `bad\u0001id-${t.id}` });
      case "c1":
        return JSON.stringify({ ...row(), task_id: `bad\u0085id` });
      case "utf8":
        return Buffer.concat([
          Buffer.from('{"task_id":"bad'),
          Buffer.from([0xff, 0xfe, 0xc0, 0xaf]),
          Buffer.from('"}'),
        ]);
      case "utf8-truncated":
        return Buffer.concat([
          Buffer.from(JSON.stringify(row()).slice(0, -1) + ',"log":"'),
          Buffer.from([0xe6, 0x97]),
          Buffer.from('"}'),
        ]);
      case "overlong":
        return JSON.stringify({ ...row(), log: "o".repeat(MAX_LINE_BYTES + 1000) });
      case "conflict": {
        const a = attempts.length > 0 ? r.pick(attempts) : undefined;
        if (a === undefined) return "{}";
        const x = base(a.task, a.model, a.harness);
        x["result"] = RESULTS[(RESULTS.indexOf(a.result) + 1) % RESULTS.length];
        x["attempt"] = a.attempt;
        return JSON.stringify(x);
      }
      case "aggregate-twice": {
        const a = aggregatedKeys.length > 0 ? r.pick(aggregatedKeys) : undefined;
        if (a === undefined) return "{}";
        return JSON.stringify(aggregateRow(a.task, a.model, a.harness));
      }
      case "cluster":
        return JSON.stringify({ ...row(), cluster: "another-cluster" });
      case "result":
        return JSON.stringify({ ...row(), result: "passed" });
      case "zero-counts": {
        const x = base(t, "base", `h-zero${suffix}`);
        Object.assign(x, { passes: 0, fails: 0, infra_errors: 0, missing: 0 });
        return JSON.stringify(x);
      }
      case "attempt-on-aggregate":
        return JSON.stringify({ ...aggregateRow(t, "base", `h-bad${suffix}`), attempt: 3 });
    }
  };

  const shortBad = ["{}", "1", "[]", "x", "null", '{"a":1}', "{", '"s"'];
  // Where the planted lines go (never first or last), and the two lines larger than a slot.
  const planted = new Map<number, (typeof BAD_KINDS)[number]>();
  if (o.dirty) {
    for (const kind of BAD_KINDS) {
      let at = 1 + r.int(o.lines - 2);
      while (planted.has(at)) at = 1 + r.int(o.lines - 2);
      planted.set(at, kind);
    }
  }
  const big = new Set([1 + r.int(o.lines - 2), 1 + r.int(o.lines - 2)]);
  for (let i = 0; i < o.lines; i++) {
    if (i > 0 && r.chance(0.02)) {
      lines.push({ body: r.pick(["", " ", "\t \t", "\r", "\ufeff"]), end: "\n" });
    }
    const kind = planted.get(i);
    if (kind !== undefined) {
      push(badLine(kind));
      continue;
    }
    if (o.badRate !== undefined && r.chance(o.badRate)) {
      push(r.chance(0.03) ? Buffer.from([0x7b, 0xff, 0x7d]) : r.pick(shortBad));
      continue;
    }
    if (big.has(i)) {
      // Valid rows over SLOT_BYTES but under MAX_LINE_BYTES: one non-ASCII, one ASCII.
      const row = attemptRow(r.pick(tasks), r.pick(COMPARED), `h1${suffix}`, r.pick(RESULTS));
      row["log"] = r.chance(0.5) ? "é".repeat(150_000) + "a".repeat(300_000) : "b".repeat(700_000);
      big.delete(i);
      push(JSON.stringify(row));
      continue;
    }
    push(goodLine());
  }
  const parts: Buffer[] = [Buffer.from([0xef, 0xbb, 0xbf])];
  lines.forEach((l, i) => {
    parts.push(typeof l.body === "string" ? Buffer.from(l.body) : l.body);
    // The last line has no line end.
    if (i < lines.length - 1) parts.push(Buffer.from(l.end));
  });
  return { bytes: Buffer.concat(parts), nonBlank, planted: planted.size, aggregated, duplicates };
}

// ---------------------------------------------------------------------------------------------
// 1. Random exports, clean and dirty, several seeds, 1 and 2 threads

interface SeedFiles {
  readonly clean: Generated & { readonly path: string };
  readonly dirty: Generated & { readonly path: string };
}

const seedFiles = new Map<number, SeedFiles>();

/** Odd seeds: fewer, longer lines; even seeds: many short ones. Both > 2 MiB. */
function optionsFor(seed: number): Omit<GenOptions, "dirty"> {
  return seed % 2 === 1
    ? { seed, lines: 3000, fillerMax: 1600, tasks: 150 }
    : { seed, lines: 11000, fillerMax: 200, tasks: 400 };
}

function filesFor(seed: number): SeedFiles {
  let f = seedFiles.get(seed);
  if (f === undefined) {
    const clean = generate({ ...optionsFor(seed), dirty: false });
    const dirty = generate({ ...optionsFor(seed), seed: seed + 1000, dirty: true });
    f = {
      clean: { ...clean, path: writeTemp(`clean-${seed}.jsonl`, clean.bytes) },
      dirty: { ...dirty, path: writeTemp(`dirty-${seed}.jsonl`, dirty.bytes) },
    };
    seedFiles.set(seed, f);
  }
  return f;
}

const SEEDS = [1, 2, 3, 4, 5, 6];

describe.each(SEEDS)(
  "a generated export, seed %i: pooled reading gives what inline reading gives",
  (seed) => {
    it.each([1, 2])("a clean export: the same Dataset (%i threads)", async (threads) => {
      const { clean } = filesFor(seed);
      expect(clean.bytes.length).toBeGreaterThan(2 * 1024 * 1024);
      const batches = recordBatches();
      const { inline, notes } = await compare({ results: [clean.path] }, threads);
      expect(notes).toEqual(startedNote(threads));

      const d = datasetOf(inline);
      // The generator made what it claims: every non-blank line read, duplicates folded, aggregates.
      expect(d.rowsRead).toBe(clean.nonBlank);
      expect(clean.duplicates).toBeGreaterThan(0);
      expect(d.baseline.duplicateRows + d.candidate.duplicateRows).toBe(clean.duplicates);
      expect(clean.aggregated).toBeGreaterThan(0);
      expect(d.tasks.length).toBeGreaterThan(100);
      expect(tableRecords(d.tasks).some((t) => /[\u0080-\uffff]/.test(t.taskId))).toBe(true);
      expect(tableRecords(d.tasks).some((t) => t.cluster !== undefined)).toBe(true);
      expect(tableRecords(d.tasks).some((t) => t.evidence.length > 0)).toBe(true);
      expect(d.modelsPresent).toEqual(["base", "cand", "noise 🙂", "noise-1", "ノイズ-2"]);

      // Every line went to a worker, in several batches, in reused slots, one of them oversize.
      const sent = batches();
      expect(sent.reduce((n, b) => n + b.lines, 0)).toBe(clean.nonBlank);
      expect(sent.length).toBeGreaterThanOrEqual(5);
      expect(new Set(sent.map((b) => b.data)).size).toBeLessThan(sent.length);
      expect(sent.some((b) => b.data.byteLength > SLOT_BYTES)).toBe(true);
    });

    it.each([1, 2])("an export with bad lines: the same InputError (%i threads)", async (threads) => {
      const { dirty } = filesFor(seed);
      const { inline, notes } = await compare({ results: [dirty.path] }, threads);
      expect(notes).toEqual(startedNote(threads));
      const e = errorOf(inline);
      // One problem per planted line, all listed. Two planted lines may give none: a conflict with
      // an attempt whose own line was bad, a cluster that no later line of its task contradicts.
      expect(e.total).toBeGreaterThanOrEqual(dirty.planted - 2);
      expect(e.total).toBeLessThanOrEqual(MAX_LISTED_PROBLEMS);
      expect(e.problems).toHaveLength(e.total);
      const messages = e.problems.map((p) => p.message).join("\n");
      expect(messages).toContain("the line is not valid UTF-8 text");
      expect(messages).toContain(`the line is longer than ${MAX_LINE_BYTES} bytes`);
      expect(messages).toContain("the line is not valid JSON");
      expect(messages).toContain("expected a JSON object; got an array");
      expect(messages).toContain("expected no control characters");
      // Problems are listed in line order (the late ones, found at the end, come last).
      const lines = e.problems.filter((p) => p.field !== "cluster").map((p) => p.location?.line ?? 0);
      expect(lines).toEqual([...lines].sort((a, b) => a - b));
    });
  },
);

describe("an error-heavy export (many short bad lines: batches cut at their line count)", () => {
  const gen = generate({ seed: 77, lines: 24000, fillerMax: 0, tasks: 300, dirty: true, badRate: 0.8 });
  const path = writeTemp("heavy.jsonl", gen.bytes);

  it.each([1, 2])("the same first problems and total (%i threads)", async (threads) => {
    const batches = recordBatches();
    const { inline, notes } = await compare({ results: [path] }, threads);
    expect(notes).toEqual(startedNote(threads));
    const e = errorOf(inline);
    expect(e.problems).toHaveLength(MAX_LISTED_PROBLEMS);
    expect(e.total).toBeGreaterThan(10_000);
    expect(e.message).toContain(`… and ${e.total - MAX_LISTED_PROBLEMS} more (${e.total} in all)`);
    expect(batches().some((b) => b.lines === BATCH_LINES)).toBe(true);
  });
});

describe("gzip: a compressed export stays on the main thread (zlib has a thread of its own)", () => {
  it.each([1, 2])("clean and dirty copies (%i threads)", async (threads) => {
    const { clean, dirty } = filesFor(1);
    const cleanGz = writeTemp("clean.jsonl.gz", gzipSync(clean.bytes));
    const dirtyGz = writeTemp("dirty.jsonl.gz", gzipSync(dirty.bytes));
    const display = "export.jsonl";
    const c = await compare({ results: [cleanGz], display }, threads);
    // No worker was started for it (see read-dataset.ts).
    expect(c.notes).toEqual([]);
    // The same as the plain file but for the digest.
    const plain = datasetOf((await readInline({ results: [clean.path], display })).outcome);
    expect({ ...datasetOf(c.pooled), inputs: [] }).toStrictEqual({ ...plain, inputs: [] });
    const d = await compare({ results: [dirtyGz], display }, threads);
    expect(d.pooled).toStrictEqual((await readInline({ results: [dirty.path], display })).outcome);
  });
});

// ---------------------------------------------------------------------------------------------
// 2. Problems of the splitter and of the parser, interleaved, stay in line order

describe("splitter and parse problems alternate: listed in line order, as inline", () => {
  const good = (i: number, log: number): string =>
    JSON.stringify({
      task_id: `order-${i}`,
      dataset_revision: "ds",
      harness_revision: "h",
      model_config: i % 2 === 0 ? "base" : "cand",
      validity: "valid",
      result: "pass",
      review_revision: 1,
      log: "L".repeat(log),
    });
  // Each kind of line, and how its problem is recognised.
  const kinds = {
    utf8: { bytes: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]), says: "not valid UTF-8" },
    overlong: { bytes: Buffer.from(good(0, MAX_LINE_BYTES)), says: "longer than" },
    json: { bytes: Buffer.from('{"task_id": "x",'), says: "not valid JSON" },
    object: { bytes: Buffer.from("[1,2]"), says: "got an array" },
    missing: { bytes: Buffer.from('{"task_id":"m"}'), says: "the field is missing" },
  } as const;
  type Kind = keyof typeof kinds;
  // 100 KB good lines between the problems: a slot holds five, so batches end between them, with
  // splitter problems at a batch's start, middle and end. Line 1 is a problem (before any line),
  // line 2 a line larger than a slot, and the file ends with an overlong line without LF.
  const pattern: (Kind | "good" | "big")[] = [
    "utf8",
    "big",
    "json",
    "utf8",
    "good",
    "overlong",
    "object",
    "good",
    "utf8",
    "good",
    "json",
    "good",
    "overlong",
    "good",
    "utf8",
    "missing",
    "good",
    "good",
    "utf8",
    "json",
    "good",
    "overlong",
    "utf8",
    "object",
    "good",
    "good",
    "json",
    "utf8",
    "good",
    "missing",
    "utf8",
    "good",
    "json",
    "overlong",
  ];
  const parts: Buffer[] = [];
  const expected: [number, Kind][] = [];
  pattern.forEach((k, i) => {
    if (k === "good") parts.push(Buffer.from(good(i, 100_000)));
    else if (k === "big") parts.push(Buffer.from(good(i, 600_000)));
    else {
      parts.push(kinds[k].bytes);
      expected.push([i + 1, k]);
    }
    if (i < pattern.length - 1) parts.push(Buffer.from(i % 3 === 0 ? "\r\n" : "\n"));
  });
  const path = writeTemp("order.jsonl", Buffer.concat(parts));

  it.each([1, 2])("%i threads: the first problems in line order, the same total", async (threads) => {
    const batches = recordBatches();
    const { pooled } = await compare({ results: [path] }, threads);
    const e = errorOf(pooled);
    expect(e.total).toBe(expected.length);
    expect(e.total).toBeGreaterThan(MAX_LISTED_PROBLEMS);
    const kindOf = (p: InputProblem): Kind | undefined =>
      (Object.keys(kinds) as Kind[]).find((k) => p.message.includes(kinds[k].says));
    expect(e.problems.map((p) => [p.location?.line, kindOf(p)])).toEqual(
      expected.slice(0, MAX_LISTED_PROBLEMS),
    );
    // The problems were spread over several batches.
    expect(batches().length).toBeGreaterThanOrEqual(4);
  });
});

// ---------------------------------------------------------------------------------------------
// 3, 4. Workers that cannot start or die: the lines are parsed on the main thread

/**
 * A worker script that runs the real one but exits when `when` holds on a message (before the real
 * worker sees it). Its listener is set by a module imported first: static imports are evaluated
 * in order, in one go, so no message comes before both listeners are set (a message that came in
 * between would never be answered).
 */
function dyingWorker(name: string, when: string): URL {
  const pre = writeTemp(
    `${name}-pre.mjs`,
    `import { parentPort, threadId } from "node:worker_threads";\n` +
      `let seen = 0;\n` +
      `parentPort.on("message", () => { if (${when}) process.exit(1); });\n`,
  );
  return pathToFileURL(
    writeTemp(
      `${name}.mjs`,
      `import ${JSON.stringify(pathToFileURL(pre).href)};\nimport ${JSON.stringify(WORKER.href)};\n`,
    ),
  );
}

/** Counts the answers workers send from now on (messages a Worker emits on the main thread). */
function countAnswers(): () => number {
  const emit = vi.spyOn(EventEmitter.prototype, "emit");
  return () =>
    emit.mock.calls.filter((call, i) => call[0] === "message" && emit.mock.contexts[i] instanceof Worker)
      .length;
}

describe("fallback to the main thread", () => {
  const scripts = {
    missing: pathToFileURL(join(dir, "no-such-worker.js")),
    exitsFirst: pathToFileURL(
      writeTemp(
        "exits.mjs",
        `import { parentPort } from "node:worker_threads";\nparentPort.on("message", () => process.exit(1));\n`,
      ),
    ),
    throwsFirst: pathToFileURL(
      writeTemp(
        "throws.mjs",
        `import { parentPort } from "node:worker_threads";\n` +
          `parentPort.on("message", () => { throw new Error("boom"); });\n`,
      ),
    ),
    // Runs the real worker, answers its first two batches and dies on its third.
    diesThird: dyingWorker("dies-third", "++seen === 3"),
    // Of two workers (consecutive thread ids), one keeps answering and one dies on its second batch.
    oneDies: dyingWorker("one-dies", "threadId % 2 === 0 && ++seen === 2"),
  };

  const cases: [keyof typeof scripts, number][] = [
    ["missing", 1],
    ["missing", 2],
    ["exitsFirst", 1],
    ["exitsFirst", 2],
    ["throwsFirst", 2],
    ["diesThird", 1],
    ["diesThird", 2],
    ["oneDies", 2],
  ];

  it.each(cases)(
    "worker script %s, %i threads: the same Dataset and InputError, and a note",
    async (name, threads) => {
      const { clean, dirty } = filesFor(name === "oneDies" || name === "diesThird" ? 3 : 4);
      const answers = countAnswers();
      const c = await compare({ results: [clean.path] }, threads, scripts[name]);
      expect(datasetOf(c.pooled).rowsRead).toBe(clean.nonBlank);
      expect(c.notes.some((n) => n.includes("main thread"))).toBe(true);
      // The dying workers answered some batches first: they stopped mid-way.
      const answered = answers();
      if (name === "diesThird") expect(answered).toBe(2 * threads);
      if (name === "oneDies") expect(answered).toBeGreaterThan(2);
      const d = await compare({ results: [dirty.path] }, threads, scripts[name]);
      expect(errorOf(d.pooled).total).toBeGreaterThan(0);
      expect(d.notes.some((n) => n.includes("main thread"))).toBe(true);
    },
  );
});

// ---------------------------------------------------------------------------------------------
// 5. Caps

describe("caps on what is held: the same InputError naming the same line", () => {
  const caps: Partial<InputLimits>[] = [
    { maxTasks: 50 },
    { maxModels: 3 },
    { maxLabelsPerTask: 1 },
    { maxAttemptIds: 300 },
    { maxHeldChars: 20_000 },
  ];
  it.each(caps)("%o", async (limits) => {
    const { clean } = filesFor(2);
    for (const threads of [1, 2]) {
      const { pooled } = await compare({ results: [clean.path], limits }, threads);
      const e = errorOf(pooled);
      expect(e.message).toContain("the rest of the input is not read");
      expect(e.total).toBe(1);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// 6. Several files: one pooled, one parsed inline (under minBytes), and a reviews file

describe("several results files and a reviews file", () => {
  const large = generate({
    seed: 11,
    lines: 4000,
    fillerMax: 800,
    tasks: 200,
    dirty: false,
    harnessSuffix: "-x",
  });
  const small = generate({
    seed: 12,
    lines: 600,
    fillerMax: 100,
    tasks: 200,
    dirty: false,
    harnessSuffix: "-y",
  });
  const largePath = writeTemp("large.jsonl", large.bytes);
  const smallPath = writeTemp("small.jsonl", small.bytes);
  const r = new Rand(13);
  const reviews: string[] = [];
  for (let i = 0; i < 200; i += 3) {
    const t = worldTask(i);
    reviews.push(
      JSON.stringify({
        task_id: t.id,
        dataset_revision: t.dataset,
        validity: r.pick(VALIDITIES),
        review_revision: 10 + i,
        reviewer: r.pick(["alice", "bob", "ルカ"]),
        note: "looked at it\nagain ✓",
        evidence: [`https://review/${i}`],
      }),
    );
  }
  const reviewsPath = writeTemp("reviews.jsonl", reviews.join("\r\n") + "\r\n");
  const minBytes = Math.floor((statSync(largePath).size + statSync(smallPath).size) / 2);

  it.each([1, 2])("one file pooled, one inline: the same Dataset (%i threads)", async (threads) => {
    expect(statSync(smallPath).size).toBeLessThan(minBytes);

    const batches = recordBatches();
    const spec = { results: [smallPath, largePath], reviews: [reviewsPath] };
    const { pooled, notes } = await compare(spec, threads, WORKER, minBytes);
    expect(notes).toEqual(startedNote(threads));
    // Only the large file went through the pool.
    expect(batches().reduce((n, b) => n + b.lines, 0)).toBe(large.nonBlank);
    const d = datasetOf(pooled);
    expect(d.rowsRead).toBe(large.nonBlank + small.nonBlank + reviews.length);
    expect(d.inputs.map((i) => i.path)).toEqual([smallPath, largePath, reviewsPath]);
    expect(tableRecords(d.tasks).some((t) => t.history.some((h) => h.reviewer !== undefined))).toBe(true);
    expect(d.baseline.harnessRevisions).toEqual(expect.arrayContaining(["h1-x", "h1-y"]));
  });
});

// ---------------------------------------------------------------------------------------------
// The workers' interning table fills up: later strings travel in their batch

describe("past the interning table's cap", () => {
  it("the same Dataset", async () => {
    const lines: string[] = [];
    let chars = 0;
    const row = (i: number, model: string, withEvidence: boolean): string => {
      const id = `big-${i}-`.padEnd(4000, String.fromCharCode(97 + (i % 26)));
      const cluster = `cluster-${i}-`.padEnd(4000, "c");
      const evidence = Array.from({ length: 6 }, (_, k) => `ev-${i}-${k}-`.padEnd(8000, "e"));
      if (model === "base") chars += id.length + cluster.length + 6 * 8000;
      return JSON.stringify({
        task_id: id,
        dataset_revision: "ds",
        harness_revision: "h",
        model_config: model,
        validity: "valid",
        result: i % 3 === 0 ? "fail" : "pass",
        review_revision: 1,
        cluster,
        ...(withEvidence ? { evidence: i % 2 === 0 ? evidence : [...evidence].reverse() } : {}),
      });
    };
    const n = 80;
    for (let i = 0; i < n; i++) lines.push(row(i, "base", true));
    for (let i = 0; i < n; i++) lines.push(row(i, "cand", i % 2 === 0));
    for (let i = 0; i < n; i += 4) lines.push(row(i, "noise", true));
    expect(chars).toBeGreaterThan(INTERN_MAX_CHARS);
    const path = writeTemp("interning.jsonl", lines.join("\n") + "\n");
    const { pooled, notes } = await compare({ results: [path] }, 1);
    expect(notes).toEqual(startedNote(1));
    const d = datasetOf(pooled);
    expect(d.tasks).toHaveLength(n);
    expect(tableRecords(d.tasks).every((t) => t.evidence.length === 6 && t.cluster !== undefined)).toBe(true);
  });
});
