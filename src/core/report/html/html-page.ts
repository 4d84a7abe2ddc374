/**
 * The frame of a `--format html` page: one self-contained document, inline CSS and inline SVG only.
 * No script, no external stylesheet, font or image; the Content-Security-Policy forbids every
 * load but the inline styles (and data: images, which the page does not use), so even a bug that
 * let markup through could fetch nothing and run nothing. Laid out for a column of 880 px (a PR's
 * comment width) and narrower: charts scale with their box, long text wraps anywhere, wide
 * tables scroll inside their own box.
 */
import { escapeHtmlGenerated } from "./html-text.js";
import { plural } from "../../words.js";

export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** The colours each chart and its legend share (relations, bands, verdicts). */
export const COLOURS = {
  ink: "#1f2328",
  muted: "#59636e",
  grid: "#d1d9e0",
  band: "#9ec5f8",
  bandEdge: "#0969da",
  run: "#1f2328",
  point: "#0a3069",
  above: "#dafbe1",
  below: "#ffebe9",
  validity: "#fff8c5",
  runVariance: "#eaeef2",
  groupShade: "#f6f8fa",
  accept: "#1a7f37",
  reject: "#cf222e",
  unresolved: "#9a6700",
  delta0: "#cf222e",
} as const;

const CSS = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:#fff;color:${COLOURS.ink};font:14px/1.5 -apple-system,"Segoe UI","Noto Sans",Helvetica,Arial,"Liberation Sans",sans-serif}
main{max-width:880px;margin:0 auto;padding:12px}
h1{font-size:1.5em;margin:0 0 8px;overflow-wrap:anywhere}
h2{font-size:1.2em;margin:24px 0 8px;padding-bottom:4px;border-bottom:1px solid ${COLOURS.grid}}
p,li,td,th,figcaption{overflow-wrap:anywhere}
code{font:12px/1.4 ui-monospace,"SFMono-Regular","Liberation Mono",Menlo,Consolas,monospace;background:#eff2f5;padding:0 3px;border-radius:4px}
.table-box{max-width:100%;overflow-x:auto}
table{border-collapse:collapse;margin:4px 0 12px;font-size:13px}
th,td{border:1px solid ${COLOURS.grid};padding:3px 6px;text-align:left;vertical-align:top}
th{background:#f6f8fa}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap;overflow-wrap:normal}
td.keep,th.keep{white-space:nowrap;overflow-wrap:normal}
figure{margin:8px 0 16px}
figure svg{display:block;width:100%;height:auto}
figcaption{font-size:12px;color:${COLOURS.muted}}
.legend{display:flex;flex-wrap:wrap;gap:4px 14px;font-size:12px;color:${COLOURS.muted};margin:4px 0;padding:0;list-style:none}
.swatch{display:inline-block;width:14px;height:10px;border:1px solid ${COLOURS.muted};vertical-align:-1px;margin-right:4px}
.warning{background:#fff8c5;border-left:4px solid #d4a72c;padding:4px 8px;margin:6px 0}
.verdict-accept{color:${COLOURS.accept}}
.verdict-reject{color:${COLOURS.reject}}
.verdict-unresolved{color:${COLOURS.unresolved}}
.small{font-size:12px;color:${COLOURS.muted}}
table.matrix{table-layout:fixed;font-size:11px;margin:0}
table.matrix th,table.matrix td{padding:2px 1px;text-align:center;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;line-height:1.25}
table.matrix th.row{text-align:left;padding-left:4px}
td.rel-above{background:${COLOURS.above}}
td.rel-below{background:${COLOURS.below}}
td.rel-validity{background:${COLOURS.validity}}
td.rel-run{background:${COLOURS.runVariance}}
td.self{background:#fff;color:${COLOURS.muted}}
`;

/** The whole document: `title` is generated text; `body` is HTML already made safe. */
export function htmlDocument(title: string, body: string): string {
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtmlGenerated(title)}</title>`,
    `<style>${CSS}</style>`,
    "</head>",
    "<body>",
    "<main>",
    body,
    "</main>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

/** Warnings shown on a page; the rest are counted (the report file has them all). */
export const HTML_WARNINGS_MAX = 20;

/** The warnings as boxes, each made safe by `safe`, at most HTML_WARNINGS_MAX, then a count. */
export function warningBoxes(warnings: readonly string[], safe: (w: string) => string): string[] {
  const out = warnings.slice(0, HTML_WARNINGS_MAX).map((w) => `<div class="warning">⚠️ ${safe(w)}</div>`);
  if (warnings.length > HTML_WARNINGS_MAX)
    out.push(
      `<div class="warning">⚠️ ${escapeHtmlGenerated(`… and ${plural(warnings.length - HTML_WARNINGS_MAX, "more warning")} in the report file.`)}</div>`,
    );
  return out;
}

/** A legend entry: a colour swatch and its words (generated text). */
export function legendItem(fill: string, words: string, stroke?: string): string {
  const border = stroke === undefined ? "" : `;border-color:${stroke}`;
  return `<li><span class="swatch" style="background:${fill}${border}"></span>${escapeHtmlGenerated(words)}</li>`;
}
