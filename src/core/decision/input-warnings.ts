/**
 * Headline warnings about the input rather than the models: labels that match no compared task
 * (docs/spec.md §1.2 "Reviews"). A reviews file that matches no task at all is an input
 * error in the reader; one that matches some tasks but also names other dataset revisions is
 * a warning here, naming the revisions on each side.
 */
import type { Dataset, UnmatchedLabels } from "../model.js";
import { plural, shownValue } from "./format.js";

/** At most this many revisions named in a warning, then "and N more". */
const REVISIONS_NAMED = 3;

function revisionList(revisions: readonly string[], more = false): string {
  const shown = revisions.slice(0, REVISIONS_NAMED).map(shownValue).join(", ");
  const rest = revisions.length - REVISIONS_NAMED;
  return rest > 0 || more ? `${shown} and ${rest > 0 ? `${rest} ` : ""}more` : shown || "none";
}

function warning(u: UnmatchedLabels, compared: readonly string[]): string {
  const theirs = `${u.revisions.length === 1 && !u.moreRevisions ? "revision" : "revisions"} ${revisionList(u.revisions, u.moreRevisions)}`;
  const ours = `the compared tasks are under ${revisionList(compared)}`;
  if (u.file !== undefined) {
    return (
      `${shownValue(u.file)}: ${u.rows} of its ${plural(u.of ?? u.rows, "review row")} are under dataset ${theirs}, ` +
      `which no compared task has (${ours}): those labels apply to nothing. A review applies only under ` +
      `the same dataset_revision: re-import them with the results' --dataset-revision or --tasks list.`
    );
  }
  return (
    `The results label ${plural(u.rows, "task")} of other models under dataset ${theirs}, which no compared ` +
    `task has (${ours}): those labels apply to nothing.`
  );
}

export function unmatchedLabelWarnings(dataset: Dataset): string[] {
  const compared = [
    ...new Set([...dataset.baseline.datasetRevisions, ...dataset.candidate.datasetRevisions]),
  ].sort();
  return (dataset.unmatchedLabels ?? []).map((u) => warning(u, compared));
}
