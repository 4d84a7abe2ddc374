/**
 * One regression test (or a few) per bug the hardening work found and fixed; each failed before
 * its fix. RELIABILITY.md lists them with their commits. Run in-process against the source.
 */
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";

import { BASE, jsonl, readError, row, Scratch } from "./helpers.js";

const scratch = new Scratch("gate-fixes-");
afterAll(() => {
  scratch.cleanup();
});

function pairRows(n: number, over: Record<string, unknown> = {}): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => [
    row({ task_id: `t-${i}`, ...over }),
    row({ task_id: `t-${i}`, model_config: BASE, result: "fail", ...over }),
  ]).flat();
}

const file = (name: string) => ({ displayPath: () => name });

describe("fix: bytes after the gzip data were dropped in silence (or named 'ABORT_ERR')", () => {
  it("rows after a zero byte that follows the gzip data are not dropped in silence", async () => {
    // zlib stops at a byte after a member that does not start another member (Node takes a zero
    // byte for padding) and dropped the rest: these 6 rows were lost without an error.
    const tail = Buffer.from("\0" + jsonl(pairRows(3, { task_id: "late" })));
    const path = scratch.write(Buffer.concat([gzipSync(jsonl(pairRows(50))), tail]));
    const err = await readError({ results: [path], ...file("padded.jsonl.gz") });
    expect(err.message).toMatch(
      /^The results\/reviews input has 1 problem:\n {2}padded\.jsonl\.gz: the gzip data ends after \d+ of the file's \d+ bytes; the \d+ bytes after it are not gzip data \(zero padding, or something appended to the file\) and would be ignored: decompress the file and compress it again$/,
    );
  });

  it("a second gzip member after a zero byte is not dropped in silence either", async () => {
    const path = scratch.write(
      Buffer.concat([
        gzipSync(jsonl(pairRows(50))),
        Buffer.from([0]),
        gzipSync(jsonl(pairRows(2, { task_id: "x" }))),
      ]),
    );
    const err = await readError({ results: [path], ...file("two.jsonl.gz") });
    expect(err.message).toContain("two.jsonl.gz: the gzip data ends after");
  });

  it.each([1, 100, 300_000])(
    "zero padding of %i bytes after the gzip data gets the same clear message",
    async (n) => {
      // 300,000 bytes made zlib end its stream while the file went on: "cannot read the file (ABORT_ERR)".
      const path = scratch.write(Buffer.concat([gzipSync(jsonl(pairRows(5))), Buffer.alloc(n)]));
      const err = await readError({ results: [path], ...file("zeros.jsonl.gz") });
      expect(err.message).toContain("zeros.jsonl.gz: the gzip data ends after");
      expect(err.message).toContain("zero padding");
    },
  );
});
