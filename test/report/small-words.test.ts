/**
 * Small words (every rendering): a count agrees with its noun ("1 open label", never "1 open
 * labels"), "none" only with the reason a list is empty, a value shorter than its column is never
 * cut inside a word, and a planning figure past ten times the benchmark's size is said as "more
 * tasks than the benchmark has".
 */
import { describe, expect, it } from "vitest";
import { runGate, type GatePolicy } from "../../src/core/gate.js";
import { observedValue, shortenValue } from "../../src/core/report/check-display.js";
import { renderMarkdown } from "../../src/core/report/render-markdown.js";
import { renderText } from "../../src/core/report/render-text.js";
import { renderEvaluateHtml } from "../../src/core/report/html/render-evaluate-html.js";
import { planningSentence } from "../../src/core/report/render-planning.js";
import { renderMarginBar } from "../../src/core/report/text-bar.js";
import type { Report } from "../../src/core/report/report-types.js";
import { plural, pluralWord } from "../../src/core/words.js";
import { TEXT_INLINE } from "../../src/core/report/render-text.js";
import { buildDataset, buildPolicy, repeat, type TaskSpec } from "../stats/dataset-builder.js";

function gate(tasks: readonly TaskSpec[], harness = "git:h1"): Report {
  const revisions = { harnessRevisions: [harness] };
  const policy: GatePolicy = {
    policy: buildPolicy({ common_valid_tasks: ">= 20", require_same_harness: false }),
    source: { path: "policy.yaml", sha256: "0".repeat(64), source: "file", lastCommit: null },
    expired: false,
    changes: null,
    warnings: [],
    history: null,
  };
  return runGate(buildDataset(tasks, { baseline: revisions, candidate: revisions }), policy, {
    canary: null,
    toolVersion: "0.1.0",
    asOfReview: null,
    appendOnly: null,
    appendOnlyBase: null,
  });
}

/** One of each count that a rendering prints: 1 open label, 1 broken task, 1 disputed. */
const ONES: TaskSpec[] = [
  ...repeat(12, { a: "pass", b: "fail" }),
  ...repeat(12, { a: "fail", b: "pass" }),
  ...repeat(6, { a: "pass", b: "pass" }),
  { validity: "disputed", a: "pass", b: "fail" },
  { validity: "broken", a: "pass", b: "fail" },
];

/** "1 <plural noun>": the disagreement the words helper exists to prevent. */
const ONE_PLURAL =
  /(?<![\d.,])1 (?:more )?(?:common valid tasks|common tasks|open labels|broken tasks|tasks|labels|rows|runs|warnings|files|clusters|checks fail|rules|loosenings|passes|errors|attempts)\b/u;

describe("counts agree with their nouns", () => {
  it("plural() and pluralWord()", () => {
    expect(plural(1, "task")).toBe("1 task");
    expect(plural(2, "task")).toBe("2 tasks");
    expect(plural(0, "pass", "passes")).toBe("0 passes");
    expect(plural(1, "pass", "passes")).toBe("1 pass");
    expect(pluralWord(1, "check fails", "checks fail")).toBe("check fails");
  });

  it("a report of ones says 1 open label, 1 broken task in every rendering", () => {
    const r = gate(ONES);
    expect(r.comparison.unresolved_tasks).toBe(1);
    expect(r.comparison.broken_tasks).toBe(1);
    const md = renderMarkdown(r);
    expect(md).toContain("1 open label:");
    expect(md).toContain("1 broken task excluded");
    for (const [name, doc] of [
      ["markdown", md],
      ["text", renderText(r)],
      ["html", renderEvaluateHtml(r)],
    ] as const)
      expect(doc, name).not.toMatch(ONE_PLURAL);
  });

  it("the margin bar's legend: the 1 open label", () => {
    const bar = renderMarginBar(
      { margin: 0.02, lower: 0.01, upper: 0.03, lcb: -0.01, ucb: 0.05, delta0: 0 },
      { confidence: 0.95, openLabels: 1, conservative: false },
    );
    expect(bar?.join("\n")).toContain("the 1 open label");
    expect(bar?.join("\n")).not.toContain("1 open labels");
  });
});

describe('"none" only with the reason', () => {
  it("real harness revisions that pass are observed as all real, not none", () => {
    const r = gate(ONES);
    expect(r.checks.find((c) => c.id === "real_harness_revisions")).toMatchObject({
      observed: "all real",
      passed: true,
    });
    // (The page's style sheet and charts say none in CSS: only its text counts.)
    const pageText = renderEvaluateHtml(r)
      .replace(/<style>[\s\S]*?<\/style>/g, "")
      .replace(/<[^>]*>/g, " ");
    for (const doc of [renderMarkdown(r), renderText(r), pageText])
      expect(doc).not.toMatch(/\bnone\b(?! \()/u);
  });
});

describe("no cut inside a value shorter than its column", () => {
  it("a placeholder or a named revision fits: shown whole, in the Markdown's and the text's column", () => {
    for (const value of [
      "unknown:swebench-leaderboard",
      "leaderboard:mini-v1.7.0",
      "swe-bench-verified@v2",
    ]) {
      expect(shortenValue(value)).toBe(value);
      const check = {
        id: "same_harness" as const,
        observed: value,
        threshold: "one real revision",
        passed: false,
        kind: "evidence" as const,
        detail: "",
      };
      expect(observedValue(check).text).toBe(value);
      expect(observedValue(check, 40).text).toBe(value);
    }
    const r = gate(ONES, "unknown:swebench-leaderboard");
    expect(renderText(r)).toMatch(/FAIL\s+Real harness revisions\s+unknown:swebench-leaderboard\s/u);
    expect(renderMarkdown(r)).toContain("| unknown:swebench\\-leaderboard |");
  });

  it("a digest is shown as git shows a commit; a value past its column ends after a whole token", () => {
    expect(shortenValue(`git:${"ab".repeat(20)}`)).toBe(`git:${"ab".repeat(6)}…`);
    expect(shortenValue("leaderboard:mini-v1.7.0, leaderboard:mini-v1.8.0", 32)).toBe(
      "leaderboard:mini-v1.7.0 …",
    );
  });
});

describe("planning figures of absurd size", () => {
  const c = { mde: 0.032, power: 0.8 };
  it("past 10× the benchmark's size: more tasks than the benchmark has, no number", () => {
    const s = planningSentence({ ...c, tasks_needed: 77548 }, TEXT_INLINE, 600);
    expect(s).toContain("clearing δ₀ would take more tasks than the benchmark has (over 10× its 600 tasks).");
    expect(s).not.toContain("77548");
  });

  it("within 10× (and without a size): the number", () => {
    expect(planningSentence({ ...c, tasks_needed: 6000 }, TEXT_INLINE, 600)).toContain(
      "about 6000 common valid tasks would clear δ₀",
    );
    expect(planningSentence({ ...c, tasks_needed: 1 }, TEXT_INLINE)).toContain(
      "about 1 common valid task would",
    );
  });

  it("a whole report: the size is every task either model ran, broken ones too", () => {
    // A margin of 1 task in 400 (26 wins, 25 losses): the tasks needed far exceed 10× the 402 tasks.
    const r = gate([
      ...repeat(26, { a: "pass", b: "fail" }),
      ...repeat(25, { a: "fail", b: "pass" }),
      ...repeat(349, { a: "pass", b: "pass" }),
      ...ONES.slice(-2),
    ]);
    expect(r.comparison.tasks_needed ?? 0).toBeGreaterThan(10 * 402);
    expect(renderText(r).replace(/\s+/g, " ")).toContain(
      "more tasks than the benchmark has (over 10× its 402 tasks)",
    );
  });
});
