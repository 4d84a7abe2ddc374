/**
 * The rows an import writes: SPEC §1.1 export rows and §1.2 review rows, serialised with a fixed
 * key order and sorted, so the same input gives the same bytes; and the counts for the notes.
 */
import type { AttemptResult, Validity } from "../core/model.js";

/** Per-attempt figures (cost, time, tokens), by metric name; written keys sorted. */
export type Metrics = Record<string, number>;

/**
 * Where a row's values were read, when the row's first evidence item does not point at them (e.g.
 * an Inspect sample's `id`, a CSV row's task column): named in a refusal of a written value.
 */
export interface SourcePlace {
  readonly file: string;
  readonly line?: number;
  /** A JSON Pointer in URI-fragment form, a column name, or an archive entry's pointer. */
  readonly field?: string;
}

/** One SPEC §1.1 export row, before serialisation. */
export interface ExportRow {
  task_id: string;
  result: AttemptResult;
  evidence: string[];
  attempt?: number | string;
  cluster?: string;
  /** Imports that hold several model configs (promptfoo, table) name each row's own. */
  model_config?: string;
  /** Rows whose harness revision comes from their own source (several tb runs, a table column). */
  harness_revision?: string;
  /** Cost, time and token counts of the attempt, where the source records them. */
  metrics?: Metrics;
  /** Where the task id (and the row's other values) were read; default: the first evidence item. */
  from?: SourcePlace;
}

/** Fields that every row of one import shares (a row's own model config or harness wins). */
export interface ExportCommon {
  datasetRevision: string;
  harnessRevision: string;
  modelConfig: string;
  validity: Validity;
  reviewRevision: number;
  /** `--benchmark`: written on every row when given. */
  benchmark?: string;
}

/**
 * Serialises export rows with a fixed key order, sorted by task id (UTF-8 bytes), then model
 * config, then attempt.
 */
export function exportLines(rows: readonly ExportRow[], c: ExportCommon): string[] {
  const sorted = [...rows].sort(
    (a, b) =>
      compareIds(a.task_id, b.task_id) ||
      compareIds(a.model_config ?? c.modelConfig, b.model_config ?? c.modelConfig) ||
      compareAttempts(a.attempt, b.attempt),
  );
  return sorted.map((r) => {
    const o: Record<string, unknown> = {
      task_id: r.task_id,
      dataset_revision: c.datasetRevision,
      harness_revision: r.harness_revision ?? c.harnessRevision,
      model_config: r.model_config ?? c.modelConfig,
      validity: c.validity,
      result: r.result,
      review_revision: c.reviewRevision,
      evidence: r.evidence,
    };
    if (r.attempt !== undefined) o["attempt"] = r.attempt;
    if (r.cluster !== undefined) o["cluster"] = r.cluster;
    if (c.benchmark !== undefined) o["benchmark"] = c.benchmark;
    if (r.metrics !== undefined && Object.keys(r.metrics).length > 0) o["metrics"] = sortedMetrics(r.metrics);
    return JSON.stringify(o);
  });
}

function sortedMetrics(m: Metrics): Metrics {
  const out: Metrics = {};
  for (const k of Object.keys(m).sort(compareIds)) out[k] = m[k] as number;
  return out;
}

/** Compares strings by their UTF-8 bytes (= `LC_ALL=C sort`), so the order is language-neutral. */
export function compareIds(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

function compareAttempts(a: number | string | undefined, b: number | string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  // An integer attempt sorts before a string one, whatever the string.
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return compareIds(a, b);
}

/** One SPEC §1.2 reviews row, before serialisation. */
export interface ReviewRow {
  task_id: string;
  dataset_revision: string;
  validity: Validity;
  review_revision: number;
  reviewer?: string;
  evidence: string[];
  note?: string;
}

/**
 * Serialises reviews rows with a fixed key order, sorted by task id then dataset revision;
 * `benchmark` (`--benchmark`) on every row when given.
 */
export function reviewLines(rows: readonly ReviewRow[], benchmark?: string): string[] {
  const sorted = [...rows].sort(
    (a, b) => compareIds(a.task_id, b.task_id) || compareIds(a.dataset_revision, b.dataset_revision),
  );
  return sorted.map((r) => {
    const o: Record<string, unknown> = {
      task_id: r.task_id,
      dataset_revision: r.dataset_revision,
      validity: r.validity,
      review_revision: r.review_revision,
    };
    if (r.reviewer !== undefined) o["reviewer"] = r.reviewer;
    o["evidence"] = r.evidence;
    if (r.note !== undefined) o["note"] = r.note;
    if (benchmark !== undefined) o["benchmark"] = benchmark;
    return JSON.stringify(o);
  });
}

/** Counts of results, for the notes; per model config when the rows name several. */
export function resultCounts(rows: readonly ExportRow[], modelConfig?: string): string[] {
  const count = (of: readonly ExportRow[]) => {
    const n = { pass: 0, fail: 0, infra_error: 0, missing: 0 };
    for (const r of of) n[r.result] += 1;
    const rowWord = of.length === 1 ? "row" : "rows";
    return `${of.length} ${rowWord}: ${n.pass} pass, ${n.fail} fail, ${n.infra_error} infra_error, ${n.missing} missing`;
  };
  const configs = [...new Set(rows.map((r) => r.model_config ?? modelConfig ?? ""))].sort(compareIds);
  if (configs.length <= 1) return [count(rows)];
  return [
    count(rows),
    ...configs.map(
      (c) => `  ${c}: ${count(rows.filter((r) => (r.model_config ?? modelConfig ?? "") === c))}`,
    ),
  ];
}
