/** The handmade reports' `infra_readings` (fixtures.ts). */
import type { Report } from "../../src/core/report/report-types.js";
import type { InfraReading } from "../../src/core/verdict-types.js";

/**
 * The report with `infra_readings` made from its own comparison: each mode's reading the same (a
 * handmade report has no lost results to read three ways). A renderer shows them only when the
 * models have infra errors.
 */
export function withReadings(given: Omit<Report, "infra_readings"> & { infra_readings?: unknown }): Report {
  // (A report made from another carries the other's readings: made again here.)
  const copy = { ...given };
  delete copy.infra_readings;
  const report = copy as Omit<Report, "infra_readings">;
  const c = report.comparison;
  const one: InfraReading = {
    common_tasks: c.common_tasks,
    common_valid_tasks: c.common_valid_tasks,
    margin: c.margin,
    margin_low: c.margin_lower,
    margin_high: c.margin_upper,
    lcb: c.lcb,
    ucb: c.ucb,
    verdict: report.verdict,
  };
  // (Key order as buildReport's: after comparison.)
  const { schema_version, verdict, reasons, warnings, checks, comparison, ...rest } = report;
  return {
    schema_version,
    verdict,
    reasons,
    warnings,
    checks,
    comparison,
    infra_readings: { exclude: one, count_as_fail: one, bound: one },
    ...rest,
  };
}
