import { spawnSync } from "node:child_process";
import { runCli } from "../../src/cli/main.js";
import { bundleCoverageEnv, GATE_NODE } from "./gate-node.js";

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI in-process (the source, not the bundle). */
export async function cliInProcess(argv: readonly string[], cwd = process.cwd()): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    cwd,
    now: () => new Date("2026-11-29T12:00:00Z"),
  });
  return { code, stdout, stderr };
}

/** Runs the committed bundle dist/cli.js as a real process on GATE_NODE (`env` is added to this process's). */
export function cliBundle(
  argv: readonly string[],
  cwd = process.cwd(),
  env: Record<string, string> = {},
): CliRun {
  const r = spawnSync(GATE_NODE, [new URL("../../dist/cli.js", import.meta.url).pathname, ...argv], {
    cwd,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, ...bundleCoverageEnv(), ...env },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
