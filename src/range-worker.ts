// Range worker entry point (bundled to dist/range-worker.js): reads one byte range of a results
// file into a DatasetBuilder of its own, answers once with what it read, then posts the builder's
// state part by part as the main thread asks for them (src/read/range-read.ts).
import { parentPort, workerData } from "node:worker_threads";

import { DatasetBuilder } from "./read/builder/dataset-builder.js";
import { readRangeState, type RangeTask } from "./read/range-read.js";

const port = parentPort;
if (port === null) {
  process.stderr.write("range-worker.js is started by the gate as a worker thread, not run directly\n");
  process.exitCode = 3;
} else {
  const task = workerData as RangeTask;
  const state = await readRangeState(
    task,
    (t) => new DatasetBuilder(t.baseline, t.candidate, t.fileNames, t.limits),
  );
  port.on("message", (k: unknown) => {
    // Not from the main thread: a bug. Failing makes the main thread read the range again.
    if (typeof k !== "number") throw new Error("range worker: unexpected message");
    const { snapshot, transfer } = state.part(k);
    port.postMessage({ part: k, snapshot }, transfer);
  });
  port.postMessage(state.answer);
}
