/**
 * `rank --as-of-review N` (docs/rank.md "As of a review revision"): the ranked models' tasks as
 * they stood at review revision N, by evaluate's own view (src/core/history/as-of-review.ts):
 * only labels with review_revision ≤ N count, a task without one by then is unreviewed, attempts
 * are untouched, and two labels at a task's effective revision are an InputError naming both.
 */
import { datasetAsOfReview } from "../history/as-of-review.js";
import type { Dataset, ModelSummary } from "../model.js";
import type { ModelsDataset } from "./rank-types.js";

export function modelsAsOfReview(data: ModelsDataset, n: number): ModelsDataset {
  // The view reads only the tasks and the review revisions; the pair's summaries fill the shape.
  const asDataset: Dataset = {
    tasks: data.tasks,
    baseline: data.summaries[0] as ModelSummary,
    candidate: data.summaries[1] as ModelSummary,
    modelsPresent: data.modelsPresent,
    inputs: data.inputs,
    rowsRead: data.rowsRead,
    reviewRevisions: data.reviewRevisions,
  };
  const view = datasetAsOfReview(asDataset, n);
  if (view === asDataset) return data;
  return { ...data, tasks: view.tasks, reviewRevisions: view.reviewRevisions };
}
