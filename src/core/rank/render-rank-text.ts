/**
 * The rank report as plain text for a terminal (`model-gate rank --format text`): the same
 * sections as the Markdown, as aligned columns, untrusted text neutralised (render-text.ts's
 * TEXT_INLINE: no line breaks, controls, bidi characters or workflow commands).
 */
import { TEXT_INLINE } from "../report/render-text.js";
import { displayWidth } from "../report/text-bar.js";
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
  TASK_HEADER,
  taskRows,
  unresolvedPairs,
} from "./rank-sections.js";
import type { RankReport } from "./rank-types.js";

const f = TEXT_INLINE;

function columns(header: readonly string[], rows: readonly string[][]): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, c) => all.reduce((w, r) => Math.max(w, displayWidth(r[c] ?? "")), 0));
  return all.map((r) =>
    r
      .map((cell, c) => cell + " ".repeat(Math.max(0, (widths[c] ?? 0) - displayWidth(cell))))
      .join("  ")
      .trimEnd(),
  );
}

export function renderRankText(r: RankReport): string {
  const detail = FULL_DETAIL;
  const head = rankHeader(r, f);
  const out: string[] = [head.title, ""];
  add(out, head.summary);
  for (const w of head.warnings) add(out, `Warning: ${w}`);
  add(out, "", "Leaderboard", columns(leaderboardHeader(r), leaderboardRows(r, f)), RANK_NOTE, "");
  const matrix = r.models.length <= PAIR_MATRIX_MAX_MODELS;
  if (matrix) {
    const m = matrixRows(r, f);
    add(out, "Pairs", columns(m.header, m.rows), matrixLegend(r), "");
  }
  add(
    out,
    "Adjacent models",
    columns(
      PAIR_HEADER,
      adjacentPairs(r).map((p) => pairRow(r, p, f)),
    ),
    "",
  );
  if (!matrix) {
    const open = unresolvedPairs(r);
    const shown = open.slice(0, detail.pairs);
    add(out, `Unresolved pairs: ${open.length} of ${r.pairs.length}`);
    if (shown.length > 0)
      add(
        out,
        columns(
          PAIR_HEADER,
          shown.map((p) => pairRow(r, p, f)),
        ),
      );
    if (shown.length < open.length)
      add(out, `… and ${open.length - shown.length} more (every pair is in the report JSON)`);
    add(out, "");
  }
  for (const x of r.review_first) {
    const rows = taskRows(x, detail.tasks, f, (e) => f.text(e, 120));
    add(out, reviewSentence(r, x, f, rows.length));
    if (rows.length > 0) add(out, columns(TASK_HEADER, rows));
    add(out, "");
  }
  add(out, "Common set", columns(COMMON_HEADER, commonRows(r, f)), "");
  add(out, settingsLines(r, f));
  return out.join("\n") + "\n";
}
