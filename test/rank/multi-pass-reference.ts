/**
 * The rank's former reader, kept as the reference the one-pass reader is checked against
 * (one-pass-read.test.ts): the export read ceil(K/2) times through readDataset, two ranked models
 * per read (pairOfMany), and the reads joined by (dataset_revision, task_id). It was the rank's
 * read path until the K-model read (src/read/read-models.ts) replaced it.
 */
import {
  compareCodeUnits,
  type AttemptCounts,
  type Dataset,
  type ModelSummary,
} from "../../src/core/model.js";
import type { ModelsDataset } from "../../src/core/rank/rank-types.js";
import { tableView } from "../../src/core/task-table-view.js";
import { readDataset } from "../../src/read/read-dataset.js";

const LISTING_PAIR = ["\u0000model-gate:rank:listing:a", "\u0000model-gate:rank:listing:b"] as const;

/** The reads' pairs: (0, 1), (2, 3), …, and (K − 1, 0) when K is odd. */
function readPairs(k: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i + 1 < k; i += 2) out.push([i, i + 1]);
  if (k % 2 === 1 && k > 1) out.push([k - 1, 0]);
  return out;
}

export async function multiPassRead(
  results: readonly string[],
  reviews: readonly string[],
  given: readonly string[] | null,
): Promise<ModelsDataset> {
  const read = (baseline: string, candidate: string, rv: readonly string[]): Promise<Dataset> =>
    readDataset({ results, reviews: rv, baseline, candidate, pairOfMany: true });
  let passes = 0;
  let models: readonly string[];
  if (given === null) {
    const listing = await read(LISTING_PAIR[0], LISTING_PAIR[1], []);
    passes++;
    models = listing.modelsPresent;
  } else {
    models = given;
  }
  const pairs = readPairs(models.length);
  const reads: Dataset[] = [];
  for (const [b, c] of pairs) {
    reads.push(await read(models[b] as string, models[c] as string, reviews));
    passes++;
  }
  return joinReads(models, pairs, reads, passes);
}

function joinReads(
  models: readonly string[],
  pairs: readonly (readonly [number, number])[],
  reads: readonly Dataset[],
  passes: number,
): ModelsDataset {
  const entries: { read: number; task: number; revision: string; id: string }[] = [];
  reads.forEach((r, k) => {
    for (let i = 0; i < r.tasks.length; i++)
      entries.push({ read: k, task: i, revision: r.tasks.datasetRevision(i), id: r.tasks.taskId(i) });
  });
  const order = entries
    .map((e, x) => ({ e, x }))
    .sort(
      (p, q) => compareCodeUnits(p.e.revision, q.e.revision) || compareCodeUnits(p.e.id, q.e.id) || p.x - q.x,
    );
  const which: number[] = [];
  const index: number[] = [];
  const taskOfEntry = new Map<number, number>();
  let last: (typeof entries)[number] | undefined;
  for (const { e, x } of order) {
    if (last === undefined || e.revision !== last.revision || e.id !== last.id) {
      which.push(e.read);
      index.push(e.task);
      last = e;
    }
    taskOfEntry.set(x, which.length - 1);
  }
  const n = which.length;
  const counts: (AttemptCounts | undefined)[][] = models.map(() => new Array<AttemptCounts | undefined>(n));
  const summaries: (ModelSummary | undefined)[] = models.map(() => undefined);
  let at = 0;
  pairs.forEach(([b, c], k) => {
    const r = reads[k] as Dataset;
    for (const [model, side] of [
      [b, "baseline"],
      [c, "candidate"],
    ] as const) {
      if (summaries[model] !== undefined) continue;
      summaries[model] = r[side];
      const own = counts[model] as (AttemptCounts | undefined)[];
      for (let i = 0; i < r.tasks.length; i++) own[taskOfEntry.get(at + i) as number] = r.tasks[side](i);
    }
    at += r.tasks.length;
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
