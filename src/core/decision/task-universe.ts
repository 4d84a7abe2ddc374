/**
 * Two files imported without one `--tasks` list (docs/importers.md): each importer then writes as
 * the dataset revision the hash of that file's own task ids, so two runs of one benchmark that
 * differ by a few tasks carry two revisions, and a task is keyed by (dataset_revision, task_id):
 * the same task ids count as different tasks, none is common, and each model looks as if it
 * missed the other's tasks. The fix is to re-import both with one task list, not to run more
 * tasks; this module tells that case from a genuine difference (another benchmark, or another
 * version of one, named as such) so the checks can say so.
 */
import type { Dataset } from "../model.js";

/** One side of the split: its own revisions (the other side has none of them) and their task ids. */
export interface UniverseSide {
  readonly revisions: readonly string[];
  /** Distinct task ids under those revisions. */
  readonly taskIds: number;
}

/** Two task universes derived from each file's own ids, with task ids in common. */
export interface SeparateUniverses {
  readonly baseline: UniverseSide;
  readonly candidate: UniverseSide;
  /** Task ids that both sides have, each under its own revision. */
  readonly sharedTaskIds: number;
  /** The revisions that are the hash of their own task ids (so an importer computed them). */
  readonly derivedRevisions: readonly string[];
}

const cache = new WeakMap<Dataset, SeparateUniverses | null>();

/**
 * The split, when the revisions only one side has hold task ids the other side has under its own
 * revisions, and at least one of them is the hash of its own task ids; else null (the same
 * revisions on both sides, ids that do not overlap, or revisions given by name).
 */
export function separateTaskUniverses(dataset: Dataset): SeparateUniverses | null {
  const known = cache.get(dataset);
  if (known !== undefined) return known;
  const result = findSplit(dataset);
  cache.set(dataset, result);
  return result;
}

function findSplit(dataset: Dataset): SeparateUniverses | null {
  const b = dataset.baseline.datasetRevisions;
  const c = dataset.candidate.datasetRevisions;
  const onlyB = new Set(b.filter((r) => !c.includes(r)));
  const onlyC = new Set(c.filter((r) => !b.includes(r)));
  if (onlyB.size === 0 || onlyC.size === 0) return null;
  const idsByRevision = new Map<string, string[]>();
  const tasks = dataset.tasks;
  for (let i = 0; i < tasks.length; i++) {
    const r = tasks.datasetRevision(i);
    if (!onlyB.has(r) && !onlyC.has(r)) continue;
    let ids = idsByRevision.get(r);
    if (ids === undefined) idsByRevision.set(r, (ids = []));
    ids.push(tasks.taskId(i));
  }
  const idsOf = (revisions: ReadonlySet<string>): Set<string> =>
    new Set([...revisions].flatMap((r) => idsByRevision.get(r) ?? []));
  const idsB = idsOf(onlyB);
  const idsC = idsOf(onlyC);
  let shared = 0;
  for (const id of idsB) if (idsC.has(id)) shared++;
  if (shared === 0) return null;
  // The reader found which revisions are the hash of their own ids (src/read/derived-revisions.ts).
  const hashed = new Set(dataset.idDerivedRevisions ?? []);
  const derived = [...onlyB, ...onlyC].filter((r) => hashed.has(r));
  if (derived.length === 0) return null;
  return {
    baseline: { revisions: [...onlyB], taskIds: idsB.size },
    candidate: { revisions: [...onlyC], taskIds: idsC.size },
    sharedTaskIds: shared,
    derivedRevisions: derived,
  };
}
