/**
 * The rank report as GitHub Markdown (`model-gate rank`, the default format): the headline, the
 * leaderboard with rank intervals and groups, the pairs (a matrix up to PAIR_MATRIX_MAX_MODELS
 * models, beyond that the adjacent pairs and a list of the unresolved ones), the open tasks to
 * review first, the common set and the settings. Rendered from the report alone; every string
 * from the export is escaped (escape.ts). Over `maxLength` (default: a PR comment's limit) the
 * lists are shortened step by step, and a visible note says so; the last resort is a cut.
 */
import { safeLink } from "../report/escape.js";
import { COMMENT_BODY_MAX } from "../report/github-limits.js";
import { MARKDOWN_INLINE, truncateMarkdown } from "../report/render-markdown.js";
import {
  add,
  adjacentPairs,
  commonRows,
  COMMON_HEADER,
  FULL_DETAIL,
  leaderboardHeader,
  leaderboardRows,
  matrixLegend,
  matrixRows,
  PAIR_HEADER,
  PAIR_MATRIX_MAX_MODELS,
  rankHeader,
  RANK_NOTE,
  pairRow,
  reviewSentence,
  settingsLines,
  SHORT_DETAILS,
  TASK_HEADER,
  taskRows,
  unresolvedPairs,
  type Detail,
} from "./rank-sections.js";
import { rankMermaidChart } from "./rank-mermaid.js";
import type { RankReport } from "./rank-types.js";

export { RANK_TITLE } from "./rank-sections.js";

export interface RenderRankMarkdownOptions {
  /** At most this many UTF-16 code units (default COMMENT_BODY_MAX). */
  readonly maxLength?: number;
}

const f = MARKDOWN_INLINE;

function table(header: readonly string[], rows: readonly string[][]): string[] {
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((c) => (c === "" ? " " : c)).join(" | ")} |`;
  return [line(header.map((h) => f.gen(h))), `|${header.map(() => ":--").join("|")}|`, ...rows.map(line)];
}

function render(r: RankReport, detail: Detail, trimmed: boolean): string {
  const head = rankHeader(r, f);
  const out: string[] = [`## ${head.title}`, ""];
  for (const line of head.summary) add(out, line, "");
  for (const w of head.warnings) add(out, `> ⚠️ ${w}`, "");
  if (trimmed) {
    add(
      out,
      f.gen(
        "(Shortened to fit GitHub's size limit: the lists below are cut; the report JSON has every pair and task.)",
      ),
      "",
    );
  }
  add(out, "### Leaderboard", "", table(leaderboardHeader(r), leaderboardRows(r, f)), "");
  add(out, f.gen(RANK_NOTE), "");
  // After the table, which carries the same figures where GitHub does not draw the chart.
  const chart = detail.chart ? rankMermaidChart(r) : [];
  if (chart.length > 0) add(out, chart, "");

  add(out, "### Pairs", "");
  if (detail.matrix && r.models.length <= PAIR_MATRIX_MAX_MODELS) {
    const m = matrixRows(r, f);
    add(out, table(m.header, m.rows), "", f.gen(matrixLegend(r)), "");
  }
  add(
    out,
    f.gen("Adjacent models (in rank order):"),
    "",
    table(
      PAIR_HEADER,
      adjacentPairs(r).map((p) => pairRow(r, p, f)),
    ),
    "",
  );
  if (!(detail.matrix && r.models.length <= PAIR_MATRIX_MAX_MODELS)) {
    const open = unresolvedPairs(r);
    if (open.length > 0) {
      const shown = open.slice(0, detail.pairs);
      add(out, f.gen(`Unresolved pairs: ${open.length} of ${r.pairs.length}.`), "");
      if (shown.length > 0)
        add(
          out,
          table(
            PAIR_HEADER,
            shown.map((p) => pairRow(r, p, f)),
          ),
          "",
        );
      if (shown.length < open.length)
        add(out, f.gen(`… and ${open.length - shown.length} more (every pair is in the report JSON).`), "");
    }
  }

  if (r.review_first.length > 0) {
    add(out, "### Open tasks to review first", "");
    for (const x of r.review_first) {
      const rows = taskRows(x, detail.tasks, f, (e) => safeLink(e));
      add(out, reviewSentence(r, x, f, rows.length), "");
      if (rows.length > 0) add(out, table(TASK_HEADER, rows), "");
      if (rows.length < x.tasks.length)
        add(out, f.gen(`… and ${x.tasks.length - rows.length} more in the report JSON.`), "");
    }
  }

  add(out, "### Common set", "");
  add(
    out,
    f.gen(
      `${r.common_tasks} tasks every ranked model has a score on (${r.common_valid_tasks} valid, ${r.unresolved_tasks} open), of ${r.universe_tasks} non-broken tasks any of them ran. A model's absence would add back the tasks only it lacks:`,
    ),
    "",
    table(COMMON_HEADER, commonRows(r, f)),
    "",
  );
  add(out, "### Settings and provenance", "");
  for (const line of settingsLines(r, f)) add(out, line, "");
  return out.join("\n").trimEnd() + "\n";
}

/** The Markdown of a rank report. Deterministic: the same report gives the same string. */
export function renderRankMarkdown(report: RankReport, options: RenderRankMarkdownOptions = {}): string {
  const max = options.maxLength ?? COMMENT_BODY_MAX;
  const full = render(report, FULL_DETAIL, false);
  if (full.length <= max) return full;
  for (const detail of SHORT_DETAILS) {
    const short = render(report, detail, true);
    if (short.length <= max) return short;
  }
  return truncateMarkdown(render(report, SHORT_DETAILS[SHORT_DETAILS.length - 1] ?? FULL_DETAIL, true), max);
}
