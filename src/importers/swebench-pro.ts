/**
 * Scale's SWE-Bench Pro per-run `traj/<run>/eval_results.json`: `{instance_id: true|false}`.
 * true → pass, false → fail. With --tasks, ids outside the list are left out and reported, and
 * ids of the list absent from the file are written as missing.
 */
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
  pointer,
  typeName,
} from "./common.js";
import { enclosingName } from "./paths.js";
import type { ImporterInput, ResultsDraft } from "./types.js";

export function importSwebenchPro({ opts, text, tasks }: ImporterInput): ResultsDraft {
  const file = opts.file;
  const doc = parseJsonFile(file, text);
  const problems: Problems = new Problems(file);
  const summary = `${file}: not a usable SWE-Bench Pro eval_results.json`;
  if (!isObject(doc)) {
    problems.fail(summary, `expected an object {instance_id: true|false}, found ${typeName(doc)}`, {
      field: "",
    });
  }
  const rowsById = new Map<string, ExportRow>();
  for (const [id, v] of Object.entries(doc)) {
    const ptr = pointer(id);
    if (typeof v !== "boolean") {
      problems.add(`expected true or false (resolved), found ${typeName(v)}`, { field: ptr });
      continue;
    }
    if (id === "") {
      problems.add("an empty instance id", { field: ptr });
      continue;
    }
    rowsById.set(id, { task_id: id, result: v ? "pass" : "fail", evidence: [jsonEvidence(file, ptr)] });
  }
  problems.throwIfAny(summary);

  const notes: string[] = [];
  const found = [...rowsById.keys()].sort(compareIds);
  const { keep, missing } = applyTaskList(found, tasks, notes, "ids of the file");
  const rows = found.filter((id) => keep.has(id)).map((id) => rowsById.get(id) as ExportRow);
  for (const id of missing) rows.push(missingRow(id, file, tasks));
  if (missing.length > 0) {
    notes.push(
      `${missing.length} tasks of the task list are absent from the file: written as missing (${listSome(missing)})`,
    );
  }
  const passes = rows.filter((r) => r.result === "pass").length;
  notes.push(
    `${found.length} ids in the file, ${keep.size} counted, ${passes} resolved; true → pass, false → fail`,
  );
  if (tasks === undefined) {
    notes.push(
      "no --tasks: the task set is this file's ids, so runs with different id sets get different " +
        "dataset revisions and are not compared; give the benchmark's task list (--tasks) to fix one set",
    );
  }
  const run = enclosingName(file) ?? "swebench-pro-run";
  return {
    rows,
    taskIds: tasks?.ids ?? found,
    taskIdsFrom: tasks ? `the task list ${tasks.file}` : "the file",
    modelConfig: { value: run, from: "the run directory holding eval_results.json" },
    notes,
  };
}
