/**
 * Shared pieces of the hardening suite: fuzz settings (fixed seed, small run counts in CI,
 * `FUZZ_RUNS` to scale up), scratch files, a reader call that separates "result" from "input
 * error" from "anything else" (a bug), and a runner for the CLI bundle that checks the process
 * ended by itself, with no stack trace.
 */
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect } from "vitest";
import { bundleCoverageEnv, GATE_NODE } from "../helpers/gate-node.js";

import { InputError } from "../../src/core/errors.js";
import type { Dataset } from "../../src/core/model.js";
import { readDataset, type ReadOptions } from "../../src/read/read-dataset.js";

/** `FUZZ_RUNS=N` (e.g. via `npm run fuzz`) runs each fuzz property N times instead of the CI count. */
export const FUZZ_RUNS = Number.parseInt(process.env["FUZZ_RUNS"] ?? "", 10);
/** True when a long fuzz run was asked for; the slow cap tests run only then. */
export const LONG = Number.isSafeInteger(FUZZ_RUNS) && FUZZ_RUNS > 0;
/** The fixed seed of every property (override with FUZZ_SEED to explore). */
export const SEED = Number.parseInt(process.env["FUZZ_SEED"] ?? "", 10) || 20261130;

/** Per-test timeout of a fuzz property: vitest's default in CI, none to speak of in a long run. */
export const FUZZ_TIMEOUT = LONG ? 24 * 3600 * 1000 : 60_000;

/** How many runs a property gets: `ci` normally, `FUZZ_RUNS` (times `weight`) in a long run. */
export function runs(ci: number, weight = 1): number {
  return LONG ? Math.max(ci, Math.round(FUZZ_RUNS * weight)) : ci;
}

/** fast-check parameters for one property. */
export function fuzzParams(name: string, ci: number, weight = 1): { seed: number; numRuns: number } {
  const numRuns = runs(ci, weight);
  tally(name, numRuns);
  return { seed: SEED, numRuns };
}

/** With FUZZ_TALLY=file, each property appends `{"property", "runs", "seed"}` (for RELIABILITY.md). */
function tally(property: string, numRuns: number): void {
  const file = process.env["FUZZ_TALLY"];
  if (file !== undefined && file !== "") {
    appendFileSync(file, JSON.stringify({ property, runs: numRuns, seed: SEED }) + "\n");
  }
}

export const BASE = "cfg-base";
export const CAND = "cfg-cand";
export const DATASET = "sha256:d1";
export const HARNESS = "git:h1";

/** One export row (SPEC §1.1) with defaults: a valid pass of the candidate on task t-1. */
export function row(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    task_id: "t-1",
    dataset_revision: DATASET,
    harness_revision: HARNESS,
    model_config: CAND,
    validity: "valid",
    result: "pass",
    review_revision: 1,
    ...over,
  };
}

/** Both models on tasks t-0 … t-(n-1): the candidate passes, the baseline fails. */
export function pairRows(n: number, over: Record<string, unknown> = {}): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => [
    row({ task_id: `t-${i}`, ...over }),
    row({ task_id: `t-${i}`, model_config: BASE, result: "fail", ...over }),
  ]).flat();
}

/** A results source that only names itself (what the reader's error messages use). */
export const file = (name: string) => ({ displayPath: () => name });

export function jsonl(rows: readonly unknown[]): string {
  return rows.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n";
}

/** A scratch directory removed by `cleanup()`. */
export class Scratch {
  readonly dir: string;
  private n = 0;
  constructor(prefix = "gate-hardening-") {
    this.dir = mkdtempSync(join(tmpdir(), prefix));
  }
  /** Writes `data` to a new file (a fresh name unless `name` is given) and returns its path. */
  write(data: string | Uint8Array, name?: string): string {
    const path = join(this.dir, name ?? `f${this.n++}.jsonl`);
    writeFileSync(path, data);
    return path;
  }
  path(name: string): string {
    return join(this.dir, name);
  }
  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A Scratch for the whole test file, removed after its last test. */
export function useScratch(prefix: string): Scratch {
  const scratch = new Scratch(prefix);
  afterAll(() => {
    scratch.cleanup();
  });
  return scratch;
}

export type ReadOutcome =
  | { readonly kind: "dataset"; readonly dataset: Dataset }
  | { readonly kind: "input-error"; readonly error: InputError };

/**
 * readDataset, with the outcome classified. Anything thrown that is not an InputError is returned
 * as is by rethrowing: the property fails on it.
 */
export async function readOutcome(
  opts: Partial<ReadOptions> & { results: readonly string[] },
): Promise<ReadOutcome> {
  try {
    const dataset = await readDataset({ reviews: [], baseline: BASE, candidate: CAND, ...opts });
    return { kind: "dataset", dataset };
  } catch (e) {
    if (e instanceof InputError) return { kind: "input-error", error: e };
    throw e;
  }
}

/** The InputError of a read that must fail. */
export async function readError(
  opts: Partial<ReadOptions> & { results: readonly string[] },
): Promise<InputError> {
  const out = await readOutcome(opts);
  if (out.kind !== "input-error") throw new Error("expected an InputError, got a Dataset");
  return out.error;
}

export interface ProcessRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

export const CLI_BUNDLE = new URL("../../dist/cli.js", import.meta.url).pathname;

/** Runs the committed CLI bundle as a child process on GATE_NODE (optionally with node flags, e.g. a small heap). */
export function runBundle(
  args: readonly string[],
  options: { cwd?: string; nodeArgs?: readonly string[]; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): ProcessRun {
  const spawnOptions: SpawnSyncOptions = {
    cwd: options.cwd ?? process.cwd(),
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    timeout: options.timeoutMs ?? 60_000,
    env: { PATH: process.env["PATH"] ?? "", ...bundleCoverageEnv(), ...options.env },
  };
  const start = performance.now();
  const r = spawnSync(GATE_NODE, [...(options.nodeArgs ?? []), CLI_BUNDLE, ...args], spawnOptions);
  return {
    code: r.status,
    signal: r.signal,
    stdout: String(r.stdout),
    stderr: String(r.stderr),
    ms: performance.now() - start,
  };
}

/** `evaluate` arguments for results files and a policy, with the usual models and date. */
export function evaluateArgs(
  results: readonly string[],
  policy: string,
  extra: readonly string[] = [],
): string[] {
  return [
    "evaluate",
    "--results",
    ...results,
    "--policy",
    policy,
    "--baseline",
    BASE,
    "--candidate",
    CAND,
    "--today",
    "2026-11-29",
    ...extra,
  ];
}

/** No line of a process's output may start a workflow command (the runner trims leading space). */
export function expectNoWorkflowCommand(text: string): void {
  for (const line of text.split(/\r\n|\r|\n/)) {
    expect(line.trimStart().startsWith("::"), `line starts a workflow command: ${JSON.stringify(line)}`).toBe(
      false,
    );
  }
}

/** Exit status 3, nothing on stdout, one message on stderr with every fragment, no stack trace. */
export function expectUserError(r: ProcessRun, ...fragments: (string | RegExp)[]): void {
  expect(r.signal, r.stderr).toBeNull();
  expect(r.code, r.stderr).toBe(3);
  expect(r.stdout).toBe("");
  expect(r.stderr).toMatch(/^model-gate: /);
  expect(r.stderr).not.toMatch(/^\s+at .+[:(]\d+/m);
  expect(r.stderr).not.toContain("internal error");
  expectNoWorkflowCommand(r.stderr);
  for (const f of fragments) {
    if (typeof f === "string") expect(r.stderr).toContain(f);
    else expect(r.stderr).toMatch(f);
  }
}

/** A policy that the small exports of this suite can satisfy (5 common valid tasks). */
export const SMALL_POLICY = `owner: "@acme/eval-owners"
revisit: 2027-03-31
accept_if:
  common_valid_tasks: ">= 5"
  infra_error_rate: "< 1%"
  disputed_fraction: "< 50%"
  observed_margin: "> validity_sensitivity + run_variance"
`;
