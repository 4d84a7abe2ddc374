/**
 * The action's evaluate mode (src/action/action-mode.ts): one candidate against one baseline,
 * decided by src/core/gate.ts runGate. Before the read, this gate's earlier runs on the pull
 * request are read (src/action/earlier-runs.ts: each failure one warning; under `reruns: fail |
 * pool` an unreadable history keeps the verdict from accept); the run's record and the comment's
 * run-history block are written by the GitHub phase after the verdict.
 */
import { createHash } from "node:crypto";
import { runGate } from "../core/gate.js";
import { readRunInputs, type RunRequest } from "../read/run-inputs.js";
import { COMMENT_MARKER } from "../core/report/escape.js";
import { checkRunTitle } from "../core/report/verdict-text.js";
import { COMMENT_BODY_MAX } from "../core/report/github-limits.js";
import { renderMarkdown } from "../core/report/render-markdown.js";
import type { Report } from "../core/report/report-types.js";
import { plural } from "../core/words.js";
import { TOOL_VERSION } from "../version.js";
import type { ActionMode, Decided, ModeRun } from "./action-mode.js";
import { makeDisplayPath } from "./base-commit.js";
import { conclusionFor } from "./check-run.js";
import type { RunContext } from "./context.js";
import { decideWithRuns, earlierRuns, withActionSinceLastRun } from "./earlier-runs.js";
import { DEFAULT_CHECK_NAME, readInputs, type ActionInputs } from "./inputs.js";
import { reportOutputs } from "./outputs.js";
import { commentHeader } from "./sticky-comment.js";

/**
 * The digest that `comment: on-change` compares: the verdict and every figure, reason, warning and
 * policy change (the report without its provenance and append_only_base, which name files and versions,
 * not results, and without `runs`, which grows on every run: a re-run with the same figures leaves
 * the comment as it is).
 */
export function reportDigest(report: Report): string {
  // append_only_base, like provenance, names files and the base commit; the check's result is in checks.
  // since_last_run describes the step from the previous run, so it differs on every run even when
  // the report does not: with it, `comment: on-change` would post after every re-run of the same inputs.
  const shown = JSON.stringify(report, (key, value: unknown) =>
    key === "provenance" || key === "append_only_base" || key === "since_last_run" || key === "runs"
      ? undefined
      : value,
  );
  return createHash("sha256").update(shown, "utf8").digest("hex");
}

/**
 * The sticky comment body: the marker, the hidden key and digest lines, then the report, within
 * GitHub's limit.
 */
export function commentBody(
  report: Report,
  title: string,
  key: string,
  runsBlock?: string,
): { body: string; digest: string } {
  const digest = reportDigest(report);
  // The run-history block (src/action/run-history.ts) rides in the hidden header, inside the limit.
  const header = commentHeader(key, digest) + (runsBlock === undefined ? "" : `\n${runsBlock}`);
  const md = renderMarkdown(report, {
    marker: true,
    title,
    maxLength: COMMENT_BODY_MAX - (header.length - COMMENT_MARKER.length),
  });
  if (!md.startsWith(COMMENT_MARKER)) throw new Error("the comment rendering does not start with the marker");
  return { body: header + md.slice(COMMENT_MARKER.length), digest };
}

/** One plain-text line for the check run title and the log: verdict, margin, failing checks (nothing untrusted). */
export function headlineText(report: Report): string {
  return checkRunTitle(report);
}

/** One line for the log: what the run is about (event, repository, commit, pull request). */
function describeRun(ctx: RunContext, inputs: ActionInputs): string {
  const parts = [`event ${ctx.eventName || "(none)"}`];
  parts.push(ctx.repo === null ? "no repository" : `repository ${ctx.repo.owner}/${ctx.repo.repo}`);
  if (ctx.sha !== null) parts.push(`commit ${ctx.sha}`);
  if (ctx.pullRequest !== null)
    parts.push(`pull request #${ctx.pullRequest.number}${ctx.pullRequest.fork ? " (from a fork)" : ""}`);
  if (ctx.mergeGroup !== null) parts.push(`merge group onto ${ctx.mergeGroup.baseSha}`);
  if (ctx.workflowRun !== null) {
    const listed = ctx.workflowRun.pullRequests;
    parts.push(
      `pull request ${listed.length > 0 ? `#${listed.join(", #")} listed` : "not listed"}` +
        `${inputs.pullRequest !== null ? `, #${inputs.pullRequest} given` : ""} (to be confirmed)`,
    );
  }
  parts.push(
    `${plural(inputs.results.length, "results file")}, ${plural(inputs.reviews.length, "reviews file")}`,
  );
  parts.push(`policy ${inputs.policy.repoPath}`);
  return `Gate run: ${parts.join("; ")}.`;
}

/** The "Inputs" phase: the run's context and inputs read and checked, the client, the pull request confirmed. */

/** Reads the export, decides with this gate's earlier runs, and adds what changed since the last run. */
async function decideEvaluate(run: ModeRun<ActionInputs>): Promise<Decided<Report>> {
  const { inputs, ctx, octokit, policy, bases, deps } = run;
  const { log } = deps;
  // Read only, before the verdict: the writes stay in the GitHub phase after it.
  const earlier = await log.group("Earlier runs", () => earlierRuns(inputs, ctx, octokit, deps));
  const { report, history } = await log.group("Reading the results", async () => {
    const request: RunRequest = {
      ...run.read,
      appendOnlyBase: bases?.base ?? null,
      headPolicyText: policy.headText,
      policyHistory: policy.history,
      baseline: inputs.baseline,
      candidate: inputs.candidate,
      canary: inputs.canary,
      toolVersion: TOOL_VERSION,
    };
    const gateInputs = await readRunInputs(request);
    const decided = decideWithRuns(
      (extraChecks) => runGate(gateInputs.dataset, gateInputs.policy, { ...gateInputs.options, extraChecks }),
      earlier,
      gateInputs.policy.policy.reruns,
      gateInputs.dataset.inputs.filter((i) => i.kind === "results").map((i) => i.sha256),
      ctx.sha,
    );
    const gated = decided.report;
    const files = gated.provenance.inputs.length;
    log.info(`Read ${plural(gated.provenance.rows_read, "row")} from ${plural(files, "file")}.`);
    // What changed since the last run: the newest verified row of the history, read again.
    const withSince = await withActionSinceLastRun(
      {
        report: gated,
        dataset: gateInputs.dataset,
        earlier,
        request,
        ctx,
        inputs,
        octokit,
        display: makeDisplayPath(ctx.workspace),
      },
      deps,
    );
    return { ...decided, report: withSince };
  });
  const policyOf = report.provenance.policy;
  return {
    report,
    conclusion: conclusionFor(
      report.verdict,
      policyOf.on_unresolved,
      policyOf.expired && policyOf.on_expired === "neutral",
    ),
    comment: () => commentBody(report, inputs.checkName, inputs.commentKey, history?.blockLine),
    ...(history === null ? {} : { externalId: history.externalId }),
    author: history?.author ?? null,
  };
}

/** Evaluate: the candidate against the baseline, one verdict. */
export const evaluateMode: ActionMode<ActionInputs, Report, null> = {
  defaultCheckName: DEFAULT_CHECK_NAME,
  gateName: "Model gate",
  commentNoun: "Gate comment",
  policyHistory: true,
  readInputs,
  describe: describeRun,
  // The policy is checked (gatePolicy) in the read itself, before the export: nothing to plan.
  plan: () => null,
  decide: decideEvaluate,
  verdict: (report) => report.verdict,
  firstReason: (report) => report.reasons[0],
  logReasons: (report) => report.reasons.slice(0, 10),
  warnings: (report) => report.warnings,
  title: headlineText,
  render: (report, title, maxLength) => renderMarkdown(report, { title, maxLength }),
  outputs: reportOutputs,
};
