/**
 * Writes small SPEC §1.1 exports and policies for tests from compact per-task specs, so a test
 * states the situation (e.g. "20 valid tasks, candidate alone passes 6") rather than raw JSON.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TaskSpec {
  readonly id: string;
  readonly validity: "valid" | "disputed" | "unreviewed" | "broken";
  /** Results of the candidate's attempts, in order. */
  readonly a: readonly ("pass" | "fail" | "infra_error" | "missing")[];
  /** Results of the baseline's attempts. */
  readonly b: readonly ("pass" | "fail" | "infra_error" | "missing")[];
  readonly cluster?: string;
}

export const CANDIDATE = "cfg-candidate";
export const BASELINE = "cfg-baseline";
export const DATASET = "sha256:0000000000000000000000000000000000000000000000000000000000000001";
export const HARNESS = "git:1111111111111111111111111111111111111111";

/** `n` results of which the first `passes` are "pass" and the rest "fail". */
export function results(passes: number, n: number): ("pass" | "fail")[] {
  return Array.from({ length: n }, (_, i) => (i < passes ? "pass" : "fail"));
}

/** Repeats a task spec `count` times with ids prefix-0, prefix-1, … */
export function many(count: number, prefix: string, spec: Omit<TaskSpec, "id">): TaskSpec[] {
  return Array.from({ length: count }, (_, i) => ({
    ...spec,
    id: `${prefix}-${String(i).padStart(4, "0")}`,
  }));
}

/** A task's rows for any number of models: results per model_config, in attempt order. */
export interface ModelsTaskSpec {
  readonly id: string;
  readonly validity: TaskSpec["validity"];
  readonly results: Readonly<Record<string, readonly ("pass" | "fail" | "infra_error" | "missing")[]>>;
  readonly cluster?: string;
}

/** One row per attempt, models in the spec's order (attempt ids when a model has several). */
export function modelsLines(tasks: readonly ModelsTaskSpec[], only?: ReadonlySet<string>): string[] {
  const lines: string[] = [];
  for (const t of tasks) {
    for (const [model, res] of Object.entries(t.results)) {
      if (only !== undefined && !only.has(model)) continue;
      res.forEach((result, i) => {
        lines.push(
          JSON.stringify({
            task_id: t.id,
            dataset_revision: DATASET,
            harness_revision: HARNESS,
            model_config: model,
            validity: t.validity,
            result,
            review_revision: 1,
            ...(res.length > 1 ? { attempt: i + 1 } : {}),
            ...(t.cluster !== undefined ? { cluster: t.cluster } : {}),
          }),
        );
      });
    }
  }
  return lines;
}

export function exportLines(tasks: readonly TaskSpec[]): string[] {
  return modelsLines(
    tasks.map((t) => ({
      id: t.id,
      validity: t.validity,
      results: { [CANDIDATE]: t.a, [BASELINE]: t.b },
      ...(t.cluster !== undefined ? { cluster: t.cluster } : {}),
    })),
  );
}

export function tempDir(prefix = "gate-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Lines written as one file of `dir` (one line each, a newline after the last). */
export function writeLines(dir: string, lines: readonly string[], name: string): string {
  const path = join(dir, name);
  writeFileSync(path, lines.join("\n") + "\n");
  return path;
}

export function writeExport(dir: string, tasks: readonly TaskSpec[], name = "results.jsonl"): string {
  return writeLines(dir, exportLines(tasks), name);
}

export const DEFAULT_POLICY = `owner: "@acme/eval-owners"
revisit: 2027-03-31
on_expired: warn
infra_errors: exclude
require_same_harness: true
accept_if:
  common_valid_tasks: ">= 500"
  infra_error_rate: "< 1%"
  disputed_fraction: "< 5%"
  observed_margin: "> validity_sensitivity + run_variance"
margin:
  confidence: 0.95
  standard_error: paired
  validity_bound: exact
on_unresolved: fail
`;

export function writePolicy(dir: string, text: string = DEFAULT_POLICY, name = "policy.yaml"): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** DEFAULT_POLICY with a floor of 20 common valid tasks, for the small exports of the history tests. */
export const SMALL_POLICY = DEFAULT_POLICY.replace(
  'common_valid_tasks: ">= 500"',
  'common_valid_tasks: ">= 20"',
);

/** One reviews-file line labelling `id` under DATASET at `revision` (reviewer only when given). */
export function reviewLine(id: string, validity: string, revision: number, reviewer?: string): string {
  return JSON.stringify({
    task_id: id,
    dataset_revision: DATASET,
    validity,
    review_revision: revision,
    ...(reviewer === undefined ? {} : { reviewer }),
  });
}

/** The evaluate arguments every history test shares: the two models, a fixed day, JSON out. */
export const JSON_REPORT_ARGS: readonly string[] = [
  "--baseline",
  BASELINE,
  "--candidate",
  CANDIDATE,
  "--today",
  "2026-11-29",
  "--format",
  "json",
];

/** evaluate on `tasks` and `policy` (DEFAULT_POLICY unless given), both written into `dir`, JSON out. */
export function jsonEvaluateArgs(dir: string, tasks: readonly TaskSpec[], policy?: string): string[] {
  return [
    "evaluate",
    "--results",
    writeExport(dir, tasks),
    "--policy",
    writePolicy(dir, policy),
    ...JSON_REPORT_ARGS,
  ];
}
