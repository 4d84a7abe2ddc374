/**
 * Reports built from real inputs for the golden files and the browser test: the shipped demo
 * (examples/, exactly `npm run demo`) and a real-data report from ../shared/data/public-results
 * (two SWE-bench Verified leaderboard runs with OpenAI's Verified annotations as reviews, through
 * the importers), which is absent outside this workspace.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { runGate } from "../../src/core/gate.js";
import { readRunInputs } from "../../src/read/run-inputs.js";
import type { Report } from "../../src/core/report/report-types.js";
import { runImport } from "../../src/importers/index.js";
import { PUBLIC_RESULTS } from "../helpers/shared-data.js";
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

const LEADERBOARDS = join(PUBLIC_RESULTS, "swe-bench.github.io/data/leaderboards.json");
const ANNOTATIONS = join(PUBLIC_RESULTS, "openai-verified-annotations/ensembled_annotations_public.csv");
/** The files the real-data report reads (ask sharedDataPresent before using it). */
export const REAL_DATA_FILES: readonly string[] = [LEADERBOARDS, ANNOTATIONS];

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

/** The real-data report, or null when ../shared is absent. */
export async function realDataReport(): Promise<Report | null> {
  if (!REAL_DATA_FILES.every((f) => existsSync(f))) return null;
  const dir = mkdtempSync(join(tmpdir(), "gate-pages-"));
  const write = async (name: string, result: Promise<{ lines: string[] }>): Promise<string> => {
    const path = join(dir, name);
    writeFileSync(path, (await result).lines.map((l) => `${l}\n`).join(""));
    return path;
  };
  const candidate = await write(
    "candidate.jsonl",
    runImport({ kind: "swebench-leaderboard", file: LEADERBOARDS, run: REAL_CANDIDATE }),
  );
  const baseline = await write(
    "baseline.jsonl",
    runImport({ kind: "swebench-leaderboard", file: LEADERBOARDS, run: REAL_BASELINE }),
  );
  const ids = readFileSync(candidate, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => (JSON.parse(l) as { task_id: string }).task_id);
  const tasks = join(dir, "verified.txt");
  writeFileSync(tasks, [...new Set(ids)].join("\n") + "\n");
  const reviews = await write(
    "reviews.jsonl",
    runImport({ kind: "verified-annotations", file: ANNOTATIONS, tasks }),
  );
  const policyPath = join(dir, "policy.yaml");
  writeFileSync(policyPath, REAL_POLICY);
  const inputs = await readRunInputs({
    results: [baseline, candidate],
    reviews: [reviews],
    policy: { path: policyPath, text: REAL_POLICY, source: "file", lastCommit: null },
    headPolicyText: null,
    baseline: REAL_BASELINE,
    candidate: REAL_CANDIDATE,
    canary: null,
    today: "2026-11-29",
    toolVersion: "0.1.0",
    displayPath: (p) => relative(dir, p),
  });
  return runGate(inputs.dataset, inputs.policy, inputs.options);
}

const PRO_TRAJ = join(PUBLIC_RESULTS, "swe-bench-pro/traj");
const PRO_BASELINE = "gpt-5-250-turns-10132025";
const PRO_CANDIDATE = "kimi-k2-instruct-10132025";
/** The files the SWE-Bench Pro page reads (ask sharedDataPresent before using it). */
export const PRO_RUN_FILES: readonly string[] = [PRO_BASELINE, PRO_CANDIDATE].map((r) =>
  join(PRO_TRAJ, r, "eval_results.json"),
);

/** `model-gate import` of each run into DIR/<run>.jsonl, as a user would; the files written. */
async function importEach(
  dir: string,
  runs: readonly string[],
  args: (run: string) => readonly string[],
): Promise<string[]> {
  const files: string[] = [];
  for (const run of runs) {
    const out = join(dir, `${run}.jsonl`);
    const r = await cliInProcess(["import", ...args(run), "-o", out]);
    if (r.code !== 0) throw new Error(r.stderr);
    files.push(out);
  }
  return files;
}

/**
 * The comment for two public SWE-Bench Pro runs imported without one --tasks list (each file's
 * own ids make its dataset revision, issue 27): most checks fail, each with its whole fix. Made
 * with the CLI's own commands, as a user would; null when ../shared is absent.
 */
export async function twoFilesWithoutTasksMarkdown(): Promise<string | null> {
  if (!PRO_RUN_FILES.every((f) => existsSync(f))) return null;
  const dir = mkdtempSync(join(tmpdir(), "gate-pages-pro-"));
  const files = await importEach(dir, [PRO_BASELINE, PRO_CANDIDATE], (run) => [
    "swebench-pro",
    join(PRO_TRAJ, run, "eval_results.json"),
  ]);
  const policy = at("policy.example.yaml");
  const r = await cliInProcess(
    [
      "evaluate",
      "--results",
      ...files,
      "--policy",
      policy,
      "--baseline",
      PRO_BASELINE,
      "--candidate",
      PRO_CANDIDATE,
      "--today",
      "2026-11-29",
    ],
    dir,
  );
  if (r.code !== 2) throw new Error(`expected unresolved (2), got ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** The real-data report under a clustered policy (by repository): its bounds are conservative. */
export async function realClusteredMarkdown(): Promise<string | null> {
  if (!REAL_DATA_FILES.every((f) => existsSync(f))) return null;
  const dir = mkdtempSync(join(tmpdir(), "gate-pages-clustered-"));
  const files = await importEach(dir, [REAL_BASELINE, REAL_CANDIDATE], (run) => [
    "swebench-leaderboard",
    LEADERBOARDS,
    "--run",
    run,
  ]);
  const ids = readFileSync(files[0] ?? "", "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => (JSON.parse(l) as { task_id: string }).task_id);
  const tasks = join(dir, "verified.txt");
  writeFileSync(tasks, ids.join("\n") + "\n");
  const reviews = join(dir, "reviews.jsonl");
  const imported = await cliInProcess([
    "import",
    "verified-annotations",
    ANNOTATIONS,
    "--tasks",
    tasks,
    "-o",
    reviews,
  ]);
  if (imported.code !== 0) throw new Error(imported.stderr);
  const policy = join(dir, "policy.yaml");
  writeFileSync(policy, REAL_POLICY.replace("standard_error: paired", "standard_error: clustered"));
  const r = await cliInProcess(
    [
      "evaluate",
      "--results",
      ...files,
      "--reviews",
      reviews,
      "--policy",
      policy,
      "--baseline",
      REAL_BASELINE,
      "--candidate",
      REAL_CANDIDATE,
      "--today",
      "2026-11-29",
    ],
    dir,
  );
  if (r.code === 3 || r.code === 4) throw new Error(r.stderr);
  return r.stdout;
}
