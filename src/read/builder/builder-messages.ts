/**
 * The words of the builder's problems that need more than a line: a reviews file that labels no
 * compared task, a compared model_config the export does not have, a results file without rows.
 */

import { compareCodeUnits } from "../../core/model.js";
import { quote, quoteUpTo } from "../../core/quote.js";
import { MAX_LISTED_MODEL_IDS } from "../limits.js";
import type { ReviewFileState } from "./builder-state.js";
import { plural, pluralWord } from "../../core/words.js";

/** Revisions are shown whole up to this length, so that one can be copied into --dataset-revision. */
const REVISION_SHOWN_LENGTH = 200;

/** At most this many revisions named in a message, then "and N more". */
const REVISIONS_NAMED = 3;

function revisionList(revisions: readonly string[], more = false): string {
  const shown = revisions
    .slice(0, REVISIONS_NAMED)
    .map((r) => quoteUpTo(r, REVISION_SHOWN_LENGTH))
    .join(", ");
  const rest = revisions.length - REVISIONS_NAMED;
  return rest > 0 || more ? `${shown} and ${rest > 0 ? `${rest} ` : ""}more` : shown || "none";
}

/** A reviews file that labels no compared task: what it names, what the tasks have, what to do. */
export function noMatchMessage(
  st: ReviewFileState,
  unmatched: readonly string[],
  compared: readonly string[],
): string {
  const named = [...st.byRevision.keys()].sort(compareCodeUnits);
  const what =
    unmatched.length === named.length
      ? `its rows are under ${pluralWord(named.length, "dataset revision")} ${revisionList(named, st.otherRows > 0)}, ` +
        `and the compared tasks under ${revisionList(compared)}`
      : `its rows under ${pluralWord(named.length, "dataset revision")} ${revisionList(named, st.otherRows > 0)} name ` +
        `none of the tasks the baseline or the candidate ran (the compared tasks are under ${revisionList(compared)})`;
  return (
    `none of its ${plural(st.rows, "review row", "review rows")} labels a task the baseline or the candidate ran: ${what}. ` +
    `A review applies to a task only under the same dataset_revision: re-import the reviews with ` +
    `--dataset-revision set to the results' revision, or with the same --tasks list as the results ` +
    `(model-gate import verified-annotations without --tasks computes the revision from the sheet's own ids)`
  );
}

export function unknownModelMessage(role: string, id: string, present: readonly string[]): string {
  if (present.length === 0) {
    return `the ${role} model_config ${quote(id)} does not appear in the export: the export has no valid rows`;
  }
  const shown = present.slice(0, MAX_LISTED_MODEL_IDS).map(quote).join(", ");
  const more = present.length > MAX_LISTED_MODEL_IDS ? `, … (${present.length} in all)` : "";
  return (
    `the ${role} model_config ${quote(id)} does not appear in the export; model_config ids present ` +
    `(${present.length}): ${shown}${more}`
  );
}

/** A results file read to its end without a row (named when a compared model is missing). */
export function emptyResultsMessage(bytes: number): string {
  return bytes === 0
    ? "the results file is empty (0 bytes): it holds no rows"
    : "the results file holds no rows: every line of it is blank";
}
