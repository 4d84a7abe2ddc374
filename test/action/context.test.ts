/**
 * readRunContext (src/action/context.ts): every kind of event against payloads that lack what it
 * needs. A pull request, merge group or workflow_run whose payload is missing, null, {}, [] or
 * short of a field is an input error naming GITHUB_EVENT_PATH's file and the field, never a run
 * under the checkout's own policy; events that take nothing from the payload only need it to be
 * an object.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readRunContext } from "../../src/action/context.js";
import { InputError } from "../../src/core/errors.js";
import { BASE_SHA, eventName, eventPayload, HEAD_SHA, PUSH_SHA, type EventKind } from "./run-action.js";

const dir = mkdtempSync(join(tmpdir(), "gate-context-"));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

let files = 0;
/** The payload written to a file of its own (raw text when a string), and its path. */
function payloadFile(payload: unknown): string {
  const path = join(dir, `event-${files++}.json`);
  writeFileSync(path, typeof payload === "string" ? payload : JSON.stringify(payload));
  return path;
}

function env(event: string, eventPath: string | null): Record<string, string> {
  return {
    GITHUB_EVENT_NAME: event,
    ...(eventPath !== null ? { GITHUB_EVENT_PATH: eventPath } : {}),
    GITHUB_REPOSITORY: "acme/models",
    GITHUB_SHA: PUSH_SHA,
  };
}

function read(event: string, payload: unknown): ReturnType<typeof readRunContext> {
  return readRunContext(env(event, payloadFile(payload)), dir);
}

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error("accepted");
}

const PR_KINDS = [
  "pull_request",
  "pull_request_target",
  "pull_request_review",
  "pull_request_review_comment",
  "pull_request_review_thread",
];
const NEEDS_PR =
  "On a pull request the policy at its base commit decides, so the gate cannot run without it.";

describe("a pull request event whose payload cannot name the base commit", () => {
  it.each(PR_KINDS)("%s: no GITHUB_EVENT_PATH at all is refused", (event) => {
    expect(refusal(() => readRunContext(env(event, null), dir))).toBe(
      `GITHUB_EVENT_PATH is not set, so the ${event} event's payload cannot be read. ${NEEDS_PR}`,
    );
  });

  // Was: null, [] and {} were all taken for "no pull request": the checkout's (the PR's own)
  // policy decided and the step reported a verdict with no error.
  it.each([
    ["null", "null", "holds null, not an event payload (a JSON object)"],
    ["[]", "[]", "holds an array, not an event payload (a JSON object)"],
    ['"text"', '"text"', "holds a string, not an event payload (a JSON object)"],
  ])("a payload of %s is refused on every event kind", (_name, text, why) => {
    for (const event of [
      ...PR_KINDS,
      "merge_group",
      "workflow_run",
      "push",
      "schedule",
      "workflow_dispatch",
      "",
    ]) {
      const path = payloadFile(text);
      expect(refusal(() => readRunContext(env(event, path), dir))).toBe(`GITHUB_EVENT_PATH ${path} ${why}.`);
    }
  });

  it.each(PR_KINDS)(
    "%s: {} and each missing or unusable field is refused, naming the file and the field",
    (event) => {
      const good = eventPayload("pull_request") as {
        pull_request: { number: number; base: Record<string, unknown>; head: Record<string, unknown> };
      };
      const cases: [payload: unknown, problem: string][] = [
        [{}, "has no pull_request"],
        [{ pull_request: null }, "has pull_request that is not an object"],
        [{ pull_request: [] }, "has pull_request that is not an object"],
        [{ pull_request: { ...good.pull_request, base: undefined } }, "has no pull_request.base"],
        [{ pull_request: { ...good.pull_request, base: {} } }, "has no pull_request.base.sha"],
        [
          { pull_request: { ...good.pull_request, base: { sha: "main" } } },
          "has pull_request.base.sha that is not a commit id",
        ],
        [
          { pull_request: { ...good.pull_request, base: { sha: BASE_SHA.toUpperCase() } } },
          "has pull_request.base.sha that is not a commit id",
        ],
        [
          { pull_request: { ...good.pull_request, head: { sha: 7 } } },
          "has pull_request.head.sha that is not a commit id",
        ],
        [{ pull_request: { ...good.pull_request, number: undefined } }, "has no pull_request.number"],
        [
          { pull_request: { ...good.pull_request, number: 0 } },
          "has pull_request.number that is not a pull request number",
        ],
        [
          { pull_request: { ...good.pull_request, number: "42" } },
          "has pull_request.number that is not a pull request number",
        ],
        [
          { pull_request: { ...good.pull_request, head: { sha: HEAD_SHA, repo: "outsider/models" } } },
          "has pull_request.head.repo that is not an object",
        ],
      ];
      for (const [payload, problem] of cases) {
        const path = payloadFile(payload);
        expect(refusal(() => readRunContext(env(event, path), dir))).toBe(
          `GITHUB_EVENT_PATH ${path}: the ${event} event payload ${problem}. ${NEEDS_PR}`,
        );
      }
    },
  );

  it("a whole payload: its base and head, and a deleted fork's head (repo null) counts as a fork", () => {
    const ctx = read("pull_request", eventPayload("pull_request"));
    expect(ctx.pullRequest).toEqual({ number: 42, baseSha: BASE_SHA, headSha: HEAD_SHA, fork: false });
    expect(ctx.sha).toBe(HEAD_SHA);
    const payload = eventPayload("pull_request") as { pull_request: { head: { repo: unknown } } };
    payload.pull_request.head.repo = null;
    expect(read("pull_request_target", payload).pullRequest?.fork).toBe(true);
  });
});

describe("merge_group and workflow_run", () => {
  it("merge_group: missing, {}, or a base that is not a commit id is refused", () => {
    const needs =
      "In a merge queue the policy at the group's base commit decides, so the gate cannot run without it.";
    expect(refusal(() => readRunContext(env("merge_group", null), dir))).toBe(
      `GITHUB_EVENT_PATH is not set, so the merge_group event's payload cannot be read. ${needs}`,
    );
    for (const [payload, problem] of [
      [{}, "has no merge_group"],
      [{ merge_group: { head_sha: HEAD_SHA } }, "has no merge_group.base_sha"],
      [
        { merge_group: { base_sha: "x", head_sha: HEAD_SHA } },
        "has merge_group.base_sha that is not a commit id",
      ],
    ] as const) {
      const path = payloadFile(payload);
      expect(refusal(() => readRunContext(env("merge_group", path), dir))).toBe(
        `GITHUB_EVENT_PATH ${path}: the merge_group event payload ${problem}. ${needs}`,
      );
    }
    expect(read("merge_group", eventPayload("merge_group")).mergeGroup).toEqual({
      baseSha: BASE_SHA,
      headSha: "c".repeat(40),
    });
  });

  it("workflow_run: missing, {}, no head_sha, no pull_requests list or a bad entry is refused", () => {
    const needs =
      "On workflow_run the results are for that run's commit and the pull request is confirmed against it, so the gate cannot run without it.";
    const good = (eventPayload("workflow_run") as { workflow_run: Record<string, unknown> }).workflow_run;
    for (const [payload, problem] of [
      [{}, "has no workflow_run"],
      [{ workflow_run: { ...good, head_sha: undefined } }, "has no workflow_run.head_sha"],
      [{ workflow_run: { ...good, pull_requests: undefined } }, "has no workflow_run.pull_requests"],
      [{ workflow_run: { ...good, pull_requests: {} } }, "has workflow_run.pull_requests that is not a list"],
      [
        { workflow_run: { ...good, pull_requests: [{ number: -1 }] } },
        "has workflow_run.pull_requests[0].number that is not a pull request number",
      ],
    ] as const) {
      const path = payloadFile(payload);
      expect(refusal(() => readRunContext(env("workflow_run", path), dir))).toBe(
        `GITHUB_EVENT_PATH ${path}: the workflow_run event payload ${problem}. ${needs}`,
      );
    }
    expect(read("workflow_run", eventPayload("workflow_run")).workflowRun).toEqual({
      headSha: HEAD_SHA,
      pullRequests: [42],
    });
    // A listed pull request whose head moved on is not a candidate for this run's commit.
    const moved = eventPayload("workflow_run") as {
      workflow_run: { pull_requests: { head: { sha: string } }[] };
    };
    for (const p of moved.workflow_run.pull_requests) p.head.sha = "a".repeat(40);
    expect(read("workflow_run", moved).workflowRun?.pullRequests).toEqual([]);
  });
});

describe("events that take nothing from the payload", () => {
  it.each(["push", "schedule", "workflow_dispatch", "release", "repository_dispatch"] as const)(
    "%s: GITHUB_SHA is the commit; no payload file is fine, {} is fine",
    (event) => {
      for (const ctx of [readRunContext(env(event, null), dir), read(event, {})]) {
        expect(ctx.sha).toBe(PUSH_SHA);
        expect(ctx.pullRequest).toBeNull();
        expect(ctx.mergeGroup).toBeNull();
        expect(ctx.workflowRun).toBeNull();
        expect(ctx.warnings).toEqual([]);
      }
    },
  );

  it("a push payload carrying a pull_request object is still a push (the event's name decides), said in a warning", () => {
    const path = payloadFile({ ...(eventPayload("push") as object), pull_request: { number: 1 } });
    const ctx = readRunContext(env("push", path), dir);
    expect(ctx.pullRequest).toBeNull();
    expect(ctx.warnings).toEqual([
      `The push event's payload GITHUB_EVENT_PATH ${path} has a pull_request, but only pull request events are ` +
        "gated as pull requests: the checked-out policy decides, the check run goes on GITHUB_SHA and no comment " +
        "is posted. To gate the pull request under its base branch's policy, run on pull_request, " +
        "pull_request_target or workflow_run.",
    ]);
  });

  it("issue_comment on a pull request: no base commit in its payload, so a warning says the checkout's policy decides", () => {
    const ctx = read("issue_comment", { issue: { number: 42, pull_request: { url: "https://x.invalid" } } });
    expect(ctx.pullRequest).toBeNull();
    expect(ctx.warnings).toEqual([
      "This issue_comment event is on a pull request, but its payload does not name the pull request's base commit: " +
        "the checked-out policy decides, the check run goes on GITHUB_SHA and no comment is posted. To gate the pull " +
        "request under its base branch's policy, run on pull_request, pull_request_target or workflow_run.",
    ]);
    expect(read("issue_comment", { issue: { number: 3 } }).warnings).toEqual([]);
  });

  it("no GITHUB_EVENT_NAME with a payload that has a pull_request: refused rather than guessed", () => {
    const path = payloadFile(eventPayload("pull_request"));
    expect(refusal(() => readRunContext(env("", path), dir))).toBe(
      `GITHUB_EVENT_NAME is not set, but the event payload GITHUB_EVENT_PATH ${path} has pull_request: set ` +
        "GITHUB_EVENT_NAME to the event that wrote it, so that the gate knows which policy decides.",
    );
    expect(readRunContext(env("", null), dir).pullRequest).toBeNull();
  });

  it.each(["fork", "workflow_run_fork"] as const)(
    "the runner's own payloads for %s are read",
    (kind: EventKind) => {
      expect(() => read(eventName(kind), eventPayload(kind))).not.toThrow();
    },
  );
});
