/**
 * The append-only check's reading (the comparison is src/core/history/append-only.ts):
 * the previous versions of the results and reviews files, then the current ones, streamed line
 * by line; each line reduced to its identity and the facts that must not change (RowCodec: a
 * valid row by its key fields, any other line by its text), and only the first rows reported
 * read again to say what changed.
 */
import {
  appendOnlyReport,
  RowComparison,
  type KindResult,
  type LocatedRow,
  type RowKind,
} from "../core/history/append-only.js";
import type { AppendOnlyReport } from "../core/history/history-types.js";
import { InputError } from "../core/errors.js";
import { streamLines } from "./lines/file-stream.js";
import { lineOf } from "./lines/line-splitter.js";
import {
  checkExportRow,
  checkReviewRow,
  emptyExportRow,
  emptyReviewRow,
  LineIssues,
  parseObject,
  RESULT_NAMES,
} from "./rows/row-checks.js";

export interface HistoryFile {
  readonly abs: string;
  /** As shown in messages and the report. */
  readonly display: string;
}

export interface AppendOnlyInput {
  readonly previousResults: readonly HistoryFile[];
  readonly results: readonly HistoryFile[];
  readonly previousReviews: readonly HistoryFile[];
  readonly reviews: readonly HistoryFile[];
}

/** A row's identity and the facts that must not change, as strings (hashed by the caller). */
class RowCodec {
  private readonly issues = new LineIssues();
  private readonly exportRow = emptyExportRow();
  private readonly reviewRow = emptyReviewRow();
  key = "";
  value = "";

  constructor(private readonly kind: RowKind) {}

  read(text: string, plain: boolean): void {
    const issues = this.issues;
    issues.reset();
    const obj = parseObject(text, issues);
    if (obj !== undefined && this.kind === "results" && checkExportRow(obj, this.exportRow, issues, plain)) {
      const r = this.exportRow;
      const id = `${r.modelConfig}\u0000${r.datasetRevision}\u0000${r.taskId}\u0000${r.harnessRevision}`;
      const label = `\u0000${r.validity}\u0000${r.reviewRevision}\u0000${r.cluster ?? ""}`;
      if (r.result < 0) {
        this.key = `G\u0000${id}`;
        this.value = `${r.passes},${r.fails},${r.infraErrors},${r.missing}${label}`;
      } else {
        const attempt = r.attempt;
        this.key =
          attempt === undefined
            ? `N\u0000${id}`
            : `A\u0000${id}\u0000${typeof attempt}\u0000${String(attempt)}`;
        this.value = `${RESULT_NAMES[r.result] ?? "?"}${label}`;
      }
      return;
    }
    if (obj !== undefined && this.kind === "reviews" && checkReviewRow(obj, this.reviewRow, issues, plain)) {
      const r = this.reviewRow;
      this.key = `R\u0000${r.datasetRevision}\u0000${r.taskId}\u0000${r.reviewRevision}`;
      const evidence = r.evidence === undefined ? "" : JSON.stringify(r.evidence);
      this.value = `${r.validity}\u0000${r.reviewer ?? ""}\u0000${r.note ?? ""}\u0000${evidence}`;
      return;
    }
    this.key = `X\u0000${text}`;
    this.value = "";
  }
}

/** Streams the files of one kind in order, numbering their rows 0, 1, … across files. */
async function streamRows(
  files: readonly HistoryFile[],
  onRow: (text: string, ordinal: number, plain: boolean) => void,
  role: string,
): Promise<{ rows: number; digests: { path: string; sha256: string }[] }> {
  let ordinal = 0;
  const digests: { path: string; sha256: string }[] = [];
  for (const f of files) {
    const problems: string[] = [];
    const streamed = await streamLines(
      f.abs,
      (text, begin, end, _line, plain) => {
        onRow(lineOf(text, begin, end), ordinal++, plain);
      },
      (line, message) => {
        if (problems.length < 20) problems.push(line === undefined ? message : `line ${line}: ${message}`);
      },
    );
    if (problems.length > 0 || streamed.sha256 === undefined) {
      throw new InputError(
        `The ${role} file ${f.display} cannot be compared for the append-only check:`,
        problems.map((message) => ({ location: { file: f.display }, message })),
      );
    }
    digests.push({ path: f.display, sha256: streamed.sha256 });
  }
  return { rows: ordinal, digests };
}

/** Reads again the rows with the given ordinals: their file, line and text. */
async function locate(
  files: readonly HistoryFile[],
  wanted: ReadonlySet<number>,
): Promise<Map<number, LocatedRow>> {
  const found = new Map<number, LocatedRow>();
  if (wanted.size === 0) return found;
  let ordinal = 0;
  for (const f of files) {
    if (found.size === wanted.size) break;
    await streamLines(
      f.abs,
      (text, begin, end, line) => {
        if (wanted.has(ordinal)) {
          const row = lineOf(text, begin, end);
          found.set(ordinal, {
            file: f.display,
            line,
            text: row,
            object: parseObject(row, new LineIssues()),
          });
        }
        ordinal++;
      },
      () => undefined,
    );
  }
  return found;
}

async function compareKind(
  kind: RowKind,
  previous: readonly HistoryFile[],
  current: readonly HistoryFile[],
): Promise<KindResult> {
  if (previous.length === 0) return { previousRows: 0, total: 0, violations: [], digests: [] };
  const codec = new RowCodec(kind);
  const comparison = new RowComparison(kind);
  const prev = await streamRows(
    previous,
    (text, ordinal, plain) => {
      codec.read(text, plain);
      comparison.addPrevious(codec.key, codec.value, ordinal);
    },
    `previous ${kind}`,
  );
  await streamRows(
    current,
    (text, ordinal, plain) => {
      codec.read(text, plain);
      comparison.addCurrent(codec.key, codec.value, ordinal);
    },
    kind,
  );
  const wanted = comparison.rowsToLocate();
  const [was, now] = await Promise.all([locate(previous, wanted.previous), locate(current, wanted.current)]);
  return comparison.result(prev.rows, prev.digests, was, now);
}

/** Compares the previous results and reviews files with the current ones. */
export async function checkAppendOnly(inp: AppendOnlyInput): Promise<AppendOnlyReport> {
  const results = await compareKind("results", inp.previousResults, inp.results);
  const reviews = await compareKind("reviews", inp.previousReviews, inp.reviews);
  return appendOnlyReport(results, reviews);
}

/** The comparison for a gate run: absolute paths, named as the gate names its inputs. */
export function readAppendOnly(
  previous: { readonly results: readonly string[]; readonly reviews: readonly string[] },
  current: { readonly results: readonly string[]; readonly reviews: readonly string[] },
  display: (abs: string) => string,
): Promise<AppendOnlyReport> {
  const files = (paths: readonly string[]): HistoryFile[] =>
    paths.map((abs) => ({ abs, display: display(abs) }));
  return checkAppendOnly({
    previousResults: files(previous.results),
    results: files(current.results),
    previousReviews: files(previous.reviews),
    reviews: files(current.reviews),
  });
}
