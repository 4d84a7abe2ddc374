/**
 * GitHub API faults that RELIABILITY.md listed as untested: a 422 actually returned on the sticky
 * comment create and update and on the check run's create and update, a connection dropped
 * mid-call on a comment create, on the check run create and on the comment listing, and a 404 on
 * listing comments, and GET /user (retried; no comment when it never answers).
 *
 * A dropped connection is made by a loopback proxy in front of the fake GitHub: it forwards every
 * request (so the fake still validates and records it) except those it is told to drop, whose
 * socket it destroys without an answer — either before forwarding (GitHub never saw the call) or
 * after (GitHub did the work, the answer was lost). The proxy can also replace the body of an
 * error the fake answered with the full JSON GitHub sends (`message`, `errors`,
 * `documentation_url`).
 *
 * The faults are shown both on the modules (upsertStickyComment, publishCheckRun) and, for the
 * comment create's 422 and the dropped check run create and comment listing, end to end: the
 * committed bundle dist/index.js as a child process whose GITHUB_API_URL is the proxy.
 */
import { Buffer } from "node:buffer";
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { publishCheckRun, type CheckRunAnnotation, type CheckRunSpec } from "../../src/action/check-run.js";
import type { Octokit } from "../../src/action/github-api.js";
import { createRecordingLogger } from "../../src/action/logger.js";
import {
  ACTIONS_BOT_LOGIN,
  digestLine,
  resolveCommentAuthor,
  upsertStickyComment,
  type UpsertRequest,
} from "../../src/action/sticky-comment.js";
import { COMMENT_MARKER } from "../../src/core/report/escape.js";
import type { Report } from "../../src/core/report/report-types.js";
import { exportText, policyYaml, tasks, type TaskRow } from "./exports.js";
import { FakeGitHub, type Identity } from "./fake-github.js";
import { fastRetry, INSTALLATION_TOKEN, octokitFor } from "./helpers.js";
import {
  BASE_SHA,
  cleanupRuns,
  DIST,
  distExists,
  HEAD_SHA,
  PR_NUMBER,
  runDist,
  workflowCommands,
  type RunResult,
} from "./run-action.js";
import { getOctokit } from "@actions/github";

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
    server.closeAllConnections();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
    this.server = null;
  }
}

let fake: FakeGitHub;
let proxy: DroppingProxy;

const POLICY_PATH = "gate/policy.yaml";
const RESULTS_PATH = "out/results.jsonl";

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
function commentBody(digest: string, text = "verdict"): string {
  return `${COMMENT_MARKER}\n${digestLine(digest)}\n## ${text}\n`;
}

function request(over: Partial<UpsertRequest> = {}): UpsertRequest {
  return {
    owner: "acme",
    repo: "models",
    issueNumber: 7,
    body: commentBody(DIGEST),
    digest: DIGEST,
    mode: "always",
    author: ACTIONS_BOT_LOGIN,
    ...over,
  };
}

function viaProxy(): Octokit {
  return getOctokit(INSTALLATION_TOKEN, { baseUrl: proxy.baseUrl, request: { fetch: globalThis.fetch } });
}

function commentDeps(octokit: Octokit = octokitFor(fake)) {
  return { octokit, retry: fastRetry(), log: createRecordingLogger(), fork: false };
}

function warnings(log: ReturnType<typeof createRecordingLogger>): string[] {
  return log.lines.filter((l) => l.level === "warning").map((l) => l.message);
}

const SHA = "c".repeat(40);
function checkSpec(over: Partial<CheckRunSpec> = {}): CheckRunSpec {
  return {
    owner: "acme",
    repo: "models",
    name: "Model gate",
    headSha: SHA,
    conclusion: "success",
    title: "Accept",
    summary: "## accept",
    annotations: [],
    ...over,
  };
}

describe("a 422 actually returned by GitHub", () => {
  it("on the sticky comment update: one warning with GitHub's message, no retry, failed", async () => {
    const mine = fake.addComment(7, commentBody("0".repeat(64), "old"));
    fake.fail("issues/update-comment", {
      status: 422,
      message: "Body is too long (maximum is 65536 characters)",
    });
    const d = commentDeps();
    const outcome = await upsertStickyComment(request(), d);
    expect(outcome).toEqual({ kind: "failed", id: null });
    expect(fake.calls()).toEqual(["GET issues/list-comments", "PATCH issues/update-comment"]);
    expect(fake.requests.map((r) => r.status)).toEqual([200, 422]);
    expect(warnings(d.log)).toEqual([
      "Could not update the gate comment: GitHub rejected the request with 422 " +
        "(Body is too long (maximum is 65536 characters)).",
    ]);
    expect(d.retry.delays).toEqual([]);
    expect(mine.body).toBe(commentBody("0".repeat(64), "old"));
    expect(mine.updates).toBe(0);
    expect(fake.comments.length).toBe(1);
  });

  it("on check run creation: one warning with GitHub's message, no retry, null", async () => {
    fake.fail("checks/create", {
      status: 422,
      message: "Invalid request. Only 65535 characters are allowed; 70000 were supplied.",
    });
    const log = createRecordingLogger();
    const retry = fastRetry();
    const id = await publishCheckRun(checkSpec(), { octokit: octokitFor(fake), retry, log, fork: false });
    expect(id).toBeNull();
    expect(fake.calls()).toEqual(["POST checks/create"]);
    expect(retry.delays).toEqual([]);
    expect(warnings(log)).toEqual([
      'Could not create the check run "Model gate": GitHub rejected the request with 422 ' +
        "(Invalid request. Only 65535 characters are allowed; 70000 were supplied.).",
    ]);
    expect(fake.checkRuns).toEqual([]);
  });

  it("on the check run update that adds annotations: one warning, no retry, the run's id is kept", async () => {
    const annotations: CheckRunAnnotation[] = Array.from({ length: 120 }, (_, i) => ({
      path: "gate/policy.yaml",
      start_line: i + 1,
      end_line: i + 1,
      annotation_level: "failure",
      message: `problem ${i + 1}`,
    }));
    fake.fail("checks/update", { status: 422, message: "Validation Failed" });
    const log = createRecordingLogger();
    const retry = fastRetry();
    const id = await publishCheckRun(checkSpec({ annotations }), {
      octokit: octokitFor(fake),
      retry,
      log,
      fork: false,
    });
    expect(fake.calls()).toEqual(["POST checks/create", "PATCH checks/update"]);
    expect(fake.checkRuns.map((r) => r.id)).toEqual([id]);
    expect(id).not.toBeNull();
    expect(fake.checkRuns[0]?.annotations.length).toBe(50);
    expect(retry.delays).toEqual([]);
    expect(warnings(log)).toEqual([
      "Could not add annotations 51–100 to the check run: GitHub rejected the request with 422 (Validation Failed).",
    ]);
  });
});

describe("a connection dropped mid-call on a comment create", () => {
  it("dropped before GitHub saw it: listed again, retried, and exactly one comment is created", async () => {
    proxy.drop({ method: "POST", path: /\/issues\/7\/comments$/, when: "before", times: 1 });
    const d = commentDeps(viaProxy());
    const outcome = await upsertStickyComment(request(), d);
    expect(proxy.calls()).toEqual([
      "GET /repos/acme/models/issues/7/comments",
      "POST /repos/acme/models/issues/7/comments [dropped before]",
      "GET /repos/acme/models/issues/7/comments",
      "POST /repos/acme/models/issues/7/comments",
    ]);
    expect(fake.calls()).toEqual([
      "GET issues/list-comments",
      "GET issues/list-comments",
      "POST issues/create-comment",
    ]);
    expect(fake.comments.map((c) => [c.id, c.body])).toEqual([[outcome.id, commentBody(DIGEST)]]);
    expect(outcome.kind).toBe("created");
    expect(d.retry.delays).toEqual([10]);
    expect(warnings(d.log)).toEqual([]);
  });

  it("dropped after GitHub created it: listed again, the comment found is updated, never duplicated", async () => {
    proxy.drop({ method: "POST", path: /\/issues\/7\/comments$/, when: "after", times: 1 });
    const d = commentDeps(viaProxy());
    const outcome = await upsertStickyComment(request(), d);
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
    expect(d.retry.delays).toEqual([10]);
    expect(warnings(d.log)).toEqual([]);
  });

  // Was: "GitHub answered 500 (other side closed) 3 times": Octokit reports a failed fetch as a
  // RequestError with status 500 and no response, so the warning claimed an answer GitHub never gave.
  it("dropped every time: 3 tries, each after listing again, then one warning; no comment", async () => {
    proxy.drop({ method: "POST", path: /\/issues\/7\/comments$/, when: "before" });
    const d = commentDeps(viaProxy());
    const outcome = await upsertStickyComment(request(), d);
    expect(outcome).toEqual({ kind: "failed", id: null });
    expect(proxy.calls()).toEqual([
      "GET /repos/acme/models/issues/7/comments",
      "POST /repos/acme/models/issues/7/comments [dropped before]",
      "GET /repos/acme/models/issues/7/comments",
      "POST /repos/acme/models/issues/7/comments [dropped before]",
      "GET /repos/acme/models/issues/7/comments",
      "POST /repos/acme/models/issues/7/comments [dropped before]",
    ]);
    expect(d.retry.delays).toEqual([10, 20]);
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
    const outcome = await upsertStickyComment(request(), d);
    expect(outcome).toEqual({ kind: "failed", id: null });
    expect(fake.calls()).toEqual(["GET issues/list-comments"]);
    expect(fake.comments).toEqual([]);
    expect(d.retry.delays).toEqual([]);
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
    const d = commentDeps(viaProxy());
    const outcome = await upsertStickyComment(request(), d);
    expect(outcome).toEqual({ kind: "failed", id: null });
    expect(fake.calls()).toEqual(["GET issues/list-comments", "POST issues/create-comment"]);
    expect(fake.requests.map((r) => r.status)).toEqual([200, 422]);
    expect(d.retry.delays).toEqual([]);
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
    const d = commentDeps(viaProxy());
    const outcome = await upsertStickyComment(request(), d);
    expect(outcome).toEqual({ kind: "failed", id: null });
    expect(fake.calls()).toEqual([
      "GET issues/list-comments",
      "PATCH issues/update-comment",
      "POST issues/create-comment",
    ]);
    expect(d.retry.delays).toEqual([]);
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
  const publish = (log = createRecordingLogger(), retry = fastRetry()) => ({
    log,
    retry,
    id: publishCheckRun(checkSpec(), { octokit: viaProxy(), retry, log, fork: false }),
  });

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
    expect(p.retry.delays).toEqual([10]);
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
    expect(p.retry.delays).toEqual([10]);
    expect(warnings(p.log)).toEqual([]);
  });

  it("dropped every time: 3 tries with backoff, then one warning; null", async () => {
    proxy.drop({ method: "POST", path: CHECK_RUNS, when: "before" });
    const p = publish();
    expect(await p.id).toBeNull();
    expect(proxy.calls()).toEqual(Array(3).fill("POST /repos/acme/models/check-runs [dropped before]"));
    expect(fake.requests).toEqual([]);
    expect(fake.checkRuns).toEqual([]);
    expect(p.retry.delays).toEqual([10, 20]);
    expect(warnings(p.log)).toEqual([
      'Could not create the check run "Model gate": the request to GitHub failed (other side closed) 3 times; ' +
        "giving up. The verdict is in the job summary and the step outputs.",
    ]);
  });
});

describe("a connection dropped mid-call on the comment listing", () => {
  const LIST = /\/issues\/7\/comments$/;

  it("dropped once: the listing is retried after the backoff, then the comment is created; no warning", async () => {
    proxy.drop({ method: "GET", path: LIST, when: "before", times: 1 });
    const d = commentDeps(viaProxy());
    const outcome = await upsertStickyComment(request(), d);
    expect(proxy.calls()).toEqual([
      "GET /repos/acme/models/issues/7/comments [dropped before]",
      "GET /repos/acme/models/issues/7/comments",
      "POST /repos/acme/models/issues/7/comments",
    ]);
    expect(fake.comments.map((c) => c.id)).toEqual([outcome.id]);
    expect(outcome.kind).toBe("created");
    expect(d.retry.delays).toEqual([10]);
    expect(warnings(d.log)).toEqual([]);
  });

  it("page 2 of a long discussion dropped: only page 2 is asked again; its comment is found and updated", async () => {
    for (let i = 0; i < 110; i++) fake.addComment(7, `comment ${i}`, ALICE);
    const mine = fake.addComment(7, commentBody("0".repeat(64), "old"));
    proxy.drop({ method: "GET", path: LIST, query: /[?&]page=2(&|$)/, when: "after", times: 1 });
    const d = commentDeps(viaProxy());
    const outcome = await upsertStickyComment(request(), d);
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
    expect(d.retry.delays).toEqual([10]);
    expect(warnings(d.log)).toEqual([]);
  });

  it("dropped every time: 3 tries with backoff, then one warning; no comment is created, failed", async () => {
    proxy.drop({ method: "GET", path: LIST, when: "before" });
    const d = commentDeps(viaProxy());
    const outcome = await upsertStickyComment(request(), d);
    expect(outcome).toEqual({ kind: "failed", id: null });
    expect(proxy.calls()).toEqual(Array(3).fill("GET /repos/acme/models/issues/7/comments [dropped before]"));
    expect(fake.requests).toEqual([]);
    expect(fake.comments).toEqual([]);
    expect(d.retry.delays).toEqual([10, 20]);
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
      proxy.drop({ method: "GET", path: /^\/user$/, when: "before", times: 1 });
      const octokit = getOctokit(PAT, { baseUrl: proxy.baseUrl, request: { fetch: globalThis.fetch } });
      const d = commentDeps(octokit);
      const author = await resolveCommentAuthor(octokit, d.retry, d.log);
      expect(author).toBe("alice");
      const outcome = await upsertStickyComment(request({ author: author ?? "" }), d);
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
      proxy.drop({ method: "GET", path: /^\/user$/, when: "before", times: 3 });
      const octokit = getOctokit(PAT, { baseUrl: proxy.baseUrl, request: { fetch: globalThis.fetch } });
      const d = commentDeps(octokit);
      expect(await resolveCommentAuthor(octokit, d.retry, d.log)).toBeNull();
      expect(warnings(d.log)).toEqual([
        "Could not tell which comments are the gate's (GET /user), so no comment is posted (a guess could " +
          "post a second one): the request to GitHub failed (other side closed) 3 times; giving up. The " +
          "verdict is in the job summary and the step outputs.",
      ]);
    } finally {
      fake.tokens.delete(PAT);
    }
  });
});

/** 60 valid tasks, the candidate alone passes 20: accept. */
const ACCEPT_ROWS: TaskRow[] = [
  ...tasks(20, "a-only", { validity: "valid", a: "pass", b: "fail" }),
  ...tasks(30, "both", { validity: "valid", a: "pass", b: "pass" }),
  ...tasks(10, "neither", { validity: "valid", a: "fail", b: "fail" }),
];
/** The mirror image: the baseline alone passes 20: reject. */
const REJECT_ROWS: TaskRow[] = [
  ...tasks(20, "b-only", { validity: "valid", a: "fail", b: "pass" }),
  ...tasks(30, "both", { validity: "valid", a: "pass", b: "pass" }),
  ...tasks(10, "neither", { validity: "valid", a: "fail", b: "fail" }),
];

/** The bundle on a pull request, its GitHub API behind the proxy (retry base 1 ms: run-action.ts). */
function runBundle(rows: readonly TaskRow[]): Promise<RunResult> {
  return runDist({
    fake,
    event: "pull_request",
    inputs: {
      results: RESULTS_PATH,
      policy: POLICY_PATH,
      baseline: "cfg-baseline",
      candidate: "cfg-candidate",
    },
    files: { [RESULTS_PATH]: exportText(rows), [POLICY_PATH]: policyYaml() },
    env: { GITHUB_API_URL: proxy.baseUrl },
  });
}

function commands(r: RunResult, name: string): string[] {
  return workflowCommands(r.stdout)
    .filter((c) => c.name === name)
    .map((c) => c.line);
}

/** The retry lines the action logs (::debug::), e.g. "create the check run: … retry 2 of 3 in 1 ms". */
function retryLines(r: RunResult): string[] {
  return commands(r, "debug")
    .map((l) => l.replace(/^::debug::/, ""))
    .filter((l) => /retry \d+ of \d+/.test(l));
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
        "POST checks/create",
        "GET users/get-authenticated",
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
      expect(retryLines(r)).toEqual([]);
      expect(r.stdout).not.toContain("listing again before retry");
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
      "POST /repos/acme/models/check-runs [dropped before]",
      "POST /repos/acme/models/check-runs [dropped before]",
      "POST /repos/acme/models/check-runs [dropped before]",
      "GET /user",
      `GET /repos/acme/models/issues/${PR_NUMBER}/comments`,
      `POST /repos/acme/models/issues/${PR_NUMBER}/comments`,
    ]);
    expect(retryLines(r)).toEqual([
      "create the check run: request failed (other side closed); retry 2 of 3 in 1 ms",
      "create the check run: request failed (other side closed); retry 3 of 3 in 2 ms",
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
    expect(retryLines(r)).toEqual([
      "create the check run: request failed (other side closed); retry 2 of 3 in 1 ms",
    ]);
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
      "POST checks/create",
      "GET users/get-authenticated",
    ]);
    expect(retryLines(r)).toEqual([
      "list comments (page 1): request failed (other side closed); retry 2 of 3 in 1 ms",
      "list comments (page 1): request failed (other side closed); retry 3 of 3 in 2 ms",
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

  it("GET /user dropped every time: 3 tries, one warning, no comment (it could be a second); the check run is there", async () => {
    proxy.drop({ method: "GET", path: /^\/user$/, when: "before" });
    const r = await runBundle(ACCEPT_ROWS);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expectVerdictDelivered(r, "accept");
    expect(proxy.calls().slice(-3)).toEqual(Array(3).fill("GET /user [dropped before]"));
    expect(fake.calls()).toEqual(["GET repos/get-content", "GET repos/list-commits", "POST checks/create"]);
    expect(retryLines(r)).toEqual([
      "identify the token's user: request failed (other side closed); retry 2 of 3 in 1 ms",
      "identify the token's user: request failed (other side closed); retry 3 of 3 in 2 ms",
    ]);
    expect(fake.comments).toEqual([]);
    expect(r.outputs["check-run-id"]).toBe(String(fake.checkRuns[0]?.id));
    expect(r.outputs["comment-id"]).toBe("");
    expect(commands(r, "warning")).toEqual([
      "::warning::Could not tell which comments are the gate's (GET /user), so no comment is posted (a guess " +
        "could post a second one): the request to GitHub failed (other side closed) 3 times; giving up. The " +
        "verdict is in the job summary and the step outputs.",
    ]);
    expect(commands(r, "error")).toEqual([]);
  });
});
