/**
 * The reader (SPEC §1.1, §1.2, §1.4): results exports and reviews files, plain or gzip, in, one
 * Dataset out, or one InputError that lists every problem found (the first MAX_LISTED_PROBLEMS in
 * full, then the total).
 *
 * One path: bytes → lines (lines/: the file streamed and hashed, split into lines) → rows (rows/:
 * the byte scanner, JSON.parse for any other line, the same checks) → the DatasetBuilder
 * (builder/) → the Dataset. Files are read one after another, results first, then reviews, each
 * once, its SHA-256 computed from the same bytes. Memory grows with the number of (model, task)
 * pairs, not with the number of rows (see dataset-builder.ts).
 */

import { stat } from "node:fs/promises";
import { resolve } from "node:path";

import { InputError, type InputProblem } from "../core/errors.js";
import type { AttemptCounts, Dataset, InputFileDigest, ModelsMetrics, ModelSummary } from "../core/model.js";
import { RankedModels } from "./builder/builder-state.js";
import { DatasetBuilder } from "./builder/dataset-builder.js";
import type { EmptyFile } from "./builder/dataset-finish.js";
import { withDerivedRevisions } from "./derived-revisions.js";
import { tableFileProblem } from "./lines/table-header.js";
import { COLLECT_MIN_TASKS, MAX_ID_LENGTH, MAX_INPUT_FILES, type InputLimits } from "./limits.js";
import { streamLines } from "./lines/file-stream.js";
import { describeFsError } from "./lines/fs-errors.js";
import { lineOf } from "./lines/line-splitter.js";

export {
  DEFAULT_INPUT_LIMITS,
  type InputLimits,
  MAX_EVIDENCE_LENGTH,
  MAX_EVIDENCE_PER_TASK,
  MAX_ID_LENGTH,
  MAX_INPUT_FILES,
  MAX_LINE_BYTES,
  MAX_LINES_PER_FILE,
  MAX_LISTED_MODEL_IDS,
  MAX_NOTE_LENGTH,
} from "./limits.js";

export interface ReadOptions {
  /** One or many results exports (.jsonl or .jsonl.gz; gzip is detected by its magic bytes). */
  readonly results: readonly string[];
  /** Zero or more reviews files (.jsonl or .jsonl.gz). */
  readonly reviews: readonly string[];
  /** model_config id of the baseline. */
  readonly baseline: string;
  /** model_config id of the candidate. */
  readonly candidate: string;
  /** How files are named in messages and provenance; default: the path as given. */
  readonly displayPath?: (absPath: string) => string;
  /**
   * Lower caps on what is held (DEFAULT_INPUT_LIMITS otherwise); set by tests only
   * (docs/choices.md, Input).
   */
  readonly limits?: Partial<InputLimits>;
  /**
   * A read for the rank (readRanked, src/read/read-models.ts): the two models need not appear,
   * and a reviews file that labels none of the read's tasks is listed in the Dataset's
   * unmatchedReviewFiles rather than refused (the rank words that refusal itself).
   */
  readonly pairOfMany?: boolean;
  /**
   * A full garbage collection (src/io/full-collection.ts), asked for in finish() on a read of
   * COLLECT_MIN_TASKS tasks or more, once the read-only state is dropped; never changes the Dataset.
   */
  readonly collectGarbage?: () => void;
  /** What the read asks of V8's young generation as it goes on (src/io/young-generation.ts). */
  readonly youngGeneration?: YoungGeneration;
}

/**
 * The young generation's measures for a large read; neither changes the Dataset. The shells pass
 * src/io/young-generation.ts's.
 */
export interface YoungGeneration {
  /**
   * Called every YOUNG_GENERATION_CHECK_LINES lines of a results file: holds it at a cap, a larger
   * one once the read is task-heavy (COLLECT_MIN_TASKS tasks read).
   */
  readonly cap?: (taskHeavy: boolean) => void;
  /** Called every GZIP_COLLECT_BYTES of a gzip file's lines (file-stream.ts): a young collection. */
  readonly collect?: () => void;
}

/** Lines of a results file between two calls of YoungGeneration.cap (a power of 2). */
export const YOUNG_GENERATION_CHECK_LINES = 4096;

interface InputFile {
  readonly given: string;
  readonly abs: string;
  readonly display: string;
  readonly kind: "results" | "reviews";
  /** Set by checkFiles. */
  bytes: number;
}

function checkOptions(opts: ReadOptions): void {
  const problems: InputProblem[] = [];
  for (const role of ["baseline", "candidate"] as const) {
    const id = opts[role];
    if (typeof id !== "string" || id.length === 0) {
      problems.push({ field: role, message: "expected a non-empty model_config id" });
    } else if (id.length > MAX_ID_LENGTH) {
      problems.push({
        field: role,
        message: `expected at most ${MAX_ID_LENGTH} characters; got ${id.length}`,
      });
    }
  }
  if (opts.results.length === 0) {
    problems.push({ field: "results", message: "expected at least one results file" });
  }
  if (opts.results.length + opts.reviews.length > MAX_INPUT_FILES) {
    problems.push({
      message: `expected at most ${MAX_INPUT_FILES} input files; got ${opts.results.length + opts.reviews.length}`,
    });
  }
  if (problems.length > 0) throw new InputError("The reader was given invalid options:", problems);
}

/** Every path must name an existing regular file, and no file may be given twice. */
async function checkFiles(files: readonly InputFile[]): Promise<void> {
  const problems: InputProblem[] = [];
  const seen = new Map<string, InputFile>();
  for (const f of files) {
    try {
      const st = await stat(f.abs);
      if (!st.isFile()) {
        const what = st.isDirectory() ? "a directory" : "not a regular file";
        problems.push({
          location: { file: f.display },
          message: `expected a ${f.kind} file; this is ${what}`,
        });
        continue;
      }
      const id = `${st.dev}:${st.ino}`;
      const first = seen.get(id);
      if (first !== undefined) {
        problems.push({
          location: { file: f.display },
          message: `the same file is given twice (first as ${first.kind} file ${first.display}); its rows would count twice`,
        });
        continue;
      }
      seen.set(id, f);
      f.bytes = st.size;
    } catch (e) {
      problems.push({ location: { file: f.display }, message: describeFsError(e) });
    }
  }
  if (problems.length > 0) {
    throw new InputError(
      `Cannot read ${problems.length === 1 ? "an input file" : `${problems.length} input files`}:`,
      problems,
    );
  }
}

/**
 * Reads the results exports, then the reviews files, and reduces them to a Dataset for the given
 * baseline and candidate. Throws InputError for any user-caused problem (missing or unreadable
 * file, corrupt gzip, bad line, conflicting facts, unknown model id); never a raw stream error.
 */
export async function readDataset(opts: ReadOptions): Promise<Dataset> {
  return (await readWith(opts, undefined)).dataset;
}

/** A K-model read (src/read/read-models.ts): the Dataset of the options' pair and the ranked models'. */
export interface RankedRead {
  readonly dataset: Dataset;
  /** The ranked models: as given, or (none given) every model in the order first seen. */
  readonly models: readonly string[];
  /** counts[k][i]: ranked model k's attempts on the Dataset's task i; undefined without a row. */
  readonly counts: readonly (readonly (AttemptCounts | undefined)[])[];
  readonly summaries: readonly ModelSummary[];
  /** The ranked models' metrics by task of the Dataset (byModel aligned with `models`); absent when none carries one. */
  readonly metrics?: ModelsMetrics;
}

/**
 * The one read path keeping K models' columns in one pass: `models` (or, null, every model of the
 * export) are held as the baseline and the candidate are, and every task one of them ran is in
 * the Dataset. The options' baseline and candidate must be ids no row has (read as pairOfMany).
 */
export async function readRanked(opts: ReadOptions, models: readonly string[] | null): Promise<RankedRead> {
  const read = await readWith({ ...opts, pairOfMany: true }, models);
  const ranked = read.ranked;
  if (ranked === undefined) throw new Error("read-dataset: a K-model read without its models");
  return {
    dataset: read.dataset,
    models: ranked.ids,
    counts: ranked.counts,
    summaries: ranked.ids.map((_, k) => read.summary(k)),
    ...(ranked.metrics === undefined ? {} : { metrics: ranked.metrics }),
  };
}

interface Read {
  readonly dataset: Dataset;
  readonly ranked: RankedModels | undefined;
  readonly summary: (k: number) => ModelSummary;
}

async function readWith(opts: ReadOptions, models: readonly string[] | null | undefined): Promise<Read> {
  checkOptions(opts);
  const name = opts.displayPath;
  const files: InputFile[] = [
    ...opts.results.map((given) => ({ given, kind: "results" as const })),
    ...opts.reviews.map((given) => ({ given, kind: "reviews" as const })),
  ].map(({ given, kind }) => {
    const abs = resolve(given);
    return { given, abs, display: name === undefined ? given : name(abs), kind, bytes: 0 };
  });
  await checkFiles(files);
  const read = await readFiles(opts, files, models);
  return { ...read, dataset: withDerivedRevisions(read.dataset) };
}

async function readFiles(
  opts: ReadOptions,
  files: readonly InputFile[],
  models: readonly string[] | null | undefined,
): Promise<Read> {
  const builder = new DatasetBuilder(
    opts.baseline,
    opts.candidate,
    files.map((f) => f.display),
    opts.limits,
  );
  builder.pairOfMany = opts.pairOfMany === true;
  if (models !== undefined) builder.ranked = new RankedModels(models, builder.cols);
  const inputs: InputFileDigest[] = [];
  let rowsRead = 0;
  let complete = true;
  const emptyResults: EmptyFile[] = [];
  const cap = opts.youngGeneration?.cap;
  const collect = opts.youngGeneration?.collect;
  for (let i = 0; i < files.length; i++) {
    const f = files[i];
    if (f === undefined) continue;
    const problem = (line: number | undefined, message: string): void => {
      builder.fileProblem(i, line, message);
    };
    // A CSV or TSV table given as JSON lines: one problem for the file, not one a line.
    const firstLine = (line: string): string | undefined => tableFileProblem(line, f.kind, f.display);
    const onLine =
      f.kind === "results"
        ? {
            bytes: (bytes: Buffer, begin: number, end: number, line: number): void => {
              builder.addResultBytes(bytes, begin, end, i, line);
              if (cap !== undefined && (line & (YOUNG_GENERATION_CHECK_LINES - 1)) === 0)
                cap(builder.cols.count >= COLLECT_MIN_TASKS);
            },
          }
        : (text: string, begin: number, end: number, line: number, plain: boolean): void => {
            builder.addReviewLine(lineOf(text, begin, end), i, line, plain);
          };
    const streamed = await streamLines(f.abs, onLine, problem, firstLine, collect);
    rowsRead += streamed.nonBlankLines;
    if (f.kind === "results" && streamed.nonBlankLines === 0 && streamed.sha256 !== undefined) {
      emptyResults.push({ fileIndex: i, bytes: f.bytes });
    }
    if (streamed.sha256 === undefined) complete = false;
    // An unread file (sha256 undefined) always comes with a problem, so finish() throws.
    inputs.push({ path: f.display, sha256: streamed.sha256 ?? "", kind: f.kind });
  }
  const dataset = builder.finish(inputs, rowsRead, complete, opts.collectGarbage, emptyResults);
  return { dataset, ranked: builder.ranked, summary: (k) => builder.rankedSummary(k) };
}
