/**
 * Assembles the report JSON (SPEC §5) from what the other steps computed. Key order here is the
 * key order in the JSON, so the same inputs give byte-identical output.
 */
import type { Evaluation, Fragility } from "../decision/evaluation-types.js";
import { compareCodeUnits, type Dataset } from "../model.js";
import type { Policy, PolicySource } from "../policy/policy-types.js";
import type { AppendOnlyBase, AppendOnlyReport, VerdictByReviewRevision } from "../history/history-types.js";
import { marginByCluster } from "../stats/margin-by-cluster.js";
import { brokenTasksOf, reviewHistoryOf } from "./task-lists.js";
import type { PolicyChange } from "../verdict-types.js";
import { SCHEMA_VERSION, type PolicyHistoryReport, type Report } from "./report-types.js";

export interface ReportParts {
  readonly dataset: Dataset;
  readonly policy: Policy;
  readonly policySource: PolicySource;
  readonly policyChanges: readonly PolicyChange[] | null;
  /** The base policy's recent history (the action, on a PR that changes the policy); default null. */
  readonly policyHistory?: PolicyHistoryReport | null;
  readonly evaluation: Evaluation;
  readonly fragility: Fragility;
  /** Extra headline warnings from outside §4 (e.g. a head policy that does not parse). */
  readonly extraWarnings: readonly string[];
  readonly toolVersion: string;
  readonly verdictByReviewRevision: VerdictByReviewRevision;
  readonly asOfReview: number | null;
  readonly appendOnly: AppendOnlyReport | null;
  readonly appendOnlyBase?: AppendOnlyBase | null;
  /** The policy's revisit date has passed (only reached with on_expired warn or neutral); default false. */
  readonly policyExpired?: boolean;
}

function sortedUnion(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])].sort(compareCodeUnits);
}

/** `guardrails`, and `accuracy_verdict` when some guardrail has a verdict; nothing without either. */
function guardrailKeys(e: Evaluation): Pick<Report, "guardrails" | "accuracy_verdict"> {
  if (e.guardrails === undefined) return {};
  const gated = e.guardrails.entries.some((g) => g.verdict !== null);
  return {
    guardrails: e.guardrails.entries,
    ...(gated && e.accuracyVerdict !== undefined ? { accuracy_verdict: e.accuracyVerdict } : {}),
  };
}

export function buildReport(parts: ReportParts): Report {
  const { dataset, policy, policySource, evaluation, fragility } = parts;
  return {
    schema_version: SCHEMA_VERSION,
    verdict: evaluation.verdict,
    reasons: evaluation.reasons,
    ...guardrailKeys(evaluation),
    warnings: [...evaluation.warnings, ...parts.extraWarnings],
    checks: evaluation.checks,
    comparison: { ...evaluation.comparison, ...fragility },
    infra_readings: evaluation.infra_readings,
    models: evaluation.models,
    margin_by_cluster: marginByCluster(dataset, policy.infra_errors),
    broken_tasks: brokenTasksOf(dataset.tasks),
    review_history: reviewHistoryOf(dataset.tasks),
    verdict_by_review_revision: parts.verdictByReviewRevision,
    append_only: parts.appendOnly,
    append_only_base: parts.appendOnlyBase ?? null,
    policy_changes: parts.policyChanges,
    policy_history: parts.policyHistory ?? null,
    // The shells add it once the report exists (run-history/since-last-run.ts needs the report's summary).
    since_last_run: null,
    provenance: {
      inputs: dataset.inputs.map((i) => ({ kind: i.kind, path: i.path, sha256: i.sha256 })),
      dataset_revisions: sortedUnion(dataset.baseline.datasetRevisions, dataset.candidate.datasetRevisions),
      harness_revisions: sortedUnion(dataset.baseline.harnessRevisions, dataset.candidate.harnessRevisions),
      review_revisions: dataset.reviewRevisions,
      as_of_review: parts.asOfReview,
      policy: {
        path: policySource.path,
        sha256: policySource.sha256,
        owner: policy.owner,
        revisit: policy.revisit,
        source: policySource.source,
        last_commit: policySource.lastCommit,
        on_unresolved: policy.on_unresolved,
        // (fail never reaches a report: the run stops with a policy error.)
        on_expired: policy.on_expired === "neutral" ? "neutral" : "warn",
        expired: parts.policyExpired ?? false,
      },
      infra_errors_policy: policy.infra_errors,
      tool_version: parts.toolVersion,
      rows_read: dataset.rowsRead,
    },
  };
}
