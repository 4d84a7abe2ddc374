/**
 * The rank's inputs (docs/rank.md "Reading"): the policy first (a policy error comes before any
 * problem of the export), then the export read once through the one read path (readRanked:
 * lines → rows → the builder, which keeps each ranked model's columns as it keeps a pair's), so
 * the ModelsDataset's tasks are every task any ranked model ran, in (dataset_revision, task_id)
 * order. Without --models every model of the export is ranked, in sorted order.
 */
import { InputError } from "../core/errors.js";
import type { GatePolicy } from "../core/gate.js";
import type { AppendOnlyReport } from "../core/history/history-types.js";
import { compareCodeUnits, type ModelSummary } from "../core/model.js";
import { quote } from "../core/quote.js";
import type { ModelsDataset } from "../core/rank/rank-types.js";
import { unicodeNearMatch } from "../core/unicode-near-match.js";
import { MAX_LISTED_MODEL_IDS } from "./limits.js";
import { readAppendOnly } from "./previous-versions.js";
import { readRanked, type YoungGeneration } from "./read-dataset.js";
import { runPolicy, type RunRequest } from "./run-inputs.js";

export interface RankRequest {
  readonly results: readonly string[];
  readonly reviews: readonly string[];
  readonly policy: RunRequest["policy"];
  /** The models to rank, in order; null: every model of the export, sorted. */
  readonly models: readonly string[] | null;
  readonly today: string;
  /** The previous versions of the results and reviews files, for the append-only check. */
  readonly previous?: { readonly results: readonly string[]; readonly reviews: readonly string[] } | null;
  readonly displayPath?: (absPath: string) => string;
  readonly collectGarbage?: () => void;
  readonly youngGeneration?: YoungGeneration;
}

export interface RankInputs {
  readonly data: ModelsDataset;
  readonly policy: GatePolicy;
  /** The append-only comparison with the previous versions; null when none were given. */
  readonly appendOnly: AppendOnlyReport | null;
}

/**
 * The read's pair (the reader's baseline and candidate): ids no export row has (a NUL first), so
 * only the ranked models' columns are filled.
 */
const NO_PAIR = ["\u0000model-gate:rank:a", "\u0000model-gate:rank:b"] as const;

function checkGivenModels(models: readonly string[]): void {
  const seen = new Set<string>();
  for (const m of models) {
    if (m === "")
      throw new InputError("--models has an empty model id (two commas in a row, or a trailing comma).");
    if (seen.has(m)) throw new InputError(`--models names ${quote(m)} twice.`);
    seen.add(m);
  }
  if (models.length < 2) {
    throw new InputError(
      `A ranking needs at least 2 models; --models names ${models.length === 0 ? "none" : `only ${quote(models[0] ?? "")}`}.`,
    );
  }
}

function unknownModels(given: readonly string[], present: readonly string[]): void {
  const have = new Set(present);
  const unknown = given.filter((m) => !have.has(m));
  if (unknown.length === 0) return;
  const shown = present.slice(0, MAX_LISTED_MODEL_IDS).map(quote).join(", ");
  const more = present.length > MAX_LISTED_MODEL_IDS ? `, … (${present.length} in all)` : "";
  throw new InputError(
    `--models names ${unknown.length === 1 ? "a model" : `${unknown.length} models`} the export does not have:`,
    unknown.map((m) => ({
      message:
        `${quote(m)} does not appear in the export; model_config ids present (${present.length}): ${shown || "none"}${more}` +
        unicodeNearMatch(m, present),
    })),
  );
}

export async function readRankInputs(req: RankRequest): Promise<RankInputs> {
  if (req.models !== null) checkGivenModels(req.models);
  const display = req.displayPath ?? ((p: string) => p);
  const policy = runPolicy(req.policy, req.today, display);
  const read = await readRanked(
    {
      results: req.results,
      reviews: req.reviews,
      baseline: NO_PAIR[0],
      candidate: NO_PAIR[1],
      displayPath: display,
      ...(req.collectGarbage === undefined ? {} : { collectGarbage: req.collectGarbage }),
      ...(req.youngGeneration === undefined ? {} : { youngGeneration: req.youngGeneration }),
    },
    req.models,
  );
  const dataset = read.dataset;
  let models: readonly string[];
  if (req.models === null) {
    models = [...read.models].sort(compareCodeUnits);
    if (models.length < 2) {
      throw new InputError(
        `A ranking needs at least 2 models; the export has ${models.length === 0 ? "none" : `only ${quote(models[0] ?? "")}`}.`,
      );
    }
  } else {
    models = req.models;
    unknownModels(models, dataset.modelsPresent);
  }
  // A reviews file that labels no task of any ranked model.
  const nothing = dataset.unmatchedReviewFiles ?? [];
  if (nothing.length > 0) {
    throw new InputError(
      "A reviews file labels no task any ranked model ran:",
      nothing.map((file) => ({
        location: { file },
        message:
          "a review applies to a task only under the same dataset_revision: re-import the reviews with " +
          "--dataset-revision set to the results' revision, or with the same --tasks list as the results",
      })),
    );
  }
  const previous = req.previous ?? null;
  const appendOnly = previous === null ? null : await readAppendOnly(previous, req, display);
  const at = new Map(read.models.map((m, k) => [m, k]));
  const held = models.map((m) => at.get(m) ?? -1);
  return {
    data: {
      models,
      tasks: dataset.tasks,
      counts: held.map((k) => read.counts[k] ?? []),
      summaries: held.map((k) => read.summaries[k] as ModelSummary),
      modelsPresent: dataset.modelsPresent,
      inputs: dataset.inputs,
      rowsRead: dataset.rowsRead,
      reviewRevisions: dataset.reviewRevisions,
      passes: 1,
      ...(dataset.unmatchedLabels === undefined ? {} : { unmatchedLabels: dataset.unmatchedLabels }),
      ...(read.metrics === undefined
        ? {}
        : {
            metrics: { names: read.metrics.names, byModel: held.map((k) => read.metrics?.byModel[k] ?? []) },
          }),
    },
    policy,
    appendOnly,
  };
}
