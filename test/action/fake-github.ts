/**
 * A loopback stand-in for the GitHub REST API, strict where GitHub is strict.
 *
 * Every request is checked against GitHub's own OpenAPI description (`@octokit/openapi`,
 * api.github.com.json): the method and path must match an operation the action is expected to
 * use, path and query parameters must have the declared types, unknown query parameters are
 * refused, and a JSON body must validate against the operation's request-body schema (ajv, with
 * `$ref`s to `components` resolved). A few limits GitHub enforces but the description only
 * states in prose (a completed check run needs a conclusion, a comment body is at most 65,536
 * characters, annotations need `start_line ≤ end_line`, …) are checked too. Anything the real
 * API would reject is recorded in `violations` (tests assert it stays empty) and answered 422.
 *
 * POST /graphql is answered too: every query is parsed and validated against GitHub's published
 * GraphQL schema (`@octokit/graphql-schema`, with graphql-js's `validate`); an invalid one is a
 * violation and gets GraphQL's `errors` answer, a valid one is executed against that schema over
 * what the fake knows (today: `viewer`, the token's identity).
 *
 * It keeps state (check runs with their annotations, issue comments with authors, files at
 * commits for the contents API, the commits that touched a path) and can be told to answer a
 * given operation with 403, 404, 422 or 5xx, or with a success whose body is not what GitHub
 * sends (an HTML page, garbage, JSON of another shape: `MALFORMED`), for a number of times or for
 * ever, or to hold the first requests of an operation until several have arrived (two runs
 * listing at once). A faulty answer changes no state.
 */
import { Buffer } from "node:buffer";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { execute, parse as parseGraphql, validate as validateGraphql } from "graphql";

import {
  ACTIONS_BOT,
  type Fault,
  GRAPHQL,
  type Identity,
  type JsonObject,
  type Operation,
  RawAnswer,
  type RecordedRequest,
  type StoredCheckRun,
  type StoredComment,
  addAnnotations,
  ajvText,
  answerFault,
  proseRules,
  checkRunJson,
  closeServer,
  coerce,
  commentJson,
  loadGraphqlSchema,
  loadSpec,
  userJson,
} from "./fake-github-parts.js";
export {
  ACTIONS_BOT,
  closeServer,
  GRAPHQL,
  LIMITS,
  malformedAnswers,
  type Fault,
  type Identity,
  type RecordedRequest,
  type StoredAnnotation,
  type StoredCheckRun,
  type StoredComment,
} from "./fake-github-parts.js";

export class FakeGitHub {
  readonly owner: string;
  readonly repo: string;
  readonly violations: string[] = [];
  readonly requests: RecordedRequest[] = [];
  readonly checkRuns: StoredCheckRun[] = [];
  readonly comments: StoredComment[] = [];
  /** token → identity; a request with an unknown token gets 401. */
  readonly tokens = new Map<string, Identity>();
  private readonly files = new Map<string, string | Buffer>();
  private readonly pulls = new Map<number, { headSha: string; baseSha: string; headRepo: string }>();
  private readonly commitsByPath = new Map<string, string[]>();
  private readonly faults = new Map<string, Fault[]>();
  private readonly holds = new Map<string, { count: number; rounds: number; waiting: (() => void)[] }>();
  private nextId = 1000;
  private server: Server | null = null;
  private url = "";

  constructor(repository = "acme/models") {
    const [owner, repo] = repository.split("/");
    if (!owner || !repo) throw new Error(`fake-github: bad repository ${repository}`);
    this.owner = owner;
    this.repo = repo;
    this.tokens.set("ghs_fake_installation_token", ACTIONS_BOT);
  }

  get baseUrl(): string {
    return this.url;
  }

  async start(): Promise<this> {
    loadSpec();
    const server = createServer((req, res) => {
      void this.handle(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    await closeServer(server);
    this.server = null;
  }

  /** Answer `operationId` (e.g. "checks/create") with an error status. */
  fail(operationId: string, fault: Fault): void {
    const list = this.faults.get(operationId) ?? [];
    list.push({ ...fault });
    this.faults.set(operationId, list);
  }

  clearFaults(): void {
    this.faults.clear();
    for (const hold of this.holds.values()) for (const release of hold.waiting.splice(0)) release();
    this.holds.clear();
  }

  /**
   * Hold the next requests of `operationId` unanswered until `count` of them have arrived, then
   * answer them all (in arrival order): two runs that list comments at the same moment. With
   * `rounds`, the next `count` are held together again, `rounds` times in all (runs that list
   * comments twice: their run history, then the comment to update).
   */
  holdTogether(operationId: string, count: number, rounds = 1): void {
    this.holds.set(operationId, { count, rounds, waiting: [] });
  }

  private async held(operationId: string): Promise<void> {
    const hold = this.holds.get(operationId);
    if (!hold) return;
    await new Promise<void>((resolve) => {
      hold.waiting.push(resolve);
      if (hold.waiting.length >= hold.count) {
        hold.rounds -= 1;
        if (hold.rounds <= 0) this.holds.delete(operationId);
        for (const release of hold.waiting.splice(0)) release();
      }
    });
  }

  /** A file as it is at `sha`, for the contents API. */
  setFile(sha: string, path: string, text: string | Buffer): void {
    this.files.set(`${sha}\u0000${path}`, text);
  }

  /** A pull request, for GET …/pulls/{number}. */
  setPullRequest(number: number, pr: { headSha: string; baseSha: string; headRepo?: string }): void {
    this.pulls.set(number, { headRepo: `${this.owner}/${this.repo}`, ...pr });
  }

  /** The commits (newest first) that touched `path` in the history of `sha`. */
  setCommits(sha: string, path: string, commits: readonly string[]): void {
    this.commitsByPath.set(`${sha}\u0000${path}`, [...commits]);
  }

  addComment(issue: number, body: string, user: Identity = ACTIONS_BOT): StoredComment {
    const c: StoredComment = { id: this.nextId++, issue, body, user, updates: 0 };
    this.comments.push(c);
    return c;
  }

  /** Requests the action made, as "METHOD operationId", in order. */
  calls(): string[] {
    return this.requests.map((r) => `${r.method} ${r.operationId ?? r.path}`);
  }

  private violation(req: RecordedRequest, what: string): void {
    this.violations.push(`${req.method} ${req.path}: ${what}`);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", this.url);
    const method = (req.method ?? "GET").toUpperCase();
    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) query[k] = v;
    const rec: RecordedRequest = {
      method,
      path: url.pathname,
      operationId: null,
      query,
      body: undefined,
      status: 0,
      at: performance.now(),
    };
    this.requests.push(rec);
    const send = (status: number, data: unknown, headers: Record<string, string> = {}): void => {
      rec.status = status;
      if (status === 204) {
        res.writeHead(204, headers);
        res.end();
        return;
      }
      if (data instanceof RawAnswer) {
        res.writeHead(status, { "content-type": data.contentType, ...headers });
        res.end(data.text);
        return;
      }
      // A Buffer is a raw body (the contents API's raw media type); anything else is JSON.
      if (Buffer.isBuffer(data)) {
        res.writeHead(status, { "content-type": "application/vnd.github.raw", ...headers });
        res.end(data);
        return;
      }
      const text = JSON.stringify(data);
      res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
      res.end(text);
    };
    try {
      if (method === "POST" && url.pathname === "/graphql") {
        (rec as { operationId: string | null }).operationId = GRAPHQL;
        this.graphql(rec, req, raw, send);
        return;
      }
      const { operations } = loadSpec();
      let op: Operation | undefined;
      let match: RegExpExecArray | null = null;
      for (const candidate of operations) {
        if (candidate.method !== method) continue;
        match = candidate.regex.exec(url.pathname);
        if (match) {
          op = candidate;
          break;
        }
      }
      if (!op || !match) {
        this.violation(rec, "no such operation among those the action may call");
        send(404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" });
        return;
      }
      (rec as { operationId: string | null }).operationId = op.operationId;

      const auth = req.headers.authorization ?? "";
      const identity = this.identityOf(req);
      if (!identity) {
        this.violation(
          rec,
          `unauthenticated request (authorization: ${auth === "" ? "none" : "unknown token"})`,
        );
        send(401, { message: "Bad credentials" });
        return;
      }

      const problems: string[] = [];
      const pathParams: Record<string, string> = {};
      op.pathNames.forEach((name, i) => {
        const value = decodeURIComponent(match[i + 1] ?? "");
        pathParams[name] = value;
      });
      for (const p of op.params) {
        if (p.in === "path") {
          const value = pathParams[p.name];
          if (value === undefined || value === "") problems.push(`path parameter ${p.name} is missing`);
          else if (!p.validate(coerce(value, p.schema)))
            problems.push(`path parameter ${p.name}=${JSON.stringify(value)}: ${ajvText(p.validate)}`);
        } else if (p.in === "query") {
          const value = query[p.name];
          if (value === undefined) {
            if (p.required) problems.push(`query parameter ${p.name} is required`);
          } else if (!p.validate(coerce(value, p.schema))) {
            problems.push(`query parameter ${p.name}=${JSON.stringify(value)}: ${ajvText(p.validate)}`);
          }
        }
      }
      for (const k of Object.keys(query)) {
        if (!op.params.some((p) => p.in === "query" && p.name === k))
          problems.push(`unknown query parameter ${k}`);
      }

      let body: unknown = undefined;
      if (raw.length > 0) {
        const type = req.headers["content-type"] ?? "";
        if (!type.startsWith("application/json")) problems.push(`body sent as ${type || "no content type"}`);
        try {
          body = JSON.parse(raw) as unknown;
        } catch {
          problems.push("body is not JSON");
        }
      }
      (rec as { body: unknown }).body = body;
      if (op.body) {
        if (body === undefined) {
          if (op.bodyRequired) problems.push("request body is required");
        } else if (!op.body(body)) {
          problems.push(`body: ${ajvText(op.body)}`);
        }
      } else if (body !== undefined && method === "GET") {
        problems.push("GET with a body");
      }
      problems.push(...proseRules(op.operationId, body));

      if (problems.length > 0) {
        for (const p of problems) this.violation(rec, p);
        send(422, { message: "Validation Failed", errors: problems });
        return;
      }
      if (
        pathParams["owner"] !== undefined &&
        (pathParams["owner"] !== this.owner || pathParams["repo"] !== this.repo)
      ) {
        send(404, { message: "Not Found" });
        return;
      }

      const fault = this.takeFault(op.operationId);
      if (fault) {
        answerFault(fault, send);
        return;
      }
      await this.held(op.operationId);
      this.route(
        op.operationId,
        pathParams,
        query,
        body as JsonObject,
        identity,
        send,
        req.headers.accept ?? "",
      );
    } catch (error) {
      this.violation(rec, `fake server crashed: ${String(error)}`);
      send(500, { message: "fake server crashed" });
    }
  }

  private takeFault(operationId: string): Fault | undefined {
    const fault = this.faults.get(operationId)?.find((f) => f.times === undefined || f.times > 0);
    if (fault?.times !== undefined) fault.times -= 1;
    fault?.then?.();
    return fault;
  }

  private identityOf(req: IncomingMessage): Identity | undefined {
    const auth = req.headers.authorization ?? "";
    const token = /^(?:token|Bearer) (.+)$/.exec(auth)?.[1];
    return token !== undefined ? this.tokens.get(token) : undefined;
  }

  /** POST /graphql: validate the query against GitHub's schema, then execute it over the fake's state. */
  private graphql(
    rec: RecordedRequest,
    req: IncomingMessage,
    raw: string,
    send: (status: number, data: unknown, headers?: Record<string, string>) => void,
  ): void {
    const identity = this.identityOf(req);
    if (!identity) {
      this.violation(rec, "unauthenticated GraphQL request");
      send(401, { message: "Bad credentials" });
      return;
    }
    let body: { query?: unknown; variables?: unknown; operationName?: unknown };
    try {
      body = JSON.parse(raw) as typeof body;
    } catch {
      this.violation(rec, "GraphQL body is not JSON");
      send(400, { message: "Problems parsing JSON" });
      return;
    }
    (rec as { body: unknown }).body = body;
    const extra = Object.keys(body).filter((k) => !["query", "variables", "operationName"].includes(k));
    if (typeof body.query !== "string" || extra.length > 0) {
      this.violation(
        rec,
        `GraphQL body must be {query, variables?}, got keys ${Object.keys(body).join(", ")}`,
      );
      send(400, { message: "A query attribute must be specified and must be a string." });
      return;
    }
    const schema = loadGraphqlSchema();
    let document;
    try {
      document = parseGraphql(body.query);
    } catch (error) {
      this.violation(rec, `GraphQL syntax: ${String(error)}`);
      send(200, { errors: [{ message: String(error) }] });
      return;
    }
    const errors = validateGraphql(schema, document);
    if (errors.length > 0) {
      for (const e of errors) this.violation(rec, `GraphQL: ${e.message}`);
      send(200, { errors: errors.map((e) => ({ message: e.message })) });
      return;
    }
    const fault = this.takeFault(GRAPHQL);
    if (fault) {
      if (fault.graphqlErrorType !== undefined)
        send(200, {
          data: null,
          errors: [
            {
              type: fault.graphqlErrorType,
              message: fault.message ?? "Resource not accessible by integration",
            },
          ],
        });
      else answerFault(fault, send);
      return;
    }
    const variables =
      body.variables !== null && typeof body.variables === "object"
        ? (body.variables as Record<string, unknown>)
        : undefined;
    const result = execute({
      schema,
      document,
      rootValue: { viewer: { login: identity.login, databaseId: identity.id } },
      ...(variables !== undefined ? { variableValues: variables } : {}),
    });
    if (result instanceof Promise) throw new Error("fake-github: GraphQL execution went async");
    if (result.errors !== undefined && result.errors.length > 0)
      this.violation(
        rec,
        `GraphQL asked for what the fake cannot answer: ${result.errors.map((e) => e.message).join("; ")}`,
      );
    send(200, {
      data: result.data ?? null,
      ...(result.errors ? { errors: result.errors.map((e) => ({ message: e.message })) } : {}),
    });
  }

  /** The comment `comment_id` names, when the token wrote it; else answers 404 or 403 and gives undefined. */
  private ownComment(
    params: Record<string, string>,
    identity: Identity,
    send: (status: number, data: unknown) => void,
  ): StoredComment | undefined {
    const c = this.comments.find((x) => x.id === Number(params["comment_id"]));
    if (!c) send(404, { message: "Not Found" });
    else if (c.user.login !== identity.login)
      send(403, { message: "Resource not accessible by integration" });
    else return c;
    return undefined;
  }

  private route(
    operationId: string,
    params: Record<string, string>,
    query: Record<string, string>,
    body: JsonObject,
    identity: Identity,
    send: (status: number, data: unknown, headers?: Record<string, string>) => void,
    accept = "",
  ): void {
    const repoUrl = `${this.url}/repos/${this.owner}/${this.repo}`;
    switch (operationId) {
      case "users/get-authenticated": {
        if (identity.installation) {
          send(403, { message: "Resource not accessible by integration" });
          return;
        }
        send(200, userJson(identity));
        return;
      }
      case "checks/create": {
        const output = (body["output"] as JsonObject | undefined) ?? {};
        const run: StoredCheckRun = {
          id: this.nextId++,
          name: body["name"] as string,
          head_sha: body["head_sha"] as string,
          external_id: (body["external_id"] as string | undefined) ?? null,
          status: (body["status"] as string | undefined) ?? (body["conclusion"] ? "completed" : "queued"),
          conclusion: (body["conclusion"] as string | undefined) ?? null,
          output: {
            title: (output["title"] as string | undefined) ?? null,
            summary: (output["summary"] as string | undefined) ?? null,
            text: (output["text"] as string | undefined) ?? null,
          },
          annotations: [],
          annotationRequests: 0,
        };
        addAnnotations(run, output);
        this.checkRuns.push(run);
        send(201, checkRunJson(run, repoUrl));
        return;
      }
      case "checks/update": {
        const run = this.checkRuns.find((r) => r.id === Number(params["check_run_id"]));
        if (!run) {
          send(404, { message: "Not Found" });
          return;
        }
        if (typeof body["name"] === "string") run.name = body["name"];
        if (typeof body["external_id"] === "string") run.external_id = body["external_id"];
        if (typeof body["status"] === "string") run.status = body["status"];
        if (typeof body["conclusion"] === "string") {
          run.conclusion = body["conclusion"];
          run.status = "completed";
        }
        const output = body["output"] as JsonObject | undefined;
        if (output) {
          if (typeof output["title"] === "string") run.output.title = output["title"];
          if (typeof output["summary"] === "string") run.output.summary = output["summary"];
          if (typeof output["text"] === "string") run.output.text = output["text"];
          addAnnotations(run, output);
        }
        send(200, checkRunJson(run, repoUrl));
        return;
      }
      case "checks/list-for-ref": {
        // As GitHub: `ref` is the commit here; `filter=latest` (the default) keeps only the most
        // recent check run of each name, `filter=all` every one; `check_name` matches exactly.
        const ref = params["ref"] ?? "";
        let runs = this.checkRuns.filter((r) => r.head_sha === ref);
        if (query["check_name"] !== undefined) runs = runs.filter((r) => r.name === query["check_name"]);
        if ((query["filter"] ?? "latest") === "latest")
          runs = runs.filter((r) => !runs.some((o) => o.name === r.name && o.id > r.id));
        // Newest first, as GitHub lists them.
        runs = [...runs].sort((a, b) => b.id - a.id);
        const perPage = Math.min(Number(query["per_page"] ?? "30"), 100);
        const page = Number(query["page"] ?? "1");
        const last = Math.max(1, Math.ceil(runs.length / perPage));
        const headers: Record<string, string> = {};
        const link = (p: number): string => {
          const q = new URLSearchParams({ ...query, per_page: String(perPage), page: String(p) });
          return `<${repoUrl}/commits/${ref}/check-runs?${q.toString()}>`;
        };
        if (page < last) headers["link"] = `${link(page + 1)}; rel="next", ${link(last)}; rel="last"`;
        send(
          200,
          {
            total_count: runs.length,
            check_runs: runs.slice((page - 1) * perPage, page * perPage).map((r) => checkRunJson(r, repoUrl)),
          },
          headers,
        );
        return;
      }
      case "issues/list-comments": {
        const issue = Number(params["issue_number"]);
        const all = this.comments.filter((c) => c.issue === issue);
        const perPage = Math.min(Number(query["per_page"] ?? "30"), 100);
        const page = Number(query["page"] ?? "1");
        const slice = all.slice((page - 1) * perPage, page * perPage);
        const last = Math.max(1, Math.ceil(all.length / perPage));
        const headers: Record<string, string> = {};
        const link = (p: number): string =>
          `<${repoUrl}/issues/${issue}/comments?per_page=${perPage}&page=${p}>`;
        const parts: string[] = [];
        if (page < last) parts.push(`${link(page + 1)}; rel="next"`, `${link(last)}; rel="last"`);
        if (page > 1) parts.push(`${link(1)}; rel="first"`, `${link(page - 1)}; rel="prev"`);
        if (parts.length > 0) headers["link"] = parts.join(", ");
        send(
          200,
          slice.map((c) => commentJson(c, repoUrl)),
          headers,
        );
        return;
      }
      case "issues/create-comment": {
        const c = this.addComment(Number(params["issue_number"]), body["body"] as string, identity);
        send(201, commentJson(c, repoUrl));
        return;
      }
      case "issues/update-comment": {
        const c = this.ownComment(params, identity, send);
        if (!c) return;
        c.body = body["body"] as string;
        c.updates += 1;
        send(200, commentJson(c, repoUrl));
        return;
      }
      case "issues/delete-comment": {
        const c = this.ownComment(params, identity, send);
        if (!c) return;
        this.comments.splice(this.comments.indexOf(c), 1);
        send(204, undefined);
        return;
      }
      case "repos/get-content": {
        const ref = query["ref"];
        const path = params["path"] ?? "";
        const text = ref !== undefined ? this.files.get(`${ref}\u0000${path}`) : undefined;
        if (text === undefined) {
          send(404, {
            message: "Not Found",
            documentation_url: "https://docs.github.com/rest/repos/contents#get-repository-content",
          });
          return;
        }
        // `Accept: application/vnd.github.raw` (Octokit's mediaType format "raw"): the bytes.
        if (/application\/vnd\.github(?:\.v3)?\.raw/.test(accept)) {
          send(200, Buffer.from(text));
          return;
        }
        const b64 = Buffer.from(text).toString("base64").replace(/.{60}/g, "$&\n");
        const name = path.split("/").pop() ?? path;
        send(200, {
          type: "file",
          encoding: "base64",
          size: Buffer.byteLength(text),
          name,
          path,
          content: b64,
          sha: "0".repeat(40),
          url: `${repoUrl}/contents/${path}`,
          git_url: null,
          html_url: null,
          download_url: null,
          _links: { self: `${repoUrl}/contents/${path}`, git: null, html: null },
        });
        return;
      }
      case "pulls/get": {
        const n = Number(params["pull_number"]);
        const pr = this.pulls.get(n);
        if (!pr) {
          send(404, { message: "Not Found" });
          return;
        }
        const side = (sha: string, ref: string, full: string) => ({
          sha,
          ref,
          label: `${full.split("/")[0] ?? ""}:${ref}`,
          repo: { full_name: full, name: full.split("/")[1] ?? "" },
        });
        send(200, {
          number: n,
          state: "open",
          url: `${repoUrl}/pulls/${n}`,
          head: side(pr.headSha, "tune", pr.headRepo),
          base: side(pr.baseSha, "main", `${this.owner}/${this.repo}`),
        });
        return;
      }
      case "repos/list-commits": {
        const sha = query["sha"];
        const path = query["path"];
        const list =
          sha !== undefined && path !== undefined
            ? (this.commitsByPath.get(`${sha}\u0000${path}`) ?? [])
            : [];
        const perPage = Math.min(Number(query["per_page"] ?? "30"), 100);
        send(
          200,
          list.slice(0, perPage).map((s) => ({
            sha: s,
            node_id: `C_${s}`,
            url: `${repoUrl}/commits/${s}`,
            html_url: `https://github.invalid/${this.owner}/${this.repo}/commit/${s}`,
            commit: { message: `commit ${s}` },
          })),
        );
        return;
      }
      default:
        send(404, { message: "Not Found" });
    }
  }
}
