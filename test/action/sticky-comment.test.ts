import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRecordingLogger } from "../../src/action/logger.js";
import {
  ACTIONS_BOT_LOGIN,
  digestLine,
  readDigest,
  resolveCommentAuthor,
  upsertStickyComment,
  type UpsertRequest,
} from "../../src/action/sticky-comment.js";
import { COMMENT_MARKER } from "../../src/core/report/escape.js";
import { ACTIONS_BOT, FakeGitHub, type Identity } from "./fake-github.js";
import { fastRetry, octokitFor } from "./helpers.js";

let fake: FakeGitHub;
const ALICE: Identity = { login: "alice", id: 7, type: "User", installation: false };
const PAT = "ghp_alice_personal_token";

beforeAll(async () => {
  fake = await new FakeGitHub("acme/models").start();
  fake.tokens.set(PAT, ALICE);
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.comments.length = 0;
});
afterEach(() => {
  expect(fake.violations).toEqual([]);
  fake.clearFaults();
  fake.requests.length = 0;
});

function body(digest: string, text = "verdict"): string {
  return `${COMMENT_MARKER}\n${digestLine(digest)}\n## ${text}\n`;
}

function request(over: Partial<UpsertRequest> = {}): UpsertRequest {
  const digest = over.digest ?? "a".repeat(64);
  return {
    owner: "acme",
    repo: "models",
    issueNumber: 7,
    body: body(digest),
    digest,
    mode: "always",
    author: ACTIONS_BOT_LOGIN,
    ...over,
  };
}

function deps(fork = false) {
  return { octokit: octokitFor(fake), retry: fastRetry(), log: createRecordingLogger(), fork };
}

describe("digest line", () => {
  it("round-trips and is only read right after the marker", () => {
    expect(readDigest(body("b".repeat(64)))).toBe("b".repeat(64));
    expect(readDigest(`hello ${digestLine("c".repeat(64))}`)).toBeNull();
    expect(readDigest(`${COMMENT_MARKER}\ntext\n${digestLine("c".repeat(64))}`)).toBeNull();
  });
});

describe("resolveCommentAuthor", () => {
  it("is github-actions[bot] for GITHUB_TOKEN (GET /user is refused) and the user for a PAT", async () => {
    expect(await resolveCommentAuthor(octokitFor(fake), fastRetry(), createRecordingLogger())).toBe(
      "github-actions[bot]",
    );
    expect(await resolveCommentAuthor(octokitFor(fake, PAT), fastRetry(), createRecordingLogger())).toBe(
      "alice",
    );
  });
});

describe("upsertStickyComment", () => {
  it("creates the comment when there is none", async () => {
    const outcome = await upsertStickyComment(request(), deps());
    expect(outcome.kind).toBe("created");
    expect(fake.comments.map((c) => [c.id, c.user.login])).toEqual([[outcome.id, "github-actions[bot]"]]);
  });

  it("finds its comment on page 2 and updates it in place", async () => {
    for (let i = 0; i < 130; i++) fake.addComment(7, `comment ${i}`, i % 2 === 0 ? ALICE : ACTIONS_BOT);
    const mine = fake.addComment(7, body("0".repeat(64), "old"));
    for (let i = 0; i < 5; i++) fake.addComment(7, `later ${i}`, ALICE);
    const outcome = await upsertStickyComment(request(), deps());
    expect(outcome).toEqual({ kind: "updated", id: mine.id });
    expect(mine.body).toBe(body("a".repeat(64)));
    expect(mine.updates).toBe(1);
    expect(fake.comments.length).toBe(136);
    expect(fake.requests.map((r) => `${r.method} ${r.operationId} ${r.query["page"] ?? ""}`)).toEqual([
      "GET issues/list-comments 1",
      "GET issues/list-comments 2",
      "PATCH issues/update-comment ",
    ]);
    expect(fake.requests[0]?.query["per_page"]).toBe("100");
  });

  it("leaves a marker comment by someone else alone and makes its own", async () => {
    const planted = fake.addComment(7, body("a".repeat(64), "planted by alice"), ALICE);
    const outcome = await upsertStickyComment(request(), deps());
    expect(outcome.kind).toBe("created");
    expect(planted.updates).toBe(0);
    expect(fake.comments.filter((c) => c.user.login === "github-actions[bot]").length).toBe(1);
  });

  it("with on-change leaves an identical comment unchanged and updates a different one", async () => {
    const mine = fake.addComment(7, body("a".repeat(64)));
    const same = await upsertStickyComment(request({ mode: "on-change" }), deps());
    expect(same).toEqual({ kind: "unchanged", id: mine.id });
    expect(fake.calls()).toEqual(["GET issues/list-comments"]);
    const changed = await upsertStickyComment(
      request({ mode: "on-change", digest: "d".repeat(64), body: body("d".repeat(64)) }),
      deps(),
    );
    expect(changed).toEqual({ kind: "updated", id: mine.id });
    expect(readDigest(mine.body)).toBe("d".repeat(64));
  });

  it("creates a new comment when its comment was deleted between listing and updating", async () => {
    const mine = fake.addComment(7, body("0".repeat(64)));
    fake.fail("issues/update-comment", { status: 404, times: 1 });
    const outcome = await upsertStickyComment(request(), deps());
    expect(outcome.kind).toBe("created");
    expect(outcome.id).not.toBe(mine.id);
    expect(fake.calls()).toEqual([
      "GET issues/list-comments",
      "PATCH issues/update-comment",
      "POST issues/create-comment",
    ]);
  });

  it("on a fork (403) warns that pull-requests: write is missing", async () => {
    fake.fail("issues/create-comment", { status: 403 });
    const d = deps(true);
    const outcome = await upsertStickyComment(request(), d);
    expect(outcome).toEqual({ kind: "failed", id: null });
    expect(d.log.lines.filter((l) => l.level === "warning").map((l) => l.message)).toEqual([
      "Could not create the gate comment: GitHub answered 403 (Resource not accessible by integration). This pull " +
        "request comes from a fork, and GitHub gives workflows on fork pull requests a read-only token: the job " +
        "needs `permissions: pull-requests: write` (not granted to forks). The verdict is in the job summary and the step outputs.",
    ]);
  });

  it("after a 502 on create lists again before retrying, and creates exactly one comment", async () => {
    fake.fail("issues/create-comment", { status: 502, times: 1 });
    const d = deps();
    const outcome = await upsertStickyComment(request(), d);
    expect(outcome.kind).toBe("created");
    expect(fake.calls()).toEqual([
      "GET issues/list-comments",
      "POST issues/create-comment",
      "GET issues/list-comments",
      "POST issues/create-comment",
    ]);
    expect(fake.comments.length).toBe(1);
    expect(d.retry.delays).toEqual([10]);
  });

  it("retries a 5xx on listing and succeeds", async () => {
    fake.fail("issues/list-comments", { status: 500, times: 2 });
    const outcome = await upsertStickyComment(request(), deps());
    expect(outcome.kind).toBe("created");
    expect(fake.requests.map((r) => r.status)).toEqual([500, 500, 200, 201]);
  });
});
