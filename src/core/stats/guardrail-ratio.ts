/**
 * A guardrail's ratio and its one-sided confidence bounds (docs/spec.md §4.5): over n paired
 * tasks with baseline values aₜ and candidate values bₜ (each a task's mean over its attempts that
 * carry the metric), R = b̄ / ā, and the bounds come from the delta method on log R:
 *
 *     uₜ = bₜ / b̄ − aₜ / ā          (the linearised contribution of task t to log R)
 *     SE(log R) = the SE of the mean of u: paired √(Σ (uₜ − ū)² / (n (n − 1))), ν = n − 1,
 *                 or clustered (CR2 / CR1 with their ν) as the margin's (§3.2)
 *     R_low = R · exp(−q · SE),  R_high = R · exp(q · SE),  q at the policy's confidence (§3.3).
 *
 * Each bound is one-sided at the confidence. Why log R: a ratio of means of skewed positive
 * figures is itself skewed, and its log is much nearer normal, so the interval is asymmetric the
 * way R's distribution is, and it never reaches 0 or below. It is closed-form and deterministic
 * (no resampling), and it does not break down like Fieller's interval can be unbounded: a
 * baseline mean of 0 is refused before (R undefined), and the simulation
 * (scripts/simulate-guardrails.mjs) shows its coverage on heavy-tailed costs.
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
  /** SE of log R; null when it cannot be taken (n < 2, G < 2, a task without a cluster, R = 0 or null). */
  readonly seLog: number | null;
  readonly nu: number | null;
  readonly q: number | null;
  /** R · exp(∓ q · SE); 0 and 0 when R = 0 (every candidate value is 0); else null with the SE. */
  readonly low: number | null;
  readonly high: number | null;
}

function mean(values: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i] as number;
  return values.length === 0 ? 0 : s / values.length;
}

/**
 * The ratio and its bounds over the tasks given: `baseline[t]`, `candidate[t]` ≥ 0 and, for a
 * clustered SE, `cluster[t]` a number in [0, clusterCount) or −1 for a task without a cluster.
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
  const none = { seLog: null, nu: null, q: null, low: null, high: null };
  if (n === 0 || a === 0) return { baselineMean: a, candidateMean: b, ratio: null, ...none };
  const ratio = b / a;
  // Values are ≥ 0: b̄ = 0 means every candidate value is 0, so R is 0 whatever the sample.
  if (b === 0) return { baselineMean: a, candidateMean: b, ratio, ...none, low: 0, high: 0 };
  const u = new Float64Array(n);
  for (let t = 0; t < n; t++) u[t] = (candidate[t] as number) / b - (baseline[t] as number) / a;
  let se: number | null;
  let nu: number | null;
  if (settings.standardError === "paired") {
    se = pairedStandardError(u);
    nu = se === null ? null : n - 1;
  } else {
    const of = cluster?.of;
    let complete = of !== undefined && of.length === n;
    for (let t = 0; complete && t < n; t++) if ((of?.[t] as number) < 0) complete = false;
    const c =
      complete && of !== undefined
        ? clusteredStandardError(u, of, cluster?.count ?? 0, settings.clusterCorrection)
        : null;
    se = c?.se ?? null;
    nu = c?.nu ?? null;
  }
  if (se === null || nu === null) return { baselineMean: a, candidateMean: b, ratio, ...none };
  const q =
    settings.quantile === "z"
      ? normalQuantile(settings.confidence)
      : studentTQuantile(settings.confidence, nu);
  return {
    baselineMean: a,
    candidateMean: b,
    ratio,
    seLog: se,
    nu,
    q,
    low: ratio * Math.exp(-q * se),
    high: ratio * Math.exp(q * se),
  };
}
