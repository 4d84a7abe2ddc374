/**
 * The importers' options and the shape every importer returns before the shared finishing step
 * (defaults, dataset revision, serialisation) in run.ts.
 */
import type { AttemptResult, Validity } from "../core/model.js";
import type { ImportLimits } from "./caps.js";
import type { ExportRow, SourcePlace, TaskList } from "./common.js";

export const IMPORT_KINDS = [
  "swebench-report",
  "swebench-results",
  "swebench-leaderboard",
  "swebench-pro",
  "inspect",
  "terminal-bench",
  "promptfoo",
  "lm-eval",
  "table",
  "verified-annotations",
  "swebench-pro-audit",
  "reviews-csv",
] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** Kinds that write a SPEC §1.1 results export; the others write a §1.2 reviews file. */
export const RESULT_KINDS: readonly ImportKind[] = [
  "swebench-report",
  "swebench-results",
  "swebench-leaderboard",
  "swebench-pro",
  "inspect",
  "terminal-bench",
  "promptfoo",
  "lm-eval",
  "table",
];

/** What an instance without a patch (SWE-bench `empty_patch_ids` / `no_generation`) counts as. */
export const NO_PATCH_RESULTS = ["fail", "missing", "infra_error"] as const;
export type NoPatchResult = (typeof NO_PATCH_RESULTS)[number];

export const CLUSTER_MODES = ["auto", "repo", "none"] as const;
export type ClusterMode = (typeof CLUSTER_MODES)[number];

export const OTHER_ISSUES_RULES = ["broken", "disputed", "ignore"] as const;
export type OtherIssuesRule = (typeof OTHER_ISSUES_RULES)[number];

/** swebench-pro-audit: the label of a claim of CLAIMS.md that COVERAGE.md agrees with. */
export const CLAIMED_RULES = ["broken", "disputed"] as const;
export type ClaimedRule = (typeof CLAIMED_RULES)[number];

/** promptfoo: what names a provider's model config. */
export const PROVIDER_NAMES = ["id", "label"] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** table: how FILE is read (default: by its extension, else by its first character). */
export const TABLE_FORMATS = ["csv", "jsonl"] as const;
export type TableFormat = (typeof TABLE_FORMATS)[number];

export interface ImportOptions {
  kind: ImportKind;
  /**
   * The read and write caps (src/importers/caps.ts); default the reader's. Not a flag: set by
   * tests only (docs/choices.md, Input).
   */
  limits?: ImportLimits;
  /**
   * The input file (`.gz` is decompressed), named in evidence and messages as given here; it is
   * read relative to `cwd` when that is set.
   */
  file: string;
  /** Directory that relative `file` and `tasks` paths are read from (default: the process's). */
  cwd?: string;
  /** swebench-leaderboard: the entry, by its `folder` (or, failing that, its `name`). */
  run?: string;
  /** swebench-leaderboard: the board (`leaderboards[].name`, e.g. `Verified`) when a run is on several. */
  board?: string;
  modelConfig?: string;
  datasetRevision?: string;
  harnessRevision?: string;
  /** Default 0 for results exports, 1 for reviews files. */
  reviewRevision?: number;
  /** The `benchmark` written on every row (docs/spec.md §1.1, §1.2); default none (`default`). */
  benchmark?: string;
  /** Results kinds: the `validity` written on every row. Default `unreviewed`. */
  validity?: Validity;
  /** A task list file, one id per line. */
  tasks?: string;
  /** swebench-report / swebench-results: empty patches and `no_generation`. Default `fail`. */
  emptyPatch?: NoPatchResult;
  /** SWE-bench kinds: write the repository as `cluster`. Default `auto`. */
  cluster?: ClusterMode;
  /** inspect: the scorer to read when samples have several. */
  scorer?: string;
  /** inspect, lm-eval: numeric scores ≥ this pass, below fail. */
  passThreshold?: number;
  /** inspect: extra string score values, e.g. `{ P: "fail", N: "fail" }`. */
  scoreMap?: Record<string, AttemptResult>;
  /** verified-annotations: s = max(underspecified, false_negative) ≥ brokenAt → broken. Default 3. */
  brokenAt?: number;
  /** verified-annotations: s ≥ disputedAt (and < brokenAt) → disputed. Default 2. */
  disputedAt?: number;
  /** verified-annotations: what a flagged `other_major_issues` (≥ 1) makes the task. Default `broken`. */
  otherIssues?: OtherIssuesRule;
  /** swebench-pro-audit: what a claimed case COVERAGE.md agrees with is. Default `broken`. */
  claimed?: ClaimedRule;
  /** Reviews kinds: the `reviewer` written on rows that do not name one. */
  reviewer?: string;
  /** terminal-bench: the run's run_metadata.json when it is not beside results.json. */
  runMetadata?: string;
  /** promptfoo: import only this provider (its id or label). */
  provider?: string;
  /** promptfoo: the model config is the provider's id (default) or its label. */
  modelConfigFrom?: ProviderName;
  /** promptfoo: import only this prompt (its label or id); otherwise several prompts name configs. */
  prompt?: string;
  /** lm-eval: the results file, when it is not results_<timestamp>.json beside the samples. */
  resultsJson?: string;
  /** lm-eval: the metric read (default: the one each line's `metrics` list names). */
  metric?: string;
  /** lm-eval: the filter read when the samples have several. */
  filter?: string;
  /** table: export field → column, e.g. `{ task_id: "id", "metrics.cost_usd": "cost" }`. */
  map?: Record<string, string>;
  /** table: result-column values that mean pass, fail, infra_error (each replaces its default). */
  passValues?: readonly string[];
  failValues?: readonly string[];
  infraValues?: readonly string[];
  /** table: csv or jsonl (default: by extension, else by content). */
  format?: TableFormat;
}

/** A file read beside FILE or below it (a Terminal-Bench run's files, lm-eval's results file). */
export interface RelatedFile {
  /** What it is, e.g. `results.json`, `run_metadata.json`. */
  readonly role: string;
  /** Files of one run share a group (its directory as shown). */
  readonly group: string;
  readonly shown: string;
  readonly text: string;
}

export interface ImportResult {
  /** JSONL lines (no trailing newline inside), sorted by task id. */
  lines: string[];
  /** Human notes for stderr: defaults applied, the computed dataset revision, counts, ids left out. */
  notes: string[];
}

/** A default the finishing step applies when the flag is absent, with where it came from. */
export interface DefaultValue {
  readonly value: string;
  readonly from: string;
}

/** What a results importer hands to the finishing step. */
export interface ResultsDraft {
  rows: ExportRow[];
  /** The task universe used for the computed dataset revision (the task list, or the file's ids). */
  taskIds: readonly string[];
  /** Where the task universe came from, for the notes. */
  taskIdsFrom: string;
  /** The model config of rows that name none; for rows that name their own, where they come from. */
  modelConfig: DefaultValue;
  harnessRevision?: DefaultValue;
  /** Where rows that name their own harness revision took it from, for the notes. */
  rowHarnessFrom?: string;
  /** A dataset revision the importer computes in its own way (default: sha256 of taskIds). */
  datasetRevision?: DefaultValue;
  /** How to pick one of several model configs, said when --model-config cannot name them all. */
  pickOne?: string;
  notes: string[];
}

/** One reviews row before the dataset revision is filled in. */
export interface ReviewDraftRow {
  task_id: string;
  /** From a `dataset_revision` column; otherwise the flag or the computed revision is used. */
  dataset_revision?: string;
  validity: Validity;
  reviewer?: string;
  evidence: string[];
  note?: string;
  /** Where the row's values were read, when its first evidence item does not say. */
  from?: SourcePlace;
}

export interface ReviewsDraft {
  rows: ReviewDraftRow[];
  taskIds: readonly string[];
  taskIdsFrom: string;
  notes: string[];
}

/** What every importer receives. */
export interface ImporterInput {
  readonly opts: ImportOptions;
  /** The text of FILE ("" for kinds whose FILE is a directory). */
  readonly text: string;
  readonly tasks: TaskList | undefined;
  /** Kinds whose FILE is a directory (DIRECTORY_KINDS): the text of each file read, by name. */
  readonly files?: Readonly<Record<string, string>>;
  /** Kinds that read binary input (inspect's `.eval` logs): FILE's bytes when they are not text. */
  readonly bytes?: Uint8Array;
  /** Files read beside FILE or below it, in the order found. */
  readonly related?: readonly RelatedFile[];
}
