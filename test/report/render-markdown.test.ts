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
  /<\/?(?:details|summary|sub|b|code|wbr)>|<details open>|<!-- model-acceptance-gate:report -->/g;

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

  it("shows every check once, result first as a symbol and a word, in the report's units", () => {
    const md = renderMarkdown(acceptReport());
    expect(md).toContain("| Result | Check | Observed | Needs |");
    expect(md).toContain("| ✅&nbsp;pass | Common valid tasks | 520 | ≥ 500 |");
    expect(md).toContain("| ✅&nbsp;pass | Disputed fraction | 3.70% | &lt; 5% |");
    expect(md).toContain(
      "| ✅&nbsp;pass | Same dataset revisions | sha256:9f2c41d07be3 | same set for both |",
    );
    expect(md).toContain("| ✅&nbsp;pass | Margin lower bound (LCB) | +1.18 pp | &gt; 0\\.00 pp |");
    for (const label of ["Common valid tasks", "Production canary", "Margin lower bound (LCB)"]) {
      expect(md.split("\n").filter((l) => l.includes(`| ${label} |`))).toHaveLength(1);
    }
    expect(md).toContain("| Observed margin Δ̂ | +5.77 pp |");
    expect(md).toContain("| Validity bounds Δ\\_L … Δ\\_H (exact) | +4.46 pp … +6.13 pp |");
    expect(md).toContain("| Quantile q for LCB / UCB (z, 95.00% one-sided) | 1.6449 / 1.6449 |");
    const unresolved = renderMarkdown(unresolvedReport());
    expect(unresolved).toContain("| ❌&nbsp;fail | **Production canary** | n/a | given, and passed |");
    // Every result cell carries the word: without an emoji font the symbol is an empty box.
    for (const make of [acceptReport, rejectReport, unresolvedReport, hostileReport]) {
      const rows = renderMarkdown(make())
        .split("\n")
        .filter((l) => /^\| (✅|❌)/u.test(l));
      expect(rows.length).toBe(make().checks.length);
      for (const row of rows) expect(row).toMatch(/^\| (✅&nbsp;pass|❌&nbsp;fail) \| /u);
    }
    expect(unresolved).toContain("| Validity interval, exact, own tasks | 60.07% – 61.88% | n/a |");
  });

  it("shortens long values in the checks table; the full value stays in the provenance", () => {
    const a = acceptReport();
    const long = "sha256:66bcf338b688ee7ad1bf0c9747750b993b2cb16ba70c09c4ea45973536384bbf";
    const md = renderMarkdown({
      ...a,
      checks: a.checks.map((c) => (c.id === "dataset_revision" ? { ...c, observed: long } : c)),
      provenance: { ...a.provenance, dataset_revisions: [long] },
    });
    expect(md).toContain(
      "| ✅&nbsp;pass | Same dataset revisions | sha256:66bcf338b688… | same set for both |",
    );
    // In tables, very long ids get <wbr> break opportunities (invisible, not copied), never a cut.
    expect(md).toContain(
      `| Dataset revisions | <code>${long.slice(0, 32)}<wbr>${long.slice(32, 64)}<wbr>${long.slice(64)}</code> |`,
    );
  });

  it("names each per-model figure once", () => {
    const md = renderMarkdown(acceptReport());
    const start = md.indexOf("<b>Per-model figures</b>");
    const rows = md
      .slice(start, md.indexOf("</details>", start))
      .split("\n")
      .filter((l) => l.startsWith("| ") && !l.startsWith("|   |"))
      .map((l) => l.split(" | ")[0]);
    expect(rows.length).toBeGreaterThan(10);
    expect(new Set(rows).size).toBe(rows.length);
    expect(rows.filter((r) => r?.startsWith("| Valid-only score"))).toEqual([
      "| Valid-only score, own tasks",
      "| Valid-only score, common set",
    ]);
  });

  it("says why in one sentence, in pp and %, and never repeats it", () => {
    const md = renderMarkdown(acceptReport());
    expect(md).toContain(
      "The margin **+5.77 pp** (candidate 66.92%, baseline 61.15% on 520 common valid tasks) clears the bar: " +
        "its lower bound **LCB +1.18 pp** &gt; δ₀ 0.00 pp over every resolution of the 20 open labels " +
        "(95% one-sided), and every evidence check passes.",
    );
    const unresolved = renderMarkdown(unresolvedReport());
    expect(unresolved).toContain(
      "**6 of 8 checks fail**, and for the margin **+4.44 pp** (candidate 66.92%, baseline 61.15% on 180 " +
        "common valid tasks) the bounds LCB -34.93 pp … UCB +45.10 pp straddle the bar δ₀ +1.00 pp.",
    );
    // Each failing check's detail once (under "what would change"), never as a second list.
    for (const detail of ["180 common valid tasks; 320 more are needed\\.", "Two harness revisions\\."]) {
      expect(unresolved.split(detail)).toHaveLength(2);
    }
    expect(unresolved).not.toContain("**Why:**");
    expect(unresolved).not.toContain("∓");
  });

  it("words what would change the verdict", () => {
    expect(renderMarkdown(acceptReport())).toContain(
      "- **Relabelling 7 reviewed tasks** (valid → broken, or broken → valid, 1.35% of the 520 common valid tasks) " +
        "gives a different verdict.\n- Resolving the 20 open labels cannot change it: the lower bound already " +
        "assumes the least favourable resolution.",
    );
    expect(renderMarkdown(rejectReport())).toContain(
      "- **Relabelling at most 12 reviewed tasks** (valid → broken, or broken → valid, 1.97% of the 610 common " +
        "valid tasks) gives a different verdict; the search is greedy, so fewer may do.",
    );
    const unresolved = renderMarkdown(unresolvedReport());
    expect(unresolved).toContain("- **Common valid tasks**: 180 common valid tasks; 320 more are needed\\.");
    expect(unresolved).toContain(
      "- **Margin**: no resolution of the 140 open labels can decide it; on the valid tasks alone the margin is " +
        "+4.44 pp ± 5.76 pp (q·SE), which straddles δ₀ +1.00 pp: more common valid tasks (or attempts per task) " +
        "are needed to narrow it.",
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
    expect(distance).toContain(
      "- **Margin**: resolving at most 14 of the 140 open labels (disputed or unreviewed → valid or broken) can " +
        "decide it; review first <code>requests\\_\\_requests\\-3300</code>, " +
        "<code>requests\\_\\_requests\\-3301</code> and <code>requests\\_\\_requests\\-3302</code>;",
    );
    // Unbounded but not proven (the greedy search gave up): never claim ∞ or "no resolution can".
    const notFound = renderMarkdown({
      ...bounded,
      comparison: { ...bounded.comparison, fragility_unbounded: true, fragility_exact: false },
    });
    expect(notFound).toContain("the search found no resolution of the 140 open labels that decides it");
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
    expect(reviewNotFound).toContain(
      "- The search found no set of reviewed-label changes that changes it (not proven: the search is greedy).",
    );
    expect(reviewNotFound).not.toContain("∞");
  });

  it("says when a count check at its edge makes the verdict fragile, instead of naming a task", () => {
    const a = acceptReport();
    const atEdge = (observed: number, threshold: string, fragility: number): Report => ({
      ...a,
      checks: a.checks.map((c) => (c.id === "common_valid_tasks" ? { ...c, observed, threshold } : c)),
      comparison: { ...a.comparison, common_valid_tasks: observed, review_fragility: fragility },
    });
    const exactly = renderMarkdown(atEdge(500, ">= 500", 1));
    expect(exactly).toContain(
      "- **At its edge**: the policy needs ≥ 500 common valid tasks and there are exactly 500: any one task " +
        "lost fails it — and the verdict becomes unresolved.",
    );
    expect(exactly).not.toContain("Tasks whose relabelling changes the verdict");
    expect(exactly).not.toContain("Relabelling 1 reviewed task");
    expect(renderMarkdown(atEdge(503, ">= 500", 4))).toContain(
      "the policy needs ≥ 500 common valid tasks and there are 503: losing any 4 of them fails it",
    );
    expect(renderMarkdown(atEdge(501, "> 500", 1))).toContain(
      "the policy needs &gt; 500 common valid tasks and there are 501: any one task lost fails it",
    );
    // The margin is more fragile than the count: the tasks are named as before.
    const margin = renderMarkdown(atEdge(503, ">= 500", 2));
    expect(margin).toContain("- **Relabelling 2 reviewed tasks**");
    expect(margin).toContain("<b>Tasks whose relabelling changes the verdict</b>");
    // The disputed fraction at its edge: one valid task lost pushes it over.
    const share = renderMarkdown({
      ...a,
      checks: a.checks.map((c) => (c.id === "disputed_fraction" ? { ...c, observed: 26 / 521 } : c)),
      comparison: { ...a.comparison, unresolved_tasks: 26, common_valid_tasks: 495, review_fragility: 1 },
    });
    expect(share).toContain(
      "the policy needs a disputed fraction &lt; 5% and it is 4.99%: losing any one valid task pushes it over",
    );
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
    expect(md).toContain(
      "<summary><b>Policy changes in this pull request</b> — 5 rules, 3 loosenings</summary>",
    );
  });

  it("keeps everything but the verdict, why, checks, what would change, warnings and bar collapsed", () => {
    for (const make of [acceptReport, rejectReport, unresolvedReport]) {
      const md = renderMarkdown(make(), { marker: true });
      const fold = md.slice(0, md.indexOf("<details>"));
      expect(fold).toContain("**What would change the verdict**");
      expect(fold).toContain("| Result | Check | Observed | Needs |");
      expect(md).not.toContain("<details open>");
      // After the first <details>, nothing but <details> blocks (a block may hold one nested
      // block: the rows below the fold of "Where the margin comes from"; inner blocks go first).
      let rest = md.slice(md.indexOf("<details>"));
      const innermost = /<details>\n(?:(?!<details>)[\s\S])*?\n<\/details>\n*/g;
      for (let prev = ""; prev !== rest;) {
        prev = rest;
        rest = rest.replace(innermost, "");
      }
      expect(rest).toBe("");
    }
  });

  it("bounds lists with a count of the rest", () => {
    const md = renderMarkdown(unresolvedReport());
    expect(md).toContain(
      "<summary><b>Disputed and unreviewed tasks</b>, most influential first (20 of 140)</summary>",
    );
    expect(md).toContain("… and 120 more disputed or unreviewed tasks.");
    expect(md).toContain(
      "<summary><b>Review history</b> — 25 tasks changed label across review revisions</summary>",
    );
    expect(md).toContain("… and 5 more tasks.");
  });

  it("renders a report without common tasks", () => {
    const md = renderMarkdown(emptyReport());
    expect(md).toContain("The margin is undefined: there are no common valid tasks to compare.");
    expect(md).toContain("the margin is undefined (no common valid tasks)");
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
    // The first steps shorten the review history and the broken tasks; the rest is whole.
    expect(full).toContain("| <code>matplotlib\\_\\_matplotlib\\-23019</code> |");
    expect(trimmed).not.toContain("| <code>matplotlib\\_\\_matplotlib\\-23019</code> |");
    expect(trimmed).toContain("… and 26 more broken tasks.");
    expect(trimmed).toContain(
      "<summary><b>Disputed and unreviewed tasks</b>, most influential first (10 of 20)</summary>",
    );
  });

  it("keeps verdict, why, checks and what would change while trimming", () => {
    for (const maxLength of [12_000, 8_000, 6_000]) {
      const md = renderMarkdown(big, { marker: true, maxLength });
      expect(md.length).toBeLessThanOrEqual(maxLength);
      expect(md).toMatch(/^<!-- model-acceptance-gate:report -->\n\n## ⚠️ unresolved — /);
      expect(md).toContain("Trimmed to fit GitHub's");
      expect(md).toContain("**6 of 8 checks fail**");
      expect(md).toContain("| Result | Check | Observed | Needs |");
      expect(md).toContain("**What would change the verdict**");
      expect(md).toMatch(/\n<summary><b>Provenance<\/b>[^\n]*\n[\s\S]*<\/details>\n$/);
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
