/**
 * The report JSON's pieces that the deciding layers fill (SPEC §5): the verdict, the checks, the
 * comparison of the two models, each model's figures and a changed policy rule. They sit below
 * every layer that fills them (policy, stats, decision, history) and below report/, which puts
 * them into the whole report (report-types.ts), so no layer imports one above it. Key names are
 * part of the public contract, as in report-types.ts.
 */

export type Verdict = "accept" | "reject" | "unresolved";

export type CheckId =
  | "common_valid_tasks"
  | "infra_error_rate_baseline"
  | "infra_error_rate_candidate"
  | "disputed_fraction"
  | "missing_fraction_baseline"
  | "missing_fraction_candidate"
  | "same_harness"
  | "real_harness_revisions"
  | "dataset_revision"
  | "production_canary"
  | "observed_margin"
  | "append_only"
  | "reruns"
  | "benchmark_present";

export interface Check {
  readonly id: CheckId;
  /** A number, a string (e.g. the harness revisions seen) or null when it cannot be measured. */
  readonly observed: number | string | null;
  /** The policy's threshold as written, e.g. ">= 500", "< 1%", "> 0". */
  readonly threshold: string;
  readonly passed: boolean;
  /** "evidence" checks gate accept and reject alike; "margin" is the decision on LCB > δ₀. */
  readonly kind: "evidence" | "margin";
  /** One human sentence: what was measured and, when it failed, what would fix it. */
  readonly detail: string;
}

/** A task of U that moves the margin, with its effect, for "most influential disputed tasks". */
export interface InfluentialTask {
  readonly dataset_revision: string;
  readonly task_id: string;
  readonly validity: "disputed" | "unreviewed";
  /** d_t = m_A,t − m_B,t; the low end of its interval when `d_high` is given. */
  readonly d: number;
  /** Only when d_t is an interval (a lost result under infra_errors: bound, SPEC §3.8): its high end. */
  readonly d_high?: number;
  /** True when the task is in the set S_L that minimises the margin. */
  readonly in_lower_set: boolean;
  /** True when the task is in the set S_H that maximises the margin. */
  readonly in_upper_set: boolean;
  readonly evidence: readonly string[];
}

/**
 * The comparison read under one `infra_errors` mode (SPEC §3.8 "The three readings"): what §2–4
 * give with that mode and every other setting the policy's. `null` where a figure is undefined;
 * `margin` is null under `bound` when a common valid task has a lost result.
 */
export interface InfraReading {
  readonly common_tasks: number;
  readonly common_valid_tasks: number;
  readonly margin: number | null;
  /** Δ_L and Δ_H: over the open labels, and under `bound` the lost results too. */
  readonly margin_low: number | null;
  readonly margin_high: number | null;
  readonly lcb: number | null;
  readonly ucb: number | null;
  readonly verdict: Verdict;
}

/** The three readings, whatever the policy's mode (which is `provenance.infra_errors_policy`). */
export interface InfraReadings {
  readonly exclude: InfraReading;
  readonly count_as_fail: InfraReading;
  readonly bound: InfraReading;
}

export interface Comparison {
  readonly common_tasks: number;
  readonly common_valid_tasks: number;
  readonly unresolved_tasks: number;
  readonly disputed_tasks: number;
  readonly unreviewed_tasks: number;
  /** Broken tasks in the universe (appear for A or B): counted, never deleted. */
  readonly broken_tasks: number;
  readonly disputed_fraction: number | null;
  readonly margin: number | null;
  readonly margin_lower: number | null;
  readonly margin_upper: number | null;
  /** s_val = Δ̂ − Δ_L (downside). */
  readonly validity_sensitivity: number | null;
  /** Δ_H − Δ̂ (upside). */
  readonly validity_sensitivity_upside: number | null;
  readonly se_valid: number | null;
  readonly se_lower: number | null;
  readonly se_upper: number | null;
  /** Re-run-only SE over V, when every valid common task has ≥ 2 attempts (K*) for both models; else null. */
  readonly se_rerun: number | null;
  readonly standard_error: "paired" | "clustered";
  /** The policy's `cluster_correction` (used only with standard_error: clustered). */
  readonly cluster_correction: "cr2" | "cr1";
  /** Number of clusters G among the valid tasks when clustered, else null. */
  readonly clusters: number | null;
  /** The largest cluster's share of the valid tasks (clustered, every common task clustered), else null. */
  readonly largest_cluster_share: number | null;
  /** Degrees of freedom of se_valid, se_lower, se_upper (paired: n − 1; CR2: Bell–McCaffrey; CR1: G − 1). */
  readonly nu_valid: number | null;
  readonly nu_lower: number | null;
  readonly nu_upper: number | null;
  /** Design effect: the paired and the CR2 SE on V (when every common task has a cluster) and (CR2/paired)². */
  readonly se_valid_paired: number | null;
  readonly se_valid_cr2: number | null;
  readonly design_effect: number | null;
  readonly validity_bound: "exact" | "pessimistic";
  readonly confidence: number;
  /** The policy's quantile kind: t (q = t_ν⁻¹(confidence)) or z (q = z). */
  readonly quantile: "t" | "z";
  /** Φ⁻¹(confidence), whatever the quantile kind (the bounds use q_lower / q_upper). */
  readonly z: number;
  /** The quantile q on V alone, for LCB and for UCB (t: with that SE's ν; z: equal to z). */
  readonly q_valid: number | null;
  readonly q_lower: number | null;
  readonly q_upper: number | null;
  readonly delta0: number;
  readonly lcb: number | null;
  readonly ucb: number | null;
  /**
   * The margin term of LCB / UCB (2.2.0), so that lcb = margin_at_lcb − q_lower·se_lower and
   * ucb = margin_at_ucb + q_upper·se_upper: Δ(S) at the smallest set that attains an exact bound
   * (lcb_set / ucb_set), Δ_L / Δ_H for a conservative or pessimistic one; null with the bound.
   */
  readonly margin_at_lcb: number | null;
  readonly margin_at_ucb: number | null;
  /**
   * How LCB / UCB were taken (SPEC §3 revision 2): "exact" over every resolution of the open
   * labels, "conservative" (provably ≤ the minimum, ≥ the maximum, over every resolution), or
   * "pessimistic" (validity_bound: pessimistic); null with the bound.
   */
  readonly lcb_bound_kind: "exact" | "conservative" | "pessimistic" | null;
  readonly ucb_bound_kind: "exact" | "conservative" | "pessimistic" | null;
  /** The smallest S attaining an exact LCB / UCB (null unless exact). */
  readonly lcb_set: AttainingSet | null;
  readonly ucb_set: AttainingSet | null;
  /** Planning figures (SPEC §3 revision 2), never used to decide: MDE = (q_valid + z_power)·SE(V). */
  readonly mde: number | null;
  /** The policy's margin.power. */
  readonly power: number;
  /** Common valid tasks needed, ⌈(q·s_d/(Δ̂ − δ₀))²⌉, for an unresolved verdict held back by the margin with Δ̂ > δ₀. */
  readonly tasks_needed: number | null;
  /** Which fragility figure applies: review fragility for accept/reject, resolution distance for unresolved. */
  readonly review_fragility: number | null;
  readonly review_fragility_share: number | null;
  readonly resolution_distance: number | null;
  /** The figure is exact; false: the greedy search's upper bound ("at most"). */
  readonly fragility_exact: boolean;
  /**
   * The figure is null: no change of labels that changes (accept/reject) or decides (unresolved)
   * the verdict was found; with fragility_exact, none exists.
   */
  readonly fragility_unbounded: boolean;
  /** Tasks to review first (resolution distance) or whose relabelling flips the verdict (review fragility). */
  readonly fragility_tasks: readonly {
    readonly dataset_revision: string;
    readonly task_id: string;
    readonly change: string;
  }[];
  /** Tasks of U by effect on the margin, largest first (bounded length; see report builder). */
  readonly influential_tasks: readonly InfluentialTask[];
}

/** A set S of open tasks: its size, how many of each d it holds (single attempt), the first tasks. */
export interface AttainingSet {
  readonly size: number;
  readonly d_minus: number;
  readonly d_zero: number;
  readonly d_plus: number;
  /** At most MAX_INFLUENTIAL_TASKS of its tasks, d = −1 first, then 0, then +1, each in task-key order. */
  readonly tasks: readonly {
    readonly dataset_revision: string;
    readonly task_id: string;
    readonly d: number;
  }[];
}

/** A model's counts and rates (SPEC §2): what the checks read of its figures. */
export interface ModelCounts {
  readonly config: string;
  readonly harness_revisions: readonly string[];
  readonly dataset_revisions: readonly string[];
  readonly attempts: number;
  readonly passes: number;
  readonly fails: number;
  readonly infra_errors: number;
  readonly missing_attempts: number;
  readonly duplicate_rows: number;
  readonly attempted_tasks: number;
  readonly missing_tasks: number;
  readonly lost_to_infra_tasks: number;
  readonly infra_error_rate: number | null;
  readonly missing_fraction: number | null;
}

/** A model's counts with its scores and their validity intervals, as the report gives them. */
export interface ModelFigures extends ModelCounts {
  /** On the model's own attempted tasks. */
  readonly valid_only_score: number | null;
  readonly all_attempted_score: number | null;
  readonly interval_exact: readonly [number, number] | null;
  readonly interval_pessimistic: readonly [number, number] | null;
  /** The same figures restricted to the common set C. */
  readonly common: {
    readonly valid_only_score: number | null;
    readonly all_attempted_score: number | null;
    readonly interval_exact: readonly [number, number] | null;
    readonly interval_pessimistic: readonly [number, number] | null;
  };
}

/** A changed policy rule on a PR (SPEC §5.1). */
export interface PolicyChange {
  readonly key: string;
  readonly base: string | null;
  readonly head: string | null;
  readonly loosening: boolean;
}

/** One row of "where the margin comes from" (SPEC §3.6): a cluster, or the tasks without one. */
export interface ClusterMarginRow {
  /** The cluster's name as the export gives it; null for the row of the tasks without a cluster. */
  readonly cluster: string | null;
  /** Common valid tasks in it. */
  readonly tasks: number;
  /** The mean of d over those tasks. */
  readonly margin: number;
  /** Σ d over those tasks / N_v: the rows' contributions add up to the observed margin Δ̂. */
  readonly contribution: number;
  /** contribution / Δ̂ (its share of the total margin); null when Δ̂ is 0. */
  readonly share: number | null;
  /** True when the candidate is worse on it: margin < 0. */
  readonly worse: boolean;
}

/** The margin by cluster (SPEC §3.6): by |contribution| descending, then cluster name. */
export interface MarginByCluster {
  /** Distinct clusters among the common valid tasks. */
  readonly clusters: number;
  readonly rows: readonly ClusterMarginRow[];
  /** Common valid tasks without a cluster (their row has `cluster: null`; none when 0). */
  readonly unclustered_tasks: number;
}
