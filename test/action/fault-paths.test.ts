/**
 * GitHub API faults that RELIABILITY.md listed as untested: a 422 actually returned on the sticky
 * comment create and update and on the check run's create and update, a connection dropped
 * mid-call on a comment create, on the comment update, on the check run create, on the check run
 * update that adds annotations 51 and on, on the comment listing, on GET /user (retried; no
 * comment when it never answers) and on the base policy's contents and commits calls, and a 404
 * on listing comments.
 *
 * A dropped connection is made by a loopback proxy in front of the fake GitHub: it forwards every
 * request (so the fake still validates and records it) except those it is told to drop, whose
 * socket it destroys without an answer — either before forwarding (GitHub never saw the call) or
 * after (GitHub did the work, the answer was lost). The proxy can also replace the body of an
 * error the fake answered with the full JSON GitHub sends (`message`, `errors`,
 * `documentation_url`).
 *
 * The faults are shown both on the modules (upsertStickyComment, publishCheckRun, loadBasePolicy)
 * and, for the comment create's 422 and the dropped check run create, comment listing, GET /user,
 * comment update and base policy calls, end to end: the committed bundle dist/index.js as a child
 * process whose GITHUB_API_URL is the proxy. The annotations update cannot be dropped end to end:
 * the action never sends one (an error lists at most 20 problems, so at most 20 annotations, all
 * in the create), which an end-to-end test shows with a policy of 60 located problems.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBasePolicy, type BasePolicyRequest } from "../../src/action/base-policy.js";
import { runGit } from "../../src/git/run-git.js";
import { publishCheckRun } from "../../src/action/check-run.js";
import { createRecordingLogger } from "../../src/action/logger.js";
import { resolveCommentAuthor, upsertStickyComment } from "../../src/action/sticky-comment.js";
import { InputError } from "../../src/core/errors.js";
import {
  checkRunSpec,
  commentBody,
  commitFiles,
  initRepo,
  octokitAt,
  policyAnnotations,
  upsertRequest,
  warnings,
} from "./helpers.js";
import { POLICY_PATH } from "./run-action.js";
import {
  ALICE,
  COMMENT_422,
  commentDeps,
  DIGEST,
  fake,
  failedTries,
  proxy,
  useFaultServers,
  viaProxy,
  writeRetries,
} from "./fault-harness.js";

useFaultServers();

describe("a 422 actually returned by GitHub", () => {
  it("on the sticky comment update: one warning with GitHub's message, no retry, failed", async () => {
    const mine = fake.addComment(7, commentBody("0".repeat(64), "old"));
    fake.fail("issues/update-comment", {
      status: 422,
      message: "Body is too long (maximum is 65536 characters)",
    });
    const d = commentDeps();
    const outcome = await upsertStickyComment(upsertRequest(), d);
    expect(outcome).toEqual({ kind: "failed", id: null });
    expect(fake.calls()).toEqual(["GET issues/list-comments", "PATCH issues/update-comment"]);
    expect(fake.requests.map((r) => r.status)).toEqual([200, 422]);
    expect(warnings(d.log)).toEqual([
      "Could not update the gate comment: GitHub rejected the request with 422 " +
        "(Body is too long (maximum is 65536 characters)).",
    ]);
    expect(writeRetries(d.log)).toEqual([]);
    expect(mine.body).toBe(commentBody("0".repeat(64), "old"));
    expect(mine.updates).toBe(0);
    expect(fake.comments.length).toBe(1);
  });

  it("on check run creation: one warning with GitHub's message, no retry, null", async () => {
    fake.fail("checks/create", {
      status: 422,
      message: "Invalid request. Only 65535 characters are allowed; 70000 were supplied.",
    });
    const d = commentDeps();
    const log = d.log;
    const id = await publishCheckRun(checkRunSpec(), d);
    expect(id).toBeNull();
    expect(fake.calls()).toEqual(["POST checks/create"]);
    expect(failedTries(log)).toEqual(["POST /repos/{owner}/{repo}/check-runs try 1"]);
    expect(warnings(log)).toEqual([
      'Could not create the check run "Model gate": GitHub rejected the request with 422 ' +
        "(Invalid request. Only 65535 characters are allowed; 70000 were supplied.).",
    ]);
    expect(fake.checkRuns).toEqual([]);
  });

  it("on the check run update that adds annotations: one warning, no retry, the run's id is kept", async () => {
    const annotations = policyAnnotations(120);
    fake.fail("checks/update", { status: 422, message: "Validation Failed" });
    const d = commentDeps();
    const log = d.log;
    const id = await publishCheckRun(checkRunSpec({ annotations }), d);
    expect(fake.calls()).toEqual(["POST checks/create", "PATCH checks/update"]);
    expect(fake.checkRuns.map((r) => r.id)).toEqual([id]);
    expect(id).not.toBeNull();
    expect(fake.checkRuns[0]?.annotations.length).toBe(50);
    expect(failedTries(log)).toEqual(["PATCH /repos/{owner}/{repo}/check-runs/{check_run_id} try 1"]);
    expect(warnings(log)).toEqual([
      "Could not add annotations 51–100 to the check run: GitHub rejected the request with 422 (Validation Failed).",
    ]);
  });
});

describe("a connection dropped mid-call on a comment create", () => {
  it("dropped before GitHub saw it: listed again, retried, and exactly one comment is created", async () => {
    proxy.drop({ method: "POST", path: /\/issues\/7\/comments$/, when: "before", times: 1 });
    const d = commentDeps("proxy");
    const outcome = await upsertStickyComment(upsertRequest(), d);
    expect(proxy.calls()).toEqual([
      "GET /repos/acme/models/issues/7/comments",
      "POST /repos/acme/models/issues/7/comments [dropped before]",
      "GET /repos/acme/models/issues/7/comments",
      "POST /repos/acme/models/issues/7/comments",
      "GET /repos/acme/models/issues/7/comments",
    ]);
    expect(fake.calls()).toEqual([
      "GET issues/list-comments",
      "GET issues/list-comments",
      "POST issues/create-comment",
      "GET issues/list-comments",
    ]);
    expect(fake.comments.map((c) => [c.id, c.body])).toEqual([[outcome.id, commentBody(DIGEST)]]);
    expect(outcome.kind).toBe("created");
    expect(writeRetries(d.log)).toEqual(["try 2"]);
    expect(warnings(d.log)).toEqual([]);
  });

  it("dropped after GitHub created it: listed again, the comment found is updated, never duplicated", async () => {
    proxy.drop({ method: "POST", path: /\/issues\/7\/comments$/, when: "after", times: 1 });
    const d = commentDeps("proxy");
    const outcome = await upsertStickyComment(upsertRequest(), d);
    expect(fake.calls()).toEqual([
      "GET issues/list-comments",
      "POST issues/create-comment",
      "GET issues/list-comments",
      "PATCH issues/update-comment",
    ]);
    expect(proxy.seen.map((r) => r.dropped)).toEqual([null, "after", null, null]);
    expect(fake.comments.length).toBe(1);
    expect(outcome).toEqual({ kind: "updated", id: fake.comments[0]?.id });
    expect(fake.comments[0]?.updates).toBe(1);
    expect(writeRetries(d.log)).toEqual(["try 2"]);
    expect(warnings(d.log)).toEqual([]);
  });

  // Was: "GitHub answered 500 (other side closed) 3 times": Octokit reports a failed fetch as a
  // RequestError with status 500 and no response, so the warning claimed an answer GitHub never gave.
  it("dropped every time: 3 tries, each after listing again, then one warning; no comment", async () => {
    proxy.drop({ method: "POST", path: /\/issues\/7\/comments$/, when: "before" });
    const d = commentDeps("proxy");
    const outcome = await upsertStickyComment(upsertRequest(), d);
    expect(outcome).toEqual({ kind: "failed", id: null });
    expect(proxy.calls()).toEqual([
      "GET /repos/acme/models/issues/7/comments",
      "POST /repos/acme/models/issues/7/comments [dropped before]",
      "GET /repos/acme/models/issues/7/comments",
      "POST /repos/acme/models/issues/7/comments [dropped before]",
      "GET /repos/acme/models/issues/7/comments",
      "POST /repos/acme/models/issues/7/comments [dropped before]",
    ]);
    expect(writeRetries(d.log)).toEqual(["try 2", "try 3"]);
    expect(fake.comments).toEqual([]);
    expect(warnings(d.log)).toEqual([
      "Could not create the gate comment: the request to GitHub failed (other side closed) 3 times; " +
        "giving up. The verdict is in the job summary and the step outputs.",
    ]);
  });
});

describe("a 404 on listing comments", () => {
  it("one warning, no retry, no comment created, failed", async () => {
    fake.fail("issues/list-comments", { status: 404 });
    const d = commentDeps();
    const outcome = await upsertStickyComment(upsertRequest(), d);
    expect(outcome).toEqual({ kind: "failed", id: null });
    expect(fake.calls()).toEqual(["GET issues/list-comments"]);
    expect(fake.comments).toEqual([]);
    expect(failedTries(d.log)).toEqual(["GET /repos/{owner}/{repo}/issues/{issue_number}/comments try 1"]);
    expect(warnings(d.log)).toEqual([
      "Could not list the pull request's comments to find the previous gate comment: GitHub answered 404 " +
        "(Not Found). Check the repository, the pull request and that the token can see them " +
        "(it needs `pull-requests: write`).",
    ]);
  });
});

describe("a 422 actually returned on the sticky comment create", () => {
  it("no comment yet: one warning with GitHub's messages, no retry, no listing again, failed", async () => {
    fake.fail("issues/create-comment", { status: 422 });
    proxy.answer({ method: "POST", path: /\/issues\/7\/comments$/, status: 422, body: COMMENT_422 });
    const d = commentDeps("proxy");
    const outcome = await upsertStickyComment(upsertRequest(), d);
    expect(outcome).toEqual({ kind: "failed", id: null });
    expect(fake.calls()).toEqual(["GET issues/list-comments", "POST issues/create-comment"]);
    expect(fake.requests.map((r) => r.status)).toEqual([200, 422]);
    expect(writeRetries(d.log)).toEqual([]);
    expect(warnings(d.log)).toEqual([
      "Could not create the gate comment: GitHub rejected the request with 422 " +
        "(Validation Failed; body is too long (maximum is 65536 characters)).",
    ]);
    expect(fake.comments).toEqual([]);
  });

  it("its comment deleted between listing and updating: the create that replaces it gets 422; one warning", async () => {
    fake.addComment(7, commentBody("0".repeat(64), "old"));
    fake.fail("issues/update-comment", { status: 404, times: 1 });
    fake.fail("issues/create-comment", { status: 422 });
    proxy.answer({ method: "POST", path: /\/issues\/7\/comments$/, status: 422, body: COMMENT_422 });
    const d = commentDeps("proxy");
    const outcome = await upsertStickyComment(upsertRequest(), d);
    expect(outcome).toEqual({ kind: "failed", id: null });
    expect(fake.calls()).toEqual([
      "GET issues/list-comments",
      "PATCH issues/update-comment",
      "POST issues/create-comment",
    ]);
    expect(writeRetries(d.log)).toEqual([]);
    // The warning names what the run set out to do (update its comment), with GitHub's reason.
    expect(warnings(d.log)).toEqual([
      "Could not update the gate comment: GitHub rejected the request with 422 " +
        "(Validation Failed; body is too long (maximum is 65536 characters)).",
    ]);
    expect(fake.comments.length).toBe(1);
  });
});

describe("a connection dropped mid-call on the check run create", () => {
  const CHECK_RUNS = /\/check-runs$/;
  const publish = () => {
    const d = commentDeps("proxy");
    return { log: d.log, id: publishCheckRun(checkRunSpec(), d) };
  };
  const CREATE = "POST /repos/{owner}/{repo}/check-runs";

  it("dropped before GitHub saw it, once: retried after the backoff, one check run, no warning", async () => {
    proxy.drop({ method: "POST", path: CHECK_RUNS, when: "before", times: 1 });
    const p = publish();
    const id = await p.id;
    expect(proxy.calls()).toEqual([
      "POST /repos/acme/models/check-runs [dropped before]",
      "POST /repos/acme/models/check-runs",
    ]);
    expect(fake.checkRuns.map((r) => r.id)).toEqual([id]);
    expect(id).not.toBeNull();
    expect(failedTries(p.log)).toEqual([`${CREATE} try 1`]);
    expect(warnings(p.log)).toEqual([]);
  });

  // A check run create is not idempotent and is retried blindly: when GitHub created the run and
  // only the answer was lost, the retry creates a second, identical run on the same commit. GitHub
  // keeps both and treats the newest run of a name as the check's state; both say the same.
  it("dropped after GitHub created it, once: retried, a second identical check run; its id is returned", async () => {
    proxy.drop({ method: "POST", path: CHECK_RUNS, when: "after", times: 1 });
    const p = publish();
    const id = await p.id;
    expect(fake.calls()).toEqual(["POST checks/create", "POST checks/create"]);
    expect(proxy.seen.map((r) => r.dropped)).toEqual(["after", null]);
    expect(fake.checkRuns.length).toBe(2);
    expect(id).toBe(fake.checkRuns[1]?.id);
    const [first, second] = fake.checkRuns;
    expect({ ...first, id: 0 }).toEqual({ ...second, id: 0 });
    expect(failedTries(p.log)).toEqual([`${CREATE} try 1`]);
    expect(warnings(p.log)).toEqual([]);
  });

  it("dropped every time: 3 tries with backoff, then one warning; null", async () => {
    proxy.drop({ method: "POST", path: CHECK_RUNS, when: "before" });
    const p = publish();
    expect(await p.id).toBeNull();
    expect(proxy.calls()).toEqual(Array(3).fill("POST /repos/acme/models/check-runs [dropped before]"));
    expect(fake.requests).toEqual([]);
    expect(fake.checkRuns).toEqual([]);
    expect(failedTries(p.log)).toEqual([`${CREATE} try 1`, `${CREATE} try 2`, `${CREATE} try 3`]);
    expect(warnings(p.log)).toEqual([
      'Could not create the check run "Model gate": the request to GitHub failed (other side closed) 3 times; ' +
        "giving up. The verdict is in the job summary and the step outputs.",
    ]);
  });
});

describe("a connection dropped mid-call on the comment listing", () => {
  const LIST = /\/issues\/7\/comments$/;
  const LISTED = "GET /repos/{owner}/{repo}/issues/{issue_number}/comments";

  it("dropped once: the listing is retried after the backoff, then the comment is created; no warning", async () => {
    proxy.drop({ method: "GET", path: LIST, when: "before", times: 1 });
    const d = commentDeps("proxy");
    const outcome = await upsertStickyComment(upsertRequest(), d);
    expect(proxy.calls()).toEqual([
      "GET /repos/acme/models/issues/7/comments [dropped before]",
      "GET /repos/acme/models/issues/7/comments",
      "POST /repos/acme/models/issues/7/comments",
      "GET /repos/acme/models/issues/7/comments",
    ]);
    expect(fake.comments.map((c) => c.id)).toEqual([outcome.id]);
    expect(outcome.kind).toBe("created");
    expect(failedTries(d.log)).toEqual([`${LISTED} try 1`]);
    expect(warnings(d.log)).toEqual([]);
  });

  it("page 2 of a long discussion dropped: only page 2 is asked again; its comment is found and updated", async () => {
    for (let i = 0; i < 110; i++) fake.addComment(7, `comment ${i}`, ALICE);
    const mine = fake.addComment(7, commentBody("0".repeat(64), "old"));
    proxy.drop({ method: "GET", path: LIST, query: /[?&]page=2(&|$)/, when: "after", times: 1 });
    const d = commentDeps("proxy");
    const outcome = await upsertStickyComment(upsertRequest(), d);
    expect(
      proxy.seen.map((r) => [r.method, new URL(r.path, "http://x").searchParams.get("page"), r.dropped]),
    ).toEqual([
      ["GET", "1", null],
      ["GET", "2", "after"],
      ["GET", "2", null],
      ["PATCH", null, null],
    ]);
    expect(outcome).toEqual({ kind: "updated", id: mine.id });
    expect(mine.body).toBe(commentBody(DIGEST));
    expect(fake.comments.length).toBe(111);
    expect(failedTries(d.log)).toEqual([`${LISTED} try 1`]);
    expect(warnings(d.log)).toEqual([]);
  });

  it("dropped every time: 3 tries with backoff, then one warning; no comment is created, failed", async () => {
    proxy.drop({ method: "GET", path: LIST, when: "before" });
    const d = commentDeps("proxy");
    const outcome = await upsertStickyComment(upsertRequest(), d);
    expect(outcome).toEqual({ kind: "failed", id: null });
    expect(proxy.calls()).toEqual(Array(3).fill("GET /repos/acme/models/issues/7/comments [dropped before]"));
    expect(fake.requests).toEqual([]);
    expect(fake.comments).toEqual([]);
    expect(failedTries(d.log)).toEqual([`${LISTED} try 1`, `${LISTED} try 2`, `${LISTED} try 3`]);
    expect(warnings(d.log)).toEqual([
      "Could not list the pull request's comments to find the previous gate comment: the request to GitHub " +
        "failed (other side closed) 3 times; giving up. The verdict is in the job summary and the step outputs.",
    ]);
  });
});

describe("a connection dropped mid-call on GET /user (whose comments are the action's)", () => {
  const PAT = "ghp_fake_personal_access_token";

  // Was a bug: any failure of GET /user was taken for "an installation token" (github-actions[bot]),
  // with no retry, so one dropped call made a PAT's run miss its own comment and post a second.
  it("is retried: a personal access token's run still finds and updates its own comment", async () => {
    fake.tokens.set(PAT, ALICE);
    try {
      const mine = fake.addComment(7, commentBody("0".repeat(64), "old"), ALICE);
      fake.fail("graphql", { status: 200, graphqlErrorType: "FORBIDDEN" });
      proxy.drop({ method: "GET", path: /^\/user$/, when: "before", times: 1 });
      const d = { ...commentDeps(), octokit: octokitAt(proxy.baseUrl, { token: PAT }) };
      const author = await resolveCommentAuthor(d);
      expect(author).toEqual({ login: "alice", id: ALICE.id });
      const outcome = await upsertStickyComment(
        upsertRequest({ author: author ?? { login: "", id: null } }),
        d,
      );
      expect(fake.comments.map((c) => [c.id, c.user.login])).toEqual([[mine.id, "alice"]]);
      expect(outcome).toEqual({ kind: "updated", id: mine.id });
      expect(warnings(d.log)).toEqual([]);
    } finally {
      fake.tokens.delete(PAT);
    }
  });

  it("dropped every time: no author, one warning, and so no comment (a guess could post a second)", async () => {
    fake.tokens.set(PAT, ALICE);
    try {
      fake.fail("graphql", { status: 200, graphqlErrorType: "FORBIDDEN" });
      proxy.drop({ method: "GET", path: /^\/user$/, when: "before", times: 3 });
      const d = { ...commentDeps(), octokit: octokitAt(proxy.baseUrl, { token: PAT }) };
      expect(await resolveCommentAuthor(d)).toBeNull();
      expect(warnings(d.log)).toEqual([
        "Could not tell which comments are the gate's (GraphQL viewer and GET /user), so no comment is posted " +
          "(a guess could " +
          "post a second one): the request to GitHub failed (other side closed) 3 times; giving up. The " +
          "verdict is in the job summary and the step outputs.",
      ]);
    } finally {
      fake.tokens.delete(PAT);
    }
  });
});

describe("a connection dropped mid-call on the comment update (PATCH …/issues/comments/{id})", () => {
  const PATCH = /^\/repos\/acme\/models\/issues\/comments\/\d+$/;
  const OLD = commentBody("0".repeat(64), "old");

  it("dropped before GitHub saw it, once: listed again, retried after the backoff, updated once; no warning", async () => {
    const mine = fake.addComment(7, OLD);
    proxy.drop({ method: "PATCH", path: PATCH, when: "before", times: 1 });
    const d = commentDeps("proxy");
    const outcome = await upsertStickyComment(upsertRequest(), d);
    expect(proxy.calls()).toEqual([
      "GET /repos/acme/models/issues/7/comments",
      `PATCH /repos/acme/models/issues/comments/${mine.id} [dropped before]`,
      "GET /repos/acme/models/issues/7/comments",
      `PATCH /repos/acme/models/issues/comments/${mine.id}`,
    ]);
    expect(outcome).toEqual({ kind: "updated", id: mine.id });
    expect(mine.body).toBe(commentBody(DIGEST));
    expect(mine.updates).toBe(1);
    expect(fake.comments.length).toBe(1);
    expect(writeRetries(d.log)).toEqual(["try 2"]);
    expect(warnings(d.log)).toEqual([]);
  });

  // An update is idempotent: when GitHub applied it and only the answer was lost, the retry writes
  // the same body again (comment: always) — one comment, two edits, same text.
  it("dropped after GitHub applied it, once (comment: always): listed again and written again; one comment", async () => {
    const mine = fake.addComment(7, OLD);
    proxy.drop({ method: "PATCH", path: PATCH, when: "after", times: 1 });
    const d = commentDeps("proxy");
    const outcome = await upsertStickyComment(upsertRequest(), d);
    expect(fake.calls()).toEqual([
      "GET issues/list-comments",
      "PATCH issues/update-comment",
      "GET issues/list-comments",
      "PATCH issues/update-comment",
    ]);
    expect(proxy.seen.map((r) => r.dropped)).toEqual([null, "after", null, null]);
    expect(outcome).toEqual({ kind: "updated", id: mine.id });
    expect(mine.body).toBe(commentBody(DIGEST));
    expect(mine.updates).toBe(2);
    expect(fake.comments.length).toBe(1);
    expect(writeRetries(d.log)).toEqual(["try 2"]);
    expect(warnings(d.log)).toEqual([]);
  });

  // With on-change, the listing after the lost answer already shows the new digest, so the retry
  // writes nothing and reports the comment as unchanged (with its id): the comment is right.
  it("dropped after GitHub applied it, once (comment: on-change): the listing shows the new digest; unchanged, not written again", async () => {
    const mine = fake.addComment(7, OLD);
    proxy.drop({ method: "PATCH", path: PATCH, when: "after", times: 1 });
    const d = commentDeps("proxy");
    const outcome = await upsertStickyComment(upsertRequest({ mode: "on-change" }), d);
    expect(fake.calls()).toEqual([
      "GET issues/list-comments",
      "PATCH issues/update-comment",
      "GET issues/list-comments",
    ]);
    expect(outcome).toEqual({ kind: "unchanged", id: mine.id });
    expect(mine.body).toBe(commentBody(DIGEST));
    expect(mine.updates).toBe(1);
    expect(writeRetries(d.log)).toEqual(["try 2"]);
    expect(warnings(d.log)).toEqual([]);
  });

  it("dropped every time: 3 tries, each after listing again, then one warning; the comment is left as it was, failed", async () => {
    const mine = fake.addComment(7, OLD);
    proxy.drop({ method: "PATCH", path: PATCH, when: "before" });
    const d = commentDeps("proxy");
    const outcome = await upsertStickyComment(upsertRequest(), d);
    expect(outcome).toEqual({ kind: "failed", id: null });
    expect(proxy.calls()).toEqual(
      Array.from({ length: 3 }, () => [
        "GET /repos/acme/models/issues/7/comments",
        `PATCH /repos/acme/models/issues/comments/${mine.id} [dropped before]`,
      ]).flat(),
    );
    expect(fake.calls()).toEqual(Array(3).fill("GET issues/list-comments"));
    expect(writeRetries(d.log)).toEqual(["try 2", "try 3"]);
    expect(mine.body).toBe(OLD);
    expect(mine.updates).toBe(0);
    // No create in its place: the comment is there, only the edit failed.
    expect(fake.comments.length).toBe(1);
    expect(warnings(d.log)).toEqual([
      "Could not update the gate comment: the request to GitHub failed (other side closed) 3 times; " +
        "giving up. The verdict is in the job summary and the step outputs.",
    ]);
  });
  // Every edit landed but no answer came back: the comment shows the new verdict, yet the run cannot
  // know it and warns as for any failed update (comment-id empty). With on-change the second
  // listing would see the new digest and stop there (the test above).
  it("dropped after GitHub applied it, every time (comment: always): written 3 times, then one warning, failed", async () => {
    const mine = fake.addComment(7, OLD);
    proxy.drop({ method: "PATCH", path: PATCH, when: "after" });
    const d = commentDeps("proxy");
    const outcome = await upsertStickyComment(upsertRequest(), d);
    expect(outcome).toEqual({ kind: "failed", id: null });
    expect(fake.calls()).toEqual(
      Array.from({ length: 3 }, () => ["GET issues/list-comments", "PATCH issues/update-comment"]).flat(),
    );
    expect(mine.body).toBe(commentBody(DIGEST));
    expect(mine.updates).toBe(3);
    expect(fake.comments.length).toBe(1);
    expect(writeRetries(d.log)).toEqual(["try 2", "try 3"]);
    expect(warnings(d.log)).toEqual([
      "Could not update the gate comment: the request to GitHub failed (other side closed) 3 times; " +
        "giving up. The verdict is in the job summary and the step outputs.",
    ]);
  });
});

describe("a connection dropped mid-call on the check run update that adds annotations 51 and on", () => {
  const CHECK_RUN = /^\/repos\/acme\/models\/check-runs\/\d+$/;
  /** 120 annotations: the create carries 1–50, two updates carry 51–100 and 101–120. */
  const annotations = policyAnnotations(120);
  const publish = () => {
    const d = commentDeps("proxy");
    return { log: d.log, id: publishCheckRun(checkRunSpec({ conclusion: "failure", annotations }), d) };
  };
  const lines = (run: { annotations: readonly { start_line: number }[] } | undefined) =>
    run?.annotations.map((a) => a.start_line) ?? [];
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

  it("dropped before GitHub saw it, once: that update is retried after the backoff; all 120 annotations, no warning", async () => {
    proxy.drop({ method: "PATCH", path: CHECK_RUN, when: "before", times: 1 });
    const p = publish();
    const id = await p.id;
    expect(id).not.toBeNull();
    expect(proxy.calls()).toEqual([
      "POST /repos/acme/models/check-runs",
      `PATCH /repos/acme/models/check-runs/${id} [dropped before]`,
      `PATCH /repos/acme/models/check-runs/${id}`,
      `PATCH /repos/acme/models/check-runs/${id}`,
    ]);
    expect(fake.checkRuns.map((r) => r.id)).toEqual([id]);
    expect(lines(fake.checkRuns[0])).toEqual(range(1, 120));
    expect(fake.checkRuns[0]?.annotationRequests).toBe(3);
    expect(failedTries(p.log)).toEqual(["PATCH /repos/{owner}/{repo}/check-runs/{check_run_id} try 1"]);
    expect(warnings(p.log)).toEqual([]);
  });

  // Annotations are appended by each update, and the update is retried blindly: when GitHub added
  // 51–100 and only the answer was lost, the retry adds them a second time (170 in all).
  it("dropped after GitHub added them, once: retried, so annotations 51–100 are there twice; no warning", async () => {
    proxy.drop({ method: "PATCH", path: CHECK_RUN, when: "after", times: 1 });
    const p = publish();
    const id = await p.id;
    expect(fake.calls()).toEqual([
      "POST checks/create",
      "PATCH checks/update",
      "PATCH checks/update",
      "PATCH checks/update",
    ]);
    expect(proxy.seen.map((r) => r.dropped)).toEqual([null, "after", null, null]);
    expect(fake.checkRuns.map((r) => r.id)).toEqual([id]);
    expect(lines(fake.checkRuns[0])).toEqual([...range(1, 100), ...range(51, 120)]);
    expect(fake.checkRuns[0]?.annotationRequests).toBe(4);
    expect(failedTries(p.log)).toEqual(["PATCH /repos/{owner}/{repo}/check-runs/{check_run_id} try 1"]);
    expect(warnings(p.log)).toEqual([]);
  });

  it("dropped every time: 3 tries with backoff, one warning naming 51–100; 101–120 are not sent; the run's id is kept", async () => {
    proxy.drop({ method: "PATCH", path: CHECK_RUN, when: "before" });
    const p = publish();
    const id = await p.id;
    expect(id).not.toBeNull();
    expect(proxy.calls()).toEqual([
      "POST /repos/acme/models/check-runs",
      ...Array<string>(3).fill(`PATCH /repos/acme/models/check-runs/${id} [dropped before]`),
    ]);
    expect(fake.calls()).toEqual(["POST checks/create"]);
    expect(fake.checkRuns.map((r) => [r.id, r.conclusion])).toEqual([[id, "failure"]]);
    expect(lines(fake.checkRuns[0])).toEqual(range(1, 50));
    expect(failedTries(p.log)).toEqual([
      "PATCH /repos/{owner}/{repo}/check-runs/{check_run_id} try 1",
      "PATCH /repos/{owner}/{repo}/check-runs/{check_run_id} try 2",
      "PATCH /repos/{owner}/{repo}/check-runs/{check_run_id} try 3",
    ]);
    expect(warnings(p.log)).toEqual([
      "Could not add annotations 51–100 to the check run: the request to GitHub failed (other side closed) " +
        "3 times; giving up. The verdict is in the job summary and the step outputs.",
    ]);
  });
});

describe("a connection dropped mid-call on the base policy's contents and commits calls", () => {
  const BASE = "1".repeat(40);
  const LAST = "2".repeat(40);
  const CONTENTS = /^\/repos\/acme\/models\/contents\//;
  const COMMITS = /^\/repos\/acme\/models\/commits$/;
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  function workspace(): string {
    const d = mkdtempSync(join(tmpdir(), "gate-fault-base-"));
    dirs.push(d);
    return d;
  }
  function req(over: Partial<BasePolicyRequest> = {}): BasePolicyRequest {
    return {
      owner: "acme",
      repo: "models",
      baseSha: BASE,
      path: POLICY_PATH,
      workspace: workspace(),
      ...over,
    };
  }
  function deps() {
    const log = createRecordingLogger();
    return { octokit: viaProxy(log), git: runGit, log };
  }
  beforeAll(() => {
    fake.setFile(BASE, POLICY_PATH, "owner: base\n");
    fake.setCommits(BASE, POLICY_PATH, [LAST]);
  });

  it.each(["before", "after"] as const)(
    "contents dropped %s GitHub answered, once: retried after the backoff; the policy via the contents API",
    async (when) => {
      proxy.drop({ method: "GET", path: CONTENTS, when, times: 1 });
      const d = deps();
      const policy = await loadBasePolicy(req(), d);
      expect(policy).toEqual({
        text: "owner: base\n",
        source: `base commit ${BASE} (contents API)`,
        lastCommit: LAST,
      });
      expect(proxy.calls()).toEqual([
        `GET /repos/acme/models/contents/gate%2Fpolicy.yaml [dropped ${when}]`,
        "GET /repos/acme/models/contents/gate%2Fpolicy.yaml",
        "GET /repos/acme/models/commits",
      ]);
      expect(failedTries(d.log)).toEqual(["GET /repos/{owner}/{repo}/contents/{path} try 1"]);
      expect(warnings(d.log)).toEqual([]);
    },
  );

  // By design (README, "Why the base branch's policy decides"): when the base policy cannot be
  // read, the PR's own copy must not decide, so the run stops with an error.
  it("contents dropped every time, checkout without the base commit: 3 tries, then an InputError; the PR's copy is not used", async () => {
    proxy.drop({ method: "GET", path: CONTENTS, when: "before" });
    const d = deps();
    const error = await loadBasePolicy(req(), d).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(
      `Cannot read the policy ${POLICY_PATH} at the pull request's base commit 111111111111, and the PR's own copy must not decide. ` +
        `contents API: no answer (other side closed); git: the checkout does not have commit ${BASE}. ` +
        "GitHub did not answer: re-run the job, or check out with fetch-depth: 0 so that git can answer.",
    );
    expect(proxy.calls()).toEqual(
      Array(3).fill("GET /repos/acme/models/contents/gate%2Fpolicy.yaml [dropped before]"),
    );
    expect(fake.requests).toEqual([]);
    expect(failedTries(d.log)).toEqual([
      "GET /repos/{owner}/{repo}/contents/{path} try 1",
      "GET /repos/{owner}/{repo}/contents/{path} try 2",
      "GET /repos/{owner}/{repo}/contents/{path} try 3",
    ]);
    expect(warnings(d.log)).toEqual([]);
  });

  it("contents dropped every time, checkout with the base commit (fetch-depth: 0): read with git show; the commits API still names the last commit", async () => {
    const ws = workspace();
    initRepo(ws);
    commitFiles(ws, { [POLICY_PATH]: "owner: from-git\n" }, "add policy");
    const base = commitFiles(ws, { "README.md": "readme\n" }, "unrelated");
    fake.setCommits(base, POLICY_PATH, [LAST]);
    proxy.drop({ method: "GET", path: CONTENTS, when: "before" });
    const d = deps();
    const policy = await loadBasePolicy(req({ baseSha: base, workspace: ws }), d);
    expect(policy).toEqual({
      text: "owner: from-git\n",
      source: `base commit ${base} (git)`,
      lastCommit: LAST,
    });
    expect(proxy.calls()).toEqual([
      ...Array<string>(3).fill(`GET /repos/acme/models/contents/gate%2Fpolicy.yaml [dropped before]`),
      "GET /repos/acme/models/commits",
    ]);
    expect(failedTries(d.log)).toEqual([
      "GET /repos/{owner}/{repo}/contents/{path} try 1",
      "GET /repos/{owner}/{repo}/contents/{path} try 2",
      "GET /repos/{owner}/{repo}/contents/{path} try 3",
    ]);
    expect(warnings(d.log)).toEqual([]);
  });

  it("commits dropped once: retried after the backoff; the last commit is named", async () => {
    proxy.drop({ method: "GET", path: COMMITS, when: "before", times: 1 });
    const d = deps();
    const policy = await loadBasePolicy(req(), d);
    expect(policy.lastCommit).toBe(LAST);
    expect(proxy.calls()).toEqual([
      "GET /repos/acme/models/contents/gate%2Fpolicy.yaml",
      "GET /repos/acme/models/commits [dropped before]",
      "GET /repos/acme/models/commits",
    ]);
    expect(failedTries(d.log)).toEqual(["GET /repos/{owner}/{repo}/commits try 1"]);
    expect(warnings(d.log)).toEqual([]);
  });

  it("commits dropped every time, no git history: 3 tries, then the last commit is unknown (null), with no warning", async () => {
    proxy.drop({ method: "GET", path: COMMITS, when: "before" });
    const d = deps();
    const policy = await loadBasePolicy(req(), d);
    expect(policy).toEqual({
      text: "owner: base\n",
      source: `base commit ${BASE} (contents API)`,
      lastCommit: null,
    });
    expect(proxy.calls().slice(1)).toEqual(Array(3).fill("GET /repos/acme/models/commits [dropped before]"));
    expect(failedTries(d.log)).toEqual([
      "GET /repos/{owner}/{repo}/commits try 1",
      "GET /repos/{owner}/{repo}/commits try 2",
      "GET /repos/{owner}/{repo}/commits try 3",
    ]);
    expect(warnings(d.log)).toEqual([]);
    expect(d.log.lines.filter((l) => l.level === "debug").map((l) => l.message)).toContain(
      "commits API: error other side closed; trying git log",
    );
  });

  it("commits dropped every time, checkout with the history: the last commit from git log", async () => {
    const ws = workspace();
    initRepo(ws);
    const first = commitFiles(ws, { [POLICY_PATH]: "owner: base\n" }, "add policy");
    const base = commitFiles(ws, { "README.md": "readme\n" }, "unrelated");
    fake.setFile(base, POLICY_PATH, "owner: base\n");
    proxy.drop({ method: "GET", path: COMMITS, when: "before" });
    const d = deps();
    const policy = await loadBasePolicy(req({ baseSha: base, workspace: ws }), d);
    expect(policy).toEqual({
      text: "owner: base\n",
      source: `base commit ${base} (contents API)`,
      lastCommit: first,
    });
    expect(failedTries(d.log)).toEqual([
      "GET /repos/{owner}/{repo}/commits try 1",
      "GET /repos/{owner}/{repo}/commits try 2",
      "GET /repos/{owner}/{repo}/commits try 3",
    ]);
    expect(warnings(d.log)).toEqual([]);
  });
});
