/**
 * OpenAI's SWE-bench Verified annotations, `ensembled_annotations_public.csv` (one row per
 * annotated SWE-bench instance; `underspecified`, `false_negative` scored 0–3, `other_major_issues`
 * 0 or 1, plus notes, difficulty and `filter_out`) → a SPEC §1.2 reviews file.
 *
 * Default rule (the flags move it):
 *   other_major_issues ≥ 1 ("flagged": the ensemble answered yes) → broken   (--other-issues)
 *   else s = max(underspecified, false_negative):
 *     s ≥ 3 → broken (--broken-at), s ≥ 2 → disputed (--disputed-at), else → valid.
 * The public file's scores are ensembled values written as "0.0" … "3.0"; anything that is not a
 * number in [0, 3] is an error naming the line.
 */
import type { Validity } from "../core/model.js";
import { Problems, csvEvidence, taskListReviewNotes } from "./common.js";
import { cell, readCsvTable } from "./csv.js";
import type { ImporterInput, ReviewDraftRow, ReviewsDraft } from "./types.js";

export const DEFAULT_BROKEN_AT = 3;
export const DEFAULT_DISPUTED_AT = 2;
export const DEFAULT_VERIFIED_REVIEWER = "openai-swe-bench-verified-annotations";

const SCORE_COLUMNS = ["underspecified", "false_negative", "other_major_issues"] as const;

export function importVerifiedAnnotations({ opts, text, tasks }: ImporterInput): ReviewsDraft {
  const file = opts.file;
  const table = readCsvTable(file, text, ["instance_id", ...SCORE_COLUMNS]);
  const brokenAt = opts.brokenAt ?? DEFAULT_BROKEN_AT;
  const disputedAt = opts.disputedAt ?? DEFAULT_DISPUTED_AT;
  const otherIssues = opts.otherIssues ?? "broken";
  const reviewer = opts.reviewer ?? DEFAULT_VERIFIED_REVIEWER;
  const problems: Problems = new Problems(file);
  const seen = new Map<string, number>();
  const rows: ReviewDraftRow[] = [];
  const counts: Record<Validity, number> = { unreviewed: 0, valid: 0, broken: 0, disputed: 0 };
  let filteredOut = 0;
  const outside: string[] = [];
  for (const rec of table.records) {
    const id = cell(table, rec, "instance_id").trim();
    if (id === "") {
      problems.add(`empty instance_id`, { line: rec.line });
      continue;
    }
    const first = seen.get(id);
    if (first !== undefined) {
      problems.add(`instance ${JSON.stringify(id)} is annotated twice (first on line ${first})`, {
        line: rec.line,
      });
      continue;
    }
    seen.set(id, rec.line);
    const score: Record<string, number> = {};
    let ok = true;
    for (const col of SCORE_COLUMNS) {
      const raw = cell(table, rec, col).trim();
      const v = raw === "" ? Number.NaN : Number(raw);
      if (!Number.isFinite(v) || v < 0 || v > 3) {
        problems.add(`column ${col}: expected a score from 0 to 3, found ${JSON.stringify(raw)}`, {
          line: rec.line,
        });
        ok = false;
      }
      score[col] = v;
    }
    if (!ok) continue;
    if (tasks !== undefined && !tasks.set.has(id)) {
      outside.push(id);
      continue;
    }
    if (cell(table, rec, "filter_out").trim().toLowerCase() === "true") filteredOut += 1;
    const us = score["underspecified"] ?? 0;
    const fn = score["false_negative"] ?? 0;
    const other = score["other_major_issues"] ?? 0;
    const s = Math.max(us, fn);
    let validity: Validity;
    let why: string;
    if (other >= 1 && otherIssues !== "ignore") {
      validity = otherIssues;
      why = `other_major_issues=${fmt(other)} flagged`;
    } else {
      validity = s >= brokenAt ? "broken" : s >= disputedAt ? "disputed" : "valid";
      why = `s=max(underspecified, false_negative)=${fmt(s)}`;
    }
    counts[validity] += 1;
    rows.push({
      task_id: id,
      validity,
      reviewer,
      evidence: [csvEvidence(file, rec.row)],
      from: { file, line: rec.line },
      note: `underspecified=${fmt(us)}, false_negative=${fmt(fn)}, other_major_issues=${fmt(other)}: ${why} → ${validity}`,
    });
  }
  problems.throwIfAny(`${file}: unusable annotations`);

  const notes: string[] = [];
  notes.push(
    `rule: other_major_issues ≥ 1 → ${otherIssues === "ignore" ? "(ignored)" : otherIssues}` +
      `${opts.otherIssues === undefined ? " (default)" : ""}; else s = max(underspecified, false_negative): ` +
      `s ≥ ${brokenAt} → broken, s ≥ ${disputedAt} → disputed, else valid` +
      (opts.brokenAt === undefined && opts.disputedAt === undefined
        ? " (defaults; --broken-at, --disputed-at)"
        : ""),
  );
  notes.push(
    `labels: ${rows.length} tasks: ${counts.valid} valid, ${counts.disputed} disputed, ${counts.broken} broken` +
      ` (${filteredOut} of them have filter_out=True, i.e. OpenAI left them out of Verified)`,
  );
  for (const note of taskListReviewNotes(tasks, outside, seen, {
    outside: "annotated instances",
    unlabelled: "have no annotation",
  }))
    notes.push(note);
  notes.push(`reviewer: ${reviewer}${opts.reviewer === undefined ? " (default; --reviewer)" : ""}`);
  return {
    rows,
    taskIds: tasks?.ids ?? [...seen.keys()],
    taskIdsFrom: tasks ? `the task list ${tasks.file}` : "the CSV",
    notes,
  };
}

/** A score as written in notes: "1.0" in the CSV → "1". */
function fmt(v: number): string {
  return String(v);
}
