/**
 * This gate's earlier runs on the pull request (docs/runs.md).
 *
 * Two records, one trusted: every run's check run carries `external_id` = `model-gate/1 <verdict>
 * <results digest, 16 hex> <block digest, 32 hex>`; the check runs the action itself created on
 * the head commit (listed with `check_name` and `filter=all`: the default `latest` hides earlier
 * runs) are the authority for re-runs. Only GitHub Apps with `checks: write` can create check runs,
 * which a pull request's author does not hold. The sticky comment carries a hidden block
 * `<!-- model-gate:runs v1 <base64 JSON> -->` with the remembered RunSummary rows (nothing per
 * task). A PR author can edit the comment, so the block is parsed with zod strictObject and used
 * only when its digest equals the block digest of one of the gate's own check runs; otherwise it
 * is shown marked as unverified and never used to decide, nor carried into the next block.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { inputsDigest, runSummarySchema } from "../core/run-history/run-summary.js";
import type { RunSummary } from "../core/run-history/run-types.js";
import { RUN_HISTORY_MAX, type EarlierRun, type RerunsMode } from "../core/run-history/runs-report.js";
import type { Verdict } from "../core/verdict-types.js";
import { sha256Hex } from "../read/sha256-hex.js";
import { apiMessage, checkAnswer, httpStatus, type PublishDeps } from "./github-api.js";
import { listGateComments, type CommentAuthor, type CommentTarget } from "./sticky-comment.js";
import { plural } from "../core/words.js";

/** The block's start; the version lets a later format be told apart (and ignored) by this one. */
export const RUNS_BLOCK_PREFIX = "<!-- model-gate:runs v1 ";
const RUNS_BLOCK_ANY = "<!-- model-gate:runs ";
/** The block's size bound (base64 characters): a quarter of the comment limit (twenty rows of short model names), the rest is the report. */
export const RUNS_BLOCK_MAX_CHARS = 16_000;
export const EXTERNAL_ID_PREFIX = "model-gate/1";
/** Safety net for a runaway pagination of check runs (10,000). */
const MAX_CHECK_RUN_PAGES = 100;
/** Under `reruns: pool`, subsets of at most this many results files are tried against an earlier run's digest. */
export const POOL_SUBSET_FILES_MAX = 12;

const blockSchema = z.strictObject({
  runs: z.array(runSummarySchema).max(RUN_HISTORY_MAX),
  not_kept: z.number().int().nonnegative().max(1_000_000_000),
});
export type RunsBlock = z.infer<typeof blockSchema>;

/** The digest a check run's external_id carries for a block: sha256 of its base64 text, 32 hex. */
export function blockDigest(payload: string): string {
  return createHash("sha256").update(payload, "utf8").digest("hex").slice(0, 32);
}

/** The hidden block line and its digest; the oldest rows are dropped until it fits RUNS_BLOCK_MAX_CHARS. */
export function encodeRunsBlock(
  rows: readonly RunSummary[],
  notKept: number,
): {
  line: string;
  digest: string;
  kept: number;
  notKept: number;
} {
  let kept = rows.slice(0, RUN_HISTORY_MAX);
  let dropped = notKept + (rows.length - kept.length);
  for (;;) {
    const payload = Buffer.from(JSON.stringify({ runs: kept, not_kept: dropped }), "utf8").toString("base64");
    if (payload.length <= RUNS_BLOCK_MAX_CHARS || kept.length <= 1)
      return {
        line: `${RUNS_BLOCK_PREFIX}${payload} -->`,
        digest: blockDigest(payload),
        kept: kept.length,
        notKept: dropped,
      };
    kept = kept.slice(0, -1);
    dropped += 1;
  }
}

export type BlockReading =
  | { readonly kind: "none" }
  | { readonly kind: "broken"; readonly problem: string }
  | { readonly kind: "read"; readonly block: RunsBlock; readonly digest: string };

/** The block in a comment body: none, broken (one line why), or read (schema-checked, not yet verified). */
export function readRunsBlock(body: string): BlockReading {
  const at = body.indexOf(RUNS_BLOCK_ANY);
  if (at < 0) return { kind: "none" };
  if (!body.startsWith(RUNS_BLOCK_PREFIX, at))
    return { kind: "broken", problem: "a run-history block of another version" };
  const start = at + RUNS_BLOCK_PREFIX.length;
  const end = body.indexOf(" -->", start);
  if (end < 0) return { kind: "broken", problem: "the run-history block is not closed" };
  const payload = body.slice(start, end);
  if (payload.length > RUNS_BLOCK_MAX_CHARS)
    return {
      kind: "broken",
      problem: `the run-history block is ${payload.length} characters (at most ${RUNS_BLOCK_MAX_CHARS})`,
    };
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload))
    return { kind: "broken", problem: "the run-history block is not base64" };
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(payload, "base64").toString("utf8"));
  } catch {
    return { kind: "broken", problem: "the run-history block is not JSON" };
  }
  const parsed = blockSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      kind: "broken",
      problem: `the run-history block does not match its schema (${issue === undefined ? "?" : `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`})`,
    };
  }
  return { kind: "read", block: parsed.data, digest: blockDigest(payload) };
}

/** What a check run's external_id records. */
export interface RunRecord {
  readonly verdict: Verdict;
  readonly results: string;
  readonly block: string;
}

export function externalId(r: RunRecord): string {
  return `${EXTERNAL_ID_PREFIX} ${r.verdict} ${r.results} ${r.block}`;
}

const EXTERNAL_ID = /^model-gate\/1 (accept|reject|unresolved) ([0-9a-f]{16}) ([0-9a-f]{32})$/;

export function parseExternalId(s: string | null | undefined): RunRecord | null {
  const m = typeof s === "string" ? EXTERNAL_ID.exec(s) : null;
  if (m === null) return null;
  return { verdict: m[1] as Verdict, results: m[2] ?? "", block: m[3] ?? "" };
}

export interface OwnCheckRun extends RunRecord {
  readonly id: number;
}

const CheckRunsAnswer = z.object({
  total_count: z.number().int().nonnegative(),
  check_runs: z.array(
    z.object({
      id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
      name: z.string(),
      external_id: z.string().nullish(),
    }),
  ),
});

/**
 * The gate's own check runs on `ref`, oldest first: every page of GET …/commits/{ref}/check-runs
 * with `check_name` and `filter=all`, kept when the name matches and the external_id is the
 * action's record. Each check run counts once, by its id: a run listed twice is one run, and a
 * page that brings no run not seen before (GitHub answering the same page again, a broken
 * pagination) ends the listing, with one warning when `log` is given. Throws on an API failure
 * (the caller says it once).
 */
export async function listOwnCheckRuns(
  deps: Pick<PublishDeps, "octokit"> & { readonly log?: Pick<PublishDeps["log"], "warning"> },
  target: { owner: string; repo: string; ref: string; checkName: string },
): Promise<OwnCheckRun[]> {
  const out: OwnCheckRun[] = [];
  const ids = new Set<number>();
  let seen = 0;
  for (let page = 1; page <= MAX_CHECK_RUN_PAGES; page++) {
    const res = await deps.octokit.rest.checks.listForRef({
      owner: target.owner,
      repo: target.repo,
      ref: target.ref,
      check_name: target.checkName,
      filter: "all",
      per_page: 100,
      page,
    });
    const answer = checkAnswer(res, CheckRunsAnswer);
    let added = 0;
    for (const run of answer.check_runs) {
      if (ids.has(run.id)) continue;
      ids.add(run.id);
      added += 1;
      if (run.name !== target.checkName) continue;
      const record = parseExternalId(run.external_id);
      if (record !== null) out.push({ id: run.id, ...record });
    }
    if (answer.check_runs.length > 0 && added === 0) {
      deps.log?.warning(
        `GitHub answered page ${page} of the check runs on ${target.ref} with check runs already listed ` +
          "(a repeated page: its pagination is broken): the listing stops there, each check run counted once.",
      );
      break;
    }
    seen += answer.check_runs.length;
    if (answer.check_runs.length === 0 || seen >= answer.total_count) break;
  }
  return out.sort((a, b) => a.id - b.id);
}

/** What the "Earlier runs" phase found, before the verdict. */
export interface EarlierRuns {
  /** The gate's own check runs on the head commit, oldest first; null when they could not be read. */
  readonly onHead: readonly OwnCheckRun[] | null;
  /** Why they could not be read, else null. */
  readonly unavailable: string | null;
  /** The comment's block: verified, display only, or none. */
  readonly block: RunsBlock | null;
  readonly verified: boolean;
  /** Whose comments are the gate's (resolved here so the comment phase does not ask again); null: unknown. */
  readonly author: CommentAuthor | null;
}

/**
 * Reads the check runs on the head commit and the comment's block (read only; every failure one
 * warning or debug line, never a throw). `resolveAuthor` is asked only when there is a comment to read.
 */
export async function readEarlierRuns(
  req: {
    owner: string;
    repo: string;
    headSha: string;
    checkName: string;
    commentKey: string;
    /** The pull request, when the comment is read (null: not a pull request, or `comment: never`). */
    issueNumber: number | null;
  },
  deps: PublishDeps & { resolveAuthor: () => Promise<CommentAuthor | null> },
): Promise<EarlierRuns> {
  const { log } = deps;
  let onHead: OwnCheckRun[] | null = null;
  let unavailable: string | null = null;
  try {
    onHead = await listOwnCheckRuns(deps, {
      owner: req.owner,
      repo: req.repo,
      ref: req.headSha,
      checkName: req.checkName,
    });
    log.info(
      `Earlier runs: ${plural(onHead.length, "earlier check run")} "${req.checkName}" of this gate on ${req.headSha}.`,
    );
  } catch (error) {
    const status = httpStatus(error);
    unavailable =
      `listing the check runs failed: ${status === null ? "" : `${status} `}${apiMessage(error)}`.slice(
        0,
        300,
      );
    log.warning(
      `Could not read this gate's earlier check runs on ${req.headSha} (${unavailable}); the run count and re-runs are unknown. The job needs \`permissions: checks: read\`.`,
    );
  }
  let block: RunsBlock | null = null;
  let verified = false;
  let author: CommentAuthor | null = null;
  if (req.issueNumber !== null) {
    author = await deps.resolveAuthor();
    if (author !== null) {
      const target: CommentTarget = { owner: req.owner, repo: req.repo, issueNumber: req.issueNumber };
      try {
        const found = await listGateComments(deps.octokit, target, author, req.commentKey, log);
        const comment = found.keyed[0] ?? found.legacy[0];
        const reading = comment === undefined ? ({ kind: "none" } as const) : readRunsBlock(comment.body);
        if (reading.kind === "broken")
          log.warning(
            `The gate comment's run history is ignored: ${reading.problem}. The history restarts from this run.`,
          );
        if (reading.kind === "read") {
          block = reading.block;
          verified = await blockVerified(reading, onHead, req, deps);
          if (!verified)
            log.warning(
              "The gate comment's run history matches none of this gate's check runs (edited, or the check runs cannot be read): shown as unverified, not used to decide.",
            );
        }
      } catch (error) {
        // Not a warning: the comment phase lists again, and warns once if that fails too.
        log.info(`Could not read the gate comment's run history (${apiMessage(error)}); shown without it.`);
      }
    }
  }
  return { onHead, unavailable, block, verified, author };
}

/** The block's digest is one of the gate's own check runs' (on the head commit, or on the commit of its newest row). */
async function blockVerified(
  reading: { block: RunsBlock; digest: string },
  onHead: readonly OwnCheckRun[] | null,
  req: { owner: string; repo: string; headSha: string; checkName: string },
  deps: PublishDeps,
): Promise<boolean> {
  if (onHead?.some((r) => r.block === reading.digest) === true) return true;
  const sha = reading.block.runs[0]?.head_sha ?? null;
  if (sha === null || sha === req.headSha) return false;
  try {
    const there = await listOwnCheckRuns(deps, {
      owner: req.owner,
      repo: req.repo,
      ref: sha,
      checkName: req.checkName,
    });
    return there.some((r) => r.block === reading.digest);
  } catch (error) {
    deps.log.debug(
      `listing the check runs on ${sha} failed (${apiMessage(error)}); the run history is unverified`,
    );
    return false;
  }
}

/** The 16-hex results digest a check run's external_id records (RunSummary.digests.results, cut). */
export function digest16(fileDigests: readonly string[]): string {
  return inputsDigest(fileDigests, sha256Hex).slice(0, 16);
}

/**
 * The earlier runs on the head commit as the `reruns` check sees them: which had other results,
 * and (under `pool`) whether some of this run's results files are exactly that run's.
 */
export function earlierRunsOnHead(
  onHead: readonly OwnCheckRun[],
  resultsFiles: readonly string[],
  mode: RerunsMode,
): EarlierRun[] {
  const current = digest16(resultsFiles);
  const pooled = mode === "pool" ? subsetDigests(resultsFiles) : null;
  return onHead.map((r) => ({
    check_run_id: r.id,
    verdict: r.verdict,
    results_digest: r.results,
    other_results: r.results !== current,
    pooled: pooled === null ? null : pooled.has(r.results),
  }));
}

/** The 16-hex digests of the non-empty subsets of the files (all of them up to POOL_SUBSET_FILES_MAX files; beyond, each file alone and all together). */
function subsetDigests(files: readonly string[]): Set<string> {
  const out = new Set<string>();
  const n = files.length;
  if (n <= POOL_SUBSET_FILES_MAX) {
    for (let mask = 1; mask < 1 << n; mask++)
      out.add(digest16(files.filter((_, i) => (mask & (1 << i)) !== 0)));
  } else {
    for (const f of files) out.add(digest16([f]));
    out.add(digest16(files));
  }
  return out;
}
