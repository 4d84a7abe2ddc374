/**
 * CSV (RFC 4180) by csv-parse: comma-separated fields, fields in double quotes may hold commas,
 * line breaks and doubled quotes (""), records end with CRLF, LF or CR, a UTF-8 BOM is skipped,
 * blank lines are skipped. Every record carries the 1-based physical line it starts on, so errors
 * can name it. A quote inside an unquoted field, text after a closing quote, and an unterminated
 * quoted field are errors; nothing is repaired.
 *
 * Lines are counted here, from the byte offsets csv-parse gives (where each record ends, where the
 * field that failed starts): its own line count takes a CRLF inside a quoted field for two lines,
 * and it names the line where the input ended for a quote that is never closed, not where the
 * quote opened.
 */
import { CsvError, parse } from "csv-parse/sync";
import { Problems } from "./common.js";

export interface CsvRecord {
  /** 1-based line on which the record starts. */
  readonly line: number;
  /** 1-based record number, the header being record 1 (RFC 7111 `row=`). */
  readonly row: number;
  readonly fields: readonly string[];
}

const CR = 0x0d;
const LF = 0x0a;
const COMMA = 0x2c;
const QUOTE = 0x22;
const UTF8_BOM = [0xef, 0xbb, 0xbf];

export function parseCsv(file: string, text: string): CsvRecord[] {
  const data = Buffer.from(text, "utf8");
  const origin = UTF8_BOM.every((b, i) => data[i] === b) ? UTF8_BOM.length : 0;
  // The line of a byte offset; offsets are asked for in increasing order.
  let counted = 0;
  let line = 1;
  const lineAt = (offset: number): number => {
    for (; counted < offset; counted++) {
      const c = data[counted];
      if (c === LF || (c === CR && data[counted + 1] !== LF)) line += 1;
    }
    return line;
  };
  // Blank lines before a record are skipped: it starts at the first byte that ends no line.
  const skipBlankLines = (offset: number): number => {
    let at = offset;
    while (data[at] === CR || data[at] === LF) at += 1;
    return at;
  };
  const records: CsvRecord[] = [];
  let recordEnd = origin;
  try {
    parse(data, {
      bom: true,
      record_delimiter: ["\r\n", "\n", "\r"],
      relax_column_count: true,
      skip_empty_lines: true,
      on_record: (fields: string[], context) => {
        records.push({ line: lineAt(skipBlankLines(recordEnd)), row: context.records, fields });
        recordEnd = context.bytes;
        return null;
      },
    });
  } catch (error) {
    if (!(error instanceof CsvError) || typeof error["bytes"] !== "number") throw error;
    // Where the field that failed starts: after the comma before it, or at its record's start.
    const boundary = Math.max(error["bytes"], origin);
    const fieldStart = data[boundary] === COMMA ? boundary + 1 : skipBlankLines(boundary);
    const problems: Problems = new Problems(file);
    const fail = (message: string, at: number): never =>
      problems.fail(`${file}: not valid CSV`, message, { line: lineAt(at) });
    switch (error.code) {
      case "INVALID_OPENING_QUOTE":
        return fail(
          "a quote inside an unquoted field (quote the whole field and double the inner quotes)",
          fieldStart,
        );
      case "CSV_INVALID_CLOSING_QUOTE": {
        const after = closingQuote(data, fieldStart) + 1;
        const found = data.toString("utf8", after, after + 4).charAt(0);
        return fail(
          `unexpected ${JSON.stringify(found)} after a closing quote (a field that starts with a quote must end with one)`,
          after,
        );
      }
      case "CSV_QUOTE_NOT_CLOSED":
        return fail(`a quoted field opened on line ${lineAt(fieldStart)} is never closed`, fieldStart);
      default:
        throw error;
    }
  }
  return records;
}

/** The offset of the quote that closes the quoted field opening at `start` ("" is a quote inside). */
function closingQuote(data: Buffer, start: number): number {
  let at = start + 1;
  for (;;) {
    at = data.indexOf(QUOTE, at);
    if (at < 0 || data[at + 1] !== QUOTE) return at;
    at += 2;
  }
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
