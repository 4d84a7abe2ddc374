/**
 * What analyseMargin (margin.ts) returns: the comparison of SPEC §3 on one dataset, or one pair
 * of a ranking.
 */
import type { MarginSettings } from "../policy/policy-types.js";
import type { InfraErrorsPolicy } from "./task-scores.js";

/**
 * How LCB/UCB were taken (SPEC §3 revision 2): exact over every resolution, a conservative bound
 * over every resolution, or the seed's pessimistic resolution (validity_bound: pessimistic).
 */
export type BoundKind = "exact" | "conservative" | "pessimistic";

export interface MarginAnalysis {
  /** |T|: non-broken tasks that appear for either model. */
  readonly universeTasks: number;
  readonly brokenTasks: number;
  readonly commonTasks: number;
  /** N_v */
  readonly commonValidTasks: number;
  /** D = disputed + unreviewed */
  readonly unresolvedTasks: number;
  readonly disputedTasks: number;
  readonly unreviewedTasks: number;
  /** φ = D / (N_v + D); null when C is empty. */
  readonly disputedFraction: number | null;
  /** Δ̂ = Σ_V d / N_v; null when N_v = 0 or a task of V has a lost result (SPEC §3.8). */
  readonly margin: number | null;
  /** Δ̂'s range over the lost results of V, [Σ_V d^lo, Σ_V d^hi] / N_v (both Δ̂ when it is a point); null when N_v = 0. */
  readonly observedLow: number | null;
  readonly observedHigh: number | null;
  /** Tasks of V, and of U, whose d is an interval: a lost result open under infra_errors: bound. */
  readonly lostValidTasks: number;
  readonly lostOpenTasks: number;
  readonly marginLower: number | null;
  readonly marginUpper: number | null;
  readonly validitySensitivity: number | null;
  readonly validitySensitivityUpside: number | null;
  readonly seValid: number | null;
  readonly seLower: number | null;
  readonly seUpper: number | null;
  readonly seRerun: number | null;
  /** Degrees of freedom of seValid / seLower / seUpper (paired: n − 1; CR2: Bell–McCaffrey; CR1: G − 1). */
  readonly nuValid: number | null;
  readonly nuLower: number | null;
  readonly nuUpper: number | null;
  /** The quantile kind and the quantiles q used on V, for LCB and for UCB (t: with that bound's ν). */
  readonly quantile: "t" | "z";
  readonly qValid: number | null;
  readonly qLower: number | null;
  readonly qUpper: number | null;
  /** G over V when clustered (tasks with a cluster only), else null. */
  readonly clusters: number | null;
  /** The largest cluster's share of V (clustered SE with every common task clustered), else null. */
  readonly largestClusterShare: number | null;
  /** Tasks of C without a `cluster` (clustered SE only; then every SE is null). */
  readonly tasksWithoutCluster: number;
  /**
   * Design effect (SPEC §3): the paired and the CR2 SE on V, when every common task has a cluster
   * (with a lost result on V, each is its bound over the resolutions, SPEC §3.8).
   */
  readonly sePairedValid: number | null;
  readonly seCr2Valid: number | null;
  /** Φ⁻¹(confidence), whatever the quantile kind. */
  readonly z: number;
  readonly lcb: number | null;
  readonly ucb: number | null;
  /**
   * The margin term of LCB / UCB, so that LCB = marginAtLcb − qLower·seLower: Δ(S) at the set S
   * that attains an exact bound, Δ_L / Δ_H for a conservative or pessimistic one; null with the bound.
   */
  readonly marginAtLcb: number | null;
  readonly marginAtUcb: number | null;
  /** How LCB and UCB were taken; null when they are null. */
  readonly lcbKind: BoundKind | null;
  readonly ucbKind: BoundKind | null;
  /**
   * Positions (into unresolvedTaskIndices) of the smallest S attaining an exact LCB / UCB, −1
   * tasks first, then ties, then +1, each in dataset order; null unless that bound is exact.
   */
  readonly lcbSet: readonly number[] | null;
  readonly ucbSet: readonly number[] | null;
  /** Indices into dataset.tasks of the tasks of U, in dataset order. */
  readonly unresolvedTaskIndices: readonly number[];
  /** The low and high ends of dₜ of the tasks of U, aligned with unresolvedTaskIndices (one array when all are points). */
  readonly unresolvedLow: Float64Array;
  readonly unresolvedHigh: Float64Array;
  /** Positions (into unresolvedTaskIndices) of S_L and S_H, most extreme first. */
  readonly lowerSet: readonly number[];
  readonly upperSet: readonly number[];
}

export interface MarginOptions {
  readonly infra: InfraErrorsPolicy;
  readonly margin: MarginSettings;
}
