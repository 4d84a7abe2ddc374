import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRecordingLogger } from "../../src/action/logger.js";
import {
  ACTIONS_BOT_LOGIN,
  commentHeader,
  digestLine,
  readDigest,
  readHeader,
  resolveCommentAuthor,
  upsertStickyComment,
} from "../../src/action/sticky-comment.js";
import { COMMENT_MARKER } from "../../src/core/report/escape.js";
import { ACTIONS_BOT, FakeGitHub, GRAPHQL, malformedAnswers, type Identity } from "./fake-github.js";
import { commentBody, DELIVERED_NOTE, fastRetry, octokitFor, upsertRequest, warnings } from "./helpers.js";

let fake: FakeGitHub;
const ALICE: Identity = { login: "alice", id: 7, type: "User", installation: false };
const PAT = "ghp_alice_personal_token";
/** Another GitHub App's installation token: GET /user is refused, and its login is not github-actions[bot]. */
const OTHER_APP: Identity = { login: "eval-bot[bot]", id: 990001, type: "Bot", installation: true };
const OTHER_APP_TOKEN = "ghs_other_app_installation_token";

beforeAll(async () => {
  fake = await new FakeGitHub("acme/models").start();
  fake.tokens.set(PAT, ALICE);
  fake.tokens.set(OTHER_APP_TOKEN, OTHER_APP);
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

/** A comment as versions before comment keys wrote it: the marker, then the digest line. */
function legacyBody(digest: string, text = "verdict"): string {
  return `${COMMENT_MARKER}\n${digestLine(digest)}\n## ${text}\n`;
}

function deps(fork = false, token?: string) {
  const log = createRecordingLogger();
  return { octokit: octokitFor(fake, token, log), retry: fastRetry(), log, fork, delivered: DELIVERED_NOTE };
}

describe("comment header", () => {
  it("round-trips the key and digest, and is only read at the start of the body", () => {
    const h = readHeader(commentBody("b".repeat(64), "x", "SWE-bench gate -->\n::error::x"));
    expect(h).toEqual({ key: "SWE-bench%20gate%20--%3E%0A%3A%3Aerror%3A%3Ax", digest: "b".repeat(64) });
    expect(commentHeader("a -->", "c".repeat(64)).split("-->")).toHaveLength(4);
    expect(readDigest(commentBody("b".repeat(64)))).toBe("b".repeat(64));
    expect(readHeader(legacyBody("b".repeat(64)))).toEqual({ key: null, digest: "b".repeat(64) });
    expect(readDigest(`hello ${digestLine("c".repeat(64))}`)).toBeNull();
    expect(readHeader(`hello\n${commentBody("c".repeat(64))}`)).toBeNull();
    expect(readDigest(`${COMMENT_MARKER}\ntext\n${digestLine("c".repeat(64))}`)).toBeNull();
  });
});

describe("resolveCommentAuthor", () => {
  it("asks GraphQL viewer first: GITHUB_TOKEN, a personal access token and another App's token", async () => {
    expect(await resolveCommentAuthor(deps())).toEqual({
      login: "github-actions[bot]",
      id: ACTIONS_BOT.id,
    });
    expect(await resolveCommentAuthor(deps(false, PAT))).toEqual({
      login: "alice",
      id: 7,
    });
    expect(await resolveCommentAuthor(deps(false, OTHER_APP_TOKEN))).toEqual({
      login: "eval-bot[bot]",
      id: 990001,
    });
    expect(fake.calls()).toEqual([`POST ${GRAPHQL}`, `POST ${GRAPHQL}`, `POST ${GRAPHQL}`]);
    expect(fake.requests[0]?.body).toEqual({ query: "query { viewer { login databaseId } }" });
  });

  it("GraphQL refused (an errors answer, not retried): GET /user for a PAT, github-actions[bot] for an installation", async () => {
    fake.fail(GRAPHQL, { status: 200, graphqlErrorType: "FORBIDDEN" });
    const pat = deps(false, PAT);
    const installation = deps();
    expect(await resolveCommentAuthor(pat)).toEqual({
      login: "alice",
      id: 7,
    });
    expect(await resolveCommentAuthor(installation)).toEqual({
      login: ACTIONS_BOT_LOGIN,
      id: null,
    });
    expect(fake.calls()).toEqual([
      `POST ${GRAPHQL}`,
      "GET users/get-authenticated",
      `POST ${GRAPHQL}`,
      "GET users/get-authenticated",
    ]);
    expect([...warnings(pat.log), ...warnings(installation.log)]).toEqual([]);
    expect(pat.log.lines.map((l) => l.message)).toContain(
      "GraphQL viewer: GraphQL answered errors: Resource not accessible by integration; asking GET /user instead",
    );
  });

  it("GraphQL answering 403 or 5xx (retried) falls back the same way", async () => {
    fake.fail(GRAPHQL, { status: 403, times: 1 });
    expect(await resolveCommentAuthor(deps(false, PAT))).toEqual({
      login: "alice",
      id: 7,
    });
    fake.fail(GRAPHQL, { status: 502 });
    const d = deps(false, PAT);
    expect(await resolveCommentAuthor(d)).toEqual({
      login: "alice",
      id: 7,
    });
    expect(fake.requests.map((r) => `${r.operationId} ${r.status}`)).toEqual([
      "graphql 403",
      "users/get-authenticated 200",
      "graphql 502",
      "graphql 502",
      "graphql 502",
      "users/get-authenticated 200",
    ]);
    expect(d.log.lines.filter((l) => / on try \d$/.test(l.message)).map((l) => l.message)).toEqual([
      "POST /graphql: GitHub answered 502 (Server Error) on try 1",
      "POST /graphql: GitHub answered 502 (Server Error) on try 2",
      "POST /graphql: GitHub answered 502 (Server Error) on try 3",
    ]);
  });

  it.each(malformedAnswers(200))(
    "GraphQL answering %s: GET /user is asked instead, with no warning",
    async (_name, fault) => {
      fake.fail(GRAPHQL, fault);
      const d = deps(false, PAT);
      expect(await resolveCommentAuthor(d)).toEqual({ login: "alice", id: 7 });
      expect(fake.calls()).toEqual([`POST ${GRAPHQL}`, "GET users/get-authenticated"]);
      expect(warnings(d.log)).toEqual([]);
    },
  );

  it.each(malformedAnswers(200))(
    "GraphQL refused and GET /user answering %s: no author, one warning, so no comment",
    async (_name, fault) => {
      fake.fail(GRAPHQL, { status: 200, graphqlErrorType: "FORBIDDEN" });
      fake.fail("users/get-authenticated", fault);
      const d = deps(false, PAT);
      expect(await resolveCommentAuthor(d)).toBeNull();
      expect(warnings(d.log)).toHaveLength(1);
      expect(warnings(d.log)[0]).toMatch(
        /^Could not tell which comments are the gate's \(GraphQL viewer and GET \/user\), so no comment is posted \(a guess could post a second one\): GitHub answered 200 with .*; the answer is not used\. The verdict is in the job summary and the step outputs\.$/,
      );
    },
  );
});

describe("upsertStickyComment", () => {
  it("creates the comment when there is none, and lists once more to catch a parallel run", async () => {
    const outcome = await upsertStickyComment(upsertRequest(), deps());
    expect(outcome.kind).toBe("created");
    expect(fake.comments.map((c) => [c.id, c.user.login])).toEqual([[outcome.id, "github-actions[bot]"]]);
    expect(fake.calls()).toEqual([
      "GET issues/list-comments",
      "POST issues/create-comment",
      "GET issues/list-comments",
    ]);
  });

  it("finds its comment on page 2 and updates it in place", async () => {
    for (let i = 0; i < 130; i++) fake.addComment(7, `comment ${i}`, i % 2 === 0 ? ALICE : ACTIONS_BOT);
    const mine = fake.addComment(7, commentBody("0".repeat(64), "old"));
    for (let i = 0; i < 5; i++) fake.addComment(7, `later ${i}`, ALICE);
    const outcome = await upsertStickyComment(upsertRequest(), deps());
    expect(outcome).toEqual({ kind: "updated", id: mine.id });
    expect(mine.body).toBe(commentBody("a".repeat(64)));
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
    const planted = fake.addComment(7, commentBody("a".repeat(64), "planted by alice"), ALICE);
    const outcome = await upsertStickyComment(upsertRequest(), deps());
    expect(outcome.kind).toBe("created");
    expect(planted.updates).toBe(0);
    expect(fake.comments.filter((c) => c.user.login === "github-actions[bot]").length).toBe(1);
  });

  it("matches the author by id when GitHub gave one: a same-named account's comment is not the gate's", async () => {
    const impostor: Identity = { login: "github-actions[bot]", id: 5, type: "Bot", installation: true };
    const theirs = fake.addComment(7, commentBody("0".repeat(64)), impostor);
    const outcome = await upsertStickyComment(
      upsertRequest({ author: { login: "github-actions[bot]", id: ACTIONS_BOT.id } }),
      deps(),
    );
    expect(outcome.kind).toBe("created");
    expect(theirs.updates).toBe(0);
    expect(fake.comments.find((c) => c.id === outcome.id)?.user.id).toBe(ACTIONS_BOT.id);
  });

  it("keeps one comment per key: two gates on one pull request do not overwrite each other", async () => {
    const a = await upsertStickyComment(upsertRequest({ key: "SWE-bench Verified gate" }), deps());
    const b = await upsertStickyComment(upsertRequest({ key: "SWE-Bench Pro gate" }), deps());
    expect([a.kind, b.kind]).toEqual(["created", "created"]);
    const again = await upsertStickyComment(
      upsertRequest({ key: "SWE-Bench Pro gate", digest: "e".repeat(64) }),
      deps(),
    );
    expect(again).toEqual({ kind: "updated", id: b.id });
    expect(fake.comments.map((c) => [c.id, readHeader(c.body)])).toEqual([
      [a.id, { key: "SWE-bench%20Verified%20gate", digest: "a".repeat(64) }],
      [b.id, { key: "SWE-Bench%20Pro%20gate", digest: "e".repeat(64) }],
    ]);
  });

  it("takes over a comment written before keys (today's marker) instead of leaving a stale second one", async () => {
    const old = fake.addComment(7, legacyBody("0".repeat(64), "old"));
    const outcome = await upsertStickyComment(upsertRequest(), deps());
    expect(outcome).toEqual({ kind: "updated", id: old.id });
    expect(readHeader(old.body)?.key).toBe("Model%20acceptance%20gate");
    expect(fake.comments).toHaveLength(1);
    // Now keyed: a second gate does not take it from the first one.
    const other = await upsertStickyComment(upsertRequest({ key: "Second gate" }), deps());
    expect(other.kind).toBe("created");
    expect(fake.comments).toHaveLength(2);
  });

  it("prefers its keyed comment over a comment written before keys", async () => {
    const old = fake.addComment(7, legacyBody("0".repeat(64), "old"));
    const keyed = fake.addComment(7, commentBody("0".repeat(64), "keyed"));
    const outcome = await upsertStickyComment(upsertRequest(), deps());
    expect(outcome).toEqual({ kind: "updated", id: keyed.id });
    expect(old.updates).toBe(0);
  });

  it("with on-change leaves an identical comment unchanged and updates a different one", async () => {
    const mine = fake.addComment(7, commentBody("a".repeat(64)));
    const same = await upsertStickyComment(upsertRequest({ mode: "on-change" }), deps());
    expect(same).toEqual({ kind: "unchanged", id: mine.id });
    expect(fake.calls()).toEqual(["GET issues/list-comments"]);
    const changed = await upsertStickyComment(
      upsertRequest({ mode: "on-change", digest: "d".repeat(64) }),
      deps(),
    );
    expect(changed).toEqual({ kind: "updated", id: mine.id });
    expect(readDigest(mine.body)).toBe("d".repeat(64));
  });

  it("creates a new comment when its comment was deleted between listing and updating", async () => {
    const mine = fake.addComment(7, commentBody("0".repeat(64)));
    fake.fail("issues/update-comment", {
      status: 404,
      times: 1,
      then: () => fake.comments.splice(fake.comments.indexOf(mine), 1),
    });
    const outcome = await upsertStickyComment(upsertRequest(), deps());
    expect(outcome.kind).toBe("created");
    expect(outcome.id).not.toBe(mine.id);
    expect(fake.calls()).toEqual([
      "GET issues/list-comments",
      "PATCH issues/update-comment",
      "POST issues/create-comment",
      "GET issues/list-comments",
    ]);
  });

  it("on a fork (403) warns that pull-requests: write is missing", async () => {
    fake.fail("issues/create-comment", { status: 403 });
    const d = deps(true);
    const outcome = await upsertStickyComment(upsertRequest(), d);
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
    const outcome = await upsertStickyComment(upsertRequest(), d);
    expect(outcome.kind).toBe("created");
    expect(fake.calls()).toEqual([
      "GET issues/list-comments",
      "POST issues/create-comment",
      "GET issues/list-comments",
      "POST issues/create-comment",
      "GET issues/list-comments",
    ]);
    expect(fake.comments.length).toBe(1);
    expect(d.log.lines.map((l) => l.message)).toContain(
      "writing the gate comment failed (502); listing again before try 2",
    );
  });

  it("retries a 5xx on listing and succeeds", async () => {
    fake.fail("issues/list-comments", { status: 500, times: 2 });
    const outcome = await upsertStickyComment(upsertRequest(), deps());
    expect(outcome.kind).toBe("created");
    expect(fake.requests.map((r) => r.status)).toEqual([500, 500, 200, 201, 200]);
  });
});

describe("a create–create race (two runs listing at once)", () => {
  it("ends with one comment: the run whose comment is newer deletes it and updates the older one", async () => {
    fake.holdTogether("issues/list-comments", 2);
    const first = upsertRequest({ digest: "1".repeat(64) });
    const second = upsertRequest({ digest: "2".repeat(64) });
    const da = deps();
    const db = deps();
    const [a, b] = await Promise.all([upsertStickyComment(first, da), upsertStickyComment(second, db)]);
    expect(fake.comments).toHaveLength(1);
    const survivor = fake.comments[0];
    const loserLog = (a.kind === "updated" ? da : db).log;
    const deleted = fake.requests.find((r) => r.operationId === "issues/delete-comment")?.path ?? "";
    expect(loserLog.lines.filter((l) => l.level === "info").map((l) => l.message)).toEqual([
      `Another run created this gate's comment (id ${survivor?.id}) at the same time as this run's (id ` +
        `${/\/(\d+)$/.exec(deleted)?.[1]}); this run's is deleted and the older one updated.`,
    ]);
    const outcomes = [a, b].map((o) => o.kind).sort();
    expect(outcomes).toEqual(["created", "updated"]);
    expect(a.id).toBe(survivor?.id);
    expect(b.id).toBe(survivor?.id);
    const creates = fake.requests.filter((r) => r.operationId === "issues/create-comment");
    expect(creates).toHaveLength(2);
    expect(
      fake.requests.filter((r) => r.operationId === "issues/delete-comment").map((r) => r.status),
    ).toEqual([204]);
    // The deleting run updates the survivor with its own body, so no run's verdict is lost.
    const loser = a.kind === "updated" ? first : second;
    expect(survivor?.body).toBe(loser.body);
  });

  it("three runs at once: still one comment", async () => {
    fake.holdTogether("issues/list-comments", 3);
    const outcomes = await Promise.all(
      ["1", "2", "3"].map((d) => upsertStickyComment(upsertRequest({ digest: d.repeat(64) }), deps())),
    );
    expect(fake.comments).toHaveLength(1);
    expect(new Set(outcomes.map((o) => o.id))).toEqual(new Set([fake.comments[0]?.id]));
  });

  it("different keys racing keep one comment each", async () => {
    fake.holdTogether("issues/list-comments", 2);
    await Promise.all([
      upsertStickyComment(upsertRequest({ key: "gate A" }), deps()),
      upsertStickyComment(upsertRequest({ key: "gate B" }), deps()),
    ]);
    expect(fake.comments.map((c) => readHeader(c.body)?.key).sort()).toEqual(["gate%20A", "gate%20B"]);
    expect(fake.requests.some((r) => r.operationId === "issues/delete-comment")).toBe(false);
  });
});

describe("an answer that is not what GitHub documents", () => {
  it.each(malformedAnswers(200))(
    "listing the comments answers %s: one warning, nothing written",
    async (_name, fault) => {
      fake.fail("issues/list-comments", fault);
      const d = deps();
      expect(await upsertStickyComment(upsertRequest(), d)).toEqual({ kind: "failed", id: null });
      expect(fake.calls()).toEqual(["GET issues/list-comments"]);
      expect(warnings(d.log)).toHaveLength(1);
      expect(warnings(d.log)[0]).toMatch(
        /^Could not list the pull request's comments to find the previous gate comment: GitHub answered 200 with .*; the answer is not used\. The verdict is in the job summary and the step outputs\.$/,
      );
    },
  );

  it.each(malformedAnswers(201))(
    "creating the comment answers %s: one warning, not retried, no id",
    async (_name, fault) => {
      fake.fail("issues/create-comment", fault);
      const d = deps();
      expect(await upsertStickyComment(upsertRequest(), d)).toEqual({ kind: "failed", id: null });
      expect(fake.calls()).toEqual(["GET issues/list-comments", "POST issues/create-comment"]);
      expect(warnings(d.log)).toHaveLength(1);
      expect(warnings(d.log)[0]).toMatch(/^Could not create the gate comment: GitHub answered 201 with /);
    },
  );

  it.each(malformedAnswers(200))(
    "updating the comment answers %s: one warning, not retried, no id",
    async (_name, fault) => {
      fake.addComment(7, commentBody("0".repeat(64)));
      fake.fail("issues/update-comment", fault);
      const d = deps();
      expect(await upsertStickyComment(upsertRequest(), d)).toEqual({ kind: "failed", id: null });
      expect(fake.calls()).toEqual(["GET issues/list-comments", "PATCH issues/update-comment"]);
      expect(warnings(d.log)).toHaveLength(1);
      expect(warnings(d.log)[0]).toMatch(/^Could not update the gate comment: GitHub answered 200 with /);
    },
  );

  it("a delete of the duplicate answered 200 with a body (not 204): the duplicate is kept, no warning", async () => {
    fake.holdTogether("issues/list-comments", 2);
    fake.fail("issues/delete-comment", { status: 200, body: { json: { deleted: true } } });
    const a = deps();
    const b = deps();
    const outcomes = await Promise.all([
      upsertStickyComment(upsertRequest({ digest: "1".repeat(64) }), a),
      upsertStickyComment(upsertRequest({ digest: "2".repeat(64) }), b),
    ]);
    expect(outcomes.map((o) => o.kind)).toEqual(["created", "created"]);
    expect(fake.comments).toHaveLength(2);
    expect([...warnings(a.log), ...warnings(b.log)]).toEqual([]);
    // Was: "deleting the duplicate … and updating …" said before the delete that then did not happen.
    const [older, newer] = fake.comments.map((c) => c.id);
    expect([...a.log.lines, ...b.log.lines].filter((l) => l.level === "info").map((l) => l.message)).toEqual([
      `Another run created this gate's comment (id ${older}) at the same time as this run's (id ${newer}); ` +
        "this run's could not be deleted (GitHub answered 200 with JSON of the wrong shape (an object)), so both stay.",
    ]);
  });

  it.each(malformedAnswers(200))(
    "after deleting its duplicate, the update of the older comment answers %s: one warning, failed",
    async (_name, fault) => {
      fake.holdTogether("issues/list-comments", 2);
      fake.fail("issues/update-comment", fault);
      const a = deps();
      const b = deps();
      const outcomes = await Promise.all([
        upsertStickyComment(upsertRequest({ digest: "1".repeat(64) }), a),
        upsertStickyComment(upsertRequest({ digest: "2".repeat(64) }), b),
      ]);
      expect(outcomes.map((o) => o.kind).sort()).toEqual(["created", "failed"]);
      expect(fake.comments).toHaveLength(1);
      const loser = outcomes[0]?.kind === "failed" ? a : b;
      expect(warnings(loser.log)).toHaveLength(1);
      expect(warnings(loser.log)[0]).toMatch(
        /^Could not update the gate comment: GitHub answered 200 with .*; the answer is not used\. The verdict is in the job summary and the step outputs\.$/,
      );
      expect(loser.log.lines.filter((l) => l.level === "info").map((l) => l.message)).toEqual([
        expect.stringMatching(
          /^Another run created this gate's comment \(id \d+\) at the same time as this run's \(id \d+\); this run's is deleted\.$/,
        ),
      ]);
    },
  );
});
