/**
 * The fault tests' servers: the loopback fake GitHub and, in front of it, a proxy that can drop a
 * connection without answering — before forwarding (GitHub never saw the call) or after (GitHub
 * did the work, the answer was lost) — or replace the body of an error the fake answered with
 * the full JSON GitHub sends. Used by fault-paths.test.ts (the modules) and
 * fault-paths-bundle.test.ts (the committed bundle behind the proxy).
 */
import { Buffer } from "node:buffer";
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import type { Octokit } from "../../src/action/github-api.js";
import { createRecordingLogger, type RecordingLogger } from "../../src/action/logger.js";
import { policyYaml } from "./exports.js";
import { closeServer, FakeGitHub, type Identity } from "./fake-github.js";
import { DELIVERED_NOTE, fastRetry, octokitAt, octokitFor } from "./helpers.js";
import { BASE_SHA, cleanupRuns, POLICY_PATH } from "./run-action.js";

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
export class DroppingProxy {
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

export let fake: FakeGitHub;
export let proxy: DroppingProxy;

/** Starts the fake GitHub and the proxy in front of it for the calling test file, and checks every call. */
export function useFaultServers(): void {
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
}

export const DIGEST = "a".repeat(64);

export function viaProxy(log?: RecordingLogger): Octokit {
  return octokitAt(proxy.baseUrl, log !== undefined ? { log } : {});
}

/** The comment calls' dependencies, through the proxy or straight to the fake. */
export function commentDeps(via: "proxy" | "fake" = "fake") {
  const log = createRecordingLogger();
  const octokit = via === "proxy" ? viaProxy(log) : octokitFor(fake, undefined, log);
  return { octokit, retry: fastRetry(), log, fork: false, delivered: DELIVERED_NOTE };
}

/** The client's failed tries, from its debug lines: "GET /repos/{owner}/{repo}/commits try 1". */
export function failedTries(log: RecordingLogger): string[] {
  return log.lines
    .filter((l) => l.level === "debug")
    .map((l) => /^(\S+ \S+): (?:no answer|GitHub answered \d+) \(.*\) on try (\d+)$/.exec(l.message))
    .filter((m) => m !== null)
    .map((m) => `${m[1]} try ${m[2]}`);
}

/** The tries of a comment write after listing again (the upsert's own retries). */
export function writeRetries(log: RecordingLogger): string[] {
  return log.lines
    .map((l) => /listing again before (try \d+)$/.exec(l.message)?.[1])
    .filter((m) => m !== undefined);
}

export const ALICE: Identity = { login: "alice", id: 7, type: "User", installation: false };

/** The JSON GitHub answers when it refuses a comment body (422), as the proxy sends it. */
export const COMMENT_422 = {
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
