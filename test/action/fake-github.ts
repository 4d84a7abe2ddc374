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
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { Ajv, type ValidateFunction } from "ajv";
import formatsModule from "ajv-formats";
import { schema as githubGraphqlSchema } from "@octokit/graphql-schema";
import {
  buildClientSchema,
  execute,
  parse as parseGraphql,
  validate as validateGraphql,
  type GraphQLSchema,
  type IntrospectionQuery,
} from "graphql";

/** The operations the action may call. Anything else is a violation. */
const OPERATIONS: readonly (readonly [method: string, template: string])[] = [
  ["post", "/repos/{owner}/{repo}/check-runs"],
  ["patch", "/repos/{owner}/{repo}/check-runs/{check_run_id}"],
  ["get", "/repos/{owner}/{repo}/commits/{ref}/check-runs"],
  ["get", "/repos/{owner}/{repo}/issues/{issue_number}/comments"],
  ["post", "/repos/{owner}/{repo}/issues/{issue_number}/comments"],
  ["patch", "/repos/{owner}/{repo}/issues/comments/{comment_id}"],
  ["delete", "/repos/{owner}/{repo}/issues/comments/{comment_id}"],
  ["get", "/repos/{owner}/{repo}/contents/{path}"],
  ["get", "/repos/{owner}/{repo}/commits"],
  ["get", "/user"],
  ["get", "/repos/{owner}/{repo}/pulls/{pull_number}"],
];

/** GitHub's documented sizes that the description states only in prose. */
export const LIMITS = {
  commentBody: 65_536,
  checkRunTitle: 1_024,
  annotationMessage: 64 * 1024,
  annotationTitle: 255,
} as const;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

interface ParamSpec {
  readonly name: string;
  readonly in: "path" | "query" | "header" | "cookie";
  readonly required: boolean;
  readonly schema: JsonObject;
  readonly multiSegment: boolean;
  readonly validate: ValidateFunction;
}

interface Operation {
  readonly method: string;
  readonly template: string;
  readonly operationId: string;
  readonly regex: RegExp;
  readonly pathNames: readonly string[];
  readonly params: readonly ParamSpec[];
  readonly body: ValidateFunction | null;
  readonly bodyRequired: boolean;
}

interface SpecIndex {
  readonly operations: readonly Operation[];
}

let specIndex: SpecIndex | null = null;

/** Loads the description once per test file (it is ~13 MB) and compiles only what we use. */
function loadSpec(): SpecIndex {
  if (specIndex) return specIndex;
  const require = createRequire(import.meta.url);
  const file = require.resolve("@octokit/openapi/generated/api.github.com.json");
  const spec = JSON.parse(readFileSync(file, "utf8")) as JsonObject;
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  formatsModule.default(ajv);
  const deref = (node: Json, seen: readonly string[] = []): Json => resolveRefs(spec, node, seen);
  const paths = spec["paths"] as JsonObject;
  const operations: Operation[] = [];
  for (const [method, template] of OPERATIONS) {
    const item = (paths[template] as JsonObject | undefined)?.[method] as JsonObject | undefined;
    if (!item)
      throw new Error(`fake-github: ${method.toUpperCase()} ${template} is not in the OpenAPI description`);
    const params: ParamSpec[] = [];
    for (const raw of (item["parameters"] as Json[] | undefined) ?? []) {
      const p = deref(raw) as JsonObject;
      const schema = (p["schema"] as JsonObject | undefined) ?? {};
      params.push({
        name: p["name"] as string,
        in: p["in"] as ParamSpec["in"],
        required: p["required"] === true,
        schema,
        multiSegment: p["x-multi-segment"] === true,
        validate: ajv.compile(schema),
      });
    }
    const pathNames: string[] = [];
    const pattern = template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      pathNames.push(name);
      const multi = params.some((p) => p.name === name && p.in === "path" && p.multiSegment);
      return multi ? "(.+)" : "([^/]+)";
    });
    const requestBody = item["requestBody"] ? (deref(item["requestBody"]) as JsonObject) : null;
    const content = requestBody?.["content"] as JsonObject | undefined;
    const jsonSchema = (content?.["application/json"] as JsonObject | undefined)?.["schema"] as
      JsonObject | undefined;
    operations.push({
      method: method.toUpperCase(),
      template,
      operationId: item["operationId"] as string,
      regex: new RegExp(`^${pattern}$`),
      pathNames,
      params,
      body: jsonSchema ? ajv.compile(jsonSchema) : null,
      bodyRequired: requestBody?.["required"] === true,
    });
  }
  specIndex = { operations };
  return specIndex;
}

let graphqlSchema: GraphQLSchema | null = null;

/** GitHub's GraphQL schema, built once per test file from its published introspection. */
function loadGraphqlSchema(): GraphQLSchema {
  graphqlSchema ??= buildClientSchema(githubGraphqlSchema.json as unknown as IntrospectionQuery);
  return graphqlSchema;
}

/** The operation id the fake records (and faults name) for POST /graphql. */
export const GRAPHQL = "graphql";

/** Inlines `$ref`s to `#/components/…`, leaving a reference in place if it would recurse. */
function resolveRefs(spec: JsonObject, node: Json, seen: readonly string[]): Json {
  if (Array.isArray(node)) return node.map((n) => resolveRefs(spec, n, seen));
  if (node === null || typeof node !== "object") return node;
  const ref = node["$ref"];
  if (typeof ref === "string") {
    if (seen.includes(ref)) return {};
    let target: Json = spec;
    for (const part of ref.replace(/^#\//, "").split("/")) {
      target = (target as JsonObject)[part.replace(/~1/g, "/").replace(/~0/g, "~")] ?? null;
    }
    if (target === null) throw new Error(`fake-github: unresolved $ref ${ref}`);
    return resolveRefs(spec, target, [...seen, ref]);
  }
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) out[k] = resolveRefs(spec, v, seen);
  return out;
}

export interface Identity {
  readonly login: string;
  readonly id: number;
  readonly type: "Bot" | "User";
  /** An installation token (GITHUB_TOKEN): GET /user is refused, as on GitHub. */
  readonly installation: boolean;
}

export const ACTIONS_BOT: Identity = {
  login: "github-actions[bot]",
  id: 41898282,
  type: "Bot",
  installation: true,
};

export interface Fault {
  readonly status: number;
  readonly message?: string;
  /** Send this body instead of GitHub's error JSON: `text` as is (with its content type), or `json`. */
  readonly body?: { readonly text: string; readonly contentType: string } | { readonly json: unknown };
  /** Extra response headers (e.g. `retry-after`, `x-ratelimit-remaining`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** GraphQL only: answer 200 with this `errors[].type` (e.g. "FORBIDDEN"), as GitHub refuses a field. */
  readonly graphqlErrorType?: string;
  /** How many requests get the fault; unlimited when omitted. */
  times?: number;
  /** Runs when the fault answers (e.g. the comment really is gone when the update answers 404). */
  readonly then?: () => void;
}

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly operationId: string | null;
  readonly query: Readonly<Record<string, string>>;
  readonly body: unknown;
  status: number;
  /** When it arrived (performance.now(), ms). */
  readonly at: number;
}

export interface StoredAnnotation {
  readonly path: string;
  readonly start_line: number;
  readonly end_line: number;
  readonly annotation_level: string;
  readonly message: string;
  readonly title?: string;
}

export interface StoredCheckRun {
  readonly id: number;
  name: string;
  readonly head_sha: string;
  /** The integrator's record (the action's run record, src/action/run-history.ts). */
  external_id: string | null;
  status: string;
  conclusion: string | null;
  output: { title: string | null; summary: string | null; text: string | null };
  readonly annotations: StoredAnnotation[];
  /** The number of create/update requests that carried annotations, for the 50-per-request rule. */
  annotationRequests: number;
}

export interface StoredComment {
  readonly id: number;
  readonly issue: number;
  body: string;
  readonly user: Identity;
  updates: number;
}

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

/** Successes whose body is not what GitHub documents, each with the status of the success it stands in for. */
/** Closes `server` now: open connections (keep-alive ones too) are dropped, not waited for. */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
}

export function malformedAnswers(status: number): readonly (readonly [name: string, fault: Fault])[] {
  return [
    [
      "an HTML page",
      {
        status,
        body: {
          text: "<!DOCTYPE html><html><body><h1>Sign in to the proxy</h1></body></html>",
          contentType: "text/html; charset=utf-8",
        },
      },
    ],
    ["garbage labelled JSON", { status, body: { text: '{"id": 12, "bo', contentType: "application/json" } }],
    ["plain text", { status, body: { text: "OK", contentType: "text/plain" } }],
    ["JSON null", { status, body: { json: null } }],
    ["a JSON array of something else", { status, body: { json: [{ id: "12" }] } }],
    ["JSON of another shape", { status, body: { json: { id: "12", message: "moved" } } }],
  ];
}

/** A body sent as is, with its own content type. */
class RawAnswer {
  constructor(
    readonly text: string,
    readonly contentType: string,
  ) {}
}

function answerFault(
  fault: Fault,
  send: (status: number, data: unknown, headers?: Record<string, string>) => void,
): void {
  const body = fault.body;
  const headers = { ...fault.headers };
  if (body === undefined)
    send(fault.status, { message: fault.message ?? defaultMessage(fault.status) }, headers);
  else if ("json" in body) send(fault.status, body.json, headers);
  else send(fault.status, new RawAnswer(body.text, body.contentType), headers);
}

/** Query and path values arrive as strings; coerce to the declared scalar type for validation. */
function coerce(value: string, schema: JsonObject): unknown {
  const type = schema["type"];
  if (type === "integer" || type === "number") return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  if (type === "boolean") return value === "true" ? true : value === "false" ? false : value;
  return value;
}

function ajvText(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .map(
      (e) =>
        `${e.instancePath || "(root)"} ${e.message ?? "invalid"}${e.params ? " " + JSON.stringify(e.params) : ""}`,
    )
    .join("; ");
}

function defaultMessage(status: number): string {
  if (status === 403) return "Resource not accessible by integration";
  if (status === 404) return "Not Found";
  if (status === 422) return "Validation Failed";
  if (status >= 500) return "Server Error";
  return "Error";
}

/** Limits GitHub enforces that the OpenAPI description only states in prose. */
function proseRules(operationId: string, body: unknown): string[] {
  const out: string[] = [];
  if (body === null || typeof body !== "object") return out;
  const b = body as JsonObject;
  if (operationId === "checks/create" || operationId === "checks/update") {
    if (b["status"] === "completed" && b["conclusion"] === undefined)
      out.push("a completed check run needs a conclusion");
    if (b["completed_at"] !== undefined && b["conclusion"] === undefined)
      out.push("completed_at needs a conclusion");
    const output = b["output"] as JsonObject | undefined;
    if (output) {
      const title = output["title"];
      if (typeof title === "string" && title.length > LIMITS.checkRunTitle)
        out.push(`output.title is ${title.length} characters`);
      if (output["title"] === undefined) out.push("output.title is required");
      for (const key of ["summary", "text"] as const) {
        const v = output[key];
        // JSON Schema maxLength counts code points; GitHub counts characters as JavaScript does.
        if (typeof v === "string" && v.length > 65_535)
          out.push(`output.${key} is ${v.length} characters (max 65535)`);
      }
      const annotations = output["annotations"];
      if (Array.isArray(annotations)) {
        annotations.forEach((a, i) => {
          const ann = a as JsonObject;
          const start = ann["start_line"] as number;
          const end = ann["end_line"] as number;
          if (start < 1) out.push(`annotations[${i}].start_line ${start} < 1`);
          if (end < start) out.push(`annotations[${i}].end_line < start_line`);
          if ((ann["start_column"] !== undefined || ann["end_column"] !== undefined) && start !== end)
            out.push(`annotations[${i}] has columns across lines`);
          const msg = ann["message"];
          if (typeof msg === "string" && Buffer.byteLength(msg) > LIMITS.annotationMessage)
            out.push(`annotations[${i}].message over 64 KB`);
          const t = ann["title"];
          if (typeof t === "string" && t.length > LIMITS.annotationTitle)
            out.push(`annotations[${i}].title over 255`);
          const path = ann["path"];
          if (
            typeof path === "string" &&
            (path.startsWith("/") || path.includes("\\") || path.split("/").includes(".."))
          )
            out.push(`annotations[${i}].path ${JSON.stringify(path)} is not a repository path`);
        });
      }
    }
  }
  if (operationId === "issues/create-comment" || operationId === "issues/update-comment") {
    const text = b["body"];
    if (typeof text === "string" && text.length > LIMITS.commentBody)
      out.push(`body is ${text.length} characters (max ${LIMITS.commentBody})`);
    if (typeof text === "string" && text.trim() === "") out.push("body is empty");
  }
  return out;
}

function addAnnotations(run: StoredCheckRun, output: JsonObject): void {
  const list = output["annotations"];
  if (!Array.isArray(list) || list.length === 0) return;
  run.annotationRequests += 1;
  for (const a of list) run.annotations.push(a as unknown as StoredAnnotation);
}

function userJson(u: Identity): JsonObject {
  return { login: u.login, id: u.id, node_id: `U_${u.id}`, type: u.type, site_admin: false };
}

function checkRunJson(run: StoredCheckRun, repoUrl: string): JsonObject {
  return {
    id: run.id,
    name: run.name,
    head_sha: run.head_sha,
    external_id: run.external_id,
    status: run.status,
    conclusion: run.conclusion,
    url: `${repoUrl}/check-runs/${run.id}`,
    html_url: `https://github.invalid/check-runs/${run.id}`,
    output: {
      title: run.output.title,
      summary: run.output.summary,
      text: run.output.text,
      annotations_count: run.annotations.length,
      annotations_url: `${repoUrl}/check-runs/${run.id}/annotations`,
    },
  };
}

function commentJson(c: StoredComment, repoUrl: string): JsonObject {
  return {
    id: c.id,
    node_id: `IC_${c.id}`,
    url: `${repoUrl}/issues/comments/${c.id}`,
    html_url: `https://github.invalid/issues/${c.issue}#issuecomment-${c.id}`,
    body: c.body,
    user: userJson(c.user),
    created_at: "2026-11-29T00:00:00Z",
    updated_at: "2026-11-29T00:00:00Z",
    issue_url: `${repoUrl}/issues/${c.issue}`,
    author_association: c.user.type === "Bot" ? "NONE" : "MEMBER",
  };
}
