/**
 * Which files an import reads, and reading them: FILE as text (with the line caps for line-oriented
 * kinds) or as bytes (inspect, whose `.eval` logs are ZIP archives); a directory kind's fixed files;
 * and the files found beside FILE or below it — a Terminal-Bench run's run_metadata.json, the
 * runs of a directory of runs, lm-eval's results file. Every file is named as the user would type
 * it (relative paths stay relative), which is how evidence and messages name it.
 */
import type { Stats } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { isUtf8 } from "node:buffer";
import { dirname, join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { InputError } from "../core/errors.js";
import { describeKind, inputFileProblem, readRegularFile } from "../io/file-kind.js";
import { checkLines, type ImportLimits, MAX_IMPORT_BYTES } from "./caps.js";
import { compareIds, fileError, inDirectory } from "./common.js";
import { LM_EVAL_RESULTS, lmEvalResultsName } from "./lm-eval-names.js";
import { PRO_AUDIT_FILES } from "./swebench-pro-audit.js";
import type { ImportKind, ImportOptions, RelatedFile } from "./types.js";
import { isZip } from "./zip.js";

/** Kinds whose FILE is line-oriented (CSV): the line caps apply (a directory kind's files always). */
const LINE_KINDS: ReadonlySet<ImportKind> = new Set<ImportKind>([
  "reviews-csv",
  "verified-annotations",
  "table",
]);

/** Kinds whose FILE is a directory, and the files read from it. */
const DIRECTORY_KINDS: Partial<Record<ImportKind, readonly string[]>> = {
  "swebench-pro-audit": Object.values(PRO_AUDIT_FILES),
};

export const TB_RESULTS = "results.json";
export const TB_METADATA = "run_metadata.json";

interface Planned {
  readonly path: string;
  readonly shown: string;
}

/** What an import reads. */
export interface ReadPlan {
  /** FILE, unless the kind reads only the files found from it (a directory). */
  readonly main?: Planned & { readonly as: "text" | "lines" | "bytes" };
  /** A directory kind's files, by name. */
  readonly directory?: readonly (Planned & { readonly name: string })[];
  readonly related: readonly (Planned & { readonly role: string; readonly group: string })[];
}

async function statOf(path: string, shown: string, what: string): Promise<Stats> {
  try {
    return await stat(path);
  } catch (error) {
    const why = inputFileProblem(error);
    if (why === null) throw error;
    throw new InputError(`cannot read the ${what} ${shown}: ${why}`);
  }
}

/** The files the import of `opts` reads; `at` resolves a path as typed against the user's directory. */
export async function planInputs(opts: ImportOptions, at: (p: string) => string): Promise<ReadPlan> {
  const names = DIRECTORY_KINDS[opts.kind];
  if (names !== undefined) {
    const st = await statOf(at(opts.file), opts.file, `${opts.kind} directory`);
    if (!st.isDirectory()) {
      throw new InputError(
        `${opts.file}: ${opts.kind} reads a directory (holding ${names.join(", ")}), but this is ${describeKind(st)}`,
      );
    }
    const directory = names.map((name) => ({
      name,
      path: join(at(opts.file), name),
      shown: inDirectory(opts.file, name),
    }));
    return { directory, related: [] };
  }
  if (opts.kind === "terminal-bench") return { related: await terminalBenchRuns(opts, at) };
  const as = opts.kind === "inspect" ? "bytes" : LINE_KINDS.has(opts.kind) ? "lines" : "text";
  const main = { path: at(opts.file), shown: opts.file, as } as const;
  if (opts.kind === "lm-eval") {
    const shown = opts.resultsJson ?? lmEvalResultsName(opts.file);
    if (shown === undefined) {
      fileError(
        opts.file,
        "the file name is not samples_<task>_<timestamp>.jsonl (as lm-eval --log_samples writes it), so the " +
          "results file beside it cannot be found: name it with --results-json FILE",
      );
    }
    return { main, related: [{ role: LM_EVAL_RESULTS, group: "", path: at(shown), shown }] };
  }
  return { main, related: [] };
}

/**
 * A Terminal-Bench FILE: a run's results.json (run_metadata.json beside it, or --run-metadata), a
 * run's directory, or a directory of runs (each subdirectory a run, in name order).
 */
async function terminalBenchRuns(
  opts: ImportOptions,
  at: (p: string) => string,
): Promise<ReadPlan["related"]> {
  const file = opts.file;
  const st = await statOf(at(file), file, "Terminal-Bench results");
  const run = (dirShown: string, results: string, metadata: string) => [
    { role: TB_RESULTS, group: dirShown, path: at(results), shown: results },
    { role: TB_METADATA, group: dirShown, path: at(metadata), shown: metadata },
  ];
  if (!st.isDirectory()) {
    const dir = dirname(file);
    return run(
      dir,
      file,
      opts.runMetadata ??
        (dir === "." && !file.startsWith(".") ? TB_METADATA : inDirectory(dir, TB_METADATA)),
    );
  }
  const has = async (p: string) => (await stat(p).catch(() => undefined))?.isFile() === true;
  if (await has(join(at(file), TB_RESULTS))) {
    return run(file, inDirectory(file, TB_RESULTS), opts.runMetadata ?? inDirectory(file, TB_METADATA));
  }
  if (opts.runMetadata !== undefined) {
    throw new InputError(
      `--run-metadata names the metadata of one run, but ${file} is a directory of runs: each run's ` +
        `${TB_METADATA} is read beside its ${TB_RESULTS}`,
    );
  }
  const entries = await readdir(at(file), { withFileTypes: true });
  const dirs = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort(compareIds);
  const runs: ReadPlan["related"][number][] = [];
  const without: string[] = [];
  for (const name of dirs) {
    const sub = inDirectory(file, name);
    if (await has(join(at(sub), TB_RESULTS)))
      for (const f of run(sub, inDirectory(sub, TB_RESULTS), inDirectory(sub, TB_METADATA))) runs.push(f);
    else without.push(name);
  }
  if (runs.length === 0) {
    fileError(
      file,
      `the directory holds no ${TB_RESULTS}, and none of its subdirectories does: give a tb run's ` +
        `results.json, its run directory, or a directory of run directories`,
    );
  }
  if (without.length > 0) {
    fileError(
      file,
      `${without.length} subdirectories hold no ${TB_RESULTS} (${without.slice(0, 5).join(", ")}): an unfinished ` +
        "or failed run? Move them out, or import the runs one by one: which runs belong to the export would be a guess",
    );
  }
  return runs;
}

/** The files of a plan, as the user names them: for the -o check (the export must not replace one). */
export function plannedFiles(plan: ReadPlan): string[] {
  return [
    ...(plan.main !== undefined ? [plan.main.shown] : []),
    ...(plan.directory ?? []).map((d) => d.shown),
    ...plan.related.map((r) => r.shown),
  ];
}

/** What a plan reads to. */
export interface ReadInputs {
  readonly text: string;
  readonly bytes?: Uint8Array;
  readonly files?: Readonly<Record<string, string>>;
  readonly related: readonly RelatedFile[];
}

export async function readPlanned(
  plan: ReadPlan,
  kind: ImportKind,
  limits: ImportLimits,
): Promise<ReadInputs> {
  let text = "";
  let bytes: Uint8Array | undefined;
  if (plan.main !== undefined) {
    const { path, shown, as } = plan.main;
    const data = await readInputBytes(path, "input file", shown, as === "lines" ? limits : null);
    // Inspect's formats are told apart by content: a ZIP archive is a .eval log, anything else JSON text.
    if (as === "bytes" && isZip(data)) bytes = data;
    else text = decodeUtf8(data, shown, path);
  }
  let files: Record<string, string> | undefined;
  if (plan.directory !== undefined) {
    files = {};
    for (const d of plan.directory)
      files[d.name] = await readTextFile(d.path, `${kind} file`, d.shown, limits);
  }
  const related: RelatedFile[] = [];
  for (const r of plan.related) {
    const what =
      r.role === TB_METADATA
        ? "run metadata"
        : r.role === LM_EVAL_RESULTS
          ? "lm-eval results file"
          : `${kind} file`;
    related.push({
      role: r.role,
      group: r.group,
      shown: r.shown,
      text: await readTextFile(r.path, what, r.shown),
    });
  }
  return {
    text,
    related,
    ...(bytes !== undefined ? { bytes } : {}),
    ...(files !== undefined ? { files } : {}),
  };
}

/**
 * Reads a file's bytes; `.gz` files are decompressed. A missing file is an input error naming the
 * file as the user gave it (`shown`). With `lines` (CSV, TSV, Markdown, a task list), the line caps
 * of caps.ts hold too.
 */
async function readInputBytes(
  path: string,
  what: string,
  shown: string,
  lines: ImportLimits | null,
): Promise<Buffer> {
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
  return data;
}

/** UTF-8 text, or an error naming where the bad bytes start (decoding would write U+FFFD into the export). */
function decodeUtf8(data: Buffer, shown: string, path: string): string {
  if (isUtf8(data)) return data.toString("utf8");
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

/** Reads a text file (see readInputBytes). */
export async function readTextFile(
  path: string,
  what: string,
  shown: string = path,
  lines: ImportLimits | null = null,
): Promise<string> {
  return decodeUtf8(await readInputBytes(path, what, shown, lines), shown, path);
}

/** The user's directory made absolute, for `at`. */
export function resolverFor(cwd: string | undefined): (p: string) => string {
  return (p) => (cwd === undefined ? p : resolve(cwd, p));
}
