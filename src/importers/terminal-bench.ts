/**
 * Terminal-Bench's `tb run` output: a run's `results.json` (one entry per trial) with its
 * `run_metadata.json`; a directory of runs of one config imports as one export.
 *
 * - task = `task_id`; attempt = k of the trial name `<task>.<k>-of-<n>` (with several runs,
 *   `<run_id>/<k>`, so two runs' trials stay two attempts);
 * - `is_resolved` true → pass, false → fail, null → infra_error (the trial's `failure_mode`, e.g.
 *   `test_timeout`, is in its evidence). `agent_timeout` is the agent's own time running out: the
 *   trial keeps its outcome, and the notes count them;
 * - `total_input_tokens` / `total_output_tokens` → metrics `tokens_in` / `tokens_out` where set;
 * - model_config: the metadata's `model_name`, which tb leaves null unless `--model` was given, so
 *   --model-config is required then; harness_revision: `git:<commit_hash>`; dataset_revision:
 *   `<dataset_name>@<dataset_version>:sha256:<hex>`, the hex as the other importers compute it
 *   from the task ids (the metadata's `task_ids`, or --tasks);
 * - tasks of the run's `task_ids` without a trial → missing.
 */
import {
  type ExportRow,
  Problems,
  compareIds,
  computeDatasetRevision,
  fileError,
  isObject,
  jsonEvidence,
  listSome,
  parseJsonFile,
  pointer,
  taskListEvidence,
  typeName,
} from "./common.js";
import { MetricsBuilder, TOKENS_IN, TOKENS_OUT, metricsNote } from "./metrics.js";
import { TB_METADATA, TB_RESULTS } from "./read-inputs.js";
import type { DefaultValue, ImporterInput, RelatedFile, ResultsDraft } from "./types.js";

interface Run {
  readonly dir: string;
  readonly resultsFile: string;
  readonly metadataFile: string;
  readonly runId: string;
  readonly meta: Record<string, unknown>;
  readonly trials: readonly unknown[];
  readonly results: Record<string, unknown>;
}

const TRIAL_NAME = /^(.*)\.([1-9][0-9]*)-of-([1-9][0-9]*)$/;

function readRun(results: RelatedFile, metadata: RelatedFile): Run {
  const doc = parseJsonFile(results.shown, results.text);
  const meta = parseJsonFile(metadata.shown, metadata.text);
  if (!isObject(meta))
    fileError(metadata.shown, `expected tb's run metadata object, found ${typeName(meta)}`);
  if (!isObject(doc) || !Array.isArray(doc["results"])) {
    fileError(
      results.shown,
      `expected tb's results object with a "results" array of trials, found ${isObject(doc) ? `"results": ${typeName(doc["results"])}` : typeName(doc)}`,
      { field: "/results" },
    );
  }
  const runId = typeof meta["run_id"] === "string" && meta["run_id"] !== "" ? meta["run_id"] : results.group;
  return {
    dir: results.group,
    resultsFile: results.shown,
    metadataFile: metadata.shown,
    runId,
    meta,
    trials: doc["results"] as unknown[],
    results: doc,
  };
}

/** The runs of the input, in the order found (a directory's runs in name order). */
function runsOf(related: readonly RelatedFile[]): Run[] {
  const runs: Run[] = [];
  for (let i = 0; i < related.length; i += 2) {
    const results = related[i];
    const metadata = related[i + 1];
    if (results?.role !== TB_RESULTS || metadata?.role !== TB_METADATA) {
      throw new Error("terminal-bench: results.json and run_metadata.json are read in pairs");
    }
    runs.push(readRun(results, metadata));
  }
  return runs;
}

/** A metadata field every run must agree on (they are runs of one config on one dataset). */
function agreed(runs: readonly Run[], key: string, why: string): unknown {
  const first = runs[0];
  if (first === undefined) return undefined;
  for (const r of runs.slice(1)) {
    if (JSON.stringify(r.meta[key] ?? null) !== JSON.stringify(first.meta[key] ?? null)) {
      fileError(
        r.metadataFile,
        `${key} is ${JSON.stringify(r.meta[key] ?? null)}, but ${first.metadataFile} has ` +
          `${JSON.stringify(first.meta[key] ?? null)}: ${why}; import the runs one by one`,
        { field: pointer(key) },
      );
    }
  }
  return first.meta[key];
}

interface Tally {
  resolved: number;
  unresolved: number;
  nulls: Map<string, number>;
  timeoutsResolved: number;
  timeoutsUnresolved: number;
}

/** The rows of one run's trials; problems are collected, named by file and JSON Pointer. */
function trialRows(
  run: Run,
  several: boolean,
  tally: Tally,
  rows: ExportRow[],
  taskIds: ReadonlySet<string>,
): void {
  const file = run.resultsFile;
  const problems: Problems = new Problems(file);
  const seen = new Map<string, number>();
  const harness = typeof run.meta["commit_hash"] === "string" ? `git:${run.meta["commit_hash"]}` : undefined;
  run.trials.forEach((t, i) => {
    const at = (sub: string) => `${pointer("results", i)}${sub}`;
    if (!isObject(t)) {
      problems.add(`expected a trial object, found ${typeName(t)}`, { field: at("") });
      return;
    }
    const taskId = t["task_id"];
    if (typeof taskId !== "string" || taskId === "") {
      problems.add(`expected a task id (non-empty string), found ${typeName(taskId)}`, {
        field: at("/task_id"),
      });
      return;
    }
    const name = t["trial_name"];
    const m = typeof name === "string" ? TRIAL_NAME.exec(name) : null;
    if (m?.[1] !== taskId || m[2] === undefined || m[3] === undefined || Number(m[2]) > Number(m[3])) {
      problems.add(
        `expected the trial name "${taskId}.<k>-of-<n>" (1 ≤ k ≤ n), found ${typeName(name)}: the attempt number is read from it`,
        { field: at("/trial_name") },
      );
      return;
    }
    const k = Number(m[2]);
    const key = `${taskId}\u0000${k}`;
    const first = seen.get(key);
    if (first !== undefined) {
      problems.add(
        `task ${JSON.stringify(taskId)} trial ${k} appears twice (also /results/${first}): the run is ambiguous`,
        {
          field: at(""),
        },
      );
      return;
    }
    seen.set(key, i);
    if (!taskIds.has(taskId)) {
      problems.add(
        `task ${JSON.stringify(taskId)} is not among the task_ids of ${run.metadataFile}: the results and the metadata disagree`,
        { field: at("/task_id") },
      );
      return;
    }
    const resolved = t["is_resolved"];
    const mode = t["failure_mode"];
    if (resolved !== true && resolved !== false && resolved !== null) {
      problems.add(`expected is_resolved true, false or null, found ${typeName(resolved)}`, {
        field: at("/is_resolved"),
      });
      return;
    }
    if (mode !== undefined && typeof mode !== "string") {
      problems.add(`expected failure_mode to be a string, found ${typeName(mode)}`, {
        field: at("/failure_mode"),
      });
      return;
    }
    const metrics = new MetricsBuilder();
    for (const [metric, field] of [
      [TOKENS_IN, "total_input_tokens"],
      [TOKENS_OUT, "total_output_tokens"],
    ] as const) {
      const p = metrics.add(metric, t[field]);
      if (p !== null) problems.add(`${field}: ${p}`, { field: at(`/${field}`) });
    }
    const evidence = [jsonEvidence(file, at("/is_resolved"))];
    if (resolved === null) {
      evidence.push(jsonEvidence(file, at("/failure_mode")));
      const why = mode ?? "(no failure_mode)";
      tally.nulls.set(why, (tally.nulls.get(why) ?? 0) + 1);
    } else if (resolved) tally.resolved += 1;
    else tally.unresolved += 1;
    if (mode === "agent_timeout" && resolved === true) tally.timeoutsResolved += 1;
    if (mode === "agent_timeout" && resolved === false) tally.timeoutsUnresolved += 1;
    const row: ExportRow = {
      task_id: taskId,
      attempt: several ? `${run.runId}/${k}` : k,
      result: resolved === null ? "infra_error" : resolved ? "pass" : "fail",
      evidence,
      from: { file, field: at("/task_id") },
    };
    const result = metrics.result;
    if (result !== undefined) row.metrics = result;
    if (harness !== undefined && several) row.harness_revision = harness;
    rows.push(row);
  });
  problems.throwIfAny(`${file}: not a usable Terminal-Bench results.json`);
}

function stringList(run: Run, key: string): string[] {
  const v = run.meta[key];
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string" || x === "")) {
    fileError(run.metadataFile, `expected ${key} to be a list of task ids, found ${typeName(v)}`, {
      field: pointer(key),
    });
  }
  return v as string[];
}

export function importTerminalBench({ opts, tasks, related }: ImporterInput): ResultsDraft {
  const runs = runsOf(related ?? []);
  if (runs.length === 0) fileError(opts.file, "no Terminal-Bench run found");
  const datasetName = agreed(runs, "dataset_name", "runs of one export must be on one dataset");
  const datasetVersion = agreed(runs, "dataset_version", "runs of one export must be on one dataset version");
  const agent = agreed(runs, "agent_name", "runs of one export must be of one config (agent)");
  const model = agreed(runs, "model_name", "runs of one export must be of one config (model)");
  const ids = new Map(runs.map((r) => [r, stringList(r, "task_ids")]));
  const runIds = new Map<string, Run>();
  for (const r of runs) {
    const twin = runIds.get(r.runId);
    if (twin !== undefined)
      fileError(
        r.metadataFile,
        `run_id ${JSON.stringify(r.runId)} is also the run of ${twin.metadataFile}: the same run twice`,
      );
    runIds.set(r.runId, r);
  }
  if (opts.modelConfig === undefined && (typeof model !== "string" || model === "")) {
    fileError(
      runs[0]?.metadataFile ?? opts.file,
      "the run names no model (model_name is null: tb records it only when --model is given), so the model " +
        "config cannot be read from it: give its id with --model-config ID",
      { field: "/model_name" },
    );
  }
  const several = runs.length > 1;
  const rows: ExportRow[] = [];
  const tally: Tally = {
    resolved: 0,
    unresolved: 0,
    nulls: new Map(),
    timeoutsResolved: 0,
    timeoutsUnresolved: 0,
  };
  for (const r of runs) trialRows(r, several, tally, rows, new Set(ids.get(r)));

  const notes: string[] = [];
  notes.push(
    several
      ? `${runs.length} runs of one config: ${listSome(runs.map((r) => `${r.runId} (${r.trials.length} trials)`))}; attempt = <run_id>/<k>`
      : `run ${runs[0]?.runId ?? ""}: ${runs[0]?.trials.length ?? 0} trials; attempt = k of "<task>.<k>-of-<n>"`,
  );
  if (typeof agent === "string") notes.push(`agent: ${agent} (run_metadata.json agent_name)`);
  const nulls = [...tally.nulls.entries()].sort(([a], [b]) => compareIds(a, b)).map(([m, n]) => `${n} ${m}`);
  notes.push(
    `is_resolved: ${tally.resolved} true → pass, ${tally.unresolved} false → fail, ` +
      `${[...tally.nulls.values()].reduce((a, b) => a + b, 0)} null → infra_error` +
      (nulls.length > 0 ? ` (failure_mode: ${nulls.join(", ")})` : ""),
  );
  if (tally.timeoutsResolved + tally.timeoutsUnresolved > 0) {
    notes.push(
      `agent_timeout: ${tally.timeoutsResolved + tally.timeoutsUnresolved} trials where the agent's own time ran out keep ` +
        `their outcome (${tally.timeoutsResolved} resolved → pass, ${tally.timeoutsUnresolved} not → fail)`,
    );
  }
  for (const r of runs) for (const n of crossCheck(r, rows, several)) notes.push(n);

  // The task universe: --tasks, else every run's task_ids.
  const listed = [...new Set(runs.flatMap((r) => ids.get(r) ?? []))].sort(compareIds);
  const universe = tasks?.ids ?? listed;
  const universeSet = new Set(universe);
  const kept = rows.filter((r) => universeSet.has(r.task_id));
  const outside = [...new Set(rows.filter((r) => !universeSet.has(r.task_id)).map((r) => r.task_id))].sort(
    compareIds,
  );
  if (outside.length > 0) {
    notes.push(
      `${outside.length} tasks outside the task list ${tasks?.file ?? ""} were left out (not counted): ${listSome(outside)}`,
    );
  }
  const tried = new Set(kept.map((r) => r.task_id));
  const missing = universe.filter((id) => !tried.has(id));
  for (const id of missing) kept.push(missingTask(id, runs, ids, tasks));
  if (missing.length > 0)
    notes.push(`${missing.length} tasks have no trial: written as missing (${listSome(missing)})`);
  notes.push(metricsNote(kept));

  const draft: ResultsDraft = {
    rows: kept,
    taskIds: universe,
    taskIdsFrom: tasks
      ? `the task list ${tasks.file}`
      : several
        ? `the task_ids of the ${runs.length} runs' ${TB_METADATA}`
        : `the task_ids of ${runs[0]?.metadataFile ?? TB_METADATA}`,
    modelConfig: { value: typeof model === "string" ? model : "", from: `${TB_METADATA} model_name` },
    notes,
  };
  const harness = harnessOf(runs);
  if (harness.common !== undefined) draft.harnessRevision = harness.common;
  if (several && harness.common === undefined) draft.rowHarnessFrom = `each run's ${TB_METADATA} commit_hash`;
  if (!several || harness.common !== undefined) for (const r of kept) delete r.harness_revision;
  if (typeof datasetName === "string" && datasetName !== "" && typeof datasetVersion === "string") {
    const ids256 = computeDatasetRevision(universe);
    draft.datasetRevision = {
      value: `${datasetName}@${datasetVersion}:${ids256}`,
      from:
        `computed: dataset_name@dataset_version, then sha256 of the ${universe.length} task ids in ` +
        `${draft.taskIdsFrom}, sorted by UTF-8 bytes and joined by "\\n"`,
    };
  }
  return draft;
}

function harnessOf(runs: readonly Run[]): { common?: DefaultValue } {
  const hashes = new Set(runs.map((r) => r.meta["commit_hash"]));
  const [only] = hashes;
  if (hashes.size !== 1 || typeof only !== "string" || only === "") return {};
  return {
    common: {
      value: `git:${only}`,
      from: `${TB_METADATA} commit_hash (the terminal-bench checkout tb ran from)`,
    },
  };
}

function missingTask(
  id: string,
  runs: readonly Run[],
  ids: ReadonlyMap<Run, readonly string[]>,
  tasks: ImporterInput["tasks"],
): ExportRow {
  if (tasks !== undefined) {
    const from = { file: tasks.file, line: tasks.lineOf.get(id) ?? 0 };
    return { task_id: id, result: "missing", evidence: [taskListEvidence(tasks, id)], from };
  }
  for (const r of runs) {
    const j = ids.get(r)?.indexOf(id) ?? -1;
    if (j >= 0) {
      const ptr = pointer("task_ids", j);
      return {
        task_id: id,
        result: "missing",
        evidence: [jsonEvidence(r.metadataFile, ptr)],
        from: { file: r.metadataFile, field: ptr },
      };
    }
  }
  return { task_id: id, result: "missing", evidence: [] };
}

/** The run's own summary against its trials: a disagreement is a warning (the trials are imported). */
function crossCheck(run: Run, rows: readonly ExportRow[], several: boolean): string[] {
  const mine = rows.filter((r) => r.evidence[0]?.startsWith(`${run.resultsFile}#`) === true);
  const resolved = mine.filter((r) => r.result === "pass").length;
  const total = run.trials.length;
  const accuracy = run.results["accuracy"];
  const what = several ? `${run.resultsFile}: ` : "";
  if (typeof accuracy !== "number" || total === 0) return [];
  if (Math.abs(accuracy - resolved / total) > 1e-9) {
    return [
      `WARNING: ${what}the file's accuracy is ${accuracy}, but ${resolved} of its ${total} trials are resolved ` +
        `(${(resolved / total).toFixed(4)}); the trials are imported`,
    ];
  }
  return [
    `${what}the file's accuracy ${accuracy} = ${resolved} resolved / ${total} trials (it counts is_resolved null as ` +
      "not resolved; here those are infra_error)",
  ];
}
