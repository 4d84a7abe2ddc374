/**
 * A pre-aggregated export (one row with counts per model, task and harness revision) must read to
 * the same Dataset as the per-attempt export it summarises, except rowsRead, the input digests and
 * the line numbers of history events that come from the export: the same counts, labels,
 * benchmarks and metrics (metrics_sum and metrics_n against the attempts' metrics; the values are
 * multiples of 1/64 and integers, whose sums are exact in any grouping, as a warehouse's SUM then
 * gives them).
 */

import { basename } from "node:path";

import { describe, expect, it } from "vitest";

import { tableRecords, type AttemptCounts, type Dataset } from "../../../src/core/model.js";
import { readDataset } from "../../../src/read/read-dataset.js";
import { fixtures } from "../fixtures.js";
import { prng } from "../../helpers/prng.js";

const fx = fixtures("aggregated");

interface Generated {
  raw: object[];
  aggregated: object[];
  reviews: object[];
  /** Expected counts: `${model}|${dataset}|${task}` → counts. */
  counts: Map<string, AttemptCounts>;
}

const RESULTS = ["pass", "fail", "infra_error", "missing"] as const;
const VALIDITIES = ["unreviewed", "valid", "broken", "disputed"] as const;
const MODELS = ["base", "cand", "other"];

const METRICS = ["cost_usd", "latency_s", "tokens_out"];

function generate(seed: number, taskCount: number): Generated {
  const rnd = prng(seed);
  /** An attempt's metrics: often all, sometimes some or none; values exact in any sum. */
  const attemptMetrics = (): Record<string, number | null> | undefined => {
    if (rnd() < 0.2) return undefined;
    const m: Record<string, number | null> = {};
    if (rnd() < 0.8) m["cost_usd"] = Math.floor(rnd() * 200) / 64;
    if (rnd() < 0.7) m["latency_s"] = rnd() < 0.1 ? null : Math.floor(rnd() * 9000) / 8;
    if (rnd() < 0.9) m["tokens_out"] = Math.floor(rnd() * 40000);
    return m;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const shuffle = <T>(xs: T[]): T[] => {
    for (let i = xs.length - 1; i > 0; i--) {
      const k = Math.floor(rnd() * (i + 1));
      [xs[i], xs[k]] = [xs[k] as T, xs[i] as T];
    }
    return xs;
  };
  const groupsRaw: object[][] = [];
  const groupsAgg: object[][] = [];
  const reviews: object[] = [];
  const counts = new Map<string, AttemptCounts>();
  for (let t = 0; t < taskCount; t++) {
    const dataset = rnd() < 0.8 ? "ds-a" : "ds-b";
    const task = `task-${t}`;
    const revision = Math.floor(rnd() * 4);
    const validity = pick(VALIDITIES);
    const cluster = rnd() < 0.7 ? `repo-${Math.floor(rnd() * 20)}` : undefined;
    const benchmark = pick([undefined, undefined, "default", "swe", "canary"]);
    const pool = [`fixture-${t}.log`, `review-${t}.json`, "shared.md"];
    const rawTask: object[] = [];
    const aggTask: object[] = [];
    for (const model of MODELS) {
      if (rnd() < 0.15) continue;
      const harnesses = rnd() < 0.1 ? ["h1", "h2"] : [pick(["h1", "h2"])];
      for (const harness of harnesses) {
        const k = 1 + Math.floor(rnd() * 5);
        const tally: AttemptCounts = { pass: 0, fail: 0, infra_error: 0, missing: 0 };
        const sums: Record<string, number> = {};
        const carried: Record<string, number> = {};
        const evidence: string[] = [];
        const attemptStyle = pick(["int", "string", "none"]);
        for (let a = 0; a < k; a++) {
          const x = rnd();
          const result = x < 0.45 ? "pass" : x < 0.85 ? "fail" : x < 0.95 ? "infra_error" : "missing";
          tally[result]++;
          const ev = rnd() < 0.5 ? pick(pool) : undefined;
          if (ev !== undefined && !evidence.includes(ev)) evidence.push(ev);
          const r: Record<string, unknown> = {
            task_id: task,
            dataset_revision: dataset,
            harness_revision: harness,
            model_config: model,
            validity,
            result,
            review_revision: revision,
          };
          if (attemptStyle === "int") r["attempt"] = a;
          if (attemptStyle === "string") r["attempt"] = `epoch-${a}`;
          if (ev !== undefined) r["evidence"] = rnd() < 0.5 ? ev : [ev];
          if (cluster !== undefined && rnd() < 0.6) r["cluster"] = cluster;
          if (benchmark !== undefined) r["benchmark"] = benchmark;
          const metrics = attemptMetrics();
          if (metrics !== undefined) r["metrics"] = metrics;
          for (const [name, v] of Object.entries(metrics ?? {})) {
            if (v === null) continue;
            sums[name] = (sums[name] ?? 0) + v;
            carried[name] = (carried[name] ?? 0) + 1;
          }
          rawTask.push(r);
        }
        const g: Record<string, unknown> = {
          task_id: task,
          dataset_revision: dataset,
          harness_revision: harness,
          model_config: model,
          validity,
          review_revision: revision,
          passes: tally.pass,
          fails: tally.fail,
          infra_errors: tally.infra_error,
          missing: tally.missing,
        };
        if (evidence.length > 0) g["evidence"] = evidence;
        if (cluster !== undefined) g["cluster"] = cluster;
        if (benchmark !== undefined) g["benchmark"] = benchmark;
        if (Object.keys(sums).length > 0 || rnd() < 0.2) {
          // As the warehouse SQL writes them: every metric of the export, null where none counts.
          const sum: Record<string, number | null> = {};
          const n: Record<string, number | null> = {};
          for (const name of METRICS) {
            const none = rnd() < 0.5 ? null : 0;
            sum[name] = sums[name] ?? none;
            n[name] = carried[name] ?? none;
          }
          g["metrics_sum"] = sum;
          g["metrics_n"] = n;
        }
        aggTask.push(g);
        const key = `${model}|${dataset}|${task}`;
        const sum = counts.get(key) ?? { pass: 0, fail: 0, infra_error: 0, missing: 0 };
        for (const r of RESULTS) sum[r] += tally[r];
        counts.set(key, sum);
      }
    }
    // A cluster only on rows that were dropped would differ: give it on the first row too.
    if (cluster !== undefined && rawTask.length > 0)
      (rawTask[0] as Record<string, unknown>)["cluster"] = cluster;
    groupsRaw.push(rawTask);
    groupsAgg.push(aggTask);
    if (rnd() < 0.3) {
      reviews.push({
        task_id: task,
        dataset_revision: dataset,
        validity: pick(VALIDITIES),
        review_revision: revision + 1 + Math.floor(rnd() * 2),
        reviewer: "rev",
        evidence: [`https://reviews/${t}`],
      });
    }
    if (revision > 0 && rnd() < 0.2) {
      reviews.push({ task_id: task, dataset_revision: dataset, validity: "broken", review_revision: 0 });
    }
  }
  // Task order differs between the two exports; rows of one task keep their order.
  const order = shuffle(groupsRaw.map((_, i) => i));
  const raw = order.flatMap((i) => groupsRaw[i] ?? []);
  const aggregated = shuffle(groupsAgg.slice()).flat();
  return { raw, aggregated, reviews, counts };
}

/** Drops what may differ: digests, rowsRead, and the export lines of history events. */
function comparable(d: Dataset): object {
  return {
    ...d,
    inputs: d.inputs.length,
    rowsRead: 0,
    tasks: tableRecords(d.tasks).map((t) => ({
      ...t,
      history: t.history.map((e) =>
        e.source.file === "reviews.jsonl" ? e : { ...e, source: { file: "export", line: 0 } },
      ),
    })),
  };
}

describe("pre-aggregated export ≡ per-attempt export", () => {
  it.each([1, 2, 3, 20260101])("seed %i", async (seed) => {
    const g = generate(seed, 400);
    const raw = await fx.jsonl(`raw-${seed}.jsonl`, g.raw);
    const agg = await fx.jsonlGz(`agg-${seed}.jsonl.gz`, g.aggregated);
    const reviews = await fx.jsonl("reviews.jsonl", g.reviews);
    const opts = { reviews: [reviews], baseline: "base", candidate: "cand", displayPath: basename };
    const fromRaw = await readDataset({ ...opts, results: [raw] });
    const fromAgg = await readDataset({ ...opts, results: [agg] });

    expect(comparable(fromAgg)).toEqual(comparable(fromRaw));
    expect(fromRaw.rowsRead).toBe(g.raw.length + g.reviews.length);
    expect(fromAgg.rowsRead).toBe(g.aggregated.length + g.reviews.length);
    expect(fromAgg.rowsRead).toBeLessThan(fromRaw.rowsRead);

    // Both match the generator's own tally.
    for (const t of tableRecords(fromRaw.tasks)) {
      expect(t.baseline).toEqual(g.counts.get(`base|${t.datasetRevision}|${t.taskId}`));
      expect(t.candidate).toEqual(g.counts.get(`cand|${t.datasetRevision}|${t.taskId}`));
    }
    const universe = new Set(
      [...g.counts.keys()].filter((k) => !k.startsWith("other|")).map((k) => k.slice(k.indexOf("|") + 1)),
    );
    expect(fromRaw.tasks.length).toBe(universe.size);
    expect(fromRaw.modelsPresent).toEqual(["base", "cand", "other"]);
    expect(fromRaw.baseline.duplicateRows).toBe(0);
    // What the comparison covered: metrics on both models, several benchmarks.
    expect(fromRaw.metrics?.names).toEqual(METRICS);
    expect(fromRaw.benchmarks).toEqual(["canary", "default", "swe"]);
  });
});

describe("counts past 2^32 (the builder's count columns start at 4 bytes a task)", () => {
  const row = (
    task: string,
    model: string,
    counts: Partial<Record<"passes" | "fails" | "infra_errors" | "missing", number>>,
  ): object => ({
    task_id: task,
    dataset_revision: "ds",
    harness_revision: "h1",
    model_config: model,
    validity: "valid",
    review_revision: 1,
    passes: 0,
    fails: 0,
    infra_errors: 0,
    missing: 0,
    ...counts,
  });

  it("are held exactly: small ones first, then one past 2^32, then a row adding to it, in both models", async () => {
    const big = 2 ** 32 + 5;
    // (A model's attempts must add up to a safe integer: 2^52 and a few 2^32 do.)
    const huge = 2 ** 52 + 3;
    const rows = [
      row("t1", "base", { passes: 3, fails: 1 }),
      row("t1", "cand", { passes: 2 }),
      row("t2", "base", { passes: big }),
      // Pre-aggregated rows of two harness revisions of one task add up.
      { ...row("t2", "base", { passes: 1 }), harness_revision: "h2" },
      row("t2", "cand", { fails: huge, missing: 2 ** 32 - 1 }),
      row("t3", "cand", { infra_errors: 2 ** 32 - 1 }),
      row("t3", "base", { missing: 1 }),
    ].map((r) => JSON.parse(JSON.stringify(r)) as object);
    const results = await fx.jsonl("big-counts.jsonl", rows);
    const d = await readDataset({ results: [results], reviews: [], baseline: "base", candidate: "cand" });
    const byId = new Map(tableRecords(d.tasks).map((t) => [t.taskId, t]));
    expect(byId.get("t1")?.baseline).toEqual({ pass: 3, fail: 1, infra_error: 0, missing: 0 });
    expect(byId.get("t2")?.baseline).toEqual({ pass: big + 1, fail: 0, infra_error: 0, missing: 0 });
    expect(byId.get("t2")?.candidate).toEqual({ pass: 0, fail: huge, infra_error: 0, missing: 2 ** 32 - 1 });
    expect(byId.get("t3")?.candidate).toEqual({ pass: 0, fail: 0, infra_error: 2 ** 32 - 1, missing: 0 });
    expect(byId.get("t1")?.candidate).toEqual({ pass: 2, fail: 0, infra_error: 0, missing: 0 });
  });
});
