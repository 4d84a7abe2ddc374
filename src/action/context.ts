/**
 * What the action needs from the workflow run: the repository, and on a pull request its number,
 * base and head commits and whether it comes from a fork; on `merge_group` the group's base and
 * head commits; on `workflow_run` the commit the run was for and the pull requests GitHub listed
 * (only candidates: src/action/workflow-run.ts confirms one with the API). Read from the environment and the event
 * payload file directly (not @actions/github's context, which reads them at import time), so tests
 * and local runs control it with plain variables.
 *
 * The event's name says what its payload must hold, and a payload without it stops the run with
 * an error naming the file and the field: on a pull request the base commit's policy decides, so
 * a pull request whose base is unknown must never fall back to the checkout's (its own) policy.
 * Events that take nothing from the payload (push, schedule, workflow_dispatch, …) only need it
 * to be an object when there is one.
 */
import { closeSync, readSync, statSync } from "node:fs";
import { z } from "zod";
import { InputError } from "../core/errors.js";
import { EVENT_PAYLOAD_MAX_BYTES } from "../core/report/github-limits.js";
import { describeFsCode, NotRegularFileError, openRegularFileSync } from "../io/file-kind.js";

export interface PullRequestInfo {
  readonly number: number;
  readonly baseSha: string;
  readonly headSha: string;
  /** The head branch lives in another repository: GITHUB_TOKEN is read-only there. */
  readonly fork: boolean;
}

/** A merge queue's group: the queued change's policy decides nothing, the base's does. */
export interface MergeGroupInfo {
  readonly baseSha: string;
  readonly headSha: string;
}

/** The `workflow_run` that triggered this one (the secure fork pattern's benchmark run). */
export interface WorkflowRunInfo {
  /** The commit the triggering run ran on: the check run goes there. */
  readonly headSha: string;
  /** Numbers from `workflow_run.pull_requests` at that commit (empty for forks). Unconfirmed. */
  readonly pullRequests: readonly number[];
}

export interface RunContext {
  readonly eventName: string;
  /** owner/repo from GITHUB_REPOSITORY; null when unset (a local run). */
  readonly repo: { readonly owner: string; readonly repo: string } | null;
  /**
   * The commit the check run is attached to: the PR head, the merge group head, the workflow_run
   * head, else GITHUB_SHA; null when unknown.
   */
  readonly sha: string | null;
  /** On workflow_run, set only once confirmed by the API (src/action/workflow-run.ts). */
  readonly pullRequest: PullRequestInfo | null;
  readonly mergeGroup: MergeGroupInfo | null;
  readonly workflowRun: WorkflowRunInfo | null;
  readonly workspace: string;
  readonly runnerTemp: string | null;
  readonly apiUrl: string;
  /** What the log must say about the event (one warning each). */
  readonly warnings: readonly string[];
}

/** A full commit id: 40 (SHA-1) or 64 (SHA-256) hex digits. */
export const COMMIT_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

type Env = Readonly<Record<string, string | undefined>>;

const NOT_A_COMMIT = "is not a commit id";
const Sha = z.string({ error: NOT_A_COMMIT }).regex(COMMIT_SHA, { error: NOT_A_COMMIT });
const Count = z
  .number({ error: "is not a pull request number" })
  .int({ error: "is not a pull request number" })
  .min(1, { error: "is not a pull request number" })
  .max(Number.MAX_SAFE_INTEGER, { error: "is not a pull request number" });
/** `head.repo` is null when the fork was deleted. */
const RepoRef = z.object({ full_name: z.string({ error: "is not a repository name" }) }).nullish();

/** The fields used of the payload of each kind of event (GitHub's payloads hold more; only these are read). */
const PullRequestPayload = z.object({
  pull_request: z.object({
    number: Count,
    base: z.object({ sha: Sha, repo: RepoRef }),
    head: z.object({ sha: Sha, repo: RepoRef }),
  }),
});
const MergeGroupPayload = z.object({ merge_group: z.object({ base_sha: Sha, head_sha: Sha }) });
const WorkflowRunPayload = z.object({
  workflow_run: z.object({
    head_sha: Sha,
    pull_requests: z.array(
      z.object({
        number: Count,
        head: z.object({ sha: z.string({ error: "is not a commit id" }) }).optional(),
      }),
      { error: "is not a list" },
    ),
  }),
});

/** Events whose payload carries the pull request (with its base and head) at `pull_request`. */
const PULL_REQUEST_EVENTS = new Set([
  "pull_request",
  "pull_request_target",
  "pull_request_review",
  "pull_request_review_comment",
  "pull_request_review_thread",
]);

/** Why each kind of event needs its fields, for the error that says one is missing. */
function needs(eventName: string): string {
  if (eventName === "merge_group")
    return "In a merge queue the policy at the group's base commit decides, so the gate cannot run without it.";
  if (eventName === "workflow_run")
    return "On workflow_run the results are for that run's commit and the pull request is confirmed against it, so the gate cannot run without it.";
  return "On a pull request the policy at its base commit decides, so the gate cannot run without it.";
}

function jsonKind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

function fieldName(path: readonly PropertyKey[]): string {
  return path
    .map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`))
    .join("");
}

/** The value at `path` in `v`, undefined when any step is missing. */
function at(v: unknown, path: readonly PropertyKey[]): unknown {
  let cur = v;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/** The payload's fields for `schema`, or an InputError naming the file, the field and why it is needed. */
function payloadFields<T>(
  schema: z.ZodType<T>,
  payload: Record<string, unknown>,
  eventName: string,
  eventPath: string,
): T {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path ?? [];
  const field = fieldName(path);
  const problem =
    at(payload, path) === undefined
      ? `has no ${field}`
      : issue?.code === "invalid_type" && !/^is /.test(issue.message)
        ? `has ${field} that is not ${issue.expected === "object" ? "an object" : `a ${issue.expected}`}`
        : `has ${field} that ${issue?.message ?? "is not usable"}`;
  throw new InputError(
    `GITHUB_EVENT_PATH ${eventPath}: the ${eventName} event payload ${problem}. ${needs(eventName)}`,
  );
}

class PayloadTooLargeError extends Error {}

/** The file as UTF-8, refused as soon as it passes `max` bytes (a file can grow while read). */
function readCapped(fd: number, max: number): string {
  const chunks: Buffer[] = [];
  let total = 0;
  const buf = Buffer.alloc(64 * 1024);
  for (;;) {
    const n = readSync(fd, buf, 0, buf.length, null);
    if (n === 0) break;
    total += n;
    if (total > max) throw new PayloadTooLargeError();
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks, total).toString("utf8");
}

/** The event payload file as a JSON object, or null when there is none (GITHUB_EVENT_PATH unset). */
function readPayload(eventPath: string | undefined): Record<string, unknown> | null {
  if (eventPath === undefined || eventPath === "") return null;
  let text: string;
  try {
    // A FIFO or device there must not hang or flood the step: regular files only.
    const fd = openRegularFileSync(eventPath);
    try {
      text = readCapped(fd, EVENT_PAYLOAD_MAX_BYTES);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    const why =
      error instanceof NotRegularFileError
        ? `it is ${error.kind}`
        : error instanceof PayloadTooLargeError
          ? `it is larger than ${EVENT_PAYLOAD_MAX_BYTES} bytes, GitHub's largest event payload`
          : describeFsCode(error);
    throw new InputError(`GITHUB_EVENT_PATH ${eventPath} cannot be read (${why}).`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InputError(`GITHUB_EVENT_PATH ${eventPath} is not JSON.`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new InputError(
      `GITHUB_EVENT_PATH ${eventPath} holds ${jsonKind(value)}, not an event payload (a JSON object).`,
    );
  return value as Record<string, unknown>;
}

export function readRunContext(env: Env, cwd: string): RunContext {
  const eventName = env["GITHUB_EVENT_NAME"] ?? "";
  const eventPath = env["GITHUB_EVENT_PATH"] ?? "";
  const payload = readPayload(eventPath);
  const repository = env["GITHUB_REPOSITORY"] ?? "";
  const m = /^([^/\s]+)\/([^/\s]+)$/.exec(repository);
  const repo = m?.[1] !== undefined && m[2] !== undefined ? { owner: m[1], repo: m[2] } : null;

  const needsPayload =
    PULL_REQUEST_EVENTS.has(eventName) || eventName === "merge_group" || eventName === "workflow_run";
  if (needsPayload && payload === null)
    throw new InputError(
      `GITHUB_EVENT_PATH is not set, so the ${eventName} event's payload cannot be read. ${needs(eventName)}`,
    );
  if (eventName === "" && payload !== null) {
    const kind = ["pull_request", "merge_group", "workflow_run"].find((k) => payload[k] !== undefined);
    if (kind !== undefined)
      throw new InputError(
        `GITHUB_EVENT_NAME is not set, but the event payload GITHUB_EVENT_PATH ${eventPath} has ${kind}: ` +
          "set GITHUB_EVENT_NAME to the event that wrote it, so that the gate knows which policy decides.",
      );
  }

  let pullRequest: PullRequestInfo | null = null;
  let mergeGroup: MergeGroupInfo | null = null;
  let workflowRun: WorkflowRunInfo | null = null;
  if (payload !== null && PULL_REQUEST_EVENTS.has(eventName)) {
    const pr = payloadFields(PullRequestPayload, payload, eventName, eventPath).pull_request;
    const baseName = pr.base.repo?.full_name ?? repository;
    const headName = pr.head.repo?.full_name ?? null;
    pullRequest = {
      number: pr.number,
      baseSha: pr.base.sha,
      headSha: pr.head.sha,
      // A deleted fork has head.repo null: treat it as a fork (its token is read-only too).
      fork: headName === null || headName.toLowerCase() !== baseName.toLowerCase(),
    };
  } else if (payload !== null && eventName === "merge_group") {
    const group = payloadFields(MergeGroupPayload, payload, eventName, eventPath).merge_group;
    mergeGroup = { baseSha: group.base_sha, headSha: group.head_sha };
  } else if (payload !== null && eventName === "workflow_run") {
    const run = payloadFields(WorkflowRunPayload, payload, eventName, eventPath).workflow_run;
    // GitHub lists the open PRs whose head branch is the run's; keep those at the run's commit.
    const pullRequests = run.pull_requests
      .filter((p) => p.head === undefined || p.head.sha === run.head_sha)
      .map((p) => p.number);
    workflowRun = { headSha: run.head_sha, pullRequests };
  }
  const warnings: string[] = [];
  if (!needsPayload && eventName !== "" && payload !== null) {
    const issue = payload["issue"];
    const onIssuePullRequest =
      issue !== null &&
      typeof issue === "object" &&
      (issue as Record<string, unknown>)["pull_request"] != null;
    const notGated =
      "the checked-out policy decides, the check run goes on GITHUB_SHA and no comment is posted. " +
      "To gate the pull request under its base branch's policy, run on pull_request, pull_request_target or workflow_run.";
    // GitHub sends a top-level pull_request only with the pull request events: another event
    // name with one is a hand-made or mislabelled payload, read as the event it names.
    if (payload["pull_request"] !== undefined)
      warnings.push(
        `The ${eventName} event's payload GITHUB_EVENT_PATH ${eventPath} has a pull_request, but only pull request ` +
          `events are gated as pull requests: ${notGated}`,
      );
    else if (onIssuePullRequest)
      warnings.push(
        `This ${eventName} event is on a pull request, but its payload does not name the pull request's base commit: ${notGated}`,
      );
  }
  const workspace = env["GITHUB_WORKSPACE"];
  if (workspace !== undefined && workspace !== "") {
    let why: string | null = null;
    try {
      if (!statSync(workspace).isDirectory()) why = "not a directory";
    } catch (error) {
      why = describeFsCode(error);
    }
    if (why !== null)
      throw new InputError(
        `GITHUB_WORKSPACE ${workspace} cannot be used (${why}): the action's inputs are paths in the workspace. ` +
          "Run actions/checkout before this step, and do not delete the workspace.",
      );
  }
  const envSha = env["GITHUB_SHA"];
  const runSha =
    pullRequest?.headSha ??
    mergeGroup?.headSha ??
    workflowRun?.headSha ??
    (envSha !== undefined && COMMIT_SHA.test(envSha) ? envSha : null);
  return {
    eventName,
    repo,
    sha: runSha,
    pullRequest,
    mergeGroup,
    workflowRun,
    workspace: env["GITHUB_WORKSPACE"] || cwd,
    runnerTemp: env["RUNNER_TEMP"] || null,
    apiUrl: (env["GITHUB_API_URL"] || "https://api.github.com").replace(/\/+$/, ""),
    warnings,
  };
}
