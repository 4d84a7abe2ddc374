/**
 * Runs of blank lines are skipped in blocks (line-splitter.ts, skipBlankRun: a gzip stream that
 * inflates to gigabytes of blank lines must cost about its inflating). Skipping must change
 * nothing but the speed: the same lines with the same numbers, the same non-blank count, in text
 * and byte mode, plain and gzip, for runs of LF, CRLF, spaces and tabs, runs that change pattern
 * part-way, start or end inside a read chunk or a block, and blank lines at the end. The time
 * this takes on gigabytes is printed by the benchmark (scripts/bench.mjs), not asserted here.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";

import { streamLines } from "../../../src/read/lines/file-stream.js";
import { lineOf } from "../../../src/read/lines/line-splitter.js";
import { tempDir } from "../../helpers/export-writer.js";
import { prng } from "../../helpers/prng.js";

function fileWith(bytes: Buffer, name: string): string {
  const path = join(tempDir(), name);
  writeFileSync(path, bytes);
  return path;
}

/** What the reader must give: every non-blank line (CR before LF, BOM dropped) and its number. */
function expected(text: string): [number, string][] {
  const out: [number, string][] = [];
  text.split("\n").forEach((raw, i) => {
    let line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.startsWith("\ufeff")) line = line.slice(1);
    if (!/^[ \t\r]*$/.test(line)) out.push([i + 1, line]);
  });
  return out;
}

async function lines(path: string, bytes: boolean): Promise<{ got: [number, string][]; nonBlank: number }> {
  const got: [number, string][] = [];
  const problems: string[] = [];
  const streamed = await streamLines(
    path,
    bytes
      ? {
          bytes: (b, begin, end, line) => {
            got.push([line, b.toString("utf8", begin, end)]);
          },
        }
      : (text, begin, end, line) => {
          got.push([line, lineOf(text, begin, end)]);
        },
    (line, message) => problems.push(`${line}: ${message}`),
  );
  expect(problems).toEqual([]);
  return { got, nonBlank: streamed.nonBlankLines };
}

const ROW = '{"task_id":"t","n":1}';

const cases: [string, () => string][] = [
  ["LF runs between rows", () => `${ROW}\n${"\n".repeat(700_000)}${ROW}\n${"\n".repeat(123_457)}${ROW}`],
  ["CRLF runs", () => `${ROW}\r\n${"\r\n".repeat(400_001)}${ROW}\r\n`],
  ["space-LF and tab-CRLF runs", () => `${ROW}\n${" \n".repeat(300_003)}${"\t\r\n".repeat(200_000)}${ROW}`],
  [
    "a run that changes pattern part-way",
    () => `${"\n".repeat(100_000)}${"  \n".repeat(100_000)}${"\n".repeat(90_001)}${ROW}`,
  ],
  [
    "a run broken by one row in the middle of a block",
    () => `${"\n".repeat(50_000)}${ROW}${"\n".repeat(600_000)}`,
  ],
  ["blank lines only", () => "\n".repeat(1_000_003)],
  ["a blank line longer than a pattern", () => `${(" ".repeat(80) + "\n").repeat(20_000)}${ROW}`],
  [
    "random blank runs and rows",
    () => {
      const rand = prng(11);
      const parts: string[] = [];
      for (let k = 0; k < 60; k++) {
        const pattern = ["\n", "\r\n", " \n", "\t\n", " \t \r\n"][Math.floor(rand() * 5)] ?? "\n";
        parts.push(pattern.repeat(Math.floor(rand() * 60_000)));
        if (rand() < 0.7) parts.push(`{"k":${k},"pad":"${"x".repeat(Math.floor(rand() * 300))}"}\n`);
        if (rand() < 0.1) parts.push("\ufeff" + ROW + "\n");
      }
      return parts.join("");
    },
  ],
];

describe("blank runs are skipped with the same lines and line numbers", () => {
  it.each(cases)("%s (plain and gzip, text and byte lines)", async (name, make) => {
    const text = make();
    const want = expected(text);
    const raw = Buffer.from(text, "utf8");
    for (const [kind, content] of [
      ["plain", raw],
      ["gzip", gzipSync(raw)],
    ] as const) {
      const path = fileWith(content, `${name.replace(/\W+/g, "-")}.${kind}`);
      for (const bytes of [false, true]) {
        const { got, nonBlank } = await lines(path, bytes);
        expect(got).toEqual(want);
        expect(nonBlank).toBe(want.length);
      }
    }
  });

  it("skips by blocks: 10 MB of LF is compared in ~16 KiB blocks, not split line by line", async () => {
    const path = fileWith(gzipSync(Buffer.from(`${ROW}\n${"\n".repeat(10_000_000)}${ROW}\n`)), "ten-mb.gz");
    const spy = vi.spyOn(Buffer.prototype, "compare");
    try {
      const { got } = await lines(path, true);
      expect(got).toEqual([
        [1, ROW],
        [10_000_002, ROW],
      ]);
      const blocks = spy.mock.calls.filter((c) => c[2] === 16 * 1024).length;
      expect(blocks).toBeGreaterThan(500);
    } finally {
      spy.mockRestore();
    }
  });
});
