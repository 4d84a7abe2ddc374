/**
 * Reads a file's versions from git for the policy log (src/core/history/policy-log.ts): the thin
 * shell around `git`, run as a child process with fixed arguments (never a shell). Output is
 * parsed from NUL-separated fields (`-z`), so no path, name or subject can split a record; all of
 * it is untrusted text for the caller to escape.
 */
import { execFile } from "node:child_process";
import type { PolicyVersion } from "../core/history/policy-log.js";
import { InputError } from "../core/errors.js";
import { decodePolicyText } from "../core/policy/policy-bytes.js";

export interface GitOutput {
  readonly code: number;
  readonly stdout: Buffer;
  readonly stderr: string;
}

export type Git = (args: readonly string[], cwd: string) => Promise<GitOutput>;

/** At most this many commits are read (the newest). */
export const MAX_POLICY_COMMITS = 1000;

export const git: Git = (args, cwd) =>
  new Promise((resolve) => {
    execFile(
      "git",
      ["-c", "core.quotepath=off", "-c", "log.showSignature=false", ...args],
      {
        cwd,
        encoding: "buffer",
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, GIT_PAGER: "cat", LC_ALL: "C" },
      },
      (error, stdout, stderr) => {
        const code =
          error === null
            ? 0
            : typeof (error as { code?: unknown }).code === "number"
              ? (error as { code: number }).code
              : 127;
        resolve({
          code,
          stdout: Buffer.isBuffer(stdout) ? stdout : Buffer.alloc(0),
          stderr: Buffer.isBuffer(stderr) ? stderr.toString("utf8") : "",
        });
      },
    );
  });

const HEADER = "\u0001";
const STATUS = /^[ACDMRTUXB]\d*$/;

interface LogCommit {
  commit: string;
  author: string;
  date: string;
  subject: string;
  status: string;
  path: string;
}

/** Parses `git log -z --name-status --format=%x01%H%x00%an%x00%aI%x00%s`. */
export function parseLog(out: string): LogCommit[] {
  const tokens = out.split("\u0000");
  const commits: LogCommit[] = [];
  let i = 0;
  while (i < tokens.length) {
    let t = tokens[i] ?? "";
    // Between records git writes a newline before the next header.
    t = t.replace(/^\n+/, "");
    if (!t.startsWith(HEADER)) {
      i++;
      continue;
    }
    const commit = t.slice(1);
    const author = tokens[i + 1] ?? "";
    const date = tokens[i + 2] ?? "";
    const subject = tokens[i + 3] ?? "";
    i += 4;
    let status = "";
    let path = "";
    // The name-status entries of the followed file: "M", path or "R100", old, new.
    while (i < tokens.length) {
      const s = (tokens[i] ?? "").replace(/^\n+/, "");
      if (!STATUS.test(s)) break;
      const two = s.startsWith("R") || s.startsWith("C");
      const p = tokens[i + (two ? 2 : 1)] ?? "";
      if (status === "") {
        status = s;
        path = p;
      }
      i += two ? 3 : 2;
    }
    if (/^[0-9a-f]{40,64}$/.test(commit)) commits.push({ commit, author, date, subject, status, path });
  }
  return commits;
}

function statusOf(s: string): PolicyVersion["status"] {
  if (s.startsWith("A")) return "added";
  if (s.startsWith("D")) return "deleted";
  if (s.startsWith("R") || s.startsWith("C")) return "renamed";
  return "modified";
}

async function checked(g: Git, args: readonly string[], cwd: string, what: string): Promise<Buffer> {
  const r = await g(args, cwd);
  if (r.code !== 0) {
    const why = r.stderr.split("\n").find((l) => l.trim() !== "") ?? `git exited with status ${r.code}`;
    throw new InputError(`Cannot ${what}: ${why.slice(0, 300)}`);
  }
  return r.stdout;
}

/** The file's text at a commit, or why it cannot be read as text. */
async function textAt(
  g: Git,
  cwd: string,
  rev: string,
  path: string,
): Promise<{ text: string | null; error?: string }> {
  const r = await g(["show", `${rev}:${path}`], cwd);
  if (r.code !== 0) return { text: null, error: "not in this commit" };
  try {
    return { text: decodePolicyText(r.stdout, path) };
  } catch (e) {
    if (e instanceof InputError) return { text: null, error: e.message.split("\n")[0] ?? "not UTF-8" };
    throw e;
  }
}

export interface PolicyHistory {
  /** Oldest first. */
  readonly versions: PolicyVersion[];
  /** The text at `since` (null without it, or when the file did not exist there). */
  readonly sinceText: string | null;
  /** The path relative to the repository's top. */
  readonly repoPath: string;
  /** True when the checkout is shallow: older commits are missing. */
  readonly shallow: boolean;
}

/**
 * Every commit that changed `path` (following renames), oldest first, with the file's text at each
 * and the other files each commit changed. `path` is relative to `cwd`; `since` limits the log to
 * commits after that revision (`since..HEAD`), `rev` is where the log ends (default HEAD).
 */
export async function readPolicyHistory(
  cwd: string,
  path: string,
  opts: {
    readonly since?: string | null;
    readonly rev?: string;
    readonly max?: number;
    readonly git?: Git;
  } = {},
): Promise<PolicyHistory> {
  const g = opts.git ?? git;
  const top = (await checked(g, ["rev-parse", "--show-prefix"], cwd, "find the git repository"))
    .toString("utf8")
    .trim();
  const repoPath = (top + path).replace(/^\.\//, "");
  const shallow =
    (await checked(g, ["rev-parse", "--is-shallow-repository"], cwd, "read the repository"))
      .toString("utf8")
      .trim() === "true";
  const rev = opts.rev ?? "HEAD";
  for (const r of [rev, ...(opts.since ? [opts.since] : [])]) {
    if (r.startsWith("-")) throw new InputError(`Not a revision: "${r}".`);
    await checked(g, ["rev-parse", "--verify", "--quiet", `${r}^{commit}`], cwd, `find the revision "${r}"`);
  }
  const range = opts.since ? `${opts.since}..${rev}` : rev;
  const max = opts.max ?? MAX_POLICY_COMMITS;
  const out = await checked(
    g,
    [
      "log",
      "--follow",
      "-z",
      "--name-status",
      "--no-color",
      `--max-count=${max}`,
      "--format=%x01%H%x00%an%x00%aI%x00%s",
      range,
      "--",
      repoPath,
    ],
    cwd,
    `read the git log of ${path}`,
  );
  const commits = parseLog(out.toString("utf8")).reverse();
  const versions: PolicyVersion[] = [];
  for (const c of commits) {
    const status = statusOf(c.status);
    const filePath = c.path === "" ? repoPath : c.path;
    const text = status === "deleted" ? { text: null } : await textAt(g, cwd, c.commit, filePath);
    const files = (
      await checked(
        g,
        ["diff-tree", "--root", "--no-commit-id", "--name-only", "-r", "-z", "--no-renames", c.commit],
        cwd,
        "list a commit's files",
      )
    )
      .toString("utf8")
      .split("\u0000")
      .filter((f) => f !== "" && f !== filePath);
    versions.push({
      commit: c.commit,
      author: c.author,
      date: c.date,
      subject: c.subject,
      path: filePath,
      status,
      text: text.text,
      ...(text.error === undefined || status === "deleted" ? {} : { textError: text.error }),
      otherFiles: files,
    });
  }
  const sinceText = opts.since
    ? (await textAt(g, cwd, opts.since, versions[0]?.path ?? repoPath)).text
    : null;
  return { versions, sinceText, repoPath, shallow };
}
