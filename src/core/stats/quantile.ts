/**
 * The quantile q of the confidence bounds (SPEC §3 revision 2): with `quantile: t`,
 * q = t_ν⁻¹(confidence) with the ν of the standard error of the set it is used on; with `z`,
 * q = Φ⁻¹(confidence) whatever ν.
 */
import type { MarginSettings } from "../policy/policy-types.js";
import { normalQuantile } from "./normal-quantile.js";
import { studentTQuantile } from "./student-t-quantile.js";

export type QuantileFunction = (nu: number) => number;

/**
 * q as a function of ν for one policy. Integer ν (the paired SE's n − 1) are cached, because the
 * bounds over every resolution and the fragility searches ask for the same few ν many times.
 */
export function quantileFunction(margin: Pick<MarginSettings, "quantile" | "confidence">): QuantileFunction {
  const z = normalQuantile(margin.confidence);
  if (margin.quantile === "z") return () => z;
  const confidence = margin.confidence;
  const cache = new Map<number, number>();
  return (nu) => {
    if (!Number.isInteger(nu)) return studentTQuantile(confidence, nu);
    let q = cache.get(nu);
    if (q === undefined) {
      q = studentTQuantile(confidence, nu);
      if (cache.size < 1_000_000) cache.set(nu, q);
    }
    return q;
  };
}
