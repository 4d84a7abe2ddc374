// Action entry point (bundled to dist/index.js). Wires the runner (@actions/core), GitHub
// (@actions/github's Octokit) and git into src/action/run.ts, and is the single error boundary:
// a user error (InputError, PolicyError) fails the step with its message and no stack; anything
// else is a bug and fails the step with a short "internal error" message, the stack in the debug log.
// A problem of the runner's environment (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, the working
// directory) is one ::error:: naming the variable; the rest of the run still happens.
import * as core from "@actions/core";
import { InputError } from "./core/errors.js";
import { neutraliseLogLines } from "./core/report/escape.js";
import { runGit } from "./action/base-policy.js";
import { DEFAULT_RETRY, type RetryPolicy } from "./action/github-api.js";
import { createLogger } from "./action/logger.js";
import { runAction } from "./action/run.js";
import { bundledReadThreads } from "./read/read-threads.js";
import { fullCollectionFor } from "./io/full-collection.js";
import { appendToRegularFile, describeFsCode } from "./io/file-kind.js";
import { statSync } from "node:fs";
import { sourceMappedStack } from "./source-mapped-stack.js";

/** Test hook: MODEL_GATE_RETRY_BASE_MS shortens the backoff between retries of server errors. */
function retryPolicy(env: NodeJS.ProcessEnv): RetryPolicy {
  const raw = env["MODEL_GATE_RETRY_BASE_MS"];
  const base = raw !== undefined && /^\d{1,6}$/.test(raw) ? Number(raw) : DEFAULT_RETRY.baseDelayMs;
  return { ...DEFAULT_RETRY, baseDelayMs: base };
}

/** A GitHub call that never answers must not hold the job until its 6-hour timeout. */
const REQUEST_TIMEOUT_MS = 20_000;

/** Test hook: MODEL_GATE_REQUEST_TIMEOUT_MS shortens the per-request timeout. */
function requestTimeout(env: NodeJS.ProcessEnv): number {
  const raw = env["MODEL_GATE_REQUEST_TIMEOUT_MS"];
  return raw !== undefined && /^\d{1,7}$/.test(raw) ? Number(raw) : REQUEST_TIMEOUT_MS;
}

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
async function loadGetOctokit(): Promise<typeof import("@actions/github").getOctokit> {
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

async function main(): Promise<void> {
  const base = createLogger(core);
  // Every ::error:: fails the step: the verdict's own failure, an input error, or something the
  // run could not deliver (report-path, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY) while the rest was.
  const log: typeof base = {
    ...base,
    error: (message, props) => {
      base.error(message, props);
      process.exitCode = core.ExitCode.Failure;
    },
  };
  // One ::error:: per runner variable that cannot be used; the step fails, the run goes on.
  const runnerProblems = new Set<string>();
  const runnerProblem = (variable: string, message: string): void => {
    if (runnerProblems.has(variable)) return;
    runnerProblems.add(variable);
    log.error(message);
  };
  const readThreads = bundledReadThreads(import.meta.url, process.env);
  const collectGarbage = fullCollectionFor(process.env);
  let failed = false;
  const setFailed = (message: string): void => {
    if (failed) return;
    failed = true;
    core.setFailed(neutraliseLogLines(message));
  };
  try {
    await runAction({
      env: process.env,
      cwd: workingDirectory(process.env),
      getInput: (name) => core.getInput(name),
      log,
      setOutput: (name, value) => {
        const file = process.env["GITHUB_OUTPUT"] ?? "";
        const lost = (why: string): void => {
          runnerProblem(
            "GITHUB_OUTPUT",
            `GITHUB_OUTPUT ${file} cannot be written (${why}): the step outputs are not set. ` +
              "The verdict is in the job summary and the report file.",
          );
        };
        if (file !== "" && notRegular(file)) {
          lost(describeFsCode({ code: "ENOTREGULAR" }));
          return;
        }
        try {
          core.setOutput(name, value);
        } catch (error) {
          // @actions/core checks existence itself and throws a plain "Missing file at path".
          lost(/^Missing file/.test((error as Error).message) ? "no such file" : describeFsCode(error));
        }
      },
      writeSummary: async (markdown) => {
        if (!process.env["GITHUB_STEP_SUMMARY"]) {
          log.info(
            "GITHUB_STEP_SUMMARY is not set; the summary is not written (the report file has everything).",
          );
          return;
        }
        try {
          // What core.summary.addRaw(markdown).write() does, with the file's kind checked first.
          await appendToRegularFile(process.env["GITHUB_STEP_SUMMARY"], markdown);
        } catch (error) {
          runnerProblem(
            "GITHUB_STEP_SUMMARY",
            `GITHUB_STEP_SUMMARY ${process.env["GITHUB_STEP_SUMMARY"]} cannot be written ` +
              `(${describeFsCode(error)}): the job summary is missing. The verdict is in the step outputs and the report file.`,
          );
        }
      },
      setFailed,
      makeOctokit: async (token, baseUrl) =>
        (await loadGetOctokit())(token, {
          baseUrl,
          request: { fetch: fetchWithTimeout(requestTimeout(process.env)) },
        }),
      git: runGit,
      retry: retryPolicy(process.env),
      today: new Date().toISOString().slice(0, 10),
      ...(readThreads === undefined ? {} : { readThreads }),
      ...(collectGarbage === undefined ? {} : { collectGarbage }),
    });
  } catch (error) {
    if (error instanceof InputError) {
      setFailed(error.message);
      return;
    }
    // The bundle's frames mapped to src/ through dist/index.js.map, so the stack names our code.
    const detail = error instanceof Error ? sourceMappedStack(error.stack ?? error.message) : String(error);
    core.debug(neutraliseLogLines(detail));
    setFailed(
      `Internal error in model-acceptance-gate: ${error instanceof Error ? error.message.split("\n")[0] : "unknown"}. ` +
        "This is a bug; re-run with ACTIONS_STEP_DEBUG=true for the stack trace and report it.",
    );
  }
}

void main();
