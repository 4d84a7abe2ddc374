/**
 * The new importers on the whole real tool outputs: their imports are committed under
 * test/fixtures/tool-imports (scripts/test-fixtures.mjs made them from the workspace copy of the tool outputs
 * and `--check` proves in CI that the importers still make exactly these bytes there). Here: each
 * import's counts equal the counts the outputs' SOURCES.md states, and rank and evaluate on them
 * report figures recounted from the rows. tool-outputs.test.ts runs the importers themselves on
 * small committed cuts of the same files.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RankReport } from "../../src/core/rank/rank-types.js";
import { toolImport, toolImportRows } from "../helpers/real-data.js";
import { cliInProcess } from "../helpers/run-cli.js";
import { countsOf } from "./tool-outputs.js";

const OPUS = "20250906_orchestrator_claude-4.1-opus";
const SONNET = "20250902_orchestrator_claude-4-sonnet";
const QWEN = "20250902_orchestrator_qwen-3-coder-480B";
const TB = [OPUS, SONNET, QWEN];

/** Fixture name → model config → the counts SOURCES.md states ("My counts"). */
const PINNED: Record<string, Record<string, { pass: number; fail: number; infra_error: number }>> = {
  [`terminal-bench-${OPUS}`]: { [OPUS]: { pass: 159, fail: 223, infra_error: 18 } },
  [`terminal-bench-${SONNET}`]: { [SONNET]: { pass: 144, fail: 227, infra_error: 29 } },
  [`terminal-bench-${QWEN}`]: { [QWEN]: { pass: 77, fail: 281, infra_error: 42 } },
  "promptfoo-offline-arith": {
    "file://providers/arith-good.js": { pass: 10, fail: 0, infra_error: 0 },
    "file://providers/arith-flaky.js": { pass: 2, fail: 4, infra_error: 4 },
    echo: { pass: 0, fail: 10, infra_error: 0 },
  },
  "lm-eval-math-perturbed": {
    "RylanSchaeffer/mem_Qwen3-93M_minerva_math_rep_0_sbst_1.0000_epch_1_ot_1": {
      pass: 0,
      fail: 10,
      infra_error: 0,
    },
  },
  "inspect-arc_easy_ollama-qwen2.5-0.5b": { "*": { pass: 1, fail: 2, infra_error: 0 } },
  "inspect-arc_easy_claude-sonnet-4-0": { "*": { pass: 5, fail: 0, infra_error: 0 } },
  "inspect-cvebench_claude-opus-4-6_sample-error_excerpt": { "*": { pass: 0, fail: 0, infra_error: 1 } },
  "inspect-popularity_openai-gpt-4o-mini": { "*": { pass: 8, fail: 2, infra_error: 0 } },
};

describe("tool outputs (whole real files, imported): counts equal SOURCES.md", () => {
  it.each(Object.keys(PINNED).map((n) => [n]))("%s", (name) => {
    const counts = countsOf(toolImportRows(name).map((r) => JSON.stringify(r)));
    const want = PINNED[name] ?? {};
    if ("*" in want) {
      // Inspect and lm-eval name the model from the log: one config, whatever its name.
      expect([...counts.values()]).toEqual([want["*"]]);
    } else {
      expect(counts).toEqual(new Map(Object.entries(want)));
    }
  });
});

describe("tool outputs (whole real files, imported): rank and evaluate", () => {
  const out = mkdtempSync(join(tmpdir(), "tool-imports-gate-"));
  const rows = TB.map((run) => toolImportRows(`terminal-bench-${run}`));
  const revision = String(rows[0]?.[0]?.["dataset_revision"]);
  const ids = [...new Set(rows.flat().map((r) => String(r["task_id"])))].sort();
  const reviews = join(out, "reviews.jsonl");
  writeFileSync(
    reviews,
    ids
      .map((id) =>
        JSON.stringify({ task_id: id, dataset_revision: revision, validity: "valid", review_revision: 1 }),
      )
      .join("\n") + "\n",
  );
  const policy = join(out, "policy.yaml");
  writeFileSync(
    policy,
    readFileSync(new URL("../../policy.example.yaml", import.meta.url), "utf8")
      .replace('common_valid_tasks: ">= 500"', 'common_valid_tasks: ">= 50"')
      .replace('infra_error_rate: "< 1%"', 'infra_error_rate: "< 50%"'),
  );
  const gate = (argv: readonly string[]) =>
    cliInProcess(
      [...argv, "--reviews", reviews, "--policy", policy, "--format", "json", "--today", "2026-11-29"],
      out,
    );

  it("rank on the three Terminal-Bench runs: common tasks and scores recounted from the rows", async () => {
    const r = await gate(["rank", "--results", ...TB.map((run) => toolImport(`terminal-bench-${run}`))]);
    expect(r.stderr).toBe("");
    const report = JSON.parse(r.stdout) as RankReport;
    // infra_errors: exclude: a task's score is passes / (passes + fails); the common set is the
    // tasks where every model has one such attempt.
    const perTask = rows.map((list) => {
      const m = new Map<string, [number, number]>();
      for (const row of list) {
        if (row["result"] !== "pass" && row["result"] !== "fail") continue;
        const id = String(row["task_id"]);
        const [p, n] = m.get(id) ?? [0, 0];
        m.set(id, [p + (row["result"] === "pass" ? 1 : 0), n + 1]);
      }
      return m;
    });
    const common = ids.filter((id) => perTask.every((m) => m.has(id)));
    expect(common.length).toBeGreaterThan(70);
    expect(report.common_tasks).toBe(common.length);
    expect(report.common_valid_tasks).toBe(common.length);
    TB.forEach((run, k) => {
      const scores = common.map((id) => {
        const [p, n] = perTask[k]?.get(id) ?? [0, 1];
        return p / n;
      });
      const model = report.models.find((m) => m.model === run);
      expect(model?.score).toBeCloseTo(scores.reduce((a, b) => a + b, 0) / scores.length, 12);
    });
  });

  it("evaluate Opus against Sonnet: the counts and the margin the public runs give", async () => {
    const r = await gate([
      "evaluate",
      "--results",
      toolImport(`terminal-bench-${OPUS}`),
      toolImport(`terminal-bench-${SONNET}`),
      "--baseline",
      SONNET,
      "--candidate",
      OPUS,
    ]);
    expect(r.stderr).toBe("");
    const report = JSON.parse(r.stdout) as {
      models: Record<string, Record<string, unknown>>;
      comparison: Record<string, unknown>;
    };
    expect(report.models["baseline"]).toMatchObject({
      config: SONNET,
      passes: 144,
      fails: 227,
      infra_errors: 29,
    });
    expect(report.models["candidate"]).toMatchObject({
      config: OPUS,
      passes: 159,
      fails: 223,
      infra_errors: 18,
    });
    // Lost trials dropped (infra_errors: exclude): 79 common tasks (one task every Sonnet trial
    // of which was lost leaves), Δ̂ = +2.1308 pp, LCB −2.3319 pp at 95%, one-sided t on 78 df.
    const d = ids.flatMap((id) => {
      const score = (list: Record<string, unknown>[]) => {
        const own = list.filter((row) => row["task_id"] === id && row["result"] !== "infra_error");
        return own.length === 0 ? null : own.filter((row) => row["result"] === "pass").length / own.length;
      };
      const c = score(rows[0] ?? []);
      const b = score(rows[1] ?? []);
      return c === null || b === null ? [] : [c - b];
    });
    expect(report.comparison["common_tasks"]).toBe(79);
    expect(d).toHaveLength(79);
    expect(report.comparison["margin"]).toBeCloseTo(d.reduce((a, b) => a + b, 0) / d.length, 14);
    expect(report.comparison["margin"]).toBeCloseTo(0.021308016877637, 14);
    expect(report.comparison["lcb"]).toBeCloseTo(-0.023319337497063, 14);
  });
});
