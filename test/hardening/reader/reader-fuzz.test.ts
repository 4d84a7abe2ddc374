/**
 * Property-based fuzzing of the streaming reader (readDataset) against the oracle of SPEC §1.1/§1.2:
 * for any bytes, plain or gzip, with or without a reviews file, the outcome is a Dataset or an
 * InputError — never another exception — and
 *   - a Dataset only when every non-blank line is a valid row and nothing conflicts, with
 *     rowsRead = the number of non-blank lines and every count exactly the oracle's (no line
 *     skipped, merged or altered);
 *   - otherwise an InputError that counts at least one problem per invalid line and locates every
 *     problem in a file that was given, at a line that exists.
 * Object.prototype is checked after each run: `__proto__` keys and ids cannot pollute it.
 * Fixed seed; FUZZ_RUNS scales the run counts.
 */
import { rmSync } from "node:fs";
import { gzipSync } from "node:zlib";
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";

import { tableRecords, type Dataset } from "../../../src/core/model.js";
import {
  BASE,
  CAND,
  FUZZ_TIMEOUT,
  fuzzParams,
  jsonl,
  readOutcome,
  useScratch,
  type ReadOutcome,
} from "../helpers.js";
import { named } from "../../helpers/named-cases.js";
import { applyAll, exportRows, mutation, reviewRows } from "../mutations.js";
import { expectation, specLines, type Expectation } from "../oracle.js";

const scratch = useScratch("gate-reader-fuzz-");

const PROTO_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();

function expectPrototypeIntact(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTO_KEYS);
  expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  expect(({} as Record<string, unknown>)["result"]).toBeUndefined();
}

/** A file the reader refuses as a whole before reading lines (SPEC: gzip by magic bytes; other formats named). */
function refusedAsFormat(plain: Uint8Array): boolean {
  const b = (i: number): number => plain[i] ?? -1;
  return (
    (b(0) === 0x1f && b(1) === 0x8b) ||
    (b(0) === 0xff && b(1) === 0xfe) ||
    (b(0) === 0xfe && b(1) === 0xff) ||
    (b(0) === 0x28 && b(1) === 0xb5 && b(2) === 0x2f && b(3) === 0xfd) ||
    (b(0) === 0xfd && b(1) === 0x37 && b(2) === 0x7a && b(3) === 0x58 && b(4) === 0x5a) ||
    (b(0) === 0x42 && b(1) === 0x5a && b(2) === 0x68 && b(3) >= 0x31 && b(3) <= 0x39) ||
    (b(0) === 0x50 && b(1) === 0x4b && b(2) === 0x03 && b(3) === 0x04)
  );
}

function countsOf(c: { pass: number; fail: number; infra_error: number; missing: number } | undefined) {
  return c === undefined ? undefined : [c.pass, c.fail, c.infra_error, c.missing];
}

function expectDataset(d: Dataset, exp: Expectation): void {
  expect(d.rowsRead).toBe(exp.nonBlank);
  expect(d.modelsPresent).toEqual(exp.modelsPresent);
  expect({ baseline: d.baseline.duplicateRows, candidate: d.candidate.duplicateRows }).toEqual(
    exp.duplicates,
  );
  expect(
    tableRecords(d.tasks).map((t) => ({
      datasetRevision: t.datasetRevision,
      taskId: t.taskId,
      validity: t.validity,
      reviewRevision: t.reviewRevision,
      labels: [...new Set(t.history.map((e) => `${e.revision}:${e.validity}`))].sort(),
      cluster: t.cluster,
      baseline: countsOf(t.baseline),
      candidate: countsOf(t.candidate),
    })),
  ).toEqual(exp.tasks);
}

/** Line counts per file, for checking that every problem points at a line that exists. */
interface FileLines {
  readonly path: string;
  readonly lines: number;
}

function expectInputError(out: ReadOutcome, exp: Expectation | undefined, files: readonly FileLines[]): void {
  expect(out.kind).toBe("input-error");
  if (out.kind !== "input-error") return;
  const err = out.error;
  if (exp !== undefined) expect(err.total).toBeGreaterThanOrEqual(exp.invalid);
  expect(err.total).toBeGreaterThanOrEqual(1);
  expect(err.message).not.toMatch(/^\s+at .+:\d+:\d+/m);
  for (const p of err.problems) {
    if (p.location === undefined) continue;
    const f = files.find((x) => x.path === p.location?.file);
    expect(f, `problem in an unknown file: ${p.location.file}`).toBeDefined();
    if (f !== undefined && p.location.line !== undefined) {
      expect(p.location.line).toBeGreaterThanOrEqual(1);
      expect(p.location.line).toBeLessThanOrEqual(f.lines);
    }
  }
}

/** Number of lines (for locations): LF count, plus one for a last line without LF. */
function lineCount(bytes: Uint8Array): number {
  let n = 0;
  for (const b of bytes) if (b === 0x0a) n++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? n + 1 : n;
}

interface Case {
  readonly results: Buffer;
  readonly reviews: Buffer | undefined;
  /** `appended`: gzip data followed by `cut % 7 + 1` bytes that are not gzip (a NUL, then rows). */
  readonly gzip: "none" | "whole" | "truncated" | "appended";
  readonly cut: number;
}

/** The longest read of any input (each is at most a few hundred KB): no input may hang the reader. */
let slowest = 0;

/** Outcomes per property, so a property that only ever sees errors (or only Datasets) is noticed. */
const seen = { dataset: 0, error: 0 };

async function check(c: Case): Promise<void> {
  const plain = c.results;
  let onDisk: Buffer = plain;
  const inflated =
    c.gzip === "appended" ? Buffer.concat([Buffer.alloc(400_000, 0x20), Buffer.from("\n"), plain]) : plain;
  if (c.gzip !== "none") {
    const gz = gzipSync(plain);
    onDisk =
      c.gzip === "whole"
        ? gz
        : c.gzip === "truncated"
          ? gz.subarray(0, c.cut % gz.length)
          : Buffer.concat([
              // zlib drops what follows a member in silence only when the member inflates to more
              // than its output chunk: lead with a 400 KB blank line (blank lines are skipped).
              gzipSync(inflated),
              Buffer.from("\0" + '{"a":1}\n'.repeat(c.cut % 7)).subarray(0, 1 + (c.cut % 7) * 8),
            ]);
  }
  const resultsPath = scratch.write(onDisk);
  const reviewsPath = c.reviews === undefined ? undefined : scratch.write(c.reviews);
  let out: ReadOutcome;
  const start = performance.now();
  try {
    out = await readOutcome({
      results: [resultsPath],
      reviews: reviewsPath === undefined ? [] : [reviewsPath],
    });
  } finally {
    slowest = Math.max(slowest, performance.now() - start);
    // Long runs make tens of thousands of inputs: keep the scratch directory small.
    rmSync(resultsPath);
    if (reviewsPath !== undefined) rmSync(reviewsPath);
  }
  const files: FileLines[] = [
    { path: resultsPath, lines: lineCount(inflated) },
    ...(reviewsPath === undefined || c.reviews === undefined
      ? []
      : [{ path: reviewsPath, lines: lineCount(c.reviews) }]),
  ];
  const exp = expectation([plain], c.reviews === undefined ? [] : [c.reviews], BASE, CAND);
  const wholeFile =
    (c.gzip === "none" || c.gzip === "whole") && !(c.gzip === "none" && refusedAsFormat(plain));
  if (wholeFile && exp.invalid === 0 && exp.conflicts === 0 && !exp.modelMissing) {
    expect(out.kind, out.kind === "input-error" ? out.error.message : "").toBe("dataset");
    if (out.kind === "dataset") expectDataset(out.dataset, exp);
  } else {
    expectInputError(out, wholeFile ? exp : undefined, files);
  }
  expectPrototypeIntact();
  seen[out.kind === "dataset" ? "dataset" : "error"]++;
}

/** Runs a property and checks that both outcomes occurred at least `min` times each. */
async function withBothOutcomes(min: number, run: () => Promise<void>): Promise<void> {
  seen.dataset = 0;
  seen.error = 0;
  await run();
  expect(seen.dataset, "runs that gave a Dataset").toBeGreaterThanOrEqual(min);
  expect(seen.error, "runs that gave an InputError").toBeGreaterThanOrEqual(Math.max(min, 1));
}

const gzipMode = fc.constantFrom<Case["gzip"]>("none", "none", "whole", "truncated", "appended");

/** A valid export of one task, the candidate passing and the baseline failing. */
const VALID_ROWS = [
  { model_config: CAND, result: "pass" },
  { model_config: BASE, result: "fail" },
].map((r) => ({
  task_id: "t",
  dataset_revision: "d",
  harness_revision: "h",
  model_config: r.model_config,
  validity: "valid",
  result: r.result,
  review_revision: 0,
}));

const text = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n)),
  maxLength: 12,
});
const idField = fc.constantFrom(
  "task_id",
  "dataset_revision",
  "harness_revision",
  "cluster",
  "attempt",
  "evidence",
);

/**
 * The reader's properties: the test's name, how many runs must give a Dataset and how many an
 * InputError (at least one of the latter whatever `min`), the property, and its name and CI run
 * count for fuzzParams (RELIABILITY.md "Fuzzing" lists them).
 */
const PROPERTIES: readonly {
  readonly name: string;
  readonly min: number;
  readonly property: () => fc.IAsyncProperty<unknown[]>;
  readonly tally: string;
  readonly runs: number;
}[] = [
  {
    name: "mutated valid exports (plain, gzip, truncated gzip, gzip with bytes after it)",
    min: 20,
    property: () =>
      fc.asyncProperty(
        exportRows,
        fc.array(mutation, { maxLength: 3 }),
        gzipMode,
        fc.nat(),
        (rows, ms, gzip, cut) =>
          check({ results: applyAll(Buffer.from(jsonl(rows)), ms), reviews: undefined, gzip, cut }),
      ),
    tally: "reader: mutated exports",
    runs: 300,
  },
  {
    name: "mutated valid exports with a mutated reviews file",
    min: 20,
    property: () =>
      fc.asyncProperty(
        exportRows,
        reviewRows,
        fc.array(mutation, { maxLength: 2 }),
        fc.array(mutation, { maxLength: 2 }),
        (rows, reviews, ms, rms) =>
          check({
            results: applyAll(Buffer.from(jsonl(rows)), ms),
            reviews: applyAll(Buffer.from(reviews.length === 0 ? "" : jsonl(reviews)), rms),
            gzip: "none",
            cut: 0,
          }),
      ),
    tally: "reader: mutated reviews",
    runs: 200,
  },
  {
    name: "arbitrary bytes after valid rows of both models, plain or gzip",
    min: 10,
    property: () =>
      fc.asyncProperty(fc.uint8Array({ maxLength: 600 }), gzipMode, fc.nat(), (bytes, gzip, cut) =>
        check({
          results: Buffer.concat([Buffer.from(jsonl(VALID_ROWS)), Buffer.from(bytes)]),
          reviews: undefined,
          gzip,
          cut,
        }),
      ),
    tally: "reader: arbitrary bytes after valid rows",
    runs: 200,
  },
  {
    name: "arbitrary bytes as the whole file, and as a reviews file",
    min: 0,
    property: () =>
      fc.asyncProperty(fc.uint8Array({ maxLength: 600 }), fc.uint8Array({ maxLength: 300 }), (bytes, rev) =>
        check({ results: Buffer.from(bytes), reviews: Buffer.from(rev), gzip: "none", cut: 0 }),
      ),
    tally: "reader: arbitrary bytes",
    runs: 200,
  },
  {
    name: "arbitrary Unicode text lines (lone surrogates, controls, bidi) in every id field",
    min: 20,
    property: () =>
      fc.asyncProperty(fc.array(fc.record({ field: idField, value: text }), { maxLength: 4 }), (edits) => {
        const rows = VALID_ROWS.map((r, i) => {
          const copy: Record<string, unknown> = { ...r };
          for (const e of edits) if (i === 0 || e.field !== "cluster") copy[e.field] = e.value;
          return copy;
        });
        return check({ results: Buffer.from(jsonl(rows)), reviews: undefined, gzip: "none", cut: 0 });
      }),
    tally: "reader: arbitrary UTF-16 in id fields",
    runs: 200,
  },
];

describe("reader fuzz: for any bytes, a Dataset exactly as the oracle predicts, or an InputError", () => {
  it.each(named(PROPERTIES))(
    "%s",
    async (_name, { min, property, tally, runs }) => {
      await withBothOutcomes(min, () => fc.assert(property(), fuzzParams(tally, runs)));
    },
    FUZZ_TIMEOUT,
  );
});

describe("time", () => {
  it("no fuzz input took the reader longer than 2 s", () => {
    expect(slowest).toBeLessThan(2_000);
  });
});

describe("the oracle itself", () => {
  it("reads lines as SPEC §1.1 says: CRLF, BOM at a line start, blank lines, a last line without LF", () => {
    const bytes = Buffer.from('\uFEFF{"a":1}\r\n \t\r\n\n\uFEFF\n{"b":2}', "utf8");
    expect(specLines(bytes)).toEqual([
      { line: 1, text: '{"a":1}' },
      { line: 5, text: '{"b":2}' },
    ]);
  });
});
