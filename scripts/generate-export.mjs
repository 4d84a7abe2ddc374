#!/usr/bin/env node
// Seeded generator of realistic results exports (SPEC §1.1) and reviews files (SPEC §1.2).
//
// Used for the shipped example (`--example`), the benchmark (scripts/bench.mjs) and the tests.
// Output is a pure function of the options: every random draw comes from a counter-based PRNG
// keyed by (seed, what, model, task, attempt), so the raw export, its `--aggregated` summary and
// any row order describe the same attempts. Rows are streamed to disk; memory holds only the
// per-task attributes (a few hundred bytes per task), never the rows.
//
// Determinism: the .jsonl bytes depend only on the options (same seed → same bytes on any
// platform). A .jsonl.gz has a fixed header (mtime 0, OS byte 3 = Unix) but its deflate stream
// is whatever this Node's zlib emits: Node bundles Chromium's zlib, whose match finder hashes
// with CRC32C on CPUs that have it (x86 SSE4.2 + PCLMUL, Arm CRC) and Rabin-Karp otherwise, so
// the compressed bytes are stable for one Node build on one CPU class, and the decompressed
// bytes are stable everywhere.
//
//   node scripts/generate-export.mjs --help
import { Buffer } from "node:buffer";
import { once } from "node:events";
import { createWriteStream, mkdirSync, openSync, writeSync, closeSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { finished } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createGzip } from "node:zlib";

import { mulberry32 } from "./lib/prng.mjs";

// ---------------------------------------------------------------------------------------------
// Options

const HELP = `Usage: node scripts/generate-export.mjs [options]

Writes a seeded, realistic results export (SPEC §1.1), one attempt per line, or with
--aggregated one row per (model_config, dataset_revision, task_id, harness_revision) with
counts passes / fails / infra_errors / missing.

  --example              write exactly the committed examples/results.jsonl.gz and
                         examples/reviews.jsonl (into --out-dir, default examples/)
  --out-dir DIR          directory for --example
  --out FILE             output file (default stdout); a name ending in .gz implies --gzip
  --reviews-out FILE     also write a reviews file (SPEC §1.2): later review revisions that
                         relabel some tasks
  --gzip                 gzip the output
  --aggregated           emit the pre-aggregated shape instead of one row per attempt
  --seed N               PRNG seed, an unsigned 32-bit integer (default 1)
  --tasks N              number of tasks (default 600)
  --attempts MIN-MAX     attempts per (model, task), uniform; "3" means 3-3 (default 3)
  --models A,B[,M...]    baseline id, candidate id, then noise model ids
                         (default cfg-baseline,cfg-candidate)
  --noise-models N       add N generated noise model ids (default 0)
  --rows N               target row count: adds noise models (or, below two models' worth,
                         lowers --tasks) to reach about N attempt rows
  --lift X               candidate's skill over the baseline, in logits (default 0.5)
  --mix SPEC             final validity shares, e.g. valid:0.75,broken:0.15,disputed:0.06,unreviewed:0.04
  --relabel X            share of reviewed tasks whose latest label comes only from the
                         reviews file (default 0.04)
  --infra-rate X         share of attempts that are infra_error (default 0.004)
  --missing-rate X       share of attempts that are missing (default 0.002)
  --lost-rate X          share of (model, task) pairs whose attempts are all infra_error or
                         all missing (default 0.002)
  --clusters             add a "cluster" field (the task's repository)
  --no-extras            leave out the six fields the gate ignores (run_id, duration_s, …)
  --evidence KIND        task (default: the task's fixture log and review page, the same on
                         every row) or model (one trajectory path per (model_config, task))
  --metrics              add "metrics" (cost_usd, latency_s, tokens_in, tokens_out; each left
                         out on ~3% of attempts, none on missing ones; values a warehouse adds
                         exactly), or with --aggregated "metrics_sum" and "metrics_n"; drawn
                         apart from the extras' cost_usd / tokens_* fields, which the gate ignores
  --benchmark NAME       add "benchmark": NAME to every row
  --quiet                no summary on stderr
  --help                 this text
`;

const EXAMPLE = {
  seed: 20261129,
  tasks: 600,
  attempts: "3",
  models: "cfg-baseline,cfg-candidate,cfg-2026-10-30-nightly",
  lift: 0.5,
  mix: "valid:0.885,broken:0.075,disputed:0.025,unreviewed:0.015",
  relabel: 0.04,
  infraRate: 0.003,
  missingRate: 0.002,
  lostRate: 0.002,
  clusters: true,
  results: "results.jsonl.gz",
  reviews: "reviews.jsonl",
};

const DEFAULT_MIX = "valid:0.75,broken:0.15,disputed:0.06,unreviewed:0.04";

function fail(message) {
  process.stderr.write(`generate-export: ${message}\n`);
  process.exit(2);
}

function num(name, text, { integer = false, min = -Infinity, max = Infinity } = {}) {
  const value = Number(text);
  if (text === undefined || text === "" || !Number.isFinite(value)) fail(`--${name} needs a number`);
  if (integer && !Number.isInteger(value)) fail(`--${name} needs an integer`);
  if (value < min || value > max) fail(`--${name} must be in [${min}, ${max}]`);
  return value;
}

function parseMix(text) {
  const mix = { valid: 0, broken: 0, disputed: 0, unreviewed: 0 };
  for (const part of text.split(",")) {
    const [name, share] = part.split(":");
    if (!(name in mix)) fail(`--mix: unknown validity "${name}"`);
    mix[name] = num("mix", share, { min: 0, max: 1 });
  }
  const total = mix.valid + mix.broken + mix.disputed + mix.unreviewed;
  if (Math.abs(total - 1) > 1e-9) fail(`--mix shares must add up to 1 (they add up to ${total})`);
  return mix;
}

export function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      example: { type: "boolean" },
      "out-dir": { type: "string" },
      out: { type: "string" },
      "reviews-out": { type: "string" },
      gzip: { type: "boolean" },
      aggregated: { type: "boolean" },
      seed: { type: "string" },
      tasks: { type: "string" },
      attempts: { type: "string" },
      models: { type: "string" },
      "noise-models": { type: "string" },
      rows: { type: "string" },
      lift: { type: "string" },
      mix: { type: "string" },
      relabel: { type: "string" },
      "infra-rate": { type: "string" },
      "missing-rate": { type: "string" },
      "lost-rate": { type: "string" },
      clusters: { type: "boolean" },
      "no-extras": { type: "boolean" },
      evidence: { type: "string" },
      metrics: { type: "boolean" },
      benchmark: { type: "string" },
      quiet: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  if (values.example) {
    const dir = values["out-dir"] ?? "examples";
    return {
      ...EXAMPLE,
      extras: true,
      evidence: "task",
      metrics: false,
      benchmark: undefined,
      attempts: parseAttempts(EXAMPLE.attempts),
      models: EXAMPLE.models.split(","),
      mix: parseMix(EXAMPLE.mix),
      out: join(dir, EXAMPLE.results),
      reviewsOut: join(dir, EXAMPLE.reviews),
      gzip: true,
      aggregated: false,
      quiet: values.quiet ?? false,
    };
  }
  const options = {
    seed:
      values.seed === undefined ? 1 : num("seed", values.seed, { integer: true, min: 0, max: 2 ** 32 - 1 }),
    tasks: values.tasks === undefined ? 600 : num("tasks", values.tasks, { integer: true, min: 1 }),
    attempts: parseAttempts(values.attempts ?? "3"),
    models: (values.models ?? "cfg-baseline,cfg-candidate").split(","),
    lift: values.lift === undefined ? 0.5 : num("lift", values.lift),
    mix: parseMix(values.mix ?? DEFAULT_MIX),
    relabel: values.relabel === undefined ? 0.04 : num("relabel", values.relabel, { min: 0, max: 1 }),
    infraRate:
      values["infra-rate"] === undefined
        ? 0.004
        : num("infra-rate", values["infra-rate"], { min: 0, max: 1 }),
    missingRate:
      values["missing-rate"] === undefined
        ? 0.002
        : num("missing-rate", values["missing-rate"], { min: 0, max: 1 }),
    lostRate:
      values["lost-rate"] === undefined ? 0.002 : num("lost-rate", values["lost-rate"], { min: 0, max: 1 }),
    clusters: values.clusters ?? false,
    extras: !(values["no-extras"] ?? false),
    evidence: values.evidence ?? "task",
    metrics: values.metrics ?? false,
    benchmark: values.benchmark,
    aggregated: values.aggregated ?? false,
    out: values.out,
    reviewsOut: values["reviews-out"],
    gzip: (values.gzip ?? false) || (values.out ?? "").endsWith(".gz"),
    quiet: values.quiet ?? false,
  };
  if (options.models.length < 2 || options.models.some((m) => m === "")) {
    fail("--models needs at least a baseline and a candidate id");
  }
  if (new Set(options.models).size !== options.models.length) fail("--models has a repeated id");
  if (options.evidence !== "task" && options.evidence !== "model") fail('--evidence needs "task" or "model"');
  if (options.benchmark === "") fail("--benchmark needs a name");
  if (options.infraRate + options.missingRate > 1) fail("--infra-rate + --missing-rate exceeds 1");
  const noise =
    values["noise-models"] === undefined
      ? 0
      : num("noise-models", values["noise-models"], { integer: true, min: 0 });
  for (let i = 1; i <= noise; i++) options.models.push(noiseModelId(i));
  if (values.rows !== undefined) {
    const target = num("rows", values.rows, { min: 1 });
    const mean = (options.attempts.min + options.attempts.max) / 2;
    const perModel = options.tasks * mean;
    if (target < 2 * perModel) {
      options.tasks = Math.max(1, Math.round(target / (2 * mean)));
      options.models = options.models.slice(0, 2);
    } else {
      const wanted = Math.round(target / perModel);
      for (let i = noise + 1; options.models.length < wanted; i++) options.models.push(noiseModelId(i));
    }
  }
  return options;
}

function parseAttempts(text) {
  const match = /^(\d+)(?:-(\d+))?$/.exec(text);
  if (!match) fail(`--attempts needs MIN-MAX or N, got "${text}"`);
  const min = Number(match[1]);
  const max = match[2] === undefined ? min : Number(match[2]);
  if (min < 1 || max < min) fail(`--attempts needs 1 <= MIN <= MAX, got "${text}"`);
  return { min, max };
}

function noiseModelId(i) {
  return `cfg-2026-10-${String(1 + (i % 28)).padStart(2, "0")}-noise-${String(i).padStart(3, "0")}`;
}

// ---------------------------------------------------------------------------------------------
// Counter-based randomness: hash the key, then run mulberry32 from there.

function mix32(h, v) {
  h = Math.imul(h ^ (v >>> 0), 0x9e3779b1);
  h ^= h >>> 15;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function key(...parts) {
  let h = 0x243f6a88;
  for (const p of parts) h = mix32(h, p);
  return h;
}

function hex(rand, length) {
  let s = "";
  for (let i = 0; i < length; i++) s += "0123456789abcdef"[Math.floor(rand() * 16)];
  return s;
}

function normal(rand) {
  const u = 1 - rand();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

function pick(rand, weighted) {
  let r = rand() * weighted.reduce((s, [, w]) => s + w, 0);
  for (const [value, w] of weighted) {
    r -= w;
    if (r < 0) return value;
  }
  return weighted[weighted.length - 1][0];
}

// ---------------------------------------------------------------------------------------------
// The simulated world: tasks with a difficulty and a label history, models with a skill.

// SWE-bench-like repositories (the cluster) with their share of tasks and a first issue number.
const REPOS = [
  ["django/django", 0.3, 10097],
  ["sympy/sympy", 0.13, 11232],
  ["scikit-learn/scikit-learn", 0.1, 10198],
  ["sphinx-doc/sphinx", 0.08, 7440],
  ["matplotlib/matplotlib", 0.08, 18869],
  ["pytest-dev/pytest", 0.07, 5103],
  ["astropy/astropy", 0.05, 12907],
  ["pydata/xarray", 0.05, 3364],
  ["pylint-dev/pylint", 0.04, 4330],
  ["psf/requests", 0.04, 1142],
  ["mwaskom/seaborn", 0.03, 2848],
  ["pallets/flask", 0.03, 4045],
];

const REVIEWERS = ["reviewer-ana", "reviewer-bo", "reviewer-chen", "reviewer-dara"];

// Why a label changed, by (earlier label → later label).
const NOTES = {
  "disputed>valid": "re-ran the fixture in a clean image; the tests check the issue's behaviour",
  "disputed>broken": "gold patch fails the FAIL_TO_PASS tests in a clean image",
  "unreviewed>valid": "first review: tests match the issue statement",
  "unreviewed>broken": "first review: tests depend on network access",
  "unreviewed>disputed": "first review: reviewers disagree on whether the tests over-specify",
  "valid>broken": "found after publication: a PASS_TO_PASS test is flaky under load",
  "valid>disputed": "reported: the tests assert on an unrelated error message",
  "broken>valid": "fixture repaired upstream; verified with the gold patch",
};

/** What a model's rows say about a task: the label at each export revision. */
function buildTasks(opts, datasetShort) {
  const { mix } = opts;
  const next = new Map(REPOS.map(([repo, , first]) => [repo, first]));
  const tasks = [];
  const ids = new Set();
  for (let t = 0; t < opts.tasks; t++) {
    const rand = mulberry32(key(opts.seed, 1, t));
    const repo = pick(
      rand,
      REPOS.map(([name, share]) => [name, share]),
    );
    const number = next.get(repo) + 1 + Math.floor(rand() * 37);
    next.set(repo, number);
    const id = `${repo.replace("/", "__")}-${number}`;
    if (ids.has(id)) throw new Error(`duplicate task id ${id}`);
    ids.add(id);
    const final = pick(rand, [
      ["valid", mix.valid],
      ["broken", mix.broken],
      ["disputed", mix.disputed],
      ["unreviewed", mix.unreviewed],
    ]);
    // History: revision 0 is always "unreviewed"; the export carries revisions up to `exported`;
    // when `relabelled`, the final label exists only in the reviews file at exported + 1.
    const history = [{ revision: 0, validity: "unreviewed" }];
    let relabelled = false;
    if (final !== "unreviewed") {
      relabelled = rand() < opts.relabel;
      if (relabelled) {
        const earlier = {
          valid: [
            ["disputed", 2],
            ["unreviewed", 1],
          ],
          broken: [
            ["valid", 2],
            ["disputed", 1],
            ["unreviewed", 1],
          ],
          disputed: [
            ["valid", 2],
            ["unreviewed", 1],
          ],
        }[final];
        const before = pick(rand, earlier);
        if (before !== "unreviewed") history.push({ revision: 1, validity: before });
      } else if (rand() < 0.15) {
        // Re-reviewed before the export: revision 1 said something else.
        const before = final === "valid" ? "disputed" : "valid";
        history.push({ revision: 1, validity: before });
      }
      history.push({ revision: history.length, validity: final });
    }
    const exported = relabelled ? history.length - 2 : history.length - 1;
    const difficulty = final === "broken" ? 2.5 + Math.abs(normal(rand)) : 2.3 * normal(rand) + 0.3;
    const reviewed = history.length > 1;
    tasks.push({
      id,
      repo,
      difficulty,
      history,
      exported,
      relabelled,
      final,
      // Evidence belongs to the task (its fixture log and review page), the same on every row.
      evidence: reviewed
        ? `["fixtures/${id}/fixture.log","https://review.example.org/${datasetShort}/${id}.json"]`
        : `["fixtures/${id}/fixture.log"]`,
    });
  }
  return tasks;
}

function sigmoid(x) {
  return 1 / (1 + Math.exp(-x));
}

function buildModels(opts) {
  const world = mulberry32(key(opts.seed, 2));
  const datasetRevision = `sha256:${hex(world, 64)}`;
  const harnesses = [`git:${hex(world, 40)}`, `git:${hex(world, 40)}`, `git:${hex(world, 40)}`];
  const models = opts.models.map((config, m) => {
    const rand = mulberry32(key(opts.seed, 3, m));
    let skill;
    if (m === 0) skill = 0;
    else if (m === 1) skill = opts.lift;
    else skill = 2 * rand() - 1;
    const harness = m < 2 ? harnesses[0] : harnesses[Math.floor(rand() * harnesses.length)];
    return { config, index: m, skill, harness, tag: hex(rand, 8) };
  });
  return { datasetRevision, models };
}

/**
 * One model's attempts on one task: a pure function of (seed, model, task).
 * `revisions[e]` is the index into the task's history that attempt e's row carries.
 */
function attemptsOf(opts, model, task, t) {
  const rand = mulberry32(key(opts.seed, 4, model.index, t));
  const { min, max } = opts.attempts;
  const k = min + Math.floor(rand() * (max - min + 1));
  const p = sigmoid(model.skill - task.difficulty);
  const lost = rand() < opts.lostRate ? (rand() < 0.5 ? "infra_error" : "missing") : null;
  const results = [];
  for (let e = 0; e < k; e++) {
    const r = rand();
    const o = rand();
    if (lost) results.push(lost);
    else if (o < opts.infraRate) results.push("infra_error");
    else if (o < opts.infraRate + opts.missingRate) results.push("missing");
    else results.push(r < p ? "pass" : "fail");
  }
  // The candidate ran last and carries the latest exported label. The baseline's first epoch
  // (and other models' rows, sometimes) ran before the latest review and carry the one before.
  const latest = task.exported;
  const stale = latest > 0 && model.index !== 1 && rand() < (model.index === 0 ? 0.3 : 0.5);
  const revisions = results.map((_, e) => (stale && (e === 0 || model.index > 1) ? latest - 1 : latest));
  return { results, revisions };
}

// ---------------------------------------------------------------------------------------------
// Output

class Sink {
  constructor(path, gzip) {
    this.path = path;
    this.file = path === undefined ? process.stdout : createWriteStream(path);
    this.gzip = gzip ? createGzip({ level: 6 }) : null;
    if (this.gzip) this.gzip.pipe(this.file);
    this.head = this.gzip ?? this.file;
    this.buffer = "";
    this.bytes = 0;
    this.lines = 0;
  }

  async line(text) {
    this.buffer += text + "\n";
    this.lines += 1;
    if (this.buffer.length >= 1 << 18) await this.flush();
  }

  async flush() {
    if (this.buffer === "") return;
    const chunk = Buffer.from(this.buffer, "utf8");
    this.buffer = "";
    this.bytes += chunk.length;
    if (!this.head.write(chunk)) await once(this.head, "drain");
  }

  async close() {
    await this.flush();
    if (this.path === undefined) {
      if (this.gzip) {
        this.gzip.unpipe(this.file);
        this.gzip.on("data", (c) => process.stdout.write(c));
        this.gzip.end();
        await finished(this.gzip);
      }
      return;
    }
    this.head.end();
    await finished(this.file);
    if (this.gzip) {
      // Header byte 9 is the OS that wrote the file; pin it to Unix so it does not vary.
      const fd = openSync(this.path, "r+");
      writeSync(fd, Buffer.from([3]), 0, 1, 9);
      closeSync(fd);
    }
  }
}

function ensureDir(path) {
  if (path !== undefined) mkdirSync(dirname(path), { recursive: true });
}

// Per-row fields the gate ignores, at realistic sizes.
function extras(rand, model, task, e) {
  const seconds = (30 + rand() * 900).toFixed(1);
  const input = 20000 + Math.floor(rand() * 400000);
  const output = 800 + Math.floor(rand() * 30000);
  const cost = ((input * 3 + output * 15) / 1e6).toFixed(4);
  const repoShort = task.repo.split("/")[1];
  return (
    `,"run_id":"run-${model.tag}-e${e + 1}","duration_s":${seconds},"tokens_in":${input},` +
    `"tokens_out":${output},"cost_usd":${cost},"image":"swebench/sweb.eval.x86_64.${repoShort}:v2"`
  );
}

const METRICS = ["cost_usd", "latency_s", "tokens_in", "tokens_out"];

/**
 * Attempt e's metrics (--metrics), by name, a metric it lacks left out: a pure function of (seed,
 * model, task, attempt). Cost in 1/1024 dollars and latency in quarter seconds, so that any sum of
 * them is exact (warehouse.md "Sums and rounding"); none on a missing attempt.
 */
function metricsOf(opts, model, t, e, result) {
  if (result === "missing") return {};
  const rand = mulberry32(key(opts.seed, 7, model.index, t, e));
  const input = 20000 + Math.floor(rand() * 400000);
  const output = 800 + Math.floor(rand() * 30000);
  const values = {
    cost_usd: Math.round(((input * 3 + output * 15) / 1e6) * 1024) / 1024,
    latency_s: Math.round((30 + rand() * 900) * 4) / 4,
    tokens_in: input,
    tokens_out: output,
  };
  const out = {};
  for (const name of METRICS) if (rand() >= 0.03) out[name] = values[name];
  return out;
}

/** The metrics_sum and metrics_n of a (model, task)'s attempts, as the warehouse SQL writes them. */
function metricSums(opts, model, t, results) {
  const sum = {};
  const n = {};
  for (const name of METRICS) {
    sum[name] = null;
    n[name] = null;
  }
  results.forEach((result, e) => {
    for (const [name, v] of Object.entries(metricsOf(opts, model, t, e, result))) {
      sum[name] = (sum[name] ?? 0) + v;
      n[name] = (n[name] ?? 0) + 1;
    }
  });
  return `,"metrics_sum":${JSON.stringify(sum)},"metrics_n":${JSON.stringify(n)}`;
}

/** A row's evidence: the task's own, or one trajectory per (model, task) (--evidence model). */
function evidenceOf(opts, model, task) {
  return opts.evidence === "model" ? `["runs/${model.tag}/${task.id}/trajectory.json"]` : task.evidence;
}

/** Writes the export; returns counts for the summary. */
export async function generate(opts) {
  const datasetShort = `ds-${hex(mulberry32(key(opts.seed, 2)), 64).slice(0, 12)}`;
  const tasks = buildTasks(opts, datasetShort);
  const { datasetRevision, models } = buildModels(opts);
  const stats = { rows: 0, results: { pass: 0, fail: 0, infra_error: 0, missing: 0 } };
  ensureDir(opts.out);
  const sink = new Sink(opts.out, opts.gzip);
  const taskJson = tasks.map((task) => JSON.stringify(task.id));
  const datasetJson = JSON.stringify(datasetRevision);
  const tail = opts.benchmark === undefined ? "" : `,"benchmark":${JSON.stringify(opts.benchmark)}`;

  for (const model of models) {
    const head = `,"dataset_revision":${datasetJson},"harness_revision":"${model.harness}","model_config":${JSON.stringify(model.config)}`;
    const all = tasks.map((task, t) => attemptsOf(opts, model, task, t));
    if (opts.aggregated) {
      for (let t = 0; t < tasks.length; t++) {
        const task = tasks[t];
        const { results, revisions } = all[t];
        const c = { pass: 0, fail: 0, infra_error: 0, missing: 0 };
        for (const r of results) c[r] += 1;
        for (const r of results) stats.results[r] += 1;
        const label = task.history[Math.max(...revisions)];
        await sink.line(
          `{"task_id":${taskJson[t]}${head},"validity":"${label.validity}","review_revision":${label.revision},` +
            `"passes":${c.pass},"fails":${c.fail},"infra_errors":${c.infra_error},"missing":${c.missing}` +
            `${opts.metrics ? metricSums(opts, model, t, results) : ""},` +
            `"evidence":${evidenceOf(opts, model, task)}${opts.clusters ? `,"cluster":"${task.repo}"` : ""}${tail}}`,
        );
        stats.rows += 1;
      }
      continue;
    }
    // Epoch-major order, as a harness writes it: every task's first attempt, then the second…
    const epochs = opts.attempts.max;
    for (let e = 0; e < epochs; e++) {
      for (let t = 0; t < tasks.length; t++) {
        const { results, revisions } = all[t];
        if (e >= results.length) continue;
        const task = tasks[t];
        const label = task.history[revisions[e]];
        const result = results[e];
        stats.results[result] += 1;
        const rand = mulberry32(key(opts.seed, 5, model.index, t, e));
        const metrics = opts.metrics
          ? `,"metrics":${JSON.stringify(metricsOf(opts, model, t, e, result))}`
          : "";
        await sink.line(
          `{"task_id":${taskJson[t]}${head},"validity":"${label.validity}","result":"${result}",` +
            `"review_revision":${label.revision},"attempt":${e + 1},"evidence":${evidenceOf(opts, model, task)}` +
            `${opts.clusters ? `,"cluster":"${task.repo}"` : ""}${opts.extras ? extras(rand, model, task, e) : ""}` +
            `${metrics}${tail}}`,
        );
        stats.rows += 1;
      }
    }
  }
  await sink.close();

  let reviews = 0;
  if (opts.reviewsOut !== undefined) {
    ensureDir(opts.reviewsOut);
    const out = new Sink(opts.reviewsOut, opts.reviewsOut.endsWith(".gz"));
    for (let t = 0; t < tasks.length; t++) {
      const task = tasks[t];
      if (!task.relabelled) continue;
      const rand = mulberry32(key(opts.seed, 6, t));
      const before = task.history[task.exported];
      const after = task.history[task.exported + 1];
      const note = NOTES[`${before.validity}>${after.validity}`] ?? "re-reviewed";
      await out.line(
        JSON.stringify({
          task_id: task.id,
          dataset_revision: datasetRevision,
          validity: after.validity,
          review_revision: after.revision,
          reviewer: REVIEWERS[Math.floor(rand() * REVIEWERS.length)],
          evidence: [`https://review.example.org/${datasetShort}/${task.id}.json#r${after.revision}`],
          note,
        }),
      );
      reviews += 1;
    }
    await out.close();
  }

  const labels = { valid: 0, broken: 0, disputed: 0, unreviewed: 0 };
  for (const task of tasks) labels[task.final] += 1;
  return {
    rows: stats.rows,
    bytes: sink.bytes,
    tasks: tasks.length,
    models: models.length,
    results: stats.results,
    finalLabels: labels,
    relabelled: reviews,
    datasetRevision,
  };
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  const summary = await generate(opts);
  if (!opts.quiet) process.stderr.write(`${JSON.stringify(summary)}\n`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
