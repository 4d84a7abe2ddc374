/**
 * The reader on the broken and hostile inputs the issue names, one by one: truncated and padded
 * gzip, a truncated last line, invalid UTF-8, NUL bytes, a 100 MB line (with a 64 MB heap),
 * deeply nested JSON, `__proto__` / `constructor` / `prototype` keys and ids, 1e400 and -0, and
 * review revisions that are negative, fractional or huge. Each gives a Dataset or an InputError
 * that names the file and line, never another exception.
 */
import { createWriteStream } from "node:fs";
import { tableRecords } from "../../../src/core/model.js";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

import {
  BASE,
  evaluateArgs,
  expectUserError,
  file,
  jsonl,
  pairRows,
  readError,
  readOutcome,
  row,
  runBundle,
  useScratch,
  SMALL_POLICY,
} from "../helpers.js";

const scratch = useScratch("gate-reader-hostile-");

describe("gzip", () => {
  const whole = gzipSync(jsonl(pairRows(200)));

  it.each([0.1, 0.25, 0.5, 0.75, 0.9, 0.999])(
    "a gzip file cut at %f of its length is named as truncated",
    async (f) => {
      const path = scratch.write(whole.subarray(0, Math.floor(whole.length * f)));
      const err = await readError({ results: [path], ...file("cut.jsonl.gz") });
      expect(err.message).toMatch(
        /^The results\/reviews input has 1 problem:\n {2}cut\.jsonl\.gz: could not decompress the gzip data \([^)]*\); the file is truncated or corrupt$/,
      );
    },
  );

  it("concatenated gzip members (gzip a b > c) are read whole", async () => {
    const path = scratch.write(
      Buffer.concat([gzipSync(jsonl(pairRows(3))), gzipSync(jsonl(pairRows(2, { dataset_revision: "d2" })))]),
    );
    const out = await readOutcome({ results: [path] });
    expect(out.kind).toBe("dataset");
    if (out.kind === "dataset") expect(out.dataset.rowsRead).toBe(10);
  });
});

describe("truncated, malformed and non-UTF-8 lines", () => {
  it("a last line cut inside the object is an error naming that line", async () => {
    const text = jsonl(pairRows(3));
    const path = scratch.write(text.slice(0, text.length - 15));
    const err = await readError({ results: [path], ...file("cut.jsonl") });
    expect(err.message).toMatch(
      /^The results\/reviews input has 1 problem:\n {2}cut\.jsonl:6: expected a JSON object; the line is not valid JSON \(/,
    );
  });

  it("a last line without its line end is read", async () => {
    const path = scratch.write(jsonl(pairRows(3)).trimEnd());
    const out = await readOutcome({ results: [path] });
    expect(out.kind === "dataset" ? out.dataset.rowsRead : out.error.message).toBe(6);
  });

  it.each([
    ["an overlong encoding", [0xc0, 0xaf]],
    ["a lone continuation byte", [0x80]],
    ["an encoded surrogate", [0xed, 0xa0, 0x80]],
    ["a cut multi-byte character", [0xe2, 0x82]],
    ["a byte that never occurs in UTF-8", [0xff]],
  ])("%s inside a string is named as not UTF-8", async (_name, bytes) => {
    const good = Buffer.from(jsonl(pairRows(2)));
    const bad = Buffer.concat([Buffer.from('{"task_id":"t-'), Buffer.from(bytes), Buffer.from('","x":1}\n')]);
    const path = scratch.write(Buffer.concat([good, bad]));
    const err = await readError({ results: [path], ...file("bytes.jsonl") });
    expect(err.message).toBe(
      "The results/reviews input has 1 problem:\n  bytes.jsonl:5: the line is not valid UTF-8 text",
    );
  });

  it("a raw NUL byte makes the line invalid JSON, and an escaped NUL in an id is refused, shown escaped", async () => {
    const path = scratch.write(
      Buffer.concat([
        Buffer.from(jsonl(pairRows(1))),
        Buffer.from('{"task_id":"a\0b"}\n', "latin1"),
        Buffer.from(JSON.stringify(row({ task_id: "a\u0000b" })) + "\n"),
        Buffer.from("\0\0\0\n"),
      ]),
    );
    const err = await readError({ results: [path], ...file("nul.jsonl") });
    expect(err.total).toBe(3);
    const lines = err.message.split("\n");
    expect(lines[1]).toMatch(
      /^ {2}nul\.jsonl:3: expected a JSON object; the line is not valid JSON \(Bad control character/,
    );
    expect(lines[2]).toBe(
      '  nul.jsonl:4: field "task_id": expected no control characters (U+0000-U+001F, U+007F-U+009F); got "a\\u0000b"',
    );
    expect(lines[3]).toMatch(/^ {2}nul\.jsonl:5: expected a JSON object; the line is not valid JSON \(/);
    expect(err.message).not.toContain("\0");
  });
});

/** Writes `before` lines, one line of `size` bytes (a JSON string of "a"), then `after` lines, streaming. */
async function writeHugeLine(path: string, before: string, size: number, after: string): Promise<void> {
  const out = createWriteStream(path);
  const write = (chunk: string | Buffer): Promise<void> =>
    new Promise((resolve, reject) => {
      out.write(chunk, (e) => {
        if (e) reject(e);
        else resolve();
      });
    });
  await write(before);
  await write('{"task_id":"');
  const chunk = Buffer.alloc(1024 * 1024, "a");
  for (let n = 0; n < size; n += chunk.length) await write(chunk);
  await write('"}\n');
  await write(after);
  await new Promise<void>((resolve, reject) => {
    out.on("error", reject);
    out.end(() => {
      resolve();
    });
  });
}

describe("a 100 MB line", () => {
  it("is refused at the 1 MiB cap by the bundle running with a 64 MB heap, and the next lines are read", async () => {
    const path = scratch.path("huge-line.jsonl");
    await writeHugeLine(
      path,
      jsonl(pairRows(3)),
      100 * 1024 * 1024,
      jsonl([row({ task_id: "after" }), "not json"]),
    );
    const policy = scratch.write(SMALL_POLICY, "policy.yaml");
    const r = runBundle(evaluateArgs([path], policy), {
      nodeArgs: ["--max-old-space-size=64"],
      cwd: scratch.dir,
    });
    expectUserError(
      r,
      "model-gate: The results/reviews input has 2 problems:\n" +
        `  ${path}:7: the line is longer than 1048576 bytes (the limit); one JSON object per line is expected\n` +
        `  ${path}:9: expected a JSON object; the line is not valid JSON (`,
    );
  });

  it("compressed (a 100 MB line in ~100 KB of gzip) is refused the same way, without inflating it in memory", async () => {
    const path = scratch.path("huge-line.jsonl");
    const gzPath = scratch.path("huge-line.jsonl.gz");
    await writeHugeLine(path, jsonl(pairRows(1)), 100 * 1024 * 1024, "");
    const { createReadStream } = await import("node:fs");
    const { createGzip } = await import("node:zlib");
    const { pipeline } = await import("node:stream/promises");
    await pipeline(createReadStream(path), createGzip({ level: 1 }), createWriteStream(gzPath));
    const policy = scratch.write(SMALL_POLICY, "policy.yaml");
    const r = runBundle(evaluateArgs([gzPath], policy), {
      nodeArgs: ["--max-old-space-size=64"],
      cwd: scratch.dir,
    });
    expectUserError(r, `${gzPath}:3: the line is longer than 1048576 bytes (the limit)`);
  });
});

describe("deeply nested JSON", () => {
  it.each([
    ["100,000 unclosed [", "[".repeat(100_000), /not valid JSON/],
    [
      "500,000 balanced [ ]",
      "[".repeat(500_000) + "]".repeat(500_000),
      /expected a JSON object; got an array/,
    ],
    ['100,000 unclosed {"a":', '{"a":'.repeat(100_000), /not valid JSON/],
  ])("%s is a line error", async (_name, line, message) => {
    const path = scratch.write(jsonl([...pairRows(2), line]));
    const err = await readError({ results: [path], ...file("deep.jsonl") });
    expect(err.total).toBe(1);
    expect(err.problems[0]?.location).toEqual({ file: "deep.jsonl", line: 5 });
    expect(err.problems[0]?.message).toMatch(message);
  });

  it("a valid row with a 200,000-deep array in an unknown field is read (other fields are ignored)", async () => {
    const deep = "[".repeat(200_000) + "]".repeat(200_000);
    const text = JSON.stringify(row({ task_id: "t-0" })).replace(/^\{/, `{"extra":${deep},`);
    const path = scratch.write(jsonl([text, ...pairRows(1).slice(1)]));
    const out = await readOutcome({ results: [path] });
    expect(
      out.kind === "dataset" ? tableRecords(out.dataset.tasks).map((t) => t.candidate) : out.error.message,
    ).toEqual([{ pass: 1, fail: 0, infra_error: 0, missing: 0 }]);
  });
});

describe("__proto__, constructor and prototype", () => {
  it("as keys of a row they are unknown fields: nothing changes, Object.prototype is untouched", async () => {
    const rows = pairRows(2).map((r) =>
      JSON.stringify(r).replace(
        /^\{/,
        '{"__proto__":{"result":"fail","polluted":1},"constructor":{"prototype":{"polluted":1}},"prototype":1,',
      ),
    );
    const path = scratch.write(jsonl(rows));
    const plain = scratch.write(jsonl(pairRows(2)));
    const a = await readOutcome({ results: [path], ...file("x.jsonl") });
    const b = await readOutcome({ results: [plain], ...file("x.jsonl") });
    expect(a.kind).toBe("dataset");
    if (a.kind === "dataset" && b.kind === "dataset") {
      expect(a.dataset.tasks).toEqual(b.dataset.tasks);
    }
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(({} as Record<string, unknown>)["result"]).toBeUndefined();
  });

  it("as ids (task, dataset, harness, model, cluster, attempt) they are ordinary strings", async () => {
    const ids = ["__proto__", "constructor", "prototype", "hasOwnProperty", "toString", "valueOf"];
    const rows = ids.flatMap((id) => [
      row({
        task_id: id,
        dataset_revision: id,
        harness_revision: id,
        cluster: id,
        attempt: id,
        model_config: "__proto__",
      }),
      row({
        task_id: id,
        dataset_revision: id,
        harness_revision: id,
        cluster: id,
        attempt: id,
        model_config: "constructor",
        result: "fail",
      }),
    ]);
    const path = scratch.write(jsonl(rows));
    const out = await readOutcome({ results: [path], baseline: "constructor", candidate: "__proto__" });
    expect(out.kind).toBe("dataset");
    if (out.kind !== "dataset") return;
    expect(
      tableRecords(out.dataset.tasks).map((t) => [
        t.datasetRevision,
        t.taskId,
        t.cluster,
        t.candidate?.pass,
        t.baseline?.fail,
      ]),
    ).toEqual([...ids].sort().map((id) => [id, id, id, 1, 1]));
    expect(out.dataset.modelsPresent).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});

describe("numbers", () => {
  it.each([
    ["1e400", "review_revision", 'field "review_revision": expected an integer >= 0; got Infinity'],
    ["-1e400", "review_revision", 'field "review_revision": expected an integer >= 0; got -Infinity'],
    ["1e400", "passes", 'field "passes": expected an integer >= 0; got Infinity'],
    ["1e400", "attempt", 'field "attempt": expected a non-empty string or an integer; got Infinity'],
    [
      "9007199254740992",
      "review_revision",
      'field "review_revision": expected an integer >= 0 no larger than 9007199254740991; got 9007199254740992',
    ],
    ["1.5", "review_revision", 'field "review_revision": expected an integer >= 0; got 1.5'],
    ["-1", "review_revision", 'field "review_revision": expected an integer >= 0; got -1'],
  ])("%s in %s is refused", async (raw, field, message) => {
    const base: Record<string, unknown> =
      field === "passes" ? { ...row(), result: undefined, fails: 0, infra_errors: 0, missing: 0 } : row();
    const text = JSON.stringify({ ...base, [field]: "RAW" }).replace('"RAW"', raw);
    const path = scratch.write(jsonl([...pairRows(1), text]));
    const err = await readError({ results: [path], ...file("n.jsonl") });
    expect(err.message).toBe(`The results/reviews input has 1 problem:\n  n.jsonl:3: ${message}`);
  });

  it("-0 is the number 0 (JSON has one zero): review_revision -0 and 0 are one revision, attempt -0 repeats attempt 0", async () => {
    const text = (over: Record<string, unknown>, rev: string, attempt: string) =>
      JSON.stringify(row({ ...over, review_revision: "REV", attempt: "ATT" }))
        .replace('"REV"', rev)
        .replace('"ATT"', attempt);
    const path = scratch.write(
      jsonl([
        text({}, "-0", "-0"),
        text({}, "0", "0"),
        text({ model_config: BASE, result: "fail" }, "0", "1"),
      ]),
    );
    const out = await readOutcome({ results: [path] });
    expect(out.kind).toBe("dataset");
    if (out.kind !== "dataset") return;
    expect(out.dataset.candidate.duplicateRows).toBe(1);
    expect(tableRecords(out.dataset.tasks)[0]?.candidate).toEqual({
      pass: 1,
      fail: 0,
      infra_error: 0,
      missing: 0,
    });
    // One revision; the report shows it as 0 (JSON has no negative zero).
    expect(JSON.stringify(tableRecords(out.dataset.tasks)[0]?.history.map((e) => e.revision))).toBe("[0]");
    expect(JSON.stringify(out.dataset.reviewRevisions)).toBe("[0]");
  });

  it("counts up to the exact limit are kept exactly", async () => {
    const path = scratch.write(
      jsonl([
        {
          ...row(),
          result: undefined,
          passes: Number.MAX_SAFE_INTEGER - 1,
          fails: 0,
          infra_errors: 0,
          missing: 0,
        },
        row({ harness_revision: "h2" }),
        row({ model_config: BASE, result: "fail" }),
      ]),
    );
    const out = await readOutcome({ results: [path] });
    expect(
      out.kind === "dataset" ? tableRecords(out.dataset.tasks)[0]?.candidate?.pass : out.error.message,
    ).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe("review revisions in a reviews file", () => {
  it.each([
    ["-1", "expected an integer >= 0; got -1"],
    ["-0.5", "expected an integer >= 0; got -0.5"],
    ["2.5", "expected an integer >= 0; got 2.5"],
    ["1e400", "expected an integer >= 0; got Infinity"],
    ["9007199254740993", "expected an integer >= 0 no larger than 9007199254740991; got 9007199254740992"],
    ["1e300", "expected an integer >= 0 no larger than 9007199254740991; got 1e+300"],
    ['"3"', 'expected an integer >= 0; got "3"'],
    ["null", "expected an integer >= 0; got null"],
  ])("%s is refused, naming the reviews file, line and field", async (raw, message) => {
    const results = scratch.write(jsonl(pairRows(1)));
    const review = JSON.stringify({
      task_id: "t-0",
      dataset_revision: "sha256:d1",
      validity: "broken",
      review_revision: "R",
    }).replace('"R"', raw);
    const reviews = scratch.write(jsonl([review]));
    const err = await readError({
      results: [results],
      reviews: [reviews],
      displayPath: (p) => (p === reviews ? "reviews.jsonl" : "results.jsonl"),
    });
    expect(err.message).toBe(
      `The results/reviews input has 1 problem:\n  reviews.jsonl:1: field "review_revision": ${message}`,
    );
  });

  it("the largest safe integer is a revision like any other and wins", async () => {
    const results = scratch.write(jsonl(pairRows(1)));
    const reviews = scratch.write(
      jsonl([
        {
          task_id: "t-0",
          dataset_revision: "sha256:d1",
          validity: "broken",
          review_revision: Number.MAX_SAFE_INTEGER,
        },
      ]),
    );
    const out = await readOutcome({ results: [results], reviews: [reviews] });
    expect(
      out.kind === "dataset"
        ? [tableRecords(out.dataset.tasks)[0]?.validity, out.dataset.reviewRevisions]
        : out.error.message,
    ).toEqual(["broken", [1, Number.MAX_SAFE_INTEGER]]);
  });
});
