/**
 * Safety caps of the input reader (SPEC §1.1). They bound memory and keep messages readable; a
 * value over a cap is an input error, never silently cut.
 */

/** Longest accepted line, in bytes of UTF-8 (without the LF; a CR before it counts). Checked while
 * splitting, before JSON.parse, so an overlong line is never held whole in memory. */
export const MAX_LINE_BYTES = 1024 * 1024;

/** Longest accepted identifier, in UTF-16 code units: task_id, dataset_revision, harness_revision,
 * model_config, a string attempt, cluster, reviewer. */
export const MAX_ID_LENGTH = 4096;

/** Longest accepted evidence item (a path or URL), in UTF-16 code units. */
export const MAX_EVIDENCE_LENGTH = 8192;

/** Longest accepted review note, in UTF-16 code units. */
export const MAX_NOTE_LENGTH = 65536;

/** Evidence items kept per task (TaskRecord.evidence) and per history event, first seen first.
 * A report shows a handful of links per task; more would only grow memory with the row count. */
export const MAX_EVIDENCE_PER_TASK = 20;

/** Metric names (`metrics`, `metrics_sum`, `metrics_n`; SPEC §1.1): a lowercase letter, then up to
 * 63 lowercase letters, digits and underscores. */
export const METRIC_NAME = /^[a-z][a-z0-9_]{0,63}$/;

/** Metrics one row may carry, and distinct metric names one read holds: names are kept per
 * (model, task) as columns, so the count bounds the memory a metric adds. */
export const MAX_METRICS = 256;

/** Distinct benchmarks one read holds (a task's benchmark is a small number in a column). */
export const MAX_BENCHMARKS = 10_000;

/** How many model_config ids an "unknown model id" error lists before it only counts the rest. */
export const MAX_LISTED_MODEL_IDS = 20;

/** How many input files one read accepts (results and reviews together). */
export const MAX_INPUT_FILES = 10_000;

/** Lines per file the reader can number (file:line locations are packed into one safe integer). */
export const MAX_LINES_PER_FILE = 2 ** 32 - 1;

/**
 * Caps on what the reader holds in memory. Memory grows with distinct tasks, labels, attempt ids
 * and kept text, not with rows; these caps turn an export that would exhaust the heap (and kill
 * the process with a native stack trace) into an input error naming the line where a cap was
 * passed. Each is far above real exports (SWE-Bench Pro has ~1,900 tasks; 100,000 tasks with
 * 50-character ids hold ~50 MB).
 */
export interface InputLimits {
  /** Distinct tasks (dataset_revision, task_id) over every model's rows: ~400 bytes each plus ids. */
  readonly maxTasks: number;
  /** Distinct model_config ids. */
  readonly maxModels: number;
  /** Distinct (review_revision, validity) labels of one task. */
  readonly maxLabelsPerTask: number;
  /** Attempt ids of the two compared models held to fold repeated attempts: ~50 bytes each. */
  readonly maxAttemptIds: number;
  /** UTF-16 code units of text held: distinct ids and revisions, clusters, string attempt ids,
   * kept evidence items, reviewers and notes. */
  readonly maxHeldChars: number;
}

export const DEFAULT_INPUT_LIMITS: InputLimits = {
  maxTasks: 1_000_000,
  maxModels: 10_000,
  maxLabelsPerTask: 1_000,
  maxAttemptIds: 20_000_000,
  maxHeldChars: 256 * 1024 * 1024,
};

/**
 * Tasks from which the reader asks for a full collection (ReadOptions.collectGarbage) where a
 * large read leaves most of its memory as garbage; a smaller read's garbage is a few MB.
 */
export const COLLECT_MIN_TASKS = 100_000;
