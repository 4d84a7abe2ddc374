/**
 * A team's own review sheet as CSV → a SPEC §1.2 reviews file.
 * Header (any order, case-insensitive): `task_id`, `validity` (required); `reviewer`, `note`,
 * `evidence`, `dataset_revision` (optional). Other columns are ignored and named in the notes.
 * `validity` must be one of unreviewed, valid, broken, disputed (case-insensitive); anything else,
 * an empty task id, or a task listed twice (for one dataset revision) is an error naming the line.
 */
import { VALIDITIES, type Validity } from "../core/model.js";
import { Problems, compareIds, csvEvidence, listSome } from "./common.js";
import { cell, readCsvTable } from "./csv.js";
import type { ImporterInput, ReviewDraftRow, ReviewsDraft } from "./types.js";

const KNOWN = ["task_id", "validity", "reviewer", "note", "evidence", "dataset_revision"];

export function importReviewsCsv({ opts, text, tasks }: ImporterInput): ReviewsDraft {
  const file = opts.file;
  const table = readCsvTable(file, text, ["task_id", "validity"]);
  const problems: Problems = new Problems(file);
  const seen = new Map<string, number>();
  const rows: ReviewDraftRow[] = [];
  const outside: string[] = [];
  const hasRevisionColumn = table.column.has("dataset_revision");
  for (const rec of table.records) {
    const id = cell(table, rec, "task_id").trim();
    const rawValidity = cell(table, rec, "validity").trim();
    if (id === "") {
      problems.add("empty task_id", { line: rec.line });
      continue;
    }
    const validity = rawValidity.toLowerCase();
    if (!(VALIDITIES as readonly string[]).includes(validity)) {
      problems.add(
        `task ${JSON.stringify(id)}: validity ${JSON.stringify(rawValidity)} is not one of ${VALIDITIES.join(", ")}`,
        { line: rec.line },
      );
      continue;
    }
    const revisionCell = cell(table, rec, "dataset_revision").trim();
    if (revisionCell !== "" && opts.datasetRevision !== undefined && revisionCell !== opts.datasetRevision) {
      problems.add(
        `dataset_revision ${JSON.stringify(revisionCell)} differs from --dataset-revision ${JSON.stringify(opts.datasetRevision)}`,
        { line: rec.line },
      );
      continue;
    }
    const key = `${revisionCell}\u0000${id}`;
    const first = seen.get(key);
    if (first !== undefined) {
      problems.add(`task ${JSON.stringify(id)} is listed twice (first on line ${first})`, { line: rec.line });
      continue;
    }
    seen.set(key, rec.line);
    if (tasks !== undefined && !tasks.set.has(id)) {
      outside.push(id);
      continue;
    }
    const row: ReviewDraftRow = {
      task_id: id,
      validity: validity as Validity,
      evidence: [csvEvidence(file, rec.row)],
      from: { file, line: rec.line },
    };
    if (revisionCell !== "") row.dataset_revision = revisionCell;
    const reviewer = cell(table, rec, "reviewer").trim();
    if (reviewer !== "") row.reviewer = reviewer;
    else if (opts.reviewer !== undefined) row.reviewer = opts.reviewer;
    const evidence = cell(table, rec, "evidence").trim();
    if (evidence !== "") row.evidence.push(evidence);
    const note = cell(table, rec, "note");
    if (note.trim() !== "") row.note = note;
    rows.push(row);
  }
  problems.throwIfAny(`${file}: unusable review sheet`);

  const notes: string[] = [];
  const ignored = table.header.filter((h) => h !== "" && !KNOWN.includes(h));
  if (ignored.length > 0) notes.push(`columns ignored: ${ignored.join(", ")}`);
  const counts = { unreviewed: 0, valid: 0, broken: 0, disputed: 0 };
  for (const r of rows) counts[r.validity] += 1;
  notes.push(
    `labels: ${rows.length} tasks: ${counts.valid} valid, ${counts.disputed} disputed, ${counts.broken} broken, ${counts.unreviewed} unreviewed`,
  );
  if (outside.length > 0) {
    outside.sort(compareIds);
    notes.push(
      `${outside.length} rows outside the task list ${tasks?.file ?? ""} were left out: ${listSome(outside)}`,
    );
  }
  if (hasRevisionColumn) {
    const fromColumn = rows.filter((r) => r.dataset_revision !== undefined).length;
    notes.push(`dataset_revision: ${fromColumn} rows give their own (column dataset_revision)`);
  }
  const ids = [...new Set(rows.map((r) => r.task_id))];
  return {
    rows,
    taskIds: tasks?.ids ?? ids,
    taskIdsFrom: tasks ? `the task list ${tasks.file}` : "the CSV",
    notes,
  };
}
