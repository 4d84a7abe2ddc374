/**
 * Shared pieces of the action tests: the action's own Octokit (retry and throttling plugins) aimed
 * at the fake GitHub with waits of a millisecond, one fake GitHub shared by a file's in-process
 * tests, and a git repository to test the `git show` / `git log` fallbacks.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { getOctokit } from "@actions/github";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { createOctokit, type Octokit, type RetrySettings } from "../../src/action/github-api.js";
import { createRecordingLogger, type Logger } from "../../src/action/logger.js";
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
