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
import { Buffer } from "node:buffer";
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadBasePolicy, type BasePolicyRequest } from "../../src/action/base-policy.js";
import { runGit } from "../../src/git/run-git.js";
import { publishCheckRun } from "../../src/action/check-run.js";
import type { Octokit } from "../../src/action/github-api.js";
import { createRecordingLogger, type RecordingLogger } from "../../src/action/logger.js";
import { resolveCommentAuthor, upsertStickyComment } from "../../src/action/sticky-comment.js";
import { InputError } from "../../src/core/errors.js";
import type { Report } from "../../src/core/report/report-types.js";
import { CLEAR_ACCEPT_ROWS as ACCEPT_ROWS, exportText, policyYaml, tasks, type TaskRow } from "./exports.js";
import { closeServer, FakeGitHub, type Identity } from "./fake-github.js";
import {
  checkRunSpec,
  commentBody,
  commitFiles,
  DELIVERED_NOTE,
  fastRetry,
  initRepo,
  octokitAt,
  octokitFor,
  policyAnnotations,
  upsertRequest,
  warnings,
} from "./helpers.js";
import {
  BASE_SHA,
  commandLines as commands,
  cleanupRuns,
  DIST,
  distExists,
  HEAD_SHA,
  POLICY_PATH,
  PR_NUMBER,
  RESULTS_PATH,
  runDist,
  type RunResult,
} from "./run-action.js";

interface DropRule {
  readonly method: string;
  readonly path: RegExp;
  /** Also tested against the query string (e.g. /page=2/) when given. */
  readonly query?: RegExp;
  /** "before": the request never reaches GitHub; "after": GitHub handles it, the answer is lost. */
  readonly when: "before" | "after";
  /** How many matching requests are dropped; all of them when omitted. */
  times?: number;
}

/** Replaces the body of an answer GitHub (the fake) gave with `status`, keeping the status. */
interface AnswerRule {
  readonly method: string;
  readonly path: RegExp;
  readonly status: number;
  readonly body: unknown;
}

interface ProxiedRequest {
  readonly method: string;
  readonly path: string;
  readonly dropped: "before" | "after" | null;
}

/** Loopback proxy to the fake GitHub that can drop connections without answering. */
class DroppingProxy {
  readonly seen: ProxiedRequest[] = [];
  private readonly rules: DropRule[] = [];
  private readonly answers: AnswerRule[] = [];
  private server: Server | null = null;
  private url = "";

  constructor(private readonly target: FakeGitHub) {}

  get baseUrl(): string {
    return this.url;
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const method = (req.method ?? "GET").toUpperCase();
        const path = req.url ?? "/";
        const rule = this.rules.find(
          (r) =>
            r.method === method &&
            r.path.test(new URL(path, "http://x").pathname) &&
            (r.query === undefined || r.query.test(new URL(path, "http://x").search)) &&
            (r.times === undefined || r.times > 0),
        );
        if (rule?.times !== undefined) rule.times -= 1;
        this.seen.push({ method, path, dropped: rule?.when ?? null });
        if (rule?.when === "before") {
          req.socket.destroy();
          return;
        }
        const target = new URL(this.target.baseUrl);
        const headers: IncomingHttpHeaders = { ...req.headers, host: target.host };
        const upstream = httpRequest(
          { host: target.hostname, port: target.port, method, path, headers },
          (up) => {
            const body: Buffer[] = [];
            up.on("data", (c: Buffer) => body.push(c));
            up.on("end", () => {
              if (rule?.when === "after") {
                req.socket.destroy();
                return;
              }
              const status = up.statusCode ?? 502;
              const answer = this.answers.find(
                (a) =>
                  a.method === method &&
                  a.path.test(new URL(path, "http://x").pathname) &&
                  a.status === status,
              );
              const out: Record<string, string | string[]> = {};
              for (const [k, v] of Object.entries(up.headers)) {
                if (v === undefined || ["connection", "transfer-encoding", "content-length"].includes(k))
                  continue;
                out[k] = v;
              }
              res.writeHead(status, out);
              res.end(answer ? Buffer.from(JSON.stringify(answer.body), "utf8") : Buffer.concat(body));
            });
          },
        );
        upstream.on("error", () => req.socket.destroy());
        upstream.end(Buffer.concat(chunks));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  drop(rule: DropRule): void {
    this.rules.push({ ...rule });
  }

  /** Answers with `rule.body` wherever the fake answered `rule.status` (set with `fake.fail`). */
  answer(rule: AnswerRule): void {
    this.answers.push(rule);
  }

  reset(): void {
    this.rules.length = 0;
    this.answers.length = 0;
    this.seen.length = 0;
  }

  /** The requests, as "METHOD path [dropped before|after]". */
  calls(): string[] {
    return this.seen.map(
      (r) =>
        `${r.method} ${new URL(r.path, "http://x").pathname}${r.dropped ? ` [dropped ${r.dropped}]` : ""}`,
    );
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    await closeServer(server);
    this.server = null;
  }
}

let fake: FakeGitHub;
let proxy: DroppingProxy;

beforeAll(async () => {
  fake = await new FakeGitHub("acme/models").start();
  proxy = await new DroppingProxy(fake).start();
  // For the end-to-end runs: the policy at the pull request's base commit.
  fake.setFile(BASE_SHA, POLICY_PATH, policyYaml());
  fake.setCommits(BASE_SHA, POLICY_PATH, ["9".repeat(40)]);
});
afterAll(async () => {
  cleanupRuns();
  await proxy.close();
  await fake.close();
});
beforeEach(() => {
  fake.comments.length = 0;
  fake.checkRuns.length = 0;
});
afterEach(() => {
  expect(fake.violations).toEqual([]);
  fake.clearFaults();
  fake.requests.length = 0;
  proxy.reset();
});

const DIGEST = "a".repeat(64);

function viaProxy(log?: RecordingLogger): Octokit {
  return octokitAt(proxy.baseUrl, log !== undefined ? { log } : {});
}

/** The comment calls' dependencies, through the proxy or straight to the fake. */
function commentDeps(via: "proxy" | "fake" = "fake") {
  const log = createRecordingLogger();
  const octokit = via === "proxy" ? viaProxy(log) : octokitFor(fake, undefined, log);
  return { octokit, retry: fastRetry(), log, fork: false, delivered: DELIVERED_NOTE };
}

/** The client's failed tries, from its debug lines: "GET /repos/{owner}/{repo}/commits try 1". */
function failedTries(log: RecordingLogger): string[] {
  return log.lines
    .filter((l) => l.level === "debug")
    .map((l) => /^(\S+ \S+): (?:no answer|GitHub answered \d+) \(.*\) on try (\d+)$/.exec(l.message))
    .filter((m) => m !== null)
    .map((m) => `${m[1]} try ${m[2]}`);
}

/** The tries of a comment write after listing again (the upsert's own retries). */
function writeRetries(log: RecordingLogger): string[] {
  return log.lines
    .map((l) => /listing again before (try \d+)$/.exec(l.message)?.[1])
    .filter((m) => m !== undefined);
}

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

const ALICE: Identity = { login: "alice", id: 7, type: "User", installation: false };

/** The JSON GitHub answers when it refuses a comment body (422), as the proxy sends it. */
const COMMENT_422 = {
  message: "Validation Failed",
  errors: [
    {
      resource: "IssueComment",
      code: "custom",
      field: "body",
      message: "body is too long (maximum is 65536 characters)",
    },
  ],
  documentation_url: "https://docs.github.com/rest/issues/comments#create-an-issue-comment",
  status: "422",
};

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

/** The mirror image: the baseline alone passes 20: reject. */
const REJECT_ROWS: TaskRow[] = [
  ...tasks(20, "b-only", { validity: "valid", a: "fail", b: "pass" }),
  ...tasks(30, "both", { validity: "valid", a: "pass", b: "pass" }),
  ...tasks(10, "neither", { validity: "valid", a: "fail", b: "fail" }),
];

/**
 * The bundle on a pull request, its GitHub API behind the proxy (retry base 1 ms: run-action.ts).
 * `policy` names another policy file (its base version must be set on the fake), the PR's copy
 * being `policyText`.
 */
function runBundle(
  rows: readonly TaskRow[],
  opts: { readonly policy?: string; readonly policyText?: string; readonly comment?: string } = {},
): Promise<RunResult> {
  const policy = opts.policy ?? POLICY_PATH;
  return runDist({
    fake,
    event: "pull_request",
    inputs: {
      results: RESULTS_PATH,
      policy,
      baseline: "cfg-baseline",
      candidate: "cfg-candidate",
      ...(opts.comment !== undefined ? { comment: opts.comment } : {}),
    },
    files: { [RESULTS_PATH]: exportText(rows), [policy]: opts.policyText ?? policyYaml() },
    env: { GITHUB_API_URL: proxy.baseUrl },
  });
}

/** The failed tries the action logs (::debug::), as "POST /repos/{owner}/{repo}/check-runs try 1". */
function failedTryLines(r: RunResult): string[] {
  return commands(r, "debug")
    .map((l) => /^::debug::(\S+ \S+): (?:no answer|GitHub answered \d+) \(.*\) on try (\d+)$/.exec(l))
    .filter((m) => m !== null)
    .map((m) => `${m[1]} try ${m[2]}`);
}

function reportOf(r: RunResult): Report {
  return JSON.parse(readFileSync(r.outputs["report-path"] ?? "", "utf8")) as Report;
}

/** The verdict reached the summary, the outputs and the report file. */
function expectVerdictDelivered(r: RunResult, verdict: "accept" | "reject"): void {
  expect(r.outputs["verdict"]).toBe(verdict);
  expect(r.outputs["common-valid-tasks"]).toBe("60");
  expect(r.summary).toMatch(verdict === "accept" ? /^## ✅ accept — / : /^## ❌ reject — /);
  expect(reportOf(r).verdict).toBe(verdict);
}

const VERDICT_ERROR = /^::error::Model gate verdict: reject \(fail-on: reject-or-unresolved\)\. /;

describe("end to end: the bundle (dist/index.js) with its GitHub API behind the proxy", () => {
  beforeAll(() => {
    // CI builds dist/ first (action.test.ts builds it when missing); these tests only run it.
    if (!distExists()) throw new Error(`${DIST} is missing: run \`npm run package\` first`);
  });

  it.each([
    ["accept", ACCEPT_ROWS, 0],
    ["reject", REJECT_ROWS, 1],
  ] as const)(
    "422 on the comment create (%s): one warning, no retry, comment-id empty; the verdict alone decides the step",
    async (verdict, rows, code) => {
      fake.fail("issues/create-comment", { status: 422 });
      proxy.answer({
        method: "POST",
        path: new RegExp(`/issues/${PR_NUMBER}/comments$`),
        status: 422,
        body: COMMENT_422,
      });
      const r = await runBundle(rows);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(code);
      expectVerdictDelivered(r, verdict);
      expect(fake.calls()).toEqual([
        "GET repos/get-content",
        "GET repos/list-commits",
        "GET checks/list-for-ref",
        "POST graphql",
        "GET issues/list-comments",
        "POST checks/create",
        "GET issues/list-comments",
        "POST issues/create-comment",
      ]);
      expect(
        fake.requests.filter((q) => q.operationId === "issues/create-comment").map((q) => q.status),
      ).toEqual([422]);
      expect(fake.comments).toEqual([]);
      expect(fake.checkRuns.map((c) => [c.head_sha, c.conclusion])).toEqual([
        [HEAD_SHA, verdict === "accept" ? "success" : "failure"],
      ]);
      expect(r.outputs["check-run-id"]).toBe(String(fake.checkRuns[0]?.id));
      expect(r.outputs["comment-id"]).toBe("");
      expect(commands(r, "warning")).toEqual([
        "::warning::Could not create the gate comment: GitHub rejected the request with 422 " +
          "(Validation Failed; body is too long (maximum is 65536 characters)).",
      ]);
      // Tried once: a 422 is GitHub's answer, and the write is not tried again after listing.
      expect(failedTryLines(r)).toEqual(["POST /repos/{owner}/{repo}/issues/{issue_number}/comments try 1"]);
      expect(r.stdout).not.toContain("listing again before try");
      const errors = commands(r, "error");
      if (verdict === "accept") expect(errors).toEqual([]);
      else {
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatch(VERDICT_ERROR);
      }
    },
  );

  it("check run create dropped every time: 3 tries with backoff, one warning; the comment is still posted", async () => {
    proxy.drop({ method: "POST", path: /\/check-runs$/, when: "before" });
    const r = await runBundle(ACCEPT_ROWS);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expectVerdictDelivered(r, "accept");
    expect(proxy.calls()).toEqual([
      "GET /repos/acme/models/contents/gate%2Fpolicy.yaml",
      "GET /repos/acme/models/commits",
      `GET /repos/acme/models/commits/${HEAD_SHA}/check-runs`,
      "POST /graphql",
      `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
      "POST /repos/acme/models/check-runs [dropped before]",
      "POST /repos/acme/models/check-runs [dropped before]",
      "POST /repos/acme/models/check-runs [dropped before]",
      `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
      `POST /repos/acme/models/issues/${PR_NUMBER}/comments`,
      `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
    ]);
    expect(failedTryLines(r)).toEqual([
      "POST /repos/{owner}/{repo}/check-runs try 1",
      "POST /repos/{owner}/{repo}/check-runs try 2",
      "POST /repos/{owner}/{repo}/check-runs try 3",
    ]);
    expect(fake.checkRuns).toEqual([]);
    expect(fake.comments.map((c) => c.issue)).toEqual([PR_NUMBER]);
    expect(r.outputs["check-run-id"]).toBe("");
    expect(r.outputs["comment-id"]).toBe(String(fake.comments[0]?.id));
    expect(commands(r, "warning")).toEqual([
      '::warning::Could not create the check run "Model acceptance gate": the request to GitHub failed ' +
        "(other side closed) 3 times; giving up. The verdict is in the job summary and the step outputs.",
    ]);
    expect(commands(r, "error")).toEqual([]);
  });

  it("check run create dropped after GitHub created it: retried once, two identical runs, the second's id", async () => {
    proxy.drop({ method: "POST", path: /\/check-runs$/, when: "after", times: 1 });
    const r = await runBundle(REJECT_ROWS);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
    expectVerdictDelivered(r, "reject");
    expect(fake.calls().filter((c) => c === "POST checks/create")).toHaveLength(2);
    expect(failedTryLines(r)).toEqual(["POST /repos/{owner}/{repo}/check-runs try 1"]);
    expect(fake.checkRuns.map((c) => [c.head_sha, c.conclusion])).toEqual([
      [HEAD_SHA, "failure"],
      [HEAD_SHA, "failure"],
    ]);
    expect(r.outputs["check-run-id"]).toBe(String(fake.checkRuns[1]?.id));
    expect(r.outputs["comment-id"]).toBe(String(fake.comments[0]?.id));
    expect(commands(r, "warning")).toEqual([]);
    const errors = commands(r, "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(VERDICT_ERROR);
  });

  it("comment listing dropped every time: 3 tries with backoff, one warning, no comment; the check run is there", async () => {
    proxy.drop({ method: "GET", path: new RegExp(`/issues/${PR_NUMBER}/comments$`), when: "before" });
    const r = await runBundle(ACCEPT_ROWS);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expectVerdictDelivered(r, "accept");
    expect(proxy.calls().slice(-3)).toEqual(
      Array(3).fill(`GET /repos/acme/models/issues/${PR_NUMBER}/comments [dropped before]`),
    );
    expect(fake.calls()).toEqual([
      "GET repos/get-content",
      "GET repos/list-commits",
      "GET checks/list-for-ref",
      "POST graphql",
      "POST checks/create",
    ]);
    // Listed twice, 3 tries each: for the run history (an info line), then for the comment (the
    // warning); each call counts its own tries (the second's first retry waits 1 unit, not 16).
    expect(failedTryLines(r)).toEqual([
      "GET /repos/{owner}/{repo}/issues/{issue_number}/comments try 1",
      "GET /repos/{owner}/{repo}/issues/{issue_number}/comments try 2",
      "GET /repos/{owner}/{repo}/issues/{issue_number}/comments try 3",
      "GET /repos/{owner}/{repo}/issues/{issue_number}/comments try 1",
      "GET /repos/{owner}/{repo}/issues/{issue_number}/comments try 2",
      "GET /repos/{owner}/{repo}/issues/{issue_number}/comments try 3",
    ]);
    expect(fake.comments).toEqual([]);
    expect(r.outputs["check-run-id"]).toBe(String(fake.checkRuns[0]?.id));
    expect(r.outputs["comment-id"]).toBe("");
    expect(commands(r, "warning")).toEqual([
      "::warning::Could not list the pull request's comments to find the previous gate comment: the request " +
        "to GitHub failed (other side closed) 3 times; giving up. The verdict is in the job summary and the step outputs.",
    ]);
    expect(commands(r, "error")).toEqual([]);
  });

  it("GraphQL refused and GET /user dropped every time: 3 tries, one warning, no comment (it could be a second)", async () => {
    fake.fail("graphql", { status: 200, graphqlErrorType: "FORBIDDEN" });
    proxy.drop({ method: "GET", path: /^\/user$/, when: "before" });
    const r = await runBundle(ACCEPT_ROWS);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expectVerdictDelivered(r, "accept");
    // Asked once, in the "Earlier runs" phase (before the verdict); the check run follows.
    expect(proxy.calls().slice(-4)).toEqual([
      ...Array<string>(3).fill("GET /user [dropped before]"),
      "POST /repos/acme/models/check-runs",
    ]);
    expect(fake.calls()).toEqual([
      "GET repos/get-content",
      "GET repos/list-commits",
      "GET checks/list-for-ref",
      "POST graphql",
      "POST checks/create",
    ]);
    expect(failedTryLines(r)).toEqual(["GET /user try 1", "GET /user try 2", "GET /user try 3"]);
    expect(fake.comments).toEqual([]);
    expect(r.outputs["check-run-id"]).toBe(String(fake.checkRuns[0]?.id));
    expect(r.outputs["comment-id"]).toBe("");
    expect(commands(r, "warning")).toEqual([
      "::warning::Could not tell which comments are the gate's (GraphQL viewer and GET /user), so no comment " +
        "is posted (a guess " +
        "could post a second one): the request to GitHub failed (other side closed) 3 times; giving up. The " +
        "verdict is not affected.",
    ]);
    expect(commands(r, "error")).toEqual([]);
  });

  it("comment update dropped every time: 3 tries, each after listing again, one warning; the old comment stays, comment-id empty", async () => {
    const old = commentBody("0".repeat(64), "old");
    const mine = fake.addComment(PR_NUMBER, old);
    proxy.drop({ method: "PATCH", path: /\/issues\/comments\/\d+$/, when: "before" });
    const r = await runBundle(ACCEPT_ROWS);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expectVerdictDelivered(r, "accept");
    expect(proxy.calls()).toEqual([
      "GET /repos/acme/models/contents/gate%2Fpolicy.yaml",
      "GET /repos/acme/models/commits",
      `GET /repos/acme/models/commits/${HEAD_SHA}/check-runs`,
      "POST /graphql",
      `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
      "POST /repos/acme/models/check-runs",
      ...Array.from({ length: 3 }, () => [
        `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
        `PATCH /repos/acme/models/issues/comments/${mine.id} [dropped before]`,
      ]).flat(),
    ]);
    expect(commands(r, "debug").filter((l) => l.includes("listing again before try"))).toEqual([
      "::debug::writing the gate comment failed (no answer); listing again before try 2",
      "::debug::writing the gate comment failed (no answer); listing again before try 3",
    ]);
    expect(fake.comments.map((c) => [c.id, c.body, c.updates])).toEqual([[mine.id, old, 0]]);
    expect(r.outputs["check-run-id"]).toBe(String(fake.checkRuns[0]?.id));
    expect(r.outputs["comment-id"]).toBe("");
    expect(commands(r, "warning")).toEqual([
      "::warning::Could not update the gate comment: the request to GitHub failed (other side closed) 3 times; " +
        "giving up. The verdict is in the job summary and the step outputs.",
    ]);
    expect(commands(r, "error")).toEqual([]);
  });

  it("comment update dropped once (reject): listed again, updated in place, comment-id its id; no warning", async () => {
    const mine = fake.addComment(PR_NUMBER, commentBody("0".repeat(64), "old"));
    proxy.drop({ method: "PATCH", path: /\/issues\/comments\/\d+$/, when: "before", times: 1 });
    const r = await runBundle(REJECT_ROWS);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
    expectVerdictDelivered(r, "reject");
    expect(fake.calls().slice(-3)).toEqual([
      "GET issues/list-comments",
      "GET issues/list-comments",
      "PATCH issues/update-comment",
    ]);
    expect(fake.comments.map((c) => [c.id, c.updates])).toEqual([[mine.id, 1]]);
    expect(mine.body).toMatch(/^## ❌ reject — /m);
    expect(r.outputs["comment-id"]).toBe(String(mine.id));
    expect(r.outputs["check-run-id"]).toBe(String(fake.checkRuns[0]?.id));
    expect(commands(r, "warning")).toEqual([]);
    const errors = commands(r, "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(VERDICT_ERROR);
  });

  // The action sends annotations only for a policy (or input) error, one per listed problem, and an
  // InputError lists at most 20 (MAX_LISTED_PROBLEMS): the check run is created with all of them in
  // one request, so the update that adds annotations 51 and on is never sent and cannot be dropped.
  it("a base policy with 60 located problems: 20 annotations in the create, no update to drop", async () => {
    const path = "gate/bad-policy.yaml";
    const bad = policyYaml() + Array.from({ length: 60 }, (_, i) => `unknown_${i}: 1`).join("\n") + "\n";
    fake.setFile(BASE_SHA, path, bad);
    proxy.drop({ method: "PATCH", path: /\/check-runs\/\d+$/, when: "before" });
    const r = await runBundle(ACCEPT_ROWS, { policy: path, policyText: bad });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
    expect(proxy.calls()).toEqual([
      "GET /repos/acme/models/contents/gate%2Fbad-policy.yaml",
      "GET /repos/acme/models/commits",
      `GET /repos/acme/models/commits/${HEAD_SHA}/check-runs`,
      "POST /graphql",
      `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
      "POST /repos/acme/models/check-runs",
    ]);
    const run0 = fake.checkRuns[0];
    expect([run0?.conclusion, run0?.output.title]).toEqual(["failure", "Policy error: no verdict"]);
    expect(run0?.annotations.length).toBe(20);
    expect(run0?.annotationRequests).toBe(1);
    expect(r.summary).toMatch(/^## ❗ policy error — no verdict\n/);
    expect(r.summary).toContain("- … and 40 more\n");
    expect(r.outputs["check-run-id"]).toBe(String(run0?.id));
    expect(r.outputs["verdict"]).toBeUndefined();
    expect(commands(r, "warning")).toEqual([]);
    const errors = commands(r, "error");
    expect(errors.filter((l) => l.startsWith(`::error file=${path},`))).toHaveLength(9);
    expect(errors.filter((l) => l.startsWith("::error::"))).toEqual([
      expect.stringMatching(/^::error::Invalid policy file gate\/bad-policy\.yaml: 60 problems%0A/),
    ]);
  });

  it("base policy contents dropped once: retried, and the run is as normal", async () => {
    proxy.drop({ method: "GET", path: /\/contents\//, when: "before", times: 1 });
    const r = await runBundle(ACCEPT_ROWS);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expectVerdictDelivered(r, "accept");
    expect(proxy.calls()).toEqual([
      "GET /repos/acme/models/contents/gate%2Fpolicy.yaml [dropped before]",
      "GET /repos/acme/models/contents/gate%2Fpolicy.yaml",
      "GET /repos/acme/models/commits",
      `GET /repos/acme/models/commits/${HEAD_SHA}/check-runs`,
      "POST /graphql",
      `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
      "POST /repos/acme/models/check-runs",
      `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
      `POST /repos/acme/models/issues/${PR_NUMBER}/comments`,
      `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
    ]);
    expect(failedTryLines(r)).toEqual(["GET /repos/{owner}/{repo}/contents/{path} try 1"]);
    expect(reportOf(r).provenance.policy.source).toBe(`base commit ${BASE_SHA} (contents API)`);
    expect(reportOf(r).provenance.policy.last_commit).toBe("9".repeat(40));
    expect(r.outputs["check-run-id"]).toBe(String(fake.checkRuns[0]?.id));
    expect(r.outputs["comment-id"]).toBe(String(fake.comments[0]?.id));
    expect(commands(r, "warning")).toEqual([]);
    expect(commands(r, "error")).toEqual([]);
  });

  // By design: the base commit's policy decides, and when neither the contents API nor the
  // checkout can give it, the PR's own copy must not; the run stops with an error (no verdict).
  it("base policy contents dropped every time (no fetch-depth: 0): 3 tries, then an error, no verdict; a failed check run, no comment", async () => {
    proxy.drop({ method: "GET", path: /\/contents\//, when: "before" });
    const r = await runBundle(ACCEPT_ROWS);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
    expect(proxy.calls()).toEqual([
      ...Array<string>(3).fill("GET /repos/acme/models/contents/gate%2Fpolicy.yaml [dropped before]"),
      "POST /repos/acme/models/check-runs",
    ]);
    expect(failedTryLines(r)).toEqual([
      "GET /repos/{owner}/{repo}/contents/{path} try 1",
      "GET /repos/{owner}/{repo}/contents/{path} try 2",
      "GET /repos/{owner}/{repo}/contents/{path} try 3",
    ]);
    const message =
      "Cannot read the policy gate/policy.yaml at the pull request's base commit bbbbbbbbbbbb, and the PR's own " +
      "copy must not decide. contents API: no answer (other side closed); git: the checkout does not have commit " +
      `${BASE_SHA}. GitHub did not answer: re-run the job, or check out with fetch-depth: 0 so that git can answer.`;
    expect(commands(r, "error")).toEqual([`::error::${message}`]);
    expect(commands(r, "warning")).toEqual([]);
    expect(r.summary).toMatch(/^## ❗ input error — no verdict\n/);
    expect(r.summary).toContain(
      "Cannot read the policy gate/policy\\.yaml at the pull request's base commit bbbbbbbbbbbb, and the PR's own " +
        "copy must not decide\\. contents API: no answer \\(other side closed\\);",
    );
    expect(fake.checkRuns.map((c) => [c.head_sha, c.conclusion, c.output.title])).toEqual([
      [HEAD_SHA, "failure", "Input error: no verdict"],
    ]);
    expect(fake.comments).toEqual([]);
    expect(r.outputs).toEqual({ "check-run-id": String(fake.checkRuns[0]?.id) });
  });

  it('base policy commits dropped every time: 3 tries, then the last commit is "unknown"; no warning, the run is as normal', async () => {
    proxy.drop({ method: "GET", path: /\/commits$/, when: "before" });
    const r = await runBundle(ACCEPT_ROWS);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expectVerdictDelivered(r, "accept");
    expect(proxy.calls().slice(0, 4)).toEqual([
      "GET /repos/acme/models/contents/gate%2Fpolicy.yaml",
      ...Array<string>(3).fill("GET /repos/acme/models/commits [dropped before]"),
    ]);
    expect(fake.calls()).toEqual([
      "GET repos/get-content",
      "GET checks/list-for-ref",
      "POST graphql",
      "GET issues/list-comments",
      "POST checks/create",
      "GET issues/list-comments",
      "POST issues/create-comment",
      "GET issues/list-comments",
    ]);
    expect(failedTryLines(r)).toEqual([
      "GET /repos/{owner}/{repo}/commits try 1",
      "GET /repos/{owner}/{repo}/commits try 2",
      "GET /repos/{owner}/{repo}/commits try 3",
    ]);
    expect(commands(r, "debug")).toContain("::debug::commits API: error other side closed; trying git log");
    expect(reportOf(r).provenance.policy.last_commit).toBeNull();
    expect(reportOf(r).provenance.policy.source).toBe(`base commit ${BASE_SHA} (contents API)`);
    expect(r.summary).toContain("| Policy last changed in | unknown |");
    expect(r.outputs["check-run-id"]).toBe(String(fake.checkRuns[0]?.id));
    expect(r.outputs["comment-id"]).toBe(String(fake.comments[0]?.id));
    expect(commands(r, "warning")).toEqual([]);
    expect(commands(r, "error")).toEqual([]);
  });
});
