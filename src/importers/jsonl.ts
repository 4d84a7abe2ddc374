/**
 * JSON Lines input (lm-eval's samples, a table's `.jsonl`): one JSON value per line, blank lines
 * skipped, LF or CRLF line ends, a UTF-8 byte-order mark accepted. A line that is not JSON (or
 * gives a key twice) is an error naming the file, the line and the column.
 */
import { InputError } from "../core/errors.js";
import { parseJsonFile } from "./common.js";

export interface JsonLine {
  /** 1-based line number. */
  readonly line: number;
  readonly value: unknown;
}

export function readJsonLines(file: string, text: string): JsonLine[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const out: JsonLine[] = [];
  let line = 0;
  for (const raw of body.split("\n")) {
    line += 1;
    const t = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (t.trim() === "") continue;
    try {
      out.push({ line, value: parseJsonFile(file, t) });
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      // parseJsonFile located the problem in a one-line document: move it to this line.
      const p = error.problems[0];
      const column = p?.location?.column;
      throw new InputError(`${file}: line ${line} is not valid JSON`, [
        {
          location: { file, line, ...(column !== undefined ? { column } : {}) },
          message: p?.message ?? "not valid JSON",
        },
      ]);
    }
  }
  return out;
}
