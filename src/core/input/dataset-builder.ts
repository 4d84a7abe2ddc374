/**
 * Reduces validated rows to the Dataset (SPEC §1.1, §1.2, §1.4) with memory that grows with the
 * number of (model, task) pairs, never with the number of rows:
 * - for every task (any model's rows carry labels that count toward its effective validity): the
 *   distinct (review_revision, validity) events with their first source, the cluster, and at most
 *   MAX_EVIDENCE_PER_TASK evidence items;
 * - for the baseline and the candidate only, per task: the attempt counts, the attempt keys seen
 *   (to fold duplicates and catch conflicting results; small: one entry per attempt of the task),
 *   and which harness revisions came as per-attempt or pre-aggregated rows;
 * - every model_config seen (for the "unknown model id" message).
 *
 * Sources (file, line) are packed into one safe integer: fileIndex * 2^32 + line. Tasks are held
 * in a two-level map (dataset_revision → task_id) so that a row costs no key concatenation and the
 * tasks of one revision share its string; attempt keys are the attempt values themselves (numbers
 * and strings are distinct Map keys, so 1 and "1" stay apart); the usual single harness revision
 * of a (model, task) is held inline, more in a map.
 *
 * Problems about tasks outside the universe (tasks neither compared model ran) are not reported:
 * such a task's label or cluster conflict cannot change the output. Duplicate attempts and
 * conflicting results are checked for the two compared models only, for the same reason.
 */

import { InputError, type InputProblem } from "../errors.js";
import {
  type AttemptCounts,
  type Dataset,
  type InputFileDigest,
  type ModelSummary,
  type ReviewEvent,
  type TaskRecord,
  type Validity,
} from "../model.js";
import { MAX_EVIDENCE_PER_TASK, MAX_LISTED_MODEL_IDS } from "./limits.js";
import {
  checkExportRow,
  checkReviewRow,
  emptyExportRow,
  emptyReviewRow,
  LineIssues,
  parseObject,
  quote,
  RESULT_NAMES,
  type ExportRow,
} from "./rows.js";

const LINE_RADIX = 2 ** 32;
/** Harness-kind entries: packed source * 2 + kind. */
const KIND_ATTEMPTS = 0;
const KIND_AGGREGATED = 1;

/** Keeps the first problems in full and counts the rest. */
class ProblemList {
  readonly items: InputProblem[] = [];
  total = 0;

  add(p: InputProblem): void {
    this.total++;
    if (this.items.length < 20) this.items.push(p);
  }
}

/**
 * One distinct (revision, validity) of a task. Source, reviewer and note are those of the first row
 * or review that gave it; the evidence is that of every row and review that gave it (first seen
 * first, capped), so that an aggregated export yields the same events as the attempts it sums.
 */
interface LabelEvent {
  readonly revision: number;
  readonly validity: Validity;
  readonly src: number;
  readonly reviewer: string | undefined;
  readonly note: string | undefined;
  evidence: string[] | undefined;
}

/** One (model, task, harness_revision): how its rows came, and the attempts seen. */
interface HarnessState {
  readonly harness: string;
  /** Packed source of the first row * 2 + kind (per-attempt or pre-aggregated). */
  readonly info: number;
  /** The first attempt value seen and its packed source * 4 + result index (no Map for one attempt). */
  a0: string | number | undefined;
  a0info: number;
  /** Further attempt values → packed source * 4 + result index. */
  more: Map<string | number, number> | undefined;
}

/** A compared model on one task: its first harness revision inline, the counts, other harnesses. */
interface ModelTaskState extends HarnessState {
  pass: number;
  fail: number;
  infraError: number;
  missing: number;
  others: Map<string, HarnessState> | undefined;
}

interface TaskState {
  readonly datasetRevision: string;
  readonly taskId: string;
  topRevision: number;
  topValidity: Validity;
  /** Distinct (revision, validity) events in the order found (created with the first). */
  events: LabelEvent[] | undefined;
  /** The event the last row of this task gave (rows of a task usually repeat one label). */
  last: LabelEvent | undefined;
  evidence: string[] | undefined;
  cluster: string | undefined;
  clusterSrc: number;
  /** The first row that contradicted `cluster`. */
  clusterConflict: { readonly value: string; readonly src: number } | undefined;
  baseline: ModelTaskState | undefined;
  candidate: ModelTaskState | undefined;
}

interface ModelState {
  readonly harnessRevisions: Set<string>;
  readonly datasetRevisions: Set<string>;
  duplicateRows: number;
}

function newModelState(): ModelState {
  return { harnessRevisions: new Set(), datasetRevisions: new Set(), duplicateRows: 0 };
}

function codeUnitCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

export class DatasetBuilder {
  /** dataset_revision → task_id → state. */
  private readonly tasks = new Map<string, Map<string, TaskState>>();
  /** Cluster and harness strings repeat across tasks: keep one copy of each. */
  private readonly strings = new Map<string, string>();
  private readonly models = new Set<string>();
  private lastModel: string | undefined = undefined;
  private readonly baselineState = newModelState();
  private readonly candidateState = newModelState();
  private readonly lineProblems = new ProblemList();
  private readonly issues = new LineIssues();
  private readonly exportRow = emptyExportRow();
  private readonly reviewRow = emptyReviewRow();

  constructor(
    private readonly baseline: string,
    private readonly candidate: string,
    /** Display names of the input files, by file index. */
    private readonly fileNames: readonly string[],
  ) {}

  private src(fileIndex: number, line: number): number {
    return fileIndex * LINE_RADIX + line;
  }

  private where(src: number): string {
    const file = this.fileNames[Math.floor(src / LINE_RADIX)] ?? "?";
    return `${file}:${src % LINE_RADIX}`;
  }

  private locationOf(src: number): { file: string; line: number } {
    return { file: this.fileNames[Math.floor(src / LINE_RADIX)] ?? "?", line: src % LINE_RADIX };
  }

  /** A problem of a whole file (line undefined) or of one line, reported by the line streamer. */
  fileProblem(fileIndex: number, line: number | undefined, message: string): void {
    const file = this.fileNames[fileIndex] ?? "?";
    this.lineProblems.add({ location: line === undefined ? { file } : { file, line }, message });
  }

  private lineProblem(src: number, field: string | undefined, message: string): void {
    const location = this.locationOf(src);
    this.lineProblems.add(field === undefined ? { location, message } : { location, field, message });
  }

  /** One non-blank line of a results export. */
  addResultLine(text: string, fileIndex: number, line: number): void {
    const issues = this.issues;
    issues.reset();
    const obj = parseObject(text, issues);
    const row = this.exportRow;
    if (obj === undefined || !checkExportRow(obj, row, issues)) {
      this.lineProblem(this.src(fileIndex, line), issues.field, issues.text());
      return;
    }
    const src = this.src(fileIndex, line);
    const model = row.modelConfig;
    if (model !== this.lastModel) {
      this.models.add(model);
      this.lastModel = model;
    }
    const isBaseline = model === this.baseline;
    const isCandidate = model === this.candidate;

    let byTask = this.tasks.get(row.datasetRevision);
    if (byTask === undefined) {
      byTask = new Map();
      this.tasks.set(this.intern(row.datasetRevision), byTask);
    }
    let task = byTask.get(row.taskId);
    if (task === undefined) {
      task = {
        datasetRevision: this.intern(row.datasetRevision),
        taskId: row.taskId,
        topRevision: -1,
        topValidity: "unreviewed",
        events: undefined,
        last: undefined,
        evidence: undefined,
        cluster: undefined,
        clusterSrc: 0,
        clusterConflict: undefined,
        baseline: undefined,
        candidate: undefined,
      };
      byTask.set(row.taskId, task);
    }

    // The attempt first: a row that conflicts with an earlier attempt is reported and contributes nothing.
    if (isBaseline) {
      if (task.baseline === undefined) {
        task.baseline = this.newModelTask(row, src);
        this.countRow(task.baseline, this.baselineState, row);
      } else if (!this.addAttempt(task, task.baseline, this.baselineState, row, src)) {
        return;
      }
    }
    if (isCandidate) {
      if (task.candidate === undefined) {
        task.candidate = this.newModelTask(row, src);
        this.countRow(task.candidate, this.candidateState, row);
      } else if (!this.addAttempt(task, task.candidate, this.candidateState, row, src)) {
        return;
      }
    }

    this.addLabel(task, row.reviewRevision, row.validity, src, row.evidence, undefined, undefined);
    const cluster = row.cluster;
    if (cluster !== undefined) {
      if (task.cluster === undefined) {
        task.cluster = this.intern(cluster);
        task.clusterSrc = src;
      } else if (cluster !== task.cluster && task.clusterConflict === undefined) {
        task.clusterConflict = { value: cluster, src };
      }
    }
  }

  private intern(value: string): string {
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    this.strings.set(value, value);
    return value;
  }

  /** The state of a compared model's first row on a task (nothing to conflict with yet). */
  private newModelTask(row: ExportRow, src: number): ModelTaskState {
    return {
      harness: this.intern(row.harnessRevision),
      info: src * 2 + (row.result < 0 ? KIND_AGGREGATED : KIND_ATTEMPTS),
      a0: row.attempt,
      a0info: src * 4 + row.result,
      more: undefined,
      pass: 0,
      fail: 0,
      infraError: 0,
      missing: 0,
      others: undefined,
    };
  }

  private newHarness(row: ExportRow, src: number): HarnessState {
    return {
      harness: this.intern(row.harnessRevision),
      info: src * 2 + (row.result < 0 ? KIND_AGGREGATED : KIND_ATTEMPTS),
      a0: row.attempt,
      a0info: src * 4 + row.result,
      more: undefined,
    };
  }

  /** Counts one row of a compared model. Returns false when it conflicts (reported). */
  private addAttempt(
    task: TaskState,
    st: ModelTaskState,
    model: ModelState,
    row: ExportRow,
    src: number,
  ): boolean {
    const harness = row.harnessRevision;
    const kind = row.result < 0 ? KIND_AGGREGATED : KIND_ATTEMPTS;
    const seen = harness === st.harness ? st : st.others?.get(harness);
    if (seen === undefined) {
      (st.others ??= new Map()).set(harness, this.newHarness(row, src));
      this.countRow(st, model, row);
      return true;
    }
    if (kind === KIND_AGGREGATED || seen.info % 2 === KIND_AGGREGATED) {
      const other = this.where(Math.floor(seen.info / 2));
      const what =
        `model_config ${quote(row.modelConfig)}, task ${quote(task.taskId)}, dataset_revision ` +
        `${quote(task.datasetRevision)}, harness_revision ${quote(harness)}`;
      const message =
        kind === KIND_AGGREGATED && seen.info % 2 === KIND_AGGREGATED
          ? `a second pre-aggregated row for ${what}; the first is at ${other}. Two aggregates of ` +
            `the same attempts are ambiguous: give one row with the totals`
          : `pre-aggregated and per-attempt rows for the same ${what} (the other kind is at ${other}); ` +
            `whether the aggregate includes those attempts is ambiguous: give one kind only`;
      this.lineProblem(src, undefined, message);
      return false;
    }
    const attempt = row.attempt;
    if (attempt !== undefined) {
      const prev = attempt === seen.a0 ? seen.a0info : seen.more?.get(attempt);
      if (prev !== undefined) {
        const prevResult = prev % 4;
        if (prevResult === row.result) {
          model.duplicateRows++;
          return true;
        }
        const prevName = RESULT_NAMES[prevResult] ?? "?";
        const name = RESULT_NAMES[row.result] ?? "?";
        this.lineProblem(
          src,
          "result",
          `conflicts with ${this.where(Math.floor(prev / 4))}: the same attempt (model_config ` +
            `${quote(row.modelConfig)}, task ${quote(task.taskId)}, dataset_revision ` +
            `${quote(task.datasetRevision)}, harness_revision ${quote(harness)}, attempt ` +
            `${typeof attempt === "number" ? String(attempt) : quote(attempt)}) is "${prevName}" there ` +
            `and "${name}" here; a repeated attempt must repeat its result`,
        );
        return false;
      }
      if (seen.a0 === undefined) {
        seen.a0 = attempt;
        seen.a0info = src * 4 + row.result;
      } else {
        (seen.more ??= new Map<string | number, number>()).set(attempt, src * 4 + row.result);
      }
    }
    this.countRow(st, model, row);
    return true;
  }

  /** Adds a row that is not a duplicate to its model's counts and revisions. */
  private countRow(st: ModelTaskState, model: ModelState, row: ExportRow): void {
    switch (row.result) {
      case 0:
        st.pass++;
        break;
      case 1:
        st.fail++;
        break;
      case 2:
        st.infraError++;
        break;
      case 3:
        st.missing++;
        break;
      default:
        st.pass += row.passes;
        st.fail += row.fails;
        st.infraError += row.infraErrors;
        st.missing += row.missing;
    }
    if (!model.harnessRevisions.has(row.harnessRevision)) {
      model.harnessRevisions.add(this.intern(row.harnessRevision));
    }
    if (!model.datasetRevisions.has(row.datasetRevision)) {
      model.datasetRevisions.add(this.intern(row.datasetRevision));
    }
  }

  private addLabel(
    task: TaskState,
    revision: number,
    validity: Validity,
    src: number,
    evidence: string | readonly string[] | undefined,
    reviewer: string | undefined,
    note: string | undefined,
  ): void {
    let event = task.last;
    if (event === undefined || event.revision !== revision || event.validity !== validity) {
      event = task.events?.find((e) => e.revision === revision && e.validity === validity);
      if (event === undefined) {
        event = { revision, validity, src, reviewer, note, evidence: undefined };
        if (task.events === undefined) task.events = [event];
        else task.events.push(event);
        if (revision > task.topRevision) {
          task.topRevision = revision;
          task.topValidity = validity;
        }
      }
      task.last = event;
    }
    if (evidence !== undefined) {
      addEvidence(event, evidence);
      addEvidence(task, evidence);
    }
  }

  /** Whether the reviews can matter: call after all results files. */
  private inUniverse(task: TaskState): boolean {
    return task.baseline !== undefined || task.candidate !== undefined;
  }

  /** One non-blank line of a reviews file. Read after every results file. */
  addReviewLine(text: string, fileIndex: number, line: number): void {
    const issues = this.issues;
    issues.reset();
    const obj = parseObject(text, issues);
    const row = this.reviewRow;
    if (obj === undefined || !checkReviewRow(obj, row, issues)) {
      this.lineProblem(this.src(fileIndex, line), issues.field, issues.text());
      return;
    }
    const task = this.tasks.get(row.datasetRevision)?.get(row.taskId);
    // A review of a task neither compared model ran is not part of the output.
    if (task === undefined || !this.inUniverse(task)) return;
    const src = this.src(fileIndex, line);
    const note = row.note === "" ? undefined : row.note;
    this.addLabel(task, row.reviewRevision, row.validity, src, row.evidence, row.reviewer, note);
  }

  /** Every model_config seen, sorted. */
  modelsPresent(): string[] {
    return [...this.models].sort(codeUnitCompare);
  }

  /**
   * The Dataset, or one InputError listing every problem found. `complete` is false when a file
   * could not be read to its end (a problem already says so): then a model id missing from what
   * was read is not reported, since the unread part may hold it.
   */
  finish(inputs: readonly InputFileDigest[], rowsRead: number, complete: boolean): Dataset {
    const present = this.modelsPresent();
    const modelProblems: InputProblem[] = [];
    for (const [role, id] of [
      ["baseline", this.baseline],
      ["candidate", this.candidate],
    ] as const) {
      if (complete && !this.models.has(id)) {
        modelProblems.push({ message: unknownModelMessage(role, id, present) });
      }
    }

    const records: TaskRecord[] = [];
    const late = new ProblemList();
    const universe: TaskState[] = [];
    for (const byTask of this.tasks.values()) {
      for (const t of byTask.values()) if (this.inUniverse(t)) universe.push(t);
    }
    universe.sort(
      (a, b) => codeUnitCompare(a.datasetRevision, b.datasetRevision) || codeUnitCompare(a.taskId, b.taskId),
    );
    const revisions = new Set<number>();
    for (const task of universe) {
      // A task's first row always adds a label unless it conflicted (reported): then events is empty.
      const events = task.events ?? [];
      const label = events.find((e) => e.revision === task.topRevision);
      const rival = events.find((e) => e.revision === task.topRevision && e.validity !== label?.validity);
      if (label !== undefined && rival !== undefined) {
        late.add({
          location: this.locationOf(rival.src),
          field: "validity",
          message:
            `task ${quote(task.taskId)} (dataset_revision ${quote(task.datasetRevision)}) has two ` +
            `different labels at its highest review_revision ${task.topRevision}: "${label.validity}" ` +
            `at ${this.where(label.src)} and "${rival.validity}" here; record a disagreement as a ` +
            `later revision labelled "disputed"`,
        });
      }
      if (task.clusterConflict !== undefined) {
        late.add({
          location: this.locationOf(task.clusterConflict.src),
          field: "cluster",
          message:
            `task ${quote(task.taskId)} (dataset_revision ${quote(task.datasetRevision)}) has cluster ` +
            `${quote(task.cluster ?? "")} at ${this.where(task.clusterSrc)} and ` +
            `${quote(task.clusterConflict.value)} here; a task belongs to one cluster`,
        });
      }
      for (const e of events) revisions.add(e.revision);
      records.push(this.record(task));
    }

    const total = modelProblems.length + this.lineProblems.total + late.total;
    if (total > 0) {
      const problems = [...modelProblems, ...this.lineProblems.items, ...late.items];
      throw new InputError(
        `The results/reviews input has ${plural(total, "problem", "problems")}:`,
        problems,
        total,
      );
    }

    return {
      tasks: records,
      baseline: this.summary(this.baseline, this.baselineState),
      candidate: this.summary(this.candidate, this.candidateState),
      modelsPresent: present,
      inputs,
      rowsRead,
      reviewRevisions: [...revisions].sort((a, b) => a - b),
    };
  }

  private record(task: TaskState): TaskRecord {
    const history: ReviewEvent[] = (task.events ?? [])
      .slice()
      .sort((a, b) => a.revision - b.revision || a.src - b.src)
      .map((e) => {
        const event: {
          revision: number;
          validity: Validity;
          source: { file: string; line: number };
          reviewer?: string;
          note?: string;
          evidence: readonly string[];
        } = {
          revision: e.revision,
          validity: e.validity,
          source: this.locationOf(e.src),
          evidence: e.evidence ?? [],
        };
        if (e.reviewer !== undefined) event.reviewer = e.reviewer;
        if (e.note !== undefined) event.note = e.note;
        return event;
      });
    const out: {
      -readonly [K in keyof TaskRecord]: TaskRecord[K];
    } = {
      datasetRevision: task.datasetRevision,
      taskId: task.taskId,
      validity: task.topValidity,
      reviewRevision: task.topRevision,
      history,
      evidence: task.evidence ?? [],
    };
    if (task.cluster !== undefined) out.cluster = task.cluster;
    if (task.baseline !== undefined) out.baseline = countsOf(task.baseline);
    if (task.candidate !== undefined) out.candidate = countsOf(task.candidate);
    return out;
  }

  private summary(config: string, st: ModelState): ModelSummary {
    return {
      config,
      harnessRevisions: [...st.harnessRevisions].sort(codeUnitCompare),
      datasetRevisions: [...st.datasetRevisions].sort(codeUnitCompare),
      duplicateRows: st.duplicateRows,
    };
  }
}

function countsOf(st: ModelTaskState): AttemptCounts {
  return { pass: st.pass, fail: st.fail, infra_error: st.infraError, missing: st.missing };
}

/** Adds evidence items to a task or an event: non-empty, de-duplicated, first seen first, capped. */
function addEvidence(holder: { evidence: string[] | undefined }, evidence: string | readonly string[]): void {
  if (typeof evidence === "string") {
    addEvidenceItem(holder, evidence);
  } else {
    for (const item of evidence) addEvidenceItem(holder, item);
  }
}

function addEvidenceItem(holder: { evidence: string[] | undefined }, item: string): void {
  if (item.length === 0) return;
  const kept = holder.evidence;
  if (kept === undefined) {
    holder.evidence = [item];
  } else if (kept.length < MAX_EVIDENCE_PER_TASK && !kept.includes(item)) {
    kept.push(item);
  }
}

function unknownModelMessage(role: string, id: string, present: readonly string[]): string {
  if (present.length === 0) {
    return `the ${role} model_config ${quote(id)} does not appear in the export: the export has no valid rows`;
  }
  const shown = present.slice(0, MAX_LISTED_MODEL_IDS).map(quote).join(", ");
  const more = present.length > MAX_LISTED_MODEL_IDS ? `, … (${present.length} in all)` : "";
  return (
    `the ${role} model_config ${quote(id)} does not appear in the export; model_config ids present ` +
    `(${present.length}): ${shown}${more}`
  );
}
