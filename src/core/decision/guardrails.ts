/**
 * Guardrails (docs/spec.md §4.5): beside the accuracy margin, the candidate may not cost, wait or
 * spend more than the policy allows. Per metric of the policy's `guardrails`, over the common
 * tasks C (§2): R = candidate's mean per task / baseline's mean per task over the tasks of C where
 * both models carry the metric, with its one-sided bounds (stats/guardrail-ratio.ts), and a
 * verdict: pass when R's upper bound ≤ 1 + max_increase, fail when its lower bound > 1 +
 * max_increase, else unresolved; unresolved too when the share of C lacking the metric is above
 * the guardrail's `missing`, or the baseline's mean is 0. The overall verdict: accept needs the
 * accuracy accept and every guardrail pass; reject when accuracy rejects or a guardrail fails.
 *
 * Without guardrails in the policy, an export with metrics gets the same figures with no verdict
 * (the report's collapsed table); without either, nothing (the report is unchanged).
 */
import type { Dataset, MetricColumn } from "../model.js";
import type { Guardrail, Policy } from "../policy/policy-types.js";
import { guardrailRatio } from "../stats/guardrail-ratio.js";
import { effectiveAttempts } from "../stats/task-scores.js";
import { BROKEN_CODE, type TaskColumns } from "../stats/task-columns.js";
import type { Verdict } from "../verdict-types.js";
import { num, pct, plural, satisfies, shownValue } from "./format.js";

/** At most this many tasks lacking a metric are named in a reason. */
export const GUARDRAIL_TASKS_NAMED = 3;

export type GuardrailVerdict = "pass" | "fail" | "unresolved";

/** One metric's figures and verdict, as the report JSON holds it (key `guardrails`). */
export interface GuardrailEntry {
  readonly metric: string;
  /** Means per task over the `tasks` both models carry the metric on; null when there is none. */
  readonly baseline_mean: number | null;
  readonly candidate_mean: number | null;
  /** candidate_mean / baseline_mean; null when the baseline's mean is 0 or there is no task. */
  readonly ratio: number | null;
  /** R's one-sided lower and upper bounds at the policy's confidence; null when undefined. */
  readonly ratio_low: number | null;
  readonly ratio_high: number | null;
  /** 1 + max_increase; null without a guardrail for the metric (figures only). */
  readonly limit: number | null;
  /** Share of C on which either model lacks the metric; null when C is empty. */
  readonly missing_fraction: number | null;
  /** Tasks of C on which both models carry the metric. */
  readonly tasks: number;
  /** null without a guardrail for the metric (figures only). */
  readonly verdict: GuardrailVerdict | null;
}

/** The guardrails' entries and, for each one not passing, why (with the tasks lacking the metric). */
export interface GuardrailOutcome {
  readonly entries: readonly GuardrailEntry[];
  /** Sentences for the report's reasons: a failing guardrail's, or what keeps one unresolved. */
  readonly failing: readonly string[];
  readonly open: readonly string[];
}

/** Per-task means over C of one metric: the tasks both models carry it on, and those that lack it. */
function pairedMeans(
  c: readonly number[],
  base: MetricColumn | undefined,
  cand: MetricColumn | undefined,
): { a: Float64Array; b: Float64Array; at: number[]; lacking: number[] } {
  const a: number[] = [];
  const b: number[] = [];
  const at: number[] = [];
  const lacking: number[] = [];
  for (const i of c) {
    const na = base?.count[i] ?? 0;
    const nb = cand?.count[i] ?? 0;
    if (na > 0 && nb > 0 && base !== undefined && cand !== undefined) {
      a.push((base.sum[i] as number) / na);
      b.push((cand.sum[i] as number) / nb);
      at.push(i);
    } else lacking.push(i);
  }
  return { a: Float64Array.from(a), b: Float64Array.from(b), at, lacking };
}

/** The tasks of C (§2): not broken, K* ≥ 1 for both models, in dataset order. */
function commonTasks(columns: TaskColumns, infra: Policy["infra_errors"]): number[] {
  const out: number[] = [];
  for (let i = 0; i < columns.validity.length; i++) {
    if (columns.validity[i] === BROKEN_CODE) continue;
    if (effectiveAttempts(columns.baseline[i], infra) < 1) continue;
    if (effectiveAttempts(columns.candidate[i], infra) < 1) continue;
    out.push(i);
  }
  return out;
}

const times = (x: number): string => `${num(x, 3)}×`;

function judge(
  entry: Omit<GuardrailEntry, "verdict">,
  g: Guardrail,
  lacking: readonly string[],
): { verdict: GuardrailVerdict; why: string | null } {
  const name = `Guardrail ${g.metric}`;
  const limit = `the limit ${times(1 + g.max_increase)} (max_increase ${g.max_increase_text})`;
  if (entry.missing_fraction === null) {
    return { verdict: "unresolved", why: `${name} is unresolved: there is no common task to measure it on.` };
  }
  if (!satisfies(entry.missing_fraction, g.missing)) {
    const first = lacking.length > 0 ? ` (first: ${lacking.join(", ")})` : "";
    return {
      verdict: "unresolved",
      why: `${name} is unresolved: either model lacks the metric on ${pct(entry.missing_fraction)} of the common tasks${first}, not ${g.missing.text} as the policy asks; a guardrail that cannot be measured never passes.`,
    };
  }
  if (entry.ratio === null) {
    return {
      verdict: "unresolved",
      why: `${name} is unresolved: the baseline's mean is 0, so the candidate's cannot be compared with it as a ratio.`,
    };
  }
  if (entry.ratio_low === null) {
    return {
      verdict: "unresolved",
      why: `${name} is unresolved: R = ${times(entry.ratio)} but its bounds cannot be computed (${plural(entry.tasks, "task")} with the metric; bounds need 2, and a clustered standard error every task in a cluster and 2 clusters).`,
    };
  }
  if (entry.ratio_high === null) {
    return {
      verdict: "unresolved",
      why: `${name} is unresolved: R = ${times(entry.ratio)} has no upper bound, as the baseline's mean is not clearly above 0 over ${plural(entry.tasks, "task")}; more tasks would bound it.`,
    };
  }
  const figures = `R = ${times(entry.ratio)}, bounds ${times(entry.ratio_low)} … ${times(entry.ratio_high)}`;
  if (entry.ratio_high <= 1 + g.max_increase) return { verdict: "pass", why: null };
  if (entry.ratio_low > 1 + g.max_increase) {
    return {
      verdict: "fail",
      why: `${name} fails: the candidate's mean per task is ${figures}, and even the lower bound exceeds ${limit}.`,
    };
  }
  return {
    verdict: "unresolved",
    why: `${name} is unresolved: ${figures} straddle ${limit}; more tasks or re-runs would narrow them.`,
  };
}

/**
 * The guardrails over the dataset's common tasks (labels from `columns`); null when the policy has
 * no guardrails and no compared attempt carries a metric.
 */
export function evaluateGuardrails(
  dataset: Dataset,
  policy: Policy,
  columns: TaskColumns,
): GuardrailOutcome | null {
  const metrics = dataset.metrics;
  const rules = policy.guardrails;
  if (rules === undefined && metrics === undefined) return null;
  const names = rules?.map((g) => g.metric) ?? metrics?.names ?? [];
  const c = commonTasks(columns, policy.infra_errors);
  const entries: GuardrailEntry[] = [];
  const failing: string[] = [];
  const open: string[] = [];
  for (const metric of names) {
    const k = metrics?.names.indexOf(metric) ?? -1;
    const m = pairedMeans(c, metrics?.baseline[k], metrics?.candidate[k]);
    const clusterOf = Int32Array.from(m.at, (i) => columns.cluster[i] as number);
    const r = guardrailRatio(
      m.a,
      m.b,
      {
        confidence: policy.margin.confidence,
        quantile: policy.margin.quantile,
        standardError: policy.margin.standard_error,
        clusterCorrection: policy.margin.cluster_correction,
      },
      { of: clusterOf, count: columns.clusterCount },
    );
    const g = rules?.find((x) => x.metric === metric);
    const entry = {
      metric,
      baseline_mean: m.at.length === 0 ? null : r.baselineMean,
      candidate_mean: m.at.length === 0 ? null : r.candidateMean,
      ratio: r.ratio,
      ratio_low: r.low,
      ratio_high: r.high,
      limit: g === undefined ? null : 1 + g.max_increase,
      missing_fraction: c.length === 0 ? null : m.lacking.length / c.length,
      tasks: m.at.length,
    };
    if (g === undefined) {
      entries.push({ ...entry, verdict: null });
      continue;
    }
    const named = m.lacking.slice(0, GUARDRAIL_TASKS_NAMED).map((i) => shownValue(dataset.tasks.taskId(i)));
    const { verdict, why } = judge(entry, g, named);
    entries.push({ ...entry, verdict });
    if (why !== null) (verdict === "fail" ? failing : open).push(why);
  }
  return { entries, failing, open };
}

/**
 * The overall verdict (§4.5): accept needs the accuracy accept and every guardrail pass; reject
 * when accuracy rejects or a guardrail fails; otherwise unresolved. The reasons gain each failing
 * guardrail's sentence on a reject, and what keeps the guardrails open on an unresolved verdict.
 */
export function withGuardrails(
  accuracy: { readonly verdict: Verdict; readonly reasons: readonly string[] },
  g: GuardrailOutcome | null,
): { verdict: Verdict; reasons: string[] } {
  const reasons = [...accuracy.reasons];
  if (g === null || g.entries.every((e) => e.verdict === null)) return { verdict: accuracy.verdict, reasons };
  if (g.failing.length > 0) return { verdict: "reject", reasons: [...reasons, ...g.failing] };
  if (accuracy.verdict === "reject") return { verdict: "reject", reasons };
  if (g.open.length > 0) return { verdict: "unresolved", reasons: [...reasons, ...g.open] };
  return { verdict: accuracy.verdict, reasons };
}
