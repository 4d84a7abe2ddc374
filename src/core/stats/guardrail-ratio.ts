/**
 * A guardrail's ratio and its one-sided confidence bounds (docs/spec.md §4.5): over n paired
 * tasks with baseline values aₜ and candidate values bₜ (each a task's mean over its attempts that
 * carry the metric), R = b̄ / ā, bounded by Fieller's method:
 *
 *     dₜ(R) = bₜ − R·aₜ has mean b̄ − R·ā, and its SE² is V_bb − 2R·V_ab + R²·V_aa, with V the
 *     policy's SE² (paired, or clustered CR2 / CR1 as the margin's, §3.2) of a, of b, and their
 *     cross term (V_ab = (V(a + b) − V_aa − V_bb) / 2: each SE² is a quadratic form of the values);
 *     the bounds are the R where the t statistic of d(R) is ∓q:
 *         (b̄ − R·ā)² = q² (V_bb − 2R·V_ab + R²·V_aa),
 *     a quadratic in R whose smaller root is R_low and larger root R_high (q at the policy's
 *     confidence and the SE's ν, §3.3; each bound one-sided).
 *
 * When ā² ≤ q²·V_aa (the baseline's mean is not clearly above 0) R has no upper bound: the
 * guardrail cannot pass, which is the honest answer. Fieller's bounds need no normality of R
 * itself, only of the two means, so they hold up better than a delta-method interval on skewed,
 * heavy-tailed costs (scripts/simulate-guardrails.mjs prints both; docs/spec.md §4.5 has the
 * table). Closed form: the same inputs give the same bytes.
 */
import { normalQuantile } from "./normal-quantile.js";
import { clusteredStandardError, pairedStandardError, type ClusterCorrection } from "./standard-error.js";
import { studentTQuantile } from "./student-t-quantile.js";

export interface RatioSettings {
  readonly confidence: number;
  readonly quantile: "t" | "z";
  readonly standardError: "paired" | "clustered";
  readonly clusterCorrection: ClusterCorrection;
}

export interface RatioBound {
  readonly baselineMean: number;
  readonly candidateMean: number;
  /** b̄ / ā; null when ā = 0 (or there is no task). */
  readonly ratio: number | null;
  /** Degrees of freedom and quantile of the bounds; null when the SE cannot be taken (n < 2, G < 2, a task without a cluster). */
  readonly nu: number | null;
  readonly q: number | null;
  /** Fieller's one-sided bounds; `low` ≥ 0 (costs are), `high` null when unbounded or undefined. */
  readonly low: number | null;
  readonly high: number | null;
}

function mean(values: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i] as number;
  return values.length === 0 ? 0 : s / values.length;
}

interface Spread {
  /** SE² of the mean of the values, by the policy's standard error; null when undefined. */
  readonly variance: number | null;
  readonly nu: number | null;
}

function spread(
  values: ArrayLike<number>,
  settings: RatioSettings,
  cluster: { readonly of: ArrayLike<number>; readonly count: number } | undefined,
): Spread {
  if (settings.standardError === "paired") {
    const se = pairedStandardError(values);
    return se === null ? { variance: null, nu: null } : { variance: se * se, nu: values.length - 1 };
  }
  const of = cluster?.of;
  if (of === undefined || of.length !== values.length) return { variance: null, nu: null };
  for (let t = 0; t < of.length; t++) if ((of[t] as number) < 0) return { variance: null, nu: null };
  const c = clusteredStandardError(values, of, cluster?.count ?? 0, settings.clusterCorrection);
  return c.se === null || c.nu === null ? { variance: null, nu: null } : { variance: c.se * c.se, nu: c.nu };
}

/**
 * The ratio and its bounds over the tasks given: `baseline[t]`, `candidate[t]` ≥ 0 and, for a
 * clustered SE, `cluster.of[t]` a number in [0, cluster.count) or −1 for a task without a cluster.
 */
export function guardrailRatio(
  baseline: ArrayLike<number>,
  candidate: ArrayLike<number>,
  settings: RatioSettings,
  cluster?: { readonly of: ArrayLike<number>; readonly count: number },
): RatioBound {
  const n = baseline.length;
  const a = mean(baseline);
  const b = mean(candidate);
  const none = { nu: null, q: null, low: null, high: null };
  if (n === 0 || a === 0) return { baselineMean: a, candidateMean: b, ratio: null, ...none };
  const ratio = b / a;
  const sum = new Float64Array(n);
  for (let t = 0; t < n; t++) sum[t] = (baseline[t] as number) + (candidate[t] as number);
  const sa = spread(baseline, settings, cluster);
  const sb = spread(candidate, settings, cluster);
  const sab = spread(sum, settings, cluster);
  if (sa.variance === null || sb.variance === null || sab.variance === null || sa.nu === null) {
    return { baselineMean: a, candidateMean: b, ratio, ...none };
  }
  const vaa = sa.variance;
  const vbb = sb.variance;
  const vab = (sab.variance - vaa - vbb) / 2;
  const nu = sa.nu;
  const q =
    settings.quantile === "z"
      ? normalQuantile(settings.confidence)
      : studentTQuantile(settings.confidence, nu);
  const q2 = q * q;
  // (ā² − q²V_aa) R² − 2 (ā b̄ − q²V_ab) R + (b̄² − q²V_bb) = 0
  const qa = a * a - q2 * vaa;
  const half = a * b - q2 * vab;
  const qc = b * b - q2 * vbb;
  const disc = half * half - qa * qc;
  if (!(qa > 0) || disc < 0) return { baselineMean: a, candidateMean: b, ratio, nu, q, low: 0, high: null };
  const root = Math.sqrt(disc);
  return {
    baselineMean: a,
    candidateMean: b,
    ratio,
    nu,
    q,
    low: Math.max(0, (half - root) / qa),
    high: (half + root) / qa,
  };
}
