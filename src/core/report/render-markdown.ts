/**
 * The Markdown summary (SPEC §5), rendered from the report JSON alone: the same report gives
 * byte-identical Markdown. Used for the sticky PR comment, the job summary, the check run's
 * summary and the CLI: one document.
 *
 * Above the fold (nothing to expand): the verdict with candidate and baseline, one sentence of
 * why in the report's units, the checks table (result first, long values shortened), what would
 * change the verdict, headline warnings, the margin drawn as a text bar and the gate's settings.
 * Everything else sits in collapsed <details> sections, each shown once: margin figures,
 * per-model figures, disputed and unreviewed tasks, the tasks that decide the fragility, broken
 * tasks, review history, policy changes and provenance.
 *
 * Every untrusted string goes through escape.ts. Generated text (labels, numbers, glyphs) is
 * written directly; the text-bar fence holds generated characters only.
 *
 * With `maxLength`, sections are shortened and dropped, least important first, until the result
 * fits; the verdict, why, checks and what would change are kept as long as possible, and a
 * visible note says the comment was trimmed.
 */

import { guardrailsMarkdown } from "./render-guardrails.js";
import { plural, pluralWord } from "../words.js";
import { runsHeadlineMarkdown, runsMarkdown } from "./render-runs.js";
import type { AttainingSet, ModelFigures, Verdict } from "../verdict-types.js";
import type { Report } from "./report-types.js";
import {
  anyConservative,
  attainingSetText,
  boundFormula,
  boundName,
  boundSeName,
  boundsNote,
} from "./bound-labels.js";
import { COMMENT_MARKER, escapeCode } from "./escape.js";
import {
  formatCount,
  formatDecimal,
  formatPercent,
  formatPercentInterval,
  formatPp,
  formatPpUnsigned,
} from "./format-number.js";
import { OBSERVED_VALUE_CHARS, observedValue, shortenValue, thresholdText } from "./check-display.js";
import { MARKDOWN_INLINE, codeList, details, genMd, md, moreLine, table } from "./markdown-blocks.js";
import { brokenSection, fragilitySection, historySection, influentialSection } from "./render-task-tables.js";
import { cellCode } from "./table-cells.js";
import { renderMarginBar } from "./text-bar.js";
import { benchmarkTasks, planningSentence } from "./render-planning.js";
import {
  checkName,
  expiredPolicyNote,
  observedMargin,
  whatWouldChange,
  whySentence,
} from "./verdict-text.js";
import { THRESHOLD_MAX_CHARS, markdownProse, wholeText } from "./prose.js";

export { MARKDOWN_INLINE } from "./markdown-blocks.js";
import { appendOnlySection, verdictByRevisionSection } from "./render-history.js";
import { policyChangeCells, policyHistoryLines } from "./render-policy-log.js";
import { appendOnlyBaseCell } from "./render-append-only-base.js";
import { CLUSTER_FOLD, CLUSTER_REST_MAX, clusterMarkdown } from "./render-clusters.js";
import { SINCE_LAST_RUN_ITEMS, sinceLastRunMarkdown } from "./render-since-last-run.js";
import {
  READING_HEADER,
  infraModeWords,
  readingRows,
  readingsNote,
  readingsShown,
  lostResultsBounded,
  readingsSummary,
} from "./render-infra-readings.js";
import { renderBenchmarksMarkdown } from "./render-benchmarks.js";

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

/** How much of each trimmable part is rendered. */
interface Detail {
  warnings: number;
  marginTable: "full" | "compact";
  /** Rows of "Where the margin comes from" above its fold, and collapsed below it. */
  clustersTop: number;
  clustersRest: number;
  /** Rows of each list of "What changed since the last run". */
  sinceItems: number;
  bar: boolean;
  /** The three readings of the infra errors. */
  readings: boolean;
  perModel: "full" | "core" | "none";
  influential: number;
  fragilityTasks: number;
  broken: number;
  history: number;
  policyChanges: "full" | "loosenings" | "count";
  provenance: "full" | "short";
  inputs: number;
  /** Drop the settings line. */
  compactHeader: boolean;
}

function fullDetail(): Detail {
  return {
    warnings: 20,
    marginTable: "full",
    clustersTop: CLUSTER_FOLD,
    clustersRest: CLUSTER_REST_MAX,
    sinceItems: SINCE_LAST_RUN_ITEMS,
    bar: true,
    readings: true,
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
  (d) => (d.clustersRest = 0),
  (d) => (d.sinceItems = 5),
  (d) => (d.fragilityTasks = 5),
  (d) => (d.influential = 5),
  (d) => (d.clustersTop = 5),
  (d) => {
    d.inputs = 0;
    d.provenance = "short";
  },
  (d) => (d.perModel = "core"),
  (d) => (d.fragilityTasks = 0),
  (d) => (d.influential = 0),
  (d) => (d.perModel = "none"),
  (d) => (d.readings = false),
  (d) => (d.clustersTop = 0),
  (d) => (d.sinceItems = 0),
  (d) => (d.policyChanges = "loosenings"),
  (d) => (d.policyChanges = "count"),
  (d) => (d.warnings = 5),
  (d) => (d.marginTable = "compact"),
  (d) => (d.bar = false),
  (d) => (d.compactHeader = true),
  (d) => (d.warnings = 2),
];

// ---------------------------------------------------------------------------------------------
// Above the fold

function headline(report: Report): string {
  const { baseline, candidate } = report.models;
  const icon = VERDICT_ICON[report.verdict] ?? "❔";
  const expired = expiredPolicyNote(report);
  return `## ${icon} ${md(report.verdict, 20)}${expired === null ? "" : ` (⌛ ${genMd(expired)})`} — candidate ${md(candidate.config, 80)} over baseline ${md(baseline.config, 80)}`;
}

function warningLines(report: Report, detail: Detail, trimmedTo: number | null): string[] {
  const quotes: string[] = [];
  const shown = report.warnings.slice(0, detail.warnings);
  for (const w of shown) quotes.push(`⚠️ ${markdownProse(w)}`);
  if (report.warnings.length > shown.length) {
    const rest = report.warnings.length - shown.length;
    quotes.push(`⚠️ … and ${rest} more ${pluralWord(rest, "warning")} in the report file.`);
  }
  const changes = report.policy_changes;
  if (changes !== null && changes.length > 0) {
    const loosenings = changes.filter((c) => c.loosening).length;
    quotes.push(
      `⚠️ This pull request changes the policy file: ${changes.length} ` +
        `${pluralWord(changes.length, "rule", "rules")} changed, ${loosenings} ` +
        `${pluralWord(loosenings, "loosening", "loosenings")}. The policy at the base commit decided this verdict.`,
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

/**
 * A check's result as its table cell: the symbol for the eye, the word for a screen reader and
 * for a machine without an emoji font (where the symbol alone is an empty box); a no-break space
 * keeps them on one line in a narrow column.
 */
function resultCell(passed: boolean): string {
  return passed ? "✅&nbsp;pass" : "❌&nbsp;fail";
}

/** The checks, result first: the eye lands on ✅/❌ before the label. */
function checksTable(report: Report): string[] {
  if (report.checks.length === 0) return ["No checks were run."];
  return table(
    ["Result", "Check", "Observed", "Needs"],
    ["l", "l", "r", "l"],
    report.checks.map((c) => {
      const v = observedValue(c);
      return [
        resultCell(c.passed),
        c.passed
          ? checkName(c.id, MARKDOWN_INLINE, report)
          : `**${checkName(c.id, MARKDOWN_INLINE, report)}**`,
        v.kind === "number" ? v.text : md(v.text, OBSERVED_VALUE_CHARS),
        md(wholeText(thresholdText(c, report), THRESHOLD_MAX_CHARS, "…"), Infinity),
      ];
    }),
  );
}

function changeSection(report: Report): string[] {
  const items = whatWouldChange(report, MARKDOWN_INLINE);
  if (items.length === 0) return [];
  return ["**What would change the verdict**", "", ...items.map((i) => `- ${i}`)];
}

function barSection(report: Report): string[] {
  const c = report.comparison;
  const bar = renderMarginBar(
    {
      margin: c.margin,
      lower: c.margin_lower,
      upper: c.margin_upper,
      lcb: c.lcb,
      ucb: c.ucb,
      delta0: c.delta0,
    },
    {
      confidence: c.confidence,
      openLabels: c.unresolved_tasks,
      conservative: anyConservative(c),
      lostResults: lostResultsBounded(report),
    },
  );
  return bar === null ? [] : ["```text", ...bar, "```"];
}

function settingsLine(report: Report, title: string): string {
  const c = report.comparison;
  const p = report.provenance.policy;
  const mode = report.provenance.infra_errors_policy;
  const infra =
    mode === "exclude" ? "infra errors excluded" : `<b>infra errors ${genMd(infraModeWords(mode))}</b>`;
  const se =
    c.standard_error === "clustered"
      ? `clustered SE (${formatCount(c.clusters)} ${pluralWord(c.clusters ?? 0, "cluster", "clusters")})`
      : "paired SE";
  return `<sub>${[
    title === "" ? "" : md(title, 120),
    `${formatPercent(c.confidence)} one-sided`,
    `δ₀ ${formatPp(c.delta0)}`,
    se,
    `${md(c.validity_bound, 20)} validity bound`,
    infra,
    `policy owner ${md(p.owner, 80)}`,
    `revisit by ${md(p.revisit, 40)}`,
  ]
    .filter((x) => x !== "")
    .join(" · ")}</sub>`;
}

// ---------------------------------------------------------------------------------------------
// Details

function marginDetails(report: Report, detail: Detail): string[] {
  const c = report.comparison;
  const counts =
    `On ${plural(c.common_valid_tasks, "common valid task")} ` +
    `(${plural(c.common_tasks, "common task")}; ${plural(c.unresolved_tasks, "open label")}: ` +
    `${formatCount(c.disputed_tasks)} disputed, ${formatCount(c.unreviewed_tasks)} unreviewed; ` +
    `${plural(c.broken_tasks, "broken task")} excluded). Margins are candidate − baseline, in percentage points (pp).`;
  if (c.margin === null && c.common_valid_tasks === 0) {
    return details("<b>Margin figures</b>", [
      counts,
      "",
      "The margin is undefined: there are no common valid tasks to compare.",
    ]);
  }
  // Raw HTML: generated text without Markdown escapes.
  const summary = `<b>Margin figures</b> — Δ̂ ${observedMargin(c)}, ${boundName(c, "lcb")} ${formatPp(c.lcb)}, ${boundName(c, "ucb")} ${formatPp(c.ucb)}`;
  if (detail.marginTable === "compact") {
    return details(summary, [
      `Δ\\_L … Δ\\_H ${formatPp(c.margin_lower)} … ${formatPp(c.margin_upper)} · ` +
        `SE(V) ${formatPpUnsigned(c.se_valid)} · q ${formatDecimal(c.q_lower)} · δ₀ ${formatPp(c.delta0)}`,
    ]);
  }
  const seNames =
    boundSeName(c, "lcb") === boundSeName(c, "ucb")
      ? boundSeName(c, "lcb")
      : `${boundSeName(c, "lcb")} / ${boundSeName(c, "ucb")}`;
  const rows: string[][] = [
    ["Observed margin Δ̂", observedMargin(c)],
    [
      `Validity bounds Δ\\_L … Δ\\_H (${md(c.validity_bound, 20)})`,
      `${formatPp(c.margin_lower)} … ${formatPp(c.margin_upper)}`,
    ],
    [
      "Validity sensitivity, down / up",
      `${formatPpUnsigned(c.validity_sensitivity)} / ${formatPpUnsigned(c.validity_sensitivity_upside)}`,
    ],
    [`Standard error (${md(c.standard_error, 20)}) on the valid tasks, SE(V)`, formatPpUnsigned(c.se_valid)],
    [
      `Standard error at LCB / UCB: ${genMd(seNames)}`,
      `${formatPpUnsigned(c.se_lower)} / ${formatPpUnsigned(c.se_upper)}`,
    ],
    ["Re-run-only SE", formatPpUnsigned(c.se_rerun)],
  ];
  if (c.standard_error === "clustered") rows.push(["Clusters G", formatCount(c.clusters)]);
  rows.push([
    `Quantile ${anyConservative(c) ? "q\\_max" : "q"} for LCB / UCB (${md(c.quantile, 4)}, ${formatPercent(c.confidence)} one-sided)`,
    `${formatDecimal(c.q_lower)} / ${formatDecimal(c.q_upper)}`,
  ]);
  // With no open labels S* is empty whatever the kind: nothing to show.
  if ((c.lcb_set !== null || c.ucb_set !== null) && c.unresolved_tasks > 0) {
    const set = (s: AttainingSet | null): string => (s === null ? "n/a" : genMd(attainingSetText(s)));
    rows.push(
      ["Attaining set S\\* of LCB / UCB", `${set(c.lcb_set)} / ${set(c.ucb_set)}`],
      ["Δ(S\\*) at LCB / UCB", `${formatPp(c.margin_at_lcb)} / ${formatPp(c.margin_at_ucb)}`],
    );
  }
  rows.push(
    [genMd(boundFormula(c, "lcb")), formatPp(c.lcb)],
    [genMd(boundFormula(c, "ucb")), formatPp(c.ucb)],
    ["Bar δ₀", formatPp(c.delta0)],
  );
  const note = boundsNote(c, lostResultsBounded(report));
  return details(summary, [
    counts,
    "",
    ...table(["Figure", "Value"], ["l", "r"], rows),
    ...(note === null ? [] : ["", genMd(note)]),
  ]);
}

/** The three readings of the infra errors (render-infra-readings.ts), collapsed; only with infra errors. */
function readingsSection(report: Report, detail: Detail): string[] {
  if (!detail.readings || !readingsShown(report)) return [];
  const rows = readingRows(report).map((r) =>
    r.cells.map((cell, i) => {
      const escaped = genMd(i === 0 && r.decides ? `${cell}, the policy's` : cell);
      // A figure never breaks from its unit ("+2.13 pp"); a range may break after its "…".
      const text = i >= 1 && i <= 6 ? escaped.replace(/ (pp|…)/g, "&nbsp;$1") : escaped;
      return r.decides && (i === 0 || i === 7) ? `**${text}**` : text;
    }),
  );
  return details(`<b>Infra errors, three readings</b> — ${genMd(readingsSummary(report))}`, [
    ...table(
      READING_HEADER.map((h) => genMd(h)),
      ["l", "r", "r", "r", "r", "r", "r", "l"],
      rows,
    ),
    "",
    genMd(readingsNote(report)),
  ]);
}

/** "What changed since the last run" (render-since-last-run.ts), collapsed; none without a previous run. */
function sinceLastRunSection(report: Report, detail: Detail): string[] {
  const section = sinceLastRunMarkdown(report, detail.sinceItems);
  return section === null ? [] : details(section.summary, section.body);
}

/** "Where the margin comes from" (render-clusters.ts), collapsed; none without clusters. */
function clusterSection(report: Report, detail: Detail): string[] {
  const section = clusterMarkdown(report, detail.clustersTop, detail.clustersRest);
  return section === null ? [] : details(section.summary, section.body);
}

function perModelSection(report: Report, detail: Detail): string[] {
  if (detail.perModel === "none") return [];
  const { baseline: b, candidate: a } = report.models;
  const row = (label: string, f: (m: ModelFigures) => string): string[] => [label, f(b), f(a)];
  const counts: string[][] = [
    row("Attempts", (m) => formatCount(m.attempts)),
    row("Passes", (m) => formatCount(m.passes)),
    row("Fails", (m) => formatCount(m.fails)),
    row("Infra errors", (m) => formatCount(m.infra_errors)),
  ];
  const common: string[][] = [
    row("Valid-only score, common set", (m) => formatPercent(m.common.valid_only_score)),
    row("All-attempted score, common set", (m) => formatPercent(m.common.all_attempted_score)),
    row("Validity interval, exact, common set", (m) => formatPercentInterval(m.common.interval_exact)),
    row("Validity interval, pessimistic, common set", (m) =>
      formatPercentInterval(m.common.interval_pessimistic),
    ),
  ];
  const rows: string[][] =
    detail.perModel === "core"
      ? [...counts, row("Infra error rate", (m) => formatPercent(m.infra_error_rate)), ...common.slice(0, 1)]
      : [
          // Revisions shortened (both columns side by side); the full values are in the provenance.
          row("Harness revisions", (m) =>
            codeList(
              m.harness_revisions.map((r) => shortenValue(r)),
              3,
            ),
          ),
          row("Dataset revisions", (m) =>
            codeList(
              m.dataset_revisions.map((r) => shortenValue(r)),
              3,
            ),
          ),
          ...counts,
          row("Missing attempts", (m) => formatCount(m.missing_attempts)),
          row("Duplicate rows", (m) => formatCount(m.duplicate_rows)),
          row("Attempted tasks", (m) => formatCount(m.attempted_tasks)),
          row("Missing tasks", (m) => formatCount(m.missing_tasks)),
          row("Tasks lost to infra", (m) => formatCount(m.lost_to_infra_tasks)),
          row("Infra error rate", (m) => formatPercent(m.infra_error_rate)),
          row("Missing fraction", (m) => formatPercent(m.missing_fraction)),
          row("Valid-only score, own tasks", (m) => formatPercent(m.valid_only_score)),
          row("All-attempted score, own tasks", (m) => formatPercent(m.all_attempted_score)),
          row("Validity interval, exact, own tasks", (m) => formatPercentInterval(m.interval_exact)),
          row("Validity interval, pessimistic, own tasks", (m) =>
            formatPercentInterval(m.interval_pessimistic),
          ),
          ...common,
        ];
  return details(
    "<b>Per-model figures</b> — attempts, passes, infra errors, scores and validity intervals",
    table(["", "Baseline", "Candidate"], ["l", "r", "r"], rows),
  );
}

/** The verdict at each review revision (render-history.ts), collapsed like every other section. */
function verdictByRevisionDetails(report: Report, detail: Detail): string[] {
  const revisions = report.verdict_by_review_revision.revisions;
  if (revisions.length <= 1 && report.provenance.as_of_review === null) return [];
  const changed = report.verdict_by_review_revision.changes.filter(
    (c) => c.verdict_before !== c.verdict_after,
  );
  const summary =
    `<b>Verdict by review revision</b> — ${formatCount(revisions.length)} ${pluralWord(revisions.length, "revision", "revisions")}, ` +
    (changed.length === 0
      ? "the verdict never moved"
      : `the verdict moved ${changed.length} ${pluralWord(changed.length, "time", "times")}`);
  // The section's own heading is the <summary> here.
  return details(summary, verdictByRevisionSection(report, detail.history).slice(2));
}

/** The rows the append-only check found rewritten (render-history.ts); its failed check is in the table. */
function appendOnlyDetails(report: Report, detail: Detail): string[] {
  const body = appendOnlySection(report, detail.history);
  if (body.length === 0) return [];
  const n = report.append_only?.rows_changed_or_removed ?? 0;
  return details(
    `<b>History rewritten</b> — ${formatCount(n)} earlier ${pluralWord(n, "row", "rows")} changed or removed`,
    body.slice(2),
  );
}

function policyChangesSection(report: Report, detail: Detail): string[] {
  const changes = report.policy_changes;
  if (changes === null || changes.length === 0) return [];
  const loosenings = changes.filter((c) => c.loosening).length;
  // The headline warning says how many and that the base policy decided: here, what follows.
  const body = ["The head's rules take effect only once the pull request is merged."];
  const summary = `<b>Policy changes in this pull request</b> — ${changes.length} ${pluralWord(changes.length, "rule", "rules")}, ${loosenings} ${pluralWord(loosenings, "loosening", "loosenings")}`;
  if (detail.policyChanges === "count") return details(summary, body);
  const shown = (detail.policyChanges === "loosenings" ? changes.filter((c) => c.loosening) : changes).slice(
    0,
    LIST_LIMIT,
  );
  const total = detail.policyChanges === "loosenings" ? loosenings : changes.length;
  if (shown.length > 0)
    body.push(
      "",
      ...table(["Rule", "Base", "Head", "Change"], ["l", "l", "l", "l"], shown.map(policyChangeCells)),
      ...moreLine(shown.length, total, detail.policyChanges === "loosenings" ? "loosening" : "changed rule"),
    );
  if (report.policy_history !== null) body.push("", ...policyHistoryLines(report.policy_history));
  return details(summary, body);
}

function provenanceSection(report: Report, detail: Detail): string[] {
  const p = report.provenance;
  const pol = p.policy;
  const infra = genMd(infraModeWords(p.infra_errors_policy));
  // A <summary> line is raw HTML (Markdown escapes would show): generated text only.
  const summary = `<b>Provenance</b> — tool and schema versions, policy, revisions, ${formatCount(p.inputs.length)} input ${pluralWord(p.inputs.length, "file", "files")}`;
  if (detail.provenance === "short") {
    return details(summary, [
      `Tool ${md(p.tool_version, 40)}, report schema ${md(report.schema_version, 40)} · ` +
        `policy ${escapeCode(pol.path, 80)} sha256 ${escapeCode(pol.sha256, 80)} · ` +
        `${formatCount(p.rows_read)} rows read.`,
    ]);
  }
  const rows: string[][] = [
    ["Tool", `model-acceptance-gate ${md(p.tool_version, 40)}`],
    ["Report schema", md(report.schema_version, 40)],
    ["Policy file", cellCode(pol.path, 120)],
    ["Policy sha256", cellCode(pol.sha256, 80)],
    ["Policy source", md(pol.source, 120)],
    ["Policy last changed in", pol.last_commit === null ? "unknown" : cellCode(pol.last_commit, 80)],
    ["Infra errors", infra],
    ["Dataset revisions", codeList(p.dataset_revisions, 5)],
    ["Harness revisions", codeList(p.harness_revisions, 5)],
    [
      "Review revisions",
      p.review_revisions.length === 0
        ? p.as_of_review === null
          ? "none (no rows)"
          : `none (no label by review revision ${formatCount(p.as_of_review)})`
        : p.review_revisions
            .slice(0, 20)
            .map((r) => formatCount(r))
            .join(", ") +
          (p.review_revisions.length > 20 ? ` and ${p.review_revisions.length - 20} more` : ""),
    ],
    ["Rows read", formatCount(p.rows_read)],
  ];
  const base = appendOnlyBaseCell(report);
  if (base !== null) rows.push(["Append-only against", base]);
  const body = table(["", ""], ["l", "l"], rows);
  if (detail.inputs > 0 && p.inputs.length > 0) {
    const shown = p.inputs.slice(0, detail.inputs);
    body.push(
      "",
      ...table(
        ["Input file", "sha256"],
        ["l", "l"],
        shown.map((f) => [cellCode(f.path, 120), cellCode(f.sha256, 80)]),
      ),
      ...moreLine(shown.length, p.inputs.length, "input file"),
    );
  }
  return details(summary, body);
}

// ---------------------------------------------------------------------------------------------

/** The planning figures (MDE, tasks needed) in italics next to the verdict; none without an MDE. */
function planningBlock(report: Report): string[] {
  const s = planningSentence(report.comparison, MARKDOWN_INLINE, benchmarkTasks(report));
  return s === "" ? [] : [`_${s}_`];
}

function renderWith(
  report: Report,
  options: RenderMarkdownOptions,
  detail: Detail,
  trimmedTo: number | null,
): string {
  const title = options.title ?? DEFAULT_TITLE;
  const blocks: string[][] = [];
  if (options.marker === true) blocks.push([COMMENT_MARKER]);
  blocks.push([headline(report)]);
  blocks.push(runsHeadlineMarkdown(report));
  blocks.push([whySentence(report, MARKDOWN_INLINE)]);
  blocks.push(guardrailsMarkdown(report));
  blocks.push(checksTable(report));
  blocks.push(changeSection(report));
  blocks.push(warningLines(report, detail, trimmedTo));
  if (detail.bar) blocks.push(barSection(report));
  // After the bar, not under the verdict: the checks and what would change stay above the fold.
  blocks.push(planningBlock(report));
  if (!detail.compactHeader) blocks.push([settingsLine(report, title)]);
  blocks.push(sinceLastRunSection(report, detail));
  blocks.push(marginDetails(report, detail));
  blocks.push(readingsSection(report, detail));
  blocks.push(clusterSection(report, detail));
  blocks.push(runsMarkdown(report));
  blocks.push(perModelSection(report, detail));
  // What a section has said once (the one dataset revision) is not said again by the next.
  const said = new Set<string>();
  blocks.push(influentialSection(report, detail.influential, said));
  blocks.push(fragilitySection(report, detail.fragilityTasks, said));
  blocks.push(brokenSection(report, detail.broken, said));
  blocks.push(historySection(report, detail.history, said));
  blocks.push(verdictByRevisionDetails(report, detail));
  blocks.push(appendOnlyDetails(report, detail));
  blocks.push(policyChangesSection(report, detail));
  blocks.push(provenanceSection(report, detail));
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
  if (report.benchmarks !== undefined) {
    // Several benchmarks: their lines, the overall verdict, then each one's report (render-benchmarks.ts).
    const d = fullDetail();
    const frame = {
      headline: headline(report),
      warnings: warningLines(report, d, null),
      policyChanges: policyChangesSection(report, d),
    };
    const section = (r: Report, maxLength?: number) =>
      renderMarkdown(r, {
        ...(maxLength === undefined ? {} : { maxLength }),
        ...(options.title === undefined ? {} : { title: options.title }),
      });
    const marker = options.marker === true ? COMMENT_MARKER : undefined;
    const text = renderBenchmarksMarkdown(report, report.benchmarks, frame, section, {
      ...(marker === undefined ? {} : { marker }),
      ...(options.maxLength === undefined ? {} : { maxLength: options.maxLength }),
    });
    return options.maxLength === undefined ? text : truncateMarkdown(text, options.maxLength);
  }
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
