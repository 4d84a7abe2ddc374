import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { basename, relative } from "node:path";
import { gzipSync } from "node:zlib";

import { describe, expect, it } from "vitest";

import { tableRecords, type Dataset, type TaskRecord } from "../../src/core/model.js";
import { COLLECT_MIN_TASKS } from "../../src/read/limits.js";
import { readDataset, YOUNG_GENERATION_CHECK_LINES } from "../../src/read/read-dataset.js";
import { fullCollection, fullCollectionFor, youngCollection } from "../../src/io/full-collection.js";
import { GZIP_COLLECT_BYTES } from "../../src/read/lines/file-stream.js";
import { fixtures, review, row, toJsonl } from "./fixtures.js";

const fx = fixtures("read");

const byName = (abs: string): string => basename(abs);

const RESULTS = [
  row({ evidence: "fixture.log", cluster: "repoA" }),
  row({ model_config: "cand", result: "fail", evidence: ["fixture.log", "review.json"] }),
  row({ task_id: "t2", validity: "disputed", review_revision: 3, attempt: 1 }),
  row({ task_id: "t2", validity: "disputed", review_revision: 3, attempt: 2, result: "infra_error" }),
  row({ task_id: "t2", model_config: "cand", validity: "disputed", review_revision: 3, result: "missing" }),
  row({
    task_id: "t3",
    harness_revision: "h2",
    model_config: "other",
    validity: "broken",
    review_revision: 4,
  }),
  row({ model_config: "other", foo: { any: "thing" }, extra: [1, 2] }),
  row({
    task_id: "B",
    dataset_revision: "ds0",
    model_config: "cand",
    validity: "unreviewed",
    review_revision: 0,
  }),
  row({
    task_id: "a",
    dataset_revision: "ds0",
    model_config: "cand",
    validity: "unreviewed",
    review_revision: 0,
  }),
];
const REVIEWS = [
  review({ validity: "broken", reviewer: "alice", note: "fixture fails", evidence: "https://x/1" }),
  review({ task_id: "t3", review_revision: 5 }),
  review({ task_id: "t2", validity: "disputed", review_revision: 3 }),
];

const EXPECTED_TASKS: TaskRecord[] = [
  {
    datasetRevision: "ds0",
    taskId: "B",
    validity: "unreviewed",
    reviewRevision: 0,
    history: [
      { revision: 0, validity: "unreviewed", source: { file: "results.jsonl", line: 8 }, evidence: [] },
    ],
    evidence: [],
    candidate: { pass: 1, fail: 0, infra_error: 0, missing: 0 },
  },
  {
    datasetRevision: "ds0",
    taskId: "a",
    validity: "unreviewed",
    reviewRevision: 0,
    history: [
      { revision: 0, validity: "unreviewed", source: { file: "results.jsonl", line: 9 }, evidence: [] },
    ],
    evidence: [],
    candidate: { pass: 1, fail: 0, infra_error: 0, missing: 0 },
  },
  {
    datasetRevision: "ds1",
    taskId: "t1",
    validity: "broken",
    reviewRevision: 2,
    history: [
      {
        revision: 1,
        validity: "valid",
        source: { file: "results.jsonl", line: 1 },
        // Every row carrying this label adds its evidence (the first row's source is kept).
        evidence: ["fixture.log", "review.json"],
      },
      {
        revision: 2,
        validity: "broken",
        source: { file: "reviews.jsonl", line: 1 },
        reviewer: "alice",
        note: "fixture fails",
        evidence: ["https://x/1"],
      },
    ],
    evidence: ["fixture.log", "review.json", "https://x/1"],
    cluster: "repoA",
    baseline: { pass: 1, fail: 0, infra_error: 0, missing: 0 },
    candidate: { pass: 0, fail: 1, infra_error: 0, missing: 0 },
  },
  {
    datasetRevision: "ds1",
    taskId: "t2",
    validity: "disputed",
    reviewRevision: 3,
    history: [
      { revision: 3, validity: "disputed", source: { file: "results.jsonl", line: 3 }, evidence: [] },
    ],
    evidence: [],
    baseline: { pass: 1, fail: 0, infra_error: 1, missing: 0 },
    candidate: { pass: 0, fail: 0, infra_error: 0, missing: 1 },
  },
];

describe("readDataset: a small export and reviews", () => {
  it("reduces rows to the exact Dataset", async () => {
    const results = await fx.jsonl("results.jsonl", RESULTS);
    const reviews = await fx.jsonl("reviews.jsonl", REVIEWS);
    const d = await readDataset({
      results: [results],
      reviews: [reviews],
      baseline: "base",
      candidate: "cand",
      displayPath: byName,
    });
    expect(tableRecords(d.tasks)).toEqual(EXPECTED_TASKS);
    expect(d.baseline).toEqual({
      config: "base",
      harnessRevisions: ["h1"],
      datasetRevisions: ["ds1"],
      duplicateRows: 0,
    });
    expect(d.candidate).toEqual({
      config: "cand",
      harnessRevisions: ["h1"],
      datasetRevisions: ["ds0", "ds1"],
      duplicateRows: 0,
    });
    expect(d.modelsPresent).toEqual(["base", "cand", "other"]);
    expect(d.rowsRead).toBe(12);
    expect(d.reviewRevisions).toEqual([0, 1, 2, 3]);
    const sha = async (p: string): Promise<string> =>
      createHash("sha256")
        .update(await readFile(p))
        .digest("hex");
    expect(d.inputs).toEqual([
      { kind: "results", path: "results.jsonl", sha256: await sha(results) },
      { kind: "reviews", path: "reviews.jsonl", sha256: await sha(reviews) },
    ]);
  });

  it("names files by the path as given when no displayPath is set", async () => {
    const results = await fx.jsonl("given.jsonl", [row(), row({ model_config: "cand" })]);
    const given = relative(process.cwd(), results);
    const d = await readDataset({ results: [given], reviews: [], baseline: "base", candidate: "cand" });
    expect(d.inputs.map((i) => i.path)).toEqual([given]);
    expect(tableRecords(d.tasks)[0]?.history[0]?.source).toEqual({ file: given, line: 1 });
  });

  it("sorts tasks, models and revisions by UTF-16 code units, not by locale", async () => {
    const ids = ["é", "Z", "a", "_", "Ä", "b"];
    const results = await fx.jsonl(
      "order.jsonl",
      ids.flatMap((id, i) => [
        row({ task_id: id, model_config: `m-${id}`, review_revision: 10 - i }),
        row({ task_id: id, dataset_revision: i % 2 === 0 ? "r2" : "R1" }),
      ]),
    );
    const d = await readDataset({ results: [results], reviews: [], baseline: "base", candidate: "m-a" });
    expect(tableRecords(d.tasks).map((t) => `${t.datasetRevision}/${t.taskId}`)).toEqual([
      "R1/Z",
      "R1/_",
      "R1/b",
      "ds1/a",
      "r2/a",
      "r2/Ä",
      "r2/é",
    ]);
    expect(d.modelsPresent).toEqual(["base", "m-Z", "m-_", "m-a", "m-b", "m-Ä", "m-é"]);
    expect(d.baseline.datasetRevisions).toEqual(["R1", "r2"]);
    // Only tasks of the compared models count: "a" at ds1 (revision 8) and every R1/r2 task (1).
    expect(d.reviewRevisions).toEqual([1, 8]);
  });
});

describe("readDataset: the full collection asked for on a large read", () => {
  it("is not asked for below COLLECT_MIN_TASKS tasks, and changes nothing", async () => {
    const results = await fx.jsonl("results-gc.jsonl", RESULTS);
    let calls = 0;
    const opts = {
      results: [results],
      reviews: [],
      baseline: "base",
      candidate: "cand",
      displayPath: byName,
    };
    const d = await readDataset({
      ...opts,
      collectGarbage: () => {
        calls++;
      },
    });
    expect(calls).toBe(0);
    expect(tableRecords(d.tasks)).toEqual(tableRecords((await readDataset(opts)).tasks));
    expect(d.tasks.length).toBeLessThan(COLLECT_MIN_TASKS);
  });

  it("fullCollection gives a function that collects what nothing holds any more", async () => {
    const collect = fullCollection();
    expect(collect).toBeTypeOf("function");
    const ref = new WeakRef({ big: new Array(1000).fill(1) });
    // A WeakRef's target is held until the end of the job that made it: collect in a later one.
    await new Promise((r) => setImmediate(r));
    collect?.();
    await new Promise((r) => setImmediate(r));
    expect(ref.deref()).toBeUndefined();
    // The same function on every call; the flag it set is cleared again.
    expect(fullCollection()).toBe(collect);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    // MODEL_GATE_COLLECT=0 turns it off; anything else leaves it on.
    expect(fullCollectionFor({ MODEL_GATE_COLLECT: "0" })).toBeUndefined();
    expect(fullCollectionFor({ MODEL_GATE_COLLECT: "1" })).toBe(collect);
    expect(fullCollectionFor({})).toBe(collect);
  });
});

describe("readDataset: the young generation's check as the read goes on", () => {
  it("is called every YOUNG_GENERATION_CHECK_LINES lines of a results file, never for reviews, and changes nothing", async () => {
    // Two results files: 10,000 lines (checks at 4,096 and 8,192) and 4,096 (one, its last line).
    const many = Array.from({ length: 5000 }, (_, k) => [
      row({ task_id: `t${k}` }),
      row({ task_id: `t${k}`, model_config: "cand", result: k % 3 === 0 ? "fail" : "pass" }),
    ]).flat();
    const first = await fx.jsonl("results-young-1.jsonl", many);
    const second = await fx.jsonl("results-young-2.jsonl", many.slice(0, YOUNG_GENERATION_CHECK_LINES));
    const reviews = await fx.jsonl(
      "reviews-young.jsonl",
      Array.from({ length: 5000 }, (_, k) => review({ task_id: `t${k}` })),
    );
    const opts = {
      results: [first, second],
      reviews: [reviews],
      baseline: "base",
      candidate: "cand",
      displayPath: byName,
    };
    let calls = 0;
    const d = await readDataset({
      ...opts,
      youngGeneration: {
        cap: () => {
          calls++;
        },
      },
    });
    expect(calls).toBe(3);
    expect(tableRecords(d.tasks)).toEqual(tableRecords((await readDataset(opts)).tasks));
  });
});

describe("readDataset: encodings and compression", () => {
  const rows = [
    row(),
    row({ model_config: "cand", result: "fail", cluster: "c" }),
    row({ task_id: "t2", attempt: "x" }),
    row({ task_id: "t2", attempt: "x" }),
  ];

  async function read(path: string): Promise<Dataset> {
    return readDataset({
      results: [path],
      reviews: [],
      baseline: "base",
      candidate: "cand",
      displayPath: () => "f",
    });
  }

  /** The Dataset without its digests, its tasks as records (compared by value). */
  function withoutDigests(d: Dataset): Omit<Dataset, "tasks"> & { tasks: TaskRecord[] } {
    return { ...d, inputs: [], tasks: tableRecords(d.tasks) };
  }

  it("reads gzip and plain files to the same Dataset, by magic bytes rather than by name", async () => {
    const plain = await read(await fx.jsonl("enc-plain.jsonl", rows));
    const gz = await read(await fx.jsonlGz("enc-gz.jsonl.gz", rows));
    const gzNamedPlain = await read(await fx.jsonlGz("enc-gz-named-plain.jsonl", rows));
    const plainNamedGz = await read(await fx.jsonl("enc-plain-named-gz.jsonl.gz", rows));
    expect(plain.baseline.duplicateRows).toBe(1);
    expect(withoutDigests(gz)).toEqual(withoutDigests(plain));
    expect(withoutDigests(gzNamedPlain)).toEqual(withoutDigests(plain));
    expect(withoutDigests(plainNamedGz)).toEqual(withoutDigests(plain));
    // The digest is of the raw (compressed) bytes.
    const gzBytes = await readFile(`${fx.dir}/enc-gz.jsonl.gz`);
    expect(gz.inputs[0]?.sha256).toBe(createHash("sha256").update(gzBytes).digest("hex"));
    expect(gz.inputs[0]?.sha256).not.toBe(plain.inputs[0]?.sha256);
  });

  it("reads a multi-member gzip file (concatenated gzip streams)", async () => {
    const text = toJsonl(rows);
    const half = text.indexOf("\n", text.length / 2) + 1;
    const bytes = Buffer.concat([gzipSync(text.slice(0, half)), gzipSync(text.slice(half))]);
    const plain = await read(await fx.jsonl("multi-plain.jsonl", rows));
    const multi = await read(await fx.write("multi.jsonl.gz", bytes));
    expect(withoutDigests(multi)).toEqual(withoutDigests(plain));
  });

  it("accepts a UTF-8 BOM, CRLF line ends, blank lines and a last line without a line end", async () => {
    const lines = rows.map((r) => JSON.stringify(r));
    // The second BOM is what concatenating two files that start with one leaves.
    const text = `\uFEFF${lines[0]}\r\n\r\n   \t \r\n${lines[1]}\r\n\n\uFEFF${lines[2]}\r\n${lines[3]}`;
    const plain = await read(await fx.jsonl("bom-ref.jsonl", rows));
    const bom = await read(await fx.write("bom.jsonl", text));
    const bomGz = await read(await fx.write("bom.jsonl.gz", gzipSync(text)));
    expect(bom.rowsRead).toBe(4);
    expect(withoutDigests(bom)).toEqual({
      ...withoutDigests(plain),
      // Line numbers count blank lines: rows are on lines 1, 4, 6 and 7.
      tasks: tableRecords(plain.tasks).map((t) =>
        t.taskId === "t1"
          ? { ...t, history: [{ ...t.history[0], source: { file: "f", line: 1 } }] }
          : { ...t, history: [{ ...t.history[0], source: { file: "f", line: 6 } }] },
      ),
    });
    expect(withoutDigests(bomGz)).toEqual(withoutDigests(bom));
  });

  it("reads rows spread over several results files like one file", async () => {
    const one = await readDataset({
      results: [await fx.jsonl("split-all.jsonl", rows)],
      reviews: [],
      baseline: "base",
      candidate: "cand",
    });
    const two = await readDataset({
      results: [
        await fx.jsonl("split-1.jsonl", rows.slice(0, 3)),
        await fx.jsonlGz("split-2.jsonl.gz", rows.slice(3)),
      ],
      reviews: [],
      baseline: "base",
      candidate: "cand",
      displayPath: byName,
    });
    expect(tableRecords(two.tasks).map((t) => [t.taskId, t.baseline, t.candidate])).toEqual(
      tableRecords(one.tasks).map((t) => [t.taskId, t.baseline, t.candidate]),
    );
    expect(two.baseline).toEqual(one.baseline);
    expect(two.inputs.map((i) => i.path)).toEqual(["split-1.jsonl", "split-2.jsonl.gz"]);
    expect(two.rowsRead).toBe(4);
  });

  it("streams a file in many chunks: lines split across read chunks are joined", async () => {
    // 4000 rows of ~300 bytes: more than 1 MiB, so several 256 KiB chunks, and an evidence string
    // whose length varies so that chunk boundaries fall inside lines and inside multi-byte characters.
    const many = Array.from({ length: 4000 }, (_, i) =>
      row({
        task_id: `task-${i % 1000}`,
        model_config: Math.floor(i / 1000) % 2 === 0 ? "base" : "cand",
        attempt: Math.floor(i / 2),
        evidence: `log-€-${"é".repeat(i % 97)}-${i}`,
      }),
    );
    const d = await read(await fx.jsonl("chunks.jsonl", many));
    expect(d.rowsRead).toBe(4000);
    expect(d.tasks.length).toBe(1000);
    expect(tableRecords(d.tasks).every((t) => t.baseline?.pass === 2 && t.candidate?.pass === 2)).toBe(true);
    const t7 = tableRecords(d.tasks).find((t) => t.taskId === "task-7");
    expect(t7?.evidence).toEqual([7, 1007, 2007, 3007].map((i) => `log-€-${"é".repeat(i % 97)}-${i}`));
  });
});

describe("readDataset: a gzip file's young collections", () => {
  it("asks for one every GZIP_COLLECT_BYTES of a gzip file's lines, none for the same file plain, and changes nothing", async () => {
    // About 40 MiB of lines: two collections (the count restarts at each, so never more).
    const note = "n".repeat(1000);
    const rows = Array.from({ length: 38_000 }, (_, k) =>
      row({
        task_id: `t${k % 500}`,
        model_config: k % 2 === 0 ? "base" : "cand",
        attempt: k,
        evidence: note,
      }),
    );
    const text = toJsonl(rows);
    const bytes = Buffer.byteLength(text);
    expect(Math.floor(bytes / GZIP_COLLECT_BYTES)).toBe(2);
    expect(Math.floor(bytes / (GZIP_COLLECT_BYTES + 256 * 1024))).toBe(2);
    const plain = await fx.write("young-plain.jsonl", text);
    const gz = await fx.write("young.jsonl.gz", gzipSync(text));
    const read = async (file: string, collect?: () => void): Promise<Dataset> =>
      readDataset({
        results: [file],
        reviews: [],
        baseline: "base",
        candidate: "cand",
        displayPath: byName,
        ...(collect === undefined ? {} : { youngGeneration: { collect } }),
      });
    let gzCalls = 0;
    let plainCalls = 0;
    const d = await read(gz, () => gzCalls++);
    await read(plain, () => plainCalls++);
    expect([gzCalls, plainCalls]).toEqual([2, 0]);
    expect(tableRecords(d.tasks)).toEqual(tableRecords((await read(gz)).tasks));
  });

  it("youngCollection is one function, taken as fullCollection's gc is (what it frees: test/io/young-generation.test.ts)", () => {
    const collect = youngCollection();
    expect(collect).toBeTypeOf("function");
    expect(youngCollection()).toBe(collect);
    expect(() => collect?.()).not.toThrow();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
