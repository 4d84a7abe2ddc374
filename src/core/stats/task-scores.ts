/**
 * Per-(model, task) figures from attempt counts (SPEC §2). Attempts are never pooled across
 * tasks: each task gets its own K*, score and within-task variance.
 */
import type { AttemptCounts } from "../model.js";
import type { Policy } from "../policy/policy-types.js";

export type InfraErrorsPolicy = Policy["infra_errors"];

/** The modes whose task score is always a point (docs/spec.md §3.8). */
export type PointInfraErrorsPolicy = Exclude<InfraErrorsPolicy, "bound">;

/**
 * K*ₘₜ, the attempts that count towards the task score: passes + fails, plus infra errors
 * under `count_as_fail` (they are then fails) and `bound` (they are then lost results, a pass or
 * a fail). `missing` results never count. 0 when the model has no row for the task.
 */
export function effectiveAttempts(counts: AttemptCounts | undefined, infra: InfraErrorsPolicy): number {
  if (counts === undefined) return 0;
  return counts.pass + counts.fail + (infra === "exclude" ? 0 : counts.infra_error);
}

/**
 * The lost results of a task score: infra errors under `bound` (each a pass or a fail no one
 * saw), 0 under the point modes. The score lies in [pass / K*, (pass + lost) / K*].
 */
export function lostResults(counts: AttemptCounts | undefined, infra: InfraErrorsPolicy): number {
  return counts === undefined || infra !== "bound" ? 0 : counts.infra_error;
}

/** mₘₜ = passes / K*ₘₜ; null when K* = 0 (the task is not attempted by the model). */
export function taskScore(counts: AttemptCounts | undefined, infra: PointInfraErrorsPolicy): number | null {
  const k = effectiveAttempts(counts, infra);
  return counts === undefined || k === 0 ? null : counts.pass / k;
}

/**
 * Within-task sample variance s² of the 0/1 outcomes of K attempts with mean m:
 * s² = K·m(1−m)/(K−1), defined for K ≥ 2 (null otherwise).
 */
export function binarySampleVariance(score: number, k: number): number | null {
  if (!(k >= 2)) return null;
  return (k * score * (1 - score)) / (k - 1);
}

/**
 * s²/K, the squared standard error of one task score from re-runs alone: m(1−m)/(K−1).
 * null for K < 2. This is the per-task term of the re-run-only SE (SPEC §3).
 */
export function scoreRerunVariance(score: number, k: number): number | null {
  if (!(k >= 2)) return null;
  return (score * (1 - score)) / (k - 1);
}

/** True when the model has at least one pass, fail or infra_error attempt on the task. */
export function hasAttempt(counts: AttemptCounts | undefined): boolean {
  return counts !== undefined && counts.pass + counts.fail + counts.infra_error > 0;
}

/** Lost to infra (SPEC §2): the model has attempts on the task but all of them are infra errors. */
export function isLostToInfra(counts: AttemptCounts | undefined): boolean {
  return counts !== undefined && counts.infra_error > 0 && counts.pass + counts.fail === 0;
}
