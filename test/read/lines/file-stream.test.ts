/**
 * streamLines' own contract, beyond what readDataset's tests show: an exception thrown by the
 * caller's handlers is a bug and propagates as itself (not as the stream's AbortError), and the
 * byte-line mode (the byte scanner's) yields the same lines and problems as the text mode.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

import { streamLines } from "../../../src/read/lines/file-stream.js";
import { lineOf, plainBytes } from "../../../src/read/lines/line-splitter.js";
import { tempDir } from "../../helpers/export-writer.js";

const CHUNK = 256 * 1024;

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

function fileWith(bytes: Buffer, name = "lines.jsonl"): string {
  const path = join(tempDir(), name);
  writeFileSync(path, bytes);
  return path;
}

describe("streamLines: handler exceptions", () => {
  const body = Buffer.from(
    Array.from({ length: 5000 }, (_, i) => `{"n":${i},"pad":"${"x".repeat(90)}"}`).join("\n"),
  );

  it("rethrows what the line handler throws, with its own message, for plain and gzip files", async () => {
    for (const bytes of [body, gzipSync(body)]) {
      const path = fileWith(bytes);
      await expect(
        streamLines(
          path,
          (_t, _b, _e, line) => {
            if (line === 4000) throw new Error("handler bug at line 4000");
          },
          () => undefined,
        ),
      ).rejects.toThrow("handler bug at line 4000");
    }
  });
});

describe("streamLines: byte lines", () => {
  it("gives the same lines, line numbers and problems as text lines; plainBytes is exact per line", async () => {
    const parts: Buffer[] = [Buffer.from([0xef, 0xbb, 0xbf])];
    const add = (s: string | Buffer): void => {
      parts.push(typeof s === "string" ? Buffer.from(s) : s);
    };
    for (let i = 0; i < 3000; i++) {
      if (i % 97 === 0) add("   \t\r\n"); // blank
      if (i % 89 === 0)
        add(Buffer.concat([Buffer.from('{"bad":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')]));
      if (i % 83 === 0) add(`{"x":"caf\u00e9 \u65e5\u672c ${i}"}\r\n`);
      if (i % 79 === 0) add(`{"esc":"a\\\\b ${i}"}\n`);
      if (i % 1000 === 0) add(`{"long":"${"y".repeat(CHUNK + 1000)}"}\n`); // spans chunks
      add(`{"i":${i},"pad":"${"z".repeat(i % 300)}"}\n`);
    }
    add('{"last":"no newline"}');
    const path = fileWith(Buffer.concat(parts));

    const text: [string, number, boolean][] = [];
    const textProblems: [number | undefined, string][] = [];
    const textRun = await streamLines(
      path,
      (t, b, e, line, plain) => text.push([lineOf(t, b, e), line, plain]),
      (line, message) => textProblems.push([line, message]),
    );

    const bytes: [string, number, boolean][] = [];
    const byteProblems: [number | undefined, string][] = [];
    const byteRun = await streamLines(
      path,
      {
        bytes: (buf, b, e, line) => {
          bytes.push([buf.toString("utf8", b, e), line, plainBytes(buf, b, e)]);
        },
      },
      (line, message) => byteProblems.push([line, message]),
    );

    expect(byteRun).toStrictEqual(textRun);
    expect(byteProblems).toStrictEqual(textProblems);
    expect(textProblems.length).toBeGreaterThan(10);
    expect(bytes.map(([s, line]) => [s, line])).toStrictEqual(text.map(([s, line]) => [s, line]));
    for (const [i, [s, , plain]] of bytes.entries()) {
      // plainBytes answers for the line alone: exactly whether it holds a backslash, DEL or
      // U+0080–U+00BF; the text path's flag (tested per span) is a promise, so it implies it.
      expect(plain).toBe(!/[\\\x7f\u0080-\u00bf]/.test(s));
      if (text[i]?.[2] === true) expect(plain).toBe(true);
    }
    expect(bytes.filter(([, , plain]) => !plain).length).toBeGreaterThan(10);
    expect(bytes.filter(([, , plain]) => plain).length).toBeGreaterThan(2000);
    expect(bytes.filter(([s]) => !isAscii(s)).length).toBeGreaterThan(10);
  });
});
