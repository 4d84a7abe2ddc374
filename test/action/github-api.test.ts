/**
 * The action's Octokit (src/action/github-api.ts): server errors and dropped connections retried
 * by @octokit/plugin-retry with growing waits, rate limits by @octokit/plugin-throttling, other
 * 4xx not retried; and the warnings a failed call becomes.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  checkAnswer,
  describeFailure,
  isRateLimit,
  MalformedAnswerError,
  type FailureContext,
} from "../../src/action/github-api.js";
import { createRecordingLogger } from "../../src/action/logger.js";
import { octokitAt, useSharedFakeGitHub } from "./helpers.js";

const shared = useSharedFakeGitHub("gate-github-api-");

const CHECK_RUN = {
  owner: "acme",
  repo: "models",
  name: "Model gate",
  head_sha: "c".repeat(40),
  status: "completed",
  conclusion: "success",
  output: { title: "Accept", summary: "## accept" },
} as const;

const CTX: FailureContext = {
  action: "create the check run",
  permission: "checks: write",
  fork: false,
  attempts: 3,
  delivered: "The verdict is in the job summary.",
};

function httpError(status: number, headers: Record<string, string> = {}, message = "boom"): Error {
  return Object.assign(new Error(message), { status, response: { headers, data: { message } } });
}

describe("the action's Octokit", () => {
  it("retries a 5xx twice, waiting 1 then 4 units (plugin-retry), then gives up", async () => {
    shared.fake.fail("checks/create", { status: 503 });
    const octokit = octokitAt(shared.fake.baseUrl, {
      retry: { retries: 2, baseDelayMs: 40, writeSpacingMs: 0 },
    });
    await expect(octokit.rest.checks.create(CHECK_RUN)).rejects.toMatchObject({ status: 503 });
    const at = shared.fake.requests.map((r) => r.at);
    expect(at).toHaveLength(3);
    const [a = 0, b = 0, c = 0] = at;
    // Lower bounds only: a busy machine may wait longer, never shorter.
    expect(b - a).toBeGreaterThanOrEqual(35);
    expect(c - b).toBeGreaterThanOrEqual(4 * 35);
  });

  it("does not retry a 403 that is a missing permission, nor a 404 or a 422", async () => {
    for (const status of [403, 404, 422]) {
      shared.fake.fail("checks/create", { status, times: 1 });
      await expect(octokitAt(shared.fake.baseUrl).rest.checks.create(CHECK_RUN)).rejects.toMatchObject({
        status,
      });
    }
    expect(shared.fake.requests.map((r) => r.status)).toEqual([403, 404, 422]);
  });

  it("waits out a secondary rate limit as GitHub asks (retry-after), then succeeds", async () => {
    shared.fake.fail("checks/create", {
      status: 403,
      message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
      headers: { "retry-after": "30" },
      times: 1,
    });
    const log = createRecordingLogger();
    const octokit = octokitAt(shared.fake.baseUrl, { log });
    const res = await octokit.rest.checks.create(CHECK_RUN);
    expect(res.status).toBe(201);
    expect(shared.fake.requests.map((r) => r.status)).toEqual([403, 201]);
    const [a = 0, b = 0] = shared.fake.requests.map((r) => r.at);
    expect(b - a).toBeGreaterThanOrEqual(25); // 30 s in units of 1 ms
    expect(log.lines.map((l) => l.message)).toContain(
      "POST /repos/{owner}/{repo}/check-runs: GitHub's secondary rate limit asks to wait 30 s; try 2 after the wait",
    );
  });

  // plugin-throttling knows a rate limit as GitHub documents it: x-ratelimit-remaining: 0, or a
  // message naming the secondary rate limit. Anything else with 403/429 is not waited out (a
  // proxy's own 429, say), yet the warning still names a rate limit, not a permission.
  it("a 429 with retry-after but no rate limit GitHub documents: not retried, the warning names a rate limit", async () => {
    shared.fake.fail("checks/create", {
      status: 429,
      message: "Too Many Requests",
      headers: { "retry-after": "1" },
      times: 1,
    });
    const error: unknown = await octokitAt(shared.fake.baseUrl)
      .rest.checks.create(CHECK_RUN)
      .catch((e: unknown) => e);
    expect(shared.fake.requests.map((r) => r.status)).toEqual([429]);
    expect(describeFailure(error, CTX)).toBe(
      "Could not create the check run: GitHub's rate limit answered 429 (Too Many Requests); giving up. " +
        "The verdict is in the job summary.",
    );
  });

  it("gives a rate limit up at once when it asks to wait longer than a minute", async () => {
    shared.fake.fail("checks/create", {
      status: 403,
      message: "API rate limit exceeded for installation ID 1.",
      headers: {
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 3600),
      },
    });
    const log = createRecordingLogger();
    const error: unknown = await octokitAt(shared.fake.baseUrl, { log })
      .rest.checks.create(CHECK_RUN)
      .catch((e: unknown) => e);
    expect(shared.fake.requests).toHaveLength(1);
    expect(isRateLimit(error)).toBe(true);
    expect(describeFailure(error, CTX)).toBe(
      "Could not create the check run: GitHub's rate limit answered 403 (API rate limit exceeded for installation ID 1.); " +
        "giving up. The verdict is in the job summary.",
    );
    expect(log.lines.some((l) => /primary rate limit asks to wait \d+ s; giving up$/.test(l.message))).toBe(
      true,
    );
  });
});

describe("checkAnswer", () => {
  const Id = z.object({ id: z.number() });
  const answer = (data: unknown, type = "application/json; charset=utf-8") => ({
    status: 201,
    headers: { "content-type": type },
    data,
  });

  it("gives the data when it has the fields used, and names what is wrong when not", () => {
    expect(checkAnswer(answer({ id: 5, more: "ignored" }), Id)).toEqual({ id: 5 });
    const wrong = (data: unknown, type?: string): string => {
      try {
        checkAnswer(answer(data, type), Id);
      } catch (error) {
        expect(error).toBeInstanceOf(MalformedAnswerError);
        return (error as Error).message;
      }
      throw new Error("accepted");
    };
    expect(wrong("<html></html>", "text/html")).toBe("GitHub answered 201 with an HTML page instead of JSON");
    expect(wrong('{"id":', undefined)).toBe(
      "GitHub answered 201 with a body that is not JSON (application/json)",
    );
    expect(wrong("", "")).toBe("GitHub answered 201 with a body that is not JSON (no content type)");
    expect(wrong(null)).toBe("GitHub answered 201 with JSON of the wrong shape (null)");
    expect(wrong([])).toBe("GitHub answered 201 with JSON of the wrong shape (an array)");
    expect(wrong({ id: "5" })).toBe("GitHub answered 201 with JSON that lacks a usable `id`");
  });
});

describe("describeFailure", () => {
  it("says what failed, the permission to grant, and where the result is", () => {
    expect(describeFailure(httpError(403, {}, "Resource not accessible by integration"), CTX)).toBe(
      "Could not create the check run: GitHub answered 403 (Resource not accessible by integration). " +
        "The token lacks the permission: the job needs `permissions: checks: write`. The verdict is in the job summary.",
    );
    expect(
      describeFailure(
        new MalformedAnswerError(201, "GitHub answered 201 with an HTML page instead of JSON"),
        CTX,
      ),
    ).toBe(
      "Could not create the check run: GitHub answered 201 with an HTML page instead of JSON; the answer is not used. " +
        "The verdict is in the job summary.",
    );
    expect(describeFailure(httpError(503, {}, "Server Error"), { ...CTX, delivered: "" })).toBe(
      "Could not create the check run: GitHub answered 503 (Server Error) 3 times; giving up.",
    );
  });

  it("takes 403/429 with retry-after, x-ratelimit-remaining: 0 or a rate limit message for a rate limit", () => {
    expect(isRateLimit(httpError(429))).toBe(true);
    expect(isRateLimit(httpError(403, { "retry-after": "1" }))).toBe(true);
    expect(isRateLimit(httpError(403, { "x-ratelimit-remaining": "0" }))).toBe(true);
    expect(isRateLimit(httpError(403, {}, "You have exceeded a secondary rate limit"))).toBe(true);
    expect(isRateLimit(httpError(403, {}, "Resource not accessible by integration"))).toBe(false);
    expect(isRateLimit(httpError(404, { "retry-after": "1" }))).toBe(false);
  });
});
