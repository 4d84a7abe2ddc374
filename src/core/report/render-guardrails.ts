/**
 * The guardrails section (docs/spec.md §4.5) right after the verdict, in Markdown and plain text:
 * per metric both means per task, R = candidate ÷ baseline with its one-sided bounds, the limit,
 * the share of common tasks lacking the metric and the verdict. Without guardrails in the policy
 * an export with metrics gets the same figures without a verdict, collapsed: what the team could
 * gate on. Nothing when the report has no `guardrails`.
 */
import type { GuardrailEntry } from "../decision/guardrails.js";
import { formatPercent, NOT_AVAILABLE } from "../format-number.js";
import { details, genMd, table } from "./markdown-blocks.js";
import type { Report } from "./report-types.js";
import { cellCode } from "./table-cells.js";
import { neutraliseLogLine } from "./escape.js";

/**
 * A mean per task, to 4 significant digits (docs/spec.md §4.5): metrics run from fractions of a
 * cent to 10⁵ tokens. From 1,000 up the rounded figure is written in full with thousands
 * separators (8,555 and 374,400 tokens, not 3.744e+5: one style beside each other); below 10⁻⁶
 * in exponent form (1.235e-7).
 */
export function formatMetric(x: number | null): string {
  if (x === null) return NOT_AVAILABLE;
  if (x === 0) return "0";
  const s = x.toPrecision(4);
  const rounded = Number(s);
  if (Math.abs(rounded) >= 1_000) return rounded.toLocaleString("en-US", { maximumFractionDigits: 0 });
  return s.includes("e") ? s : String(rounded);
}

/** A ratio as a multiple, e.g. "1.503×". */
export function formatRatio(x: number | null): string {
  return x === null ? NOT_AVAILABLE : `${x.toFixed(3)}×`;
}

const VERDICT_CELL: Readonly<Record<string, string>> = {
  pass: "✅&nbsp;pass",
  fail: "❌&nbsp;fail",
  unresolved: "❔&nbsp;unresolved",
};

function cells(g: GuardrailEntry): { means: string[]; ratio: string; bounds: string; missing: string } {
  return {
    means: [formatMetric(g.baseline_mean), formatMetric(g.candidate_mean)],
    ratio: formatRatio(g.ratio),
    bounds:
      g.ratio_low === null || g.ratio_high === null
        ? NOT_AVAILABLE
        : `${formatRatio(g.ratio_low)} … ${formatRatio(g.ratio_high)}`,
    missing: g.missing_fraction === null ? NOT_AVAILABLE : formatPercent(g.missing_fraction),
  };
}

function gated(report: Report): boolean {
  return (report.guardrails ?? []).some((g) => g.verdict !== null);
}

function caption(report: Report): string {
  const conf = formatPercent(report.comparison.confidence, 0);
  return `R = candidate's mean per task ÷ baseline's, over the common tasks both carry the metric on; bounds ${conf} one-sided, ${report.comparison.standard_error} over tasks`;
}

export function guardrailsMarkdown(report: Report): string[] {
  const entries = report.guardrails;
  if (entries === undefined || entries.length === 0) return [];
  if (!gated(report)) {
    const rows = entries.map((g) => {
      const c = cells(g);
      return [cellCode(g.metric, 64), ...c.means, c.ratio, c.bounds, c.missing, String(g.tasks)];
    });
    const body = [
      genMd(
        `${caption(report)}. Add guardrails to the policy to gate on them (docs/policy.md "Guardrails").`,
      ),
      "",
      ...table(
        ["Metric", "Baseline", "Candidate", "R", "Bounds", "Missing", "Tasks"],
        ["l", "r", "r", "r", "l", "r", "r"],
        rows,
      ),
    ];
    return details(
      `Cost and latency figures (no guardrails in the policy): ${entries.length} ${entries.length === 1 ? "metric" : "metrics"}`,
      body,
    );
  }
  const rows = entries.map((g) => {
    const c = cells(g);
    const verdict = g.verdict === null ? "no guardrail" : (VERDICT_CELL[g.verdict] ?? NOT_AVAILABLE);
    const limit = g.limit === null ? NOT_AVAILABLE : `≤&nbsp;${formatRatio(g.limit)}`;
    return [verdict, cellCode(g.metric, 64), ...c.means, c.ratio, c.bounds, limit, c.missing];
  });
  return [
    "**Guardrails**",
    "",
    ...table(
      ["Result", "Metric", "Baseline", "Candidate", "R", "Bounds", "Needs", "Missing"],
      ["l", "l", "r", "r", "r", "l", "l", "r"],
      rows,
    ),
    "",
    genMd(`${caption(report)}.`),
  ];
}

export function guardrailsText(report: Report): string[] {
  const entries = report.guardrails;
  if (entries === undefined || entries.length === 0) return [];
  const withVerdict = gated(report);
  const out = [withVerdict ? "Guardrails" : "Cost and latency figures (no guardrails in the policy)"];
  for (const g of entries) {
    const c = cells(g);
    const head = withVerdict ? `${(g.verdict ?? "-").toUpperCase().padEnd(10)} ` : "";
    const limit = g.limit === null ? "" : `, needs ≤ ${formatRatio(g.limit)}`;
    out.push(neutraliseLogLine(`  ${head}${g.metric}: R ${c.ratio} (${c.bounds})${limit}`));
    out.push(
      neutraliseLogLine(
        `  ${withVerdict ? " ".repeat(11) : ""}mean per task: baseline ${c.means[0] ?? ""}, candidate ${c.means[1] ?? ""}; missing ${c.missing}, ${g.tasks} tasks`,
      ),
    );
  }
  out.push("  R = candidate's mean per task ÷ baseline's, over the common tasks both carry the metric on;");
  const conf = formatPercent(report.comparison.confidence, 0);
  out.push(`  bounds ${conf} one-sided, ${report.comparison.standard_error} over tasks.`);
  return out;
}
