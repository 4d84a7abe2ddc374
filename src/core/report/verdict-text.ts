/**
 * The words a reviewer reads first, for every rendering (Markdown comment and summary, plain text,
 * check run title): one sentence of why, in the report's units (pp for margins, % for rates), and
 * what would change the verdict, in plain words. Built from the report JSON alone.
 *
 * Untrusted text (check details, task ids, threshold text) goes through the caller's `Inline`
 * formatter, which escapes it for its target; generated text goes through `gen`.
 */
import { pluralWord } from "../words.js";
import { satisfies } from "../decision/format.js";
import { parseThresholdText } from "../policy/policy-values.js";
import { failedEvidence, failingChecks, knownLabel, thresholdText } from "./check-display.js";
import { CONSERVATIVE, boundName, boundQualifier } from "./bound-labels.js";
import { THRESHOLD_MAX_CHARS, WHOLE_TEXT_MAX_CHARS } from "./prose.js";
import { formatCount, formatPercent, formatPp, formatPpUnsigned } from "./format-number.js";
import type { Check } from "../verdict-types.js";
import type { Report } from "./report-types.js";
import { lostResultsBounded } from "./render-infra-readings.js";
import { shoppingLine } from "../run-history/runs-report.js";
import { benchmarksTitle } from "./benchmarks-title.js";

/** How a rendering writes inline text. Every method returns text safe for its target. */
export interface Inline {
  /** Untrusted text, escaped, whole up to `maxChars` code points (wholeText: cut only after a word). */
  text(s: string, maxChars?: number): string;
  /** An untrusted identifier (a task id) in a monospace font. */
  code(s: string, maxChars?: number): string;
  /** Generated text (may hold `<`, `>`, `&`, `_`). */
  gen(s: string): string;
  /** Emphasis around text already made safe. */
  strong(safe: string): string;
}

/** How many tasks "what would change" names inline before pointing at the list. */
export const FIRST_TASKS = 3;

/**
 * The check's name as safe text. With the report, the margin check's row names its bound as the
 * figures do: "Margin lower bound (LCB, conservative)" when LCB is a conservative bound.
 */
export function checkName(id: string, f: Inline, report?: Report): string {
  if (id === "observed_margin" && report !== undefined && boundQualifier(report.comparison, "lcb") !== "") {
    return f.gen(`Margin lower bound (LCB, ${CONSERVATIVE})`);
  }
  const label = knownLabel(id);
  return label === null ? f.text(id, 60) : f.gen(label);
}

function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1] ?? ""}`;
}

/** The scores on the common set, "52.00% vs 47.42%", or "" when undefined. */
function scores(report: Report): string {
  const a = report.models.candidate.common.valid_only_score;
  const b = report.models.baseline.common.valid_only_score;
  if (a === null || b === null) return "";
  return `candidate ${formatPercent(a)}, baseline ${formatPercent(b)}`;
}

/** True when the policy's `reruns: fail` rejected a re-run of the eval (not the margin or the canary). */
export function rejectedByReruns(report: Report): boolean {
  return report.verdict === "reject" && report.runs?.reruns.effect === "rejected";
}

/** True when a guardrail (docs/spec.md §4.5), not accuracy, rejected the change. */
export function rejectedByGuardrail(report: Report): boolean {
  const accuracy = report.accuracy_verdict;
  return (
    report.verdict === "reject" &&
    accuracy !== undefined &&
    accuracy !== "reject" &&
    !rejectedByReruns(report)
  );
}

/** The guardrails with this verdict, their metric names joined ("cost_usd and latency_s"). */
function guardrailNames(report: Report, verdict: "fail" | "unresolved", f: Inline): string {
  const names = (report.guardrails ?? [])
    .filter((g) => g.verdict === verdict)
    .map((g) => f.code(g.metric, 64));
  return names.length <= 1
    ? (names[0] ?? "")
    : `${names.slice(0, -1).join(f.gen(", "))}${f.gen(" and ")}${names[names.length - 1] ?? ""}`;
}

/** True when a failed production canary (not the margin) rejected the change. */
export function rejectedByCanary(report: Report): boolean {
  const c = report.comparison;
  if (report.verdict !== "reject" || rejectedByReruns(report) || rejectedByGuardrail(report)) return false;
  return !(failedEvidence(report).length === 0 && c.ucb !== null && c.ucb <= c.delta0);
}

/** Where the margin stands against δ₀ on its own: "accept", "reject", "undecided" or "undefined". */
export function marginStanding(report: Report): "accept" | "reject" | "undecided" | "undefined" {
  const c = report.comparison;
  if (c.lcb === null || c.ucb === null) return "undefined";
  if (c.lcb > c.delta0) return "accept";
  if (c.ucb <= c.delta0) return "reject";
  return "undecided";
}

/** True when Δ̂ is unknown because a common valid task has a lost result (infra_errors: bound). */
export function marginUnknown(c: Report["comparison"]): boolean {
  return c.margin === null && c.common_valid_tasks > 0;
}

/** Δ̂ as a cell or figure: its value, "unknown (lost results)" under bound, "n/a" without valid tasks. */
export function observedMargin(c: Report["comparison"]): string {
  return marginUnknown(c) ? "unknown (lost results)" : formatPp(c.margin);
}

function marginFigure(report: Report, f: Inline): string {
  const c = report.comparison;
  const s = scores(report);
  if (marginUnknown(c)) {
    // Δ̂ is a range: the margin bounds over the lost results (and the open labels) say where it lies.
    return (
      `${f.gen("margin ")}${f.strong(f.gen(`${formatPp(c.margin_lower)} … ${formatPp(c.margin_upper)}`))}` +
      f.gen(
        ` (whichever way the lost results fall, on ${formatCount(c.common_valid_tasks)} common valid ${pluralWord(c.common_valid_tasks, "task", "tasks")})`,
      )
    );
  }
  return (
    `${f.gen("margin ")}${f.strong(f.gen(formatPp(c.margin)))}` +
    f.gen(
      ` (${s === "" ? "" : `${s} on `}${formatCount(c.common_valid_tasks)} common valid ${pluralWord(c.common_valid_tasks, "task", "tasks")})`,
    )
  );
}

/** How the bound treats the open labels (SPEC §3 revision 2: over every resolution of them). */
function openLabels(report: Report, which: "lcb" | "ucb"): string {
  const c = report.comparison;
  const u = c.unresolved_tasks;
  const lost = lostResultsBounded(report);
  if (u === 0) return lost ? "over every way the lost results fall" : "with no open labels";
  const labels = `${formatCount(u)} open ${pluralWord(u, "label", "labels")}${lost ? " and the lost results" : ""}`;
  const kind = which === "lcb" ? c.lcb_bound_kind : c.ucb_bound_kind;
  if (kind === "pessimistic") {
    return `with the ${labels} at their ${which === "lcb" ? "worst" : "best"} (validity_bound: pessimistic)`;
  }
  return `over every resolution of the ${labels}`;
}

/** One sentence: why this verdict. */
export function whySentence(report: Report, f: Inline): string {
  const c = report.comparison;
  const failing = failedEvidence(report);
  const confidence = `${formatPercent(c.confidence, 0)} one-sided`;
  if (rejectedByReruns(report)) {
    return (
      f.gen(
        "The eval was re-run on this commit with other results, and the policy's reruns: fail rejects a re-run (",
      ) +
      marginFigure(report, f) +
      f.gen(").")
    );
  }
  if (rejectedByGuardrail(report)) {
    return (
      f.gen("The candidate fails the guardrail ") +
      guardrailNames(report, "fail", f) +
      f.gen(
        ": even the lower bound of its ratio to the baseline exceeds the policy's limit, so it is rejected whatever the accuracy (",
      ) +
      marginFigure(report, f) +
      f.gen(").")
    );
  }
  if (report.verdict === "unresolved" && report.accuracy_verdict === "accept") {
    return (
      f.gen("The ") +
      marginFigure(report, f) +
      f.gen(
        ` clears the bar (${boundName(c, "lcb")} ${formatPp(c.lcb)} > δ₀ ${formatPp(c.delta0)}), but the guardrail `,
      ) +
      guardrailNames(report, "unresolved", f) +
      f.gen(" cannot be shown to hold, so accuracy alone cannot accept.")
    );
  }
  if (report.verdict === "reject" && rejectedByCanary(report)) {
    return (
      f.gen(
        "The production canary failed: a failed canary rejects the change whatever the benchmark says (",
      ) +
      marginFigure(report, f) +
      f.gen(").")
    );
  }
  if (report.verdict === "accept") {
    return (
      f.gen("The ") +
      marginFigure(report, f) +
      f.gen(" clears the bar: its lower bound ") +
      f.strong(f.gen(`${boundName(c, "lcb")} ${formatPp(c.lcb)}`)) +
      f.gen(
        ` > δ₀ ${formatPp(c.delta0)} ${openLabels(report, "lcb")} (${confidence}), and every evidence check passes.`,
      )
    );
  }
  if (report.verdict === "reject") {
    return (
      f.gen("The ") +
      marginFigure(report, f) +
      f.gen(" cannot clear the bar: even its upper bound ") +
      f.strong(f.gen(`${boundName(c, "ucb")} ${formatPp(c.ucb)}`)) +
      f.gen(
        ` ≤ δ₀ ${formatPp(c.delta0)} ${openLabels(report, "ucb")} (${confidence}), and every evidence check passes.`,
      )
    );
  }
  const standing = marginStanding(report);
  const band =
    standing === "undefined"
      ? c.margin === null && !marginUnknown(c)
        ? c.common_tasks > 0
          ? "the margin is undefined (no common task is labelled valid)"
          : "the margin is undefined (no common valid tasks)"
        : "the margin's confidence bounds cannot be computed"
      : `the bounds ${boundName(c, "lcb")} ${formatPp(c.lcb)} … ${boundName(c, "ucb")} ${formatPp(c.ucb)} straddle the bar δ₀ ${formatPp(c.delta0)}`;
  if (failing.length > 0) {
    // The checks are named in the table and in "what would change": counted here, not listed,
    // and counted as the table shows them (the margin's row among them when it fails).
    const n = failingChecks(report).length;
    const head = f.strong(f.gen(`${n} of ${report.checks.length} checks ${pluralWord(n, "fails", "fail")}`));
    if (standing === "accept") {
      return (
        head +
        f.gen("; the ") +
        marginFigure(report, f) +
        f.gen(` alone would accept (${boundName(c, "lcb")} ${formatPp(c.lcb)} > δ₀ ${formatPp(c.delta0)}).`)
      );
    }
    if (standing === "reject") {
      return (
        head +
        f.gen("; the ") +
        marginFigure(report, f) +
        f.gen(` alone would reject (${boundName(c, "ucb")} ${formatPp(c.ucb)} ≤ δ₀ ${formatPp(c.delta0)}).`)
      );
    }
    if (c.margin === null && !marginUnknown(c)) return head + f.gen(`, and ${band}.`);
    return head + f.gen(", and for the ") + marginFigure(report, f) + f.gen(` ${band}.`);
  }
  if (c.margin === null && !marginUnknown(c)) return f.gen(`Every evidence check passes, but ${band}.`);
  return (
    f.gen("Every evidence check passes, but the ") +
    marginFigure(report, f) +
    f.gen(` cannot rank the models: ${band}.`)
  );
}

/** The first tasks of the fragility list, named inline, and how many more there are. */
function firstTasks(report: Report, f: Inline): string {
  const tasks = report.comparison.fragility_tasks;
  const shown = tasks.slice(0, FIRST_TASKS).map((t) => f.code(t.task_id, 80));
  const rest = tasks.length - shown.length;
  return rest > 0 ? `${shown.join(f.gen(", "))}${f.gen(` and ${rest} more (listed below)`)}` : listOf(shown);
}

/**
 * A count-driven check at its edge: the smallest number of valid tasks whose loss (relabelled
 * broken) fails a passing check, with the sentence that says so. Common valid tasks: the count
 * drops; disputed fraction: the share of open labels rises. Null when neither can fail that way.
 */
export function countEdge(
  report: Report,
  f: Inline,
): { readonly lose: number; readonly text: string } | null {
  const c = report.comparison;
  const limit = c.review_fragility;
  if (limit === null || limit < 1) return null;
  const found: { lose: number; text: string }[] = [];
  const byId = (id: string): Check | undefined => report.checks.find((k) => k.id === id && k.passed);

  const count = byId("common_valid_tasks");
  const countT = count === undefined ? null : parseThresholdText(count.threshold);
  if (count !== undefined && countT?.ok === true && typeof count.observed === "number") {
    const nv = count.observed;
    const t = countT.value;
    if (t.op === ">=" || t.op === ">") {
      let lose = 1;
      while (lose <= limit && satisfies(nv - lose, t)) lose++;
      if (lose <= limit) {
        const need = f.text(thresholdText(count, report), THRESHOLD_MAX_CHARS);
        const have =
          lose === 1
            ? `${nv === t.value ? "exactly " : ""}${formatCount(nv)}: any one task lost fails it`
            : `${formatCount(nv)}: losing any ${formatCount(lose)} of them fails it`;
        found.push({
          lose,
          text: f.gen("the policy needs ") + need + f.gen(` common valid tasks and there are ${have}`),
        });
      }
    }
  }

  const share = byId("disputed_fraction");
  const shareT = share === undefined ? null : parseThresholdText(share.threshold);
  const d = c.unresolved_tasks;
  const nv = c.common_valid_tasks;
  if (share !== undefined && shareT?.ok === true && typeof share.observed === "number" && d > 0) {
    const t = shareT.value;
    if (t.op === "<" || t.op === "<=") {
      let lose = 1;
      while (lose <= limit && lose < nv && satisfies(d / (nv - lose + d), t)) lose++;
      if (lose <= limit && lose < nv) {
        found.push({
          lose,
          text:
            f.gen("the policy needs a disputed fraction ") +
            f.text(thresholdText(share, report), THRESHOLD_MAX_CHARS) +
            f.gen(
              ` and it is ${formatPercent(share.observed)}: losing any ${lose === 1 ? "one valid task" : `${formatCount(lose)} valid tasks`} pushes it over`,
            ),
        });
      }
    }
  }
  found.sort((a, b) => a.lose - b.lose);
  return found[0] ?? null;
}

/** True when the fragility is explained by a count check at its edge (then no task is singled out). */
export function fragilityAtEdge(report: Report, f: Inline): boolean {
  const edge = countEdge(report, f);
  return edge !== null && edge.lose === report.comparison.review_fragility;
}

/**
 * What would change the verdict: bullet items (safe text, no list markers). For unresolved: each
 * failing check with what would fix it, and what would move the margin; for accept and reject: how
 * firm the verdict is.
 */
export function whatWouldChange(report: Report, f: Inline): string[] {
  const c = report.comparison;
  const items: string[] = [];
  const atMost = c.fragility_exact ? "" : "at most ";
  if (rejectedByReruns(report)) {
    for (const k of failedEvidence(report)) {
      items.push(`${f.strong(checkName(k.id, f))}${f.gen(": ")}${f.text(k.detail, WHOLE_TEXT_MAX_CHARS)}`);
    }
    return items;
  }
  if (rejectedByGuardrail(report)) {
    for (const r of report.reasons)
      if (/^Guardrail \S+ fails:/.test(r)) items.push(f.text(r, WHOLE_TEXT_MAX_CHARS));
    return items;
  }
  if (report.verdict === "unresolved") {
    for (const r of report.reasons)
      if (/^Guardrail \S+ is unresolved:/.test(r)) items.push(f.text(r, WHOLE_TEXT_MAX_CHARS));
    for (const k of failedEvidence(report)) {
      items.push(`${f.strong(checkName(k.id, f))}${f.gen(": ")}${f.text(k.detail, WHOLE_TEXT_MAX_CHARS)}`);
    }
    const standing = marginStanding(report);
    if (standing === "undefined") {
      const m = report.checks.find((k) => k.id === "observed_margin");
      if (m !== undefined && c.common_valid_tasks > 0) {
        items.push(`${f.strong(f.gen("Margin"))}${f.gen(": ")}${f.text(m.detail, WHOLE_TEXT_MAX_CHARS)}`);
      }
    } else if (standing === "undecided") {
      const parts: string[] = [];
      const u = c.unresolved_tasks;
      if (!c.fragility_unbounded && c.resolution_distance !== null && u > 0) {
        const n = c.resolution_distance;
        parts.push(
          f.gen(
            `resolving ${atMost}${formatCount(n)} of the ${formatCount(u)} open ${pluralWord(u, "label", "labels")} (disputed or unreviewed → valid or broken) can decide it`,
          ) + (c.fragility_tasks.length > 0 ? f.gen("; review first ") + firstTasks(report, f) : ""),
        );
      } else if (u > 0) {
        parts.push(
          f.gen(
            c.fragility_exact
              ? `no resolution of the ${formatCount(u)} open ${pluralWord(u, "label", "labels")} can decide it`
              : `the search found no resolution of the ${formatCount(u)} open ${pluralWord(u, "label", "labels")} that decides it`,
          ),
        );
      }
      if (marginUnknown(c)) {
        parts.push(
          f.gen(
            "the attempts lost to infrastructure leave Δ̂ unknown and widen both bounds: re-running them narrows the bounds",
          ),
        );
      }
      if (c.margin !== null && c.se_valid !== null) {
        const half = (c.q_valid ?? c.z) * c.se_valid;
        const lo = c.margin - half;
        const hi = c.margin + half;
        const straddles = lo <= c.delta0 && hi > c.delta0;
        parts.push(
          f.gen(
            `on the valid tasks alone the margin is ${formatPp(c.margin)} ± ${formatPpUnsigned(half)} (q·SE)` +
              (straddles
                ? `, which straddles δ₀ ${formatPp(c.delta0)}: more common valid tasks (or attempts per task) are needed to narrow it`
                : `, clear of δ₀ ${formatPp(c.delta0)}`),
          ),
        );
      }
      if (parts.length > 0) {
        const text = parts.join(f.gen("; "));
        items.push(`${f.strong(f.gen("Margin"))}${f.gen(": ")}${text}${f.gen(".")}`);
      }
    }
    return items;
  }

  if (rejectedByCanary(report)) {
    items.push(
      f.gen("Only a passing production canary can change it: the benchmark cannot outvote a failed canary."),
    );
    return items;
  }
  const other = report.verdict === "accept" ? "unresolved" : "unresolved or accept";
  const edge = countEdge(report, f);
  if (edge !== null && edge.lose === c.review_fragility) {
    items.push(
      `${f.strong(f.gen("At its edge"))}${f.gen(": ")}${edge.text}${f.gen(` — and the verdict becomes ${other}.`)}`,
    );
  } else if (c.fragility_unbounded) {
    items.push(
      f.gen(
        c.fragility_exact
          ? "No change to the reviewed labels changes it."
          : "The search found no set of reviewed-label changes that changes it (not proven: the search is greedy).",
      ),
    );
  } else if (c.review_fragility !== null) {
    const n = c.review_fragility;
    const share =
      c.review_fragility_share === null
        ? ""
        : `, ${formatPercent(c.review_fragility_share)} of the ${formatCount(c.common_valid_tasks)} common valid tasks`;
    items.push(
      f.strong(f.gen(`Relabelling ${atMost}${formatCount(n)} reviewed ${pluralWord(n, "task", "tasks")}`)) +
        f.gen(
          ` (valid → broken, or broken → valid${share}) gives a different verdict` +
            (c.fragility_exact ? "." : "; the search is greedy, so fewer may do."),
        ),
    );
  }
  const u = c.unresolved_tasks;
  if (u > 0) {
    items.push(
      f.gen(
        `Resolving the ${formatCount(u)} open ${pluralWord(u, "label", "labels")} cannot change it: the ${report.verdict === "accept" ? "lower bound already assumes the least" : "upper bound already assumes the most"} favourable resolution.`,
      ),
    );
  }
  return items;
}

/**
 * "policy expired 2027-03-31" when the deciding policy's revisit date had passed, else null: the
 * check run's title and the first line of every rendering carry it (docs/policy.md, on_expired).
 * Generated words only: a date that is not YYYY-MM-DD (a hand-edited report) is left out.
 */
export function expiredPolicyNote(report: Report): string | null {
  const p = report.provenance.policy;
  if (!p.expired) return null;
  return /^\d{4}-\d{2}-\d{2}$/.test(p.revisit) ? `policy expired ${p.revisit}` : "policy expired";
}

/** The check run's title: plain text, generated words and numbers only (nothing untrusted). */
export function checkRunTitle(report: Report): string {
  const title =
    report.benchmarks === undefined ? verdictTitle(report) : benchmarksTitle(report, report.benchmarks);
  const shopping = shoppingLine(report.verdict, report.runs);
  return shopping === null ? title : `${title} — ${shopping}`;
}

function verdictTitle(report: Report): string {
  const c = report.comparison;
  const expired = expiredPolicyNote(report);
  const verdict =
    report.verdict.charAt(0).toUpperCase() +
    report.verdict.slice(1) +
    (expired === null ? "" : ` (${expired})`);
  const margin = marginUnknown(c)
    ? `margin ${formatPp(c.margin_lower)} … ${formatPp(c.margin_upper)}`
    : `margin ${formatPp(c.margin)}`;
  if (report.verdict === "accept") {
    return `${verdict}: ${margin}, lower bound${boundQualifier(c, "lcb")} ${formatPp(c.lcb)} > δ₀ ${formatPp(c.delta0)}`;
  }
  if (report.verdict === "reject") {
    if (rejectedByReruns(report))
      return `${verdict}: the eval was re-run on this commit with other results (reruns: fail); ${margin}`;
    if (rejectedByCanary(report)) return `${verdict}: production canary failed; ${margin}`;
    if (rejectedByGuardrail(report)) return `${verdict}: ${guardrailTitle(report)}; ${margin}`;
    return `${verdict}: ${margin}, upper bound${boundQualifier(c, "ucb")} ${formatPp(c.ucb)} ≤ δ₀ ${formatPp(c.delta0)}`;
  }
  // Counted and named as the checks table shows them: the margin's row among them when it fails.
  const failing = failingChecks(report);
  const names = failing.map((k) => knownLabel(k.id) ?? "an unknown check");
  const checks =
    failing.length === 0
      ? "every check passes"
      : `${failing.length} ${pluralWord(failing.length, "check fails", "checks fail")} (${names.join("; ")})`;
  const bounds =
    c.lcb === null || c.ucb === null
      ? "bounds undefined"
      : // Both bounds are taken one way (one kind) whenever both are defined.
        `bounds${boundQualifier(c, "lcb")} ${formatPp(c.lcb)} … ${formatPp(c.ucb)} vs δ₀ ${formatPp(c.delta0)}`;
  const guardrails = (report.guardrails ?? []).some((g) => g.verdict === "unresolved")
    ? `; ${guardrailTitle(report)}`
    : "";
  return `${verdict}: ${checks}; ${margin}, ${bounds}${guardrails}`;
}

/** "guardrail cost_usd fails", "guardrails cost_usd, latency_s unresolved": names match [a-z0-9_]. */
function guardrailTitle(report: Report): string {
  const failing = (report.guardrails ?? []).filter((g) => g.verdict === "fail");
  const open = (report.guardrails ?? []).filter((g) => g.verdict === "unresolved");
  const list = (gs: typeof failing): string => gs.map((g) => g.metric.replace(/[^a-z0-9_]/g, "")).join(", ");
  if (failing.length > 0)
    return `${pluralWord(failing.length, "guardrail", "guardrails")} ${list(failing)} ${pluralWord(failing.length, "fails", "fail")}`;
  return `${pluralWord(open.length, "guardrail", "guardrails")} ${list(open)} unresolved`;
}
