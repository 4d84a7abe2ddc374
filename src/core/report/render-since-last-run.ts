/**
 * "What changed since the last run" (docs/spec.md §3.7), rendered from the report JSON's
 * `since_last_run` alone: for Markdown (a collapsed section, its long lists in nested <details>,
 * `items` rows each) and for text (counts, figures and the first rows). Task ids, model names and
 * the unavailable reason are untrusted: escaped for Markdown (table-cells.ts, escape.ts) and
 * neutralised for a terminal.
 */
import { plural } from "../words.js";
import type {
  FigureChange,
  LabelChange,
  MarginMover,
  ModelFlips,
  RunChanges,
  TaskFlip,
} from "../run-history/run-types.js";
import { escapeCode, escapeMarkdownInline, neutraliseLogLine } from "./escape.js";
import { formatCount, formatPercent, formatPp, formatSignedDecimal } from "./format-number.js";
import type { Report } from "./report-types.js";
import { cellCode } from "./table-cells.js";

/** Rows of each list shown in Markdown before "… and N more" (the report file lists up to 100 and counts all). */
export const SINCE_LAST_RUN_ITEMS = 10;
/** Rows of each list in the text output. */
const TEXT_ITEMS = 5;

/** Code points of a task id and of a model name shown (Markdown, text and the HTML page). */
export const ID_CHARS = 100;
export const MODEL_CHARS = 80;

/** A verdict as generated text: the report is built by the gate, but a hand-edited one renders safely too. */
export function verdictWord(v: string): string {
  return v === "accept" || v === "reject" || v === "unresolved" ? v : "unknown";
}

export function flipsOf(c: RunChanges): number {
  const count = (m: ModelFlips | null): number =>
    m === null ? 0 : m.pass_to_fail_count + m.fail_to_pass_count;
  return count(c.baseline) + count(c.candidate);
}

function changedInputs(c: RunChanges): string[] {
  const i = c.inputs_changed;
  return [
    ...(i.results ? ["results"] : []),
    ...(i.reviews ? ["reviews"] : []),
    ...(i.policy ? ["policy"] : []),
  ];
}

/** One generated line (no untrusted text): the verdict and the margin's change, the counts. */
export function headlineParts(c: RunChanges): string[] {
  const parts = [
    c.verdict.changed
      ? `verdict ${verdictWord(c.verdict.before)} → ${verdictWord(c.verdict.after)}`
      : `verdict ${verdictWord(c.verdict.after)} as before`,
    `Δ̂ ${c.margin.change === null ? "n/a" : formatPp(c.margin.change)}`,
  ];
  if (c.unavailable === null) parts.push(plural(flipsOf(c), "task flipped", "tasks flipped"));
  parts.push(plural(c.labels.count, "label changed", "labels changed"));
  const inputs = changedInputs(c);
  parts.push(inputs.length === 0 ? "same inputs" : `changed: ${inputs.join(", ")}`);
  return parts;
}

export const FIGURES: readonly [string, (c: RunChanges) => FigureChange][] = [
  ["Δ̂ (margin)", (c) => c.margin],
  ["LCB", (c) => c.lcb],
  ["UCB", (c) => c.ucb],
  ["Δ_L (validity low)", (c) => c.margin_low],
  ["Δ_H (validity high)", (c) => c.margin_high],
];

export function figureCells(f: FigureChange): string[] {
  return [formatPp(f.before), formatPp(f.after), f.change === null ? "n/a" : formatPp(f.change)];
}

/** The previous run in a sentence; `gen` escapes the generated words for the output (HTML), identity else. */
export function previousSentence(
  c: RunChanges,
  code: (s: string, max: number) => string,
  gen: (s: string) => string = (s) => s,
): string {
  const p = c.previous;
  const head = p.head_sha === null ? "" : `${gen(" at commit ")}${code(p.head_sha.slice(0, 12), 12)}`;
  return `${gen("Compared with the previous run")}${head}${gen(` (verdict ${verdictWord(p.verdict)}).`)}`;
}

export function modelsSentence(
  c: RunChanges,
  code: (s: string, max: number) => string,
  gen: (s: string) => string = (s) => s,
): string | null {
  if (!c.models_changed) return null;
  const p = c.previous;
  return (
    `${gen("The models changed: the previous run compared ")}${code(p.candidate, MODEL_CHARS)}${gen(" with ")}` +
    `${code(p.baseline, MODEL_CHARS)}${gen("; the tasks are compared by role (candidate, baseline).")}`
  );
}

// --- Markdown -------------------------------------------------------------------------------

function mdTable(header: readonly string[], align: string, rows: readonly (readonly string[])[]): string[] {
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((x) => (x === "" ? " " : x)).join(" | ")} |`;
  return [line(header), align, ...rows.map(line)];
}

function mdDetails(summary: string, body: readonly string[]): string[] {
  return ["<details>", `<summary>${summary}</summary>`, "", ...body, "", "</details>"];
}

/** "… and N more" under a list: the rest of the count, and where the listed ones end in the report file. */
export function moreSentence(shown: number, listed: number, count: number, noun: string): string | null {
  if (count <= shown) return null;
  const inFile =
    listed >= count ? "in the report file" : `(the report file lists the first ${formatCount(listed)})`;
  return `… and ${plural(count - shown, `more ${noun}`, `more ${noun}s`)} ${inFile}.`;
}

function moreLine(shown: number, listed: number, count: number, noun: string): string[] {
  const more = moreSentence(shown, listed, count, noun);
  return more === null ? [] : ["", more];
}

function taskMd(
  t: { readonly task_id: string; readonly dataset_revision: string },
  revisions: boolean,
): string {
  const id = cellCode(t.task_id, ID_CHARS);
  return revisions ? `${id} (${cellCode(t.dataset_revision.slice(0, 12), 12)})` : id;
}

function flipRows(m: ModelFlips, role: string, items: number, revisions: boolean): string[][] {
  const row = (f: TaskFlip, dir: string): string[] => [
    taskMd(f, revisions),
    role,
    dir,
    formatPercent(f.before, 0),
    formatPercent(f.after, 0),
  ];
  return [
    ...m.pass_to_fail.slice(0, items).map((f) => row(f, "pass → fail")),
    ...m.fail_to_pass.slice(0, items).map((f) => row(f, "fail → pass")),
  ];
}

function flipsMd(c: RunChanges, items: number, revisions: boolean): string[] {
  const out: string[] = [];
  for (const [role, m] of [
    ["candidate", c.candidate],
    ["baseline", c.baseline],
  ] as const) {
    if (m === null) continue;
    const oneRun = [
      ...(m.only_previous > 0
        ? [`${plural(m.only_previous, "task", "tasks")} without a counted attempt now`]
        : []),
      ...(m.only_current > 0 ? [`${plural(m.only_current, "task", "tasks")} new`] : []),
    ];
    const only = oneRun.length === 0 ? "" : ` (${oneRun.join(", ")})`;
    out.push(
      `- ${role} ${escapeCode(m.model, MODEL_CHARS)}: ${formatCount(m.pass_to_fail_count)} pass → fail, ` +
        `${formatCount(m.fail_to_pass_count)} fail → pass${only}`,
    );
  }
  const rows = [
    ...(c.candidate === null ? [] : flipRows(c.candidate, "candidate", items, revisions)),
    ...(c.baseline === null ? [] : flipRows(c.baseline, "baseline", items, revisions)),
  ];
  if (rows.length > 0) {
    const notes: string[] = [];
    for (const [role, m] of [
      ["candidate", c.candidate],
      ["baseline", c.baseline],
    ] as const) {
      if (m === null) continue;
      notes.push(
        ...moreLine(
          Math.min(items, m.pass_to_fail.length),
          m.pass_to_fail.length,
          m.pass_to_fail_count,
          `${role} pass → fail task`,
        ),
      );
      notes.push(
        ...moreLine(
          Math.min(items, m.fail_to_pass.length),
          m.fail_to_pass.length,
          m.fail_to_pass_count,
          `${role} fail → pass task`,
        ),
      );
    }
    out.push(
      "",
      ...mdDetails(`${plural(flipsOf(c), "task", "tasks")} whose result flipped`, [
        "A flip is a change of the task's pass rate for that model (for one attempt: pass ↔ fail); the rates are shown.",
        "",
        ...mdTable(["Task", "Model", "Flip", "Before", "After"], "|:--|:--|:--|--:|--:|", rows),
        ...notes,
      ]),
    );
  }
  return out;
}

function labelsMd(c: RunChanges, items: number, revisions: boolean): string[] {
  const l = c.labels;
  const how =
    l.compared === "readings"
      ? "both runs' labels compared"
      : "label events above the previous run's highest review revision";
  if (l.count === 0) return [`No label changed (${how}).`];
  const rows = l.tasks
    .slice(0, items)
    .map((t: LabelChange) => [
      taskMd(t, revisions),
      escapeMarkdownInline(t.before, 20),
      escapeMarkdownInline(t.after, 20),
      t.review_revision === null ? "never labelled" : `r${formatCount(t.review_revision)}`,
    ]);
  return mdDetails(`${plural(l.count, "label", "labels")} changed (${how})`, [
    ...mdTable(["Task", "Before", "After", "Review revision"], "|:--|:--|:--|--:|", rows),
    ...moreLine(rows.length, l.tasks.length, l.count, "label"),
  ]);
}

function moversMd(c: RunChanges, items: number, revisions: boolean): string[] {
  const m = c.movers;
  if (m === null || m.count === 0) return [];
  const d = (x: number | null): string => (x === null ? "not in V" : formatSignedDecimal(x));
  const rows = m.tasks
    .slice(0, items)
    .map((t: MarginMover) => [
      taskMd(t, revisions),
      d(t.d_before),
      d(t.d_after),
      formatPp(t.contribution_before, 3),
      formatPp(t.contribution_after, 3),
      `**${formatPp(t.change, 3)}**`,
    ]);
  return mdDetails(`The tasks that moved the margin most (${plural(m.count, "task", "tasks")} moved it)`, [
    "A task's contribution to Δ̂ is its d / N\\_v on the common valid tasks V (0 outside V); the changes of all tasks add up to Δ̂'s change.",
    "",
    ...mdTable(
      ["Task", "d before", "d after", "Contribution before", "after", "Change"],
      "|:--|--:|--:|--:|--:|--:|",
      rows,
    ),
    ...moreLine(rows.length, m.tasks.length, m.count, "task"),
  ]);
}

/**
 * The Markdown section's <summary> (generated text only: raw HTML) and body, or null without a
 * `since_last_run`. `items` rows of each list (0: the counts only).
 */
export function sinceLastRunMarkdown(
  report: Report,
  items: number,
): { readonly summary: string; readonly body: string[] } | null {
  const c = report.since_last_run;
  if (c === null) return null;
  const revisions = report.provenance.dataset_revisions.length > 1;
  const code = (s: string, max: number): string => escapeCode(s, max);
  const body: string[] = [previousSentence(c, code)];
  const models = modelsSentence(c, code);
  if (models !== null) body.push("", models);
  if (c.unavailable !== null) {
    body.push(
      "",
      `_The previous run's inputs could not be read (${escapeMarkdownInline(c.unavailable, 300)}): the flipped tasks and the margin's movers are not shown; the figures and the labels are._`,
    );
  }
  body.push(
    "",
    ...mdTable(
      ["Figure", "Before", "After", "Change"],
      "|:--|--:|--:|--:|",
      FIGURES.map(([name, f]) => [name.replace(/_/g, "\\_"), ...figureCells(f(c))]),
    ),
  );
  if (c.unavailable === null) {
    const flips = flipsMd(c, items, revisions);
    if (flips.length > 0) body.push("", ...flips);
  }
  body.push("", ...labelsMd(c, items, revisions));
  const movers = moversMd(c, items, revisions);
  if (movers.length > 0) body.push("", ...movers);
  return { summary: `<b>What changed since the last run</b> — ${headlineParts(c).join("; ")}`, body };
}

// --- Text -----------------------------------------------------------------------------------

function plainText(s: string, max: number): string {
  return neutraliseLogLine(Array.from(s).slice(0, max).join(""));
}

/** The text section: the headline, the figures, each model's flips and the first rows of each list. */
export function sinceLastRunText(report: Report): string[] {
  const c = report.since_last_run;
  if (c === null) return [];
  const code = (s: string, max: number): string => plainText(s, max);
  const out = [
    `What changed since the last run: ${headlineParts(c).join("; ")}`,
    `  ${previousSentence(c, code)}`,
  ];
  const models = modelsSentence(c, code);
  if (models !== null) out.push(`  ${models}`);
  if (c.unavailable !== null)
    out.push(`  The previous run's inputs could not be read: ${plainText(c.unavailable, 300)}`);
  for (const [name, f] of FIGURES) {
    const [b, a, ch] = figureCells(f(c));
    out.push(`  ${name}: ${b ?? ""} → ${a ?? ""} (${ch ?? ""})`);
  }
  const task = (t: { readonly task_id: string }): string => plainText(t.task_id, ID_CHARS);
  for (const [role, m] of [
    ["candidate", c.candidate],
    ["baseline", c.baseline],
  ] as const) {
    if (m === null) continue;
    out.push(
      `  ${role} ${plainText(m.model, MODEL_CHARS)}: ${formatCount(m.pass_to_fail_count)} pass → fail, ${formatCount(m.fail_to_pass_count)} fail → pass`,
    );
    const list = (flips: readonly TaskFlip[], count: number, dir: string): void => {
      for (const f of flips.slice(0, TEXT_ITEMS)) {
        out.push(`    ${dir} ${task(f)}: ${formatPercent(f.before, 0)} → ${formatPercent(f.after, 0)}`);
      }
      if (count > Math.min(TEXT_ITEMS, flips.length))
        out.push(`    … and ${formatCount(count - Math.min(TEXT_ITEMS, flips.length))} more`);
    };
    list(m.pass_to_fail, m.pass_to_fail_count, "pass → fail");
    list(m.fail_to_pass, m.fail_to_pass_count, "fail → pass");
  }
  out.push(`  Labels changed: ${formatCount(c.labels.count)}`);
  for (const l of c.labels.tasks.slice(0, TEXT_ITEMS)) {
    out.push(
      `    ${task(l)}: ${plainText(l.before, 20)} → ${plainText(l.after, 20)}${l.review_revision === null ? "" : ` (r${formatCount(l.review_revision)})`}`,
    );
  }
  if (c.labels.count > Math.min(TEXT_ITEMS, c.labels.tasks.length)) {
    out.push(`    … and ${formatCount(c.labels.count - Math.min(TEXT_ITEMS, c.labels.tasks.length))} more`);
  }
  const m = c.movers;
  if (m !== null && m.count > 0) {
    out.push(`  Moved the margin most (${plural(m.count, "task", "tasks")} moved it):`);
    for (const t of m.tasks.slice(0, TEXT_ITEMS)) out.push(`    ${task(t)}: ${formatPp(t.change, 3)}`);
    if (m.count > Math.min(TEXT_ITEMS, m.tasks.length)) {
      out.push(`    … and ${formatCount(m.count - Math.min(TEXT_ITEMS, m.tasks.length))} more`);
    }
  }
  return out;
}
