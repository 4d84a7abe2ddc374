/**
 * The rank report of several benchmarks (docs/rank.md "Several benchmarks") in every format: a
 * line per benchmark (its name, who could be first, its common valid tasks), then each
 * benchmark's ranking, rendered as the ranking of one benchmark is, under a heading that names
 * it. One benchmark: the renderers of one ranking, unchanged. Benchmark names come from the
 * export: escaped by the format's formatter like every other string from it.
 */
import { htmlDocument } from "../report/html/html-page.js";
import { HTML_INLINE } from "../report/html/html-text.js";
import { MARKDOWN_INLINE } from "../report/render-markdown.js";
import { TEXT_INLINE } from "../report/render-text.js";
import { COMMENT_BODY_MAX } from "../report/github-limits.js";
import type { Inline } from "../report/verdict-text.js";
import { quote } from "../quote.js";
import { isBenchmarksReport } from "./rank-benchmarks.js";
import { headline, RANK_TITLE } from "./rank-sections.js";
import type { RankBenchmark, RankBenchmarksReport, RankReport, RankResult } from "./rank-types.js";
import { rankGateTitle, renderRankGateMarkdown } from "./render-rank-gate.js";
import { rankHtmlBody, renderRankHtml } from "./render-rank-html.js";
import { renderRankMarkdown } from "./render-rank-markdown.js";
import { renderRankText } from "./render-rank-text.js";

/** One benchmark's ranking as a rank report of its own (what the one-ranking renderers read). */
export function benchmarkReport(r: RankBenchmarksReport, b: RankBenchmark): RankReport {
  return { schema_version: r.schema_version, kind: "rank", ...b };
}

const NAME_CHARS = 120;

/** The sentence that says how the ranking was made. */
function withinSentence(r: RankBenchmarksReport): string {
  return (
    `Ranked within each of ${r.benchmarks.length} benchmarks: tasks of different benchmarks are never compared; ` +
    "each benchmark has its own common set, pairs, step-down family and leaderboard, and the rank gate passes only if it passes in every benchmark."
  );
}

/** A benchmark's first line: its name, who could be first, its common valid tasks (and its gate). */
function benchmarkLine(r: RankBenchmarksReport, b: RankBenchmark, f: Inline): string {
  const report = benchmarkReport(r, b);
  const gate = b.gate.require === "top_resolved" ? "" : `; rank gate: ${b.gate.verdict}`;
  return (
    `${f.gen("Benchmark ")}${f.code(b.name, NAME_CHARS)}${f.gen(": ")}${headline(report, f)}` +
    f.gen(`; ${b.common_valid_tasks} common valid tasks${gate}.`)
  );
}

function heading(b: RankBenchmark, f: Inline): string {
  return `${f.gen("Benchmark ")}${f.code(b.name, NAME_CHARS)}`;
}

/** The combined gate's Markdown block (the first benchmark's models label the ids: every benchmark ranks the same models). */
export function renderRankResultGateMarkdown(r: RankResult, title: string | null): string {
  if (!isBenchmarksReport(r)) return renderRankGateMarkdown(r, title);
  const first = r.benchmarks[0] as RankBenchmark;
  return renderRankGateMarkdown({ ...benchmarkReport(r, first), gate: r.gate }, title);
}

/** The check run's title: the combined verdict and the benchmarks it was decided in. */
export function rankResultTitle(r: RankResult): string {
  if (!isBenchmarksReport(r)) return rankGateTitle(r);
  const g = r.gate;
  const verdict = g.verdict.charAt(0).toUpperCase() + g.verdict.slice(1);
  const names = r.benchmarks.slice(0, 3).map((b) => quote(b.name.slice(0, 40)));
  const more = r.benchmarks.length > 3 ? ` and ${r.benchmarks.length - 3} more` : "";
  const candidate = g.candidate === null ? "" : `, candidate ${quote(g.candidate.slice(0, 40))}`;
  return `${verdict} (rank.require: ${g.require}${candidate}): ranked within ${r.benchmarks.length} benchmarks (${names.join(", ")}${more})`;
}

/** Markdown: the lines per benchmark, then each ranking within its share of `maxLength`. */
export function renderRankResultMarkdown(
  r: RankResult,
  options: { readonly maxLength?: number } = {},
): string {
  if (!isBenchmarksReport(r)) return renderRankMarkdown(r, options);
  const f = MARKDOWN_INLINE;
  const head = [
    `## ${f.gen(`${RANK_TITLE} within ${r.benchmarks.length} benchmarks`)}`,
    "",
    f.gen(withinSentence(r)),
    "",
    ...r.benchmarks.map((b) => `- ${benchmarkLine(r, b, f)}`),
    "",
  ].join("\n");
  const max = options.maxLength ?? COMMENT_BODY_MAX;
  const headings = r.benchmarks.map((b) => `\n## ${heading(b, f)}\n\n`);
  const room = max - head.length - headings.reduce((n, h) => n + h.length, 0);
  const share = Math.max(0, Math.floor(room / r.benchmarks.length));
  const parts = r.benchmarks.map(
    (b, i) => `${headings[i] ?? ""}${renderRankMarkdown(benchmarkReport(r, b), { maxLength: share })}`,
  );
  return head + parts.join("");
}

/** Plain text: the lines per benchmark, then each ranking under a line that names its benchmark. */
export function renderRankResultText(r: RankResult): string {
  if (!isBenchmarksReport(r)) return renderRankText(r);
  const f = TEXT_INLINE;
  const out = [
    `${RANK_TITLE} within ${r.benchmarks.length} benchmarks`,
    "",
    withinSentence(r),
    "",
    ...r.benchmarks.map((b) => `- ${benchmarkLine(r, b, f)}`),
  ];
  for (const b of r.benchmarks)
    out.push("", `=== ${heading(b, f)} ===`, "", renderRankText(benchmarkReport(r, b)).trimEnd());
  return out.join("\n") + "\n";
}

/** HTML: one page, the lines per benchmark, then each benchmark's ranking (its charts' ids made distinct). */
export function renderRankResultHtml(r: RankResult): string {
  if (!isBenchmarksReport(r)) return renderRankHtml(r);
  const f = HTML_INLINE;
  const body = [
    `<h1>${f.gen(`${RANK_TITLE} within ${r.benchmarks.length} benchmarks`)}</h1>`,
    `<p>${f.gen(withinSentence(r))}</p>`,
    `<ul>${r.benchmarks.map((b) => `<li>${benchmarkLine(r, b, f)}</li>`).join("\n")}</ul>`,
  ];
  r.benchmarks.forEach((b, i) => {
    const section = rankHtmlBody(benchmarkReport(r, b))
      .join("\n")
      .replaceAll("score-chart-title", `score-chart-title-${i + 1}`);
    // One h1 a page: the benchmark is an h2, its ranking's own headings two levels below theirs.
    body.push(`<section>`, `<h2>${heading(b, f)}</h2>`, headingsDown(section, 2), `</section>`);
  });
  return htmlDocument(RANK_TITLE, body.join("\n"));
}

/**
 * HTML of our own making with every heading `levels` lower (h1 → h3 for 2), at most h6. Text from
 * the export is escaped before it reaches the page, so a `<h` here is always one of our tags.
 */
export function headingsDown(html: string, levels: number): string {
  return html.replace(
    /<(\/?)h([1-6])\b/g,
    (_m, close: string, n: string) => `<${close}h${Math.min(6, Number(n) + levels)}`,
  );
}
