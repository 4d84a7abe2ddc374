/**
 * `rank` on an export of several benchmarks (docs/rank.md "Several benchmarks"): as evaluate does
 * (docs/spec.md §4.6), the models are ranked within each benchmark alone — its own common set,
 * pairs, step-down family, could-be-first set and leaderboard — and tasks of different benchmarks are
 * never compared. The rank gate is decided per benchmark and combined conservatively: accept only
 * when every benchmark accepts, reject when one rejects, unresolved otherwise. One benchmark: the
 * report is runRank's, unchanged.
 */
import { benchmarkIndices, subsetColumn, subsetTable } from "../decision/benchmark-dataset.js";
import type { GatePolicy } from "../gate.js";
import { compareCodeUnits, type ModelSummary, type TaskTable } from "../model.js";
import { quote } from "../quote.js";
import type { Verdict } from "../verdict-types.js";
import { runRank, type RankOptions } from "./rank.js";
import {
  RANK_SCHEMA_VERSION,
  type ModelsDataset,
  type RankBenchmark,
  type RankBenchmarksReport,
  type RankGate,
  type RankResult,
} from "./rank-types.js";

/** The model's summary on one benchmark: the dataset revisions of its tasks there, its rows' harness revisions there. */
function summaryOn(
  s: ModelSummary,
  tasks: TaskTable,
  counts: readonly unknown[],
  name: string,
): ModelSummary {
  const revisions = new Set<string>();
  for (let i = 0; i < tasks.length; i++) if (counts[i] !== undefined) revisions.add(tasks.datasetRevision(i));
  const rest: ModelSummary = { ...s };
  delete (rest as { harnessByBenchmark?: unknown }).harnessByBenchmark;
  const harness = s.harnessByBenchmark?.[name];
  return {
    ...rest,
    datasetRevisions: [...revisions].sort(compareCodeUnits),
    ...(harness !== undefined ? { harnessRevisions: harness } : {}),
  };
}

/** The models' data on one benchmark's tasks (`indices`, ascending): a view, as benchmarkDataset's. */
export function benchmarkModels(data: ModelsDataset, name: string, indices: Uint32Array): ModelsDataset {
  const tasks = subsetTable(data.tasks, indices);
  const counts = data.counts.map((c) => Array.from(indices, (j) => c[j]));
  const reviewRevisions = new Set<number>();
  for (let i = 0; i < tasks.length; i++)
    for (let k = 0; k < tasks.labelCount(i); k++) reviewRevisions.add(tasks.eventRevision(i, k));
  const metrics = data.metrics;
  const rest: ModelsDataset = { ...data };
  delete (rest as { metrics?: unknown }).metrics;
  return {
    ...rest,
    tasks,
    counts,
    summaries: data.summaries.map((s, k) => summaryOn(s, tasks, counts[k] ?? [], name)),
    reviewRevisions: [...reviewRevisions].sort((a, b) => a - b),
    ...(metrics === undefined
      ? {}
      : {
          metrics: {
            names: metrics.names,
            byModel: metrics.byModel.map((cols) => cols.map((c) => subsetColumn(c, indices))),
          },
        }),
  };
}

/**
 * The gates of the benchmarks as one: accept only when every benchmark accepts (the candidate
 * must meet the requirement in each), reject when some benchmark rejects, unresolved otherwise.
 * Each reason names its benchmark.
 */
export function combineRankGates(benchmarks: readonly RankBenchmark[]): RankGate {
  const first = benchmarks[0];
  if (first === undefined) throw new Error("combineRankGates: no benchmark");
  const verdicts = benchmarks.map((b) => b.gate.verdict);
  const verdict: Verdict = verdicts.every((v) => v === "accept")
    ? "accept"
    : verdicts.includes("reject")
      ? "reject"
      : "unresolved";
  return {
    require: first.gate.require,
    candidate: first.gate.candidate,
    verdict,
    reasons: benchmarks.flatMap((b) =>
      b.gate.reasons.map((r) => `Benchmark ${quote(b.name)} (${b.gate.verdict}): ${r}`),
    ),
  };
}

/**
 * The ranking of an export: runRank's report when its tasks are of one benchmark; with several,
 * one ranking per benchmark (in name order) under the combined gate.
 */
export function rankByBenchmark(data: ModelsDataset, gate: GatePolicy, options: RankOptions): RankResult {
  const split = [...benchmarkIndices(data)].sort(([a], [b]) => compareCodeUnits(a, b));
  if (split.length <= 1) return runRank(data, gate, options);
  const benchmarks: RankBenchmark[] = split.map(([name, indices]) => {
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    const { schema_version, kind, ...rest } = runRank(benchmarkModels(data, name, indices), gate, options);
    return { name, ...rest };
  });
  const first = benchmarks[0] as RankBenchmark;
  const tops = new Set(benchmarks.map((b) => b.top));
  const top = tops.size === 1 ? first.top : null;
  return {
    schema_version: RANK_SCHEMA_VERSION,
    kind: "rank",
    ranked_within_benchmarks: true,
    top,
    top_resolved: top !== null,
    gate: combineRankGates(benchmarks),
    warnings: [...new Set(benchmarks.flatMap((b) => b.warnings))],
    benchmarks,
    provenance: {
      ...first.provenance,
      dataset_revisions: [...new Set(benchmarks.flatMap((b) => b.provenance.dataset_revisions))].sort(
        compareCodeUnits,
      ),
      review_revisions: [...data.reviewRevisions],
    },
  };
}

/** Is this the report of several benchmarks? */
export function isBenchmarksReport(r: RankResult): r is RankBenchmarksReport {
  return "benchmarks" in r;
}
