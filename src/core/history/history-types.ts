/**
 * Report JSON types of the history features. Kept apart from report-types.ts, which
 * imports them, so that file only gains one key per feature.
 */
import type { Comparison, Verdict } from "../verdict-types.js";

export type Label = "unreviewed" | "valid" | "broken" | "disputed";

/** The gate's figures as of one review revision (only labels with review_revision ≤ it count). */
export interface RevisionVerdict {
  readonly revision: number;
  /** Effective labels of the universe's tasks (broken included) as of this revision. */
  readonly labels: {
    readonly valid: number;
    readonly disputed: number;
    readonly unreviewed: number;
    readonly broken: number;
  };
  /** Tasks with two different labels at their effective revision: then every figure is null. */
  readonly label_conflicts: number;
  readonly common_valid_tasks: number | null;
  readonly unresolved_tasks: number | null;
  readonly margin: number | null;
  readonly margin_lower: number | null;
  readonly margin_upper: number | null;
  readonly lcb: number | null;
  readonly ucb: number | null;
  /** How LCB / UCB were taken at this revision (2.2.0), as the comparison's `lcb_bound_kind`. */
  readonly lcb_bound_kind: Comparison["lcb_bound_kind"];
  readonly ucb_bound_kind: Comparison["ucb_bound_kind"];
  readonly verdict: Verdict | null;
}

/** What changed between two consecutive evaluated revisions. */
export interface RevisionChange {
  readonly from_revision: number;
  readonly to_revision: number;
  /**
   * Tasks whose effective label differs and was not `unreviewed` before (exact count): a
   * reclassification of a label given earlier.
   */
  readonly tasks_changed: number;
  /** Tasks labelled for the first time (unreviewed before; since 2.5.0): not a reclassification. */
  readonly first_labels: number;
  /** The count of each label change, e.g. {change: "valid → broken", tasks: 12}, most first. */
  readonly transitions: readonly { readonly change: string; readonly tasks: number }[];
  readonly margin_before: number | null;
  readonly margin_after: number | null;
  readonly verdict_before: Verdict | null;
  readonly verdict_after: Verdict | null;
  /**
   * The tasks that moved the margin most (at most 20; tasks_changed is the count): margin_move is
   * Δ̂ with only this task relabelled minus Δ̂ at from_revision (0 when the task does not enter or
   * leave the valid common set; null when Δ̂ is undefined before or after).
   */
  readonly tasks: readonly {
    readonly dataset_revision: string;
    readonly task_id: string;
    readonly from: Label;
    readonly to: Label;
    readonly margin_move: number | null;
  }[];
}

export interface VerdictByReviewRevision {
  /** Distinct review revisions in the data (as of --as-of-review, when given). */
  readonly revisions_present: number;
  /** The latest revisions (at most 20), ascending. */
  readonly revisions: readonly RevisionVerdict[];
  readonly changes: readonly RevisionChange[];
  /** The last change when it reclassified a task; null with one revision, or when it only gave first labels. */
  readonly latest_reclassification: {
    readonly revision: number;
    readonly tasks_changed: number;
    readonly verdict_from: Verdict | null;
    readonly verdict_to: Verdict | null;
    readonly verdict_changed: boolean;
  } | null;
}

/** One earlier row that is gone or changed. */
export interface AppendOnlyViolation {
  readonly kind: "results" | "reviews";
  /** Where the row was, in the previous version. */
  readonly file: string;
  readonly line: number;
  /** The current row with its key (when it changed), else null. */
  readonly current_file: string | null;
  readonly current_line: number | null;
  /** "removed: …" or "changed: …: field old → new". */
  readonly change: string;
}

/** The append-only check (report key `append_only`; null when no previous version was given). */
export interface AppendOnlyReport {
  readonly previous_inputs: readonly {
    readonly kind: "results" | "reviews";
    readonly path: string;
    readonly sha256: string;
  }[];
  readonly previous_rows: { readonly results: number; readonly reviews: number };
  /** Exact count. */
  readonly rows_changed_or_removed: number;
  /** The first rows (at most 20), results first, each in file order. */
  readonly rows: readonly AppendOnlyViolation[];
}

/**
 * Where the action's append-only check took the previous versions from (report key
 * `append_only_base`): each results and reviews file at the base commit, or why it was not
 * compared. null from the CLI (which names its previous files) and on events without a base.
 */
export interface AppendOnlyBase {
  /** The base commit: the pull request's (confirmed, on workflow_run) or the merge group's. */
  readonly commit: string;
  readonly files: readonly {
    readonly kind: "results" | "reviews";
    /** The file's path in the repository (or as the gate names it, when it is not in one). */
    readonly path: string;
    readonly compared: boolean;
    /** How the base version was read: "git" or "contents API"; null when not compared. */
    readonly via: "git" | "contents API" | null;
    /**
     * Why not compared (e.g. "not in the repository"); for a file compared though not among the
     * inputs, why ("removed by this change (PATTERN matched it at the base commit)"); else null.
     */
    readonly note: string | null;
  }[];
}
