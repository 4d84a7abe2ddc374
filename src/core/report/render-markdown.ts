/**
 * The Markdown summary (SPEC §5), rendered from the report JSON alone: the same report gives
 * byte-identical Markdown. Used for the job summary, the check run text, the sticky PR comment
 * and the CLI.
 *
 * Order: verdict headline, headline warnings and reasons; checks; margin with its text bar;
 * per-model figures; the most influential disputed/unreviewed tasks; fragility; broken tasks,
 * review history and policy changes; provenance. Long sections sit in <details> blocks and every
 * list is bounded.
 *
 * Every untrusted string goes through escape.ts. Generated text (labels, numbers, glyphs) is
 * written directly; the text-bar fence holds generated characters only.
 *
 * With `maxLength`, sections are shortened and dropped, least important first, until the result
 * fits; the verdict, warnings, reasons, checks and margin are kept as long as possible, and a
 * visible note says the comment was trimmed.
 */

import type { Check, CheckId, ModelFigures, Report, Verdict } from "./report-types.js";
import { COMMENT_MARKER, escapeCode, escapeMarkdownInline, safeLink } from "./escape.js";
import {
  NOT_AVAILABLE,
  formatCount,
  formatDecimal,
  formatPercent,
  formatPercentInterval,
  formatPp,
  formatPpUnsigned,
  formatSignedDecimal,
} from "./format-number.js";
import { renderMarginBar } from "./text-bar.js";

export interface RenderMarkdownOptions {
  /** Upper bound on the result's length (JavaScript string length). */
  readonly maxLength?: number;
  /** Shown under the headline (default "Model acceptance gate"); untrusted, escaped. */
  readonly title?: string;
  /** When true, the first line is COMMENT_MARKER (the sticky PR comment). */
  readonly marker?: boolean;
}

export const DEFAULT_TITLE = "Model acceptance gate";

/** Items shown per list before "… and N more". */
export const LIST_LIMIT = 20;

const VERDICT_ICON: Readonly<Record<Verdict, string>> = {
  accept: "✅",
  reject: "❌",
  unresolved: "⚠️",
};

const CHECK_LABEL: Readonly<Record<CheckId, string>> = {
  common_valid_tasks: "Common valid tasks",
  infra_error_rate_baseline: "Infra error rate, baseline",
  infra_error_rate_candidate: "Infra error rate, candidate",
  disputed_fraction: "Disputed fraction",
  missing_fraction_baseline: "Missing fraction, baseline",
  missing_fraction_candidate: "Missing fraction, candidate",
  same_harness: "Same harness revision",
  dataset_revision: "Dataset revision present for both",
  production_canary: "Production canary",
  observed_margin: "Margin lower bound (LCB)",
};

type CheckUnit = "count" | "fraction" | "pp" | "text";

const CHECK_UNIT: Readonly<Record<CheckId, CheckUnit>> = {
  common_valid_tasks: "count",
  infra_error_rate_baseline: "fraction",
  infra_error_rate_candidate: "fraction",
  disputed_fraction: "fraction",
  missing_fraction_baseline: "fraction",
  missing_fraction_candidate: "fraction",
  same_harness: "text",
  dataset_revision: "text",
  production_canary: "text",
  observed_margin: "pp",
};

/** How much of each trimmable part is rendered. */
interface Detail {
  reasons: number;
  reasonChars: number;
  warnings: number;
  checkDetails: boolean;
  marginTable: "full" | "compact";
  bar: boolean;
  perModel: "full" | "core" | "none";
  influential: number;
  fragilityTasks: number;
  broken: number;
  history: number;
  policyChanges: "full" | "loosenings" | "count";
  provenance: "full" | "short";
  inputs: number;
  /** Drop the settings line, the title line and the margin's introductory sentence. */
  compactHeader: boolean;
}

function fullDetail(): Detail {
  return {
    reasons: 50,
    reasonChars: 600,
    warnings: 20,
    checkDetails: true,
    marginTable: "full",
    bar: true,
    perModel: "full",
    influential: LIST_LIMIT,
    fragilityTasks: LIST_LIMIT,
    broken: LIST_LIMIT,
    history: LIST_LIMIT,
    policyChanges: "full",
    provenance: "full",
    inputs: LIST_LIMIT,
    compactHeader: false,
  };
}

/** Trimming steps, least important first; each narrows the detail further. */
const TRIM_STEPS: readonly ((d: Detail) => void)[] = [
  (d) => (d.history = 5),
  (d) => (d.broken = 5),
  (d) => (d.inputs = 5),
  (d) => (d.history = 0),
  (d) => (d.broken = 0),
  (d) => (d.fragilityTasks = 5),
  (d) => (d.influential = 5),
  (d) => {
    d.inputs = 0;
    d.provenance = "short";
  },
  (d) => (d.perModel = "core"),
  (d) => (d.fragilityTasks = 0),
  (d) => (d.influential = 0),
  (d) => (d.perModel = "none"),
  (d) => (d.policyChanges = "loosenings"),
  (d) => (d.checkDetails = false),
  (d) => (d.policyChanges = "count"),
  (d) => {
    d.reasons = 10;
    d.reasonChars = 300;
    d.warnings = 5;
  },
  (d) => (d.marginTable = "compact"),
  (d) => (d.bar = false),
  (d) => (d.compactHeader = true),
  (d) => {
    d.reasons = 3;
    d.reasonChars = 160;
    d.warnings = 2;
  },
];

// ---------------------------------------------------------------------------------------------
// Small Markdown builders (cells must already be escaped or generated).

function md(s: string, maxChars?: number): string {
  return maxChars === undefined ? escapeMarkdownInline(s) : escapeMarkdownInline(s, maxChars);
}

function table(
  header: readonly string[],
  align: readonly ("l" | "r" | "c")[],
  rows: readonly string[][],
): string[] {
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((c) => (c === "" ? " " : c)).join(" | ")} |`;
  const sep = align.map((a) => (a === "r" ? "--:" : a === "c" ? ":-:" : ":--"));
  return [line(header), `|${sep.join("|")}|`, ...rows.map(line)];
}

function details(summary: string, body: readonly string[], open = false): string[] {
  return [
    open ? "<details open>" : "<details>",
    `<summary>${summary}</summary>`,
    "",
    ...body,
    "",
    "</details>",
  ];
}

function moreLine(shown: number, total: number, noun: string): string[] {
  const rest = total - shown;
  return rest > 0 ? ["", `… and ${rest} more ${noun}.`] : [];
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

function codeList(items: readonly string[], limit: number): string {
  if (items.length === 0) return "none";
  const shown = items.slice(0, limit).map((s) => escapeCode(s, 80));
  const rest = items.length - shown.length;
  return rest > 0 ? `${shown.join(", ")} and ${rest} more` : shown.join(", ");
}

function taskCell(t: { readonly task_id: string }): string {
  return escapeCode(t.task_id, 100);
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
    rows.map((r) => insert(r.cells, escapeCode(r.revision, 40))),
  ];
}

function datasetNote(report: Report, show: boolean): string[] {
  const only = report.provenance.dataset_revisions[0];
  return show || only === undefined ? [] : [`All on dataset revision ${escapeCode(only, 80)}.`, ""];
}

// ---------------------------------------------------------------------------------------------
// Sections

function headline(report: Report, title: string, detail: Detail): string[] {
  const { baseline, candidate } = report.models;
  const icon = VERDICT_ICON[report.verdict] ?? "❔";
  const verdict = md(report.verdict, 20);
  const p = report.provenance.policy;
  const head = `## ${icon} ${verdict} — candidate ${md(candidate.config, 80)} over baseline ${md(baseline.config, 80)}`;
  if (detail.compactHeader) return [head];
  return [
    head,
    "",
    `<sub>${[
      title === "" ? "" : md(title, 120),
      `policy owner ${md(p.owner, 80)}`,
      `revisit by ${md(p.revisit, 40)}`,
    ]
      .filter((x) => x !== "")
      .join(" · ")}</sub>`,
  ];
}

function settingsLine(report: Report): string {
  const c = report.comparison;
  const infra =
    report.provenance.infra_errors_policy === "count_as_fail"
      ? "**infra errors counted as fails**"
      : "infra errors excluded";
  const se =
    c.standard_error === "clustered"
      ? `clustered SE (${formatCount(c.clusters)} ${plural(c.clusters ?? 0, "cluster", "clusters")})`
      : "paired SE";
  return (
    `**Gate:** ${formatPercent(c.confidence)} one-sided confidence · δ₀ ${formatPp(c.delta0)} · ` +
    `${se} · ${md(c.validity_bound, 20)} validity bound · ${infra}`
  );
}

function warningLines(report: Report, detail: Detail, trimmedTo: number | null): string[] {
  const quotes: string[] = [];
  const shown = report.warnings.slice(0, detail.warnings);
  for (const w of shown) quotes.push(`⚠️ ${md(w, detail.reasonChars)}`);
  if (report.warnings.length > shown.length) {
    quotes.push(`⚠️ … and ${report.warnings.length - shown.length} more warnings in the report file.`);
  }
  const changes = report.policy_changes;
  if (changes !== null && changes.length > 0) {
    const loosenings = changes.filter((c) => c.loosening).length;
    quotes.push(
      `⚠️ This pull request changes the policy file: ${changes.length} ` +
        `${plural(changes.length, "rule", "rules")} changed, ${loosenings} ` +
        `${plural(loosenings, "loosening", "loosenings")}. The policy at the base commit decided this verdict.`,
    );
  }
  if (trimmedTo !== null) {
    quotes.push(
      `⚠️ Trimmed to fit GitHub's ${trimmedTo}-character limit; the full report is in the job summary and the report file.`,
    );
  }
  const out: string[] = [];
  quotes.forEach((q, i) => {
    if (i > 0) out.push(">");
    out.push(`> ${q}`);
  });
  return out;
}

function reasonLines(report: Report, detail: Detail): string[] {
  if (report.reasons.length === 0) return [];
  const shown = report.reasons.slice(0, detail.reasons);
  const lines = ["**Why:**", "", ...shown.map((r) => `- ${md(r, detail.reasonChars)}`)];
  if (report.reasons.length > shown.length) {
    lines.push(`- … and ${report.reasons.length - shown.length} more reasons in the report file.`);
  }
  return lines;
}

function checkLabel(id: string): string {
  return Object.hasOwn(CHECK_LABEL, id) ? (CHECK_LABEL[id as CheckId] ?? md(id, 60)) : md(id, 60);
}

function formatObserved(check: Check): string {
  const unit: CheckUnit = Object.hasOwn(CHECK_UNIT, check.id) ? (CHECK_UNIT[check.id] ?? "text") : "text";
  const v = check.observed;
  if (v === null) return NOT_AVAILABLE;
  if (typeof v === "string") return md(v, 120);
  switch (unit) {
    case "count":
      return formatCount(v);
    case "fraction":
      return formatPercent(v);
    case "pp":
      return formatPp(v);
    case "text":
      return Number.isInteger(v) ? formatCount(v) : formatDecimal(v);
  }
}

function checksSection(report: Report, detail: Detail): string[] {
  const lines = ["### Checks", ""];
  if (report.checks.length === 0) return [...lines, "No checks were run."];
  lines.push(
    ...table(
      ["Check", "Observed", "Threshold", "Result"],
      ["l", "r", "l", "l"],
      report.checks.map((c) => [
        checkLabel(c.id),
        formatObserved(c),
        md(c.threshold, 100),
        c.passed ? "✅ pass" : "❌ fail",
      ]),
    ),
  );
  const failed = report.checks.filter((c) => !c.passed && c.detail !== "");
  if (detail.checkDetails && failed.length > 0) {
    lines.push("");
    for (const c of failed) lines.push(`- ❌ **${checkLabel(c.id)}:** ${md(c.detail, 600)}`);
  }
  return lines;
}

function marginReading(report: Report): string {
  const c = report.comparison;
  if (c.lcb === null || c.ucb === null) {
    return "The run-variance band is undefined, so the margin cannot decide.";
  }
  if (c.lcb > c.delta0) {
    return (
      `**LCB ${formatPp(c.lcb)} &gt; δ₀ ${formatPp(c.delta0)}:** the least favourable resolution of the open ` +
      "labels, at the low end of run variance, still clears the bar."
    );
  }
  if (c.ucb <= c.delta0) {
    return (
      `**UCB ${formatPp(c.ucb)} ≤ δ₀ ${formatPp(c.delta0)}:** even the most favourable resolution of the ` +
      "open labels, at the high end of run variance, does not clear the bar."
    );
  }
  return (
    `**LCB ${formatPp(c.lcb)} ≤ δ₀ ${formatPp(c.delta0)} &lt; UCB ${formatPp(c.ucb)}:** the band straddles ` +
    "the bar, so the margin alone cannot decide."
  );
}

function marginSection(report: Report, detail: Detail): string[] {
  const c = report.comparison;
  const lines = ["### Margin (candidate − baseline)", ""];
  if (!detail.compactHeader) {
    lines.push(
      `On **${formatCount(c.common_valid_tasks)}** common valid tasks ` +
        `(${formatCount(c.common_tasks)} common tasks; ${formatCount(c.unresolved_tasks)} open labels: ` +
        `${formatCount(c.disputed_tasks)} disputed, ${formatCount(c.unreviewed_tasks)} unreviewed; ` +
        `${formatCount(c.broken_tasks)} broken tasks excluded). Margins are in percentage points (pp).`,
      "",
    );
  }
  if (c.margin === null) {
    lines.push("The margin is undefined: there are no common valid tasks to compare.");
    return lines;
  }
  if (detail.marginTable === "full") {
    const rows: string[][] = [
      ["Observed margin Δ̂", formatPp(c.margin)],
      [
        `Validity bounds Δ\\_L … Δ\\_H (${md(c.validity_bound, 20)})`,
        `${formatPp(c.margin_lower)} … ${formatPp(c.margin_upper)}`,
      ],
      [
        "Validity sensitivity, down / up",
        `${formatPpUnsigned(c.validity_sensitivity)} / ${formatPpUnsigned(c.validity_sensitivity_upside)}`,
      ],
      [
        `Standard error (${md(c.standard_error, 20)}): SE(V) / SE(V ∪ S\\_L) / SE(V ∪ S\\_H)`,
        `${formatPpUnsigned(c.se_valid)} / ${formatPpUnsigned(c.se_lower)} / ${formatPpUnsigned(c.se_upper)}`,
      ],
      ["Re-run-only SE", formatPpUnsigned(c.se_rerun)],
    ];
    if (c.standard_error === "clustered") rows.push(["Clusters G", formatCount(c.clusters)]);
    rows.push(
      [
        `Quantile q for LCB / UCB (${md(c.quantile, 4)}, ${formatPercent(c.confidence)} one-sided)`,
        `${formatDecimal(c.q_lower)} / ${formatDecimal(c.q_upper)}`,
      ],
      ["LCB = Δ\\_L − q · SE(V ∪ S\\_L)", formatPp(c.lcb)],
      ["UCB = Δ\\_H + q · SE(V ∪ S\\_H)", formatPp(c.ucb)],
      ["Bar δ₀", formatPp(c.delta0)],
    );
    lines.push(...table(["Figure", "Value"], ["l", "r"], rows), "");
  } else {
    lines.push(
      `Δ̂ ${formatPp(c.margin)} · Δ\\_L … Δ\\_H ${formatPp(c.margin_lower)} … ${formatPp(c.margin_upper)} · ` +
        `SE(V) ${formatPpUnsigned(c.se_valid)} · q ${formatDecimal(c.q_lower)} · LCB ${formatPp(c.lcb)} · ` +
        `UCB ${formatPp(c.ucb)} · δ₀ ${formatPp(c.delta0)}`,
      "",
    );
  }
  if (detail.bar) {
    const bar = renderMarginBar(
      {
        margin: c.margin,
        lower: c.margin_lower,
        upper: c.margin_upper,
        lcb: c.lcb,
        ucb: c.ucb,
        delta0: c.delta0,
      },
      { confidence: c.confidence, openLabels: c.unresolved_tasks },
    );
    if (bar !== null) lines.push("```text", ...bar, "```", "");
  }
  lines.push(marginReading(report));
  return lines;
}

function perModelSection(report: Report, detail: Detail): string[] {
  if (detail.perModel === "none") return [];
  const { baseline: b, candidate: a } = report.models;
  const row = (label: string, f: (m: ModelFigures) => string): string[] => [label, f(b), f(a)];
  const core: string[][] = [
    row("Attempts", (m) => formatCount(m.attempts)),
    row("Passes", (m) => formatCount(m.passes)),
    row("Fails", (m) => formatCount(m.fails)),
    row("Infra errors", (m) => formatCount(m.infra_errors)),
    row("Infra error rate", (m) => formatPercent(m.infra_error_rate)),
    row("Missing tasks", (m) => formatCount(m.missing_tasks)),
    row("Valid-only score", (m) => formatPercent(m.valid_only_score)),
    row("Valid-only score, common set", (m) => formatPercent(m.common.valid_only_score)),
  ];
  const rows: string[][] =
    detail.perModel === "core"
      ? core
      : [
          row("Model config", (m) => escapeCode(m.config, 80)),
          row("Harness revisions", (m) => codeList(m.harness_revisions, 3)),
          row("Dataset revisions", (m) => codeList(m.dataset_revisions, 3)),
          row("Attempts", (m) => formatCount(m.attempts)),
          row("Passes", (m) => formatCount(m.passes)),
          row("Fails", (m) => formatCount(m.fails)),
          row("Infra errors", (m) => formatCount(m.infra_errors)),
          row("Missing attempts", (m) => formatCount(m.missing_attempts)),
          row("Duplicate rows", (m) => formatCount(m.duplicate_rows)),
          row("Attempted tasks", (m) => formatCount(m.attempted_tasks)),
          row("Missing tasks", (m) => formatCount(m.missing_tasks)),
          row("Tasks lost to infra", (m) => formatCount(m.lost_to_infra_tasks)),
          row("Infra error rate", (m) => formatPercent(m.infra_error_rate)),
          row("Missing fraction", (m) => formatPercent(m.missing_fraction)),
          row("Valid-only score", (m) => formatPercent(m.valid_only_score)),
          row("All-attempted score", (m) => formatPercent(m.all_attempted_score)),
          row("Validity interval, exact", (m) => formatPercentInterval(m.interval_exact)),
          row("Validity interval, pessimistic", (m) => formatPercentInterval(m.interval_pessimistic)),
          ["**On the common set**", "", ""],
          row("Valid-only score", (m) => formatPercent(m.common.valid_only_score)),
          row("All-attempted score", (m) => formatPercent(m.common.all_attempted_score)),
          row("Validity interval, exact", (m) => formatPercentInterval(m.common.interval_exact)),
          row("Validity interval, pessimistic", (m) => formatPercentInterval(m.common.interval_pessimistic)),
        ];
  const summary =
    `<b>Per-model figures</b> — valid-only score on the common set: baseline ` +
    `${formatPercent(b.common.valid_only_score)}, candidate ${formatPercent(a.common.valid_only_score)}`;
  return details(summary, table(["", "Baseline", "Candidate"], ["l", "r", "r"], rows));
}

function evidenceCell(evidence: readonly string[]): string {
  if (evidence.length === 0) return "—";
  const shown = evidence.slice(0, 3).map((e) => safeLink(e, undefined, 60));
  const rest = evidence.length - shown.length;
  return rest > 0 ? `${shown.join(", ")} +${rest} more` : shown.join(", ");
}

function influentialSection(report: Report, detail: Detail): string[] {
  const tasks = report.comparison.influential_tasks;
  if (detail.influential === 0 || tasks.length === 0) return [];
  const shown = tasks.slice(0, detail.influential);
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
      formatSignedDecimal(t.d),
      sets.length > 0 ? sets.join(", ") : "—",
      evidenceCell(t.evidence),
    ];
    return { revision: t.dataset_revision, cells };
  });
  const body = [
    "d = candidate score − baseline score on the task. S\\_L is the set of open tasks that gives the " +
      "lowest margin Δ\\_L, S\\_H the set that gives the highest Δ\\_H. Evidence links are shown, never fetched.",
    "",
    ...datasetNote(report, show),
    ...table(
      ...withDataset(
        show,
        2,
        ["#", "Task", "Label", "d", "In set", "Evidence"],
        ["r", "l", "l", "r", "l", "l"],
        rows,
      ),
    ),
    ...moreLine(shown.length, total, "disputed or unreviewed tasks"),
  ];
  const summary = `<b>Most influential disputed and unreviewed tasks</b> (${shown.length} of ${total})`;
  return details(summary, body, report.verdict === "unresolved");
}

function fragilitySection(report: Report, detail: Detail): string[] {
  const c = report.comparison;
  const lines = ["### Fragility", ""];
  const atMost = c.fragility_exact ? "" : "at most ";
  if (report.verdict === "unresolved") {
    if (c.fragility_unbounded && c.fragility_exact) {
      lines.push("**Resolution distance: ∞** — no resolution of the open labels can decide it.");
    } else if (c.fragility_unbounded) {
      lines.push(
        "**Resolution distance: not found** — the greedy search found no resolution of the open labels " +
          "that decides it, but did not prove that none exists.",
      );
    } else if (c.resolution_distance === null) {
      lines.push("**Resolution distance:** not computed.");
    } else {
      const n = c.resolution_distance;
      lines.push(
        `**Resolution distance: ${atMost}${formatCount(n)}** — resolving ${atMost}${formatCount(n)} open ` +
          `${plural(n, "label", "labels")} (disputed or unreviewed → valid or broken) can decide the verdict.` +
          (c.fragility_exact ? "" : " This is an upper bound from a greedy order."),
      );
    }
  } else if (c.fragility_unbounded && c.fragility_exact) {
    lines.push("**Review fragility: ∞** — no change to the reviewed labels changes the verdict.");
  } else if (c.fragility_unbounded) {
    lines.push(
      "**Review fragility: not found** — the greedy search found no set of label changes that changes " +
        "the verdict, but did not prove that none exists.",
    );
  } else if (c.review_fragility === null) {
    lines.push("**Review fragility:** not computed.");
  } else {
    const n = c.review_fragility;
    const share =
      c.review_fragility_share === null
        ? ""
        : ` (${formatPercent(c.review_fragility_share)} of the ${formatCount(c.common_valid_tasks)} common valid tasks)`;
    lines.push(
      `**Review fragility: ${atMost}${formatCount(n)}**${share} — changing ${atMost}${formatCount(n)} reviewed ` +
        `${plural(n, "label", "labels")} (valid → broken, or broken → valid) gives a different verdict.` +
        (c.fragility_exact ? "" : " This is an upper bound from a greedy order."),
    );
  }
  const tasks = c.fragility_tasks;
  if (detail.fragilityTasks > 0 && tasks.length > 0) {
    const shown = tasks.slice(0, detail.fragilityTasks);
    const show = needsDatasetColumn(report, shown);
    const rows = shown.map((t, i) => ({
      revision: t.dataset_revision,
      cells: [String(i + 1), taskCell(t), md(t.change, 120)],
    }));
    const title =
      report.verdict === "unresolved"
        ? "Tasks to review first"
        : "Tasks whose relabelling changes the verdict";
    lines.push(
      "",
      ...details(
        `<b>${title}</b> (${shown.length} of ${tasks.length})`,
        [
          ...datasetNote(report, show),
          ...table(...withDataset(show, 2, ["#", "Task", "Change"], ["r", "l", "l"], rows)),
          ...moreLine(shown.length, tasks.length, "tasks"),
        ],
        report.verdict === "unresolved",
      ),
    );
  }
  return lines;
}

function tasksSection(report: Report, detail: Detail): string[] {
  const lines = ["### Broken tasks and review history", ""];
  const nBroken = report.comparison.broken_tasks;
  lines.push(
    nBroken === 0
      ? "**No broken tasks** in the universe."
      : `**${formatCount(nBroken)} broken ${plural(nBroken, "task", "tasks")}** ` +
          "in the universe: counted and listed, never deleted, and left out of every score.",
  );
  if (detail.broken > 0 && report.broken_tasks.length > 0) {
    const shown = report.broken_tasks.slice(0, detail.broken);
    const total = Math.max(nBroken, report.broken_tasks.length);
    lines.push(
      "",
      ...details(`<b>Broken tasks</b> (${shown.length} of ${total})`, [
        ...datasetNote(report, needsDatasetColumn(report, shown)),
        ...table(
          ...withDataset(
            needsDatasetColumn(report, shown),
            1,
            ["Task"],
            ["l"],
            shown.map((t) => ({ revision: t.dataset_revision, cells: [taskCell(t)] })),
          ),
        ),
        ...moreLine(shown.length, total, "broken tasks"),
      ]),
    );
  }
  const history = report.review_history;
  if (history.length > 0) {
    lines.push(
      "",
      `**${history.length} ${plural(history.length, "task", "tasks")}** changed label across review revisions.`,
    );
    if (detail.history > 0) {
      const shown = history.slice(0, detail.history);
      const rows = shown.map((h) => {
        const events = h.events
          .slice(0, 6)
          .map((e) => `r${formatCount(e.revision)} ${md(e.validity, 20)} (${md(e.source, 60)})`);
        const more = h.events.length > events.length ? ` → … ${h.events.length - events.length} more` : "";
        return { revision: h.dataset_revision, cells: [taskCell(h), events.join(" → ") + more] };
      });
      lines.push(
        "",
        ...details(`<b>Review history</b> (${shown.length} of ${history.length})`, [
          ...datasetNote(report, needsDatasetColumn(report, shown)),
          ...table(
            ...withDataset(
              needsDatasetColumn(report, shown),
              1,
              ["Task", "Labels by review revision"],
              ["l", "l"],
              rows,
            ),
          ),
          ...moreLine(shown.length, history.length, "tasks"),
        ]),
      );
    }
  }
  return lines;
}

function policyChangesSection(report: Report, detail: Detail): string[] {
  const changes = report.policy_changes;
  if (changes === null || changes.length === 0) return [];
  const loosenings = changes.filter((c) => c.loosening).length;
  const lines = [
    "### Policy changes in this pull request",
    "",
    `The policy at the base commit decided this verdict. The head changes ${changes.length} ` +
      `${plural(changes.length, "rule", "rules")}, ${loosenings} of them ${plural(loosenings, "a loosening", "loosenings")}; ` +
      "they take effect only once merged.",
  ];
  if (detail.policyChanges === "count") return lines;
  const shown = (detail.policyChanges === "loosenings" ? changes.filter((c) => c.loosening) : changes).slice(
    0,
    LIST_LIMIT,
  );
  const total = detail.policyChanges === "loosenings" ? loosenings : changes.length;
  if (shown.length === 0) return lines;
  const value = (v: string | null): string => (v === null ? "_(absent)_" : escapeCode(v, 100));
  lines.push(
    "",
    ...table(
      ["Rule", "Base", "Head", "Change"],
      ["l", "l", "l", "l"],
      shown.map((c) => [
        escapeCode(c.key, 80),
        value(c.base),
        value(c.head),
        c.loosening ? "⚠️ loosening" : "—",
      ]),
    ),
    ...moreLine(shown.length, total, detail.policyChanges === "loosenings" ? "loosenings" : "changed rules"),
  );
  return lines;
}

function provenanceSection(report: Report, detail: Detail): string[] {
  const p = report.provenance;
  const pol = p.policy;
  const infra = p.infra_errors_policy === "count_as_fail" ? "counted as fails" : "excluded";
  if (detail.provenance === "short") {
    return [
      `**Provenance:** policy ${escapeCode(pol.path, 80)} sha256 ${escapeCode(pol.sha256, 80)} · ` +
        `${formatCount(p.inputs.length)} input ${plural(p.inputs.length, "file", "files")} · ` +
        `${formatCount(p.rows_read)} rows read · tool ${md(p.tool_version, 40)}`,
    ];
  }
  const rows: string[][] = [
    ["Tool version", md(p.tool_version, 40)],
    ["Report schema", md(report.schema_version, 40)],
    ["Policy file", escapeCode(pol.path, 120)],
    ["Policy sha256", escapeCode(pol.sha256, 80)],
    ["Policy source", md(pol.source, 120)],
    ["Policy last changed in", pol.last_commit === null ? "unknown" : escapeCode(pol.last_commit, 80)],
    ["Policy owner", md(pol.owner, 80)],
    ["Policy revisit by", md(pol.revisit, 40)],
    ["Infra errors", infra],
    ["Dataset revisions", codeList(p.dataset_revisions, 5)],
    ["Harness revisions", codeList(p.harness_revisions, 5)],
    [
      "Review revisions",
      p.review_revisions.length === 0
        ? "none"
        : p.review_revisions
            .slice(0, 20)
            .map((r) => formatCount(r))
            .join(", ") +
          (p.review_revisions.length > 20 ? ` and ${p.review_revisions.length - 20} more` : ""),
    ],
    ["Rows read", formatCount(p.rows_read)],
  ];
  const body = table(["", ""], ["l", "l"], rows);
  if (detail.inputs > 0 && p.inputs.length > 0) {
    const shown = p.inputs.slice(0, detail.inputs);
    body.push(
      "",
      ...table(
        ["Input file", "sha256"],
        ["l", "l"],
        shown.map((f) => [escapeCode(f.path, 120), escapeCode(f.sha256, 80)]),
      ),
      ...moreLine(shown.length, p.inputs.length, "input files"),
    );
  }
  return details(
    `<b>Provenance</b> — tool ${md(p.tool_version, 40)}, ${formatCount(p.inputs.length)} input ${plural(p.inputs.length, "file", "files")}`,
    body,
  );
}

function footer(report: Report): string {
  return (
    `<sub>Rendered from report schema ${md(report.schema_version, 40)} by model-acceptance-gate ` +
    `${md(report.provenance.tool_version, 40)}.</sub>`
  );
}

// ---------------------------------------------------------------------------------------------

function renderWith(
  report: Report,
  options: RenderMarkdownOptions,
  detail: Detail,
  trimmedTo: number | null,
): string {
  const title = options.title ?? DEFAULT_TITLE;
  const blocks: string[][] = [];
  if (options.marker === true) blocks.push([COMMENT_MARKER]);
  blocks.push(headline(report, title, detail));
  if (!detail.compactHeader) blocks.push([settingsLine(report)]);
  blocks.push(warningLines(report, detail, trimmedTo));
  blocks.push(reasonLines(report, detail));
  blocks.push(checksSection(report, detail));
  blocks.push(marginSection(report, detail));
  blocks.push(perModelSection(report, detail));
  blocks.push(influentialSection(report, detail));
  blocks.push(fragilitySection(report, detail));
  blocks.push(tasksSection(report, detail));
  blocks.push(policyChangesSection(report, detail));
  blocks.push(provenanceSection(report, detail));
  blocks.push([footer(report)]);
  return (
    blocks
      .filter((b) => b.length > 0)
      .map((b) => b.join("\n"))
      .join("\n\n") + "\n"
  );
}

/**
 * Cuts `text` to at most `max` code units without splitting a surrogate pair, an HTML entity or a
 * backslash escape, preferring a line break, and marks the cut.
 */
export function truncateMarkdown(text: string, max: number): string {
  if (text.length <= max) return text;
  const suffix = "\n\n… (trimmed)\n";
  if (max <= suffix.length) return safeCut(text, Math.max(0, max));
  let cut = safeCut(text, max - suffix.length);
  const nl = cut.lastIndexOf("\n");
  if (nl > cut.length / 2) cut = cut.slice(0, nl);
  return cut.trimEnd() + suffix;
}

function safeCut(text: string, max: number): string {
  let end = Math.min(max, text.length);
  // A high surrogate whose pair would be cut off.
  if (end > 0 && end < text.length) {
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  }
  // An entity cut in the middle: "&#8203" or "&am".
  const amp = text.lastIndexOf("&", end - 1);
  if (
    amp >= 0 &&
    amp >= end - 10 &&
    !text.slice(amp, end).includes(";") &&
    /^&[#A-Za-z0-9]*$/.test(text.slice(amp, end))
  ) {
    end = amp;
  }
  let out = text.slice(0, end);
  // A dangling backslash would escape whatever follows.
  const trailing = /\\+$/.exec(out);
  if (trailing !== null && trailing[0].length % 2 === 1) out = out.slice(0, -1);
  return out;
}

/** The Markdown summary of a report. Deterministic: the same report gives the same string. */
export function renderMarkdown(report: Report, options: RenderMarkdownOptions = {}): string {
  const detail = fullDetail();
  const full = renderWith(report, options, detail, null);
  const max = options.maxLength;
  if (max === undefined || full.length <= max) return full;
  const limit = Math.max(0, Math.floor(max));
  let out = full;
  for (const step of TRIM_STEPS) {
    step(detail);
    out = renderWith(report, options, detail, limit);
    if (out.length <= limit) return out;
  }
  return truncateMarkdown(out, limit);
}
