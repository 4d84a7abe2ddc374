/**
 * How LCB and UCB are named in every rendering (Markdown, plain text, the check run's title), from
 * the report's `lcb_bound_kind` / `ucb_bound_kind`: a conservative bound is called so the same way
 * everywhere, " (conservative)" after its name, and the standard error beside a bound is named
 * after the set it was taken at: the attaining set S* of an exact bound, SE_max for a conservative
 * one (no set attains it), S_L / S_H for a pessimistic one. Plain generated text: each rendering
 * escapes it as generated text.
 */
import { formatDecimal, formatPp, formatPpUnsigned } from "./format-number.js";
import type { AttainingSet, Comparison } from "../verdict-types.js";

type Kind = Comparison["lcb_bound_kind"];
type Which = "lcb" | "ucb";

/** The word written after a conservative bound's name. */
export const CONSERVATIVE = "conservative";

function kindOf(c: Comparison, which: Which): Kind {
  return which === "lcb" ? c.lcb_bound_kind : c.ucb_bound_kind;
}

/** True when either bound is a conservative one (SPEC §3 revision 2). */
export function anyConservative(c: Comparison): boolean {
  return kindOf(c, "lcb") === "conservative" || kindOf(c, "ucb") === "conservative";
}

/** " (conservative)" after a conservative bound's name, else "". */
export function boundQualifier(c: Comparison, which: Which): string {
  return kindOf(c, which) === "conservative" ? ` (${CONSERVATIVE})` : "";
}

/** "LCB" or "LCB (conservative)": the bound's name wherever its figure is shown. */
export function boundName(c: Comparison, which: Which): string {
  return (which === "lcb" ? "LCB" : "UCB") + boundQualifier(c, which);
}

/** The standard error a bound was taken with, named after its set. */
export function boundSeName(c: Comparison, which: Which): string {
  switch (kindOf(c, which)) {
    case "exact":
      return "SE(V ∪ S*)";
    case "conservative":
      return `SE_max (${CONSERVATIVE})`;
    default:
      return which === "lcb" ? "SE(V ∪ S_L)" : "SE(V ∪ S_H)";
  }
}

/** The bound's margin term: Δ(S*) of an exact bound, else Δ_L / Δ_H. */
function marginTerm(c: Comparison, which: Which): string {
  if (kindOf(c, which) === "exact") return "Δ(S*)";
  return which === "lcb" ? "Δ_L" : "Δ_H";
}

/** The bound's formula, "LCB (conservative) = Δ_L − q_max · SE_max". */
export function boundFormula(c: Comparison, which: Which): string {
  const q = kindOf(c, which) === "conservative" ? "q_max" : "q";
  const se = kindOf(c, which) === "conservative" ? "SE_max" : boundSeName(c, which);
  return `${boundName(c, which)} = ${marginTerm(c, which)} ${which === "lcb" ? "−" : "+"} ${q} · ${se}`;
}

/**
 * The formula with its figures, "LCB = Δ(S*) − q · SE(V ∪ S*) = +4.30 pp − 1.6477 × 1.29 pp =
 * +2.16 pp"; the formula alone when a figure is missing (a report from before 2.2.0).
 */
export function boundArithmetic(c: Comparison, which: Which): string {
  const [bound, at, q, se] =
    which === "lcb"
      ? [c.lcb, c.margin_at_lcb, c.q_lower, c.se_lower]
      : [c.ucb, c.margin_at_ucb, c.q_upper, c.se_upper];
  if (bound === null) return `${which === "lcb" ? "LCB" : "UCB"} n/a`;
  const formula = boundFormula(c, which);
  if (at === null || at === undefined || q === null || se === null) return `${formula} = ${formatPp(bound)}`;
  return `${formula} = ${formatPp(at)} ${which === "lcb" ? "−" : "+"} ${formatDecimal(q)} × ${formatPpUnsigned(se)} = ${formatPp(bound)}`;
}

/** What the bounds' sets mean, one sentence, when a reader needs it (exact or conservative); else null. */
export function boundsNote(c: Comparison, lostResults = false): string | null {
  if (anyConservative(c)) {
    const lost = lostResults ? " and every way the lost results fall" : "";
    return (
      `Conservative bounds: SE_max is at least SE(V ∪ S) for every set S of open labels resolved valid${lost}, ` +
      `and q_max the largest quantile any S gives, so LCB is at most, and UCB at least, the exact bound over every resolution.`
    );
  }
  if ((kindOf(c, "lcb") === "exact" || kindOf(c, "ucb") === "exact") && c.unresolved_tasks > 0) {
    return (
      `Exact bounds over every resolution of the open labels: S* is the smallest set of open labels ` +
      `resolved valid (the others broken) at which the bound is attained; it need not be S_L or S_H.`
    );
  }
  return null;
}

/** An attaining set as "18 tasks: 6 × d −1, 12 × d 0". */
export function attainingSetText(s: AttainingSet): string {
  if (s.size === 0) return "empty (every open label broken)";
  const parts = [
    s.d_minus > 0 ? `${s.d_minus} × d −1` : "",
    s.d_zero > 0 ? `${s.d_zero} × d 0` : "",
    s.d_plus > 0 ? `${s.d_plus} × d +1` : "",
  ].filter((p) => p !== "");
  return `${s.size} ${s.size === 1 ? "task" : "tasks"}${parts.length > 0 ? `: ${parts.join(", ")}` : ""}`;
}
