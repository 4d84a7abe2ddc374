/**
 * The quantile q of the confidence bounds (SPEC §3 revision 2): with `quantile: t`,
 * q = t_ν⁻¹(confidence) with the ν of the standard error of the set it is used on; with `z`,
 * q = Φ⁻¹(confidence) whatever ν.
 */
import type { MarginSettings } from "../policy/policy-types.js";
import { normalQuantile } from "./normal-quantile.js";
import { studentTQuantile } from "./student-t-quantile.js";

export type QuantileFunction = (nu: number) => number;

/** Integer ν are cached in blocks of this many (a Float64Array each, NaN: not computed yet). */
const BLOCK_BITS = 12;
/** ν past this are computed each time (the task cap keeps every paired ν below it). */
const MAX_CACHED_NU = 2 ** 22;

/**
 * q as a function of ν for one policy. Integer ν (the paired SE's n − 1) are cached, because the
 * bounds over every resolution and the fragility searches ask for the same few ν many times: the
 * exact bound visits every |S| once an evaluation, a run of consecutive ν (as many as
 * the unresolved tasks), which an indexed block answers without the hashing a Map does on every
 * look-up.
 */
export function quantileFunction(margin: Pick<MarginSettings, "quantile" | "confidence">): QuantileFunction {
  // One function (and so one cache) per (kind, confidence): a ranking analyses thousands of pairs
  // at the same few levels, each of which would otherwise compute the same quantiles again.
  const key = `${margin.quantile}:${margin.confidence}`;
  const known = functions.get(key);
  if (known !== undefined) return known;
  if (functions.size >= MAX_FUNCTIONS) functions.clear();
  const made = makeQuantileFunction(margin);
  functions.set(key, made);
  return made;
}

/** How many (kind, confidence) functions are kept; past it the cache starts again. */
const MAX_FUNCTIONS = 8;
const functions = new Map<string, QuantileFunction>();

function makeQuantileFunction(margin: Pick<MarginSettings, "quantile" | "confidence">): QuantileFunction {
  const z = normalQuantile(margin.confidence);
  if (margin.quantile === "z") return () => z;
  const confidence = margin.confidence;
  const blocks: (Float64Array | undefined)[] = [];
  return (nu) => {
    if (!Number.isInteger(nu) || nu < 0 || nu > MAX_CACHED_NU) return studentTQuantile(confidence, nu);
    const b = nu >>> BLOCK_BITS;
    let block = blocks[b];
    if (block === undefined) {
      block = new Float64Array(1 << BLOCK_BITS).fill(Number.NaN);
      blocks[b] = block;
    }
    const at = nu & ((1 << BLOCK_BITS) - 1);
    let q = block[at] as number;
    if (Number.isNaN(q)) {
      q = studentTQuantile(confidence, nu);
      block[at] = q;
    }
    return q;
  };
}
