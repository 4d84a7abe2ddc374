/**
 * SPEC §3.1: the observed margin Δ̂ and the margin bounds Δ_L, Δ_H over every subset S of the open
 * tasks U (one S for both models), and under `infra_errors: bound` over every lost result too
 * (SPEC §3.8): Δ(S) increases in every d it averages, so Δ_L is the sort-and-scan on the low ends
 * of d and Δ_H on the high ends. Figures near 0 are made exact from the counts (exact-sum.ts).
 */
import type { AttemptCounts } from "../model.js";
import type { ComparisonSets } from "./comparison-sets.js";
import { ExactSum, exactNearZero } from "./exact-sum.js";
import type { TaskColumns } from "./task-columns.js";
import type { InfraErrorsPolicy } from "./task-scores.js";
import { exactRatioBounds, pessimisticBounds } from "./validity-bounds.js";

export interface MarginBounds {
  /** Δ̂; null when N_v = 0 or a task of V has a lost result. */
  readonly margin: number | null;
  /** Δ̂'s range over V's lost results (both Δ̂ when it is a point); null when N_v = 0. */
  readonly observedLow: number | null;
  readonly observedHigh: number | null;
  readonly marginLower: number | null;
  readonly marginUpper: number | null;
  /** Positions in U of S_L and S_H, most extreme first (pessimistic: every task of U). */
  readonly lowerSet: readonly number[];
  readonly upperSet: readonly number[];
  /** The d of the tasks of S_L / S_H as they enter the SE at that set (pessimistic: ∓1); their low / high ends. */
  readonly lowerValues: Float64Array;
  readonly upperValues: Float64Array;
}

/** A ratio over V ∪ S (S: positions in U) plus `extra`, made exact near 0 at one end of the d intervals. */
type ExactRatio = (
  value: number | null,
  open: readonly number[],
  extra: number,
  end: "low" | "high",
) => number | null;

/**
 * A ratio over V ∪ S (S: positions in U) plus `extra` (the pessimistic bound's ∓|U|), computed in
 * floating point, made exact near 0 from the counts (exact-sum.ts): the divisor is |V| + |S| + 0.
 */
function exactRatio(columns: TaskColumns, infra: InfraErrorsPolicy, sets: ComparisonSets): ExactRatio {
  const valid = sets.validTask;
  return (value, open, extra, end) =>
    exactNearZero(value, valid.length + (extra === 0 ? open.length : Math.abs(extra)), () => {
      const s = new ExactSum();
      const add = (i: number): void => {
        s.addDifference(
          columns.candidate[i] as AttemptCounts,
          columns.baseline[i] as AttemptCounts,
          infra,
          end,
        );
      };
      for (const i of valid) add(i);
      for (const j of open) add(sets.openTask[j] as number);
      s.add(extra, 1);
      return s;
    });
}

export function marginBounds(
  sets: ComparisonSets,
  columns: TaskColumns,
  infra: InfraErrorsPolicy,
  validityBound: "exact" | "pessimistic",
): MarginBounds {
  const { nv, openLow, openHigh } = sets;
  const D = openLow.length;
  const exact = exactRatio(columns, infra, sets);
  let marginLower: number | null;
  let marginUpper: number | null;
  let lowerSet: readonly number[];
  let upperSet: readonly number[];
  let lowerValues: Float64Array;
  let upperValues: Float64Array;
  if (validityBound === "exact") {
    const low = exactRatioBounds(sets.validSumLow, nv, openLow);
    // Points: one scan gives both ends.
    const high =
      openHigh === openLow && sets.validSumHigh === sets.validSumLow
        ? low
        : exactRatioBounds(sets.validSumHigh, nv, openHigh);
    marginLower = low.lower;
    marginUpper = high.upper;
    lowerSet = low.lowerSet;
    upperSet = high.upperSet;
    lowerValues = Float64Array.from(lowerSet, (j) => openLow[j] as number);
    upperValues = Float64Array.from(upperSet, (j) => openHigh[j] as number);
  } else {
    marginLower = pessimisticBounds(sets.validSumLow, nv, D, -1, 1).lower;
    marginUpper = pessimisticBounds(sets.validSumHigh, nv, D, -1, 1).upper;
    const all = Array.from({ length: D }, (_, j) => j);
    lowerSet = all;
    upperSet = all;
    lowerValues = new Float64Array(D).fill(-1);
    upperValues = new Float64Array(D).fill(1);
  }
  // Counts are integers: a bound (or the margin) at 0 is exactly 0, not −1.85e-17 (exact-sum.ts).
  const pessimistic = validityBound === "pessimistic";
  marginLower = exact(marginLower, pessimistic ? [] : lowerSet, pessimistic ? -D : 0, "low");
  marginUpper = exact(marginUpper, pessimistic ? [] : upperSet, pessimistic ? D : 0, "high");
  const observedLow = exact(nv > 0 ? sets.validSumLow / nv : null, [], 0, "low");
  const observedHigh =
    sets.validLost === 0 ? observedLow : exact(nv > 0 ? sets.validSumHigh / nv : null, [], 0, "high");
  return {
    margin: sets.validLost === 0 ? observedLow : null,
    observedLow,
    observedHigh,
    marginLower,
    marginUpper,
    lowerSet,
    upperSet,
    lowerValues,
    upperValues,
  };
}
