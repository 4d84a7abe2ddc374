/**
 * Domain types shared by the reader, the statistics, the decision and the report.
 * SPEC §1.1 (export rows), §1.2 (reviews) and §2 (sets).
 */

export const VALIDITIES = ["unreviewed", "valid", "broken", "disputed"] as const;
export type Validity = (typeof VALIDITIES)[number];

export const RESULTS = ["pass", "fail", "infra_error", "missing"] as const;
export type AttemptResult = (typeof RESULTS)[number];

/** Counts of one model's attempts on one task, by result. */
export interface AttemptCounts {
  pass: number;
  fail: number;
  infra_error: number;
  missing: number;
}

/** Where a fact came from: a file and a 1-based line. */
export interface Source {
  readonly file: string;
  readonly line: number;
}

/** One validity label of a task at one review revision (kept as history, never overwritten). */
export interface ReviewEvent {
  readonly revision: number;
  readonly validity: Validity;
  readonly source: Source;
  readonly reviewer?: string;
  readonly note?: string;
  readonly evidence: readonly string[];
}

/**
 * Placeholder revisions. A harness revision that is `unknown` or begins with `unknown:` (the
 * letters in any case) is reserved to say "no revision is known": the importers write
 * `unknown:<kind>` when the source names no harness. A placeholder is a label, not a revision, so
 * it never satisfies "same harness revision" and fails "real harness revisions" (SPEC §4; README
 * "Placeholder harness revisions").
 */
export const PLACEHOLDER_REVISION_PREFIX = "unknown:";

export function isPlaceholderRevision(revision: string): boolean {
  return /^unknown(?::|$)/i.test(revision);
}

/** A task is keyed by (dataset_revision, task_id). */
export interface TaskKey {
  readonly datasetRevision: string;
  readonly taskId: string;
}

/** Locale-independent string order (UTF-16 code units), so outputs do not depend on the machine's locale. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Everything the gate knows about one task after reading the export and the reviews. */
export interface TaskRecord extends TaskKey {
  /** Effective validity: the label at the highest review revision (SPEC §1.2). */
  readonly validity: Validity;
  readonly reviewRevision: number;
  /** Distinct (revision, label) events, ascending by revision then source; includes the effective one. */
  readonly history: readonly ReviewEvent[];
  /** Evidence paths/URLs from rows and reviews, de-duplicated, in first-seen order. */
  readonly evidence: readonly string[];
  /** `cluster` of the task's rows, when given (one value per task; a conflict is an input error). */
  readonly cluster?: string;
  /** Attempt counts of the baseline and the candidate; undefined when that model has no row. */
  readonly baseline?: AttemptCounts;
  readonly candidate?: AttemptCounts;
}

/** What the reader learned about one of the two compared models. */
export interface ModelSummary {
  readonly config: string;
  /** Sorted, distinct harness revisions of this model's rows. */
  readonly harnessRevisions: readonly string[];
  /** Sorted, distinct dataset revisions of this model's rows. */
  readonly datasetRevisions: readonly string[];
  /** Rows that repeated an attempt already seen with the same result (SPEC §1.1). */
  readonly duplicateRows: number;
}

export interface InputFileDigest {
  readonly path: string;
  readonly sha256: string;
}

/**
 * Labels that match no compared task (README "Reviews that match nothing"): rows of one reviews
 * file, or the export's labelled tasks of other models (`file` undefined), under dataset
 * revisions that no task of the baseline or the candidate has.
 */
export interface UnmatchedLabels {
  readonly file?: string;
  /** Review rows (a reviews file) or labelled tasks (the export) under those revisions. */
  readonly rows: number;
  /** All rows of the reviews file; undefined for the export. */
  readonly of: number | undefined;
  /** The revisions, sorted (a reviews file names at most 100; `moreRevisions` when it names more). */
  readonly revisions: readonly string[];
  readonly moreRevisions: boolean;
}

/** The reader's output: the whole input reduced to per-(model, task) counts. */
export interface Dataset {
  /** Tasks that appear for the baseline or the candidate, sorted by (dataset_revision, task_id). Broken included. */
  readonly tasks: readonly TaskRecord[];
  readonly baseline: ModelSummary;
  readonly candidate: ModelSummary;
  /** Every model_config seen in the export, sorted. */
  readonly modelsPresent: readonly string[];
  /** Results files then reviews files, in the order given. */
  readonly inputs: readonly InputFileDigest[];
  /** Rows read in all (non-blank lines), for the report. */
  readonly rowsRead: number;
  /** Sorted, distinct review revisions seen (export and reviews). */
  readonly reviewRevisions: readonly number[];
  /** Present when some labels match no compared task (a headline warning). */
  readonly unmatchedLabels?: readonly UnmatchedLabels[];
}
