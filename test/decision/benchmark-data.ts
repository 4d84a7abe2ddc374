/** Datasets of several benchmarks and the policy the benchmark tests share (docs/spec.md §4.6). */
import type { GatePolicy } from "../../src/core/gate.js";
import { recordTable, tableRecords, type Dataset, type TaskRecord } from "../../src/core/model.js";
import { parsePolicy } from "../../src/core/policy/load-policy.js";
import { buildDataset, repeat, SPEC_EXAMPLE_5, type TaskSpec } from "../stats/dataset-builder.js";

export const POLICY = `owner: "@acme/eval-owners"
revisit: 2027-03-31
accept_if:
  common_valid_tasks: ">= 100"
  infra_error_rate: "< 1%"
  disputed_fraction: "< 5%"
  observed_margin: "> validity_sensitivity + run_variance"
`;

export function gatePolicy(extra = ""): GatePolicy {
  const text = POLICY + extra;
  const source = { path: "policy.yaml", sha256: "0".repeat(64), source: "file", lastCommit: null };
  return {
    policy: parsePolicy(text, "policy.yaml"),
    source,
    expired: false,
    changes: null,
    warnings: [],
    history: null,
  };
}

export const OPTIONS = {
  canary: null,
  toolVersion: "test",
  asOfReview: null,
  appendOnly: null,
  appendOnlyBase: null,
};

/** Example 5's 540 tasks, with 4.2% disputed (under the 5% bar). */
export const ACCEPTS = SPEC_EXAMPLE_5;
/** Example 5 with the models swapped: UCB = −1.17 pp at 95%. */
export const REJECTS: TaskSpec[] = SPEC_EXAMPLE_5.map((t) => ({
  validity: t.validity ?? "valid",
  a: t.b ?? "fail",
  b: t.a ?? "fail",
}));
/** UCB = −0.06 pp at 95% and +0.69 pp at 97.5%: a harm claim at α, not at α/2. */
export const WEAK_HARM: TaskSpec[] = [
  ...repeat(19, { a: "fail", b: "pass" }),
  ...repeat(10, { a: "pass", b: "fail" }),
  ...repeat(200, { a: "pass", b: "pass" }),
];

/** One Dataset of several benchmarks: each one's tasks under its own id prefix. */
export function benchmarks(parts: Record<string, readonly TaskSpec[]>): Dataset {
  const specs: TaskSpec[] = [];
  const of = new Map<string, string>();
  for (const [name, tasks] of Object.entries(parts)) {
    tasks.forEach((t, i) => {
      const id = `${name}-${String(i).padStart(5, "0")}`;
      of.set(id, name);
      specs.push({ ...t, id });
    });
  }
  const d = buildDataset(specs);
  const records: TaskRecord[] = tableRecords(d.tasks).map((r) => {
    const name = of.get(r.taskId) as string;
    return name === "default" ? r : { ...r, benchmark: name };
  });
  const names = Object.keys(parts).sort();
  return {
    ...d,
    tasks: recordTable(records),
    ...(names.length === 1 && names[0] === "default" ? {} : { benchmarks: names }),
  };
}
