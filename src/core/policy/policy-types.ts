/** The acceptance policy after parsing and validation (SPEC §1.3). */

export type ThresholdOp = ">=" | ">" | "<=" | "<";

/** `OP NUMBER[%]`; `value` is a fraction when the text had `%` (e.g. "< 1%" → 0.01), else the number. */
export interface Threshold {
  readonly op: ThresholdOp;
  readonly value: number;
  readonly percent: boolean;
  /** The text as written in the policy, for the report. */
  readonly text: string;
}

export interface AcceptIf {
  readonly common_valid_tasks: Threshold;
  readonly infra_error_rate: Threshold;
  readonly disputed_fraction: Threshold;
  readonly missing_fraction?: Threshold;
  /** δ₀ of `observed_margin: "> validity_sensitivity + run_variance [± X%]"`, as a fraction. */
  readonly delta0: number;
  /** The observed_margin text as written. */
  readonly observed_margin_text: string;
  /** True when `production_canary: passes` is present. */
  readonly production_canary: boolean;
}

export interface MarginSettings {
  readonly confidence: number;
  /** t: q = t_ν⁻¹(confidence) with the ν of the SE; z: q = Φ⁻¹(confidence) whatever n (SPEC §3 rev. 2). */
  readonly quantile: "t" | "z";
  /** Power of the minimum detectable effect, a planning figure only (never decides). */
  readonly power: number;
  readonly standard_error: "paired" | "clustered";
  /** The small-sample correction of the clustered SE: CR2 with Bell–McCaffrey ν, or CR1 with ν = G − 1. */
  readonly cluster_correction: "cr2" | "cr1";
  readonly validity_bound: "exact" | "pessimistic";
}

/**
 * `rank.require` (docs/policy.md, docs/rank.md "Gating"): `top_resolved` (the default, the CLI's
 * exit status): one model is ordered above every other. `top_group`: the candidate could be first
 * and is ordered above every model that could not. `above_reference`: the candidate is ordered
 * above the reference.
 */
export const RANK_REQUIREMENTS = ["top_resolved", "top_group", "above_reference"] as const;
export type RankRequirement = (typeof RANK_REQUIREMENTS)[number];

/** The `rank` section: how `model-gate rank` and the action's rank mode gate. */
export interface RankPolicy {
  readonly require: RankRequirement;
  /** The default reference (the production config); the CLI's --reference or the action's input wins. */
  readonly reference: string | null;
}

export const INFRA_ERRORS_MODES = ["exclude", "count_as_fail", "bound"] as const;
export type InfraErrorsMode = (typeof INFRA_ERRORS_MODES)[number];
/** One guardrail of the policy (docs/spec.md §4.5), defaults filled in. */
export interface Guardrail {
  readonly metric: string;
  /** The largest accepted increase of R over 1, as a fraction ("10%" → 0.1). */
  readonly max_increase: number;
  /** `max_increase` as written. */
  readonly max_increase_text: string;
  /** The largest share of the common tasks on which either model may lack the metric. */
  readonly missing: Threshold;
}

export interface Policy {
  readonly owner: string;
  /** ISO date YYYY-MM-DD. */
  readonly revisit: string;
  /**
   * After `revisit`: warn (the verdict stands, a warning), neutral (as warn, and a check run that
   * would succeed is neutral), fail (the run stops with a policy error).
   */
  readonly on_expired: "warn" | "neutral" | "fail";
  /**
   * What an infra_error attempt is in a task score (docs/spec.md §3.8): left out, a fail, or a
   * lost result that could be either (the bounds are taken over both).
   */
  readonly infra_errors: InfraErrorsMode;
  readonly require_same_harness: boolean;
  readonly accept_if: AcceptIf;
  readonly margin: MarginSettings;
  readonly on_unresolved: "fail" | "neutral";
  /**
   * Re-runs of the eval on one head commit (docs/runs.md): `latest` decides on this run
   * alone, `fail` rejects when an earlier run there had other results, `pool` decides on every
   * run's attempts together. Only the action can tell; the CLI decides as `latest`.
   */
  readonly reruns: "latest" | "pool" | "fail";
  /** The `benchmarks:` entries, sorted by name; absent when the policy has none. */
  readonly benchmarks?: readonly BenchmarkPolicy[];
  /** Present only when the policy has a `rank` section (evaluate ignores it). */
  readonly rank?: RankPolicy;
  /** Present only when the policy has `guardrails` (docs/spec.md §4.5), sorted by metric name. */
  readonly guardrails?: readonly Guardrail[];
}

/**
 * One entry of the policy's `benchmarks:` (docs/policy.md "Several benchmarks"): the accept_if
 * that decides that benchmark (the top-level one with the entry's keys over it), whether the
 * overall accept needs it, and whether it is the production canary.
 */
export interface BenchmarkPolicy {
  readonly name: string;
  readonly accept_if: AcceptIf;
  /** The accept_if keys the entry sets itself (the rest are the top-level ones). */
  readonly overrides: readonly string[];
  /** The overall accept needs this benchmark to accept; a required benchmark the export lacks fails its evidence. */
  readonly required: boolean;
  /** This benchmark is the production canary: it meets `production_canary: passes` by accepting. */
  readonly canary: boolean;
}

/** Where the deciding policy came from (SPEC §5, provenance.policy). */
export interface PolicySource {
  readonly path: string;
  readonly sha256: string;
  /** e.g. "file", "base-commit <sha>" */
  readonly source: string;
  /** The commit that last changed the policy file, when known. */
  readonly lastCommit: string | null;
}
