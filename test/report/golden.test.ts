/**
 * Golden files: the Markdown of each fixture, byte for byte. `UPDATE_GOLDEN=1 npx vitest run
 * test/report` rewrites them; review the diff before committing.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { renderMarkdown, type RenderMarkdownOptions } from "../../src/core/report/render-markdown.js";
import type { Report } from "../../src/core/report/report-types.js";
import { acceptReport, emptyReport, hostileReport, rejectReport, unresolvedReport } from "./fixtures.js";
import { demoReport, terminalBenchReport } from "./pages.js";
import { exampleReport } from "../run-history/since-fixture.js";
import { threeGuardrailsReport } from "../guardrails/guardrail-fixtures.js";

const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "golden");
const UPDATE = process.env["UPDATE_GOLDEN"] === "1";

const CASES: readonly {
  name: string;
  report: () => Report | Promise<Report>;
  options: RenderMarkdownOptions;
}[] = [
  // What `npm run demo` prints, as the sticky comment.
  { name: "demo", report: demoReport, options: { marker: true } },
  { name: "accept", report: acceptReport, options: { marker: true } },
  // Real infra errors read three ways, with verdicts that differ (the headline says so).
  { name: "terminal-bench-readings", report: terminalBenchReport, options: { marker: true } },
  { name: "reject", report: rejectReport, options: { marker: true } },
  { name: "unresolved", report: unresolvedReport, options: { marker: true, title: "SWE-Bench Pro gate" } },
  { name: "empty", report: emptyReport, options: {} },
  {
    name: "hostile",
    report: () => hostileReport(),
    options: { marker: true, title: "@org/team #1 <b>x</b>" },
  },
  { name: "accept-trimmed", report: acceptReport, options: { marker: true, maxLength: 4000 } },
  // The accept fixture made hostile: its influential-tasks table holds long hostile task ids.
  { name: "hostile-accept", report: () => hostileReport(acceptReport()), options: { marker: true } },
  // What changed since the last run (docs/spec.md §3.7's worked example), benign and hostile.
  { name: "since-last-run", report: exampleReport, options: { marker: true } },
  // On the unresolved fixture, as "hostile" (the accept fixture made hostile is "hostile-accept").
  {
    name: "since-last-run-hostile",
    report: () => hostileReport({ ...unresolvedReport(), since_last_run: exampleReport().since_last_run }),
    options: { marker: true },
  },
  // Guardrails (docs/spec.md §4.5): one fails, one is unresolved for a missing metric, one passes.
  { name: "guardrails", report: threeGuardrailsReport, options: { marker: true } },
];

describe("golden Markdown", () => {
  for (const c of CASES) {
    it(`${c.name}.md`, async () => {
      const file = join(GOLDEN_DIR, `${c.name}.md`);
      const actual = renderMarkdown(await c.report(), c.options);
      if (UPDATE || !existsSync(file)) {
        mkdirSync(GOLDEN_DIR, { recursive: true });
        writeFileSync(file, actual, "utf8");
        if (!UPDATE) throw new Error(`${file} was missing and has been written; rerun to compare.`);
      }
      expect(actual).toBe(readFileSync(file, "utf8"));
    });
  }
});
