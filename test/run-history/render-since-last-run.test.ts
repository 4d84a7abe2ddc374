import { describe, expect, it } from "vitest";

import { reportDigest } from "../../src/action/evaluate-mode.js";
import { renderMarkdown } from "../../src/core/report/render-markdown.js";
import { renderText } from "../../src/core/report/render-text.js";
import type { Report } from "../../src/core/report/report-types.js";
import { changesSinceLastRun } from "../../src/core/run-history/changes-since-last-run.js";
import { acceptReport, hostileReport } from "../report/fixtures.js";
import { dataset, EXAMPLE_CURRENT, exampleReport, report, summary } from "./since-fixture.js";

/** The lines of the Markdown section, from its <details> to its closing tag. */
function section(md: string): string[] {
  const lines = md.split("\n");
  const start = lines.findIndex((l) => l.startsWith("<summary><b>What changed since the last run</b>")) - 1;
  let depth = 0;
  for (let i = start; i < lines.length; i++) {
    if (lines[i]?.startsWith("<details")) depth++;
    if (lines[i] === "</details>" && --depth === 0) return lines.slice(start, i + 1);
  }
  return [];
}

describe("What changed since the last run, in Markdown", () => {
  it("renders the worked example: headline, figures, flips, labels and movers, lists folded", () => {
    expect(section(renderMarkdown(exampleReport()))).toEqual([
      "<details>",
      "<summary><b>What changed since the last run</b> — verdict unresolved → accept; Δ̂ -13.33 pp; 3 tasks flipped; 1 label changed; changed: results, reviews</summary>",
      "",
      "Compared with the previous run at commit <code>0123456789ab</code> (verdict unresolved).",
      "",
      "| Figure | Before | After | Change |",
      "|:--|--:|--:|--:|",
      "| Δ̂ (margin) | +33.33 pp | +20.00 pp | -13.33 pp |",
      "| LCB | -10.00 pp | +5.00 pp | +15.00 pp |",
      "| UCB | +70.00 pp | +35.00 pp | -35.00 pp |",
      "| Δ\\_L (validity low) | +25.00 pp | +20.00 pp | -5.00 pp |",
      "| Δ\\_H (validity high) | +50.00 pp | +20.00 pp | -30.00 pp |",
      "",
      "- candidate <code>cand</code>: 1 pass → fail, 1 fail → pass (1 task new)",
      "- baseline <code>base</code>: 1 pass → fail, 0 fail → pass (1 task new)",
      "",
      "<details>",
      "<summary>3 tasks whose result flipped</summary>",
      "",
      "A flip is a change of the task's pass rate for that model (for one attempt: pass ↔ fail); the rates are shown.",
      "",
      "| Task | Model | Flip | Before | After |",
      "|:--|:--|:--|--:|--:|",
      "| <code>t1</code> | candidate | pass → fail | 100% | 0% |",
      "| <code>t2</code> | candidate | fail → pass | 0% | 100% |",
      "| <code>t3</code> | baseline | pass → fail | 100% | 0% |",
      "",
      "</details>",
      "",
      "<details>",
      "<summary>1 label changed (both runs' labels compared)</summary>",
      "",
      "| Task | Before | After | Review revision |",
      "|:--|:--|:--|--:|",
      "| <code>t4</code> | disputed | valid | r2 |",
      "",
      "</details>",
      "",
      "<details>",
      "<summary>The tasks that moved the margin most (4 tasks moved it)</summary>",
      "",
      "A task's contribution to Δ̂ is its d / N\\_v on the common valid tasks V (0 outside V); the changes of all tasks add up to Δ̂'s change.",
      "",
      "| Task | d before | d after | Contribution before | after | Change |",
      "|:--|--:|--:|--:|--:|--:|",
      "| <code>t1</code> | +1.00 | 0.00 | +33.333 pp | 0.000 pp | **-33.333 pp** |",
      "| <code>t2</code> | 0.00 | +1.00 | 0.000 pp | +20.000 pp | **+20.000 pp** |",
      "| <code>t3</code> | 0.00 | +1.00 | 0.000 pp | +20.000 pp | **+20.000 pp** |",
      "| <code>t4</code> | not in V | -1.00 | 0.000 pp | -20.000 pp | **-20.000 pp** |",
      "",
      "</details>",
      "",
      "</details>",
    ]);
  });

  it("without a previous run there is no section", () => {
    expect(renderMarkdown(acceptReport())).not.toContain("What changed since the last run");
    expect(renderText(acceptReport())).not.toContain("What changed since the last run");
  });

  it("bounds each list and counts the rest, saying where the report file's list ends", () => {
    const ids = Array.from({ length: 150 }, (_, k) => `t${String(k).padStart(3, "0")}`);
    const since = changesSinceLastRun(
      {
        summary: summary(),
        dataset: dataset(ids.map((id) => ({ id, a: "fail", b: "fail" }))),
        unavailable: null,
      },
      {
        dataset: dataset(ids.map((id) => ({ id, a: "pass", b: "fail" }))),
        report: report(),
        summary: summary(),
      },
    );
    const lines = section(renderMarkdown({ ...acceptReport(), since_last_run: since }));
    expect(lines.filter((l) => l.startsWith("| <code>t"))).toHaveLength(20);
    expect(lines).toContain(
      "… and 140 more candidate fail → pass tasks (the report file lists the first 100).",
    );
    expect(lines).toContain("… and 140 more tasks (the report file lists the first 10).");
  });

  it("shows why the previous run's inputs are unavailable, with the figures and the labels by review revision", () => {
    const since = changesSinceLastRun(
      {
        summary: summary({ margin: 0.5 }),
        dataset: null,
        unavailable: "the results at 0123abc are not tracked",
      },
      {
        dataset: dataset(EXAMPLE_CURRENT),
        report: report(),
        summary: summary({ margin: 0.2, review_revision_max: 2 }),
      },
    );
    const lines = section(renderMarkdown({ ...acceptReport(), since_last_run: since }));
    expect(lines[1]).toBe(
      "<summary><b>What changed since the last run</b> — verdict unresolved as before; Δ̂ -30.00 pp; 1 label changed; same inputs</summary>",
    );
    expect(lines).toContain(
      "_The previous run's inputs could not be read (the results at 0123abc are not tracked): the flipped tasks and the margin's movers are not shown; the figures and the labels are._",
    );
    expect(lines).toContain(
      "<summary>1 label changed (label events above the previous run's highest review revision)</summary>",
    );
    expect(lines.join("\n")).not.toContain("flipped</summary>");
  });

  it("escapes every task id, model name and reason; the layout stays that of the benign report", () => {
    const benign = exampleReport();
    const hostile = hostileReport(benign);
    const md = section(renderMarkdown(hostile)).join("\n");
    expect(md.split("\n").length).toBe(section(renderMarkdown(benign)).length);
    expect(md.replace(/<\/?(?:details|summary|b|code|wbr)>/g, "")).not.toContain("<");
    expect(md).not.toContain("@");
    expect(md).not.toMatch(/^\s*::/m);
    expect(md).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B-\u200F\u2060\uFEFF]/u);
    const text = renderText(hostile);
    expect(text).not.toMatch(/^::/m);
    expect(text).not.toContain("\u001b");
  });
});

describe("What changed since the last run, in text", () => {
  it("renders the worked example", () => {
    const text = renderText(exampleReport()).split("\n");
    const at = text.findIndex((l) => l.startsWith("What changed since the last run"));
    expect(text.slice(at, at + 21)).toEqual([
      "What changed since the last run: verdict unresolved → accept; Δ̂ -13.33 pp; 3 tasks flipped; 1 label changed; changed: results, reviews",
      "  Compared with the previous run at commit 0123456789ab (verdict unresolved).",
      "  Δ̂ (margin): +33.33 pp → +20.00 pp (-13.33 pp)",
      "  LCB: -10.00 pp → +5.00 pp (+15.00 pp)",
      "  UCB: +70.00 pp → +35.00 pp (-35.00 pp)",
      "  Δ_L (validity low): +25.00 pp → +20.00 pp (-5.00 pp)",
      "  Δ_H (validity high): +50.00 pp → +20.00 pp (-30.00 pp)",
      "  candidate cand: 1 pass → fail, 1 fail → pass",
      "    pass → fail t1: 100% → 0%",
      "    fail → pass t2: 0% → 100%",
      "  baseline base: 1 pass → fail, 0 fail → pass",
      "    pass → fail t3: 100% → 0%",
      "  Labels changed: 1",
      "    t4: disputed → valid (r2)",
      "  Moved the margin most (4 tasks moved it):",
      "    t1: -33.333 pp",
      "    t2: +20.000 pp",
      "    t3: +20.000 pp",
      "    t4: -20.000 pp",
      "",
      text[at + 20],
    ]);
  });
});

describe("the action's on-change digest", () => {
  it("leaves since_last_run out: a re-run of the same inputs does not post again", () => {
    const r: Report = acceptReport();
    expect(reportDigest(exampleReport())).toBe(reportDigest(r));
    expect(reportDigest({ ...r, verdict: "reject" })).not.toBe(reportDigest(r));
  });
});

describe("What changed since the last run, under GitHub's size limit", () => {
  it("is trimmed to 5 and then 0 rows a list with the counts kept, and the comment stays within maxLength", () => {
    const ids = Array.from({ length: 150 }, (_, k) => `t${String(k).padStart(3, "0")}`);
    const since = changesSinceLastRun(
      {
        summary: summary(),
        dataset: dataset(ids.map((id) => ({ id, a: "fail", b: "fail" }))),
        unavailable: null,
      },
      {
        dataset: dataset(ids.map((id) => ({ id, a: "pass", b: "fail" }))),
        report: report(),
        summary: summary(),
      },
    );
    const r: Report = { ...acceptReport(), since_last_run: since };
    const full = renderMarkdown(r);
    const rows = (md: string): number => section(md).filter((l) => l.startsWith("| <code>t")).length;
    expect(rows(full)).toBe(20);
    const seen: number[] = [];
    for (let max = full.length - 1; max >= 3000; max -= 500) {
      const md = renderMarkdown(r, { maxLength: max });
      expect(md.length).toBeLessThanOrEqual(max);
      if (!md.includes("<b>What changed since the last run</b>")) continue;
      expect(md).toContain("150 tasks flipped");
      seen.push(rows(md));
    }
    // Each list shrinks from 10 rows to 5, then to none, never growing as the limit falls.
    expect([...new Set(seen)]).toEqual([20, 10, 0]);
  });
});
