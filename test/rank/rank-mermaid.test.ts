/**
 * The Mermaid chart in the rank Markdown (src/core/rank/rank-mermaid.ts): exact text, model ids
 * reduced to Mermaid-safe labels, at most 20 bars with the title saying so, and the Markdown and
 * text renderers sharing one header (rankHeader).
 */
import { describe, expect, it } from "vitest";
import { MERMAID_MAX_MODELS, mermaidLabel, rankMermaidChart } from "../../src/core/rank/rank-mermaid.js";
import { rankHeader } from "../../src/core/rank/rank-sections.js";
import { renderRankMarkdown } from "../../src/core/rank/render-rank-markdown.js";
import { renderRankText } from "../../src/core/rank/render-rank-text.js";
import { MARKDOWN_INLINE } from "../../src/core/report/render-markdown.js";
import { TEXT_INLINE } from "../../src/core/report/render-text.js";
import { HOSTILE_MODELS, syntheticRankReport } from "../report/html-fixtures.js";

describe("mermaidLabel", () => {
  it("keeps [A-Za-z0-9._-], turns runs of anything else into one _, cuts with ..", () => {
    expect(mermaidLabel("cfg-a.1_x")).toBe("cfg-a.1_x");
    expect(mermaidLabel('<script>alert("x")</script>')).toBe("_script_alert_x_..");
    expect(mermaidLabel("a\"b'c`d[e]f(g)h;i:j")).toBe("a_b_c_d_e_f_g_h_..");
    expect(mermaidLabel("abc\u202Eevil", 20)).toBe("abc_evil");
    expect(mermaidLabel("x --> y %% z", 20)).toBe("x_--_y_z");
  });
});

describe("rankMermaidChart", () => {
  it("is an xychart of the scores in rank order, on a nice axis", () => {
    expect(rankMermaidChart(syntheticRankReport(["cfg-a", "cfg-b", "cfg-c"], { step: 0.04 }))).toEqual([
      "```mermaid",
      "xychart-beta",
      '  title "Valid-only score on the common set, in rank order (axis from 58%)"',
      '  x-axis ["#1 cfg-a", "#2 cfg-b", "#3 cfg-c"]',
      '  y-axis "score (%)" 58 --> 74',
      "  bar [70.00, 65.80, 61.60]",
      "```",
    ]);
  });
  it("draws at most 20 models and says so", () => {
    const names = Array.from({ length: 25 }, (_, i) => `m-${String(i).padStart(2, "0")}`);
    const lines = rankMermaidChart(syntheticRankReport(names, { step: 0.01 }));
    expect(lines[2]).toContain(`the top ${MERMAID_MAX_MODELS} of 25 models`);
    expect(lines[5]?.split(",").length).toBe(20);
  });
  it("holds nothing from a hostile id but [A-Za-z0-9._-]", () => {
    const lines = rankMermaidChart(syntheticRankReport(HOSTILE_MODELS, { step: 0.04 }));
    const axis = lines[3] ?? "";
    const labels = [...axis.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
    expect(labels).toEqual([
      "#1 _script_alert..ipt_",
      "#2 cfg-_quoted_s..d_b_",
      "#3 abc_evil_def_iso_",
      "#4 very-long-mod..6789",
    ]);
    for (const l of labels) expect(l).toMatch(/^#\d+ [A-Za-z0-9._-]+$/);
  });
});

describe("the rank Markdown", () => {
  it("has the chart after the leaderboard table, the table staying", () => {
    const md = renderRankMarkdown(syntheticRankReport(["cfg-a", "cfg-b", "cfg-c"], { step: 0.04 }));
    const table = md.indexOf("| rank | model |");
    const chart = md.indexOf("```mermaid\nxychart-beta");
    expect(table).toBeGreaterThan(0);
    expect(chart).toBeGreaterThan(table);
    expect(md.indexOf("### Pairs")).toBeGreaterThan(chart);
  });
  it("and the text share one header", () => {
    const r = syntheticRankReport(["cfg-a", "cfg-b"], { step: 0.1 });
    const md = rankHeader(r, MARKDOWN_INLINE);
    const text = rankHeader(r, TEXT_INLINE);
    expect(renderRankMarkdown(r).startsWith(`## ${md.title}\n\n${md.summary.join("\n\n")}\n`)).toBe(true);
    expect(renderRankText(r).startsWith(`${text.title}\n\n${text.summary.join("\n")}\n`)).toBe(true);
    expect(text.title).toBe("Model ranking: cfg-a is first: ordered above every other model");
  });
});
