/**
 * Markdown sections of the history features, each a small function that
 * render-markdown.ts calls in one line: the verdict by review revision (with the review fragility
 * beside it: what did change and what could). Rendered from the report JSON alone; every string
 * from the data is escaped (labels and verdicts too: the renderer never trusts the JSON's enums).
 */
import type { Report } from "./report-types.js";
import { CONSERVATIVE } from "./bound-labels.js";
import { escapeMarkdownInline } from "./escape.js";
import { formatCount, formatPp } from "./format-number.js";
import { cellCode } from "./table-cells.js";
import { plural, pluralWord } from "../words.js";

function md(s: string | null, max = 40): string {
  return s === null ? "—" : escapeMarkdownInline(s, max);
}

function row(cells: readonly string[]): string {
  return `| ${cells.map((c) => (c === "" ? " " : c)).join(" | ")} |`;
}

function rev(n: number): string {
  return `r${formatCount(n)}`;
}

/**
 * The verdict by review revision: one table row per evaluated revision, a line per change
 * between consecutive revisions, the tasks of the latest change (up to `taskLimit`; 0 leaves
 * them out). What could change it (the fragility) is the summary's "What would change the
 * verdict", not repeated here.
 */
export function verdictByRevisionSection(report: Report, taskLimit: number): string[] {
  const v = report.verdict_by_review_revision;
  const asOf = report.provenance.as_of_review;
  const lines = ["### Verdict by review revision", ""];
  if (asOf !== null) {
    lines.push(`Evaluated as of review revision ${rev(asOf)}: later labels are ignored.`, "");
  }
  if (v.revisions.length <= 1) {
    const only = v.revisions[0];
    lines.push(
      only === undefined
        ? "No review revision in the data."
        : `One review revision (${rev(only.revision)}) in the data: no label was reclassified.`,
    );
    return lines;
  }
  if (v.revisions_present > v.revisions.length) {
    lines.push(
      `The latest ${v.revisions.length} of ${formatCount(v.revisions_present)} review revisions:`,
      "",
    );
  }
  // Six columns: the table must fit an 880 px comment without a horizontal scroll.
  lines.push(
    row(["Revision", "Valid · open · broken", "Δ̂", "Δ\\_L … Δ\\_H", "LCB … UCB", "Verdict"]),
    "|--:|--:|--:|:-:|:-:|:--|",
  );
  for (const r of v.revisions) {
    const verdict =
      r.label_conflicts > 0 ? `labels conflict on ${plural(r.label_conflicts, "task")}` : md(r.verdict);
    const open = r.labels.disputed + r.labels.unreviewed;
    lines.push(
      row([
        rev(r.revision),
        `${formatCount(r.labels.valid)} · ${formatCount(open)} · ${formatCount(r.labels.broken)}`,
        formatPp(r.margin),
        `${formatPp(r.margin_lower)} … ${formatPp(r.margin_upper)}`,
        // Both bounds are taken one way (one kind) whenever both are defined.
        `${formatPp(r.lcb)} … ${formatPp(r.ucb)}${r.lcb_bound_kind === "conservative" || r.ucb_bound_kind === "conservative" ? ` (${CONSERVATIVE})` : ""}`,
        verdict,
      ]),
    );
  }
  lines.push("");
  for (const c of v.changes) {
    const kinds = c.transitions
      .slice(0, 6)
      .map((t) => `${formatCount(t.tasks)} ${md(t.change, 40)}`)
      .join(", ");
    const moreKinds =
      c.transitions.length > 6 ? `, and ${plural(c.transitions.length - 6, "more kind")}` : "";
    const verdict =
      c.verdict_before === c.verdict_after
        ? `verdict stays ${md(c.verdict_after)}`
        : `**verdict ${md(c.verdict_before)} → ${md(c.verdict_after)}**`;
    const what = [
      ...(c.tasks_changed > 0
        ? [`${plural(c.tasks_changed, "task")} reclassified${kinds === "" ? "" : ` (${kinds}${moreKinds})`}`]
        : []),
      ...(c.first_labels > 0 ? [`${plural(c.first_labels, "task")} labelled for the first time`] : []),
    ];
    lines.push(
      `- ${rev(c.from_revision)} → ${rev(c.to_revision)}: ${what.length === 0 ? "no label changed" : what.join(", ")}; ` +
        `Δ̂ ${formatPp(c.margin_before)} → ${formatPp(c.margin_after)}; ${verdict}.`,
    );
  }
  const last = v.changes[v.changes.length - 1];
  if (taskLimit > 0 && last !== undefined && last.tasks.length > 0) {
    const shown = last.tasks.slice(0, taskLimit);
    const only = report.provenance.dataset_revisions;
    const datasetColumn = only.length !== 1 || shown.some((t) => t.dataset_revision !== only[0]);
    const cells = (t: (typeof shown)[number]): string[] => [
      cellCode(t.task_id, 100),
      ...(datasetColumn ? [cellCode(t.dataset_revision, 40)] : []),
      `${md(t.from, 20)} → ${md(t.to, 20)}`,
      formatPp(t.margin_move),
    ];
    lines.push(
      "",
      `**Tasks reclassified in ${rev(last.to_revision)}**, largest move of Δ̂ first ` +
        `(${shown.length} of ${formatCount(last.tasks_changed)}):`,
      "",
      row(
        datasetColumn ? ["Task", "Dataset revision", "Label", "Moves Δ̂ by"] : ["Task", "Label", "Moves Δ̂ by"],
      ),
      datasetColumn ? "|:--|:--|:--|--:|" : "|:--|:--|--:|",
    );
    for (const t of shown) lines.push(row(cells(t)));
    lines.push("");
    if (last.tasks_changed > shown.length) {
      const rest = formatCount(last.tasks_changed - shown.length);
      lines.push(
        `… and ${rest} more ${pluralWord(last.tasks_changed - shown.length, "task")} (in the report JSON: the first ${last.tasks.length}).`,
        "",
      );
    }
  }
  // What could still change the verdict (the fragility) is said once, above the fold.
  while (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * The append-only check's rewritten rows (only when some were found): where each earlier row
 * was, where it is now (when it changed) and what changed, up to `limit` rows.
 */
export function appendOnlySection(report: Report, limit: number): string[] {
  const a = report.append_only;
  if (a === null || a.rows_changed_or_removed === 0) return [];
  const n = a.rows_changed_or_removed;
  const lines = [
    "### History rewritten",
    "",
    `**${formatCount(n)} earlier ${n === 1 ? "row was" : "rows were"} changed or removed** since the previous ` +
      "version of the results and reviews: attempts and reviews are append-only, so the verdict cannot be accept.",
  ];
  const shown = a.rows.slice(0, Math.max(0, limit));
  if (shown.length === 0) return lines;
  lines.push("", row(["Was at", "Now at", "What changed"]), "|:--|:--|:--|");
  for (const v of shown) {
    const now = v.current_file === null ? "—" : cellCode(`${v.current_file}:${v.current_line ?? "?"}`, 100);
    lines.push(row([cellCode(`${v.file}:${v.line}`, 100), now, md(v.change, 400)]));
  }
  if (n > shown.length) lines.push("", `… and ${plural(n - shown.length, "more row")}.`);
  return lines;
}
