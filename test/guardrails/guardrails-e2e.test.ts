/**
 * Guardrails end to end (docs/spec.md §4.5): an export whose rows carry `metrics` (per attempt,
 * and again pre-aggregated with `metrics_sum` / `metrics_n`), read by the real reader, through the
 * CLI in every format and through the bundled action against the fake GitHub (summary, check run
 * title, the `guardrails` step output).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

import type { Report } from "../../src/core/report/report-types.js";
import { BASELINE, CANDIDATE, CLEAR_ACCEPT_ROWS, policyYaml } from "../action/exports.js";
import {
  BASE_SHA,
  gateInputs,
  POLICY_PATH,
  RESULTS_PATH,
  runDist,
  useFakeGitHub,
} from "../action/run-action.js";
import { cliInProcess } from "../helpers/run-cli.js";

const GUARDED = `${policyYaml()}guardrails:\n  cost_usd: { max_increase: "10%" }\n  latency_s: { max_increase: "25%" }\n`;

type Case = "dearer" | "cheaper" | "noisy" | "missing" | "zero";

/** Integer costs in micro-dollars and latencies, so sums are exact whatever the order; null: no cost. */
function costs(i: number, c: Case = "dearer"): { base: number; cand: number | null; latency: number } {
  const base = 1000 + ((i * 7919) % 5000);
  const latency = 30 + (i % 11);
  if (c === "cheaper") return { base, cand: Math.round(base * 0.8) + (i % 7) * 10, latency };
  // Noisy: 1.1 × the baseline's, times a factor from 0.2 to 1.8 (mean 1) that no task pattern explains.
  if (c === "noisy") return { base, cand: Math.round(base * 1.1 * (0.2 + ((i * 37) % 17) / 10)), latency };
  if (c === "missing") return { base, cand: i % 10 === 3 ? null : base, latency };
  if (c === "zero") return { base: 0, cand: base, latency };
  return { base, cand: Math.round(base * 1.5) + (i % 7) * 10, latency };
}

/** CLEAR_ACCEPT_ROWS (accuracy accepts) with two attempts a task, each carrying metrics. */
function exportText(aggregated: boolean, scenario: Case = "dearer"): string {
  const lines: string[] = [];
  CLEAR_ACCEPT_ROWS.forEach((t, i) => {
    const c = costs(i, scenario);
    for (const [model, result, cost] of [
      [CANDIDATE, t.a, c.cand],
      [BASELINE, t.b, c.base],
    ] as const) {
      const key = {
        task_id: t.id,
        dataset_revision: "sha256:0001",
        harness_revision: "git:1111111",
        model_config: model,
      };
      const metrics = cost === null ? { latency_s: c.latency } : { cost_usd: cost, latency_s: c.latency };
      if (aggregated) {
        lines.push(
          JSON.stringify({
            ...key,
            validity: t.validity,
            review_revision: 1,
            passes: result === "pass" ? 2 : 0,
            fails: result === "fail" ? 2 : 0,
            infra_errors: 0,
            missing: 0,
            metrics_sum: { cost_usd: 2 * (cost ?? 0), latency_s: 2 * c.latency },
            metrics_n: { cost_usd: cost === null ? 0 : 2, latency_s: 2 },
          }),
        );
        continue;
      }
      for (const attempt of [1, 2]) {
        lines.push(
          JSON.stringify({ ...key, validity: t.validity, review_revision: 1, attempt, result, metrics }),
        );
      }
    }
  });
  return lines.join("\n") + "\n";
}

function workspace(
  aggregated: boolean,
  policy: string,
  scenario: Case = "dearer",
): { dir: string; args: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "gate-guardrails-"));
  writeFileSync(join(dir, "results.jsonl"), exportText(aggregated, scenario));
  writeFileSync(join(dir, "policy.yaml"), policy);
  const args = ["evaluate", "--results", "results.jsonl", "--policy", "policy.yaml"];
  return { dir, args: [...args, "--baseline", BASELINE, "--candidate", CANDIDATE, "--today", "2026-11-29"] };
}

/** Each case: the verdict, cost_usd's verdict, and what every format shows of it. */
const CASES: readonly [Case, string, string, RegExp][] = [
  ["dearer", "reject", "fail", /cost\\?_usd.*fails/],
  ["cheaper", "accept", "pass", /cost\\?_usd/],
  ["noisy", "unresolved", "unresolved", /straddle the limit/],
  [
    "missing",
    "unresolved",
    "unresolved",
    /lacks the metric on 10% of the common tasks \(first: a-only-00003, a-only-00013, both-00003\)/,
  ],
  ["zero", "unresolved", "unresolved", /the baseline.{1,6}s mean is 0/],
];

describe("the CLI on an export with metrics", () => {
  it("rejects a dearer candidate by its guardrail alone, in every format, and pre-aggregated rows agree", async () => {
    const { dir, args } = workspace(false, GUARDED);
    const json = await cliInProcess([...args, "--format", "json"], dir);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as Report;
    expect(report.verdict).toBe("reject");
    expect(report.accuracy_verdict).toBe("accept");
    expect(report.guardrails?.map((g) => [g.metric, g.verdict, g.tasks, g.missing_fraction])).toStrictEqual([
      ["cost_usd", "fail", 60, 0],
      ["latency_s", "pass", 60, 0],
    ]);
    let a = 0;
    let b = 0;
    for (let i = 0; i < 60; i++) {
      a += costs(i).base;
      b += costs(i).cand ?? 0;
    }
    expect(report.guardrails?.[0]?.baseline_mean).toBe(a / 60);
    expect(report.guardrails?.[0]?.candidate_mean).toBe(b / 60);
    expect(report.guardrails?.[0]?.ratio).toBe(b / 60 / (a / 60));
    expect(report.guardrails?.[1]?.ratio).toBe(1);

    const md = await cliInProcess([...args, "--format", "markdown"], dir);
    expect(md.stdout).toContain("**Guardrails**");
    expect(md.stdout).toContain("| ❌&nbsp;fail | <code>cost\\_usd</code>");
    const text = await cliInProcess([...args, "--format", "text"], dir);
    expect(text.stdout).toContain("Guardrails\n  FAIL       cost_usd: R ");
    const html = await cliInProcess([...args, "--format", "html"], dir);
    expect(html.code).toBe(1);
    expect(html.stdout).toContain("cost_usd");

    const agg = workspace(true, GUARDED);
    const aggregated = JSON.parse(
      (await cliInProcess([...agg.args, "--format", "json"], agg.dir)).stdout,
    ) as Report;
    expect(aggregated.guardrails).toStrictEqual(report.guardrails);
    expect(aggregated.verdict).toBe("reject");
  });

  it.each(CASES)(
    "%s: %s, cost_usd %s, in JSON, Markdown, text and HTML",
    async (scenario, verdict, cost, words) => {
      const { dir, args } = workspace(false, GUARDED, scenario);
      const report = JSON.parse((await cliInProcess([...args, "--format", "json"], dir)).stdout) as Report;
      expect(report.verdict).toBe(verdict);
      expect(report.accuracy_verdict).toBe("accept");
      expect(report.guardrails?.[0]?.verdict).toBe(cost);
      if (scenario === "zero") expect(report.guardrails?.[0]?.ratio).toBeNull();
      for (const format of ["markdown", "text", "html"]) {
        const out = await cliInProcess([...args, "--format", format], dir);
        expect(out.code).toBe(verdict === "accept" ? 0 : verdict === "reject" ? 1 : 2);
        expect(out.stdout).toMatch(/Guardrails/);
        // Escapes and line wraps aside.
        if (verdict !== "accept") expect(out.stdout.replace(/\\/g, "").replace(/\s+/g, " ")).toMatch(words);
      }
    },
  );

  it("without guardrails in the policy: accuracy's accept, the figures collapsed", async () => {
    const { dir, args } = workspace(false, policyYaml());
    const md = await cliInProcess([...args, "--format", "markdown"], dir);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain(
      "<summary>Cost and latency figures (no guardrails in the policy): 2 metrics</summary>",
    );
  });
});

describe("the action on an export with metrics", () => {
  const fakes = useFakeGitHub();

  it("rejects by the guardrail: the summary's section, the check run's title and the guardrails output", async () => {
    const f = await fakes.start();
    f.setFile(BASE_SHA, POLICY_PATH, GUARDED);
    f.setCommits(BASE_SHA, POLICY_PATH, ["9".repeat(40)]);
    const r = await runDist({
      fake: f,
      event: "pull_request",
      inputs: gateInputs(),
      files: { [RESULTS_PATH]: exportText(false), [POLICY_PATH]: GUARDED },
    });
    expect(r.outputs["verdict"]).toBe("reject");
    const report = JSON.parse(readFileSync(r.outputs["report-path"] ?? "", "utf8")) as Report;
    expect(JSON.parse(r.outputs["guardrails"] ?? "")).toStrictEqual(report.guardrails);
    expect(r.summary).toContain("**Guardrails**");
    expect(f.checkRuns[0]?.output.title).toMatch(/^Reject: guardrail cost_usd fails; margin \+/);
  });

  it.each(CASES)(
    "%s: %s, cost_usd %s, in the outputs and the summary",
    async (scenario, verdict, cost, words) => {
      const f = await fakes.start();
      f.setFile(BASE_SHA, POLICY_PATH, GUARDED);
      f.setCommits(BASE_SHA, POLICY_PATH, ["9".repeat(40)]);
      const r = await runDist({
        fake: f,
        event: "pull_request",
        inputs: gateInputs(),
        files: { [RESULTS_PATH]: exportText(false, scenario), [POLICY_PATH]: GUARDED },
      });
      expect(r.outputs["verdict"]).toBe(verdict);
      const out = JSON.parse(r.outputs["guardrails"] ?? "") as Report["guardrails"];
      expect(out?.map((g) => g.verdict)).toStrictEqual([cost, "pass"]);
      expect(r.summary).toContain("**Guardrails**");
      if (verdict !== "accept") expect(r.summary.replace(/\\/g, "").replace(/\s+/g, " ")).toMatch(words);
    },
  );
});
