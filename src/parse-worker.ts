// Parse worker entry point (bundled to dist/parse-worker.js): parses and checks batches of
// results lines for src/core/input/parse-pool.ts and answers each with its encoding.
import { parentPort } from "node:worker_threads";

import { BatchEncoder, isLineBatch } from "./core/input/row-codec.js";

const port = parentPort;
if (port === null) {
  process.stderr.write("parse-worker.js is started by the gate as a worker thread, not run directly\n");
  process.exitCode = 3;
} else {
  const encoder = new BatchEncoder();
  port.on("message", (m: unknown) => {
    // Not from the pool: a bug. Failing makes the pool parse on the main thread instead.
    if (!isLineBatch(m)) throw new Error("parse worker: unexpected message");
    const answer = encoder.encode(m);
    port.postMessage(answer, [answer.records.buffer, answer.evidence.buffer]);
  });
}
