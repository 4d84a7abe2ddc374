/**
 * The dataset as it stood at one review revision (`evaluate --as-of-review N`): only
 * labels with review_revision ≤ N count; a task with no label by then is unreviewed. Attempts are
 * untouched (they are not labels). Pure: a task whose labels all lie at or below N is the same
 * object as before, so the view costs one pass and little memory.
 *
 * The effective label at N follows SPEC §1.2 on the truncated history: the label at the highest
 * revision ≤ N; two different labels at that revision are an input error naming both sources, as
 * the reader reports for the highest revision overall.
 */
import { InputError, type InputProblem } from "../errors.js";
import { quote } from "../quote.js";
import {
  withReplacedRecords,
  type Dataset,
  type ReviewEvent,
  type TaskRecord,
  type TaskTable,
  type Validity,
} from "../model.js";

/** Why a task has no single label at a revision: the two sources that disagree. */
export interface LabelConflict {
  readonly task: TaskRecord;
  readonly revision: number;
  readonly first: ReviewEvent;
  readonly second: ReviewEvent;
}

/**
 * A task's label events in history order (ascending by revision), read by position: a record's
 * history (`historyLabels`) or a task of a TaskTable (`TaskLabels`, no events made).
 */
export interface LabelSequence {
  readonly length: number;
  revision(k: number): number;
  validity(k: number): Validity;
}

export function historyLabels(history: readonly ReviewEvent[]): LabelSequence {
  return {
    length: history.length,
    revision: (k) => (history[k] as ReviewEvent).revision,
    validity: (k) => (history[k] as ReviewEvent).validity,
  };
}

/**
 * The label events of one task of a table at a time: `at(i)` moves it to task i (no object a
 * task: one sequence object per task would make garbage in proportion to the export).
 */
export class TaskLabels implements LabelSequence {
  private task = 0;
  length = 0;
  constructor(private readonly tasks: TaskTable) {}
  at(i: number): this {
    this.task = i;
    this.length = this.tasks.labelCount(i);
    return this;
  }
  revision(k: number): number {
    return this.tasks.eventRevision(this.task, k);
  }
  validity(k: number): Validity {
    return this.tasks.eventValidity(this.task, k);
  }
}

/** How many events of `labels` lie at or below revision n. */
export function eventsAtOrBelow(labels: LabelSequence, n: number): number {
  let keep = 0;
  while (keep < labels.length && labels.revision(keep) <= n) keep++;
  return keep;
}

/**
 * The index of an event at the same revision as event keep − 1 with a different label, or −1:
 * two labels at the effective revision are a conflict (SPEC §1.2).
 */
export function conflictingEvent(labels: LabelSequence, keep: number): number {
  if (keep < 1) return -1;
  const revision = labels.revision(keep - 1);
  const validity = labels.validity(keep - 1);
  for (let i = keep - 2; i >= 0 && labels.revision(i) === revision; i--) {
    if (labels.validity(i) !== validity) return i;
  }
  return -1;
}

/**
 * The task as of revision n, or a conflict. `history` is ascending by revision (reader's order).
 * Returns the same object when nothing above n exists.
 */
export function taskAsOfReview(task: TaskRecord, n: number): TaskRecord | LabelConflict {
  const history = task.history;
  const last = history[history.length - 1];
  if (last === undefined || last.revision <= n) {
    // Nothing above n: the reader already chose (and checked) the effective label.
    return task;
  }
  const keep = eventsAtOrBelow(historyLabels(history), n);
  const kept = history.slice(0, keep);
  const top = kept[keep - 1];
  if (top === undefined) {
    return { ...task, validity: "unreviewed", reviewRevision: -1, history: kept };
  }
  const other = conflictingEvent(historyLabels(kept), keep);
  if (other >= 0) return { task, revision: top.revision, first: kept[other] as ReviewEvent, second: top };
  return { ...task, validity: top.validity, reviewRevision: top.revision, history: kept };
}

export function isLabelConflict(x: TaskRecord | LabelConflict): x is LabelConflict {
  return "first" in x;
}

/** How many tasks disagree, and the first few, as the reader words it. */
export function conflictProblems(conflicts: readonly LabelConflict[]): InputProblem[] {
  return conflicts.map((c) => ({
    location: c.second.source,
    field: "validity",
    message:
      `task ${quote(c.task.taskId)} (dataset_revision ${quote(c.task.datasetRevision)}) has two ` +
      `different labels at review_revision ${c.revision}: "${c.first.validity}" at ` +
      `${c.first.source.file}:${c.first.source.line} and "${c.second.validity}" here`,
  }));
}

export interface AsOfResult {
  readonly dataset: Dataset;
  /** Tasks with two labels at their effective revision (then `dataset` keeps their current record). */
  readonly conflicts: readonly LabelConflict[];
  readonly conflictCount: number;
}

/** At most this many conflicts are kept (the count is exact). */
const KEPT_CONFLICTS = 20;

/** The dataset as of revision n, with the conflicts found (not thrown). */
export function viewAsOfReview(dataset: Dataset, n: number): AsOfResult {
  const conflicts: LabelConflict[] = [];
  let conflictCount = 0;
  let changed = false;
  const table = dataset.tasks;
  // Only tasks labelled after n change: the rest are read through.
  const replaced = new Map<number, TaskRecord>();
  for (let i = 0; i < table.length; i++) {
    if (table.lastLabelRevision(i) <= n) continue;
    const r = taskAsOfReview(table.record(i), n);
    if (isLabelConflict(r)) {
      conflictCount++;
      if (conflicts.length < KEPT_CONFLICTS) conflicts.push(r);
      continue;
    }
    changed = true;
    replaced.set(i, r);
  }
  const tasks = withReplacedRecords(table, replaced);
  const revisions = dataset.reviewRevisions.filter((r) => r <= n);
  const view =
    !changed && revisions.length === dataset.reviewRevisions.length
      ? dataset
      : { ...dataset, tasks, reviewRevisions: revisions };
  return { dataset: view, conflicts, conflictCount };
}

/** The dataset as of revision n; two labels at a task's effective revision are an InputError. */
export function datasetAsOfReview(dataset: Dataset, n: number): Dataset {
  const r = viewAsOfReview(dataset, n);
  if (r.conflictCount > 0) {
    throw new InputError(
      `As of review revision ${n}, ${r.conflictCount} ${r.conflictCount === 1 ? "task has" : "tasks have"} two different labels at the same revision; ` +
        'record a disagreement as a later revision labelled "disputed":',
      conflictProblems(r.conflicts),
      r.conflictCount,
    );
  }
  return r.dataset;
}
