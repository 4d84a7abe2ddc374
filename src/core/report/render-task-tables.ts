/**
 * The task lists of the Markdown summary, each a collapsed section: the disputed and unreviewed
 * tasks (most influential first, with their evidence), the tasks behind the fragility figure, the
 * broken tasks and the review history. A task id is breakable so tables keep 880 px; the dataset
 * revision gets a column only when the listed tasks do not all share the report's one revision.
 */
import type { Report } from "./report-types.js";
import type { InfluentialTask } from "../verdict-types.js";
import { escapeCode, safeHttpUrl, safeLink } from "./escape.js";
import { formatCount, formatSignedDecimal } from "./format-number.js";
import { shortenValue } from "./check-display.js";
import { breakable, cellCode } from "./table-cells.js";
import { fragilityAtEdge } from "./verdict-text.js";
import { shownBrokenTasks, shownReviewHistory } from "./task-lists.js";
import { MARKDOWN_INLINE, details, md, moreLine, table } from "./markdown-blocks.js";
import { pluralWord } from "../words.js";

/**
 * A task id in a table: breakable every 16 characters past 32 (as the evidence is), so that the
 * five-column influential-tasks table keeps 880 px with 100-character unbroken ids in two columns.
 */
function taskCell(t: { readonly task_id: string }): string {
  return cellCode(t.task_id, 100, 32, 16);
}

/**
 * A "Dataset revision" column is shown only when it says something: when the listed tasks do not
 * all share the report's single dataset revision.
 */
function needsDatasetColumn(
  report: Report,
  tasks: readonly { readonly dataset_revision: string }[],
): boolean {
  const revisions = report.provenance.dataset_revisions;
  if (revisions.length !== 1) return true;
  return tasks.some((t) => t.dataset_revision !== revisions[0]);
}

/** Inserts the dataset-revision column after the task column (index `at`) when wanted. */
function withDataset(
  show: boolean,
  at: number,
  header: readonly string[],
  align: readonly ("l" | "r" | "c")[],
  rows: readonly { readonly revision: string; readonly cells: readonly string[] }[],
): [string[], ("l" | "r" | "c")[], string[][]] {
  const insert = <T>(xs: readonly T[], x: T): T[] =>
    show ? [...xs.slice(0, at), x, ...xs.slice(at)] : [...xs];
  return [
    insert(header, "Dataset revision"),
    insert(align, "l"),
    rows.map((r) => insert(r.cells, cellCode(shortenValue(r.revision), 40))),
  ];
}

/**
 * "All on dataset revision R." where a list drops its dataset-revision column: said by the first
 * such list of the document only (`said` remembers it), not again under every list.
 */
function datasetNote(report: Report, show: boolean, said: Set<string>): string[] {
  const only = report.provenance.dataset_revisions[0];
  if (show || only === undefined || said.has("dataset note")) return [];
  said.add("dataset note");
  return [`All on dataset revision ${escapeCode(only, 80)}.`, ""];
}

/** One evidence entry: an http(s) link (label with break opportunities) or escaped text. */
function evidenceItem(e: string): string {
  const link = safeLink(e, undefined, 32);
  const href = safeHttpUrl(e);
  const tail = href === null ? "" : `](${href})`;
  // Evidence shares its cell with another entry: break its runs sooner than an id's.
  if (href !== null && link.startsWith("[") && link.endsWith(tail)) {
    return `[${breakable(link.slice(1, link.length - tail.length), 20, 16)}${tail}`;
  }
  return breakable(link, 20, 16);
}

function evidenceCell(evidence: readonly string[]): string {
  if (evidence.length === 0) return "—";
  const shown = evidence.slice(0, 2).map(evidenceItem);
  const rest = evidence.length - shown.length;
  return rest > 0 ? `${shown.join(", ")} +${rest} more` : shown.join(", ");
}

/** A task's d, or its interval "−1.00 … +0.00" when it has a lost result (infra_errors: bound). */
function dText(t: InfluentialTask): string {
  return t.d_high === undefined
    ? formatSignedDecimal(t.d)
    : `${formatSignedDecimal(t.d)} … ${formatSignedDecimal(t.d_high)}`;
}

export function influentialSection(report: Report, limit: number, said: Set<string>): string[] {
  const tasks = report.comparison.influential_tasks;
  if (limit === 0 || tasks.length === 0) return [];
  const shown = tasks.slice(0, limit);
  const total = Math.max(tasks.length, report.comparison.unresolved_tasks);
  const show = needsDatasetColumn(report, shown);
  const rows = shown.map((t, i) => {
    const sets = [t.in_lower_set ? "S\\_L" : "", t.in_upper_set ? "S\\_H" : ""].filter((s) => s !== "");
    const cells = [
      String(i + 1),
      taskCell(t),
      t.validity === "disputed"
        ? "disputed"
        : t.validity === "unreviewed"
          ? "unreviewed"
          : md(t.validity, 20),
      sets.length > 0 ? `${dText(t)} (${sets.join(", ")})` : dText(t),
      evidenceCell(t.evidence),
    ];
    return { revision: t.dataset_revision, cells };
  });
  const body = [
    "d = candidate score − baseline score on the task. S\\_L is the set of open tasks that gives the " +
      "lowest margin Δ\\_L, S\\_H the set that gives the highest Δ\\_H. Evidence links are shown, never fetched.",
    "",
    ...datasetNote(report, show, said),
    ...table(
      ...withDataset(show, 2, ["#", "Task", "Label", "d (set)", "Evidence"], ["r", "l", "l", "r", "l"], rows),
    ),
    ...moreLine(shown.length, total, "disputed or unreviewed task"),
  ];
  const summary = `<b>Disputed and unreviewed tasks</b>, most influential first (${shown.length} of ${total})`;
  return details(summary, body);
}

/** The tasks behind the fragility figure (not when a count check at its edge explains it). */
export function fragilitySection(report: Report, limit: number, said: Set<string>): string[] {
  const c = report.comparison;
  const tasks = c.fragility_tasks;
  if (limit === 0 || tasks.length === 0) return [];
  if (report.verdict !== "unresolved" && fragilityAtEdge(report, MARKDOWN_INLINE)) return [];
  const shown = tasks.slice(0, limit);
  const show = needsDatasetColumn(report, shown);
  const rows = shown.map((t, i) => ({
    revision: t.dataset_revision,
    cells: [String(i + 1), taskCell(t), md(t.change, 120)],
  }));
  const title =
    report.verdict === "unresolved" ? "Tasks to review first" : "Tasks whose relabelling changes the verdict";
  return details(`<b>${title}</b> (${shown.length} of ${tasks.length})`, [
    ...datasetNote(report, show, said),
    ...table(...withDataset(show, 2, ["#", "Task", "Change"], ["r", "l", "l"], rows)),
    ...moreLine(shown.length, tasks.length, "task"),
  ]);
}

export function brokenSection(report: Report, limit: number, said: Set<string>): string[] {
  const nBroken = report.comparison.broken_tasks;
  if (nBroken === 0 && report.broken_tasks.count === 0) return [];
  const total = Math.max(nBroken, report.broken_tasks.count);
  const shown = shownBrokenTasks(report.broken_tasks, limit);
  const body = [
    "Counted and listed, never deleted, and left out of every score.",
    ...(shown.length === 0
      ? []
      : [
          "",
          ...datasetNote(report, needsDatasetColumn(report, shown), said),
          ...table(
            ...withDataset(
              needsDatasetColumn(report, shown),
              1,
              ["Task"],
              ["l"],
              shown.map((t) => ({ revision: t.dataset_revision, cells: [taskCell(t)] })),
            ),
          ),
          ...moreLine(shown.length, total, "broken task"),
        ]),
  ];
  return details(`<b>${formatCount(total)} broken ${pluralWord(total, "task", "tasks")}</b>`, body);
}

export function historySection(report: Report, limit: number, said: Set<string>): string[] {
  const history = report.review_history;
  if (history.count === 0) return [];
  const shown = shownReviewHistory(history, limit);
  const rows = shown.map((h) => {
    // An events string outside the grammar (a hand-edited report) is shown as text.
    if (typeof h.events === "string")
      return { revision: h.dataset_revision, cells: [taskCell(h), md(h.events, 200)] };
    const events = h.events
      .slice(0, 6)
      .map(
        (e) => `r${formatCount(e.revision)} ${md(e.validity, 20)} (${breakable(md(e.source, 60), 20, 16)})`,
      );
    const more = h.events.length > events.length ? ` → … ${h.events.length - events.length} more` : "";
    return { revision: h.dataset_revision, cells: [taskCell(h), events.join(" → ") + more] };
  });
  const body =
    shown.length === 0
      ? ["The tasks are listed in the report file."]
      : [
          ...datasetNote(report, needsDatasetColumn(report, shown), said),
          ...table(
            ...withDataset(
              needsDatasetColumn(report, shown),
              1,
              ["Task", "Labels by review revision"],
              ["l", "l"],
              rows,
            ),
          ),
          ...moreLine(shown.length, history.count, "task"),
        ];
  return details(
    `<b>Review history</b> — ${formatCount(history.count)} ${pluralWord(history.count, "task", "tasks")} changed label across review revisions`,
    body,
  );
}
