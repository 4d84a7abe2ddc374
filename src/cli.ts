#!/usr/bin/env node
// CLI entry point (bundled to dist/cli.js and installed as `model-gate`).
import { runCli } from "./cli/main.js";
import { neutraliseLogLines } from "./core/report/escape.js";
import { bundledParseWorkers } from "./io/parse-workers.js";

const parseWorkers = bundledParseWorkers(import.meta.url, process.env);

const code = await runCli(
  process.argv.slice(2),
  {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    now: () => new Date(),
    ...(parseWorkers === undefined ? {} : { parseWorkers }),
    ...(process.env["MODEL_GATE_DEBUG"] === "1"
      ? { debug: (text: string) => process.stderr.write(`model-gate: debug: ${neutraliseLogLines(text)}\n`) }
      : {}),
  },
  process.env,
);
// Let stdout drain instead of process.exit(), which can cut off a large report on a pipe.
process.exitCode = code;
