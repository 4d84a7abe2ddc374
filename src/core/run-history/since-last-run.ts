/**
 * The report with `since_last_run` filled in (docs/spec.md §3.7): the shells call it once both
 * runs are decided, since a run's summary is taken from its finished report.
 */
import { datasetAsOfReview } from "../history/as-of-review.js";
import type { Dataset } from "../model.js";
import type { DecidedReport, RunChanges, RunSummary } from "./run-types.js";
import { changesSinceLastRun } from "./changes-since-last-run.js";
import { summaryOfReport, type Sha256Hex } from "./run-summary.js";

export interface PreviousRunInput {
  readonly summary: RunSummary;
  readonly dataset: Dataset | null;
  readonly unavailable: string | null;
}

/**
 * `report` (made by runGate from `dataset`) with what changed since `previous`. The key keeps its
 * place in the report (build-report.ts writes it as null).
 */
export function withSinceLastRun<R extends DecidedReport & { readonly since_last_run: RunChanges | null }>(
  report: R,
  dataset: Dataset,
  headSha: string | null,
  previous: PreviousRunInput,
  sha256Hex: Sha256Hex,
): R {
  const asOf = report.provenance.as_of_review;
  // runGate decided on this view; it is the same Dataset when no --as-of-review was given.
  const view = asOf === null ? dataset : datasetAsOfReview(dataset, asOf);
  const since = changesSinceLastRun(previous, {
    dataset: view,
    report,
    summary: summaryOfReport(report, headSha, sha256Hex),
  });
  return { ...report, since_last_run: since };
}
