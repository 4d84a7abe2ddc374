/**
 * The step-down over the pairs of a ranking (docs/rank.md "Multiplicity"). Each of the m pairs
 * carries two directional claims, "a above b" (LCB > 0) and "b above a" (UCB < 0). A schedule
 * gives the one-sided level every claim not yet made is tested at, from how many pairs are ordered
 * and which: the gate's is the max-t step-down (max-t.ts), whose critical value is the (1 − α)
 * quantile of the largest |t| over the pairs still unordered, never stricter than Holm's
 * α/(2(m − r)); the others (Holm over the 2m claims, the former one-sided α/(m − r)) are there so
 * that scripts/simulate-rank.mjs can run them on the same data.
 *
 * The batch form below orders, in each round, every pair that clears the current level, then
 * recomputes the level and goes again until a round orders nothing. Every schedule here gives a
 * level that only grows as pairs are ordered (a maximum over fewer pairs is smaller), so a claim
 * made by the sequential procedure (one claim at a time, smallest p-value first) is made here and
 * no other, and this needs no p-value.
 */

import { formatPercent } from "../report/format-number.js";

/**
 * The family's guarantee in one sentence, as every format states it (the report JSON's
 * adjustment.guarantee, the Markdown, text and HTML summaries).
 */
export function familyGuarantee(
  alpha: number,
  m: number,
  method: "max_t" | "holm_pairs",
  draws: number,
): string {
  const head = `The chance that any ordering claim here is wrong — ties included, and whichever way the open labels resolve — is at most α = ${formatPercent(alpha)}: `;
  const pairs = m === 1 ? "the one pair" : `the ${m} pairs`;
  if (method === "holm_pairs")
    return `${head}Holm's step-down over ${pairs}, each side of a pair still unordered one-sided at α/(2(m − r)) after r orderings.`;
  return (
    `${head}a max-t step-down over ${pairs}, each round ordering the pairs whose t clears the ${formatPercent(1 - alpha)} point of the largest |t| among the pairs still unordered ` +
    `(their correlation, ${draws.toLocaleString("en-US")} fixed-seed normal draws), never stricter than Holm's α/(2(m − r)) after r orderings.`
  );
}

/**
 * The one-sided level of each claim once r of the m pairs are ordered (ordered[p] = 1), at family
 * level α. It must not fall as pairs are ordered.
 */
export type LevelSchedule = (alpha: number, m: number, r: number, ordered?: Uint8Array) => number;

/** Holm over the 2m directional claims: α/(2m − r) (the gate's before rank schema 1.5.0). */
export const DIRECTIONAL_HOLM: LevelSchedule = (alpha, m, r) => alpha / (2 * m - r);

export interface DirectionalBounds {
  readonly lcb: number | null;
  readonly ucb: number | null;
}

export interface StepDownOutcome<T extends DirectionalBounds> {
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
export function stepDown<T extends DirectionalBounds>(
  m: number,
  alpha: number,
  boundsAt: (pair: number, level: number) => T,
  neverOrdered: (pair: number, bounds: T) => boolean = () => false,
  schedule: LevelSchedule = DIRECTIONAL_HOLM,
): StepDownOutcome<T> {
  const bounds = new Array<T>(m);
  const level = new Float64Array(m);
  const round = new Uint32Array(m);
  const ordered = new Uint8Array(m);
  const stuck = new Uint8Array(m);
  let r = 0;
  let rounds = 0;
  let current = schedule(alpha, m, 0, ordered);
  while (r < m) {
    rounds++;
    current = schedule(alpha, m, r, ordered);
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
