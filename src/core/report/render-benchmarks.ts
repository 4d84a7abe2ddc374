/**
 * A report over several benchmarks (docs/spec.md §4.6, report key `benchmarks`) in each format:
 * first one line per benchmark (name, verdict, margin, LCB … UCB, common valid tasks), then the
 * overall verdict and why, then each benchmark's own full report (collapsed in Markdown). A
 * report with one benchmark never comes here: it renders exactly as before benchmarks.
 *
 * The renderers of one report are passed in (renderSection) so that this file does not import
 * the files that import it. Benchmark names come from the export: untrusted, escaped by each
 * format's formatter.
 */
import type { Verdict } from "../verdict-types.js";
import { escapeCode, escapeMarkdownInline, neutraliseLogLine } from "./escape.js";
import { formatCount, formatPp } from "./format-number.js";
import { details, md, table } from "./markdown-blocks.js";
import { markdownProse, wholeText } from "./prose.js";
import type { BenchmarkReport, Report } from "./report-types.js";

const ICON: Readonly<Record<Verdict, string>> = { accept: "✅", reject: "❌", unresolved: "⚠️" };

/** Characters of a benchmark name shown in a line (the whole name is in the report JSON). */
export const BENCHMARK_NAME_CHARS = 80;

/** What a benchmark's line says besides its figures: canary, not required, not in the export. */
export function benchmarkTags(b: BenchmarkReport): string[] {
  const tags: string[] = [];
  if (b.canary) tags.push("canary");
  if (!b.required) tags.push("not required");
  if (b.report === null) tags.push("not in the export");
  if (b.holm.harm) tags.push("harm holds after Holm");
  return tags;
}

/** A benchmark's figures in generated text: margin, bounds, common valid tasks. */
export function benchmarkFigures(b: BenchmarkReport): [string, string, string] {
  return [formatPp(b.margin), `${formatPp(b.lcb)} … ${formatPp(b.ucb)}`, formatCount(b.common_valid_tasks)];
}

export type RenderSection = (section: Report, maxLength?: number) => string;

/** The Markdown frame render-markdown.ts gives: the overall headline, headline warnings, policy changes. */
export interface MarkdownFrame {
  readonly headline: string;
  readonly warnings: readonly string[];
  readonly policyChanges: readonly string[];
}

function markdownLines(benchmarks: readonly BenchmarkReport[]): string[] {
  const rows = benchmarks.map((b) => {
    const tags = benchmarkTags(b);
    const name = `${escapeCode(b.name, BENCHMARK_NAME_CHARS)}${tags.length === 0 ? "" : ` · ${tags.join(" · ")}`}`;
    const bounds = `${nowrap(formatPp(b.lcb))} … ${nowrap(formatPp(b.ucb))}`;
    return [
      name,
      `${ICON[b.verdict]}&nbsp;${md(b.verdict, 20)}`,
      nowrap(formatPp(b.margin)),
      bounds,
      formatCount(b.common_valid_tasks),
    ];
  });
  return table(
    ["Benchmark", "Verdict", "Margin", "LCB … UCB", "Common valid tasks"],
    ["l", "l", "r", "l", "r"],
    rows,
  );
}

/**
 * A name in a `<summary>`: that line is raw HTML to GitHub (no Markdown inside, so a backslash
 * escape would show), so the inline escape without its backslashes: entities, and the zero-width
 * breaks that keep mentions, references and autolinks from forming, stay.
 */
function summaryCode(name: string): string {
  const text = escapeMarkdownInline(name, BENCHMARK_NAME_CHARS).replace(BACKSLASH_ESCAPE, "$1");
  return `<code>${text}</code>`;
}

/** A backslash before ASCII punctuation: how escapeMarkdownInline escapes it. */
const BACKSLASH_ESCAPE = /\\([!-/:-@[-`{-~])/g;

/** A figure that stays on one line in a narrow column. */
const nowrap = (s: string): string => s.replaceAll(" ", "&nbsp;");

/** One benchmark's collapsed section: its own report, as it would be alone. */
function markdownSection(b: BenchmarkReport, render: RenderSection, maxLength: number | undefined): string[] {
  const summary = `<b>Benchmark ${summaryCode(b.name)}</b> — ${ICON[b.verdict]} ${md(b.verdict, 20)}`;
  if (b.report === null) {
    return details(
      summary,
      b.checks.map((c) => `❌ ${markdownProse(c.detail)}`),
    );
  }
  const text = render(b.report, maxLength).trimEnd();
  return details(summary, text.split("\n"));
}

/** The Markdown of a report over several benchmarks. */
export function renderBenchmarksMarkdown(
  report: Report,
  benchmarks: readonly BenchmarkReport[],
  frame: MarkdownFrame,
  render: RenderSection,
  options: { readonly marker?: string; readonly maxLength?: number },
): string {
  const head: string[][] = [];
  if (options.marker !== undefined) head.push([options.marker]);
  head.push(markdownLines(benchmarks));
  head.push([frame.headline]);
  for (const r of report.reasons) head.push([markdownProse(r)]);
  head.push([...frame.warnings]);
  const top = head
    .filter((b) => b.length > 0)
    .map((b) => b.join("\n"))
    .join("\n\n");
  const tail = frame.policyChanges.join("\n");
  // Each section gets an equal share of what the limit leaves (it trims itself to fit, with a note).
  const room =
    options.maxLength === undefined ? undefined : options.maxLength - top.length - tail.length - 200;
  const share = room === undefined ? undefined : Math.max(2000, Math.floor(room / benchmarks.length) - 200);
  const sections = benchmarks.map((b) => markdownSection(b, render, share).join("\n"));
  return [top, ...sections, ...(tail === "" ? [] : [tail])].join("\n\n") + "\n";
}

/** Untrusted text for a terminal line. */
function plain(s: string): string {
  return neutraliseLogLine(wholeText(s, BENCHMARK_NAME_CHARS, "…"));
}

/** The plain text of a report over several benchmarks: lines, overall verdict, each benchmark's text. */
export function renderBenchmarksText(
  report: Report,
  benchmarks: readonly BenchmarkReport[],
  render: RenderSection,
): string {
  const out: string[] = ["Benchmarks"];
  const rows = benchmarks.map((b) => {
    const tags = benchmarkTags(b);
    return [
      `${plain(b.name)}${tags.length === 0 ? "" : ` (${tags.join(", ")})`}`,
      b.verdict.toUpperCase(),
      ...benchmarkFigures(b),
    ];
  });
  const width = (k: number) => rows.reduce((w, r) => Math.max(w, Array.from(r[k] ?? "").length), 0);
  const pad = (s: string, w: number) => s + " ".repeat(Math.max(0, w - Array.from(s).length));
  const w0 = width(0);
  const w1 = width(1);
  for (const r of rows) {
    out.push(
      `  ${pad(r[0] ?? "", w0)}  ${pad(r[1] ?? "", w1)}  margin ${r[2] ?? ""}  bounds ${r[3] ?? ""}  ${r[4] ?? ""} common valid tasks`,
    );
  }
  const { baseline, candidate } = report.models;
  out.push(
    "",
    `${report.verdict.toUpperCase()} overall — candidate ${plain(candidate.config)} over baseline ${plain(baseline.config)}`,
  );
  for (const r of report.reasons) out.push(`  ${neutraliseLogLine(wholeText(r))}`);
  for (const w of report.warnings) out.push(`  ! ${neutraliseLogLine(wholeText(w))}`);
  for (const b of benchmarks) {
    out.push("", `=== Benchmark ${plain(b.name)}: ${b.verdict.toUpperCase()} ===`, "");
    if (b.report === null)
      for (const c of b.checks) out.push(`  FAIL  ${neutraliseLogLine(wholeText(c.detail))}`);
    else out.push(render(b.report).trimEnd());
  }
  return out.join("\n") + "\n";
}
