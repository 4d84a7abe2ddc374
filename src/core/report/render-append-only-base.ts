/**
 * One table cell for the provenance section: which results and reviews files the action compared
 * with their version at the base commit (report key `append_only_base`), and why the others were
 * not. Paths and notes may come from the repository: escaped; a note is shown whole (prose.ts).
 */
import { escapeCode } from "./escape.js";
import { markdownProse } from "./prose.js";
import type { Report } from "./report-types.js";
import { cellCode } from "./table-cells.js";
import { plural } from "../words.js";

/** Files named at most; the rest are counted. */
const MAX_NAMED = 5;

export function appendOnlyBaseCell(report: Report): string | null {
  const b = report.append_only_base;
  if (b === null) return null;
  const head = `base commit ${escapeCode(b.commit.slice(0, 12), 20)}`;
  if (b.files.length === 0) return `${head}: no files`;
  const named = b.files.slice(0, MAX_NAMED).map((f) => {
    const why = f.note === null ? "" : `; ${markdownProse(f.note)}`;
    const how = f.compared
      ? `compared (${f.via ?? "?"}${why})`
      : `not compared: ${markdownProse(f.note ?? "")}`;
    return `${f.kind} ${cellCode(f.path, 120)} ${how}`;
  });
  const more =
    b.files.length > named.length ? `; and ${plural(b.files.length - named.length, "more file")}` : "";
  return `${head}: ${named.join("; ")}${more}`;
}
