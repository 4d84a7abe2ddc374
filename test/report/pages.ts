/**
 * Reports built from real inputs for the golden files and the browser test: the shipped demo
 * (examples/, exactly `npm run demo`) and real-data reports on `model-gate import`s of public
 * results (test/fixtures/real-data: two SWE-bench Verified leaderboard runs with OpenAI's Verified
 * annotations as reviews; two SWE-Bench Pro runs).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative, resolve } from "node:path";
import { runGate } from "../../src/core/gate.js";
import { readRunInputs } from "../../src/read/run-inputs.js";
import type { Report } from "../../src/core/report/report-types.js";
import { realData, REAL_DATA_DIR } from "../helpers/real-data.js";
import { cliInProcess } from "../helpers/run-cli.js";

export const REPO_ROOT = resolve(import.meta.dirname, "../..");

/** The report of `npm run demo`, with paths as the demo command names them. */
const at = (p: string) => resolve(REPO_ROOT, p);

export async function demoReport(): Promise<Report> {
  const policyPath = at("policy.example.yaml");
  const inputs = await readRunInputs({
    results: [at("examples/results.jsonl.gz")],
    reviews: [at("examples/reviews.jsonl")],
    policy: { path: policyPath, text: readFileSync(policyPath, "utf8"), source: "file", lastCommit: null },
    headPolicyText: null,
    baseline: "cfg-baseline",
    candidate: "cfg-candidate",
    canary: "pass",
    today: "2026-11-29",
    toolVersion: "0.1.0",
    displayPath: (p) => relative(REPO_ROOT, p),
  });
  return runGate(inputs.dataset, inputs.policy, inputs.options);
}

/**
 * Terminal-Bench, one agent with two models (test/decision/fixtures/PROVENANCE.md) under a
 * non-inferiority bar of −1 point and `infra_errors: count_as_fail`: the three readings give
 * three verdicts' worth of disagreement (lost as fails accepts; dropped and bounded do not).
 */
export async function terminalBenchReport(): Promise<Report> {
  const fixture = (m: string) => at(`test/decision/fixtures/terminal-bench-${m}.jsonl.gz`);
  const inputs = await readRunInputs({
    results: [fixture("claude-4-sonnet"), fixture("claude-4.1-opus")],
    reviews: [],
    policy: { path: "gate/policy.yaml", text: TERMINAL_BENCH_POLICY, source: "file", lastCommit: null },
    headPolicyText: null,
    baseline: "claude-4-sonnet",
    candidate: "claude-4.1-opus",
    canary: null,
    today: "2026-11-29",
    toolVersion: "0.1.0",
    displayPath: (p) => relative(REPO_ROOT, p),
  });
  return runGate(inputs.dataset, inputs.policy, inputs.options);
}

const TERMINAL_BENCH_POLICY = `owner: "@acme/eval-owners"
revisit: 2027-03-31
infra_errors: count_as_fail
accept_if:
  common_valid_tasks: ">= 50"
  infra_error_rate: "< 10%"
  disputed_fraction: "< 5%"
  observed_margin: "> validity_sensitivity + run_variance - 1%"
`;

/** The candidate and baseline of the real-data page: two mini-SWE-agent runs on SWE-bench Verified. */
export const REAL_CANDIDATE = "20251124_mini-v1.16.0_claude-opus-4-5-20251101";
export const REAL_BASELINE = "20250802_mini-v1.0.0_claude-4-opus-20250514";

/** The README's example policy for SWE-bench Verified (500 tasks: `>= 500` sits at its edge). */
const REAL_POLICY = `owner: "@acme/eval-owners"
revisit: 2027-03-31
infra_errors: exclude
require_same_harness: false
accept_if:
  common_valid_tasks: ">= 500"
  infra_error_rate: "< 1%"
  disputed_fraction: "< 5%"
  missing_fraction: "< 2%"
  observed_margin: "> validity_sensitivity + run_variance"
margin:
  confidence: 0.95
  standard_error: paired
  validity_bound: exact
`;

/** The real-data report: the two Verified runs with the annotations for the 500 Verified ids. */
export async function realDataReport(): Promise<Report> {
  const policyPath = join(mkdtempSync(join(tmpdir(), "gate-pages-")), "policy.yaml");
  writeFileSync(policyPath, REAL_POLICY);
  const inputs = await readRunInputs({
    results: [realData("verified-claude-4-opus"), realData("verified-opus-4-5")],
    reviews: [realData("annotations-verified")],
    policy: { path: policyPath, text: REAL_POLICY, source: "file", lastCommit: null },
    headPolicyText: null,
    baseline: REAL_BASELINE,
    candidate: REAL_CANDIDATE,
    canary: null,
    today: "2026-11-29",
    toolVersion: "0.1.0",
    displayPath: (p) => basename(p),
  });
  return runGate(inputs.dataset, inputs.policy, inputs.options);
}

const PRO_BASELINE = "gpt-5-250-turns-10132025";
const PRO_CANDIDATE = "kimi-k2-instruct-10132025";

/**
 * The comment for two public SWE-Bench Pro runs imported without one --tasks list (each file's
 * own ids make its dataset revision): most checks fail, each with its whole fix. The
 * CLI's own command on the imports, as a user would run it.
 */
export async function twoFilesWithoutTasksMarkdown(): Promise<string> {
  const policy = at("policy.example.yaml");
  const r = await cliInProcess(
    [
      "evaluate",
      "--results",
      realData("pro-gpt-5-250-turns-own-ids"),
      realData("pro-kimi-k2-own-ids"),
      "--policy",
      policy,
      "--baseline",
      PRO_BASELINE,
      "--candidate",
      PRO_CANDIDATE,
      "--today",
      "2026-11-29",
    ],
    REAL_DATA_DIR,
  );
  if (r.code !== 2) throw new Error(`expected unresolved (2), got ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** The real-data report under a clustered policy (by repository): its bounds are conservative. */
export async function realClusteredMarkdown(): Promise<string> {
  const policy = join(mkdtempSync(join(tmpdir(), "gate-pages-clustered-")), "policy.yaml");
  writeFileSync(policy, REAL_POLICY.replace("standard_error: paired", "standard_error: clustered"));
  const r = await cliInProcess(
    [
      "evaluate",
      "--results",
      realData("verified-claude-4-opus"),
      realData("verified-opus-4-5"),
      "--reviews",
      realData("annotations-verified"),
      "--policy",
      policy,
      "--baseline",
      REAL_BASELINE,
      "--candidate",
      REAL_CANDIDATE,
      "--today",
      "2026-11-29",
    ],
    REAL_DATA_DIR,
  );
  if (r.code === 3 || r.code === 4) throw new Error(r.stderr);
  return r.stdout;
}
