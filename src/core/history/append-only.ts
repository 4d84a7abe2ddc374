/**
 * Append-only, checked: given the previous version of the results export and of the
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
 * With bounded memory: the previous rows are held as hashes (row-table.ts, a few dozen bytes a
 * row however long the lines), the current rows are compared with them as they come, and only the
 * first rows reported are read again to say what changed. This is the comparison; the reading
 * (the files streamed, each line's identity and facts, the rows found again) is the reader's:
 * src/read/previous-versions.ts.
 */
import { InputError } from "../errors.js";
import { quote } from "../quote.js";
import type { Check } from "../verdict-types.js";
import type { AppendOnlyReport, AppendOnlyViolation } from "./history-types.js";
import { CHANGED, hash53, RowTable } from "./row-table.js";
import { plural } from "../words.js";

/** Rows listed (the count is exact). */
export const MAX_LISTED_VIOLATIONS = 20;
/** Previous rows of one kind held at most. */
export const MAX_PREVIOUS_ROWS = 5_000_000;
/** Changed rows for which the current row is remembered (the rest say only "changed"). */
const MAX_REMEMBERED_CHANGES = 10_000;

export type RowKind = "results" | "reviews";

/** A row of the previous version not matched (removed, or changed: then `slot` says by which). */
type Unmatched = ReturnType<RowTable["firstUnmatched"]>[number];

/** A row found again to say what changed: where it is, its text, and its JSON object (undefined
 * when the line is not one). */
export interface LocatedRow {
  readonly file: string;
  readonly line: number;
  readonly text: string;
  readonly object: Record<string, unknown> | undefined;
}

/** The comparison of one kind's rows, and what it found. */
export interface KindResult {
  readonly previousRows: number;
  readonly total: number;
  readonly violations: AppendOnlyViolation[];
  readonly digests: { path: string; sha256: string }[];
}

/**
 * The rows of one kind (results, or reviews), numbered 0, 1, … across the files of that kind:
 * every previous row (addPrevious), then every current row (addCurrent), each as its identity
 * and the facts that must not change (strings, hashed here). Then the rows to read again to say
 * what changed (rowsToLocate), and what changed (result).
 */
export class RowComparison {
  private readonly table = new RowTable();
  private first: Unmatched[] = [];

  constructor(readonly kind: RowKind) {}

  addPrevious(key: string, value: string, ordinal: number): void {
    if (ordinal >= MAX_PREVIOUS_ROWS) {
      throw new InputError(
        `The previous ${this.kind} files hold more than ${MAX_PREVIOUS_ROWS} rows, the most the append-only ` +
          `check holds (about 60 bytes a row); compare smaller files.`,
      );
    }
    this.table.add(hash53(key), hash53(value), ordinal);
  }

  addCurrent(key: string, value: string, ordinal: number): void {
    const table = this.table;
    table.see(hash53(key), hash53(value), ordinal, table.changedBy.size < MAX_REMEMBERED_CHANGES);
  }

  /** The previous rows first reported, and the current rows that changed them, by ordinal. */
  rowsToLocate(): { readonly previous: Set<number>; readonly current: Set<number> } {
    const table = this.table;
    this.first = table.firstUnmatched(MAX_LISTED_VIOLATIONS);
    const previous = new Set(this.first.map((u) => u.ordinal));
    const current = new Set<number>();
    for (const u of this.first) {
      const by = u.state === CHANGED ? table.changedBy.get(u.slot) : undefined;
      if (by !== undefined) current.add(by);
    }
    return { previous, current };
  }

  /** What changed, given the rows of rowsToLocate found again (`was`: previous, `now`: current). */
  result(
    previousRows: number,
    digests: { path: string; sha256: string }[],
    was: ReadonlyMap<number, LocatedRow>,
    now: ReadonlyMap<number, LocatedRow>,
  ): KindResult {
    const kind = this.kind;
    const violations: AppendOnlyViolation[] = [];
    for (const u of this.first) {
      const p = was.get(u.ordinal);
      if (p === undefined) continue;
      const by = u.state === CHANGED ? this.table.changedBy.get(u.slot) : undefined;
      const c = by === undefined ? undefined : now.get(by);
      violations.push({
        kind,
        file: p.file,
        line: p.line,
        current_file: c?.file ?? null,
        current_line: c?.line ?? null,
        change:
          u.state !== CHANGED
            ? `removed: ${identity(kind, p)}`
            : c === undefined
              ? `changed: ${identity(kind, p)}`
              : `changed: ${identity(kind, p)}: ${difference(kind, p, c)}`,
      });
    }
    return { previousRows, total: this.table.unmatchedCount(), violations, digests };
  }
}

/** The report of the comparison of both kinds. */
export function appendOnlyReport(results: KindResult, reviews: KindResult): AppendOnlyReport {
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

/** Which row this is, in words: its identity fields. */
function identity(kind: RowKind, row: LocatedRow): string {
  const o = row.object;
  if (o === undefined) return `the line ${quote(row.text)} (not a valid row)`;
  const fields =
    kind === "results"
      ? ["model_config", "task_id", "dataset_revision", "harness_revision", "attempt"]
      : ["task_id", "dataset_revision", "review_revision", "reviewer"];
  return fields
    .filter((f) => o[f] !== undefined && o[f] !== null)
    .map((f) => `${f} ${shown(o[f])}`)
    .join(", ");
}

function difference(kind: RowKind, before: LocatedRow, after: LocatedRow): string {
  const a = before.object;
  const b = after.object;
  if (a === undefined || b === undefined) return "the line's text changed";
  const parts: string[] = [];
  for (const f of kind === "results" ? RESULT_FIELDS : REVIEW_FIELDS) {
    const x = JSON.stringify(a[f] ?? null);
    const y = JSON.stringify(b[f] ?? null);
    if (x !== y) parts.push(`${f} ${shown(a[f])} → ${shown(b[f])}`);
  }
  return parts.length > 0 ? parts.join(", ") : "changed";
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
      detail: `${compared === 1 ? "The one earlier row" : `Every one of the ${compared} earlier rows`} (results and reviews) is still there, unchanged; new rows and review revisions are fine.`,
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
      `History rewritten: ${n} of the ${plural(compared, "earlier row")} ${n === 1 ? "was" : "were"} changed or removed — ` +
      `${listed.join("; ")}${more}. Attempts and reviews are append-only: restore the earlier rows, and record a ` +
      "new opinion as a new review_revision.",
  };
}
