/**
 * runImport: read the input (and the task list), run the importer of the kind, then apply the
 * shared defaults (model config, harness and dataset revisions, review revision, validity) and
 * serialise sorted JSONL lines with a fixed key order.
 */
import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { isUtf8 } from "node:buffer";
import { describeKind, inputFileProblem, readRegularFile } from "../io/file-kind.js";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { InputError } from "../core/errors.js";
import { PLACEHOLDER_REVISION_PREFIX, isPlaceholderRevision } from "../core/model.js";
import {
  type ExportRow,
  type TaskList,
  addRepoClusters,
  computeDatasetRevision,
  exportLines,
  fileError,
  inDirectory,
  parseTaskList,
  resultCounts,
  reviewLines,
} from "./common.js";
import { checkLines, checkOutputLines, checkRows, DEFAULT_IMPORT_LIMITS, type ImportLimits } from "./caps.js";
import { importInspect } from "./inspect.js";
import { importReviewsCsv } from "./reviews-csv.js";
import { importSwebenchLeaderboard } from "./swebench-leaderboard.js";
import { importSwebenchPro } from "./swebench-pro.js";
import { PRO_AUDIT_FILES, importSwebenchProAudit } from "./swebench-pro-audit.js";
import { importSwebenchReport } from "./swebench-report.js";
import { importSwebenchResults } from "./swebench-results.js";
import {
  IMPORT_KINDS,
  type ImportKind,
  type ImportOptions,
  type ImportResult,
  type ImporterInput,
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
};

const REVIEW_IMPORTERS: Partial<Record<ImportKind, (input: ImporterInput) => ReviewsDraft>> = {
  "verified-annotations": importVerifiedAnnotations,
  "swebench-pro-audit": importSwebenchProAudit,
  "reviews-csv": importReviewsCsv,
};

/** Kinds whose FILE is line-oriented (CSV): the line caps apply (a directory kind's files always). */
const LINE_KINDS: ReadonlySet<ImportKind> = new Set<ImportKind>(["reviews-csv", "verified-annotations"]);

/** Kinds whose FILE is a directory, and the files read from it. */
const DIRECTORY_KINDS: Partial<Record<ImportKind, readonly string[]>> = {
  "swebench-pro-audit": Object.values(PRO_AUDIT_FILES),
};

/**
 * Reads a text file; `.gz` files are decompressed. A missing file is an input error naming the
 * file as the user gave it (`shown`). With `lines` (CSV, TSV, Markdown, a task list), the line caps
 * of caps.ts hold too.
 */
export async function readTextFile(
  path: string,
  what: string,
  shown: string = path,
  lines: ImportLimits | null = null,
): Promise<string> {
  let data: Buffer;
  try {
    // Regular files only (a FIFO or /dev/zero is refused before reading), at most the cap.
    data = await readRegularFile(path, MAX_IMPORT_BYTES);
  } catch (error) {
    const why = inputFileProblem(error);
    if (why === null) throw error;
    throw new InputError(`cannot read the ${what} ${shown}: ${why}`);
  }
  if (path.toLowerCase().endsWith(".gz")) {
    try {
      // The cap holds for the inflated bytes too: a gzip bomb stops at it, in bounded memory.
      data = gunzipSync(data, { maxOutputLength: MAX_IMPORT_BYTES });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE")
        fileError(shown, `the file inflates to more than ${MAX_IMPORT_BYTES} bytes (the import limit)`);
      fileError(shown, "the file ends in .gz but is not gzip data");
    }
  }
  if (lines !== null) checkLines(data, shown, path.toLowerCase().endsWith(".gz"), lines);
  if (!isUtf8(data)) {
    // Decoding would write U+FFFD into the export: name where the bad bytes start instead.
    const back = Buffer.from(data.toString("utf8"), "utf8");
    let i = 0;
    while (i < data.length && data[i] === back[i]) i++;
    const lineStart = data.lastIndexOf(0x0a, i - 1) + 1;
    let line = 1;
    for (let j = 0; j < lineStart; j++) if (data[j] === 0x0a) line++;
    throw new InputError(
      `${shown}:${line}: the file is not valid UTF-8 text (byte ${i + 1} of the ${path.toLowerCase().endsWith(".gz") ? "inflated " : ""}file, column ${i - lineStart + 1} of the line)`,
    );
  }
  return data.toString("utf8");
}

/**
 * Largest importer input, in bytes, read or inflated (256 MiB): importers hold the whole text, and
 * V8 cannot make a string much past 512 MiB.
 */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

/** The files an import reads, as the user named them: FILE (or a directory kind's files), --tasks. */
export function importInputs(opts: ImportOptions): string[] {
  const names = DIRECTORY_KINDS[opts.kind];
  const files = names === undefined ? [opts.file] : names.map((n) => inDirectory(opts.file, n));
  return opts.tasks !== undefined ? [...files, opts.tasks] : files;
}

/** A directory kind's FILE must be a directory: say so, and which files it must hold. */
async function checkDirectory(path: string, shown: string, kind: ImportKind, names: readonly string[]) {
  let st: Stats;
  try {
    st = await stat(path);
  } catch (error) {
    const why = inputFileProblem(error);
    if (why === null) throw error;
    throw new InputError(`cannot read the ${kind} directory ${shown}: ${why}`);
  }
  if (!st.isDirectory()) {
    throw new InputError(
      `${shown}: ${kind} reads a directory (holding ${names.join(", ")}), but this is ${describeKind(st)}`,
    );
  }
}

export async function runImport(opts: ImportOptions): Promise<ImportResult> {
  if (!(IMPORT_KINDS as readonly string[]).includes(opts.kind)) {
    throw new InputError(
      `unknown import kind ${JSON.stringify(opts.kind)}; kinds: ${IMPORT_KINDS.join(", ")}`,
    );
  }
  checkOptions(opts);
  const at = (p: string) => (opts.cwd === undefined ? p : resolve(opts.cwd, p));
  const names = DIRECTORY_KINDS[opts.kind];
  const limits = opts.limits ?? DEFAULT_IMPORT_LIMITS;

  let text = "";
  let files: Record<string, string> | undefined;
  if (names === undefined) {
    text = await readTextFile(
      at(opts.file),
      "input file",
      opts.file,
      LINE_KINDS.has(opts.kind) ? limits : null,
    );
  } else {
    await checkDirectory(at(opts.file), opts.file, opts.kind, names);
    files = {};
    for (const name of names) {
      files[name] = await readTextFile(
        join(at(opts.file), name),
        `${opts.kind} file`,
        inDirectory(opts.file, name),
        limits,
      );
    }
  }
  let tasks: TaskList | undefined;
  if (opts.tasks !== undefined) {
    tasks = parseTaskList(opts.tasks, await readTextFile(at(opts.tasks), "task list", opts.tasks, limits));
  }
  return importText(opts, text, tasks, files);
}

/**
 * The import itself, on text already read (used by runImport and by tests); `files` holds the
 * texts of a directory kind's files, by name.
 */
export function importText(
  opts: ImportOptions,
  text: string,
  tasks: TaskList | undefined,
  files?: Readonly<Record<string, string>>,
): ImportResult {
  const input: ImporterInput = files === undefined ? { opts, text, tasks } : { opts, text, tasks, files };
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
): { value: string; note: string } {
  if (opts.datasetRevision !== undefined) {
    return {
      value: opts.datasetRevision,
      note: `dataset_revision: ${opts.datasetRevision} (--dataset-revision)`,
    };
  }
  const value = computeDatasetRevision(taskIds);
  return {
    value,
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
  if (opts.kind !== "inspect") addRepoClusters(rows, opts.cluster ?? "auto", opts.file, notes);

  const modelConfig = opts.modelConfig ?? draft.modelConfig.value;
  notes.push(
    opts.modelConfig !== undefined
      ? `model_config: ${modelConfig} (--model-config)`
      : `model_config: ${modelConfig} (default: ${draft.modelConfig.from}; --model-config to set it)`,
  );
  let harnessRevision: string;
  if (opts.harnessRevision !== undefined) {
    harnessRevision = opts.harnessRevision;
    notes.push(
      `harness_revision: ${harnessRevision} (--harness-revision)` +
        (isPlaceholderRevision(harnessRevision)
          ? `; WARNING: "unknown" and "unknown:…" are reserved placeholders, which the gate's harness checks never accept`
          : ""),
    );
  } else if (draft.harnessRevision !== undefined) {
    harnessRevision = draft.harnessRevision.value;
    notes.push(
      `harness_revision: ${harnessRevision} (default: ${draft.harnessRevision.from}; --harness-revision)`,
    );
  } else {
    // The reserved placeholder prefix (docs/spec.md §4.2 "Placeholder harness revisions"): the gate never
    // takes it for a revision, so "same harness revision" cannot pass on it.
    harnessRevision = `${PLACEHOLDER_REVISION_PREFIX}${opts.kind}`;
    notes.push(
      `harness_revision: ${harnessRevision} (default: the file names no harness; a placeholder, not a revision: ` +
        `the gate's harness checks fail on it; --harness-revision to set a real one)`,
    );
  }
  const dataset = revisionNote(opts, draft.taskIds, draft.taskIdsFrom);
  notes.push(dataset.note);
  const validity = opts.validity ?? "unreviewed";
  const reviewRevision = opts.reviewRevision ?? DEFAULT_EXPORT_REVIEW_REVISION;
  notes.push(
    `validity: ${validity} at review_revision ${reviewRevision}` +
      (opts.validity === undefined && opts.reviewRevision === undefined
        ? " (defaults: labels come from a reviews file at a higher revision; --validity, --review-revision)"
        : ""),
  );
  notes.push(resultCounts(rows));
  const lines = exportLines(rows, {
    datasetRevision: dataset.value,
    harnessRevision,
    modelConfig,
    validity,
    reviewRevision,
  });
  checkOutputLines(lines, opts.file, limits);
  return { lines, notes };
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
  const lines = reviewLines(
    draft.rows.map((r) => {
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
    }),
  );
  checkOutputLines(lines, opts.file, limits);
  notes.push(`${lines.length} review rows`);
  return { lines, notes };
}

/** True when the kind writes a results export (§1.1) rather than a reviews file (§1.2). */
export function isResultsKind(kind: ImportKind): boolean {
  return RESULT_KINDS.includes(kind);
}
