/**
 * The rank's inputs (docs/rank.md "Reading"): the policy first (a policy error comes before any
 * problem of the export), then the export read ceil(K/2) times through the one read path
 * (readDataset), each read taking two of the ranked models as its pair (the last model paired
 * with the first when K is odd), and the reads joined into one ModelsDataset keyed by
 * (dataset_revision, task_id). The reader builds a two-model columnar Dataset; a second,
 * N-model read path would be faster on many models but would be a second reader to keep right,
 * so rank pays ceil(K/2) passes (one more without --models, to learn the export's models).
 *
 * A task's label, review revision and cluster come from every model's rows and the reviews, so
 * every read that holds a task holds the same ones: the join checks it.
 */
import { InputError } from "../core/errors.js";
import type { GatePolicy } from "../core/gate.js";
import { compareCodeUnits, type AttemptCounts, type Dataset, type ModelSummary } from "../core/model.js";
import { quote } from "../core/quote.js";
import type { ModelsDataset } from "../core/rank/rank-types.js";
import { tableView } from "../core/task-table-view.js";
import { unicodeNearMatch } from "../core/unicode-near-match.js";
import { COLLECT_MIN_TASKS, MAX_LISTED_MODEL_IDS } from "./limits.js";
import { readDataset } from "./read-dataset.js";
import type { ReadThreads } from "./read-threads.js";
import { runPolicy, type RunRequest } from "./run-inputs.js";

export interface RankRequest {
  readonly results: readonly string[];
  readonly reviews: readonly string[];
  readonly policy: RunRequest["policy"];
  /** The models to rank, in order; null: every model of the export, sorted. */
  readonly models: readonly string[] | null;
  readonly today: string;
  readonly displayPath?: (absPath: string) => string;
  readonly readThreads?: ReadThreads;
  readonly collectGarbage?: () => void;
  readonly onNote?: (message: string) => void;
}

export interface RankInputs {
  readonly data: ModelsDataset;
  readonly policy: GatePolicy;
}

/**
 * The pair of the first read when the models are not given: it only lists the export's models,
 * so its two ids need not exist (if an export did use them, that read would just hold their rows).
 */
const LISTING_PAIR = ["\u0000model-gate:rank:listing:a", "\u0000model-gate:rank:listing:b"] as const;

/** The reads' pairs: (0, 1), (2, 3), …, and (K − 1, 0) when K is odd. */
export function readPairs(k: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i + 1 < k; i += 2) out.push([i, i + 1]);
  if (k % 2 === 1 && k > 1) out.push([k - 1, 0]);
  return out;
}

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
  if (req.readThreads?.note !== undefined) req.onNote?.(req.readThreads.note);
  const read = (baseline: string, candidate: string, reviews: readonly string[]): Promise<Dataset> =>
    readDataset({
      results: req.results,
      reviews,
      baseline,
      candidate,
      pairOfMany: true,
      displayPath: display,
      ...(req.readThreads?.ranges === undefined ? {} : { readRanges: req.readThreads.ranges }),
      ...(req.onNote === undefined ? {} : { onNote: req.onNote }),
      ...(req.collectGarbage === undefined ? {} : { collectGarbage: req.collectGarbage }),
    });

  let passes = 0;
  const reads: Dataset[] = [];
  let models: readonly string[];
  if (req.models === null) {
    // Only the results name models: the reviews wait for the reads that use them.
    const listing = await read(LISTING_PAIR[0], LISTING_PAIR[1], []);
    passes++;
    models = listing.modelsPresent.filter((m) => m !== LISTING_PAIR[0] && m !== LISTING_PAIR[1]);
    if (models.length < 2) {
      throw new InputError(
        `A ranking needs at least 2 models; the export has ${models.length === 0 ? "none" : `only ${quote(models[0] ?? "")}`}.`,
      );
    }
  } else {
    models = req.models;
  }
  const pairs = readPairs(models.length);
  for (const [b, c] of pairs) {
    const dataset = await read(models[b] as string, models[c] as string, req.reviews);
    passes++;
    if (reads.length === 0) unknownModels(models, dataset.modelsPresent);
    reads.push(dataset);
    if (req.collectGarbage !== undefined && dataset.tasks.length >= COLLECT_MIN_TASKS) req.collectGarbage();
  }
  const first = reads[0] as Dataset;
  // A reviews file that labels no task of any read's pair labels no ranked model's task.
  const nothing = first.unmatchedReviewFiles?.filter((f) =>
    reads.every((r) => r.unmatchedReviewFiles?.includes(f)),
  );
  if (nothing !== undefined && nothing.length > 0) {
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
  return { data: joinReads(models, pairs, reads, passes), policy };
}

/**
 * The reads joined by task key: every task any ranked model ran, in (dataset_revision, task_id)
 * order, each model's counts from the read that holds it as baseline or candidate.
 */
export function joinReads(
  models: readonly string[],
  pairs: readonly (readonly [number, number])[],
  reads: readonly Dataset[],
  passes: number,
): ModelsDataset {
  // Every (read, task) entry, sorted by key; equal keys are one task.
  const entries: number[] = [];
  const offsets: number[] = [];
  let total = 0;
  for (const r of reads) {
    offsets.push(total);
    total += r.tasks.length;
  }
  const readOf = new Uint32Array(total);
  const taskOf = new Uint32Array(total);
  reads.forEach((r, k) => {
    const at = offsets[k] as number;
    for (let i = 0; i < r.tasks.length; i++) {
      readOf[at + i] = k;
      taskOf[at + i] = i;
      entries.push(at + i);
    }
  });
  // The keys read once (the sort compares each entry many times).
  const revision = new Array<string>(total);
  const id = new Array<string>(total);
  for (let e = 0; e < total; e++) {
    const t = (reads[readOf[e] as number] as Dataset).tasks;
    const i = taskOf[e] as number;
    revision[e] = t.datasetRevision(i);
    id[e] = t.taskId(i);
  }
  entries.sort(
    (x, y) =>
      compareCodeUnits(revision[x] as string, revision[y] as string) ||
      compareCodeUnits(id[x] as string, id[y] as string) ||
      x - y,
  );
  const which: number[] = [];
  const index: number[] = [];
  const taskOfEntry = new Int32Array(total).fill(-1);
  let lastEntry = -1;
  for (const e of entries) {
    if (lastEntry < 0 || revision[e] !== revision[lastEntry] || id[e] !== id[lastEntry]) {
      which.push(readOf[e] as number);
      index.push(taskOf[e] as number);
      lastEntry = e;
    } else {
      sameTask(reads, readOf, taskOf, lastEntry, e);
    }
    taskOfEntry[e] = which.length - 1;
  }
  const n = which.length;
  const counts: (AttemptCounts | undefined)[][] = models.map(() => new Array<AttemptCounts | undefined>(n));
  const summaries: (ModelSummary | undefined)[] = models.map(() => undefined);
  pairs.forEach(([b, c], k) => {
    const r = reads[k] as Dataset;
    const at = offsets[k] as number;
    for (const [model, side] of [
      [b, "baseline"],
      [c, "candidate"],
    ] as const) {
      if (summaries[model] !== undefined) continue;
      summaries[model] = r[side];
      const own = counts[model] as (AttemptCounts | undefined)[];
      for (let i = 0; i < r.tasks.length; i++) own[taskOfEntry[at + i] as number] = r.tasks[side](i);
    }
  });
  const first = reads[0] as Dataset;
  return {
    models,
    tasks: tableView(
      reads.map((r) => r.tasks),
      Uint32Array.from(which),
      Uint32Array.from(index),
    ),
    counts,
    summaries: summaries.map((s) => s as ModelSummary),
    modelsPresent: first.modelsPresent,
    inputs: first.inputs,
    rowsRead: first.rowsRead,
    reviewRevisions: first.reviewRevisions,
    passes,
    ...(first.unmatchedLabels === undefined ? {} : { unmatchedLabels: first.unmatchedLabels }),
  };
}

/** Two reads hold one task: its label, review revision and cluster must agree (they are the task's). */
function sameTask(
  reads: readonly Dataset[],
  readOf: Uint32Array,
  taskOf: Uint32Array,
  x: number,
  y: number,
): void {
  const tx = (reads[readOf[x] as number] as Dataset).tasks;
  const ty = (reads[readOf[y] as number] as Dataset).tasks;
  const i = taskOf[x] as number;
  const j = taskOf[y] as number;
  if (
    tx.validity(i) !== ty.validity(j) ||
    tx.reviewRevision(i) !== ty.reviewRevision(j) ||
    tx.cluster(i) !== ty.cluster(j)
  ) {
    throw new Error(
      `read-models: two reads disagree on task ${quote(tx.taskId(i))} (${tx.validity(i)} at ${tx.reviewRevision(i)} vs ${ty.validity(j)} at ${ty.reviewRevision(j)})`,
    );
  }
}
