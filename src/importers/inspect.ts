/**
 * Inspect AI eval log in the JSON format (`inspect eval … --log-format json`, or
 * `inspect log convert LOG.eval --to json --output-dir DIR`): one row per sample and epoch
 * (`attempt` = epoch).
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
  Problems,
  compareIds,
  fileError,
  fragmentOf,
  isObject,
  jsonEvidence,
  listSome,
  missingRow,
  parseJsonFile,
  pointer,
  typeName,
} from "./common.js";
import type { DefaultValue, ImporterInput, ResultsDraft } from "./types.js";

interface SampleRef {
  index: number;
  id: string;
  epoch: number;
}

export function importInspect({ opts, text, tasks }: ImporterInput): ResultsDraft {
  const file = opts.file;
  if (text.startsWith("PK")) {
    fileError(
      file,
      "this is a binary .eval log; convert it to JSON first: inspect log convert LOG.eval --to json --output-dir DIR",
    );
  }
  const doc = parseJsonFile(file, text);
  const problems: Problems = new Problems(file);
  const summary = `${file}: not a usable Inspect AI eval log`;
  if (!isObject(doc) || !isObject(doc["eval"])) {
    problems.fail(summary, `expected an eval log object with an "eval" object`, { field: "/eval" });
  }
  const spec = doc["eval"];
  const samples = doc["samples"];
  if (!Array.isArray(samples)) {
    problems.fail(
      summary,
      `expected a "samples" array, found ${typeName(samples)} (was the log written with log_samples=False, ` +
        `or is it a header-only read?)`,
      { field: "/samples" },
    );
  }

  // Which scorer: --scorer, or the only one present.
  const scorerNames = new Set<string>();
  for (const s of samples) {
    if (isObject(s) && isObject(s["scores"])) for (const k of Object.keys(s["scores"])) scorerNames.add(k);
  }
  let scorer = opts.scorer;
  if (scorer === undefined && scorerNames.size > 1) {
    fileError(
      file,
      `samples have several scorers (${[...scorerNames].sort(compareIds).join(", ")}): choose one with --scorer NAME`,
    );
  }
  if (scorer !== undefined && scorerNames.size > 0 && !scorerNames.has(scorer)) {
    fileError(
      file,
      `--scorer ${JSON.stringify(scorer)}: no sample has that scorer; scorers: ${[...scorerNames].sort(compareIds).join(", ")}` +
        unicodeNearMatch(scorer, scorerNames),
    );
  }
  scorer ??= [...scorerNames][0];

  const seen = new Map<string, SampleRef>();
  const rows: ExportRow[] = [];
  let invalidated = 0;
  samples.forEach((s, i) => {
    const at = pointer("samples", i);
    if (!isObject(s)) {
      problems.add(`expected a sample object, found ${typeName(s)}`, { field: at });
      return;
    }
    const rawId = s["id"];
    if (
      !(typeof rawId === "string" && rawId !== "") &&
      !(typeof rawId === "number" && Number.isFinite(rawId))
    ) {
      problems.add(`expected a sample id (string or number), found ${typeName(rawId)}`, {
        field: `${at}/id`,
      });
      return;
    }
    const id = String(rawId);
    const epoch = s["epoch"];
    if (typeof epoch !== "number" || !Number.isInteger(epoch) || epoch < 1) {
      problems.add(
        `sample ${JSON.stringify(id)}: expected an epoch (integer ≥ 1), found ${typeName(epoch)}`,
        {
          field: `${at}/epoch`,
        },
      );
      return;
    }
    const key = `${id}\u0000${epoch}`;
    const dup = seen.get(key);
    if (dup !== undefined) {
      problems.add(
        `sample ${JSON.stringify(id)} epoch ${epoch} appears twice (also /samples/${dup.index}): the log is ambiguous`,
        { field: at },
      );
      return;
    }
    seen.set(key, { index: i, id, epoch });
    if (s["invalidation"] !== undefined && s["invalidation"] !== null) {
      invalidated += 1;
      return;
    }
    const error = s["error"];
    if (error !== undefined && error !== null) {
      rows.push({
        task_id: id,
        attempt: epoch,
        result: "infra_error",
        evidence: [jsonEvidence(file, `${at}/error`)],
        from: { file, field: fragmentOf(`${at}/id`) },
      });
      return;
    }
    const scores = s["scores"];
    const score = isObject(scores) && scorer !== undefined ? scores[scorer] : undefined;
    if (!isObject(score)) {
      problems.add(
        `sample ${JSON.stringify(id)} epoch ${epoch} has neither an error nor a score` +
          (scorer !== undefined ? ` from scorer ${JSON.stringify(scorer)}` : ""),
        { field: `${at}/scores` },
      );
      return;
    }
    const vptr = pointer("samples", i, "scores", scorer ?? "", "value");
    const result = mapScore(score["value"], opts);
    if (typeof result !== "string") {
      problems.add(`sample ${JSON.stringify(id)} epoch ${epoch}: ${result.problem}`, { field: vptr });
      return;
    }
    rows.push({
      task_id: id,
      attempt: epoch,
      result,
      evidence: [jsonEvidence(file, vptr)],
      from: { file, field: fragmentOf(`${at}/id`) },
    });
  });
  problems.throwIfAny(summary);

  const notes: string[] = [];
  if (doc["status"] !== undefined && doc["status"] !== "success") {
    notes.push(`the log's status is ${JSON.stringify(doc["status"])}, not "success"`);
  }
  if (invalidated > 0) notes.push(`${invalidated} invalidated samples were left out`);
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

  const model = typeof spec["model"] === "string" && spec["model"] !== "" ? spec["model"] : "inspect-model";
  const revision = isObject(spec["revision"]) ? spec["revision"] : undefined;
  let harness: DefaultValue | undefined;
  if (revision !== undefined && typeof revision["commit"] === "string" && revision["commit"] !== "") {
    const origin = typeof revision["origin"] === "string" ? ` of ${revision["origin"]}` : "";
    harness = { value: `git:${revision["commit"]}`, from: `eval.revision (the eval's git commit${origin})` };
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
