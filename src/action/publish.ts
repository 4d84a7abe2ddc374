/**
 * Where a run's verdict, or its input error, goes: the report file (complete or not at all), the
 * check run and the sticky comment (best effort, each failure one warning), the error summary and
 * its annotations. Every mode of the action publishes through these (src/action/gate-action.ts).
 */
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { InputError, PolicyError, formatProblem, type InputProblem } from "../core/errors.js";
import { escapeMarkdownInline, neutraliseLogLine } from "../core/report/escape.js";
import { jsonChunks } from "../core/report/report-json.js";
import { writeFileAtomic } from "../io/atomic-write.js";
import { describeFsCode } from "../io/file-kind.js";
import type { ActionDeps } from "./action-mode.js";
import { publishCheckRun, type CheckRunAnnotation, type Conclusion } from "./check-run.js";
import type { RunContext } from "./context.js";
import type { Octokit } from "./github-api.js";
import type { ActionInputs } from "./inputs.js";
import { resolveCommentAuthor, upsertStickyComment, type CommentAuthor } from "./sticky-comment.js";

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
