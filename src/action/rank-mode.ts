/**
 * The action in rank mode (`models` set; docs/rank.md "In the action"): several configs ranked on
 * one common task set, gated by the policy's `rank.require`. The same phases and promises as
 * evaluate's run (src/action/evaluate-mode.ts, whose pieces it reuses): the policy from the base commit,
 * the verdict in the job summary, the outputs and the report file before any GitHub call, then
 * one check run and one sticky comment under its own key (by default the check name "Model
 * ranking", so an evaluate gate and a rank gate on one pull request keep one comment each).
 * Nothing here fails the step: a user error is thrown, a verdict is returned with what fails it.
 */
import { createHash } from "node:crypto";
import { InputError } from "../core/errors.js";
import { parsePolicy } from "../core/policy/load-policy.js";
import { checkRankGate } from "../core/rank/rank-gate.js";
import { runRank } from "../core/rank/rank.js";
import { rankGateTitle, renderRankGateMarkdown } from "../core/rank/render-rank-gate.js";
import { renderRankMarkdown } from "../core/rank/render-rank-markdown.js";
import type { RankReport } from "../core/rank/rank-types.js";
import { COMMENT_MARKER } from "../core/report/escape.js";
import {
  CHECK_RUN_TEXT_MAX,
  COMMENT_BODY_MAX,
  STEP_SUMMARY_MAX_BYTES,
} from "../core/report/github-limits.js";
import { quote } from "../core/quote.js";
import { outputTargetProblem } from "../io/file-kind.js";
import { readRankInputs } from "../read/read-models.js";
import { TOOL_VERSION } from "../version.js";
import { conclusionFor } from "./check-run.js";
import { readRunContext, type RunContext } from "./context.js";
import { idOutputs } from "./outputs.js";
import { DEFAULT_RANK_CHECK_NAME, readRankActionInputs, type RankActionInputs } from "./rank-inputs.js";
import {
  baseVersions,
  choosePolicy,
  errorSummary,
  failOnMessage,
  makeDisplayPath,
  publishToGitHub,
  renderWithinBytes,
  reportInputError,
  writeReportFile,
  type ActionDeps,
  type Delivery,
} from "./evaluate-mode.js";
import { commentHeader } from "./sticky-comment.js";
import { confirmWorkflowRunPullRequest } from "./workflow-run.js";
import { plural } from "../core/words.js";

/** The outputs rank mode sets (evaluate's figures are not set: they describe one pair). */
export const RANK_OUTPUT_NAMES = [
  "verdict",
  "top",
  "top-resolved",
  "report-path",
  "check-run-id",
  "comment-id",
] as const;

export interface RankActionResult {
  readonly report: RankReport;
  readonly checkRunId: number | null;
  readonly commentId: number | null;
  /** The message the step fails with per `fail-on`; null when the verdict passes. */
  readonly verdictFailure: string | null;
  /** What could not be delivered (already said with an ::error::): the step fails. */
  readonly undelivered: readonly string[];
}

/** The rank outputs of a report (without the ids known only after publishing). */
export function rankOutputs(report: RankReport, reportPath: string): Record<string, string> {
  return {
    verdict: report.gate.verdict,
    top: report.top ?? "",
    "top-resolved": report.top_resolved ? "true" : "false",
    "report-path": reportPath,
  };
}

/** The digest `comment: on-change` compares: the report without its provenance (files, versions). */
export function rankDigest(report: RankReport): string {
  const shown = JSON.stringify(report, (key, value: unknown) => (key === "provenance" ? undefined : value));
  return createHash("sha256").update(shown, "utf8").digest("hex");
}

/** The gate block, then the ranking within what is left of `max` characters. */
export function rankMarkdown(report: RankReport, title: string, max: number): string {
  const gate = renderRankGateMarkdown(report, title) + "\n";
  return gate + renderRankMarkdown(report, { maxLength: Math.max(0, max - gate.length) });
}

/** The sticky comment body: the marker, the hidden key and digest lines, the gate and the ranking. */
export function rankCommentBody(
  report: RankReport,
  title: string,
  key: string,
): { body: string; digest: string } {
  const digest = rankDigest(report);
  const header = commentHeader(key, digest) + "\n\n";
  if (!header.startsWith(COMMENT_MARKER))
    throw new Error("the comment header does not start with the marker");
  return { body: header + rankMarkdown(report, title, COMMENT_BODY_MAX - header.length), digest };
}

/** Runs the action in rank mode. Throws InputError for user errors (after reporting them where it can). */
export async function runRankAction(deps: ActionDeps): Promise<RankActionResult> {
  const { log } = deps;
  const { ctx, inputs, octokit, reportProblem } = await log.group("Inputs", async () => {
    let ctx: RunContext;
    let inputs: RankActionInputs;
    try {
      ctx = readRunContext(deps.env, deps.cwd);
      inputs = readRankActionInputs(
        deps.getInput,
        { workspace: ctx.workspace, runnerTemp: ctx.runnerTemp },
        ctx.pullRequest !== null || ctx.mergeGroup !== null || ctx.workflowRun !== null,
      );
    } catch (error) {
      if (error instanceof InputError)
        await deps.writeSummary(
          errorSummary(error, "input error", deps.getInput("check-name").trim() || DEFAULT_RANK_CHECK_NAME),
        );
      throw error;
    }
    log.info(
      `Rank mode: ${inputs.rank.models.length} models (${inputs.rank.models.map(quote).join(", ")}); ` +
        `event ${ctx.eventName || "(none)"}; policy ${inputs.policy.repoPath}.`,
    );
    for (const warning of ctx.warnings) log.warning(warning);
    const reportProblem = outputTargetProblem(inputs.reportPath, [
      ...[...inputs.results, ...inputs.reviews].map((path) => ({
        path,
        shown: makeDisplayPath(ctx.workspace)(path),
      })),
      { path: inputs.policy.absPath, shown: inputs.policy.repoPath },
    ]);
    const octokit =
      inputs.token !== "" && ctx.repo !== null ? await deps.makeOctokit(inputs.token, ctx.apiUrl) : null;
    if (octokit === null) log.info("No github-token or repository: nothing is asked of GitHub.");
    if (ctx.workflowRun !== null) {
      try {
        if (ctx.repo === null)
          throw new InputError(
            "GITHUB_REPOSITORY is not set: on workflow_run the pull request cannot be confirmed.",
          );
        const confirmed = await confirmWorkflowRunPullRequest(
          { owner: ctx.repo.owner, repo: ctx.repo.repo, run: ctx.workflowRun, input: inputs.pullRequest },
          { octokit, log },
        );
        ctx = { ...ctx, pullRequest: confirmed };
      } catch (error) {
        if (error instanceof InputError) await reportInputError(error, inputs, ctx, octokit, deps);
        throw error;
      }
    }
    return { ctx, inputs, octokit, reportProblem };
  });
  const displayPath = makeDisplayPath(ctx.workspace);

  let report: RankReport;
  let onUnresolved: "fail" | "neutral";
  try {
    const policy = await log.group("Policy", async () => {
      const chosen = await choosePolicy(inputs, ctx, octokit, deps);
      log.info(
        `Policy ${inputs.policy.repoPath}: ${chosen.source}; last changed in ${chosen.lastCommit ?? "an unknown commit"}` +
          `${chosen.headText !== null ? "; this change edits it (not applied: the base commit's version decides)" : ""}.`,
      );
      return chosen;
    });
    // The gate's inputs are checked before the export is read: a long read would end in the same error.
    const parsed = parsePolicy(policy.text, inputs.policy.repoPath);
    const fromPolicy = parsed.rank?.reference ?? null;
    if (inputs.rank.reference === null && fromPolicy !== null && !inputs.rank.models.includes(fromPolicy))
      throw new InputError(
        `The policy's rank.reference ${quote(fromPolicy)} is not among the models input (${inputs.rank.models.map(quote).join(", ")}): add it there, or set the reference input.`,
      );
    const reference = inputs.rank.reference ?? fromPolicy;
    checkRankGate(
      parsed.rank?.require ?? "top_resolved",
      inputs.rank.candidate,
      reference,
      inputs.rank.models,
    );
    // As in evaluate: the base commit's results and reviews, so a rewritten history is caught.
    const bases = await log.group("Append-only", () => baseVersions(inputs, ctx, octokit, deps));
    ({ report, onUnresolved } = await log
      .group("Reading the results", async () => {
        const read = await readRankInputs({
          previous: bases?.previous ?? null,
          results: inputs.results,
          reviews: inputs.reviews,
          policy: {
            path: inputs.policy.absPath,
            text: policy.text,
            source: policy.source,
            lastCommit: policy.lastCommit,
          },
          models: inputs.rank.models,
          today: deps.today,
          displayPath: (abs) => bases?.names.get(abs) ?? displayPath(abs),
          ...(deps.collectGarbage === undefined ? {} : { collectGarbage: deps.collectGarbage }),
        });
        const ranked = runRank(read.data, read.policy, {
          reference,
          candidate: inputs.rank.candidate,
          toolVersion: TOOL_VERSION,
          appendOnly: read.appendOnly,
        });
        log.info(
          `Read ${plural(ranked.provenance.rows_read, "row")} in ${plural(ranked.provenance.passes, "pass", "passes")}.`,
        );
        // Rank mode does not list the base → head changes (evaluate does): it says that there are some.
        const edited =
          policy.headText === null
            ? []
            : [
                `This change edits the policy ${inputs.policy.repoPath}; the base commit's version decides, and the edit applies once merged.`,
              ];
        return {
          report: edited.length === 0 ? ranked : { ...ranked, warnings: [...ranked.warnings, ...edited] },
          onUnresolved: read.policy.policy.on_unresolved,
        };
      })
      .finally(() => bases?.dispose()));
  } catch (error) {
    if (error instanceof InputError)
      await log.group("Reporting the error", () => reportInputError(error, inputs, ctx, octokit, deps));
    throw error;
  }

  const delivery = await log.group("Verdict", async (): Promise<Delivery> => {
    const summary = renderWithinBytes(
      (maxLength) => rankMarkdown(report, inputs.checkName, maxLength),
      STEP_SUMMARY_MAX_BYTES,
    );
    const summaryWritten = await deps.writeSummary(summary);
    let outputsSet = true;
    for (const [name, value] of Object.entries(rankOutputs(report, inputs.reportPath)))
      outputsSet = deps.setOutput(name, value) && outputsSet;
    log.info(`${rankGateTitle(report)}.`);
    for (const reason of report.gate.reasons) log.info(`  ${reason}`);
    for (const warning of report.warnings) log.warning(warning);
    const reportFile = await writeReportFile(report, inputs.reportPath, reportProblem, deps);
    return { summary: summaryWritten, outputs: outputsSet, reportFile };
  });

  const { checkRunId, commentId } = await log.group("GitHub", () =>
    publishToGitHub(
      {
        conclusion: conclusionFor(report.gate.verdict, onUnresolved),
        title: rankGateTitle(report),
        checkText: () => rankMarkdown(report, inputs.checkName, CHECK_RUN_TEXT_MAX),
        comment: () => rankCommentBody(report, inputs.checkName, inputs.commentKey),
        author: null,
        commentNoun: "Ranking comment",
      },
      inputs,
      ctx,
      octokit,
      delivery,
      deps,
    ),
  );
  for (const [name, value] of Object.entries(idOutputs(checkRunId, commentId))) deps.setOutput(name, value);

  return {
    report,
    checkRunId,
    commentId,
    verdictFailure: failOnMessage(
      "Model ranking gate",
      report.gate.verdict,
      report.gate.reasons[0],
      inputs.failOn,
    ),
    undelivered: delivery.reportFile ? [] : ["report file"],
  };
}
