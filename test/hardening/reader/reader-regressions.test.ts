/**
 * The reader's regressions: one test (or a few) per bug the hardening work found in reading an
 * export and fixed; each failed before its fix (the fixes are in git history; RELIABILITY.md
 * names the promises these hold). Run in-process against the source.
 */
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

import { BASE, CAND, file, jsonl, pairRows, readError, row, useScratch } from "../helpers.js";

const scratch = useScratch("gate-fixes-");

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

describe("fix: attempt totals past 2^53 - 1 were rounded in silence", () => {
  it("pre-aggregated counts whose total passes 2^53 - 1 are refused, not rounded", async () => {
    // Two aggregates of 2^53 - 1 passes gave passes = 18014398509481984 (2 short of the truth).
    const agg = (harness: string) => ({
      ...row({ harness_revision: harness }),
      result: undefined,
      passes: Number.MAX_SAFE_INTEGER,
      fails: 0,
      infra_errors: 0,
      missing: 0,
    });
    const path = scratch.write(jsonl([agg("h1"), agg("h2"), row({ model_config: BASE, result: "fail" })]));
    const err = await readError({ results: [path], ...file("big.jsonl") });
    expect(err.message).toBe(
      "The results/reviews input has 1 problem:\n" +
        `  big.jsonl:2: the attempts of model_config "${CAND}" add up to more than 9007199254740991, the largest count held exactly; its figures would be altered; the rest of the input is not read`,
    );
  });
});

describe("fix: labels of one task were looked up by a linear scan, with no cap (quadratic time)", () => {
  it("60,000 distinct labels of one task stop at the 1,000-label cap at once (took 8 s, then a 8 MB report)", async () => {
    const rows = [row({ model_config: BASE, result: "fail" })];
    for (let i = 0; i < 60_000; i++) rows.push(row({ model_config: "noise", review_revision: i + 2 }));
    const path = scratch.write(jsonl([row(), ...rows]));
    const err = await readError({ results: [path], ...file("labels.jsonl") });
    expect(err.message).toBe(
      "The results/reviews input has 1 problem:\n" +
        '  labels.jsonl:1002: task "t-1" (dataset_revision "sha256:d1") has more than 1000 distinct (review_revision, validity) labels (the limit); the rest of the input is not read',
    );
  });
});

describe("fix: no cap on distinct tasks, models or held text: a hostile export exhausted the heap", () => {
  it("a task over the cap is an input error naming its line (caps.test.ts tests each cap)", async () => {
    const rows = [row(), row({ model_config: BASE, result: "fail" })];
    for (let i = 0; i < 10; i++) rows.push(row({ task_id: `n-${i}`, model_config: "noise" }));
    const path = scratch.write(jsonl(rows));
    const err = await readError({ results: [path], limits: { maxTasks: 5 }, ...file("tasks.jsonl") });
    expect(err.message).toContain("tasks.jsonl:7: the export has more than 5 distinct tasks");
  });
});
