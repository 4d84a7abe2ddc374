/**
 * SPEC §2–4 except fragility: sets, per-model figures, the comparison, checks, verdict, reasons
 * and headline warnings. Pure and deterministic: tasks are visited in dataset order.
 *
 * Choices where the SPEC is silent (each is also documented where it is implemented):
 * - Tie-breaking: the minimising/maximising sets S_L, S_H are the SMALLEST optimising sets; among
 *   equal values the task earlier in dataset (task-key) order joins first (validity-bounds.ts).
 * - N_v = 0: Δ̂, s_val, LCB and UCB are null (nothing anchors the margin); Δ_L, Δ_H are still
 *   reported over non-empty S when U is non-empty.
 * - Pessimistic bound: S_L = S_H = U, and the SEs are taken over V ∪ U with d replaced by −1
 *   (lower) resp. +1 (upper) — the same values that produce Δ_L, Δ_H.
 * - Clustered SE: every task of C must carry a `cluster`. If any lacks one the SEs, LCB and UCB are
 *   null (no guess), a headline warning and the margin check say how many tasks lack it. G is the
 *   number of clusters among V; a warning is given when the SE's degrees of freedom on V are
 *   below 30 (CR2: Bell–McCaffrey ν; CR1: G − 1).
 * - Design effect: whenever every common task has a cluster, the paired and the CR2 SE on V are
 *   both reported (design_effect = their variance ratio); with a paired policy a CR2 SE above
 *   DESIGN_EFFECT_SE_RATIO × the paired one is a headline warning — replaced by a sharper one when
 *   the verdict's margin bound would not hold under the CR2 SE (clusteredVerdictWarning).
 * - Re-run-only SE: over V, reported only when every task of V has K* ≥ 2 for both models.
 * - Row counts in ModelFigures are the model's rows on T (non-broken tasks), as read; `attempts`
 *   includes `missing` results; under count_as_fail infra errors stay counted as infra_errors.
 * - Threshold comparisons of rates and counts treat values within 1e-12 (relative) as equal; the
 *   margin check is the strict LCB > δ₀.
 */
import type { Dataset } from "../model.js";
import type { Policy } from "../policy/policy-types.js";
import type {
  AttainingSet,
  Check,
  InfluentialTask,
  ModelCounts,
  ModelFigures,
  Verdict,
} from "../verdict-types.js";
import { analyseMargin, type MarginAnalysis } from "../stats/margin.js";
import { minimumDetectableEffect, tasksNeeded } from "../stats/planning.js";
import { modelCounts, modelFigures, type Side } from "../stats/model-figures.js";
import type { InfraErrorsPolicy } from "../stats/task-scores.js";
import { taskColumns, type TaskColumns } from "../stats/task-columns.js";
import { buildChecks } from "./checks.js";
import { unmatchedLabelWarnings } from "./input-warnings.js";
import type { Evaluation, EvaluationContext } from "./evaluation-types.js";
import { num, pct, plural } from "./format.js";
import { formatPpUnsigned } from "../format-number.js";
import { verdictWithReasons } from "./verdict.js";
import { infraReadings, readingsHeadline } from "./infra-readings.js";
import { evaluateGuardrails, withGuardrails, type GuardrailOutcome } from "./guardrails.js";

/** At most this many influential tasks are listed in the comparison. */
export const MAX_INFLUENTIAL_TASKS = 50;

/** Below this many degrees of freedom the clustered standard error is flagged (SPEC §3). */
export const MIN_RELIABLE_CLUSTERS = 30;

/** A paired policy is warned when the CR2 SE on V exceeds the paired SE by this factor (SPEC §3). */
export const DESIGN_EFFECT_SE_RATIO = 1.2;

/**
 * Tasks of U by effect on the margin: |d| descending (an interval's larger end), then members of
 * S_L first, then dataset (task-key) order. Bounded by MAX_INFLUENTIAL_TASKS.
 */
export function influentialTasks(dataset: Dataset, a: MarginAnalysis): InfluentialTask[] {
  const n = a.unresolvedTaskIndices.length;
  const inLower = new Uint8Array(n);
  const inUpper = new Uint8Array(n);
  for (const j of a.lowerSet) inLower[j] = 1;
  for (const j of a.upperSet) inUpper[j] = 1;
  const d = a.unresolvedLow;
  const high = a.unresolvedHigh;
  const effect = (j: number): number =>
    d === high ? Math.abs(d[j] as number) : Math.max(Math.abs(d[j] as number), Math.abs(high[j] as number));
  // Only the top MAX_INFLUENTIAL_TASKS are listed: keep the tasks whose |d| is at least the
  // cut-off |d| of the top list (found from the few distinct |d| values), then sort those.
  const byEffect = new Map<number, number>();
  for (let j = 0; j < n; j++) {
    const e = effect(j);
    byEffect.set(e, (byEffect.get(e) ?? 0) + 1);
  }
  const effects = Float64Array.from(byEffect.keys()).sort().reverse();
  let cutoff = 0;
  let kept = 0;
  for (const e of effects) {
    cutoff = e;
    kept += byEffect.get(e) ?? 0;
    if (kept >= MAX_INFLUENTIAL_TASKS) break;
  }
  const order: number[] = [];
  for (let j = 0; j < n; j++) if (effect(j) >= cutoff) order.push(j);
  order.sort((x, y) => effect(y) - effect(x) || (inLower[y] as number) - (inLower[x] as number) || x - y);
  return order.slice(0, MAX_INFLUENTIAL_TASKS).map((j) => {
    const task = dataset.tasks.record(a.unresolvedTaskIndices[j] as number);
    return {
      dataset_revision: task.datasetRevision,
      task_id: task.taskId,
      validity: task.validity === "disputed" ? "disputed" : "unreviewed",
      d: d[j] as number,
      ...(high[j] === d[j] ? {} : { d_high: high[j] as number }),
      in_lower_set: inLower[j] === 1,
      in_upper_set: inUpper[j] === 1,
      evidence: [...task.evidence],
    };
  });
}

/** The attaining set of an exact bound, as reported (bounded task list). */
function attainingSet(
  dataset: Dataset,
  a: MarginAnalysis,
  set: readonly number[] | null,
): AttainingSet | null {
  if (set === null) return null;
  let minus = 0;
  let zero = 0;
  for (const j of set) {
    const d = a.unresolvedLow[j] as number;
    if (d < 0) minus++;
    else if (d === 0) zero++;
  }
  return {
    size: set.length,
    d_minus: minus,
    d_zero: zero,
    d_plus: set.length - minus - zero,
    tasks: set.slice(0, MAX_INFLUENTIAL_TASKS).map((j) => {
      const i = a.unresolvedTaskIndices[j] as number;
      const tasks = dataset.tasks;
      return {
        dataset_revision: tasks.datasetRevision(i),
        task_id: tasks.taskId(i),
        d: a.unresolvedLow[j] as number,
      };
    }),
  };
}

/** A signed margin in percentage points, e.g. "+1.20 pp", "−0.35 pp". */
function pp(x: number): string {
  const s = Math.abs(x * 100).toFixed(2);
  return `${x < 0 && Number(s) !== 0 ? "\u2212" : "+"}${s} pp`;
}

/**
 * With a paired policy and every common task in a cluster: the margin's bound again under the
 * clustered SE (CR2), and a warning when the verdict it carries would not hold under it — an
 * accept whose LCB would not clear δ₀, a reject by the margin whose UCB would not be at or below
 * it. null when the check does not apply or the verdict holds (docs/spec.md §3, design effect).
 */
function clusteredVerdictWarning(
  dataset: Dataset,
  policy: Policy,
  a: MarginAnalysis,
  verdict: Verdict,
  ctx: EvaluationContext,
): string | null {
  if (policy.margin.standard_error !== "paired" || a.seCr2Valid === null) return null;
  const delta0 = policy.accept_if.delta0;
  // A reject by the production canary does not rest on the margin.
  const byMargin =
    verdict === "accept" ||
    (verdict === "reject" && ctx.canary !== "fail" && a.ucb !== null && a.ucb <= delta0);
  if (!byMargin) return null;
  const c = analyseMargin(dataset, {
    infra: policy.infra_errors,
    margin: { ...policy.margin, standard_error: "clustered", cluster_correction: "cr2" },
  });
  const bound = verdict === "accept" ? c.lcb : c.ucb;
  const holds = bound !== null && (verdict === "accept" ? bound > delta0 : bound <= delta0);
  if (holds) return null;
  const which = verdict === "accept" ? "lower" : "upper";
  const figure =
    bound === null
      ? `the ${which} bound would be undefined`
      : `the ${which} bound would be ${pp(bound)}, ${verdict === "accept" ? "not above" : "above"} δ₀ ${pp(delta0)}`;
  return (
    `The tasks cluster (${plural(c.clusters ?? 0, "cluster")} by the rows' \`cluster\`): under the clustered standard error (CR2) ` +
    `${figure}, so this ${verdict} would not hold; consider standard_error: clustered.`
  );
}

function headlineWarnings(
  policy: Policy,
  ctx: EvaluationContext,
  a: MarginAnalysis,
  infra: { baseline: number; candidate: number; readings: string | null },
  clustered: string | null,
): string[] {
  const warnings: string[] = [];
  if (ctx.expired) {
    warnings.push(
      `Policy expired on ${policy.revisit}; owner ${policy.owner} must re-examine the thresholds` +
        (policy.on_expired === "neutral" ? " (on_expired: neutral: a passing check run is neutral)." : "."),
    );
  }
  if (infra.readings !== null) warnings.push(infra.readings);
  if (policy.infra_errors === "count_as_fail") {
    warnings.push(
      `Infra errors are counted as fails (infra_errors: count_as_fail): ${plural(infra.baseline, "baseline infra error")} and ${plural(infra.candidate, "candidate infra error")} lower the task scores.`,
    );
  } else if (policy.infra_errors === "bound" && infra.baseline + infra.candidate > 0) {
    warnings.push(
      `Infra errors are lost results (infra_errors: bound): ${plural(infra.baseline, "baseline infra error")} and ${plural(infra.candidate, "candidate infra error")} are each taken as a pass and as a fail, and the bounds hold either way.`,
    );
  }
  if (policy.margin.standard_error === "clustered") {
    if (a.tasksWithoutCluster > 0) {
      warnings.push(
        `standard_error is clustered but ${plural(a.tasksWithoutCluster, "common task")} ${a.tasksWithoutCluster === 1 ? "has" : "have"} no cluster: the standard errors are left undefined rather than guessed, so the margin cannot decide.`,
      );
    } else if (a.nuValid !== null && a.nuValid < MIN_RELIABLE_CLUSTERS) {
      const share =
        a.largestClusterShare === null
          ? ""
          : `, the largest holding ${pct(a.largestClusterShare)} of the valid tasks`;
      const what =
        policy.margin.cluster_correction === "cr2"
          ? `the CR2 standard error has ν = ${num(a.nuValid, 1)} effective degrees of freedom`
          : `the CR1 standard error has ν = G − 1 = ${num(a.nuValid, 0)} degrees of freedom`;
      warnings.push(
        `Clustered standard error over ${plural(a.clusters ?? 0, "cluster")}${share}: ${what} (fewer than ${MIN_RELIABLE_CLUSTERS}); the effective number of clusters, not the task count, limits the bound${policy.margin.quantile === "z" ? ", and quantile: z ignores it" : ""}.`,
      );
    } else if (a.clusters !== null && a.clusters < 2 && a.commonValidTasks > 0) {
      // (With no common valid task there is no cluster to count: the margin's own reason says why.)
      warnings.push(
        `Clustered standard error over ${plural(a.clusters, "cluster")}: at least 2 are needed, so the standard errors are undefined and the margin cannot decide.`,
      );
    }
  } else if (clustered !== null) {
    warnings.push(clustered);
  } else if (
    a.lostValidTasks === 0 &&
    a.seCr2Valid !== null &&
    a.sePairedValid !== null &&
    a.seCr2Valid > DESIGN_EFFECT_SE_RATIO * a.sePairedValid
  ) {
    warnings.push(
      `The tasks cluster: the CR2 standard error on the valid tasks (by the rows' \`cluster\`) is ${num(a.seCr2Valid / a.sePairedValid, 2)}× the paired one (${formatPpUnsigned(a.seCr2Valid)} vs ${formatPpUnsigned(a.sePairedValid)}), so the paired standard error understates run variance; consider standard_error: clustered.`,
    );
  }
  return warnings;
}

/**
 * What the verdict rests on: the comparison's analysis, both models' figures (`M`: with their
 * scores, or their counts alone) and the checks.
 */
export interface VerdictCore<M extends ModelCounts = ModelFigures> {
  readonly analysis: MarginAnalysis;
  readonly baseline: M;
  readonly candidate: M;
  readonly checks: Check[];
  readonly verdict: Verdict;
  readonly reasons: string[];
  /** The verdict of accuracy alone (§4.3), before the guardrails (§4.5) join it. */
  readonly accuracyVerdict: Verdict;
  readonly guardrails: GuardrailOutcome | null;
}

/**
 * The verdict and the figures it rests on, from the dataset's columns or `columns` of the same
 * tasks with other labels (the verdict by review revision: no record is copied for those). No
 * task record is read: evaluate() adds the lists of tasks.
 */
export function evaluateVerdict(
  dataset: Dataset,
  policy: Policy,
  ctx: EvaluationContext,
  columns: TaskColumns = taskColumns(dataset),
): VerdictCore {
  return decide(dataset, policy, ctx, columns, modelFigures);
}

/**
 * evaluateVerdict with each model's counts alone, not its scores: for the evaluations made only
 * for their verdict and margin (the other infra readings, fragility's verification, each review
 * revision). The verdict is the same: no check reads a score.
 */
export function verdictOnly(
  dataset: Dataset,
  policy: Policy,
  ctx: EvaluationContext,
  columns: TaskColumns = taskColumns(dataset),
): VerdictCore<ModelCounts> {
  return decide(dataset, policy, ctx, columns, modelCounts);
}

function decide<M extends ModelCounts>(
  dataset: Dataset,
  policy: Policy,
  ctx: EvaluationContext,
  columns: TaskColumns,
  figures: (dataset: Dataset, side: Side, infra: InfraErrorsPolicy, columns: TaskColumns) => M,
): VerdictCore<M> {
  const infra = policy.infra_errors;
  const analysis = analyseMargin(dataset, { infra, margin: policy.margin }, columns);
  const baseline = figures(dataset, "baseline", infra, columns);
  const candidate = figures(dataset, "candidate", infra, columns);
  const checks = [
    ...buildChecks({ dataset, policy, ctx, analysis, baseline, candidate }),
    ...(ctx.extraChecks ?? []),
  ];
  const accuracy = verdictWithReasons(checks, analysis, policy, ctx);
  const guardrails = evaluateGuardrails(dataset, policy, columns);
  const { verdict, reasons } = withGuardrails(accuracy, guardrails);
  return {
    analysis,
    baseline,
    candidate,
    checks,
    verdict,
    reasons,
    accuracyVerdict: accuracy.verdict,
    guardrails,
  };
}

export function evaluate(dataset: Dataset, policy: Policy, ctx: EvaluationContext): Evaluation {
  const decided = evaluateVerdict(dataset, policy, ctx);
  const { analysis, baseline, candidate, checks, verdict, reasons } = decided;
  const readings = infraReadings(policy, decided, (mode) =>
    verdictOnly(dataset, { ...policy, infra_errors: mode }, ctx),
  );
  const warnings = headlineWarnings(
    policy,
    ctx,
    analysis,
    {
      baseline: baseline.infra_errors,
      candidate: candidate.infra_errors,
      readings: readingsHeadline(readings, policy.infra_errors),
    },
    clusteredVerdictWarning(dataset, policy, analysis, decided.accuracyVerdict, ctx),
  ).concat(unmatchedLabelWarnings(dataset));
  const a = analysis;
  const delta0 = policy.accept_if.delta0;
  // Held back by the margin (whatever else fails too): unresolved with LCB ≤ δ₀.
  const heldByMargin = verdict === "unresolved" && a.lcb !== null && !(a.lcb > delta0);
  const sd = a.sePairedValid === null ? null : a.sePairedValid * Math.sqrt(a.commonValidTasks);
  return {
    verdict,
    reasons,
    warnings,
    checks,
    comparison: {
      common_tasks: a.commonTasks,
      common_valid_tasks: a.commonValidTasks,
      unresolved_tasks: a.unresolvedTasks,
      disputed_tasks: a.disputedTasks,
      unreviewed_tasks: a.unreviewedTasks,
      broken_tasks: a.brokenTasks,
      disputed_fraction: a.disputedFraction,
      margin: a.margin,
      margin_lower: a.marginLower,
      margin_upper: a.marginUpper,
      validity_sensitivity: a.validitySensitivity,
      validity_sensitivity_upside: a.validitySensitivityUpside,
      se_valid: a.seValid,
      se_lower: a.seLower,
      se_upper: a.seUpper,
      se_rerun: a.seRerun,
      standard_error: policy.margin.standard_error,
      cluster_correction: policy.margin.cluster_correction,
      clusters: a.clusters,
      largest_cluster_share: a.largestClusterShare,
      nu_valid: a.nuValid,
      nu_lower: a.nuLower,
      nu_upper: a.nuUpper,
      se_valid_paired: a.sePairedValid,
      se_valid_cr2: a.seCr2Valid,
      // (Two SEs of one resolution: with a lost result on V each is only a bound.)
      design_effect:
        a.lostValidTasks === 0 && a.seCr2Valid !== null && a.sePairedValid !== null && a.sePairedValid > 0
          ? (a.seCr2Valid / a.sePairedValid) ** 2
          : null,
      validity_bound: policy.margin.validity_bound,
      confidence: policy.margin.confidence,
      quantile: a.quantile,
      z: a.z,
      q_valid: a.qValid,
      q_lower: a.qLower,
      q_upper: a.qUpper,
      delta0: policy.accept_if.delta0,
      lcb: a.lcb,
      ucb: a.ucb,
      margin_at_lcb: a.marginAtLcb,
      margin_at_ucb: a.marginAtUcb,
      lcb_bound_kind: a.lcbKind,
      ucb_bound_kind: a.ucbKind,
      lcb_set: attainingSet(dataset, a, a.lcbSet),
      ucb_set: attainingSet(dataset, a, a.ucbSet),
      mde: minimumDetectableEffect(a.qValid, policy.margin.power, a.seValid),
      power: policy.margin.power,
      tasks_needed: heldByMargin ? tasksNeeded(a.qValid, sd, a.margin, delta0) : null,
      influential_tasks: influentialTasks(dataset, a),
    },
    infra_readings: readings,
    models: { baseline, candidate },
    ...(decided.guardrails === null
      ? {}
      : { guardrails: decided.guardrails, accuracyVerdict: decided.accuracyVerdict }),
  };
}
