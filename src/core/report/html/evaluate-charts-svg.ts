/**
 * The evaluate page's two charts (render-evaluate-html.ts), as inline SVG with generated text only
 * (numbers and fixed words; nothing from the data): the margin chart — Δ̂, the validity bounds
 * Δ_L..Δ_H and LCB..UCB against 0 and the policy's δ₀, the picture text-bar.ts draws in the
 * Markdown — and the margin by review revision (the report's verdict_by_review_revision).
 */
import { formatCount, signedFixed } from "../format-number.js";
import type { Report } from "../report-types.js";
import type { Verdict } from "../../verdict-types.js";
import { COLOURS } from "./html-page.js";
import { escapeHtmlText } from "./html-text.js";
import { bandRect, linearScale, niceAxis, px, tickDecimals } from "./svg-geometry.js";

function finite(x: number | null | undefined): x is number {
  return typeof x === "number" && Number.isFinite(x);
}

const pp = (x: number): number => x * 100;
const ppText = (x: number | null): string => (finite(x) ? `${signedFixed(x * 100, 2)} pp` : "n/a");

/** The margin chart's frame, in SVG user units. */
export const MARGIN_CHART = {
  width: 840,
  height: 150,
  plotLeft: 190,
  plotRight: 630,
  rows: [52, 76, 100],
  axisY: 116,
} as const;

const VERDICT_COLOUR: Readonly<Record<Verdict, string>> = {
  accept: COLOURS.accept,
  reject: COLOURS.reject,
  unresolved: COLOURS.unresolved,
};

/** A horizontal run-variance band with end caps (the same mark as the rank chart's). */
function runBandH(x0: number, width: number, cy: number): string {
  return [
    `<rect class="run-band" x="${px(x0)}" y="${px(cy - 1)}" width="${px(width)}" height="2" fill="${COLOURS.run}"/>`,
    `<rect x="${px(x0)}" y="${px(cy - 6)}" width="1.5" height="12" fill="${COLOURS.run}"/>`,
    `<rect x="${px(x0 + width - 1.5)}" y="${px(cy - 6)}" width="1.5" height="12" fill="${COLOURS.run}"/>`,
  ].join("");
}

/** Δ̂, Δ_L..Δ_H and LCB..UCB on one pp axis with 0 and δ₀; null when every figure is undefined. */
export function marginChartSvg(report: Report): string | null {
  const c = report.comparison;
  const drawn = [c.margin, c.margin_lower, c.margin_upper, c.lcb, c.ucb].filter(finite);
  if (drawn.length === 0) return null;
  const g = MARGIN_CHART;
  const delta0 = finite(c.delta0) ? c.delta0 : 0;
  const axis = niceAxis([...drawn, 0, delta0].map(pp), { maxIntervals: 6, minSpan: 2 });
  const x = linearScale(axis.lo, axis.hi, g.plotLeft, g.plotRight);
  const [yMargin, yValidity, yRun] = g.rows;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="margin-chart" viewBox="0 0 ${g.width} ${g.height}" role="img" aria-labelledby="margin-chart-title">`,
    `<title id="margin-chart-title">The margin (candidate − baseline) in percentage points: Δ̂ ${ppText(c.margin)}, validity bounds ${ppText(c.margin_lower)} to ${ppText(c.margin_upper)}, LCB ${ppText(c.lcb)}, UCB ${ppText(c.ucb)}, δ₀ ${ppText(delta0)}.</title>`,
  ];
  const decimals = tickDecimals(axis.step);
  for (const t of axis.ticks) {
    const tx = px(x(t));
    out.push(
      `<line x1="${tx}" x2="${tx}" y1="36" y2="${g.axisY}" stroke="${COLOURS.grid}"/>`,
      `<text x="${tx}" y="${g.axisY + 16}" text-anchor="middle" font-size="12" fill="${COLOURS.muted}">${signedFixed(t, decimals)}</text>`,
    );
  }
  out.push(
    `<line x1="${g.plotLeft}" x2="${g.plotRight}" y1="${g.axisY}" y2="${g.axisY}" stroke="${COLOURS.muted}"/>`,
    `<text x="${g.plotRight + 24}" y="${g.axisY + 16}" font-size="12" fill="${COLOURS.muted}">pp</text>`,
  );
  const zeroX = x(0);
  const d0X = x(pp(delta0));
  out.push(`<line x1="${px(zeroX)}" x2="${px(zeroX)}" y1="36" y2="${g.axisY}" stroke="${COLOURS.ink}"/>`);
  if (delta0 === 0) {
    out.push(
      `<text x="${px(zeroX)}" y="28" text-anchor="middle" font-size="12" fill="${COLOURS.delta0}">0 = δ₀</text>`,
    );
  } else {
    out.push(
      `<line class="delta0" x1="${px(d0X)}" x2="${px(d0X)}" y1="36" y2="${g.axisY}" stroke="${COLOURS.delta0}" stroke-width="2" stroke-dasharray="5 3"/>`,
      `<text x="${px(zeroX)}" y="28" text-anchor="${d0X >= zeroX ? "end" : "start"}" font-size="12" fill="${COLOURS.ink}">0</text>`,
      `<text x="${px(d0X)}" y="28" text-anchor="${d0X >= zeroX ? "start" : "end"}" font-size="12" fill="${COLOURS.delta0}">δ₀ ${ppText(delta0)}</text>`,
    );
  }
  const label = (y: number, words: string): string =>
    `<text x="4" y="${px(y + 4)}" font-size="12" fill="${COLOURS.ink}">${words}</text>`;
  const value = (y: number, words: string): string =>
    `<text x="${g.plotRight + 12}" y="${px(y + 4)}" font-size="12" fill="${COLOURS.ink}">${words}</text>`;
  out.push(label(yMargin, "Δ̂ observed margin"), value(yMargin, ppText(c.margin)));
  if (finite(c.margin))
    out.push(
      `<circle class="margin-mark" cx="${px(x(pp(c.margin)))}" cy="${yMargin}" r="5" fill="${COLOURS.point}" stroke="#fff"/>`,
    );
  out.push(label(yValidity, "Δ_L … Δ_H validity bounds"));
  if (finite(c.margin_lower) && finite(c.margin_upper)) {
    const b = bandRect(pp(c.margin_lower), pp(c.margin_upper), x);
    out.push(
      `<rect class="validity-band" x="${px(b.x)}" y="${(yValidity as number) - 7}" width="${px(b.width)}" height="14" fill="${COLOURS.band}" fill-opacity="0.8" stroke="${COLOURS.bandEdge}"/>`,
      value(yValidity, `${ppText(c.margin_lower)} … ${ppText(c.margin_upper)}`),
    );
  } else out.push(value(yValidity, "n/a"));
  out.push(label(yRun, "LCB … UCB run variance"));
  if (finite(c.lcb) && finite(c.ucb)) {
    const b = bandRect(pp(c.lcb), pp(c.ucb), x);
    out.push(runBandH(b.x, b.width, yRun), value(yRun, `${ppText(c.lcb)} … ${ppText(c.ucb)}`));
  } else out.push(value(yRun, "n/a"));
  out.push("</svg>");
  return out.join("\n");
}

/** The revision chart's frame, in SVG user units. */
export const REVISION_CHART = {
  width: 840,
  height: 250,
  plotLeft: 64,
  plotRight: 800,
  plotTop: 24,
  plotBottom: 178,
} as const;

const VERDICT_LETTER: Readonly<Record<Verdict, string>> = { accept: "A", reject: "R", unresolved: "U" };

/**
 * One column per review revision (the report keeps the latest 20): Δ̂, Δ_L..Δ_H and LCB..UCB as
 * of that revision, against 0 and δ₀, the verdict under each; null with no revision.
 */
export function revisionChartSvg(report: Report): string | null {
  const revisions = report.verdict_by_review_revision.revisions;
  if (revisions.length === 0) return null;
  const g = REVISION_CHART;
  const delta0 = finite(report.comparison.delta0) ? report.comparison.delta0 : 0;
  const values: number[] = [0, pp(delta0)];
  // Only revisions with a Δ̂ set the axis (one without has bounds of ±100 pp and is not drawn);
  // a band beyond the axis is cut at its edge, and the chart says so.
  for (const r of revisions)
    if (finite(r.margin))
      for (const v of [r.margin, r.margin_lower, r.margin_upper, r.lcb, r.ucb])
        if (finite(v)) values.push(pp(v));
  const axis = niceAxis(values, { maxIntervals: 6, minSpan: 2 });
  const scale = linearScale(axis.lo, axis.hi, g.plotBottom, g.plotTop);
  let cut = false;
  const y = (v: number): number => {
    if (v < axis.lo || v > axis.hi) cut = true;
    return scale(Math.min(axis.hi, Math.max(axis.lo, v)));
  };
  const cw = (g.plotRight - g.plotLeft) / revisions.length;
  const cx = (i: number): number => g.plotLeft + cw * (i + 0.5);
  const words = cw >= 64;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="revision-chart" viewBox="0 0 ${g.width} ${g.height}" role="img" aria-labelledby="revision-chart-title">`,
    `<title id="revision-chart-title">The margin and its bounds as of each review revision, in percentage points, with the verdict under each.</title>`,
  ];
  const decimals = tickDecimals(axis.step);
  for (const t of axis.ticks) {
    const ty = px(y(t));
    out.push(
      `<line x1="${g.plotLeft}" x2="${g.plotRight}" y1="${ty}" y2="${ty}" stroke="${COLOURS.grid}"/>`,
      `<text x="${g.plotLeft - 6}" y="${px(y(t) + 4)}" text-anchor="end" font-size="12" fill="${COLOURS.muted}">${signedFixed(t, decimals)}</text>`,
    );
  }
  out.push(
    `<text x="4" y="${g.plotTop - 8}" font-size="12" fill="${COLOURS.muted}">pp</text>`,
    `<line x1="${g.plotLeft}" x2="${g.plotRight}" y1="${px(y(0))}" y2="${px(y(0))}" stroke="${COLOURS.ink}"/>`,
  );
  if (delta0 !== 0)
    out.push(
      `<line class="delta0" x1="${g.plotLeft}" x2="${g.plotRight}" y1="${px(y(pp(delta0)))}" y2="${px(y(pp(delta0)))}" stroke="${COLOURS.delta0}" stroke-width="2" stroke-dasharray="5 3"/>`,
    );
  const trend = revisions
    .map((r, i) => (finite(r.margin) ? `${px(cx(i))},${px(y(pp(r.margin)))}` : null))
    .filter((s): s is string => s !== null);
  if (trend.length > 1)
    out.push(
      `<polyline points="${trend.join(" ")}" fill="none" stroke="${COLOURS.muted}" stroke-width="1"/>`,
    );
  const boxW = Math.max(4, Math.min(16, cw * 0.45));
  revisions.forEach((r, i) => {
    const x = cx(i);
    const parts: string[] = [`<g class="revision">`];
    parts.push(
      `<title>review revision ${formatCount(r.revision)}: Δ̂ ${ppText(r.margin)}, Δ_L … Δ_H ${ppText(r.margin_lower)} … ${ppText(r.margin_upper)}, LCB … UCB ${ppText(r.lcb)} … ${ppText(r.ucb)}, verdict ${r.label_conflicts > 0 ? "n/a (labels conflict)" : escapeHtmlText(r.verdict ?? "n/a", 20)}</title>`,
    );
    // Without Δ̂ (no valid task yet) the bounds span everything: words, not a bar that fills the chart.
    if (!finite(r.margin))
      parts.push(
        `<text x="${px(x)}" y="${px((g.plotTop + g.plotBottom) / 2)}" text-anchor="middle" font-size="12" fill="${COLOURS.muted}">no Δ̂</text>`,
      );
    if (finite(r.margin) && finite(r.lcb) && finite(r.ucb)) {
      const top = y(pp(Math.max(r.lcb, r.ucb)));
      const bottom = y(pp(Math.min(r.lcb, r.ucb)));
      parts.push(
        `<rect class="run-band" x="${px(x - 1)}" y="${px(top)}" width="2" height="${px(Math.max(1, bottom - top))}" fill="${COLOURS.run}"/>`,
        `<rect x="${px(x - boxW / 2)}" y="${px(top)}" width="${px(boxW)}" height="1.5" fill="${COLOURS.run}"/>`,
        `<rect x="${px(x - boxW / 2)}" y="${px(bottom - 1.5)}" width="${px(boxW)}" height="1.5" fill="${COLOURS.run}"/>`,
      );
    }
    if (finite(r.margin) && finite(r.margin_lower) && finite(r.margin_upper)) {
      const top = y(pp(Math.max(r.margin_lower, r.margin_upper)));
      const bottom = y(pp(Math.min(r.margin_lower, r.margin_upper)));
      const h = Math.max(2, bottom - top);
      parts.push(
        `<rect class="validity-band" x="${px(x - boxW / 2)}" y="${px((top + bottom) / 2 - h / 2)}" width="${px(boxW)}" height="${px(h)}" fill="${COLOURS.band}" fill-opacity="0.8" stroke="${COLOURS.bandEdge}"/>`,
      );
    }
    if (finite(r.margin))
      parts.push(
        `<circle class="revision-mark" cx="${px(x)}" cy="${px(y(pp(r.margin)))}" r="4" fill="${COLOURS.point}" stroke="#fff"/>`,
      );
    // A hand-edited report may hold anything here: only the three verdicts are drawn.
    const verdict =
      r.label_conflicts > 0 || r.verdict === null || !(r.verdict in VERDICT_LETTER) ? null : r.verdict;
    parts.push(
      `<text x="${px(x)}" y="${g.plotBottom + 18}" text-anchor="middle" font-size="12" fill="${COLOURS.ink}">r${formatCount(r.revision)}</text>`,
      `<text x="${px(x)}" y="${g.plotBottom + 36}" text-anchor="middle" font-size="12" font-weight="600" fill="${verdict === null ? COLOURS.muted : VERDICT_COLOUR[verdict]}">${verdict === null ? "—" : words ? verdict : VERDICT_LETTER[verdict]}</text>`,
    );
    parts.push("</g>");
    out.push(parts.join(""));
  });
  out.push(
    `<text x="${g.plotLeft}" y="${g.height - 8}" font-size="12" fill="${COLOURS.muted}">review revision${words ? "" : " · verdict: A accept, R reject, U unresolved"}${delta0 !== 0 ? " · dashed line: δ₀" : ""}${cut ? " · a band cut at the edge runs further (see the table)" : ""}</text>`,
    "</svg>",
  );
  return out.join("\n");
}
