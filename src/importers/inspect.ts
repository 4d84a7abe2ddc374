/**
 * Inspect AI eval log, the binary `.eval` format or JSON (chosen by content, inspect-log.ts): one
 * row per sample and epoch (`attempt` = epoch), with the sample's token counts, cost and working
 * time as metrics.
 *
 * Score rule (the scorer is --scorer NAME, or the only scorer in the log):
 *   sample.error set → infra_error (whatever the score);
 *   --score-map entries first (exact string values, e.g. P=fail);
 *   "C" → pass, "I" → fail; true → pass, false → fail;
 *   numbers: with --pass-threshold X, value ≥ X → pass, else fail; without it only 1 → pass, 0 → fail;
 *   anything else (other strings, lists, objects, other numbers, no score) → an error naming the sample.
 * Tasks of the dataset (eval.dataset.sample_ids, or --tasks) without any sample → missing.
 */
import type { AttemptResult } from "../core/model.js";
import { unicodeNearMatch } from "../core/unicode-near-match.js";
import {
  type ExportRow,
  type Metrics,
  Problems,
  compareIds,
  escapePointerToken,
  fileError,
  fragmentOf,
  isObject,
  jsonEvidence,
  listSome,
  missingRow,
  typeName,
} from "./common.js";
import { type InspectLog, readEvalLog, readJsonLog } from "./inspect-log.js";
import { COST_USD, LATENCY_S, MetricsBuilder, TOKENS_IN, TOKENS_OUT, metricsNote } from "./metrics.js";
import type { DefaultValue, ImporterInput, ResultsDraft } from "./types.js";
import { isZip } from "./zip.js";
import { plural } from "../core/words.js";

export function importInspect({ opts, text, tasks, bytes }: ImporterInput): ResultsDraft {
  const file = opts.file;
  const log =
    bytes !== undefined && isZip(bytes)
      ? readEvalLog(file, bytes)
      : text.startsWith("PK\u0003\u0004")
        ? fileError(file, "this is a binary .eval log given as text: read it from its file")
        : readJsonLog(file, text);
  const problems: Problems = new Problems(file);
  const summary = `${file}: not a usable Inspect AI eval log`;
  const scorer = chooseScorer(file, log, opts.scorer);

  const seen = new Map<string, SampleRef>();
  const rows: ExportRow[] = [];
  let invalidated = 0;
  const errors: string[] = [];
  for (const sample of log.samples) {
    const s = sample.value;
    const field = sample.field;
    if (!isObject(s)) {
      problems.add(`expected a sample object, found ${typeName(s)}`, { field: field("") });
      continue;
    }
    const rawId = s["id"];
    if (
      !(typeof rawId === "string" && rawId !== "") &&
      !(typeof rawId === "number" && Number.isFinite(rawId))
    ) {
      problems.add(`expected a sample id (string or number), found ${typeName(rawId)}`, {
        field: field("/id"),
      });
      continue;
    }
    const id = String(rawId);
    const epoch = s["epoch"];
    if (typeof epoch !== "number" || !Number.isInteger(epoch) || epoch < 1) {
      problems.add(
        `sample ${JSON.stringify(id)}: expected an epoch (integer ≥ 1), found ${typeName(epoch)}`,
        {
          field: field("/epoch"),
        },
      );
      continue;
    }
    const key = `${id}\u0000${epoch}`;
    const dup = seen.get(key);
    if (dup !== undefined) {
      problems.add(
        `sample ${JSON.stringify(id)} epoch ${epoch} appears twice (also ${dup.where}): the log is ambiguous`,
        { field: field("") },
      );
      continue;
    }
    seen.set(key, { where: field(""), id, epoch });
    if (s["invalidation"] !== undefined && s["invalidation"] !== null) {
      invalidated += 1;
      continue;
    }
    const at = (sub: string) => jsonEvidence(sample.file, `${sample.ptr}${sub}`);
    const from = { file: sample.file, field: fragmentOf(`${sample.ptr}/id`) };
    const metrics = sampleMetrics(s, (message, sub) => {
      problems.add(`sample ${JSON.stringify(id)} epoch ${epoch}: ${message}`, { field: field(sub) });
    });
    const base = { task_id: id, attempt: epoch, from, ...(metrics !== undefined ? { metrics } : {}) };
    const error = s["error"];
    if (error !== undefined && error !== null) {
      // The error's message is the evidence: a pointer to it, or to the error when it has none.
      const message = isObject(error) && typeof error["message"] === "string";
      if (message) errors.push(firstLine(error["message"] as string));
      rows.push({ ...base, result: "infra_error", evidence: [at(message ? "/error/message" : "/error")] });
      continue;
    }
    const scores = s["scores"];
    const score = isObject(scores) && scorer !== undefined ? scores[scorer] : undefined;
    if (!isObject(score)) {
      problems.add(
        `sample ${JSON.stringify(id)} epoch ${epoch} has neither an error nor a score` +
          (scorer !== undefined ? ` from scorer ${JSON.stringify(scorer)}` : ""),
        { field: field("/scores") },
      );
      continue;
    }
    const vsub = `/scores/${escapePointerToken(scorer ?? "")}/value`;
    const result = mapScore(score["value"], opts);
    if (typeof result !== "string") {
      problems.add(`sample ${JSON.stringify(id)} epoch ${epoch}: ${result.problem}`, { field: field(vsub) });
      continue;
    }
    rows.push({ ...base, result, evidence: [at(vsub)] });
  }
  problems.throwIfAny(summary);
  return finishInspect(log, rows, { opts, tasks, scorer, invalidated, errors, seen });
}

interface SampleRef {
  where: string;
  id: string;
  epoch: number;
}

function firstLine(s: string): string {
  const line = s.split(/\r\n|\r|\n/)[0] ?? "";
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}

/** The scorer read: --scorer, or the only one the samples have. */
function chooseScorer(file: string, log: InspectLog, given: string | undefined): string | undefined {
  const scorerNames = new Set<string>();
  for (const { value: s } of log.samples) {
    if (isObject(s) && isObject(s["scores"])) for (const k of Object.keys(s["scores"])) scorerNames.add(k);
  }
  const listed = () => [...scorerNames].sort(compareIds).join(", ");
  if (given === undefined && scorerNames.size > 1) {
    fileError(file, `samples have several scorers (${listed()}): choose one with --scorer NAME`);
  }
  if (given !== undefined && scorerNames.size > 0 && !scorerNames.has(given)) {
    fileError(
      file,
      `--scorer ${JSON.stringify(given)}: no sample has that scorer; scorers: ${listed()}` +
        unicodeNearMatch(given, scorerNames),
    );
  }
  return given ?? [...scorerNames][0];
}

/**
 * A sample's metrics: tokens summed over the models of `model_usage` (input_tokens → tokens_in,
 * output_tokens → tokens_out, total_cost → cost_usd where Inspect records it), working_time → latency_s.
 */
function sampleMetrics(
  s: Record<string, unknown>,
  problem: (message: string, sub: string) => void,
): Metrics | undefined {
  const m = new MetricsBuilder();
  const usage = s["model_usage"];
  if (isObject(usage)) {
    const models = Object.keys(usage).sort(compareIds);
    const parts = (key: string) => models.map((k) => (isObject(usage[k]) ? usage[k][key] : undefined));
    for (const [name, key] of [
      [TOKENS_IN, "input_tokens"],
      [TOKENS_OUT, "output_tokens"],
      [COST_USD, "total_cost"],
    ] as const) {
      const p = m.addSum(name, parts(key));
      if (p !== null) problem(`model_usage ${key}: ${p}`, "/model_usage");
    }
  }
  const p = m.add(LATENCY_S, s["working_time"]);
  if (p !== null) problem(`working_time: ${p}`, "/working_time");
  return m.result;
}

function finishInspect(
  log: InspectLog,
  rows: ExportRow[],
  ctx: {
    opts: ImporterInput["opts"];
    tasks: ImporterInput["tasks"];
    scorer: string | undefined;
    invalidated: number;
    errors: readonly string[];
    seen: ReadonlyMap<string, SampleRef>;
  },
): ResultsDraft {
  const { opts, tasks, scorer, invalidated, seen } = ctx;
  const file = opts.file;
  const spec = log.spec;
  const notes: string[] = [];
  if (log.format === "eval") {
    notes.push(
      `read as a binary .eval log (a ZIP archive): ${log.samples.length} sample entries, the eval from ${log.specFrom ?? ""}`,
    );
  }
  if (log.status !== undefined && log.status !== "success") {
    notes.push(`the log's status is ${JSON.stringify(log.status)}, not "success"`);
  }
  if (invalidated > 0) notes.push(`${invalidated} invalidated samples were left out`);
  if (ctx.errors.length > 0) {
    const distinct = [...new Set(ctx.errors)];
    const n = rows.filter((r) => r.result === "infra_error").length;
    notes.push(`infra_error: ${plural(n, "sample")} with an error (${listSome(distinct, 3)})`);
  }
  if (scorer !== undefined) notes.push(`scores read from scorer ${JSON.stringify(scorer)}`);
  notes.push(scoreRuleNote(opts));

  // The task universe: --tasks, else the dataset's sample ids, else the ids seen.
  const dataset = isObject(spec["dataset"]) ? spec["dataset"] : {};
  const datasetIds = Array.isArray(dataset["sample_ids"])
    ? dataset["sample_ids"].filter((x) => typeof x === "string" || typeof x === "number").map(String)
    : undefined;
  const seenIds = [...new Set([...seen.values()].map((r) => r.id))].sort(compareIds);
  const universe = tasks?.ids ?? datasetIds ?? seenIds;
  const universeSet = new Set(universe);
  const outside = seenIds.filter((id) => !universeSet.has(id));
  const kept = rows.filter((r) => universeSet.has(r.task_id));
  if (outside.length > 0) {
    notes.push(
      `${outside.length} sample ids outside ${tasks ? `the task list ${tasks.file}` : "eval.dataset.sample_ids"} ` +
        `were left out (not counted): ${listSome(outside)}`,
    );
  }
  const withRows = new Set(kept.map((r) => r.task_id));
  const missing = universe.filter((id) => !withRows.has(id));
  for (const id of missing) kept.push(missingRow(id, file, tasks));
  if (missing.length > 0) {
    notes.push(
      `${missing.length} tasks have no sample in the log: written as missing (${listSome(missing)})`,
    );
  }
  const config = isObject(spec["config"]) ? spec["config"] : {};
  const epochs = typeof config["epochs"] === "number" ? config["epochs"] : 1;
  const perTask = new Map<string, number>();
  for (const r of kept) if (r.result !== "missing") perTask.set(r.task_id, (perTask.get(r.task_id) ?? 0) + 1);
  const short = [...perTask.entries()].filter(([, n]) => n < epochs).map(([id]) => id);
  if (short.length > 0) {
    notes.push(`${short.length} tasks have fewer than the ${epochs} configured epochs: ${listSome(short)}`);
  }
  notes.push(metricsNote(kept));

  const model = typeof spec["model"] === "string" && spec["model"] !== "" ? spec["model"] : "inspect-model";
  const revision = isObject(spec["revision"]) ? spec["revision"] : undefined;
  let harness: DefaultValue | undefined;
  if (revision !== undefined && typeof revision["commit"] === "string" && revision["commit"] !== "") {
    const origin = typeof revision["origin"] === "string" ? ` of ${revision["origin"]}` : "";
    harness = { value: `git:${revision["commit"]}`, from: `eval.revision (the eval's git commit${origin})` };
    if (revision["dirty"] === true) {
      notes.push(
        `WARNING: eval.revision says the eval's working tree was dirty (uncommitted changes): ${harness.value} ` +
          "names the commit, not everything that ran",
      );
    }
  }
  const draft: ResultsDraft = {
    rows: kept,
    taskIds: universe,
    taskIdsFrom: tasks
      ? `the task list ${tasks.file}`
      : datasetIds
        ? "eval.dataset.sample_ids"
        : "the log's samples",
    modelConfig: { value: model, from: "eval.model" },
    notes,
  };
  if (harness !== undefined) draft.harnessRevision = harness;
  return draft;
}

/** Maps one score value by the documented rule; a problem description when it cannot. */
export function mapScore(
  value: unknown,
  opts: { passThreshold?: number; scoreMap?: Record<string, AttemptResult> },
): AttemptResult | { problem: string } {
  if (typeof value === "string") {
    // Own keys only: a score value "toString" is not a mapping.
    const map = opts.scoreMap;
    if (map !== undefined && Object.hasOwn(map, value)) return map[value] as AttemptResult;
    if (value === "C") return "pass";
    if (value === "I") return "fail";
    return {
      problem:
        `score value ${JSON.stringify(value)} has no mapping (C → pass, I → fail; add e.g. --score-map ${value}=fail)` +
        unicodeNearMatch(value, Object.keys(map ?? {}), {
          found: "is in --score-map",
          given: "the log's value",
          other: "--score-map",
          fix: "map the log's value",
        }),
    };
  }
  if (typeof value === "boolean") return value ? "pass" : "fail";
  if (typeof value === "number" && Number.isFinite(value)) {
    if (opts.passThreshold !== undefined) return value >= opts.passThreshold ? "pass" : "fail";
    if (value === 1) return "pass";
    if (value === 0) return "fail";
    return { problem: `numeric score ${value} is neither 1 nor 0: give --pass-threshold X` };
  }
  return { problem: `score value ${typeName(value)} cannot be mapped to pass or fail` };
}

function scoreRuleNote(opts: { passThreshold?: number; scoreMap?: Record<string, AttemptResult> }): string {
  const extra = Object.entries(opts.scoreMap ?? {}).map(([k, v]) => `${JSON.stringify(k)} → ${v}`);
  const numeric =
    opts.passThreshold !== undefined
      ? `numbers ≥ ${opts.passThreshold} → pass, below → fail`
      : "1 → pass, 0 → fail (other numbers need --pass-threshold)";
  return (
    `score rule: sample error → infra_error; ${extra.length > 0 ? `${extra.join(", ")}; ` : ""}` +
    `"C" → pass, "I" → fail; true → pass, false → fail; ${numeric}`
  );
}
