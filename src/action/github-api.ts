/**
 * Shared plumbing for the GitHub calls: the Octokit the action uses (retries by
 * @octokit/plugin-retry, rate limits by @octokit/plugin-throttling), the check every answer passes
 * before it is used, and turning a failed call into one warning that says what could not be done,
 * which permission the workflow must grant, and where the run's result is instead.
 */
import { retry as retryPlugin } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import type { GitHub } from "@actions/github/lib/utils";
import Bottleneck from "bottleneck/light.js";
import type { z } from "zod";
import type { Logger } from "./logger.js";
import { plural } from "../core/words.js";

export type Octokit = InstanceType<typeof GitHub>;

/** How hard a GitHub call is tried: the same settings build the Octokit and pace the comment upsert. */
export interface RetrySettings {
  /** Tries after the first, for a server error, a dropped connection or a rate limit. */
  readonly retries: number;
  /**
   * One unit of waiting: retry n waits n² units (plugin-retry's backoff), and a rate limit's
   * `retry-after` seconds are units too. 1000 on GitHub; tests shrink it.
   */
  readonly baseDelayMs: number;
  /**
   * The least time between two writes; null keeps the throttling plugin's own pacing (GitHub asks
   * for a second between writes, three between writes that notify). Tests set 0.
   */
  readonly writeSpacingMs: number | null;
  /** What the whole run may still wait for retries (src/index.ts makes one per run); none: no bound. */
  readonly budget?: RetryBudget;
}

export const DEFAULT_RETRY: RetrySettings = { retries: 2, baseDelayMs: 1000, writeSpacingMs: null };

/**
 * A run's retries wait at most this many units in all (10 s on GitHub, docs/action.md): a GitHub
 * API that refuses connections or answers 500 to everything costs seconds, not minutes. Two calls
 * retried in full (1 + 4 units each) spend it; every later failing call is tried once.
 */
export const RETRY_BUDGET_UNITS = 10;

/**
 * The waiting a run may still spend on retries of server errors and calls with no answer, shared
 * by every GitHub call of the run (the client's retries and the comment's own). Rate-limit waits
 * are GitHub's to set and not counted here.
 */
export class RetryBudget {
  private spent = 0;
  constructor(readonly units: number) {}

  /** Spends `units` for one retry's wait and answers true; false (nothing spent) when they would overrun it. */
  take(units: number): boolean {
    if (this.spent + units > this.units) return false;
    this.spent += units;
    return true;
  }
}

/** How many times the call that failed with this error was tried (set by the client's error hook). */
const TRIES = new WeakMap<object, number>();

/** The tries recorded for a failed call's error, or null when the client did not see it. */
export function triesOf(error: unknown): number | null {
  return error !== null && typeof error === "object" ? (TRIES.get(error) ?? null) : null;
}

/** The longest wait a rate limit may impose before a retry; a longer one is given up at once. */
export const MAX_RATE_LIMIT_WAIT_MS = 60_000;

/**
 * Only server errors and dropped connections are retried by plugin-retry: a 4xx is an answer
 * (a missing permission, a rejected body), and rate limits (403, 429) are plugin-throttling's.
 */
const DO_NOT_RETRY = Array.from({ length: 100 }, (_, i) => 400 + i);

/**
 * Registered last (outermost): each call gets its own copy of `options.request`. The client's
 * defaults hand every call the same object, and plugin-retry keeps its try count there
 * (`retryCount`), so a second failing call started at the first's count: its first retry waited
 * (3 + 1)² units instead of 1, and the budget and the log saw the wrong try.
 */
function ownRequestOptions(octokit: { hook: Octokit["hook"] }): void {
  // In place: every hook of one call holds this call's `options` object itself.
  octokit.hook.before("request", (options) => {
    options.request = { ...(options.request ?? {}) };
  });
}

/** @actions/github's getOctokit, passed in: importing it reads GITHUB_EVENT_PATH (src/index.ts). */
export type GetOctokit = typeof import("@actions/github").getOctokit;

export interface OctokitSetup {
  readonly baseUrl: string;
  readonly fetch: typeof fetch;
  readonly retry: RetrySettings;
  readonly log: Logger;
}

/** `METHOD /route/{template}` of a request: fixed text, never a value from the run. */
function route(options: { method?: unknown; url?: unknown }): string {
  const text = (v: unknown): string => (typeof v === "string" ? v : "");
  return `${text(options.method)} ${text(options.url)}`;
}

/** The Octokit the action uses: retries, rate limits, and a debug line for each failed try. */
export function createOctokit(getOctokit: GetOctokit, token: string, setup: OctokitSetup): Octokit {
  const { retry: settings, log } = setup;
  // Registered before plugin-retry, so it sees every try, not only the last, and can stop the
  // retries the run's budget cannot pay for: plugin-retry reads `request.retries` after it.
  const logFailedTries = (octokit: { hook: Octokit["hook"] }): void => {
    octokit.hook.error("request", (error, options) => {
      const request = (options.request ?? {}) as { retryCount?: unknown; retries?: unknown };
      const tries = Number(request.retryCount ?? 0) + 1;
      const status = httpStatus(error);
      log.debug(
        `${route(options)}: ${status === null ? "no answer" : `GitHub answered ${status}`} (${apiMessage(error)}) on try ${tries}`,
      );
      if (error !== null && typeof error === "object") TRIES.set(error, tries);
      const retryable = Number((error as { status?: unknown }).status) >= 500;
      const allowed = typeof request.retries === "number" ? request.retries : settings.retries;
      // Retry n waits n² units (plugin-retry's curve): asked of the budget before it is waited.
      if (retryable && tries <= allowed && settings.budget?.take(tries * tries) === false) {
        request.retries = tries - 1;
        options.request = request;
        log.debug(
          `${route(options)}: not retried: the run's retries have waited their ${settings.budget.units} units ` +
            `(${(settings.budget.units * settings.baseDelayMs) / 1000} s)`,
        );
      }
      throw error;
    });
  };
  const onLimit =
    (kind: string) =>
    (
      retryAfter: number,
      options: { method?: unknown; url?: unknown },
      _octokit: unknown,
      retryCount: number,
    ) => {
      const again = retryCount < settings.retries && retryAfter * 1000 <= MAX_RATE_LIMIT_WAIT_MS;
      log.debug(
        `${route(options)}: GitHub's ${kind} rate limit asks to wait ${retryAfter} s; ` +
          (again ? `try ${retryCount + 2} after the wait` : "giving up"),
      );
      return again;
    };
  const spacing = settings.writeSpacingMs;
  const paced = (): Bottleneck.Group => new Bottleneck.Group({ maxConcurrent: 1, minTime: spacing ?? 0 });
  return getOctokit(
    token,
    {
      baseUrl: setup.baseUrl,
      request: { fetch: setup.fetch },
      retry: {
        retries: settings.retries,
        retryAfterBaseValue: settings.baseDelayMs,
        doNotRetry: DO_NOT_RETRY,
      },
      throttle: {
        retryAfterBaseValue: settings.baseDelayMs,
        onRateLimit: onLimit("primary"),
        onSecondaryRateLimit: onLimit("secondary"),
        ...(spacing === null ? {} : { write: paced(), notifications: paced() }),
      },
    },
    logFailedTries,
    retryPlugin,
    throttling,
    ownRequestOptions,
  );
}

/**
 * The wait before retry n (1-based) of a write the action retries itself (the sticky comment's,
 * after listing again): the same curve as plugin-retry's, so every retry in a run paces alike.
 */
export function backoffMs(settings: RetrySettings, n: number): number {
  return n * n * settings.baseDelayMs;
}

/** GitHub answered with success, but not with what the call returns: not JSON, or JSON without a field used. */
export class MalformedAnswerError extends Error {
  override readonly name = "MalformedAnswerError";
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, unknown>>;
  readonly data: unknown;
}

function contentType(answer: Answer): string {
  const type = answer.headers["content-type"];
  return typeof type === "string" && type !== "" ? type.split(";")[0]?.trim() || type : "no content type";
}

function jsonKind(data: unknown): string {
  if (data === null) return "null";
  if (Array.isArray(data)) return "an array";
  return typeof data === "object" ? "an object" : `a ${typeof data}`;
}

/** What was wrong with a successful answer, for MalformedAnswerError: fixed words and our own field names. */
export function malformed(answer: Answer, issue?: z.core.$ZodIssue): MalformedAnswerError {
  const type = contentType(answer);
  let what: string;
  if (typeof answer.data === "string" || answer.data instanceof ArrayBuffer || answer.data === undefined)
    what = /^text\/html$/i.test(type) ? "an HTML page instead of JSON" : `a body that is not JSON (${type})`;
  else if (issue === undefined || issue.path.length === 0)
    what = `JSON of the wrong shape (${jsonKind(answer.data)})`;
  else
    what = `JSON that lacks a usable \`${issue.path
      .map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`))
      .join("")}\``;
  return new MalformedAnswerError(answer.status, `GitHub answered ${answer.status} with ${what}`);
}

/**
 * The answer's data, checked against what the call uses; anything else is a MalformedAnswerError.
 * The schemas are z.object, not strictObject: GitHub adds fields to its answers at will, and only
 * the fields the action reads are its business.
 */
export function checkAnswer<T>(answer: Answer, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(answer.data);
  if (parsed.success) return parsed.data;
  throw malformed(answer, parsed.error.issues[0]);
}

/**
 * The HTTP status of an Octokit RequestError, or null for a network failure / non-HTTP error.
 * Octokit reports a failed fetch (connection dropped, refused, timed out) as status 500 without a
 * `response`; only an error that carries GitHub's response has a status GitHub answered.
 */
export function httpStatus(error: unknown): number | null {
  if (error instanceof MalformedAnswerError) return null;
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

function header(error: unknown, name: string): string | undefined {
  const headers = (error as { response?: { headers?: Record<string, unknown> } } | null)?.response?.headers;
  const v = headers?.[name];
  return typeof v === "string" || typeof v === "number" ? String(v) : undefined;
}

/**
 * GitHub's rate limits answer 403 or 429 with `retry-after`, `x-ratelimit-remaining: 0` or a
 * message naming the limit: that is "wait", not "missing permission".
 */
export function isRateLimit(error: unknown): boolean {
  const status = httpStatus(error);
  if (status !== 403 && status !== 429) return false;
  return (
    status === 429 ||
    header(error, "retry-after") !== undefined ||
    header(error, "x-ratelimit-remaining") === "0" ||
    /\brate limit/i.test(apiMessage(error))
  );
}

/** What the calls that publish the result share: the client, how hard it tries, the log, and what a failure warning says. */
export interface PublishDeps {
  readonly octokit: Octokit;
  readonly retry: RetrySettings;
  readonly log: Logger;
  /** The run is on a pull request from a fork. */
  readonly fork: boolean;
  /** Where the run's result is when a call fails (a sentence for the warning; "" for none). */
  readonly delivered: string;
}

/** One warning for a call that failed for good (describeFailure), with the run's context. */
export function warnFailure(
  deps: PublishDeps,
  error: unknown,
  action: string,
  permission: string,
  attempts: number | null = null,
): void {
  deps.log.warning(
    describeFailure(error, {
      action,
      permission,
      fork: deps.fork,
      // As tried: fewer than retries + 1 once the run's retry budget is spent.
      attempts: attempts ?? triesOf(error) ?? deps.retry.retries + 1,
      delivered: deps.delivered,
    }),
  );
}

export interface FailureContext {
  /** What was being done, e.g. "create the check run". */
  readonly action: string;
  /** The `permissions:` entry the call needs, e.g. "checks: write". */
  readonly permission: string;
  /** The run is on a pull request from a fork. */
  readonly fork: boolean;
  /** How many times a server error or a call with no answer was tried. */
  readonly attempts: number;
  /** Where the run's result is instead, one sentence true of this run (e.g. "The verdict is in the job summary."); "" for none. */
  readonly delivered: string;
}

/** One sentence (or two) for a warning about a call that failed for good. */
export function describeFailure(error: unknown, ctx: FailureContext): string {
  const head = `Could not ${ctx.action}`;
  const tail = ctx.delivered === "" ? "" : ` ${ctx.delivered}`;
  const times = plural(ctx.attempts, "time");
  if (error instanceof MalformedAnswerError)
    return `${head}: ${error.message}; the answer is not used.${tail}`;
  const status = httpStatus(error);
  const msg = apiMessage(error);
  if (isRateLimit(error))
    return `${head}: GitHub's rate limit answered ${status} (${msg}); giving up.${tail}`;
  if (status === 403 || status === 401) {
    const why = ctx.fork
      ? "This pull request comes from a fork, and GitHub gives workflows on fork pull requests a read-only token"
      : "The token lacks the permission";
    return (
      `${head}: GitHub answered ${status} (${msg}). ${why}: the job needs \`permissions: ${ctx.permission}\`` +
      `${ctx.fork ? " (not granted to forks)" : ""}.${tail}`
    );
  }
  if (status === 404)
    return `${head}: GitHub answered 404 (${msg}). Check the repository, the pull request and that the token can see them (it needs \`${ctx.permission}\`).`;
  if (status === 422) return `${head}: GitHub rejected the request with 422 (${msg}).`;
  if (status !== null && status >= 500)
    return `${head}: GitHub answered ${status} (${msg}) ${times}; giving up.${tail}`;
  if (status === null) return `${head}: the request to GitHub failed (${msg}) ${times}; giving up.${tail}`;
  return `${head}: GitHub answered ${status} (${msg}).`;
}
