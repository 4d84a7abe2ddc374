/**
 * The previous run of the gate, read again in full for "what changed since the last run"
 * (docs/spec.md §3.7): its results, reviews and policy through the same read path as the current
 * run (readRunInputs), then the same decision (runGate), so its summary is what that run reported
 * and its Dataset can be compared task by task. The CLI's `--since-*` flags and the action (the
 * previous run's files at its head commit) call it.
 */
import { runGate } from "../core/gate.js";
import { datasetAsOfReview } from "../core/history/as-of-review.js";
import type { Dataset } from "../core/model.js";
import type { RunSummary } from "../core/run-history/run-types.js";
import { summaryOfReport } from "../core/run-history/run-summary.js";
import { readRunInputs, type RunRequest } from "./run-inputs.js";
import { sha256Hex } from "./sha256-hex.js";

export interface PreviousRunFiles {
  readonly results: readonly string[];
  readonly reviews: readonly string[];
  readonly policy: RunRequest["policy"];
  /** The commit the previous run evaluated, when known (the action). */
  readonly headSha: string | null;
}

export interface PreviousRunReading {
  readonly summary: RunSummary;
  /** As the previous run saw it: as of `asOfReview` when the current run is. */
  readonly dataset: Dataset;
}

/**
 * Reads and decides the previous run with the current run's models, canary, date and
 * `--as-of-review`; no append-only check, no policy diff and no policy history (they describe the
 * current run). Input errors name the previous files as `current.displayPath` names them.
 */
export async function readPreviousRun(
  current: RunRequest,
  files: PreviousRunFiles,
): Promise<PreviousRunReading> {
  const inputs = await readRunInputs({
    ...current,
    results: files.results,
    reviews: files.reviews,
    policy: files.policy,
    headPolicyText: null,
    previous: null,
    appendOnlyBase: null,
    policyHistory: null,
  });
  const report = runGate(inputs.dataset, inputs.policy, inputs.options);
  const asOf = inputs.options.asOfReview;
  return {
    summary: summaryOfReport(report, files.headSha, sha256Hex),
    dataset: asOf === null ? inputs.dataset : datasetAsOfReview(inputs.dataset, asOf),
  };
}
