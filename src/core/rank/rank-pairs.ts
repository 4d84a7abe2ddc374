/**
 * Every pair of a ranking on the one common set, ordered by the max-t step-down over the pairs'
 * directional claims (step-down.ts, max-t.ts, docs/rank.md "Multiplicity"). A pair's numbers are
 * evaluate's own: analyseMargin on the pair's columns, with the policy's margin settings at the
 * pair's level.
 */
import type { Dataset, TaskTable } from "../model.js";
import type { MarginSettings } from "../policy/policy-types.js";
import { analyseMargin, type MarginAnalysis } from "../stats/margin.js";
import type { InfraErrorsPolicy } from "../stats/task-scores.js";
import { pairColumns, type CommonSet } from "./common-set.js";
import { stepDown, type DirectionalBounds, type StepDownOutcome, type LevelSchedule } from "./step-down.js";
import type { ModelsDataset } from "./rank-types.js";

/** What a pair's test keeps of analyseMargin's answer (not its task arrays: there are m pairs). */
export interface PairBounds extends DirectionalBounds {
  readonly margin: number | null;
  /**
   * Δ̂, or under infra_errors: bound with a lost result on V the middle of its range (the mean of
   * the d intervals' midpoints: a difference of the two models' midpoint scores, so it orders
   * the leaderboard transitively as Δ̂ does).
   */
  readonly orderMargin: number | null;
  readonly marginLower: number | null;
  readonly marginUpper: number | null;
  readonly se: number | null;
  readonly nu: number | null;
  readonly lcbKind: MarginAnalysis["lcbKind"];
  readonly ucbKind: MarginAnalysis["ucbKind"];
  readonly tasksWithoutCluster: number;
}

/** The validity band holds 0 (touching counts): no level can order the pair (LCB ≤ Δ_L ≤ 0 ≤ Δ_H ≤ UCB). */
export function bandHoldsZero(lower: number | null, upper: number | null): boolean {
  return lower === null || upper === null || (lower <= 0 && upper >= 0);
}

/**
 * Why an unordered pair is unordered: `validity` when the open labels can move its margin and 0 is
 * within the band they span (Δ_L ≤ 0 ≤ Δ_H, Δ_L < Δ_H: reviews could decide it); else
 * `run_variance` — the band excludes 0 but run variance does not, or the band is the single point
 * 0 (an exact score tie no review can move: only more tasks or attempts could order it).
 */
export function unresolvedBy(lower: number | null, upper: number | null): "validity" | "run_variance" {
  if (lower === null || upper === null) return "validity";
  return lower <= 0 && upper >= 0 && lower < upper ? "validity" : "run_variance";
}

/** The pairs (a, b), a before b in the models' order, as indices. */
export function pairIndices(k: number): [number, number][] {
  const out: [number, number][] = [];
  for (let a = 0; a < k; a++) for (let b = a + 1; b < k; b++) out.push([a, b]);
  return out;
}

/** Index of the pair {i, j} in pairIndices(k) order. */
export function pairIndex(k: number, i: number, j: number): number {
  const [a, b] = i < j ? [i, j] : [j, i];
  return a * k - (a * (a + 1)) / 2 + (b - a - 1);
}

export type PairAnalyser = (a: number, b: number, margin: MarginSettings) => MarginAnalysis;

/**
 * analyseMargin for pair (a, b) of the common set, d = m_a − m_b, and the Dataset view it reads
 * (what influentialTasks reads too: records by index).
 */
export function pairAnalyser(
  data: ModelsDataset,
  set: CommonSet,
  tasks: TaskTable,
  infra: InfraErrorsPolicy,
): { analyse: PairAnalyser; pairDataset: (a: number, b: number) => Dataset } {
  const pairDataset = (a: number, b: number): Dataset => ({
    tasks,
    baseline: data.summaries[b] as Dataset["baseline"],
    candidate: data.summaries[a] as Dataset["candidate"],
    modelsPresent: data.modelsPresent,
    inputs: data.inputs,
    rowsRead: data.rowsRead,
    reviewRevisions: data.reviewRevisions,
  });
  return {
    pairDataset,
    analyse: (a, b, margin) => analyseMargin(pairDataset(a, b), { infra, margin }, pairColumns(set, a, b)),
  };
}

export interface OrderedPairs {
  readonly pairs: readonly (readonly [number, number])[];
  readonly steps: StepDownOutcome<PairBounds>;
  /** above[i * K + j] = 1: model i is ordered above model j. */
  readonly above: Uint8Array;
}

/**
 * The step-down over every pair of k models at `schedule`'s levels (the gate's: max-t.ts
 * maxTSchedule), each pair analysed with `margin` at its level.
 */
export function orderPairs(
  k: number,
  analyse: PairAnalyser,
  margin: MarginSettings,
  schedule: LevelSchedule,
): OrderedPairs {
  const pairs = pairIndices(k);
  const steps = stepDown<PairBounds>(
    pairs.length,
    1 - margin.confidence,
    (p, level) => {
      const [a, b] = pairs[p] as [number, number];
      const x = analyse(a, b, { ...margin, confidence: 1 - level });
      return {
        lcb: x.lcb,
        ucb: x.ucb,
        margin: x.margin,
        orderMargin:
          x.margin ??
          (x.observedLow === null || x.observedHigh === null ? null : (x.observedLow + x.observedHigh) / 2),
        marginLower: x.marginLower,
        marginUpper: x.marginUpper,
        se: x.seValid,
        nu: x.nuValid,
        lcbKind: x.lcbKind,
        ucbKind: x.ucbKind,
        tasksWithoutCluster: x.tasksWithoutCluster,
      };
    },
    (_, x) => bandHoldsZero(x.marginLower, x.marginUpper) || x.lcb === null || x.ucb === null,
    schedule,
  );
  const above = new Uint8Array(k * k);
  pairs.forEach(([a, b], p) => {
    if (steps.ordered[p] !== 1) return;
    const x = steps.bounds[p] as PairBounds;
    if (x.lcb !== null && x.lcb > 0) above[a * k + b] = 1;
    else above[b * k + a] = 1;
  });
  return { pairs, steps, above };
}

/**
 * The models in score order (best first): by the pairs' margins, whose sign is exact (a margin of
 * exactly 0 is a tie, whatever the floating-point scores), then by model id (code units).
 */
export function scoreOrder(models: readonly string[], bounds: readonly PairBounds[]): number[] {
  const k = models.length;
  return Array.from({ length: k }, (_, i) => i).sort((i, j) => {
    const x = bounds[pairIndex(k, i, j)];
    const margin = x?.orderMargin ?? null;
    if (margin !== null && margin !== 0) {
      // margin = score_min(i,j) − score_max(i,j): positive puts the first-given model first.
      const firstAbove = margin > 0;
      return i < j === firstAbove ? -1 : 1;
    }
    const a = models[i] as string;
    const b = models[j] as string;
    return a < b ? -1 : a > b ? 1 : 0;
  });
}
