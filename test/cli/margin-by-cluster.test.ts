/**
 * The CLI prints where the margin comes from for any pair of model configs in an export: the
 * shipped example holds three, and each pair gets its own split (SPEC §3.6).
 */
import { describe, expect, it } from "vitest";
import type { Report } from "../../src/core/report/report-types.js";
import { cliInProcess } from "../helpers/run-cli.js";

const PAIRS = [
  ["cfg-baseline", "cfg-candidate"],
  ["cfg-2026-10-30-nightly", "cfg-candidate"],
  ["cfg-candidate", "cfg-2026-10-30-nightly"],
] as const;

function args(baseline: string, candidate: string, format: string): string[] {
  return [
    "evaluate",
    "--results",
    "examples/results.jsonl.gz",
    "--reviews",
    "examples/reviews.jsonl",
    "--policy",
    "policy.example.yaml",
    "--baseline",
    baseline,
    "--candidate",
    candidate,
    "--today",
    "2026-11-29",
    "--format",
    format,
  ];
}

describe("model-gate evaluate: where the margin comes from, for any pair", () => {
  it("splits each pair's margin by cluster in the JSON and prints it as text", async () => {
    const splits: string[] = [];
    for (const [baseline, candidate] of PAIRS) {
      const json = await cliInProcess(args(baseline, candidate, "json"));
      expect(json.stderr).toBe("");
      const report = JSON.parse(json.stdout) as Report;
      const m = report.margin_by_cluster;
      expect(m).not.toBe(null);
      const sum = (m?.rows ?? []).reduce((s, r) => s + r.contribution, 0);
      expect(Math.abs(sum - (report.comparison.margin ?? NaN))).toBeLessThanOrEqual(1e-12);
      splits.push(JSON.stringify(m));
      const text = await cliInProcess(args(baseline, candidate, "text"));
      expect(text.stdout).toContain(`Where the margin comes from: ${m?.clusters ?? 0} clusters`);
    }
    // Swapping the pair negates every margin and contribution and keeps the shares.
    const [, forward, backward] = splits.map((s) => JSON.parse(s) as Report["margin_by_cluster"]);
    for (const row of forward?.rows ?? []) {
      const other = backward?.rows.find((r) => r.cluster === row.cluster);
      expect(other?.contribution).toBeCloseTo(-row.contribution, 12);
      expect(other?.tasks).toBe(row.tasks);
    }
    expect(new Set(splits).size).toBe(PAIRS.length);
  });
});
