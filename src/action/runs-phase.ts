/**
 * The run-history phases of the action (issue 30, docs/runs.md): "Earlier runs" reads this gate's
 * own check runs and the comment's block before the verdict; the `reruns` check and the report
 * key `runs` are settled with the verdict; the record and the block are written by the GitHub
 * phase (src/action/run.ts) after it.
 */
import { rerunsCheck, runsReport, type RerunsFindings } from "../core/reruns/runs-report.js";
import type { Report } from "../core/report/report-types.js";
import { summaryOfReport } from "../core/runs/run-summary.js";
import type { Check } from "../core/verdict-types.js";
import type { RunContext } from "./context.js";
import type { Octokit, RetrySettings } from "./github-api.js";
import type { ActionInputs } from "./inputs.js";
import type { Logger } from "./logger.js";
import {
  encodeRunsBlock,
  externalId,
  readEarlierRuns,
  earlierRunsOnHead,
  type EarlierRuns,
} from "./run-history.js";
import { resolveCommentAuthor, type CommentAuthor } from "./sticky-comment.js";

/** What the GitHub phase writes for the run history: the check run's record and the comment's block. */
export interface HistoryWrite {
  readonly externalId: string;
  readonly blockLine: string;
  /** Whose comments are the gate's, when the "Earlier runs" phase already asked (null: not asked). */
  readonly author: { readonly value: CommentAuthor | null } | null;
}

/** The "Earlier runs" phase's answer: what it read, or (null) why nothing was read. */
export type EarlierReading =
  | { readonly read: EarlierRuns; readonly authorAsked: boolean; readonly why: null }
  | { readonly read: null; readonly authorAsked: false; readonly why: string };

/**
 * The "Earlier runs" phase, read only and before the verdict (docs/runs.md): this gate's own check
 * runs on the head commit and the sticky comment's run-history block. Every failure is one warning.
 */
export async function earlierRuns(
  inputs: ActionInputs,
  ctx: RunContext,
  octokit: Octokit | null,
  deps: { readonly log: Logger; readonly retry: RetrySettings },
): Promise<EarlierReading> {
  const why =
    octokit === null
      ? "no github-token, or GITHUB_REPOSITORY is not set"
      : ctx.repo === null
        ? "GITHUB_REPOSITORY is not set"
        : ctx.sha === null
          ? "no head commit (GITHUB_SHA)"
          : null;
  if (why !== null || octokit === null || ctx.repo === null || ctx.sha === null) {
    deps.log.info(`Earlier runs: not read (${why ?? "?"}).`);
    return { read: null, authorAsked: false, why: why ?? "not read" };
  }
  const pr = ctx.pullRequest;
  const issueNumber = pr !== null && inputs.comment !== "never" ? pr.number : null;
  // Before the verdict: a failure here costs the history or the comment, never the verdict.
  const github = {
    octokit,
    retry: deps.retry,
    log: deps.log,
    fork: pr?.fork ?? false,
    delivered: "The verdict is not affected.",
  };
  const read = await readEarlierRuns(
    {
      owner: ctx.repo.owner,
      repo: ctx.repo.repo,
      headSha: ctx.sha,
      checkName: inputs.checkName,
      commentKey: inputs.commentKey,
      issueNumber,
    },
    { ...github, resolveAuthor: () => resolveCommentAuthor(github) },
  );
  return { read, authorAsked: issueNumber !== null, why: null };
}

/**
 * The `reruns` check and the report key `runs` (docs/runs.md): the gate decides with the check,
 * `reruns: fail` turns a re-run into reject, and the run's history record is prepared for the
 * GitHub phase. Without a reading (no token) under `latest`, the report is today's.
 */
export function decideWithRuns(
  decide: (extra: readonly Check[]) => Report,
  earlier: EarlierReading,
  mode: RerunsFindings["mode"],
  resultsFiles: readonly string[],
  headSha: string | null,
): { report: Report; history: HistoryWrite | null } {
  const read = earlier.read;
  const findings: RerunsFindings = {
    mode,
    unavailable: read === null ? earlier.why : read.unavailable,
    earlier: read?.onHead == null ? [] : earlierRunsOnHead(read.onHead, resultsFiles, mode),
  };
  const check = rerunsCheck(findings);
  const gated = decide(check === null ? [] : [check.check]);
  if (read === null && check === null) return { report: gated, history: null };
  const engineVerdict = gated.verdict;
  const rejected = check !== null && check.rejects && !check.check.passed && engineVerdict !== "reject";
  const decided: Report = rejected
    ? {
        ...gated,
        verdict: "reject",
        reasons: [
          `Check reruns fails: ${check.check.detail}`,
          ...gated.reasons.filter((r) => !r.startsWith("Check reruns fails:")),
        ],
      }
    : gated;
  const summary = summaryOfReport(decided, headSha);
  const block = read?.block ?? null;
  const verified = read?.verified === true && block !== null;
  const remembered = block?.runs ?? [];
  const encoded = encodeRunsBlock([summary, ...(verified ? remembered : [])], verified ? block.not_kept : 0);
  const runs = runsReport({
    findings,
    check,
    engineVerdict,
    verdict: decided.verdict,
    history: block === null ? "none" : verified ? "verified" : "display_only",
    rows:
      block !== null && !verified
        ? [summary, ...remembered]
        : [summary, ...remembered].slice(0, encoded.kept),
    rowsNotKept: block !== null && !verified ? block.not_kept : encoded.notKept,
  });
  const report: Report = { ...decided, runs };
  if (read === null) return { report, history: null };
  return {
    report,
    history: {
      externalId: externalId({
        verdict: report.verdict,
        results: summary.digests.results.slice(0, 16),
        block: encoded.digest,
      }),
      blockLine: encoded.line,
      author: earlier.authorAsked ? { value: read.author } : null,
    },
  };
}
