/**
 * The whole gate as one pure call: a Dataset and the policy that decides in, the report JSON out
 * (§2–4, fragility, the verdict at each review revision). The shells (the CLI and the action)
 * read every input first (src/read/run-inputs.ts: the policy's text, the export, the previous
 * versions) and differ only in where inputs come from and where the report goes.
 */
import { evaluate } from "./decision/evaluate.js";
import { computeFragility } from "./decision/fragility.js";
import { PolicyError } from "./errors.js";
import type { Dataset } from "./model.js";
import { diffPolicyTexts } from "./policy/policy-diff.js";
import { isExpired, parsePolicy } from "./policy/load-policy.js";
import type { PolicyChange } from "./verdict-types.js";
import type { Report } from "./report/report-types.js";
import { buildReport } from "./report/build-report.js";
import { datasetAsOfReview } from "./history/as-of-review.js";
import { appendOnlyCheck } from "./history/append-only.js";
import { reclassificationHeadline, verdictByReviewRevision } from "./history/verdict-by-revision.js";
import { isMultiBenchmark, planBenchmarks } from "./decision/benchmarks.js";
import { gateAcrossBenchmarks } from "./gate-benchmarks.js";
import type { GateOptions, GatePolicy, PolicyText } from "./gate-types.js";

export type { GateOptions, GatePolicy, PolicyText } from "./gate-types.js";

/**
 * The policy parsed and checked against `today` (YYYY-MM-DD), and compared with the head's
 * version. Throws a PolicyError for a policy that does not parse, or that has expired and says
 * on_expired: fail: the shells call this before they read the export, so a policy error comes
 * before any problem of the export.
 */
export function gatePolicy(p: PolicyText, today: string): GatePolicy {
  const file = p.source.path;
  const policy = parsePolicy(p.text, file);
  const expired = isExpired(policy, today);
  if (expired && policy.on_expired === "fail") {
    throw new PolicyError(
      `${file}: the policy expired on ${policy.revisit} (today is ${today}) and says on_expired: fail. ` +
        `Its owner ${policy.owner} must re-examine the thresholds and set a new revisit date.`,
    );
  }
  let changes: PolicyChange[] | null = null;
  const warnings: string[] = [];
  if (p.headText !== null && p.headText !== p.text) {
    const diff = diffPolicyTexts(p.text, p.headText, file);
    changes = [...diff.changes];
    if (diff.headError !== null) {
      warnings.push(
        `The pull request's version of ${file} does not parse (${diff.headError}); the base version decided.`,
      );
    }
  }
  return { policy, source: p.source, expired, changes, warnings, history: p.history };
}

export function runGate(dataset: Dataset, policy: GatePolicy, options: GateOptions): Report {
  const asOfReview = options.asOfReview;
  // (A Dataset already as of revision N stays as it is.)
  const view = asOfReview === null ? dataset : datasetAsOfReview(dataset, asOfReview);
  // Several benchmarks: each decided alone, then together (docs/spec.md §4.6).
  const plan = planBenchmarks(view, policy.policy);
  if (isMultiBenchmark(plan)) return gateAcrossBenchmarks(view, policy, options, plan, gateOne);
  return gateOne(view, { ...policy, policy: plan[0]?.policy ?? policy.policy }, options);
}

/** Today's whole gate on one Dataset (one benchmark, or every task pooled). */
function gateOne(view: Dataset, policy: GatePolicy, options: GateOptions): Report {
  const asOfReview = options.asOfReview;
  const appendOnly = options.appendOnly;
  const ctx = {
    canary: options.canary,
    expired: policy.expired,
    extraChecks: [
      ...(appendOnly === null ? [] : [appendOnlyCheck(appendOnly)]),
      ...(options.extraChecks ?? []),
    ],
  };
  const extraWarnings = [...policy.warnings];
  const evaluation = evaluate(view, policy.policy, ctx);
  const fragility = computeFragility(view, policy.policy, ctx, evaluation);
  options.collectGarbage?.();
  const byRevision = verdictByReviewRevision({ dataset: view, policy: policy.policy, ctx, evaluation });
  const reclassified = reclassificationHeadline(byRevision);
  if (reclassified !== null) extraWarnings.unshift(reclassified);
  return buildReport({
    dataset: view,
    policy: policy.policy,
    policySource: policy.source,
    policyChanges: policy.changes,
    policyHistory: policy.changes === null ? null : policy.history,
    evaluation,
    fragility,
    extraWarnings,
    toolVersion: options.toolVersion,
    verdictByReviewRevision: byRevision,
    asOfReview,
    appendOnly,
    appendOnlyBase: options.appendOnlyBase,
    policyExpired: policy.expired,
  });
}
