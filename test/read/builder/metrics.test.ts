/**
 * The compared models' metrics on the Dataset (docs/spec.md §1.1 `metrics`): per (model, task) and
 * metric, the sum over the attempts that carry it and how many do, in the table's order; the
 * metric names sorted; nothing at all for an export without metrics. Duplicate rows of an attempt
 * count its metrics once and must repeat them; the rank's one-pass read holds each ranked model's.
 */
import { basename } from "node:path";

import { describe, expect, it } from "vitest";

import type { Dataset, MetricColumn } from "../../../src/core/model.js";
import { readDataset, readRanked } from "../../../src/read/read-dataset.js";
import { prng } from "../../helpers/prng.js";
import { fixtures, inputError, readNamed, row } from "../fixtures.js";

const fx = fixtures("metrics");

/** The figures of task `taskId` in a column, as [sum, count]. */
function at(d: Dataset, column: MetricColumn | undefined, taskId: string): [number, number] | undefined {
  if (column === undefined) return undefined;
  for (let i = 0; i < d.tasks.length; i++) {
    if (d.tasks.taskId(i) === taskId) return [column.sum[i] ?? NaN, column.count[i] ?? NaN];
  }
  throw new Error(`no task ${taskId}`);
}

describe("the Dataset's metrics", () => {
  it("sums each model's attempts that carry a metric, by task; infra errors and missing attempts count", async () => {
    const results = await fx.jsonl("sums.jsonl", [
      row({ attempt: 1, metrics: { cost_usd: 0.25, latency_s: 10 } }),
      row({ attempt: 2, result: "fail", metrics: { cost_usd: 0.5 } }),
      row({ attempt: 3, result: "infra_error", metrics: { cost_usd: 1 } }),
      row({ attempt: 4, result: "missing", metrics: { latency_s: 2, tokens_out: null } }),
      row({ attempt: 5 }),
      row({ task_id: "t2", metrics: null }),
      row({ model_config: "cand", metrics: { cost_usd: 0.125 } }),
      row({ model_config: "cand", task_id: "t2", metrics: {} }),
      // Another model's metrics are checked but not held.
      row({ model_config: "other", metrics: { zeta: 1 } }),
    ]);
    const d = await readNamed([results]);
    const m = d.metrics;
    expect(m?.names).toEqual(["cost_usd", "latency_s"]);
    expect(at(d, m?.baseline[0], "t1")).toEqual([1.75, 3]);
    expect(at(d, m?.baseline[1], "t1")).toEqual([12, 2]);
    expect(at(d, m?.baseline[0], "t2")).toEqual([0, 0]);
    expect(at(d, m?.candidate[0], "t1")).toEqual([0.125, 1]);
    expect(at(d, m?.candidate[0], "t2")).toEqual([0, 0]);
    // The candidate carries no latency at all.
    expect(m?.candidate[1]).toBeUndefined();
    expect(m?.baseline[0]?.sum).toBeInstanceOf(Float64Array);
    expect(m?.baseline[0]?.count.length).toBe(d.tasks.length);
  });

  it("is absent when no attempt of the compared models carries a metric", async () => {
    const results = await fx.jsonl("none.jsonl", [
      row(),
      row({ model_config: "cand", metrics: {} }),
      row({ model_config: "other", metrics: { cost_usd: 1 } }),
    ]);
    const d = await readNamed([results]);
    expect(d.metrics).toBeUndefined();
    expect("metrics" in d).toBe(false);
  });

  it("is the same exact sum in any row order (the sums are exact, rounded once)", async () => {
    const rand = prng(42);
    const rows = Array.from({ length: 60 }, (_, k) =>
      row({
        task_id: `t${k % 3}`,
        model_config: k % 2 === 0 ? "base" : "cand",
        attempt: k,
        metrics: { cost_usd: Number((rand() * 3).toFixed(4)), tiny: rand() * 1e-12, huge: rand() * 1e12 },
      }),
    );
    const reads: Dataset[] = [];
    for (const [k, order] of [rows, [...rows].reverse(), [...rows].sort(() => rand() - 0.5)].entries()) {
      reads.push(await readNamed([await fx.jsonl(`order-${k}.jsonl`, order)]));
    }
    const [first, ...others] = reads;
    for (const d of others) expect(d.metrics).toEqual(first?.metrics);
  });
});

describe("duplicate rows of an attempt", () => {
  it("count the attempt's metrics once when they repeat them (in any key order)", async () => {
    const results = await fx.jsonl("dup-same.jsonl", [
      row({ attempt: 1, metrics: { cost_usd: 0.5, tokens_in: 10 } }),
      row({ attempt: 1, metrics: { tokens_in: 10, cost_usd: 0.5 } }),
      row({ attempt: "a", metrics: { cost_usd: 1 } }),
      row({ attempt: "a", metrics: { cost_usd: 1 } }),
      row({ attempt: 2 }),
      row({ attempt: 2, metrics: null }),
      row({ model_config: "cand" }),
    ]);
    const d = await readNamed([results]);
    expect(d.baseline.duplicateRows).toBe(3);
    expect(at(d, d.metrics?.baseline[0], "t1")).toEqual([1.5, 2]);
    expect(at(d, d.metrics?.baseline[1], "t1")).toEqual([10, 1]);
  });

  it.each([
    ["other values", { cost_usd: 0.5 }, { cost_usd: 0.6 }, "other metrics there than here"],
    ["another name", { cost_usd: 0.5 }, { cost: 0.5 }, "other metrics there than here"],
    ["one more", { cost_usd: 0.5 }, { cost_usd: 0.5, tokens_in: 1 }, "other metrics there than here"],
    ["none there", undefined, { cost_usd: 0.5 }, "no metrics there and metrics here"],
    ["none here", { cost_usd: 0.5 }, undefined, "metrics there and none here"],
  ])("with %s are a conflict naming both places", async (_name, first, second, words) => {
    // The attempt held inline (the model's first row on the task) or past it, by integer or string id.
    for (const inline of [true, false]) {
      for (const attempt of [1, 7, "epoch-2"]) {
        const file = `dup-${inline}-${String(attempt)}-${words.length}-${Object.keys(second ?? {}).join("")}.jsonl`;
        const before = inline ? [] : [row({ attempt: 0 })];
        const results = await fx.jsonl(file, [
          ...before,
          row({ attempt, metrics: first }),
          row({ model_config: "cand" }),
          row({ attempt, metrics: second }),
        ]);
        const err = await inputError(readNamed([results]));
        const shown = typeof attempt === "number" ? String(attempt) : `"${attempt}"`;
        expect(err.message).toBe(
          `The results/reviews input has 1 problem:\n  ${file}:${before.length + 3}: field "metrics": conflicts ` +
            `with ${file}:${before.length + 1}: the same attempt (model_config "base", task "t1", dataset_revision ` +
            `"ds1", harness_revision "h1", attempt ${shown}) carries ${words}; a repeated attempt must repeat its metrics`,
        );
      }
    }
  });

  it("of another harness revision are their own attempts", async () => {
    const results = await fx.jsonl("dup-harness.jsonl", [
      row({ attempt: 1, metrics: { cost_usd: 1 } }),
      row({ attempt: 1, harness_revision: "h2", metrics: { cost_usd: 2 } }),
      row({ attempt: 1, harness_revision: "h2", metrics: { cost_usd: 2 } }),
      row({ model_config: "cand" }),
    ]);
    const d = await readNamed([results]);
    expect(at(d, d.metrics?.baseline[0], "t1")).toEqual([3, 2]);
    expect(d.baseline.duplicateRows).toBe(1);
  });
});

describe("pre-aggregated metrics", () => {
  it("count as the attempts they sum (a metric with 0 attempts adds nothing)", async () => {
    const raw = await fx.jsonl("agg-raw.jsonl", [
      row({ attempt: 1, metrics: { cost_usd: 0.1, tokens_in: 5 } }),
      row({ attempt: 2, result: "fail", metrics: { cost_usd: 0.2 } }),
      row({ attempt: 3, result: "infra_error", metrics: { cost_usd: 0.3, tokens_in: 7 } }),
      row({ attempt: 4, result: "missing" }),
      row({ model_config: "cand", metrics: { latency_s: 3 } }),
    ]);
    const counts = { result: undefined, passes: 1, fails: 1, infra_errors: 1, missing: 1 };
    const agg = await fx.jsonl("agg.jsonl", [
      row({
        ...counts,
        metrics_sum: { cost_usd: 0.6, tokens_in: 12, latency_s: 0 },
        metrics_n: { cost_usd: 3, tokens_in: 2, latency_s: 0 },
      }),
      row({
        model_config: "cand",
        result: undefined,
        passes: 1,
        fails: 0,
        infra_errors: 0,
        missing: 0,
        metrics_sum: { latency_s: 3, cost_usd: null },
        metrics_n: { latency_s: 1, cost_usd: null },
      }),
    ]);
    const [fromRaw, fromAgg] = [await readNamed([raw]), await readNamed([agg])];
    expect(fromAgg.metrics).toEqual(fromRaw.metrics);
    expect(fromRaw.metrics?.names).toEqual(["cost_usd", "latency_s", "tokens_in"]);
    // The exact sum of 0.1, 0.2 and 0.3 rounds to 0.6; adding them in order gives 0.6000000000000001.
    expect(at(fromRaw, fromRaw.metrics?.baseline[0], "t1")).toEqual([0.6, 3]);
  });

  it("of several harness revisions of one task add up", async () => {
    const agg = (harness: string, sum: number, n: number): Record<string, unknown> =>
      row({
        harness_revision: harness,
        result: undefined,
        passes: n,
        fails: 0,
        infra_errors: 0,
        missing: 0,
        metrics_sum: { cost_usd: sum },
        metrics_n: { cost_usd: n },
      });
    const results = await fx.jsonl("agg-harness.jsonl", [
      agg("h1", 1.5, 2),
      agg("h2", 4, 3),
      row({ model_config: "cand" }),
    ]);
    const d = await readNamed([results]);
    expect(at(d, d.metrics?.baseline[0], "t1")).toEqual([5.5, 5]);
  });
});

describe("the rank's one-pass read", () => {
  it("holds each ranked model's metrics, aligned with its models", async () => {
    const results = await fx.jsonl("ranked.jsonl", [
      row({ model_config: "m1", metrics: { cost_usd: 1 } }),
      row({ model_config: "m2", metrics: { cost_usd: 2, latency_s: 4 } }),
      row({ model_config: "m3" }),
      row({ model_config: "m2", task_id: "t2", metrics: { cost_usd: 3 } }),
    ]);
    const read = await readRanked(
      {
        results: [results],
        reviews: [],
        baseline: "\u0000a",
        candidate: "\u0000b",
        displayPath: basename,
      },
      null,
    );
    expect(read.models).toEqual(["m1", "m2", "m3"]);
    expect(read.metrics?.names).toEqual(["cost_usd", "latency_s"]);
    const column = (k: number, j: number): MetricColumn | undefined => read.metrics?.byModel[k]?.[j];
    expect([...(column(1, 0)?.sum ?? [])]).toEqual([2, 3]);
    expect([...(column(1, 0)?.count ?? [])]).toEqual([1, 1]);
    expect([...(column(0, 0)?.sum ?? [])]).toEqual([1, 0]);
    expect(column(0, 1)).toBeUndefined();
    expect(column(2, 0)).toBeUndefined();
    expect(read.dataset.metrics).toBeUndefined();
  });

  it("has no metrics when no ranked model carries one", async () => {
    const results = await fx.jsonl("ranked-none.jsonl", [
      row({ model_config: "m1" }),
      row({ model_config: "m2" }),
    ]);
    const read = await readRanked(
      { results: [results], reviews: [], baseline: "\u0000a", candidate: "\u0000b" },
      ["m1", "m2"],
    );
    expect(read.metrics).toBeUndefined();
  });
});

describe("caps", () => {
  it("more distinct metric names than the cap is an input error naming the line", async () => {
    const rows = Array.from({ length: 257 }, (_, k) => row({ attempt: k, metrics: { [`m${k}`]: 1 } }));
    const results = await fx.jsonl("many-names.jsonl", [row({ model_config: "cand" }), ...rows]);
    const err = await inputError(
      readDataset({
        results: [results],
        reviews: [],
        baseline: "base",
        candidate: "cand",
        displayPath: basename,
      }),
    );
    expect(err.message).toContain(
      `many-names.jsonl:258: the compared models' attempts carry more than 256 distinct metric names (the limit, which bounds the memory a metric adds); the next is "m256"; the rest of the input is not read`,
    );
  });

  it("a sum past the largest double is an input error naming the field", async () => {
    const results = await fx.jsonl("huge.jsonl", [
      row({ attempt: 1, metrics: { cost: 1.7e308 } }),
      row({ attempt: 2, metrics: { cost: 1.7e308 } }),
      row({ model_config: "cand" }),
    ]);
    const err = await inputError(readNamed([results]));
    expect(err.message).toContain(
      `huge.jsonl:2: field "metrics.cost": the sum of cost over the model's attempts on this task passes the largest number held (about 1.8e308)`,
    );
  });
});
