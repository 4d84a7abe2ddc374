/**
 * Reads a file's versions from git for the policy log (src/core/history/policy-log.ts): the thin
 * shell around `git` (src/git/run-git.ts: a child process with fixed arguments, never a shell).
 * Output is parsed from NUL-separated fields (`-z`), so no path, name or subject can split a
 * record; all of it is untrusted text for the renderer to escape.
 *
 * What stops the log is a PolicyHistoryError (a user error with one clear message, and a short
 * reason the action shows in one line): git missing, not a checkout, a shallow clone (its history
 * may be incomplete), a revision that is not there, a path that never existed.
 */
import { posix } from "node:path";
import { Buffer } from "node:buffer";
import { InputError, errorLine } from "../core/errors.js";
import { MAX_POLICY_BYTES } from "../core/policy/load-policy.js";
import { decodePolicyText } from "../core/policy/policy-bytes.js";
import {
  buildPolicyLog,
  DEFAULT_EVIDENCE_GLOBS,
  type PolicyBaseline,
  type PolicyVersion,
} from "../core/history/policy-log.js";
import type { PolicyHistoryReport } from "../core/report/report-types.js";
import { globToRegExp } from "../io/glob.js";
import { GIT_NOT_STARTED, runGit, type GitResult, type GitRunner } from "./run-git.js";

/** At most this many commits are read by default (the newest). */
export const MAX_POLICY_COMMITS = 1000;

export type PolicyHistoryProblem =
  | "git-missing"
  | "not-a-checkout"
  | "shallow"
  | "no-commits"
  | "bad-revision"
  | "outside-checkout"
  | "never-existed"
  | "git-failed";

/** Why the history cannot be read: `message` for the CLI, `reason` (one short line) for the action. */
export class PolicyHistoryError extends InputError {
  override readonly name: string = "PolicyHistoryError";
  constructor(
    readonly problem: PolicyHistoryProblem,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

export const SHALLOW_FIX =
  "Fetch the whole history (git fetch --unshallow), or in GitHub Actions check out with `fetch-depth: 0`.";

/** Options that keep a user's git configuration (or a `*` in the path) from changing what is read. */
const FIXED_CONFIG = ["--literal-pathspecs", "-c", "log.showSignature=false", "-c", "core.quotepath=off"];

function firstLine(r: GitResult): string {
  const line = (r.stderr ?? "").split("\n").find((l) => l.trim() !== "");
  return (line ?? `git exited with status ${r.code}`).trim().slice(0, 300);
}

async function run(g: GitRunner, args: readonly string[], cwd: string): Promise<GitResult> {
  const r = await g([...FIXED_CONFIG, ...args], cwd);
  if (r.code === GIT_NOT_STARTED)
    throw new PolicyHistoryError(
      "git-missing",
      "git is not available",
      "Cannot run git (is it installed and on PATH?): the policy's history is read from git.",
    );
  return r;
}

async function checked(g: GitRunner, args: readonly string[], cwd: string, what: string): Promise<GitResult> {
  const r = await run(g, args, cwd);
  if (r.code !== 0)
    throw new PolicyHistoryError(
      "git-failed",
      `git failed: ${firstLine(r)}`,
      `Cannot ${what}: ${firstLine(r)}`,
    );
  return r;
}

interface LogCommit {
  readonly commit: string;
  /** The first parent, or null for a root commit. */
  readonly parent: string | null;
  readonly author: string;
  readonly date: string;
  readonly committed: string;
  readonly subject: string;
  /** The followed file's name-status letter ("" if git lists none). */
  readonly status: string;
  readonly path: string;
  readonly previousPath: string | null;
}

const HEADER = "\u0001";
const STATUS = /^[ACDMRTUXB]\d*$/;
export const LOG_FORMAT = "--format=%x01%H%x00%P%x00%an%x00%aI%x00%cI%x00%s";

/**
 * Parses `git log -z --name-status` with LOG_FORMAT: records start with U+0001; fields and the
 * name-status entries ("M", path or "R100", old, new) are NUL-separated, the first entry of a
 * record preceded by a newline.
 */
export function parseLog(out: string): LogCommit[] {
  const tokens = out.split("\u0000");
  const commits: LogCommit[] = [];
  let i = 0;
  while (i < tokens.length) {
    const t = (tokens[i] ?? "").replace(/^\n+/, "");
    if (!t.startsWith(HEADER)) {
      i++;
      continue;
    }
    const [parents = "", author = "", date = "", committed = "", subject = ""] = tokens.slice(i + 1, i + 6);
    const parent = parents.split(" ")[0] ?? "";
    const commit = t.slice(1);
    i += 6;
    let status = "";
    let path = "";
    let previousPath: string | null = null;
    while (i < tokens.length) {
      const s = (tokens[i] ?? "").replace(/^\n+/, "");
      if (!STATUS.test(s)) break;
      const two = s.startsWith("R") || s.startsWith("C");
      if (status === "") {
        status = s;
        path = tokens[i + (two ? 2 : 1)] ?? "";
        previousPath = two ? (tokens[i + 1] ?? null) : null;
      }
      i += two ? 3 : 2;
    }
    if (/^[0-9a-f]{40,64}$/.test(commit))
      commits.push({
        commit,
        parent: /^[0-9a-f]{40,64}$/.test(parent) ? parent : null,
        author,
        date,
        committed,
        subject,
        status,
        path,
        previousPath,
      });
  }
  return commits;
}

function statusOf(s: string): PolicyVersion["status"] {
  if (s.startsWith("A")) return "added";
  if (s.startsWith("D")) return "deleted";
  if (s.startsWith("R") || s.startsWith("C")) return "renamed";
  return "modified";
}

/** The file's text at a commit, or why it cannot be read as text. */
async function textAt(
  g: GitRunner,
  cwd: string,
  rev: string,
  path: string,
): Promise<{ text: string | null; error?: string }> {
  const r = await run(g, ["show", `${rev}:${path}`], cwd);
  if (r.code !== 0) return { text: null, error: `${path} is not in commit ${rev.slice(0, 12)}` };
  const bytes = r.bytes ?? Buffer.from(r.stdout, "utf8");
  if (bytes.length > MAX_POLICY_BYTES)
    return {
      text: null,
      error: `${path}: the file is ${bytes.length} bytes, over the ${MAX_POLICY_BYTES}-byte limit of a policy`,
    };
  try {
    return { text: decodePolicyText(bytes, path) };
  } catch (e) {
    if (e instanceof InputError) return { text: null, error: errorLine(e) };
    throw e;
  }
}

export interface PolicyHistory {
  /** Oldest first. */
  readonly versions: readonly PolicyVersion[];
  /** What the first version is compared with (the file at `since`, or the commit before a count limit). */
  readonly baseline: PolicyBaseline | null;
  /** The path relative to the repository's top, `/`-separated. */
  readonly repoPath: string;
  /** True when more commits changed the file than `max`: the oldest are not listed. */
  readonly truncated: boolean;
}

export interface PolicyHistoryOptions {
  /** Only commits after this revision (`since..rev`); the file there is the baseline. */
  readonly since?: string | null;
  /** Where the log ends (default HEAD). */
  readonly rev?: string;
  /** How to name `rev` when it is missing, e.g. "the base commit" (default: the revision). */
  readonly revName?: string;
  /** At most this many commits, the newest (default MAX_POLICY_COMMITS). */
  readonly max?: number;
  readonly git?: GitRunner;
}

async function verifyCommit(g: GitRunner, cwd: string, rev: string): Promise<string | null> {
  if (rev.startsWith("-")) return null;
  const r = await run(g, ["rev-parse", "--verify", "--quiet", `${rev}^{commit}`], cwd);
  const sha = r.stdout.trim();
  return r.code === 0 && /^[0-9a-f]{40,64}$/.test(sha) ? sha : null;
}

/**
 * Where `path` (relative to `cwd`) is in the repository and the repository's top directory (git
 * then runs there: pathspecs and `rev:path` are both top-relative), after checking that `cwd` is
 * in a full checkout.
 */
async function locate(g: GitRunner, cwd: string, path: string): Promise<{ top: string; repoPath: string }> {
  const inside = await run(g, ["rev-parse", "--is-inside-work-tree"], cwd);
  if (inside.code !== 0 || inside.stdout.trim() !== "true")
    throw new PolicyHistoryError(
      "not-a-checkout",
      "the workspace is not a git checkout",
      `${cwd} is not in a git checkout (${inside.code !== 0 ? firstLine(inside) : "not a work tree"}): ` +
        "the policy's history is read from git; run this inside the repository's checkout.",
    );
  const shallow = await checked(g, ["rev-parse", "--is-shallow-repository"], cwd, "read the repository");
  if (shallow.stdout.trim() === "true")
    throw new PolicyHistoryError(
      "shallow",
      "the checkout is shallow; needs fetch-depth: 0",
      `This checkout is a shallow clone: older commits are not in it, so the policy's history may be incomplete. ${SHALLOW_FIX}`,
    );
  const where = async (flag: string): Promise<string> =>
    (await checked(g, ["rev-parse", flag], cwd, "find the git repository")).stdout.replace(/\n$/, "");
  const top = await where("--show-toplevel");
  const prefix = await where("--show-prefix");
  const repoPath = posix.normalize(prefix + path.split("\\").join("/"));
  if (repoPath === ".." || repoPath.startsWith("../") || posix.isAbsolute(repoPath) || repoPath === ".")
    throw new PolicyHistoryError(
      "outside-checkout",
      `${path} is outside the checkout`,
      `The policy ${path} is not a file inside this git checkout.`,
    );
  return { top, repoPath };
}

/**
 * Every commit on the first-parent line of `rev` that changed `path` (following renames), oldest
 * first, with the file's text at each and the other files each changed. `path` is relative to `cwd`.
 */
export async function readPolicyHistory(
  cwd: string,
  path: string,
  opts: PolicyHistoryOptions = {},
): Promise<PolicyHistory> {
  const g = opts.git ?? runGit;
  const { top, repoPath } = await locate(g, cwd, path);
  const rev = opts.rev ?? "HEAD";
  const end = await verifyCommit(g, top, rev);
  if (end === null) {
    throw rev === "HEAD"
      ? new PolicyHistoryError(
          "no-commits",
          "the repository has no commits",
          "The repository has no commits yet (HEAD).",
        )
      : new PolicyHistoryError(
          "bad-revision",
          `the checkout does not have ${opts.revName ?? "the revision"} ${rev.slice(0, 12)}; needs fetch-depth: 0`,
          `The checkout does not have ${opts.revName ?? "the revision"} ${JSON.stringify(rev)}.`,
        );
  }
  const since = opts.since ?? null;
  let sinceSha: string | null = null;
  if (since !== null) {
    sinceSha = await verifyCommit(g, top, since);
    if (sinceSha === null)
      throw new PolicyHistoryError(
        "bad-revision",
        `no revision ${since}`,
        `--since ${JSON.stringify(since)} is not a commit of this repository (a commit id, tag or branch is expected).`,
      );
  }
  const max = opts.max ?? MAX_POLICY_COMMITS;
  // One more than asked: the extra, oldest commit is the baseline the first one listed is compared with.
  const log = await checked(
    g,
    [
      "log",
      "--follow",
      // The branch's own line: each listed version follows the one before it, a merged pull
      // request is its merge commit (diffed with the branch, so a conflict resolution shows).
      "--first-parent",
      "-z",
      "--name-status",
      "--no-color",
      `--max-count=${max + 1}`,
      LOG_FORMAT,
      sinceSha === null ? end : `${sinceSha}..${end}`,
      "--",
      repoPath,
    ],
    top,
    `read the git log of ${path}`,
  );
  const commits = parseLog(log.stdout).reverse();
  const truncated = commits.length > max;
  const versions: PolicyVersion[] = [];
  for (const c of commits) {
    const status = statusOf(c.status);
    const filePath = c.path === "" ? repoPath : c.path;
    const text = status === "deleted" ? { text: null } : await textAt(g, top, c.commit, filePath);
    const files = (
      await checked(
        g,
        [
          "diff-tree",
          "--no-commit-id",
          "--name-only",
          "-r",
          "-z",
          "--no-renames",
          ...(c.parent === null ? ["--root", c.commit] : [c.parent, c.commit]),
        ],
        top,
        "list a commit's files",
      )
    ).stdout
      .split("\u0000")
      .filter((f) => f !== "" && f !== filePath && f !== c.previousPath);
    versions.push({
      commit: c.commit,
      author: c.author,
      date: c.date,
      committed: c.committed,
      subject: c.subject,
      path: filePath,
      previous_path: c.previousPath,
      status,
      text: text.text,
      ...(text.error === undefined ? {} : { textError: text.error }),
      otherFiles: files,
    });
  }
  let baseline: PolicyBaseline | null = null;
  if (truncated) {
    const oldest = versions.shift();
    if (oldest !== undefined) baseline = { commit: oldest.commit, text: oldest.text, path: oldest.path };
  } else if (sinceSha !== null) {
    const first = versions[0];
    const at = first === undefined ? repoPath : (first.previous_path ?? first.path);
    baseline = { commit: sinceSha, text: (await textAt(g, top, sinceSha, at)).text, path: at };
  }
  if (versions.length === 0 && (sinceSha === null || baseline?.text === null))
    throw new PolicyHistoryError(
      "never-existed",
      `${repoPath} is not in the history`,
      `No commit ${sinceSha === null ? "" : `since ${since} `}has the file ${repoPath}${sinceSha === null ? "" : ", nor does that commit"}: ` +
        "is the path right, and is the file committed?",
    );
  return { versions, baseline, repoPath, truncated };
}

/** How many of the base policy's last changes the PR report lists. */
export const RECENT_POLICY_CHANGES = 5;

export interface RecentHistoryRequest {
  /** The checkout. */
  readonly workspace: string;
  /** The policy's repository path. */
  readonly path: string;
  /** The base commit: its policy decided. */
  readonly rev: string;
  readonly today: string;
  readonly git: GitRunner;
  readonly count?: number;
}

/**
 * The base policy's last changes for the PR report, read with the policy log's code. A checkout
 * that cannot answer (shallow, no git, not a checkout, no base commit) gives `unavailable` and one
 * line why, never an error: the history is context, not the verdict.
 */
export async function recentPolicyHistory(req: RecentHistoryRequest): Promise<PolicyHistoryReport> {
  const base = { path: req.path, rev: req.rev };
  let history: PolicyHistory;
  try {
    history = await readPolicyHistory(req.workspace, req.path, {
      rev: req.rev,
      revName: "the base commit",
      max: req.count ?? RECENT_POLICY_CHANGES,
      git: req.git,
    });
  } catch (error) {
    if (!(error instanceof PolicyHistoryError)) throw error;
    return { ...base, unavailable: error.reason, entries: [], earlier: false };
  }
  const evidence = DEFAULT_EVIDENCE_GLOBS.map((g) => globToRegExp(g));
  const log = buildPolicyLog(history.versions, {
    path: history.repoPath,
    since: null,
    baseline: history.baseline,
    truncated: history.truncated,
    today: req.today,
    isEvidenceFile: (p) => evidence.some((re) => re.test(p)),
  });
  return { ...base, unavailable: null, entries: log.entries, earlier: log.truncated };
}
