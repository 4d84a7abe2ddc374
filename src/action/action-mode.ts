/**
 * What a mode of the action is. The skeleton (src/action/gate-action.ts) runs the same phases for
 * every mode — inputs, policy, append-only base, reading and deciding, verdict, GitHub, fail-on —
 * and asks the mode only what differs: which inputs it reads, what it checks before the long
 * read, how it decides, what it renders and which outputs it sets. Evaluate
 * (src/action/evaluate-mode.ts) and rank (src/action/rank-mode.ts) are two values of this type;
 * a third mode is a third value, not a third copy of the phases.
 */
import type { PolicyHistoryReport } from "../core/report/report-types.js";
import type { Verdict } from "../core/verdict-types.js";
import type { GitRunner } from "../git/run-git.js";
import type { YoungGeneration } from "../read/read-dataset.js";
import type { RunRequest } from "../read/run-inputs.js";
import type { PolicyChoice } from "./base-commit.js";
import type { BaseVersions, GitToFile } from "./base-files.js";
import type { Conclusion } from "./check-run.js";
import type { RunContext } from "./context.js";
import type { Octokit, RetrySettings } from "./github-api.js";
import type { ActionInputs, GetInput, InputEnv } from "./inputs.js";
import type { Logger } from "./logger.js";
import type { CommentAuthor } from "./sticky-comment.js";

/** Everything from outside: src/index.ts wires the real ones, the tests their fakes. */
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
  /** What large reads ask of the young generation (src/io/young-generation.ts); absent: nothing. */
  readonly youngGeneration?: YoungGeneration;
}

/** The policy that decides, as the "Policy" phase found it (with its recent history when asked). */
export interface ChosenPolicy extends PolicyChoice {
  readonly history: PolicyHistoryReport | null;
}

/** What the skeleton hands a mode to read and decide with, once the inputs and the policy are known. */
export interface ModeRun<I extends ActionInputs> {
  readonly inputs: I;
  readonly ctx: RunContext;
  readonly octokit: Octokit | null;
  readonly policy: ChosenPolicy;
  /** The base commit's results and reviews (the append-only check); null: none. */
  readonly bases: BaseVersions | null;
  /** What every mode's read takes alike: the files, the policy's text, the base versions, the day. */
  readonly read: ReadBasis;
  readonly deps: ActionDeps;
}

/** The part of a read request (src/read: evaluate's RunRequest, rank's RankRequest) both modes share. */
export type ReadBasis = Pick<
  RunRequest,
  | "previous"
  | "results"
  | "reviews"
  | "policy"
  | "today"
  | "displayPath"
  | "collectGarbage"
  | "youngGeneration"
>;

/** A mode's decision: the report, and what the GitHub phase needs beyond it. */
export interface Decided<R> {
  readonly report: R;
  readonly conclusion: Conclusion;
  /** The sticky comment's body and digest, rendered only when a comment is posted. */
  readonly comment: () => { body: string; digest: string };
  /** The check run's `external_id` (the run-history record), when there is one. */
  readonly externalId?: string;
  /** Whose comments are the gate's, when already asked; null: ask when posting. */
  readonly author: { readonly value: CommentAuthor | null } | null;
}

export interface ActionMode<I extends ActionInputs, R extends object, P> {
  /** The check name (and so the comment key) when the check-name input is empty. */
  readonly defaultCheckName: string;
  /** How the fail-on message names the gate ("Model gate"). */
  readonly gateName: string;
  /** How the comment is named in the log ("Gate comment"). */
  readonly commentNoun: string;
  /** The "Policy" phase also reads the policy's recent history from git (for the report's policy section). */
  readonly policyHistory: boolean;
  readInputs(getInput: GetInput, env: InputEnv, onPullRequest: boolean): I;
  /** One log line: what this run is about. */
  describe(ctx: RunContext, inputs: I): string;
  /** What can be checked once the policy is known, before the export is read (throws InputError). */
  plan(inputs: I, policy: ChosenPolicy): P;
  /** Reads the export and decides; each of its phases in its own log group. */
  decide(run: ModeRun<I>, plan: P): Promise<Decided<R>>;
  verdict(report: R): Verdict;
  /** The first reason, for the fail-on message. */
  firstReason(report: R): string | undefined;
  /** The reasons and warnings the log shows after the headline. */
  logReasons(report: R): readonly string[];
  warnings(report: R): readonly string[];
  /** Plain text: the check run's title and the log's headline. */
  title(report: R): string;
  /** Markdown within `maxLength` characters: the job summary and the check run's text. */
  render(report: R, title: string, maxLength: number): string;
  /** The step outputs a report sets (without the ids known only after publishing). */
  outputs(report: R, reportPath: string): Record<string, string>;
}

/** What the run produced: the verdict, and whether it fails the step. */
export interface ActionResult<R> {
  readonly report: R;
  readonly checkRunId: number | null;
  readonly commentId: number | null;
  /** The message the step fails with per `fail-on`; null when the verdict passes. */
  readonly verdictFailure: string | null;
  /** What could not be delivered, each already said with an ::error:: (the report file): the step fails. */
  readonly undelivered: readonly string[];
}
