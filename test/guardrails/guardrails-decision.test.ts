/**
 * Guardrails decide beside accuracy (docs/spec.md §4.5), on constructed exports: SPEC example 5's
 * tasks (accuracy alone accepts) with a cost per attempt. Each case through runGate and every
 * rendering: the JSON's entry, the Markdown and text sections, the check run's title.
 */
import { describe, expect, test } from "vitest";

import { renderEvaluateHtml } from "../../src/core/report/html/render-evaluate-html.js";
import { renderMarkdown } from "../../src/core/report/render-markdown.js";
import { renderText } from "../../src/core/report/render-text.js";
import { checkRunTitle } from "../../src/core/report/verdict-text.js";
import { buildDataset, buildPolicy, SPEC_EXAMPLE_5 } from "../stats/dataset-builder.js";
import {
  EXAMPLE_5_POLICY,
  gateReport,
  guardrail,
  scenarioCosts,
  scenarioDataset,
  scenarioReport,
} from "./guardrail-fixtures.js";

const TASKS = 540;

function mean(values: readonly (number | null)[]): number {
  let s = 0;
  let n = 0;
  for (const v of values) {
    if (v === null) continue;
    s += v;
    n++;
  }
  return s / n;
}

describe("the verdict with a guardrail cost_usd: { max_increase: 10% }", () => {
  test("accuracy alone accepts these tasks", () => {
    expect(gateReport(scenarioDataset(null), EXAMPLE_5_POLICY).verdict).toBe("accept");
  });

  test("a clearly dearer candidate is rejected by the guardrail alone", () => {
    const r = scenarioReport("dearer");
    expect(r.verdict).toBe("reject");
    expect(r.accuracy_verdict).toBe("accept");
    const g = r.guardrails?.[0];
    const { a, b } = scenarioCosts("dearer", TASKS);
    expect(g).toMatchObject({
      metric: "cost_usd",
      limit: 1.1,
      missing_fraction: 0,
      tasks: TASKS,
      verdict: "fail",
    });
    expect(g?.baseline_mean).toBe(mean(a));
    expect(g?.candidate_mean).toBe(mean(b));
    expect(g?.ratio).toBe(mean(b) / mean(a));
    expect(g?.ratio_low).toBeGreaterThan(1.1);
    expect(r.reasons.at(-1)).toMatch(
      /^Guardrail cost_usd fails: the candidate's mean per task is R = 1\.\d{3}×/,
    );
    expect(checkRunTitle(r)).toBe("Reject: guardrail cost_usd fails; margin +5.77 pp");
    const md = renderMarkdown(r);
    expect(md).toContain("The candidate fails the guardrail <code>cost\\_usd</code>");
    expect(md).toMatch(
      /\| ❌&nbsp;fail \| <code>cost\\_usd<\/code> \| 0\.04184 \| 0\.06162 \| 1\.473× \| 1\.436× … 1\.511× \| ≤&nbsp;1\.100× \| 0\.00% \|/,
    );
    // The guardrails come right after the verdict's sentence, before the checks.
    expect(md.indexOf("**Guardrails**")).toBeLessThan(md.indexOf("| Result | Check |"));
    expect(md).not.toContain("production canary");
    const text = renderText(r);
    expect(text).toContain("  FAIL       cost_usd: R 1.473× (1.436× … 1.511×), needs ≤ 1.100×\n");
    const html = renderEvaluateHtml(r);
    // Right after the verdict's sentence: the chart of R against 1 and the limit, then the table.
    expect(html.indexOf("<h2>Guardrails</h2>")).toBeLessThan(html.indexOf("<h2>Margin</h2>"));
    expect(html).toContain('<svg xmlns="http://www.w3.org/2000/svg" class="guardrail-chart"');
    expect(html).toContain(
      '<title id="guardrail-chart-title">cost_usd: R 1.473×, bounds 1.436× to 1.511×, limit 1.100×</title>',
    );
    expect(html).toContain('<line class="limit"');
    expect(html).toContain("<td>❌\u00a0fail</td>");
  });

  test("a clearly cheaper candidate passes, and the accept stands", () => {
    const r = scenarioReport("cheaper");
    expect(r.verdict).toBe("accept");
    expect(r.accuracy_verdict).toBe("accept");
    expect(r.guardrails?.[0]).toMatchObject({ verdict: "pass", tasks: TASKS });
    expect(r.guardrails?.[0]?.ratio_high).toBeLessThan(1.1);
    expect(renderMarkdown(r)).toContain("| ✅&nbsp;pass | <code>cost\\_usd</code>");
    expect(renderText(r)).toContain("  PASS       cost_usd: R 0.786×");
  });

  test("a noisy candidate is unresolved: R's bounds straddle the limit", () => {
    const r = scenarioReport("noisy");
    expect(r.verdict).toBe("unresolved");
    const g = r.guardrails?.[0];
    expect(g?.verdict).toBe("unresolved");
    expect(g?.ratio_low).toBeLessThan(1.1);
    expect(g?.ratio_high).toBeGreaterThan(1.1);
    expect(r.reasons.at(-1)).toMatch(
      /^Guardrail cost_usd is unresolved: R = 0\.936×, bounds 0\.748× … 1\.136× straddle the limit 1\.100×/,
    );
    expect(checkRunTitle(r)).toBe(
      "Unresolved: every check passes; margin +5.77 pp, bounds +1.17 pp … +9.44 pp vs δ₀ 0.00 pp; guardrail cost_usd unresolved",
    );
    expect(renderMarkdown(r)).toContain("but the guardrail <code>cost\\_usd</code> cannot be shown to hold");
    expect(renderText(r)).toContain("- Guardrail cost_usd is unresolved: R = 0.936×");
  });

  test("a metric missing on more of the common tasks than the policy allows is unresolved and says so", () => {
    const r = scenarioReport("missing");
    expect(r.verdict).toBe("unresolved");
    expect(r.guardrails?.[0]).toMatchObject({ verdict: "unresolved", missing_fraction: 0.1, tasks: 486 });
    expect(r.reasons.at(-1)).toBe(
      "Guardrail cost_usd is unresolved: either model lacks the metric on 10% of the common tasks (first: t00003, t00013, t00023), not < 1% as the policy asks; a guardrail that cannot be measured never passes.",
    );
    expect(renderMarkdown(r)).toContain("either model lacks the metric on 10% of the common tasks");
    // With a missing share the policy allows, the same export is measured over the 486 tasks.
    expect(scenarioReport("missing", "< 15%").guardrails?.[0]).toMatchObject({ tasks: 486, verdict: "pass" });
  });

  test("a zero baseline mean is unresolved, with ratio null", () => {
    const r = scenarioReport("zero");
    expect(r.verdict).toBe("unresolved");
    expect(r.guardrails?.[0]).toMatchObject({
      baseline_mean: 0,
      ratio: null,
      ratio_low: null,
      ratio_high: null,
      verdict: "unresolved",
    });
    expect(r.reasons.at(-1)).toMatch(/the baseline's mean is 0/);
  });

  test("a guardrail on a metric no attempt carries is unresolved (missing everywhere), never a silent pass", () => {
    const r = gateReport(scenarioDataset(null), {
      ...EXAMPLE_5_POLICY,
      guardrails: [guardrail("latency_s", "25%")],
    });
    expect(r.verdict).toBe("unresolved");
    expect(r.guardrails).toStrictEqual([
      {
        metric: "latency_s",
        baseline_mean: null,
        candidate_mean: null,
        ratio: null,
        ratio_low: null,
        ratio_high: null,
        limit: 1.25,
        missing_fraction: 1,
        tasks: 0,
        verdict: "unresolved",
      },
    ]);
  });

  test("accuracy's reject stands whatever the guardrails; a failing guardrail adds its reason", () => {
    const strict = {
      ...buildPolicy({ common_valid_tasks: ">= 500", disputed_fraction: "< 5%" }),
      accept_if: { ...EXAMPLE_5_POLICY.accept_if, delta0: 0.2 },
    };
    const r = gateReport(scenarioDataset("cheaper"), {
      ...strict,
      guardrails: [guardrail("cost_usd", "10%")],
    });
    expect(r.accuracy_verdict).toBe("reject");
    expect(r.verdict).toBe("reject");
    expect(r.guardrails?.[0]?.verdict).toBe("pass");
  });
});

describe("hostile task ids in a guardrail's reason", () => {
  test("are escaped in Markdown, HTML and text", () => {
    const hostile = "::error::pwned <img src=x onerror=alert(1)> **bold** | cell";
    const specs = SPEC_EXAMPLE_5.map((t, i) => (i === 0 ? { ...t, id: hostile } : t));
    const dataset = buildDataset(specs);
    const n = dataset.tasks.length;
    const at = Array.from({ length: n }, (_, i) => dataset.tasks.taskId(i)).indexOf(hostile);
    const column = (k: number) => ({
      sum: Float64Array.from({ length: n }, (_, i) => (i === at ? 0 : 1 + k + (i % 3))),
      count: Float64Array.from({ length: n }, (_, i) => (i === at ? 0 : 1)),
    });
    const r = gateReport(
      { ...dataset, metrics: { names: ["cost_usd"], baseline: [column(0)], candidate: [column(0)] } },
      { ...EXAMPLE_5_POLICY, guardrails: [guardrail("cost_usd", "10%", "< 0.1%")] },
    );
    expect(r.verdict).toBe("unresolved");
    expect(r.reasons.at(-1)).toContain(`(first: ${hostile})`);
    const md = renderMarkdown(r);
    expect(md).not.toContain("<img");
    expect(md).not.toContain("**bold**");
    expect(renderEvaluateHtml(r)).not.toContain("<img");
    expect(
      renderText(r)
        .split("\n")
        .some((l) => l.trimStart().startsWith("::")),
    ).toBe(false);
  });
});

describe("without guardrails in the policy", () => {
  test("an export with metrics shows the figures, collapsed, with no verdict; the verdict is accuracy's", () => {
    const r = gateReport(scenarioDataset("dearer"), EXAMPLE_5_POLICY);
    expect(r.verdict).toBe("accept");
    expect(r.accuracy_verdict).toBeUndefined();
    expect(r.guardrails?.[0]).toMatchObject({ metric: "cost_usd", limit: null, verdict: null, tasks: TASKS });
    const md = renderMarkdown(r);
    expect(md).toContain(
      "<summary>Cost and latency figures (no guardrails in the policy): 1 metric</summary>",
    );
    expect(md).not.toContain("**Guardrails**");
    expect(renderText(r)).toContain(
      "Cost and latency figures (no guardrails in the policy)\n  cost_usd: R 1.473×",
    );
  });

  test("an export without metrics gives a report without the key and without the section", () => {
    const r = gateReport(scenarioDataset(null), EXAMPLE_5_POLICY);
    expect("guardrails" in r).toBe(false);
    expect("accuracy_verdict" in r).toBe(false);
    expect(renderMarkdown(r)).not.toMatch(/guardrail|Cost and latency/i);
    expect(renderEvaluateHtml(r)).not.toMatch(/guardrail|Cost and latency/i);
  });
});
