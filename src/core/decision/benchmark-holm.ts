/**
 * Holm's step-down over the B harm claims of several benchmarks (docs/spec.md §4.6): benchmark b's
 * claim "the candidate is worse by at least δ₀_b here" is today's reject rule (every evidence
 * check passes and UCB ≤ δ₀_b), with the UCB one-sided at level α/(B − r) once r claims are made.
 * The family-wise chance of any wrong harm claim is then at most α (Holm 1979), whatever the
 * benchmarks' dependence, because each UCB alone holds with probability 1 − its level.
 *
 * The batch form below makes, in each round, every claim that holds at the current level, then
 * raises the level and goes again until a round makes none. A claim that holds at a level holds at
 * every higher one (the UCB only falls as its level grows), so this makes exactly the claims the
 * sequential procedure makes (smallest p-value first, stop at the first that fails) and needs no
 * p-value; test/decision/benchmark-holm.test.ts checks it against that definition.
 */

export interface HolmClaims {
  /** Claim b was made. */
  readonly holds: readonly boolean[];
  /** The level claim b was made at, or for one not made the last level it was tested at. */
  readonly level: readonly number[];
}

/** `holdsAt(b, level)`: claim b holds with its bound one-sided at `level` (monotone in level). */
export function holmStepDown(
  count: number,
  alpha: number,
  holdsAt: (b: number, level: number) => boolean,
): HolmClaims {
  const holds = new Array<boolean>(count).fill(false);
  const level = new Array<number>(count).fill(alpha / Math.max(count, 1));
  let made = 0;
  for (;;) {
    const current = alpha / (count - made);
    const now: number[] = [];
    for (let b = 0; b < count; b++) {
      if (holds[b] === true) continue;
      level[b] = current;
      if (holdsAt(b, current)) now.push(b);
    }
    for (const b of now) holds[b] = true;
    made += now.length;
    if (now.length === 0 || made === count) break;
  }
  return { holds, level };
}
