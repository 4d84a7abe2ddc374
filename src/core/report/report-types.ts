/**
 * The report JSON (SPEC §5). Key names are part of the public contract: renaming one is a
 * breaking change and needs a new SCHEMA_VERSION. Numbers are plain JSON numbers; `null` where a
 * figure is undefined (e.g. a rate over zero attempts). Non-finite numbers never appear.
 */

import type { InfraErrorsMode } from "../policy/policy-types.js";
import type { GuardrailEntry } from "../decision/guardrails.js";
import type { AppendOnlyBase, AppendOnlyReport, VerdictByReviewRevision } from "../history/history-types.js";
import type { PolicyLogEntry } from "../history/policy-log.js";
import type { RunsReport } from "../run-history/runs-report.js";
import type { RunChanges } from "../run-history/run-types.js";
import type {
  Check,
  Comparison,
  InfraReadings,
  MarginByCluster,
  ModelFigures,
  PolicyChange,
  Verdict,
} from "../verdict-types.js";

export const SCHEMA_VERSION = "2.8.0";

export interface Provenance {
  /** Results files, then reviews files, in the order given; `kind` says which (since 2.4.0). */
  readonly inputs: readonly {
    readonly kind: "results" | "reviews";
    readonly path: string;
    readonly sha256: string;
  }[];
  readonly dataset_revisions: readonly string[];
  readonly harness_revisions: readonly string[];
  readonly review_revisions: readonly number[];
  /** `--as-of-review N`: only labels with review_revision ≤ N counted; null when not given. */
  readonly as_of_review: number | null;
  readonly policy: {
    readonly path: string;
    readonly sha256: string;
    readonly owner: string;
    readonly revisit: string;
    readonly source: string;
    readonly last_commit: string | null;
    /** The check run's conclusion for "unresolved" (policy `on_unresolved`), so consumers need not re-read the policy. */
    readonly on_unresolved: "fail" | "neutral";
    /** The policy's `on_expired` (since 2.5.0; `fail` never reaches a report: the run stops). */
    readonly on_expired: "warn" | "neutral";
    /** Its revisit date had passed on the day of the run (since 2.5.0). */
    readonly expired: boolean;
  };
  readonly infra_errors_policy: InfraErrorsMode;
  readonly tool_version: string;
  readonly rows_read: number;
}

/** Every broken task: `count`, and the task ids by dataset revision (Dataset order). */
export interface BrokenTasks {
  readonly count: number;
  readonly by_dataset_revision: readonly {
    readonly dataset_revision: string;
    readonly task_ids: readonly string[];
  }[];
}

/**
 * Every task whose label changed (two of its label events differ), with all its events; tasks
 * labelled at several revisions with the same label each time are counted in `same_label_tasks`.
 * `task_ids[i]`'s events are `events[i]`: "r<revision> <validity> <file>:<line>" joined by "; ",
 * ascending, `<file>` an index into `files` (docs/report-json.md "Broken tasks and review history in
 * the report JSON").
 */
export interface ReviewHistory {
  /** Tasks listed. */
  readonly count: number;
  /** Their label events in all. */
  readonly events: number;
  readonly same_label_tasks: number;
  /** The files the events' sources are in, in first-use order. */
  readonly files: readonly string[];
  readonly by_dataset_revision: readonly {
    readonly dataset_revision: string;
    readonly task_ids: readonly string[];
    readonly events: readonly string[];
  }[];
}

/** The recent history of the deciding policy, on a pull request that changes it. */
export interface PolicyHistoryReport {
  /** The policy's repository path. */
  readonly path: string;
  /** The commit the history ends at: the base commit, whose policy decided. */
  readonly rev: string;
  /** Why the history could not be read (one line, e.g. "the checkout is shallow; needs fetch-depth: 0"), else null. */
  readonly unavailable: string | null;
  /** The last changes, oldest first (the policy log's entries); empty when unavailable. */
  readonly entries: readonly PolicyLogEntry[];
  /** True when earlier changes exist than those listed. */
  readonly earlier: boolean;
}

/**
 * One benchmark of a gate over several (docs/spec.md §4.6; since 2.6.0): its own verdict at the
 * policy's level, its headline figures and checks, its harm claim under Holm's step-down across
 * the benchmarks, and its full report (null for a required benchmark the export lacks).
 */
export interface BenchmarkReport {
  readonly name: string;
  readonly verdict: Verdict;
  readonly required: boolean;
  readonly canary: boolean;
  readonly margin: number | null;
  readonly margin_low: number | null;
  readonly margin_high: number | null;
  readonly lcb: number | null;
  readonly ucb: number | null;
  readonly common_valid_tasks: number;
  readonly checks: readonly Check[];
  /** Holm's step-down: the level its UCB was last tested at (α/(B − r)), that UCB, and whether the harm claim holds. */
  readonly holm: { readonly level: number | null; readonly ucb: number | null; readonly harm: boolean };
  readonly report: Report | null;
}

export interface Report {
  readonly schema_version: string;
  readonly verdict: Verdict;
  /** Why this verdict, and for unresolved what would resolve it. */
  readonly reasons: readonly string[];
  /**
   * Cost, latency and token guardrails beside accuracy (docs/spec.md §4.5), in metric-name order;
   * `limit` and `verdict` null for a metric the policy does not gate (figures only). Absent when
   * the policy has no guardrails and no compared attempt carries a metric (since 2.6.0).
   */
  readonly guardrails?: readonly GuardrailEntry[];
  /** With guardrails in the policy: the verdict of accuracy alone, before they join it (since 2.6.0). */
  readonly accuracy_verdict?: Verdict;
  /** Warnings that belong in the headline (expired policy, infra errors counted as fails, G < 30…). */
  readonly warnings: readonly string[];
  readonly checks: readonly Check[];
  readonly comparison: Comparison;
  /** The comparison under each infra_errors mode (SPEC §3.8; since 2.6.0): always present. */
  readonly infra_readings: InfraReadings;
  readonly models: { readonly baseline: ModelFigures; readonly candidate: ModelFigures };
  /** Where the margin comes from (SPEC §3.6): the margin by the tasks' `cluster`; null when no common valid task has one. */
  readonly margin_by_cluster: MarginByCluster | null;
  /** Broken tasks of the universe, every one listed (compact: ids grouped by dataset revision), never deleted. */
  readonly broken_tasks: BrokenTasks;
  /** Tasks whose label changed across review revisions, every one with every event (compact form). */
  readonly review_history: ReviewHistory;
  /** The verdict as of each review revision and what changed between them. */
  readonly verdict_by_review_revision: VerdictByReviewRevision;
  /** The append-only check against the previous results/reviews (null when none was given). */
  readonly append_only: AppendOnlyReport | null;
  /** The action: each results/reviews file's base version compared, or why not (null elsewhere). */
  readonly append_only_base: AppendOnlyBase | null;
  /** Present only on pull requests whose head changes the policy file. */
  readonly policy_changes: readonly PolicyChange[] | null;
  /** Present only with policy_changes, in the action: the base policy's last changes from git. */
  readonly policy_history: PolicyHistoryReport | null;
  /** What changed since the last run (docs/spec.md §3.7); null when no previous run was given. */
  readonly since_last_run: RunChanges | null;
  readonly provenance: Provenance;
  /** The action on a commit it can list check runs for: this gate's runs there (since 2.4.0; absent elsewhere). */
  readonly runs?: RunsReport;
  /**
   * Several benchmarks (since 2.6.0; absent with one): each one's verdict and report, by name. The
   * top-level verdict and reasons are then the overall ones; the other top-level figures are of
   * every task pooled, as before benchmarks, and decide nothing.
   */
  readonly benchmarks?: readonly BenchmarkReport[];
}
