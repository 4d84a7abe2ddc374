import { describe, expect, test } from "vitest";
import { parseCsv } from "../../src/importers/index.js";
import { readCsvTable } from "../../src/importers/csv.js";
import { inputErrorMessage } from "../helpers/input-error.js";

const fields = (text: string) => parseCsv("t.csv", text).map((r) => r.fields);

describe("parseCsv (RFC 4180)", () => {
  test("plain fields, LF and CRLF line ends, final line without a line end", () => {
    expect(fields("a,b\r\n1,2\n3,4")).toEqual([
      ["a", "b"],
      ["1", "2"],
      ["3", "4"],
    ]);
  });

  test("quoted fields with commas, doubled quotes and line breaks; line and row numbers", () => {
    const recs = parseCsv("t.csv", 'id,note\r\nx,"a, ""b""\r\nc"\r\ny,"z"\r\n');
    expect(recs.map((r) => r.fields)).toEqual([
      ["id", "note"],
      ["x", 'a, "b"\r\nc'],
      ["y", "z"],
    ]);
    expect(recs.map((r) => r.line)).toEqual([1, 2, 4]);
    expect(recs.map((r) => r.row)).toEqual([1, 2, 3]);
  });

  test("a UTF-8 BOM is skipped; blank lines are skipped; empty fields are kept", () => {
    expect(fields('\uFEFFa,b\n\n,\n"",x\n')).toEqual([
      ["a", "b"],
      ["", ""],
      ["", "x"],
    ]);
  });

  test("a lone CR ends a record", () => {
    expect(fields("a\rb\r")).toEqual([["a"], ["b"]]);
  });

  test("a quote inside an unquoted field is an error naming the line", () => {
    expect(inputErrorMessage(() => parseCsv("t.csv", 'a,b\n1,x"y\n'))).toBe(
      "t.csv: not valid CSV\n  t.csv:2: a quote inside an unquoted field (quote the whole field and double the inner quotes)",
    );
  });

  test("text after a closing quote is an error", () => {
    expect(inputErrorMessage(() => parseCsv("t.csv", 'a\n"x"y\n'))).toBe(
      't.csv: not valid CSV\n  t.csv:2: unexpected "y" after a closing quote (a field that starts with a quote must end with one)',
    );
  });

  test("an unterminated quoted field names the line where it opened", () => {
    expect(inputErrorMessage(() => parseCsv("t.csv", 'a,b\n1,"open\n\n2,3\n'))).toBe(
      "t.csv: not valid CSV\n  t.csv:2: a quoted field opened on line 2 is never closed",
    );
  });
});

describe("parseCsv: lines named after quoted line breaks, blank lines and a BOM", () => {
  // Each CRLF inside quotes is one line, as in a text editor (csv-parse's own count makes it two).
  const text = 'id,note\r\n\r\nx,"a\r\nb\r\nc"\r\n\ny,"d\ne"\r\n';

  test("records", () => {
    const recs = parseCsv("t.csv", text);
    expect(recs.map((r) => [r.line, r.row, r.fields])).toEqual([
      [1, 1, ["id", "note"]],
      [3, 2, ["x", "a\r\nb\r\nc"]],
      [7, 3, ["y", "d\ne"]],
    ]);
  });

  test("a quote inside an unquoted field, after them", () => {
    expect(inputErrorMessage(() => parseCsv("t.csv", `${text}\r\nz,"1\r\n2",w"v\r\n`))).toBe(
      "t.csv: not valid CSV\n  t.csv:11: a quote inside an unquoted field (quote the whole field and double the inner quotes)",
    );
  });

  test("text after a closing quote (the character named whole), after them", () => {
    expect(inputErrorMessage(() => parseCsv("t.csv", `${text}z,"1\r\n""2"""é\r\n`))).toBe(
      't.csv: not valid CSV\n  t.csv:10: unexpected "é" after a closing quote (a field that starts with a quote must end with one)',
    );
  });

  test("a quote never closed names the line it opened on, not the last line", () => {
    expect(inputErrorMessage(() => parseCsv("t.csv", `${text}z,"1\r\n2","open\r\n\r\nmore\r\n`))).toBe(
      "t.csv: not valid CSV\n  t.csv:10: a quoted field opened on line 10 is never closed",
    );
  });

  test("in the first field of a file that starts with a BOM", () => {
    expect(inputErrorMessage(() => parseCsv("t.csv", '\uFEFF"a"b\n'))).toBe(
      't.csv: not valid CSV\n  t.csv:1: unexpected "b" after a closing quote (a field that starts with a quote must end with one)',
    );
    expect(inputErrorMessage(() => parseCsv("t.csv", '\uFEFF\n\n"open'))).toBe(
      "t.csv: not valid CSV\n  t.csv:3: a quoted field opened on line 3 is never closed",
    );
  });
});

describe("readCsvTable", () => {
  test("header names are trimmed and case-insensitive", () => {
    const t = readCsvTable("t.csv", " Task_ID ,VALIDITY\nx,valid\n", ["task_id", "validity"]);
    expect(t.header).toEqual(["task_id", "validity"]);
    expect(t.records.map((r) => r.fields)).toEqual([["x", "valid"]]);
  });

  test("a missing required column and a duplicated column are errors on the header line", () => {
    expect(
      inputErrorMessage(() => readCsvTable("t.csv", "task_id,note,note\n", ["task_id", "validity"])),
    ).toBe(
      't.csv: unusable CSV header\n  t.csv:1: column "note" appears twice in the header\n' +
        '  t.csv:1: the header lacks "validity" (found: task_id, note, note)',
    );
  });

  test("a record with the wrong number of fields is an error naming its line", () => {
    expect(inputErrorMessage(() => readCsvTable("t.csv", 'a,b\n1,2\n"x\ny",2,3\n', ["a"]))).toBe(
      "t.csv: CSV records do not match the header\n  t.csv:3: expected 2 fields as in the header, found 3",
    );
  });

  test("an empty file is an error", () => {
    expect(inputErrorMessage(() => readCsvTable("t.csv", "", ["a"]))).toBe(
      "t.csv: cannot import\n  t.csv: the file is empty: expected a header row",
    );
  });
});
