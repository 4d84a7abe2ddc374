/**
 * Reading one results file in byte ranges (range-read.ts): each range after the first is read by
 * a builder of its own (its lines numbered from 1), whose state (snapshotOf) is then absorbed by
 * the main thread's builder in range order as if its lines had been read there. Only a clean
 * read is merged: when any range had a problem or passed a cap, or absorbing finds what would
 * have been one (a conflicting attempt, an aggregate beside per-attempt rows, a passed cap), the
 * caller reads the input again from the start, one line after another, for the exact messages.
 */

import { VALIDITIES } from "../../core/model.js";
import { pack, unpack } from "../rows/packed-evidence.js";
import {
  AttemptIds,
  F_BASELINE,
  F_CANDIDATE,
  F_LABEL0,
  F_LABEL0_OWN,
  F_MORE_LABELS,
  type HarnessState,
  type LabelEvent,
  type ModelColumns,
  type TaskColumns,
} from "./builder-columns.js";
import { KIND_AGGREGATED, type BuilderState, type ModelState } from "./builder-state.js";
import { reviveColumns, sliceColumns } from "./column-transfer.js";
import {
  charsOf,
  evidenceChars,
  LABEL_SCAN_MAX,
  labelKey,
  labelsOf,
  sameItems,
  unionOf,
} from "./label-history.js";
import { validityCode } from "../../core/model.js";
import { TaskIndex } from "./builder-columns.js";
import { small } from "./task-table.js";

/** The state of a builder for absorb (snapshotOf), as posted between threads. */
export interface BuilderSnapshot {
  readonly cols: TaskColumns;
  /** Dataset revisions by index (TaskColumns.revision). */
  readonly revisions: readonly string[];
  readonly models: readonly string[];
  readonly baseline: ModelTotals;
  readonly candidate: ModelTotals;
}

/** What a compared model's ModelState holds beyond the columns. */
export interface ModelTotals {
  readonly harnessRevisions: readonly string[];
  readonly datasetRevisions: readonly string[];
  readonly duplicateRows: number;
  readonly attempts: number;
}

/**
 * Part of this builder's state, to absorb into another (after a structured clone: see
 * columnBuffers): tasks [from, to), and the model totals when `last`. Absorbing every part, in
 * order, absorbs the whole state.
 */
export function snapshotOf(b: BuilderState, from: number, to: number, last: boolean): BuilderSnapshot {
  const totals = (st: ModelState): ModelTotals =>
    last
      ? {
          harnessRevisions: [...st.harnessRevisions],
          datasetRevisions: [...st.datasetRevisions],
          duplicateRows: st.duplicateRows,
          attempts: st.attempts,
        }
      : { harnessRevisions: [], datasetRevisions: [], duplicateRows: 0, attempts: 0 };
  return {
    cols: from === 0 && to === b.cols.count ? b.cols : sliceColumns(b.cols, from, to),
    revisions: b.revisionList.map((r) => r.name),
    models: from === 0 ? [...b.models] : [],
    baseline: totals(b.baselineState),
    candidate: totals(b.candidateState),
  };
}

/**
 * Adds to `b` the state of a builder that read results lines of the same file right after the
 * lines read by `b`, numbered from 1 (`lines` is how many lines came before them): the state
 * becomes what reading those lines into `b` would have made, totals aside (absorbTotals).
 * Returns false when that reading would have reported a problem or passed a cap; `b` is then
 * spoilt (read again from the start).
 */
export function absorbSnapshot(b: BuilderState, s: BuilderSnapshot, lines: number): boolean {
  const p = reviveColumns(s.cols, lines, b.attemptPool);
  for (const model of s.models) {
    if (b.models.has(model)) continue;
    if (b.models.size >= b.limits.maxModels) return false;
    b.heldChars += model.length;
    b.models.add(model);
  }
  const revs = s.revisions.map((name) => b.revisionNamed(name));
  const cols = b.cols;
  const dups = [0, 0];
  for (let t = 0; t < p.count; t++) {
    const rev = revs[p.revision[t] ?? 0];
    const taskId = p.taskIds[t];
    if (rev === undefined || taskId === undefined) return false;
    const hash = TaskIndex.hash(rev.index, taskId);
    const i = b.index.find(hash, rev.index, taskId, cols);
    if (i >= 0) {
      if (!mergeTask(b, i, p, t, dups)) return false;
      continue;
    }
    if (cols.count >= b.limits.maxTasks) return false;
    b.heldChars += taskId.length;
    const fresh = cols.add(rev.index, taskId);
    b.index.add(hash, fresh);
    adoptTask(b, fresh, p, t);
  }
  if (!absorbTotals(b, b.baselineState, s.baseline, dups[0] ?? 0)) return false;
  return absorbTotals(b, b.candidateState, s.candidate, dups[1] ?? 0);
}

function absorbTotals(b: BuilderState, st: ModelState, t: ModelTotals, dups: number): boolean {
  const attempts = st.attempts + t.attempts;
  if (attempts > Number.MAX_SAFE_INTEGER) return false;
  st.attempts = attempts - dups;
  st.duplicateRows += t.duplicateRows + dups;
  for (const h of t.harnessRevisions) st.harnessRevisions.add(b.intern(h));
  for (const r of t.datasetRevisions) st.datasetRevisions.add(b.revisionNamed(r).name);
  return true;
}

/** Task t of `p`, not known here, becomes task i (its state taken over). */
function adoptTask(b: BuilderState, i: number, p: TaskColumns, t: number): void {
  const cols = b.cols;
  const flags = p.flags[t] ?? 0;
  cols.flags[i] = flags;
  cols.topRevision[i] = p.topRevision[t] ?? -1;
  cols.topValidity[i] = p.topValidity[t] ?? 0;
  cols.label0Revision[i] = p.label0Revision[t] ?? 0;
  cols.label0Validity[i] = p.label0Validity[t] ?? 0;
  cols.label0Src[i] = p.label0Src[t] ?? 0;
  if ((flags & F_LABEL0_OWN) !== 0) cols.label0Evidence.set(i, p.label0Evidence.get(t));
  const meta = p.label0Meta.get(t);
  if (meta !== undefined) cols.label0Meta.set(i, meta);
  const more = p.moreLabels.get(t);
  if (more !== undefined) cols.moreLabels.set(i, more);
  cols.evidence[i] = p.evidence[t];
  b.heldChars += evidenceChars(cols, i);
  const cluster = p.clusters[t];
  if (cluster !== undefined) {
    cols.clusters[i] = b.intern(cluster);
    cols.clusterSrc[i] = p.clusterSrc[t] ?? 0;
    const conflict = p.clusterConflicts.get(t);
    if (conflict !== undefined) cols.clusterConflicts.set(i, conflict);
  }
  if ((flags & F_BASELINE) !== 0) adoptModel(b, i, cols.baseline, p.baseline, t);
  if ((flags & F_CANDIDATE) !== 0) adoptModel(b, i, cols.candidate, p.candidate, t);
}

/** A compared model's state on task t of `p`, with no row here yet, becomes its state on task i. */
function adoptModel(b: BuilderState, i: number, m: ModelColumns, pm: ModelColumns, t: number): void {
  m.harness[i] = b.intern(pm.harness[t] ?? "");
  m.info[i] = pm.info[t] ?? 0;
  m.a0[i] = b.holdAttempt(pm.a0[t]);
  m.a0info[i] = pm.a0info[t] ?? 0;
  m.setCounts(i, pm.pass[t] ?? 0, pm.fail[t] ?? 0, pm.infraError[t] ?? 0, pm.missing[t] ?? 0);
  const more = pm.more.get(t);
  if (more !== undefined) {
    m.more.set(i, more);
    b.holdAll(more);
  }
  const others = pm.others.get(t);
  if (others === undefined) return;
  const held = new Map<string, HarnessState>();
  for (const h of others.values()) held.set(b.intern(h.harness), adoptHarness(b, h));
  m.others.set(i, held);
}

function adoptHarness(b: BuilderState, h: HarnessState): HarnessState {
  if (h.more !== undefined) b.holdAll(h.more);
  return { ...h, harness: b.intern(h.harness), a0: b.holdAttempt(h.a0) };
}

/**
 * Task t of `p` into task i, known here. Returns false at what would have been a problem here.
 * `dups` counts, per compared model, the attempts of `p` that repeat one held here.
 */
function mergeTask(b: BuilderState, i: number, p: TaskColumns, t: number, dups: number[]): boolean {
  const cols = b.cols;
  const pf = p.flags[t] ?? 0;
  for (const [flag, role] of [
    [F_BASELINE, 0],
    [F_CANDIDATE, 1],
  ] as const) {
    if ((pf & flag) === 0) continue;
    const m = role === 0 ? cols.baseline : cols.candidate;
    const pm = role === 0 ? p.baseline : p.candidate;
    if (((cols.flags[i] ?? 0) & flag) === 0) {
      cols.flags[i] = (cols.flags[i] ?? 0) | flag;
      adoptModel(b, i, m, pm, t);
      continue;
    }
    const repeated = mergeModel(b, i, m, pm, t);
    if (repeated < 0) return false;
    dups[role] = (dups[role] ?? 0) + repeated;
  }
  if (!mergeLabels(b, i, p, t)) return false;
  const cluster = p.clusters[t];
  if (cluster !== undefined && !cols.clusterConflicts.has(i)) {
    const held = cols.clusters[i];
    if (held === undefined) {
      cols.clusters[i] = b.intern(cluster);
      cols.clusterSrc[i] = p.clusterSrc[t] ?? 0;
      const conflict = p.clusterConflicts.get(t);
      if (conflict !== undefined) cols.clusterConflicts.set(i, conflict);
    } else if (cluster !== held) {
      // The first row of p with a cluster is the first to contradict the one held here.
      cols.clusterConflicts.set(i, { value: cluster, src: p.clusterSrc[t] ?? 0 });
    } else {
      const conflict = p.clusterConflicts.get(t);
      if (conflict !== undefined) cols.clusterConflicts.set(i, conflict);
    }
  }
  return true;
}

/**
 * A compared model's rows of task t of `p` after its rows of task i here: their attempts are
 * folded into those held. Returns how many repeated an attempt held here (duplicates), or -1
 * for a conflicting result or rows of both kinds for one harness revision.
 */
function mergeModel(b: BuilderState, i: number, m: ModelColumns, pm: ModelColumns, t: number): number {
  const counts = [0, 0, 0, 0];
  let failed = false;
  const harness = (
    name: string,
    info: number,
    a0: string | number | undefined,
    a0info: number,
    more: AttemptIds | undefined,
  ): void => {
    const inline = name === m.harness[i];
    const seen = inline ? undefined : m.others.get(i)?.get(name);
    if (!inline && seen === undefined) {
      m.othersOf(i).set(b.intern(name), adoptHarness(b, { harness: name, info, a0, a0info, more }));
      return;
    }
    const heldInfo = seen === undefined ? (m.info[i] ?? 0) : seen.info;
    if (info % 2 === KIND_AGGREGATED || heldInfo % 2 === KIND_AGGREGATED) {
      failed = true;
      return;
    }
    const put = (attempt: string | number, packed: number): void => {
      const a0Here = seen === undefined ? m.a0[i] : seen.a0;
      const moreHere = seen === undefined ? m.more.get(i) : seen.more;
      const prev =
        attempt === a0Here ? (seen === undefined ? m.a0info[i] : seen.a0info) : moreHere?.get(attempt);
      if (prev !== undefined) {
        if (prev % 4 === packed % 4) counts[packed % 4] = (counts[packed % 4] ?? 0) + 1;
        else failed = true;
        return;
      }
      const held = b.holdAttempt(attempt) ?? attempt;
      if (a0Here === undefined) {
        if (seen === undefined) {
          m.a0[i] = held;
          m.a0info[i] = packed;
        } else {
          seen.a0 = held;
          seen.a0info = packed;
        }
      } else if (moreHere !== undefined) {
        moreHere.set(held, packed);
      } else {
        const fresh = new AttemptIds(b.attemptPool);
        fresh.set(held, packed);
        if (seen === undefined) m.more.set(i, fresh);
        else seen.more = fresh;
      }
    };
    if (a0 !== undefined) put(a0, a0info);
    more?.forEach(put);
  };
  harness(pm.harness[t] ?? "", pm.info[t] ?? 0, pm.a0[t], pm.a0info[t] ?? 0, pm.more.get(t));
  for (const h of pm.others.get(t)?.values() ?? []) harness(h.harness, h.info, h.a0, h.a0info, h.more);
  if (failed) return -1;
  m.setCounts(
    i,
    (m.pass[i] ?? 0) + (pm.pass[t] ?? 0) - (counts[0] ?? 0),
    (m.fail[i] ?? 0) + (pm.fail[t] ?? 0) - (counts[1] ?? 0),
    (m.infraError[i] ?? 0) + (pm.infraError[t] ?? 0) - (counts[2] ?? 0),
    (m.missing[i] ?? 0) + (pm.missing[t] ?? 0) - (counts[3] ?? 0),
  );
  return (counts[0] ?? 0) + (counts[1] ?? 0) + (counts[2] ?? 0) + (counts[3] ?? 0);
}

/**
 * The labels and evidence of task t of `p` after those of task i here. A label's evidence is
 * that of every row that gave it, first seen first, capped, so it is the list held here followed
 * by p's items it lacks; likewise the task's. Returns false past the labels cap.
 */
function mergeLabels(b: BuilderState, i: number, p: TaskColumns, t: number): boolean {
  const cols = b.cols;
  const flags = cols.flags[i] ?? 0;
  const pf = p.flags[t] ?? 0;
  const packedBefore = cols.evidence[i];
  const packedTheirs = p.evidence[t];
  // (The same items: nothing to add to the task's list.)
  const sameList = packedTheirs === packedBefore;
  const labelFlags = F_LABEL0 | F_LABEL0_OWN | F_MORE_LABELS;
  if (
    (flags & labelFlags) === F_LABEL0 &&
    (pf & labelFlags) === F_LABEL0 &&
    cols.label0Revision[i] === p.label0Revision[t] &&
    cols.label0Validity[i] === p.label0Validity[t]
  ) {
    // One label on both sides, sharing the task's list: the usual case.
    if (sameList) return true;
    const before = unpack(packedBefore);
    const after = unionOf(before, unpack(packedTheirs));
    if (after !== before) {
      b.heldChars += charsOf(after) - charsOf(before);
      cols.evidence[i] = pack(after);
    }
    return true;
  }
  if (
    (flags & labelFlags) === F_LABEL0 &&
    (pf & labelFlags) === F_LABEL0 &&
    !p.label0Meta.has(t) &&
    b.limits.maxLabelsPerTask >= 2 &&
    sameList
  ) {
    // A second label whose rows brought the task's evidence again (a task-heavy export's
    // candidate rows): it shares the task's list, which stays as it is.
    const revision = small(p.label0Revision[t] ?? 0);
    const code = p.label0Validity[t] ?? 0;
    const event: LabelEvent = {
      revision,
      validity: VALIDITIES[code] ?? "unreviewed",
      src: p.label0Src[t] ?? 0,
      reviewer: undefined,
      note: undefined,
      own: false,
      evidence: undefined,
    };
    cols.moreLabels.set(i, { events: [event], index: undefined });
    cols.flags[i] = flags | F_MORE_LABELS;
    if (revision > (cols.topRevision[i] ?? -1)) {
      cols.topRevision[i] = revision;
      cols.topValidity[i] = code;
    }
    return true;
  }
  const heldBefore = evidenceChars(cols, i);
  const before = unpack(packedBefore);
  const theirs = unpack(packedTheirs);
  const after = unionOf(before, theirs);
  const labels = labelsOf(cols, i, flags).map((e) => ({ ...e, list: e.own ? e.evidence : before }));
  // A label's own list is grown in place by later rows: never one that another list also is.
  const ownCopy = (list: string[] | undefined): string[] | undefined =>
    list === before || list === theirs ? list?.slice() : list;
  let top = cols.topRevision[i] ?? -1;
  let topValidity = cols.topValidity[i] ?? 0;
  for (const e of labelsOf(p, t, pf)) {
    const list = e.own ? e.evidence : theirs;
    const same = labels.find((l) => l.revision === e.revision && l.validity === e.validity);
    if (same !== undefined) {
      same.list = unionOf(same.list, list);
      continue;
    }
    if (labels.length >= b.limits.maxLabelsPerTask) return false;
    b.heldChars += (e.reviewer?.length ?? 0) + (e.note?.length ?? 0);
    labels.push({ ...e, list });
    if (e.revision > top) {
      top = e.revision;
      topValidity = validityCode(e.validity);
    }
  }
  cols.topRevision[i] = top;
  cols.topValidity[i] = topValidity;
  cols.evidence[i] = pack(after);
  let out = flags & ~labelFlags;
  const first = labels[0];
  if (first !== undefined) {
    out |= F_LABEL0;
    cols.label0Revision[i] = first.revision;
    cols.label0Validity[i] = validityCode(first.validity);
    cols.label0Src[i] = first.src;
    if (first.reviewer !== undefined || first.note !== undefined) {
      cols.label0Meta.set(i, { reviewer: first.reviewer, note: first.note });
    }
    if (sameItems(first.list, after)) {
      cols.label0Evidence.delete(i);
    } else {
      out |= F_LABEL0_OWN;
      cols.label0Evidence.set(i, ownCopy(first.list));
    }
  }
  if (labels.length > 1) {
    const events: LabelEvent[] = labels.slice(1).map((l) => {
      const own = !sameItems(l.list, after);
      return {
        revision: l.revision,
        validity: l.validity,
        src: l.src,
        reviewer: l.reviewer,
        note: l.note,
        own,
        evidence: own ? ownCopy(l.list) : undefined,
      };
    });
    const index =
      events.length + 1 > LABEL_SCAN_MAX
        ? new Map(events.map((e) => [labelKey(e.revision, e.validity), e]))
        : undefined;
    cols.moreLabels.set(i, { events, index });
    out |= F_MORE_LABELS;
  } else {
    cols.moreLabels.delete(i);
  }
  cols.flags[i] = out;
  b.heldChars += evidenceChars(cols, i) - heldBefore;
  return true;
}
