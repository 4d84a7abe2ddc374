/**
 * One sticky comment per pull request and gate, edited in place on every run.
 *
 * The comment is found by three things together: its body starts with the hidden COMMENT_MARKER,
 * the key line right under it names this gate (the `comment-key` input, by default the check
 * name, so two gate steps on one pull request keep two comments), and its author is the identity
 * the token acts as. The marker alone is not enough: anyone can paste it into a comment, and the
 * action must neither edit (it could not) nor adopt someone else's comment. A comment written
 * before comments had keys (the marker with no key line) is adopted when this gate has no keyed
 * comment yet, so upgrading leaves no stale second comment.
 *
 * The token's identity comes from GitHub: GraphQL `viewer { login databaseId }` works for every
 * token (GITHUB_TOKEN, a personal access token, another GitHub App's installation token). When
 * GraphQL is refused, GET /user answers for personal access tokens; an installation token, which
 * cannot call GET /user, is taken to be `github-actions[bot]`, the author of GITHUB_TOKEN's
 * comments.
 *
 * All comments are listed, 100 per page, following every page, so a long discussion never hides
 * the existing comment and leads to a second one. Two runs that both find no comment and both
 * create one (a create–create race) end with one: after creating, each run lists again, and the
 * run whose comment is not the oldest of this gate's deletes its own and updates the oldest.
 * `on-change` compares a digest of the verdict and figures, embedded in a hidden line under the
 * marker, and leaves the comment alone when it is the same.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { COMMENT_MARKER } from "../core/report/escape.js";
import {
  apiMessage,
  backoffMs,
  malformed,
  checkAnswer,
  httpStatus,
  isRateLimit,
  MalformedAnswerError,
  type Octokit,
  type PublishDeps,
  warnFailure,
} from "./github-api.js";
import type { Logger } from "./logger.js";

/** The author of comments created with GITHUB_TOKEN. */
export const ACTIONS_BOT_LOGIN = "github-actions[bot]";

const KEY_PREFIX = "<!-- model-acceptance-gate:key ";
const DIGEST_PREFIX = "<!-- model-acceptance-gate:digest ";
const LINE_SUFFIX = " -->";
const PERMISSION = "pull-requests: write";
/** Safety net for a runaway pagination (10,000 comments). */
const MAX_PAGES = 100;

/**
 * The key as it appears in the hidden key line: percent-encoded, so it can hold neither a line
 * break nor `-->`, whatever the check name is.
 */
export function encodeCommentKey(key: string): string {
  return encodeURIComponent(key);
}

/** The hidden line that names the gate a comment belongs to. */
export function keyLine(key: string): string {
  return `${KEY_PREFIX}${encodeCommentKey(key)}${LINE_SUFFIX}`;
}

/** The hidden line that carries the digest of what the comment shows. */
export function digestLine(digest: string): string {
  return `${DIGEST_PREFIX}${digest}${LINE_SUFFIX}`;
}

/** The first lines of a gate comment: the marker, the key line and the digest line. */
export function commentHeader(key: string, digest: string): string {
  return `${COMMENT_MARKER}\n${keyLine(key)}\n${digestLine(digest)}`;
}

export interface CommentHeader {
  /** The encoded key, or null for a comment written before comments had keys. */
  readonly key: string | null;
  readonly digest: string | null;
}

/** The hidden lines right after the marker at the start of the body; null when it has no marker there. */
export function readHeader(body: string): CommentHeader | null {
  if (!body.startsWith(COMMENT_MARKER)) return null;
  const head = body.slice(COMMENT_MARKER.length, COMMENT_MARKER.length + 2000);
  const m =
    /^\r?\n(?:<!-- model-acceptance-gate:key ([A-Za-z0-9%!'()*._~-]{1,1500}) -->\r?\n)?(?:<!-- model-acceptance-gate:digest ([0-9a-f]{16,64}) -->)?/.exec(
      head,
    );
  return { key: m?.[1] ?? null, digest: m?.[2] ?? null };
}

/** The digest embedded in a comment body by `commentHeader`, or null. */
export function readDigest(body: string): string | null {
  return readHeader(body)?.digest ?? null;
}

/** Whose comments are the gate's: a user id when GitHub gave one, else a login. */
export interface CommentAuthor {
  readonly login: string;
  /** The account's numeric id (REST `user.id`, GraphQL `databaseId`); null when unknown. */
  readonly id: number | null;
}

const VIEWER_QUERY = "query { viewer { login databaseId } }";

/** What is used of the answers that say who the token is. */
const ViewerAnswer = z.object({
  viewer: z.object({ login: z.string().min(1), databaseId: z.number().int().nullable() }),
});
const UserAnswer = z.object({ login: z.string().min(1), id: z.number().int() });
/** One comment of a listing: GitHub's `user` is null for a deleted account; `body` can be absent. */
const CommentAnswer = z.object({
  id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  body: z.string().nullish(),
  user: z.object({ login: z.string(), id: z.number() }).nullable(),
});
const CommentsAnswer = z.array(CommentAnswer);
const WrittenComment = z.object({ id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/**
 * The token's identity by GraphQL `viewer`. An answer with `errors` (HTTP 200) is a refusal;
 * server errors and no answer are retried by the client. Throws when there is no usable answer.
 */
async function viewerByGraphql(octokit: Octokit): Promise<CommentAuthor> {
  let data: unknown;
  try {
    data = await octokit.graphql(VIEWER_QUERY);
  } catch (error) {
    if (error instanceof Error && error.name === "GraphqlResponseError") {
      const errors = (error as { errors?: unknown }).errors;
      const messages = Array.isArray(errors)
        ? errors
            .map((e) => (e as { message?: unknown } | null)?.message)
            .filter((m): m is string => typeof m === "string" && m !== "")
        : [];
      throw new Error(`GraphQL answered errors: ${messages.join("; ").slice(0, 500) || "none given"}`, {
        cause: error,
      });
    }
    throw error;
  }
  const parsed = ViewerAnswer.safeParse(data);
  if (!parsed.success) throw new Error("GraphQL answered without a usable viewer login");
  const { login, databaseId } = parsed.data.viewer;
  return { login, id: databaseId !== null && Number.isSafeInteger(databaseId) ? databaseId : null };
}

/**
 * Whose comments the action may treat as its own, or null when GitHub gave no answer (GraphQL
 * failed and GET /user failed with no answer, a server error or an unusable answer, after
 * retries): the caller then posts no comment, since a wrong guess would post a second one beside
 * the gate's own.
 */
export async function resolveCommentAuthor(deps: PublishDeps): Promise<CommentAuthor | null> {
  const { octokit, log } = deps;
  try {
    const author = await viewerByGraphql(octokit);
    log.debug(`the token acts as ${author.login} (id ${author.id ?? "unknown"}), per GraphQL viewer`);
    return author;
  } catch (error) {
    const status = httpStatus(error);
    log.debug(
      `GraphQL viewer: ${status === null ? "" : `${status} `}${apiMessage(error)}; asking GET /user instead`,
    );
  }
  try {
    const user = checkAnswer(await octokit.rest.users.getAuthenticated(), UserAnswer);
    log.debug(`the token acts as ${user.login}`);
    return { login: user.login, id: user.id };
  } catch (error) {
    const status = httpStatus(error);
    // Installation tokens (GITHUB_TOKEN) answer 403 "Resource not accessible by integration".
    if (status !== null && status < 500 && !isRateLimit(error)) {
      log.debug(`GET /user answered ${status}; assuming comments are by ${ACTIONS_BOT_LOGIN}`);
      return { login: ACTIONS_BOT_LOGIN, id: null };
    }
    warnFailure(
      deps,
      error,
      "tell which comments are the gate's (GraphQL viewer and GET /user), so no comment is posted (a guess could post a second one)",
      PERMISSION,
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

function isBy(user: { login: string; id: number } | null, author: CommentAuthor): boolean {
  if (!user) return false;
  return author.id !== null ? user.id === author.id : user.login === author.login;
}

/** The gate's comments on the pull request, oldest first: those keyed for `key`, and unkeyed (older) ones. */
export interface GateComments {
  readonly keyed: readonly ExistingComment[];
  readonly legacy: readonly ExistingComment[];
}

/** Lists every comment (all pages) and keeps the marker comments by `author`, keyed for `key` or unkeyed. */
export async function listGateComments(
  octokit: Octokit,
  target: CommentTarget,
  author: CommentAuthor,
  key: string,
  log: Logger,
): Promise<GateComments> {
  const encoded = encodeCommentKey(key);
  const keyed: ExistingComment[] = [];
  const legacy: ExistingComment[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const res = await octokit.rest.issues.listComments({
      owner: target.owner,
      repo: target.repo,
      issue_number: target.issueNumber,
      per_page: 100,
      page,
    });
    const comments = checkAnswer(res, CommentsAnswer);
    for (const c of comments) {
      if (typeof c.body !== "string" || !isBy(c.user, author)) continue;
      const header = readHeader(c.body);
      if (header === null) continue;
      if (header.key === encoded) keyed.push({ id: c.id, body: c.body });
      else if (header.key === null) legacy.push({ id: c.id, body: c.body });
    }
    if (!nextPageExists(res.headers.link) || comments.length === 0) break;
    if (page === MAX_PAGES)
      log.warning(`Stopped looking for the previous gate comment after ${MAX_PAGES} pages of comments.`);
  }
  const byId = (a: ExistingComment, b: ExistingComment): number => a.id - b.id;
  return { keyed: keyed.sort(byId), legacy: legacy.sort(byId) };
}

export type CommentOutcome =
  | { readonly kind: "created" | "updated" | "unchanged"; readonly id: number }
  | { readonly kind: "failed"; readonly id: null };

export interface UpsertRequest extends CommentTarget {
  /** The full body: starts with `commentHeader(key, digest)`. */
  readonly body: string;
  readonly digest: string;
  /** Which gate's comment this is (the `comment-key` input). */
  readonly key: string;
  readonly mode: "always" | "on-change";
  readonly author: CommentAuthor;
}

/**
 * The comment writes are not retried by the client (`retries: 0`): a write whose answer was lost
 * may have landed, so it is retried here only after listing again.
 */
const NO_CLIENT_RETRY = { retries: 0 } as const;

/**
 * After creating comment `createdId`: list again, and when an older comment of this gate exists
 * (another run created one at the same time), delete ours and update the oldest with our body.
 * Every run that created a comment does this, so the oldest survives and the rest are removed by
 * their own runs. When the listing or the delete fails, the created comment stays (it is complete).
 */
async function settleRace(req: UpsertRequest, createdId: number, deps: PublishDeps): Promise<CommentOutcome> {
  const { octokit, log } = deps;
  let keyed: readonly ExistingComment[];
  try {
    keyed = (await listGateComments(octokit, req, req.author, req.key, log)).keyed;
  } catch (error) {
    log.debug(`listing again after creating the gate comment failed (${apiMessage(error)}); kept it`);
    return { kind: "created", id: createdId };
  }
  const oldest = keyed[0];
  if (oldest === undefined || oldest.id >= createdId) return { kind: "created", id: createdId };
  const race = `Another run created this gate's comment (id ${oldest.id}) at the same time as this run's (id ${createdId})`;
  try {
    const res = await octokit.rest.issues.deleteComment({
      owner: req.owner,
      repo: req.repo,
      comment_id: createdId,
    });
    // GitHub answers 204 No Content; anything else did not say the comment is gone.
    if ((res.status as number) !== 204) throw malformed(res);
  } catch (error) {
    if (httpStatus(error) !== 404) {
      log.info(`${race}; this run's could not be deleted (${apiMessage(error)}), so both stay.`);
      return { kind: "created", id: createdId };
    }
  }
  try {
    // An edit is the same whether it lands once or twice: the client may retry it.
    const res = await octokit.rest.issues.updateComment({
      owner: req.owner,
      repo: req.repo,
      comment_id: oldest.id,
      body: req.body,
    });
    const id = checkAnswer(res, WrittenComment).id;
    log.info(`${race}; this run's is deleted and the older one updated.`);
    return { kind: "updated", id };
  } catch (error) {
    log.info(`${race}; this run's is deleted.`);
    warnFailure(deps, error, "update the gate comment", PERMISSION);
    return { kind: "failed", id: null };
  }
}

/**
 * Updates the sticky comment in place, or creates it when there is none. A comment deleted between
 * listing and updating (404) is replaced by a new one. A write that failed with a server error or
 * no answer is retried (with backoff) only after listing again, so a create that did land despite
 * the error is updated, never duplicated. Never throws for an API failure: it warns and reports
 * `failed`.
 */
export async function upsertStickyComment(req: UpsertRequest, deps: PublishDeps): Promise<CommentOutcome> {
  const { octokit, retry, log } = deps;
  const failure = (error: unknown, action: string, attempts: number | null = null): CommentOutcome => {
    warnFailure(deps, error, action, PERMISSION, attempts);
    return { kind: "failed", id: null };
  };
  for (let attempt = 1; ; attempt++) {
    let existing: ExistingComment | null;
    try {
      // This gate's comment: the oldest keyed for it, else the oldest written before keys.
      const found = await listGateComments(octokit, req, req.author, req.key, log);
      existing = found.keyed[0] ?? found.legacy[0] ?? null;
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
            request: NO_CLIENT_RETRY,
          });
          return { kind: "updated", id: checkAnswer(res, WrittenComment).id };
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
        request: NO_CLIENT_RETRY,
      });
      return await settleRace(req, checkAnswer(res, WrittenComment).id, deps);
    } catch (error) {
      const status = httpStatus(error);
      const retryable = !(error instanceof MalformedAnswerError) && (status === null || status >= 500);
      // The wait before the next try is asked of the run's retry budget, as the client's are.
      if (!retryable || attempt > retry.retries || retry.budget?.take(attempt * attempt) === false)
        return failure(error, existing ? "update the gate comment" : "create the gate comment", attempt);
      log.debug(
        `writing the gate comment failed (${status ?? "no answer"}); listing again before try ${attempt + 1}`,
      );
      await sleep(backoffMs(retry, attempt));
    }
  }
}
