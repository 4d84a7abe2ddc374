/**
 * Dataset revisions the importers computed from a file's own task ids. Without one `--tasks` list
 * each importer writes as the dataset revision the sha256 of that file's ids, so two runs of one
 * benchmark carry two revisions and share no task (docs/importers.md). The core tells that case
 * from a genuine difference (src/core/decision/task-universe.ts), but hashing is not the core's
 * work: the reader finds which revisions are such hashes and hands them over in the Dataset.
 */
import { createHash } from "node:crypto";
import type { Dataset } from "../core/model.js";

/** `sha256:` of the task ids, distinct, sorted by UTF-8 bytes and joined by "\n" (the importers' dataset revision). */
export function taskIdsRevision(ids: Iterable<string>): string {
  const sorted = [...new Set(ids)].map((id) => Buffer.from(id, "utf8")).sort((a, b) => Buffer.compare(a, b));
  const hash = createHash("sha256");
  sorted.forEach((id, i) => {
    if (i > 0) hash.update("\n");
    hash.update(id);
  });
  return `sha256:${hash.digest("hex")}`;
}

const SHA256_REVISION = /^sha256:[0-9a-f]{64}$/;

/**
 * The dataset with `idDerivedRevisions`: the revisions only one compared model has that are the
 * hash of their own task ids. Only one-sided revisions are hashed (the split the core looks for
 * needs them on both sides), so a comparison on one shared revision costs nothing.
 */
export function withDerivedRevisions(dataset: Dataset): Dataset {
  const b = dataset.baseline.datasetRevisions;
  const c = dataset.candidate.datasetRevisions;
  const oneSided = new Set([...b.filter((r) => !c.includes(r)), ...c.filter((r) => !b.includes(r))]);
  const candidates = new Set([...oneSided].filter((r) => SHA256_REVISION.test(r)));
  if (candidates.size === 0) return { ...dataset, idDerivedRevisions: [] };
  const idsByRevision = new Map<string, string[]>();
  const tasks = dataset.tasks;
  for (let i = 0; i < tasks.length; i++) {
    const r = tasks.datasetRevision(i);
    if (!candidates.has(r)) continue;
    let ids = idsByRevision.get(r);
    if (ids === undefined) idsByRevision.set(r, (ids = []));
    ids.push(tasks.taskId(i));
  }
  const derived = [...candidates].filter((r) => taskIdsRevision(idsByRevision.get(r) ?? []) === r).sort();
  return { ...dataset, idDerivedRevisions: derived };
}
