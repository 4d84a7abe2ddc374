/**
 * SPEC §3.3–3.4: the quantiles and LCB, UCB over every resolution of the open labels (and, under
 * `infra_errors: bound`, of the lost results, SPEC §3.8). Exact when the SE is paired and every
 * task of C has a point d with d on U in {−1, 0, +1}; conservative otherwise; with
 * `validity_bound: pessimistic` the bounds at U whole at ∓1.
 */
import type { MarginSettings } from "../policy/policy-types.js";
import type { ComparisonSets } from "./comparison-sets.js";
import { intervalPairedBounds } from "./interval-bounds.js";
import type { MarginBounds } from "./margin-bounds.js";
import type { BoundKind } from "./margin-types.js";
import type { QuantileFunction } from "./quantile.js";
import type { RunVariance } from "./run-variance.js";
import { SetBuilder } from "./run-variance.js";
import {
  conservativeClusteredBounds,
  conservativePairedBounds,
  exactUnionBounds,
  type ConservativeBound,
  type ExactBound,
  type OpenCounts,
  type ValidSums,
} from "./union-bounds.js";

export interface ResolutionBounds {
  readonly lcb: number | null;
  readonly ucb: number | null;
  readonly lcbKind: BoundKind | null;
  readonly ucbKind: BoundKind | null;
  readonly lcbSet: readonly number[] | null;
  readonly ucbSet: readonly number[] | null;
  readonly marginAtLcb: number | null;
  readonly marginAtUcb: number | null;
  /** The SE, ν and q each bound used. */
  readonly seLower: number | null;
  readonly seUpper: number | null;
  readonly nuLower: number | null;
  readonly nuUpper: number | null;
  readonly qLower: number | null;
  readonly qUpper: number | null;
}

type Pair = {
  readonly lower: ExactBound | ConservativeBound;
  readonly upper: ExactBound | ConservativeBound;
};

/** The bound over every resolution: the exact search where it applies, else the conservative bound. */
function overEveryResolution(
  sets: ComparisonSets,
  mb: { readonly marginLower: number; readonly marginUpper: number },
  margin: MarginSettings,
  quantile: QuantileFunction,
): { kind: BoundKind; bounds: Pair | null; exact: boolean } {
  const { nv, validLow, openLow, openHigh } = sets;
  const clustered = margin.standard_error === "clustered";
  let sumSq = 0;
  for (let j = 0; j < nv; j++) sumSq += (validLow[j] as number) ** 2;
  const sums: ValidSums = { n: nv, sum: sets.validSumLow, sumSq };
  const points = sets.validLost + sets.openLost === 0;
  const single = singleAttemptCounts(openLow);
  if (!clustered && points && single !== null) {
    const e = exactUnionBounds(sums, single, quantile);
    if (e !== null) return { kind: "exact", bounds: e, exact: true };
  }
  const b = new SetBuilder(sets);
  let bounds: Pair | null;
  if (clustered) {
    const all = Array.from(openLow, (_, j) => j);
    const vc = b.clusters([]);
    const g = sets.clusters;
    const size = new Float64Array(g);
    const sumLow = new Float64Array(g);
    const sumHigh = new Float64Array(g);
    for (let j = 0; j < nv; j++) {
      const c = vc[j] as number;
      size[c] = (size[c] as number) + 1;
      sumLow[c] = (sumLow[c] as number) + (validLow[j] as number);
      sumHigh[c] = (sumHigh[c] as number) + (sets.validHigh[j] as number);
    }
    bounds = conservativeClusteredBounds(
      sums,
      {
        validSize: size,
        validSum: sumLow,
        validSumHigh: sumHigh,
        openCluster: b.clusters(all).subarray(nv),
        openValue: openLow,
        openHigh,
        openCount: new Float64Array(openLow.length).fill(1),
        clusterCount: g,
      },
      mb.marginLower,
      mb.marginUpper,
      margin.cluster_correction,
      quantile,
    );
  } else if (points) {
    const [values, counts] = valueCounts(openLow);
    bounds = conservativePairedBounds(sums, values, counts, mb.marginLower, mb.marginUpper, quantile);
  } else {
    const open = { low: openLow, high: openHigh, count: new Float64Array(openLow.length).fill(1) };
    bounds = intervalPairedBounds(b.validKinds(), open, mb.marginLower, mb.marginUpper, quantile);
  }
  return { kind: "conservative", bounds, exact: false };
}

export function resolutionBounds(
  sets: ComparisonSets,
  mb: MarginBounds,
  rv: RunVariance,
  margin: MarginSettings,
  quantile: QuantileFunction,
): ResolutionBounds {
  const q = (nu: number | null): number | null => (nu === null ? null : quantile(nu));
  const exactKind = margin.validity_bound === "exact";
  const anchored = sets.nv > 0;
  const { marginLower, marginUpper } = mb;
  if (!exactKind) {
    // The seed's pessimistic resolution: U whole at ∓1, the SE at that set.
    const qLower = q(rv.nuLower);
    const qUpper = q(rv.nuUpper);
    const lcb =
      anchored && marginLower !== null && rv.seLower !== null && qLower !== null
        ? marginLower - qLower * rv.seLower
        : null;
    const ucb =
      anchored && marginUpper !== null && rv.seUpper !== null && qUpper !== null
        ? marginUpper + qUpper * rv.seUpper
        : null;
    return {
      lcb,
      ucb,
      lcbKind: lcb === null ? null : "pessimistic",
      ucbKind: ucb === null ? null : "pessimistic",
      lcbSet: null,
      ucbSet: null,
      marginAtLcb: lcb === null ? null : marginLower,
      marginAtUcb: ucb === null ? null : marginUpper,
      seLower: rv.seLower,
      seUpper: rv.seUpper,
      nuLower: rv.nuLower,
      nuUpper: rv.nuUpper,
      qLower,
      qUpper,
    };
  }
  const none: ResolutionBounds = {
    lcb: null,
    ucb: null,
    lcbKind: null,
    ucbKind: null,
    lcbSet: null,
    ucbSet: null,
    marginAtLcb: null,
    marginAtUcb: null,
    // No SE on V: the resolution that breaks every open task has no bound, so none holds at all.
    seLower: rv.seLower,
    seUpper: rv.seUpper,
    nuLower: rv.nuLower,
    nuUpper: rv.nuUpper,
    qLower: null,
    qUpper: null,
  };
  if (!anchored || marginLower === null || marginUpper === null || rv.seValid === null) return none;
  const r = overEveryResolution(sets, { marginLower, marginUpper }, margin, quantile);
  const lower = r.bounds?.lower ?? null;
  const upper = r.bounds?.upper ?? null;
  let marginAtLcb: number | null = marginLower;
  let marginAtUcb: number | null = marginUpper;
  let lcbSet: number[] | null = null;
  let ucbSet: number[] | null = null;
  if (r.exact && lower !== null && upper !== null) {
    const e = r.bounds as { lower: ExactBound; upper: ExactBound };
    lcbSet = attainingSet(sets.openLow, e.lower);
    ucbSet = attainingSet(sets.openLow, e.upper);
    // Δ(S) = (Σ_V d + Σ_S d)/(N_v + |S|), single-attempt d ∈ {−1, 0, +1}.
    const at = (x: ExactBound): number =>
      (sets.validSumLow + x.plus - x.minus) / (sets.nv + x.minus + x.zero + x.plus);
    marginAtLcb = at(e.lower);
    marginAtUcb = at(e.upper);
  }
  return {
    lcb: lower?.value ?? null,
    ucb: upper?.value ?? null,
    lcbKind: lower === null ? null : r.kind,
    ucbKind: upper === null ? null : r.kind,
    lcbSet,
    ucbSet,
    marginAtLcb: lower === null ? null : marginAtLcb,
    marginAtUcb: upper === null ? null : marginAtUcb,
    seLower: lower?.se ?? null,
    seUpper: upper?.se ?? null,
    nuLower: lower?.nu ?? null,
    nuUpper: upper?.nu ?? null,
    qLower: lower?.q ?? null,
    qUpper: upper?.q ?? null,
  };
}

/** The positions in U of the attaining set: the first `minus` tasks with d = −1, etc. (dataset order). */
function attainingSet(uD: Float64Array, b: ExactBound): number[] {
  const left = new Map<number, number>([
    [-1, b.minus],
    [0, b.zero],
    [1, b.plus],
  ]);
  const out: number[] = [];
  for (const value of [-1, 0, 1]) {
    for (let j = 0; j < uD.length; j++) {
      if (uD[j] !== value) continue;
      const l = left.get(value) as number;
      if (l === 0) break;
      out.push(j);
      left.set(value, l - 1);
    }
  }
  return out;
}

/** How many tasks of U have d = −1, 0, +1; null when some d is another value. One walk. */
function singleAttemptCounts(uD: Float64Array): OpenCounts | null {
  let minus = 0;
  let zero = 0;
  let plus = 0;
  for (let j = 0; j < uD.length; j++) {
    const x = uD[j] as number;
    if (x === 0) zero++;
    else if (x === -1) minus++;
    else if (x === 1) plus++;
    else return null;
  }
  return { minus, zero, plus };
}

/**
 * Distinct values of U (in order of first appearance) and how many tasks have each. Equal values
 * often come in runs: a run is counted before it meets the Map.
 */
function valueCounts(uD: Float64Array): [Float64Array, Float64Array] {
  const m = new Map<number, number>();
  let run = 0;
  let last = 0;
  for (let j = 0; j < uD.length; j++) {
    const x = uD[j] as number;
    if (run > 0 && x === last) {
      run++;
      continue;
    }
    if (run > 0) m.set(last, (m.get(last) ?? 0) + run);
    last = x;
    run = 1;
  }
  if (run > 0) m.set(last, (m.get(last) ?? 0) + run);
  return [Float64Array.from(m.keys()), Float64Array.from(m.values())];
}
