/**
 * On `workflow_run` (the secure fork pattern: an unprivileged `pull_request` workflow runs the
 * benchmark and uploads the export; this privileged workflow gates it), the pull request comes
 * from `workflow_run.pull_requests` when GitHub fills it, else from the `pull-request` input (a
 * fork's run arrives with the list empty, so the number usually travels in the artifact). Either
 * way it is only a claim: it is confirmed with `GET /repos/{owner}/{repo}/pulls/{number}`, whose
 * `head.sha` must be the commit the triggering run ran on, so a forged number cannot move the
 * verdict to another pull request. The policy is then read at that answer's `base.sha`, never at
 * anything the artifact says.
 */
import { z } from "zod";
import { InputError } from "../core/errors.js";
import type { PullRequestInfo, WorkflowRunInfo } from "./context.js";
import { COMMIT_SHA } from "./context.js";
import { apiMessage, checkAnswer, httpStatus, MalformedAnswerError, type Octokit } from "./github-api.js";
import type { Logger } from "./logger.js";

export interface ConfirmRequest {
  readonly owner: string;
  readonly repo: string;
  readonly run: WorkflowRunInfo;
  /** The `pull-request` input, or null. */
  readonly input: number | null;
}

export interface ConfirmDeps {
  readonly octokit: Octokit | null;
  readonly log: Logger;
}

/** What is used of GitHub's pull request: its head and base commits and the base's repository. */
const PullAnswer = z.object({
  head: z.object({ sha: z.string().regex(COMMIT_SHA) }),
  base: z.object({
    sha: z.string().regex(COMMIT_SHA),
    repo: z.object({ full_name: z.string() }).nullish(),
  }),
});

/** Which pull request the run claims to be for: the event's list first, the input when it is empty. */
function claimedNumber(req: ConfirmRequest): number {
  const listed = req.run.pullRequests;
  if (listed.length > 0) {
    if (req.input !== null && !listed.includes(req.input))
      throw new InputError(
        `pull-request: #${req.input} is not among the pull requests GitHub lists for this workflow_run ` +
          `(${listed.map((n) => `#${n}`).join(", ")}). Leave the input empty when GitHub lists the pull request.`,
      );
    return req.input ?? listed[0] ?? 0;
  }
  if (req.input === null)
    throw new InputError(
      "On workflow_run the event names no pull request (GitHub leaves workflow_run.pull_requests empty for " +
        "pull requests from forks): pass its number as the pull-request input (e.g. from the artifact). " +
        "It is confirmed against the run's commit before it is used.",
    );
  return req.input;
}

/**
 * The pull request this workflow_run is for, confirmed by the API. Throws InputError when it
 * cannot be confirmed: no verdict is better than a verdict on the wrong pull request or policy.
 */
export async function confirmWorkflowRunPullRequest(
  req: ConfirmRequest,
  deps: ConfirmDeps,
): Promise<PullRequestInfo> {
  const number = claimedNumber(req);
  const octokit = deps.octokit;
  if (octokit === null)
    throw new InputError(
      `On workflow_run the gate confirms pull request #${number} with the API, which needs github-token ` +
        "(with `pull-requests: read`).",
    );
  let data: z.infer<typeof PullAnswer>;
  try {
    data = checkAnswer(
      await octokit.rest.pulls.get({ owner: req.owner, repo: req.repo, pull_number: number }),
      PullAnswer,
    );
  } catch (error) {
    const status = httpStatus(error);
    if (status === 404)
      throw new InputError(
        `Pull request #${number} does not exist in ${req.owner}/${req.repo} (or the token cannot see it): ` +
          "the workflow_run cannot be matched to a pull request.",
      );
    const why =
      error instanceof MalformedAnswerError
        ? error.message
        : `${status === null ? "no answer" : status}: ${apiMessage(error)}`;
    throw new InputError(
      `Cannot confirm pull request #${number} for this workflow_run (${why}), so it is not known which base ` +
        "policy decides. Re-run the job; the token needs `pull-requests: read`.",
    );
  }
  const head = data.head.sha;
  const base = data.base.sha;
  const baseRepo = data.base.repo?.full_name;
  if (baseRepo !== undefined && baseRepo.toLowerCase() !== `${req.owner}/${req.repo}`.toLowerCase())
    throw new InputError(`Pull request #${number} is not into ${req.owner}/${req.repo}.`);
  if (head !== req.run.headSha)
    throw new InputError(
      `Pull request #${number}'s head is ${head.slice(0, 12)}, but the workflow_run ran on ` +
        `${req.run.headSha.slice(0, 12)}: the results are not for that pull request's current commit, so no ` +
        "verdict is posted. (A newer push to the pull request gets its own run; a pull-request number that " +
        "names another pull request is refused.)",
    );
  deps.log.info(
    `workflow_run: pull request #${number} confirmed (head ${head.slice(0, 12)}); its base ${base.slice(0, 12)} decides the policy.`,
  );
  // The privileged workflow's token can write: refusals are not a fork's read-only token.
  return { number, baseSha: base, headSha: head, fork: false };
}
