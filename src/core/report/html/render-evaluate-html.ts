/**
 * The evaluate report as one self-contained HTML page (`model-gate evaluate --format html`): the
 * verdict, why, the margin chart (Δ̂, Δ_L..Δ_H, LCB..UCB against 0 and δ₀), what would change the
 * verdict, warnings, the checks, what changed since the last run (evaluate-since-html.ts), the
 * margin by review revision (chart and table), the margin figures, the per-model figures and the
 * settings. Inline CSS and SVG only, no script
 * (html-page.ts); untrusted text through HTML_INLINE (html-text.ts); the sentences are
 * verdict-text.ts's, as in the Markdown. Same report → same bytes.
 */
import { anyConservative, boundName, CONSERVATIVE } from "../bound-labels.js";
import { observedValue, OBSERVED_VALUE_CHARS, thresholdText } from "../check-display.js";
import {
  formatCount,
  formatDecimal,
  formatPercent,
  formatPercentInterval,
  formatPp,
  formatPpUnsigned,
} from "../format-number.js";
import { THRESHOLD_MAX_CHARS, wholeText } from "../prose.js";
import type { Report } from "../report-types.js";
import {
  checkName,
  expiredPolicyNote,
  observedMargin,
  whatWouldChange,
  whySentence,
} from "../verdict-text.js";
import {
  READING_HEADER,
  infraModeWords,
  readingRows,
  readingsNote,
  readingsShown,
} from "../render-infra-readings.js";
import type { ModelFigures } from "../../verdict-types.js";
import { plural } from "../../words.js";
import { marginChartSvg, revisionChartSvg } from "./evaluate-charts-svg.js";
import { sinceLastRunHtml } from "./evaluate-since-html.js";
import { guardrailsHtml } from "./guardrails-html.js";
import { benchmarksHtmlBody } from "./render-benchmarks-html.js";
import { COLOURS, htmlDocument, legendItem, warningBoxes } from "./html-page.js";
import { escapeHtmlText, HTML_INLINE, htmlTable } from "./html-text.js";

const f = HTML_INLINE;
const g = (s: string): string => f.gen(s);

const p = (safe: string, cls?: string): string =>
  `<p${cls === undefined ? "" : ` class="${cls}"`}>${safe}</p>`;

const ICON: Readonly<Record<string, string>> = { accept: "✅", reject: "❌", unresolved: "⚠️" };

function headline(report: Report): string {
  const { baseline, candidate } = report.models;
  const verdict: string = report.verdict;
  const cls = verdict in ICON ? ` class="verdict-${verdict}"` : "";
  const expired = expiredPolicyNote(report);
  return `<h1><span${cls}>${ICON[verdict] ?? "❔"} ${escapeHtmlText(verdict, 20)}</span>${expired === null ? "" : g(` (⌛ ${expired})`)} — candidate ${f.code(candidate.config, 120)} over baseline ${f.code(baseline.config, 120)}</h1>`;
}

const MARK_LEGEND = [
  `<li><svg width="14" height="10" aria-hidden="true"><circle cx="7" cy="5" r="4.5" fill="${COLOURS.point}"/></svg> Δ̂, the observed margin on the common valid tasks</li>`,
  legendItem(
    COLOURS.band,
    "validity bounds Δ_L … Δ_H: the margin under every resolution of the open labels",
    COLOURS.bandEdge,
  ),
  `<li><svg width="18" height="10" aria-hidden="true"><rect x="0" y="4" width="18" height="2" fill="${COLOURS.run}"/><rect x="0" y="0" width="1.5" height="10" fill="${COLOURS.run}"/><rect x="16.5" y="0" width="1.5" height="10" fill="${COLOURS.run}"/></svg> LCB … UCB: with run variance</li>`,
  `<li><svg width="18" height="10" aria-hidden="true"><line x1="0" x2="18" y1="5" y2="5" stroke="${COLOURS.delta0}" stroke-width="2" stroke-dasharray="5 3"/></svg> δ₀, the bar: accept needs LCB &gt; δ₀, reject needs UCB ≤ δ₀</li>`,
].join("");

function marginSection(report: Report): string[] {
  const svg = marginChartSvg(report);
  const c = report.comparison;
  if (svg === null)
    return ["<h2>Margin</h2>", p(g("The margin is undefined: there are no common valid tasks to compare."))];
  return [
    "<h2>Margin</h2>",
    `<ul class="legend">${MARK_LEGEND}</ul>`,
    "<figure>",
    svg,
    `<figcaption>${g(
      `Candidate − baseline on ${plural(c.common_valid_tasks, "common valid task")}, ${plural(c.unresolved_tasks, "open label")} (${formatCount(c.disputed_tasks)} disputed, ${formatCount(c.unreviewed_tasks)} unreviewed), ${formatPercent(c.confidence)} one-sided` +
        (anyConservative(c) ? `; LCB … UCB are ${CONSERVATIVE} bounds.` : "."),
    )}</figcaption>`,
    "</figure>",
  ];
}

function checksSection(report: Report): string[] {
  if (report.checks.length === 0) return ["<h2>Checks</h2>", p(g("No checks were run."))];
  const rows = report.checks.map((c) => {
    const v = observedValue(c);
    const name = checkName(c.id, f, report);
    return [
      c.passed ? g("✅\u00a0pass") : g("❌\u00a0fail"),
      c.passed ? name : f.strong(name),
      v.kind === "number" ? g(v.text) : escapeHtmlText(v.text, OBSERVED_VALUE_CHARS),
      escapeHtmlText(wholeText(thresholdText(c, report), THRESHOLD_MAX_CHARS, "…"), Infinity),
    ];
  });
  return [
    "<h2>Checks</h2>",
    htmlTable(
      ["Result", "Check", "Observed", "Needs"].map((s) => g(s)),
      rows,
    ),
  ];
}

function changeSection(report: Report): string[] {
  const items = whatWouldChange(report, f);
  if (items.length === 0) return [];
  return [
    "<h2>What would change the verdict</h2>",
    `<ul>${items.map((i) => `<li>${i}</li>`).join("\n")}</ul>`,
  ];
}

function revisionSection(report: Report): string[] {
  const v = report.verdict_by_review_revision;
  const svg = revisionChartSvg(report);
  if (svg === null) return ["<h2>Margin by review revision</h2>", p(g("No review revision in the data."))];
  const out = ["<h2>Margin by review revision</h2>"];
  if (v.revisions_present > v.revisions.length)
    out.push(
      p(g(`The latest ${v.revisions.length} of ${formatCount(v.revisions_present)} review revisions.`)),
    );
  // The marks are the margin chart's: its legend is not repeated when that chart is drawn.
  if (marginChartSvg(report) === null) out.push(`<ul class="legend">${MARK_LEGEND}</ul>`);
  out.push("<figure>", svg, "</figure>");
  const rows = v.revisions.map((r) => [
    g(`r${formatCount(r.revision)}`),
    g(
      `${formatCount(r.labels.valid)} · ${formatCount(r.labels.disputed + r.labels.unreviewed)} · ${formatCount(r.labels.broken)}`,
    ),
    g(formatPp(r.margin)),
    g(`${formatPp(r.margin_lower)} … ${formatPp(r.margin_upper)}`),
    g(
      `${formatPp(r.lcb)} … ${formatPp(r.ucb)}${r.lcb_bound_kind === "conservative" || r.ucb_bound_kind === "conservative" ? ` (${CONSERVATIVE})` : ""}`,
    ),
    r.label_conflicts > 0
      ? g(`labels conflict on ${plural(r.label_conflicts, "task")}`)
      : escapeHtmlText(r.verdict ?? "n/a", 20),
  ]);
  out.push(
    htmlTable(
      ["Revision", "Valid · open · broken", "Δ̂", "Δ_L … Δ_H", "LCB … UCB", "Verdict"].map((s) => g(s)),
      rows,
      {
        numeric: [0, 1, 2, 3, 4],
      },
    ),
  );
  const last = v.latest_reclassification;
  // One that moved the verdict is the page's first warning already: said once.
  if (last !== null && !last.verdict_changed)
    out.push(
      p(
        g(
          `Latest reclassification: review revision ${formatCount(last.revision)} reclassified ${plural(last.tasks_changed, "task")}; the verdict did not move.`,
        ),
      ),
    );
  return out;
}

function figuresSection(report: Report): string[] {
  const c = report.comparison;
  const rows: string[][] = [
    ["Observed margin Δ̂", observedMargin(c)],
    [
      `Validity bounds Δ_L … Δ_H (${c.validity_bound})`,
      `${formatPp(c.margin_lower)} … ${formatPp(c.margin_upper)}`,
    ],
    [`Standard error (${c.standard_error}) on the valid tasks, SE(V)`, formatPpUnsigned(c.se_valid)],
    [`Quantile q for LCB / UCB (${c.quantile})`, `${formatDecimal(c.q_lower)} / ${formatDecimal(c.q_upper)}`],
    [boundName(c, "lcb"), formatPp(c.lcb)],
    [boundName(c, "ucb"), formatPp(c.ucb)],
    ["Bar δ₀", formatPp(c.delta0)],
  ].map((r) => r.map((x) => escapeHtmlText(x, 200)));
  return ["<h2>Margin figures</h2>", htmlTable([g("Figure"), g("Value")], rows, { numeric: [1] })];
}

/** The three readings of the infra errors (render-infra-readings.ts); only with infra errors. */
function readingsSection(report: Report): string[] {
  if (!readingsShown(report)) return [];
  const rows = readingRows(report).map((r) =>
    r.cells.map((cell, i) => {
      const escaped = g(i === 0 && r.decides ? `${cell}, the policy's` : cell);
      // A figure never breaks from its unit ("+2.13 pp"); a range may break after its "…".
      const text = i >= 1 && i <= 6 ? escaped.replace(/ (pp|…)/g, "&nbsp;$1") : escaped;
      return r.decides && (i === 0 || i === 7) ? f.strong(text) : text;
    }),
  );
  return [
    "<h2>Infra errors, three readings</h2>",
    htmlTable(
      READING_HEADER.map((h) => g(h)),
      rows,
      { numeric: [1, 2, 3, 4, 5, 6] },
    ),
    p(g(readingsNote(report)), "small"),
  ];
}

function perModelSection(report: Report): string[] {
  const { baseline: b, candidate: a } = report.models;
  const row = (label: string, x: (m: ModelFigures) => string): string[] => [g(label), g(x(b)), g(x(a))];
  const rows = [
    row("Attempts", (m) => formatCount(m.attempts)),
    row("Passes", (m) => formatCount(m.passes)),
    row("Fails", (m) => formatCount(m.fails)),
    row("Infra errors", (m) => formatCount(m.infra_errors)),
    row("Infra error rate", (m) => formatPercent(m.infra_error_rate)),
    row("Valid-only score, common set", (m) => formatPercent(m.common.valid_only_score)),
    row("Validity interval, exact, common set", (m) => formatPercentInterval(m.common.interval_exact)),
    row("Validity interval, pessimistic, common set", (m) =>
      formatPercentInterval(m.common.interval_pessimistic),
    ),
  ];
  return [
    "<h2>Per-model figures</h2>",
    htmlTable(
      ["", "Baseline", "Candidate"].map((s) => g(s)),
      rows,
      { numeric: [1, 2] },
    ),
  ];
}

function settingsSection(report: Report): string[] {
  const c = report.comparison;
  const pr = report.provenance;
  const pol = pr.policy;
  return [
    "<h2>Settings and provenance</h2>",
    p(
      g(
        `${formatPercent(c.confidence)} one-sided · δ₀ ${formatPp(c.delta0)} · ${c.standard_error} SE · ${c.validity_bound} validity bound · infra errors ${infraModeWords(pr.infra_errors_policy)} · policy owner `,
      ) +
        escapeHtmlText(pol.owner, 80) +
        g(" · revisit by ") +
        escapeHtmlText(pol.revisit, 40),
      "small",
    ),
    p(
      `${g("Policy")} ${f.code(pol.path, 120)} ${g("sha256")} ${f.code(pol.sha256, 80)}${g(` · tool model-acceptance-gate `)}${escapeHtmlText(pr.tool_version, 40)}${g(` · report schema `)}${escapeHtmlText(report.schema_version, 20)}${g(` · ${formatCount(pr.rows_read)} rows read.`)}`,
      "small",
    ),
    p(
      `${g("Inputs:")} ${
        pr.inputs
          .slice(0, 20)
          .map((i) => `${f.code(i.path, 120)} ${g("(sha256 ")}${escapeHtmlText(i.sha256, 13)}${g(")")}`)
          .join(", ") + (pr.inputs.length > 20 ? g(` and ${pr.inputs.length - 20} more`) : "")
      }`,
      "small",
    ),
  ];
}

/** The page. Deterministic: the same report gives the same bytes. */
export function renderEvaluateHtml(report: Report): string {
  const body =
    report.benchmarks === undefined
      ? evaluateBody(report)
      : benchmarksHtmlBody(report, report.benchmarks, evaluateBody);
  return htmlDocument("Model acceptance gate", body.join("\n"));
}

/** The page's body for one report (one benchmark's, or the only one). */
function evaluateBody(report: Report): string[] {
  const body: string[] = [headline(report), p(whySentence(report, f))];
  for (const line of guardrailsHtml(report)) body.push(line);
  for (const line of warningBoxes(report.warnings, (w) => f.text(w, 400))) body.push(line);
  for (const line of marginSection(report)) body.push(line);
  for (const line of changeSection(report)) body.push(line);
  for (const line of checksSection(report)) body.push(line);
  for (const line of sinceLastRunHtml(report)) body.push(line);
  for (const line of revisionSection(report)) body.push(line);
  for (const line of figuresSection(report)) body.push(line);
  for (const line of readingsSection(report)) body.push(line);
  for (const line of perModelSection(report)) body.push(line);
  for (const line of settingsSection(report)) body.push(line);
  return body;
}
