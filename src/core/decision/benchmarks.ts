/**
 * Several benchmarks in one gate (docs/spec.md §4.6): which benchmarks decide and with which bar,
 * each benchmark's harm claim under Holm's step-down, and the overall verdict.
 *
 * - Each benchmark of the export, and each required benchmark the policy names, is decided by
 *   today's whole rule (§2–§4.3) on its own tasks with its own accept_if (policy `benchmarks:`).
 * - accept: every required benchmark accepts. An intersection–union test: the overall accept is
 *   wrong only if some required benchmark's accept is, and each is at the policy's level, so the
 *   family's error is at most that level without an adjustment.
 * - reject: a failed production canary (as today), or some benchmark's harm claim (its evidence
 *   passes and UCB ≤ δ₀) holds after Holm's step-down across the B benchmarks in the export.
 * - unresolved: anything else, naming the benchmarks that keep it open.
 */
import { datasetBenchmarks, type Dataset } from "../model.js";
import type { BenchmarkPolicy, Policy } from "../policy/policy-types.js";
import type { Check, Verdict } from "../verdict-types.js";
import { analyseMargin } from "../stats/margin.js";
import { formatPercent, formatPp } from "../format-number.js";
import type { EvaluationContext } from "./evaluation-types.js";
import { benchmarkDataset, benchmarkIndices } from "./benchmark-dataset.js";
import { holmStepDown } from "./benchmark-holm.js";
import { plural, shownValue } from "./format.js";

/** One benchmark to decide: its tasks (null when the export has none) and the policy that decides it. */
export interface PlannedBenchmark {
  readonly name: string;
  readonly dataset: Dataset | null;
  readonly policy: Policy;
  readonly required: boolean;
  readonly canary: boolean;
}

/**
 * The policy one benchmark is decided by (entry undefined: a benchmark the policy does not name,
 * or every task pooled): its accept_if, and no production canary to wait for when a benchmark is
 * the canary (that benchmark's required accept stands for it).
 */
export function policyFor(policy: Policy, entry: BenchmarkPolicy | undefined): Policy {
  const canaryBenchmark = (policy.benchmarks ?? []).some((e) => e.canary);
  const acceptIf = entry?.accept_if ?? policy.accept_if;
  const rest: Policy = { ...policy };
  delete (rest as { benchmarks?: unknown }).benchmarks;
  return {
    ...rest,
    accept_if: canaryBenchmark ? { ...acceptIf, production_canary: false } : acceptIf,
  };
}

/**
 * The benchmarks to decide, sorted by name: those of the export, and the required ones the
 * policy names that the export lacks (dataset null). One benchmark in all (the usual export)
 * gives one entry whose dataset is the whole Dataset, so its report is today's.
 */
export function planBenchmarks(dataset: Dataset, policy: Policy): PlannedBenchmark[] {
  const entries = new Map((policy.benchmarks ?? []).map((e) => [e.name, e]));
  const present = datasetBenchmarks(dataset);
  const missing = [...entries.values()]
    .filter((e) => e.required && !present.includes(e.name))
    .map((e) => e.name);
  const names = [...present, ...missing].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const single = names.length === 1;
  const indices = single ? null : benchmarkIndices(dataset);
  return names.map((name) => {
    const entry = entries.get(name);
    const idx = indices?.get(name);
    return {
      name,
      dataset: single ? dataset : idx === undefined ? null : benchmarkDataset(dataset, name, idx),
      policy: policyFor(policy, entry),
      required: entry?.required ?? true,
      canary: entry?.canary ?? false,
    };
  });
}

/** The failed evidence check of a required benchmark the export lacks. */
export function missingBenchmarkCheck(name: string): Check {
  return {
    id: "benchmark_present",
    observed: 0,
    threshold: "> 0 tasks",
    passed: false,
    kind: "evidence",
    detail: `The policy requires the benchmark ${shownValue(name)} but no task of the baseline or the candidate is in it: run it and add its rows (with \`benchmark\`), or set required: false.`,
  };
}

/** What the overall verdict needs of one benchmark once it is decided. */
export interface DecidedBenchmark {
  readonly name: string;
  readonly required: boolean;
  readonly verdict: Verdict;
  /** Every evidence check passes (false for a benchmark the export lacks). */
  readonly evidencePasses: boolean;
  readonly dataset: Dataset | null;
  readonly policy: Policy;
}

export interface BenchmarkHarm {
  /** The harm claim holds after Holm's step-down. */
  readonly harm: boolean;
  /** The one-sided level its UCB was last tested at: α/(B − r); null for a benchmark the export lacks. */
  readonly level: number | null;
  /** Its UCB at that level (null when undefined or not in the export). */
  readonly ucb: number | null;
}

/** Holm's step-down over the harm claims of the benchmarks in the export (by index of `decided`). */
export function benchmarkHarms(decided: readonly DecidedBenchmark[]): BenchmarkHarm[] {
  const inExport = decided.filter((d) => d.dataset !== null);
  const alpha = 1 - (inExport[0]?.policy.margin.confidence ?? 0.95);
  const ucbs = new Map<string, number | null>();
  const ucbAt = (d: DecidedBenchmark, level: number): number | null => {
    const key = `${d.name}\u0000${level}`;
    if (!ucbs.has(key)) {
      // At level α itself, the policy's own confidence (1 − (1 − c) need not be c in floating point).
      const margin = {
        ...d.policy.margin,
        confidence: level === alpha ? d.policy.margin.confidence : 1 - level,
      };
      ucbs.set(key, analyseMargin(d.dataset as Dataset, { infra: d.policy.infra_errors, margin }).ucb);
    }
    return ucbs.get(key) ?? null;
  };
  const claims = holmStepDown(inExport.length, alpha, (b, level) => {
    const d = inExport[b] as DecidedBenchmark;
    if (!d.evidencePasses) return false;
    const ucb = ucbAt(d, level);
    return ucb !== null && ucb <= d.policy.accept_if.delta0;
  });
  return decided.map((d) => {
    const b = inExport.indexOf(d);
    if (b < 0) return { harm: false, level: null, ucb: null };
    const level = claims.level[b] as number;
    return { harm: claims.holds[b] === true, level, ucb: ucbAt(d, level) };
  });
}

/** The intersection–union sentence every multi-benchmark report carries. */
export function intersectionUnionSentence(required: number): string {
  return `Accept needs each of the ${plural(required, "required benchmark")} to accept at the policy's level: an intersection–union test, so no adjustment for several benchmarks is needed.`;
}

function holmWords(h: BenchmarkHarm, count: number): string {
  return `UCB = ${formatPp(h.ucb)} at the one-sided level ${formatPercent(h.level, 3)} of Holm's step-down across the ${plural(count, "benchmark")}`;
}

/** The overall verdict and its reasons (docs/spec.md §4.6). */
export function overallVerdict(
  decided: readonly DecidedBenchmark[],
  harms: readonly BenchmarkHarm[],
  ctx: Pick<EvaluationContext, "canary">,
): { verdict: Verdict; reasons: string[] } {
  const inExport = decided.filter((d) => d.dataset !== null).length;
  const required = decided.filter((d) => d.required);
  if (ctx.canary === "fail") {
    return {
      verdict: "reject",
      reasons: [
        "The production canary failed: a failed canary rejects the change whatever the benchmarks say.",
      ],
    };
  }
  const harmed = decided.filter((_, i) => harms[i]?.harm === true);
  if (harmed.length > 0) {
    const each = harmed.map((d) => {
      const h = harms[decided.indexOf(d)] as BenchmarkHarm;
      return `${shownValue(d.name)} (${holmWords(h, inExport)}, not above δ₀ = ${formatPp(d.policy.accept_if.delta0)})`;
    });
    return {
      verdict: "reject",
      reasons: [
        `The candidate is shown worse on ${each.join("; ")}: every evidence check of it passes and its harm claim holds after Holm's adjustment.`,
      ],
    };
  }
  const open = required.filter((d) => d.verdict !== "accept");
  if (open.length === 0) {
    return {
      verdict: "accept",
      reasons: [
        `Every required benchmark accepts (${required.map((d) => shownValue(d.name)).join(", ")}).`,
        intersectionUnionSentence(required.length),
      ],
    };
  }
  const why = open.map((d) => {
    const i = decided.indexOf(d);
    if (d.dataset === null) return `${shownValue(d.name)} (required, not in the export)`;
    if (d.verdict === "reject") {
      return `${shownValue(d.name)} (rejects at the policy's level, but its harm claim does not hold after Holm's adjustment: ${holmWords(harms[i] as BenchmarkHarm, inExport)})`;
    }
    return `${shownValue(d.name)} (${d.verdict})`;
  });
  return {
    verdict: "unresolved",
    reasons: [
      `Unresolved: ${plural(open.length, "required benchmark")} ${open.length === 1 ? "does" : "do"} not accept: ${why.join("; ")}.`,
      intersectionUnionSentence(required.length),
    ],
  };
}

/** True when the gate decides several benchmarks (else one, exactly as before benchmarks). */
export function isMultiBenchmark(plan: readonly PlannedBenchmark[]): boolean {
  return plan.length > 1;
}
