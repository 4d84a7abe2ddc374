/**
 * Per-attempt metrics (cost, time, tokens) as the export writes them: an object from metric name
 * (`[a-z][a-z0-9_]{0,63}`) to a finite number ≥ 0. Importers read them from the source where it
 * records them; a value that is absent or null is no metric (never a 0), anything else that is not
 * a finite number ≥ 0 is refused where it was read.
 */
import { typeName } from "./common.js";
import type { Metrics } from "./export-rows.js";

export const METRIC_NAME = /^[a-z][a-z0-9_]{0,63}$/;

/** The metric names the importers write, with what each holds (docs/importers.md lists them per kind). */
export const COST_USD = "cost_usd";
export const LATENCY_S = "latency_s";
export const TOKENS_IN = "tokens_in";
export const TOKENS_OUT = "tokens_out";

/** Why a metric value cannot be written, or null when it can (a finite number ≥ 0). */
export function metricProblem(value: unknown): string | null {
  if (typeof value !== "number") return `expected a number ≥ 0, found ${typeName(value)}`;
  if (!Number.isFinite(value)) return `expected a finite number ≥ 0, found ${value}`;
  if (value < 0) return `expected a number ≥ 0, found ${value}`;
  return null;
}

/**
 * Collects the metrics of one row. `add` skips absent (undefined or null) values and returns the
 * problem of a bad one; `result` is undefined when nothing was added.
 */
export class MetricsBuilder {
  private readonly values: Metrics = {};
  private any = false;

  add(name: string, value: unknown): string | null {
    if (value === undefined || value === null) return null;
    const problem = metricProblem(value);
    if (problem !== null) return problem;
    this.values[name] = value as number;
    this.any = true;
    return null;
  }

  /** Adds a sum of values (e.g. tokens over several models); absent when every part is absent. */
  addSum(name: string, parts: readonly unknown[]): string | null {
    let total: number | undefined;
    for (const p of parts) {
      if (p === undefined || p === null) continue;
      const problem = metricProblem(p);
      if (problem !== null) return problem;
      total = (total ?? 0) + (p as number);
    }
    return this.add(name, total);
  }

  get result(): Metrics | undefined {
    return this.any ? this.values : undefined;
  }
}

/** `name: n of m rows` for each metric written, for the notes ("metrics: none" when none is). */
export function metricsNote(rows: readonly { metrics?: Metrics }[]): string {
  const counts = new Map<string, number>();
  for (const r of rows) for (const k of Object.keys(r.metrics ?? {})) counts.set(k, (counts.get(k) ?? 0) + 1);
  if (counts.size === 0)
    return "metrics: none written (the source records no cost, time or token counts here)";
  const parts = [...counts.keys()].sort().map((k) => `${k} on ${counts.get(k)} of ${rows.length} rows`);
  return `metrics: ${parts.join(", ")}`;
}
