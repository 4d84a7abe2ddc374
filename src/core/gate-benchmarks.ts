/**
 * The gate over several benchmarks (docs/spec.md §4.6): today's whole gate on each benchmark's
 * tasks with its own policy, the overall verdict from theirs (decision/benchmarks.ts), and one
 * report: the overall verdict and reasons, each benchmark's report under `benchmarks`, and the
 * other top-level keys of every task pooled (as before benchmarks; they decide nothing).
 */
import {
  benchmarkHarms,
  missingBenchmarkCheck,
  overallVerdict,
  policyFor,
  type DecidedBenchmark,
  type PlannedBenchmark,
} from "./decision/benchmarks.js";
import type { Dataset } from "./model.js";
import type { BenchmarkReport, Report } from "./report/report-types.js";
import type { GateOptions, GatePolicy } from "./gate-types.js";

type GateOne = (view: Dataset, policy: GatePolicy, options: GateOptions) => Report;

function benchmarkReport(
  b: PlannedBenchmark,
  report: Report | null,
  holm: BenchmarkReport["holm"],
): BenchmarkReport {
  const c = report?.comparison;
  return {
    name: b.name,
    verdict: report?.verdict ?? "unresolved",
    required: b.required,
    canary: b.canary,
    margin: c?.margin ?? null,
    margin_low: c?.margin_lower ?? null,
    margin_high: c?.margin_upper ?? null,
    lcb: c?.lcb ?? null,
    ucb: c?.ucb ?? null,
    common_valid_tasks: c?.common_valid_tasks ?? 0,
    checks: report?.checks ?? [missingBenchmarkCheck(b.name)],
    holm,
    report,
  };
}

export function gateAcrossBenchmarks(
  view: Dataset,
  policy: GatePolicy,
  options: GateOptions,
  plan: readonly PlannedBenchmark[],
  gateOne: GateOne,
): Report {
  // A benchmark's report leaves the policy's changes and warnings to the top level.
  const quiet = { ...policy, changes: null, history: null, warnings: [] };
  const reports = plan.map((b) =>
    b.dataset === null ? null : gateOne(b.dataset, { ...quiet, policy: b.policy }, options),
  );
  const decided: DecidedBenchmark[] = plan.map((b, i) => {
    const r = reports[i] ?? null;
    return {
      name: b.name,
      required: b.required,
      verdict: r?.verdict ?? "unresolved",
      evidencePasses: r !== null && r.checks.every((c) => c.kind !== "evidence" || c.passed),
      dataset: b.dataset,
      policy: b.policy,
    };
  });
  const harms = benchmarkHarms(decided);
  const { verdict, reasons } = overallVerdict(decided, harms, { canary: options.canary });
  const pooled = gateOne(view, { ...policy, policy: policyFor(policy.policy, undefined) }, options);
  const sections = reports.filter((r): r is Report => r !== null);
  // Headline warnings every benchmark shares (an expired policy, infra errors counted as fails…) and the policy's own.
  const shared = pooled.warnings.filter(
    (w) => policy.warnings.includes(w) || sections.every((r) => r.warnings.includes(w)),
  );
  return {
    ...pooled,
    verdict,
    reasons,
    warnings: shared,
    benchmarks: plan.map((b, i) => {
      const h = harms[i] ?? { harm: false, level: null, ucb: null };
      return benchmarkReport(b, reports[i] ?? null, { level: h.level, ucb: h.ucb, harm: h.harm });
    }),
  };
}
