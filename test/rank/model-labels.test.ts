/**
 * Model ids stay apart wherever rank shows them (src/core/rank/model-labels.ts): the Mermaid chart,
 * the pair matrix and the score chart cut leaderboard ids from the middle, keeping the part that
 * differs, and never give two models one label; two hostile ids that differ only after 200
 * characters are told apart in the Markdown and on the HTML page (whole in the page's tooltips).
 * And every format's headline names exactly the models that could be first (rank_low = 1).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { distinctLabels } from "../../src/core/rank/model-labels.js";
import { rankMermaidChart } from "../../src/core/rank/rank-mermaid.js";
import { rankHeader } from "../../src/core/rank/rank-sections.js";
import type { RankReport } from "../../src/core/rank/rank-types.js";
import { renderRankHtml } from "../../src/core/rank/render-rank-html.js";
import { renderRankMarkdown } from "../../src/core/rank/render-rank-markdown.js";
import { renderRankText } from "../../src/core/rank/render-rank-text.js";
import { rankGateTitle } from "../../src/core/rank/render-rank-gate.js";
import { MARKDOWN_INLINE } from "../../src/core/report/render-markdown.js";
import { TEXT_INLINE } from "../../src/core/report/render-text.js";
import { HTML_INLINE } from "../../src/core/report/html/html-text.js";
import { syntheticRankReport } from "../report/html-fixtures.js";

/** SWE-bench leaderboard run names: long shared prefixes, the model part in the middle. */
const LEADERBOARD = [
  "20251118_mini-v1.15.0_gemini-3-pro-preview-20251118",
  "20251118_mini-v1.15.0_gemini-2.5-pro-20250617",
  "20251118_mini-v1.15.0_claude-sonnet-4-5-20250929",
  "20251124_mini-v1.16.0_claude-opus-4-5-20251101",
  "20251124_mini-v1.16.0_gpt-5.1-codex-20251113",
  "20251124_mini-v1.16.0_gpt-5.1-20251113",
  "20250807_mini-v1.7.0_gpt-5-2025-08-07",
  "20250807_mini-v1.7.0_gpt-5-mini-2025-08-07",
];

/** Two hostile ids alike for their first 240 characters. */
const TWINS = [`${"x".repeat(240)}-alpha-${"y".repeat(50)}`, `${"x".repeat(240)}-omega-${"y".repeat(50)}`];

const unique = (xs: readonly string[]): boolean => new Set(xs).size === xs.length;

describe("distinctLabels", () => {
  it("keeps short ids whole and cuts long ones from the middle, keeping where they differ", () => {
    expect(distinctLabels(["cfg-a", "cfg-b"], 18)).toEqual(["cfg-a", "cfg-b"]);
    const labels = distinctLabels(LEADERBOARD, 18);
    expect(unique(labels)).toBe(true);
    for (const l of labels) expect(Array.from(l).length).toBeLessThanOrEqual(18);
    // The part after the shared "20251118_mini-v1.15.0_" is what shows.
    expect(labels[0]).toContain("gemini-3");
    expect(labels[1]).toContain("gemini-2");
    expect(labels[2]).toContain("claude");
    const twins = distinctLabels(TWINS, 60);
    expect(twins[0]).toContain("alpha");
    expect(twins[1]).toContain("omega");
  });

  it("never gives two different ids one label, and equal ids equal labels", () => {
    const id = fc
      .array(fc.constantFrom("a", "b", "-", "…", "é"), { minLength: 0, maxLength: 40 })
      .map((cs) => cs.join(""));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom("", "shared-prefix-".repeat(4)), id, id), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.integer({ min: 1, max: 30 }),
        (parts, budget) => {
          const ids = parts.map(([p, x, y]) => `${p}${x}${y}`);
          const labels = distinctLabels(ids, budget);
          ids.forEach((a, i) => {
            ids.forEach((b, j) => {
              expect(labels[i] === labels[j]).toBe(a === b);
            });
          });
        },
      ),
    );
  });
});

/** The first <code>…</code> in each leaderboard row of the Markdown (the model column). */
function leaderboardCodes(md: string): string[] {
  const table = md.slice(md.indexOf("| rank | model |"), md.indexOf("\n\n", md.indexOf("| rank | model |")));
  return table
    .split("\n")
    .slice(2)
    .map((row) => /<code>(.*?)<\/code>/.exec(row)?.[1] ?? "");
}

describe("labels in the pictures never repeat", () => {
  const r = syntheticRankReport(LEADERBOARD, { step: 0.02 });

  it("Mermaid: the x-axis labels differ past their rank number", () => {
    const axis = rankMermaidChart(r)[3] ?? "";
    const names = [...axis.matchAll(/"#\d+ ([^"]*)"/g)].map((m) => m[1] ?? "");
    expect(names).toHaveLength(LEADERBOARD.length);
    expect(unique(names)).toBe(true);
  });

  it("the Markdown matrix and the page's matrix and score chart", () => {
    const md = renderRankMarkdown(r);
    const rows = md.split("\n").filter((l) => /^\| #\d+ <code>/.test(l));
    const names = rows.map((l) => /<code>(.*?)<\/code>/.exec(l)?.[1] ?? "");
    expect(names).toHaveLength(LEADERBOARD.length);
    expect(unique(names)).toBe(true);
    const html = renderRankHtml(r);
    const matrix = [...html.matchAll(/<th class="row" title="[^"]*">#\d+ ([^<]*)<\/th>/g)].map((m) => m[1]);
    expect(matrix).toHaveLength(LEADERBOARD.length);
    expect(unique(matrix.map(String))).toBe(true);
    const chart = [...html.matchAll(/<text x="4" [^>]*>#\d+ ([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(chart).toHaveLength(LEADERBOARD.length);
    expect(unique(chart.map(String))).toBe(true);
    // Full ids stay in the tables.
    for (const id of LEADERBOARD)
      expect(md).toContain(`<code>${MARKDOWN_INLINE.code(id, 200).slice(6, -7)}</code>`);
  });
});

describe("two hostile ids alike for 240 characters", () => {
  const r = syntheticRankReport([...TWINS, "cfg-c"], { step: 0.04 });

  it("are told apart in every Markdown table, the headline and the Mermaid chart", () => {
    const md = renderRankMarkdown(r);
    const codes = leaderboardCodes(md);
    expect(codes[0]).not.toBe(codes[1]);
    expect(codes[0]).toContain("alpha");
    expect(codes[1]).toContain("omega");
    const axis = rankMermaidChart(r)[3] ?? "";
    expect(axis).toContain("alpha");
    expect(axis).toContain("omega");
    const matrixRows = md.split("\n").filter((l) => /^\| #\d+ <code>/.test(l));
    expect(matrixRows[0]).toContain("alpha");
    expect(matrixRows[1]).toContain("omega");
  });

  it("are told apart on the HTML page, and whole in its tooltips", () => {
    const html = renderRankHtml(r);
    const chart = [...html.matchAll(/<text x="4" [^>]*>#\d+ ([^<]*)<\/text>/g)].map((m) => m[1] ?? "");
    expect(chart[0]).toContain("alpha");
    expect(chart[1]).toContain("omega");
    for (const id of TWINS) {
      expect(html).toContain(`<title>#${id === TWINS[0] ? 1 : 2} ${id}: score`);
      expect(html).toContain(`<th class="row" title="${id}">`);
    }
    const board = html.slice(
      html.indexOf("<h2>Leaderboard</h2>"),
      html.indexOf("</table>", html.indexOf("<h2>Leaderboard</h2>")),
    );
    expect(board).toContain("alpha");
    expect(board).toContain("omega");
  });
});

/** The names a headline lists, as the report's ids (each as the format shows it: short ids are whole). */
function headlineNames(r: RankReport): string[][] {
  const ids = r.models.map((m) => m.model);
  return [MARKDOWN_INLINE, TEXT_INLINE, HTML_INLINE].map((f) => {
    const title = rankHeader(r, f).title;
    return ids.filter((id) => title.includes(f.code(id, 200)));
  });
}

describe("the headline names the models that could be first, and no other", () => {
  it("a chain: every model in one group, two could be first (never 'the top group')", () => {
    // Each model is ordered above the models two or more places below it: one group of 12.
    const names = Array.from({ length: 12 }, (_, i) => `cfg-${String(i).padStart(2, "0")}`);
    const r = syntheticRankReport(names, { step: 0.01, orderAbove: 0.015 });
    expect(r.groups).toHaveLength(1);
    // Group 1 holds models ranked 10th and below: none of them is called a possible winner.
    expect(r.models.filter((m) => m.group === 1 && m.rank_low >= 10)).toHaveLength(2);
    expect(r.could_be_first).toEqual(r.models.filter((m) => m.rank_low === 1).map((m) => m.model));
    expect(r.could_be_first).toEqual(["cfg-00", "cfg-01"]);
    for (const listed of headlineNames(r)) expect(listed).toEqual(r.could_be_first);
    for (const page of [renderRankMarkdown(r), renderRankText(r), renderRankHtml(r)]) {
      expect(page).toContain("the top is unresolved: 2 models could be first: ");
      expect(page).not.toContain("in the top group");
      expect(page).not.toContain("statistically tied");
    }
    expect(rankGateTitle(r)).toBe(
      'Unresolved (rank.require: top_resolved): 2 models could be first: "cfg-00", "cfg-01"; 12 models ranked',
    );
  });

  it("a resolved top names the one model; with many that could be first, the first ten and a count", () => {
    const clear = syntheticRankReport(["cfg-x1", "cfg-x2", "cfg-x3"], { step: 0.1, orderAbove: 0.05 });
    expect(clear.could_be_first).toEqual(["cfg-x1"]);
    for (const listed of headlineNames(clear)) expect(listed).toEqual(["cfg-x1"]);
    const many = Array.from({ length: 14 }, (_, i) => `m-${String(i).padStart(2, "0")}`);
    const tied = syntheticRankReport(many, { step: 0.001, orderAbove: 0.5 });
    expect(tied.could_be_first).toEqual(many);
    for (const listed of headlineNames(tied)) expect(listed).toEqual(many.slice(0, 10));
    expect(rankHeader(tied, TEXT_INLINE).title).toContain(" and 4 more (marked in the leaderboard)");
  });
});
