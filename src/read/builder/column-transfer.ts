/**
 * A builder's columns between threads (range-read.ts): the buffers to transfer with a structured
 * clone, the columns revived from one (sources moved to the file's line numbers), and a part of
 * them (a range's state is posted in parts).
 */

import { AttemptIds, AttemptPool, ModelColumns, TaskColumns, type HarnessState } from "./builder-columns.js";

/**
 * The typed arrays' buffers of `cols`, to transfer (not copy) them when its structured clone is
 * posted to another thread.
 */
export function columnBuffers(cols: TaskColumns): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  const add = (a: { readonly buffer: ArrayBufferLike }): void => {
    if (a.buffer instanceof ArrayBuffer && !out.includes(a.buffer)) out.push(a.buffer);
  };
  for (const a of [cols.revision, cols.flags, cols.topRevision, cols.topValidity, cols.clusterSrc]) add(a);
  for (const a of [cols.label0Revision, cols.label0Validity, cols.label0Src]) add(a);
  for (const m of [cols.baseline, cols.candidate]) {
    for (const a of [m.info, m.a0info, m.pass, m.fail, m.infraError, m.missing]) add(a);
  }
  return out;
}

/**
 * TaskColumns from `plain`, a TaskColumns or its structured clone (a plain object with the same
 * fields, AttemptIds as plain objects too: what a worker thread posts), with every source moved
 * by `lines` (a range's lines numbered from 1 become the file's). Takes over plain's arrays, maps
 * and label events (moved in place); its attempt ids are copied into `pool` (the receiving
 * builder's), never kept in the blocks of the builder that made them.
 */
export function reviveColumns(plain: TaskColumns, lines: number, pool: AttemptPool): TaskColumns {
  const cols = Object.assign(new TaskColumns(), plain, {
    baseline: reviveModel(plain.baseline, lines, pool),
    candidate: reviveModel(plain.candidate, lines, pool),
  });
  if (lines === 0) return cols;
  for (let i = 0; i < cols.count; i++) {
    cols.label0Src[i] = (cols.label0Src[i] ?? 0) + lines;
    cols.clusterSrc[i] = (cols.clusterSrc[i] ?? 0) + lines;
  }
  for (const more of cols.moreLabels.values()) {
    for (const e of more.events) (e as { src: number }).src += lines;
  }
  for (const [i, c] of cols.clusterConflicts)
    cols.clusterConflicts.set(i, { value: c.value, src: c.src + lines });
  return cols;
}

function reviveModel(plain: ModelColumns, lines: number, pool: AttemptPool): ModelColumns {
  const more = new Map<number, AttemptIds>();
  for (const [i, ids] of plain.more) more.set(i, AttemptIds.revive(ids, 4 * lines, pool));
  const others = new Map<number, Map<string, HarnessState>>();
  for (const [i, held] of plain.others) {
    const revived = new Map<string, HarnessState>();
    for (const [harness, h] of held) {
      revived.set(harness, {
        harness: h.harness,
        info: h.info + 2 * lines,
        a0: h.a0,
        a0info: h.a0info + 4 * lines,
        more: h.more === undefined ? undefined : AttemptIds.revive(h.more, 4 * lines, pool),
      });
    }
    others.set(i, revived);
  }
  const m = Object.assign(new ModelColumns(), plain, { more, others });
  if (lines !== 0) {
    for (let i = 0; i < m.info.length; i++) {
      m.info[i] = (m.info[i] ?? 0) + 2 * lines;
      m.a0info[i] = (m.a0info[i] ?? 0) + 4 * lines;
    }
  }
  return m;
}

/**
 * Tasks [from, to) of `cols` as columns of their own (task from becomes task 0), to post a
 * builder's state in parts: each part, absorbed, is garbage before the next is decoded.
 */
export function sliceColumns(cols: TaskColumns, from: number, to: number): TaskColumns {
  const part = <V>(m: ReadonlyMap<number, V>, copy: (v: V) => V = (v) => v): Map<number, V> => {
    const out = new Map<number, V>();
    for (const [i, v] of m) if (i >= from && i < to) out.set(i - from, copy(v));
    return out;
  };
  // The part's attempt ids in a pool of its own: ids of the builder's pool would bring all of its
  // slabs (every part's ids, and the free blocks) into each part's structured clone.
  const pool = new AttemptPool();
  const ids = (a: AttemptIds): AttemptIds => AttemptIds.revive(a, 0, pool);
  const harnesses = (held: Map<string, HarnessState>): Map<string, HarnessState> => {
    const out = new Map<string, HarnessState>();
    for (const [name, h] of held)
      out.set(name, { ...h, more: h.more === undefined ? undefined : ids(h.more) });
    return out;
  };
  const model = (m: ModelColumns): ModelColumns =>
    Object.assign(new ModelColumns(), {
      harness: m.harness.slice(from, to),
      a0: m.a0.slice(from, to),
      info: m.info.slice(from, to),
      a0info: m.a0info.slice(from, to),
      pass: m.pass.slice(from, to),
      fail: m.fail.slice(from, to),
      infraError: m.infraError.slice(from, to),
      missing: m.missing.slice(from, to),
      more: part(m.more, ids),
      others: part(m.others, harnesses),
    });
  return Object.assign(new TaskColumns(), {
    count: to - from,
    capacity: to - from,
    taskIds: cols.taskIds.slice(from, to),
    evidence: cols.evidence.slice(from, to),
    clusters: cols.clusters.slice(from, to),
    revision: cols.revision.slice(from, to),
    flags: cols.flags.slice(from, to),
    topRevision: cols.topRevision.slice(from, to),
    topValidity: cols.topValidity.slice(from, to),
    clusterSrc: cols.clusterSrc.slice(from, to),
    label0Revision: cols.label0Revision.slice(from, to),
    label0Validity: cols.label0Validity.slice(from, to),
    label0Src: cols.label0Src.slice(from, to),
    label0Evidence: part(cols.label0Evidence),
    label0Meta: part(cols.label0Meta),
    moreLabels: part(cols.moreLabels),
    clusterConflicts: part(cols.clusterConflicts),
    baseline: model(cols.baseline),
    candidate: model(cols.candidate),
  });
}
