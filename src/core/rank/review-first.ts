/**
 * The open tasks to review first (docs/rank.md "The seed's question, answered"): for each adjacent
 * pair of the leaderboard that the open labels alone keep unordered, the open tasks that move its
 * margin most and how many reviews could settle it.
 */
import { influentialTasks } from "../decision/evaluate.js";
import type { Policy } from "../policy/policy-types.js";
import type { MarginAnalysis } from "../stats/margin.js";
import { TIE_TOLERANCE } from "../stats/validity-bounds.js";
import type { PairAnalyser, pairAnalyser } from "./rank-pairs.js";
import type { RankPair, ReviewFirst } from "./rank-types.js";

/**
 * For each adjacent pair of the leaderboard (`order`, best first) unresolved by validity: the
 * open tasks that move its margin most and the reviews that could settle it (pair(hi, lo) is the
 * reported pair of those two models, either way round).
 */
export function reviewFirstOf(
  models: readonly string[],
  order: readonly number[],
  policy: Policy,
  pair: (hi: number, lo: number) => RankPair | undefined,
  pairs: {
    readonly analyse: PairAnalyser;
    readonly pairDataset: ReturnType<typeof pairAnalyser>["pairDataset"];
  },
): ReviewFirst[] {
  const out: ReviewFirst[] = [];
  for (let p = 0; p + 1 < order.length; p++) {
    const hi = order[p] as number;
    const lo = order[p + 1] as number;
    if (pair(hi, lo)?.unresolved_by !== "validity") continue;
    const x = pairs.analyse(hi, lo, policy.margin);
    const settle = reviewsToSettle(x, policy);
    out.push({
      a: models[hi] as string,
      b: models[lo] as string,
      reviews_to_settle_a_better: settle.up,
      reviews_to_settle_b_better: settle.down,
      tasks: influentialTasks(pairs.pairDataset(hi, lo), x),
    });
  }
  return out;
}

/**
 * The fewest open labels whose resolution could take 0 out of the pair's validity band, towards
 * a above b (`up`: Δ_L > 0) and towards b above a (`down`: Δ_H < 0); null when none can.
 * Exact bounds: Δ_L > 0 exactly when Σ_V d + Σ of the open d < 0 is > 0, and each open task moves
 * that sum by |d| at best (a task with d < 0 resolved broken, one with d > 0 resolved valid), so
 * the fewest are the largest |d| first. Pessimistic bounds: Δ_L's numerator is Σ_V d − |U|, and
 * a task resolved moves it by 1 (broken) or 1 + d (valid), so by 1 + max(d, 0) at best. With lost
 * results (infra_errors: bound) Δ_L takes the low ends of d and Δ_H the high ends (SPEC §3.8).
 */
export function reviewsToSettle(
  x: MarginAnalysis,
  policy: Policy,
): { up: number | null; down: number | null } {
  if (x.observedLow === null || x.observedHigh === null) return { up: null, down: null };
  const validLow = x.observedLow * x.commonValidTasks;
  const validHigh = x.observedHigh * x.commonValidTasks;
  const count = (sign: 1 | -1): number | null => {
    let base = sign === 1 ? validLow : -validHigh;
    const d = sign === 1 ? x.unresolvedLow : x.unresolvedHigh;
    const gains: number[] = [];
    for (const raw of d) {
      const v = sign * raw;
      if (policy.margin.validity_bound === "exact") {
        if (v < 0) base += v;
        if (v !== 0) gains.push(Math.abs(v));
      } else {
        base -= 1;
        gains.push(1 + Math.max(v, 0));
      }
    }
    gains.sort((p, q) => q - p);
    let reviews = 0;
    for (const g of gains) {
      if (base > TIE_TOLERANCE) break;
      base += g;
      reviews++;
    }
    return base > TIE_TOLERANCE ? reviews : null;
  };
  return { up: count(1), down: count(-1) };
}
