// scripts/generate-export.mjs's --metrics and --benchmark: they add only their fields, the
// per-attempt and the --aggregated outputs read to the same metric sums and counts, and those
// equal the sums of the attempts' own values. (The warehouse test runs the generator too; the
// examples and the rank's one-pass read use it without these flags.)
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { tableRecords } from "../../src/core/model.js";
import { readDataset } from "../../src/read/read-dataset.js";

const root = join(import.meta.dirname, "..", "..");
const METRICS = ["cost_usd", "latency_s", "tokens_in", "tokens_out"];
const BASE = ["--seed", "77", "--tasks", "120", "--attempts", "1-4", "--missing-rate", "0.05", "--clusters"];

type Row = Record<string, unknown>;

let dir = "";

function run(args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, ["scripts/generate-export.mjs", "--quiet", ...args], {
    cwd: root,
    encoding: "utf8",
  });
  return { status: r.status, stderr: r.stderr };
}

/** Generates into dir/name and returns its rows. */
function generated(name: string, args: string[]): Row[] {
  const out = join(dir, name);
  expect(run([...BASE, ...args, "--out", out])).toEqual({ status: 0, stderr: "" });
  return readFileSync(out, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Row);
}

function without(rows: Row[], ...fields: string[]): Row[] {
  return rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !fields.includes(k))));
}

const keyOf = (r: Row) => [r["model_config"], r["task_id"], r["harness_revision"]].map(String).join("|");

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gate-generator-"));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("generate-export --metrics / --benchmark", () => {
  it("add only their own fields: the rest of every row is what the generator writes without them", () => {
    for (const aggregated of [[], ["--aggregated"]]) {
      const plain = generated("plain.jsonl", aggregated);
      const flagged = generated("flagged.jsonl", [...aggregated, "--metrics", "--benchmark", "swe-verified"]);
      expect(plain.some((r) => "metrics" in r || "metrics_sum" in r || "benchmark" in r)).toBe(false);
      expect(flagged.every((r) => r["benchmark"] === "swe-verified")).toBe(true);
      const added = aggregated.length === 0 ? ["metrics"] : ["metrics_sum", "metrics_n"];
      expect(flagged.every((r) => added.every((f) => f in r))).toBe(true);
      expect(without(flagged, "benchmark", ...added)).toEqual(plain);
    }
  });

  it("writes metric sums and counts that are the sums and counts of the attempts' metrics", () => {
    const attempts = generated("attempts.jsonl", ["--metrics"]);
    const groups = generated("groups.jsonl", ["--metrics", "--aggregated"]);
    const expected = new Map<string, { sum: Record<string, number>; n: Record<string, number> }>();
    let lacking = 0;
    for (const r of attempts) {
      const m = r["metrics"] as Record<string, number>;
      if (r["result"] === "missing") expect(m).toEqual({});
      else if (Object.keys(m).length < METRICS.length) lacking += 1;
      const g = expected.get(keyOf(r)) ?? { sum: {}, n: {} };
      for (const [name, v] of Object.entries(m)) {
        expect(METRICS).toContain(name);
        expect(v).toBeGreaterThanOrEqual(0);
        g.sum[name] = (g.sum[name] ?? 0) + v;
        g.n[name] = (g.n[name] ?? 0) + 1;
      }
      expected.set(keyOf(r), g);
    }
    // A few attempts lack some metric; missing attempts carry none (checked above).
    expect(lacking).toBeGreaterThan(5);
    expect(attempts.filter((r) => r["result"] === "missing").length).toBeGreaterThan(5);
    expect(groups.length).toBe(expected.size);
    for (const row of groups) {
      const g = expected.get(keyOf(row));
      const nulls = Object.fromEntries(METRICS.map((m) => [m, null]));
      expect(row["metrics_sum"]).toEqual({ ...nulls, ...g?.sum });
      expect(row["metrics_n"]).toEqual({ ...nulls, ...g?.n });
    }
  });

  it("reads per attempt and aggregated to the same metric columns and benchmark", async () => {
    const args = ["--metrics", "--benchmark", "private-canary", "--models", "base,cand"];
    generated("a.jsonl", args);
    generated("g.jsonl", [...args, "--aggregated"]);
    const read = (file: string) =>
      readDataset({
        results: [join(dir, file)],
        reviews: [],
        baseline: "base",
        candidate: "cand",
        displayPath: basename,
      });
    const [a, g] = await Promise.all([read("a.jsonl"), read("g.jsonl")]);
    expect(g.metrics).toEqual(a.metrics);
    expect(a.metrics?.names).toEqual(METRICS);
    expect(a.benchmarks).toEqual(["private-canary"]);
    expect(g.benchmarks).toEqual(["private-canary"]);
    expect(tableRecords(g.tasks).map((t) => [t.baseline, t.candidate])).toEqual(
      tableRecords(a.tasks).map((t) => [t.baseline, t.candidate]),
    );
    // The sums are not all zero: the mean cost of a task is a few cents to a few dollars.
    const cost = a.metrics?.baseline[0];
    const total = cost?.sum.reduce((s, x) => s + x, 0) ?? 0;
    const carried = cost?.count.reduce((s, x) => s + x, 0) ?? 0;
    expect(total / carried).toBeGreaterThan(0.05);
    expect(total / carried).toBeLessThan(5);
  });

  it("refuses an empty --benchmark", () => {
    const r = run([...BASE, "--benchmark", "", "--out", join(dir, "x.jsonl")]);
    expect(r).toEqual({ status: 2, stderr: "generate-export: --benchmark needs a name\n" });
  });
});
