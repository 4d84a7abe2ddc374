/**
 * "Where the margin comes from" in Markdown and text (render-clusters.ts): the fold, the rows
 * collapsed and counted below it, hostile cluster names inert, trimming to GitHub's limits, and
 * no section without clusters.
 */
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../src/core/report/render-markdown.js";
import { renderText } from "../../src/core/report/render-text.js";
import { CLUSTER_FOLD, CLUSTER_REST_MAX } from "../../src/core/report/render-clusters.js";
import { COMMENT_BODY_MAX } from "../../src/core/report/github-limits.js";
import type { Report } from "../../src/core/report/report-types.js";
import type { ClusterMarginRow } from "../../src/core/verdict-types.js";
import { acceptReport, emptyReport, HOSTILE_STRINGS } from "./fixtures.js";

const TITLE = "Where the margin comes from";

/** The Markdown from the section's <details> to its closing tag (the nested one included). */
function section(markdown: string): string {
  const start = markdown.indexOf(`<summary><b>${TITLE}</b>`);
  expect(start).toBeGreaterThan(0);
  const next = markdown.indexOf("\n<details>\n<summary><b>", start);
  return markdown.slice(start, next);
}

/** A report whose margin_by_cluster has `n` clusters named by `name`, contributions descending. */
function withClusters(n: number, name: (i: number) => string): Report {
  const rows: ClusterMarginRow[] = Array.from({ length: n }, (_, i) => ({
    cluster: name(i),
    tasks: 2,
    margin: (i % 3 === 0 ? -1 : 1) * (n - i) * 0.01,
    contribution: (i % 3 === 0 ? -1 : 1) * (n - i) * 0.001,
    share: null,
    worse: i % 3 === 0,
  }));
  return { ...acceptReport(), margin_by_cluster: { clusters: n, rows, unclustered_tasks: 0 } };
}

function tableRows(md: string): string[] {
  return md.split("\n").filter((l) => /^\| \d+ \|/.test(l));
}

describe("Where the margin comes from, Markdown", () => {
  it("shows the top rows above the fold and collapses the rest", () => {
    const s = section(renderMarkdown(acceptReport()));
    expect(s).toContain("12 clusters and 21 tasks without one, the candidate worse on 4");
    const [above, below] = s.split("<details>");
    expect(tableRows(above ?? "")).toHaveLength(CLUSTER_FOLD);
    expect(tableRows(above ?? "")[0]).toBe(
      "| 1 | <code>django/django</code> | 230 | +6.09 pp | +2.69 pp | 46.7% |",
    );
    expect(below).toContain("<summary>3 more rows</summary>");
    expect(tableRows(below ?? "")).toEqual([
      "| 11 | _(no cluster)_ | 21 | **-4.76 pp** | -0.19 pp | -3.3% |",
      "| 12 | <code>mwaskom/seaborn</code> | 2 | 0.00 pp | 0.00 pp | 0.0% |",
      "| 13 | <code>pallets/flask</code> | 1 | 0.00 pp | 0.00 pp | 0.0% |",
    ]);
    expect(s).toContain(
      "The candidate is worse (margin below 0) on 4 rows: <code>sphinx\\-doc/sphinx</code>, " +
        "<code>pytest\\-dev/pytest</code>, <code>pylint\\-dev/pylint</code>, _(no cluster)_.",
    );
  });

  it("counts the rows beyond the collapsed ones, which are in the report file", () => {
    const n = CLUSTER_FOLD + CLUSTER_REST_MAX + 7;
    const s = section(renderMarkdown(withClusters(n, (i) => `repo-${i}`)));
    expect(tableRows(s)).toHaveLength(CLUSTER_FOLD + CLUSTER_REST_MAX);
    expect(s).toContain(`<summary>${CLUSTER_REST_MAX} more rows</summary>`);
    expect(s).toContain("… and 7 more rows in the report file.");
    expect(s).toMatch(/worse \(margin below 0\) on 19 rows: .* and 9 more\./);
  });

  it("keeps hostile cluster names inert", () => {
    const s = section(renderMarkdown(withClusters(HOSTILE_STRINGS.length, (i) => HOSTILE_STRINGS[i] ?? "")));
    const body = s.replace(/<\/?(?:details|summary|code|b|wbr)>/g, "");
    expect(body).not.toContain("<");
    expect(body).not.toMatch(/(^|[^\\])@org/);
    expect(body).not.toContain("](javascript");
    expect(body).not.toContain("![");
    for (const c of ["\u202e", "\u200b", "\u0000", "\u001b"]) expect(body).not.toContain(c);
    expect(body).not.toContain("\n::error");
    const cells = (line: string): number => line.replace(/\\\\/g, "").replace(/\\\|/g, "").split("|").length;
    for (const row of tableRows(s)) expect(cells(row), row).toBe(8);
    expect(tableRows(s)).toHaveLength(Math.min(HOSTILE_STRINGS.length, CLUSTER_FOLD + CLUSTER_REST_MAX));
  });

  it("is left out without clusters, in Markdown and text", () => {
    expect(renderMarkdown(emptyReport())).not.toContain(TITLE);
    expect(renderText(emptyReport())).not.toContain(TITLE);
  });

  it("shrinks, with the visible trim note, when the comment must fit GitHub's limit", () => {
    const report = withClusters(CLUSTER_FOLD + CLUSTER_REST_MAX, (i) => `${"x".repeat(70)}-${i}`);
    const full = renderMarkdown(report);
    // Short enough that the lists before it in the trim order cannot make the room alone.
    const max = full.length - 6000;
    expect(max).toBeLessThan(COMMENT_BODY_MAX);
    const trimmed = renderMarkdown(report, { maxLength: max });
    expect(trimmed.length).toBeLessThanOrEqual(max);
    expect(trimmed).toContain(`Trimmed to fit GitHub's ${max}-character limit`);
    const s = section(trimmed);
    const shown = tableRows(s).length;
    expect(shown).toBeLessThan(CLUSTER_FOLD + CLUSTER_REST_MAX);
    expect(s).toContain(`… and ${CLUSTER_FOLD + CLUSTER_REST_MAX - shown} more rows in the report file.`);
  });
});

describe("Where the margin comes from, text", () => {
  it("prints the top rows and a count line for the rest", () => {
    const text = renderText(acceptReport());
    const start = text.indexOf(TITLE);
    const lines = text.slice(start).split("\n");
    expect(lines[0]).toBe(
      "Where the margin comes from: 12 clusters; 21 tasks without one form the row (no cluster)",
    );
    expect(lines[1]).toBe("   #  Cluster                    Tasks     Margin  Contribution   Share");
    expect(lines[2]).toBe("   1  django/django                230   +6.09 pp      +2.69 pp   46.7%");
    expect(lines[2 + CLUSTER_FOLD]).toBe(
      "  … and 3 more rows: --format json or --format markdown lists them.",
    );
    expect(lines[3 + CLUSTER_FOLD]).toBe(
      "  The candidate is worse (margin below 0) on 4 rows: sphinx-doc/sphinx, pytest-dev/pytest, pylint-dev/pylint, (no cluster).",
    );
  });

  it("neutralises hostile cluster names for a terminal", () => {
    const text = renderText(withClusters(HOSTILE_STRINGS.length, (i) => HOSTILE_STRINGS[i] ?? ""));
    const part = text.slice(text.indexOf(TITLE));
    expect(part.split("\n").some((l) => l.startsWith("::"))).toBe(false);
    for (const c of ["\u202e", "\u200b", "\u0000", "\u001b"]) expect(part).not.toContain(c);
  });
});
