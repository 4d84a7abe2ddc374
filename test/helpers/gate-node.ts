import { spawnSync, type SpawnSyncReturns } from "node:child_process";

/**
 * The Node.js binary that runs the bundles (dist/*.js) as child processes in the end-to-end tests:
 * `GATE_NODE` when set (.ci/run points it at a Node 24, the runtime action.yml declares), else the
 * Node running the tests. A GATE_NODE that does not exist fails every bundle test (ENOENT), loudly.
 */
export const GATE_NODE: string = process.env["GATE_NODE"] || process.execPath;

/**
 * Runs GATE_NODE with `args` (e.g. `-e SCRIPT`): for what the bundles rely on of the Node that
 * runs them. A test file that calls it is a `bundle` test (vitest.config.ts), so .ci/run runs it
 * on Node 24 too.
 */
export function spawnGateNode(args: readonly string[]): SpawnSyncReturns<string> {
  return spawnSync(GATE_NODE, args, { encoding: "utf8" });
}

/**
 * Set by the coverage run (test/helpers/bundle-coverage.ts): the directory the bundles started by
 * the tests write their V8 coverage to.
 */
export const BUNDLE_COVERAGE_ENV = "GATE_BUNDLE_COVERAGE";

/** NODE_V8_COVERAGE for a bundle's child process during the coverage run, else nothing. */
export function bundleCoverageEnv(): Record<string, string> {
  const dir = process.env[BUNDLE_COVERAGE_ENV];
  return dir ? { NODE_V8_COVERAGE: dir } : {};
}
