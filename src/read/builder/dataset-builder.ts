/**
 * Reduces validated rows to the Dataset (SPEC §1.1, §1.2, §1.4) with memory that grows with the
 * number of (model, task) pairs, never with the number of rows:
 * - for every task (any model's rows carry labels that count toward its effective validity): the
 *   distinct (review_revision, validity) events with their first source, the cluster, and at most
 *   MAX_EVIDENCE_PER_TASK evidence items (label-history.ts);
 * - for the baseline and the candidate only, per task: the attempt counts, the attempt keys seen
 *   (to fold duplicates and catch conflicting results; small: one entry per attempt of the task),
 *   and which harness revisions came as per-attempt or pre-aggregated rows;
 * - every model_config seen (for the "unknown model id" message).
 *
 * This file is the row path: each results line (the byte scanner first, JSON.parse for any other
 * line) and each reviews line, checked and added. Each task has a number; its state is held in
 * columns by that number (builder-columns.ts: typed arrays, the rare things in side maps), found
 * through the task after the last row's, then an open-addressing table (TaskIndex), with the
 * tasks of one revision sharing its string. Attempt ids are kept as given (AttemptIds: small
 * integers in Uint32 blocks of the builder's AttemptPool indexed by the id, anything else in a
 * Map, so 1 and "1" stay apart); the usual single harness revision of a (model, task) is held
 * inline, more in a map. The builder is made in layers (label-history.ts): what the parts share
 * is builder-state.ts, the labels label-history.ts; the Dataset is made by dataset-finish.ts.
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

import type { Dataset, InputFileDigest, ModelSummary } from "../../core/model.js";
import { quote } from "../../core/quote.js";
import type { InputLimits } from "../limits.js";
import { plainBytes } from "../lines/line-splitter.js";
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
import { RowScanner } from "../rows/row-scanner.js";
import {
  AttemptIds,
  F_BASELINE,
  F_CANDIDATE,
  F_PLAIN_ID,
  F_RANKED,
  NARROW_COUNT_MAX,
  TaskIndex,
  type ModelColumns,
} from "./builder-columns.js";
import { metricsFingerprint } from "./metric-sums.js";
import { KIND_AGGREGATED, KIND_ATTEMPTS, type ModelState, type RevisionTasks } from "./builder-state.js";
import { finishDataset, rankedSummary, type EmptyFile } from "./dataset-finish.js";
import { LabelHistory } from "./label-history.js";

/** Distinct dataset revisions counted per reviews file; rows of further revisions are counted together. */
const MAX_REVISIONS_HELD = 100;

export class DatasetBuilder extends LabelHistory {
  private lastModel: string | undefined = undefined;
  /** The last row's model as a ranked model's index (-1: not ranked); a K-model read only. */
  private lastRanked = -1;
  /** The dataset_revision of the last row that found or made its tasks, and those tasks. */
  private lastRevision: string | undefined = undefined;
  private lastTasks: RevisionTasks | undefined = undefined;
  /** The task of the last row that found or made one (-1: none yet). */
  private lastTask = -1;
  /** Whether taskOf made the last row's task. */
  private freshTask = false;
  /** Whether the last row's task was the one of the row before (attempts of a task together). */
  private sameTask = false;
  /** Whether the row being added was read by the byte scanner (its strings are plain text). */
  private scannedRow = false;
  private readonly issues = new LineIssues();
  private readonly exportRow = emptyExportRow();
  private readonly reviewRow = emptyReviewRow();
  // (packEvidence: resultRow takes a row's packed list: LabelHistory.packedRow.)
  private readonly scanner = new RowScanner(true, this.cols.arena);

  constructor(
    baseline: string,
    candidate: string,
    /** Display names of the input files, by file index. */
    fileNames: readonly string[],
    limits: Partial<InputLimits> = {},
  ) {
    super(baseline, candidate, fileNames, limits);
  }

  /** One non-blank line of a results export; `plain` as in line-splitter.ts's LineHandler. */
  addResultLine(text: string, fileIndex: number, line: number, plain = false): void {
    if (this.stopped) return;
    this.scannedRow = false;
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
   * One non-blank line of a results export as bytes (line-splitter.ts's ByteLineHandler): the byte
   * scanner reads the common row shape; any other line goes the JSON.parse way (row-scanner.ts).
   */
  addResultBytes(bytes: Buffer, begin: number, end: number, fileIndex: number, line: number): void {
    if (this.stopped) return;
    this.expectNext();
    if (this.scanner.scan(bytes, begin, end, this.exportRow)) {
      this.scannedRow = true;
      this.addResultRow(this.exportRow, fileIndex, line);
      return;
    }
    this.addResultLine(bytes.toString("utf8", begin, end), fileIndex, line, plainBytes(bytes, begin, end));
  }

  /**
   * Tells the scanner what the next row probably holds (RowScanner.expect): the task after the
   * last row's (the last row's own while rows repeat a task), its id, its evidence list and the
   * item its rows repeat.
   */
  private expectNext(): void {
    const i = this.sameTask ? this.lastTask : this.lastTask + 1;
    const cols = this.cols;
    if (i < 0 || i >= cols.count) {
      this.scanner.expect("", "", "");
      return;
    }
    const plainId = ((cols.flags[i] ?? 0) & F_PLAIN_ID) !== 0;
    this.scanner.expect(
      plainId ? (cols.taskIds[i] ?? "") : "",
      cols.evidence[i] ?? "",
      this.rememberedItem(i),
    );
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
    if (model !== this.lastModel && !this.newModel(model, src)) return;
    const isBaseline = model === this.baseline;
    const isCandidate = model === this.candidate;
    const i = this.taskOf(row, src);
    if (i < 0) return;
    const rev = this.lastTasks;
    // (rev is defined: taskOf found task i in its revision, or made both.)
    if (rev === undefined) return;
    const cols = this.cols;
    // A task's benchmark is its first row's; a row that names another is a conflict (finish).
    if ((row.benchmark !== undefined || cols.benchmark !== undefined) && !this.taskBenchmark(i, row, src))
      return;
    // The attempt first: a row that conflicts with an earlier attempt is reported and contributes nothing.
    if (isBaseline && !this.compared(i, F_BASELINE, cols.baseline, this.baselineState, rev, row, src)) return;
    if (isCandidate && !this.compared(i, F_CANDIDATE, cols.candidate, this.candidateState, rev, row, src))
      return;
    const k = this.lastRanked;
    if (k >= 0) {
      const ranked = this.ranked?.states[k];
      const m = cols.ranked[k];
      if (ranked !== undefined && m !== undefined && !this.compared(i, F_RANKED, m, ranked, rev, row, src))
        return;
    }

    if (!this.labelRow(i, row, src)) return;
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

  /** A row of another model than the last row's: false when it passes the cap on models (reported). */
  private newModel(model: string, src: number): boolean {
    if (!this.models.has(model)) {
      if (this.models.size >= this.limits.maxModels) {
        this.capPassed(
          src,
          `the export has more than ${this.limits.maxModels} distinct model_config ids (the limit)`,
        );
        return false;
      }
      this.heldChars += model.length;
      this.models.add(model);
      if (this.ranked?.every === true) this.ranked.add(model);
    }
    this.lastModel = model;
    this.lastRanked = this.ranked?.byId.get(model) ?? -1;
    return true;
  }

  /**
   * The row's task, found or made (then `freshTask` is true), with lastTasks its revision's tasks;
   * -1 when a new one would pass the cap on tasks (reported).
   */
  private taskOf(row: ExportRow, src: number): number {
    // Rows of one dataset revision come in runs: comparing with the last one is cheaper than
    // hashing a fresh 70-character string for the map on every row.
    let rev =
      row.datasetRevision === this.lastRevision ? this.lastTasks : this.revisions.get(row.datasetRevision);
    const cols = this.cols;
    let hash = 0;
    let probed = false;
    this.freshTask = false;
    if (rev !== undefined) {
      this.lastRevision = rev.name;
      this.lastTasks = rev;
      // Models usually run the tasks in one order, and attempts of a task come together: the
      // task after the last row's, or that task again, before a lookup in a map of every task
      // (a cache miss a row once there are many tasks).
      const last = this.lastTask;
      const next = last + 1;
      if (next < cols.count && cols.taskIds[next] === row.taskId && cols.revision[next] === rev.index) {
        this.lastTask = next;
        this.sameTask = false;
        return next;
      }
      if (last >= 0 && cols.taskIds[last] === row.taskId && cols.revision[last] === rev.index) {
        this.sameTask = true;
        return last;
      }
      hash = TaskIndex.hash(rev.index, row.taskId);
      const found = this.index.find(hash, rev.index, row.taskId, cols);
      this.sameTask = found === last;
      if (found >= 0) {
        this.lastTask = found;
        return found;
      }
      probed = true;
    }
    if (cols.count >= this.limits.maxTasks) {
      this.capPassed(
        src,
        `the export has more than ${this.limits.maxTasks} distinct tasks (dataset_revision, task_id) ` +
          `over all models (the limit, which bounds the memory used)`,
      );
      return -1;
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
    const i = cols.add(rev.index, row.taskId);
    if (this.scannedRow) cols.flags[i] = (cols.flags[i] ?? 0) | F_PLAIN_ID;
    this.index.add(hash, i);
    this.lastTask = i;
    this.freshTask = true;
    return i;
  }

  /**
   * The row's benchmark against task i's (SPEC §1.1 `benchmark`: one per task): a new task takes
   * the row's; another one is kept as the task's first conflict (reported by finish when the task
   * is compared). Returns false when a cap was passed (reported).
   */
  private taskBenchmark(i: number, row: ExportRow, src: number): boolean {
    const k = this.benchmarkOf(row.benchmark, src);
    if (k < 0) return false;
    const cols = this.cols;
    if (this.freshTask) {
      if (k !== 0) cols.benchmarks()[i] = k;
    } else if ((cols.benchmark?.[i] ?? 0) !== k && !cols.benchmarkConflicts.has(i)) {
      cols.benchmarkConflicts.set(i, { value: this.benchmarkNames[k] ?? "", src });
    }
    return true;
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
    // (F_RANKED is every ranked model's: each has its own `seen`.)
    if (flag === F_RANKED ? m.seen[i] === 0 : (flags & flag) === 0) {
      // The model's first row on this task: nothing to conflict with yet.
      cols.flags[i] = flags | flag;
      m.seen[i] = 1;
      m.harness[i] = this.internHarness(row.harnessRevision);
      m.info[i] = src * 2 + (row.result < 0 ? KIND_AGGREGATED : KIND_ATTEMPTS);
      m.a0[i] = this.holdAttempt(row.attempt);
      m.a0info[i] = src * 4 + row.result;
      if (row.metricCount > 0 && row.attempt !== undefined) m.setA0Fingerprint(i, fingerprintOf(row));
      return this.countRow(i, m, model, rev, row, src);
    }
    return this.addAttempt(i, m, model, rev, row, src);
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
        a0fp: row.attempt === undefined ? 0 : fingerprintOf(row),
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
      const fingerprint = fingerprintOf(row);
      if (prev !== undefined) {
        const before =
          attempt === a0
            ? seen === undefined
              ? (m.a0fp?.[i] ?? 0)
              : seen.a0fp
            : (more?.fingerprint(attempt) ?? 0);
        if (prev % 4 === row.result && before === fingerprint) {
          model.duplicateRows++;
          return true;
        }
        this.repeatConflict(row, i, rev, src, prev, before === 0);
        return false;
      }
      const held = this.holdAttempt(attempt) ?? attempt;
      if (a0 === undefined) {
        if (seen === undefined) {
          m.a0[i] = held;
          m.a0info[i] = src * 4 + row.result;
          m.setA0Fingerprint(i, fingerprint);
        } else {
          seen.a0 = held;
          seen.a0info = src * 4 + row.result;
          seen.a0fp = fingerprint;
        }
      } else if (more !== undefined) {
        more.set(held, src * 4 + row.result, fingerprint);
      } else {
        const fresh = new AttemptIds(this.attemptPool);
        fresh.set(held, src * 4 + row.result, fingerprint);
        if (seen === undefined) m.more.set(i, fresh);
        else seen.more = fresh;
      }
    }
    return this.countRow(i, m, model, rev, row, src);
  }

  /**
   * A row repeating an attempt (`prev`: its first row's packed source * 4 + result) with another
   * result, or the same result and other metrics: both are the one attempt, so one is wrong.
   */
  private repeatConflict(
    row: ExportRow,
    i: number,
    rev: RevisionTasks,
    src: number,
    prev: number,
    noneThere: boolean,
  ): void {
    const attempt = row.attempt ?? "";
    const what =
      `the same attempt (model_config ${quote(row.modelConfig)}, task ${quote(this.cols.taskIds[i] ?? "")}, ` +
      `dataset_revision ${quote(rev.name)}, harness_revision ${quote(row.harnessRevision)}, attempt ` +
      `${typeof attempt === "number" ? String(attempt) : quote(attempt)})`;
    const there = this.where(Math.floor(prev / 4));
    const prevResult = prev % 4;
    if (prevResult === row.result) {
      this.lineProblem(
        src,
        "metrics",
        `conflicts with ${there}: ${what} carries ` +
          (noneThere
            ? "no metrics there and metrics here"
            : row.metricCount === 0
              ? "metrics there and none here"
              : "other metrics there than here") +
          "; a repeated attempt must repeat its metrics",
      );
      return;
    }
    this.lineProblem(
      src,
      "result",
      `conflicts with ${there}: ${what} is "${RESULT_NAMES[prevResult] ?? "?"}" there ` +
        `and "${RESULT_NAMES[row.result] ?? "?"}" here; a repeated attempt must repeat its result`,
    );
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
    if (row.metricCount > 0 && !this.addMetrics(i, m, row, src)) return false;
    // Rows of a harness revision and a dataset revision come in runs: a comparison with the last
    // one instead of a Set lookup (a hash of a fresh string) on every row.
    const benchmark = this.cols.benchmark?.[i] ?? 0;
    if (row.harnessRevision !== model.lastHarness || benchmark !== model.lastBenchmark) {
      const harness = this.internHarness(row.harnessRevision);
      model.harnessRevisions.add(harness);
      const byBenchmark = model.harnessByBenchmark.get(benchmark);
      if (byBenchmark === undefined) model.harnessByBenchmark.set(benchmark, new Set([harness]));
      else byBenchmark.add(harness);
      model.lastHarness = harness;
      model.lastBenchmark = benchmark;
    }
    if (rev !== model.lastRevision) {
      model.datasetRevisions.add(rev.name);
      model.lastRevision = rev;
    }
    return true;
  }

  /**
   * The row's metrics added to the model's sums on task i: one attempt each, or a pre-aggregated
   * row's metrics_n. Returns false when a cap was passed or a sum would pass the largest double
   * (reported).
   */
  private addMetrics(i: number, m: ModelColumns, row: ExportRow, src: number): boolean {
    const aggregated = row.result < 0;
    for (let k = 0; k < row.metricCount; k++) {
      const name = row.metricNames[k] ?? "";
      const j = this.metricOf(name, src);
      if (j < 0) return false;
      const attempts = aggregated ? (row.metricCounts[k] ?? 0) : 1;
      if (!m.metricSums(j).add(i, row.metricValues[k] ?? 0, attempts)) {
        this.lineProblem(
          src,
          `${aggregated ? "metrics_sum" : "metrics"}.${name}`,
          `the sum of ${name} over the model's attempts on this task passes the largest number held ` +
            `(about 1.8e308)`,
        );
        return false;
      }
    }
    return true;
  }

  /** One non-blank line of a reviews file, read after every results file; `plain` as in
   * line-splitter.ts's LineHandler. */
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
    if (
      row.benchmark !== undefined &&
      this.knownBenchmark(row.benchmark) !== (this.cols.benchmark?.[i] ?? 0)
    ) {
      // A task is in one benchmark: a review naming another labels no task of it.
      const first = this.firstRowOf(i);
      this.lineProblem(
        src,
        "benchmark",
        `task ${quote(row.taskId)} (dataset_revision ${quote(row.datasetRevision)}) is in benchmark ` +
          `${quote(this.benchmarkOfTask(i))}${first === undefined ? "" : ` (its rows, the first at ${first})`} and ` +
          `this review names ${quote(row.benchmark)}; a review that names a benchmark applies only to ` +
          `that benchmark's tasks: name the task's benchmark, or none`,
      );
      return;
    }
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
    emptyResults: readonly EmptyFile[] = [],
  ): Dataset {
    // (The revision's tasks the row path remembers go with the rest of the read-only state.)
    this.lastTasks = undefined;
    return finishDataset(this, inputs, rowsRead, complete, collectGarbage, emptyResults);
  }

  /** What the reader learned about ranked model k, after finish (a K-model read). */
  rankedSummary(k: number): ModelSummary {
    return rankedSummary(this, k);
  }
}

/** a + b for safe integers a, b ≥ 0 when the sum is a safe integer; else (or when a < 0) -1. */
function safeSum(a: number, b: number): number {
  return a < 0 || b > Number.MAX_SAFE_INTEGER - a ? -1 : a + b;
}

/** The fingerprint of an attempt row's metrics (0: none). */
function fingerprintOf(row: ExportRow): number {
  return row.metricCount === 0 ? 0 : metricsFingerprint(row.metricNames, row.metricValues, row.metricCount);
}
