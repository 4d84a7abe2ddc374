/**
 * The whole gate as one call: policy → export → §2–4 → fragility → report JSON. Shared by the CLI
 * and the action, which differ only in where inputs come from and where the report goes.
 */
import { createHash } from "node:crypto";
import { evaluate } from "./decision/evaluate.js";
import { computeFragility } from "./decision/fragility.js";
import { InputError, PolicyError } from "./errors.js";
import { readDataset } from "../read/read-dataset.js";
import type { ReadThreads } from "../read/read-threads.js";
import { COLLECT_MIN_TASKS } from "../read/limits.js";
import { diffPolicyTexts } from "./policy/policy-diff.js";
import { isExpired, parsePolicy } from "./policy/load-policy.js";
import type { PolicyChange, PolicyHistoryReport, Report } from "./report/report-types.js";
import { buildReport } from "./report/build-report.js";
import { datasetAsOfReview } from "./history/as-of-review.js";
import { appendOnlyCheck, checkHistory } from "./history/append-only.js";
import type { AppendOnlyBase } from "./history/history-types.js";
import { reclassificationHeadline, verdictByReviewRevision } from "./history/verdict-by-revision.js";

export interface GateRequest {
  /** Results export files (already resolved, regular files). */
  readonly results: readonly string[];
  readonly reviews: readonly string[];
  /** The policy that decides: on a PR, the base commit's version. */
  readonly policy: {
    readonly path: string;
    readonly text: string;
    /** Where the text came from, e.g. "file" or "base commit 1a2b3c…". */
    readonly source: string;
    readonly lastCommit: string | null;
  };
  /** On a PR whose head changes the policy file: the head version, shown as a base → head diff. */
  readonly headPolicyText: string | null;
  readonly baseline: string;
  readonly candidate: string;
  readonly canary: "pass" | "fail" | null;
  /** YYYY-MM-DD, for the policy's revisit date. */
  readonly today: string;
  readonly toolVersion: string;
  /** How to name input files in messages and provenance (e.g. relative to the workspace). */
  readonly displayPath?: (absPath: string) => string;
  /** Read large exports on worker threads (the bundles pass theirs; see src/io/parse-workers.ts). */
  readonly readThreads?: ReadThreads;
  /** A full garbage collection, for a large read (the bundles pass src/io/full-collection.ts's). */
  readonly collectGarbage?: () => void;
  /** The previous versions of the results and reviews files, for the append-only check (issue #14). */
  readonly previous?: { readonly results: readonly string[]; readonly reviews: readonly string[] } | null;
  /** The action: where the previous versions came from (report key `append_only_base`). */
  readonly appendOnlyBase?: AppendOnlyBase | null;
  /** `--as-of-review N`: only labels with review_revision ≤ N count (issue #14). */
  readonly asOfReview?: number | null;
  /** The base policy's recent history (the action reads it from git); reported only with a policy change. */
  readonly policyHistory?: PolicyHistoryReport | null;
  /** Notes on how the input was read, for debug output. */
  readonly onNote?: (message: string) => void;
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

export async function runGate(req: GateRequest): Promise<Report> {
  if (req.baseline === req.candidate) {
    throw new InputError(
      `The baseline and the candidate are the same model_config ("${req.baseline}"): there is nothing to compare.`,
    );
  }
  const display = req.displayPath ?? ((p: string) => p);
  const policyFile = display(req.policy.path);
  const policy = parsePolicy(req.policy.text, policyFile);

  const expired = isExpired(policy, req.today);
  if (expired && policy.on_expired === "fail") {
    throw new PolicyError(
      `${policyFile}: the policy expired on ${policy.revisit} (today is ${req.today}) and says on_expired: fail. ` +
        `Its owner ${policy.owner} must re-examine the thresholds and set a new revisit date.`,
    );
  }

  let policyChanges: PolicyChange[] | null = null;
  const extraWarnings: string[] = [];
  if (req.headPolicyText !== null && req.headPolicyText !== req.policy.text) {
    const diff = diffPolicyTexts(req.policy.text, req.headPolicyText, policyFile);
    policyChanges = [...diff.changes];
    if (diff.headError !== null) {
      extraWarnings.push(
        `The pull request's version of ${policyFile} does not parse (${diff.headError}); the base version decided.`,
      );
    }
  }

  if (req.readThreads?.note !== undefined) req.onNote?.(req.readThreads.note);
  const read = await readDataset({
    results: req.results,
    reviews: req.reviews,
    baseline: req.baseline,
    candidate: req.candidate,
    displayPath: display,
    ...(req.readThreads?.ranges === undefined ? {} : { readRanges: req.readThreads.ranges }),
    ...(req.onNote === undefined ? {} : { onNote: req.onNote }),
    ...(req.collectGarbage === undefined ? {} : { collectGarbage: req.collectGarbage }),
  });
  // The builder is garbage now: its held state goes before the evaluation allocates.
  const large = req.collectGarbage !== undefined && read.tasks.length >= COLLECT_MIN_TASKS;
  if (large) req.collectGarbage?.();
  const asOfReview = req.asOfReview ?? null;
  const dataset = asOfReview === null ? read : datasetAsOfReview(read, asOfReview);
  const appendOnly =
    req.previous === undefined || req.previous === null
      ? null
      : await checkHistory(req.previous, req, display);
  const ctx = {
    canary: req.canary,
    expired,
    ...(appendOnly === null ? {} : { extraChecks: [appendOnlyCheck(appendOnly)] }),
  };
  const evaluation = evaluate(dataset, policy, ctx);
  const fragility = computeFragility(dataset, policy, ctx, evaluation);
  // The fragility search's garbage goes before the evaluations at each review revision add theirs
  // (at 10⁶ tasks the peak was there: ~860 → ~780 MiB).
  if (large) req.collectGarbage?.();
  const byRevision = verdictByReviewRevision({ dataset, policy, ctx, evaluation });
  const reclassified = reclassificationHeadline(byRevision);
  if (reclassified !== null) extraWarnings.unshift(reclassified);
  return buildReport({
    dataset,
    policy,
    policySource: {
      path: policyFile,
      sha256: sha256(req.policy.text),
      source: req.policy.source,
      lastCommit: req.policy.lastCommit,
    },
    policyChanges,
    policyHistory: policyChanges === null ? null : (req.policyHistory ?? null),
    evaluation,
    fragility,
    extraWarnings,
    toolVersion: req.toolVersion,
    verdictByReviewRevision: byRevision,
    asOfReview,
    appendOnly,
    appendOnlyBase: req.appendOnlyBase ?? null,
  });
}
