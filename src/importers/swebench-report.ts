/**
 * SWE-bench harness run report (`<model>.<run_id>.json`, written by
 * `python -m swebench.harness.run_evaluation`): lists of instance ids by outcome.
 *
 *   resolved_ids → pass, unresolved_ids → fail, error_ids → infra_error,
 *   empty_patch_ids → --empty-patch (default fail), incomplete_ids (no prediction) → missing.
 *
 * `completed_ids` and `submitted_ids` are consistency information only. An id in two outcome lists
 * is an error: the report contradicts itself and nothing is guessed.
 */
import type { AttemptResult } from "../core/model.js";
import {
  type ExportRow,
  Problems,
  applyTaskList,
  compareIds,
  isObject,
  jsonEvidence,
  listSome,
  missingRow,
  parseJsonFile,
  collectOutcomeLists,
  typeName,
} from "./common.js";
import { baseNameWithout } from "./paths.js";
import type { ImporterInput, ResultsDraft } from "./types.js";

const OUTCOME_LISTS = [
  "resolved_ids",
  "unresolved_ids",
  "error_ids",
  "empty_patch_ids",
  "incomplete_ids",
] as const;
type OutcomeList = (typeof OUTCOME_LISTS)[number];

export function importSwebenchReport({ opts, text, tasks }: ImporterInput): ResultsDraft {
  const file = opts.file;
  const doc = parseJsonFile(file, text);
  const problems: Problems = new Problems(file);
  const summary = `${file}: not a usable SWE-bench harness report`;
  if (!isObject(doc)) problems.fail(summary, `expected a JSON object, found ${typeName(doc)}`, { field: "" });
  if (!("resolved_ids" in doc) && !("unresolved_ids" in doc)) {
    const hint =
      "resolved" in doc
        ? " (this looks like an experiments results.json: use the swebench-results kind)"
        : "";
    problems.fail(summary, `expected the keys resolved_ids and unresolved_ids${hint}`, { field: "" });
  }
  const emptyPatch = opts.emptyPatch ?? "fail";
  const resultOf: Record<OutcomeList, AttemptResult> = {
    resolved_ids: "pass",
    unresolved_ids: "fail",
    error_ids: "infra_error",
    empty_patch_ids: emptyPatch,
    incomplete_ids: "missing",
  };

  const { where, counts } = collectOutcomeLists(doc, OUTCOME_LISTS, problems, "report");
  problems.throwIfAny(summary);

  const notes: string[] = [];
  const found = [...where.keys()].sort(compareIds);
  const total = doc["total_instances"];
  if (typeof total === "number" && total !== found.length) {
    notes.push(
      `the report says total_instances = ${total}, but its outcome lists name ${found.length} distinct instances`,
    );
  }
  const { keep, missing } = applyTaskList(found, tasks, notes, "instances of the report");
  const rows: ExportRow[] = [];
  for (const id of found) {
    if (!keep.has(id)) continue;
    const w = where.get(id);
    if (w === undefined) continue;
    rows.push({ task_id: id, result: resultOf[w.list], evidence: [jsonEvidence(file, w.ptr)] });
  }
  for (const id of missing) rows.push(missingRow(id, file, tasks));
  if (missing.length > 0) {
    notes.push(
      `${missing.length} tasks of the task list are absent from the report: written as missing (${listSome(missing)})`,
    );
  }
  notes.push(
    `outcome lists: ${OUTCOME_LISTS.map((l) => `${l} ${counts[l]}`).join(", ")}; ` +
      `resolved_ids → pass, unresolved_ids → fail, error_ids → infra_error, incomplete_ids → missing`,
  );
  notes.push(
    `empty_patch_ids → ${emptyPatch}${opts.emptyPatch === undefined ? " (default; --empty-patch fail|missing|infra_error)" : " (--empty-patch)"}`,
  );
  const model = baseNameWithout(file, [".json.gz", ".json"]);
  return {
    rows,
    taskIds: tasks?.ids ?? found,
    taskIdsFrom: tasks ? `the task list ${tasks.file}` : "the report's outcome lists",
    modelConfig: { value: model, from: "the report's file name (the harness writes <model>.<run_id>.json)" },
    notes,
  };
}
