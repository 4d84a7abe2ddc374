/**
 * One run of the gate as the PR remembers it, and what changed since the last run (docs/spec.md
 * §3.7). The report JSON carries `since_last_run`, so report/ imports these types; the run
 * history reads a finished report only through `DecidedReport` (below), so it never imports
 * report/ back. Key names are part of the public contract, as in report-types.ts.
 */
import type { Validity } from "../model.js";
import type { InfraErrorsMode } from "../policy/policy-types.js";
import type { Comparison, Verdict } from "../verdict-types.js";

/**
 * What the run history reads of a finished report (src/core/report/report-types.ts `Report`
 * satisfies it): the verdict, the margin's figures, the two models and the inputs' digests.
 */
export interface DecidedReport {
  readonly verdict: Verdict;
  readonly comparison: Pick<Comparison, "margin" | "lcb" | "ucb" | "margin_lower" | "margin_upper">;
  readonly models: {
    readonly baseline: { readonly config: string };
    readonly candidate: { readonly config: string };
  };
  readonly provenance: {
    readonly inputs: readonly { readonly kind: "results" | "reviews"; readonly sha256: string }[];
    readonly review_revisions: readonly number[];
    readonly as_of_review: number | null;
    readonly policy: { readonly sha256: string };
    readonly infra_errors_policy: InfraErrorsMode;
  };
}

/**
 * What one run is: small, and nothing the sticky comment does not show (no per-task data). The
 * action stores it in the comment and parses it back with runSummarySchema (untrusted).
 */
export interface RunSummary {
  /** The commit the run evaluated (the PR's head); null outside a pull request (the CLI). */
  readonly head_sha: string | null;
  readonly baseline: string;
  readonly candidate: string;
  /**
   * sha256 (hex) of the inputs: `results` and `reviews` are the sha256 of the sorted per-file
   * sha256s (hex, each followed by "\n") of that kind of file in `provenance.inputs`, so the order
   * the files were given in does not matter; `policy` is the deciding policy's own sha256.
   */
  readonly digests: { readonly results: string; readonly reviews: string; readonly policy: string };
  /** The highest review revision seen (export and reviews); null when no label has one. */
  readonly review_revision_max: number | null;
  readonly verdict: Verdict;
  /** Δ̂, LCB, UCB, Δ_L and Δ_H as in `comparison` (margin, lcb, ucb, margin_lower, margin_upper); null where undefined. */
  readonly margin: number | null;
  readonly lcb: number | null;
  readonly ucb: number | null;
  readonly margin_low: number | null;
  readonly margin_high: number | null;
}

/** A figure of the two runs; `change` = after − before, null when either is null. */
export interface FigureChange {
  readonly before: number | null;
  readonly after: number | null;
  readonly change: number | null;
}

/** A task whose score m (passes / K*) for one model differs between the two runs. */
export interface TaskFlip {
  readonly dataset_revision: string;
  readonly task_id: string;
  readonly before: number;
  readonly after: number;
}

/** One model's flipped tasks (docs/spec.md §3.7): counts complete, lists bounded (RUN_LIST_MAX). */
export interface ModelFlips {
  /** The model_config (the current run's). */
  readonly model: string;
  /** Tasks whose score fell (for one attempt: pass → fail), in dataset order. */
  readonly pass_to_fail_count: number;
  readonly pass_to_fail: readonly TaskFlip[];
  /** Tasks whose score rose (for one attempt: fail → pass), in dataset order. */
  readonly fail_to_pass_count: number;
  readonly fail_to_pass: readonly TaskFlip[];
  /** Tasks with a score in the previous run only (no counted attempt now), and in the current run only. */
  readonly only_previous: number;
  readonly only_current: number;
}

/** A task of both runs whose effective label changed. */
export interface LabelChange {
  readonly dataset_revision: string;
  readonly task_id: string;
  /** The label in the previous run (`compared: "review_revisions"`: as of its review_revision_max). */
  readonly before: Validity;
  readonly after: Validity;
  /** The review revision of the current label; null when the task has no label event now. */
  readonly review_revision: number | null;
}

/** A task whose contribution to Δ̂ (d / N_v on the common valid set, else 0) changed. */
export interface MarginMover {
  readonly dataset_revision: string;
  readonly task_id: string;
  /** d = m_candidate − m_baseline when the task was in V, else null. */
  readonly d_before: number | null;
  readonly d_after: number | null;
  readonly contribution_before: number;
  readonly contribution_after: number;
  /** contribution_after − contribution_before. */
  readonly change: number;
}

/** What changed since the last run (report key `since_last_run`, docs/spec.md §3.7). */
export interface RunChanges {
  /** The previous run, as remembered. */
  readonly previous: RunSummary;
  /** Why the previous run's inputs could not be read (then the per-task parts are null), else null. */
  readonly unavailable: string | null;
  /** Which inputs' digests differ. */
  readonly inputs_changed: { readonly results: boolean; readonly reviews: boolean; readonly policy: boolean };
  /** The baseline or the candidate model_config differs. */
  readonly models_changed: boolean;
  readonly verdict: { readonly before: Verdict; readonly after: Verdict; readonly changed: boolean };
  readonly margin: FigureChange;
  readonly lcb: FigureChange;
  readonly ucb: FigureChange;
  readonly margin_low: FigureChange;
  readonly margin_high: FigureChange;
  /**
   * Labels that changed. `compared`: "readings" when both runs' labels were read (every task
   * whose effective label differs), "review_revisions" when only the previous run's summary is
   * known (tasks with a label event above its review_revision_max whose label differs from the
   * one as of that revision).
   */
  readonly labels: {
    readonly compared: "readings" | "review_revisions";
    readonly count: number;
    readonly tasks: readonly LabelChange[];
  };
  /** Flipped tasks of each model; null when the previous run's inputs are unavailable. */
  readonly baseline: ModelFlips | null;
  readonly candidate: ModelFlips | null;
  /** The tasks that moved Δ̂ most, |change| descending (top RUN_MOVERS_MAX); null when unavailable. */
  readonly movers: { readonly count: number; readonly tasks: readonly MarginMover[] } | null;
}
