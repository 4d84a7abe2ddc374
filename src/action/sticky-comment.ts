/**
 * One sticky comment per pull request, edited in place on every run.
 *
 * The comment is found by two things together: its body contains the hidden COMMENT_MARKER, and
 * its author is the identity the token acts as. The marker alone is not enough: anyone can paste
 * it into a comment, and the action must neither edit (it could not) nor adopt someone else's
 * comment. The identity is the token's user when GitHub tells us (GET /user works for personal
 * access tokens); for an installation token (GITHUB_TOKEN), which cannot call GET /user, it is
 * `github-actions[bot]`, the author GitHub gives every comment that GITHUB_TOKEN creates.
 *
 * All comments are listed, 100 per page, following every page, so a long discussion never hides
 * the existing comment and leads to a second one. `on-change` compares a digest of the verdict
 * and figures, embedded in a hidden line under the marker, and leaves the comment alone when it is
 * the same.
 */
import { COMMENT_MARKER } from "../core/report/escape.js";
import {
  describeFailure,
  httpStatus,
  rateLimitWaitMs,
  type Octokit,
  type RetryPolicy,
  withRetry,
} from "./github-api.js";
import type { Logger } from "./logger.js";

/** The author of comments created with GITHUB_TOKEN. */
export const ACTIONS_BOT_LOGIN = "github-actions[bot]";

const DIGEST_PREFIX = "<!-- model-acceptance-gate:digest ";
const DIGEST_SUFFIX = " -->";
const PERMISSION = "pull-requests: write";
/** Safety net for a runaway pagination (10,000 comments). */
const MAX_PAGES = 100;

/** The hidden line that carries the digest of what the comment shows. */
export function digestLine(digest: string): string {
  return `${DIGEST_PREFIX}${digest}${DIGEST_SUFFIX}`;
}

/** The digest embedded in a comment body by `digestLine`, or null. Only the lines right after the marker count. */
export function readDigest(body: string): string | null {
  const at = body.indexOf(COMMENT_MARKER);
  if (at < 0) return null;
  const head = body.slice(at + COMMENT_MARKER.length, at + COMMENT_MARKER.length + 200);
  const m = /^\s*<!-- model-acceptance-gate:digest ([0-9a-f]{16,64}) -->/.exec(head);
  return m?.[1] ?? null;
}

/**
 * The login whose comments the action may treat as its own, or null when GitHub gave no answer
 * (GET /user failed with no response or a server error, after retries): the caller then posts no
 * comment, since a wrong guess would post a second one beside the gate's own.
 */
export async function resolveCommentAuthor(
  octokit: Octokit,
  retry: RetryPolicy,
  log: Logger,
  fork = false,
): Promise<string | null> {
  try {
    const res = await withRetry(
      "identify the token's user",
      () => octokit.rest.users.getAuthenticated(),
      retry,
      log,
    );
    const login = res.data.login;
    log.debug(`the token acts as ${login}`);
    return login;
  } catch (error) {
    const status = httpStatus(error);
    // Installation tokens (GITHUB_TOKEN) answer 403 "Resource not accessible by integration".
    if (status !== null && status < 500 && rateLimitWaitMs(error) === null) {
      log.debug(`GET /user answered ${status}; assuming comments are by ${ACTIONS_BOT_LOGIN}`);
      return ACTIONS_BOT_LOGIN;
    }
    log.warning(
      describeFailure(error, {
        action:
          "tell which comments are the gate's (GET /user), so no comment is posted (a guess could post a second one)",
        permission: PERMISSION,
        fork,
        attempts: retry.attempts,
      }),
    );
    return null;
  }
}

export interface ExistingComment {
  readonly id: number;
  readonly body: string;
}

export interface CommentTarget {
  readonly owner: string;
  readonly repo: string;
  readonly issueNumber: number;
}

function nextPageExists(link: string | undefined): boolean {
  return link !== undefined && /<[^>]*>;\s*rel="next"/.test(link);
}

/** The oldest comment with the marker by `author`, paging through all comments; null when none. */
export async function findStickyComment(
  octokit: Octokit,
  target: CommentTarget,
  author: string,
  retry: RetryPolicy,
  log: Logger,
): Promise<ExistingComment | null> {
  for (let page = 1; page <= MAX_PAGES; page++) {
    const res = await withRetry(
      `list comments (page ${page})`,
      () =>
        octokit.rest.issues.listComments({
          owner: target.owner,
          repo: target.repo,
          issue_number: target.issueNumber,
          per_page: 100,
          page,
        }),
      retry,
      log,
    );
    for (const c of res.data) {
      if (c.user?.login === author && typeof c.body === "string" && c.body.includes(COMMENT_MARKER))
        return { id: c.id, body: c.body };
    }
    if (!nextPageExists(res.headers.link) || res.data.length === 0) return null;
  }
  log.warning(`Stopped looking for the previous gate comment after ${MAX_PAGES} pages of comments.`);
  return null;
}

export type CommentOutcome =
  | { readonly kind: "created" | "updated" | "unchanged"; readonly id: number }
  | { readonly kind: "failed"; readonly id: number | null };

export interface UpsertRequest extends CommentTarget {
  /** The full body: starts with COMMENT_MARKER and the digest line. */
  readonly body: string;
  readonly digest: string;
  readonly mode: "always" | "on-change";
  readonly author: string;
}

export interface UpsertDeps {
  readonly octokit: Octokit;
  readonly retry: RetryPolicy;
  readonly log: Logger;
  readonly fork: boolean;
}

/**
 * Updates the sticky comment in place, or creates it when there is none. A comment deleted between
 * listing and updating (404) is replaced by a new one. A write that failed with a server error is
 * retried (with backoff) only after listing again, so a create that did land despite the error is
 * updated, never duplicated. Never throws for an API failure: it warns and reports `failed`.
 */
export async function upsertStickyComment(req: UpsertRequest, deps: UpsertDeps): Promise<CommentOutcome> {
  const { octokit, retry, log } = deps;
  const failure = (error: unknown, action: string): CommentOutcome => {
    log.warning(
      describeFailure(error, { action, permission: PERMISSION, fork: deps.fork, attempts: retry.attempts }),
    );
    return { kind: "failed", id: null };
  };
  let delay = retry.baseDelayMs;
  for (let attempt = 1; ; attempt++) {
    let existing: ExistingComment | null;
    try {
      existing = await findStickyComment(octokit, req, req.author, retry, log);
    } catch (error) {
      return failure(error, "list the pull request's comments to find the previous gate comment");
    }
    if (existing && req.mode === "on-change" && readDigest(existing.body) === req.digest) {
      log.info(
        `The gate comment (id ${existing.id}) already shows this verdict and these figures; left unchanged.`,
      );
      return { kind: "unchanged", id: existing.id };
    }
    try {
      if (existing) {
        try {
          const res = await octokit.rest.issues.updateComment({
            owner: req.owner,
            repo: req.repo,
            comment_id: existing.id,
            body: req.body,
          });
          return { kind: "updated", id: res.data.id };
        } catch (error) {
          if (httpStatus(error) !== 404) throw error;
          log.debug(
            `the gate comment ${existing.id} disappeared before it could be updated; creating a new one`,
          );
        }
      }
      const res = await octokit.rest.issues.createComment({
        owner: req.owner,
        repo: req.repo,
        issue_number: req.issueNumber,
        body: req.body,
      });
      return { kind: "created", id: res.data.id };
    } catch (error) {
      const status = httpStatus(error);
      const serverSide = status === null || status >= 500 || status === 429;
      if (!serverSide || attempt >= retry.attempts)
        return failure(error, existing ? "update the gate comment" : "create the gate comment");
      log.debug(
        `writing the gate comment failed (${status ?? "network"}); listing again before retry ${attempt + 1}`,
      );
      await retry.sleep(delay);
      delay *= 2;
    }
  }
}
