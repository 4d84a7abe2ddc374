/**
 * Holm's step-down over the m pairs of a ranking (docs/rank.md "Multiplicity"). Each pair carries
 * two directional claims, "a above b" (LCB > 0) and "b above a" (UCB < 0), each tested one-sided
 * at α/(m − r), r the pairs ordered so far. The batch form below orders, in each round, every
 * pair that clears the current level, then raises the level and goes again until a round orders
 * nothing: since the level only grows as r grows, a pair ordered by the sequential procedure (one
 * pair at a time, smallest p-value first) is ordered here and no other, and this needs no p-value.
 */

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
): HolmOutcome<T> {
  const bounds = new Array<T>(m);
  const level = new Float64Array(m);
  const round = new Uint32Array(m);
  const ordered = new Uint8Array(m);
  const stuck = new Uint8Array(m);
  let r = 0;
  let rounds = 0;
  let current = alpha / m;
  while (r < m) {
    rounds++;
    current = alpha / (m - r);
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
