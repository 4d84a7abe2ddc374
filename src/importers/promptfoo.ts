/**
 * promptfoo's `promptfoo eval --output results.json`: one result per test case × prompt ×
 * provider (× repeat), under `results.results`.
 *
 * - task: the test case's `description`; a test without one is `vars:<16 hex>` (the SHA-256 of its
 *   vars as canonical JSON — keys sorted — so the id does not move when tests are reordered); when
 *   one description covers several var combinations (promptfoo's var expansion), each is its own
 *   task, `<description> [vars:<16 hex>]`;
 * - model_config: the provider's id (`--model-config-from label`: its label); with several prompts
 *   the prompt's label joins it (`<provider> | <prompt label>`) unless --prompt picks one;
 * - attempt: 1, 2, … in `testIdx` order within a task and config (`--repeat N` runs each test N
 *   times, consecutively);
 * - result: `success` true → pass; `failureReason` 2 (promptfoo's error: the provider call failed)
 *   → infra_error, its `error` message the evidence; otherwise fail;
 * - metrics: `latencyMs` / 1000 → latency_s, `cost` → cost_usd, `tokenUsage.prompt` → tokens_in,
 *   `tokenUsage.completion` → tokens_out; none on a row whose provider call failed (promptfoo
 *   records zero usage and latency there, not a measurement) or that came from promptfoo's cache.
 */
import { createHash } from "node:crypto";
import { unicodeNearMatch } from "../core/unicode-near-match.js";
import {
  type ExportRow,
  Problems,
  compareIds,
  fileError,
  isObject,
  jsonEvidence,
  listSome,
  parseJsonFile,
  perConfigTasks,
  pointer,
  typeName,
} from "./common.js";
import { COST_USD, LATENCY_S, MetricsBuilder, TOKENS_IN, TOKENS_OUT, metricsNote } from "./metrics.js";
import type { ImporterInput, ResultsDraft } from "./types.js";

interface Entry {
  readonly index: number;
  readonly provider: { id: string; label: string | undefined };
  readonly prompt: { label: string; id: string };
  readonly description: string | undefined;
  readonly varsJson: string;
  readonly signature: string;
  readonly testIdx: number;
  readonly value: Record<string, unknown>;
}

/** JSON with object keys sorted, so equal values give equal text. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  if (isObject(v)) {
    const keys = Object.keys(v).sort(compareIds);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k])}`).join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

const hash16 = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 16);

function entriesOf(file: string, text: string): { entries: Entry[]; doc: Record<string, unknown> } {
  const doc = parseJsonFile(file, text);
  const problems: Problems = new Problems(file);
  const summary = `${file}: not a usable promptfoo results file`;
  const results = isObject(doc) && isObject(doc["results"]) ? doc["results"]["results"] : undefined;
  if (!isObject(doc) || !Array.isArray(results)) {
    problems.fail(
      summary,
      `expected promptfoo's output {"results": {"results": [...]}} (promptfoo eval --output results.json), found ${typeName(results)}`,
      { field: "/results/results" },
    );
  }
  const entries: Entry[] = [];
  (results as unknown[]).forEach((r, i) => {
    const at = (sub: string) => `${pointer("results", "results", i)}${sub}`;
    if (!isObject(r)) {
      problems.add(`expected a result object, found ${typeName(r)}`, { field: at("") });
      return;
    }
    const p = r["provider"];
    const provider =
      typeof p === "string"
        ? { id: p, label: undefined }
        : isObject(p) && typeof p["id"] === "string"
          ? {
              id: p["id"],
              label: typeof p["label"] === "string" && p["label"] !== "" ? p["label"] : undefined,
            }
          : undefined;
    if (provider === undefined || provider.id === "") {
      problems.add(`expected a provider {id, label}, found ${typeName(p)}`, { field: at("/provider") });
      return;
    }
    const pr = r["prompt"];
    const label = isObject(pr) && typeof pr["label"] === "string" ? pr["label"] : undefined;
    if (label === undefined) {
      problems.add(`expected a prompt with a label, found ${typeName(pr)}`, { field: at("/prompt") });
      return;
    }
    const testIdx = r["testIdx"];
    if (typeof testIdx !== "number" || !Number.isInteger(testIdx) || testIdx < 0) {
      problems.add(`expected testIdx (an integer ≥ 0), found ${typeName(testIdx)}`, {
        field: at("/testIdx"),
      });
      return;
    }
    const testCase = isObject(r["testCase"]) ? r["testCase"] : {};
    const d = testCase["description"];
    const vars = r["vars"] ?? testCase["vars"] ?? {};
    entries.push({
      index: i,
      provider,
      prompt: { label, id: typeof r["promptId"] === "string" ? r["promptId"] : label },
      description: typeof d === "string" && d.trim() !== "" ? d : undefined,
      varsJson: canonicalJson(vars),
      signature: canonicalJson({
        vars,
        assert: testCase["assert"] ?? null,
        options: testCase["options"] ?? null,
      }),
      testIdx,
      value: r,
    });
  });
  problems.throwIfAny(summary);
  return { entries, doc };
}

/** --provider and --prompt: keep one; a name that only differs by Unicode folding is shown. */
function pick<T>(
  file: string,
  all: readonly T[],
  given: string | undefined,
  names: (t: T) => string[],
  what: string,
): T[] {
  if (given === undefined) return [...all];
  const kept = all.filter((e) => names(e).includes(given));
  if (kept.length === 0) {
    const known = [...new Set(all.flatMap(names))].sort(compareIds);
    fileError(
      file,
      `--${what} ${JSON.stringify(given)}: no result has that ${what}; ${what}s: ${listSome(known, 10)}` +
        unicodeNearMatch(given, known),
    );
  }
  return kept;
}

export function importPromptfoo({ opts, text, tasks }: ImporterInput): ResultsDraft {
  const file = opts.file;
  const { entries: all, doc } = entriesOf(file, text);
  if (all.length === 0)
    fileError(file, "results.results is empty: nothing was evaluated", { field: "/results/results" });
  const byProvider = pick(
    file,
    all,
    opts.provider,
    (e) => [e.provider.id, ...(e.provider.label ? [e.provider.label] : [])],
    "provider",
  );
  const entries = pick(file, byProvider, opts.prompt, (e) => [e.prompt.label, e.prompt.id], "prompt");
  const nameBy = opts.modelConfigFrom ?? "id";
  const prompts = new Set(entries.map((e) => e.prompt.id));
  const configOf = (e: Entry) => {
    const provider = nameBy === "label" ? (e.provider.label ?? e.provider.id) : e.provider.id;
    return prompts.size > 1 ? `${provider} | ${e.prompt.label}` : provider;
  };
  const unlabelled =
    nameBy === "label"
      ? new Set(entries.filter((e) => e.provider.label === undefined).map((e) => e.provider.id))
      : new Set();
  const taskOf = taskIds(entries);
  const repeat = repeatOf(doc);
  const problems: Problems = new Problems(file);
  const groups = new Map<string, Entry[]>();
  for (const e of entries) {
    const key = JSON.stringify([configOf(e), taskOf(e)]);
    const g = groups.get(key);
    if (g === undefined) groups.set(key, [e]);
    else g.push(e);
  }
  const rows: ExportRow[] = [];
  const counts = { errors: [] as string[], noMetrics: 0, cached: 0 };
  for (const group of groups.values()) {
    group.sort((a, b) => a.testIdx - b.testIdx || a.index - b.index);
    const first = group[0] as Entry;
    const other = group.find((e) => e.signature !== first.signature);
    if (other !== undefined) {
      problems.add(
        `task ${JSON.stringify(taskOf(first))} names two different tests (also /results/results/${first.index}: other vars, ` +
          "asserts or options): give each test its own description",
        { field: pointer("results", "results", other.index) },
      );
      continue;
    }
    if (repeat !== undefined && group.length > repeat) {
      problems.add(
        `task ${JSON.stringify(taskOf(first))} has ${group.length} results for ${configOf(first)} but the eval ran each test ` +
          `${repeat} time(s): two tests share the description and vars; give each its own description`,
        { field: pointer("results", "results", group[repeat]?.index ?? first.index) },
      );
      continue;
    }
    group.forEach((e, k) => {
      const row = resultRow(file, e, problems, counts);
      if (row === undefined) return;
      rows.push({ ...row, task_id: taskOf(e), attempt: k + 1, model_config: configOf(e) });
    });
  }
  problems.throwIfAny(`${file}: not a usable promptfoo results file`);
  return finish(opts, doc, rows, {
    tasks,
    repeat,
    prompts: prompts.size,
    counts,
    unlabelled: [...unlabelled] as string[],
  });
}

/** Task ids: the description; vars-hashed where there is none or it covers several var combinations. */
function taskIds(entries: readonly Entry[]): (e: Entry) => string {
  const varsOf = new Map<string, Set<string>>();
  for (const e of entries) {
    if (e.description === undefined) continue;
    const s = varsOf.get(e.description) ?? new Set<string>();
    s.add(e.varsJson);
    varsOf.set(e.description, s);
  }
  return (e) => {
    const h = `vars:${hash16(e.varsJson)}`;
    if (e.description === undefined) return h;
    return (varsOf.get(e.description)?.size ?? 0) > 1 ? `${e.description} [${h}]` : e.description;
  };
}

function repeatOf(doc: Record<string, unknown>): number | undefined {
  const from = [
    isObject(doc["runtimeOptions"]) ? doc["runtimeOptions"]["repeat"] : undefined,
    isObject(doc["config"]) && isObject(doc["config"]["evaluateOptions"])
      ? doc["config"]["evaluateOptions"]["repeat"]
      : undefined,
  ].find((v) => typeof v === "number" && Number.isInteger(v) && v >= 1);
  return from as number | undefined;
}

function resultRow(
  file: string,
  e: Entry,
  problems: Problems,
  counts: { errors: string[]; noMetrics: number; cached: number },
): Omit<ExportRow, "task_id"> | undefined {
  const r = e.value;
  const at = (sub: string) => `${pointer("results", "results", e.index)}${sub}`;
  const success = r["success"];
  const reason = r["failureReason"];
  if (typeof success !== "boolean") {
    problems.add(`expected success true or false, found ${typeName(success)}`, { field: at("/success") });
    return undefined;
  }
  if (reason !== undefined && reason !== 0 && reason !== 1 && reason !== 2) {
    problems.add(`expected failureReason 0 (none), 1 (assertion) or 2 (error), found ${typeName(reason)}`, {
      field: at("/failureReason"),
    });
    return undefined;
  }
  if (success && reason !== undefined && reason !== 0) {
    problems.add(`success is true but failureReason is ${String(reason)}: the result contradicts itself`, {
      field: at("/failureReason"),
    });
    return undefined;
  }
  if (!success && reason === undefined && !isObject(r["gradingResult"])) {
    problems.add(
      "success is false with no failureReason and no gradingResult: an assertion failure cannot be told from a provider " +
        "error (an output older than promptfoo's failureReason field; re-run the eval with a current promptfoo)",
      { field: at("/success") },
    );
    return undefined;
  }
  const from = { file, field: at("") };
  if (reason === 2) {
    const msg = typeof r["error"] === "string" ? r["error"] : "";
    counts.errors.push(firstLine(msg));
    counts.noMetrics += 1;
    return {
      result: "infra_error",
      evidence: [jsonEvidence(file, at(typeof r["error"] === "string" ? "/error" : "/failureReason"))],
      from,
    };
  }
  const row: Omit<ExportRow, "task_id"> = {
    result: success ? "pass" : "fail",
    evidence: [jsonEvidence(file, at("/success"))],
    from,
  };
  const response = isObject(r["response"]) ? r["response"] : undefined;
  if (response?.["cached"] === true) {
    counts.cached += 1;
    return row;
  }
  const m = new MetricsBuilder();
  const usage = isObject(r["tokenUsage"]) ? r["tokenUsage"] : {};
  const latency = r["latencyMs"];
  const add = (name: string, value: unknown, field: string) => {
    const p = m.add(name, value);
    if (p !== null) problems.add(`${field.slice(1)}: ${p}`, { field: at(field) });
  };
  add(LATENCY_S, typeof latency === "number" ? latency / 1000 : latency, "/latencyMs");
  add(COST_USD, r["cost"], "/cost");
  add(TOKENS_IN, usage["prompt"], "/tokenUsage/prompt");
  add(TOKENS_OUT, usage["completion"], "/tokenUsage/completion");
  const metrics = m.result;
  if (metrics !== undefined) row.metrics = metrics;
  return row;
}

function firstLine(s: string): string {
  const line = s.split(/\r\n|\r|\n/)[0] ?? "";
  return line.length > 100 ? `${line.slice(0, 100)}…` : line;
}

function finish(
  opts: ImporterInput["opts"],
  doc: Record<string, unknown>,
  rows: ExportRow[],
  ctx: {
    tasks: ImporterInput["tasks"];
    repeat: number | undefined;
    prompts: number;
    counts: { errors: string[]; noMetrics: number; cached: number };
    unlabelled: string[];
  },
): ResultsDraft {
  const { tasks, counts } = ctx;
  const file = opts.file;
  const notes: string[] = [];
  const meta = isObject(doc["metadata"]) ? doc["metadata"] : {};
  const version = typeof meta["promptfooVersion"] === "string" ? meta["promptfooVersion"] : "unknown";
  const evalId = typeof doc["evalId"] === "string" ? doc["evalId"] : "unknown";
  notes.push(
    `promptfoo ${version}, eval ${evalId}: ${rows.length} results; repeat ${ctx.repeat ?? "not recorded"}`,
  );
  const configs = [...new Set(rows.map((r) => r.model_config ?? ""))].sort(compareIds);
  if (ctx.prompts > 1)
    notes.push(
      `${ctx.prompts} prompts: the prompt's label joins the provider in model_config (--prompt LABEL picks one)`,
    );
  if (ctx.unlabelled.length > 0)
    notes.push(`providers without a label keep their id: ${listSome(ctx.unlabelled)}`);
  const hashed = [...new Set(rows.map((r) => r.task_id).filter((t) => t.includes("vars:")))];
  if (hashed.length > 0) {
    notes.push(
      `${hashed.length} tasks are named by a hash of their vars (tests without a description, or a description covering ` +
        `several var combinations): ${listSome(hashed.sort(compareIds))}`,
    );
  }
  notes.push("success true → pass; failureReason 2 (promptfoo's error) → infra_error; other failures → fail");
  if (counts.errors.length > 0) {
    notes.push(
      `infra_error: ${counts.errors.length} results whose provider call failed (${listSome([...new Set(counts.errors)], 3)})`,
    );
  }
  if (counts.noMetrics + counts.cached > 0) {
    notes.push(
      `metrics left out on ${counts.noMetrics + counts.cached} results (${counts.noMetrics} provider errors, ${counts.cached} ` +
        "cached): promptfoo's zero usage and latency there are not measurements",
    );
  }
  if (opts.provider === undefined && opts.prompt === undefined)
    for (const n of statsCheck(doc, rows)) notes.push(n);

  // Tasks: --tasks, else every task of the file; each config's tasks without a result → missing.
  const { rows: kept, universe } = perConfigTasks(rows, file, tasks, notes);
  notes.push(metricsNote(kept));
  return {
    rows: kept,
    taskIds: universe,
    taskIdsFrom: tasks ? `the task list ${tasks.file}` : "the file's test cases",
    modelConfig: {
      value: configs[0] ?? "",
      from: `the provider's ${opts.modelConfigFrom ?? "id"}${ctx.prompts > 1 ? " and the prompt's label" : ""}; --model-config-from id|label`,
    },
    pickOne: "pick one provider with --provider ID|LABEL (and one prompt with --prompt LABEL)",
    notes,
  };
}

/** The file's own `results.stats` against the results: a disagreement is a warning. */
function statsCheck(doc: Record<string, unknown>, rows: readonly ExportRow[]): string[] {
  const stats =
    isObject(doc["results"]) && isObject(doc["results"]["stats"]) ? doc["results"]["stats"] : undefined;
  if (stats === undefined) return [];
  const n = (r: string) => rows.filter((x) => x.result === r).length;
  const mine = { successes: n("pass"), failures: n("fail"), errors: n("infra_error") };
  const theirs = { successes: stats["successes"], failures: stats["failures"], errors: stats["errors"] };
  const same = (Object.keys(mine) as (keyof typeof mine)[]).every((k) => theirs[k] === mine[k]);
  const shown = (o: Record<string, unknown>) =>
    `${String(o["successes"])} successes, ${String(o["failures"])} failures, ${String(o["errors"])} errors`;
  return same
    ? [`results.stats agrees: ${shown(mine)}`]
    : [
        `WARNING: results.stats says ${shown(theirs)}, but the file's results have ${shown(mine)}; the results are imported`,
      ];
}
