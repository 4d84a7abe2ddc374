/**
 * Shared plumbing for the GitHub calls: the Octokit type, bounded retries of server errors, and
 * turning a failed call into one warning that says what could not be done and which permission
 * the workflow must grant.
 */
import type { GitHub } from "@actions/github/lib/utils";
import type { Logger } from "./logger.js";

export type Octokit = InstanceType<typeof GitHub>;

export interface RetryPolicy {
  /** Total tries, including the first (≥ 1). */
  readonly attempts: number;
  /** Delay before the 2nd try; doubled for each later one. */
  readonly baseDelayMs: number;
  readonly sleep: (ms: number) => Promise<void>;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 3,
  baseDelayMs: 1000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * The HTTP status of an Octokit RequestError, or null for a network failure / non-HTTP error.
 * Octokit reports a failed fetch (connection dropped, refused, timed out) as status 500 without a
 * `response`; only an error that carries GitHub's response has a status GitHub answered.
 */
export function httpStatus(error: unknown): number | null {
  if (error !== null && typeof error === "object" && "status" in error) {
    const response = (error as { response?: unknown }).response;
    if (response === null || typeof response !== "object") return null;
    const s = error.status;
    if (typeof s === "number" && s >= 100) return s;
  }
  return null;
}

/** GitHub's own message for a failed call (`message`, plus `errors[].message` on 422). */
export function apiMessage(error: unknown): string {
  const data = (error as { response?: { data?: unknown } } | null)?.response?.data;
  if (data !== null && typeof data === "object") {
    const d = data as { message?: unknown; errors?: unknown };
    const parts: string[] = [];
    if (typeof d.message === "string") parts.push(d.message);
    if (Array.isArray(d.errors)) {
      for (const e of d.errors.slice(0, 5)) {
        if (typeof e === "string") parts.push(e);
        else if (
          e !== null &&
          typeof e === "object" &&
          typeof (e as { message?: unknown }).message === "string"
        )
          parts.push((e as { message: string }).message);
      }
    }
    if (parts.length > 0) return parts.join("; ").slice(0, 500);
  }
  return error instanceof Error ? error.message.slice(0, 500) : String(error).slice(0, 500);
}

/** The longest wait a rate limit's `retry-after` may impose before a retry. */
export const MAX_RATE_LIMIT_WAIT_MS = 60_000;

function header(error: unknown, name: string): string | undefined {
  const headers = (error as { response?: { headers?: Record<string, unknown> } } | null)?.response?.headers;
  const v = headers?.[name];
  return typeof v === "string" || typeof v === "number" ? String(v) : undefined;
}

/**
 * GitHub's secondary rate limits answer 403 (or 429) with `retry-after` or with
 * `x-ratelimit-remaining: 0`: that is "wait", not "missing permission". Returns the wait in ms
 * (capped), or null when the error is not a rate limit.
 */
export function rateLimitWaitMs(error: unknown): number | null {
  const status = httpStatus(error);
  if (status !== 403 && status !== 429) return null;
  const after = header(error, "retry-after");
  if (after !== undefined && /^\d{1,6}$/.test(after))
    return Math.min(Number(after) * 1000, MAX_RATE_LIMIT_WAIT_MS);
  if (header(error, "x-ratelimit-remaining") === "0") {
    const reset = header(error, "x-ratelimit-reset");
    const wait = reset !== undefined && /^\d{1,12}$/.test(reset) ? Number(reset) * 1000 - Date.now() : 0;
    return Math.min(Math.max(wait, 0), MAX_RATE_LIMIT_WAIT_MS);
  }
  return status === 429 ? 0 : null;
}

function retryable(error: unknown): boolean {
  const status = httpStatus(error);
  if (status === null) return true; // connection reset, DNS hiccup, timeout
  return status >= 500 || rateLimitWaitMs(error) !== null;
}

/** Runs `fn`, retrying server errors and network failures with exponential backoff. */
export async function withRetry<T>(
  what: string,
  fn: () => Promise<T>,
  policy: RetryPolicy,
  log: Logger,
): Promise<T> {
  let delay = policy.baseDelayMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (attempt >= policy.attempts || !retryable(error)) throw error;
      const status = httpStatus(error);
      log.debug(
        `${what}: ${status === null ? "request failed" : `GitHub answered ${status}`} (${apiMessage(error)}); ` +
          `retry ${attempt + 1} of ${policy.attempts} in ${delay} ms`,
      );
      await policy.sleep(Math.max(delay, rateLimitWaitMs(error) ?? 0));
      delay *= 2;
    }
  }
}

export interface FailureContext {
  /** What was being done, e.g. "create the check run". */
  readonly action: string;
  /** The `permissions:` entry the call needs, e.g. "checks: write". */
  readonly permission: string;
  /** The run is on a pull request from a fork. */
  readonly fork: boolean;
  readonly attempts: number;
}

/** One sentence (or two) for a warning about a call that failed for good. */
export function describeFailure(error: unknown, ctx: FailureContext): string {
  const status = httpStatus(error);
  const msg = apiMessage(error);
  const head = `Could not ${ctx.action}`;
  if (rateLimitWaitMs(error) !== null)
    return `${head}: GitHub's rate limit answered ${status} (${msg}) ${ctx.attempts} time${ctx.attempts === 1 ? "" : "s"}; giving up. The verdict is in the job summary and the step outputs.`;
  if (status === 403 || status === 401) {
    const why = ctx.fork
      ? "This pull request comes from a fork, and GitHub gives workflows on fork pull requests a read-only token"
      : "The token lacks the permission";
    return (
      `${head}: GitHub answered ${status} (${msg}). ${why}: the job needs \`permissions: ${ctx.permission}\`` +
      `${ctx.fork ? " (not granted to forks)" : ""}. The verdict is in the job summary and the step outputs.`
    );
  }
  if (status === 404)
    return `${head}: GitHub answered 404 (${msg}). Check the repository, the pull request and that the token can see them (it needs \`${ctx.permission}\`).`;
  if (status === 422) return `${head}: GitHub rejected the request with 422 (${msg}).`;
  if (status !== null && status >= 500)
    return `${head}: GitHub answered ${status} (${msg}) ${ctx.attempts} time${ctx.attempts === 1 ? "" : "s"}; giving up. The verdict is in the job summary and the step outputs.`;
  if (status === null)
    return `${head}: the request to GitHub failed (${msg}) ${ctx.attempts} time${ctx.attempts === 1 ? "" : "s"}; giving up. The verdict is in the job summary and the step outputs.`;
  return `${head}: GitHub answered ${status} (${msg}).`;
}
