/**
 * Exact sums of task-score differences (SPEC §3). A task's score is passes / K*, a ratio of small
 * integers, so Σ d over a set of tasks is a rational number; summed in floating point, a margin
 * that is exactly 0 can come out as −1.85e-17, and a tie becomes an order. Here the passes are
 * added as integers per denominator K*, and the sum's sign is taken over their least common
 * denominator in BigInt: exact, whatever the attempt counts.
 *
 * Only figures whose floating-point value is within NEAR_ZERO of 0 are re-done exactly (the
 * rounding error of a sum of ≤ 10⁶ terms of size ≤ 1 is below 10⁻⁹), so the figures away from 0
 * keep their floating-point value, bit for bit.
 */
import type { AttemptCounts } from "../model.js";
import { effectiveAttempts, lostResults, type InfraErrorsPolicy } from "./task-scores.js";

/** Below this magnitude a floating-point sum's sign is checked exactly. */
export const NEAR_ZERO = 1e-9;

/** Σ pᵢ/kᵢ kept as integer numerators by denominator. */
export class ExactSum {
  private readonly byDenominator = new Map<number, number>();

  /** Adds numerator/denominator (integers, denominator ≥ 1). */
  add(numerator: number, denominator: number): void {
    if (numerator === 0) return;
    this.byDenominator.set(denominator, (this.byDenominator.get(denominator) ?? 0) + numerator);
  }

  /**
   * Adds task i's d = pass_a/K*_a − pass_b/K*_b (both models must have K* ≥ 1 there), at the low
   * or the high end of its interval (task-intervals.ts): the low end counts the baseline's lost
   * results as passes, the high end the candidate's.
   */
  addDifference(
    a: AttemptCounts,
    b: AttemptCounts,
    infra: InfraErrorsPolicy,
    end: "low" | "high" = "low",
  ): void {
    this.add(a.pass + (end === "high" ? lostResults(a, infra) : 0), effectiveAttempts(a, infra));
    this.add(-(b.pass + (end === "low" ? lostResults(b, infra) : 0)), effectiveAttempts(b, infra));
  }

  /** The sum over the least common denominator: numerator and denominator as BigInt. */
  private fraction(): { numerator: bigint; denominator: bigint } {
    const gcd = (x: bigint, y: bigint): bigint => {
      while (y !== 0n) [x, y] = [y, x % y];
      return x;
    };
    let denominator = 1n;
    for (const [k, n] of this.byDenominator) {
      if (n === 0) continue;
      const big = BigInt(k);
      denominator = (denominator / gcd(denominator, big)) * big;
    }
    let numerator = 0n;
    for (const [k, n] of this.byDenominator) if (n !== 0) numerator += BigInt(n) * (denominator / BigInt(k));
    return { numerator, denominator };
  }

  /** −1, 0 or +1: the sum's exact sign. */
  sign(): -1 | 0 | 1 {
    const { numerator } = this.fraction();
    return numerator === 0n ? 0 : numerator > 0n ? 1 : -1;
  }

  /** The sum as a number: exactly 0 when it is 0, of the exact sign otherwise. */
  value(): number {
    const { numerator, denominator } = this.fraction();
    if (numerator === 0n) return 0;
    // Both fit a double's range (denominator ≤ lcm of the attempt counts); the quotient keeps the sign.
    return Number(numerator) / Number(denominator);
  }
}

/**
 * A ratio Σ d / count computed in floating point, made exact near 0: exactly 0 when the exact sum
 * is 0; the exact sum's value over `count` when the floating-point sign is wrong; else unchanged.
 * `exact` builds the exact sum (called only near 0).
 */
export function exactNearZero(value: number | null, count: number, exact: () => ExactSum): number | null {
  if (value === null || !(Math.abs(value) <= NEAR_ZERO)) return value;
  const sum = exact();
  const sign = sum.sign();
  if (sign === 0) return 0;
  if (Math.sign(value) === sign) return value;
  return sum.value() / count;
}
