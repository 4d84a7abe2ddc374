#!/usr/bin/env node
// CLI entry point (bundled to dist/cli.js and installed as `model-gate`).
import { runCli } from "./cli/main.js";
import { describeFsCode } from "./io/file-kind.js";
import { fullCollectionFor } from "./io/full-collection.js";
import { youngGenerationFor } from "./io/young-generation.js";
import { retiredReadSettingNotes } from "./read/retired-read-settings.js";

/** Exit status of a user-side problem (as in src/cli/main.ts). */
const EXIT_INPUT_ERROR = 3;

/**
 * A stdout that fails must not end in an uncaught 'error' event and exit 1 (which reads as
 * "reject"). A closed reader (`| head -1`, EPIPE) ends quietly with the verdict's exit status: the
 * reader chose to stop. Any other write failure (a full disk: ENOSPC, EIO) is one message on
 * stderr and exit 3, whatever the verdict was.
 */
let stdoutError: NodeJS.ErrnoException | null = null;
let verdictCode: number | null = null;
function settle(): void {
  if (stdoutError === null || stdoutError.code === "EPIPE") {
    if (verdictCode !== null) process.exitCode = verdictCode;
    return;
  }
  process.exitCode = EXIT_INPUT_ERROR;
}
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (stdoutError !== null) return;
  stdoutError = error;
  if (error.code !== "EPIPE")
    process.stderr.write(`model-gate: cannot write to standard output: ${describeFsCode(error)}.\n`);
  settle();
});

let cwd: string | null = null;
try {
  cwd = process.cwd();
} catch {
  process.stderr.write(
    "model-gate: the current directory no longer exists (it was deleted); cd to an existing directory and run again.\n",
  );
  process.exitCode = EXIT_INPUT_ERROR;
}

if (cwd !== null) {
  const collectGarbage = fullCollectionFor(process.env);
  const youngGeneration = youngGenerationFor(process.env, process.execArgv);
  if (process.env["MODEL_GATE_DEBUG"] === "1") {
    for (const note of retiredReadSettingNotes(process.env))
      process.stderr.write(`model-gate: debug: ${note}\n`);
  }
  const code = await runCli(
    process.argv.slice(2),
    {
      // After a failed write, nothing more is written (each further write would fail too).
      stdout: (text) => {
        if (stdoutError === null) process.stdout.write(text);
      },
      stderr: (text) => process.stderr.write(text),
      cwd,
      now: () => new Date(),
      ...(collectGarbage === undefined ? {} : { collectGarbage }),
      ...(youngGeneration === undefined ? {} : { youngGeneration }),
    },
    process.env,
  );
  // Let stdout drain instead of process.exit(), which can cut off a large report on a pipe.
  verdictCode = code;
  process.exitCode = code;
  settle();
}
