/**
 * The policy that decides a pull request is the one at its base commit (SPEC §5.1): a PR cannot
 * loosen its own gate. It is read with the contents API at `pull_request.base.sha`; when the API
 * fails (no `contents: read`, an outage) and the checkout has that commit (fetch-depth: 0), from
 * `git show <sha>:<path>`. The commit that last changed it comes from the commits API
 * (`path`, `sha`, `per_page=1`), falling back to `git log -1`.
 *
 * A policy file that does not exist at the base commit is an error, not a reason to use the PR's
 * own file: otherwise the first PR that adds (or renames) the policy would decide under rules it
 * wrote itself. The policy must land on the base branch first, in its own reviewed change.
 */
import { Buffer } from "node:buffer";
import { z } from "zod";
import { InputError } from "../core/errors.js";
import { decodePolicyText } from "../core/policy/policy-bytes.js";
import {
  apiMessage,
  checkAnswer,
  httpStatus,
  isRateLimit,
  MalformedAnswerError,
  type Octokit,
} from "./github-api.js";
import { COMMIT_SHA } from "./context.js";
import type { Logger } from "./logger.js";
import type { GitRunner } from "../git/run-git.js";

export interface BasePolicyRequest {
  readonly owner: string;
  readonly repo: string;
  readonly baseSha: string;
  /** `/`-separated repository path. */
  readonly path: string;
  /** Where the repository is checked out, for the git fallback. */
  readonly workspace: string;
  /** Whose base commit it is, for messages; default "pull request". */
  readonly subject?: "pull request" | "merge group";
}

export interface BasePolicy {
  readonly text: string;
  /** e.g. "base commit 1a2b…, via the contents API" */
  readonly source: string;
  readonly lastCommit: string | null;
}

export interface BasePolicyDeps {
  readonly octokit: Octokit | null;
  readonly git: GitRunner;
  readonly log: Logger;
}

/** What is used of the contents API's answer: a directory's listing, or one entry with its content. */
const ContentsAnswer = z.union([
  z.array(z.object({ type: z.string(), path: z.string() })),
  z.object({ type: z.string(), encoding: z.string().optional(), content: z.string().optional() }),
]);
/** What is used of the commits API's answer. */
const CommitsAnswer = z.array(z.object({ sha: z.string() }));

type Fetched =
  | { readonly kind: "found"; readonly text: string }
  | { readonly kind: "absent" }
  | { readonly kind: "unknown"; readonly why: string; readonly fix?: string };

const FIX_PERMISSION =
  "Grant the job `permissions: contents: read` (and pass github-token), or check out with fetch-depth: 0.";
const FIX_NO_ANSWER =
  "GitHub did not answer: re-run the job, or check out with fetch-depth: 0 so that git can answer.";
const FIX_UNUSABLE =
  "GitHub's answer could not be used: re-run the job, or check out with fetch-depth: 0 so that git can answer.";

async function viaApi(req: BasePolicyRequest, deps: BasePolicyDeps): Promise<Fetched> {
  const octokit = deps.octokit;
  if (!octokit) return { kind: "unknown", why: "no github-token", fix: FIX_PERMISSION };
  try {
    const data = checkAnswer(
      await octokit.rest.repos.getContent({
        owner: req.owner,
        repo: req.repo,
        path: req.path,
        ref: req.baseSha,
      }),
      ContentsAnswer,
    );
    if (Array.isArray(data)) return { kind: "unknown", why: `${req.path} is a directory at the base commit` };
    if (data.type !== "file")
      return { kind: "unknown", why: `${req.path} is a ${data.type} at the base commit` };
    if (data.encoding !== "base64" || data.content === undefined)
      return { kind: "unknown", why: `the contents API returned encoding ${String(data.encoding)}` };
    return { kind: "found", text: decodePolicyText(Buffer.from(data.content, "base64"), req.path) };
  } catch (error) {
    if (error instanceof InputError) throw error;
    if (error instanceof MalformedAnswerError)
      return { kind: "unknown", why: `contents API: ${error.message}`, fix: FIX_UNUSABLE };
    const status = httpStatus(error);
    if (status === 404) return { kind: "absent" };
    // No answer (a dropped connection, a timeout), a server error or a spent rate limit: asking
    // for a permission would send the user the wrong way.
    const noAnswer = status === null || status >= 500 || isRateLimit(error);
    return {
      kind: "unknown",
      why: `contents API: ${status === null ? `no answer (${apiMessage(error)})` : `${status} ${apiMessage(error)}`}`,
      fix: noAnswer ? FIX_NO_ANSWER : FIX_PERMISSION,
    };
  }
}

async function viaGit(req: BasePolicyRequest, deps: BasePolicyDeps): Promise<Fetched> {
  const has = await deps.git(["cat-file", "-e", `${req.baseSha}^{commit}`], req.workspace);
  if (has.code !== 0) return { kind: "unknown", why: `the checkout does not have commit ${req.baseSha}` };
  const exists = await deps.git(["cat-file", "-e", `${req.baseSha}:${req.path}`], req.workspace);
  if (exists.code !== 0) return { kind: "absent" };
  const shown = await deps.git(["show", `${req.baseSha}:${req.path}`], req.workspace);
  if (shown.code !== 0) return { kind: "unknown", why: `git show ${req.baseSha}:${req.path} failed` };
  return {
    kind: "found",
    text: decodePolicyText(shown.bytes ?? Buffer.from(shown.stdout, "utf8"), req.path),
  };
}

async function lastCommit(req: BasePolicyRequest, deps: BasePolicyDeps): Promise<string | null> {
  const octokit = deps.octokit;
  if (octokit) {
    try {
      const commits = checkAnswer(
        await octokit.rest.repos.listCommits({
          owner: req.owner,
          repo: req.repo,
          path: req.path,
          sha: req.baseSha,
          per_page: 1,
        }),
        CommitsAnswer,
      );
      const sha = commits[0]?.sha;
      if (sha !== undefined && COMMIT_SHA.test(sha)) return sha;
    } catch (error) {
      deps.log.debug(`commits API: ${httpStatus(error) ?? "error"} ${apiMessage(error)}; trying git log`);
    }
  }
  const res = await deps.git(["log", "-1", "--format=%H", req.baseSha, "--", req.path], req.workspace);
  const sha = res.stdout.trim();
  return res.code === 0 && COMMIT_SHA.test(sha) ? sha : null;
}

/** The base commit's policy text, where it came from and the commit that last changed it. */
export async function loadBasePolicy(req: BasePolicyRequest, deps: BasePolicyDeps): Promise<BasePolicy> {
  const subject = req.subject ?? "pull request";
  if (!COMMIT_SHA.test(req.baseSha))
    throw new InputError(`The ${subject}'s base commit ${JSON.stringify(req.baseSha)} is not a commit id.`);
  const short = req.baseSha.slice(0, 12);
  let fetched = await viaApi(req, deps);
  let via = "contents API";
  if (fetched.kind !== "found") {
    // A 404 can also mean the token cannot see the file: ask the checkout too when it can answer.
    const api = fetched;
    const git = await viaGit(req, deps);
    if (git.kind === "found") {
      deps.log.debug(`base policy via git (contents API: ${api.kind === "unknown" ? api.why : "404"})`);
      fetched = git;
      via = "git";
    } else if (git.kind === "absent") {
      fetched = git;
    } else if (api.kind === "unknown") {
      throw new InputError(
        `Cannot read the policy ${req.path} at the ${subject}'s base commit ${short}, and the ${subject === "pull request" ? "PR" : subject}'s own copy must not decide. ` +
          `${api.why}; git: ${git.why}. ${api.fix ?? FIX_PERMISSION}`,
      );
    }
  }
  if (fetched.kind === "absent") {
    throw new InputError(
      `The policy ${req.path} does not exist at the ${subject}'s base commit ${short}. On a ${subject} the base ` +
        `branch's policy decides, so that a change cannot set its own acceptance rules. Merge the policy file to the ` +
        `base branch first (in its own reviewed pull request), then re-run this check. (If the file does exist there, ` +
        `the token cannot read it: grant \`contents: read\`.)`,
    );
  }
  if (fetched.kind !== "found") throw new Error("unreachable");
  return {
    text: fetched.text,
    source: `base commit ${req.baseSha} (${via})`,
    lastCommit: await lastCommit(req, deps),
  };
}
