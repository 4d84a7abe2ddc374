/**
 * The rank report as plain text for a terminal (`model-gate rank --format text`): the same
 * sections as the Markdown, as aligned columns, untrusted text neutralised (render-text.ts's
 * TEXT_INLINE: no line breaks, controls, bidi characters or workflow commands).
 */
import { TEXT_INLINE } from "../report/render-text.js";
import { displayWidth } from "../report/text-bar.js";
import {
  adjacentPairs,
  commonRows,
  COMMON_HEADER,
  FULL_DETAIL,
  headline,
  leaderboardHeader,
  leaderboardRows,
  MATRIX_LEGEND,
  matrixRows,
  PAIR_HEADER,
  PAIR_MATRIX_MAX_MODELS,
  pairRow,
  reviewSentence,
  settingsLines,
  summaryLines,
  TASK_HEADER,
  taskRows,
  unresolvedPairs,
} from "./rank-sections.js";
import { RANK_TITLE } from "./render-rank-markdown.js";
import type { RankReport } from "./rank-types.js";

const f = TEXT_INLINE;

function columns(header: readonly string[], rows: readonly string[][]): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((r) => displayWidth(r[c] ?? ""))));
  return all.map((r) =>
    r
      .map((cell, c) => cell + " ".repeat(Math.max(0, (widths[c] ?? 0) - displayWidth(cell))))
      .join("  ")
      .trimEnd(),
  );
}

export function renderRankText(r: RankReport): string {
  const detail = FULL_DETAIL;
  const out: string[] = [`${RANK_TITLE}: ${headline(r, f)}`, ""];
  out.push(...summaryLines(r, f));
  for (const w of r.warnings) out.push(`Warning: ${f.text(w, 400)}`);
  out.push("", "Leaderboard", ...columns(leaderboardHeader(r), leaderboardRows(r, f)), "");
  const matrix = r.models.length <= PAIR_MATRIX_MAX_MODELS;
  if (matrix) {
    const m = matrixRows(r, f);
    out.push("Pairs", ...columns(m.header, m.rows), MATRIX_LEGEND, "");
  }
  out.push(
    "Adjacent models",
    ...columns(
      PAIR_HEADER,
      adjacentPairs(r).map((p) => pairRow(p, f)),
    ),
    "",
  );
  if (!matrix) {
    const open = unresolvedPairs(r);
    const shown = open.slice(0, detail.pairs);
    out.push(`Unresolved pairs: ${open.length} of ${r.pairs.length}`);
    if (shown.length > 0)
      out.push(
        ...columns(
          PAIR_HEADER,
          shown.map((p) => pairRow(p, f)),
        ),
      );
    if (shown.length < open.length)
      out.push(`… and ${open.length - shown.length} more (every pair is in the report JSON)`);
    out.push("");
  }
  for (const x of r.review_first) {
    out.push(reviewSentence(x, f));
    const rows = taskRows(x, detail.tasks, f, (e) => f.text(e, 120));
    if (rows.length > 0) out.push(...columns(TASK_HEADER, rows));
    out.push("");
  }
  out.push("Common set", ...columns(COMMON_HEADER, commonRows(r, f)), "");
  out.push(...settingsLines(r, f));
  return out.join("\n") + "\n";
}
