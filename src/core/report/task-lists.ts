/**
 * The report's task lists in their compact form (docs/report-json.md "Broken tasks and review history
 * in the report JSON"): complete, but one string per task instead of an object per task and per event,
 * grouped by dataset revision, so a 500,000-task report is not mostly key names and indentation.
 * `buildReport` encodes them from the Dataset; the renderers decode only the entries they show.
 */
import { VALIDITIES, type Source, type TaskKey, type TaskTable, type Validity } from "../model.js";
import type { BrokenTasks, ReviewHistory } from "./report-types.js";

/** Separates the events of one task in a `review_history` events string. */
const EVENT_SEPARATOR = "; ";

/** One label event as the renderers show it. */
export interface ShownEvent {
  readonly revision: number;
  readonly validity: string;
  /** "file:line". */
  readonly source: string;
}

/** One listed task of `review_history`: its events, or the raw events string when it does not parse. */
export interface ShownHistory {
  readonly dataset_revision: string;
  readonly task_id: string;
  readonly events: readonly ShownEvent[] | string;
}

interface Group {
  readonly dataset_revision: string;
  readonly task_ids: string[];
}

/** The group for `revision`: the last one when it is the same (tasks come sorted by revision). */
function groupFor<G extends Group>(groups: G[], revision: string, make: () => G): G {
  const last = groups[groups.length - 1];
  if (last !== undefined && last.dataset_revision === revision) return last;
  const g = make();
  groups.push(g);
  return g;
}

/**
 * compactBrokenTasks of the table's broken tasks, read straight from it: no key object a task
 * (buildReport's walk over a 10⁶-task Dataset).
 */
export function brokenTasksOf(tasks: TaskTable): BrokenTasks {
  const groups: Group[] = [];
  let count = 0;
  for (let i = 0; i < tasks.length; i++) {
    if (tasks.validity(i) !== "broken") continue;
    const revision = tasks.datasetRevision(i);
    groupFor(groups, revision, () => ({ dataset_revision: revision, task_ids: [] })).task_ids.push(
      tasks.taskId(i),
    );
    count += 1;
  }
  return { count, by_dataset_revision: groups };
}

/**
 * The review history as it is built, task by task (listed tasks in the order given): the files
 * numbered by first use, the events strings, the counts.
 */
class HistoryLists {
  private readonly files: string[] = [];
  private readonly fileIndex = new Map<string, number>();
  private readonly groups: { dataset_revision: string; task_ids: string[]; events: string[] }[] = [];
  private readonly parts: string[] = [];
  private count = 0;
  private sameLabel = 0;
  private events = 0;

  /** A task labelled at several revisions with the same label every time: only counted. */
  sameLabelTask(): void {
    this.sameLabel += 1;
  }

  /** The next event of the task being listed (call `list` after its last). */
  event(revision: number, validity: Validity, file: string, line: number): void {
    let f = this.fileIndex.get(file);
    if (f === undefined) {
      f = this.files.length;
      this.files.push(file);
      this.fileIndex.set(file, f);
    }
    this.parts.push(`r${revision} ${validity} ${f}:${line}`);
  }

  /** Lists the task whose events were just given. */
  list(datasetRevision: string, taskId: string): void {
    const g = groupFor(this.groups, datasetRevision, () => ({
      dataset_revision: datasetRevision,
      task_ids: [],
      events: [],
    }));
    g.task_ids.push(taskId);
    // join makes one flat string; `+=` would keep a tree of its pieces (~4× the bytes) in the report.
    g.events.push(this.parts.join(EVENT_SEPARATOR));
    this.count += 1;
    this.events += this.parts.length;
    this.parts.length = 0;
  }

  result(): ReviewHistory {
    return {
      count: this.count,
      events: this.events,
      same_label_tasks: this.sameLabel,
      files: this.files,
      by_dataset_revision: this.groups,
    };
  }
}

/**
 * compactReviewHistory of the table's tasks with two or more label events, read straight from
 * it: a listed task's events string is made from its event columns, with no history, event or
 * source object (at 10⁶ tasks those were most of what buildReport allocated).
 */
export function reviewHistoryOf(tasks: TaskTable): ReviewHistory {
  const out = new HistoryLists();
  for (let i = 0; i < tasks.length; i++) {
    const n = tasks.labelCount(i);
    if (n < 2) continue;
    // The unreviewed events before the first label are no label (an import's r0): not a change.
    let k0 = 0;
    while (k0 < n && tasks.eventValidity(i, k0) === "unreviewed") k0++;
    if (n - k0 < 2) continue;
    const first = tasks.eventValidity(i, k0);
    let same = true;
    for (let k = k0 + 1; k < n && same; k++) same = tasks.eventValidity(i, k) === first;
    if (same) {
      out.sameLabelTask();
      continue;
    }
    for (let k = 0; k < n; k++)
      out.event(
        tasks.eventRevision(i, k),
        tasks.eventValidity(i, k),
        tasks.eventFile(i, k),
        tasks.eventLine(i, k),
      );
    out.list(tasks.datasetRevision(i), tasks.taskId(i));
  }
  return out.result();
}

/** Broken tasks, in the given order (the Dataset's: by dataset revision, then task id). */
export function compactBrokenTasks(tasks: Iterable<TaskKey>): BrokenTasks {
  const groups: { dataset_revision: string; task_ids: string[] }[] = [];
  let count = 0;
  for (const t of tasks) {
    groupFor(groups, t.datasetRevision, () => ({
      dataset_revision: t.datasetRevision,
      task_ids: [],
    })).task_ids.push(t.taskId);
    count += 1;
  }
  return { count, by_dataset_revision: groups };
}

/** What `compactReviewHistory` needs of a task: its key and its label events in history order. */
export interface HistoryInput extends TaskKey {
  readonly history: readonly {
    readonly revision: number;
    readonly validity: Validity;
    readonly source: Source;
  }[];
}

/**
 * Tasks whose label changed (two events with different labels) are listed with every event;
 * tasks labelled at several revisions with the same label every time are only counted.
 */
export function compactReviewHistory(tasks: Iterable<HistoryInput>): ReviewHistory {
  const out = new HistoryLists();
  for (const t of tasks) {
    const h = t.history;
    // As reviewHistoryOf: the unreviewed events before the first label are no label.
    const labelled = h.slice(
      Math.max(
        0,
        h.findIndex((e) => e.validity !== "unreviewed"),
      ),
    );
    if (h.length < 2 || labelled.length < 2 || labelled[0]?.validity === "unreviewed") continue;
    const first = (labelled[0] as (typeof h)[number]).validity;
    if (labelled.every((e) => e.validity === first)) {
      out.sameLabelTask();
      continue;
    }
    for (const e of h) out.event(e.revision, e.validity, e.source.file, e.source.line);
    out.list(t.datasetRevision, t.taskId);
  }
  return out.result();
}

/** The first `limit` broken tasks, as keys. */
export function shownBrokenTasks(
  broken: BrokenTasks,
  limit: number,
): { readonly dataset_revision: string; readonly task_id: string }[] {
  const out: { dataset_revision: string; task_id: string }[] = [];
  for (const g of broken.by_dataset_revision) {
    for (const id of g.task_ids) {
      if (out.length >= limit) return out;
      out.push({ dataset_revision: g.dataset_revision, task_id: id });
    }
  }
  return out;
}

const EVENT = /^r(0|[1-9][0-9]*) ([a-z]+) (0|[1-9][0-9]*):(0|[1-9][0-9]*)$/;

/** One events string back into events; null when it is not in the grammar `buildReport` writes. */
export function parseHistoryEvents(text: string, files: readonly string[]): ShownEvent[] | null {
  const out: ShownEvent[] = [];
  for (const part of text.split(EVENT_SEPARATOR)) {
    const m = EVENT.exec(part);
    const file = m === null ? undefined : files[Number(m[3])];
    if (m === null || file === undefined || !(VALIDITIES as readonly string[]).includes(m[2] ?? ""))
      return null;
    out.push({ revision: Number(m[1]), validity: m[2] ?? "", source: `${file}:${m[4] ?? ""}` });
  }
  return out;
}

/** The first `limit` tasks of the review history with their events decoded. */
export function shownReviewHistory(history: ReviewHistory, limit: number): ShownHistory[] {
  const out: ShownHistory[] = [];
  for (const g of history.by_dataset_revision) {
    for (const [i, id] of g.task_ids.entries()) {
      if (out.length >= limit) return out;
      const text = g.events[i] ?? "";
      out.push({
        dataset_revision: g.dataset_revision,
        task_id: id,
        events: parseHistoryEvents(text, history.files) ?? text,
      });
    }
  }
  return out;
}
