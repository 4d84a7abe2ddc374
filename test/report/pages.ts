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

export const REPO_ROOT = resolve(import.meta.dirname, "../..");

/** The report of `npm run demo`, with paths as the demo command names them. */
export async function demoReport(): Promise<Report> {
  const at = (p: string) => resolve(REPO_ROOT, p);
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
