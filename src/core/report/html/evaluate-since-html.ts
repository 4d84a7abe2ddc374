/**
 * "What changed since the last run" (docs/spec.md §3.7) for the evaluate HTML page, from the
 * report's `since_last_run` alone, with render-since-last-run.ts's words and figures (its helpers,
 * so the Markdown, the text and the page say the same). Lists bounded as in the Markdown
 * (SINCE_LAST_RUN_ITEMS rows, then "… and N more"); task ids, model names, labels and the
 * unavailable reason through HTML_INLINE / escapeHtmlText.
 */
import { formatCount, formatPercent, formatPp, formatSignedDecimal } from "../format-number.js";
import type { Report } from "../report-types.js";
import {
  FIGURES,
  figureCells,
  flipsOf,
  headlineParts,
  ID_CHARS,
  MODEL_CHARS,
  modelsSentence,
  moreSentence,
  previousSentence,
  SINCE_LAST_RUN_ITEMS,
} from "../render-since-last-run.js";
import type { RunChanges } from "../../run-history/run-types.js";
import { plural } from "../../words.js";
import { escapeHtmlText, HTML_INLINE, htmlTable } from "./html-text.js";

const f = HTML_INLINE;
const g = (s: string): string => f.gen(s);
const p = (safe: string, cls?: string): string =>
  `<p${cls === undefined ? "" : ` class="${cls}"`}>${safe}</p>`;

function task(
  t: { readonly task_id: string; readonly dataset_revision: string },
  revisions: boolean,
): string {
  const id = f.code(t.task_id, ID_CHARS);
  return revisions ? `${id} ${g("(")}${f.code(t.dataset_revision.slice(0, 12), 12)}${g(")")}` : id;
}

function more(shown: number, listed: number, count: number, noun: string): string[] {
  const s = moreSentence(shown, listed, count, noun);
  return s === null ? [] : [p(g(s), "small")];
}

function flipsPart(c: RunChanges, revisions: boolean): string[] {
  const models = [
    ["candidate", c.candidate],
    ["baseline", c.baseline],
  ] as const;
  const out: string[] = [];
  const lines: string[] = [];
  for (const [role, m] of models) {
    if (m === null) continue;
    const oneRun = [
      ...(m.only_previous > 0
        ? [`${plural(m.only_previous, "task", "tasks")} without a counted attempt now`]
        : []),
      ...(m.only_current > 0 ? [`${plural(m.only_current, "task", "tasks")} new`] : []),
    ];
    lines.push(
      `<li>${g(`${role} `)}${f.code(m.model, MODEL_CHARS)}${g(
        `: ${formatCount(m.pass_to_fail_count)} pass → fail, ${formatCount(m.fail_to_pass_count)} fail → pass` +
          (oneRun.length === 0 ? "" : ` (${oneRun.join(", ")})`),
      )}</li>`,
    );
  }
  if (lines.length > 0) out.push(`<ul>${lines.join("\n")}</ul>`);
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const [role, m] of models) {
    if (m === null) continue;
    for (const [list, count, dir] of [
      [m.pass_to_fail, m.pass_to_fail_count, "pass → fail"],
      [m.fail_to_pass, m.fail_to_pass_count, "fail → pass"],
    ] as const) {
      const shown = list.slice(0, SINCE_LAST_RUN_ITEMS);
      for (const t of shown)
        rows.push([
          task(t, revisions),
          g(role),
          g(dir),
          g(formatPercent(t.before, 0)),
          g(formatPercent(t.after, 0)),
        ]);
      notes.push(...more(shown.length, list.length, count, `${role} ${dir} task`));
    }
  }
  if (rows.length === 0) return out;
  return [
    ...out,
    `<h3>${g(`${plural(flipsOf(c), "task", "tasks")} whose result flipped`)}</h3>`,
    p(
      g(
        "A flip is a change of the task's pass rate for that model (for one attempt: pass ↔ fail); the rates are shown.",
      ),
      "small",
    ),
    htmlTable(["Task", "Model", "Flip", "Before", "After"].map(g), rows, { numeric: [3, 4], keep: [1, 2] }),
    ...notes,
  ];
}

function labelsPart(c: RunChanges, revisions: boolean): string[] {
  const l = c.labels;
  const how =
    l.compared === "readings"
      ? "both runs' labels compared"
      : "label events above the previous run's highest review revision";
  if (l.count === 0) return [p(g(`No label changed (${how}).`))];
  const shown = l.tasks.slice(0, SINCE_LAST_RUN_ITEMS);
  const rows = shown.map((t) => [
    task(t, revisions),
    escapeHtmlText(t.before, 20),
    escapeHtmlText(t.after, 20),
    g(t.review_revision === null ? "never labelled" : `r${formatCount(t.review_revision)}`),
  ]);
  return [
    `<h3>${g(`${plural(l.count, "label", "labels")} changed (${how})`)}</h3>`,
    htmlTable(["Task", "Before", "After", "Review revision"].map(g), rows, { numeric: [3] }),
    ...more(shown.length, l.tasks.length, l.count, "label"),
  ];
}

function moversPart(c: RunChanges, revisions: boolean): string[] {
  const m = c.movers;
  if (m === null || m.count === 0) return [];
  const d = (x: number | null): string => g(x === null ? "not in V" : formatSignedDecimal(x));
  const shown = m.tasks.slice(0, SINCE_LAST_RUN_ITEMS);
  const rows = shown.map((t) => [
    task(t, revisions),
    d(t.d_before),
    d(t.d_after),
    g(formatPp(t.contribution_before, 3)),
    g(formatPp(t.contribution_after, 3)),
    f.strong(g(formatPp(t.change, 3))),
  ]);
  return [
    `<h3>${g(`The tasks that moved the margin most (${plural(m.count, "task", "tasks")} moved it)`)}</h3>`,
    p(
      g(
        "A task's contribution to Δ̂ is its d / N_v on the common valid tasks V (0 outside V); the changes of all tasks add up to Δ̂'s change.",
      ),
      "small",
    ),
    htmlTable(["Task", "d before", "d after", "Contribution before", "after", "Change"].map(g), rows, {
      numeric: [1, 2, 3, 4, 5],
    }),
    ...more(shown.length, m.tasks.length, m.count, "task"),
  ];
}

/** The section's lines, or none without a `since_last_run`. */
export function sinceLastRunHtml(report: Report): string[] {
  const c = report.since_last_run;
  if (c === null) return [];
  const revisions = report.provenance.dataset_revisions.length > 1;
  const code = (s: string, max: number): string => f.code(s, max);
  const out = [
    "<h2>What changed since the last run</h2>",
    p(f.strong(g(headlineParts(c).join("; ")))),
    p(previousSentence(c, code, g)),
  ];
  const models = modelsSentence(c, code, g);
  if (models !== null) out.push(p(models));
  if (c.unavailable !== null)
    out.push(
      p(
        `<em>${g("The previous run's inputs could not be read (")}${escapeHtmlText(c.unavailable, 300)}${g(
          "): the flipped tasks and the margin's movers are not shown; the figures and the labels are.",
        )}</em>`,
      ),
    );
  out.push(
    htmlTable(
      ["Figure", "Before", "After", "Change"].map(g),
      FIGURES.map(([name, fig]) => [g(name), ...figureCells(fig(c)).map(g)]),
      { numeric: [1, 2, 3] },
    ),
  );
  if (c.unavailable === null) out.push(...flipsPart(c, revisions));
  out.push(...labelsPart(c, revisions), ...moversPart(c, revisions));
  return out;
}
