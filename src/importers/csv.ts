/**
 * A small RFC 4180 CSV reader: comma-separated fields, fields in double quotes may hold commas,
 * line breaks and doubled quotes (""), records end with CRLF, LF or CR, a UTF-8 BOM is skipped.
 * Every record carries the 1-based physical line it starts on, so errors can name it. A quote
 * inside an unquoted field, text after a closing quote, and an unterminated quoted field are
 * errors; nothing is repaired.
 */
import { Problems } from "./common.js";

export interface CsvRecord {
  /** 1-based line on which the record starts. */
  readonly line: number;
  /** 1-based record number, the header being record 1 (RFC 7111 `row=`). */
  readonly row: number;
  readonly fields: readonly string[];
}

export function parseCsv(file: string, text: string): CsvRecord[] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const problems: Problems = new Problems(file);
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = "";
  let line = 1;
  let recordLine = 1;
  let quoted = false; // inside a quoted field
  let wasQuoted = false; // the current field was quoted and is closed
  let quoteLine = 1;
  let i = 0;
  const n = src.length;

  const endRecord = (): void => {
    fields.push(field);
    const blank = fields.length === 1 && fields[0] === "" && !wasQuoted;
    if (!blank) records.push({ line: recordLine, row: records.length + 1, fields });
    fields = [];
    field = "";
    wasQuoted = false;
  };

  while (i < n) {
    const c = src[i] as string;
    if (quoted) {
      if (c === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        wasQuoted = true;
        i += 1;
        continue;
      }
      if (c === "\r" || c === "\n") {
        // A line break inside quotes is part of the field; CRLF is kept as written.
        if (c === "\r" && src[i + 1] === "\n") {
          field += "\r\n";
          i += 2;
        } else {
          field += c;
          i += 1;
        }
        line += 1;
        continue;
      }
      field += c;
      i += 1;
      continue;
    }
    if (c === ",") {
      fields.push(field);
      field = "";
      wasQuoted = false;
      i += 1;
      continue;
    }
    if (c === "\r" || c === "\n") {
      endRecord();
      i += c === "\r" && src[i + 1] === "\n" ? 2 : 1;
      line += 1;
      recordLine = line;
      continue;
    }
    if (wasQuoted) {
      problems.fail(
        `${file}: not valid CSV`,
        `unexpected ${JSON.stringify(c)} after a closing quote (a field that starts with a quote must end with one)`,
        { line },
      );
    }
    if (c === '"') {
      if (field !== "") {
        problems.fail(
          `${file}: not valid CSV`,
          `a quote inside an unquoted field (quote the whole field and double the inner quotes)`,
          { line },
        );
      }
      quoted = true;
      quoteLine = line;
      i += 1;
      continue;
    }
    field += c;
    i += 1;
  }
  if (quoted) {
    problems.fail(`${file}: not valid CSV`, `a quoted field opened on line ${quoteLine} is never closed`, {
      line: quoteLine,
    });
  }
  if (field !== "" || fields.length > 0 || wasQuoted) endRecord();
  return records;
}

/** A CSV table with a header: columns by lower-cased, trimmed name. */
export interface CsvTable {
  readonly header: readonly string[];
  readonly records: readonly CsvRecord[];
  /** Column index by normalised header name. */
  readonly column: ReadonlyMap<string, number>;
}

/**
 * Reads a CSV file with a header row. Every record must have as many fields as the header;
 * header names are matched case-insensitively after trimming; duplicated names are an error.
 */
export function readCsvTable(file: string, text: string, required: readonly string[]): CsvTable {
  const records = parseCsv(file, text);
  const problems: Problems = new Problems(file);
  const head = records[0];
  if (head === undefined) problems.fail(`${file}: cannot import`, "the file is empty: expected a header row");
  const header = head.fields.map((h) => h.trim().toLowerCase());
  const column = new Map<string, number>();
  header.forEach((h, i) => {
    if (h === "") return;
    if (column.has(h))
      problems.add(`column ${JSON.stringify(h)} appears twice in the header`, { line: head.line });
    else column.set(h, i);
  });
  const absent = required.filter((r) => !column.has(r));
  if (absent.length > 0) {
    problems.add(
      `the header lacks ${absent.map((a) => JSON.stringify(a)).join(", ")} (found: ${header.join(", ")})`,
      { line: head.line },
    );
  }
  problems.throwIfAny(`${file}: unusable CSV header`);
  const body = records.slice(1);
  for (const r of body) {
    if (r.fields.length !== header.length) {
      problems.add(`expected ${header.length} fields as in the header, found ${r.fields.length}`, {
        line: r.line,
      });
    }
  }
  problems.throwIfAny(`${file}: CSV records do not match the header`);
  return { header, records: body, column };
}

/** The value of a named column in a record ("" when the column is absent). */
export function cell(table: CsvTable, record: CsvRecord, name: string): string {
  const i = table.column.get(name);
  return i === undefined ? "" : (record.fields[i] ?? "");
}
