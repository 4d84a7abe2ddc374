/**
 * Each ranked model's own figures on the common set (docs/rank.md "Rank intervals and groups"):
 * its valid-only score, the score's validity interval and its run-variance band (the picture of
 * one model's uncertainty; the ordering comes from the pairs).
 */
import type { Policy } from "../policy/policy-types.js";
import { quantileFunction } from "../stats/quantile.js";
import { clusteredStandardError, pairedStandardError } from "../stats/standard-error.js";
import { scoreFigures } from "../stats/model-figures.js";
import { intervalPairedSe } from "../stats/interval-bounds.js";
import { effectiveAttempts, lostResults } from "../stats/task-scores.js";
import { VALID_CODE } from "../stats/task-columns.js";
import type { CommonSet } from "./common-set.js";

/**
 * Each model's valid-only score on the common set and its validity interval (the policy's kind).
 * Under `infra_errors: bound` a score with lost results is an interval (SPEC §3.8): the validity
 * interval takes the low ends for its minimum and the high ends for its maximum, the valid-only
 * score is null when a valid task has a lost result, and the band's SE is bounded over every
 * resolution (paired; clustered has no such bound here, so the band is null then).
 */
export function modelScores(set: CommonSet, policy: Policy, k: number): ModelScore[] {
  const out: ModelScore[] = [];
  const n = set.validity.length;
  const q = quantileFunction(policy.margin);
  const infra = policy.infra_errors;
  for (let i = 0; i < k; i++) {
    const counts = set.counts[i] ?? [];
    let validSum = 0;
    let validHighSum = 0;
    let validCount = 0;
    let validLost = false;
    let openLost = false;
    const valid = new Float64Array(n);
    const validHigh = new Float64Array(n);
    const validCluster = new Int32Array(n);
    const open = new Float64Array(n);
    const openHigh = new Float64Array(n);
    let openCount = 0;
    for (let j = 0; j < n; j++) {
      const c = counts[j];
      if (c === undefined) continue;
      const kStar = effectiveAttempts(c, infra);
      const lost = lostResults(c, infra);
      const score = c.pass / kStar;
      const high = (c.pass + lost) / kStar;
      if (set.validity[j] === VALID_CODE) {
        validSum += score;
        validHighSum += high;
        validLost ||= lost > 0;
        valid[validCount] = score;
        validHigh[validCount] = high;
        validCluster[validCount] = set.cluster[j] as number;
        validCount++;
      } else {
        openLost ||= lost > 0;
        openHigh[openCount] = high;
        open[openCount++] = score;
      }
    }
    const f = scoreFigures(
      validSum,
      validCount,
      open.subarray(0, openCount),
      validLost || openLost
        ? {
            validSum: validHighSum,
            unresolved: openHigh.subarray(0, openCount),
            validLost,
            unresolvedLost: openLost,
          }
        : undefined,
    );
    const interval = policy.margin.validity_bound === "exact" ? f.interval_exact : f.interval_pessimistic;
    const se = validLost
      ? lostScoreStandardError(valid.subarray(0, validCount), validHigh.subarray(0, validCount), policy)
      : scoreStandardError(
          valid.subarray(0, validCount),
          validCluster.subarray(0, validCount),
          set.clusterCount,
          policy,
        );
    const spread = se === null ? null : q(se.nu) * se.se;
    out.push({
      score: f.valid_only_score,
      interval,
      band:
        interval === null || spread === null || !Number.isFinite(spread)
          ? null
          : [Math.max(0, interval[0] - spread), Math.min(1, interval[1] + spread)],
    });
  }
  return out;
}

/** A paired SE at least that of every resolution of the lost results (interval-bounds.ts); null when clustered. */
function lostScoreStandardError(
  low: Float64Array,
  high: Float64Array,
  policy: Policy,
): { se: number; nu: number } | null {
  if (policy.margin.standard_error !== "paired") return null;
  const se = intervalPairedSe({ low, high, count: new Float64Array(low.length).fill(1) });
  return se === null ? null : { se, nu: low.length - 1 };
}

export interface ModelScore {
  readonly score: number | null;
  readonly interval: readonly [number, number] | null;
  readonly band: readonly [number, number] | null;
}

/**
 * The SE of one model's mean score over the valid common tasks, as the policy takes a pair's
 * (paired: the plain SE of a mean, ν = n − 1; clustered: CR2/CR1 with its ν); null when
 * undefined (fewer than 2 tasks or clusters, or a valid task without a cluster when clustered).
 */
function scoreStandardError(
  values: Float64Array,
  clusterOf: Int32Array,
  clusterCount: number,
  policy: Policy,
): { se: number; nu: number } | null {
  if (policy.margin.standard_error === "paired") {
    const se = pairedStandardError(values);
    return se === null ? null : { se, nu: values.length - 1 };
  }
  if (clusterOf.some((c) => c < 0)) return null;
  const x = clusteredStandardError(values, clusterOf, clusterCount, policy.margin.cluster_correction);
  return x.se === null || x.nu === null ? null : { se: x.se, nu: x.nu };
}
