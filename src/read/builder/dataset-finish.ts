/**
 * The builder's last step: the Dataset (the compared tasks in dataset order, as a ColumnTaskTable),
 * or one InputError listing every problem found, those found while reading first, then those
 * only the whole input shows (two labels at a task's highest revision, a cluster conflict, a
 * reviews file that labels no compared task).
 */

import { InputError, type InputProblem } from "../../core/errors.js";
import {
  compareCodeUnits,
  DEFAULT_BENCHMARK,
  type AttemptCounts,
  type Dataset,
  type InputFileDigest,
  type ModelSummary,
  type UnmatchedLabels,
} from "../../core/model.js";
import { quote } from "../../core/quote.js";
import { unicodeNearMatch } from "../../core/unicode-near-match.js";
import { COLLECT_MIN_TASKS } from "../limits.js";
import {
  F_BASELINE,
  F_CANDIDATE,
  F_LABEL0,
  F_LABEL0_OWN,
  F_MORE_LABELS,
  laterAt,
  laterCount,
  TaskIndex,
  type LabelEvent,
  type ModelColumns,
  type TaskColumns,
} from "./builder-columns.js";
import { emptyResultsMessage, noMatchMessage, unknownModelMessage } from "./builder-messages.js";
import { plural } from "../../core/words.js";
import { ProblemList, type BuilderState, type ModelState } from "./builder-state.js";
import { historyOrder, hasLabel, labelsOf, laterInOrder, ownEvidence } from "./label-history.js";
import { validityCode } from "../../core/model.js";
import { ColumnTaskTable, small } from "./task-table.js";
import { datasetMetrics, metricsOf, tableBenchmarks } from "./finish-columns.js";
import { idOrder } from "./id-order.js";

/** A results file read to its end without a row: its index, and its size in bytes. */
export interface EmptyFile {
  readonly fileIndex: number;
  readonly bytes: number;
}

/**
 * The Dataset, or one InputError listing every problem found. `complete` is false when a file
 * could not be read to its end (a problem already says so): then a model id missing from what
 * was read is not reported, since the unread part may hold it.
 */
export function finishDataset(
  b: BuilderState,
  inputs: readonly InputFileDigest[],
  rowsRead: number,
  complete: boolean,
  collectGarbage: (() => void) | undefined,
  emptyResults: readonly EmptyFile[],
): Dataset {
  const present = b.modelsPresent();
  const missing = missingModels(b, present, complete, emptyResults);
  const universe = datasetOrder(b);
  // Read before the per-task maps go; its problems come after the tasks' (as listed).
  const unmatchedProblems = new ProblemList();
  const unmatchedReviewFiles: string[] = [];
  const unmatchedLabels = unmatchedLabelsOf(b, comparedRevisions(b), unmatchedProblems, unmatchedReviewFiles);
  releaseReadState(b, collectGarbage);
  const late = new ProblemList();
  const runs = labelRuns(b, universe, late);
  // Once the read is sure to end in an InputError no table is made: at a passed task cap, the
  // table beside the held state would raise the peak memory of the refusal (RELIABILITY.md).
  const refused =
    missing.length > 0 || b.lineProblems.total > 0 || unmatchedProblems.total > 0 || late.total > 0;
  const table = refused ? undefined : filledTable(b, universe, runs.eventStart);
  late.append(unmatchedProblems);
  const total = missing.length + b.lineProblems.total + late.total;
  if (total > 0 || table === undefined) {
    const problems = [...missing, ...b.lineProblems.items, ...late.items];
    throw new InputError(
      `The results/reviews input has ${plural(total, "problem", "problems")}:`,
      problems,
      total,
    );
  }
  const metrics = datasetMetrics(b, universe);
  const benchmarks = tableBenchmarks(b, universe);
  if (benchmarks !== undefined) table.setBenchmarks(benchmarks.column, benchmarks.names);
  return {
    tasks: table,
    baseline: summary(b.baseline, b.baselineState, b.benchmarkNames),
    candidate: summary(b.candidate, b.candidateState, b.benchmarkNames),
    modelsPresent: present,
    inputs,
    rowsRead,
    reviewRevisions: [...runs.revisions].sort((a, b) => a - b),
    ...(metrics === undefined ? {} : { metrics }),
    ...(benchmarks === undefined ? {} : { benchmarks: benchmarks.names }),
    ...(unmatchedLabels.length > 0 ? { unmatchedLabels } : {}),
    ...(b.pairOfMany ? { unmatchedReviewFiles } : {}),
  };
}

/**
 * A compared model the export does not have (after a passed cap the rest was not read and may
 * hold it), with the results files without a row first: most likely the reason.
 */
function missingModels(
  b: BuilderState,
  present: readonly string[],
  complete: boolean,
  emptyResults: readonly EmptyFile[],
): InputProblem[] {
  const modelProblems: InputProblem[] = [];
  for (const [role, id] of [
    ["baseline", b.baseline],
    ["candidate", b.candidate],
  ] as const) {
    if (complete && !b.stopped && !b.pairOfMany && !b.models.has(id)) {
      modelProblems.push({
        message: unknownModelMessage(role, id, present) + unicodeNearMatch(id, present),
      });
    }
  }
  if (modelProblems.length === 0) return modelProblems;
  return emptyResults
    .map((e): InputProblem => ({
      location: { file: b.fileNames[e.fileIndex] ?? "?" },
      message: emptyResultsMessage(e.bytes),
    }))
    .concat(modelProblems);
}

/**
 * The compared tasks (the builder's task numbers) by (dataset_revision, task_id): a counting sort
 * by the revision's rank, then each revision's tasks by task_id.
 */
function datasetOrder(b: BuilderState): Uint32Array {
  const cols = b.cols;
  const ids = cols.taskIds;
  const revisions = b.revisionList.length;
  const rank = new Uint32Array(revisions);
  [...b.revisionList]
    .sort((a, b) => compareCodeUnits(a.name, b.name))
    .forEach((rev, r) => (rank[rev.index] = r));
  const start = new Uint32Array(revisions + 1);
  for (let i = 0; i < cols.count; i++) {
    const r = (rank[cols.revision[i] ?? 0] ?? 0) + 1;
    if (b.inUniverse(i)) start[r] = (start[r] ?? 0) + 1;
  }
  for (let r = 0; r < revisions; r++) start[r + 1] = (start[r + 1] ?? 0) + (start[r] ?? 0);
  const universe = new Uint32Array(start[revisions] ?? 0);
  const fill = start.slice();
  for (let i = 0; i < cols.count; i++) {
    if (!b.inUniverse(i)) continue;
    const r = rank[cols.revision[i] ?? 0] ?? 0;
    const at = fill[r] ?? 0;
    universe[at] = i;
    fill[r] = at + 1;
  }
  for (let r = 0; r < revisions; r++) idOrder(universe.subarray(start[r] ?? 0, start[r + 1] ?? 0), ids);
  return universe;
}

/** The dataset revisions the compared (or ranked) models have rows under. */
function comparedRevisions(b: BuilderState): Set<string> {
  const compared = new Set([...b.baselineState.datasetRevisions, ...b.candidateState.datasetRevisions]);
  for (const st of b.ranked?.states ?? []) for (const r of st.datasetRevisions) compared.add(r);
  return compared;
}

/**
 * Drops what only the read needed (the task maps, the attempt ids) before the table is made, and
 * asks for a collection on a large read: a task-heavy export's peak memory is the held state and
 * the table together, and the read's garbage (grown-out arrays, rows' strings) goes first.
 */
function releaseReadState(b: BuilderState, collectGarbage: (() => void) | undefined): void {
  const cols = b.cols;
  b.revisions.clear();
  b.index = new TaskIndex();
  cols.baseline.releaseAttempts();
  cols.candidate.releaseAttempts();
  for (const m of cols.ranked) m.releaseAttempts();
  if (collectGarbage !== undefined && cols.count >= COLLECT_MIN_TASKS) collectGarbage();
}

/** Where each task's label events start in the table, and every review revision seen. */
interface LabelRuns {
  /** Task u's events are eventStart[u] … eventStart[u + 1] - 1 (one more entry than tasks). */
  readonly eventStart: Uint32Array;
  readonly revisions: ReadonlySet<number>;
}

/**
 * In dataset order: each task's run of label events, the review revisions, and the problems only
 * the whole input shows (two labels at a task's highest revision, a cluster or benchmark
 * conflict), into `late` in that order.
 */
function labelRuns(b: BuilderState, universe: Uint32Array, late: ProblemList): LabelRuns {
  const cols = b.cols;
  const size = universe.length;
  const revisions = new Set<number>();
  const eventStart = new Uint32Array(size + 1);
  let eventCount = 0;
  const conflicts = cols.clusterConflicts.size > 0 || cols.benchmarkConflicts.size > 0;
  for (let u = 0; u < size; u++) {
    const i = universe[u] ?? 0;
    const flags = cols.flags[i] ?? 0;
    eventStart[u] = eventCount;
    // A task's first row always adds a label unless it passed a cap (reported): then it has none.
    if ((flags & F_MORE_LABELS) !== 0) {
      eventCount += countLabels(b, i, flags, revisions, late);
    } else if ((flags & F_LABEL0) !== 0) {
      revisions.add(cols.label0Revision[i] ?? 0);
      eventCount++;
    }
    if (conflicts) attributeConflicts(b, i, late);
  }
  eventStart[size] = eventCount;
  return { eventStart, revisions };
}

/**
 * The label events of a task with more than one, counted in place (labelsOf makes an event a
 * label; addToTable makes them once): only two different labels at the task's highest revision
 * need them, for checkLabels.
 */
function countLabels(
  b: BuilderState,
  i: number,
  flags: number,
  revisions: Set<number>,
  late: ProblemList,
): number {
  const cols = b.cols;
  const top = cols.topRevision[i] ?? -1;
  let topCode = -1;
  let rival = false;
  let count = 0;
  if ((flags & F_LABEL0) !== 0) {
    const revision = cols.label0Revision[i] ?? 0;
    revisions.add(revision);
    if (revision === top) topCode = cols.label0Validity[i] ?? 0;
    count++;
  }
  const more = cols.moreLabels[i];
  for (let k = 0; k < laterCount(more); k++) {
    const e = laterAt(more, k);
    revisions.add(e.revision);
    count++;
    if (e.revision !== top) continue;
    const code = validityCode(e.validity);
    if (topCode < 0) topCode = code;
    else if (code !== topCode) rival = true;
  }
  if (rival) checkLabels(b, i, labelsOf(b.cols, i, flags), late);
  return count;
}

/** A task's cluster or benchmark named differently by two of its rows: a problem at the second. */
function attributeConflicts(b: BuilderState, i: number, late: ProblemList): void {
  const cols = b.cols;
  const task = `task ${quote(cols.taskIds[i] ?? "")} (dataset_revision ${quote(b.revisionOf(i))})`;
  const cluster = cols.clusterConflicts.get(i);
  if (cluster !== undefined) {
    late.add({
      location: b.locationOf(cluster.src),
      field: "cluster",
      message:
        `${task} has cluster ${quote(cols.clusters[i] ?? "")} at ${b.where(cols.clusterSrc[i] ?? 0)} and ` +
        `${quote(cluster.value)} here; a task belongs to one cluster`,
    });
  }
  const benchmark = cols.benchmarkConflicts.get(i);
  if (benchmark !== undefined) {
    const first = b.firstRowOf(i);
    late.add({
      location: b.locationOf(benchmark.src),
      field: "benchmark",
      message:
        `${task} is in benchmark ${quote(b.benchmarkOfTask(i))}${first === undefined ? "" : ` (its first row, at ${first})`} ` +
        `and this row names ${quote(benchmark.value)}; a task belongs to one benchmark (a row without ` +
        `one is in ${quote(DEFAULT_BENCHMARK)})`,
    });
  }
}

/**
 * The table of the compared tasks, filled in the builder's task order: its ~15 columns are read
 * in order and the table's written where each task goes (in dataset order every read would be a
 * cache miss). The ranked models' counts too, on a K-model read.
 */
function filledTable(b: BuilderState, universe: Uint32Array, eventStart: Uint32Array): ColumnTaskTable {
  const cols = b.cols;
  const table = newTable(b, universe, eventStart);
  const position = new Int32Array(cols.count).fill(-1);
  for (let u = 0; u < universe.length; u++) position[universe[u] ?? 0] = u;
  for (let i = 0; i < cols.count; i++) {
    const u = position[i] ?? -1;
    if (u >= 0) addToTable(b, table, u, i, eventStart[u] ?? 0);
  }
  if (b.ranked !== undefined) {
    b.ranked.counts = rankedCounts(cols.ranked, universe);
    b.ranked.metrics = metricsOf(b, cols.ranked, universe);
  }
  return table;
}

/**
 * Labels that match no compared task (docs/spec.md §1.2 "Reviews"): per reviews file,
 * the rows under dataset revisions that no task of the baseline or the candidate has; and the
 * export's labelled tasks (label other than unreviewed, from rows of other models) under such
 * revisions. A reviews file none of whose rows labels a compared task is a problem (`late`).
 */
function unmatchedLabelsOf(
  b: BuilderState,
  compared: ReadonlySet<string>,
  late: ProblemList,
  matchingNothing: string[],
): UnmatchedLabels[] {
  const out: UnmatchedLabels[] = [];
  const comparedList = [...compared].sort(compareCodeUnits);
  for (const [fileIndex, st] of [...b.reviewFiles].sort((x, y) => x[0] - y[0])) {
    const file = b.fileNames[fileIndex] ?? "?";
    const unmatched = [...st.byRevision.keys()].filter((r) => !compared.has(r)).sort(compareCodeUnits);
    const rows = unmatched.reduce((s, r) => s + (st.byRevision.get(r) ?? 0), 0) + st.otherRows;
    if (st.matched === 0 && b.pairOfMany) {
      matchingNothing.push(file);
    } else if (st.matched === 0) {
      late.add({ location: { file }, message: noMatchMessage(st, unmatched, comparedList) });
    } else if (rows > 0) {
      out.push({ file, rows, of: st.rows, revisions: unmatched, moreRevisions: st.otherRows > 0 });
    }
  }
  const exportRevisions: string[] = [];
  let labelled = 0;
  const labelledIn = new Float64Array(b.revisionList.length);
  for (let i = 0; i < b.cols.count; i++) {
    const r = b.cols.revision[i] ?? 0;
    if (hasLabel(b.cols, i)) labelledIn[r] = (labelledIn[r] ?? 0) + 1;
  }
  for (const rev of b.revisionList) {
    if (compared.has(rev.name)) continue;
    const here = labelledIn[rev.index] ?? 0;
    if (here > 0) {
      exportRevisions.push(rev.name);
      labelled += here;
    }
  }
  if (labelled > 0) {
    out.push({
      rows: labelled,
      of: undefined,
      revisions: exportRevisions.sort(compareCodeUnits),
      moreRevisions: false,
    });
  }
  return out;
}

/** Two labels at a task's highest review revision: a problem at the second. */
function checkLabels(b: BuilderState, i: number, events: readonly LabelEvent[], late: ProblemList): void {
  const top = b.cols.topRevision[i] ?? -1;
  const label = events.find((e) => e.revision === top);
  const rival = events.find((e) => e.revision === top && e.validity !== label?.validity);
  if (label === undefined || rival === undefined) return;
  late.add({
    location: b.locationOf(rival.src),
    field: "validity",
    message:
      `task ${quote(b.cols.taskIds[i] ?? "")} (dataset_revision ${quote(b.revisionOf(i))}) has two ` +
      `different labels at its highest review_revision ${top}: "${label.validity}" ` +
      `at ${b.where(label.src)} and "${rival.validity}" here; record a disagreement as a ` +
      `later revision labelled "disputed"`,
  });
}

/** Each ranked model's counts by task of the table (`universe`: the table's tasks in order). */
function rankedCounts(
  ranked: readonly ModelColumns[],
  universe: Uint32Array,
): (AttemptCounts | undefined)[][] {
  return ranked.map((m) => {
    const out = new Array<AttemptCounts | undefined>(universe.length);
    for (let u = 0; u < universe.length; u++) {
      const i = universe[u] ?? 0;
      if (m.seen[i] === 1) out[u] = countsOf(m, i);
    }
    return out;
  });
}

/** What the reader learned about ranked model k (a K-model read). */
export function rankedSummary(b: BuilderState, k: number): ModelSummary {
  const st = b.ranked?.states[k];
  if (st === undefined) throw new Error(`dataset-finish: no ranked model ${k}`);
  return summary(b.ranked?.ids[k] ?? "", st, b.benchmarkNames);
}

/** An empty table for the tasks of `universe` (dataset order), their label events at eventStart. */
function newTable(b: BuilderState, universe: Uint32Array, eventStart: Uint32Array): ColumnTaskTable {
  const cols = b.cols;
  const names = b.revisionList.map((r) => r.name);
  // Only the string columns: the table must not keep the builder's typed arrays alive.
  const strings = {
    taskIds: cols.taskIds,
    clusters: cols.clusters,
    evidence: cols.evidence,
    arena: cols.arena,
  };
  return new ColumnTaskTable(universe.length, eventStart, strings, names, b.fileNames);
}

/** Task i's packed list as a string, read out of the arena when held there (only a label with a
 * list of its own asks: the table reads the rest when a record is made). */
function taskList(cols: TaskColumns, i: number): string | undefined {
  return cols.arena.textOf(cols.evidence[i]);
}

/** Task i as the table's task u, its labels from event `e` on in history order (by revision, then source). */
function addToTable(b: BuilderState, table: ColumnTaskTable, u: number, i: number, e: number): void {
  const cols = b.cols;
  const flags = cols.flags[i] ?? 0;
  table.setTask(
    u,
    i,
    cols.revision[i] ?? 0,
    cols.topValidity[i] ?? 0,
    cols.topRevision[i] ?? -1,
    (flags & F_BASELINE) === 0 ? undefined : countsOf(cols.baseline, i),
    (flags & F_CANDIDATE) === 0 ? undefined : countsOf(cols.candidate, i),
  );
  const more = (flags & F_MORE_LABELS) === 0 ? undefined : cols.moreLabels[i];
  const first = (flags & F_LABEL0) !== 0;
  if (more === undefined || (first && laterInOrder(cols, i, more))) {
    // The labels in history order as held (one, the usual case, or the first then the later
    // ones in order): written from the columns, no LabelEvent list, no sort.
    let k = e;
    if (first) {
      const own = (flags & F_LABEL0_OWN) !== 0;
      table.setEvent(
        k++,
        cols.label0Revision[i] ?? 0,
        cols.label0Validity[i] ?? 0,
        cols.label0Src[i] ?? 0,
        own ? ownEvidence(cols.label0Evidence.get(i), taskList(cols, i)) : undefined,
        cols.label0Meta.get(i),
      );
    }
    for (let m = 0; m < laterCount(more); m++) setLabelEvent(table, k++, laterAt(more, m), cols, i);
    return;
  }
  // (labelsOf makes a new list: sorted in place.)
  const sorted = labelsOf(b.cols, i, flags).sort(historyOrder);
  for (let k = 0; k < sorted.length; k++) setLabelEvent(table, e + k, sorted[k] as LabelEvent, cols, i);
}

function setLabelEvent(
  table: ColumnTaskTable,
  at: number,
  ev: LabelEvent,
  cols: TaskColumns,
  i: number,
): void {
  table.setEvent(
    at,
    ev.revision,
    validityCode(ev.validity),
    ev.src,
    ev.own ? ownEvidence(ev.evidence, taskList(cols, i)) : undefined,
    ev.reviewer === undefined && ev.note === undefined ? undefined : { reviewer: ev.reviewer, note: ev.note },
  );
}

function summary(config: string, st: ModelState, benchmarkNames: readonly string[]): ModelSummary {
  const byBenchmark: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const [k, set] of st.harnessByBenchmark) {
    byBenchmark[benchmarkNames[k] ?? ""] = [...set].sort(compareCodeUnits);
  }
  return {
    config,
    harnessRevisions: [...st.harnessRevisions].sort(compareCodeUnits),
    datasetRevisions: [...st.datasetRevisions].sort(compareCodeUnits),
    duplicateRows: st.duplicateRows,
    ...(st.harnessByBenchmark.size > 1 ? { harnessByBenchmark: byBenchmark } : {}),
  };
}

/** Counts below this (each of the four) come from one shared object per combination. */
const SHARED_COUNTS_BELOW = 8;
const sharedCounts: (AttemptCounts | undefined)[] = [];

/**
 * A record's attempt counts. Tasks of a task-heavy export have a few attempts each, so the counts
 * repeat: one frozen object per combination below SHARED_COUNTS_BELOW (records are never
 * modified) instead of two objects a task.
 */
function countsOf(m: ModelColumns, i: number): AttemptCounts {
  const pass = small(m.pass[i] ?? 0);
  const fail = small(m.fail[i] ?? 0);
  const infraError = small(m.infraError[i] ?? 0);
  const missing = small(m.missing[i] ?? 0);
  const n = SHARED_COUNTS_BELOW;
  if (pass >= n || fail >= n || infraError >= n || missing >= n) {
    return { pass, fail, infra_error: infraError, missing };
  }
  const k = ((pass * n + fail) * n + infraError) * n + missing;
  let shared = sharedCounts[k];
  if (shared === undefined) {
    shared = Object.freeze({ pass, fail, infra_error: infraError, missing });
    sharedCounts[k] = shared;
  }
  return shared;
}
