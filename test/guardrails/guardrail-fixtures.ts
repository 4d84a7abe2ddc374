/**
 * Constructed exports for the guardrails (docs/spec.md §4.5): SPEC §6 example 5's tasks (accuracy
 * alone accepts) with a `cost_usd` metric on every attempt, the baseline's log-normal per task
 * (a heavy-tailed cost, the normal case), and the candidate's as a multiple of it with noise.
 */
import { runGate, type GatePolicy } from "../../src/core/gate.js";
import type { Dataset, MetricColumn } from "../../src/core/model.js";
import type { Guardrail, Policy } from "../../src/core/policy/policy-types.js";
import type { Report } from "../../src/core/report/report-types.js";
import { prng } from "../helpers/prng.js";
import { buildDataset, buildPolicy, SPEC_EXAMPLE_5, threshold } from "../stats/dataset-builder.js";

export type Scenario = "dearer" | "cheaper" | "noisy" | "missing" | "zero";

function normal(rnd: () => number): number {
  const u = Math.max(rnd(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd());
}

function column(values: readonly (number | null)[]): MetricColumn {
  return {
    sum: Float64Array.from(values, (v) => v ?? 0),
    count: Float64Array.from(values, (v) => (v === null ? 0 : 1)),
  };
}

/** Per-task costs of both models in one scenario (null: the attempt carries no cost). */
export function scenarioCosts(
  s: Scenario,
  n: number,
  seed = 7,
): { a: (number | null)[]; b: (number | null)[] } {
  const rnd = prng(seed);
  const a: (number | null)[] = [];
  const b: (number | null)[] = [];
  for (let t = 0; t < n; t++) {
    const base = Math.exp(-4 + 1.2 * normal(rnd));
    const sigma = s === "noisy" ? 1.5 : 0.2;
    const noise = Math.exp(sigma * normal(rnd) - (sigma * sigma) / 2); // mean 1
    const factor = s === "dearer" ? 1.5 : s === "cheaper" ? 0.8 : s === "noisy" ? 1.1 : 1;
    a.push(s === "zero" ? 0 : base);
    b.push(s === "missing" && t % 10 === 3 ? null : base * factor * noise);
  }
  return { a, b };
}

export function guardrail(metric: string, maxIncrease: string, missing = "< 1%"): Guardrail {
  return {
    metric,
    max_increase: Number(maxIncrease.replace("%", "e-2")),
    max_increase_text: maxIncrease,
    missing: threshold(missing),
  };
}

/** SPEC example 5 with the scenario's cost_usd per task. */
export function scenarioDataset(s: Scenario | null): Dataset {
  const dataset = buildDataset(SPEC_EXAMPLE_5);
  if (s === null) return dataset;
  const { a, b } = scenarioCosts(s, dataset.tasks.length);
  return { ...dataset, metrics: { names: ["cost_usd"], baseline: [column(a)], candidate: [column(b)] } };
}

export const EXAMPLE_5_POLICY = buildPolicy({ common_valid_tasks: ">= 500", disputed_fraction: "< 5%" });

export function gateReport(dataset: Dataset, policy: Policy): Report {
  const gatePolicy: GatePolicy = {
    policy,
    source: { path: "policy.yaml", sha256: "0".repeat(64), source: "file", lastCommit: null },
    expired: false,
    changes: null,
    warnings: [],
    history: null,
  };
  return runGate(dataset, gatePolicy, {
    canary: null,
    toolVersion: "0.1.0",
    asOfReview: null,
    appendOnly: null,
    appendOnlyBase: null,
  });
}

/** The scenario's report under example 5's policy with `cost_usd: { max_increase: "10%" }`. */
export function scenarioReport(s: Scenario, missing = "< 1%"): Report {
  return gateReport(scenarioDataset(s), {
    ...EXAMPLE_5_POLICY,
    guardrails: [guardrail("cost_usd", "10%", missing)],
  });
}

/**
 * Three guardrails on one report (the golden guardrails.md and the browser test): cost_usd 1.5×
 * the baseline's (fails), latency_s missing on a tenth of the tasks (unresolved), tokens_out 0.8×
 * (passes). Accuracy alone accepts; the verdict is a reject by the cost guardrail.
 */
export function threeGuardrailsReport(): Report {
  const dataset = buildDataset(SPEC_EXAMPLE_5);
  const n = dataset.tasks.length;
  const cost = scenarioCosts("dearer", n, 7);
  const latency = scenarioCosts("missing", n, 8);
  const tokens = scenarioCosts("cheaper", n, 9);
  const scale = (v: number | null, k: number): number | null => (v === null ? null : Math.round(v * k));
  return gateReport(
    {
      ...dataset,
      metrics: {
        names: ["cost_usd", "latency_s", "tokens_out"],
        baseline: [
          column(cost.a),
          column(latency.a.map((v) => scale(v, 1000))),
          column(tokens.a.map((v) => scale(v, 1e5))),
        ],
        candidate: [
          column(cost.b),
          column(latency.b.map((v) => scale(v, 1000))),
          column(tokens.b.map((v) => scale(v, 1e5))),
        ],
      },
    },
    {
      ...EXAMPLE_5_POLICY,
      guardrails: [
        guardrail("cost_usd", "10%"),
        guardrail("latency_s", "25%"),
        guardrail("tokens_out", "0%", "< 5%"),
      ],
    },
  );
}
