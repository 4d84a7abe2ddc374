/**
 * SWE-bench/experiments `evaluation/<split>/<folder>/results/results.json`:
 * `{"resolved": [...], "no_generation": [...], "no_logs": [...]}`.
 *
 * Only resolved ids are listed; unresolved ones are the complement within the task set, so a task
 * list (--tasks) is required: without it "unresolved" cannot be told from "not in the benchmark".
 *   resolved → pass, no_logs → infra_error, no_generation → --empty-patch (default fail),
 *   every other task of the list → fail (as the leaderboard counts it).
 */
import type { AttemptResult } from "../core/model.js";
import {
  type ExportRow,
  Problems,
  compareIds,
  fileError,
  isObject,
  jsonEvidence,
  listSome,
  parseJsonFile,
  collectOutcomeLists,
  taskListEvidence,
  typeName,
} from "./common.js";
import { enclosingName } from "./paths.js";
import type { ImporterInput, ResultsDraft } from "./types.js";

const LISTS = ["resolved", "no_generation", "no_logs"] as const;
type ResultsList = (typeof LISTS)[number];

export function importSwebenchResults({ opts, text, tasks }: ImporterInput): ResultsDraft {
  const file = opts.file;
  if (tasks === undefined) {
    fileError(
      file,
      "results.json lists only resolved ids (unresolved ones are implicit), so --tasks FILE " +
        "(the benchmark's task ids, one per line) is required to tell unresolved from absent",
    );
  }
  const doc = parseJsonFile(file, text);
  const problems: Problems = new Problems(file);
  const summary = `${file}: not a usable SWE-bench experiments results.json`;
  if (!isObject(doc)) problems.fail(summary, `expected a JSON object, found ${typeName(doc)}`, { field: "" });
  if (!Array.isArray(doc["resolved"])) {
    const hint =
      "resolved_ids" in doc ? " (this looks like a harness report: use the swebench-report kind)" : "";
    problems.fail(summary, `expected "resolved": an array of instance ids${hint}`, { field: "/resolved" });
  }
  const emptyPatch = opts.emptyPatch ?? "fail";
  const resultOf: Record<ResultsList, AttemptResult> = {
    resolved: "pass",
    no_generation: emptyPatch,
    no_logs: "infra_error",
  };
  const { where, counts } = collectOutcomeLists(doc, LISTS, problems, "file");
  problems.throwIfAny(summary);

  const notes: string[] = [];
  const ignored = Object.keys(doc).filter((k) => !(LISTS as readonly string[]).includes(k));
  if (ignored.length > 0) {
    notes.push(
      `keys ignored: ${ignored.join(", ")} (only resolved, no_generation and no_logs are read; ` +
        `any other task of the list counts as fail, as on the leaderboard)`,
    );
  }
  const outside = [...where.keys()].filter((id) => !tasks.set.has(id)).sort(compareIds);
  if (outside.length > 0) {
    notes.push(
      `${outside.length} ids of the file outside the task list ${tasks.file} were left out (not counted): ${listSome(outside)}`,
    );
  }
  const rows: ExportRow[] = tasks.ids.map((id) => {
    const w = where.get(id);
    if (w === undefined) {
      return {
        task_id: id,
        result: "fail",
        evidence: [`${file}#/resolved`, taskListEvidence(tasks, id)],
        from: { file: tasks.file, line: tasks.lineOf.get(id) ?? 0 },
      };
    }
    return { task_id: id, result: resultOf[w.list], evidence: [jsonEvidence(file, w.ptr)] };
  });
  notes.push(
    `lists: resolved ${counts.resolved}, no_generation ${counts.no_generation}, no_logs ${counts.no_logs}; ` +
      `resolved → pass, no_logs → infra_error, tasks of the list in no list → fail`,
  );
  notes.push(
    `no_generation → ${emptyPatch}${opts.emptyPatch === undefined ? " (default; --empty-patch fail|missing|infra_error)" : " (--empty-patch)"}`,
  );
  const folder = enclosingName(file, ["results"]) ?? "swebench-results";
  return {
    rows,
    taskIds: tasks.ids,
    taskIdsFrom: `the task list ${tasks.file}`,
    modelConfig: { value: folder, from: "the submission folder holding results/results.json" },
    notes,
  };
}
