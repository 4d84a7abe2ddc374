/**
 * The action, start to finish, for any mode (src/action/action-mode.ts): rank mode when the
 * `models` input is set (src/action/rank-mode.ts), else evaluate (src/action/evaluate-mode.ts).
 * Everything from outside comes in through `ActionDeps`, so this is testable without a runner;
 * src/index.ts wires the real ones and is the single error boundary.
 *
 * Order matters: the verdict reaches the job summary, the step outputs and the report file before
 * any GitHub write, so a refused or failing API (fork PR, read-only token, outage) can only cost
 * the check run or the comment, never the verdict. The reads before the verdict (the base policy
 * and files, a mode's own earlier reads) each fail as one warning. Nothing here fails the step: a
 * user error is thrown (an InputError) after it is reported where it can be, and a verdict is
 * returned with what fails the step (per `fail-on`, or a report file that could not be written),
 * for the entry point to act on.
 */
import { InputError } from "../core/errors.js";
import { CHECK_RUN_TEXT_MAX, STEP_SUMMARY_MAX_BYTES } from "../core/report/github-limits.js";
import type { Verdict } from "../core/verdict-types.js";
import { outputTargetProblem } from "../io/file-kind.js";
import { recentPolicyHistory } from "../git/policy-history.js";
import type { ActionDeps, ActionMode, ActionResult, ChosenPolicy, Decided } from "./action-mode.js";
import { baseVersions, choosePolicy, makeDisplayPath } from "./base-commit.js";
import { readRunContext, type RunContext } from "./context.js";
import type { Octokit } from "./github-api.js";
import type { ActionInputs } from "./inputs.js";
import { idOutputs } from "./outputs.js";
import {
  errorSummary,
  publishToGitHub,
  renderWithinBytes,
  reportInputError,
  writeReportFile,
  type Delivery,
} from "./publish.js";
import { evaluateMode } from "./evaluate-mode.js";
import { isRankMode } from "./rank-inputs.js";
import { rankMode } from "./rank-mode.js";
import { confirmWorkflowRunPullRequest } from "./workflow-run.js";
import { plural } from "../core/words.js";

/** What the entry point acts on, in either mode. */
export type GateRunResult = Pick<ActionResult<object>, "verdictFailure" | "undelivered">;

export function runGateAction(deps: ActionDeps): Promise<GateRunResult> {
  if (isRankMode(deps.getInput)) return runMode(rankMode, deps);
  // The one rank-only input evaluate would otherwise ignore in silence.
  if (deps.getInput("reference").trim() !== "")
    deps.log.warning(
      "reference is used only in rank mode (with models set); evaluate compares candidate with baseline, and ignores it.",
    );
  return runMode(evaluateMode, deps);
}

/**
 * The message the step fails with per `fail-on`, else null. `gate` names the gate in the message
 * ("Model gate", "Model ranking gate").
 */
export function failOnMessage(
  gate: string,
  verdict: Verdict,
  reason: string | undefined,
  failOn: ActionInputs["failOn"],
): string | null {
  const fails =
    (failOn === "reject" && verdict === "reject") ||
    (failOn === "reject-or-unresolved" && verdict !== "accept");
  if (!fails) return null;
  return `${gate} verdict: ${verdict} (fail-on: ${failOn}).${reason !== undefined ? ` ${reason}` : ""}`;
}

interface Started<I> {
  readonly ctx: RunContext;
  readonly inputs: I;
  readonly octokit: Octokit | null;
  readonly reportProblem: string | null;
}

/** The "Inputs" phase: the run's context and inputs read and checked, the client, the pull request confirmed. */
async function inputsPhase<I extends ActionInputs>(
  mode: ActionMode<I, object, unknown>,
  deps: ActionDeps,
): Promise<Started<I>> {
  const { log } = deps;
  let ctx: RunContext;
  let inputs: I;
  try {
    ctx = readRunContext(deps.env, deps.cwd);
    inputs = mode.readInputs(
      deps.getInput,
      { workspace: ctx.workspace, runnerTemp: ctx.runnerTemp },
      ctx.pullRequest !== null || ctx.mergeGroup !== null || ctx.workflowRun !== null,
    );
  } catch (error) {
    // No verdict without them, but the summary can still say why.
    if (error instanceof InputError)
      await deps.writeSummary(
        errorSummary(error, "input error", deps.getInput("check-name").trim() || mode.defaultCheckName),
      );
    throw error;
  }
  log.info(mode.describe(ctx, inputs));
  for (const warning of ctx.warnings) log.warning(warning);
  if (inputs.pullRequest !== null && ctx.workflowRun === null)
    log.warning(
      `pull-request is used only on workflow_run events; on ${ctx.eventName || "this event"} it is ignored.`,
    );
  // report-path must not replace an input or a device: found before anything is read; the
  // verdict still goes everywhere else, and the step fails (the result says so to src/index.ts).
  const shown = makeDisplayPath(ctx.workspace);
  const reportProblem = outputTargetProblem(inputs.reportPath, [
    ...[...inputs.results, ...inputs.reviews].map((path) => ({ path, shown: shown(path) })),
    { path: inputs.policy.absPath, shown: inputs.policy.repoPath },
  ]);
  const octokit =
    inputs.token !== "" && ctx.repo !== null ? await deps.makeOctokit(inputs.token, ctx.apiUrl) : null;
  if (octokit === null) {
    log.info(
      inputs.token === ""
        ? "No github-token: nothing is asked of GitHub (no check run, no comment)."
        : "GITHUB_REPOSITORY is not set: nothing is asked of GitHub (no check run, no comment).",
    );
  }
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
}

/** The "Policy" phase: the policy that decides, and (when the mode asks) its recent history. */
async function policyPhase(
  withHistory: boolean,
  { inputs, ctx, octokit }: Started<ActionInputs>,
  deps: ActionDeps,
): Promise<ChosenPolicy> {
  const { log } = deps;
  const chosen = await choosePolicy(inputs, ctx, octokit, deps);
  log.info(
    `Policy ${inputs.policy.repoPath}: ${chosen.source}; last changed in ${chosen.lastCommit ?? "an unknown commit"}` +
      `${chosen.headText !== null ? "; this change edits it (not applied: the base commit's version decides)" : ""}.`,
  );
  // The base policy's recent history from git, for the report's policy section.
  const history =
    !withHistory || chosen.historyRev === null
      ? null
      : await recentPolicyHistory({
          workspace: ctx.workspace,
          path: inputs.policy.repoPath,
          rev: chosen.historyRev,
          today: deps.today,
          git: deps.git,
        });
  if (history !== null)
    log.info(
      history.unavailable === null
        ? `Policy history: the last ${plural(history.entries.length, "change")} up to the base commit.`
        : `Policy history not available: ${history.unavailable}.`,
    );
  return { ...chosen, history };
}

/** The phases up to the decision; an input error is reported (summary, check run) and thrown. */
async function decidePhases<I extends ActionInputs, R extends object, P>(
  mode: ActionMode<I, R, P>,
  started: Started<I>,
  deps: ActionDeps,
): Promise<Decided<R>> {
  const { log } = deps;
  const { inputs, ctx, octokit } = started;
  try {
    const policy = await log.group("Policy", () => policyPhase(mode.policyHistory, started, deps));
    const plan = mode.plan(inputs, policy);
    const bases = await log.group("Append-only", () => baseVersions(inputs, ctx, octokit, deps));
    const displayPath = makeDisplayPath(ctx.workspace);
    return await mode
      .decide(
        {
          inputs,
          ctx,
          octokit,
          policy,
          bases,
          read: {
            previous: bases?.previous ?? null,
            results: inputs.results,
            reviews: inputs.reviews,
            policy: {
              path: inputs.policy.absPath,
              text: policy.text,
              source: policy.source,
              lastCommit: policy.lastCommit,
            },
            today: deps.today,
            displayPath: (abs) => bases?.names.get(abs) ?? displayPath(abs),
            ...(deps.collectGarbage === undefined ? {} : { collectGarbage: deps.collectGarbage }),
            ...(deps.youngGeneration === undefined ? {} : { youngGeneration: deps.youngGeneration }),
          },
          deps,
        },
        plan,
      )
      .finally(() => bases?.dispose());
  } catch (error) {
    if (error instanceof InputError)
      await log.group("Reporting the error", () => reportInputError(error, inputs, ctx, octokit, deps));
    throw error;
  }
}

/** The "Verdict" phase: the job summary, the step outputs, the log and the report file, before any GitHub call. */
async function deliverVerdict<R extends object>(
  mode: ActionMode<ActionInputs, R, unknown>,
  report: R,
  { inputs, reportProblem }: Started<ActionInputs>,
  deps: ActionDeps,
): Promise<Delivery> {
  const { log } = deps;
  const summary = renderWithinBytes(
    (maxLength) => mode.render(report, inputs.checkName, maxLength),
    STEP_SUMMARY_MAX_BYTES,
  );
  const summaryWritten = await deps.writeSummary(summary);
  let outputsSet = true;
  for (const [name, value] of Object.entries(mode.outputs(report, inputs.reportPath)))
    outputsSet = deps.setOutput(name, value) && outputsSet;
  log.info(`${mode.title(report)}.`);
  for (const reason of mode.logReasons(report)) log.info(`  ${reason}`);
  for (const warning of mode.warnings(report)) log.warning(warning);
  const reportFile = await writeReportFile(report, inputs.reportPath, reportProblem, deps);
  return { summary: summaryWritten, outputs: outputsSet, reportFile };
}

/**
 * Runs the action in one mode. Throws InputError for user errors (after reporting them where it
 * can). The log is folded by phase: inputs, policy, append-only, the mode's reads, verdict, GitHub.
 */
export async function runMode<I extends ActionInputs, R extends object, P>(
  mode: ActionMode<I, R, P>,
  deps: ActionDeps,
): Promise<ActionResult<R>> {
  const { log } = deps;
  const started = await log.group("Inputs", () => inputsPhase(mode, deps));
  const { inputs, ctx, octokit } = started;
  const decided = await decidePhases(mode, started, deps);
  const { report } = decided;

  // The verdict reaches the summary, the outputs and the report file before any GitHub call.
  const delivery = await log.group("Verdict", () => deliverVerdict(mode, report, started, deps));

  const { checkRunId, commentId } = await log.group("GitHub", () =>
    publishToGitHub(
      {
        conclusion: decided.conclusion,
        title: mode.title(report),
        checkText: () => mode.render(report, inputs.checkName, CHECK_RUN_TEXT_MAX),
        comment: decided.comment,
        ...(decided.externalId === undefined ? {} : { externalId: decided.externalId }),
        author: decided.author,
        commentNoun: mode.commentNoun,
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
      mode.gateName,
      mode.verdict(report),
      mode.firstReason(report),
      inputs.failOn,
    ),
    undelivered: delivery.reportFile ? [] : ["report file"],
  };
}
