/**
 * Inspect's binary `.eval` logs (ZIP archives), read by src/importers/zip.ts and inspect-log.ts:
 * the committed fixture (derived from a real log: fixtures/tool-outputs/PROVENANCE.md), archives
 * built here by a writer of the test's own (stored, deflated, ZIP64, damaged), and the caps.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { importText, runImport } from "../../src/importers/index.js";
import { crc32, isZip, readZipDirectory, readZipEntry } from "../../src/importers/zip.js";
import { inputErrorOf, parseLines, revisionOf } from "./helpers.js";
import { writeZip } from "./zip-writer.js";

const FIXTURES = resolve(import.meta.dirname, "fixtures/tool-outputs/inspect-ai");
const EVAL = "popularity_openai-gpt-4o-mini.trimmed.eval";

const header = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    version: 2,
    status: "success",
    eval: {
      task: "t",
      model: "openai/m",
      dataset: { sample_ids: ["a", "b", "c"] },
      config: { epochs: 1 },
      revision: { type: "git", commit: "abc1234" },
      ...extra,
    },
  });
const sample = (id: string, value: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id, epoch: 1, scores: { match: { value } }, ...extra });

function importZip(zip: Buffer, file = "log.eval") {
  return importText({ kind: "inspect", file }, "", undefined, undefined, { bytes: zip });
}

describe("the committed .eval fixture (a real Inspect log, samples trimmed)", () => {
  it("imports 8 pass and 2 fail (ids 3 and 7), as the log's own accuracy 0.8 says; evidence names the entry", async () => {
    const r = await runImport({ kind: "inspect", file: EVAL, cwd: FIXTURES });
    const rows = parseLines(r.lines);
    expect(rows.map((o) => [o["task_id"], o["result"]])).toEqual([
      ["1", "pass"],
      ["10", "pass"],
      ["2", "pass"],
      ["3", "fail"],
      ["4", "pass"],
      ["5", "pass"],
      ["6", "pass"],
      ["7", "fail"],
      ["8", "pass"],
      ["9", "pass"],
    ]);
    expect(r.lines[0]).toBe(
      `{"task_id":"1","dataset_revision":"${revisionOf(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"])}",` +
        `"harness_revision":"git:ef1d858c","model_config":"openai/gpt-4o-mini","validity":"unreviewed","result":"pass",` +
        `"review_revision":0,"evidence":["${EVAL}!/samples/1_epoch_1.json#/scores/match/value"],"attempt":1,` +
        `"metrics":{"tokens_in":64,"tokens_out":2}}`,
    );
    expect(r.notes[0]).toBe(
      "read as a binary .eval log (a ZIP archive): 10 sample entries, the eval from header.json",
    );
    expect(r.notes).toContain("metrics: tokens_in on 10 of 10 rows, tokens_out on 10 of 10 rows");
    const again = await runImport({ kind: "inspect", file: EVAL, cwd: FIXTURES });
    expect(again.lines.join("\n")).toBe(r.lines.join("\n"));
  });

  it("the central directory reader agrees with the archive: 12 entries, each CRC-32 checked", () => {
    const data = readFileSync(join(FIXTURES, EVAL));
    expect(isZip(data)).toBe(true);
    const entries = readZipDirectory(data, EVAL);
    expect(entries.map((e) => e.name)).toContain("header.json");
    expect(entries).toHaveLength(12);
    const budget = { left: 1e9 };
    for (const e of entries) expect(readZipEntry(data, e, EVAL, budget).length).toBe(e.size);
  });
});

describe(".eval archives built here", () => {
  it("stored and deflated entries, a sample with an error, metrics from model usage and working time", () => {
    const zip = writeZip([
      { name: "header.json", data: header() },
      {
        name: "samples/a_epoch_1.json",
        data: sample("a", "C", {
          model_usage: {
            "openai/m": { input_tokens: 10, output_tokens: 3, total_cost: 0.002 },
            judge: { input_tokens: 5 },
          },
          working_time: 1.5,
        }),
        stored: true,
      },
      {
        name: "samples/b_epoch_1.json",
        data: sample("b", "I", { error: { message: "sandbox\nfailed", traceback: "…" } }),
      },
    ]);
    const r = importZip(zip);
    expect(parseLines(r.lines).map((o) => [o["task_id"], o["result"], o["evidence"], o["metrics"]])).toEqual([
      [
        "a",
        "pass",
        ["log.eval!/samples/a_epoch_1.json#/scores/match/value"],
        { cost_usd: 0.002, latency_s: 1.5, tokens_in: 15, tokens_out: 3 },
      ],
      ["b", "infra_error", ["log.eval!/samples/b_epoch_1.json#/error/message"], undefined],
      ["c", "missing", ["log.eval"], undefined],
    ]);
    expect(r.notes).toContain("infra_error: 1 sample with an error (sandbox)");
  });

  it("ZIP64 directories and an archive comment are read; a run without header.json reads the journal's start", () => {
    const entries = [
      { name: "_journal/start.json", data: header() },
      { name: "samples/a_epoch_1.json", data: sample("a", 1) },
    ];
    const r = importZip(writeZip(entries, { zip64: true, comment: "made by a test" }));
    expect(parseLines(r.lines).map((o) => o["result"])).toEqual(["pass", "missing", "missing"]);
    expect(r.notes).toContain('the log\'s status is "started", not "success"');
    expect(r.notes[0]).toBe(
      "read as a binary .eval log (a ZIP archive): 1 sample entries, the eval from _journal/start.json",
    );
  });

  it("a bad metric in a sample is refused, naming the entry and the field", async () => {
    const zip = writeZip([
      { name: "header.json", data: header() },
      { name: "samples/a_epoch_1.json", data: sample("a", "C", { working_time: -2 }) },
    ]);
    expect(await inputErrorOf(() => importZip(zip))).toBe(
      "log.eval: not a usable Inspect AI eval log\n" +
        '  log.eval: field "samples/a_epoch_1.json#/working_time": sample "a" epoch 1: working_time: expected a number ≥ 0, found -2',
    );
  });

  it("a sample id with a control character is refused, naming the entry's pointer", async () => {
    const zip = writeZip([
      { name: "header.json", data: header({ dataset: { sample_ids: ["x\u0007"] } }) },
      { name: "samples/x_epoch_1.json", data: sample("x\u0007", "C") },
    ]);
    const m = await inputErrorOf(() => importZip(zip));
    expect(m).toContain(
      'log.eval!/samples/x_epoch_1.json: field "/id": task_id "x\\u0007" holds a control character',
    );
  });

  const damaged: readonly (readonly [string, () => Buffer, string])[] = [
    [
      "cut short",
      () => writeZip([{ name: "header.json", data: header() }]).subarray(0, 40),
      "no end-of-central-directory record",
    ],
    [
      "a CRC-32 that does not match",
      () => writeZip([{ name: "header.json", data: header(), crc: 1234 }]),
      'ZIP entry "header.json" fails its CRC-32 check',
    ],
    [
      "a size the data does not have",
      () => writeZip([{ name: "header.json", data: header(), size: 5 }]),
      'ZIP entry "header.json" inflates to more than the 5 bytes its header says',
    ],
    [
      "encrypted",
      () => writeZip([{ name: "header.json", data: header(), flags: 1 }]),
      'ZIP entry "header.json" is encrypted',
    ],
    [
      "another compression method",
      () => writeZip([{ name: "header.json", data: header(), stored: true, method: 12 }]),
      "uses compression method 12",
    ],
    [
      "an entry given twice",
      () =>
        writeZip([
          { name: "header.json", data: header() },
          { name: "header.json", data: header() },
        ]),
      'the ZIP archive holds "header.json" twice',
    ],
    [
      "no header and no journal",
      () => writeZip([{ name: "samples/a_epoch_1.json", data: sample("a", "C") }]),
      "the archive holds neither header.json nor _journal/start.json",
    ],
    [
      "no samples",
      () => writeZip([{ name: "header.json", data: header() }]),
      "the archive holds no samples/*.json entry",
    ],
  ];

  it.each(damaged)("refused: %s", async (_what, make, message) => {
    const m = await inputErrorOf(() => importZip(make()));
    expect(m).toContain("log.eval");
    expect(m).toContain(message);
  });

  it("an entry whose JSON is broken is named with its line and column", async () => {
    const zip = writeZip([
      { name: "header.json", data: header() },
      { name: "samples/a_epoch_1.json", data: '{"id": "a",\n "epoch": }' },
    ]);
    const m = await inputErrorOf(() => importZip(zip));
    expect(m).toContain("log.eval!/samples/a_epoch_1.json: not valid JSON");
    expect(m).toContain("log.eval!/samples/a_epoch_1.json:2:");
  });

  it("inflating stops at the import's byte budget (a zip bomb costs bounded memory)", () => {
    const zip = writeZip([{ name: "big.json", data: Buffer.alloc(1 << 20, 0x20) }]);
    const entry = readZipDirectory(zip, "b.eval")[0];
    if (entry === undefined) throw new Error("no entry");
    expect(entry.compressedSize).toBeLessThan(5000);
    expect(() => readZipEntry(zip, entry, "b.eval", { left: 1000 })).toThrow(
      'ZIP entry "big.json" inflates to 1048576 bytes, past the 1000 bytes left of the import limit',
    );
  });

  it("the CLI picks the format by content, whatever the file name", async () => {
    const dir = mkdtempSync(join(tmpdir(), "inspect-eval-"));
    const zip = writeZip([
      { name: "header.json", data: header() },
      { name: "samples/a_epoch_1.json", data: sample("a", "C") },
    ]);
    writeFileSync(join(dir, "log.json"), zip);
    writeFileSync(
      join(dir, "log.eval"),
      JSON.stringify({ ...JSON.parse(header()), samples: [JSON.parse(sample("a", "C"))] }),
    );
    const fromZip = await runImport({ kind: "inspect", file: "log.json", cwd: dir });
    const fromJson = await runImport({ kind: "inspect", file: "log.eval", cwd: dir });
    expect(parseLines(fromZip.lines).map((o) => o["result"])).toEqual(["pass", "missing", "missing"]);
    expect(parseLines(fromJson.lines).map((o) => o["result"])).toEqual(["pass", "missing", "missing"]);
  });
});

it("crc32 matches the standard check value", () => {
  expect(crc32(Buffer.from("123456789"))).toBe(0xcbf43926);
});
