/**
 * The hash thread (hash-thread.ts): the digest of the chunks handed over, in order, across many
 * turns of the ring (the reader waits for slots), and never a wrong one or a hang when the worker
 * fails: `digest()` is then undefined and streamLines hashes the file again itself. streamLines
 * is run here with the thread from 1 KiB (the module mocked), so that its path is tested on files
 * of a few chunks; the module built alone runs in a process of its own for what only a process
 * with nothing else pending shows.
 */
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "vite";
import { describe, expect, it, vi } from "vitest";

import { HashThread } from "../../../src/read/lines/hash-thread.js";
import { tempDir } from "../../helpers/export-writer.js";

const threadSource = vi.hoisted(() => ({ value: undefined as string | undefined, started: 0 }));
vi.mock("../../../src/read/lines/hash-thread.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../../src/read/lines/hash-thread.js")>();
  const counted = {
    start: (slotBytes: number, source?: string) => {
      threadSource.started++;
      return actual.HashThread.start(slotBytes, source ?? threadSource.value);
    },
  };
  return { ...actual, HashThread: counted, HASH_THREAD_MIN_BYTES: 1024 };
});

const { streamLines } = await import("../../../src/read/lines/file-stream.js");

const sha256 = (b: Buffer): string => createHash("sha256").update(b).digest("hex");

/** Bytes that differ from chunk to chunk (a digest of reordered or skipped chunks would differ). */
function pseudoRandomBytes(n: number, seed: number): Buffer {
  const b = Buffer.alloc(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    b[i] = x & 0xff;
  }
  return b;
}

/** Hands `data` to a thread in chunks of `sizes` (cycled), as the reader does; its digest. */
async function hashThrough(
  thread: HashThread,
  data: Buffer,
  sizes: readonly number[],
): Promise<string | undefined> {
  let at = 0;
  for (let k = 0; at < data.length; k++) {
    const slot = await thread.buffer();
    const n = Math.min(sizes[k % sizes.length] ?? 1, slot.length, data.length - at);
    data.copy(slot, 0, at, at + n);
    thread.update(slot.subarray(0, n));
    at += n;
  }
  return thread.digest();
}

const FAILING_AT_START = `throw new Error("no hashing today");`;
const WRONG_COUNT = `
const { parentPort } = require("node:worker_threads");
parentPort.postMessage({ digest: "0".repeat(64), chunks: -1 });
`;
const EXITS_QUIETLY = `process.exit(0);`;

describe("HashThread", () => {
  it("gives the sha256 of the chunks in order, over many turns of the ring, with chunks of any size", async () => {
    for (const [seed, sizes] of [
      [1, [1024]],
      [2, [1, 1024, 7, 500]],
      [3, [1023]],
    ] as const) {
      const data = pseudoRandomBytes(200 * 1024 + seed, seed);
      const thread = HashThread.start(1024);
      expect(thread).toBeDefined();
      if (thread === undefined) return;
      expect(await hashThrough(thread, data, sizes)).toBe(sha256(data));
    }
  });

  it("gives the digest of no bytes for an empty file", async () => {
    const thread = HashThread.start(1024);
    expect(await thread?.digest()).toBe(sha256(Buffer.alloc(0)));
  });

  it("gives no digest, and never leaves the reader waiting for a slot, when the worker fails", async () => {
    for (const source of [FAILING_AT_START, WRONG_COUNT, EXITS_QUIETLY]) {
      const thread = HashThread.start(1024, source);
      expect(thread).toBeDefined();
      if (thread === undefined) return;
      // 40 chunks: five turns of the ring, so the reader must notice the failure to go on.
      expect(await hashThrough(thread, pseudoRandomBytes(40 * 1024, 9), [1024])).toBeUndefined();
    }
  });

  it("goes on in a process with nothing else to wait for when its worker dies mid-read", async () => {
    // Under vitest something always holds the event loop open; a CLI run has only the read. So
    // the module is built alone and run in a process of its own: a reader a whole ring ahead of a
    // worker that dies must still get its slots and finish (not exit with a pending await).
    const dir = tempDir();
    await build({
      configFile: false,
      logLevel: "silent",
      root: process.cwd(),
      build: {
        ssr: "src/read/lines/hash-thread.ts",
        outDir: dir,
        minify: false,
        rolldownOptions: { output: { format: "es", entryFileNames: "hash-thread.mjs" } },
      },
    });
    const script = join(dir, "run.mjs");
    writeFileSync(
      script,
      `import { HashThread } from "./hash-thread.mjs";
const thread = HashThread.start(1024, process.argv[2] || undefined);
let chunks = 0;
for (; chunks < 40; chunks++) {
  const slot = await thread.buffer();
  thread.update(slot.subarray(0, 1024));
}
console.log(JSON.stringify({ chunks, digest: (await thread.digest()) ?? null }));
`,
    );
    // (The slots are never written: 40 KiB of zero bytes.)
    const zeros = sha256(Buffer.alloc(40 * 1024));
    for (const [source, digest] of [
      ["", zeros],
      [FAILING_AT_START, null],
      [EXITS_QUIETLY, null],
    ] as const) {
      const run = spawnSync(process.execPath, [script, source], { encoding: "utf8", timeout: 20_000 });
      expect({ status: run.status, stdout: run.stdout.trim() }).toStrictEqual({
        status: 0,
        stdout: JSON.stringify({ chunks: 40, digest }),
      });
    }
  });

  it("stops a worker whose read ended early, without a digest", async () => {
    const thread = HashThread.start(1024);
    if (thread === undefined) throw new Error("no thread");
    const slot = await thread.buffer();
    thread.update(slot.subarray(0, 10));
    await thread.stop();
    expect(await thread.digest()).toBeUndefined();
  });
});

describe("streamLines with the hash thread", () => {
  const lines = Array.from({ length: 60_000 }, (_, i) => `{"i":${i},"pad":"${"p".repeat(i % 61)}"}`);
  const bytes = Buffer.from(lines.join("\n") + "\n");

  async function readAll(path: string): Promise<{ sha256: string | undefined; seen: number }> {
    let seen = 0;
    const r = await streamLines(
      path,
      () => {
        seen++;
      },
      () => undefined,
    );
    return { sha256: r.sha256, seen };
  }

  it("gives the file's sha256 and every line, through the thread or, when it fails, hashed again", async () => {
    const path = join(tempDir(), "lines.jsonl");
    writeFileSync(path, bytes);
    expect(bytes.length).toBeGreaterThan(8 * 256 * 1024);
    for (const source of [undefined, FAILING_AT_START, WRONG_COUNT, EXITS_QUIETLY]) {
      threadSource.value = source;
      const before = threadSource.started;
      expect(await readAll(path)).toStrictEqual({ sha256: sha256(bytes), seen: lines.length });
      expect(threadSource.started).toBe(before + 1);
    }
    threadSource.value = undefined;
  });

  it("reports a file cut short while it was read when the thread failed and it is hashed again", async () => {
    const path = join(tempDir(), "cut.jsonl");
    writeFileSync(path, bytes);
    threadSource.value = FAILING_AT_START;
    const problems: string[] = [];
    let cut = false;
    const r = await streamLines(
      path,
      (_t, _b, _e, line) => {
        if (line === 40_000 && !cut) {
          cut = true;
          truncateSync(path, 1000);
        }
      },
      (_line, message) => problems.push(message),
    );
    threadSource.value = undefined;
    expect(cut).toBe(true);
    expect(r.sha256).toBeUndefined();
    expect(problems).toStrictEqual([
      "the file changed while it was read (it is now shorter): read it again once it is written",
    ]);
  });

  it("starts no thread for a file under the size, nor for a gzip file", async () => {
    const { gzipSync } = await import("node:zlib");
    const small = join(tempDir(), "small.jsonl");
    writeFileSync(small, '{"i":1}\n');
    const gz = join(tempDir(), "big.jsonl.gz");
    writeFileSync(gz, gzipSync(bytes));
    const before = threadSource.started;
    expect((await readAll(small)).sha256).toBe(sha256(Buffer.from('{"i":1}\n')));
    expect((await readAll(gz)).sha256).toBe(sha256(gzipSync(bytes)));
    expect(threadSource.started).toBe(before);
  });
});
