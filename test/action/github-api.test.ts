/** Retries: server errors, network failures and rate limits are retried; other 4xx are not. */
import { describe, expect, it } from "vitest";
import {
  describeFailure,
  MAX_RATE_LIMIT_WAIT_MS,
  rateLimitWaitMs,
  withRetry,
} from "../../src/action/github-api.js";
import type { Logger } from "../../src/action/logger.js";

function httpError(status: number, headers: Record<string, string> = {}, message = "boom"): Error {
  return Object.assign(new Error(message), { status, response: { headers, data: { message } } });
}

const quiet: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warning: () => undefined,
  error: () => undefined,
  group: (_name, fn) => fn(),
};

function policy() {
  const delays: number[] = [];
  return {
    delays,
    policy: { attempts: 3, baseDelayMs: 10, sleep: (ms: number) => (delays.push(ms), Promise.resolve()) },
  };
}

describe("withRetry", () => {
  it("retries a secondary rate limit (403 with retry-after), waiting as asked", async () => {
    const { delays, policy: p } = policy();
    let calls = 0;
    const value = await withRetry(
      "create the check run",
      () => (++calls < 3 ? Promise.reject(httpError(403, { "retry-after": "2" })) : Promise.resolve("ok")),
      p,
      quiet,
    );
    expect(value).toBe("ok");
    expect(delays).toEqual([2000, 2000]);
  });

  it("does not retry a 403 that is a missing permission, and says which permission", async () => {
    const { delays, policy: p } = policy();
    let calls = 0;
    const err = httpError(403, {}, "Resource not accessible by integration");
    await expect(withRetry("x", () => (calls++, Promise.reject(err)), p, quiet)).rejects.toBe(err);
    expect(calls).toBe(1);
    expect(delays).toEqual([]);
    expect(
      describeFailure(err, {
        action: "create the check run",
        permission: "checks: write",
        fork: false,
        attempts: 3,
      }),
    ).toContain("`permissions: checks: write`");
  });

  it("caps the wait and reads x-ratelimit-remaining: 0", () => {
    expect(rateLimitWaitMs(httpError(429, { "retry-after": "99999" }))).toBe(MAX_RATE_LIMIT_WAIT_MS);
    expect(rateLimitWaitMs(httpError(403, { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1" }))).toBe(
      0,
    );
    expect(rateLimitWaitMs(httpError(404))).toBeNull();
    expect(rateLimitWaitMs(httpError(403))).toBeNull();
    const limited = httpError(403, { "retry-after": "1" }, "secondary rate limit");
    expect(
      describeFailure(limited, {
        action: "update the comment",
        permission: "pull-requests: write",
        fork: false,
        attempts: 3,
      }),
    ).toBe(
      "Could not update the comment: GitHub's rate limit answered 403 (secondary rate limit) 3 times; giving up. The verdict is in the job summary and the step outputs.",
    );
  });
});
