// Action entry point (bundled to dist/index.js). Wires the runner (@actions/core), GitHub
// (@actions/github's Octokit, with the retry and throttling plugins) and git into
// src/action/gate-action.ts (evaluate, or rank mode), and is the single error boundary and the one
// place that fails the step: a user error (InputError, PolicyError) fails it with its message and
// no stack; a verdict fails it per fail-on; something the run could not deliver (the report file,
// GITHUB_OUTPUT, GITHUB_STEP_SUMMARY), already said with one ::error:: each, fails it with no
// second message; anything else is a bug and fails it with a short "internal error" message, the
// stack in the debug log.
import * as core from "@actions/core";
import { InputError } from "./core/errors.js";
import { neutraliseLogLines } from "./core/report/escape.js";
import { runGit } from "./git/run-git.js";
import {
  createOctokit,
  DEFAULT_RETRY,
  RETRY_BUDGET_UNITS,
  RetryBudget,
  type GetOctokit,
  type RetrySettings,
} from "./action/github-api.js";
import { gitToFile } from "./action/base-files.js";
import { createLogger, type Logger } from "./action/logger.js";
import { runGateAction, type GateRunResult } from "./action/gate-action.js";
import { retiredReadSettingNotes } from "./read/retired-read-settings.js";
import { fullCollectionFor } from "./io/full-collection.js";
import { youngGenerationFor } from "./io/young-generation.js";
import { appendToRegularFile, describeFsCode } from "./io/file-kind.js";
import { statSync } from "node:fs";
import { sourceMappedStack } from "./source-mapped-stack.js";

/**
 * The run's retry settings: one RetryBudget for every GitHub call of the run (a dead API costs
 * seconds, docs/action.md). The end-to-end tests shorten the waits from outside the product
 * (test/helpers/short-waits.mjs, loaded with `node --import`), so nothing here reads a test knob.
 */
function retrySettings(): RetrySettings {
  return { ...DEFAULT_RETRY, budget: new RetryBudget(RETRY_BUDGET_UNITS) };
}

/** A GitHub call that never answers must not hold the job until its 6-hour timeout. */
const REQUEST_TIMEOUT_MS = 20_000;

/**
 * fetch with a per-request timeout. A timed-out call fails like a dropped connection: it is
 * retried with backoff, then becomes one warning (src/action/github-api.ts).
 */
function fetchWithTimeout(timeoutMs: number): typeof fetch {
  return (input, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return fetch(input, { ...init, signal });
  };
}

/**
 * @actions/github builds its `context` when it is imported, and that JSON.parses the file at
 * GITHUB_EVENT_PATH: a statically imported module would throw before any error boundary exists.
 * So it is imported only when an Octokit is needed, after src/action/context.ts has read (and
 * checked) the payload itself. The magic comment keeps it in the one bundle file.
 */
async function loadGetOctokit(): Promise<GetOctokit> {
  const github = await import(/* webpackMode: "eager" */ "@actions/github");
  return github.getOctokit;
}

/** The working directory, or GITHUB_WORKSPACE when it was deleted (process.cwd() throws then). */
function workingDirectory(env: NodeJS.ProcessEnv): string {
  try {
    return process.cwd();
  } catch {
    return env["GITHUB_WORKSPACE"] ?? "/";
  }
}

/** GITHUB_OUTPUT exists and is not a regular file (a FIFO would block the append forever). */
function notRegular(path: string): boolean {
  try {
    return !statSync(path).isFile();
  } catch {
    return false;
  }
}

/** How the run ended: a verdict (a result), or an error thrown to this boundary. */
type Outcome =
  | { readonly kind: "result"; readonly result: GateRunResult }
  | { readonly kind: "error"; readonly error: unknown };

/** The one place that fails the step. `runnerProblems`: runner variables already said to be unusable. */
function endStep(outcome: Outcome, runnerProblems: number): void {
  if (outcome.kind === "error") {
    const { error } = outcome;
    if (error instanceof InputError) {
      core.setFailed(neutraliseLogLines(error.message));
      return;
    }
    // The bundle's frames mapped to src/ through dist/index.js.map, so the stack names our code.
    const detail = error instanceof Error ? sourceMappedStack(error.stack ?? error.message) : String(error);
    core.debug(neutraliseLogLines(detail));
    core.setFailed(
      neutraliseLogLines(
        `Internal error in model-acceptance-gate: ${error instanceof Error ? error.message.split("\n")[0] : "unknown"}. ` +
          "This is a bug; re-run with ACTIONS_STEP_DEBUG=true for the stack trace and report it.",
      ),
    );
    return;
  }
  const { result } = outcome;
  if (result.verdictFailure !== null) core.setFailed(neutraliseLogLines(result.verdictFailure));
  // Each was one ::error:: already: the step fails without a second message.
  else if (result.undelivered.length > 0 || runnerProblems > 0) process.exitCode = core.ExitCode.Failure;
}

async function main(): Promise<void> {
  const log: Logger = createLogger(core);
  // One ::error:: per runner variable that cannot be used; the run goes on, the step fails.
  const runnerProblems = new Set<string>();
  const runnerProblem = (variable: string, message: string): void => {
    if (runnerProblems.has(variable)) return;
    runnerProblems.add(variable);
    log.error(message);
  };
  for (const note of retiredReadSettingNotes(process.env)) log.debug(note);
  const collectGarbage = fullCollectionFor(process.env);
  const youngGeneration = youngGenerationFor(process.env, process.execArgv);
  const retry = retrySettings();
  let outcome: Outcome;
  try {
    const result = await runGateAction({
      env: process.env,
      cwd: workingDirectory(process.env),
      getInput: (name) => core.getInput(name),
      log,
      setOutput: (name, value) => {
        const file = process.env["GITHUB_OUTPUT"] ?? "";
        const lost = (why: string): false => {
          runnerProblem(
            "GITHUB_OUTPUT",
            `GITHUB_OUTPUT ${file} cannot be written (${why}): the step outputs are not set.`,
          );
          return false;
        };
        if (file !== "" && notRegular(file)) return lost(describeFsCode({ code: "ENOTREGULAR" }));
        try {
          core.setOutput(name, value);
          return true;
        } catch (error) {
          // @actions/core checks existence itself and throws a plain "Missing file at path".
          return lost(
            /^Missing file/.test((error as Error).message) ? "no such file" : describeFsCode(error),
          );
        }
      },
      writeSummary: async (markdown) => {
        const file = process.env["GITHUB_STEP_SUMMARY"];
        if (!file) {
          log.info("GITHUB_STEP_SUMMARY is not set: no job summary is written.");
          return false;
        }
        try {
          // What core.summary.addRaw(markdown).write() does, with the file's kind checked first.
          await appendToRegularFile(file, markdown);
          return true;
        } catch (error) {
          runnerProblem(
            "GITHUB_STEP_SUMMARY",
            `GITHUB_STEP_SUMMARY ${file} cannot be written (${describeFsCode(error)}): the job summary is missing.`,
          );
          return false;
        }
      },
      makeOctokit: async (token, baseUrl) =>
        createOctokit(await loadGetOctokit(), token, {
          baseUrl,
          fetch: fetchWithTimeout(REQUEST_TIMEOUT_MS),
          retry,
          log,
        }),
      git: runGit,
      gitToFile,
      retry,
      today: new Date().toISOString().slice(0, 10),
      ...(collectGarbage === undefined ? {} : { collectGarbage }),
      ...(youngGeneration === undefined ? {} : { youngGeneration }),
    });
    outcome = { kind: "result", result };
  } catch (error) {
    outcome = { kind: "error", error };
  }
  endStep(outcome, runnerProblems.size);
}

void main();
