/**
 * The verdict of SPEC §4 and the sentences that explain it.
 *
 * - reject: the canary failed (whether or not the policy requires one); or every evidence check
 *   passes and UCB ≤ δ₀.
 * - accept: every evidence check passes (the canary check among them when required) and LCB > δ₀.
 * - unresolved: anything else, including a null LCB/UCB.
 */
import type { Policy } from "../policy/policy-types.js";
import type { Check, Verdict } from "../verdict-types.js";
import type { MarginAnalysis } from "../stats/margin.js";
import type { EvaluationContext } from "./evaluation-types.js";
import { lcbNullReason, lostTasks, marginRemedy } from "./checks.js";
import { plural } from "./format.js";
import { formatPp } from "../format-number.js";

export interface VerdictResult {
  readonly verdict: Verdict;
  readonly reasons: string[];
}

/** The bare decision rule, for callers (fragility) that only need the verdict. */
export function decideVerdict(
  evidencePasses: boolean,
  canary: EvaluationContext["canary"],
  lcb: number | null,
  ucb: number | null,
  delta0: number,
): Verdict {
  if (canary === "fail") return "reject";
  if (!evidencePasses) return "unresolved";
  if (ucb !== null && ucb <= delta0) return "reject";
  if (lcb !== null && lcb > delta0) return "accept";
  return "unresolved";
}

/** Δ̂ in a sentence: its value, or under infra_errors: bound with a lost result on V its range. */
function observedText(a: MarginAnalysis): string {
  if (a.margin !== null) return formatPp(a.margin);
  if (a.observedLow !== null && a.observedHigh !== null) {
    return `${formatPp(a.observedLow)} … ${formatPp(a.observedHigh)} as the lost results fall`;
  }
  return "undefined";
}

function marginSentence(a: MarginAnalysis, policy: Policy): string {
  const delta0 = policy.accept_if.delta0;
  const d0 = formatPp(delta0);
  if (a.lcb === null || a.ucb === null) {
    return `the margin's confidence bounds cannot be computed: ${lcbNullReason(a, policy)}`;
  }
  // A conservative bound is named so, as every rendering names it (report/bound-labels.ts).
  const lcb = `LCB${a.lcbKind === "conservative" ? " (conservative)" : ""} = ${formatPp(a.lcb)}`;
  const ucb = `UCB${a.ucbKind === "conservative" ? " (conservative)" : ""} = ${formatPp(a.ucb)}`;
  if (a.lcb > delta0) return `the margin's lower bound ${lcb} clears δ₀ = ${d0}`;
  if (a.ucb <= delta0) return `the margin's upper bound ${ucb} does not exceed δ₀ = ${d0}`;
  return `the margin's lower bound ${lcb} does not clear δ₀ = ${d0} while its upper bound ${ucb} exceeds it: the evidence cannot carry the ranking`;
}

export function verdictWithReasons(
  checks: readonly Check[],
  a: MarginAnalysis,
  policy: Policy,
  ctx: EvaluationContext,
): VerdictResult {
  const failedEvidence = checks.filter((c) => c.kind === "evidence" && !c.passed);
  const delta0 = policy.accept_if.delta0;
  const verdict = decideVerdict(failedEvidence.length === 0, ctx.canary, a.lcb, a.ucb, delta0);
  const reasons: string[] = [];

  if (ctx.canary === "fail") {
    reasons.push(
      policy.accept_if.production_canary
        ? "The production canary failed: a failed canary rejects the change whatever the benchmark says."
        : "The production canary failed: the policy does not require a canary, but a failed one rejects the change whatever the benchmark says.",
    );
    return { verdict, reasons };
  }

  if (verdict === "accept") {
    reasons.push(
      `Every evidence check passes and ${marginSentence(a, policy)}: the candidate beats the baseline by more than validity sensitivity plus run variance (${plural(a.commonValidTasks, "common valid task")}, Δ̂ = ${observedText(a)}).`,
    );
    return { verdict, reasons };
  }
  if (verdict === "reject") {
    const lost = lostTasks(a) > 0 ? ` and of the lost results on ${plural(lostTasks(a), "common task")}` : "";
    const why =
      a.unresolvedTasks > 0
        ? `even the most favourable resolution of the ${plural(a.unresolvedTasks, "disputed/unreviewed task")}${lost} cannot clear the bar`
        : lost !== ""
          ? `even the most favourable resolution${lost} cannot clear the bar`
          : "the candidate does not clear the bar even at the top of the run-variance band";
    reasons.push(
      `Every evidence check passes and ${marginSentence(a, policy)}: ${why} (Δ̂ = ${observedText(a)}).`,
    );
    return { verdict, reasons };
  }

  // Unresolved: name every check that keeps it so, then the margin.
  for (const c of failedEvidence) reasons.push(`Check ${c.id} fails: ${c.detail}`);
  if (failedEvidence.length > 0) {
    if (a.lcb !== null && a.lcb > delta0) {
      reasons.push(`Once these checks pass, ${marginSentence(a, policy)} and would accept.`);
    } else if (a.ucb !== null && a.ucb <= delta0) {
      reasons.push(`Once these checks pass, ${marginSentence(a, policy)} and would reject.`);
    } else {
      const remedy = a.lcb === null ? "" : ` To resolve it, ${marginRemedy(a, delta0)}.`;
      reasons.push(`Even with these checks passing, ${marginSentence(a, policy)}.${remedy}`);
    }
  } else {
    const s = marginSentence(a, policy);
    const remedy = a.lcb === null ? "" : ` To resolve it, ${marginRemedy(a, delta0)}.`;
    reasons.push(`${s.charAt(0).toUpperCase()}${s.slice(1)}.${remedy}`);
  }
  return { verdict, reasons };
}
