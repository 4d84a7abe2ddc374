/**
 * The action, start to finish. Everything from outside (inputs, environment, GitHub, git, the
 * runner's summary and outputs) comes in through `ActionDeps`, so this is testable without a
 * runner; src/index.ts wires the real ones and is the single error boundary.
 *
 * Order matters: the verdict reaches the job summary and the step outputs before any GitHub call,
 * so a refused or failing API (fork PR, read-only token, outage) can only cost the check run or
 * the comment, never the verdict. The step fails at most once, at the end, per `fail-on`.
 */
import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import { dirname, isAbsolute, relative, sep } from "node:path";
import { realpathSync } from "node:fs";
import { InputError, PolicyError, formatProblem, type InputProblem } from "../core/errors.js";
import { runGate } from "../core/gate.js";
import { decodePolicyText } from "../core/policy/policy-bytes.js";
import { COMMENT_MARKER, escapeMarkdownInline, neutraliseLogLine } from "../core/report/escape.js";
import { checkRunTitle } from "../core/report/verdict-text.js";
import {
  CHECK_RUN_TEXT_MAX,
  COMMENT_BODY_MAX,
  STEP_SUMMARY_MAX_BYTES,
} from "../core/report/github-limits.js";
import { renderMarkdown } from "../core/report/render-markdown.js";
import type { Report } from "../core/report/report-types.js";
import { writeFileAtomic } from "../io/atomic-write.js";
import { describeFsCode, outputTargetProblem, readInputFile } from "../io/file-kind.js";
import { MAX_POLICY_BYTES } from "../core/policy/load-policy.js";
import { TOOL_VERSION } from "../version.js";
import { loadBasePolicy, type GitRunner } from "./base-policy.js";
import { conclusionFor, publishCheckRun, type CheckRunAnnotation } from "./check-run.js";
import { readRunContext, type RunContext } from "./context.js";
import type { Octokit, RetryPolicy } from "./github-api.js";
import { DEFAULT_CHECK_NAME, readInputs, type ActionInputs, type GetInput } from "./inputs.js";
import type { ParseWorkerOptions } from "../core/input/parse-pool.js";
import type { Logger } from "./logger.js";
import { idOutputs, reportOutputs } from "./outputs.js";
import { commentHeader, resolveCommentAuthor, upsertStickyComment } from "./sticky-comment.js";

export interface ActionDeps {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly getInput: GetInput;
  readonly log: Logger;
  readonly setOutput: (name: string, value: string) => void;
  /** Appends Markdown to the job summary ($GITHUB_STEP_SUMMARY). */
  readonly writeSummary: (markdown: string) => Promise<void>;
  /** Fails the step with one message (called at most once). */
  readonly setFailed: (message: string) => void;
  readonly makeOctokit: (token: string, baseUrl: string) => Octokit | Promise<Octokit>;
  readonly git: GitRunner;
  readonly retry: RetryPolicy;
  /** YYYY-MM-DD, for the policy's revisit date. */
  readonly today: string;
  /** Parse workers of the bundle (src/io/parse-workers.ts); absent: parse on the main thread. */
  readonly parseWorkers?: ParseWorkerOptions;
}

/** What the run produced, for tests. */
export interface ActionResult {
  readonly report: Report;
  readonly checkRunId: number | null;
  readonly commentId: number | null;
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
 * policy change (the report without its provenance, which names files and versions, not results).
 */
export function reportDigest(report: Report): string {
  const shown = JSON.stringify(report, (key, value: unknown) => (key === "provenance" ? undefined : value));
  return createHash("sha256").update(shown, "utf8").digest("hex");
}

/**
 * The sticky comment body: the marker, the hidden key and digest lines, then the report, within
 * GitHub's limit.
 */
export function commentBody(report: Report, title: string, key: string): { body: string; digest: string } {
  const digest = reportDigest(report);
  const header = commentHeader(key, digest);
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

function makeDisplayPath(workspace: string): (abs: string) => string {
  const roots = [workspace];
  try {
    const real = realpathSync(workspace);
    if (real !== workspace) roots.push(real);
  } catch {
    // the workspace does not exist: inputs already failed
  }
  return (abs) => {
    if (!isAbsolute(abs)) return abs;
    for (const root of roots) {
      const rel = relative(root, abs);
      if (rel !== "" && !rel.startsWith("..") && !isAbsolute(rel)) return rel.split(sep).join("/");
    }
    return abs;
  };
}

interface PolicyChoice {
  readonly text: string;
  readonly source: string;
  readonly lastCommit: string | null;
  readonly headText: string | null;
}

/**
 * The pull request's own version of the policy, for the base → head diff only (the base decides).
 * A head file that is not UTF-8 is reported as a warning rather than stopping the run.
 */
function headPolicyText(bytes: Buffer | null, path: string, log: ActionDeps["log"]): string | null {
  if (bytes === null) return null;
  try {
    return decodePolicyText(bytes, path);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    log.warning(
      `The pull request's version of ${path} is not valid UTF-8; the base commit's version decided.`,
    );
    return null;
  }
}

async function choosePolicy(
  inputs: ActionInputs,
  ctx: RunContext,
  octokit: Octokit | null,
  deps: ActionDeps,
): Promise<PolicyChoice> {
  const pr = ctx.pullRequest;
  const present = existsSync(inputs.policy.absPath);
  let localBytes: Buffer | null = null;
  try {
    if (present)
      localBytes = await readInputFile(
        inputs.policy.absPath,
        inputs.policy.repoPath,
        "policy file",
        MAX_POLICY_BYTES,
      );
  } catch (error) {
    // On a pull request the checkout's copy only feeds the base → head diff.
    if (pr === null || !(error instanceof InputError)) throw error;
    deps.log.warning(`${error.message} The base commit's version decided; the change is not shown.`);
  }
  if (pr === null) {
    const local = localBytes === null ? null : decodePolicyText(localBytes, inputs.policy.repoPath);
    if (local === null)
      throw new InputError(`policy: ${JSON.stringify(inputs.policy.repoPath)} does not exist`);
    const log = await deps.git(
      ["log", "-1", "--format=%H", "HEAD", "--", inputs.policy.repoPath],
      ctx.workspace,
    );
    const last = log.stdout.trim();
    return {
      text: local,
      source: "file",
      lastCommit: log.code === 0 && /^[0-9a-f]{40,64}$/.test(last) ? last : null,
      headText: null,
    };
  }
  if (ctx.repo === null)
    throw new InputError(
      "GITHUB_REPOSITORY is not set: cannot read the policy at the pull request's base commit.",
    );
  const base = await loadBasePolicy(
    {
      owner: ctx.repo.owner,
      repo: ctx.repo.repo,
      baseSha: pr.baseSha,
      path: inputs.policy.repoPath,
      workspace: ctx.workspace,
    },
    { octokit, git: deps.git, retry: deps.retry, log: deps.log },
  );
  const local = headPolicyText(localBytes, inputs.policy.repoPath, deps.log);
  if (!present) {
    deps.log.warning(
      `This pull request removes or moves the policy ${inputs.policy.repoPath}; the base commit's version decided. ` +
        "A removed policy takes effect only once merged.",
    );
  }
  return {
    text: base.text,
    source: base.source,
    lastCommit: base.lastCommit,
    headText: local !== null && local !== base.text ? local : null,
  };
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

function errorSummary(error: InputError, kind: string, title: string): string {
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

async function reportInputError(
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
  await deps.writeSummary(summary);
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
    { octokit, retry: deps.retry, log: deps.log, fork: ctx.pullRequest?.fork ?? false },
  );
  deps.setOutput("check-run-id", id === null ? "" : String(id));
}

function failOnMessage(report: Report, failOn: ActionInputs["failOn"]): string | null {
  const fails =
    (failOn === "reject" && report.verdict === "reject") ||
    (failOn === "reject-or-unresolved" && report.verdict !== "accept");
  if (!fails) return null;
  const reason = report.reasons[0];
  return `Model gate verdict: ${report.verdict} (fail-on: ${failOn}).${reason !== undefined ? ` ${reason}` : ""}`;
}

/** How an input file is named in messages: relative to the workspace when inside it. */
function displayInput(ctx: RunContext, path: string): string {
  return makeDisplayPath(ctx.workspace)(path);
}

/** Runs the action. Throws InputError for user errors (after reporting them where it can). */
export async function runAction(deps: ActionDeps): Promise<ActionResult> {
  const { log } = deps;
  let ctx: RunContext;
  let inputs: ActionInputs;
  try {
    ctx = readRunContext(deps.env, deps.cwd);
    inputs = readInputs(
      deps.getInput,
      { workspace: ctx.workspace, runnerTemp: ctx.runnerTemp },
      ctx.pullRequest !== null,
    );
  } catch (error) {
    // No verdict without them, but the summary can still say why.
    if (error instanceof InputError)
      await deps.writeSummary(
        errorSummary(error, "input error", deps.getInput("check-name").trim() || DEFAULT_CHECK_NAME),
      );
    throw error;
  }
  // report-path must not replace an input or a device: found before anything is read; the
  // verdict still goes everywhere else, the step fails (an ::error:: fails it, src/index.ts).
  const reportProblem = outputTargetProblem(inputs.reportPath, [
    ...[...inputs.results, ...inputs.reviews].map((path) => ({ path, shown: displayInput(ctx, path) })),
    { path: inputs.policy.absPath, shown: inputs.policy.repoPath },
  ]);
  const octokit =
    inputs.token !== "" && ctx.repo !== null ? await deps.makeOctokit(inputs.token, ctx.apiUrl) : null;
  if (octokit === null) {
    log.info(
      inputs.token === ""
        ? "No github-token: the verdict goes to the job summary, the outputs and the report file only."
        : "GITHUB_REPOSITORY is not set: the verdict goes to the job summary, the outputs and the report file only.",
    );
  }
  const displayPath = makeDisplayPath(ctx.workspace);

  let report: Report;
  try {
    const policy = await choosePolicy(inputs, ctx, octokit, deps);
    report = await runGate({
      results: inputs.results,
      reviews: inputs.reviews,
      policy: {
        path: inputs.policy.absPath,
        text: policy.text,
        source: policy.source,
        lastCommit: policy.lastCommit,
      },
      headPolicyText: policy.headText,
      baseline: inputs.baseline,
      candidate: inputs.candidate,
      canary: inputs.canary,
      today: deps.today,
      toolVersion: TOOL_VERSION,
      displayPath,
      ...(deps.parseWorkers === undefined ? {} : { parseWorkers: deps.parseWorkers }),
      onNote: (message) => {
        log.debug(message);
      },
    });
  } catch (error) {
    if (error instanceof InputError) await reportInputError(error, inputs, ctx, octokit, deps);
    throw error;
  }

  // 1. The verdict reaches the summary and the outputs before anything can go wrong with GitHub.
  const summary = renderWithinBytes(
    (maxLength) => renderMarkdown(report, { title: inputs.checkName, maxLength }),
    STEP_SUMMARY_MAX_BYTES,
  );
  await deps.writeSummary(summary);
  for (const [name, value] of Object.entries(reportOutputs(report, inputs.reportPath)))
    deps.setOutput(name, value);
  log.info(`${headlineText(report)}.`);
  for (const reason of report.reasons.slice(0, 10)) log.info(`  ${reason}`);
  for (const warning of report.warnings) log.warning(warning);

  // 2. The report file, complete or not at all.
  if (reportProblem !== null) {
    log.error(`report-path ${inputs.reportPath}: ${reportProblem}. The report file is not written.`);
    deps.setOutput("report-path", "");
  } else {
    try {
      await mkdir(dirname(inputs.reportPath), { recursive: true });
      await writeFileAtomic(inputs.reportPath, JSON.stringify(report, null, 2) + "\n");
      log.info(`Report written to ${inputs.reportPath}`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException | null)?.code === undefined) throw error;
      log.error(
        `report-path ${inputs.reportPath} cannot be written (${describeFsCode(error)}). ` +
          "The report file is not written; a previous one is left as it was.",
      );
      deps.setOutput("report-path", "");
    }
  }

  // 3. The check run and the sticky comment: best effort, each failure one warning.
  let checkRunId: number | null = null;
  let commentId: number | null = null;
  const fork = ctx.pullRequest?.fork ?? false;
  if (octokit !== null && ctx.repo !== null) {
    if (ctx.sha === null)
      log.warning("No commit to attach the check run to (GITHUB_SHA is not set); skipped.");
    else {
      checkRunId = await publishCheckRun(
        {
          owner: ctx.repo.owner,
          repo: ctx.repo.repo,
          name: inputs.checkName,
          headSha: ctx.sha,
          conclusion: conclusionFor(report.verdict, report.provenance.policy.on_unresolved),
          title: headlineText(report),
          summary: renderMarkdown(report, { title: inputs.checkName, maxLength: CHECK_RUN_TEXT_MAX }),
          annotations: [],
        },
        { octokit, retry: deps.retry, log, fork },
      );
    }
    const pr = ctx.pullRequest;
    const mode = inputs.comment;
    // null author: GitHub did not say whose comments are the gate's (warned); post none.
    const author =
      pr !== null && mode !== "never" ? await resolveCommentAuthor(octokit, deps.retry, log, fork) : null;
    if (pr !== null && mode !== "never" && author !== null) {
      const { body, digest } = commentBody(report, inputs.checkName, inputs.commentKey);
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
        { octokit, retry: deps.retry, log, fork },
      );
      commentId = outcome.id;
      if (outcome.kind === "created" || outcome.kind === "updated")
        log.info(`Gate comment ${outcome.kind} (id ${outcome.id}).`);
    }
  }
  for (const [name, value] of Object.entries(idOutputs(checkRunId, commentId))) deps.setOutput(name, value);

  // 4. Fail the step once, per fail-on.
  const failure = failOnMessage(report, inputs.failOn);
  if (failure !== null) deps.setFailed(failure);
  return { report, checkRunId, commentId };
}
