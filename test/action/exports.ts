/**
 * Small SPEC §1.1 exports for the action tests, from per-task specs. Unlike test/helpers'
 * export writer it lets a test choose any task id, model ids and evidence, so hostile strings
 * can be fed through the whole action.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { gzipSync } from "node:zlib";

export type Outcome = "pass" | "fail" | "infra_error" | "missing";

export interface TaskRow {
  readonly id: string;
  readonly validity: "valid" | "disputed" | "unreviewed" | "broken";
  /** Candidate's result (one attempt). */
  readonly a: Outcome;
  /** Baseline's result (one attempt). */
  readonly b: Outcome;
  readonly evidence?: readonly string[];
  /** The task's `benchmark` (docs/spec.md §1.1); none: `default`. */
  readonly benchmark?: string;
}

export interface ExportOptions {
  readonly candidate?: string;
  readonly baseline?: string;
  readonly dataset?: string;
  readonly harness?: string;
}

export const CANDIDATE = "cfg-candidate";
export const BASELINE = "cfg-baseline";

/** `count` tasks with the same spec and ids `${prefix}-0000`, … */
export function tasks(count: number, prefix: string, spec: Omit<TaskRow, "id">): TaskRow[] {
  return Array.from({ length: count }, (_, i) => ({
    ...spec,
    id: `${prefix}-${String(i).padStart(5, "0")}`,
  }));
}

/** 60 valid tasks, the candidate alone passes 20, both 30, neither 10: a clear accept. */
export const CLEAR_ACCEPT_ROWS: readonly TaskRow[] = [
  ...tasks(20, "a-only", { validity: "valid", a: "pass", b: "fail" }),
  ...tasks(30, "both", { validity: "valid", a: "pass", b: "pass" }),
  ...tasks(10, "neither", { validity: "valid", a: "fail", b: "fail" }),
];

export function exportText(rows: readonly TaskRow[], opts: ExportOptions = {}): string {
  const dataset = opts.dataset ?? "sha256:0001";
  const harness = opts.harness ?? "git:1111111";
  const out: string[] = [];
  for (const t of rows) {
    for (const [model, result] of [
      [opts.candidate ?? CANDIDATE, t.a],
      [opts.baseline ?? BASELINE, t.b],
    ] as const) {
      out.push(
        JSON.stringify({
          task_id: t.id,
          dataset_revision: dataset,
          harness_revision: harness,
          model_config: model,
          validity: t.validity,
          result,
          review_revision: 1,
          ...(t.evidence !== undefined ? { evidence: t.evidence } : {}),
          ...(t.benchmark !== undefined ? { benchmark: t.benchmark } : {}),
        }),
      );
    }
  }
  return out.join("\n") + "\n";
}

export function writeExport(path: string, rows: readonly TaskRow[], opts: ExportOptions = {}): void {
  const text = exportText(rows, opts);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, path.endsWith(".gz") ? gzipSync(text) : text);
}

/** A policy with the given thresholds; revisit far in the future so tests never expire. */
export function policyYaml(
  over: { minTasks?: number; confidence?: number; onUnresolved?: "fail" | "neutral"; revisit?: string } = {},
): string {
  return [
    'owner: "@acme/eval-owners"',
    `revisit: ${over.revisit ?? "2099-12-31"}`,
    "on_expired: warn",
    "infra_errors: exclude",
    "require_same_harness: true",
    "accept_if:",
    `  common_valid_tasks: ">= ${over.minTasks ?? 50}"`,
    '  infra_error_rate: "< 1%"',
    '  disputed_fraction: "< 10%"',
    '  observed_margin: "> validity_sensitivity + run_variance"',
    "margin:",
    `  confidence: ${over.confidence ?? 0.95}`,
    "  standard_error: paired",
    "  validity_bound: exact",
    `on_unresolved: ${over.onUnresolved ?? "fail"}`,
    "",
  ].join("\n");
}
