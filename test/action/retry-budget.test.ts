/**
 * A dead GitHub API costs seconds, not minutes (docs/action.md, "When GitHub fails"): every retry
 * of a run draws on one budget of RETRY_BUDGET_UNITS waiting units (retry n waits n²), so two calls
 * are retried in full and every later failing call is tried once, and the warnings say how often
 * each call was really tried. In process against the fake GitHub (units of 1 ms), then the bundle
 * with every call but the base policy's answered 500.
 */
import { describe, expect, it } from "vitest";
import { RETRY_BUDGET_UNITS, RetryBudget, warnFailure } from "../../src/action/github-api.js";
import { createRecordingLogger } from "../../src/action/logger.js";
import { policyYaml } from "./exports.js";
import { GRAPHQL } from "./fake-github.js";
import { octokitAt, useSharedFakeGitHub, warnings } from "./helpers.js";
import {
  BASE_SHA,
  commandLines,
  gateInputs,
  POLICY_PATH,
  RESULTS_PATH,
  runDist,
  useFakeGitHub,
} from "./run-action.js";
import { exportText, tasks } from "./exports.js";

const shared = useSharedFakeGitHub("gate-retry-budget-");
const SHA = "e".repeat(40);

describe("one retry budget per run", () => {
  it("the budget pays for two calls retried in full (1 + 4 units each), then calls are tried once", async () => {
    const budget = new RetryBudget(RETRY_BUDGET_UNITS);
    const log = createRecordingLogger();
    const octokit = octokitAt(shared.fake.baseUrl, {
      retry: { retries: 2, baseDelayMs: 1, writeSpacingMs: 0, budget },
      log,
    });
    shared.fake.fail("checks/list-for-ref", { status: 500 });
    const deps = {
      octokit,
      retry: { retries: 2, baseDelayMs: 1, writeSpacingMs: 0, budget },
      log,
      fork: false,
      delivered: "",
    };
    const tries: number[] = [];
    for (let call = 0; call < 5; call++) {
      const before = shared.fake.requests.length;
      await octokit.rest.checks
        .listForRef({ owner: "acme", repo: "models", ref: SHA })
        .catch((error: unknown) => {
          warnFailure(deps, error, "list the check runs", "checks: read");
        });
      tries.push(shared.fake.requests.length - before);
    }
    expect(tries).toEqual([3, 3, 1, 1, 1]);
    // Each call counts its own tries: the second call's first retry waits 1 unit, not (3 + 1)².
    expect(
      log.lines
        .filter((l) => l.level === "debug" && / on try \d$/.test(l.message))
        .map((l) => l.message.slice(-1)),
    ).toEqual(["1", "2", "3", "1", "2", "3", "1", "1", "1"]);
    // Each warning says how often its call was tried.
    expect(warnings(log).map((w) => /\) (\d) times?;/.exec(w)?.[1])).toEqual(["3", "3", "1", "1", "1"]);
    expect(budget.take(1)).toBe(false);
  });

  it("without a budget (the settings of a single call), a call keeps its retries", async () => {
    const octokit = octokitAt(shared.fake.baseUrl, {
      retry: { retries: 2, baseDelayMs: 1, writeSpacingMs: 0 },
    });
    shared.fake.fail("checks/list-for-ref", { status: 502 });
    for (let call = 0; call < 3; call++)
      await octokit.rest.checks
        .listForRef({ owner: "acme", repo: "models", ref: SHA })
        .catch(() => undefined);
    expect(shared.fake.requests).toHaveLength(9);
  });
});

const fakes = useFakeGitHub();

describe("the action against a GitHub that answers 500 to everything", () => {
  it("two calls retried, the rest tried once; the verdict is in the summary and the outputs", async () => {
    const f = await fakes.start();
    f.setFile(BASE_SHA, POLICY_PATH, policyYaml());
    for (const op of [
      "checks/list-for-ref",
      "checks/create",
      "issues/list-comments",
      "issues/create-comment",
      "issues/update-comment",
      "repos/list-commits",
      "users/get-authenticated",
      GRAPHQL,
    ])
      f.fail(op, { status: 500 });
    const r = await runDist({
      fake: f,
      event: "pull_request",
      inputs: gateInputs(),
      files: {
        [RESULTS_PATH]: exportText(tasks(60, "t", { validity: "valid", a: "pass", b: "fail" })),
        [POLICY_PATH]: policyYaml(),
      },
      env: { ACTIONS_STEP_DEBUG: "true" },
    });
    expect(r.outputs["verdict"]).toBe("accept");
    expect(r.summary).toContain("accept");
    const retried = commandLines(r, "debug").filter((l) => / on try [23]$/.test(l));
    // 10 units pay for retries 1 and 2 of two calls (1 + 4 each): four retried tries at most.
    expect(retried.length).toBeLessThanOrEqual(4);
    const failedCalls = f.requests.filter((q) => q.status === 500).length - retried.length;
    expect(failedCalls).toBeGreaterThan(2);
  }, 120_000);
});
