/** A report over several benchmarks in every format (render-benchmarks.ts, docs/spec.md §4.6). */
import { describe, expect, test } from "vitest";

import { runGate } from "../../src/core/gate.js";
import { renderEvaluateHtml } from "../../src/core/report/html/render-evaluate-html.js";
import { jsonChunks } from "../../src/core/report/report-json.js";
import { renderMarkdown } from "../../src/core/report/render-markdown.js";
import { renderText } from "../../src/core/report/render-text.js";
import { SCHEMA_VERSION } from "../../src/core/report/report-types.js";
import { checkRunTitle } from "../../src/core/report/verdict-text.js";
import { ACCEPTS, benchmarks, gatePolicy, OPTIONS, REJECTS, WEAK_HARM } from "../decision/benchmark-data.js";

const HOSTILE = "</details><script>x</script>|@everyone\u202e";

const report = runGate(
  benchmarks({ "swe-verified": ACCEPTS, "private-canary": WEAK_HARM }),
  gatePolicy(`benchmarks:\n  private-canary:\n    canary: true\n  extra:\n    required: true\n`),
  OPTIONS,
);

describe("several benchmarks: lines first, then the overall verdict, then each section", () => {
  test("Markdown: one table row per benchmark by name, the overall headline, a collapsed section each", () => {
    const md = renderMarkdown(report, { marker: true });
    const lines = md.split("\n");
    expect(lines.slice(0, 8)).toStrictEqual([
      "<!-- model-acceptance-gate:report -->",
      "",
      "| Benchmark | Verdict | Margin | LCB … UCB | Common valid tasks |",
      "|:--|:--|--:|:--|--:|",
      "| <code>extra</code> · not in the export | ⚠️&nbsp;unresolved | n/a | n/a … n/a | 0 |",
      "| <code>private\\-canary</code> · canary | ❌&nbsp;reject | -3.93&nbsp;pp | -7.80&nbsp;pp … -0.06&nbsp;pp | 229 |",
      "| <code>swe\\-verified</code> | ✅&nbsp;accept | +5.77&nbsp;pp | +1.17&nbsp;pp … +9.44&nbsp;pp | 520 |",
      "",
    ]);
    expect(lines[8]).toBe("## ⚠️ unresolved — candidate cfg\\-candidate over baseline cfg\\-baseline");
    expect(md).toContain("an intersection–union test, so no adjustment for several benchmarks is needed");
    const summaries = lines.filter((l) => l.startsWith("<summary><b>Benchmark "));
    expect(summaries).toStrictEqual([
      "<summary><b>Benchmark <code>extra</code></b> — ⚠️ unresolved</summary>",
      "<summary><b>Benchmark <code>private-canary</code></b> — ❌ reject</summary>",
      "<summary><b>Benchmark <code>swe-verified</code></b> — ✅ accept</summary>",
    ]);
    // Each section is that benchmark's own report.
    const own = renderMarkdown(report.benchmarks?.[2]?.report ?? report).trimEnd();
    expect(md).toContain(own);
  });

  test("Markdown fits a length limit, every benchmark still named", () => {
    const md = renderMarkdown(report, { maxLength: 12000 });
    expect(md.length).toBeLessThanOrEqual(12000);
    for (const name of ["extra", "private-canary", "swe-verified"])
      expect(md).toContain(`<b>Benchmark <code>${name}</code></b>`);
  });

  test("text: the lines, the overall verdict, each benchmark's text", () => {
    const text = renderText(report);
    expect(text.split("\n").slice(0, 6)).toStrictEqual([
      "Benchmarks",
      "  extra (not in the export)  UNRESOLVED  margin n/a  bounds n/a … n/a  0 common valid tasks",
      "  private-canary (canary)    REJECT      margin -3.93 pp  bounds -7.80 pp … -0.06 pp  229 common valid tasks",
      "  swe-verified               ACCEPT      margin +5.77 pp  bounds +1.17 pp … +9.44 pp  520 common valid tasks",
      "",
      "UNRESOLVED overall — candidate cfg-candidate over baseline cfg-baseline",
    ]);
    expect(text).toContain("=== Benchmark swe-verified: ACCEPT ===\n\nACCEPT — candidate");
  });

  test("HTML: the table, the overall verdict, a section per benchmark", () => {
    const html = renderEvaluateHtml(report);
    expect(html.indexOf("<th>Benchmark</th>")).toBeLessThan(html.indexOf("overall — candidate"));
    expect(html.match(/<section><h2>Benchmark /g)).toHaveLength(3);
  });

  test("JSON: benchmarks by name with the listed keys; the top-level verdict is the overall one", () => {
    const json = JSON.parse([...jsonChunks(report)].join("")) as Record<string, unknown>;
    expect(json["schema_version"]).toBe(SCHEMA_VERSION);
    expect(json["verdict"]).toBe("unresolved");
    const list = json["benchmarks"] as Record<string, unknown>[];
    expect(list.map((b) => b["name"])).toStrictEqual(["extra", "private-canary", "swe-verified"]);
    expect(Object.keys(list[1] ?? {})).toStrictEqual([
      "name",
      "verdict",
      "required",
      "canary",
      "margin",
      "margin_low",
      "margin_high",
      "lcb",
      "ucb",
      "common_valid_tasks",
      "checks",
      "holm",
      "report",
    ]);
    expect(list.map((b) => b["verdict"])).toStrictEqual(["unresolved", "reject", "accept"]);
  });

  test("the check run's title counts benchmarks in generated words", () => {
    expect(checkRunTitle(report)).toBe("Unresolved: 2 of 3 required benchmarks do not accept");
    const rejected = runGate(benchmarks({ a: ACCEPTS, b: REJECTS }), gatePolicy(), OPTIONS);
    expect(checkRunTitle(rejected)).toBe("Reject: shown worse on 1 of 2 benchmarks after Holm's adjustment");
    const accepted = runGate(benchmarks({ a: ACCEPTS, b: ACCEPTS }), gatePolicy(), OPTIONS);
    expect(checkRunTitle(accepted)).toBe("Accept: all 2 required benchmarks accept (2 benchmarks in all)");
  });
});

describe("a hostile benchmark name is escaped everywhere", () => {
  const hostile = runGate(benchmarks({ [HOSTILE]: ACCEPTS, ok: ACCEPTS }), gatePolicy(), OPTIONS);
  test("Markdown, HTML and text carry no live markup, pipe or control character from it", () => {
    const md = renderMarkdown(hostile);
    expect(md).not.toContain("<script>");
    expect(md).not.toContain("</details><script");
    expect(md).not.toContain("\u202e");
    expect(md).not.toMatch(/[^\\]\|@everyone/);
    const html = renderEvaluateHtml(hostile);
    expect(html).not.toContain("<script>");
    const text = renderText(hostile);
    expect(text).not.toContain("\u202e");
  });
});
