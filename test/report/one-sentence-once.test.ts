/**
 * One sentence once: every sentence of a rendered report (Markdown, plain text, the HTML page)
 * appears once in its document, and every figure a sentence gives for a margin is in pp (never a
 * bare fraction such as "LCB = 0.0118"). Reports: the demo, the fixtures, and an unresolved one
 * whose two models ran on a placeholder harness without a canary (where the placeholder
 * paragraph, the re-import hint and the canary advice each came twice).
 */
import { describe, expect, it } from "vitest";
import { runGate, type GatePolicy } from "../../src/core/gate.js";
import { renderMarkdown } from "../../src/core/report/render-markdown.js";
import { renderText } from "../../src/core/report/render-text.js";
import { renderEvaluateHtml } from "../../src/core/report/html/render-evaluate-html.js";
import type { Report } from "../../src/core/report/report-types.js";
import { acceptReport, emptyReport, rejectReport, unresolvedReport } from "./fixtures.js";
import { demoReport } from "./pages.js";
import { exampleReport } from "../run-history/since-fixture.js";
import { buildDataset, buildPolicy, SPEC_EXAMPLE_5 } from "../stats/dataset-builder.js";

/** Example 5's tasks, both models on the importer's placeholder harness, a policy that needs a canary. */
export function placeholderReport(): Report {
  const placeholder = { harnessRevisions: ["unknown:swebench-pro"] };
  const dataset = buildDataset(SPEC_EXAMPLE_5, { baseline: placeholder, candidate: placeholder });
  const gatePolicy: GatePolicy = {
    policy: buildPolicy({ production_canary: true }),
    source: { path: "policy.yaml", sha256: "0".repeat(64), source: "file", lastCommit: null },
    expired: false,
    changes: null,
    warnings: [],
    history: null,
  };
  return runGate(dataset, gatePolicy, {
    canary: null,
    toolVersion: "0.1.0",
    asOfReview: null,
    appendOnly: null,
    appendOnlyBase: null,
  });
}

const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', nbsp: " " };

function unescapeHtml(s: string): string {
  return s
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&([a-z]+);/g, (m, n: string) => ENTITIES[n] ?? m);
}

/** The Markdown's prose: no code fences, no table rows (data, not sentences), tags and escapes gone. */
function markdownProse(md: string): string {
  return unescapeHtml(
    md
      .replace(/```[\s\S]*?```/g, "\n")
      .split("\n")
      .filter((l) => !l.startsWith("|"))
      .join("\n")
      .replace(/<wbr>/g, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/\\(.)/g, "$1"),
  );
}

/** The page's text: no style sheet or charts, every block on its own line. */
function htmlProse(html: string): string {
  return unescapeHtml(
    html
      .replace(/<style>[\s\S]*?<\/style>/g, "")
      .replace(/<svg[\s\S]*?<\/svg>/g, "")
      .replace(/<\/?(?:p|li|h[1-6]|figcaption|div|tr|td|th|ul|table|figure)\b[^>]*>/g, "\n")
      .replace(/<[^>]+>/g, ""),
  );
}

/** Sentences of at least 30 characters (short ones, "n/a", "0.00 pp", repeat by nature). */
function sentences(prose: string): string[] {
  return prose
    .split(/\n\s*\n|\n(?=\s*(?:[-*!]\s|[A-Z]))/)
    .map((block) => block.replace(/\s+/g, " ").trim())
    .flatMap((block) => block.split(/(?<=[.!?])\s+(?=[A-Z])/))
    .map((s) => s.trim())
    .filter((s) => s.length >= 30);
}

function repeated(prose: string): string[] {
  const seen = new Map<string, number>();
  for (const s of sentences(prose)) seen.set(s, (seen.get(s) ?? 0) + 1);
  return [...seen.entries()].filter(([, n]) => n > 1).map(([s, n]) => `${n}× ${s}`);
}

const REPORTS: readonly { readonly name: string; readonly report: () => Report | Promise<Report> }[] = [
  { name: "demo", report: demoReport },
  { name: "accept", report: acceptReport },
  { name: "reject", report: rejectReport },
  { name: "unresolved", report: unresolvedReport },
  { name: "empty", report: emptyReport },
  { name: "since-last-run", report: exampleReport },
  { name: "placeholder harness, no canary", report: placeholderReport },
];

describe("each sentence once per document", () => {
  for (const r of REPORTS) {
    it(r.name, async () => {
      const report = await r.report();
      expect(repeated(markdownProse(renderMarkdown(report, { marker: true }))), "Markdown").toEqual([]);
      expect(repeated(renderText(report)), "text").toEqual([]);
      expect(repeated(htmlProse(renderEvaluateHtml(report))), "HTML").toEqual([]);
    });
  }

  it("the placeholder case names the fix once, and the canary advice once, in each document", () => {
    const report = placeholderReport();
    expect(report.verdict).toBe("unresolved");
    const docs = {
      markdown: markdownProse(renderMarkdown(report)),
      text: renderText(report).replace(/\s+/g, " "),
      html: htmlProse(renderEvaluateHtml(report)).replace(/\s+/g, " "),
    };
    for (const [name, prose] of Object.entries(docs)) {
      const count = (needle: string): number => prose.split(needle).length - 1;
      expect(count("--harness-revision R"), name).toBe(1);
      expect(count("a placeholder is a label saying no revision was known"), name).toBe(1);
      expect(count("run the canary and pass its result"), name).toBe(1);
    }
  });
});

describe("one fact once, whatever the words", () => {
  it("the demo's reclassification that moved the verdict: once on the page (the warning), once in the comment above the fold", async () => {
    const report = await demoReport();
    const count = (text: string): number => (text.match(/revision 2 reclassified 87 tasks/gi) ?? []).length;
    expect(count(htmlProse(renderEvaluateHtml(report)))).toBe(1);
    expect(count(renderText(report))).toBe(1);
  });
});

describe("margins in pp in every sentence", () => {
  for (const r of REPORTS) {
    it(`${r.name}: no bare fraction for a margin, a bound, an SE or δ₀`, async () => {
      const report = await r.report();
      const prose = [
        ...report.reasons,
        ...report.warnings,
        ...report.checks.map((c) => c.detail),
        renderText(report),
        htmlProse(renderEvaluateHtml(report)),
      ].join("\n");
      expect(prose).not.toMatch(/(?:LCB|UCB|Δ̂|δ₀|SE)[^.\n]{0,20}= [−-]?0\.\d{3,}(?! pp)/u);
      expect(prose).not.toMatch(/\[[−-]?0\.\d{4}, [−-]?0\.\d{4}\]/u);
    });
  }
});
