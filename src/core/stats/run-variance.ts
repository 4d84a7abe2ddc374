/**
 * SPEC §3.2: run variance. The SE on V (paired, or clustered by the rows' `cluster`), the design
 * effect's paired and CR2 SEs on V, the SEs at S_L and S_H (the sets the pessimistic bound takes),
 * and the re-run SE. With a lost result on V (SPEC §3.8) each SE on V is its bound over every
 * resolution (interval-bounds.ts), and a pessimistic set's SE likewise.
 */
import type { MarginSettings } from "../policy/policy-types.js";
import type { ComparisonSets } from "./comparison-sets.js";
import { intervalClusteredSe, intervalPairedSe, type IntervalKinds } from "./interval-bounds.js";
import type { MarginBounds } from "./margin-bounds.js";
import type { QuantileFunction } from "./quantile.js";
import {
  clusteredStandardError,
  pairedStandardError,
  rerunStandardError,
  type ClusteredStandardError,
} from "./standard-error.js";

export interface RunVariance {
  readonly seValid: number | null;
  readonly nuValid: number | null;
  /** The SE and ν at S_L and S_H (the pessimistic bound's sets); null where undefined. */
  readonly seLower: number | null;
  readonly nuLower: number | null;
  readonly seUpper: number | null;
  readonly nuUpper: number | null;
  readonly sePairedValid: number | null;
  readonly seCr2Valid: number | null;
  readonly clusters: number | null;
  readonly largestClusterShare: number | null;
  readonly seRerun: number | null;
}

/** The tasks of V, then those of U at the given positions: their values and cluster numbers. */
export class SetBuilder {
  constructor(private readonly sets: ComparisonSets) {}

  values(valid: Float64Array, extra: Float64Array): Float64Array {
    const out = new Float64Array(valid.length + extra.length);
    out.set(valid, 0);
    out.set(extra, valid.length);
    return out;
  }

  clusters(open: readonly number[]): Int32Array {
    const { nv, validTask, clusterOfTask, openTask } = this.sets;
    const out = new Int32Array(nv + open.length);
    for (let j = 0; j < nv; j++) out[j] = clusterOfTask[validTask[j] as number] as number;
    for (let j = 0; j < open.length; j++) {
      out[nv + j] = clusterOfTask[openTask[open[j] as number] as number] as number;
    }
    return out;
  }

  /** V's tasks as interval kinds, one a task. */
  validKinds(): IntervalKinds {
    const { validLow, validHigh } = this.sets;
    return { low: validLow, high: validHigh, count: new Float64Array(validLow.length).fill(1) };
  }

  /** V with every task of U at `value` (the pessimistic set), by cluster: sizes and the sums of both ends. */
  clusteredSet(value: number | null): { size: Float64Array; sumLow: Float64Array; sumHigh: Float64Array } {
    const { nv, validLow, validHigh, clusters } = this.sets;
    const size = new Float64Array(clusters);
    const sumLow = new Float64Array(clusters);
    const sumHigh = new Float64Array(clusters);
    const add = (c: number, lo: number, hi: number): void => {
      size[c] = (size[c] as number) + 1;
      sumLow[c] = (sumLow[c] as number) + lo;
      sumHigh[c] = (sumHigh[c] as number) + hi;
    };
    const vc = this.clusters([]);
    for (let j = 0; j < nv; j++) add(vc[j] as number, validLow[j] as number, validHigh[j] as number);
    if (value !== null) {
      const uc = this.clusters(Array.from(this.sets.openTask, (_, j) => j)).subarray(nv);
      for (const c of uc) add(c, value, value);
    }
    return { size, sumLow, sumHigh };
  }
}

/** The CR2 (or CR1) SE on V ∪ (U at `value`) bounded over V's lost results, as clusteredStandardError reports it. */
function intervalClustered(
  b: SetBuilder,
  clusters: number,
  value: number | null,
  correction: "cr2" | "cr1",
  quantile: QuantileFunction,
): ClusteredStandardError {
  const set = b.clusteredSet(value);
  let n = 0;
  let largest = 0;
  let g = 0;
  for (const s of set.size) {
    n += s;
    largest = Math.max(largest, s);
    if (s > 0) g++;
  }
  const r = intervalClusteredSe({ ...set, clusterCount: clusters }, correction, quantile);
  return { se: r?.se ?? null, nu: r?.nu ?? null, clusters: g, largestShare: n > 0 ? largest / n : null };
}

export function runVariance(
  sets: ComparisonSets,
  mb: MarginBounds,
  margin: MarginSettings,
  quantile: QuantileFunction,
): RunVariance {
  const { nv, validLow } = sets;
  const D = sets.openTask.length;
  const b = new SetBuilder(sets);
  const lostValid = sets.validLost > 0;
  // At S_L / S_H with every d a point (exact validity bound), or at U whole at ∓1 (pessimistic).
  const pessimistic = margin.validity_bound === "pessimistic";
  const pointSets = pessimistic ? !lostValid : sets.validLost + sets.openLost === 0;
  const paired = (values: Float64Array): number | null =>
    lostValid ? intervalPairedSe(b.validKinds()) : pairedStandardError(values);
  const everyClustered = sets.withoutCluster === 0 && nv + D > 0;
  const sePairedValid = paired(validLow);
  const cr2Valid = !everyClustered
    ? null
    : lostValid
      ? intervalClustered(b, sets.clusters, null, "cr2", quantile)
      : clusteredStandardError(validLow, b.clusters([]), sets.clusters, "cr2");
  const rerun = sets.rerun === null ? null : rerunStandardError(sets.rerun);
  const common = { sePairedValid, seCr2Valid: cr2Valid?.se ?? null, seRerun: rerun };
  const pessimisticSe = (value: number): { se: number | null; nu: number | null } => {
    if (!pessimistic || pointSets) return { se: null, nu: null };
    if (margin.standard_error === "paired") {
      const se = intervalPairedSe({
        low: [...sets.validLow, value],
        high: [...sets.validHigh, value],
        count: [...new Float64Array(nv).fill(1), D],
      });
      return { se, nu: se === null ? null : nv + D - 1 };
    }
    const r = intervalClustered(b, sets.clusters, value, margin.cluster_correction, quantile);
    return { se: r.se, nu: r.nu };
  };
  if (margin.standard_error !== "clustered") {
    const lowerAll = b.values(validLow, mb.lowerValues);
    const upperAll = b.values(sets.validHigh, mb.upperValues);
    const lo = pointSets ? { se: pairedStandardError(lowerAll), nu: lowerAll.length - 1 } : pessimisticSe(-1);
    const hi = pointSets ? { se: pairedStandardError(upperAll), nu: upperAll.length - 1 } : pessimisticSe(1);
    return {
      ...common,
      seValid: sePairedValid,
      nuValid: sePairedValid === null ? null : nv - 1,
      seLower: lo.se,
      nuLower: lo.se === null ? null : lo.nu,
      seUpper: hi.se,
      nuUpper: hi.se === null ? null : hi.nu,
      clusters: null,
      largestClusterShare: null,
    };
  }
  if (everyClustered) {
    const correction = margin.cluster_correction;
    const v =
      correction === "cr2" && cr2Valid !== null
        ? cr2Valid
        : lostValid
          ? intervalClustered(b, sets.clusters, null, correction, quantile)
          : clusteredStandardError(validLow, b.clusters([]), sets.clusters, correction);
    const at = (values: Float64Array, valid: Float64Array, set: readonly number[]) =>
      clusteredStandardError(b.values(valid, values), b.clusters(set), sets.clusters, correction);
    const lo = pointSets ? at(mb.lowerValues, validLow, mb.lowerSet) : pessimisticSe(-1);
    const hi = pointSets ? at(mb.upperValues, sets.validHigh, mb.upperSet) : pessimisticSe(1);
    return {
      ...common,
      seValid: v.se,
      nuValid: v.nu,
      seLower: lo.se,
      nuLower: lo.nu,
      seUpper: hi.se,
      nuUpper: hi.nu,
      clusters: v.clusters,
      largestClusterShare: v.largestShare,
    };
  }
  const seen = new Set<number>();
  for (let j = 0; j < nv; j++) {
    const c = sets.clusterOfTask[sets.validTask[j] as number] as number;
    if (c >= 0) seen.add(c);
  }
  return {
    ...common,
    seValid: null,
    nuValid: null,
    seLower: null,
    nuLower: null,
    seUpper: null,
    nuUpper: null,
    clusters: seen.size,
    largestClusterShare: null,
  };
}
