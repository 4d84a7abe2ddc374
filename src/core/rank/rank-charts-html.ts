/**
 * The rank page's two pictures (render-rank-html.ts): each model's score with its validity band
 * and run-variance band as an inline SVG, in rank order with the groups shaded; and the pair
 * matrix as an HTML table coloured by relation, each cell also saying it in text (▲ ▼ ≈v ≈r and
 * the margin), so colour is never the only carrier. Every model id is escaped (html-text.ts) and
 * cut for the picture, the full id in a <title> (SVG) or title attribute (table).
 */
import { formatPercent, formatPercentInterval, formatPp, signedFixed } from "../report/format-number.js";
import { isHiddenCodePoint, visibleCodePoint } from "../report/escape.js";
import { COLOURS } from "../report/html/html-page.js";
import { chartLabel, escapeHtmlGenerated } from "../report/html/html-text.js";
import { bandRect, linearScale, niceAxis, px, tickDecimals } from "../report/html/svg-geometry.js";
import { distinctLabels, WHOLE_ID_CHARS } from "./model-labels.js";
import { pairFrom } from "./rank-sections.js";
import type { RankModel, RankReport } from "./rank-types.js";

/** The score chart's frame, in SVG user units (the SVG scales to its box). */
export const SCORE_CHART = {
  width: 840,
  /** Characters of a row label, "#12 " included (monospace 12 px: about 7.2 px each). */
  labelChars: 32,
  plotLeft: 250,
  plotRight: 790,
  top: 28,
  rowHeight: 22,
  bottom: 30,
} as const;

/** At most this many models are drawn (the rest are in the tables; the caption says so). */
export const SCORE_CHART_MAX_MODELS = 60;
/** Up to this many models the pairs are a matrix; beyond, a list (render-rank-html.ts). */
export const HTML_MATRIX_MAX_MODELS = 30;

const pct = (x: number): number => x * 100;

/**
 * Each model's label for a picture (at most about `chars` characters, never two alike:
 * model-labels.ts) and its whole id for the tooltip, both escaped.
 */
function pictureLabels(models: readonly RankModel[], chars: number): { shown: string; full: string }[] {
  // Cut what is seen: hidden code points as their visible stand-ins (html-text.ts's rule).
  const labels = distinctLabels(
    models.map((m) => visibleText(m.model)),
    chars,
  );
  return models.map((m, i) => ({
    shown: escapeHtmlGenerated(labels[i] as string),
    full: chartLabel(m.model, WHOLE_ID_CHARS, WHOLE_ID_CHARS).full,
  }));
}

/** An id as the page shows it, unescaped: one line, each hidden code point as `\u{…}`. */
function visibleText(id: string): string {
  let out = "";
  for (const c of id.replace(/\r\n|[\r\n\t\u2028\u2029]/g, " ")) {
    const cp = c.codePointAt(0) ?? 0;
    out += isHiddenCodePoint(cp) ? visibleCodePoint(cp) : c;
  }
  return out;
}

/** The values the score axis must hold, in %: every score and both bands' ends. */
export function scoreAxisValues(models: readonly RankModel[]): number[] {
  const out: number[] = [];
  for (const m of models) {
    if (m.score !== null) out.push(pct(m.score));
    for (const iv of [m.interval, m.run_variance_band]) if (iv !== null) out.push(pct(iv[0]), pct(iv[1]));
  }
  return out;
}

function modelTitle(r: RankReport, m: RankModel, i: number, full: string): string {
  const rank = m.rank_low === m.rank_high ? String(m.rank_low) : `${m.rank_low}–${m.rank_high}`;
  const words =
    `: score ${formatPercent(m.score)}, validity band ${formatPercentInterval(m.interval)}, ` +
    `run-variance band ${formatPercentInterval(m.run_variance_band)}, group ${m.group}, rank ${rank}` +
    (m.model === r.reference ? " (reference)" : "");
  // The model id (already escaped by chartLabel) is the one untrusted part.
  return `#${i + 1} ${full}${escapeHtmlGenerated(words)}`;
}

/** Each model's score, validity band and run-variance band, one row per model in rank order. */
export function scoreChartSvg(r: RankReport): string {
  const c = SCORE_CHART;
  const models = r.models.slice(0, SCORE_CHART_MAX_MODELS);
  const height = c.top + models.length * c.rowHeight + c.bottom;
  const axis = niceAxis(scoreAxisValues(models), { maxIntervals: 8, minSpan: 2, limitLo: 0, limitHi: 100 });
  const x = linearScale(axis.lo, axis.hi, c.plotLeft, c.plotRight);
  const rowsBottom = c.top + models.length * c.rowHeight;
  // "#12 " and the id share the label's characters, so every label ends before the plot.
  const labels = pictureLabels(models, c.labelChars - `#${models.length} `.length);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="score-chart" viewBox="0 0 ${c.width} ${height}" role="img" aria-labelledby="score-chart-title">`,
    `<title id="score-chart-title">Each model's valid-only score on the common set (dot), its validity band (box) and its run-variance band (line), in rank order; shading alternates by group (stretches of the leaderboard the evidence separates).</title>`,
  ];
  // Groups: every other group shaded, a line between groups, the group's number at the right.
  let start = 0;
  for (let i = 1; i <= models.length; i++) {
    const prev = models[i - 1] as RankModel;
    if (i < models.length && (models[i] as RankModel).group === prev.group) continue;
    const y0 = c.top + start * c.rowHeight;
    const h = (i - start) * c.rowHeight;
    if (prev.group % 2 === 1)
      out.push(
        `<rect class="group-shade" x="0" y="${px(y0)}" width="${c.width}" height="${px(h)}" fill="${COLOURS.groupShade}"/>`,
      );
    if (start > 0)
      out.push(
        `<line x1="0" x2="${c.width}" y1="${px(y0)}" y2="${px(y0)}" stroke="${COLOURS.muted}" stroke-dasharray="4 3"/>`,
      );
    out.push(
      `<text x="${c.width - 4}" y="${px(y0 + 15)}" text-anchor="end" font-size="12" fill="${COLOURS.muted}">G${prev.group}</text>`,
    );
    start = i;
  }
  const decimals = tickDecimals(axis.step);
  for (const t of axis.ticks) {
    const tx = px(x(t));
    out.push(
      `<line x1="${tx}" x2="${tx}" y1="${c.top - 4}" y2="${px(rowsBottom)}" stroke="${COLOURS.grid}"/>`,
      `<text x="${tx}" y="${c.top - 10}" text-anchor="middle" font-size="12" fill="${COLOURS.muted}">${t.toFixed(decimals)}%</text>`,
    );
  }
  models.forEach((m, i) => {
    const cy = c.top + i * c.rowHeight + c.rowHeight / 2;
    const label = labels[i] as { shown: string; full: string };
    const parts = [`<g class="model-row">`, `<title>${modelTitle(r, m, i, label.full)}</title>`];
    parts.push(
      `<text x="4" y="${px(cy + 4)}" font-size="12" font-family="ui-monospace,'Liberation Mono',Menlo,Consolas,monospace" fill="${COLOURS.ink}">#${i + 1} ${label.shown}</text>`,
    );
    if (m.run_variance_band !== null) {
      const b = bandRect(pct(m.run_variance_band[0]), pct(m.run_variance_band[1]), x);
      parts.push(
        `<rect class="run-band" x="${px(b.x)}" y="${px(cy - 1)}" width="${px(b.width)}" height="2" fill="${COLOURS.run}"/>`,
        `<rect x="${px(b.x)}" y="${px(cy - 5)}" width="1.5" height="10" fill="${COLOURS.run}"/>`,
        `<rect x="${px(b.x + b.width - 1.5)}" y="${px(cy - 5)}" width="1.5" height="10" fill="${COLOURS.run}"/>`,
      );
    }
    if (m.interval !== null) {
      const b = bandRect(pct(m.interval[0]), pct(m.interval[1]), x);
      parts.push(
        `<rect class="validity-band" x="${px(b.x)}" y="${px(cy - 6)}" width="${px(b.width)}" height="12" fill="${COLOURS.band}" fill-opacity="0.8" stroke="${COLOURS.bandEdge}"/>`,
      );
    }
    if (m.score !== null) {
      parts.push(
        `<circle class="score-mark" cx="${px(x(pct(m.score)))}" cy="${px(cy)}" r="4.5" fill="${COLOURS.point}" stroke="#fff"/>`,
      );
    } else {
      parts.push(
        `<text x="${c.plotLeft}" y="${px(cy + 4)}" font-size="12" fill="${COLOURS.muted}">no score (n/a)</text>`,
      );
    }
    parts.push("</g>");
    out.push(parts.join(""));
  });
  out.push(
    `<line x1="${c.plotLeft}" x2="${c.plotRight}" y1="${px(rowsBottom)}" y2="${px(rowsBottom)}" stroke="${COLOURS.muted}"/>`,
    `<text x="${(c.plotLeft + c.plotRight) / 2}" y="${px(rowsBottom + 20)}" text-anchor="middle" font-size="12" fill="${COLOURS.muted}">valid-only score on the common set (%)</text>`,
    "</svg>",
  );
  return out.join("\n");
}

/** A matrix cell: its class, its two short lines, and its title (row vs column). */
function matrixCell(
  r: RankReport,
  row: RankModel,
  col: RankModel,
): { cls: string; lines: [string, string]; title: string } {
  if (row === col) return { cls: "self", lines: ["·", ""], title: "" };
  const found = pairFrom(r, row.model, col.model);
  if (found === null) return { cls: "self", lines: ["?", ""], title: "no such pair" };
  const { pair, flipped } = found;
  const sign = (v: number | null): number | null => (v === null ? null : flipped ? -v : v);
  const margin = sign(pair.margin);
  const lo = flipped ? sign(pair.margin_high) : pair.margin_low;
  const hi = flipped ? sign(pair.margin_low) : pair.margin_high;
  const lcb = flipped ? sign(pair.ucb) : pair.lcb;
  const ucb = flipped ? sign(pair.lcb) : pair.ucb;
  const m = margin === null ? "n/a" : signedFixed(margin * 100, 1);
  const figures = `margin ${formatPp(margin)}, validity band ${formatPp(lo)} … ${formatPp(hi)}, LCB … UCB ${formatPp(lcb)} … ${formatPp(ucb)}`;
  if (pair.relation === "unresolved") {
    const v = pair.unresolved_by === "validity";
    return {
      cls: v ? "rel-validity" : "rel-run",
      lines: [v ? "≈v" : "≈r", m],
      title: `${figures}; unresolved by ${v ? "validity (the open labels alone decide it)" : "run variance"}`,
    };
  }
  const rowAbove = (pair.relation === "a_better") !== flipped;
  return {
    cls: rowAbove ? "rel-above" : "rel-below",
    lines: [rowAbove ? "▲" : "▼", m],
    title: `${figures}; row ordered ${rowAbove ? "above" : "below"} column`,
  };
}

/** The K×K matrix (row vs column), in rank order, as an HTML table (caller: K ≤ HTML_MATRIX_MAX_MODELS). */
export function pairMatrixHtml(r: RankReport): string {
  const k = r.models.length;
  const rowHeadWidth = k > 12 ? 150 : 220;
  const chars = k > 12 ? 16 : 26;
  const names = pictureLabels(r.models, chars);
  const cols = [`<col style="width:${rowHeadWidth}px">`, ...r.models.map(() => "<col>")].join("");
  const head = `<tr><th class="row">row vs column</th>${names
    .map((n, i) => `<th title="${n.full}">#${i + 1}</th>`)
    .join("")}</tr>`;
  const rows = r.models.map((row, i) => {
    const cells = r.models.map((col, j) => {
      const cell = matrixCell(r, row, col);
      const title =
        cell.title === "" ? "" : ` title="${escapeHtmlGenerated(`#${i + 1} vs #${j + 1}: ${cell.title}`)}"`;
      const second = cell.lines[1] === "" ? "" : `<br>${escapeHtmlGenerated(cell.lines[1])}`;
      return `<td class="${cell.cls}"${title}>${escapeHtmlGenerated(cell.lines[0])}${second}</td>`;
    });
    const n = names[i] as { shown: string; full: string };
    return `<tr><th class="row" title="${n.full}">#${i + 1} ${n.shown}</th>${cells.join("")}</tr>`;
  });
  return `<div class="table-box"><table class="matrix" style="width:100%"><colgroup>${cols}</colgroup><thead>${head}</thead>\n<tbody>\n${rows.join("\n")}\n</tbody></table></div>`;
}
