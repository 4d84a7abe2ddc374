/** A report with `since_last_run` from the worked example of docs/spec.md §3.7 (test/run-history/changes-since-last-run.test.ts). */
import { recordTable, type Dataset, type TaskRecord, type Validity } from "../../src/core/model.js";
import type { Report } from "../../src/core/report/report-types.js";
import type { RunSummary } from "../../src/core/run-history/run-types.js";
import { changesSinceLastRun } from "../../src/core/run-history/changes-since-last-run.js";
import { counts, type CountsSpec } from "../stats/dataset-builder.js";
import { acceptReport } from "../report/fixtures.js";

export interface Spec {
  readonly id: string;
  readonly a?: CountsSpec | undefined;
  readonly b?: CountsSpec | undefined;
  /** Label events [revision, validity], ascending; default one event r1 valid. */
  readonly labels?: readonly (readonly [number, Validity])[];
}

export function dataset(specs: readonly Spec[], names = { baseline: "base", candidate: "cand" }): Dataset {
  const records: TaskRecord[] = specs.map((s, k) => {
    const labels = s.labels ?? [[1, "valid"]];
    const last = labels[labels.length - 1];
    return {
      datasetRevision: "rev1",
      taskId: s.id,
      validity: last?.[1] ?? "unreviewed",
      reviewRevision: last?.[0] ?? -1,
      history: labels.map(([revision, validity], e) => ({
        revision,
        validity,
        source: { file: "reviews.jsonl", line: k * 10 + e + 1 },
        evidence: [],
      })),
      evidence: [],
      ...(s.b === undefined ? {} : { baseline: counts(s.b) }),
      ...(s.a === undefined ? {} : { candidate: counts(s.a) }),
    };
  });
  records.sort((x, y) => (x.taskId < y.taskId ? -1 : x.taskId > y.taskId ? 1 : 0));
  const model = (config: string) => ({
    config,
    harnessRevisions: ["h"],
    datasetRevisions: ["rev1"],
    duplicateRows: 0,
  });
  return {
    tasks: recordTable(records),
    baseline: model(names.baseline),
    candidate: model(names.candidate),
    modelsPresent: [names.baseline, names.candidate].sort(),
    inputs: [],
    rowsRead: 0,
    reviewRevisions: [...new Set(records.flatMap((r) => r.history.map((e) => e.revision)))].sort(
      (x, y) => x - y,
    ),
  };
}

export const D = (c: string): string => c.repeat(64);

export function summary(over: Partial<RunSummary> = {}): RunSummary {
  return {
    head_sha: null,
    baseline: "base",
    candidate: "cand",
    digests: { results: D("1"), reviews: D("2"), policy: D("3") },
    review_revision_max: 1,
    verdict: "unresolved",
    margin: null,
    lcb: null,
    ucb: null,
    margin_low: null,
    margin_high: null,
    ...over,
  };
}

export function report(infra: "exclude" | "count_as_fail" = "exclude"): Report {
  const r = acceptReport();
  return { ...r, provenance: { ...r.provenance, infra_errors_policy: infra } };
}

export const EXAMPLE_PREVIOUS: readonly Spec[] = [
  { id: "t1", a: "pass", b: "fail" },
  { id: "t2", a: "fail", b: "fail" },
  { id: "t3", a: "pass", b: "pass" },
  { id: "t4", a: "fail", b: "pass", labels: [[1, "disputed"]] },
];
export const EXAMPLE_CURRENT: readonly Spec[] = [
  { id: "t1", a: "fail", b: "fail" },
  { id: "t2", a: "pass", b: "fail" },
  { id: "t3", a: "pass", b: "fail" },
  {
    id: "t4",
    a: "fail",
    b: "pass",
    labels: [
      [1, "disputed"],
      [2, "valid"],
    ],
  },
  { id: "t5", a: "pass", b: "pass" },
];
export const EXAMPLE_BEFORE = summary({
  head_sha: "0123456789abcdef0123456789abcdef01234567",
  margin: 1 / 3,
  lcb: -0.1,
  ucb: 0.7,
  margin_low: 0.25,
  margin_high: 0.5,
  verdict: "unresolved",
});
export const EXAMPLE_AFTER = summary({
  digests: { results: D("4"), reviews: D("5"), policy: D("3") },
  review_revision_max: 2,
  margin: 0.2,
  lcb: 0.05,
  ucb: 0.35,
  margin_low: 0.2,
  margin_high: 0.2,
  verdict: "accept",
});

/** acceptReport() with the example's changes as `since_last_run` (the figures are the example's, not the report's). */
export function exampleReport(): Report {
  const since = changesSinceLastRun(
    { summary: EXAMPLE_BEFORE, dataset: dataset(EXAMPLE_PREVIOUS), unavailable: null },
    { dataset: dataset(EXAMPLE_CURRENT), report: report(), summary: EXAMPLE_AFTER },
  );
  return { ...acceptReport(), since_last_run: since };
}
