/**
 * Six tasks written out by hand, every field different from task to task, and a Dataset of them:
 * what the task table views (src/core/model.ts, src/core/task-table-view.ts,
 * src/core/decision/benchmark-dataset.ts) are checked against.
 *
 *   index  task                   benchmark        labels (revision: validity)   rows
 *   0      ds-a/astropy-1         swe-verified     1: unreviewed, 2: valid        both
 *   1      ds-a/django-2          swe-verified     3: broken                      baseline only
 *   2      ds-a/flask-3           (default)        none                           candidate only
 *   3      ds-b/tb-hello          terminal-bench   1: valid, 4: disputed          both
 *   4      ds-b/tb-world          terminal-bench   1: valid                       both
 *   5      ds-c/plain-1           (default)        5: valid                       both
 */
import type { AttemptCounts, Dataset, ReviewEvent, TaskRecord, Validity } from "../../src/core/model.js";
import { recordTable } from "../../src/core/model.js";

function counts(pass: number, fail: number, infra_error = 0, missing = 0): AttemptCounts {
  return { pass, fail, infra_error, missing };
}

function event(revision: number, validity: Validity, file: string, line: number): ReviewEvent {
  return { revision, validity, source: { file, line }, evidence: [] };
}

export const RECORDS: readonly TaskRecord[] = [
  {
    datasetRevision: "ds-a",
    taskId: "astropy-1",
    validity: "valid",
    reviewRevision: 2,
    history: [event(1, "unreviewed", "results.jsonl", 3), event(2, "valid", "reviews.jsonl", 7)],
    evidence: ["logs/astropy-1.txt"],
    cluster: "astropy",
    benchmark: "swe-verified",
    baseline: counts(2, 1),
    candidate: counts(3, 0),
  },
  {
    datasetRevision: "ds-a",
    taskId: "django-2",
    validity: "broken",
    reviewRevision: 3,
    history: [event(3, "broken", "reviews.jsonl", 9)],
    evidence: [],
    cluster: "django",
    benchmark: "swe-verified",
    baseline: counts(0, 2, 1),
  },
  {
    datasetRevision: "ds-a",
    taskId: "flask-3",
    validity: "unreviewed",
    reviewRevision: 0,
    history: [],
    evidence: ["a.log", "b.log"],
    candidate: counts(1, 1, 0, 1),
  },
  {
    datasetRevision: "ds-b",
    taskId: "tb-hello",
    validity: "disputed",
    reviewRevision: 4,
    history: [event(1, "valid", "results.jsonl", 20), event(4, "disputed", "reviews.jsonl", 2)],
    evidence: ["tb/hello.cast"],
    cluster: "tb",
    benchmark: "terminal-bench",
    baseline: counts(1, 0),
    candidate: counts(0, 1),
  },
  {
    datasetRevision: "ds-b",
    taskId: "tb-world",
    validity: "valid",
    reviewRevision: 1,
    history: [event(1, "valid", "results.jsonl", 21)],
    evidence: [],
    benchmark: "terminal-bench",
    baseline: counts(0, 0, 2),
    candidate: counts(4, 0),
  },
  {
    datasetRevision: "ds-c",
    taskId: "plain-1",
    validity: "valid",
    reviewRevision: 5,
    history: [event(5, "valid", "results.jsonl", 30)],
    evidence: [],
    cluster: "plain",
    baseline: counts(1, 1),
    candidate: counts(2, 0),
  },
];

/** The tasks above as one export of three benchmarks, with one metric (the candidate's task i: 10·i over i attempts). */
export function handBuiltDataset(): Dataset {
  return {
    tasks: recordTable(RECORDS),
    baseline: {
      config: "cfg-base",
      harnessRevisions: ["h1", "h2", "h3"],
      datasetRevisions: ["ds-a", "ds-b", "ds-c"],
      duplicateRows: 2,
      harnessByBenchmark: { default: ["h3"], "swe-verified": ["h1"], "terminal-bench": ["h2", "h3"] },
    },
    candidate: {
      config: "cfg-cand",
      harnessRevisions: ["h1"],
      datasetRevisions: ["ds-a", "ds-b", "ds-c"],
      duplicateRows: 0,
    },
    modelsPresent: ["cfg-base", "cfg-cand", "cfg-other"],
    inputs: [{ path: "results.jsonl", sha256: "a".repeat(64), kind: "results" }],
    rowsRead: 40,
    reviewRevisions: [0, 1, 2, 3, 4, 5],
    metrics: {
      names: ["cost_usd", "latency_s"],
      baseline: [undefined, undefined],
      candidate: [
        {
          sum: Float64Array.from(RECORDS, (_, i) => 10 * i),
          count: Float64Array.from(RECORDS, (_, i) => i),
        },
        undefined,
      ],
    },
    benchmarks: ["default", "swe-verified", "terminal-bench"],
    unmatchedLabels: [{ rows: 3, of: undefined, revisions: ["ds-z"], moreRevisions: false }],
  };
}
