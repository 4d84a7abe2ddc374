/**
 * verdictOnly (the evaluations made for their verdict alone: the other infra readings,
 * fragility's verification, each review revision) decides exactly as evaluateVerdict does: the
 * same analysis, checks, verdict and reasons, its models' figures the counts of evaluateVerdict's
 * (no check reads a score), on random datasets under every infra mode and thresholds that bind.
 */
import { describe, expect, it } from "vitest";
import { evaluateVerdict, verdictOnly } from "../../src/core/decision/evaluate.js";
import type { ModelFigures } from "../../src/core/verdict-types.js";
import { buildDataset, buildPolicy, type CountsSpec, type TaskSpec } from "../stats/dataset-builder.js";
import { prng } from "../helpers/prng.js";

const ctx = { canary: null, expired: false } as const;

/** A model's figures without its scores: the counts and rates verdictOnly gives. */
const SCORE_KEYS = new Set([
  "valid_only_score",
  "all_attempted_score",
  "interval_exact",
  "interval_pessimistic",
  "common",
]);
function countsOnly(f: ModelFigures): unknown {
  return Object.fromEntries(Object.entries(f).filter(([key]) => !SCORE_KEYS.has(key)));
}

describe("verdictOnly", () => {
  it("gives evaluateVerdict's verdict, reasons, checks and analysis, and its models' counts", () => {
    const rand = prng(7);
    const verdicts = new Set<string>();
    for (let round = 0; round < 60; round++) {
      // Each model's pass rate drawn per round: some rounds separate the models, some do not.
      const rates = { a: rand(), b: rand() };
      const side = (rate: number): CountsSpec | undefined =>
        rand() < 0.05 ? undefined : rand() < 0.05 ? "infra" : rand() < rate ? "pass" : "fail";
      const labels = ["valid", "valid", "valid", "valid", "broken", "disputed", "unreviewed"] as const;
      const specs: TaskSpec[] = Array.from({ length: 5 + Math.floor(rand() * 80) }, (_, i) => {
        const a = side(rates.a);
        const b = side(rates.b);
        return {
          id: `t${i}`,
          validity: labels[Math.floor(rand() * labels.length)] ?? "valid",
          ...(a === undefined ? {} : { a }),
          ...(b === undefined ? {} : { b }),
        };
      });
      const d = buildDataset(specs);
      const infra = (["exclude", "count_as_fail", "bound"] as const)[round % 3] ?? "exclude";
      const policy = buildPolicy({
        infra_errors: infra,
        common_valid_tasks: ">= 5",
        infra_error_rate: "< 10%",
        missing_fraction: "< 8%",
        disputed_fraction: "< 30%",
        delta0: round % 2 === 0 ? 0 : -0.2,
      });
      const full = evaluateVerdict(d, policy, ctx);
      const only = verdictOnly(d, policy, ctx);
      verdicts.add(full.verdict);
      expect(only.verdict).toBe(full.verdict);
      expect(only.reasons).toEqual(full.reasons);
      expect(only.checks).toEqual(full.checks);
      expect(only.analysis).toEqual(full.analysis);
      expect(only.baseline).toEqual(countsOnly(full.baseline));
      expect(only.candidate).toEqual(countsOnly(full.candidate));
    }
    // The rounds reach more than one verdict, so the comparison is not of one constant.
    expect([...verdicts].sort()).toEqual(["accept", "reject", "unresolved"]);
  });
});
