/**
 * Problems of a whole file or of its bytes (file-stream.ts, line-splitter.ts, read-dataset.ts):
 * missing, a directory, given twice, unreadable, corrupt or truncated gzip, another format, a
 * line that is not UTF-8 or is too long; each named once, never a stack trace.
 */
import { chmod, mkdir, readFile, symlink } from "node:fs/promises";
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";

import { describe, expect, it } from "vitest";

import { MAX_LINE_BYTES, readDataset } from "../../../src/read/read-dataset.js";
import { GATE_NODE } from "../../helpers/gate-node.js";
import { fixtures, inputError, row, toJsonl, readNamed } from "../fixtures.js";

const fx = fixtures("file-errors");

/**
 * Root reads anything: as root, the committed bundle reads the file as the unprivileged user
 * nobody (uid 65534) and the input error it prints is returned.
 */
async function readAsNobody(name: string): Promise<string> {
  await chmod(fx.dir, 0o755);
  const policy = await fx.write(
    "nobody-policy.yaml",
    await readFile(resolve(import.meta.dirname, "../../../policy.example.yaml")),
  );
  await chmod(policy, 0o644);
  const cli = resolve(import.meta.dirname, "../../../dist/cli.js");
  const args = ["evaluate", "--results", name, "--policy", policy, "--baseline", "b", "--candidate", "c"];
  const r = spawnSync(GATE_NODE, [cli, ...args], { cwd: fx.dir, uid: 65534, gid: 65534, encoding: "utf8" });
  expect(r.status, r.stderr).toBe(3);
  return r.stderr.replace(/^model-gate: /, "").trimEnd();
}
const HEADER1 = "The results/reviews input has 1 problem:";

describe("files", () => {
  it("names a missing file, a directory and a file given twice before reading anything", async () => {
    const good = await fx.jsonl("files-good.jsonl", [row(), row({ model_config: "cand" })]);
    const dir = join(fx.dir, "a-dir");
    await mkdir(dir);
    const err = await inputError(readNamed([good, join(fx.dir, "nope.jsonl"), dir], [good]));
    expect(err.message).toBe(
      [
        "Cannot read 3 input files:",
        "  nope.jsonl: no such file",
        "  a-dir: expected a results file; this is a directory",
        "  files-good.jsonl: the same file is given twice (first as results file files-good.jsonl); its rows would count twice",
      ].join("\n"),
    );
  });

  it("sees through a symbolic link when checking for a file given twice", async () => {
    const good = await fx.jsonl("link-target.jsonl", [row(), row({ model_config: "cand" })]);
    const link = join(fx.dir, "link.jsonl");
    await symlink(good, link);
    const err = await inputError(readNamed([good, link]));
    expect(err.message).toBe(
      "Cannot read an input file:\n  link.jsonl: the same file is given twice (first as results file link-target.jsonl); its rows would count twice",
    );
  });

  it("names an unreadable file", async () => {
    const path = await fx.jsonl("noperm.jsonl", [row()]);
    await chmod(path, 0o000);
    const message =
      process.getuid?.() === 0
        ? await readAsNobody("noperm.jsonl")
        : (await inputError(readNamed([path]))).message;
    expect(message).toBe(`${HEADER1}\n  noperm.jsonl: permission denied`);
  });

  it("names a truncated gzip file, without a stack trace in the message", async () => {
    const rows = Array.from({ length: 200 }, (_, i) => row({ task_id: `t${i}` }));
    const full = gzipSync(toJsonl([...rows, row({ model_config: "cand" })]));
    const path = await fx.write("trunc.jsonl.gz", full.subarray(0, full.length - 20));
    const err = await inputError(readNamed([path]));
    expect(err.message).toBe(
      `${HEADER1}\n  trunc.jsonl.gz: could not decompress the gzip data (unexpected end of file); the file is truncated or corrupt`,
    );
  });

  it("names a corrupt gzip file", async () => {
    const full = gzipSync(toJsonl([row(), row({ model_config: "cand" })]));
    const bad = Buffer.from(full);
    bad.fill(0xff, 10, full.length - 8);
    const path = await fx.write("corrupt.jsonl.gz", bad);
    const err = await inputError(readNamed([path]));
    expect(err.message).toMatch(
      /^The results\/reviews input has 1 problem:\n {2}corrupt\.jsonl\.gz: could not decompress the gzip data \([^)]+\); the file is truncated or corrupt$/,
    );
  });

  it("names files in other formats instead of reporting every line", async () => {
    const utf16 = await fx.write(
      "utf16.jsonl",
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(toJsonl([row()]), "utf16le")]),
    );
    const zstd = await fx.write("data.jsonl.zst", Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0, 0]));
    const good = await fx.jsonl("formats-good.jsonl", [row(), row({ model_config: "cand" })]);
    const err = await inputError(readNamed([good, utf16, zstd]));
    expect(err.message).toBe(
      [
        "The results/reviews input has 2 problems:",
        "  utf16.jsonl: the file is UTF-16 text; expected UTF-8 JSON lines",
        "  data.jsonl.zst: the file is zstd-compressed; only plain or gzip-compressed JSON lines are read",
      ].join("\n"),
    );
  });

  it("names a line that is not UTF-8", async () => {
    const bytes = Buffer.concat([
      Buffer.from(toJsonl([row(), row({ model_config: "cand" })])),
      Buffer.from('{"task_id":"t'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}\n'),
    ]);
    const path = await fx.write("latin.jsonl", bytes);
    const err = await inputError(readNamed([path]));
    expect(err.message).toBe(`${HEADER1}\n  latin.jsonl:3: the line is not valid UTF-8 text`);
  });

  it("reports an overlong line without reading it whole, and goes on with the next lines", async () => {
    const ok = JSON.stringify(row({ model_config: "cand" }));
    // Exactly MAX_LINE_BYTES (padding with spaces inside the line) is accepted; one more byte is not.
    const atLimit = ok + " ".repeat(MAX_LINE_BYTES - Buffer.byteLength(ok));
    const overLimit = JSON.stringify(row({ evidence: "x".repeat(MAX_LINE_BYTES) }));
    const text = [
      JSON.stringify(row()),
      atLimit,
      overLimit,
      JSON.stringify(row({ result: "?" })),
      overLimit,
    ].join("\n");
    const path = await fx.write("long.jsonl", text);
    const gzPath = await fx.write("long.jsonl.gz", gzipSync(text));
    for (const [p, name] of [
      [path, "long.jsonl"],
      [gzPath, "long.jsonl.gz"],
    ] as const) {
      const err = await inputError(readNamed([p]));
      expect(err.message).toBe(
        [
          "The results/reviews input has 3 problems:",
          `  ${name}:3: the line is longer than 1048576 bytes (the limit); one JSON object per line is expected`,
          `  ${name}:4: field "result": expected one of pass, fail, infra_error, missing; got "?"`,
          `  ${name}:5: the line is longer than 1048576 bytes (the limit); one JSON object per line is expected`,
        ].join("\n"),
      );
    }
    const d = await readDataset({
      results: [await fx.write("long-ok.jsonl", [JSON.stringify(row()), atLimit].join("\r\n"))],
      reviews: [],
      baseline: "base",
      candidate: "cand",
    });
    expect(d.rowsRead).toBe(2);
    expect((await readFile(path)).length).toBeGreaterThan(2 * MAX_LINE_BYTES);
  });

  it("rejects bad options", async () => {
    const err = await inputError(readDataset({ results: [], reviews: [], baseline: "", candidate: "cand" }));
    expect(err.message).toBe(
      [
        "The reader was given invalid options:",
        `  field "baseline": expected a non-empty model_config id`,
        `  field "results": expected at least one results file`,
      ].join("\n"),
    );
  });
});
