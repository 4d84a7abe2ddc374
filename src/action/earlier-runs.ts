/**
 * The run-history phases of the action (docs/runs.md): "Earlier runs" reads this gate's
 * own check runs and the comment's block before the verdict; the `reruns` check and the report
 * key `runs` are settled with the verdict; the record and the block are written by the GitHub
 * phase (src/action/evaluate-mode.ts) after it.
 */
import { rerunsCheck, runsReport, type RerunsFindings } from "../core/run-history/runs-report.js";
import type { Report } from "../core/report/report-types.js";
import { summaryOfReport } from "../core/run-history/run-summary.js";
import type { Check } from "../core/verdict-types.js";
import type { RunContext } from "./context.js";
import type { Octokit, RetrySettings } from "./github-api.js";
import type { ActionInputs } from "./inputs.js";
import type { Logger } from "./logger.js";
import {
  encodeRunsBlock,
  externalId,
  readEarlierRuns,
  digest16,
  earlierRunsOnHead,
  type EarlierRuns,
} from "./run-history.js";
import { resolveCommentAuthor, type CommentAuthor } from "./sticky-comment.js";
import { InputError } from "../core/errors.js";
import type { Dataset } from "../core/model.js";
import { withSinceLastRun } from "../core/run-history/since-last-run.js";
import type { GitRunner } from "../git/run-git.js";
import { readPreviousRun } from "../read/previous-run.js";
import type { RunRequest } from "../read/run-inputs.js";
import { sha256Hex } from "../read/sha256-hex.js";
import { readBaseVersions, type GitToFile } from "./base-files.js";

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
    current: digest16(resultsFiles),
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
  const summary = summaryOfReport(decided, headSha, sha256Hex);
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

/** The inputs for "what changed since the last run" in the action. */
export interface SinceLastRunRequest {
  readonly report: Report;
  /** The Dataset this run decided on. */
  readonly dataset: Dataset;
  readonly earlier: EarlierReading;
  /** This run's read request: the previous run is read the same way. */
  readonly request: RunRequest;
  readonly ctx: RunContext;
  readonly inputs: ActionInputs;
  readonly octokit: Octokit | null;
  readonly display: (abs: string) => string;
}

/**
 * What changed since the last run (report key `since_last_run`, docs/spec.md §3.7). The previous
 * run is the newest row of a verified history (an unverified block never feeds it). Its Dataset
 * is read again from the results and reviews inputs as they were at its head commit
 * (base-files.ts: git, or the contents API in a shallow checkout) when every results file is
 * tracked in the repository there; otherwise the per-task parts are left out and `unavailable`
 * says why. The previous run is decided under this run's policy text (the summary it reported is
 * the remembered one). Without a verified history the report is left as it is (`since_last_run`
 * null).
 */
export async function withActionSinceLastRun(
  req: SinceLastRunRequest,
  deps: { readonly log: Logger; readonly git: GitRunner; readonly gitToFile: GitToFile },
): Promise<Report> {
  const read = req.earlier.read;
  const previous = read?.verified === true ? (read.block?.runs[0] ?? null) : null;
  if (previous === null) return req.report;
  const headSha = req.ctx.sha;
  const sha = previous.head_sha;
  const done = (dataset: Dataset | null, unavailable: string | null): Report => {
    deps.log.info(
      unavailable === null
        ? `Since the last run: compared task by task with the run on ${sha ?? "?"}.`
        : `Since the last run: figures only (${unavailable}).`,
    );
    return withSinceLastRun(
      req.report,
      req.dataset,
      headSha,
      { summary: previous, dataset, unavailable },
      sha256Hex,
    );
  };
  if (sha === null || req.ctx.repo === null) return done(null, "the previous run names no commit");
  // Quiet: these messages are about the append-only check elsewhere; here one line says the outcome.
  const log = deps.log;
  const quiet: Logger = {
    error: (m, props) => {
      log.error(m, props);
    },
    debug: (m) => {
      log.debug(m);
    },
    group: (name, fn) => log.group(name, fn),
    info: (m) => {
      deps.log.debug(m);
    },
    warning: (m) => {
      deps.log.debug(m);
    },
  };
  const versions = await readBaseVersions(
    {
      owner: req.ctx.repo.owner,
      repo: req.ctx.repo.repo,
      baseSha: sha,
      workspace: req.ctx.workspace,
      tempRoot: req.ctx.runnerTemp,
      results: req.inputs.results,
      reviews: req.inputs.reviews,
      display: req.display,
    },
    { octokit: req.octokit, git: deps.git, gitToFile: deps.gitToFile, log: quiet },
  );
  try {
    const missing = versions.base.files.find((f) => f.kind === "results" && !f.compared);
    const results = versions.previous?.results ?? [];
    if (missing !== undefined || results.length === 0)
      return done(
        null,
        `the previous run's results are not files tracked in the repository at ${sha.slice(0, 12)}` +
          (missing?.note != null ? ` (${missing.path}: ${missing.note})` : ""),
      );
    try {
      const reading = await readPreviousRun(
        { ...req.request, displayPath: (abs) => versions.names.get(abs) ?? req.display(abs) },
        {
          results,
          reviews: versions.previous?.reviews ?? [],
          policy: req.request.policy,
          headSha: sha,
        },
      );
      return done(reading.dataset, null);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      return done(
        null,
        `the previous run's files cannot be read: ${error.message.split("\n")[0] ?? ""}`.slice(0, 300),
      );
    }
  } finally {
    await versions.dispose();
  }
}
