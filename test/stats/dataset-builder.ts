/**
 * Test helpers: build a Dataset (and a Policy) directly from compact specs, without the reader.
 * A = candidate, B = baseline (SPEC §2).
 *
 *   buildDataset([
 *     { validity: "valid", a: "pass", b: "fail" },              // single attempts
 *     { validity: "disputed", a: { pass: 3, fail: 1 }, b: { pass: 2, fail: 2, infra: 1 } },
 *     { validity: "broken", a: "pass" },                        // B has no row
 *   ]);
 */
import { withDerivedRevisions } from "../../src/read/derived-revisions.js";
import {
  recordTable,
  type AttemptCounts,
  type Dataset,
  type ModelSummary,
  type TaskRecord,
  type Validity,
} from "../../src/core/model.js";
import type { Policy, Threshold, ThresholdOp } from "../../src/core/policy/policy-types.js";

/** Attempt counts of one model on one task; a single-attempt shorthand is also accepted. */
export type CountsSpec =
  | { readonly pass?: number; readonly fail?: number; readonly infra?: number; readonly missing?: number }
  | "pass"
  | "fail"
  | "infra"
  | "missing";

export interface TaskSpec {
  /** Default: t00000, t00001, … by position. */
  readonly id?: string;
  /** Default "rev1". */
  readonly rev?: string;
  /** Default "valid". */
  readonly validity?: Validity;
  readonly cluster?: string;
  readonly evidence?: readonly string[];
  /** Candidate's attempts; omitted = no row. */
  readonly a?: CountsSpec;
  /** Baseline's attempts; omitted = no row. */
  readonly b?: CountsSpec;
}

export function counts(spec: CountsSpec): AttemptCounts {
  if (spec === "pass") return { pass: 1, fail: 0, infra_error: 0, missing: 0 };
  if (spec === "fail") return { pass: 0, fail: 1, infra_error: 0, missing: 0 };
  if (spec === "infra") return { pass: 0, fail: 0, infra_error: 1, missing: 0 };
  if (spec === "missing") return { pass: 0, fail: 0, infra_error: 0, missing: 1 };
  return {
    pass: spec.pass ?? 0,
    fail: spec.fail ?? 0,
    infra_error: spec.infra ?? 0,
    missing: spec.missing ?? 0,
  };
}

export interface DatasetOptions {
  readonly baseline?: Partial<ModelSummary>;
  readonly candidate?: Partial<ModelSummary>;
}

function taskRecord(spec: TaskSpec, index: number): TaskRecord {
  const validity = spec.validity ?? "valid";
  return {
    datasetRevision: spec.rev ?? "rev1",
    taskId: spec.id ?? `t${String(index).padStart(5, "0")}`,
    validity,
    reviewRevision: 1,
    history: [{ revision: 1, validity, source: { file: "test.jsonl", line: index + 1 }, evidence: [] }],
    evidence: spec.evidence ?? [],
    ...(spec.cluster !== undefined ? { cluster: spec.cluster } : {}),
    ...(spec.b !== undefined ? { baseline: counts(spec.b) } : {}),
    ...(spec.a !== undefined ? { candidate: counts(spec.a) } : {}),
  };
}

/** A Dataset from task specs; tasks are sorted by (dataset_revision, task_id) as the reader does. */
export function buildDataset(specs: readonly TaskSpec[], opts: DatasetOptions = {}): Dataset {
  const tasks = specs.map(taskRecord);
  tasks.sort((x, y) =>
    x.datasetRevision !== y.datasetRevision
      ? x.datasetRevision < y.datasetRevision
        ? -1
        : 1
      : x.taskId < y.taskId
        ? -1
        : x.taskId > y.taskId
          ? 1
          : 0,
  );
  const revs = (side: "baseline" | "candidate"): string[] =>
    [...new Set(tasks.filter((t) => t[side] !== undefined).map((t) => t.datasetRevision))].sort();
  const summary = (side: "baseline" | "candidate", config: string): ModelSummary => ({
    config,
    harnessRevisions: ["git:h1"],
    datasetRevisions: revs(side),
    duplicateRows: 0,
    ...opts[side],
  });
  const baseline = summary("baseline", "cfg-baseline");
  const candidate = summary("candidate", "cfg-candidate");
  // As the reader hands it over: with the revisions that hash their own task ids.
  return withDerivedRevisions({
    tasks: recordTable(tasks),
    baseline,
    candidate,
    modelsPresent: [...new Set([baseline.config, candidate.config])].sort(),
    inputs: [],
    rowsRead: 0,
    reviewRevisions: [1],
  });
}

/** `n` copies of one task spec (ids are assigned by position unless given). */
export function repeat(n: number, spec: Omit<TaskSpec, "id">): TaskSpec[] {
  return Array.from({ length: n }, () => ({ ...spec }));
}

/** SPEC §6 example 5, gate-sized: 520 valid tasks (A only 70, B only 40, ties 410) and 20 disputed. */
export const SPEC_EXAMPLE_5: readonly TaskSpec[] = [
  ...repeat(70, { validity: "valid", a: "pass", b: "fail" }),
  ...repeat(40, { validity: "valid", a: "fail", b: "pass" }),
  ...repeat(205, { validity: "valid", a: "pass", b: "pass" }),
  ...repeat(205, { validity: "valid", a: "fail", b: "fail" }),
  ...repeat(2, { validity: "disputed", a: "pass", b: "fail" }),
  ...repeat(6, { validity: "disputed", a: "fail", b: "pass" }),
  ...repeat(12, { validity: "disputed", a: "pass", b: "pass" }),
];

/** Parse "OP NUMBER[%]" as the policy reader does (tests only; no validation beyond the shape). */
export function threshold(text: string): Threshold {
  const m = /^\s*(>=|<=|>|<)\s*([+-]?\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(text);
  if (m === null) throw new Error(`bad threshold ${text}`);
  const percent = m[3] === "%";
  const n = Number(m[2]);
  return { op: m[1] as ThresholdOp, value: percent ? n / 100 : n, percent, text: text.trim() };
}

export interface PolicySpec {
  readonly common_valid_tasks?: string;
  readonly infra_error_rate?: string;
  readonly disputed_fraction?: string;
  readonly missing_fraction?: string;
  /** δ₀ as a fraction (0.01 = "+ 1%"). */
  readonly delta0?: number;
  readonly production_canary?: boolean;
  readonly confidence?: number;
  readonly standard_error?: Policy["margin"]["standard_error"];
  readonly validity_bound?: Policy["margin"]["validity_bound"];
  readonly quantile?: Policy["margin"]["quantile"];
  readonly power?: number;
  readonly cluster_correction?: Policy["margin"]["cluster_correction"];
  readonly infra_errors?: Policy["infra_errors"];
  readonly require_same_harness?: boolean;
}

/** A Policy with the SPEC §1.3 example's values unless overridden (missing_fraction off by default). */
export function buildPolicy(spec: PolicySpec = {}): Policy {
  const delta0 = spec.delta0 ?? 0;
  const marginText =
    delta0 === 0
      ? "> validity_sensitivity + run_variance"
      : `> validity_sensitivity + run_variance ${delta0 > 0 ? "+" : "-"} ${Math.abs(delta0) * 100}%`;
  return {
    owner: "@acme/eval-owners",
    revisit: "2027-03-31",
    on_expired: "warn",
    infra_errors: spec.infra_errors ?? "exclude",
    require_same_harness: spec.require_same_harness ?? true,
    accept_if: {
      common_valid_tasks: threshold(spec.common_valid_tasks ?? ">= 500"),
      infra_error_rate: threshold(spec.infra_error_rate ?? "< 1%"),
      disputed_fraction: threshold(spec.disputed_fraction ?? "< 5%"),
      ...(spec.missing_fraction !== undefined ? { missing_fraction: threshold(spec.missing_fraction) } : {}),
      delta0,
      observed_margin_text: marginText,
      production_canary: spec.production_canary ?? false,
    },
    margin: {
      confidence: spec.confidence ?? 0.95,
      quantile: spec.quantile ?? "t",
      power: spec.power ?? 0.8,
      standard_error: spec.standard_error ?? "paired",
      cluster_correction: spec.cluster_correction ?? "cr2",
      validity_bound: spec.validity_bound ?? "exact",
    },
    on_unresolved: "fail",
    reruns: "latest",
  };
}
