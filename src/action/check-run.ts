/**
 * The check run on the pull request's head commit: the verdict as its conclusion, the report as
 * its output, and (for a policy or input error) annotations on the offending lines. GitHub takes
 * at most 50 annotations per request; the rest follow in update requests, 50 at a time.
 */
import type { Verdict } from "../core/verdict-types.js";
import { ANNOTATIONS_PER_REQUEST, CHECK_RUN_TEXT_MAX } from "../core/report/github-limits.js";
import { truncateMarkdown } from "../core/report/render-markdown.js";
import { z } from "zod";
import { checkAnswer, type PublishDeps, warnFailure } from "./github-api.js";

export type Conclusion = "success" | "failure" | "neutral";

/**
 * accept → success, reject → failure, unresolved → failure or neutral per `on_unresolved`. Under
 * an expired policy with `on_expired: neutral` (`expiredNeutral`), a success is neutral instead:
 * an expired policy never turns a check green, and never lets through what it would stop.
 */
export function conclusionFor(
  verdict: Verdict,
  onUnresolved: "fail" | "neutral",
  expiredNeutral = false,
): Conclusion {
  if (verdict === "accept") return expiredNeutral ? "neutral" : "success";
  if (verdict === "reject") return "failure";
  return onUnresolved === "neutral" ? "neutral" : "failure";
}

export interface CheckRunAnnotation {
  /** Repository-relative path. */
  readonly path: string;
  readonly start_line: number;
  readonly end_line: number;
  readonly start_column?: number;
  readonly end_column?: number;
  readonly annotation_level: "notice" | "warning" | "failure";
  readonly message: string;
  readonly title?: string;
}

export interface CheckRunSpec {
  readonly owner: string;
  readonly repo: string;
  readonly name: string;
  readonly headSha: string;
  readonly conclusion: Conclusion;
  /** Plain text (not Markdown); GitHub shows it as the check's headline. */
  readonly title: string;
  /** Markdown; cut (with a visible note) to CHECK_RUN_TEXT_MAX characters if longer. */
  readonly summary: string;
  readonly text?: string;
  readonly annotations: readonly CheckRunAnnotation[];
  /** The run's record (src/action/run-history.ts externalId): what later runs read back. */
  readonly externalId?: string;
}

const PERMISSION = "checks: write";

/** What is used of GitHub's check run answer. */
const CheckRunAnswer = z.object({ id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/**
 * Creates the completed check run and appends annotations beyond the first 50 with update
 * requests. Returns the check run id, or null after a warning when GitHub refused, kept failing
 * or answered with something that is not a check run; never throws for an API failure.
 */
export async function publishCheckRun(spec: CheckRunSpec, deps: PublishDeps): Promise<number | null> {
  const { octokit } = deps;
  const title = spec.title.slice(0, 1000);
  const summary = truncateMarkdown(spec.summary, CHECK_RUN_TEXT_MAX);
  const text = spec.text !== undefined ? truncateMarkdown(spec.text, CHECK_RUN_TEXT_MAX) : undefined;
  const batches: CheckRunAnnotation[][] = [];
  for (let i = 0; i < spec.annotations.length; i += ANNOTATIONS_PER_REQUEST)
    batches.push(spec.annotations.slice(i, i + ANNOTATIONS_PER_REQUEST));
  const output = (annotations: CheckRunAnnotation[] | undefined) => ({
    title,
    summary,
    ...(text !== undefined ? { text } : {}),
    ...(annotations !== undefined && annotations.length > 0 ? { annotations } : {}),
  });

  const failed = (error: unknown, action: string): void => {
    warnFailure(deps, error, action, PERMISSION);
  };
  let id: number;
  try {
    const res = await octokit.rest.checks.create({
      owner: spec.owner,
      repo: spec.repo,
      name: spec.name,
      head_sha: spec.headSha,
      ...(spec.externalId !== undefined ? { external_id: spec.externalId } : {}),
      status: "completed",
      conclusion: spec.conclusion,
      output: output(batches[0]),
    });
    id = checkAnswer(res, CheckRunAnswer).id;
  } catch (error) {
    failed(error, `create the check run "${spec.name}"`);
    return null;
  }

  for (const [i, batch] of batches.entries()) {
    if (i === 0) continue;
    try {
      const res = await octokit.rest.checks.update({
        owner: spec.owner,
        repo: spec.repo,
        check_run_id: id,
        output: output(batch),
      });
      checkAnswer(res, CheckRunAnswer);
    } catch (error) {
      failed(
        error,
        `add annotations ${i * ANNOTATIONS_PER_REQUEST + 1}–${i * ANNOTATIONS_PER_REQUEST + batch.length} to the check run`,
      );
      break;
    }
  }
  return id;
}
