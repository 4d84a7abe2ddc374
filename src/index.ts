// Action entry point (bundled to dist/index.js). Wires the runner (@actions/core), GitHub
// (@actions/github's Octokit) and git into src/action/run.ts, and is the single error boundary:
// a user error (InputError, PolicyError) fails the step with its message and no stack; anything
// else is a bug and fails the step with a short "internal error" message, the stack in the debug log.
import * as core from "@actions/core";
import { getOctokit } from "@actions/github";
import { InputError } from "./core/errors.js";
import { neutraliseLogLines } from "./core/report/escape.js";
import { runGit } from "./action/base-policy.js";
import { DEFAULT_RETRY, type RetryPolicy } from "./action/github-api.js";
import { createLogger } from "./action/logger.js";
import { runAction } from "./action/run.js";
import { bundledParseWorkers } from "./io/parse-workers.js";

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

async function main(): Promise<void> {
  const log = createLogger(core);
  const parseWorkers = bundledParseWorkers(import.meta.url, process.env);
  let failed = false;
  const setFailed = (message: string): void => {
    if (failed) return;
    failed = true;
    core.setFailed(neutraliseLogLines(message));
  };
  try {
    await runAction({
      env: process.env,
      cwd: process.cwd(),
      getInput: (name) => core.getInput(name),
      log,
      setOutput: (name, value) => {
        core.setOutput(name, value);
      },
      writeSummary: async (markdown) => {
        if (!process.env["GITHUB_STEP_SUMMARY"]) {
          log.info(
            "GITHUB_STEP_SUMMARY is not set; the summary is not written (the report file has everything).",
          );
          return;
        }
        await core.summary.addRaw(markdown).write();
      },
      setFailed,
      makeOctokit: (token, baseUrl) =>
        getOctokit(token, { baseUrl, request: { fetch: fetchWithTimeout(requestTimeout(process.env)) } }),
      git: runGit,
      retry: retryPolicy(process.env),
      today: new Date().toISOString().slice(0, 10),
      ...(parseWorkers === undefined ? {} : { parseWorkers }),
    });
  } catch (error) {
    if (error instanceof InputError) {
      setFailed(error.message);
      return;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    core.debug(neutraliseLogLines(detail));
    setFailed(
      `Internal error in model-acceptance-gate: ${error instanceof Error ? error.message.split("\n")[0] : "unknown"}. ` +
        "This is a bug; re-run with ACTIONS_STEP_DEBUG=true for the stack trace and report it.",
    );
  }
}

void main();
