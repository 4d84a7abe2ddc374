#!/usr/bin/env node
// CLI entry point (bundled to dist/cli.js and installed as `model-gate`).
import { runCli } from "./cli/main.js";

const code = await runCli(
  process.argv.slice(2),
  {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    now: () => new Date(),
  },
  process.env,
);
// Let stdout drain instead of process.exit(), which can cut off a large report on a pipe.
process.exitCode = code;
