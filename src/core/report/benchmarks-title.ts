/**
 * The check run's title over several benchmarks (docs/spec.md §4.6): apart from
 * render-benchmarks.ts, because verdict-text.ts, which the Markdown blocks build on, needs it.
 */
import { plural, pluralWord } from "../words.js";
import type { BenchmarkReport, Report } from "./report-types.js";

/** The check run's title over several benchmarks: generated words and counts only. */
export function benchmarksTitle(report: Report, benchmarks: readonly BenchmarkReport[]): string {
  const verdict = report.verdict.charAt(0).toUpperCase() + report.verdict.slice(1);
  const required = benchmarks.filter((b) => b.required);
  const accepting = required.filter((b) => b.verdict === "accept").length;
  const harmed = benchmarks.filter((b) => b.holm.harm).length;
  const n = benchmarks.length;
  if (report.verdict === "reject" && harmed > 0) {
    return `${verdict}: shown worse on ${harmed} of ${plural(n, "benchmark")} after Holm's adjustment`;
  }
  if (report.verdict === "reject") return `${verdict}: production canary failed (${plural(n, "benchmark")})`;
  const open = required.length - accepting;
  return report.verdict === "accept"
    ? `${verdict}: all ${plural(required.length, "required benchmark")} accept (${plural(n, "benchmark")} in all)`
    : `${verdict}: ${open} of ${plural(required.length, "required benchmark")} ${pluralWord(open, "does", "do")} not accept`;
}
