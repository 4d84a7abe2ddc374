/**
 * The step outputs: the verdict and the key figures, as strings a workflow can compare. Numbers
 * are plain decimals with full precision (never exponent notation: 1e-7 is "0.0000001"), and an
 * undefined figure is the empty string.
 */
import type { Report } from "../core/report/report-types.js";

export const OUTPUT_NAMES = [
  "verdict",
  "margin",
  "margin-lower",
  "margin-upper",
  "lcb",
  "common-valid-tasks",
  "disputed-fraction",
  "infra-error-rate-baseline",
  "infra-error-rate-candidate",
  "review-fragility",
  "verdict-exclude",
  "verdict-count-as-fail",
  "verdict-bound",
  "guardrails",
  "benchmarks",
  "run-count",
  "report-path",
  "check-run-id",
  "comment-id",
] as const;

export type OutputName = (typeof OUTPUT_NAMES)[number];

/** The shortest round-tripping decimal of `x`, without exponent; "" for null or non-finite. */
export function plainDecimal(x: number | null | undefined): string {
  if (typeof x !== "number" || !Number.isFinite(x)) return "";
  if (Object.is(x, -0)) return "0";
  const s = String(x);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const sign = m[1] ?? "";
  const digits = (m[2] ?? "") + (m[3] ?? "");
  const point = (m[2] ?? "").length + Number(m[4]);
  let out: string;
  if (point <= 0) out = `0.${"0".repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + "0".repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  out = out.replace(/^0+(?=\d)/, "");
  if (out.includes(".")) out = out.replace(/0+$/, "").replace(/\.$/, "");
  return sign + out;
}

/**
 * Several benchmarks (docs/spec.md §4.6): each one's line as JSON, by name (fromJSON in a
 * workflow); "" with one benchmark.
 */
function benchmarksOutput(report: Report): string {
  if (report.benchmarks === undefined) return "";
  return JSON.stringify(
    report.benchmarks.map((b) => ({
      name: b.name,
      verdict: b.verdict,
      required: b.required,
      canary: b.canary,
      margin: b.margin,
      margin_low: b.margin_low,
      margin_high: b.margin_high,
      lcb: b.lcb,
      ucb: b.ucb,
      common_valid_tasks: b.common_valid_tasks,
    })),
  );
}

export interface OutputExtras {
  readonly reportPath: string;
  readonly checkRunId: number | null;
  readonly commentId: number | null;
}

/** The figures of a report as step outputs (without the ids known only after publishing). */
export function reportOutputs(
  report: Report,
  reportPath: string,
): Record<Exclude<OutputName, "check-run-id" | "comment-id">, string> {
  const c = report.comparison;
  return {
    verdict: report.verdict,
    margin: plainDecimal(c.margin),
    "margin-lower": plainDecimal(c.margin_lower),
    "margin-upper": plainDecimal(c.margin_upper),
    lcb: plainDecimal(c.lcb),
    "common-valid-tasks": plainDecimal(c.common_valid_tasks),
    "disputed-fraction": plainDecimal(c.disputed_fraction),
    "infra-error-rate-baseline": plainDecimal(report.models.baseline.infra_error_rate),
    "infra-error-rate-candidate": plainDecimal(report.models.candidate.infra_error_rate),
    "review-fragility": plainDecimal(c.review_fragility),
    // The verdict under each infra_errors mode (the three readings); `verdict` is the policy's.
    "verdict-exclude": report.infra_readings.exclude.verdict,
    "verdict-count-as-fail": report.infra_readings.count_as_fail.verdict,
    "verdict-bound": report.infra_readings.bound.verdict,
    // The report's entries as one line of JSON; "" when the report has none (docs/spec.md §4.5).
    guardrails: report.guardrails === undefined ? "" : JSON.stringify(report.guardrails),
    benchmarks: benchmarksOutput(report),
    // This gate's runs on the head commit, this one included; "" when the earlier ones could not be read.
    "run-count":
      report.runs === undefined || report.runs.unavailable !== null ? "" : String(report.runs.run_count),
    "report-path": reportPath,
  };
}

export function idOutputs(
  checkRunId: number | null,
  commentId: number | null,
): Record<"check-run-id" | "comment-id", string> {
  return {
    "check-run-id": checkRunId === null ? "" : String(checkRunId),
    "comment-id": commentId === null ? "" : String(commentId),
  };
}
