/**
 * Append-only, checked (issue #14): given the previous version of the results export and of the
 * reviews files, every earlier row must still be there, unchanged. New rows, new attempts and new
 * review revisions are fine; a removed or changed row is "history rewritten", a failed evidence
 * check that blocks accept.
 *
 * What "the same row" means (the identity of a row, and what must not change):
 * - an attempt with `attempt`: (model_config, dataset_revision, task_id, harness_revision,
 *   attempt); its result, validity, review_revision and cluster must not change;
 * - an attempt without `attempt`: the same key without it, as a multiset (such attempts cannot be
 *   told apart, so their order may change; one whose result changed is reported as changed);
 * - a pre-aggregated row: the key with its four counts, which must not change;
 * - a review row: (dataset_revision, task_id, review_revision), as a multiset; its validity,
 *   reviewer, note and evidence must not change (a new opinion is a new review_revision);
 * - a line that is not a valid row: its exact text must still be there.
 * The files of one kind (results, or reviews) are compared as one collection, so rows may move
 * between files and lines; `evidence` of a results row is not compared (links, not facts).
 *
 * Streaming with bounded memory: the previous rows are held as hashes (row-table.ts, about 60 bytes
 * a row however long the lines), the current files are streamed past them, and only the first
 * rows reported are read again to say what changed.
 */
import { InputError } from "../errors.js";
import { quote } from "../quote.js";
import { streamLines } from "../../read/lines/file-stream.js";
import { lineOf } from "../../read/lines/line-splitter.js";
import {
  checkExportRow,
  checkReviewRow,
  emptyExportRow,
  emptyReviewRow,
  LineIssues,
  parseObject,
  RESULT_NAMES,
} from "../../read/rows/row-checks.js";
import type { Check } from "../report/report-types.js";
import type { AppendOnlyReport, AppendOnlyViolation } from "./history-types.js";
import { CHANGED, hash53, RowTable } from "./row-table.js";

/** Rows listed (the count is exact). */
export const MAX_LISTED_VIOLATIONS = 20;
/** Previous rows of one kind held at most (about 60 bytes each). */
export const MAX_PREVIOUS_ROWS = 5_000_000;
/** Changed rows for which the current row is remembered (the rest say only "changed"). */
const MAX_REMEMBERED_CHANGES = 10_000;

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

type Kind = "results" | "reviews";

/** A row's identity and the facts that must not change, as strings (hashed by the caller). */
class RowCodec {
  private readonly issues = new LineIssues();
  private readonly exportRow = emptyExportRow();
  private readonly reviewRow = emptyReviewRow();
  key = "";
  value = "";

  constructor(private readonly kind: Kind) {}

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

interface Located {
  readonly file: string;
  readonly line: number;
  readonly text: string;
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
): Promise<Map<number, Located>> {
  const found = new Map<number, Located>();
  if (wanted.size === 0) return found;
  let ordinal = 0;
  for (const f of files) {
    if (found.size === wanted.size) break;
    await streamLines(
      f.abs,
      (text, begin, end, line) => {
        if (wanted.has(ordinal))
          found.set(ordinal, { file: f.display, line, text: lineOf(text, begin, end) });
        ordinal++;
      },
      () => undefined,
    );
  }
  return found;
}

const RESULT_FIELDS = [
  "result",
  "passes",
  "fails",
  "infra_errors",
  "missing",
  "validity",
  "review_revision",
  "cluster",
];
const REVIEW_FIELDS = ["validity", "reviewer", "note", "evidence"];

function shown(v: unknown): string {
  if (v === undefined || v === null) return "absent";
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return typeof v === "string" ? quote(v) : quote(JSON.stringify(v));
}

function objectOf(text: string): Record<string, unknown> | undefined {
  const o = parseObject(text, new LineIssues());
  return o;
}

/** Which row this is, in words: its identity fields. */
function identity(kind: Kind, text: string): string {
  const o = objectOf(text);
  if (o === undefined) return `the line ${quote(text)} (not a valid row)`;
  const fields =
    kind === "results"
      ? ["model_config", "task_id", "dataset_revision", "harness_revision", "attempt"]
      : ["task_id", "dataset_revision", "review_revision", "reviewer"];
  return fields
    .filter((f) => o[f] !== undefined && o[f] !== null)
    .map((f) => `${f} ${shown(o[f])}`)
    .join(", ");
}

function difference(kind: Kind, before: string, after: string): string {
  const a = objectOf(before);
  const b = objectOf(after);
  if (a === undefined || b === undefined) return "the line's text changed";
  const parts: string[] = [];
  for (const f of kind === "results" ? RESULT_FIELDS : REVIEW_FIELDS) {
    const x = JSON.stringify(a[f] ?? null);
    const y = JSON.stringify(b[f] ?? null);
    if (x !== y) parts.push(`${f} ${shown(a[f])} → ${shown(b[f])}`);
  }
  return parts.length > 0 ? parts.join(", ") : "changed";
}

interface KindResult {
  readonly previousRows: number;
  readonly total: number;
  readonly violations: AppendOnlyViolation[];
  readonly digests: { path: string; sha256: string }[];
}

async function compareKind(
  kind: Kind,
  previous: readonly HistoryFile[],
  current: readonly HistoryFile[],
): Promise<KindResult> {
  if (previous.length === 0) return { previousRows: 0, total: 0, violations: [], digests: [] };
  const codec = new RowCodec(kind);
  const table = new RowTable();
  const prev = await streamRows(
    previous,
    (text, ordinal, plain) => {
      if (ordinal >= MAX_PREVIOUS_ROWS) {
        throw new InputError(
          `The previous ${kind} files hold more than ${MAX_PREVIOUS_ROWS} rows, the most the append-only ` +
            `check holds (about 60 bytes a row); compare smaller files.`,
        );
      }
      codec.read(text, plain);
      table.add(hash53(codec.key), hash53(codec.value), ordinal);
    },
    `previous ${kind}`,
  );
  await streamRows(
    current,
    (text, ordinal, plain) => {
      codec.read(text, plain);
      table.see(
        hash53(codec.key),
        hash53(codec.value),
        ordinal,
        table.changedBy.size < MAX_REMEMBERED_CHANGES,
      );
    },
    kind,
  );
  const total = table.unmatchedCount();
  const first = table.firstUnmatched(MAX_LISTED_VIOLATIONS);
  const wantedPrev = new Set(first.map((u) => u.ordinal));
  const wantedCur = new Set<number>();
  for (const u of first) {
    const by = u.state === CHANGED ? table.changedBy.get(u.slot) : undefined;
    if (by !== undefined) wantedCur.add(by);
  }
  const [was, now] = await Promise.all([locate(previous, wantedPrev), locate(current, wantedCur)]);
  const violations: AppendOnlyViolation[] = [];
  for (const u of first) {
    const p = was.get(u.ordinal);
    if (p === undefined) continue;
    const by = u.state === CHANGED ? table.changedBy.get(u.slot) : undefined;
    const c = by === undefined ? undefined : now.get(by);
    violations.push({
      kind,
      file: p.file,
      line: p.line,
      current_file: c?.file ?? null,
      current_line: c?.line ?? null,
      change:
        u.state !== CHANGED
          ? `removed: ${identity(kind, p.text)}`
          : c === undefined
            ? `changed: ${identity(kind, p.text)}`
            : `changed: ${identity(kind, p.text)}: ${difference(kind, p.text, c.text)}`,
    });
  }
  return { previousRows: prev.rows, total, violations, digests: prev.digests };
}

/** Compares the previous results and reviews files with the current ones. */
export async function checkAppendOnly(inp: AppendOnlyInput): Promise<AppendOnlyReport> {
  const results = await compareKind("results", inp.previousResults, inp.results);
  const reviews = await compareKind("reviews", inp.previousReviews, inp.reviews);
  return {
    previous_inputs: [
      ...results.digests.map((d) => ({ kind: "results" as const, ...d })),
      ...reviews.digests.map((d) => ({ kind: "reviews" as const, ...d })),
    ],
    previous_rows: { results: results.previousRows, reviews: reviews.previousRows },
    rows_changed_or_removed: results.total + reviews.total,
    rows: [...results.violations, ...reviews.violations].slice(0, MAX_LISTED_VIOLATIONS),
  };
}

function where(v: AppendOnlyViolation): string {
  const now = v.current_file === null ? "" : ` (now ${v.current_file}:${v.current_line ?? "?"})`;
  return `${v.file}:${v.line}${now}`;
}

/** The evidence check "history rewritten" (id append_only): passes when no earlier row changed. */
export function appendOnlyCheck(r: AppendOnlyReport): Check {
  const n = r.rows_changed_or_removed;
  const compared = r.previous_rows.results + r.previous_rows.reviews;
  if (n === 0) {
    return {
      id: "append_only",
      observed: 0,
      threshold: "0 earlier rows changed or removed",
      passed: true,
      kind: "evidence",
      detail: `Every one of the ${compared} earlier rows (results and reviews) is still there, unchanged; new rows and review revisions are fine.`,
    };
  }
  const listed = r.rows.slice(0, 3).map((v) => `${where(v)}: ${v.change}`);
  const more = n > listed.length ? `; and ${n - listed.length} more` : "";
  return {
    id: "append_only",
    observed: n,
    threshold: "0 earlier rows changed or removed",
    passed: false,
    kind: "evidence",
    detail:
      `History rewritten: ${n} of the ${compared} earlier rows ${n === 1 ? "was" : "were"} changed or removed — ` +
      `${listed.join("; ")}${more}. Attempts and reviews are append-only: restore the earlier rows, and record a ` +
      "new opinion as a new review_revision.",
  };
}

/** The gate's call: absolute paths, named as the gate names its inputs. */
export function checkHistory(
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
