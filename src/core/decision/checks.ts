/**
 * The evidence checks and the margin check of SPEC §4, each with its observed value, threshold,
 * pass/fail and a one-sentence detail that, when failed, says what would fix it.
 */
import type { Threshold, Policy } from "../policy/policy-types.js";
import type { Check, ModelCounts } from "../verdict-types.js";
import type { MarginAnalysis } from "../stats/margin.js";
import { isPlaceholderRevision, type Dataset } from "../model.js";
import type { EvaluationContext } from "./evaluation-types.js";
import { delta0Text, num, pct, plural, satisfies, shownList, shownValue } from "./format.js";
import { formatPp, formatPpUnsigned } from "../format-number.js";
import { separateTaskUniverses, type SeparateUniverses } from "./task-universe.js";

/**
 * Smallest integer x in [0, limit] with f(x) satisfying t, for f monotone in x, searched within
 * a few steps of `estimate` (the caller's closed-form solution; the search absorbs rounding and the
 * strict/non-strict operator). null when no x near the estimate satisfies it.
 */
function smallestSatisfying(
  t: Threshold,
  f: (x: number) => number | null,
  estimate: number,
  limit: number,
): number | null {
  const ok = (y: number): boolean => {
    const v = f(y);
    return v !== null && satisfies(v, t);
  };
  if (!Number.isFinite(estimate)) return null;
  let x = Math.max(0, Math.min(limit, Math.floor(estimate) - 2));
  for (let back = 0; back < 16 && x > 0 && ok(x - 1); back++) x--;
  for (let step = 0; step < 16 && x <= limit; step++, x++) if (ok(x)) return x;
  return null;
}

/**
 * Why no task is common when each file brought its own task universe (see task-universe.ts), as a
 * pointer: the dataset-revision check says the why and the fix (re-import with one --tasks list)
 * in full, once.
 */
function oneTaskListFix(split: SeparateUniverses): string {
  return (
    `${plural(split.sharedTaskIds, "task id")} ${split.sharedTaskIds === 1 ? "is" : "are"} in both models' results ` +
    `under two dataset revisions, so none is common: see Same dataset revisions`
  );
}

/**
 * The common valid tasks' detail when both models share tasks but none is labelled valid: the
 * usual case of leaderboard runs imported without reviews. Says so, and how to add labels.
 */
function noValidLabelDetail(a: MarginAnalysis, t: Threshold, revisions: readonly string[]): string {
  const open = a.unresolvedTasks;
  const labels =
    a.disputedTasks === 0
      ? `all ${plural(open, "common task")} ${open === 1 ? "is" : "are"} unreviewed: the results carry no validity labels`
      : `the ${plural(open, "common task")} ${open === 1 ? "is" : "are"} open (${a.disputedTasks} disputed, ${a.unreviewedTasks} unreviewed)`;
  return (
    `No common task is labelled valid — ${labels}, and the policy needs ${t.text} common valid tasks. ` +
    `Add labels with a reviews file (--reviews; the action's reviews input): ` +
    `\`model-gate import verified-annotations\` for SWE-bench Verified, or \`model-gate import reviews-csv\` for your own sheet, ` +
    `given the results' --dataset-revision (${shownList(revisions)}) or the same --tasks list, so that the labels apply to these tasks.`
  );
}

function commonValidCheck(
  a: MarginAnalysis,
  t: Threshold,
  split: SeparateUniverses | null,
  revisions: readonly string[],
): Check {
  const nv = a.commonValidTasks;
  const passed = satisfies(nv, t);
  if (!passed && nv === 0 && a.unresolvedTasks > 0 && split === null) {
    return {
      id: "common_valid_tasks",
      observed: nv,
      threshold: t.text,
      passed,
      kind: "evidence",
      detail: noValidLabelDetail(a, t, revisions),
    };
  }
  let detail = `${plural(nv, "common valid task")} (labelled valid, attempted by both models); the policy needs ${t.text}`;
  if (!passed && split !== null) {
    detail += ` — ${oneTaskListFix(split)}`;
  } else if (!passed) {
    const more =
      t.op === ">=" || t.op === ">"
        ? smallestSatisfying(t, (x) => nv + x, t.value - nv, Number.MAX_SAFE_INTEGER)
        : null;
    detail +=
      more !== null
        ? ` — ${plural(more, "more common valid task")} (run by both models, or resolved as valid) would satisfy it`
        : " — the count cannot satisfy this threshold by adding tasks";
  }
  return {
    id: "common_valid_tasks",
    observed: nv,
    threshold: t.text,
    passed,
    kind: "evidence",
    detail: `${detail}.`,
  };
}

/**
 * The fewest attempts without an infra error whose addition brings the rate I / (A + x) within a
 * maximum threshold, or null when none can: a minimum, or a maximum no added attempt reaches
 * (0 with I > 0). Exact: the closed form, then checked against `satisfies` around it.
 */
export function cleanAttemptsNeeded(infraErrors: number, attempts: number, t: Threshold): number | null {
  if (t.op !== "<" && t.op !== "<=") return null;
  if (satisfies(infraErrors / attempts, t)) return 0;
  if (t.value <= 0) return null;
  const limit = Math.ceil(infraErrors / t.value) + 2;
  return smallestSatisfying(t, (x) => infraErrors / (attempts + x), infraErrors / t.value - attempts, limit);
}

/**
 * What would bring a failing infra error rate within the threshold, as a clause (docs/spec.md
 * §4.3, "what would resolve it"). Attempts are only appended, so the rate falls only as attempts
 * without an infra error are added. Advice is feasible when it asks for at most as many new
 * attempts as the model has made (one more run of the benchmark as large as this one); past
 * that no count is given, and the clause says why nothing re-run can fix it.
 */
export function infraRemedy(
  side: "baseline" | "candidate",
  infraErrors: number,
  attempts: number,
  t: Threshold,
): string {
  const x = cleanAttemptsNeeded(infraErrors, attempts, t);
  if (t.op !== "<" && t.op !== "<=") {
    return " — adding attempts only lowers the rate, so this threshold (a minimum) cannot be met by re-running";
  }
  if (x !== null && x <= infraErrors) {
    return ` — re-running ${x} of the ${plural(infraErrors, "attempt")} that ended in an infra error, without one, would satisfy it`;
  }
  if (x !== null && x <= attempts) {
    const retried = infraErrors / (attempts + infraErrors);
    return (
      ` — ${plural(x, "more attempt")} without an infra error would satisfy it (on a fixed harness, e.g. re-running part of the benchmark); ` +
      `re-running only the ${plural(infraErrors, "attempt")} that ended in an infra error would leave it at ${pct(retried)}`
    );
  }
  const twice = infraErrors / (2 * attempts);
  return (
    ` — no re-run can satisfy it: attempts are only appended, so the ${plural(infraErrors, "infra error")} stay and the rate falls only as attempts without one are added, ` +
    `and even a second run as large as this one (${plural(attempts, "more attempt")}) without a single infra error would leave it at ${pct(twice)}. ` +
    `Fix the infrastructure and run the benchmark again for the ${side}`
  );
}

function infraRateCheck(side: "baseline" | "candidate", m: ModelCounts, t: Threshold): Check {
  const id = side === "baseline" ? "infra_error_rate_baseline" : "infra_error_rate_candidate";
  const rate = m.infra_error_rate;
  const denom = m.passes + m.fails + m.infra_errors;
  if (rate === null) {
    return {
      id,
      observed: null,
      threshold: t.text,
      passed: false,
      kind: "evidence",
      detail: `The ${side} has no pass, fail or infra_error attempt on the non-broken tasks, so its infra error rate is undefined — run it on the task set.`,
    };
  }
  const passed = satisfies(rate, t);
  let detail = `The ${side} had ${plural(m.infra_errors, "infra error")} in ${plural(denom, "attempt")} (${pct(rate)}); the policy needs ${t.text}`;
  if (!passed) detail += infraRemedy(side, m.infra_errors, denom, t);
  return { id, observed: rate, threshold: t.text, passed, kind: "evidence", detail: `${detail}.` };
}

function disputedCheck(a: MarginAnalysis, t: Threshold, split: SeparateUniverses | null): Check {
  const phi = a.disputedFraction;
  const d = a.unresolvedTasks;
  const nv = a.commonValidTasks;
  if (phi === null) {
    return {
      id: "disputed_fraction",
      observed: null,
      threshold: t.text,
      passed: false,
      kind: "evidence",
      detail: `No task was attempted by both models, so the disputed fraction is undefined — ${split === null ? "run both models on the same tasks" : "see Same dataset revisions"}.`,
    };
  }
  const passed = satisfies(phi, t);
  let detail = `${d} of ${plural(nv + d, "common task")} are disputed or unreviewed (${a.disputedTasks} disputed, ${a.unreviewedTasks} unreviewed; ${pct(phi)}); the policy needs ${t.text}`;
  if (!passed && nv === 0) {
    // Nothing is labelled valid: the common valid tasks' check says how to add labels, once.
    detail += " — label them (see Common valid tasks)";
  } else if (!passed) {
    // Worst case for the fraction: every reviewed task turns out broken and leaves C.
    const r = smallestSatisfying(
      t,
      (x) => (nv + d - x > 0 ? (d - x) / (nv + d - x) : null),
      t.value < 1 ? d - (t.value * nv) / (1 - t.value) : 0,
      d,
    );
    detail +=
      r !== null
        ? ` — reviewing ${r} of the ${plural(d, "disputed/unreviewed task")} would satisfy it whatever their labels turn out to be`
        : ` — review the ${plural(d, "disputed/unreviewed task")} (or add common valid tasks)`;
  }
  return {
    id: "disputed_fraction",
    observed: phi,
    threshold: t.text,
    passed,
    kind: "evidence",
    detail: `${detail}.`,
  };
}

function missingCheck(
  side: "baseline" | "candidate",
  m: ModelCounts,
  universe: number,
  t: Threshold,
  split: SeparateUniverses | null,
): Check {
  const id = side === "baseline" ? "missing_fraction_baseline" : "missing_fraction_candidate";
  const f = m.missing_fraction;
  if (f === null) {
    return {
      id,
      observed: null,
      threshold: t.text,
      passed: false,
      kind: "evidence",
      detail: `There are no non-broken tasks, so the ${side}'s missing fraction is undefined.`,
    };
  }
  const passed = satisfies(f, t);
  let detail = `The ${side} has no pass, fail or infra_error attempt on ${m.missing_tasks} of ${plural(universe, "task")} (${pct(f)}); the policy needs ${t.text}`;
  if (!passed && split !== null) {
    // Every task under the other model's own revisions is missing for this one; `shared` of them
    // are ids it has under its own revisions.
    const own = Math.min(split.sharedTaskIds, m.missing_tasks);
    detail +=
      ` — ${own} of its ${plural(m.missing_tasks, "missing task")} ${own === 1 ? "is a task id" : "are task ids"} it has under its own dataset revision ` +
      `(see Same dataset revisions); after that fix, run the ${side} on any task it still misses`;
  } else if (!passed) {
    const x =
      t.op === "<" || t.op === "<="
        ? smallestSatisfying(
            t,
            (y) => (m.missing_tasks - y) / universe,
            m.missing_tasks - t.value * universe,
            m.missing_tasks,
          )
        : null;
    detail +=
      x !== null
        ? ` — running the ${side} on ${x} of its ${plural(m.missing_tasks, "missing task")} would satisfy it`
        : ` — run the ${side} on its missing tasks`;
  }
  return { id, observed: f, threshold: t.text, passed, kind: "evidence", detail: `${detail}.` };
}

/** Placeholder harness revisions of one model (docs/spec.md §4.2). */
function placeholdersOf(revisions: readonly string[]): string[] {
  return revisions.filter(isPlaceholderRevision);
}

/**
 * What sets a real harness revision, as a clause. The importers write `unknown:<kind>`, so the
 * kind names the command; any other placeholder came from the export itself.
 */
function importerKinds(placeholders: readonly string[]): string[] {
  return [
    ...new Set(
      placeholders
        .map((p) => /^unknown:([a-z0-9][a-z0-9-]*)$/.exec(p)?.[1])
        .filter((k): k is string => k !== undefined),
    ),
  ];
}

function realRevisionRemedy(placeholders: readonly string[]): string {
  const kinds = importerKinds(placeholders);
  const how =
    kinds.length > 0
      ? kinds.map((k) => `\`model-gate import ${k} … --harness-revision R\``).join(" / ")
      : "the importer's `--harness-revision R`";
  return `re-import with ${how} (R: the harness's commit or release), or write a real harness_revision on the export rows`;
}

function sideList(b: readonly string[], c: readonly string[]): string {
  return `baseline: ${shownList(b)}; candidate: ${shownList(c)}`;
}

function sameHarnessCheck(dataset: Dataset): Check {
  const b = dataset.baseline.harnessRevisions;
  const c = dataset.candidate.harnessRevisions;
  const union = [...new Set([...b, ...c])].sort();
  const placeholders = placeholdersOf(union);
  const passed = union.length === 1 && placeholders.length === 0;
  let detail: string;
  if (passed) detail = `Both models ran on harness revision ${shownValue(union[0] ?? "")}.`;
  else if (placeholders.length > 0) {
    // Said once: real_harness_revisions (always run) fails too and carries the why and the fix.
    detail =
      `A placeholder harness revision (${shownList(placeholders)}) cannot show that both models ran on one ` +
      `harness; Real harness revisions says how to set real ones.`;
  } else {
    detail = `The models ran on ${plural(union.length, "harness revision")} (${sideList(b, c)}) — re-run both on one harness revision to compare like with like.`;
  }
  return {
    id: "same_harness",
    observed: union.join(", "),
    threshold: "one real revision",
    passed,
    kind: "evidence",
    detail,
  };
}

/**
 * SPEC §4 "harness revisions that are real revisions": run whatever require_same_harness says,
 * because a placeholder means the report cannot say which harness produced the results.
 */
function realHarnessCheck(dataset: Dataset): Check {
  const hb = dataset.baseline.harnessRevisions;
  const hc = dataset.candidate.harnessRevisions;
  const b = placeholdersOf(hb);
  const c = placeholdersOf(hc);
  const all = [...new Set([...b, ...c])].sort();
  const passed = all.length === 0;
  const who = b.length > 0 && c.length > 0 ? "Both models" : b.length > 0 ? "The baseline" : "The candidate";
  const detail = passed
    ? "Every harness revision of both models is a real revision (none is an `unknown:…` placeholder)."
    : `${who} ran on the placeholder harness revision${all.length > 1 ? "s" : ""} ${shownList(all)} (${sideList(hb, hc)}): ` +
      `a placeholder is a label saying no revision was known, so the report cannot say which harness produced the results — ${realRevisionRemedy(all)}.`;
  return {
    id: "real_harness_revisions",
    observed: passed ? "all real" : all.join(", "),
    threshold: "no placeholder",
    passed,
    kind: "evidence",
    detail,
  };
}

/**
 * The dataset-revision check's detail when each file brought its own task universe: why no task
 * is common, and the fix, re-import both with one task list (the importer named when the
 * placeholder harness revisions tell it).
 */
function oneTaskListDetail(dataset: Dataset, split: SeparateUniverses): string {
  const kinds = importerKinds([...dataset.baseline.harnessRevisions, ...dataset.candidate.harnessRevisions]);
  const how =
    kinds.length > 0
      ? kinds.map((k) => `\`model-gate import ${k} FILE --tasks TASKS\``).join(" / ")
      : "the importer's `--tasks TASKS`";
  const side = (name: string, s: SeparateUniverses["baseline"]): string =>
    `the ${name}'s ${plural(s.taskIds, "task id")} under ${shownList(s.revisions)}`;
  const own = [...split.baseline.revisions, ...split.candidate.revisions];
  const derived = split.derivedRevisions;
  const hashed =
    derived.length === own.length
      ? `${own.length === 2 ? "both are" : "each is"} the hash of ${own.length === 2 ? "their" : "its"} own task ids`
      : `${shownList(derived)} ${derived.length === 1 ? "is" : "are"} the hash of ${derived.length === 1 ? "its" : "their"} own task ids`;
  const n = split.sharedTaskIds;
  return (
    `The dataset revisions differ (${side("baseline", split.baseline)}; ${side("candidate", split.candidate)}), ` +
    `but ${plural(n, "task id")} ${n === 1 ? "is" : "are"} in both, and ${hashed}, as an importer computes the revision when no --tasks list is given: ` +
    `each file brought its own task universe, so the same tasks count as different ones and none is common. ` +
    `Re-import both files with one --tasks list (TASKS: the benchmark's task ids, one per line) — ${how} — so that both carry one dataset revision.`
  );
}

function datasetRevisionCheck(dataset: Dataset, split: SeparateUniverses | null): Check {
  const b = dataset.baseline.datasetRevisions;
  const c = dataset.candidate.datasetRevisions;
  const bs = new Set(b);
  const cs = new Set(c);
  const equal = b.length === c.length && b.every((r) => cs.has(r));
  const passed = equal && b.length > 0;
  const observed = equal
    ? b.join(", ")
    : `baseline: ${b.join(", ") || "none (no rows)"}; candidate: ${c.join(", ") || "none (no rows)"}`;
  let detail: string;
  if (passed) {
    detail = `Both models ran dataset revision${b.length > 1 ? "s" : ""} ${shownList(b)}.`;
  } else if (split !== null) {
    detail = oneTaskListDetail(dataset, split);
  } else if (b.length === 0 || c.length === 0) {
    detail = `The ${b.length === 0 ? "baseline" : "candidate"} has no dataset revision — run it on the dataset.`;
  } else {
    const onlyB = b.filter((r) => !cs.has(r));
    const onlyC = c.filter((r) => !bs.has(r));
    const parts: string[] = [];
    if (onlyB.length > 0) parts.push(`only the baseline ran ${shownList(onlyB)}`);
    if (onlyC.length > 0) parts.push(`only the candidate ran ${shownList(onlyC)}`);
    detail = `The dataset revisions differ: ${parts.join("; ")} — run both models on the same dataset revision(s).`;
  }
  return {
    id: "dataset_revision",
    observed,
    threshold: "same set for both",
    passed,
    kind: "evidence",
    detail,
  };
}

function canaryCheck(ctx: EvaluationContext): Check {
  const passed = ctx.canary === "pass";
  const detail =
    ctx.canary === "pass"
      ? "The production canary passed."
      : ctx.canary === "fail"
        ? "The production canary failed — a failed canary rejects the change."
        : "No production canary result was given — run the canary and pass its result (canary: pass | fail).";
  return {
    id: "production_canary",
    observed: ctx.canary,
    threshold: "given, and passed",
    passed,
    kind: "evidence",
    detail,
  };
}

/**
 * What could move an undecided margin (LCB ≤ δ₀ < UCB), as a clause. The valid tasks alone give
 * Δ̂ ∓ z·SE(V): when that band already clears (or falls below) δ₀, resolving the open labels could
 * decide it; otherwise the run variance itself is too large and more common valid tasks are needed.
 */
export function marginRemedy(a: MarginAnalysis, delta0: number): string {
  const d = a.unresolvedTasks;
  const review = `review the ${plural(d, "disputed/unreviewed task")}`;
  const lost = lostTasks(a);
  if (lost > 0 && a.margin === null) {
    // Δ̂ is a range until the lost results are known: re-running them narrows every bound.
    const rerun = `re-run the attempts lost to infrastructure on ${plural(lost, "common task")}`;
    return d > 0 ? `${rerun}, and ${review}` : rerun;
  }
  if (a.margin === null || a.seValid === null) {
    return d > 0 ? `${review} and add common valid tasks` : "add common valid tasks";
  }
  const q = a.qValid ?? a.z;
  const lo = a.margin - q * a.seValid;
  const hi = a.margin + q * a.seValid;
  const band = `the valid tasks alone give Δ̂ ∓ q·SE = ${formatPp(lo)} … ${formatPp(hi)}`;
  if (d > 0 && (lo > delta0 || hi <= delta0)) {
    return `${review}: ${band}, so resolving the open labels could decide it`;
  }
  const more = `${band}, which straddles δ₀ — more common valid tasks (or attempts per task) are needed to shrink the standard error`;
  return d > 0
    ? `${more}, and reviewing the ${plural(d, "disputed/unreviewed task")} narrows the validity band`
    : more;
}

/** The attaining set of an exact bound, in words: "18 open labels resolved valid (6 with d = −1, 12 with d = 0)". */
function attainingSetWords(a: MarginAnalysis, set: readonly number[]): string {
  if (a.unresolvedTasks === 0) return "there are no open labels";
  if (set.length === 0) return "attained with every open label resolved broken";
  const by = new Map<number, number>();
  for (const j of set) {
    const d = a.unresolvedLow[j] as number;
    by.set(d, (by.get(d) ?? 0) + 1);
  }
  const parts = [...by.entries()]
    .sort((x, y) => x[0] - y[0])
    .map(([d, n]) => `${n} with d = ${d > 0 ? "+" : ""}${num(d, 0)}`);
  return `attained with S* = ${plural(set.length, "open label")} resolved valid (${parts.join(", ")}) and the others broken`;
}

/**
 * LCB and how it was taken, with its arithmetic: exact, at the set S* that attains it; conservative,
 * Δ_L − q_max·SE_max; pessimistic, at S_L. Null when LCB is.
 */
function lcbFormula(a: MarginAnalysis): string | null {
  if (a.lcb === null || a.marginAtLcb === null || a.seLower === null) return null;
  const figures = `${formatPp(a.marginAtLcb)} − ${num(a.qLower ?? a.z)} × ${formatPpUnsigned(a.seLower)} = ${formatPp(a.lcb)}`;
  if (a.lcbKind === "exact" && a.lcbSet !== null) {
    return `LCB = Δ(S*) − q·SE(V ∪ S*) = ${figures}, the exact bound over every resolution of the open labels (${attainingSetWords(a, a.lcbSet)})`;
  }
  if (a.lcbKind === "conservative") {
    return `LCB (conservative) = Δ_L − q_max·SE_max = ${figures}: at most the exact bound over every resolution of ${resolvedWords(a)} (SE_max bounds SE(V ∪ S) over every ${lostTasks(a) > 0 ? "resolution" : "set S of them"})`;
  }
  return `LCB = Δ_L − q·SE(V ∪ S_L) = ${figures} (validity_bound: pessimistic)`;
}

function marginCheck(a: MarginAnalysis, policy: Policy, lcbWhyNull: string): Check {
  const delta0 = policy.accept_if.delta0;
  const threshold = `> ${delta0Text(delta0)}`;
  const rule = `policy: observed_margin ${policy.accept_if.observed_margin_text}`;
  const formula = lcbFormula(a);
  if (a.lcb === null || formula === null) {
    return {
      id: "observed_margin",
      observed: null,
      threshold,
      passed: false,
      kind: "margin",
      detail: `The margin's lower confidence bound cannot be computed: ${lcbWhyNull} (${rule}).`,
    };
  }
  const passed = a.lcb > delta0;
  let detail: string;
  if (passed) detail = `${formula} > δ₀ = ${formatPp(delta0)} (${rule}).`;
  else if (a.ucb !== null && a.ucb <= delta0) {
    detail = `${formula} does not exceed δ₀ = ${formatPp(delta0)} (${rule}), and neither does UCB = ${formatPp(a.ucb)}: the candidate does not clear the bar under any resolution of ${resolvedWords(a)}.`;
  } else {
    detail = `${formula} does not exceed δ₀ = ${formatPp(delta0)} (${rule}) — to resolve it, ${marginRemedy(a, delta0)}.`;
  }
  return { id: "observed_margin", observed: a.lcb, threshold, passed, kind: "margin", detail };
}

/** Common tasks whose d is an interval: a lost result open under infra_errors: bound (SPEC §3.8). */
export function lostTasks(a: MarginAnalysis): number {
  return a.lostValidTasks + a.lostOpenTasks;
}

/** What the bounds are taken over: the open labels, and the lost results when there are any. */
export function resolvedWords(a: MarginAnalysis): string {
  return lostTasks(a) > 0 ? "the open labels and the lost results" : "the open labels";
}

/** Why LCB is null, as a clause, for checks and reasons. */
export function lcbNullReason(a: MarginAnalysis, policy: Policy): string {
  if (a.commonValidTasks === 0)
    return a.unresolvedTasks > 0 ? "no common task is labelled valid" : "there are no common valid tasks";
  if (policy.margin.standard_error === "clustered" && a.tasksWithoutCluster > 0) {
    return `standard_error is clustered but ${plural(a.tasksWithoutCluster, "common task")} ${a.tasksWithoutCluster === 1 ? "has" : "have"} no cluster (add \`cluster\` to every row rather than let the gate guess)`;
  }
  if (policy.margin.standard_error === "clustered") return "the tasks fall into fewer than 2 clusters";
  return "fewer than 2 tasks are available for the standard error";
}

export interface CheckInputs {
  readonly dataset: Dataset;
  readonly policy: Policy;
  readonly ctx: EvaluationContext;
  readonly analysis: MarginAnalysis;
  readonly baseline: ModelCounts;
  readonly candidate: ModelCounts;
}

/** All checks in report order: evidence checks first, the margin check last. */
export function buildChecks(inp: CheckInputs): Check[] {
  const { dataset, policy, ctx, analysis } = inp;
  const ai = policy.accept_if;
  const split = separateTaskUniverses(dataset);
  const checks: Check[] = [
    commonValidCheck(analysis, ai.common_valid_tasks, split, dataset.baseline.datasetRevisions),
    infraRateCheck("baseline", inp.baseline, ai.infra_error_rate),
    infraRateCheck("candidate", inp.candidate, ai.infra_error_rate),
    disputedCheck(analysis, ai.disputed_fraction, split),
  ];
  if (ai.missing_fraction !== undefined) {
    const u = analysis.universeTasks;
    checks.push(missingCheck("baseline", inp.baseline, u, ai.missing_fraction, split));
    checks.push(missingCheck("candidate", inp.candidate, u, ai.missing_fraction, split));
  }
  if (policy.require_same_harness) checks.push(sameHarnessCheck(dataset));
  checks.push(realHarnessCheck(dataset));
  checks.push(datasetRevisionCheck(dataset, split));
  if (ai.production_canary) checks.push(canaryCheck(ctx));
  checks.push(marginCheck(analysis, policy, lcbNullReason(analysis, policy)));
  return checks;
}
