/**
 * What the base commit decides before the verdict: which commit's policy decides (the pull
 * request's or the merge group's base, else the checkout's file), that policy's text with the
 * change's own version beside it for the diff, and the base versions of the results and reviews
 * files for the append-only check. Shared by evaluate (evaluate-mode.ts) and rank mode (rank-mode.ts).
 */
import { existsSync, realpathSync } from "node:fs";
import { isAbsolute, relative, sep } from "node:path";
import { InputError } from "../core/errors.js";
import { decodePolicyText } from "../core/policy/policy-bytes.js";
import { MAX_POLICY_BYTES } from "../core/policy/load-policy.js";
import type { GitRunner } from "../git/run-git.js";
import { readInputFile } from "../io/file-kind.js";
import { readBaseVersions, type BaseVersions, type GitToFile } from "./base-files.js";
import { loadBasePolicy } from "./base-policy.js";
import type { RunContext } from "./context.js";
import type { Octokit } from "./github-api.js";
import type { ActionInputs } from "./inputs.js";
import type { Logger } from "./logger.js";

/** What reading at the base commit needs of the action's dependencies (ActionDeps has it). */
export interface BaseCommitDeps {
  readonly log: Logger;
  readonly git: GitRunner;
  readonly gitToFile: GitToFile;
}

/** Paths as messages show them: relative to the workspace (or its real path) when inside it. */
export function makeDisplayPath(workspace: string): (abs: string) => string {
  const roots = [workspace];
  try {
    const real = realpathSync(workspace);
    if (real !== workspace) roots.push(real);
  } catch {
    // the workspace does not exist: inputs already failed
  }
  return (abs) => {
    if (!isAbsolute(abs)) return abs;
    for (const root of roots) {
      const rel = relative(root, abs);
      if (rel !== "" && !rel.startsWith("..") && !isAbsolute(rel)) return rel.split(sep).join("/");
    }
    return abs;
  };
}

export interface PolicyChoice {
  readonly text: string;
  readonly source: string;
  readonly lastCommit: string | null;
  readonly headText: string | null;
  /** The base commit whose policy decided, when the change edits the policy (its history is shown). */
  readonly historyRev: string | null;
}

/**
 * The pull request's own version of the policy, for the base → head diff only (the base decides).
 * A head file that is not UTF-8 is reported as a warning rather than stopping the run.
 */
function headPolicyText(bytes: Buffer | null, path: string, subject: string, log: Logger): string | null {
  if (bytes === null) return null;
  try {
    return decodePolicyText(bytes, path);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    log.warning(`The ${subject}'s version of ${path} is not valid UTF-8; the base commit's version decides.`);
    return null;
  }
}

/**
 * Which base commit's policy decides, or null when the checkout's file does: the pull request's
 * base (pull_request, pull_request_target, and workflow_run once confirmed) or the merge group's.
 * `headInCheckout`: the checkout holds the change's own version (for the base → head diff); on
 * workflow_run it holds the default branch, so there is no diff.
 */
function policyBase(
  ctx: RunContext,
): { sha: string; subject: "pull request" | "merge group"; headInCheckout: boolean } | null {
  if (ctx.pullRequest !== null)
    return {
      sha: ctx.pullRequest.baseSha,
      subject: "pull request",
      headInCheckout: ctx.workflowRun === null,
    };
  if (ctx.mergeGroup !== null)
    return { sha: ctx.mergeGroup.baseSha, subject: "merge group", headInCheckout: true };
  return null;
}

export async function choosePolicy(
  inputs: ActionInputs,
  ctx: RunContext,
  octokit: Octokit | null,
  deps: BaseCommitDeps,
): Promise<PolicyChoice> {
  const based = policyBase(ctx);
  const present = based?.headInCheckout !== false && existsSync(inputs.policy.absPath);
  let localBytes: Buffer | null = null;
  try {
    if (present)
      localBytes = await readInputFile(
        inputs.policy.absPath,
        inputs.policy.repoPath,
        "policy file",
        MAX_POLICY_BYTES,
      );
  } catch (error) {
    // On a pull request the checkout's copy only feeds the base → head diff.
    if (based === null || !(error instanceof InputError)) throw error;
    deps.log.warning(`${error.message} The base commit's version decides; the change is not shown.`);
  }
  if (based === null) {
    const local = localBytes === null ? null : decodePolicyText(localBytes, inputs.policy.repoPath);
    if (local === null)
      throw new InputError(`policy: ${JSON.stringify(inputs.policy.repoPath)} does not exist`);
    const log = await deps.git(
      ["log", "-1", "--format=%H", "HEAD", "--", inputs.policy.repoPath],
      ctx.workspace,
    );
    const last = log.stdout.trim();
    return {
      text: local,
      source: "file",
      lastCommit: log.code === 0 && /^[0-9a-f]{40,64}$/.test(last) ? last : null,
      headText: null,
      historyRev: null,
    };
  }
  if (ctx.repo === null)
    throw new InputError(
      `GITHUB_REPOSITORY is not set: cannot read the policy at the ${based.subject}'s base commit.`,
    );
  const base = await loadBasePolicy(
    {
      owner: ctx.repo.owner,
      repo: ctx.repo.repo,
      baseSha: based.sha,
      path: inputs.policy.repoPath,
      workspace: ctx.workspace,
      subject: based.subject,
    },
    { octokit, git: deps.git, log: deps.log },
  );
  const local = headPolicyText(localBytes, inputs.policy.repoPath, based.subject, deps.log);
  if (!present && based.headInCheckout) {
    deps.log.warning(
      `This ${based.subject} removes or moves the policy ${inputs.policy.repoPath}; the base commit's version decides. ` +
        "A removed policy takes effect only once merged.",
    );
  }
  const headText = local !== null && local !== base.text ? local : null;
  return {
    text: base.text,
    source: base.source,
    lastCommit: base.lastCommit,
    headText,
    historyRev: headText === null ? null : based.sha,
  };
}

/**
 * The base commit's versions of the results and reviews files the repository holds, for the
 * append-only check (src/action/base-files.ts); null on events without a base commit (push,
 * schedule, dispatch), said in one line.
 */
export async function baseVersions(
  inputs: ActionInputs,
  ctx: RunContext,
  octokit: Octokit | null,
  deps: BaseCommitDeps,
): Promise<BaseVersions | null> {
  const based = policyBase(ctx);
  if (based === null || ctx.repo === null) {
    deps.log.info(
      `Append-only: no base commit on ${ctx.eventName || "this event"}; the results and reviews are not compared with an earlier version.`,
    );
    return null;
  }
  return readBaseVersions(
    {
      owner: ctx.repo.owner,
      repo: ctx.repo.repo,
      baseSha: based.sha,
      workspace: ctx.workspace,
      tempRoot: ctx.runnerTemp,
      results: inputs.results,
      reviews: inputs.reviews,
      globs: inputs.globs,
      display: makeDisplayPath(ctx.workspace),
    },
    { octokit, git: deps.git, gitToFile: deps.gitToFile, log: deps.log },
  );
}
