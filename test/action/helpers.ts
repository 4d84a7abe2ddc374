/**
 * Shared pieces of the action tests: the action's own Octokit (retry and throttling plugins) aimed
 * at the fake GitHub with waits of a millisecond, one fake GitHub shared by a file's in-process
 * tests, a git repository to test the `git show` / `git log` fallbacks, and the sticky comment
 * and check run requests the in-process tests send.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { getOctokit } from "@actions/github";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { createOctokit, type Octokit, type RetrySettings } from "../../src/action/github-api.js";
import type { CheckRunAnnotation, CheckRunSpec } from "../../src/action/check-run.js";
import { createRecordingLogger, type Logger, type RecordingLogger } from "../../src/action/logger.js";
import { ACTIONS_BOT_LOGIN, commentHeader, type UpsertRequest } from "../../src/action/sticky-comment.js";
import { FakeGitHub } from "./fake-github.js";

export const INSTALLATION_TOKEN = "ghs_fake_installation_token";

/** The action's retry settings with waits of a millisecond (retry n waits n² ms) and no pacing of writes. */
export function fastRetry(): RetrySettings {
  return { retries: 2, baseDelayMs: 1, writeSpacingMs: 0 };
}

/** The action's Octokit for `baseUrl` (the fake GitHub, or a proxy in front of it). */
export function octokitAt(
  baseUrl: string,
  opts: { token?: string; retry?: RetrySettings; log?: Logger } = {},
): Octokit {
  return createOctokit(getOctokit, opts.token ?? INSTALLATION_TOKEN, {
    baseUrl,
    // Plain fetch: no proxy agent, loopback only.
    fetch: globalThis.fetch,
    retry: opts.retry ?? fastRetry(),
    log: opts.log ?? createRecordingLogger(),
  });
}

export function octokitFor(fake: FakeGitHub, token = INSTALLATION_TOKEN, log?: Logger): Octokit {
  return octokitAt(fake.baseUrl, { token, ...(log !== undefined ? { log } : {}) });
}

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.invalid",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.invalid",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

export function git(dir: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd: dir, env: GIT_ENV, encoding: "utf8" }).trim();
}

/** Writes the files, commits them and returns the new commit id. */
export function commitFiles(
  dir: string,
  files: Readonly<Record<string, string>>,
  message = "commit",
): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
    git(dir, "add", "--", path);
  }
  git(dir, "commit", "-q", "-m", message);
  return git(dir, "rev-parse", "HEAD");
}

export function initRepo(dir: string): void {
  git(dir, "init", "-q", "-b", "main");
}

/**
 * One fake GitHub for a whole test file of in-process calls, and temporary directories removed
 * after it: each test ends with no request GitHub would reject, and leaves no fault or request
 * record to the next. `fake` is there from the file's beforeAll on.
 */
export function useSharedFakeGitHub(tempPrefix: string): { readonly fake: FakeGitHub; tempDir(): string } {
  let fake: FakeGitHub | undefined;
  const dirs: string[] = [];
  beforeAll(async () => {
    fake = await new FakeGitHub("acme/models").start();
  });
  afterAll(async () => {
    await fake?.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  afterEach(() => {
    expect(fake?.violations).toEqual([]);
    fake?.clearFaults();
    fake?.requests.splice(0);
  });
  return {
    get fake(): FakeGitHub {
      if (fake === undefined) throw new Error("useSharedFakeGitHub: the fake GitHub starts in beforeAll");
      return fake;
    },
    tempDir(): string {
      const d = realpathSync(mkdtempSync(join(tmpdir(), tempPrefix)));
      dirs.push(d);
      return d;
    },
  };
}

/** The note the comment and check run calls are given on where else the verdict went. */
export const DELIVERED_NOTE = "The verdict is in the job summary and the step outputs.";

/** The warnings a recording logger received, in order. */
export function warnings(log: RecordingLogger): string[] {
  return log.lines.filter((l) => l.level === "warning").map((l) => l.message);
}

export const GATE_KEY = "Model acceptance gate";

/** A sticky comment body as the action writes it: the header (key and digest), then the text. */
export function commentBody(digest: string, text = "verdict", key = GATE_KEY): string {
  return `${commentHeader(key, digest)}\n## ${text}\n`;
}

/** A comment upsert on PR 7 of acme/models; the body follows `over.digest` and `over.key`. */
export function upsertRequest(over: Partial<UpsertRequest> = {}): UpsertRequest {
  const digest = over.digest ?? "a".repeat(64);
  const key = over.key ?? GATE_KEY;
  return {
    owner: "acme",
    repo: "models",
    issueNumber: 7,
    body: commentBody(digest, "verdict", key),
    digest,
    mode: "always",
    key,
    author: { login: ACTIONS_BOT_LOGIN, id: null },
    ...over,
  };
}

export const CHECK_SHA = "c".repeat(40);

/** A successful check run on CHECK_SHA of acme/models, with no annotations. */
export function checkRunSpec(over: Partial<CheckRunSpec> = {}): CheckRunSpec {
  return {
    owner: "acme",
    repo: "models",
    name: "Model gate",
    headSha: CHECK_SHA,
    conclusion: "success",
    title: "Accept",
    summary: "## accept",
    annotations: [],
    ...over,
  };
}

/** `n` failure annotations on lines 1 … n of gate/policy.yaml, "problem 1" … "problem n". */
export function policyAnnotations(n: number): CheckRunAnnotation[] {
  return Array.from({ length: n }, (_, i) => ({
    path: "gate/policy.yaml",
    start_line: i + 1,
    end_line: i + 1,
    annotation_level: "failure",
    message: `problem ${i + 1}`,
  }));
}
