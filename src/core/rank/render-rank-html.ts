/**
 * The rank report as one self-contained HTML page (`model-gate rank --format html`): the headline
 * and summary, the score chart (each model's score, validity band and run-variance band, groups
 * shaded), the pair matrix coloured by relation, and the Markdown's tables (leaderboard, adjacent
 * pairs, open tasks to review first, the common set, settings). Inline CSS and SVG only, no
 * script (html-page.ts). Untrusted text goes through HTML_INLINE (html-text.ts), and the sentences
 * and rows are rank-sections.ts's, as in the Markdown and the text. Same report → same bytes.
 */
import { COLOURS, htmlDocument, legendItem, warningBoxes } from "../report/html/html-page.js";
import { HTML_INLINE, htmlTable } from "../report/html/html-text.js";
import {
  HTML_MATRIX_MAX_MODELS,
  pairMatrixHtml,
  SCORE_CHART_MAX_MODELS,
  scoreChartSvg,
} from "./rank-charts-html.js";
import {
  add,
  adjacentPairs,
  commonRows,
  COMMON_HEADER,
  FULL_DETAIL,
  leaderboardHeader,
  leaderboardRows,
  matrixLegend,
  PAIR_HEADER,
  pairRow,
  RANK_NOTE,
  RANK_TITLE,
  rankHeader,
  reviewSentence,
  settingsLines,
  TASK_HEADER,
  taskRows,
  unresolvedPairs,
} from "./rank-sections.js";
import type { RankReport } from "./rank-types.js";
import { rankGateParts } from "./render-rank-gate.js";

const f = HTML_INLINE;

const p = (safe: string, cls?: string): string =>
  `<p${cls === undefined ? "" : ` class="${cls}"`}>${safe}</p>`;

function scoreSection(r: RankReport): string[] {
  const shown = Math.min(r.models.length, SCORE_CHART_MAX_MODELS);
  return [
    "<h2>Scores</h2>",
    `<ul class="legend">${[
      `<li><svg width="14" height="10" aria-hidden="true"><circle cx="7" cy="5" r="4.5" fill="${COLOURS.point}"/></svg> score (valid-only, common set)</li>`,
      legendItem(
        COLOURS.band,
        "validity band: the score under every resolution of the open labels",
        COLOURS.bandEdge,
      ),
      `<li><svg width="18" height="10" aria-hidden="true"><rect x="0" y="4" width="18" height="2" fill="${COLOURS.run}"/><rect x="0" y="0" width="1.5" height="10" fill="${COLOURS.run}"/><rect x="16.5" y="0" width="1.5" height="10" fill="${COLOURS.run}"/></svg> run-variance band: the validity band widened by q·SE</li>`,
      legendItem(COLOURS.groupShade, "G: group (separated from the next; not a tie)"),
    ].join("")}</ul>`,
    "<figure>",
    scoreChartSvg(r),
    `<figcaption>${f.gen(
      (shown < r.models.length
        ? `The top ${shown} of ${r.models.length} models (the tables have every model). `
        : "") +
        `Each band is one model's own (its SE, ${r.settings.confidence} one-sided at each end, no multiplicity adjustment): ` +
        "overlapping bands do not make a pair unresolved, nor separate ones ordered. The order comes from the pairs " +
        "(paired differences on the same tasks, a step-down over the pairs): see the matrix.",
    )}</figcaption>`,
    "</figure>",
  ];
}

function pairSection(r: RankReport): string[] {
  const out = ["<h2>Pairs</h2>"];
  if (r.models.length <= HTML_MATRIX_MAX_MODELS) {
    out.push(
      `<ul class="legend">${[
        legendItem(COLOURS.above, "▲ row ordered above column"),
        legendItem(COLOURS.below, "▼ row ordered below column"),
        legendItem(COLOURS.validity, "≈v unresolved: the open labels can decide it"),
        legendItem(COLOURS.runVariance, "≈r unresolved by run variance (or an exact tie)"),
      ].join("")}</ul>`,
      pairMatrixHtml(r),
      p(f.gen(`${matrixLegend(r)} Hover a cell for its figures.`), "small"),
    );
  } else {
    const open = unresolvedPairs(r);
    const shown = open.slice(0, FULL_DETAIL.pairs);
    out.push(p(f.gen(`Unresolved pairs: ${open.length} of ${r.pairs.length}.`)));
    if (shown.length > 0)
      out.push(
        htmlTable(
          PAIR_HEADER.map((s) => f.gen(s)),
          shown.map((x) => pairRow(r, x, f)),
          { numeric: [1, 2, 3, 4, 5] },
        ),
      );
    if (shown.length < open.length)
      out.push(p(f.gen(`… and ${open.length - shown.length} more (every pair is in the report JSON).`)));
  }
  out.push(
    p(f.gen("Adjacent models (in rank order):")),
    htmlTable(
      PAIR_HEADER.map((s) => f.gen(s)),
      adjacentPairs(r).map((x) => pairRow(r, x, f)),
      { numeric: [1, 2, 3, 4, 5] },
    ),
  );
  return out;
}

function reviewSection(r: RankReport): string[] {
  if (r.review_first.length === 0) return [];
  const out = ["<h2>Open tasks to review first</h2>"];
  for (const x of r.review_first) {
    // Evidence as text, never a link: the page loads and links to nothing.
    const rows = taskRows(x, FULL_DETAIL.tasks, f, (e) => f.code(e, 120));
    out.push(p(reviewSentence(r, x, f, rows.length)));
    if (rows.length > 0)
      out.push(
        htmlTable(
          TASK_HEADER.map((s) => f.gen(s)),
          rows,
          { numeric: [2] },
        ),
      );
    if (rows.length < x.tasks.length)
      out.push(p(f.gen(`… and ${x.tasks.length - rows.length} more in the report JSON.`)));
  }
  return out;
}

/**
 * The gate's block above the ranking when the policy gates on a candidate (as the CLI's Markdown
 * and the action's comment do): top_resolved is the headline's already.
 */
function gateSection(r: RankReport): string[] {
  if (r.gate.require === "top_resolved") return [];
  const parts = rankGateParts(r, f);
  return [
    `<h2><span class="verdict-${f.gen(r.gate.verdict)}">${parts.heading}</span></h2>`,
    p(parts.requirement),
    ...(parts.reasons.length === 0
      ? []
      : [`<ul>${parts.reasons.map((x) => `<li>${x}</li>`).join("\n")}</ul>`]),
  ];
}

/** The page. Deterministic: the same report gives the same bytes. */
export function renderRankHtml(r: RankReport): string {
  return htmlDocument(RANK_TITLE, rankHtmlBody(r).join("\n"));
}

/** The page's body: the gate block (when gating on a candidate), the ranking, its tables. */
export function rankHtmlBody(r: RankReport): string[] {
  const head = rankHeader(r, f);
  const body: string[] = [...gateSection(r), `<h1>${head.title}</h1>`, ...head.summary.map((s) => p(s))];
  // rankHeader escapes every warning; the page shows the first HTML_WARNINGS_MAX of them.
  add(
    body,
    warningBoxes(head.warnings, (w) => w),
  );
  add(body, scoreSection(r));
  add(body, pairSection(r));
  const header = leaderboardHeader(r);
  body.push(
    "<h2>Leaderboard</h2>",
    htmlTable(
      header.map((s) => f.gen(s)),
      leaderboardRows(r, f),
      // The group is a number: aligned as one, and its header is not broken mid-word when the
      // model column takes the width.
      { numeric: [0, 2, header.indexOf("group")] },
    ),
    p(f.gen(RANK_NOTE)),
  );
  add(body, reviewSection(r));
  body.push(
    "<h2>Common set</h2>",
    p(
      f.gen(
        `${r.common_tasks} tasks every ranked model has a score on (${r.common_valid_tasks} valid, ${r.unresolved_tasks} open), of ${r.universe_tasks} non-broken tasks any of them ran. A model's absence would add back the tasks only it lacks:`,
      ),
    ),
    htmlTable(
      COMMON_HEADER.map((s) => f.gen(s)),
      commonRows(r, f),
      { numeric: [1, 2] },
    ),
    "<h2>Settings and provenance</h2>",
  );
  add(
    body,
    settingsLines(r, f).map((s) => p(s, "small")),
  );
  return body;
}
