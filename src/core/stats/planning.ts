/**
 * Planning figures (SPEC §3 revision 2): printed next to the verdict, never used to decide it.
 *
 * - Minimum detectable effect MDE = (q + z_power)·SE(V), z_power = Φ⁻¹(power): the true margin
 *   above δ₀ that a set of this size and per-task variance would detect (LCB > δ₀) with that
 *   probability. q is the quantile on V (q_valid: t with ν of SE(V), or z).
 * - Common valid tasks needed, n* = ⌈(q·s_d / (Δ̂ − δ₀))²⌉, s_d the per-task SD of d on V: how
 *   many common valid tasks would clear δ₀ if the observed margin and per-task variance held.
 *   Only for an unresolved verdict held back by the margin (LCB ≤ δ₀) with Δ̂ > δ₀. The q is the
 *   one on V (with t it would be a little smaller at n*; the figure is a plan, not a promise).
 */
import { normalQuantile } from "./normal-quantile.js";

export function minimumDetectableEffect(q: number | null, power: number, se: number | null): number | null {
  if (q === null || se === null) return null;
  return (q + normalQuantile(power)) * se;
}

/** ⌈(q·s_d/(Δ̂ − δ₀))²⌉, null unless Δ̂ > δ₀ and q, s_d are defined; at least 2 (an SE needs 2 tasks). */
export function tasksNeeded(
  q: number | null,
  sd: number | null,
  margin: number | null,
  delta0: number,
): number | null {
  if (q === null || sd === null || margin === null || !(margin > delta0)) return null;
  const n = Math.ceil(((q * sd) / (margin - delta0)) ** 2);
  return Number.isFinite(n) ? Math.max(2, n) : null;
}
