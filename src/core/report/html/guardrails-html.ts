/**
 * The guardrails on the evaluate page (docs/spec.md §4.5), right after the verdict: a chart of each
 * metric's R with its one-sided bounds against 1 (no change) and the guardrail's limit, then the
 * table of both means, R, the bounds, the limit, the missing share and the verdict. Without
 * guardrails in the policy, the figures alone in a collapsed section. Inline SVG with generated
 * text only (metric names are escaped; they match [a-z][a-z0-9_]* anyway).
 */
import type { GuardrailEntry } from "../../decision/guardrails.js";
import { formatPercent } from "../format-number.js";
import { formatMetric, formatRatio } from "../render-guardrails.js";
import type { Report } from "../report-types.js";
import { COLOURS } from "./html-page.js";
import { escapeHtmlText, HTML_INLINE, htmlTable } from "./html-text.js";
import { linearScale, niceAxis, px, tickDecimals } from "./svg-geometry.js";

const g = (s: string): string => HTML_INLINE.gen(s);

/** The chart's frame, in SVG user units: one row of ROW units per metric. */
const FRAME = { width: 840, plotLeft: 190, plotRight: 630, top: 36, row: 28 } as const;

const VERDICT_COLOUR: Readonly<Record<string, string>> = {
  pass: COLOURS.accept,
  fail: COLOURS.reject,
  unresolved: COLOURS.unresolved,
};

function finite(x: number | null): x is number {
  return x !== null && Number.isFinite(x);
}

/** R's interval per metric against 1 and each limit; null when no metric has an R. */
export function guardrailChartSvg(entries: readonly GuardrailEntry[]): string | null {
  const drawn = entries.filter((e) => finite(e.ratio));
  if (drawn.length === 0) return null;
  const values = [1];
  for (const e of drawn)
    for (const v of [e.ratio, e.ratio_low, e.ratio_high, e.limit]) if (finite(v)) values.push(v);
  const axis = niceAxis(values, { maxIntervals: 6, minSpan: 0.2, limitLo: 0, limitHi: 1e9 });
  const x = linearScale(axis.lo, axis.hi, FRAME.plotLeft, FRAME.plotRight);
  const axisY = FRAME.top + drawn.length * FRAME.row + 4;
  const height = axisY + 30;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="guardrail-chart" viewBox="0 0 ${FRAME.width} ${height}" role="img" aria-labelledby="guardrail-chart-title">`,
    `<title id="guardrail-chart-title">${g(
      drawn
        .map(
          (e) =>
            `${e.metric}: R ${formatRatio(e.ratio)}, bounds ${formatRatio(e.ratio_low)} to ${e.ratio_high === null ? "unbounded" : formatRatio(e.ratio_high)}${e.limit === null ? "" : `, limit ${formatRatio(e.limit)}`}`,
        )
        .join("; "),
    )}</title>`,
  ];
  const decimals = tickDecimals(axis.step);
  for (const t of axis.ticks) {
    const tx = px(x(t));
    out.push(
      `<line x1="${tx}" x2="${tx}" y1="${FRAME.top - 8}" y2="${axisY}" stroke="${COLOURS.grid}"/>`,
      `<text x="${tx}" y="${axisY + 16}" text-anchor="middle" font-size="12" fill="${COLOURS.muted}">${t.toFixed(decimals)}×</text>`,
    );
  }
  const oneX = px(x(1));
  out.push(
    `<line x1="${FRAME.plotLeft}" x2="${FRAME.plotRight}" y1="${axisY}" y2="${axisY}" stroke="${COLOURS.muted}"/>`,
    `<line x1="${oneX}" x2="${oneX}" y1="${FRAME.top - 8}" y2="${axisY}" stroke="${COLOURS.ink}"/>`,
    `<text x="${oneX}" y="${FRAME.top - 14}" text-anchor="middle" font-size="12" fill="${COLOURS.ink}">1× (no change)</text>`,
  );
  drawn.forEach((e, k) => {
    const cy = FRAME.top + k * FRAME.row + FRAME.row / 2;
    const colour = e.verdict === null ? COLOURS.run : (VERDICT_COLOUR[e.verdict] ?? COLOURS.run);
    out.push(
      `<text x="${FRAME.plotLeft - 12}" y="${px(cy + 4)}" text-anchor="end" font-size="13" fill="${COLOURS.ink}">${escapeHtmlText(e.metric, 64)}</text>`,
    );
    if (finite(e.limit)) {
      const lx = px(x(e.limit));
      out.push(
        `<line class="limit" x1="${lx}" x2="${lx}" y1="${px(cy - 11)}" y2="${px(cy + 11)}" stroke="${COLOURS.delta0}" stroke-width="2" stroke-dasharray="4 2"/>`,
      );
    }
    if (finite(e.ratio_low)) {
      const x0 = x(e.ratio_low);
      // An unbounded upper bound runs to the plot's edge.
      const x1 = finite(e.ratio_high) ? x(e.ratio_high) : FRAME.plotRight;
      out.push(
        `<rect class="run-band" x="${px(x0)}" y="${px(cy - 1)}" width="${px(Math.max(1.5, x1 - x0))}" height="2" fill="${colour}"/>`,
        `<rect x="${px(x0)}" y="${px(cy - 6)}" width="1.5" height="12" fill="${colour}"/>`,
      );
      if (finite(e.ratio_high))
        out.push(`<rect x="${px(x1 - 1.5)}" y="${px(cy - 6)}" width="1.5" height="12" fill="${colour}"/>`);
    }
    out.push(`<circle cx="${px(x(e.ratio as number))}" cy="${px(cy)}" r="4.5" fill="${colour}"/>`);
    out.push(
      `<text x="${FRAME.plotRight + 12}" y="${px(cy + 4)}" font-size="12" fill="${COLOURS.muted}">${g(`${formatRatio(e.ratio)}${e.verdict === null ? "" : ` ${e.verdict}`}`)}</text>`,
    );
  });
  out.push("</svg>");
  return out.join("");
}

function rows(entries: readonly GuardrailEntry[], gated: boolean): string[][] {
  return entries.map((e) => [
    ...(gated
      ? [
          g(
            e.verdict === null
              ? "no guardrail"
              : e.verdict === "pass"
                ? "✅\u00a0pass"
                : e.verdict === "fail"
                  ? "❌\u00a0fail"
                  : "❔\u00a0unresolved",
          ),
        ]
      : []),
    HTML_INLINE.code(e.metric, 64),
    g(formatMetric(e.baseline_mean)),
    g(formatMetric(e.candidate_mean)),
    g(formatRatio(e.ratio)),
    g(
      e.ratio_low === null
        ? "n/a"
        : `${formatRatio(e.ratio_low)} … ${e.ratio_high === null ? "∞" : formatRatio(e.ratio_high)}`,
    ),
    ...(gated ? [g(e.limit === null ? "n/a" : `≤ ${formatRatio(e.limit)}`)] : []),
    g(e.missing_fraction === null ? "n/a" : formatPercent(e.missing_fraction)),
  ]);
}

/** The section; nothing when the report has no guardrails. */
export function guardrailsHtml(report: Report): string[] {
  const entries = report.guardrails;
  if (entries === undefined || entries.length === 0) return [];
  const gated = entries.some((e) => e.verdict !== null);
  const caption = g(
    `R = candidate's mean per task ÷ baseline's, over the common tasks both carry the metric on; bounds ${formatPercent(report.comparison.confidence, 0)} one-sided (Fieller), ${report.comparison.standard_error} over tasks; a dashed line marks each guardrail's limit.`,
  );
  const svg = guardrailChartSvg(entries);
  const header = [
    ...(gated ? ["Result"] : []),
    "Metric",
    "Baseline",
    "Candidate",
    "R",
    "Bounds",
    ...(gated ? ["Needs"] : []),
    "Missing",
  ];
  const body = [
    ...(svg === null ? [] : ["<figure>", svg, `<figcaption>${caption}</figcaption>`, "</figure>"]),
    htmlTable(
      header.map((s) => g(s)),
      rows(entries, gated),
      { numeric: gated ? [2, 3, 4] : [1, 2, 3] },
    ),
  ];
  if (gated) return ["<h2>Guardrails</h2>", ...body];
  return [
    "<details>",
    `<summary>${g(`Cost and latency figures (no guardrails in the policy): ${entries.length} ${entries.length === 1 ? "metric" : "metrics"}`)}</summary>`,
    ...body,
    "</details>",
  ];
}
