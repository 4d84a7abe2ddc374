/**
 * The fake GitHub's parts (test/action/fake-github.ts): the operations it serves and GitHub's
 * OpenAPI description and GraphQL schema indexed for checking requests, the objects it stores, the
 * prose rules the description does not encode, and the JSON it answers with.
 */
import { Buffer } from "node:buffer";
import { readFileSync } from "node:fs";
import { type Server } from "node:http";
import { createRequire } from "node:module";
import { Ajv, type ValidateFunction } from "ajv";
import formatsModule from "ajv-formats";
import { schema as githubGraphqlSchema } from "@octokit/graphql-schema";
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";

/** The operations the action may call. Anything else is a violation. */
export const OPERATIONS: readonly (readonly [method: string, template: string])[] = [
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

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

export interface ParamSpec {
  readonly name: string;
  readonly in: "path" | "query" | "header" | "cookie";
  readonly required: boolean;
  readonly schema: JsonObject;
  readonly multiSegment: boolean;
  readonly validate: ValidateFunction;
}

export interface Operation {
  readonly method: string;
  readonly template: string;
  readonly operationId: string;
  readonly regex: RegExp;
  readonly pathNames: readonly string[];
  readonly params: readonly ParamSpec[];
  readonly body: ValidateFunction | null;
  readonly bodyRequired: boolean;
}

export interface SpecIndex {
  readonly operations: readonly Operation[];
}

let specIndex: SpecIndex | null = null;

/** Loads the description once per test file (it is ~13 MB) and compiles only what we use. */
export function loadSpec(): SpecIndex {
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
export function loadGraphqlSchema(): GraphQLSchema {
  graphqlSchema ??= buildClientSchema(githubGraphqlSchema.json as unknown as IntrospectionQuery);
  return graphqlSchema;
}

/** The operation id the fake records (and faults name) for POST /graphql. */
export const GRAPHQL = "graphql";

/** Inlines `$ref`s to `#/components/…`, leaving a reference in place if it would recurse. */
export function resolveRefs(spec: JsonObject, node: Json, seen: readonly string[]): Json {
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
export class RawAnswer {
  constructor(
    readonly text: string,
    readonly contentType: string,
  ) {}
}

export function answerFault(
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
export function coerce(value: string, schema: JsonObject): unknown {
  const type = schema["type"];
  if (type === "integer" || type === "number") return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  if (type === "boolean") return value === "true" ? true : value === "false" ? false : value;
  return value;
}

export function ajvText(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .map(
      (e) =>
        `${e.instancePath || "(root)"} ${e.message ?? "invalid"}${e.params ? " " + JSON.stringify(e.params) : ""}`,
    )
    .join("; ");
}

export function defaultMessage(status: number): string {
  if (status === 403) return "Resource not accessible by integration";
  if (status === 404) return "Not Found";
  if (status === 422) return "Validation Failed";
  if (status >= 500) return "Server Error";
  return "Error";
}

/** Limits GitHub enforces that the OpenAPI description only states in prose. */
export function proseRules(operationId: string, body: unknown): string[] {
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

export function addAnnotations(run: StoredCheckRun, output: JsonObject): void {
  const list = output["annotations"];
  if (!Array.isArray(list) || list.length === 0) return;
  run.annotationRequests += 1;
  for (const a of list) run.annotations.push(a as unknown as StoredAnnotation);
}

export function userJson(u: Identity): JsonObject {
  return { login: u.login, id: u.id, node_id: `U_${u.id}`, type: u.type, site_admin: false };
}

export function checkRunJson(run: StoredCheckRun, repoUrl: string): JsonObject {
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

export function commentJson(c: StoredComment, repoUrl: string): JsonObject {
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
