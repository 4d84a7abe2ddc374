/**
 * The importers read with the results reader's caps, so that an import either fails here,
 * located, or writes an export the gate can read:
 *
 * - line length: a line of a line-oriented input (CSV, TSV, Markdown, the --tasks list) is at most
 *   MAX_LINE_BYTES (1 MiB), checked on the raw (inflated) bytes before parsing; JSON documents are not
 *   line-oriented (a minified report is one line) and are bounded by MAX_IMPORT_BYTES instead;
 *   every line the import writes is at most MAX_LINE_BYTES too;
 * - total rows: at most 20,000,000 lines of a line-oriented input and rows written (the reader's
 *   attempt-id cap), and at most 1,000,000 distinct tasks (the reader's task cap).
 *
 * None of them can be raised: the gate would refuse what they let through. The message says so
 * and what to do (split the input).
 */
import { DEFAULT_INPUT_LIMITS, MAX_LINE_BYTES } from "../read/limits.js";
import { fileError } from "./common.js";

/** The caps, as one object: the defaults are the reader's; tests pass smaller ones. */
export interface ImportLimits {
  /** Longest line read (line-oriented inputs) or written, in UTF-8 bytes. */
  readonly lineBytes: number;
  /** Lines of a line-oriented input (plus a header), and rows written. */
  readonly rows: number;
  /** Distinct tasks written. */
  readonly tasks: number;
}

export const DEFAULT_IMPORT_LIMITS: ImportLimits = {
  lineBytes: MAX_LINE_BYTES,
  // The reader's attempt-id cap (two models' attempts held) and task cap.
  rows: DEFAULT_INPUT_LIMITS.maxAttemptIds,
  tasks: DEFAULT_INPUT_LIMITS.maxTasks,
};

/**
 * Largest importer input, in bytes, read or inflated (256 MiB; an archive's entries together):
 * importers hold the whole text, and V8 cannot make a string much past 512 MiB.
 */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

const SPLIT = "split the input (e.g. by dataset revision or by repository) and import each part";

/**
 * A line-oriented input's lines: none longer than MAX_LINE_BYTES (LF, CRLF and CR end a line, as
 * the CSV reader counts them), at most `rows` + 1 of them (a header).
 */
export function checkLines(
  data: Uint8Array,
  shown: string,
  inflated: boolean,
  limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
): void {
  const { lineBytes, rows } = limits;
  let line = 1;
  let start = 0;
  const n = data.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? data[i] : 0x0a;
    if (c !== 0x0a && c !== 0x0d) continue;
    if (i - start > lineBytes) {
      fileError(
        shown,
        `line ${line} is longer than ${lineBytes} bytes${inflated ? " (inflated)" : ""}, the longest ` +
          "line the gate reads; the cap cannot be raised: a field that long is not an id, a label or a note",
        { line },
      );
    }
    if (c === 0x0d && i + 1 < n && data[i + 1] === 0x0a) i++;
    if (i >= n) break;
    line++;
    start = i + 1;
    if (line > rows + 1) {
      fileError(
        shown,
        `the file has more than ${rows + 1} lines, the most one import reads (the gate holds at most ` +
          `${rows} attempts); the cap cannot be raised: ${SPLIT}`,
        { line },
      );
    }
  }
}

interface RowLike {
  readonly task_id: string;
  readonly evidence: readonly string[];
}

function from(row: RowLike): string {
  const at = row.evidence[0];
  return at === undefined ? "" : ` (from ${at})`;
}

/** Rows to write, in the importer's (source) order: at most `rows` of them, of at most `tasks` tasks. */
export function checkRows<R extends RowLike>(
  rows: readonly R[],
  file: string,
  key: (r: R) => string,
  limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
): void {
  const max = limits.rows;
  if (rows.length > max) {
    const first = rows[max] as R;
    fileError(
      file,
      `the import would write more than ${max} rows, the most the gate holds of a model; row ` +
        `${max + 1} is task ${JSON.stringify(first.task_id)}${from(first)}; the cap cannot be raised: ${SPLIT}`,
    );
  }
  const tasks = new Set<string>();
  for (const r of rows) {
    const k = key(r);
    if (tasks.has(k)) continue;
    if (tasks.size >= limits.tasks) {
      fileError(
        file,
        `the input has more than ${limits.tasks} distinct tasks, the most the gate reads; the first beyond is ` +
          `${JSON.stringify(r.task_id)}${from(r)}; the cap cannot be raised: ${SPLIT}`,
      );
    }
    tasks.add(k);
  }
}

/** Lines written: none longer than MAX_LINE_BYTES (the gate would refuse the line). */
export function checkOutputLines(
  lines: readonly string[],
  file: string,
  limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
): void {
  const max = limits.lineBytes;
  for (const l of lines) {
    // Cheap first: a line of at most max / 3 UTF-16 units cannot be over the cap.
    if (l.length * 3 <= max) continue;
    const bytes = Buffer.byteLength(l, "utf8");
    if (bytes <= max) continue;
    const row = JSON.parse(l) as RowLike;
    fileError(
      file,
      `the row of task ${JSON.stringify(row.task_id.slice(0, 200))}${from(row)} would be a ${bytes}-byte line, ` +
        `longer than the ${max} bytes the gate reads; the cap cannot be raised: shorten the ` +
        "field that makes it long (a note, an id, the evidence)",
    );
  }
}
