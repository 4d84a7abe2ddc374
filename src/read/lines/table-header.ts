/**
 * A CSV or TSV table given where JSON lines are expected: recognised by its first
 * line, a header of field-like names separated by commas or tabs that is not JSON, and named in
 * one problem that says what the file looks like and how to turn it into gate input, instead of
 * one "not valid JSON" per line.
 */

import { quote } from "../../core/quote.js";

/** A header name: a letter or underscore, then letters, digits and a few punctuation marks. */
const FIELD_NAME = /^[\p{L}_][\p{L}\p{N}_ .\-/()#%@]{0,63}$/u;
/** Header names shown in the message at most (then how many there are). */
const NAMES_SHOWN = 8;

/** The columns of OpenAI's SWE-bench Verified annotations (`model-gate import verified-annotations`). */
const ANNOTATION_SCORES = ["underspecified", "false_negative", "other_major_issues"];

function unquoted(field: string): string {
  const f = field.trim();
  return f.length >= 2 && f.startsWith('"') && f.endsWith('"') ? f.slice(1, -1).trim() : f;
}

function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/** The header's names when `line` is a CSV or TSV header (and not JSON), else undefined. */
export function tableHeader(
  line: string,
): { readonly kind: "CSV" | "TSV"; readonly names: string[] } | undefined {
  const tab = line.includes("\t");
  if (!tab && !line.includes(",")) return undefined;
  const names = line.split(tab ? "\t" : ",").map(unquoted);
  if (names.length < 2 || !names.every((n) => FIELD_NAME.test(n)) || isJson(line)) return undefined;
  return { kind: tab ? "TSV" : "CSV", names };
}

/** A file name as a command's argument: as it is when that is plain, else JSON-quoted. */
function argument(file: string): string {
  return /^[\w./@+-]+$/.test(file) ? file : quote(file);
}

/**
 * The problem of `file` (as the user named it), whose first non-blank line is `line`, given as a
 * results (or reviews) file, when that line is a CSV or TSV header; undefined otherwise (the file
 * is read as JSON lines, and a bad line is reported as usual).
 */
export function tableFileProblem(
  line: string,
  role: "results" | "reviews",
  file: string,
): string | undefined {
  const header = tableHeader(line);
  if (header === undefined) return undefined;
  const names = header.names.map((n) => n.toLowerCase());
  const shown =
    header.names.slice(0, NAMES_SHOWN).map(quote).join(", ") +
    (header.names.length > NAMES_SHOWN ? `, … (${header.names.length} columns)` : "");
  const what = `the file is a ${header.kind} table (its first line is the header ${shown}), not JSON lines, and is not read`;
  const has = (n: string): boolean => names.includes(n);
  const asReviews = role === "results" ? ", and give the output as the reviews file, not as results" : "";
  if (has("instance_id") && ANNOTATION_SCORES.some(has)) {
    return (
      `${what}: it looks like OpenAI's SWE-bench Verified annotations; turn them into a reviews file with ` +
      `model-gate import verified-annotations ${argument(file)} -o reviews.jsonl${asReviews}`
    );
  }
  if ((has("task_id") || has("instance_id")) && has("validity") && !has("result") && !has("passes")) {
    return (
      `${what}: it looks like a review sheet; turn it into a reviews file with ` +
      `model-gate import reviews-csv ${argument(file)} -o reviews.jsonl${asReviews}`
    );
  }
  const fields =
    role === "results"
      ? "task_id, dataset_revision, harness_revision, model_config, validity, result and review_revision"
      : "task_id, dataset_revision, validity and review_revision";
  return (
    `${what}: the gate reads one JSON object per line, with the fields ${fields}. Export the rows as ` +
    `JSON lines (DuckDB: COPY (SELECT …) TO 'out.jsonl' (FORMAT JSON); pandas: ` +
    `df.to_json('out.jsonl', orient='records', lines=True))` +
    (role === "results"
      ? `, or turn your harness's own output into them with model-gate import (model-gate import --help lists the kinds)`
      : ``)
  );
}
