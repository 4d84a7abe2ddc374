/**
 * What an import writes is checked here, once for every kind, before a line is written: the gate's
 * reader refuses an id (task_id, model_config, revisions, a string attempt, cluster, reviewer)
 * that is empty, longer than MAX_ID_LENGTH or holds a control character, an evidence item over
 * MAX_EVIDENCE_LENGTH, a note over MAX_NOTE_LENGTH, a metric that is not a finite number ≥ 0 under
 * a name `[a-z][a-z0-9_]{0,63}` — so an import that wrote one would hand the user an export the
 * gate then refuses, far from where the value came from. The import refuses it instead, naming the
 * file and the place it was read (a line, a CSV row's column, a JSON Pointer).
 *
 * Ids are held to one more rule than the reader's: no bidirectional controls or line separators
 * (U+200E, U+200F, U+2028, U+2029, U+202A–U+202E, U+2066–U+2069). The reader escapes them in
 * messages, but an id holding one shows as a different id in a report (a right-to-left override
 * reverses the rest of the line), and no harness names a task that way on purpose. Nothing is
 * stripped or replaced: the value is refused and the source must be fixed.
 */
import { InputError, type InputProblem } from "../core/errors.js";
import { quote, quoteUpTo } from "../core/quote.js";
import { MAX_EVIDENCE_LENGTH, MAX_ID_LENGTH, MAX_NOTE_LENGTH } from "../read/limits.js";
import type { ExportRow, ReviewRow, SourcePlace } from "./export-rows.js";
import { METRIC_NAME, metricProblem } from "./metrics.js";

// C0, DEL, C1 (the reader's rule), and the bidirectional controls and line separators.
// eslint-disable-next-line no-control-regex
const ID_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
// The reader's rule for evidence items: C0, DEL, C1.
// eslint-disable-next-line no-control-regex
const EVIDENCE_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f]/;
// The reader's rule for notes: C0 but tab, LF and CR; DEL; C1.
// eslint-disable-next-line no-control-regex
const NOTE_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

const MAX_LISTED = 20;

function charName(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  if (code === 0) return `a NUL (${hex})`;
  if (code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029) return `a line break (${hex})`;
  if (code === 0x09) return `a tab (${hex})`;
  if (code <= 0x9f) return `a control character (${hex})`;
  return `a bidirectional control (${hex})`;
}

/** Why an id cannot be written, or null. */
export function idProblem(value: string): string | null {
  if (value === "") return "is empty";
  if (value.length > MAX_ID_LENGTH) {
    return `is ${value.length} characters long, more than the ${MAX_ID_LENGTH} the gate reads in an id`;
  }
  const m = ID_FORBIDDEN.exec(value);
  if (m !== null) {
    return (
      `holds ${charName(m[0])} at character ${m.index + 1}, which the gate refuses in ids (it would ` +
      "fake a line or reorder text where the id is shown); fix the id in the source: nothing is stripped or replaced"
    );
  }
  return null;
}

function textProblem(value: string, max: number, forbidden: RegExp, what: string): string | null {
  if (value.length > max)
    return `is ${value.length} characters long, more than the ${max} the gate reads in ${what}`;
  const m = forbidden.exec(value);
  if (m !== null)
    return `holds ${charName(m[0])} at character ${m.index + 1}, which the gate refuses in ${what}`;
  return null;
}

/** The place a row's values came from: its own, else the file and fragment of its first evidence item. */
export function placeOf(
  from: SourcePlace | undefined,
  evidence: readonly string[],
  file: string,
): SourcePlace {
  if (from !== undefined) return from;
  const first = evidence[0];
  if (first === undefined) return { file };
  // A fragment (JSON Pointer in URI-fragment form, row=N, LN) never holds "#": the last one splits.
  const hash = first.lastIndexOf("#");
  if (hash < 0) return { file: first };
  const at = first.slice(0, hash);
  const fragment = first.slice(hash + 1);
  const line = /^L([0-9]+)$/.exec(fragment);
  if (line?.[1] !== undefined) return { file: at, line: Number(line[1]) };
  return { file: at, field: fragment };
}

class Refusals {
  readonly list: InputProblem[] = [];
  total = 0;

  add(place: SourcePlace, message: string): void {
    this.total += 1;
    if (this.list.length >= MAX_LISTED) return;
    const location = place.line !== undefined ? { file: place.file, line: place.line } : { file: place.file };
    // The field is shown raw by the error formatter: quote it when it holds anything unusual.
    const field = place.field === undefined ? undefined : safeField(place.field);
    this.list.push(field !== undefined ? { location, field, message } : { location, message });
  }

  throwIfAny(file: string): void {
    if (this.total === 0) return;
    throw new InputError(
      `${file}: cannot import: the gate would refuse what the import would write`,
      this.list,
      this.total,
    );
  }
}

/** A field as the error formatter shows it (raw, in quotes): escaped, and cut when long. */
function safeField(field: string): string {
  const cut = field.length > 120 ? `${field.slice(0, 120)}…` : field;
  return quoteUpTo(cut, 200).slice(1, -1);
}

/** A value every row shares (model_config, a revision): where it came from, for a refusal. */
export interface SharedValue {
  readonly field: string;
  readonly value: string;
  readonly from: string;
}

/** Refuses, located, any value of the export rows (or the shared values) the gate would refuse. */
export function checkExportValues(
  rows: readonly ExportRow[],
  shared: readonly SharedValue[],
  file: string,
): void {
  const out = new Refusals();
  for (const s of shared) {
    const problem = idProblem(s.value);
    if (problem !== null) out.add({ file }, `${s.field} ${quote(s.value)} (${s.from}) ${problem}`);
  }
  const attempts = new Map<string, ExportRow>();
  for (const r of rows) {
    const place = placeOf(r.from, r.evidence, file);
    const id = (v: string | undefined, what: string) => {
      if (v === undefined) return;
      const problem = idProblem(v);
      if (problem !== null) out.add(place, `${what} ${quote(v)} ${problem}`);
    };
    const of = `task ${quote(r.task_id)}: `;
    id(r.task_id, "task_id");
    if (typeof r.attempt === "string") id(r.attempt, `${of}attempt`);
    // A cluster made from a refused task id (the repository part) is not refused a second time.
    if (idProblem(r.task_id) === null) id(r.cluster, `${of}cluster`);
    id(r.model_config, `${of}model_config`);
    id(r.harness_revision, `${of}harness_revision`);
    checkEvidence(out, place, r.task_id, r.evidence);
    for (const [name, value] of Object.entries(r.metrics ?? {})) {
      if (!METRIC_NAME.test(name)) {
        out.add(place, `${of}metric name ${quote(name)} does not match [a-z][a-z0-9_]{0,63}`);
      }
      const problem = metricProblem(value);
      if (problem !== null) out.add(place, `${of}metrics.${name}: ${problem}`);
    }
    // A safety net under each importer's own duplicate check: one attempt, two results.
    if (r.attempt !== undefined) {
      const key = JSON.stringify([r.model_config ?? "", r.harness_revision ?? "", r.task_id, r.attempt]);
      const seen = attempts.get(key);
      if (seen !== undefined && seen.result !== r.result) {
        out.add(
          place,
          `task ${quote(r.task_id)} attempt ${quote(String(r.attempt))} would be written twice, as ` +
            `${seen.result} (from ${seen.evidence[0] ?? file}) and as ${r.result}: the source is ambiguous`,
        );
      } else attempts.set(key, r);
    }
  }
  out.throwIfAny(file);
}

function checkEvidence(out: Refusals, place: SourcePlace, taskId: string, evidence: readonly string[]): void {
  for (const e of evidence) {
    const problem = textProblem(e, MAX_EVIDENCE_LENGTH, EVIDENCE_FORBIDDEN, "evidence");
    if (problem !== null) out.add(place, `task ${quote(taskId)}: evidence ${quote(e)} ${problem}`);
  }
}

/** Where each review row was read (the row's first evidence item, unless given). */
export type ReviewSource = Pick<
  ReviewRow,
  "task_id" | "dataset_revision" | "reviewer" | "evidence" | "note"
> & {
  from?: SourcePlace;
};

/** Refuses, located, any value of the review rows the gate would refuse. */
export function checkReviewValues(rows: readonly ReviewSource[], file: string): void {
  const out = new Refusals();
  for (const r of rows) {
    const place = placeOf(r.from, r.evidence, file);
    const id = (v: string | undefined, what: string) => {
      if (v === undefined) return;
      const problem = idProblem(v);
      if (problem !== null) out.add(place, `${what} ${quote(v)} ${problem}`);
    };
    id(r.task_id, "task_id");
    id(r.dataset_revision, `task ${quote(r.task_id)}: dataset_revision`);
    id(r.reviewer, `task ${quote(r.task_id)}: reviewer`);
    checkEvidence(out, place, r.task_id, r.evidence);
    if (r.note !== undefined) {
      const problem = textProblem(r.note, MAX_NOTE_LENGTH, NOTE_FORBIDDEN, "a note");
      if (problem !== null) out.add(place, `task ${quote(r.task_id)}: note ${problem}`);
    }
  }
  out.throwIfAny(file);
}
