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
 * Sources (file, line) are packed into one safe integer: fileIndex * 2^32 + line. Each task has a
 * number; its state is held in columns by that number (builder-columns.ts: typed arrays, the rare
 * things in side maps), found through the task after the last row's, then an open-addressing
 * table (TaskIndex), with the tasks of one revision sharing its string. Attempt ids are kept as
 * given (AttemptIds: small integers in Uint32 blocks of the builder's AttemptPool indexed by the
 * id, anything else in a Map, so 1 and "1" stay apart); the usual single harness revision of a
 * (model, task) is held inline, more in a map. Beside the state, for speed only, EvidenceMemo
 * remembers per task the label and evidence of a row already added, so that the rows of a (model,
 * task) with its own evidence skip searching the task's lists.
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

import { InputError, type InputProblem } from "../../core/errors.js";
import { quote, quoteUpTo } from "../../core/quote.js";
import {
  compareCodeUnits,
  type AttemptCounts,
  type Dataset,
  type InputFileDigest,
  type ModelSummary,
  type UnmatchedLabels,
  type Validity,
  VALIDITIES,
} from "../../core/model.js";
import {
  COLLECT_MIN_TASKS,
  DEFAULT_INPUT_LIMITS,
  MAX_EVIDENCE_PER_TASK,
  MAX_LISTED_MODEL_IDS,
  type InputLimits,
} from "../limits.js";
import {
  checkExportRow,
  checkReviewRow,
  emptyExportRow,
  emptyReviewRow,
  LineIssues,
  parseObject,
  RESULT_NAMES,
  type ExportRow,
} from "../rows/row-checks.js";
import { LINE_PLAIN } from "../lines/line-flags.js";
import { RowScanner } from "../rows/row-scanner.js";
import { ColumnTaskTable, LINE_RADIX, NO_EVIDENCE, small } from "./task-table.js";
import { unicodeNearMatch } from "../../core/unicode-near-match.js";
import {
  F_BASELINE,
  F_CANDIDATE,
  F_LABEL0,
  F_LABEL0_OWN,
  F_MORE_LABELS,
  NARROW_COUNT_MAX,
  AttemptIds,
  AttemptPool,
  reviveColumns,
  sliceColumns,
  TaskColumns,
  TaskIndex,
  type HarnessState,
  type LabelEvent,
  type ModelColumns,
  type MoreLabels,
} from "./builder-columns.js";
import {
  pack,
  packedChars,
  packedEquals,
  packedIndexOf,
  packedRunAt,
  packedStartsWith,
  SEPARATOR,
  unpack,
} from "../rows/packed-evidence.js";

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

/** The tasks of one dataset revision. */
interface RevisionTasks {
  readonly name: string;
  /** Its index in DatasetBuilder.revisionList (TaskColumns.revision). */
  readonly index: number;
}

interface ModelState {
  readonly harnessRevisions: Set<string>;
  readonly datasetRevisions: Set<string>;
  duplicateRows: number;
  /** Attempts counted (pre-aggregated rows add their counts): kept a safe integer. */
  attempts: number;
  /** The harness and dataset revisions of the model's last row counted (already in the sets). */
  lastHarness: string | undefined;
  lastRevision: RevisionTasks | undefined;
}

function newModelState(): ModelState {
  return {
    harnessRevisions: new Set(),
    datasetRevisions: new Set(),
    duplicateRows: 0,
    attempts: 0,
    lastHarness: undefined,
    lastRevision: undefined,
  };
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
  /** dataset_revision → its index. */
  private readonly revisions = new Map<string, RevisionTasks>();
  /** The same, by revision index. */
  private readonly revisionList: RevisionTasks[] = [];
  private readonly cols = new TaskColumns();
  /** Task numbers by (revision index, task_id). */
  private index = new TaskIndex();
  /** Cluster and harness strings repeat across tasks: keep one copy of each. */
  private readonly strings = new Map<string, string>();
  /** The harness revision interned last (rows of a harness revision come in runs). */
  private lastHarness: string | undefined = undefined;
  private readonly models = new Set<string>();
  private lastModel: string | undefined = undefined;
  /** The dataset_revision of the last row that found or made its tasks, and those tasks. */
  private lastRevision: string | undefined = undefined;
  private lastTasks: RevisionTasks | undefined = undefined;
  /** The task of the last row that found or made one (-1: none yet). */
  private lastTask = -1;
  /** The task whose later labels were looked up last, and those labels. */
  private lastMoreTask = -1;
  private lastMore: MoreLabels | undefined = undefined;
  private readonly baselineState = newModelState();
  private readonly candidateState = newModelState();
  private readonly lineProblems = new ProblemList();
  private readonly issues = new LineIssues();
  private readonly exportRow = emptyExportRow();
  private readonly reviewRow = emptyReviewRow();
  // (packEvidence: resultRow takes a row's packed list: packedRow.)
  private readonly scanner = new RowScanner(true);
  private readonly limits: InputLimits;
  /** A cap was passed (reported): later lines are not held. */
  private stopped = false;
  private attemptIds = 0;
  /** Beside the state, for speed only: a result row's label and evidence last added to a task
   * (made once a task's evidence differs between its rows). */
  private memo: EvidenceMemo | undefined = undefined;
  /** The last result row's label and evidence added to a task (LastAdded; for speed only). */
  private readonly lastAdded = new LastAdded();
  /** Blocks of every AttemptIds of this builder (freed with it). */
  private readonly attemptPool = new AttemptPool();
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
    return { file: this.fileNames[Math.floor(src / LINE_RADIX)] ?? "?", line: small(src % LINE_RADIX) };
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

  /** A results line already parsed and checked. */
  private addResultRow(row: ExportRow, fileIndex: number, line: number): void {
    if (this.stopped) return;
    const src = this.src(fileIndex, line);
    this.resultRow(row, src);
    this.checkHeld(src);
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
    let rev =
      row.datasetRevision === this.lastRevision ? this.lastTasks : this.revisions.get(row.datasetRevision);
    const cols = this.cols;
    let i: number | undefined;
    let hash = 0;
    let probed = false;
    if (rev !== undefined) {
      this.lastRevision = rev.name;
      this.lastTasks = rev;
      // Models usually run the tasks in one order, and attempts of a task come together: the
      // task after the last row's, or that task again, before a lookup in a map of every task
      // (cache misses at 500,000 tasks).
      const last = this.lastTask;
      const next = last + 1;
      if (next < cols.count && cols.taskIds[next] === row.taskId && cols.revision[next] === rev.index) {
        i = next;
      } else if (last >= 0 && cols.taskIds[last] === row.taskId && cols.revision[last] === rev.index) {
        i = last;
      } else {
        hash = TaskIndex.hash(rev.index, row.taskId);
        const found = this.index.find(hash, rev.index, row.taskId, cols);
        if (found >= 0) i = found;
        probed = true;
      }
    }
    if (i === undefined) {
      if (cols.count >= this.limits.maxTasks) {
        this.capPassed(
          src,
          `the export has more than ${this.limits.maxTasks} distinct tasks (dataset_revision, task_id) ` +
            `over all models (the limit, which bounds the memory used)`,
        );
        return;
      }
      this.heldChars += row.taskId.length;
      if (rev === undefined) {
        const name = this.intern(row.datasetRevision);
        rev = { name, index: this.revisionList.length };
        this.revisions.set(name, rev);
        this.revisionList.push(rev);
        this.lastRevision = name;
        this.lastTasks = rev;
      }
      if (!probed) {
        // A new revision: the index was not asked yet (it has no such task), and says where it goes.
        hash = TaskIndex.hash(rev.index, row.taskId);
        this.index.find(hash, rev.index, row.taskId, cols);
      }
      i = cols.add(rev.index, row.taskId);
      this.index.add(hash, i);
    }
    this.lastTask = i;

    // (rev is defined: i was found in its map, or both were made above.)
    if (rev === undefined) return;
    // The attempt first: a row that conflicts with an earlier attempt is reported and contributes nothing.
    if (isBaseline && !this.compared(i, F_BASELINE, cols.baseline, this.baselineState, rev, row, src)) return;
    if (isCandidate && !this.compared(i, F_CANDIDATE, cols.candidate, this.candidateState, rev, row, src))
      return;

    const evidence = row.evidence;
    const memo = this.memo;
    const last = this.lastAdded;
    if (row.packedEvidence !== undefined) {
      if (!this.packedRow(i, row.reviewRevision, row.validity, src, row.packedEvidence, row.packedItems))
        return;
    } else if (
      !last.repeats(i, row.reviewRevision, row.validity, evidence) &&
      (memo === undefined ||
        evidence === undefined ||
        !memo.repeats(i, row.reviewRevision, row.validity, evidence, cols))
    ) {
      last.forget();
      if (!this.addLabel(i, row.reviewRevision, row.validity, src, evidence, undefined, undefined)) return;
      if (evidence !== undefined) this.remember(i, row.reviewRevision, row.validity, evidence);
      last.set(i, row.reviewRevision, row.validity, evidence);
    }
    const cluster = row.cluster;
    if (cluster !== undefined) {
      const held = cols.clusters[i];
      if (held === undefined) {
        cols.clusters[i] = this.intern(cluster);
        cols.clusterSrc[i] = src;
      } else if (cluster !== held && !cols.clusterConflicts.has(i)) {
        cols.clusterConflicts.set(i, { value: cluster, src });
      }
    }
  }

  /** A row of a compared model on task i. Returns false when it conflicts (reported). */
  private compared(
    i: number,
    flag: number,
    m: ModelColumns,
    model: ModelState,
    rev: RevisionTasks,
    row: ExportRow,
    src: number,
  ): boolean {
    const cols = this.cols;
    const flags = cols.flags[i] ?? 0;
    if ((flags & flag) === 0) {
      // The model's first row on this task: nothing to conflict with yet.
      cols.flags[i] = flags | flag;
      m.harness[i] = this.internHarness(row.harnessRevision);
      m.info[i] = src * 2 + (row.result < 0 ? KIND_AGGREGATED : KIND_ATTEMPTS);
      m.a0[i] = this.holdAttempt(row.attempt);
      m.a0info[i] = src * 4 + row.result;
      return this.countRow(i, m, model, rev, row, src);
    }
    return this.addAttempt(i, m, model, rev, row, src);
  }

  private intern(value: string): string {
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    this.strings.set(value, value);
    this.heldChars += value.length;
    return value;
  }

  private internHarness(value: string): string {
    let held = this.lastHarness;
    if (value !== held) {
      held = this.intern(value);
      this.lastHarness = held;
    }
    return held;
  }

  /** Counts one further row of a compared model on task i. Returns false when it conflicts (reported). */
  private addAttempt(
    i: number,
    m: ModelColumns,
    model: ModelState,
    rev: RevisionTasks,
    row: ExportRow,
    src: number,
  ): boolean {
    const harness = row.harnessRevision;
    const kind = row.result < 0 ? KIND_AGGREGATED : KIND_ATTEMPTS;
    const inline = harness === m.harness[i];
    const seen = inline ? undefined : m.others.get(i)?.get(harness);
    if (!inline && seen === undefined) {
      m.othersOf(i).set(harness, {
        harness: this.internHarness(harness),
        info: src * 2 + kind,
        a0: this.holdAttempt(row.attempt),
        a0info: src * 4 + row.result,
        more: undefined,
      });
      return this.countRow(i, m, model, rev, row, src);
    }
    const info = seen === undefined ? (m.info[i] ?? 0) : seen.info;
    if (kind === KIND_AGGREGATED || info % 2 === KIND_AGGREGATED) {
      const other = this.where(Math.floor(info / 2));
      const what =
        `model_config ${quote(row.modelConfig)}, task ${quote(this.cols.taskIds[i] ?? "")}, dataset_revision ` +
        `${quote(rev.name)}, harness_revision ${quote(harness)}`;
      const message =
        kind === KIND_AGGREGATED && info % 2 === KIND_AGGREGATED
          ? `a second pre-aggregated row for ${what}; the first is at ${other}. Two aggregates of ` +
            `the same attempts are ambiguous: give one row with the totals`
          : `pre-aggregated and per-attempt rows for the same ${what} (the other kind is at ${other}); ` +
            `whether the aggregate includes those attempts is ambiguous: give one kind only`;
      this.lineProblem(src, undefined, message);
      return false;
    }
    const attempt = row.attempt;
    if (attempt !== undefined) {
      const a0 = seen === undefined ? m.a0[i] : seen.a0;
      const more = seen === undefined ? m.more.get(i) : seen.more;
      const prev = attempt === a0 ? (seen === undefined ? m.a0info[i] : seen.a0info) : more?.get(attempt);
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
            `${quote(row.modelConfig)}, task ${quote(this.cols.taskIds[i] ?? "")}, dataset_revision ` +
            `${quote(rev.name)}, harness_revision ${quote(harness)}, attempt ` +
            `${typeof attempt === "number" ? String(attempt) : quote(attempt)}) is "${prevName}" there ` +
            `and "${name}" here; a repeated attempt must repeat its result`,
        );
        return false;
      }
      const held = this.holdAttempt(attempt) ?? attempt;
      if (a0 === undefined) {
        if (seen === undefined) {
          m.a0[i] = held;
          m.a0info[i] = src * 4 + row.result;
        } else {
          seen.a0 = held;
          seen.a0info = src * 4 + row.result;
        }
      } else if (more !== undefined) {
        more.set(held, src * 4 + row.result);
      } else {
        const fresh = new AttemptIds(this.attemptPool);
        fresh.set(held, src * 4 + row.result);
        if (seen === undefined) m.more.set(i, fresh);
        else seen.more = fresh;
      }
    }
    return this.countRow(i, m, model, rev, row, src);
  }

  /**
   * Adds a row that is not a duplicate to its model's counts and revisions. Returns false
   * (reported) when the model's attempt total would pass Number.MAX_SAFE_INTEGER, beyond which
   * sums are no longer exact.
   */
  private countRow(
    i: number,
    m: ModelColumns,
    model: ModelState,
    rev: RevisionTasks,
    row: ExportRow,
    src: number,
  ): boolean {
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
    // (A count of one attempt a row reaches NARROW_COUNT_MAX only after 2^32 rows: checked anyway.)
    switch (row.result) {
      case 0: {
        const v = (m.pass[i] ?? 0) + 1;
        if (v > NARROW_COUNT_MAX) m.widen();
        m.pass[i] = v;
        break;
      }
      case 1: {
        const v = (m.fail[i] ?? 0) + 1;
        if (v > NARROW_COUNT_MAX) m.widen();
        m.fail[i] = v;
        break;
      }
      case 2: {
        const v = (m.infraError[i] ?? 0) + 1;
        if (v > NARROW_COUNT_MAX) m.widen();
        m.infraError[i] = v;
        break;
      }
      case 3: {
        const v = (m.missing[i] ?? 0) + 1;
        if (v > NARROW_COUNT_MAX) m.widen();
        m.missing[i] = v;
        break;
      }
      default:
        m.setCounts(
          i,
          (m.pass[i] ?? 0) + row.passes,
          (m.fail[i] ?? 0) + row.fails,
          (m.infraError[i] ?? 0) + row.infraErrors,
          (m.missing[i] ?? 0) + row.missing,
        );
    }
    // Rows of a harness revision and a dataset revision come in runs: a comparison with the last
    // one instead of a Set lookup (a hash of a fresh string) on every row.
    if (row.harnessRevision !== model.lastHarness) {
      const harness = this.internHarness(row.harnessRevision);
      model.harnessRevisions.add(harness);
      model.lastHarness = harness;
    }
    if (rev !== model.lastRevision) {
      model.datasetRevisions.add(rev.name);
      model.lastRevision = rev;
    }
    return true;
  }

  /**
   * After a row's label and evidence were added to task i: when its items stand together in the
   * task's list but not at its start (where addLabel's own check finds a repeat cheaply), e.g.
   * evidence that differs per (model, task), the next row with that label and those items is
   * known to change nothing (EvidenceMemo).
   */
  private remember(
    i: number,
    revision: number,
    validity: Validity,
    evidence: string | readonly string[],
  ): void {
    const list = this.cols.evidence[i];
    // (revision * 4 + code is exact below 2^51.)
    if (list === undefined || revision >= 2 ** 48) return;
    const first = typeof evidence === "string" ? evidence : evidence[0];
    if (first === undefined || first.length === 0 || packedStartsWith(list, first)) return;
    // (Items are distinct: the first is found at most once, and the rest must follow it.)
    const start = packedIndexOf(list, first);
    if (start < 0 || !packedRunAt(list, start, evidence)) return;
    (this.memo ??= new EvidenceMemo()).set(
      i,
      revision,
      validity,
      start,
      typeof evidence === "string" ? 1 : evidence.length,
    );
  }

  /**
   * The label and evidence of a row whose list came packed (`packed`, `count` items: see
   * ExportRow.packedEvidence), as the row path above takes a list of items. The packed functions
   * read `packed` as one run of whole items (its separators are the list's), so each check is
   * the one the items would get; a task's first list is `packed` itself.
   */
  private packedRow(
    i: number,
    revision: number,
    validity: Validity,
    src: number,
    packed: string,
    count: number,
  ): boolean {
    const last = this.lastAdded;
    if (last.repeatsPacked(i, revision, validity, packed)) return true;
    if (this.memo?.repeatsPacked(i, revision, validity, packed, count, this.cols) === true) return true;
    last.forget();
    if (!this.addLabel(i, revision, validity, src, undefined, undefined, undefined, packed, count))
      return false;
    const list = this.cols.evidence[i];
    // remember() with the items, unless the task's list begins with the first (it returns then).
    if (list !== undefined && !packedStartsWith(list, packed)) {
      const first = packed.slice(0, packed.indexOf(SEPARATOR));
      if (!packedStartsWith(list, first)) this.remember(i, revision, validity, unpack(packed) ?? []);
    }
    last.setPacked(i, revision, validity, packed);
    return true;
  }

  /** Task i's labels after its first (looked up once for a run of rows of one task). */
  private moreLabels(i: number): MoreLabels | undefined {
    if (i !== this.lastMoreTask) {
      this.lastMoreTask = i;
      this.lastMore = this.cols.moreLabels.get(i);
    }
    return this.lastMore;
  }

  private addLabel(
    i: number,
    revision: number,
    validity: Validity,
    src: number,
    evidence: string | readonly string[] | undefined,
    reviewer: string | undefined,
    note: string | undefined,
    // A row's list given packed instead of `evidence` (packedRow), of `packedCount` items.
    packedList?: string,
    packedCount = 0,
  ): boolean {
    const cols = this.cols;
    const code = validityCode(validity);
    const flags = cols.flags[i] ?? 0;
    // The label of the row: the task's first (inline), a later one (`event`), or a new one.
    let event: LabelEvent | undefined;
    let fresh = false;
    if ((flags & F_LABEL0) === 0 || cols.label0Revision[i] !== revision || cols.label0Validity[i] !== code) {
      let more = (flags & F_MORE_LABELS) === 0 ? undefined : this.moreLabels(i);
      event =
        more === undefined
          ? undefined
          : more.index !== undefined
            ? more.index.get(labelKey(revision, validity))
            : findLabel(more.events, revision, validity);
      if (event === undefined) {
        const count = ((flags & F_LABEL0) === 0 ? 0 : 1) + (more?.events.length ?? 0);
        if (count >= this.limits.maxLabelsPerTask) {
          this.capPassed(
            src,
            `task ${quote(cols.taskIds[i] ?? "")} (dataset_revision ${quote(this.revisionOf(i))}) has more than ` +
              `${this.limits.maxLabelsPerTask} distinct (review_revision, validity) labels (the limit)`,
          );
          return false;
        }
        this.heldChars += (reviewer?.length ?? 0) + (note?.length ?? 0);
        // A new label's list starts empty: it is the task's list only while that is empty too.
        const own = cols.evidence[i] !== undefined;
        if ((flags & F_LABEL0) === 0) {
          cols.flags[i] = flags | F_LABEL0 | (own ? F_LABEL0_OWN : 0);
          cols.label0Revision[i] = revision;
          cols.label0Validity[i] = code;
          cols.label0Src[i] = src;
          if (reviewer !== undefined || note !== undefined) cols.label0Meta.set(i, { reviewer, note });
        } else {
          event = { revision, validity, src, reviewer, note, own, evidence: undefined };
          if (more === undefined) {
            more = { events: [event], index: undefined };
            cols.moreLabels.set(i, more);
            cols.flags[i] = flags | F_MORE_LABELS;
            this.lastMoreTask = i;
            this.lastMore = more;
          } else {
            more.events.push(event);
          }
          if (more.index !== undefined) {
            more.index.set(labelKey(revision, validity), event);
          } else if (more.events.length + 1 > LABEL_SCAN_MAX) {
            more.index = new Map(more.events.map((e) => [labelKey(e.revision, e.validity), e]));
          }
        }
        fresh = true;
        if (revision > (cols.topRevision[i] ?? -1)) {
          cols.topRevision[i] = revision;
          cols.topValidity[i] = code;
        }
      }
    }
    const own = event === undefined ? ((cols.flags[i] ?? 0) & F_LABEL0_OWN) !== 0 : event.own;
    const packed = cols.evidence[i];
    if (packedList !== undefined) {
      // What the checks below do with the items, where `packedList` alone answers (a task's
      // first list: the items are distinct, non-empty and within the cap, so firstPacked would
      // join them as they are); anywhere else they go on with the items.
      if (packed === undefined && !own) {
        cols.evidence[i] = packedList;
        this.heldChars += packedList.length - (packedCount - 1);
        this.detachLabels(i, event, undefined, 0);
        return true;
      }
      const has = packedStartsWith(packed, packedList);
      if (has && !own) return true;
      if (has && own && this.ownList(i, event) === undefined && packed === packedList) {
        this.disown(i, event);
        return true;
      }
      evidence = unpack(packedList);
    }
    if (evidence === undefined) {
      if (fresh && own) this.settle(i, event);
      return true;
    }
    // Rows of a task usually repeat its evidence, which then stands first in both lists: adding
    // it again would change nothing, and checking that by position is cheaper than searching.
    const taskHas = packedStartsWith(packed, evidence);
    if (taskHas && (!own || startsWith(this.ownList(i, event), evidence))) return true;
    // The task's list first: a label keeps the task's string for an item both hold, and the
    // characters of a string are counted once. (withEvidence grows `before` in place.) When the
    // task's list begins with the row's items it gains none, and they are all the label shares.
    // A new label whose row gives exactly the task's list: settle() would find the list it built
    // equal to the task's and drop it (a task-heavy export's second label, ~28% of its tasks).
    if (taskHas && own && this.ownList(i, event) === undefined && packedRunAt(packed, 0, evidence, true)) {
      this.disown(i, event);
      return true;
    }
    let shared: string | readonly string[] | undefined = evidence;
    if (!taskHas) {
      // A task's first items (no label can have a list of its own yet): packed as the row gives
      // them, without the list withEvidence builds and pack() joins (a task-heavy export's rows).
      if (packed === undefined && !own) {
        const first = this.firstPacked(evidence);
        if (first !== undefined) {
          cols.evidence[i] = first;
          this.detachLabels(i, event, undefined, 0);
        }
        return true;
      }
      const before = unpack(packed);
      const length = before?.length ?? 0;
      const after = this.withEvidence(before, evidence, undefined);
      if ((after?.length ?? 0) !== length) {
        cols.evidence[i] = pack(after);
        this.detachLabels(i, event, before, length);
      }
      shared = after;
    }
    if (own) {
      const list = this.withEvidence(this.ownList(i, event), evidence, shared);
      if (event === undefined) cols.label0Evidence.set(i, list);
      else event.evidence = list;
      this.settle(i, event);
    }
    return true;
  }

  /** The own evidence list of task i's first label (event undefined) or of a later one. */
  private ownList(i: number, event: LabelEvent | undefined): string[] | undefined {
    return event === undefined ? this.cols.label0Evidence.get(i) : event.evidence;
  }

  /** A label whose own list holds the task's items again shares the task's list. */
  private settle(i: number, event: LabelEvent | undefined): void {
    if (packedEquals(this.cols.evidence[i], this.ownList(i, event))) this.disown(i, event);
  }

  /** The label (event undefined: the first) shares the task's list from now on. */
  private disown(i: number, event: LabelEvent | undefined): void {
    const cols = this.cols;
    if (event === undefined) {
      cols.label0Evidence.delete(i);
      cols.flags[i] = (cols.flags[i] ?? 0) & ~F_LABEL0_OWN;
    } else {
      event.own = false;
      event.evidence = undefined;
    }
  }

  /**
   * The task's list grew by a row of another label (`event`, undefined for the first): every
   * other label that shared it gets its own copy of what it held (the first `length` items).
   */
  private detachLabels(
    i: number,
    event: LabelEvent | undefined,
    before: string[] | undefined,
    length: number,
  ): void {
    const cols = this.cols;
    const flags = cols.flags[i] ?? 0;
    const copy = (): string[] | undefined =>
      length === 0 || before === undefined ? undefined : before.slice(0, length);
    if (event !== undefined && (flags & (F_LABEL0 | F_LABEL0_OWN)) === F_LABEL0) {
      cols.flags[i] = flags | F_LABEL0_OWN;
      cols.label0Evidence.set(i, copy());
    }
    if ((flags & F_MORE_LABELS) === 0) return;
    for (const e of this.moreLabels(i)?.events ?? []) {
      if (e !== event && !e.own) {
        e.own = true;
        e.evidence = copy();
      }
    }
  }

  /**
   * Adds evidence items to a list: non-empty, de-duplicated, first seen first, capped. An item
   * equal to one of `shared` is kept as that string (no second copy); the characters of new
   * strings are counted as held. Returns the list (a new one when `list` was undefined).
   */
  private withEvidence(
    list: string[] | undefined,
    evidence: string | readonly string[],
    shared: string | readonly string[] | undefined,
  ): string[] | undefined {
    if (typeof evidence === "string") return this.withItem(list, evidence, shared);
    let out = list;
    for (const item of evidence) out = this.withItem(out, item, shared);
    // An array grown by push has room for 17 items: a task's first list is usually final, so it
    // is kept at its size (a third of a task's memory in a task-heavy export).
    if (list === undefined && out !== undefined && out.length > 1) out = out.slice();
    return out;
  }

  /**
   * The packed list withEvidence(undefined, evidence, undefined) gives (its characters counted as
   * held): the row's items joined as they are when they are distinct, non-empty and within the cap.
   */
  private firstPacked(evidence: string | readonly string[]): string | undefined {
    if (typeof evidence !== "string") {
      const n = evidence.length;
      let plain = n <= MAX_EVIDENCE_PER_TASK;
      for (let k = 0; plain && k < n; k++) {
        const item = evidence[k] as string;
        if (item.length === 0) plain = false;
        for (let j = 0; plain && j < k; j++) if (evidence[j] === item) plain = false;
      }
      if (!plain) return pack(this.withEvidence(undefined, evidence, undefined));
      for (let k = 0; k < n; k++) this.heldChars += (evidence[k] as string).length;
      return pack(evidence);
    }
    if (evidence.length === 0) return undefined;
    this.heldChars += evidence.length;
    return evidence;
  }

  private withItem(
    list: string[] | undefined,
    item: string,
    shared: string | readonly string[] | undefined,
  ): string[] | undefined {
    if (item.length === 0) return list;
    if (list !== undefined && (list.length >= MAX_EVIDENCE_PER_TASK || list.includes(item))) return list;
    const i =
      shared === undefined
        ? -1
        : typeof shared === "string"
          ? shared === item
            ? 0
            : -1
          : shared.indexOf(item);
    const value = i < 0 ? item : typeof shared === "string" ? shared : (shared?.[i] ?? item);
    if (i < 0) this.heldChars += item.length;
    if (list === undefined) return [value];
    list.push(value);
    return list;
  }

  private revisionOf(i: number): string {
    return this.revisionList[this.cols.revision[i] ?? 0]?.name ?? "";
  }

  /** Whether the reviews can matter: call after all results files. */
  private inUniverse(i: number): boolean {
    return ((this.cols.flags[i] ?? 0) & (F_BASELINE | F_CANDIDATE)) !== 0;
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
    const rev = this.revisions.get(row.datasetRevision);
    const found =
      rev === undefined
        ? -1
        : this.index.find(TaskIndex.hash(rev.index, row.taskId), rev.index, row.taskId, this.cols);
    const i = found < 0 ? undefined : found;
    const matched = i !== undefined && this.inUniverse(i);
    this.countReview(fileIndex, row.datasetRevision, matched);
    // A review of a task neither compared model ran is not part of the output.
    if (!matched) return;
    const src = this.src(fileIndex, line);
    const note = row.note === "" ? undefined : row.note;
    this.addLabel(i, row.reviewRevision, row.validity, src, row.evidence, row.reviewer, note);
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

  /** Whether task i has a label other than unreviewed. */
  private labelled(i: number): boolean {
    const cols = this.cols;
    const flags = cols.flags[i] ?? 0;
    if ((flags & F_LABEL0) !== 0 && cols.label0Validity[i] !== UNREVIEWED) return true;
    if ((flags & F_MORE_LABELS) === 0) return false;
    return (cols.moreLabels.get(i)?.events ?? []).some((e) => e.validity !== "unreviewed");
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
    const labelledIn = new Float64Array(this.revisionList.length);
    for (let i = 0; i < this.cols.count; i++) {
      const r = this.cols.revision[i] ?? 0;
      if (this.labelled(i)) labelledIn[r] = (labelledIn[r] ?? 0) + 1;
    }
    for (const rev of this.revisionList) {
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

  /** Every model_config seen, sorted. */
  modelsPresent(): string[] {
    return [...this.models].sort(compareCodeUnits);
  }

  /**
   * The Dataset, or one InputError listing every problem found. `complete` is false when a file
   * could not be read to its end (a problem already says so): then a model id missing from what
   * was read is not reported, since the unread part may hold it.
   */
  finish(
    inputs: readonly InputFileDigest[],
    rowsRead: number,
    complete: boolean,
    collectGarbage?: () => void,
  ): Dataset {
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

    const cols = this.cols;
    const ids = cols.taskIds;
    // The compared tasks by (dataset_revision, task_id): revisions in order, then each one's tasks.
    // (A counting sort by the revision's rank, then each revision's tasks by task_id.)
    const rank = new Uint32Array(this.revisionList.length);
    [...this.revisionList]
      .sort((a, b) => compareCodeUnits(a.name, b.name))
      .forEach((rev, r) => (rank[rev.index] = r));
    const start = new Uint32Array(this.revisionList.length + 1);
    for (let i = 0; i < cols.count; i++) {
      const r = (rank[cols.revision[i] ?? 0] ?? 0) + 1;
      if (this.inUniverse(i)) start[r] = (start[r] ?? 0) + 1;
    }
    for (let r = 0; r < this.revisionList.length; r++) start[r + 1] = (start[r + 1] ?? 0) + (start[r] ?? 0);
    const size = start[this.revisionList.length] ?? 0;
    const universe = new Uint32Array(size);
    const fill = start.slice();
    for (let i = 0; i < cols.count; i++) {
      if (!this.inUniverse(i)) continue;
      const r = rank[cols.revision[i] ?? 0] ?? 0;
      const at = fill[r] ?? 0;
      universe[at] = i;
      fill[r] = at + 1;
    }
    for (let r = 0; r < this.revisionList.length; r++) {
      // Sorted as an Array: V8's typed-array sort with a comparator was ~25% slower (500,000 ids).
      const from = start[r] ?? 0;
      // (Copied by index: Array.from walks a typed array through its iterator, an object a task.)
      const part = new Array<number>((start[r + 1] ?? 0) - from);
      for (let k = 0; k < part.length; k++) part[k] = universe[from + k] ?? 0;
      part.sort((a, b) => compareCodeUnits(ids[a] ?? "", ids[b] ?? ""));
      universe.set(part, from);
    }
    // Read before the per-task maps go; its problems come after the tasks' (as listed).
    const compared = new Set([
      ...this.baselineState.datasetRevisions,
      ...this.candidateState.datasetRevisions,
    ]);
    const unmatchedProblems = new ProblemList();
    const unmatchedLabels = this.unmatchedLabels(compared, unmatchedProblems);
    // The task maps go before the table is made (finish is the last call): a task-heavy
    // export's peak memory is the held state and the table together.
    this.revisions.clear();
    this.index = new TaskIndex();
    this.lastTasks = undefined;
    cols.baseline.releaseAttempts();
    cols.candidate.releaseAttempts();
    // The read's garbage (grown-out arrays, rows' strings) goes before the table is made.
    if (collectGarbage !== undefined && cols.count >= COLLECT_MIN_TASKS) collectGarbage();
    const late = new ProblemList();
    const revisions = new Set<number>();
    const refused = modelProblems.length > 0 || this.lineProblems.total > 0 || unmatchedProblems.total > 0;
    // In dataset order: the late problems in that order, the review revisions, each task's run of
    // label events in the table.
    const eventStart = new Uint32Array(size + 1);
    let eventCount = 0;
    const conflicts = cols.clusterConflicts.size > 0;
    for (let u = 0; u < size; u++) {
      const i = universe[u] ?? 0;
      const flags = cols.flags[i] ?? 0;
      eventStart[u] = eventCount;
      // A task's first row always adds a label unless it passed a cap (reported): then it has none.
      if ((flags & F_MORE_LABELS) !== 0) {
        // Counted in place (labelsOf makes an event a label; addToTable makes them once): only
        // two different labels at the task's highest revision need them, for checkLabels.
        const top = cols.topRevision[i] ?? -1;
        let topCode = -1;
        let rival = false;
        if ((flags & F_LABEL0) !== 0) {
          const revision = cols.label0Revision[i] ?? 0;
          revisions.add(revision);
          if (revision === top) topCode = cols.label0Validity[i] ?? 0;
          eventCount++;
        }
        for (const e of cols.moreLabels.get(i)?.events ?? []) {
          revisions.add(e.revision);
          eventCount++;
          if (e.revision !== top) continue;
          const code = validityCode(e.validity);
          if (topCode < 0) topCode = code;
          else if (code !== topCode) rival = true;
        }
        if (rival) this.checkLabels(i, this.labelsOf(i, flags), late);
      } else if ((flags & F_LABEL0) !== 0) {
        revisions.add(cols.label0Revision[i] ?? 0);
        eventCount++;
      }
      const conflict = conflicts ? cols.clusterConflicts.get(i) : undefined;
      if (conflict !== undefined) {
        late.add({
          location: this.locationOf(conflict.src),
          field: "cluster",
          message:
            `task ${quote(ids[i] ?? "")} (dataset_revision ${quote(this.revisionOf(i))}) has cluster ` +
            `${quote(cols.clusters[i] ?? "")} at ${this.where(cols.clusterSrc[i] ?? 0)} and ` +
            `${quote(conflict.value)} here; a task belongs to one cluster`,
        });
      }
    }
    eventStart[size] = eventCount;
    // Once the read is sure to end in an InputError no table is made: at a passed task cap, the
    // table beside the held state would raise the peak memory of the refusal (RELIABILITY.md).
    const table = refused || late.total > 0 ? undefined : this.newTable(universe, eventStart);
    if (table !== undefined) {
      // Filled in the builder's task order: its ~15 columns are read in order and the table's
      // written where each task goes (in dataset order every read was a cache miss: ~0.3 s at
      // 500,000 tasks).
      const position = new Int32Array(cols.count).fill(-1);
      for (let u = 0; u < size; u++) position[universe[u] ?? 0] = u;
      for (let i = 0; i < cols.count; i++) {
        const u = position[i] ?? -1;
        if (u >= 0) this.addToTable(table, u, i, eventStart[u] ?? 0);
      }
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
      tasks: table ?? this.newTable(new Uint32Array(0), new Uint32Array(1)),
      baseline: this.summary(this.baseline, this.baselineState),
      candidate: this.summary(this.candidate, this.candidateState),
      modelsPresent: present,
      inputs,
      rowsRead,
      reviewRevisions: [...revisions].sort((a, b) => a - b),
      ...(unmatchedLabels.length > 0 ? { unmatchedLabels } : {}),
    };
  }

  /** Every label of task i in the order found (the first, inline, as a LabelEvent too). */
  private labelsOf(i: number, flags: number): LabelEvent[] {
    return labelsOf(this.cols, i, flags);
  }

  /** Two labels at a task's highest review revision: a problem at the second. */
  private checkLabels(i: number, events: readonly LabelEvent[], late: ProblemList): void {
    const top = this.cols.topRevision[i] ?? -1;
    const label = events.find((e) => e.revision === top);
    const rival = events.find((e) => e.revision === top && e.validity !== label?.validity);
    if (label === undefined || rival === undefined) return;
    late.add({
      location: this.locationOf(rival.src),
      field: "validity",
      message:
        `task ${quote(this.cols.taskIds[i] ?? "")} (dataset_revision ${quote(this.revisionOf(i))}) has two ` +
        `different labels at its highest review_revision ${top}: "${label.validity}" ` +
        `at ${this.where(label.src)} and "${rival.validity}" here; record a disagreement as a ` +
        `later revision labelled "disputed"`,
    });
  }

  /** An empty table for the tasks of `universe` (dataset order), their label events at eventStart. */
  private newTable(universe: Uint32Array, eventStart: Uint32Array): ColumnTaskTable {
    const cols = this.cols;
    const names = this.revisionList.map((r) => r.name);
    // Only the string columns: the table must not keep the builder's typed arrays alive.
    const strings = { taskIds: cols.taskIds, clusters: cols.clusters, evidence: cols.evidence };
    return new ColumnTaskTable(universe.length, eventStart, strings, names, this.fileNames);
  }

  /** Task i as the table's task u, its labels from event `e` on in history order (by revision, then source). */
  private addToTable(table: ColumnTaskTable, u: number, i: number, e: number): void {
    const cols = this.cols;
    const flags = cols.flags[i] ?? 0;
    const evidence = cols.evidence[i];
    table.setTask(
      u,
      i,
      cols.revision[i] ?? 0,
      cols.topValidity[i] ?? 0,
      cols.topRevision[i] ?? -1,
      (flags & F_BASELINE) === 0 ? undefined : countsOf(cols.baseline, i),
      (flags & F_CANDIDATE) === 0 ? undefined : countsOf(cols.candidate, i),
    );
    const more = (flags & F_MORE_LABELS) === 0 ? undefined : cols.moreLabels.get(i)?.events;
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
          own ? ownEvidence(cols.label0Evidence.get(i), evidence) : undefined,
          cols.label0Meta.get(i),
        );
      }
      for (const ev of more ?? []) this.setLabelEvent(table, k++, ev, evidence);
      return;
    }
    // (labelsOf makes a new list: sorted in place.)
    const sorted = this.labelsOf(i, flags).sort(historyOrder);
    for (let k = 0; k < sorted.length; k++)
      this.setLabelEvent(table, e + k, sorted[k] as LabelEvent, evidence);
  }

  private setLabelEvent(
    table: ColumnTaskTable,
    at: number,
    ev: LabelEvent,
    evidence: string | undefined,
  ): void {
    table.setEvent(
      at,
      ev.revision,
      validityCode(ev.validity),
      ev.src,
      ev.own ? ownEvidence(ev.evidence, evidence) : undefined,
      ev.reviewer === undefined && ev.note === undefined
        ? undefined
        : { reviewer: ev.reviewer, note: ev.note },
    );
  }

  /*
   * Reading one results file in byte ranges (range-read.ts): each range after the first is read
   * by a builder of its own (its lines numbered from 1), whose state (snapshot) is then absorbed
   * here in range order as if its lines had been read here. Only a clean read is merged: when
   * any range had a problem or passed a cap, or absorbing finds what would have been one here
   * (a conflicting attempt, an aggregate beside per-attempt rows, a passed cap), the caller reads
   * the input again from the start, one line after another, for the exact messages.
   */

  /** No problem reported and no cap passed so far (what a read in ranges requires). */
  healthy(): boolean {
    return !this.stopped && this.lineProblems.total === 0;
  }

  /** How many tasks this builder holds (snapshot's `to`). */
  taskCount(): number {
    return this.cols.count;
  }

  /** The compared models' attempt ids held to recognise repeats (what a range's merge copies). */
  heldAttemptIds(): number {
    return this.attemptIds;
  }

  /**
   * Part of this builder's state, to absorb into another (after a structured clone: see
   * columnBuffers): tasks [from, to), and the model totals when `last`. Absorbing every part, in
   * order, absorbs the whole state.
   */
  snapshot(from = 0, to = this.cols.count, last = true): BuilderSnapshot {
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
      cols: from === 0 && to === this.cols.count ? this.cols : sliceColumns(this.cols, from, to),
      revisions: this.revisionList.map((r) => r.name),
      models: from === 0 ? [...this.models] : [],
      baseline: totals(this.baselineState),
      candidate: totals(this.candidateState),
    };
  }

  /**
   * Adds the state of a builder that read results lines of the same file right after the lines
   * read here, numbered from 1 (`lines` is how many lines came before them): the state becomes
   * what reading those lines here would have made. Returns false when that reading would have
   * reported a problem or passed a cap; this builder is then spoilt (read again from the start).
   */
  absorb(s: BuilderSnapshot, lines: number): boolean {
    if (!this.healthy()) return false;
    this.forgetLast();
    // The memo speaks of the lists held here: merging rebuilds a task's labels and their lists.
    this.memo = undefined;
    const p = reviveColumns(s.cols, lines, this.attemptPool);
    for (const model of s.models) {
      if (this.models.has(model)) continue;
      if (this.models.size >= this.limits.maxModels) return false;
      this.heldChars += model.length;
      this.models.add(model);
    }
    const revs = s.revisions.map((name) => this.revisionNamed(name));
    const cols = this.cols;
    const dups = [0, 0];
    for (let t = 0; t < p.count; t++) {
      const rev = revs[p.revision[t] ?? 0];
      const taskId = p.taskIds[t];
      if (rev === undefined || taskId === undefined) return false;
      const hash = TaskIndex.hash(rev.index, taskId);
      const i = this.index.find(hash, rev.index, taskId, cols);
      if (i >= 0) {
        if (!this.mergeTask(i, p, t, dups)) return false;
        continue;
      }
      if (cols.count >= this.limits.maxTasks) return false;
      this.heldChars += taskId.length;
      const fresh = cols.add(rev.index, taskId);
      this.index.add(hash, fresh);
      this.adoptTask(fresh, p, t);
    }
    if (!this.absorbTotals(this.baselineState, s.baseline, dups[0] ?? 0)) return false;
    if (!this.absorbTotals(this.candidateState, s.candidate, dups[1] ?? 0)) return false;
    this.forgetLast();
    return this.heldChars <= this.limits.maxHeldChars && this.attemptIds <= this.limits.maxAttemptIds;
  }

  /** Drops what the row path remembers of the last row (absorb changes what it points at). */
  private forgetLast(): void {
    this.lastAdded.forget();
    this.lastHarness = undefined;
    this.lastModel = undefined;
    this.lastRevision = undefined;
    this.lastTasks = undefined;
    this.lastTask = -1;
    this.lastMoreTask = -1;
    this.lastMore = undefined;
    for (const st of [this.baselineState, this.candidateState]) {
      st.lastHarness = undefined;
      st.lastRevision = undefined;
    }
  }

  /** The dataset revision named so, made (as a row's would be) when new. */
  private revisionNamed(revision: string): RevisionTasks {
    const known = this.revisions.get(revision);
    if (known !== undefined) return known;
    const name = this.intern(revision);
    const rev = { name, index: this.revisionList.length };
    this.revisions.set(name, rev);
    this.revisionList.push(rev);
    return rev;
  }

  private absorbTotals(st: ModelState, t: ModelTotals, dups: number): boolean {
    const attempts = st.attempts + t.attempts;
    if (attempts > Number.MAX_SAFE_INTEGER) return false;
    st.attempts = attempts - dups;
    st.duplicateRows += t.duplicateRows + dups;
    for (const h of t.harnessRevisions) st.harnessRevisions.add(this.intern(h));
    for (const r of t.datasetRevisions) st.datasetRevisions.add(this.revisionNamed(r).name);
    return true;
  }

  /** Task t of `p`, not known here, becomes task i (its state taken over). */
  private adoptTask(i: number, p: TaskColumns, t: number): void {
    const cols = this.cols;
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
    this.heldChars += evidenceChars(cols, i);
    const cluster = p.clusters[t];
    if (cluster !== undefined) {
      cols.clusters[i] = this.intern(cluster);
      cols.clusterSrc[i] = p.clusterSrc[t] ?? 0;
      const conflict = p.clusterConflicts.get(t);
      if (conflict !== undefined) cols.clusterConflicts.set(i, conflict);
    }
    if ((flags & F_BASELINE) !== 0) this.adoptModel(i, cols.baseline, p.baseline, t);
    if ((flags & F_CANDIDATE) !== 0) this.adoptModel(i, cols.candidate, p.candidate, t);
  }

  /** A compared model's state on task t of `p`, with no row here yet, becomes its state on task i. */
  private adoptModel(i: number, m: ModelColumns, pm: ModelColumns, t: number): void {
    m.harness[i] = this.intern(pm.harness[t] ?? "");
    m.info[i] = pm.info[t] ?? 0;
    m.a0[i] = this.holdAttempt(pm.a0[t]);
    m.a0info[i] = pm.a0info[t] ?? 0;
    m.setCounts(i, pm.pass[t] ?? 0, pm.fail[t] ?? 0, pm.infraError[t] ?? 0, pm.missing[t] ?? 0);
    const more = pm.more.get(t);
    if (more !== undefined) {
      m.more.set(i, more);
      this.holdAll(more);
    }
    const others = pm.others.get(t);
    if (others === undefined) return;
    const held = new Map<string, HarnessState>();
    for (const h of others.values()) held.set(this.intern(h.harness), this.adoptHarness(h));
    m.others.set(i, held);
  }

  private adoptHarness(h: HarnessState): HarnessState {
    if (h.more !== undefined) this.holdAll(h.more);
    return { ...h, harness: this.intern(h.harness), a0: this.holdAttempt(h.a0) };
  }

  private holdAll(ids: AttemptIds): void {
    const held = ids.held();
    this.attemptIds += held.ids;
    this.heldChars += held.chars;
  }

  /**
   * Task t of `p` into task i, known here. Returns false at what would have been a problem here.
   * `dups` counts, per compared model, the attempts of `p` that repeat one held here.
   */
  private mergeTask(i: number, p: TaskColumns, t: number, dups: number[]): boolean {
    const cols = this.cols;
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
        this.adoptModel(i, m, pm, t);
        continue;
      }
      const repeated = this.mergeModel(i, m, pm, t);
      if (repeated < 0) return false;
      dups[role] = (dups[role] ?? 0) + repeated;
    }
    if (!this.mergeLabels(i, p, t)) return false;
    const cluster = p.clusters[t];
    if (cluster !== undefined && !cols.clusterConflicts.has(i)) {
      const held = cols.clusters[i];
      if (held === undefined) {
        cols.clusters[i] = this.intern(cluster);
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
  private mergeModel(i: number, m: ModelColumns, pm: ModelColumns, t: number): number {
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
        m.othersOf(i).set(this.intern(name), this.adoptHarness({ harness: name, info, a0, a0info, more }));
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
        const held = this.holdAttempt(attempt) ?? attempt;
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
          const fresh = new AttemptIds(this.attemptPool);
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
  private mergeLabels(i: number, p: TaskColumns, t: number): boolean {
    const cols = this.cols;
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
        this.heldChars += charsOf(after) - charsOf(before);
        cols.evidence[i] = pack(after);
      }
      return true;
    }
    if (
      (flags & labelFlags) === F_LABEL0 &&
      (pf & labelFlags) === F_LABEL0 &&
      !p.label0Meta.has(t) &&
      this.limits.maxLabelsPerTask >= 2 &&
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
      if (labels.length >= this.limits.maxLabelsPerTask) return false;
      this.heldChars += (e.reviewer?.length ?? 0) + (e.note?.length ?? 0);
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
    this.heldChars += evidenceChars(cols, i) - heldBefore;
    return true;
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

/** Every label of task i in the order found (the first, inline, as a LabelEvent too). */
function labelsOf(cols: TaskColumns, i: number, flags: number): LabelEvent[] {
  const out: LabelEvent[] = [];
  if ((flags & F_LABEL0) !== 0) {
    const meta = cols.label0Meta.get(i);
    const own = (flags & F_LABEL0_OWN) !== 0;
    out.push({
      revision: small(cols.label0Revision[i] ?? 0),
      validity: VALIDITIES[cols.label0Validity[i] ?? 0] ?? "unreviewed",
      src: cols.label0Src[i] ?? 0,
      reviewer: meta?.reviewer,
      note: meta?.note,
      own,
      evidence: own ? cols.label0Evidence.get(i) : undefined,
    });
  }
  for (const e of cols.moreLabels.get(i)?.events ?? []) out.push(e);
  return out;
}

/** A task's label events in history order: by revision, then source. */
function historyOrder(a: LabelEvent, b: LabelEvent): number {
  return a.revision - b.revision || a.src - b.src;
}

/** Whether task i's later labels follow its first in history order (as they usually come). */
function laterInOrder(cols: TaskColumns, i: number, later: readonly LabelEvent[]): boolean {
  let revision = cols.label0Revision[i] ?? 0;
  let src = cols.label0Src[i] ?? 0;
  for (const e of later) {
    if (e.revision < revision || (e.revision === revision && e.src < src)) return false;
    revision = e.revision;
    src = e.src;
  }
  return true;
}

/** What a state's evidence of task i counts as held: the task's items, and every label's items that
 * are not the task's (an item a label keeps when the task's list is full, counted per label). */
function evidenceChars(cols: TaskColumns, i: number): number {
  const task = cols.evidence[i];
  let n = packedChars(task);
  const flags = cols.flags[i] ?? 0;
  if ((flags & F_LABEL0_OWN) !== 0) n += charsNotIn(cols.label0Evidence.get(i), task);
  if ((flags & F_MORE_LABELS) !== 0) {
    for (const e of cols.moreLabels.get(i)?.events ?? []) if (e.own) n += charsNotIn(e.evidence, task);
  }
  return n;
}

function charsOf(list: readonly string[] | undefined): number {
  let n = 0;
  for (const item of list ?? []) n += item.length;
  return n;
}

function charsNotIn(list: readonly string[] | undefined, packed: string | undefined): number {
  let n = 0;
  for (const item of list ?? []) if (packedIndexOf(packed, item) < 0) n += item.length;
  return n;
}

/**
 * `list` followed by the items of `more` it lacks, capped at MAX_EVIDENCE_PER_TASK: the evidence
 * of rows read after `list`'s, when `more` is theirs (first seen first, capped: the items taken
 * are among the first MAX_EVIDENCE_PER_TASK of `more`). `list` itself when nothing is added.
 */
function unionOf(list: string[] | undefined, more: readonly string[] | undefined): string[] | undefined {
  if (more === undefined || more.length === 0 || (list?.length ?? 0) >= MAX_EVIDENCE_PER_TASK) return list;
  let out: string[] | undefined;
  for (const item of more) {
    if (list?.includes(item) === true || out?.includes(item) === true) continue;
    out ??= list === undefined ? [] : list.slice();
    out.push(item);
    if (out.length >= MAX_EVIDENCE_PER_TASK) break;
  }
  return out ?? list;
}

/** The state of a builder for absorb (DatasetBuilder.snapshot), as posted between threads. */
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
 * Per task, the label (review_revision, validity) and evidence items of a result row already added
 * to it, the items as where they stand in the task's list (a run of `count` from `start`). Adding
 * that label and those items again changes nothing: the label exists, the task's list holds the
 * items (lists only grow at their end, so the run stays where it was), and so does the label's own
 * list (it took them then, or was full; a label's own list never equals the task's, or it would
 * share it: settle). So a row that repeats them skips addLabel: on evidence that differs per
 * (model, task), the rows of one (model, task) otherwise searched the task's list of every model's
 * items, and the label's, every time.
 */
class EvidenceMemo {
  /** revision * 4 + validity code + 1; 0: nothing remembered. */
  private label = new Float64Array(0);
  /** Where the run starts in the task's packed list (a character offset). */
  private start = new Uint32Array(0);
  private count = new Uint8Array(0);

  set(i: number, revision: number, validity: Validity, start: number, count: number): void {
    if (i >= this.label.length) {
      const size = Math.max(1024, 2 * i);
      const label = new Float64Array(size);
      label.set(this.label);
      this.label = label;
      const starts = new Uint32Array(size);
      starts.set(this.start);
      this.start = starts;
      const counts = new Uint8Array(size);
      counts.set(this.count);
      this.count = counts;
    }
    this.label[i] = revision * 4 + validityCode(validity) + 1;
    this.start[i] = start;
    this.count[i] = count;
  }

  /** Whether the row's label and evidence are those remembered for task i (compared item by item). */
  repeats(
    i: number,
    revision: number,
    validity: Validity,
    evidence: string | readonly string[],
    cols: TaskColumns,
  ): boolean {
    if (i >= this.label.length || this.label[i] !== revision * 4 + validityCode(validity) + 1) return false;
    const count = typeof evidence === "string" ? 1 : evidence.length;
    return this.count[i] === count && packedRunAt(cols.evidence[i], this.start[i] ?? 0, evidence);
  }

  /** repeats() of a row whose `count` items came packed (one run of whole items for packedRunAt). */
  repeatsPacked(
    i: number,
    revision: number,
    validity: Validity,
    packed: string,
    count: number,
    cols: TaskColumns,
  ): boolean {
    if (i >= this.label.length || this.label[i] !== revision * 4 + validityCode(validity) + 1) return false;
    return this.count[i] === count && packedRunAt(cols.evidence[i], this.start[i] ?? 0, packed);
  }
}

/** Evidence items a row may hold for LastAdded to remember them (longer lists are not). */
const LAST_ADDED_ITEMS = 4;

/**
 * The label and evidence of the last result row added to a task. A row of the same task with the
 * same label and the same items (the attempts of one model on one task usually come together)
 * changes nothing: adding a label and items is idempotent while nothing else touched the task,
 * and any other row added since is the last one instead (a row the memo skips changes nothing
 * either). Compared with `===` (the scanner's new strings: their characters, faster than reading
 * the packed list).
 */
class LastAdded {
  private task = -1;
  private revision = 0;
  private validity: Validity = "unreviewed";
  /** NO_EVIDENCE_GIVEN, ONE_STRING (a string alone, in items[0]) or a list of `count` items. */
  private shape = NO_EVIDENCE_GIVEN;
  private count = 0;
  private readonly items: string[] = [];

  forget(): void {
    this.task = -1;
  }

  set(
    i: number,
    revision: number,
    validity: Validity,
    evidence: string | readonly string[] | undefined,
  ): void {
    if (evidence !== undefined && typeof evidence !== "string" && evidence.length > LAST_ADDED_ITEMS) {
      this.task = -1;
      return;
    }
    this.task = i;
    this.revision = revision;
    this.validity = validity;
    if (evidence === undefined) {
      this.shape = NO_EVIDENCE_GIVEN;
      this.count = 0;
    } else if (typeof evidence === "string") {
      this.shape = ONE_STRING;
      this.count = 1;
      this.items[0] = evidence;
    } else {
      this.shape = ITEM_LIST;
      this.count = evidence.length;
      for (let k = 0; k < evidence.length; k++) this.items[k] = evidence[k] as string;
    }
  }

  /** set() of a row whose list came packed (ExportRow.packedEvidence). */
  setPacked(i: number, revision: number, validity: Validity, packed: string): void {
    this.task = i;
    this.revision = revision;
    this.validity = validity;
    this.shape = PACKED_LIST;
    this.count = 1;
    this.items[0] = packed;
  }

  /** repeats() of a row whose list came packed: the same packed string (so the same items). */
  repeatsPacked(i: number, revision: number, validity: Validity, packed: string): boolean {
    return (
      i === this.task &&
      revision === this.revision &&
      validity === this.validity &&
      this.shape === PACKED_LIST &&
      this.items[0] === packed
    );
  }

  repeats(
    i: number,
    revision: number,
    validity: Validity,
    evidence: string | readonly string[] | undefined,
  ): boolean {
    if (i !== this.task || revision !== this.revision || validity !== this.validity) return false;
    if (evidence === undefined) return this.shape === NO_EVIDENCE_GIVEN;
    if (typeof evidence === "string") return this.shape === ONE_STRING && this.items[0] === evidence;
    if (this.shape !== ITEM_LIST || evidence.length !== this.count) return false;
    for (let k = 0; k < evidence.length; k++) if (this.items[k] !== evidence[k]) return false;
    return true;
  }
}
const NO_EVIDENCE_GIVEN = 0;
const ONE_STRING = 1;
const ITEM_LIST = 2;
/** A packed list (ExportRow.packedEvidence) in items[0]; a row of items never repeats it here. */
const PACKED_LIST = 3;

/** The label (revision, validity) of a task's later labels (a loop: `find` with a closure cost
 * a closure per row). */
function findLabel(
  events: readonly LabelEvent[],
  revision: number,
  validity: Validity,
): LabelEvent | undefined {
  for (const e of events) if (e.revision === revision && e.validity === validity) return e;
  return undefined;
}

/**
 * A label's own evidence list as the table keeps it: undefined when it has the task's items (the
 * table then gives the task's list), else the list itself (empty when there is none).
 */
function ownEvidence(own: string[] | undefined, task: string | undefined): readonly string[] | undefined {
  return packedEquals(task, own) ? undefined : (own ?? NO_EVIDENCE);
}

const UNREVIEWED = 0;

/** The index of a validity in VALIDITIES. */
function validityCode(v: Validity): number {
  return v === "unreviewed" ? UNREVIEWED : v === "valid" ? 1 : v === "broken" ? 2 : 3;
}

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

/** Whether a list begins with exactly these items (so holds them all). */
function startsWith(kept: readonly string[] | undefined, evidence: string | readonly string[]): boolean {
  if (kept === undefined) return false;
  if (typeof evidence === "string") return kept[0] === evidence;
  if (evidence.length > kept.length) return false;
  for (let i = 0; i < evidence.length; i++) if (kept[i] !== evidence[i]) return false;
  return true;
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
