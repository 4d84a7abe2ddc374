import { resolve } from "node:path";
import { renderEvaluateHtml } from "../core/report/html/render-evaluate-html.js";
import { InputError } from "../core/errors.js";
import { runGate } from "../core/gate.js";
import { withSinceLastRun } from "../core/run-history/since-last-run.js";
import { readPreviousRun } from "../read/previous-run.js";
import { readRunInputs, type RunRequest } from "../read/run-inputs.js";
import { sha256Hex } from "../read/sha256-hex.js";
import { decodePolicyText } from "../core/policy/policy-bytes.js";
import { renderMarkdown } from "../core/report/render-markdown.js";
import { jsonChunks } from "../core/report/report-json.js";
import { renderText } from "../core/report/render-text.js";
import { writeFileAtomic } from "../io/atomic-write.js";
import { checkOutputTarget, describeFsCode, readInputFile } from "../io/file-kind.js";
import { MAX_POLICY_BYTES } from "../core/policy/load-policy.js";
import { TOOL_VERSION } from "../version.js";
import { one, parseFlags, required, type FlagSpec } from "./args.js";
import type { CliIo } from "./io.js";
import { expandFileArgs, hasGlobChars, type FileArg } from "../io/glob.js";

export const EVALUATE_HELP = `Usage: model-gate evaluate --results F [F ...] --policy P --baseline ID --candidate ID [options]

Reads a results export (SPEC §1.1) and an acceptance policy (SPEC §1.3) and decides whether the
candidate model config may replace the baseline: accept, reject or unresolved.

Required:
  --results F [F ...]     results export files (.jsonl or .jsonl.gz; gzip is detected by content).
                          The flag may also be repeated. Every file flag takes patterns too,
                          quoted ('runs/*.jsonl'; * and ? within a path segment, ** across
                          them), expanded as the action expands its inputs: sorted, each file
                          once, and a pattern that matches nothing is an error.
  --policy P              the acceptance policy (YAML).
  --baseline ID           model_config of the baseline.
  --candidate ID          model_config of the candidate.

Options:
  --reviews R [R ...]     review files (SPEC §1.2, JSONL); later review revisions override labels.
  --canary pass|fail      result of the production canary: fail rejects, whatever the policy
                          says; a policy with production_canary: passes needs pass.
  --format markdown|json|text|html
                          what to print on stdout (default: markdown, the PR comment's document;
                          text: the same verdict, checks and margin, plain, for a terminal;
                          html: one self-contained page with the margin charts, no scripts).
  --report OUT.json       also write the report JSON to OUT.json (atomically).
  --today YYYY-MM-DD      the date used for the policy's revisit check (default: today, UTC).
  --previous-results F [F ...]
                          the previous version of the results export (e.g. from the last
                          run): every earlier row must still be there, unchanged, else the
                          check "history rewritten" fails and the verdict cannot be accept.
  --previous-reviews R [R ...]
                          the same for the review files.
  --as-of-review N        only labels with review_revision <= N count (tasks without a label by
                          then are unreviewed): reproduces the verdict as of review revision N.
  --since-results F [F ...]
                          the previous run's results export: the report says what changed since
                          that run (tasks that flipped, labels, the margin and its bounds, the
                          verdict, the tasks that moved the margin most).
  --since-reviews R [R ...]
                          the previous run's review files (default: the current --reviews).
  --since-policy P        the previous run's policy (default: the current --policy).
  -h, --help              this text.

Exit status: 0 accept, 1 reject, 2 unresolved, 3 input, policy or usage error, 4 internal error.
`;

const FLAGS: Record<string, FlagSpec> = {
  results: { kind: "many" },
  reviews: { kind: "many" },
  policy: { kind: "one" },
  baseline: { kind: "one" },
  candidate: { kind: "one" },
  canary: { kind: "one", choices: ["pass", "fail"] },
  format: { kind: "one", choices: ["markdown", "json", "text", "html"] },
  report: { kind: "one" },
  today: { kind: "one" },
  "as-of-review": { kind: "one" },
  "previous-results": { kind: "many" },
  "previous-reviews": { kind: "many" },
  "since-results": { kind: "many" },
  "since-reviews": { kind: "many" },
  "since-policy": { kind: "one" },
  help: { kind: "boolean" },
  h: { kind: "boolean" },
};

export const VERDICT_EXIT = { accept: 0, reject: 1, unresolved: 2 } as const;

export function todayUtc(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The policy's text; see decodePolicyText for why bytes that are not UTF-8 are refused. */
export async function readPolicyText(path: string, shown: string): Promise<string> {
  // A regular file only, and the 64 KiB cap enforced while reading (/dev/zero stops at it).
  return decodePolicyText(await readInputFile(path, path, "policy file", MAX_POLICY_BYTES), shown);
}

export async function evaluateCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const flags = parseFlags(argv, FLAGS, "evaluate");
  if (flags.has("help") || flags.has("h")) {
    io.stdout(EVALUATE_HELP);
    return 0;
  }
  if ((flags.get("results") ?? []).length === 0)
    throw new InputError('Missing --results.\nRun "model-gate evaluate --help".');
  // Patterns expanded as the action expands its inputs (src/io/glob.ts): sorted, each file once.
  const files = (name: string): FileArg[] => expandFileArgs(io.cwd, `--${name}`, flags.get(name) ?? []);
  const results = files("results");
  const reviews = files("reviews");
  const policyPath = onePath(required(flags, "policy", "evaluate"), "--policy");
  const baseline = required(flags, "baseline", "evaluate");
  const candidate = required(flags, "candidate", "evaluate");
  const today = one(flags, "today") ?? todayUtc(io.now());
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new InputError(`--today must be YYYY-MM-DD; got "${today}".`);
  const canary = one(flags, "canary");
  const abs = (p: string): string => resolve(io.cwd, p);
  const asOfReview = parseAsOfReview(one(flags, "as-of-review"));
  const previousResults = files("previous-results");
  const previousReviews = files("previous-reviews");
  const previous = { results: previousResults.map((f) => f.abs), reviews: previousReviews.map((f) => f.abs) };
  const since = sinceFlags(flags, files, abs);
  // Every file the command line names, as messages and the provenance show it.
  const given: FileArg[] = [
    ...results,
    ...reviews,
    { abs: abs(policyPath), shown: policyPath },
    ...previousResults,
    ...previousReviews,
    ...since.given,
  ];
  const reportPath = one(flags, "report");
  // The report must not replace an input or a device: refused before anything is read.
  if (reportPath !== undefined)
    checkOutputTarget(
      abs(reportPath),
      reportPath,
      "--report",
      given.map((f) => ({ path: f.abs, shown: f.shown })),
    );

  const request: RunRequest = {
    results: results.map((f) => f.abs),
    reviews: reviews.map((f) => f.abs),
    policy: {
      path: abs(policyPath),
      text: await readPolicyText(abs(policyPath), policyPath),
      source: "file",
      lastCommit: null,
    },
    headPolicyText: null,
    baseline,
    candidate,
    canary: canary === "pass" || canary === "fail" ? canary : null,
    today,
    asOfReview,
    previous: previous.results.length + previous.reviews.length === 0 ? null : previous,
    toolVersion: TOOL_VERSION,
    // Name files as the user typed them, so messages and provenance match the command line.
    displayPath: (p) => given.find((f) => f.abs === p)?.shown ?? p,
    ...(io.collectGarbage === undefined ? {} : { collectGarbage: io.collectGarbage }),
    ...(io.youngGeneration === undefined ? {} : { youngGeneration: io.youngGeneration }),
  };
  const gateInputs = await readRunInputs(request);
  let report = runGate(gateInputs.dataset, gateInputs.policy, gateInputs.options);
  if (since.results.length > 0) {
    // The previous run's reviews and policy default to the current ones (docs/cli.md).
    const sincePolicy = since.policy ?? policyPath;
    const previous = await readPreviousRun(request, {
      results: since.results.map((f) => f.abs),
      reviews: since.reviews === undefined ? request.reviews : since.reviews.map((f) => f.abs),
      policy:
        since.policy === undefined
          ? request.policy
          : {
              path: abs(sincePolicy),
              text: await readPolicyText(abs(sincePolicy), sincePolicy),
              source: "file",
              lastCommit: null,
            },
      headSha: null,
    });
    report = withSinceLastRun(
      report,
      gateInputs.dataset,
      null,
      { ...previous, unavailable: null },
      sha256Hex,
    );
  }

  // The JSON text in pieces, made for each writer (never held whole: it grows with the task count).
  if (reportPath !== undefined) await writeReport(abs(reportPath), reportPath, jsonChunks(report));
  const format = one(flags, "format");
  if (format === "json") for (const chunk of jsonChunks(report)) io.stdout(chunk);
  else
    io.stdout(
      format === "text"
        ? renderText(report)
        : format === "html"
          ? renderEvaluateHtml(report)
          : renderMarkdown(report),
    );
  return VERDICT_EXIT[report.verdict];
}

/**
 * Writes the report atomically (a previous report stays whole if this fails). A path that cannot
 * be written (no such directory, a directory, no permission) is the user's to fix: exit status 3,
 * not an internal error.
 */
export async function writeReport(absPath: string, given: string, json: Iterable<string>): Promise<void> {
  try {
    await writeFileAtomic(absPath, json);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT" || code === "ENOTDIR"
        ? "its directory does not exist"
        : code === "EISDIR"
          ? "it is a directory"
          : code === "EACCES" || code === "EPERM"
            ? "permission denied"
            : code !== undefined
              ? describeFsCode(error)
              : undefined;
    if (why === undefined) throw error;
    throw new InputError(
      `Cannot write the report file ${given}: ${why}. No report file was written or changed.`,
    );
  }
}

/** The `--since-*` flags: the previous run's files; reviews and policy only with its results. */
function sinceFlags(
  flags: ReturnType<typeof parseFlags>,
  files: (name: string) => FileArg[],
  abs: (p: string) => string,
): {
  results: readonly FileArg[];
  reviews: readonly FileArg[] | undefined;
  policy: string | undefined;
  given: readonly FileArg[];
} {
  const results = files("since-results");
  const reviews = flags.has("since-reviews") ? files("since-reviews") : undefined;
  const given = one(flags, "since-policy");
  const policy = given === undefined ? undefined : onePath(given, "--since-policy");
  if (results.length === 0 && (reviews !== undefined || policy !== undefined)) {
    throw new InputError(
      `${reviews !== undefined ? "--since-reviews" : "--since-policy"} needs --since-results: the previous run is read from its results.\n` +
        'Run "model-gate evaluate --help" for the list of flags.',
    );
  }
  return {
    results,
    reviews,
    policy,
    given: [
      ...results,
      ...(reviews ?? []),
      ...(policy === undefined ? [] : [{ abs: abs(policy), shown: policy }]),
    ],
  };
}

/** A flag that names one file (the policy): a pattern is refused, as the action's policy input refuses it. */
function onePath(value: string, flag: string): string {
  if (hasGlobChars(value))
    throw new InputError(`${flag} must be one file, not a pattern (${JSON.stringify(value)}).`);
  return value;
}

export function parseAsOfReview(value: string | undefined): number | null {
  if (value === undefined) return null;
  const n = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n)) {
    throw new InputError(`--as-of-review must be a review revision, an integer >= 0; got "${value}".`);
  }
  return n;
}

export function displayAs(absPath: string, given: readonly string[], abs: (p: string) => string): string {
  return given.find((g) => abs(g) === absPath) ?? absPath;
}
