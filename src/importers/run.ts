/**
 * runImport: read the input (and the task list), run the importer of the kind, then apply the
 * shared defaults (model config, harness and dataset revisions, review revision, validity) and
 * serialise sorted JSONL lines with a fixed key order.
 */
import { InputError } from "../core/errors.js";
import { PLACEHOLDER_REVISION_PREFIX, isPlaceholderRevision } from "../core/model.js";
import {
  type ExportRow,
  type TaskList,
  addRepoClusters,
  compareIds,
  computeDatasetRevision,
  exportLines,
  fileError,
  listSome,
  parseTaskList,
  resultCounts,
  reviewLines,
} from "./common.js";
import { checkExportValues, checkReviewValues } from "./written-values.js";
import { checkOutputLines, checkRows, DEFAULT_IMPORT_LIMITS } from "./caps.js";
import { planInputs, plannedFiles, readPlanned, readTextFile, resolverFor } from "./read-inputs.js";

export { MAX_IMPORT_BYTES } from "./caps.js";
import { importInspect } from "./inspect.js";
import { importReviewsCsv } from "./reviews-csv.js";
import { importSwebenchLeaderboard } from "./swebench-leaderboard.js";
import { importSwebenchPro } from "./swebench-pro.js";
import { importSwebenchProAudit } from "./swebench-pro-audit.js";
import { importSwebenchReport } from "./swebench-report.js";
import { importLmEval } from "./lm-eval.js";
import { importPromptfoo } from "./promptfoo.js";
import { importSwebenchResults } from "./swebench-results.js";
import { importTable } from "./table.js";
import { importTerminalBench } from "./terminal-bench.js";
import {
  IMPORT_KINDS,
  type ImportKind,
  type ImportOptions,
  type ImportResult,
  type DefaultValue,
  type ImporterInput,
  type RelatedFile,
  RESULT_KINDS,
  type ResultsDraft,
  type ReviewsDraft,
} from "./types.js";
import { importVerifiedAnnotations } from "./verified-annotations.js";

/** Default review revision of a results export: below any reviews file's default. */
export const DEFAULT_EXPORT_REVIEW_REVISION = 0;
/** Default review revision of a reviews file: above the exports' default, so its labels decide. */
export const DEFAULT_REVIEWS_REVIEW_REVISION = 1;

const RESULT_IMPORTERS: Partial<Record<ImportKind, (input: ImporterInput) => ResultsDraft>> = {
  "swebench-report": importSwebenchReport,
  "swebench-results": importSwebenchResults,
  "swebench-leaderboard": importSwebenchLeaderboard,
  "swebench-pro": importSwebenchPro,
  inspect: importInspect,
  "terminal-bench": importTerminalBench,
  promptfoo: importPromptfoo,
  "lm-eval": importLmEval,
  table: importTable,
};

const REVIEW_IMPORTERS: Partial<Record<ImportKind, (input: ImporterInput) => ReviewsDraft>> = {
  "verified-annotations": importVerifiedAnnotations,
  "swebench-pro-audit": importSwebenchProAudit,
  "reviews-csv": importReviewsCsv,
};

/** Kinds whose task ids are SWE-bench instance ids: `cluster` is the repository (--cluster). */
const REPO_CLUSTER_KINDS: ReadonlySet<ImportKind> = new Set<ImportKind>([
  "swebench-report",
  "swebench-results",
  "swebench-leaderboard",
  "swebench-pro",
]);

/** The files an import reads, as the user named them: FILE (or the files found from it), --tasks. */
export async function importInputs(opts: ImportOptions): Promise<string[]> {
  const files = plannedFiles(await planInputs(opts, resolverFor(opts.cwd)));
  return opts.tasks !== undefined ? [...files, opts.tasks] : files;
}

export async function runImport(opts: ImportOptions): Promise<ImportResult> {
  if (!(IMPORT_KINDS as readonly string[]).includes(opts.kind)) {
    throw new InputError(
      `unknown import kind ${JSON.stringify(opts.kind)}; kinds: ${IMPORT_KINDS.join(", ")}`,
    );
  }
  checkOptions(opts);
  const at = resolverFor(opts.cwd);
  const limits = opts.limits ?? DEFAULT_IMPORT_LIMITS;
  const read = await readPlanned(await planInputs(opts, at), opts.kind, limits);
  let tasks: TaskList | undefined;
  if (opts.tasks !== undefined) {
    tasks = parseTaskList(opts.tasks, await readTextFile(at(opts.tasks), "task list", opts.tasks, limits));
  }
  return importText(opts, read.text, tasks, read.files, read);
}

/**
 * The import itself, on text already read (used by runImport and by tests); `files` holds the
 * texts of a directory kind's files, by name; `more` the bytes of a binary FILE and the files
 * read beside it.
 */
export function importText(
  opts: ImportOptions,
  text: string,
  tasks: TaskList | undefined,
  files?: Readonly<Record<string, string>>,
  more: { bytes?: Uint8Array; related?: readonly RelatedFile[] } = {},
): ImportResult {
  const input: ImporterInput = {
    opts,
    text,
    tasks,
    ...(files !== undefined ? { files } : {}),
    ...(more.bytes !== undefined ? { bytes: more.bytes } : {}),
    ...(more.related !== undefined ? { related: more.related } : {}),
  };
  const results = RESULT_IMPORTERS[opts.kind];
  if (results !== undefined) return finishResults(opts, results(input));
  const reviews = REVIEW_IMPORTERS[opts.kind];
  if (reviews !== undefined) return finishReviews(opts, reviews(input));
  throw new InputError(`unknown import kind ${JSON.stringify(opts.kind)}`);
}

function checkOptions(opts: ImportOptions): void {
  const nonEmpty = (v: string | undefined, flag: string) => {
    if (v !== undefined && v.trim() === "") throw new InputError(`${flag}: expected a non-empty value`);
  };
  nonEmpty(opts.modelConfig, "--model-config");
  nonEmpty(opts.datasetRevision, "--dataset-revision");
  nonEmpty(opts.harnessRevision, "--harness-revision");
  nonEmpty(opts.reviewer, "--reviewer");
  if (
    opts.reviewRevision !== undefined &&
    (!Number.isInteger(opts.reviewRevision) || opts.reviewRevision < 0)
  ) {
    throw new InputError(`--review-revision: expected an integer ≥ 0, found ${opts.reviewRevision}`);
  }
  const brokenAt = opts.brokenAt ?? 3;
  const disputedAt = opts.disputedAt ?? 2;
  if (disputedAt > brokenAt) {
    throw new InputError(
      `--disputed-at ${disputedAt} is above --broken-at ${brokenAt}: nothing could be disputed`,
    );
  }
}

function revisionNote(
  opts: ImportOptions,
  taskIds: readonly string[],
  from: string,
  byImporter?: DefaultValue,
): { value: string; note: string; from: string } {
  if (opts.datasetRevision !== undefined) {
    return {
      value: opts.datasetRevision,
      note: `dataset_revision: ${opts.datasetRevision} (--dataset-revision)`,
      from: "--dataset-revision",
    };
  }
  if (byImporter !== undefined) {
    return {
      ...byImporter,
      note: `dataset_revision: ${byImporter.value} (${byImporter.from}; --dataset-revision to set it)`,
    };
  }
  const value = computeDatasetRevision(taskIds);
  return {
    value,
    from: "computed",
    note:
      `dataset_revision: ${value} (computed: sha256 of the ${new Set(taskIds).size} task ids in ${from}, ` +
      `sorted by UTF-8 bytes and joined by "\\n"; --dataset-revision to set it)`,
  };
}

function finishResults(opts: ImportOptions, draft: ResultsDraft): ImportResult {
  const notes = [...draft.notes];
  const rows: ExportRow[] = draft.rows;
  if (rows.length === 0) fileError(opts.file, "nothing to import: no task found");
  const limits = opts.limits ?? DEFAULT_IMPORT_LIMITS;
  checkRows(rows, opts.file, (r) => r.task_id, limits);
  if (REPO_CLUSTER_KINDS.has(opts.kind)) addRepoClusters(rows, opts.cluster ?? "auto", opts.file, notes);

  const modelConfig = chooseModelConfig(opts, draft, notes);
  const harness = chooseHarnessRevision(opts, draft, notes);
  const dataset = revisionNote(opts, draft.taskIds, draft.taskIdsFrom, draft.datasetRevision);
  notes.push(dataset.note);
  const validity = opts.validity ?? "unreviewed";
  const reviewRevision = opts.reviewRevision ?? DEFAULT_EXPORT_REVIEW_REVISION;
  notes.push(
    `validity: ${validity} at review_revision ${reviewRevision}` +
      (opts.validity === undefined && opts.reviewRevision === undefined
        ? " (defaults: labels come from a reviews file at a higher revision; --validity, --review-revision)"
        : ""),
  );
  for (const n of resultCounts(rows, modelConfig.value)) notes.push(n);
  // A shared value is written only on rows that do not name their own.
  checkExportValues(
    rows,
    [
      ...(rows.some((r) => r.model_config === undefined) ? [{ field: "model_config", ...modelConfig }] : []),
      ...(rows.some((r) => r.harness_revision === undefined)
        ? [{ field: "harness_revision", ...harness }]
        : []),
      { field: "dataset_revision", value: dataset.value, from: dataset.from },
    ],
    opts.file,
  );
  const lines = exportLines(rows, {
    datasetRevision: dataset.value,
    harnessRevision: harness.value,
    modelConfig: modelConfig.value,
    validity,
    reviewRevision,
    ...(opts.benchmark !== undefined ? { benchmark: opts.benchmark } : {}),
  });
  checkOutputLines(lines, opts.file, limits);
  return { lines, notes };
}

/**
 * The model config of rows that do not name their own: --model-config, else the importer's
 * default. When the rows name their own (several configs in one file), --model-config may only
 * rename a single one.
 */
function chooseModelConfig(opts: ImportOptions, draft: ResultsDraft, notes: string[]): DefaultValue {
  const own = [...new Set(draft.rows.flatMap((r) => (r.model_config === undefined ? [] : [r.model_config])))];
  own.sort(compareIds);
  if (own.length > 0 && opts.modelConfig !== undefined) {
    if (own.length > 1) {
      fileError(
        opts.file,
        `--model-config would give the ${own.length} model configs of the file (${listSome(own)}) one name; ` +
          (draft.pickOne ?? "import each on its own"),
      );
    }
    for (const r of draft.rows) delete r.model_config;
    notes.push(`model_config: ${opts.modelConfig} (--model-config; the file's ${own[0] ?? ""})`);
    return { value: opts.modelConfig, from: "--model-config" };
  }
  if (own.length > 0) {
    notes.push(
      `model_config: ${own.length === 1 ? "" : `${own.length} configs, `}${listSome(own)} (${draft.modelConfig.from})`,
    );
    return draft.modelConfig;
  }
  if (opts.modelConfig !== undefined) {
    notes.push(`model_config: ${opts.modelConfig} (--model-config)`);
    return { value: opts.modelConfig, from: "--model-config" };
  }
  notes.push(
    `model_config: ${draft.modelConfig.value} (default: ${draft.modelConfig.from}; --model-config to set it)`,
  );
  return draft.modelConfig;
}

/** The harness revision of rows that do not name their own: the flag, the importer's default, a placeholder. */
function chooseHarnessRevision(opts: ImportOptions, draft: ResultsDraft, notes: string[]): DefaultValue {
  const own = new Map<string, number>();
  for (const r of draft.rows) {
    if (r.harness_revision !== undefined) own.set(r.harness_revision, (own.get(r.harness_revision) ?? 0) + 1);
  }
  if (opts.harnessRevision !== undefined) {
    const value = opts.harnessRevision;
    for (const r of draft.rows) delete r.harness_revision;
    notes.push(
      `harness_revision: ${value} (--harness-revision)` +
        (own.size > 1
          ? `; the file's rows named ${own.size}: ${listSome([...own.keys()].sort(compareIds))}`
          : "") +
        (isPlaceholderRevision(value)
          ? `; WARNING: "unknown" and "unknown:…" are reserved placeholders, which the gate's harness checks never accept`
          : ""),
    );
    return { value, from: "--harness-revision" };
  }
  if (own.size > 0) {
    const counts = [...own.keys()].sort(compareIds).map((h) => `${h} (${own.get(h)} rows)`);
    notes.push(
      `harness_revision: per row, ${listSome(counts)} (${draft.rowHarnessFrom ?? "the file"}; --harness-revision)`,
    );
  }
  if (draft.harnessRevision !== undefined) {
    const { value, from } = draft.harnessRevision;
    if (own.size === 0) notes.push(`harness_revision: ${value} (default: ${from}; --harness-revision)`);
    return draft.harnessRevision;
  }
  // The reserved placeholder prefix (docs/spec.md §4.2 "Placeholder harness revisions"): the gate never
  // takes it for a revision, so "same harness revision" cannot pass on it.
  const value = `${PLACEHOLDER_REVISION_PREFIX}${opts.kind}`;
  if (own.size === 0 || draft.rows.some((r) => r.harness_revision === undefined)) {
    notes.push(
      `harness_revision: ${value} (default: the file names no harness; a placeholder, not a revision: ` +
        `the gate's harness checks fail on it; --harness-revision to set a real one)`,
    );
  }
  return { value, from: "the placeholder for a file that names no harness" };
}

function finishReviews(opts: ImportOptions, draft: ReviewsDraft): ImportResult {
  const notes = [...draft.notes];
  if (draft.rows.length === 0) fileError(opts.file, "nothing to import: no labelled task found");
  const limits = opts.limits ?? DEFAULT_IMPORT_LIMITS;
  checkRows(draft.rows, opts.file, (r) => `${r.dataset_revision ?? ""}\u0000${r.task_id}`, limits);
  const needsRevision = draft.rows.some((r) => r.dataset_revision === undefined);
  let datasetRevision = "";
  if (needsRevision) {
    const d = revisionNote(opts, draft.taskIds, draft.taskIdsFrom);
    datasetRevision = d.value;
    notes.push(d.note);
    if (opts.datasetRevision === undefined && opts.tasks === undefined) {
      // The results' revision is the hash of their own ids: it equals this one only for exactly these tasks.
      notes.push(
        `warning: the results will likely carry another dataset_revision, and reviews apply only to tasks of the same one: ` +
          `results imported without --tasks get the hash of their own task ids, which is this one only if they have exactly ` +
          `these ${new Set(draft.taskIds).size} tasks. Pass the results' dataset revision (--dataset-revision; their import ` +
          `prints it) or the same --tasks list`,
      );
    }
  }
  const reviewRevision = opts.reviewRevision ?? DEFAULT_REVIEWS_REVIEW_REVISION;
  notes.push(
    `review_revision: ${reviewRevision}` +
      (opts.reviewRevision === undefined
        ? " (default for reviews files: above the exports' default 0, so these labels decide; --review-revision)"
        : " (--review-revision)"),
  );
  const rows = draft.rows.map((r) => {
    const row = {
      task_id: r.task_id,
      dataset_revision: r.dataset_revision ?? datasetRevision,
      validity: r.validity,
      review_revision: reviewRevision,
      evidence: r.evidence,
    };
    return {
      ...row,
      ...(r.reviewer !== undefined ? { reviewer: r.reviewer } : {}),
      ...(r.note !== undefined ? { note: r.note } : {}),
    };
  });
  checkReviewValues(
    rows.map((r, i) => {
      const from = draft.rows[i]?.from;
      return from === undefined ? r : { ...r, from };
    }),
    opts.file,
  );
  const lines = reviewLines(rows, opts.benchmark);
  checkOutputLines(lines, opts.file, limits);
  notes.push(`${lines.length} review rows`);
  return { lines, notes };
}

/** True when the kind writes a results export (§1.1) rather than a reviews file (§1.2). */
export function isResultsKind(kind: ImportKind): boolean {
  return RESULT_KINDS.includes(kind);
}
