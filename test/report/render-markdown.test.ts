import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COMMENT_MARKER, isHiddenCodePoint } from "../../src/core/report/escape.js";
import {
  ANNOTATIONS_PER_REQUEST,
  CHECK_RUN_TEXT_MAX,
  COMMENT_BODY_MAX,
  STEP_SUMMARY_MAX_BYTES,
} from "../../src/core/report/github-limits.js";
import { renderMarkdown, truncateMarkdown } from "../../src/core/report/render-markdown.js";
import type { Report } from "../../src/core/report/report-types.js";
import {
  acceptReport,
  emptyReport,
  hostileReport,
  largeReport,
  rejectReport,
  unresolvedReport,
} from "./fixtures.js";

/** Cells of a GFM table row: split on pipes not escaped by an odd number of backslashes. */
function tableCells(line: string): number {
  let cells = 0;
  let backslashes = 0;
  for (const c of line) {
    if (c === "|" && backslashes % 2 === 0) cells += 1;
    backslashes = c === "\\" ? backslashes + 1 : 0;
  }
  return cells - 1;
}

/** The layout of a Markdown document: one token per line, free text reduced to its kind. */
function skeleton(md: string): string[] {
  let inFence = false;
  return md.split("\n").map((line) => {
    if (line.startsWith("```")) {
      inFence = !inFence;
      return line;
    }
    if (inFence) return "fence-line";
    if (line.startsWith("|")) return `row:${tableCells(line)}`;
    const heading = /^(#+) /.exec(line);
    if (heading !== null) return `h${heading[1]?.length ?? 0}`;
    if (/^<\/?(details|summary)/.test(line)) return line.replace(/>.*$/, ">");
    if (line.startsWith("> ")) return "quote";
    if (line.startsWith("- ")) return "bullet";
    if (line === "" || line === ">") return line;
    return "text";
  });
}

const ALLOWED_TAGS =
  /<\/?(?:details|summary|sub|b|code)>|<details open>|<!-- model-acceptance-gate:report -->/g;

/** The document without its allowed tags and without the text-bar fence (generated glyphs only). */
function untagged(md: string): string {
  return md.replace(/```text\n[\s\S]*?\n```/g, "").replace(ALLOWED_TAGS, "");
}

describe("renderMarkdown", () => {
  it("is deterministic and depends on the report JSON alone", () => {
    for (const make of [acceptReport, rejectReport, unresolvedReport, emptyReport]) {
      const report = make();
      const a = renderMarkdown(report, { marker: true });
      const b = renderMarkdown(JSON.parse(JSON.stringify(report)) as Report, { marker: true });
      expect(b).toBe(a);
    }
  });

  it("puts the marker first only when asked", () => {
    const withMarker = renderMarkdown(acceptReport(), { marker: true });
    expect(withMarker.split("\n")[0]).toBe(COMMENT_MARKER);
    expect(withMarker.split(COMMENT_MARKER).length - 1).toBe(1);
    expect(renderMarkdown(acceptReport())).not.toContain("<!--");
  });

  it("starts with the verdict headline", () => {
    expect(renderMarkdown(acceptReport()).split("\n")[0]).toBe(
      "## ✅ accept — candidate cfg\\-2026\\-11\\-02\\-a over baseline cfg\\-2026\\-10\\-14\\-base",
    );
    expect(renderMarkdown(rejectReport()).split("\n")[0]).toMatch(/^## ❌ reject — candidate /);
    expect(renderMarkdown(unresolvedReport()).split("\n")[0]).toMatch(/^## ⚠️ unresolved — candidate /);
  });

  it("shows every check once, with fixed-decimal figures", () => {
    const md = renderMarkdown(acceptReport());
    expect(md).toContain("| Common valid tasks | 520 | &gt;\\= 500 | ✅ pass |");
    expect(md).toContain("| Disputed fraction | 3.70% | &lt; 5% | ✅ pass |");
    expect(md).toContain("| Margin lower bound (LCB) | +1.18 pp | &gt; 0 | ✅ pass |");
    expect(md).toContain("| Observed margin Δ̂ | +5.77 pp |");
    expect(md).toContain("| Validity bounds Δ\\_L … Δ\\_H (exact) | +4.46 pp … +6.13 pp |");
    expect(md).toContain("| Quantile q for LCB / UCB (z, 95.00% one-sided) | 1.6449 / 1.6449 |");
    const unresolved = renderMarkdown(unresolvedReport());
    expect(unresolved).toContain("| Production canary | n/a | passes | ❌ fail |");
    expect(unresolved).toContain("| Validity interval, exact | 60.07% – 61.88% | n/a |");
  });

  it("words fragility by verdict", () => {
    expect(renderMarkdown(acceptReport())).toContain(
      "**Review fragility: 7** (1.35% of the 520 common valid tasks) — changing 7 reviewed labels",
    );
    expect(renderMarkdown(rejectReport())).toContain("**Review fragility: at most 12** (1.97% of the 610");
    expect(renderMarkdown(unresolvedReport())).toContain(
      "**Resolution distance: ∞** — no resolution of the open labels can decide it.",
    );
    const bounded = unresolvedReport();
    const distance = renderMarkdown({
      ...bounded,
      comparison: {
        ...bounded.comparison,
        fragility_unbounded: false,
        resolution_distance: 14,
        fragility_exact: false,
      },
    });
    expect(distance).toContain("**Resolution distance: at most 14** — resolving at most 14 open labels");
    // Unbounded but not proven (the greedy search gave up): never claim ∞.
    const notFound = renderMarkdown({
      ...bounded,
      comparison: { ...bounded.comparison, fragility_unbounded: true, fragility_exact: false },
    });
    expect(notFound).toContain("**Resolution distance: not found** — the greedy search found no resolution");
    expect(notFound).not.toContain("∞");
    const accept = acceptReport();
    const reviewNotFound = renderMarkdown({
      ...accept,
      comparison: {
        ...accept.comparison,
        fragility_unbounded: true,
        fragility_exact: false,
        review_fragility: null,
      },
    });
    expect(reviewNotFound).toContain("**Review fragility: not found**");
    expect(reviewNotFound).not.toContain("∞");
  });

  it("marks policy loosenings and warns in the headline", () => {
    const md = renderMarkdown(unresolvedReport());
    expect(md).toContain(
      "| <code>margin\\.confidence</code> | <code>0\\.95</code> | <code>0\\.9</code> | ⚠️ loosening |",
    );
    expect(md).toContain(
      "| <code>accept\\_if\\.production\\_canary</code> | <code>passes</code> | _(absent)_ | ⚠️ loosening |",
    );
    expect(md).toContain("> ⚠️ This pull request changes the policy file: 5 rules changed, 3 loosenings.");
  });

  it("bounds lists with a count of the rest", () => {
    const md = renderMarkdown(unresolvedReport());
    expect(md).toContain(
      "<summary><b>Most influential disputed and unreviewed tasks</b> (20 of 140)</summary>",
    );
    expect(md).toContain("… and 120 more disputed or unreviewed tasks.");
    expect(md).toContain("<summary><b>Review history</b> (20 of 25)</summary>");
  });

  it("renders a report without common tasks", () => {
    const md = renderMarkdown(emptyReport());
    expect(md).toContain("The margin is undefined: there are no common valid tasks to compare.");
    expect(md).not.toContain("```text");
  });
});

describe("renderMarkdown on hostile input", () => {
  const hostile = renderMarkdown(hostileReport(), { marker: true, title: "@org/team #1 <b>x</b>" });
  const benign = renderMarkdown(unresolvedReport(), { marker: true });

  it("keeps the layout of the benign report (same tables, rows, columns, blocks)", () => {
    expect(skeleton(hostile)).toEqual(skeleton(benign));
    expect(hostile.split("\n").length).toBe(benign.split("\n").length);
  });

  it("contains exactly one comment marker and no other HTML", () => {
    expect(hostile.split("<!--").length - 1).toBe(1);
    expect(hostile.split("-->").length - 1).toBe(1);
    expect(untagged(hostile)).not.toContain("<");
  });

  it("cannot mention, reference issues, autolink or run workflow commands", () => {
    expect(hostile).not.toContain("@");
    expect(hostile.replace(/&#\d+;/g, "")).not.toMatch(/#\d/);
    expect(hostile.replace(/&#35;&#8203;/g, "")).not.toContain("&#35;");
    expect(hostile).not.toMatch(/^\s*::/m);
    expect(hostile).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B-\u200F\u2060\uFEFF]/u);
    expect(Array.from(hostile).filter((c) => c !== "\n" && isHiddenCodePoint(c.codePointAt(0) ?? 0))).toEqual(
      [],
    );
    expect(hostile).not.toContain("javascript:alert(1))");
  });

  it("only links http(s) destinations", () => {
    const destinations = [...hostile.matchAll(/\]\(([^)]*)\)/g)].map((m) => m[1] ?? "");
    expect(destinations.length).toBeGreaterThan(0);
    for (const d of destinations) expect(d).toMatch(/^https?:\/\/[^\s<>()|`"']+$/);
  });

  it("keeps the text fence free of untrusted text", () => {
    const fence = /```text\n([\s\S]*?)\n```/.exec(hostile)?.[1] ?? "";
    expect(fence).toBe(/```text\n([\s\S]*?)\n```/.exec(benign)?.[1]);
  });
});

describe("trimming", () => {
  const big = largeReport(3000, true);
  const bigFull = renderMarkdown(big, { marker: true });

  it("exports GitHub's limits", () => {
    expect([CHECK_RUN_TEXT_MAX, COMMENT_BODY_MAX, STEP_SUMMARY_MAX_BYTES, ANNOTATIONS_PER_REQUEST]).toEqual([
      65535, 65536, 1048576, 50,
    ]);
  });

  it("returns the full report when it fits", () => {
    const full = renderMarkdown(acceptReport());
    expect(renderMarkdown(acceptReport(), { maxLength: full.length })).toBe(full);
    expect(full).not.toContain("Trimmed to fit");
  });

  it("drops the least important sections first and says so", () => {
    const full = renderMarkdown(acceptReport(), { marker: true });
    const trimmed = renderMarkdown(acceptReport(), { marker: true, maxLength: full.length - 1 });
    expect(trimmed.length).toBeLessThanOrEqual(full.length - 1);
    expect(trimmed).toContain(
      "> ⚠️ Trimmed to fit GitHub's " +
        String(full.length - 1) +
        "-character limit; the full report is in the job summary and the report file.",
    );
    expect(trimmed).toContain("<summary><b>Review history</b> (2 of 2)</summary>");
    expect(trimmed).toContain("<summary><b>Broken tasks</b> (5 of 31)</summary>");
    expect(trimmed).toContain(
      "<summary><b>Most influential disputed and unreviewed tasks</b> (10 of 20)</summary>",
    );
  });

  it("keeps verdict, reasons, checks and margin while trimming", () => {
    for (const maxLength of [12_000, 8_000, 6_000]) {
      const md = renderMarkdown(big, { marker: true, maxLength });
      expect(md.length).toBeLessThanOrEqual(maxLength);
      expect(md).toMatch(/^<!-- model-acceptance-gate:report -->\n\n## ⚠️ unresolved — /);
      expect(md).toContain("Trimmed to fit GitHub's");
      expect(md).toContain("**Why:**");
      expect(md).toContain("| Check | Observed | Threshold | Result |");
      expect(md).toContain("### Margin (candidate − baseline)");
      expect(md).toMatch(/\n<sub>Rendered from report schema .*<\/sub>\n$/);
    }
  });

  it("always fits maxLength, without cutting an entity, an escape or a surrogate pair", () => {
    expect(bigFull.length).toBeGreaterThan(COMMENT_BODY_MAX / 2);
    fc.assert(
      fc.property(fc.integer({ min: 500, max: 70_000 }), fc.boolean(), (maxLength, hostile) => {
        const report = hostile ? big : largeReport(3000, false);
        const md = renderMarkdown(report, { marker: true, maxLength });
        expect(md.length).toBeLessThanOrEqual(maxLength);
        expect(md.startsWith(COMMENT_MARKER)).toBe(true);
        expect(md).not.toMatch(/&[#A-Za-z0-9]*$/);
        expect(md).not.toMatch(/(?<!\\)(?:\\\\)*\\$/);
        expect(md).not.toMatch(/[\uD800-\uDBFF]$/);
        expect(untagged(md)).not.toContain("<");
      }),
      { numRuns: 60 },
    );
  });

  it("cuts safely as a last resort", () => {
    expect(truncateMarkdown("abcdef", 10)).toBe("abcdef");
    const suffix = "\n\n… (trimmed)\n";
    expect(truncateMarkdown("x".repeat(100) + "&#8203;" + "tail".repeat(9), 100 + suffix.length + 3)).toBe(
      "x".repeat(100) + suffix,
    );
    expect(truncateMarkdown("x".repeat(100) + "😀" + "tail".repeat(9), 101 + suffix.length)).toBe(
      "x".repeat(100) + suffix,
    );
    expect(truncateMarkdown("ab😀", 3)).toBe("ab");
    expect(truncateMarkdown("ab\\", 3)).toBe("ab\\");
    expect(truncateMarkdown("ab\\*cd", 3)).toBe("ab");
    const text = `${"line\n".repeat(40)}tail`;
    expect(truncateMarkdown(text, 60)).toBe(`${"line\n".repeat(8)}line\n\n… (trimmed)\n`.slice(0, 60));
    expect(truncateMarkdown(text, 60).length).toBeLessThanOrEqual(60);
  });
});
