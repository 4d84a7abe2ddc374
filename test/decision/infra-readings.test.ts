/**
 * The three readings of the infra errors (docs/spec.md §3.8): SPEC §6 example 7 exactly (each
 * reading's figures and verdict, bound's G, SE_max and q_max, the headline, the brute force), the
 * JSON key always present, and the public Terminal-Bench runs of one agent with two models
 * (test/decision/fixtures/PROVENANCE.md) read three ways.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluate } from "../../src/core/decision/evaluate.js";
import { analyseMargin } from "../../src/core/stats/margin.js";
import type { InfraReading } from "../../src/core/verdict-types.js";
import { pairedStandardError } from "../../src/core/stats/standard-error.js";
import { quantileFunction } from "../../src/core/stats/quantile.js";
import { buildDataset, buildPolicy, repeat, type TaskSpec } from "../stats/dataset-builder.js";
import { cliInProcess } from "../helpers/run-cli.js";
import { tempDir, writePolicy } from "../helpers/export-writer.js";

const ctx = { canary: null, expired: false } as const;

/** SPEC §6 example 7: candidate a, baseline b (p, f, i: passes, fails, infra errors). */
const EXAMPLE_7: TaskSpec[] = [
  ...repeat(3, { validity: "valid", a: { pass: 1 }, b: { pass: 1 } }),
  ...repeat(3, { validity: "valid", a: { pass: 1 }, b: { fail: 1 } }),
  ...repeat(4, { validity: "valid", a: { fail: 1 }, b: { fail: 1 } }),
  { id: "t11", validity: "valid", a: { pass: 1, infra: 1 }, b: { pass: 1, fail: 1 } },
  { id: "t12", validity: "valid", a: { infra: 1 }, b: { fail: 1 } },
  { id: "t13", validity: "valid", a: { pass: 1 }, b: { infra: 1 } },
  { id: "t14", validity: "disputed", a: { pass: 1 }, b: { fail: 1 } },
  { id: "t15", validity: "disputed", a: { fail: 1 }, b: { infra: 1 } },
];

const POLICY_7 = {
  common_valid_tasks: ">= 10",
  infra_error_rate: "< 20%",
  disputed_fraction: "< 20%",
} as const;

/** Each reading's figures, 6 decimals: |C|, N_v, Δ̂, Δ_L, Δ_H, LCB, UCB, verdict. */
const EXPECTED_7: Record<string, [number, number, number | null, number, number, number, number, string]> = {
  exclude: [12, 11, 0.318182, 0.318182, 0.375, 0.065595, 0.625221, "accept"],
  count_as_fail: [15, 13, 0.307692, 0.285714, 0.357143, 0.063827, 0.59249, "accept"],
  bound: [15, 13, null, 0.142857, 0.464286, -0.156116, 0.763259, "unresolved"],
};

function expectReading(r: InfraReading, want: (typeof EXPECTED_7)[string]): void {
  const [common, valid, margin, low, high, lcb, ucb, verdict] = want;
  expect(r.common_tasks).toBe(common);
  expect(r.common_valid_tasks).toBe(valid);
  if (margin === null) expect(r.margin).toBeNull();
  else expect(r.margin as number).toBeCloseTo(margin, 6);
  expect(r.margin_low as number).toBeCloseTo(low, 6);
  expect(r.margin_high as number).toBeCloseTo(high, 6);
  expect(r.lcb as number).toBeCloseTo(lcb, 6);
  expect(r.ucb as number).toBeCloseTo(ucb, 6);
  expect(r.verdict).toBe(verdict);
}

describe("SPEC §6 example 7: lost results, three readings", () => {
  for (const mode of ["exclude", "count_as_fail", "bound"] as const) {
    it(`gives the table's three readings whatever the policy's mode (${mode}), which decides`, () => {
      const e = evaluate(buildDataset(EXAMPLE_7), buildPolicy({ ...POLICY_7, infra_errors: mode }), ctx);
      for (const [m, want] of Object.entries(EXPECTED_7)) {
        expectReading(e.infra_readings[m as keyof typeof e.infra_readings], want);
      }
      // The policy's reading is the report's own comparison and verdict.
      const own = e.infra_readings[mode];
      expect(own.verdict).toBe(e.verdict);
      expect(own.lcb).toBe(e.comparison.lcb);
      expect(own.margin).toBe(e.comparison.margin);
      // The verdicts differ: one headline says so, naming each.
      const headline = e.warnings.filter((w) =>
        w.startsWith("The verdict depends on how lost tasks are counted"),
      );
      expect(headline).toEqual([
        `The verdict depends on how lost tasks are counted: dropped (exclude) accept, lost as fails (count_as_fail) accept, bounded (bound) unresolved; the policy's infra_errors: ${mode} decides.`,
      ]);
    });
  }

  it("bound: Δ̂ in [3/13, 5.5/13], conservative bounds from G(c_hi) = 0.028139, SE_max 0.167747, q_max 1.782288", () => {
    const a = analyseMargin(buildDataset(EXAMPLE_7), { infra: "bound", margin: buildPolicy().margin });
    expect(a.margin).toBeNull();
    expect(a.observedLow as number).toBeCloseTo(3 / 13, 12);
    expect(a.observedHigh as number).toBeCloseTo(5.5 / 13, 12);
    expect(a.marginLower as number).toBeCloseTo(2 / 14, 12);
    expect(a.marginUpper as number).toBeCloseTo(6.5 / 14, 12);
    expect(a.lcbKind).toBe("conservative");
    expect(a.ucbKind).toBe("conservative");
    expect((a.seLower as number) ** 2).toBeCloseTo(0.028139, 6);
    expect(a.seLower as number).toBeCloseTo(0.167747, 6);
    expect(a.qLower as number).toBeCloseTo(1.782288, 6);
    expect(a.lostValidTasks).toBe(3);
  });

  it("the brute force over the 2 × 2 × 2 × 4 resolutions and the 4 subsets of U: extremes −0.110133 and 0.700286", () => {
    const q = quantileFunction(buildPolicy().margin);
    // d of the 10 plain valid tasks, then each lost task's possible d (t11 … t13 valid; t14, t15 open).
    const fixed = [0, 0, 0, 1, 1, 1, 0, 0, 0, 0];
    const t11 = [0, 0.5];
    const t12 = [0, 1];
    const t13 = [0, 1];
    const t14 = [1];
    const t15 = [-1, 0];
    let lo = Infinity;
    let hi = -Infinity;
    for (const x of t11)
      for (const y of t12)
        for (const z of t13)
          for (const openSet of [[], [t14], [t15], [t14, t15]] as number[][][])
            for (const open of openSet.length === 0 ? [[]] : product(openSet)) {
              const ds = [...fixed, x, y, z, ...open];
              const mean = ds.reduce((s, d) => s + d, 0) / ds.length;
              const spread = q(ds.length - 1) * (pairedStandardError(ds) as number);
              lo = Math.min(lo, mean - spread);
              hi = Math.max(hi, mean + spread);
            }
    expect(lo).toBeCloseTo(-0.110133, 6);
    expect(hi).toBeCloseTo(0.700286, 6);
    const e = evaluate(buildDataset(EXAMPLE_7), buildPolicy({ ...POLICY_7, infra_errors: "bound" }), ctx);
    expect(e.comparison.lcb as number).toBeLessThanOrEqual(lo);
    expect(e.comparison.ucb as number).toBeGreaterThanOrEqual(hi);
    // count_as_fail's [LCB, UCB] lies inside bound's.
    const caf = e.infra_readings.count_as_fail;
    expect(e.comparison.lcb as number).toBeLessThanOrEqual(caf.lcb as number);
    expect(e.comparison.ucb as number).toBeGreaterThanOrEqual(caf.ucb as number);
  });
});

/** Every choice of one value from each list. */
function product(lists: readonly number[][]): number[][] {
  return lists.reduce<number[][]>((acc, list) => acc.flatMap((xs) => list.map((x) => [...xs, x])), [[]]);
}

describe("infra_readings is always present", () => {
  it("has exactly the issue's keys, and without infra errors the three readings are the policy's one", () => {
    const clean = EXAMPLE_7.filter((t) => t.id === undefined);
    for (const mode of ["exclude", "count_as_fail", "bound"] as const) {
      const e = evaluate(buildDataset(clean), buildPolicy({ ...POLICY_7, infra_errors: mode }), ctx);
      expect(Object.keys(e.infra_readings)).toEqual(["exclude", "count_as_fail", "bound"]);
      const { exclude, count_as_fail, bound } = e.infra_readings;
      for (const r of [exclude, count_as_fail, bound]) {
        expect(Object.keys(r)).toEqual([
          "common_tasks",
          "common_valid_tasks",
          "margin",
          "margin_low",
          "margin_high",
          "lcb",
          "ucb",
          "verdict",
        ]);
        expect(r).toEqual(e.infra_readings.exclude);
      }
      expect(e.infra_readings.bound.margin).toBeCloseTo(0.3, 12);
      expect(e.warnings.some((w) => w.includes("lost tasks are counted"))).toBe(false);
    }
  });
});

const FIXTURES = join(import.meta.dirname, "fixtures");

describe("Terminal-Bench, one agent with two models (80 tasks × 5 trials, 29 and 18 trials lost)", () => {
  it("reads +2.13 pp (LCB −2.33 pp) dropped, +3.75 pp (LCB −0.36 pp) lost as fails, and a wider range bounded", async () => {
    const dir = tempDir("tb-readings-");
    const policy = writePolicy(
      dir,
      [
        'owner: "@acme/eval-owners"',
        "revisit: 2027-03-31",
        "infra_errors: bound",
        "accept_if:",
        '  common_valid_tasks: ">= 50"',
        '  infra_error_rate: "< 20%"',
        '  disputed_fraction: "< 5%"',
        '  observed_margin: "> validity_sensitivity + run_variance"',
        "",
      ].join("\n"),
    );
    const run = await cliInProcess([
      "evaluate",
      "--results",
      join(FIXTURES, "terminal-bench-claude-4-sonnet.jsonl.gz"),
      join(FIXTURES, "terminal-bench-claude-4.1-opus.jsonl.gz"),
      "--policy",
      policy,
      "--baseline",
      "claude-4-sonnet",
      "--candidate",
      "claude-4.1-opus",
      "--today",
      "2026-11-29",
      "--format",
      "json",
    ]);
    expect(run.stderr).toBe("");
    const report = JSON.parse(run.stdout) as {
      infra_readings: Record<string, InfraReading>;
      models: { baseline: { infra_errors: number }; candidate: { infra_errors: number } };
    };
    expect(report.models.baseline.infra_errors).toBe(29);
    expect(report.models.candidate.infra_errors).toBe(18);
    const { exclude, count_as_fail: caf, bound } = report.infra_readings;
    const ex = exclude as InfraReading;
    const cf = caf as InfraReading;
    const b = bound as InfraReading;
    // A task each model lost whole leaves exclude's common set.
    expect([ex.common_tasks, cf.common_tasks, b.common_tasks]).toEqual([79, 80, 80]);
    expect(ex.margin as number).toBeCloseTo(0.021308, 6);
    expect(ex.lcb as number).toBeCloseTo(-0.023319, 6);
    expect(cf.margin as number).toBeCloseTo(0.0375, 6);
    expect(cf.lcb as number).toBeCloseTo(-0.003566, 6);
    expect(b.margin).toBeNull();
    expect(b.margin_low as number).toBeCloseTo(-0.035, 6);
    expect(b.margin_high as number).toBeCloseTo(0.0825, 6);
    // Same common set: bound's [LCB, UCB] contains count_as_fail's.
    expect(b.lcb as number).toBeLessThanOrEqual(cf.lcb as number);
    expect(b.ucb as number).toBeGreaterThanOrEqual(cf.ucb as number);
    expect([ex.verdict, cf.verdict, b.verdict]).toEqual(["unresolved", "unresolved", "unresolved"]);
  });
});
