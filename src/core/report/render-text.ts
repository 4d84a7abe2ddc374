/**
 * The report as plain text for a terminal (`model-gate evaluate --format text`): the same words
 * as the Markdown's above-the-fold part (verdict, why, checks, what would change, warnings, the
 * margin bar, the gate's settings) and a few lines of figures, without Markdown syntax or escapes.
 * Untrusted text is neutralised for a terminal (escape.ts `neutraliseLogLine`: no line breaks,
 * control or bidi characters, ANSI escapes or workflow commands).
 */
import { failingChecks, observedValue, thresholdText } from "./check-display.js";
import { anyConservative, boundArithmetic, boundsNote } from "./bound-labels.js";
import { neutraliseLogLine } from "./escape.js";
import { formatCount, formatPercent, formatPp, formatPpUnsigned } from "./format-number.js";
import type { Report } from "./report-types.js";
import { displayWidth, renderMarginBar } from "./text-bar.js";
import { benchmarkTasks, planningSentence } from "./render-planning.js";
import {
  checkName,
  expiredPolicyNote,
  observedMargin,
  whatWouldChange,
  whySentence,
  type Inline,
} from "./verdict-text.js";
import {
  READING_HEADER_SHORT,
  infraModeWords,
  lostResultsBounded,
  readingRows,
  readingsNote,
  readingsShown,
} from "./render-infra-readings.js";
import { THRESHOLD_MAX_CHARS, wholeText } from "./prose.js";
import { clusterText } from "./render-clusters.js";
import { sinceLastRunText } from "./render-since-last-run.js";
import { runsText } from "./render-runs.js";
import { guardrailsText } from "./render-guardrails.js";
import { plural } from "../words.js";
import { renderBenchmarksText } from "./render-benchmarks.js";

function capped(s: string, maxChars = 200): string {
  const cps = Array.from(typeof s === "string" ? s : String(s));
  return cps.length > maxChars ? `${cps.slice(0, maxChars - 1).join("")}…` : cps.join("");
}

/** Untrusted text for a terminal line. */
function plain(s: string, maxChars?: number): string {
  return neutraliseLogLine(capped(s, maxChars));
}

export const TEXT_INLINE: Inline = {
  text: (s, maxChars) => neutraliseLogLine(wholeText(s, maxChars)),
  code: plain,
  gen: (s) => s,
  strong: (s) => s,
};

/** Appends lines one by one (no argument spread: see test/hardening/scale.test.ts). */
function add(out: string[], lines: readonly string[]): void {
  for (const l of lines) out.push(l);
}

function pad(s: string, width: number): string {
  return s + " ".repeat(Math.max(0, width - displayWidth(s)));
}

/** Wraps a paragraph at `width` columns: the first line after `first`, the others after `rest`. */
function wrap(text: string, width: number, first = "", rest = first): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(" ")) {
    if (!empty && displayWidth(line) + 1 + displayWidth(word) > width) {
      lines.push(line);
      line = rest + word;
    } else line = empty ? line + word : `${line} ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines;
}

const WIDTH = 100;
/** The checks table's observed column: narrower than the Markdown's, to keep a row near WIDTH. */
const OBSERVED_CHARS = 40;

/** The three readings as an aligned table (render-infra-readings.ts); the deciding one marked. */
function readingsText(report: Report): string[] {
  const rows = [
    [...READING_HEADER_SHORT],
    ...readingRows(report).map((r) =>
      r.cells.map((cell, i) => (i === 0 ? `${r.mode}${r.decides ? " *" : ""}` : cell)),
    ),
  ];
  const widths = READING_HEADER_SHORT.map((_, i) =>
    rows.reduce((w, r) => Math.max(w, displayWidth(r[i] ?? "")), 0),
  );
  const out = ["Infra errors, three readings (* the policy's, which decides)"];
  for (const r of rows) out.push(`  ${r.map((cell, i) => pad(cell, widths[i] ?? 0)).join("  ")}`.trimEnd());
  add(out, wrap(readingsNote(report), WIDTH, "  ", "  "));
  return out;
}

export function renderText(report: Report): string {
  if (report.benchmarks !== undefined) return renderBenchmarksText(report, report.benchmarks, renderText);
  const c = report.comparison;
  const { baseline, candidate } = report.models;
  const out: string[] = [];
  const expired = expiredPolicyNote(report);
  out.push(
    `${report.verdict.toUpperCase()}${expired === null ? "" : ` (${expired})`} — candidate ${plain(candidate.config, 80)} over baseline ${plain(baseline.config, 80)}`,
    "",
  );
  add(out, wrap(whySentence(report, TEXT_INLINE), WIDTH));
  const guardrails = guardrailsText(report);
  if (guardrails.length > 0) add(out, ["", ...guardrails]);
  const planning = planningSentence(report.comparison, TEXT_INLINE, benchmarkTasks(report));
  if (planning !== "") add(out, ["", ...wrap(planning, WIDTH)]);
  out.push("", "Checks");
  const rows = report.checks.map((k) => {
    const v = observedValue(k, OBSERVED_CHARS);
    return [
      k.passed ? "pass" : "FAIL",
      checkName(k.id, TEXT_INLINE, report),
      v.kind === "number" ? v.text : plain(v.text, OBSERVED_CHARS),
      neutraliseLogLine(wholeText(thresholdText(k, report), THRESHOLD_MAX_CHARS, "…")),
    ] as const;
  });
  const w1 = rows.reduce((w, r) => Math.max(w, displayWidth(r[1])), 5);
  const w2 = rows.reduce((w, r) => Math.max(w, displayWidth(r[2])), 8);
  for (const r of rows) out.push(`  ${r[0]}  ${pad(r[1], w1)}  ${pad(r[2], w2)}  needs ${r[3]}`);
  if (report.checks.length === 0) out.push("  No checks were run.");

  const items = whatWouldChange(report, TEXT_INLINE);
  if (items.length > 0) {
    out.push("", "What would change the verdict");
    for (const i of items) add(out, wrap(i, WIDTH, "  - ", "    "));
  }
  const changes = report.policy_changes ?? [];
  const warnings = [
    ...report.warnings.map((w) => neutraliseLogLine(wholeText(w))),
    ...(changes.length > 0
      ? [
          `This pull request changes the policy file: ${plural(changes.length, "rule")} changed, ` +
            `${plural(changes.filter((p) => p.loosening).length, "loosening")}. The policy at the base commit decided this verdict.`,
        ]
      : []),
  ];
  if (warnings.length > 0) {
    out.push("", "Warnings");
    for (const w of warnings) add(out, wrap(w, WIDTH, "  ! ", "    "));
  }
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
  if (bar !== null) add(out, ["", ...bar.map((l) => `  ${l}`.trimEnd())]);
  const p = report.provenance;
  const figures = [
    `Margin Δ̂ ${observedMargin(c)} · validity bounds ${formatPp(c.margin_lower)} … ${formatPp(c.margin_upper)} (${plain(c.validity_bound, 20)})` +
      ` · SE(V) ${formatPpUnsigned(c.se_valid)}`,
    `Bounds: ${boundArithmetic(c, "lcb")}; ${boundArithmetic(c, "ucb")}.${boundsNote(c, lostResultsBounded(report)) === null ? "" : ` ${boundsNote(c, lostResultsBounded(report)) ?? ""}`}`,
    `Tasks: ${formatCount(c.common_valid_tasks)} common valid of ${formatCount(c.common_tasks)} common; ` +
      `${formatCount(c.disputed_tasks)} disputed, ${formatCount(c.unreviewed_tasks)} unreviewed, ${formatCount(c.broken_tasks)} broken; ` +
      `${formatCount(report.review_history.count)} changed label across review revisions`,
    `Valid-only score on the common set: baseline ${formatPercent(baseline.common.valid_only_score)}, ` +
      `candidate ${formatPercent(candidate.common.valid_only_score)}`,
  ];
  out.push("", "Figures");
  for (const f of figures) add(out, wrap(f, WIDTH, "  ", "    "));
  if (readingsShown(report)) add(out, ["", ...readingsText(report)]);
  const clusters = clusterText(report);
  if (clusters.length > 0) add(out, ["", ...clusters]);
  const since = sinceLastRunText(report);
  if (since.length > 0) add(out, ["", ...since]);
  const runs = runsText(report);
  if (runs.length > 0) add(out, ["", ...runs]);
  out.push("");
  add(
    out,
    wrap(
      `Gate: ${formatPercent(c.confidence)} one-sided · δ₀ ${formatPp(c.delta0)} · ${c.standard_error === "clustered" ? `clustered SE (${plural(c.clusters ?? 0, "cluster")})` : "paired SE"}` +
        ` · infra errors ${p.infra_errors_policy === "exclude" ? "excluded" : infraModeWords(p.infra_errors_policy).toUpperCase()}` +
        ` · policy ${plain(p.policy.path, 80)} (owner ${plain(p.policy.owner, 80)}, revisit by ${plain(p.policy.revisit, 40)}).` +
        ` Failing checks: ${failingChecks(report).length} of ${report.checks.length}. The full report: --format markdown or --format json (or --report FILE).`,
      WIDTH,
    ),
  );
  return out.join("\n") + "\n";
}
