// Range worker entry point (bundled to dist/range-worker.js): reads one byte range of a results
// file into a DatasetBuilder of its own and posts the builder's state once (src/core/input/range-read.ts).
import { parentPort, workerData } from "node:worker_threads";

import { DatasetBuilder } from "./core/input/dataset-builder.js";
import { answerRange, type RangeTask } from "./core/input/range-read.js";

const port = parentPort;
if (port === null) {
  process.stderr.write("range-worker.js is started by the gate as a worker thread, not run directly\n");
  process.exitCode = 3;
} else {
  const task = workerData as RangeTask;
  const { answer, transfer } = await answerRange(
    task,
    (t) => new DatasetBuilder(t.baseline, t.candidate, t.fileNames, t.limits),
  );
  port.postMessage(answer, transfer);
}
