/**
 * The planning figures of SPEC §3 (minimum detectable effect, common valid tasks needed) as a
 * sentence a reviewer reads next to the verdict. Numbers only: nothing untrusted is rendered.
 */
import { formatCount, formatPercent, formatPpUnsigned } from "./format-number.js";
import type { Comparison } from "../verdict-types.js";
import type { Report } from "./report-types.js";
import type { Inline } from "./verdict-text.js";
import { pluralWord } from "../words.js";

/**
 * A task count past this many times the benchmark's size is said as "more tasks than the
 * benchmark has": a figure like 77548 for a 600-task benchmark plans nothing.
 */
export const PLANNING_SIZE_FACTOR = 10;

/** The benchmark's size as the report knows it: every task either model ran, broken ones too. */
export function benchmarkTasks(report: Report): number {
  const a = report.models.candidate;
  return a.attempted_tasks + a.missing_tasks + report.comparison.broken_tasks;
}

/** One sentence, or "" when there is no MDE (no SE on the valid tasks). */
export function planningSentence(
  c: Pick<Comparison, "mde" | "power" | "tasks_needed">,
  f: Inline,
  benchmarkSize: number | null = null,
): string {
  if (c.mde === null) return "";
  let s =
    `Planning figure (not used to decide): this benchmark can only detect a margin of ≥ ` +
    `${formatPpUnsigned(c.mde, 1)} above δ₀ at ${formatPercent(c.power, 0)} power.`;
  const n = c.tasks_needed;
  if (n !== null && benchmarkSize !== null && benchmarkSize > 0 && n > PLANNING_SIZE_FACTOR * benchmarkSize) {
    s +=
      ` If the observed margin and per-task variance held, clearing δ₀ would take more tasks than the ` +
      `benchmark has (over ${PLANNING_SIZE_FACTOR}× its ${formatCount(benchmarkSize)} ${pluralWord(benchmarkSize, "task")}).`;
  } else if (n !== null) {
    s +=
      ` If the observed margin and per-task variance held, about ${formatCount(n)} common valid ` +
      `${pluralWord(n, "task")} would clear δ₀.`;
  }
  return f.gen(s);
}
