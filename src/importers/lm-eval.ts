/**
 * EleutherAI lm-evaluation-harness, `--log_samples` output: `samples_<task>_<timestamp>.jsonl`
 * (one line per document and filter) with its `results_<timestamp>.json` (model and config).
 *
 * - task = `<task name>/<doc_id>`, the task name from the samples file's name (or, when the file
 *   was renamed, the only task of the results file);
 * - the metric read: --metric NAME, else the one each line's `metrics` list names; its value 1 (or
 *   true) → pass, 0 (or false) → fail; another number needs --threshold X (≥ X passes; ≤ X for a
 *   metric the results file marks lower-is-better); anything else is refused, naming the line;
 * - several filters (e.g. strict-match and flexible-extract) are refused unless --filter names one;
 * - model_config: the results file's `model_name`; harness_revision: `git:<git_hash>` (the
 *   lm-evaluation-harness commit that ran); no attempt (one line per document), no infra_error
 *   (the samples record no error state), no metrics (they record no cost, time or tokens).
 */
import { unicodeNearMatch } from "../core/unicode-near-match.js";
import {
  type ExportRow,
  Problems,
  compareIds,
  fileError,
  isObject,
  listSome,
  missingRow,
  parseJsonFile,
  typeName,
} from "./common.js";
import { readJsonLines } from "./jsonl.js";
import { LM_EVAL_RESULTS, lmEvalSamplesName } from "./lm-eval-names.js";
import type { DefaultValue, ImporterInput, ResultsDraft } from "./types.js";

interface Sample {
  readonly line: number;
  readonly docId: string;
  readonly filter: string;
  readonly value: Record<string, unknown>;
}

function resultsOf(opts: ImporterInput["opts"], related: ImporterInput["related"]) {
  const r = related?.find((f) => f.role === LM_EVAL_RESULTS);
  if (r === undefined)
    return fileError(opts.file, "the lm-eval results file was not read (--results-json FILE)");
  const doc = parseJsonFile(r.shown, r.text);
  if (!isObject(doc)) fileError(r.shown, `expected lm-eval's results object, found ${typeName(doc)}`);
  return { file: r.shown, doc };
}

/** The task's name: from the samples file's name, else the results file's only task. */
function taskName(file: string, results: { file: string; doc: Record<string, unknown> }): string {
  const tasks = Object.keys(
    isObject(results.doc["configs"]) ? results.doc["configs"] : (results.doc["results"] ?? {}),
  );
  const named = lmEvalSamplesName(file)?.task;
  if (named !== undefined) {
    if (tasks.length > 0 && !tasks.includes(named)) {
      fileError(
        results.file,
        `the results file has no task ${JSON.stringify(named)} (the samples file's name says it holds that task); ` +
          `its tasks: ${listSome(tasks.sort(compareIds))}: is it the results file of these samples?`,
      );
    }
    return named;
  }
  if (tasks.length === 1 && tasks[0] !== undefined) return tasks[0];
  return fileError(
    file,
    `the file name is not samples_<task>_<timestamp>.jsonl, and the results file holds ${tasks.length} tasks: ` +
      "keep the name lm-eval gave the samples file, so the task is known",
  );
}

function readSamples(file: string, text: string): Sample[] {
  const problems: Problems = new Problems(file);
  const out: Sample[] = [];
  for (const { line, value } of readJsonLines(file, text)) {
    if (!isObject(value)) {
      problems.add(`expected a sample object, found ${typeName(value)}`, { line });
      continue;
    }
    const doc = value["doc_id"];
    if (!(
      (typeof doc === "number" && Number.isInteger(doc) && doc >= 0) ||
      (typeof doc === "string" && doc !== "")
    )) {
      problems.add(`expected doc_id (an integer ≥ 0), found ${typeName(doc)}`, { line, field: "doc_id" });
      continue;
    }
    const filter = value["filter"] ?? "none";
    if (typeof filter !== "string") {
      problems.add(`expected filter to be a string, found ${typeName(filter)}`, { line, field: "filter" });
      continue;
    }
    out.push({ line, docId: String(doc), filter, value });
  }
  problems.throwIfAny(`${file}: not usable lm-eval samples`);
  if (out.length === 0) fileError(file, "the samples file holds no sample");
  return out;
}

/** The metric each line is read by: --metric, else the one (and only) name of its `metrics` list. */
function metricOf(file: string, samples: readonly Sample[], given: string | undefined): string {
  if (given !== undefined) {
    const missing = samples.find((s) => !(given in s.value));
    if (missing !== undefined) {
      const names = Array.isArray(missing.value["metrics"]) ? missing.value["metrics"].map(String) : [];
      fileError(
        file,
        `--metric ${JSON.stringify(given)}: line ${missing.line} has no such field (its metrics: ${names.join(", ") || "none listed"})` +
          unicodeNearMatch(given, names),
        { line: missing.line },
      );
    }
    return given;
  }
  let metric: string | undefined;
  for (const s of samples) {
    const list = s.value["metrics"];
    if (!Array.isArray(list) || list.length !== 1 || typeof list[0] !== "string") {
      fileError(
        file,
        `line ${s.line} lists ${Array.isArray(list) ? `the metrics ${list.map((x) => JSON.stringify(x)).join(", ")}` : `no metrics list (${typeName(list)})`}: ` +
          "choose the one that decides pass or fail with --metric NAME",
        { line: s.line, field: "metrics" },
      );
    }
    const name = list[0];
    if (metric !== undefined && name !== metric) {
      fileError(
        file,
        `line ${s.line} names the metric ${JSON.stringify(name)}, earlier lines ${JSON.stringify(metric)}: choose one with --metric`,
        {
          line: s.line,
          field: "metrics",
        },
      );
    }
    metric = name;
  }
  return metric as string;
}

export function importLmEval({ opts, text, tasks, related }: ImporterInput): ResultsDraft {
  const file = opts.file;
  const results = resultsOf(opts, related);
  const task = taskName(file, results);
  const all = readSamples(file, text);
  const filters = [...new Set(all.map((s) => s.filter))].sort(compareIds);
  if (opts.filter === undefined && filters.length > 1) {
    fileError(
      file,
      `the samples hold several filters (${filters.join(", ")}): choose one with --filter NAME`,
    );
  }
  if (opts.filter !== undefined && !filters.includes(opts.filter)) {
    fileError(
      file,
      `--filter ${JSON.stringify(opts.filter)}: no line has that filter; filters: ${filters.join(", ")}` +
        unicodeNearMatch(opts.filter, filters),
    );
  }
  const filter = opts.filter ?? filters[0] ?? "none";
  const samples = all.filter((s) => s.filter === filter);
  const metric = metricOf(file, samples, opts.metric);
  const lowerIsBetter = higherIsBetter(results.doc, task, metric) === false;
  const problems: Problems = new Problems(file);
  const seen = new Map<string, number>();
  const rows: ExportRow[] = [];
  const values: number[] = [];
  for (const s of samples) {
    const first = seen.get(s.docId);
    if (first !== undefined) {
      problems.add(
        `doc_id ${s.docId} with filter ${JSON.stringify(filter)} appears twice (first on line ${first}): the samples are ambiguous`,
        {
          line: s.line,
        },
      );
      continue;
    }
    seen.set(s.docId, s.line);
    const v = s.value[metric];
    const at = { line: s.line, field: metric };
    let pass: boolean;
    if (typeof v === "boolean") pass = v;
    else if (typeof v === "number" && Number.isFinite(v)) {
      values.push(v);
      if (opts.passThreshold !== undefined)
        pass = lowerIsBetter ? v <= opts.passThreshold : v >= opts.passThreshold;
      else if (v === 1 || v === 0) pass = v === 1;
      else {
        problems.add(`${metric} = ${v} is neither 1 nor 0: give --threshold X (values ≥ X pass)`, at);
        continue;
      }
    } else {
      problems.add(
        `${metric} is ${typeName(v)}, which cannot be read as pass or fail: choose another --metric`,
        at,
      );
      continue;
    }
    if (typeof v === "boolean") values.push(v ? 1 : 0);
    const id = `${task}/${s.docId}`;
    rows.push({
      task_id: id,
      result: pass ? "pass" : "fail",
      evidence: [`${file}#L${s.line}`],
      from: { file, line: s.line },
    });
  }
  problems.throwIfAny(`${file}: not usable lm-eval samples`);
  return finish(opts, { results, task, filter, metric, lowerIsBetter, rows, values, tasks });
}

function higherIsBetter(doc: Record<string, unknown>, task: string, metric: string): boolean | undefined {
  const h = doc["higher_is_better"];
  const t = isObject(h) ? h[task] : undefined;
  const v = isObject(t) ? t[metric] : undefined;
  return typeof v === "boolean" ? v : undefined;
}

function finish(
  opts: ImporterInput["opts"],
  ctx: {
    results: { file: string; doc: Record<string, unknown> };
    task: string;
    filter: string;
    metric: string;
    lowerIsBetter: boolean;
    rows: ExportRow[];
    values: readonly number[];
    tasks: ImporterInput["tasks"];
  },
): ResultsDraft {
  const { results, task, filter, metric, rows, tasks } = ctx;
  const file = opts.file;
  const doc = results.doc;
  const notes: string[] = [];
  notes.push(
    `task ${task} (${lmEvalSamplesName(file) !== undefined ? "from the file name" : `the only task of ${results.file}`}), filter ${JSON.stringify(filter)}, metric ${metric}`,
  );
  notes.push(
    opts.passThreshold !== undefined
      ? `${metric} ${ctx.lowerIsBetter ? `≤ ${opts.passThreshold}` : `≥ ${opts.passThreshold}`} → pass, else fail` +
          (ctx.lowerIsBetter ? ` (the results file says lower is better for ${metric})` : "")
      : `${metric} 1 → pass, 0 → fail`,
  );
  notes.push(
    "no infra_error: lm-eval's samples record no error state; a failed generation reads as its metric says",
  );
  const nSamples =
    isObject(doc["n-samples"]) && isObject(doc["n-samples"][task])
      ? doc["n-samples"][task]["effective"]
      : undefined;
  if (typeof nSamples === "number" && nSamples !== rows.length) {
    notes.push(
      `WARNING: ${results.file} says ${nSamples} documents were evaluated, but the samples file holds ${rows.length} with ` +
        `filter ${JSON.stringify(filter)}: only these are imported`,
    );
  }
  const published =
    isObject(doc["results"]) && isObject(doc["results"][task])
      ? doc["results"][task][`${metric},${filter}`]
      : undefined;
  if (
    typeof published === "number" &&
    typeof nSamples === "number" &&
    nSamples === rows.length &&
    ctx.values.length === rows.length
  ) {
    const mean = ctx.values.reduce((a, b) => a + b, 0) / ctx.values.length;
    notes.push(
      Math.abs(mean - published) <= 1e-9
        ? `${results.file} publishes ${metric},${filter} = ${published}, the mean of the lines`
        : `WARNING: ${results.file} publishes ${metric},${filter} = ${published}, but the lines' mean is ${mean}`,
    );
  }
  const seen = rows.map((r) => r.task_id).sort(compareIds);
  const universe = tasks?.ids ?? seen;
  const inside = new Set(universe);
  const kept = rows.filter((r) => inside.has(r.task_id));
  const outside = seen.filter((id) => !inside.has(id));
  if (outside.length > 0)
    notes.push(
      `${outside.length} documents outside the task list ${tasks?.file ?? ""} were left out (not counted): ${listSome(outside)}`,
    );
  const have = new Set(kept.map((r) => r.task_id));
  const missing = universe.filter((id) => !have.has(id));
  for (const id of missing) kept.push(missingRow(id, file, tasks));
  if (missing.length > 0)
    notes.push(
      `${missing.length} tasks of the task list have no sample: written as missing (${listSome(missing)})`,
    );
  notes.push("metrics: none written (lm-eval's samples record no cost, time or token counts)");
  const hash = isObject(doc["task_hashes"]) ? doc["task_hashes"][task] : undefined;
  if (typeof hash === "string") notes.push(`lm-eval's task hash for ${task}: ${hash}`);

  const model =
    typeof doc["model_name"] === "string" && doc["model_name"] !== "" ? doc["model_name"] : undefined;
  if (model === undefined && opts.modelConfig === undefined) {
    fileError(
      results.file,
      "the results file names no model (model_name): give the model config's id with --model-config ID",
      { field: "/model_name" },
    );
  }
  const draft: ResultsDraft = {
    rows: kept,
    taskIds: universe,
    taskIdsFrom: tasks ? `the task list ${tasks.file}` : "the samples file",
    modelConfig: { value: model ?? "", from: `${results.file} model_name` },
    notes,
  };
  const harness = harnessOf(results);
  if (harness !== undefined) draft.harnessRevision = harness;
  return draft;
}

function harnessOf(results: { file: string; doc: Record<string, unknown> }): DefaultValue | undefined {
  const git = results.doc["git_hash"];
  const version = results.doc["lm_eval_version"];
  const v = typeof version === "string" ? `, lm_eval_version ${version}` : "";
  if (typeof git === "string" && git !== "") {
    return {
      value: `git:${git}`,
      from: `${results.file} git_hash (the lm-evaluation-harness commit that ran${v})`,
    };
  }
  if (typeof version === "string" && version !== "") {
    return { value: `lm-eval@${version}`, from: `${results.file} lm_eval_version (it records no git_hash)` };
  }
  return undefined;
}
