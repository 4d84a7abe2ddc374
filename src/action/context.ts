/**
 * What the action needs from the workflow run: the repository, and on a pull request its number,
 * base and head commits and whether it comes from a fork; on `merge_group` the group's base and
 * head commits; on `workflow_run` the commit the run was for and the pull requests GitHub listed
 * (only candidates: src/action/workflow-run.ts confirms one with the API). Read from the environment and the event
 * payload file directly (not @actions/github's context, which reads them at import time), so tests
 * and local runs control it with plain variables.
 */
import { closeSync, readSync, statSync } from "node:fs";
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
}

/** A full commit id: 40 (SHA-1) or 64 (SHA-256) hex digits. */
export const COMMIT_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

type Env = Readonly<Record<string, string | undefined>>;

function obj(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

function sha(v: unknown, what: string): string {
  if (typeof v === "string" && COMMIT_SHA.test(v)) return v;
  throw new InputError(`The event payload's ${what} is not a commit id (${JSON.stringify(v)}).`);
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

export function readRunContext(env: Env, cwd: string): RunContext {
  const eventName = env["GITHUB_EVENT_NAME"] ?? "";
  let payload: Record<string, unknown> = {};
  const eventPath = env["GITHUB_EVENT_PATH"];
  if (eventPath !== undefined && eventPath !== "") {
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
    try {
      payload = obj(JSON.parse(text)) ?? {};
    } catch {
      throw new InputError(`GITHUB_EVENT_PATH ${eventPath} is not JSON.`);
    }
  }
  const repository = env["GITHUB_REPOSITORY"] ?? "";
  const m = /^([^/\s]+)\/([^/\s]+)$/.exec(repository);
  const repo = m?.[1] !== undefined && m[2] !== undefined ? { owner: m[1], repo: m[2] } : null;

  let pullRequest: PullRequestInfo | null = null;
  const pr = obj(payload["pull_request"]);
  if (pr) {
    const base = obj(pr["base"]);
    const head = obj(pr["head"]);
    const number = pr["number"] ?? payload["number"];
    if (typeof number !== "number" || !Number.isInteger(number) || number < 1)
      throw new InputError(`The event payload's pull_request.number is not a pull request number.`);
    const baseRepo = obj(base?.["repo"]);
    const headRepo = obj(head?.["repo"]);
    const baseName = typeof baseRepo?.["full_name"] === "string" ? baseRepo["full_name"] : repository;
    const headName = typeof headRepo?.["full_name"] === "string" ? headRepo["full_name"] : null;
    pullRequest = {
      number,
      baseSha: sha(base?.["sha"], "pull_request.base.sha"),
      headSha: sha(head?.["sha"], "pull_request.head.sha"),
      // A deleted fork has head.repo null: treat it as a fork (its token is read-only too).
      fork: headName === null || headName.toLowerCase() !== baseName.toLowerCase(),
    };
  }
  let mergeGroup: MergeGroupInfo | null = null;
  let workflowRun: WorkflowRunInfo | null = null;
  if (pullRequest === null && eventName === "merge_group") {
    const group = obj(payload["merge_group"]);
    if (group === null) throw new InputError("The merge_group event payload has no merge_group object.");
    mergeGroup = {
      baseSha: sha(group["base_sha"], "merge_group.base_sha"),
      headSha: sha(group["head_sha"], "merge_group.head_sha"),
    };
  }
  if (pullRequest === null && eventName === "workflow_run") {
    const run = obj(payload["workflow_run"]);
    if (run === null) throw new InputError("The workflow_run event payload has no workflow_run object.");
    const headSha = sha(run["head_sha"], "workflow_run.head_sha");
    const listed: unknown[] = Array.isArray(run["pull_requests"]) ? (run["pull_requests"] as unknown[]) : [];
    const pullRequests: number[] = [];
    for (const entry of listed) {
      const e = obj(entry);
      const n = e?.["number"];
      // GitHub lists the open PRs whose head branch is the run's; keep those at the run's commit.
      const at = obj(e?.["head"])?.["sha"];
      if (typeof n === "number" && Number.isSafeInteger(n) && n >= 1 && (at === undefined || at === headSha))
        pullRequests.push(n);
    }
    workflowRun = { headSha, pullRequests };
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
  };
}
