/**
 * "Where the margin comes from" (SPEC §3.6), rendered from the report JSON's `margin_by_cluster`
 * alone: for Markdown (a collapsed section whose top rows sit above a fold and the rest in a
 * nested <details>) and for text (the top rows and a count line). Cluster names come from the
 * export: escaped for Markdown (table-cells.ts) and neutralised for a terminal (escape.ts).
 */
import { plural } from "../words.js";
import type { ClusterMarginRow, MarginByCluster } from "../verdict-types.js";
import { escapeCode, neutraliseLogLine } from "./escape.js";
import { formatCount, formatPercent, formatPp } from "./format-number.js";
import type { Report } from "./report-types.js";
import { cellCode } from "./table-cells.js";
import { displayWidth } from "./text-bar.js";

/** Rows shown above the fold: the clusters that move the margin most. */
export const CLUSTER_FOLD = 10;

/** Rows shown below the fold, collapsed; the rest are counted (all are in the report file). */
export const CLUSTER_REST_MAX = 40;

/** The cluster name's characters shown (the whole name is in the report file). */
const NAME_CHARS = 60;

/** The row of the tasks without a cluster, as both renderers name it. */
export const NO_CLUSTER = "(no cluster)";

function worseRows(m: MarginByCluster): ClusterMarginRow[] {
  return m.rows.filter((r) => r.worse);
}

/** One sentence on the clusters where the candidate is worse, naming up to `limit` of them. */
function worseSentence(m: MarginByCluster, name: (r: ClusterMarginRow) => string, limit: number): string {
  const worse = worseRows(m);
  if (worse.length === 0) return "The candidate is worse on no cluster (no margin below 0).";
  const named = worse.slice(0, limit).map(name);
  const more = worse.length > named.length ? ` and ${formatCount(worse.length - named.length)} more` : "";
  return `The candidate is worse (margin below 0) on ${plural(worse.length, "row", "rows")}: ${named.join(", ")}${more}.`;
}

function definition(report: Report): string {
  return (
    "Margin: the mean of d (candidate − baseline) over the cluster's common valid tasks. Contribution: " +
    `its Σd / N_v, so the contributions add up to the margin Δ̂ ${formatPp(report.comparison.margin)}. ` +
    "Share: contribution / Δ̂ (the shares add up to 100%; a negative share pulls against Δ̂, and none is " +
    "given when Δ̂ is 0). Largest |contribution| first."
  );
}

function cells(r: ClusterMarginRow, rank: number, name: string): string[] {
  return [
    String(rank),
    name,
    formatCount(r.tasks),
    r.worse ? `**${formatPp(r.margin)}**` : formatPp(r.margin),
    formatPp(r.contribution),
    r.share === null ? "n/a" : formatPercent(r.share, 1),
  ];
}

function mdName(r: ClusterMarginRow): string {
  return r.cluster === null ? `_${NO_CLUSTER}_` : cellCode(r.cluster, NAME_CHARS, 24, 16);
}

function mdTable(rows: readonly ClusterMarginRow[], firstRank: number): string[] {
  const line = (c: readonly string[]): string => `| ${c.join(" | ")} |`;
  return [
    line(["#", "Cluster", "Tasks", "Margin", "Contribution", "Share"]),
    "|--:|:--|--:|--:|--:|--:|",
    ...rows.map((r, i) => line(cells(r, firstRank + i, mdName(r)))),
  ];
}

/**
 * The Markdown section's <summary> (generated text only: raw HTML) and body, or null without a
 * `margin_by_cluster`. `top` rows above the fold, at most `rest` more collapsed below it.
 */
export function clusterMarkdown(
  report: Report,
  top: number,
  rest: number,
): { readonly summary: string; readonly body: string[] } | null {
  const m = report.margin_by_cluster;
  if (m === null) return null;
  const worse = worseRows(m).length;
  const summary =
    `<b>Where the margin comes from</b> — ${plural(m.clusters, "cluster", "clusters")}` +
    `${m.unclustered_tasks > 0 ? ` and ${plural(m.unclustered_tasks, "task", "tasks")} without one` : ""}, ` +
    `the candidate worse on ${formatCount(worse)}`;
  const above = m.rows.slice(0, top);
  const below = above.length === 0 ? [] : m.rows.slice(above.length, above.length + rest);
  const body: string[] = [];
  // (Trimmed to no row: the summary, the count and the worse clusters are left.)
  if (above.length > 0) {
    body.push(definition(report).replace(/_/g, "\\_"));
    if (m.unclustered_tasks > 0) {
      body.push("", `The common valid tasks without a \`cluster\` form one row, _${NO_CLUSTER}_.`);
    }
    body.push("", ...mdTable(above, 1));
  }
  if (below.length > 0) {
    body.push(
      "",
      "<details>",
      `<summary>${plural(below.length, "more row", "more rows")}</summary>`,
      "",
      ...mdTable(below, above.length + 1),
      "",
      "</details>",
    );
  }
  const hidden = m.rows.length - above.length - below.length;
  if (hidden > 0) {
    body.push(
      ...(body.length > 0 ? [""] : []),
      above.length === 0
        ? `The ${plural(hidden, "row is", "rows are")} in the report file.`
        : `… and ${plural(hidden, "more row", "more rows")} in the report file.`,
    );
  }
  body.push(
    "",
    worseSentence(m, (r) => (r.cluster === null ? `_${NO_CLUSTER}_` : escapeCode(r.cluster, NAME_CHARS)), 10),
  );
  return { summary, body };
}

/** The text section: the top CLUSTER_FOLD rows and a count line for the rest; none without clusters. */
export function clusterText(report: Report): string[] {
  const m = report.margin_by_cluster;
  if (m === null) return [];
  const name = (r: ClusterMarginRow): string =>
    r.cluster === null ? NO_CLUSTER : neutraliseLogLine(Array.from(r.cluster).slice(0, NAME_CHARS).join(""));
  const shown = m.rows.slice(0, CLUSTER_FOLD);
  const rows = shown.map((r, i) => cells(r, i + 1, name(r)).map((c) => c.replace(/\*\*/g, "")));
  const header = ["#", "Cluster", "Tasks", "Margin", "Contribution", "Share"];
  const widths = header.map((h, k) => rows.reduce((w, r) => Math.max(w, displayWidth(r[k] ?? "")), h.length));
  const line = (c: readonly string[]): string =>
    "  " +
    c
      .map((x, k) => {
        const fill = " ".repeat(Math.max(0, (widths[k] ?? 0) - displayWidth(x)));
        return k === 1 ? x + fill : fill + x;
      })
      .join("  ")
      .trimEnd();
  const out = [
    `Where the margin comes from: ${plural(m.clusters, "cluster", "clusters")}` +
      (m.unclustered_tasks > 0
        ? `; ${plural(m.unclustered_tasks, "task", "tasks")} without one form the row ${NO_CLUSTER}`
        : ""),
    line(header),
    ...rows.map(line),
  ];
  const hidden = m.rows.length - shown.length;
  if (hidden > 0)
    out.push(
      `  … and ${plural(hidden, "more row", "more rows")}: --format json or --format markdown lists them.`,
    );
  out.push(`  ${worseSentence(m, name, 10)}`);
  return out;
}
