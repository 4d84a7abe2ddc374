/**
 * The action, start to finish. Everything from outside (inputs, environment, GitHub, git, the
 * runner's summary and outputs) comes in through `ActionDeps`, so this is testable without a
 * runner; src/index.ts wires the real ones and is the single error boundary.
 *
 * Order matters: the verdict reaches the job summary and the step outputs before any GitHub write,
 * so a refused or failing API (fork PR, read-only token, outage) can only cost the check run or
 * the comment, never the verdict. The reads before the verdict (the base policy and files, and
 * this gate's earlier runs, src/action/earlier-runs.ts) each fail as one warning; under `reruns:
 * fail | pool` an unreadable history keeps the verdict from accept. Nothing here fails the step: a user error is thrown (an
 * InputError), and a verdict is returned with what fails the step (per `fail-on`, or a report file
 * that could not be written), for the entry point to act on.
 */
import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { InputError, PolicyError, formatProblem, type InputProblem } from "../core/errors.js";
import { runGate } from "../core/gate.js";
import { readRunInputs, type RunRequest } from "../read/run-inputs.js";
import { COMMENT_MARKER, escapeMarkdownInline, neutraliseLogLine } from "../core/report/escape.js";
import { checkRunTitle } from "../core/report/verdict-text.js";
import {
  CHECK_RUN_TEXT_MAX,
  COMMENT_BODY_MAX,
  STEP_SUMMARY_MAX_BYTES,
} from "../core/report/github-limits.js";
import { renderMarkdown } from "../core/report/render-markdown.js";
import { jsonChunks } from "../core/report/report-json.js";
import type { Report } from "../core/report/report-types.js";
import { writeFileAtomic } from "../io/atomic-write.js";
import { describeFsCode, outputTargetProblem } from "../io/file-kind.js";
import { TOOL_VERSION } from "../version.js";
import type { GitRunner } from "../git/run-git.js";
import { recentPolicyHistory } from "../git/policy-history.js";
import type { GitToFile } from "./base-files.js";
import { conclusionFor, publishCheckRun, type CheckRunAnnotation, type Conclusion } from "./check-run.js";
import { readRunContext, type RunContext } from "./context.js";
import type { Octokit, RetrySettings } from "./github-api.js";
import { DEFAULT_CHECK_NAME, readInputs, type ActionInputs, type GetInput } from "./inputs.js";
import { confirmWorkflowRunPullRequest } from "./workflow-run.js";
import type { Logger } from "./logger.js";
import { idOutputs, reportOutputs } from "./outputs.js";
import {
  commentHeader,
  resolveCommentAuthor,
  upsertStickyComment,
  type CommentAuthor,
} from "./sticky-comment.js";
import { decideWithRuns, earlierRuns, withActionSinceLastRun, type HistoryWrite } from "./earlier-runs.js";
import { baseVersions, choosePolicy, makeDisplayPath } from "./base-commit.js";

// Rank mode (rank-mode.ts) takes these from here.
export { baseVersions, choosePolicy, makeDisplayPath } from "./base-commit.js";
import { plural } from "../core/words.js";

export interface ActionDeps {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly getInput: GetInput;
  readonly log: Logger;
  /** Sets a step output; false when it could not be set (the runner's problem, already said). */
  readonly setOutput: (name: string, value: string) => boolean;
  /** Appends Markdown to the job summary ($GITHUB_STEP_SUMMARY); false when it was not written. */
  readonly writeSummary: (markdown: string) => Promise<boolean>;
  /** The Octokit for the token, built with `retry` (src/action/github-api.ts createOctokit). */
  readonly makeOctokit: (token: string, baseUrl: string) => Octokit | Promise<Octokit>;
  readonly git: GitRunner;
  /** git with its output streamed into a file (the base versions). */
  readonly gitToFile: GitToFile;
  /** The settings the Octokit was built with (the comment upsert paces its own retries by them). */
  readonly retry: RetrySettings;
  /** YYYY-MM-DD, for the policy's revisit date. */
  readonly today: string;
  /** A full garbage collection for large reads (src/io/full-collection.ts); absent: none asked. */
  readonly collectGarbage?: () => void;
}

/** What the run produced: the verdict, and whether it fails the step. */
export interface ActionResult {
  readonly report: Report;
  readonly checkRunId: number | null;
  readonly commentId: number | null;
  /** The message the step fails with per `fail-on`; null when the verdict passes. */
  readonly verdictFailure: string | null;
  /** What could not be delivered, each already said with an ::error:: (the report file): the step fails. */
  readonly undelivered: readonly string[];
}

/** Which of the run's places got the verdict, for messages that say where it is. */
export interface Delivery {
  readonly summary: boolean;
  readonly outputs: boolean;
  readonly reportFile: boolean;
}

/** One sentence, true of this run, saying where the verdict is (for warnings about GitHub calls). */
export function whereTheVerdictIs(d: Delivery): string {
  const places = [d.summary ? "the job summary" : null, d.outputs ? "the step outputs" : null].filter(
    (p): p is string => p !== null,
  );
  if (places.length > 0) return `The verdict is in ${places.join(" and ")}.`;
  return d.reportFile ? "The verdict is in the report file." : "The verdict is only in this log.";
}

/** The same for a run that stopped with an input or policy error. */
function whereTheErrorIs(summaryWritten: boolean): string {
  return summaryWritten
    ? "No verdict: the error is in the job summary."
    : "No verdict: the error is in this log.";
}

/** The job summary limit is in bytes; the renderer's is in characters: shrink until it fits. */
export function renderWithinBytes(render: (maxLength: number) => string, maxBytes: number): string {
  let maxLength = maxBytes;
  for (let i = 0; i < 20; i++) {
    const md = render(maxLength);
    const bytes = Buffer.byteLength(md, "utf8");
    if (bytes <= maxBytes) return md;
    maxLength = Math.max(0, Math.floor((maxLength * maxBytes) / bytes) - 64);
  }
  return render(0);
}

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

/** Problems located in the policy file, as check run annotations. */
export function policyAnnotations(error: InputError, policyPath: string): CheckRunAnnotation[] {
  const out: CheckRunAnnotation[] = [];
  for (const p of error.problems) {
    const loc = p.location;
    if (loc === undefined || loc.file !== policyPath || loc.line === undefined || loc.line < 1) continue;
    out.push({
      path: policyPath,
      start_line: loc.line,
      end_line: loc.line,
      ...(loc.column !== undefined && loc.column >= 1
        ? { start_column: loc.column, end_column: loc.column }
        : {}),
      annotation_level: "failure",
      // Plain text in GitHub's UI, but keep hidden and bidi characters visible all the same.
      title: neutraliseLogLine(p.field !== undefined ? `Policy key ${p.field}` : "Policy error").slice(
        0,
        255,
      ),
      message: neutraliseLogLine(p.message).slice(0, 4000),
    });
  }
  return out;
}

/** GitHub shows at most 10 error annotations per step; keep one for the final failure message. */
const MAX_ERROR_ANNOTATIONS = 9;

/** "policy error" when the policy stopped the run or a problem lies in the policy file, else "input error". */
function errorKind(error: InputError, policyPath: string): "policy error" | "input error" {
  const inPolicy = error.problems.some((p) => p.location?.file === policyPath);
  return error instanceof PolicyError || inPolicy ? "policy error" : "input error";
}

export function errorSummary(error: InputError, kind: string, title: string): string {
  const first = error.message.split("\n")[0] ?? "";
  const lines = [
    `## ❗ ${kind} — no verdict`,
    "",
    `<sub>${escapeMarkdownInline(title, 120)}</sub>`,
    "",
    escapeMarkdownInline(first, 2000),
  ];
  if (error.problems.length > 0) {
    lines.push("");
    for (const p of error.problems) lines.push(`- ${escapeMarkdownInline(formatProblem(p), 1000)}`);
    if (error.total > error.problems.length)
      lines.push(`- … and ${error.total - error.problems.length} more`);
  }
  return lines.join("\n") + "\n";
}

export async function reportInputError(
  error: InputError,
  inputs: ActionInputs,
  ctx: RunContext,
  octokit: Octokit | null,
  deps: ActionDeps,
): Promise<void> {
  const located = error.problems.filter((p: InputProblem) => p.location?.line !== undefined);
  for (const p of located.slice(0, MAX_ERROR_ANNOTATIONS)) {
    const loc = p.location;
    if (loc === undefined) continue;
    deps.log.error(formatProblem(p), {
      file: loc.file,
      ...(loc.line !== undefined ? { startLine: loc.line } : {}),
      ...(loc.column !== undefined ? { startColumn: loc.column } : {}),
    });
  }
  const kind = errorKind(error, inputs.policy.repoPath);
  const summary = errorSummary(error, kind, inputs.checkName);
  const summaryWritten = await deps.writeSummary(summary);
  if (octokit === null || ctx.repo === null || ctx.sha === null) return;
  const annotations = policyAnnotations(error, inputs.policy.repoPath);
  const id = await publishCheckRun(
    {
      owner: ctx.repo.owner,
      repo: ctx.repo.repo,
      name: inputs.checkName,
      headSha: ctx.sha,
      conclusion: "failure",
      title:
        error instanceof PolicyError || annotations.length > 0
          ? "Policy error: no verdict"
          : "Input error: no verdict",
      summary,
      annotations,
    },
    {
      octokit,
      retry: deps.retry,
      log: deps.log,
      fork: ctx.pullRequest?.fork ?? false,
      delivered: whereTheErrorIs(summaryWritten),
    },
  );
  deps.setOutput("check-run-id", id === null ? "" : String(id));
}

/**
 * The message the step fails with per `fail-on` (evaluate's and the rank gate's), else null.
 * `gate` names the gate in the message ("Model gate", "Model ranking gate").
 */
export function failOnMessage(
  gate: string,
  verdict: Report["verdict"],
  reason: string | undefined,
  failOn: ActionInputs["failOn"],
): string | null {
  const fails =
    (failOn === "reject" && verdict === "reject") ||
    (failOn === "reject-or-unresolved" && verdict !== "accept");
  if (!fails) return null;
  return `${gate} verdict: ${verdict} (fail-on: ${failOn}).${reason !== undefined ? ` ${reason}` : ""}`;
}

/** How an input file is named in messages: relative to the workspace when inside it. */
function displayInput(ctx: RunContext, path: string): string {
  return makeDisplayPath(ctx.workspace)(path);
}

/**
 * The report file, complete or not at all; a refused or failing target is one ::error:: (and the
 * step fails), not a stop. True when it was written.
 */
export async function writeReportFile(
  report: object,
  reportPath: string,
  reportProblem: string | null,
  deps: ActionDeps,
): Promise<boolean> {
  const { log } = deps;
  if (reportProblem !== null) {
    log.error(`report-path ${reportPath}: ${reportProblem}. The report file is not written.`);
    deps.setOutput("report-path", "");
    return false;
  }
  try {
    await mkdir(dirname(reportPath), { recursive: true });
    await writeFileAtomic(reportPath, jsonChunks(report));
    log.info(`Report written to ${reportPath}`);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException | null)?.code === undefined) throw error;
    log.error(
      `report-path ${reportPath} cannot be written (${describeFsCode(error)}). ` +
        "The report file is not written; a previous one is left as it was.",
    );
    deps.setOutput("report-path", "");
    return false;
  }
}

/** What one gate publishes: the check run's figures and the comment, rendered only when needed. */
export interface Publication {
  readonly conclusion: Conclusion;
  readonly title: string;
  readonly checkText: () => string;
  readonly comment: () => { body: string; digest: string };
  /** The check run's `external_id` (the run-history record), when there is one. */
  readonly externalId?: string;
  /** Whose comments are the gate's, when already asked (the "Earlier runs" phase); null: ask now. */
  readonly author: { readonly value: CommentAuthor | null } | null;
  /** How the comment is named in the log ("Gate comment", "Ranking comment"). */
  readonly commentNoun: string;
}

/**
 * The "GitHub" phase of evaluate and of rank mode: the check run, then the sticky comment, best
 * effort, each failure one warning.
 */
export async function publishToGitHub(
  what: Publication,
  inputs: ActionInputs,
  ctx: RunContext,
  octokit: Octokit | null,
  delivery: Delivery,
  deps: ActionDeps,
): Promise<{ checkRunId: number | null; commentId: number | null }> {
  const { log } = deps;
  let checkRunId: number | null = null;
  let commentId: number | null = null;
  if (octokit === null || ctx.repo === null) {
    log.info("No GitHub calls (no token or no repository).");
    return { checkRunId, commentId };
  }
  const fork = ctx.pullRequest?.fork ?? false;
  const github = { octokit, retry: deps.retry, log, fork, delivered: whereTheVerdictIs(delivery) };
  if (ctx.sha === null) {
    const envSha = deps.env["GITHUB_SHA"] ?? "";
    log.warning(
      `No commit to attach the check run to (${envSha === "" ? "GITHUB_SHA is not set" : `GITHUB_SHA ${JSON.stringify(envSha.slice(0, 80))} is not a full commit id`}); no check run.`,
    );
  } else {
    checkRunId = await publishCheckRun(
      {
        owner: ctx.repo.owner,
        repo: ctx.repo.repo,
        name: inputs.checkName,
        headSha: ctx.sha,
        conclusion: what.conclusion,
        title: what.title,
        summary: what.checkText(),
        annotations: [],
        ...(what.externalId === undefined ? {} : { externalId: what.externalId }),
      },
      github,
    );
    if (checkRunId !== null)
      log.info(`Check run "${inputs.checkName}" created on ${ctx.sha} (id ${checkRunId}).`);
  }
  const pr = ctx.pullRequest;
  const mode = inputs.comment;
  if (pr === null || mode === "never") {
    log.info(pr === null ? "Not a pull request: no comment." : "comment: never: no comment.");
    return { checkRunId, commentId };
  }
  // null author: GitHub did not say whose comments are the gate's (warned); post none.
  const author = what.author !== null ? what.author.value : await resolveCommentAuthor(github);
  if (author !== null) {
    const { body, digest } = what.comment();
    const outcome = await upsertStickyComment(
      {
        owner: ctx.repo.owner,
        repo: ctx.repo.repo,
        issueNumber: pr.number,
        body,
        digest,
        key: inputs.commentKey,
        mode,
        author,
      },
      github,
    );
    commentId = outcome.id;
    if (outcome.kind === "created" || outcome.kind === "updated")
      log.info(`${what.commentNoun} ${outcome.kind} on pull request #${pr.number} (id ${outcome.id}).`);
  }
  return { checkRunId, commentId };
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
    `${inputs.results.length} results file${inputs.results.length === 1 ? "" : "s"}, ${inputs.reviews.length} reviews file${inputs.reviews.length === 1 ? "" : "s"}`,
  );
  parts.push(`policy ${inputs.policy.repoPath}`);
  return `Gate run: ${parts.join("; ")}.`;
}

/** The "Inputs" phase: the run's context and inputs read and checked, the client, the pull request confirmed. */
async function inputsPhase(deps: ActionDeps): Promise<{
  ctx: RunContext;
  inputs: ActionInputs;
  octokit: Octokit | null;
  reportProblem: ReturnType<typeof outputTargetProblem>;
}> {
  const { log } = deps;
  let ctx: RunContext;
  let inputs: ActionInputs;
  try {
    ctx = readRunContext(deps.env, deps.cwd);
    inputs = readInputs(
      deps.getInput,
      { workspace: ctx.workspace, runnerTemp: ctx.runnerTemp },
      ctx.pullRequest !== null || ctx.mergeGroup !== null || ctx.workflowRun !== null,
    );
  } catch (error) {
    // No verdict without them, but the summary can still say why.
    if (error instanceof InputError)
      await deps.writeSummary(
        errorSummary(error, "input error", deps.getInput("check-name").trim() || DEFAULT_CHECK_NAME),
      );
    throw error;
  }
  log.info(describeRun(ctx, inputs));
  for (const warning of ctx.warnings) log.warning(warning);
  if (inputs.pullRequest !== null && ctx.workflowRun === null)
    log.warning(
      `pull-request is used only on workflow_run events; on ${ctx.eventName || "this event"} it is ignored.`,
    );
  // report-path must not replace an input or a device: found before anything is read; the
  // verdict still goes everywhere else, and the step fails (the result says so to src/index.ts).
  const reportProblem = outputTargetProblem(inputs.reportPath, [
    ...[...inputs.results, ...inputs.reviews].map((path) => ({ path, shown: displayInput(ctx, path) })),
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

/** The "Policy" phase: the policy that decides, and its recent history when the change edits it. */
async function policyPhase(inputs: ActionInputs, ctx: RunContext, octokit: Octokit | null, deps: ActionDeps) {
  const { log } = deps;
  const chosen = await choosePolicy(inputs, ctx, octokit, deps);
  log.info(
    `Policy ${inputs.policy.repoPath}: ${chosen.source}; last changed in ${chosen.lastCommit ?? "an unknown commit"}` +
      `${chosen.headText !== null ? "; this change edits it (not applied: the base commit's version decides)" : ""}.`,
  );
  // The base policy's recent history from git, for the policy section (issue #14).
  const history =
    chosen.historyRev === null
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
        ? `Policy history: the last ${history.entries.length} ${history.entries.length === 1 ? "change" : "changes"} up to the base commit.`
        : `Policy history not available: ${history.unavailable}.`,
    );
  return { ...chosen, history };
}

/** The "Verdict" phase: the job summary, the step outputs, the log and the report file, before any GitHub call. */
async function deliverVerdict(
  report: Report,
  inputs: ActionInputs,
  reportProblem: ReturnType<typeof outputTargetProblem>,
  deps: ActionDeps,
): Promise<Delivery> {
  const { log } = deps;
  const summary = renderWithinBytes(
    (maxLength) => renderMarkdown(report, { title: inputs.checkName, maxLength }),
    STEP_SUMMARY_MAX_BYTES,
  );
  const summaryWritten = await deps.writeSummary(summary);
  let outputsSet = true;
  for (const [name, value] of Object.entries(reportOutputs(report, inputs.reportPath)))
    outputsSet = deps.setOutput(name, value) && outputsSet;
  log.info(`${headlineText(report)}.`);
  for (const reason of report.reasons.slice(0, 10)) log.info(`  ${reason}`);
  for (const warning of report.warnings) log.warning(warning);
  const reportFile = await writeReportFile(report, inputs.reportPath, reportProblem, deps);
  return { summary: summaryWritten, outputs: outputsSet, reportFile };
}

/**
 * Runs the action. Throws InputError for user errors (after reporting them where it can). The
 * log is folded by phase: inputs, policy, reading, verdict, GitHub.
 */
export async function runAction(deps: ActionDeps): Promise<ActionResult> {
  const { log } = deps;
  const { ctx, inputs, octokit, reportProblem } = await log.group("Inputs", () => inputsPhase(deps));
  const displayPath = makeDisplayPath(ctx.workspace);

  let report: Report;
  let history: HistoryWrite | null;
  try {
    const policy = await log.group("Policy", () => policyPhase(inputs, ctx, octokit, deps));
    const bases = await log.group("Append-only", () => baseVersions(inputs, ctx, octokit, deps));
    // Read only, before the verdict: the writes stay in the GitHub phase after it.
    const earlier = await log.group("Earlier runs", () => earlierRuns(inputs, ctx, octokit, deps));
    ({ report, history } = await log
      .group("Reading the results", async () => {
        const request: RunRequest = {
          previous: bases?.previous ?? null,
          appendOnlyBase: bases?.base ?? null,
          results: inputs.results,
          reviews: inputs.reviews,
          policy: {
            path: inputs.policy.absPath,
            text: policy.text,
            source: policy.source,
            lastCommit: policy.lastCommit,
          },
          headPolicyText: policy.headText,
          policyHistory: policy.history,
          baseline: inputs.baseline,
          candidate: inputs.candidate,
          canary: inputs.canary,
          today: deps.today,
          toolVersion: TOOL_VERSION,
          displayPath: (abs) => bases?.names.get(abs) ?? displayPath(abs),
          ...(deps.collectGarbage === undefined ? {} : { collectGarbage: deps.collectGarbage }),
        };
        const gateInputs = await readRunInputs(request);
        const decided = decideWithRuns(
          (extraChecks) =>
            runGate(gateInputs.dataset, gateInputs.policy, { ...gateInputs.options, extraChecks }),
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
            display: displayPath,
          },
          deps,
        );
        return { ...decided, report: withSince };
      })
      .finally(() => bases?.dispose()));
  } catch (error) {
    if (error instanceof InputError)
      await log.group("Reporting the error", () => reportInputError(error, inputs, ctx, octokit, deps));
    throw error;
  }

  // The verdict reaches the summary, the outputs and the report file before any GitHub call.
  const delivery = await log.group("Verdict", () => deliverVerdict(report, inputs, reportProblem, deps));

  const { checkRunId, commentId } = await log.group("GitHub", () =>
    publishToGitHub(
      {
        conclusion: conclusionFor(
          report.verdict,
          report.provenance.policy.on_unresolved,
          report.provenance.policy.expired && report.provenance.policy.on_expired === "neutral",
        ),
        title: headlineText(report),
        checkText: () => renderMarkdown(report, { title: inputs.checkName, maxLength: CHECK_RUN_TEXT_MAX }),
        comment: () => commentBody(report, inputs.checkName, inputs.commentKey, history?.blockLine),
        ...(history === null ? {} : { externalId: history.externalId }),
        author: history?.author ?? null,
        commentNoun: "Gate comment",
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
    verdictFailure: failOnMessage("Model gate", report.verdict, report.reasons[0], inputs.failOn),
    undelivered: delivery.reportFile ? [] : ["report file"],
  };
}
