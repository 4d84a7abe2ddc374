/**
 * Validation of one export row (SPEC §1.1) or one review row (§1.2), by direct checks: this runs
 * once per line, so it allocates nothing on the happy path (one reusable output struct) and only
 * builds messages for bad lines. Each message says what was expected and what the line had.
 *
 * Choices the SPEC leaves open:
 * - `null` in an OPTIONAL field (evidence, attempt, cluster, reviewer, note, and `result` or the
 *   counts when deciding the row's shape) is the same as the field being absent: warehouse and
 *   dataframe exports write null for "no value". A required field that is null is an error.
 * - Identifiers (task_id, dataset_revision, harness_revision, model_config, a string attempt,
 *   cluster, reviewer) must be non-empty, at most MAX_ID_LENGTH long, and free of control
 *   characters (C0 U+0000–U+001F, DEL, C1 U+0080–U+009F). They are map keys (NUL separates the
 *   parts of a task key) and they are printed in terminals and Markdown, where a newline or an
 *   escape sequence could fake report lines or drive the terminal. Tab is refused too: an id
 *   with a tab is a copy-paste accident, and guessing "trim it" is what §1.1 forbids.
 * - Evidence items follow the same rule with MAX_EVIDENCE_LENGTH; an empty evidence string is
 *   ignored (it cannot be a link). A note may hold newlines and tabs (other controls are refused).
 * - `attempt` 1 and `attempt` "1" are different attempts (no type coercion).
 * - A pre-aggregated row carries the four integer counts `passes`, `fails`, `infra_errors`,
 *   `missing` (all four, at least one above 0) instead of `result`, and no `attempt`.
 * - `benchmark` follows the rule of identifiers; the metrics are checked in metric-checks.ts.
 */

import { MAX_EVIDENCE_LENGTH, MAX_ID_LENGTH, MAX_METRICS, MAX_NOTE_LENGTH } from "../limits.js";
import { countKeys, firstRepeatedKey } from "../../core/json-keys.js";
import type { AttemptResult, Validity } from "../../core/model.js";
import { quote, escapeRawText } from "../../core/quote.js";
import { aggregatedMetrics, attemptMetrics, repeatedMetricName } from "./metric-checks.js";
import type { ListHandle } from "./evidence-arena.js";

/** Result index used in packed attempt records: 0 pass, 1 fail, 2 infra_error, 3 missing. */
export const RESULT_NAMES: readonly AttemptResult[] = ["pass", "fail", "infra_error", "missing"];

const RESULT_EXPECTED = "expected one of pass, fail, infra_error, missing";
const VALIDITY_EXPECTED = "expected one of unreviewed, valid, broken, disputed";
export const COUNT_FIELDS = ["passes", "fails", "infra_errors", "missing"] as const;

// eslint-disable-next-line no-control-regex
const ID_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const NOTE_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** How a bad value is shown in a message: short, JSON-escaped, never the whole of a huge value. */
export function describeValue(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (typeof v === "string") {
    if (v.length === 0) return "an empty string";
    return quote(v);
  }
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return "an array";
  return "an object";
}

/** The problems of one line: the first in full, the names of the other fields. */
export class LineIssues {
  field: string | undefined = undefined;
  message: string | undefined = undefined;
  otherFields: string[] | undefined = undefined;

  reset(): void {
    this.field = undefined;
    this.message = undefined;
    this.otherFields = undefined;
  }

  get any(): boolean {
    return this.message !== undefined;
  }

  add(field: string | undefined, message: string): void {
    if (this.message === undefined) {
      this.field = field;
      this.message = message;
    } else if (field !== undefined && field !== this.field && !(this.otherFields ?? []).includes(field)) {
      (this.otherFields ??= []).push(field);
    }
  }

  /** The line's message: the first problem, plus which other fields are also wrong. */
  text(): string {
    const msg = this.message ?? "";
    if (this.otherFields === undefined) return msg;
    const names = this.otherFields.map((f) => `"${f}"`).join(", ");
    return this.otherFields.length === 1
      ? `${msg} (field ${names} on this line is wrong too)`
      : `${msg} (fields ${names} on this line are wrong too)`;
  }
}

/** Fields of a valid export row. Reused between lines: copy what you keep. */
export interface ExportRow {
  taskId: string;
  datasetRevision: string;
  harnessRevision: string;
  modelConfig: string;
  validity: Validity;
  reviewRevision: number;
  /** Index into RESULT_NAMES, or -1 for a pre-aggregated row (then the counts hold). */
  result: number;
  passes: number;
  fails: number;
  infraErrors: number;
  missing: number;
  /** undefined, a non-empty string, or an array of strings (validated). */
  evidence: string | readonly string[] | undefined;
  /**
   * Set only by a RowScanner made with `packEvidence` (the builder's own): the row's evidence list
   * as packed-evidence.ts holds a task's (its items joined by SEPARATOR), with `evidence`
   * undefined. Given only for 2 to MAX_EVIDENCE_PER_TASK items, each non-empty and distinct. A
   * number is the list's handle in the scanner's EvidenceArena (evidence-arena.ts).
   */
  packedEvidence: string | ListHandle | undefined;
  /** How many items packedEvidence holds (0 when it is undefined). */
  packedItems: number;
  attempt: string | number | undefined;
  cluster: string | undefined;
  /** The row's `benchmark` as given (undefined: none, the default). */
  benchmark: string | undefined;
  /**
   * The row's metrics: `metrics` of an attempt row, or `metrics_sum` of a pre-aggregated one, as
   * the first metricCount entries of metricNames (distinct, valid names), metricValues (finite,
   * >= 0) and, for a pre-aggregated row, metricCounts (its `metrics_n`, >= 1: a metric it gives
   * with 0 attempts adds nothing and is left out), in the object's order. Metrics given as null
   * are left out. The arrays are reused between rows: copy what you keep.
   */
  metricCount: number;
  readonly metricNames: string[];
  readonly metricValues: Float64Array;
  readonly metricCounts: Float64Array;
}

export function emptyExportRow(): ExportRow {
  return {
    taskId: "",
    datasetRevision: "",
    harnessRevision: "",
    modelConfig: "",
    validity: "unreviewed",
    reviewRevision: 0,
    result: -1,
    passes: 0,
    fails: 0,
    infraErrors: 0,
    missing: 0,
    evidence: undefined,
    packedEvidence: undefined,
    packedItems: 0,
    attempt: undefined,
    cluster: undefined,
    benchmark: undefined,
    metricCount: 0,
    metricNames: new Array<string>(MAX_METRICS).fill(""),
    metricValues: new Float64Array(MAX_METRICS),
    metricCounts: new Float64Array(MAX_METRICS),
  };
}

/** Fields of a valid review row. Reused between lines. */
export interface ReviewRow {
  taskId: string;
  datasetRevision: string;
  validity: Validity;
  reviewRevision: number;
  evidence: string | readonly string[] | undefined;
  reviewer: string | undefined;
  note: string | undefined;
  /** The review's `benchmark` (undefined: it applies to the task whatever its benchmark). */
  benchmark: string | undefined;
}

export function emptyReviewRow(): ReviewRow {
  return {
    taskId: "",
    datasetRevision: "",
    validity: "unreviewed",
    reviewRevision: 0,
    evidence: undefined,
    reviewer: undefined,
    note: undefined,
    benchmark: undefined,
  };
}

type Obj = Record<string, unknown>;

/** Parses a line into an object, or records why it is not one. */
export function parseObject(text: string, issues: LineIssues): Obj | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    // V8 quotes a snippet of the line in its message: escape what could drive a terminal.
    const why = escapeRawText(e instanceof Error ? e.message : String(e));
    issues.add(undefined, `expected a JSON object; the line is not valid JSON (${why})`);
    return undefined;
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    issues.add(undefined, `expected a JSON object; got ${describeValue(v)}`);
    return undefined;
  }
  // Counting the keys is cheap; finding which one repeats is done only when one does. Nested
  // objects are in fields the gate does not read: only the row's own keys are checked.
  const repeated =
    countKeys(text, "top") === Object.keys(v).length ? undefined : firstRepeatedKey(text, "top")?.key;
  if (repeated !== undefined) {
    // JSON.parse keeps the last value: which one was meant is a guess (SPEC §1.1 guesses nothing).
    issues.add(
      SHOWN_AS_FIELD.test(repeated) ? repeated : undefined,
      `the key ${quote(repeated)} is given twice on this line; expected each field once`,
    );
    return undefined;
  }
  // The metric objects are read too: a name given twice in one is refused like a repeated field.
  const o = v as Obj;
  if (isObject(o["metrics"]) || isObject(o["metrics_sum"]) || isObject(o["metrics_n"])) {
    const twice = repeatedMetricName(text);
    if (twice !== undefined) {
      issues.add(
        SHOWN_AS_FIELD.test(twice.name) ? twice.field : twice.field.slice(0, twice.field.indexOf(".")),
        `the metric ${quote(twice.name)} is given twice in one object on this line; expected each metric once`,
      );
      return undefined;
    }
  }
  return o;
}

function isObject(v: unknown): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A repeated key is named as the problem's field when it reads safely as one. */
const SHOWN_AS_FIELD = /^[A-Za-z0-9_]{1,64}$/;

/**
 * Whether `s` holds a character of ID_FORBIDDEN. `plain` is the line reader's promise that no
 * string of the line can (see line-splitter.ts's LineHandler): a RegExp test of every identifier
 * and evidence item of every line is a cost per line worth avoiding.
 */
function hasControl(s: string, plain: boolean): boolean {
  return !plain && ID_FORBIDDEN.test(s);
}

/** A non-empty identifier without control characters. Returns "" after recording a problem. */
function idField(obj: Obj, field: string, issues: LineIssues, plain: boolean): string {
  const v = obj[field];
  if (typeof v === "string" && v.length > 0 && v.length <= MAX_ID_LENGTH && !hasControl(v, plain)) return v;
  issues.add(field, idProblem(v));
  return "";
}

/** Like idField, for an optional field: undefined when absent or null. */
function optionalIdField(obj: Obj, field: string, issues: LineIssues, plain: boolean): string | undefined {
  const v = obj[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v === "string" && v.length > 0 && v.length <= MAX_ID_LENGTH && !hasControl(v, plain)) return v;
  issues.add(field, idProblem(v));
  return undefined;
}

function idProblem(v: unknown): string {
  if (v === undefined) return "expected a non-empty string; the field is missing";
  if (typeof v !== "string" || v.length === 0) return `expected a non-empty string; got ${describeValue(v)}`;
  if (v.length > MAX_ID_LENGTH) {
    return `expected at most ${MAX_ID_LENGTH} characters; got ${v.length}`;
  }
  return `expected no control characters (U+0000-U+001F, U+007F-U+009F); got ${quote(v)}`;
}

function validityField(obj: Obj, issues: LineIssues): Validity {
  const v = obj["validity"];
  switch (v) {
    case "valid":
    case "disputed":
    case "unreviewed":
    case "broken":
      return v;
    default:
      issues.add(
        "validity",
        v === undefined
          ? `${VALIDITY_EXPECTED}; the field is missing`
          : `${VALIDITY_EXPECTED}; got ${describeValue(v)}`,
      );
      return "unreviewed";
  }
}

function resultIndex(v: unknown): number {
  switch (v) {
    case "pass":
      return 0;
    case "fail":
      return 1;
    case "infra_error":
      return 2;
    case "missing":
      return 3;
    default:
      return -1;
  }
}

/** An integer >= 0 that is a safe integer; -1 after recording a problem. */
function countField(obj: Obj, field: string, issues: LineIssues): number {
  const v = obj[field];
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return v;
  if (v === undefined) {
    issues.add(field, "expected an integer >= 0; the field is missing");
  } else if (typeof v === "number" && Number.isInteger(v) && v > 0) {
    issues.add(field, `expected an integer >= 0 no larger than ${Number.MAX_SAFE_INTEGER}; got ${v}`);
  } else {
    issues.add(field, `expected an integer >= 0; got ${describeValue(v)}`);
  }
  return -1;
}

/** Validated evidence: undefined, a string, or an array of strings (empty strings allowed, ignored later). */
function evidenceField(obj: Obj, issues: LineIssues, plain: boolean): string | readonly string[] | undefined {
  const v = obj["evidence"];
  if (v === undefined || v === null) return undefined;
  if (typeof v === "string") {
    const bad = evidenceItemProblem(v, plain);
    if (bad === undefined) return v;
    issues.add("evidence", bad);
    return undefined;
  }
  if (!Array.isArray(v)) {
    issues.add("evidence", `expected a string or an array of strings; got ${describeValue(v)}`);
    return undefined;
  }
  const items = v as unknown[];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item !== "string") {
      issues.add(`evidence[${i}]`, `expected a string; got ${describeValue(item)}`);
      return undefined;
    }
    const bad = evidenceItemProblem(item, plain);
    if (bad !== undefined) {
      issues.add(`evidence[${i}]`, bad);
      return undefined;
    }
  }
  return items as string[];
}

function evidenceItemProblem(s: string, plain: boolean): string | undefined {
  if (s.length > MAX_EVIDENCE_LENGTH)
    return `expected at most ${MAX_EVIDENCE_LENGTH} characters; got ${s.length}`;
  if (hasControl(s, plain)) {
    return `expected no control characters (U+0000-U+001F, U+007F-U+009F); got ${quote(s)}`;
  }
  return undefined;
}

/**
 * Checks one export row into `out`. Returns false (and fills `issues`) when the row is bad; every
 * field is checked so that the message can name all the wrong ones.
 */
export function checkExportRow(obj: Obj, out: ExportRow, issues: LineIssues, plain = false): boolean {
  out.taskId = idField(obj, "task_id", issues, plain);
  out.datasetRevision = idField(obj, "dataset_revision", issues, plain);
  out.harnessRevision = idField(obj, "harness_revision", issues, plain);
  out.modelConfig = idField(obj, "model_config", issues, plain);
  out.validity = validityField(obj, issues);

  const rawResult = obj["result"];
  const hasResult = rawResult !== undefined && rawResult !== null;
  let countsGiven = 0;
  let firstCount: string | undefined;
  for (const f of COUNT_FIELDS) {
    const c = obj[f];
    if (c !== undefined && c !== null) {
      countsGiven++;
      firstCount ??= f;
    }
  }
  if (hasResult) {
    out.result = resultIndex(rawResult);
    if (out.result < 0) issues.add("result", `${RESULT_EXPECTED}; got ${describeValue(rawResult)}`);
    if (countsGiven > 0) {
      issues.add(
        "result",
        `a row has either "result" (one attempt) or the counts passes, fails, infra_errors, missing ` +
          `(a pre-aggregated row), not both; this one also has "${firstCount ?? ""}"`,
      );
    }
  } else if (countsGiven === 0) {
    out.result = -1;
    issues.add(
      "result",
      `${RESULT_EXPECTED} (or, for a pre-aggregated row, the four counts passes, fails, ` +
        `infra_errors, missing); the field is missing`,
    );
  } else {
    out.result = -1;
    out.passes = countField(obj, "passes", issues);
    out.fails = countField(obj, "fails", issues);
    out.infraErrors = countField(obj, "infra_errors", issues);
    out.missing = countField(obj, "missing", issues);
    if (out.passes === 0 && out.fails === 0 && out.infraErrors === 0 && out.missing === 0) {
      issues.add("passes", "a pre-aggregated row needs at least one count above 0; all four are 0");
    }
  }

  const rev = obj["review_revision"];
  if (typeof rev === "number" && Number.isSafeInteger(rev) && rev >= 0) {
    out.reviewRevision = rev;
  } else {
    countField(obj, "review_revision", issues);
  }

  out.evidence = evidenceField(obj, issues, plain);
  out.packedEvidence = undefined;
  out.packedItems = 0;

  const attempt = obj["attempt"];
  if (attempt === undefined || attempt === null) {
    out.attempt = undefined;
  } else if (!hasResult && countsGiven > 0) {
    issues.add("attempt", "not allowed on a pre-aggregated row (one with counts instead of a result)");
  } else if (typeof attempt === "number") {
    if (Number.isSafeInteger(attempt)) {
      out.attempt = attempt;
    } else {
      issues.add("attempt", `expected a non-empty string or an integer; got ${describeValue(attempt)}`);
    }
  } else if (
    typeof attempt === "string" &&
    attempt.length > 0 &&
    attempt.length <= MAX_ID_LENGTH &&
    !hasControl(attempt, plain)
  ) {
    out.attempt = attempt;
  } else if (typeof attempt === "string") {
    issues.add("attempt", idProblem(attempt));
  } else {
    issues.add("attempt", `expected a non-empty string or an integer; got ${describeValue(attempt)}`);
  }

  out.cluster = optionalIdField(obj, "cluster", issues, plain);
  out.benchmark = optionalIdField(obj, "benchmark", issues, plain);
  if (hasResult) attemptMetrics(obj, out, issues);
  else if (countsGiven > 0) {
    const total =
      out.passes < 0 || out.fails < 0 || out.infraErrors < 0 || out.missing < 0
        ? -1
        : out.passes + out.fails + out.infraErrors + out.missing;
    aggregatedMetrics(obj, out, issues, Number.isSafeInteger(total) ? total : -1);
  } else out.metricCount = 0;
  return !issues.any;
}

/** Checks one review row into `out` (SPEC §1.2). */
export function checkReviewRow(obj: Obj, out: ReviewRow, issues: LineIssues, plain = false): boolean {
  out.taskId = idField(obj, "task_id", issues, plain);
  out.datasetRevision = idField(obj, "dataset_revision", issues, plain);
  out.validity = validityField(obj, issues);
  const rev = obj["review_revision"];
  if (typeof rev === "number" && Number.isSafeInteger(rev) && rev >= 0) {
    out.reviewRevision = rev;
  } else {
    countField(obj, "review_revision", issues);
  }
  out.evidence = evidenceField(obj, issues, plain);
  out.reviewer = optionalIdField(obj, "reviewer", issues, plain);
  out.benchmark = optionalIdField(obj, "benchmark", issues, plain);
  const note = obj["note"];
  if (note === undefined || note === null) {
    out.note = undefined;
  } else if (typeof note !== "string") {
    issues.add("note", `expected a string; got ${describeValue(note)}`);
  } else if (note.length > MAX_NOTE_LENGTH) {
    issues.add("note", `expected at most ${MAX_NOTE_LENGTH} characters; got ${note.length}`);
  } else if (NOTE_FORBIDDEN.test(note)) {
    issues.add("note", `expected no control characters other than tab and line ends; got ${quote(note)}`);
  } else {
    out.note = note;
  }
  return !issues.any;
}
