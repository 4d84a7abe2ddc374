/**
 * The rank's input (several models' attempt counts over one task table) and its report JSON
 * (docs/rank.md, docs/report-json.md "The rank report"). The report has its own schema version:
 * it is not the evaluate report and changes on its own.
 */
import type {
  AttemptCounts,
  InputFileDigest,
  ModelsMetrics,
  ModelSummary,
  TaskTable,
  UnmatchedLabels,
} from "../model.js";
import type { AppendOnlyReport } from "../history/history-types.js";
import type { BoundKind } from "../stats/margin.js";
import type { InfraErrorsMode, RankRequirement } from "../policy/policy-types.js";
import type { InfluentialTask, Verdict } from "../verdict-types.js";

/** The rank report's schema version (semver: a new key is minor, a changed meaning major). */
export const RANK_SCHEMA_VERSION = "1.5.0";

/**
 * Several models read from one export: every task any of them ran (broken included), sorted by
 * (dataset_revision, task_id), with each model's attempt counts by task. The labels, clusters and
 * evidence are the tasks' (a task's label does not depend on which models are read).
 */
export interface ModelsDataset {
  /** The ranked models, in the order given (--models) or the export's sorted order. */
  readonly models: readonly string[];
  readonly tasks: TaskTable;
  /** counts[k][i]: model k's attempts on task i; undefined when it has no row there. */
  readonly counts: readonly (readonly (AttemptCounts | undefined)[])[];
  /** What the reader learned about each model, aligned with `models`. */
  readonly summaries: readonly ModelSummary[];
  /** Every model_config seen in the export, sorted. */
  readonly modelsPresent: readonly string[];
  readonly inputs: readonly InputFileDigest[];
  /** Rows in the export (one read's count: every read reads every row). */
  readonly rowsRead: number;
  readonly reviewRevisions: readonly number[];
  /** How many times the export was read (docs/rank.md "Reading"). */
  readonly passes: number;
  readonly unmatchedLabels?: readonly UnmatchedLabels[];
  /** The models' metrics by task (byModel aligned with `models`); absent when none carries one. */
  readonly metrics?: ModelsMetrics;
}

export type PairRelation = "a_better" | "b_better" | "unresolved";

export interface RankPair {
  readonly a: string;
  readonly b: string;
  /** Δ̂ = score_a − score_b on the common valid tasks. */
  readonly margin: number | null;
  /** Δ_L, Δ_H: the margin's extremes over every resolution of the open labels. */
  readonly margin_low: number | null;
  readonly margin_high: number | null;
  /** The policy's SE on the common valid tasks, and its degrees of freedom. */
  readonly se: number | null;
  readonly nu: number | null;
  /** LCB / UCB at one-sided level `level` (confidence 1 − level). */
  readonly lcb: number | null;
  readonly ucb: number | null;
  readonly lcb_bound_kind: BoundKind | null;
  readonly ucb_bound_kind: BoundKind | null;
  /**
   * The one-sided level of each directional claim: α/(2m − r) of the Holm round that decided (Holm
   * over the 2m directional claims, r the pairs ordered before it; docs/rank.md "Multiplicity").
   */
  readonly level: number;
  /** The Holm round (1-based) that ordered the pair, or the last round for an unresolved pair. */
  readonly round: number;
  readonly relation: PairRelation;
  /**
   * Why an unresolved pair is: `validity` when the open labels can move its margin across 0 (the
   * validity band holds 0 and is not a single point); `run_variance` otherwise (the band excludes
   * 0, or it is exactly 0 with nothing open that moves it: an exact tie). null when ordered.
   */
  readonly unresolved_by: "validity" | "run_variance" | null;
}

/** One metric of one model over the rank's common tasks. */
export interface RankMetricMean {
  readonly metric: string;
  /** The mean over `tasks` of the model's per-task mean (over its attempts that carry it); null when 0 tasks. */
  readonly mean: number | null;
  /** Common tasks on which the model carries the metric. */
  readonly tasks: number;
}

export interface RankModel {
  readonly model: string;
  /** The valid-only score on the common set. */
  readonly score: number | null;
  /** The score's validity interval on the common set (exact or pessimistic, as the policy says). */
  readonly interval: readonly [number, number] | null;
  /**
   * The run-variance band (1.1.0): the validity interval widened by q·SE of the model's own score
   * on the common valid tasks (the policy's SE kind, quantile and confidence, one-sided at each end,
   * no multiplicity adjustment), clipped to [0, 1]; null when the SE is undefined. A picture of each
   * model's uncertainty: the ordering comes from the pairs (paired SE), not from these bands.
   */
  readonly run_variance_band: readonly [number, number] | null;
  readonly rank_low: number;
  readonly rank_high: number;
  /**
   * The model's group: a stretch of the leaderboard the evidence separates from the stretches
   * before and after it (every model of a group is ordered above every model of a later group).
   * Pairs inside a group may be ordered too, so group 1 is not "the models that could be first":
   * could_be_first is (rank_low = 1).
   */
  readonly group: number;
  /** Tasks (not broken) every other ranked model has a score on and this one has none. */
  readonly absence_adds_back: number;
  /** Of those, the ones labelled valid: how much larger the common valid set would be without it. */
  readonly absence_adds_back_valid: number;
  /** Against --reference: ordered above it, below it, unresolved; null for the reference itself or without one. */
  readonly vs_reference: "above" | "below" | "unresolved" | null;
  readonly harness_revisions: readonly string[];
  /** Each metric's mean per task over the common tasks (figures only; since 1.3.0, absent without metrics). */
  readonly metrics?: readonly RankMetricMean[];
}

/** An adjacent pair (in score order) that the open labels alone keep unordered. */
export interface ReviewFirst {
  readonly a: string;
  readonly b: string;
  /**
   * The fewest open labels whose resolution could take 0 out of the pair's validity band, in
   * each direction (a above b / b above a); null when no resolution can. A best case: the
   * reviews must come out that way, so it is the fewest that could settle it (docs/rank.md).
   */
  readonly reviews_to_settle_a_better: number | null;
  readonly reviews_to_settle_b_better: number | null;
  /** The open tasks that move this pair's margin most (d = m_a − m_b), largest effect first. */
  readonly tasks: readonly InfluentialTask[];
}

export interface RankAdjustment {
  /**
   * The step-down over the pairs' directional claims (docs/rank.md "Multiplicity"; 1.5.0): the
   * max-t step-down with a paired SE, Holm at α/(2(m − r)) with a clustered one. Before 1.5.0
   * "holm", Holm over the 2m claims at α/(2m − r).
   */
  readonly method: "max_t" | "holm_pairs";
  /** m = K(K − 1)/2. */
  readonly pairs: number;
  /** 2m: each pair's two claims ("a above b", "b above a"), the family the guarantee is over (1.2.0). */
  readonly directional_claims: number;
  /** α = 1 − the policy's confidence: the level of the family of directional claims. */
  readonly family_alpha: number;
  /** The normal draws the max-t quantile is taken over, and their fixed seed; null under holm_pairs (1.5.0). */
  readonly draws: number | null;
  readonly seed: number | null;
  /** How many rounds of the step-down ran (the last one ordered nothing). */
  readonly rounds: number;
  /** Pairs ordered in all. */
  readonly ordered_pairs: number;
  /** The one-sided level used in the last round: every unresolved pair's. */
  readonly final_level: number;
  /** The family's guarantee in one sentence (step-down.ts familyGuarantee; 1.2.0). */
  readonly guarantee: string;
}

/** The rank gate's decision (src/core/rank/rank-gate.ts, docs/rank.md "Gating"). */
export interface RankGate {
  readonly require: RankRequirement;
  /** The model the requirement is about; null for top_resolved without a candidate. */
  readonly candidate: string | null;
  readonly verdict: Verdict;
  /** Why, in plain sentences (model ids quoted; escape before Markdown). */
  readonly reasons: readonly string[];
}

export interface RankReport {
  readonly schema_version: string;
  readonly kind: "rank";
  /** The one model that could be first (ordered above every other); null when the top is unresolved. */
  readonly top: string | null;
  readonly top_resolved: boolean;
  /**
   * The models that could be first at the family's confidence: no model is ordered above them
   * (rank_low = 1), in rank order (1.2.0).
   */
  readonly could_be_first: readonly string[];
  /** The top model by score is above every other under every resolution of the open labels (Δ_L > 0). */
  readonly top_validity_resolved: boolean | null;
  readonly reference: string | null;
  /** The policy's rank.require applied to the candidate (docs/rank.md "Gating"); since 1.1.0. */
  readonly gate: RankGate;
  readonly warnings: readonly string[];
  /** In rank order: by score, ties by model id. */
  readonly models: readonly RankModel[];
  /** Groups in order (group 1 first), each a list of models in score order (see RankModel.group). */
  readonly groups: readonly (readonly string[])[];
  /** Every pair (a before b in the order the models were given). */
  readonly pairs: readonly RankPair[];
  readonly adjustment: RankAdjustment;
  readonly review_first: readonly ReviewFirst[];
  readonly common_tasks: number;
  readonly common_valid_tasks: number;
  readonly unresolved_tasks: number;
  readonly disputed_tasks: number;
  readonly unreviewed_tasks: number;
  readonly broken_tasks: number;
  /** Non-broken tasks any ranked model ran. */
  readonly universe_tasks: number;
  readonly settings: {
    readonly confidence: number;
    readonly quantile: "t" | "z";
    readonly standard_error: "paired" | "clustered";
    readonly cluster_correction: "cr2" | "cr1";
    readonly validity_bound: "exact" | "pessimistic";
    readonly infra_errors: InfraErrorsMode;
    readonly common_valid_tasks_threshold: string;
  };
  readonly provenance: {
    readonly inputs: readonly { readonly path: string; readonly sha256: string }[];
    readonly models_given: readonly string[];
    readonly dataset_revisions: readonly string[];
    readonly review_revisions: readonly number[];
    /** --as-of-review N (only labels with review_revision ≤ N counted); null without it. (1.1.0) */
    readonly as_of_review: number | null;
    /** The append-only check against --previous-results / --previous-reviews; null without them. (1.1.0) */
    readonly append_only: AppendOnlyReport | null;
    readonly rows_read: number;
    readonly passes: number;
    readonly policy: {
      readonly path: string;
      readonly sha256: string;
      readonly owner: string;
      readonly revisit: string;
      readonly source: string;
      readonly last_commit: string | null;
    };
    readonly tool_version: string;
  };
}

/** One benchmark's ranking in the report of several (1.4.0): its name and its rank report. */
export type RankBenchmark = { readonly name: string } & Omit<RankReport, "schema_version" | "kind">;

/**
 * The rank report of an export of several benchmarks (1.4.0; docs/rank.md "Several benchmarks"):
 * a ranking per benchmark, in name order, and the rank gate over all of them.
 */
export interface RankBenchmarksReport {
  readonly schema_version: string;
  readonly kind: "rank";
  /** Always true: the models were ranked within each benchmark, never across them. */
  readonly ranked_within_benchmarks: true;
  /** The model resolved first in every benchmark; null when none is. */
  readonly top: string | null;
  readonly top_resolved: boolean;
  /** Accept when every benchmark's gate accepts, reject when one rejects, else unresolved. */
  readonly gate: RankGate;
  /** Every benchmark's warnings, each once. */
  readonly warnings: readonly string[];
  readonly benchmarks: readonly RankBenchmark[];
  /** The export's (the first benchmark's, with every benchmark's dataset and review revisions). */
  readonly provenance: RankReport["provenance"];
}

/** What rank reports: one ranking, or one per benchmark. */
export type RankResult = RankReport | RankBenchmarksReport;
