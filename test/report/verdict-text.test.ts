import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shortenValue, thresholdText } from "../../src/core/report/check-display.js";
import { escapeMarkdownInline } from "../../src/core/report/escape.js";
import { breakable } from "../../src/core/report/table-cells.js";
import type { Check } from "../../src/core/verdict-types.js";
import type { Report } from "../../src/core/report/report-types.js";
import { checkRunTitle, countEdge, whySentence, type Inline } from "../../src/core/report/verdict-text.js";
import { acceptReport, hostileReport, rejectReport, unresolvedReport } from "./fixtures.js";

const PLAIN: Inline = { text: (s) => s, code: (s) => `\`${s}\``, gen: (s) => s, strong: (s) => s };

describe("checkRunTitle", () => {
  it("leads with the verdict, the margin and the failing checks, in fixed words and numbers", () => {
    expect(checkRunTitle(acceptReport())).toBe("Accept: margin +5.77 pp, lower bound +1.18 pp > δ₀ 0.00 pp");
    // The reject fixture's bounds are conservative: the title says so, as every rendering does.
    expect(checkRunTitle(rejectReport())).toBe(
      "Reject: margin -3.11 pp, upper bound (conservative) -0.48 pp ≤ δ₀ 0.00 pp",
    );
    // Counted and named as the checks table shows them: the margin's failing row among them.
    expect(checkRunTitle(unresolvedReport())).toBe(
      "Unresolved: 6 checks fail (Common valid tasks; Infra error rate, baseline; Disputed fraction; " +
        "Same harness revision; Production canary; Margin lower bound (LCB)); margin +4.44 pp, " +
        "bounds -34.93 pp … +45.10 pp vs δ₀ +1.00 pp",
    );
    // Nothing from the data: the hostile report gets the same title.
    expect(checkRunTitle(hostileReport())).toBe(checkRunTitle(unresolvedReport()));
  });

  it("names a failed canary as the reason for a reject", () => {
    const a = acceptReport();
    const report: Report = {
      ...a,
      verdict: "reject",
      checks: a.checks.map((c) =>
        c.id === "production_canary" ? { ...c, observed: "fail", passed: false } : c,
      ),
    };
    expect(checkRunTitle(report)).toBe("Reject: production canary failed; margin +5.77 pp");
    expect(whySentence(report, PLAIN)).toMatch(/^The production canary failed: a failed canary rejects/);
  });

  it("counts the failing checks as the table's rows, one or many, in its title and its why", () => {
    const a = acceptReport();
    const failing = (ids: readonly string[]): Report => ({
      ...a,
      verdict: "unresolved",
      checks: a.checks.map((c) => (ids.includes(c.id) ? { ...c, passed: false } : c)),
    });
    const one = failing(["common_valid_tasks"]);
    expect(whySentence(one, PLAIN)).toMatch(/^1 of 11 checks fails; the margin /);
    expect(checkRunTitle(one)).toMatch(/^Unresolved: 1 check fails \(Common valid tasks\); /);
    const two = failing(["common_valid_tasks", "observed_margin"]);
    expect(whySentence(two, PLAIN)).toMatch(/^2 of 11 checks fail; the margin /);
    expect(checkRunTitle(two)).toMatch(
      /^Unresolved: 2 checks fail \(Common valid tasks; Margin lower bound \(LCB\)\); /,
    );
  });
});

describe("countEdge", () => {
  const withCount = (observed: number, threshold: string, fragility: number | null): Report => {
    const a = acceptReport();
    return {
      ...a,
      checks: a.checks.map((c) => (c.id === "common_valid_tasks" ? { ...c, observed, threshold } : c)),
      comparison: { ...a.comparison, common_valid_tasks: observed, review_fragility: fragility },
    };
  };

  it("finds how many lost valid tasks fail the count check, within the review fragility", () => {
    expect(countEdge(withCount(500, ">= 500", 1), PLAIN)?.lose).toBe(1);
    expect(countEdge(withCount(500, ">= 500", 7), PLAIN)?.lose).toBe(1);
    expect(countEdge(withCount(507, ">= 500", 7), PLAIN)).toBeNull();
    expect(countEdge(withCount(506, ">= 500", 7), PLAIN)?.lose).toBe(7);
    expect(countEdge(withCount(506, "> 500", 7), PLAIN)?.lose).toBe(6);
    expect(countEdge(withCount(500, ">= 500", null), PLAIN)).toBeNull();
  });
});

describe("shortening", () => {
  it("keeps a revision's prefix and 12 characters", () => {
    expect(shortenValue("git:be19ac0bd9fead8aa7cf59efeba1fee09ebe8a3d")).toBe("git:be19ac0bd9fe…");
    expect(shortenValue("sha256:9f2c41d07be3")).toBe("sha256:9f2c41d07be3");
    expect(shortenValue("git:4e1a9c0, git:77fe012")).toBe("git:4e1a9c0, git:77fe012");
    expect(Array.from(shortenValue("x".repeat(500))).length).toBeLessThanOrEqual(32);
    // Past the cap a value ends after a whole token, never inside one.
    const b = `sha256:3785f65a2213${"b".repeat(52)}`;
    const c = `sha256:ff14f71101b9${"c".repeat(52)}`;
    expect(shortenValue(`baseline: ${b}; candidate: ${c}`, 64)).toBe(
      "baseline: sha256:3785f65a2213…; candidate: sha256:ff14f71101b9…",
    );
    expect(shortenValue(`baseline: ${b}; candidate: ${c}`)).toBe("baseline: sha256:3785f65a2213… …");
    // A `name@version` keeps its name and version: the version tells two revisions apart.
    expect(shortenValue("baseline: swe-bench-verified@v1; candidate: swe-bench-verified@v2", 80)).toBe(
      "baseline: swe-bench-verified@v1; candidate: swe-bench-verified@v2",
    );
    expect(shortenValue(`swe-bench-verified@${"d".repeat(40)}`)).toBe(
      `swe-bench-verified@${"d".repeat(12)}…`,
    );
    expect(shortenValue(`git:aaaa, git:bbbb, git:cccc, git:dddd, git:eeee, git:ffff, git:gggg`)).toBe(
      "git:aaaa, git:bbbb, git:cccc …",
    );
  });

  it("shows thresholds with ≥ and ≤, the margin's bar in pp", () => {
    const a = acceptReport();
    const byId = (id: string): Check => {
      const c = a.checks.find((k) => k.id === id);
      if (c === undefined) throw new Error(`no check ${id}`);
      return c;
    };
    expect(thresholdText(byId("common_valid_tasks"), a)).toBe("≥ 500");
    expect(thresholdText({ ...byId("disputed_fraction"), threshold: "<= 5%" }, a)).toBe("≤ 5%");
    expect(
      thresholdText(byId("observed_margin"), { ...a, comparison: { ...a.comparison, delta0: -0.01 } }),
    ).toBe("> -1.00 pp");
  });
});

describe("breakable", () => {
  it("only adds <wbr> between whole atoms of long runs, so the text is unchanged", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300, unit: "binary" }), (raw) => {
        const escaped = escapeMarkdownInline(raw, 300);
        const out = breakable(escaped);
        expect(out.replace(/<wbr>/g, "")).toBe(escaped);
        // Never inside an entity or right after a lone backslash.
        expect(out).not.toMatch(/&[#A-Za-z0-9]*<wbr>/);
        expect(out).not.toMatch(/(?<!\\)(?:\\\\)*\\<wbr>/);
      }),
      { numRuns: 300 },
    );
    expect(breakable("short-id")).toBe("short-id");
    expect(breakable("a".repeat(64))).toBe("a".repeat(64));
    expect(breakable("a".repeat(70))).toBe(`${"a".repeat(32)}<wbr>${"a".repeat(32)}<wbr>${"a".repeat(6)}`);
  });
});
