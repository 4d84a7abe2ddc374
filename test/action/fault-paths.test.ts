/**
 * GitHub API faults that RELIABILITY.md listed as untested: a 422 actually returned on the sticky
 * comment update and on the check run's create and update, a connection dropped mid-call on a
 * comment create, and a 404 on listing comments.
 *
 * A dropped connection is made by a loopback proxy in front of the fake GitHub: it forwards every
 * request (so the fake still validates and records it) except those it is told to drop, whose
 * socket it destroys without an answer — either before forwarding (GitHub never saw the call) or
 * after (GitHub did the work, the answer was lost).
 */
import { Buffer } from "node:buffer";
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { publishCheckRun, type CheckRunAnnotation, type CheckRunSpec } from "../../src/action/check-run.js";
import type { Octokit } from "../../src/action/github-api.js";
import { createRecordingLogger } from "../../src/action/logger.js";
import {
  ACTIONS_BOT_LOGIN,
  digestLine,
  upsertStickyComment,
  type UpsertRequest,
} from "../../src/action/sticky-comment.js";
import { COMMENT_MARKER } from "../../src/core/report/escape.js";
import { FakeGitHub } from "./fake-github.js";
import { fastRetry, INSTALLATION_TOKEN, octokitFor } from "./helpers.js";
import { getOctokit } from "@actions/github";

interface DropRule {
  readonly method: string;
  readonly path: RegExp;
  /** "before": the request never reaches GitHub; "after": GitHub handles it, the answer is lost. */
  readonly when: "before" | "after";
  /** How many matching requests are dropped; all of them when omitted. */
  times?: number;
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
              const out: Record<string, string | string[]> = {};
              for (const [k, v] of Object.entries(up.headers)) {
                if (v === undefined || ["connection", "transfer-encoding", "content-length"].includes(k))
                  continue;
                out[k] = v;
              }
              res.writeHead(up.statusCode ?? 502, out);
              res.end(Buffer.concat(body));
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

  reset(): void {
    this.rules.length = 0;
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

beforeAll(async () => {
  fake = await new FakeGitHub("acme/models").start();
  proxy = await new DroppingProxy(fake).start();
});
afterAll(async () => {
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
