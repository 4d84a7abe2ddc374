/**
 * The HTML page's body for a report over several benchmarks (render-benchmarks.ts has the other
 * formats): one row per benchmark, the overall verdict and why, then each benchmark's own page
 * body under its heading. Benchmark names are untrusted: through HTML_INLINE.
 */
import { benchmarkFigures, benchmarkTags, BENCHMARK_NAME_CHARS } from "../render-benchmarks.js";
import type { BenchmarkReport, Report } from "../report-types.js";
import { warningBoxes } from "./html-page.js";
import { escapeHtmlGenerated, escapeHtmlText, HTML_INLINE, htmlTable } from "./html-text.js";

const ICON: Readonly<Record<string, string>> = { accept: "✅", reject: "❌", unresolved: "⚠️" };

function verdictSpan(verdict: string): string {
  return `<span class="verdict-${escapeHtmlGenerated(verdict)}">${ICON[verdict] ?? "❔"} ${escapeHtmlText(verdict, 20)}</span>`;
}

export function benchmarksHtmlBody(
  report: Report,
  benchmarks: readonly BenchmarkReport[],
  sectionBody: (section: Report) => string[],
): string[] {
  const rows = benchmarks.map((b) => {
    const tags = benchmarkTags(b);
    const name =
      HTML_INLINE.code(b.name, BENCHMARK_NAME_CHARS) +
      (tags.length === 0 ? "" : ` ${escapeHtmlGenerated(`· ${tags.join(" · ")}`)}`);
    return [name, verdictSpan(b.verdict), ...benchmarkFigures(b).map(escapeHtmlGenerated)];
  });
  const { baseline, candidate } = report.models;
  const body: string[] = [
    htmlTable(["Benchmark", "Verdict", "Margin", "LCB … UCB", "Common valid tasks"], rows, {
      numeric: [2, 4],
    }),
    `<h1>${verdictSpan(report.verdict)} overall — candidate ${HTML_INLINE.code(candidate.config, 120)} over baseline ${HTML_INLINE.code(baseline.config, 120)}</h1>`,
    ...report.reasons.map((r) => `<p>${HTML_INLINE.text(r, 2000)}</p>`),
    ...warningBoxes(report.warnings, (w) => HTML_INLINE.text(w, 400)),
  ];
  for (const b of benchmarks) {
    body.push(
      `<section><h2>Benchmark ${HTML_INLINE.code(b.name, BENCHMARK_NAME_CHARS)} — ${verdictSpan(b.verdict)}</h2>`,
    );
    if (b.report === null)
      for (const c of b.checks) body.push(`<p>❌ ${HTML_INLINE.text(c.detail, 2000)}</p>`);
    else for (const line of sectionBody(b.report)) body.push(line);
    body.push("</section>");
  }
  return body;
}
