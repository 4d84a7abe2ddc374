/**
 * What changed since the last run (issue 30, docs/spec.md §3.7), from two full readings: the
 * previous run's Dataset (its results, reviews) and summary, and the current run's. Pure.
 */
import type { Dataset } from "../model.js";
import type { Report } from "../report/report-types.js";
import type { RunChanges, RunSummary } from "../run-types.js";

export type { RunChanges } from "../run-types.js";

/** The previous run: its summary, and its Dataset when its inputs could be read (else why not). */
export interface PreviousRun {
  readonly summary: RunSummary;
  readonly dataset: Dataset | null;
  /** Why `dataset` is null (one line), else null. */
  readonly unavailable: string | null;
}

export interface CurrentRun {
  readonly dataset: Dataset;
  readonly report: Report;
  readonly summary: RunSummary;
}

export function changesSinceLastRun(previous: PreviousRun, current: CurrentRun): RunChanges {
  throw new Error(
    `changesSinceLastRun: not implemented yet (${previous.summary.verdict} → ${current.summary.verdict})`,
  );
}
