/**
 * The action's rank mode (`models` set; docs/rank.md "In the action"; src/action/action-mode.ts):
 * several configs ranked on one common task set, gated by the policy's `rank.require`. The same
 * phases and promises as evaluate (src/action/gate-action.ts runs both): the policy from the base
 * commit, the verdict in the job summary, the outputs and the report file before any GitHub call,
 * then one check run and one sticky comment under its own key (by default the check name "Model
 * ranking", so an evaluate gate and a rank gate on one pull request keep one comment each).
 */
import { createHash } from "node:crypto";
import { planRank, type RankPlan } from "../core/rank/plan-rank.js";
import { rankByBenchmark } from "../core/rank/rank-benchmarks.js";
import {
  rankResultTitle,
  renderRankResultGateMarkdown,
  renderRankResultMarkdown,
} from "../core/rank/render-rank-benchmarks.js";
import type { RankResult } from "../core/rank/rank-types.js";
import { COMMENT_MARKER } from "../core/report/escape.js";
import { COMMENT_BODY_MAX } from "../core/report/github-limits.js";
import { quote } from "../core/quote.js";
import { plural } from "../core/words.js";
import { readRankInputs } from "../read/read-models.js";
import { TOOL_VERSION } from "../version.js";
import type { ActionMode, ActionResult, Decided, ModeRun } from "./action-mode.js";
import { conclusionFor } from "./check-run.js";
import { DEFAULT_RANK_CHECK_NAME, readRankActionInputs, type RankActionInputs } from "./rank-inputs.js";
import { commentHeader } from "./sticky-comment.js";

/** The outputs rank mode sets (evaluate's figures are not set: they describe one pair). */
export const RANK_OUTPUT_NAMES = [
  "verdict",
  "top",
  "top-resolved",
  "report-path",
  "check-run-id",
  "comment-id",
] as const;

export type RankActionResult = ActionResult<RankResult>;

/** The rank outputs of a report (without the ids known only after publishing). */
export function rankOutputs(report: RankResult, reportPath: string): Record<string, string> {
  return {
    verdict: report.gate.verdict,
    top: report.top ?? "",
    "top-resolved": report.top_resolved ? "true" : "false",
    "report-path": reportPath,
  };
}

/** The digest `comment: on-change` compares: the report without its provenance (files, versions). */
export function rankDigest(report: RankResult): string {
  const shown = JSON.stringify(report, (key, value: unknown) => (key === "provenance" ? undefined : value));
  return createHash("sha256").update(shown, "utf8").digest("hex");
}

/** The gate block, then the ranking within what is left of `max` characters. */
export function rankMarkdown(report: RankResult, title: string, max: number): string {
  const gate = renderRankResultGateMarkdown(report, title) + "\n";
  return gate + renderRankResultMarkdown(report, { maxLength: Math.max(0, max - gate.length) });
}

/** The sticky comment body: the marker, the hidden key and digest lines, the gate and the ranking. */
export function rankCommentBody(
  report: RankResult,
  title: string,
  key: string,
): { body: string; digest: string } {
  const digest = rankDigest(report);
  const header = commentHeader(key, digest) + "\n\n";
  if (!header.startsWith(COMMENT_MARKER))
    throw new Error("the comment header does not start with the marker");
  return { body: header + rankMarkdown(report, title, COMMENT_BODY_MAX - header.length), digest };
}

/** Reads the export once for every model, ranks, and gates per the plan. */
async function decideRank(run: ModeRun<RankActionInputs>, plan: RankPlan): Promise<Decided<RankResult>> {
  const { inputs, policy, deps } = run;
  const { log } = deps;
  const { report, conclusion } = await log.group("Reading the results", async () => {
    const read = await readRankInputs({ ...run.read, models: inputs.rank.models });
    const ranked = rankByBenchmark(read.data, read.policy, {
      reference: plan.reference,
      candidate: plan.candidate,
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
    const gated = read.policy;
    return {
      report: edited.length === 0 ? ranked : { ...ranked, warnings: [...ranked.warnings, ...edited] },
      // As evaluate's: an expired policy under on_expired: neutral never turns the check green.
      conclusion: conclusionFor(
        ranked.gate.verdict,
        gated.policy.on_unresolved,
        gated.expired && gated.policy.on_expired === "neutral",
      ),
    };
  });
  return {
    report,
    conclusion,
    comment: () => rankCommentBody(report, inputs.checkName, inputs.commentKey),
    author: null,
  };
}

/** Rank: several models on one common task set, gated by the policy's rank.require. */
export const rankMode: ActionMode<RankActionInputs, RankResult, RankPlan> = {
  defaultCheckName: DEFAULT_RANK_CHECK_NAME,
  gateName: "Model ranking gate",
  commentNoun: "Ranking comment",
  policyHistory: false,
  readInputs: readRankActionInputs,
  describe: (ctx, inputs) =>
    `Rank mode: ${inputs.rank.models.length} models (${inputs.rank.models.map(quote).join(", ")}); ` +
    `event ${ctx.eventName || "(none)"}; policy ${inputs.policy.repoPath}.`,
  // The gate's inputs are checked before the export is read: a long read would end in the same error.
  plan: (inputs, policy) =>
    planRank(policy.text, inputs.policy.repoPath, {
      models: inputs.rank.models,
      reference: inputs.rank.reference,
      candidate: inputs.rank.candidate,
      names: { models: "the models input", reference: "the reference input" },
    }),
  decide: decideRank,
  verdict: (report) => report.gate.verdict,
  firstReason: (report) => report.gate.reasons[0],
  logReasons: (report) => report.gate.reasons,
  warnings: (report) => report.warnings,
  title: rankResultTitle,
  render: rankMarkdown,
  outputs: rankOutputs,
};
