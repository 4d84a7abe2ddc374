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
 *
 * What is held is capped (InputLimits: distinct tasks, models, labels per task, attempt ids, and
 * characters of kept text), and each compared model's attempt total must stay a safe integer.
 * Passing a cap is one problem naming the line; the rest of the input is then only counted, not
 * held, and the read ends in an InputError.
 */

import { InputError, type InputProblem } from "../errors.js";
import {
  compareCodeUnits,
  type AttemptCounts,
  type Dataset,
  type InputFileDigest,
  type ModelSummary,
  type ReviewEvent,
  type TaskRecord,
  type UnmatchedLabels,
  type Validity,
} from "../model.js";
import {
  DEFAULT_INPUT_LIMITS,
  MAX_EVIDENCE_PER_TASK,
  MAX_LISTED_MODEL_IDS,
  type InputLimits,
} from "./limits.js";
import {
  checkExportRow,
  checkReviewRow,
  emptyExportRow,
  emptyReviewRow,
  LineIssues,
  parseObject,
  quote,
  quoteUpTo,
  RESULT_NAMES,
  type ExportRow,
} from "./rows.js";
import { LINE_PLAIN } from "./line-flags.js";
import { RowScanner } from "./scan-row.js";
import { unicodeNearMatch } from "../unicode-near-match.js";

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

  /** Adds another list's problems after these (as if each had been added here). */
  append(other: ProblemList): void {
    for (const p of other.items) this.add(p);
    this.total += other.total - other.items.length;
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
  /** `events` by labelKey, once there are more than LABEL_SCAN_MAX. */
  labelIndex: Map<string, LabelEvent> | undefined;
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
  /** Attempts counted (pre-aggregated rows add their counts): kept a safe integer. */
  attempts: number;
}

function newModelState(): ModelState {
  return { harnessRevisions: new Set(), datasetRevisions: new Set(), duplicateRows: 0, attempts: 0 };
}

/** Distinct dataset revisions counted per reviews file; rows of further revisions are counted together. */
const MAX_REVISIONS_HELD = 100;

interface ReviewFileState {
  rows: number;
  matched: number;
  readonly byRevision: Map<string, number>;
  /** Rows under revisions past MAX_REVISIONS_HELD. */
  otherRows: number;
}

/** Revisions are shown whole up to this length, so that one can be copied into --dataset-revision. */
const REVISION_SHOWN_LENGTH = 200;

/** At most this many revisions named in a message, then "and N more". */
const REVISIONS_NAMED = 3;

function revisionList(revisions: readonly string[], more = false): string {
  const shown = revisions
    .slice(0, REVISIONS_NAMED)
    .map((r) => quoteUpTo(r, REVISION_SHOWN_LENGTH))
    .join(", ");
  const rest = revisions.length - REVISIONS_NAMED;
  return rest > 0 || more ? `${shown} and ${rest > 0 ? `${rest} ` : ""}more` : shown || "none";
}

/** A reviews file that labels no compared task: what it names, what the tasks have, what to do. */
function noMatchMessage(
  st: ReviewFileState,
  unmatched: readonly string[],
  compared: readonly string[],
): string {
  const named = [...st.byRevision.keys()].sort(compareCodeUnits);
  const what =
    unmatched.length === named.length
      ? `its rows are under dataset revision${named.length === 1 ? "" : "s"} ${revisionList(named, st.otherRows > 0)}, ` +
        `and the compared tasks under ${revisionList(compared)}`
      : `its rows under dataset revision${named.length === 1 ? "" : "s"} ${revisionList(named, st.otherRows > 0)} name ` +
        `none of the tasks the baseline or the candidate ran (the compared tasks are under ${revisionList(compared)})`;
  return (
    `none of its ${plural(st.rows, "review row", "review rows")} labels a task the baseline or the candidate ran: ${what}. ` +
    `A review applies to a task only under the same dataset_revision: re-import the reviews with ` +
    `--dataset-revision set to the results' revision, or with the same --tasks list as the results ` +
    `(model-gate import verified-annotations without --tasks computes the revision from the sheet's own ids)`
  );
}

/** Labels of a task looked up by a scan up to this many, by a map beyond. */
const LABEL_SCAN_MAX = 8;

function labelKey(revision: number, validity: Validity): string {
  return `${revision}:${validity}`;
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
  /** The dataset_revision of the last row that found or made its map, and that map. */
  private lastRevision: string | undefined = undefined;
  private lastByTask: Map<string, TaskState> | undefined = undefined;
  private readonly baselineState = newModelState();
  private readonly candidateState = newModelState();
  private readonly lineProblems = new ProblemList();
  private readonly issues = new LineIssues();
  private readonly exportRow = emptyExportRow();
  private readonly reviewRow = emptyReviewRow();
  private readonly scanner = new RowScanner();
  private readonly limits: InputLimits;
  /** A cap was passed (reported): later lines are not held. */
  private stopped = false;
  private taskCount = 0;
  private attemptIds = 0;
  /** Per reviews file (by file index): rows read, rows that labelled a compared task, rows by dataset revision. */
  private readonly reviewFiles = new Map<number, ReviewFileState>();
  private heldChars = 0;

  constructor(
    private readonly baseline: string,
    private readonly candidate: string,
    /** Display names of the input files, by file index. */
    private readonly fileNames: readonly string[],
    limits: Partial<InputLimits> = {},
  ) {
    this.limits = { ...DEFAULT_INPUT_LIMITS, ...limits };
  }

  /** Reports a passed cap at `src` and stops holding what later lines bring. */
  private capPassed(src: number, message: string): void {
    this.lineProblem(src, undefined, `${message}; the rest of the input is not read`);
    this.stopped = true;
  }

  /** After each line: reports when the text or attempt ids held have passed their caps. */
  private checkHeld(src: number): void {
    if (this.stopped) return;
    if (this.heldChars > this.limits.maxHeldChars) {
      this.capPassed(
        src,
        `the input holds more than ${this.limits.maxHeldChars} characters of distinct ids, revisions, ` +
          `clusters, attempt ids, evidence, reviewers and notes (the limit, which bounds the memory used)`,
      );
    } else if (this.attemptIds > this.limits.maxAttemptIds) {
      this.capPassed(
        src,
        `the baseline and the candidate have more than ${this.limits.maxAttemptIds} distinct attempt ids ` +
          `(the limit, which bounds the memory used to fold repeated attempts); give such exports as ` +
          `pre-aggregated rows (passes, fails, infra_errors, missing)`,
      );
    }
  }

  /** An attempt id kept to recognise its repeats. */
  private holdAttempt(attempt: string | number | undefined): string | number | undefined {
    if (attempt !== undefined) {
      this.attemptIds++;
      if (typeof attempt === "string") this.heldChars += attempt.length;
    }
    return attempt;
  }

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

  /** One non-blank line of a results export; `plain` as in line-stream's LineHandler. */
  addResultLine(text: string, fileIndex: number, line: number, plain = false): void {
    if (this.stopped) return;
    const issues = this.issues;
    issues.reset();
    const obj = parseObject(text, issues);
    const row = this.exportRow;
    if (obj === undefined || !checkExportRow(obj, row, issues, plain)) {
      this.lineProblem(this.src(fileIndex, line), issues.field, issues.text());
      return;
    }
    this.addResultRow(row, fileIndex, line);
  }

  /**
   * One non-blank line of a results export as bytes (line-stream's ByteLineHandler): the byte
   * scanner reads the common row shape; any other line goes the JSON.parse way (scan-row.ts).
   */
  addResultBytes(
    bytes: Buffer,
    begin: number,
    end: number,
    flags: number,
    fileIndex: number,
    line: number,
  ): void {
    if (this.stopped) return;
    if (this.scanner.scan(bytes, begin, end, this.exportRow)) {
      this.addResultRow(this.exportRow, fileIndex, line);
      return;
    }
    this.addResultLine(bytes.toString("utf8", begin, end), fileIndex, line, (flags & LINE_PLAIN) !== 0);
  }

  /** A results line already parsed and checked (by a parse worker: see parse-pool.ts). */
  addResultRow(row: ExportRow, fileIndex: number, line: number): void {
    if (this.stopped) return;
    const src = this.src(fileIndex, line);
    this.resultRow(row, src);
    this.checkHeld(src);
  }

  /** A results line a parse worker found bad: what addResultLine reports for it. */
  addLineIssue(fileIndex: number, line: number, field: string | undefined, message: string): void {
    if (this.stopped) return;
    this.lineProblem(this.src(fileIndex, line), field, message);
  }

  private resultRow(row: ExportRow, src: number): void {
    const model = row.modelConfig;
    if (model !== this.lastModel) {
      if (!this.models.has(model)) {
        if (this.models.size >= this.limits.maxModels) {
          this.capPassed(
            src,
            `the export has more than ${this.limits.maxModels} distinct model_config ids (the limit)`,
          );
          return;
        }
        this.heldChars += model.length;
        this.models.add(model);
      }
      this.lastModel = model;
    }
    const isBaseline = model === this.baseline;
    const isCandidate = model === this.candidate;

    // Rows of one dataset revision come in runs: comparing with the last one is cheaper than
    // hashing a fresh 70-character string for the map on every row.
    let byTask =
      row.datasetRevision === this.lastRevision ? this.lastByTask : this.tasks.get(row.datasetRevision);
    let task = byTask?.get(row.taskId);
    if (byTask !== undefined) {
      this.lastRevision = row.datasetRevision;
      this.lastByTask = byTask;
    }
    if (task === undefined) {
      if (this.taskCount >= this.limits.maxTasks) {
        this.capPassed(
          src,
          `the export has more than ${this.limits.maxTasks} distinct tasks (dataset_revision, task_id) ` +
            `over all models (the limit, which bounds the memory used)`,
        );
        return;
      }
      this.heldChars += row.taskId.length;
      if (byTask === undefined) {
        byTask = new Map();
        this.tasks.set(this.intern(row.datasetRevision), byTask);
      }
      this.lastRevision = this.intern(row.datasetRevision);
      this.lastByTask = byTask;
      this.taskCount++;
      task = {
        datasetRevision: this.intern(row.datasetRevision),
        taskId: row.taskId,
        topRevision: -1,
        topValidity: "unreviewed",
        events: undefined,
        last: undefined,
        labelIndex: undefined,
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
        if (!this.countRow(task.baseline, this.baselineState, row, src)) return;
      } else if (!this.addAttempt(task, task.baseline, this.baselineState, row, src)) {
        return;
      }
    }
    if (isCandidate) {
      if (task.candidate === undefined) {
        task.candidate = this.newModelTask(row, src);
        if (!this.countRow(task.candidate, this.candidateState, row, src)) return;
      } else if (!this.addAttempt(task, task.candidate, this.candidateState, row, src)) {
        return;
      }
    }

    if (!this.addLabel(task, row.reviewRevision, row.validity, src, row.evidence, undefined, undefined))
      return;
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
    this.heldChars += value.length;
    return value;
  }

  /** The state of a compared model's first row on a task (nothing to conflict with yet). */
  private newModelTask(row: ExportRow, src: number): ModelTaskState {
    return {
      harness: this.intern(row.harnessRevision),
      info: src * 2 + (row.result < 0 ? KIND_AGGREGATED : KIND_ATTEMPTS),
      a0: this.holdAttempt(row.attempt),
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
      a0: this.holdAttempt(row.attempt),
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
      return this.countRow(st, model, row, src);
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
        seen.a0 = this.holdAttempt(attempt);
        seen.a0info = src * 4 + row.result;
      } else {
        this.holdAttempt(attempt);
        (seen.more ??= new Map<string | number, number>()).set(attempt, src * 4 + row.result);
      }
    }
    return this.countRow(st, model, row, src);
  }

  /**
   * Adds a row that is not a duplicate to its model's counts and revisions. Returns false
   * (reported) when the model's attempt total would pass Number.MAX_SAFE_INTEGER, beyond which
   * sums are no longer exact.
   */
  private countRow(st: ModelTaskState, model: ModelState, row: ExportRow, src: number): boolean {
    const total =
      row.result < 0
        ? safeSum(
            safeSum(safeSum(safeSum(model.attempts, row.passes), row.fails), row.infraErrors),
            row.missing,
          )
        : safeSum(model.attempts, 1);
    if (total < 0) {
      this.capPassed(
        src,
        `the attempts of model_config ${quote(row.modelConfig)} add up to more than ` +
          `${Number.MAX_SAFE_INTEGER}, the largest count held exactly; its figures would be altered`,
      );
      return false;
    }
    model.attempts = total;
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
    return true;
  }

  private addLabel(
    task: TaskState,
    revision: number,
    validity: Validity,
    src: number,
    evidence: string | readonly string[] | undefined,
    reviewer: string | undefined,
    note: string | undefined,
  ): boolean {
    let event = task.last;
    if (event === undefined || event.revision !== revision || event.validity !== validity) {
      event =
        task.labelIndex !== undefined
          ? task.labelIndex.get(labelKey(revision, validity))
          : task.events?.find((e) => e.revision === revision && e.validity === validity);
      if (event === undefined) {
        const count = task.events?.length ?? 0;
        if (count >= this.limits.maxLabelsPerTask) {
          this.capPassed(
            src,
            `task ${quote(task.taskId)} (dataset_revision ${quote(task.datasetRevision)}) has more than ` +
              `${this.limits.maxLabelsPerTask} distinct (review_revision, validity) labels (the limit)`,
          );
          return false;
        }
        event = { revision, validity, src, reviewer, note, evidence: undefined };
        this.heldChars += (reviewer?.length ?? 0) + (note?.length ?? 0);
        if (task.events === undefined) task.events = [event];
        else {
          // The first label's list may be the task's own array (below): it gets its own copy now
          // that rows of another label can add to the task's list alone.
          const first = task.events[0];
          if (first !== undefined && first.evidence !== undefined && first.evidence === task.evidence)
            first.evidence = first.evidence.slice();
          task.events.push(event);
        }
        if (task.labelIndex !== undefined) {
          task.labelIndex.set(labelKey(revision, validity), event);
        } else if (task.events.length > LABEL_SCAN_MAX) {
          task.labelIndex = new Map(task.events.map((e) => [labelKey(e.revision, e.validity), e]));
        }
        if (revision > task.topRevision) {
          task.topRevision = revision;
          task.topValidity = validity;
        }
      }
      task.last = event;
    }
    // Rows of a task usually repeat its evidence, which then stands first in both lists: adding
    // it again would change nothing, and checking that by position is cheaper than searching.
    if (evidence !== undefined && !(startsWith(event, evidence) && startsWith(task, evidence))) {
      // The task's list first: the event keeps the task's string for an item both hold, and the
      // characters of a string are counted once.
      // The task's only label: its list would receive exactly the items the task's does, so it
      // is the task's array (one array a task less, ~64 bytes, in a task-heavy export).
      const shared = task.events?.length === 1 && event.evidence === task.evidence;
      this.heldChars += addEvidence(task, evidence, undefined);
      if (shared) {
        event.evidence = task.evidence;
      } else {
        this.heldChars += addEvidence(event, evidence, task.evidence);
      }
    }
    return true;
  }

  /** Whether the reviews can matter: call after all results files. */
  private inUniverse(task: TaskState): boolean {
    return task.baseline !== undefined || task.candidate !== undefined;
  }

  /** One non-blank line of a reviews file, read after every results file; `plain` as in
   * line-stream's LineHandler. */
  addReviewLine(text: string, fileIndex: number, line: number, plain = false): void {
    if (this.stopped) return;
    const issues = this.issues;
    issues.reset();
    const obj = parseObject(text, issues);
    const row = this.reviewRow;
    if (obj === undefined || !checkReviewRow(obj, row, issues, plain)) {
      this.lineProblem(this.src(fileIndex, line), issues.field, issues.text());
      return;
    }
    const task = this.tasks.get(row.datasetRevision)?.get(row.taskId);
    const matched = task !== undefined && this.inUniverse(task);
    this.countReview(fileIndex, row.datasetRevision, matched);
    // A review of a task neither compared model ran is not part of the output.
    if (!matched) return;
    const src = this.src(fileIndex, line);
    const note = row.note === "" ? undefined : row.note;
    this.addLabel(task, row.reviewRevision, row.validity, src, row.evidence, row.reviewer, note);
    this.checkHeld(src);
  }

  /** Counts one review row of a file, by dataset revision (a bounded number of revisions held). */
  private countReview(fileIndex: number, revision: string, matched: boolean): void {
    let st = this.reviewFiles.get(fileIndex);
    if (st === undefined) {
      st = { rows: 0, matched: 0, byRevision: new Map(), otherRows: 0 };
      this.reviewFiles.set(fileIndex, st);
    }
    st.rows++;
    if (matched) st.matched++;
    const n = st.byRevision.get(revision);
    if (n !== undefined) st.byRevision.set(revision, n + 1);
    else if (st.byRevision.size < MAX_REVISIONS_HELD) {
      this.heldChars += revision.length;
      st.byRevision.set(revision, 1);
    } else st.otherRows++;
  }

  /**
   * Labels that match no compared task (README "Reviews that match nothing"): per reviews file,
   * the rows under dataset revisions that no task of the baseline or the candidate has; and the
   * export's labelled tasks (label other than unreviewed, from rows of other models) under such
   * revisions. A reviews file none of whose rows labels a compared task is a problem (`late`).
   */
  private unmatchedLabels(compared: ReadonlySet<string>, late: ProblemList): UnmatchedLabels[] {
    const out: UnmatchedLabels[] = [];
    const comparedList = [...compared].sort(compareCodeUnits);
    for (const [fileIndex, st] of [...this.reviewFiles].sort((x, y) => x[0] - y[0])) {
      const file = this.fileNames[fileIndex] ?? "?";
      const unmatched = [...st.byRevision.keys()].filter((r) => !compared.has(r)).sort(compareCodeUnits);
      const rows = unmatched.reduce((s, r) => s + (st.byRevision.get(r) ?? 0), 0) + st.otherRows;
      if (st.matched === 0) {
        late.add({ location: { file }, message: noMatchMessage(st, unmatched, comparedList) });
      } else if (rows > 0) {
        out.push({ file, rows, of: st.rows, revisions: unmatched, moreRevisions: st.otherRows > 0 });
      }
    }
    const exportRevisions: string[] = [];
    let labelled = 0;
    for (const [revision, byTask] of this.tasks) {
      if (compared.has(revision)) continue;
      let here = 0;
      for (const t of byTask.values()) if ((t.events ?? []).some((e) => e.validity !== "unreviewed")) here++;
      if (here > 0) {
        exportRevisions.push(revision);
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

  /** Every model_config seen, sorted. */
  modelsPresent(): string[] {
    return [...this.models].sort(compareCodeUnits);
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
      // After a passed cap the rest was not read and may hold the id.
      if (complete && !this.stopped && !this.models.has(id)) {
        modelProblems.push({
          message: unknownModelMessage(role, id, present) + unicodeNearMatch(id, present),
        });
      }
    }

    const records: TaskRecord[] = [];
    const late = new ProblemList();
    const universe: (TaskState | undefined)[] = [];
    for (const byTask of this.tasks.values()) {
      for (const t of byTask.values()) if (this.inUniverse(t)) universe.push(t);
    }
    universe.sort(
      (a, b) =>
        compareCodeUnits(a?.datasetRevision ?? "", b?.datasetRevision ?? "") ||
        compareCodeUnits(a?.taskId ?? "", b?.taskId ?? ""),
    );
    // Read before the per-task state goes; its problems come after the tasks' (as listed).
    const compared = new Set([
      ...this.baselineState.datasetRevisions,
      ...this.candidateState.datasetRevisions,
    ]);
    const unmatchedProblems = new ProblemList();
    const unmatchedLabels = this.unmatchedLabels(compared, unmatchedProblems);
    // The builder's per-task state is dropped as the records are made (finish is the last call):
    // holding both at once doubled the peak memory of a task-heavy export.
    this.tasks.clear();
    this.lastByTask = undefined;
    const revisions = new Set<number>();
    const refused = modelProblems.length > 0 || this.lineProblems.total > 0 || unmatchedProblems.total > 0;
    for (let u = 0; u < universe.length; u++) {
      const task = universe[u];
      if (task === undefined) continue;
      universe[u] = undefined;
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
      // Once the read is sure to end in an InputError no record is made: at a passed task cap,
      // records beside the held state would take the peak memory of the refusal to ~1.5× (RELIABILITY.md).
      if (refused || late.total > 0) records.length = 0;
      else records.push(this.record(task));
    }

    late.append(unmatchedProblems);
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
      ...(unmatchedLabels.length > 0 ? { unmatchedLabels } : {}),
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
          // Usually the same items as the task's: one array for both.
          evidence: sameItems(e.evidence, task.evidence)
            ? (task.evidence ?? NO_EVIDENCE)
            : (e.evidence ?? NO_EVIDENCE),
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
      evidence: task.evidence ?? NO_EVIDENCE,
    };
    if (task.cluster !== undefined) out.cluster = task.cluster;
    if (task.baseline !== undefined) out.baseline = countsOf(task.baseline);
    if (task.candidate !== undefined) out.candidate = countsOf(task.candidate);
    return out;
  }

  private summary(config: string, st: ModelState): ModelSummary {
    return {
      config,
      harnessRevisions: [...st.harnessRevisions].sort(compareCodeUnits),
      datasetRevisions: [...st.datasetRevisions].sort(compareCodeUnits),
      duplicateRows: st.duplicateRows,
    };
  }
}

/** The evidence of a task or event without any (shared: records are never modified). */
const NO_EVIDENCE: readonly string[] = Object.freeze([]);

function sameItems(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === b) return true;
  const n = a?.length ?? 0;
  if (n !== (b?.length ?? 0)) return false;
  for (let i = 0; i < n; i++) if (a?.[i] !== b?.[i]) return false;
  return true;
}

/** a + b for safe integers a, b ≥ 0 when the sum is a safe integer; else (or when a < 0) -1. */
function safeSum(a: number, b: number): number {
  return a < 0 || b > Number.MAX_SAFE_INTEGER - a ? -1 : a + b;
}

/** Counts below this (each of the four) come from one shared object per combination. */
const SHARED_COUNTS_BELOW = 8;
const sharedCounts: (AttemptCounts | undefined)[] = [];

/**
 * A record's attempt counts. Tasks of a task-heavy export have a few attempts each, so the counts
 * repeat: one frozen object per combination below SHARED_COUNTS_BELOW (records are never
 * modified) instead of two objects a task (~110 bytes a task).
 */
function countsOf(st: ModelTaskState): AttemptCounts {
  const { pass, fail, infraError, missing } = st;
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

/**
 * Adds evidence items to a task or an event: non-empty, de-duplicated, first seen first, capped.
 * An item equal to one of `shared` is kept as that string (no second copy). Returns the
 * characters of the new strings kept.
 */
function addEvidence(
  holder: { evidence: string[] | undefined },
  evidence: string | readonly string[],
  shared: readonly string[] | undefined,
): number {
  if (typeof evidence === "string") return addEvidenceItem(holder, evidence, shared);
  const fresh = holder.evidence === undefined;
  let added = 0;
  for (const item of evidence) added += addEvidenceItem(holder, item, shared);
  // An array grown by push has room for 17 items: a task's first list is usually final, so it
  // is kept at its size (a third of a task's memory in a task-heavy export).
  if (fresh && holder.evidence !== undefined && holder.evidence.length > 1)
    holder.evidence = holder.evidence.slice();
  return added;
}

/** Whether the holder's evidence list begins with exactly these items (so holds them all). */
function startsWith(
  holder: { evidence: string[] | undefined },
  evidence: string | readonly string[],
): boolean {
  const kept = holder.evidence;
  if (kept === undefined) return false;
  if (typeof evidence === "string") return kept[0] === evidence;
  if (evidence.length > kept.length) return false;
  for (let i = 0; i < evidence.length; i++) if (kept[i] !== evidence[i]) return false;
  return true;
}

function addEvidenceItem(
  holder: { evidence: string[] | undefined },
  item: string,
  shared: readonly string[] | undefined,
): number {
  if (item.length === 0) return 0;
  const kept = holder.evidence;
  if (kept !== undefined && (kept.length >= MAX_EVIDENCE_PER_TASK || kept.includes(item))) return 0;
  const i = shared === undefined ? -1 : shared.indexOf(item);
  const value = i < 0 ? item : (shared?.[i] ?? item);
  if (kept === undefined) holder.evidence = [value];
  else kept.push(value);
  return i < 0 ? item.length : 0;
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
