/**
 * Any table with one attempt per line — CSV with a header, or JSON Lines of flat objects — and a
 * column map: the escape hatch for every other tool and for spreadsheets.
 *
 * `--map FIELD=COLUMN,…` maps export fields to columns: task_id, result and model_config are
 * required (model_config unless --model-config names the one config), attempt, cluster,
 * harness_revision and `metrics.<name>` are optional; a field left out of --map is read from a
 * column of its own name when there is one (CSV headers match case-insensitively, as the other CSV
 * importers do). The result column's values are mapped by --pass-values, --fail-values and
 * --infra-values (defaults `pass,true,1`, `fail,false,0`, `infra_error`; `missing` is always
 * missing); a value in no list is refused, naming the row. CSV cells of ids and attempts are
 * trimmed (as reviews-csv trims ids); result values are matched exactly. An empty id, an attempt
 * given twice for one task and config, a metric that is not a number ≥ 0 are refused, each naming
 * the line.
 */
import { unicodeNearMatch } from "../core/unicode-near-match.js";
import type { AttemptResult } from "../core/model.js";
import {
  type ExportRow,
  Problems,
  compareIds,
  csvEvidence,
  fileError,
  isObject,
  listSome,
  perConfigTasks,
  typeName,
} from "./common.js";
import { readCsvTable } from "./csv.js";
import { readJsonLines } from "./jsonl.js";
import { METRIC_NAME, MetricsBuilder, metricsNote } from "./metrics.js";
import type { ImporterInput, ResultsDraft, TableFormat } from "./types.js";

export const TABLE_FIELDS = [
  "task_id",
  "model_config",
  "result",
  "attempt",
  "cluster",
  "harness_revision",
] as const;
type TableField = (typeof TABLE_FIELDS)[number];

export const DEFAULT_RESULT_VALUES: Readonly<Record<Exclude<AttemptResult, "missing">, readonly string[]>> = {
  pass: ["pass", "true", "1"],
  fail: ["fail", "false", "0"],
  infra_error: ["infra_error"],
};

/** One line of the table: its values by column, and where it is. */
interface TableRecord {
  readonly line: number;
  readonly evidence: string;
  readonly get: (column: string) => unknown;
}

/** The format: --format, else the extension, else the first character (`{` → JSON Lines). */
export function tableFormat(
  file: string,
  text: string,
  given: TableFormat | undefined,
): { format: TableFormat; how: string } {
  if (given !== undefined) return { format: given, how: "--format" };
  const name = file.toLowerCase().replace(/\.gz$/, "");
  if (name.endsWith(".csv")) return { format: "csv", how: "the .csv extension" };
  if (name.endsWith(".jsonl") || name.endsWith(".ndjson"))
    return { format: "jsonl", how: "the file's extension" };
  const first = text.replace(/^\uFEFF/, "").trimStart()[0];
  return first === "{"
    ? { format: "jsonl", how: "content: the first line is a JSON object" }
    : { format: "csv", how: "content: not a JSON object" };
}

function readRecords(
  file: string,
  text: string,
  format: TableFormat,
): { records: TableRecord[]; columns: readonly string[]; fold: boolean } {
  if (format === "csv") {
    const table = readCsvTable(file, text, []);
    const records = table.records.map((rec) => ({
      line: rec.line,
      evidence: csvEvidence(file, rec.row),
      get: (c: string) => {
        const i = table.column.get(c.trim().toLowerCase());
        return i === undefined ? undefined : rec.fields[i];
      },
    }));
    return { records, columns: table.header.filter((h) => h !== ""), fold: true };
  }
  const problems: Problems = new Problems(file);
  const columns = new Set<string>();
  const records: TableRecord[] = [];
  for (const { line, value } of readJsonLines(file, text)) {
    if (!isObject(value)) {
      problems.add(`expected an object (one attempt per line), found ${typeName(value)}`, { line });
      continue;
    }
    for (const k of Object.keys(value)) columns.add(k);
    records.push({
      line,
      evidence: `${file}#L${line}`,
      get: (c) => (Object.hasOwn(value, c) ? value[c] : undefined),
    });
  }
  problems.throwIfAny(`${file}: not usable JSON Lines`);
  return { records, columns: [...columns], fold: false };
}

/** The column of each field: --map, else a column of the field's own name. */
function columnsOf(
  file: string,
  map: Readonly<Record<string, string>>,
  columns: readonly string[],
  fold: boolean,
  haveModel: boolean,
) {
  const norm = (c: string) => (fold ? c.trim().toLowerCase() : c);
  const known = new Set(columns.map(norm));
  const out = new Map<string, string>();
  const implied: string[] = [];
  for (const [field, column] of Object.entries(map)) {
    if (!known.has(norm(column))) {
      fileError(
        file,
        `--map ${field}=${column}: the table has no column ${JSON.stringify(column)}; columns: ${listSome([...columns].sort(compareIds), 20)}` +
          unicodeNearMatch(column, columns),
      );
    }
    out.set(field, column);
  }
  for (const field of TABLE_FIELDS) {
    if (!out.has(field) && known.has(norm(field))) {
      out.set(field, field);
      implied.push(field);
    }
  }
  const required: TableField[] = haveModel ? ["task_id", "result"] : ["task_id", "result", "model_config"];
  const unmapped = required.filter((f) => !out.has(f));
  if (unmapped.length > 0) {
    fileError(
      file,
      `${unmapped.join(", ")} ${unmapped.length === 1 ? "is" : "are"} not mapped and the table has no column of that name: ` +
        `map ${unmapped.length === 1 ? "it" : "them"} with --map ${unmapped.map((f) => `${f}=COLUMN`).join(",")}` +
        (unmapped.includes("model_config") ? " (or name the one config with --model-config ID)" : "") +
        `; columns: ${listSome([...columns].sort(compareIds), 20)}`,
    );
  }
  return { columns: out, implied };
}

/** The value lists of the result column; a value in two lists is refused. */
export function resultValues(opts: ImporterInput["opts"]): Map<string, AttemptResult> {
  const lists: [AttemptResult, readonly string[]][] = [
    ["pass", opts.passValues ?? DEFAULT_RESULT_VALUES.pass],
    ["fail", opts.failValues ?? DEFAULT_RESULT_VALUES.fail],
    ["infra_error", opts.infraValues ?? DEFAULT_RESULT_VALUES.infra_error],
    ["missing", ["missing"]],
  ];
  const out = new Map<string, AttemptResult>();
  for (const [result, values] of lists) {
    for (const v of values) {
      const seen = out.get(v);
      if (seen !== undefined && seen !== result) {
        fileError(
          opts.file,
          `the result value ${JSON.stringify(v)} would mean both ${seen} and ${result}: list it once`,
        );
      }
      out.set(v, result);
    }
  }
  return out;
}

/** A cell as text: CSV cells are text; JSON strings, numbers and booleans are written as JSON writes them. */
function asText(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  if (typeof v === "boolean") return String(v);
  return undefined;
}

const CSV_NUMBER = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;
const CSV_INTEGER = /^(?:0|[1-9][0-9]{0,14})$/;

interface RowContext {
  readonly file: string;
  readonly format: TableFormat;
  readonly col: ReadonlyMap<string, string>;
  readonly values: ReadonlyMap<string, AttemptResult>;
  readonly problems: Problems;
  /** (config, harness, task, attempt) → the line first seen, for the duplicate check. */
  readonly attempts: Map<string, number>;
}

/** One record's row, or undefined when a problem was added. */
function tableRow(rec: TableRecord, ctx: RowContext): ExportRow | undefined {
  const { file, format, col, values, problems } = ctx;
  const at = { line: rec.line };
  const cell = (field: string) => {
    const c = col.get(field);
    return c === undefined ? undefined : rec.get(c);
  };
  const id = (field: TableField, required: boolean): string | undefined | null => {
    const v = cell(field);
    const t =
      typeof v === "number" && Number.isInteger(v)
        ? String(v)
        : typeof v === "string" && format === "csv"
          ? v.trim()
          : v;
    if ((t === undefined || t === null || t === "") && !required) return undefined;
    if (typeof t !== "string" || t === "") {
      problems.add(
        `${field} (column ${JSON.stringify(col.get(field))}): expected a non-empty value, found ${typeName(t)}`,
        at,
      );
      return null;
    }
    return t;
  };
  const taskId = id("task_id", true);
  const config = col.has("model_config") ? id("model_config", true) : undefined;
  const harness = id("harness_revision", col.has("harness_revision"));
  const cluster = id("cluster", false);
  if (taskId === null || config === null || harness === null || cluster === null || taskId === undefined)
    return undefined;
  const raw = asText(cell("result"));
  const result = raw === undefined ? undefined : values.get(raw);
  if (result === undefined) {
    problems.add(
      `result (column ${JSON.stringify(col.get("result"))}): ${raw === undefined ? typeName(cell("result")) : JSON.stringify(raw)} is in none of ` +
        `--pass-values, --fail-values, --infra-values (${[...values.keys()].map((v) => JSON.stringify(v)).join(", ")})` +
        (raw === undefined ? "" : unicodeNearMatch(raw, [...values.keys()])),
      at,
    );
    return undefined;
  }
  const attempt = attemptOf(cell("attempt"), format);
  if (typeof attempt === "object") {
    problems.add(`attempt (column ${JSON.stringify(col.get("attempt"))}): ${attempt.problem}`, at);
    return undefined;
  }
  const metrics = new MetricsBuilder();
  let bad = false;
  for (const [field, column] of col) {
    if (!field.startsWith("metrics.")) continue;
    const v = rec.get(column);
    const n =
      typeof v === "string" ? (v.trim() === "" ? undefined : CSV_NUMBER.test(v.trim()) ? Number(v) : v) : v;
    const p = metrics.add(field.slice("metrics.".length), n);
    if (p !== null) {
      problems.add(`${field} (column ${JSON.stringify(column)}): ${p}`, at);
      bad = true;
    }
  }
  if (bad) return undefined;
  if (attempt !== undefined) {
    const key = JSON.stringify([config ?? "", harness ?? "", taskId, attempt]);
    const first = ctx.attempts.get(key);
    if (first !== undefined) {
      problems.add(
        `task ${JSON.stringify(taskId)} attempt ${JSON.stringify(attempt)} appears twice (first on line ${first}): which result holds would be a guess`,
        at,
      );
      return undefined;
    }
    ctx.attempts.set(key, rec.line);
  }
  const row: ExportRow = {
    task_id: taskId,
    result,
    evidence: [rec.evidence],
    from: { file, line: rec.line },
  };
  if (attempt !== undefined) row.attempt = attempt;
  if (cluster !== undefined) row.cluster = cluster;
  if (config !== undefined) row.model_config = config;
  if (harness !== undefined) row.harness_revision = harness;
  const m = metrics.result;
  if (m !== undefined) row.metrics = m;
  return row;
}

function checkMap(file: string, map: Readonly<Record<string, string>>): void {
  for (const field of Object.keys(map)) {
    const metric = field.startsWith("metrics.") ? field.slice("metrics.".length) : undefined;
    if (
      metric !== undefined ? !METRIC_NAME.test(metric) : !(TABLE_FIELDS as readonly string[]).includes(field)
    ) {
      fileError(
        file,
        `--map ${field}=…: not a field a table maps (${TABLE_FIELDS.join(", ")}, metrics.<name> with name [a-z][a-z0-9_]{0,63})`,
      );
    }
  }
}

export function importTable({ opts, text, tasks }: ImporterInput): ResultsDraft {
  const file = opts.file;
  const { format, how } = tableFormat(file, text, opts.format);
  const { records, columns, fold } = readRecords(file, text, format);
  if (records.length === 0) fileError(file, "the table has no row");
  const map = opts.map ?? {};
  checkMap(file, map);
  const { columns: col, implied } = columnsOf(file, map, columns, fold, opts.modelConfig !== undefined);
  const values = resultValues(opts);
  const ctx: RowContext = { file, format, col, values, problems: new Problems(file), attempts: new Map() };
  const rows: ExportRow[] = [];
  for (const rec of records) {
    const row = tableRow(rec, ctx);
    if (row !== undefined) rows.push(row);
  }
  ctx.problems.throwIfAny(`${file}: unusable table`);

  const notes: string[] = [
    `read as ${format === "csv" ? "CSV" : "JSON Lines"} (${how}): ${records.length} rows`,
  ];
  const mapped = [...col.entries()].map(
    ([f, c]) => `${f} ← ${c}${implied.includes(f) ? " (same name)" : ""}`,
  );
  notes.push(`columns: ${mapped.join(", ")}`);
  const shown = (r: AttemptResult) =>
    [...values.entries()]
      .filter(([, x]) => x === r)
      .map(([v]) => JSON.stringify(v))
      .join(", ");
  notes.push(
    `result values: ${shown("pass")} → pass; ${shown("fail")} → fail; ${shown("infra_error")} → infra_error; "missing" → missing`,
  );
  const { rows: kept, universe } = perConfigTasks(rows, file, tasks, notes);
  notes.push(metricsNote(kept));
  return {
    rows: kept,
    taskIds: universe,
    taskIdsFrom: tasks ? `the task list ${tasks.file}` : "the table",
    modelConfig: { value: "", from: `column ${JSON.stringify(col.get("model_config") ?? "")}` },
    rowHarnessFrom: `column ${JSON.stringify(col.get("harness_revision") ?? "")}`,
    pickOne: "import one config's rows at a time, or map model_config to its column",
    notes,
  };
}

/** An attempt: an integer (CSV digits too), a string, or absent; anything else a problem. */
function attemptOf(v: unknown, format: TableFormat): number | string | undefined | { problem: string } {
  if (v === undefined || v === null || v === "") return undefined;
  if (typeof v === "number")
    return Number.isSafeInteger(v) && v >= 0
      ? v
      : { problem: `expected an integer ≥ 0 or a string, found ${v}` };
  if (typeof v !== "string") return { problem: `expected an integer or a string, found ${typeName(v)}` };
  const t = format === "csv" ? v.trim() : v;
  return format === "csv" && CSV_INTEGER.test(t) ? Number(t) : t;
}
