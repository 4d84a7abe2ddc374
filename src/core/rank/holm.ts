/**
 * Holm's step-down over the 2m directional claims of a ranking (docs/rank.md "Multiplicity"). Each
 * of the m pairs carries two claims, "a above b" (LCB > 0) and "b above a" (UCB < 0). Holm's
 * procedure over all 2m claims tests, after r claims are made, every claim not yet made at
 * α/(2m − r). Its family-wise error is at most α for any true margins — a tied pair (Δ = 0) has
 * both claims wrong, an untied pair one — with no assumption on how the pairs depend on each
 * other, because each claim's bound alone holds with probability 1 − its level (Holm 1979).
 * The reverse claim of an ordered pair stays in the count: LCB ≤ Δ_L ≤ Δ_H ≤ UCB, so it can never
 * be made, but it is one of the claims the bound is over.
 *
 * The batch form below orders, in each round, every pair that clears the current level, then
 * raises the level and goes again until a round orders nothing: since the level only grows as r
 * grows, a claim made by the sequential procedure (one claim at a time, smallest p-value first) is
 * made here and no other, and this needs no p-value. The level schedule is a parameter only so
 * that scripts/simulate-rank.mjs can run other schedules on the same data; the gate uses
 * DIRECTIONAL_HOLM.
 */

import { formatPercent } from "../report/format-number.js";

/**
 * The family's guarantee in one sentence, as every format states it (the report JSON's
 * adjustment.guarantee, the Markdown, text and HTML summaries).
 */
export function familyGuarantee(alpha: number, m: number): string {
  return (
    `The chance that any ordering claim here is wrong — ties included, and whichever way the open labels resolve — is at most α = ${formatPercent(alpha)}: ` +
    `Holm's step-down over the ${2 * m} directional claims (two a pair), each one-sided at α/(2m − r) after r orderings.`
  );
}

/** The one-sided level of each claim once r pairs are ordered, of m pairs at family level α. */
export type LevelSchedule = (alpha: number, m: number, r: number) => number;

/** Holm over the 2m directional claims: α/(2m − r). */
export const DIRECTIONAL_HOLM: LevelSchedule = (alpha, m, r) => alpha / (2 * m - r);

export interface DirectionalBounds {
  readonly lcb: number | null;
  readonly ucb: number | null;
}

export interface HolmOutcome<T extends DirectionalBounds> {
  /** Each pair's bounds at the level that decided it (ordered) or at the last level (unresolved). */
  readonly bounds: T[];
  readonly level: Float64Array;
  /** 1-based round that ordered the pair; the last round for an unresolved pair. */
  readonly round: Uint32Array;
  readonly ordered: Uint8Array;
  readonly rounds: number;
  readonly orderedPairs: number;
  readonly finalLevel: number;
}

export function isOrdered(b: DirectionalBounds): boolean {
  return (b.lcb !== null && b.lcb > 0) || (b.ucb !== null && b.ucb < 0);
}

/**
 * `boundsAt(p, level)`: pair p's LCB/UCB at one-sided level `level`. `neverOrdered(p, b)` may say
 * that a pair cannot be ordered at any level (its validity band holds 0, so LCB ≤ Δ_L ≤ 0 ≤ Δ_H ≤
 * UCB whatever the quantile): such a pair is not recomputed in later rounds, only once at the
 * last level, so that every unresolved pair reports its bounds at the level it was last tested at.
 */
export function holmStepDown<T extends DirectionalBounds>(
  m: number,
  alpha: number,
  boundsAt: (pair: number, level: number) => T,
  neverOrdered: (pair: number, bounds: T) => boolean = () => false,
  schedule: LevelSchedule = DIRECTIONAL_HOLM,
): HolmOutcome<T> {
  const bounds = new Array<T>(m);
  const level = new Float64Array(m);
  const round = new Uint32Array(m);
  const ordered = new Uint8Array(m);
  const stuck = new Uint8Array(m);
  let r = 0;
  let rounds = 0;
  let current = schedule(alpha, m, 0);
  while (r < m) {
    rounds++;
    current = schedule(alpha, m, r);
    let newly = 0;
    for (let p = 0; p < m; p++) {
      if (ordered[p] === 1 || stuck[p] === 1) continue;
      const b = boundsAt(p, current);
      bounds[p] = b;
      level[p] = current;
      round[p] = rounds;
      if (isOrdered(b)) {
        ordered[p] = 1;
        newly++;
      } else if (neverOrdered(p, b)) stuck[p] = 1;
    }
    if (newly === 0) break;
    r += newly;
  }
  // The pairs set aside: their bounds at the last level tested.
  for (let p = 0; p < m; p++) {
    if (stuck[p] !== 1 || level[p] === current) continue;
    bounds[p] = boundsAt(p, current);
    level[p] = current;
    round[p] = rounds;
  }
  return { bounds, level, round, ordered, rounds, orderedPairs: r, finalLevel: current };
}
