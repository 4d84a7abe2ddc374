/**
 * `model-gate rank` as one pure call (docs/rank.md): several models read from one export and the
 * policy in, the rank report out. Every pair's margin, validity bounds, SE and confidence bounds
 * are evaluate's own (analyseMargin on the pair's columns of the one common set); the ranking
 * adds Holm's step-down over the pairs, the rank intervals and groups, and for the adjacent pairs
 * that the open labels alone keep unordered, the open tasks to review first.
 */
import { influentialTasks } from "../decision/evaluate.js";
import { InputError } from "../errors.js";
import type { GatePolicy } from "../gate.js";
import type { AppendOnlyReport } from "../history/history-types.js";
import { compareCodeUnits, isPlaceholderRevision, type Dataset } from "../model.js";
import type { Policy, RankRequirement } from "../policy/policy-types.js";
import { analyseMargin, type MarginAnalysis } from "../stats/margin.js";
import { quantileFunction } from "../stats/quantile.js";
import { clusteredStandardError, pairedStandardError } from "../stats/standard-error.js";
import { scoreFigures } from "../stats/model-figures.js";
import { VALID_CODE } from "../stats/task-columns.js";
import { TIE_TOLERANCE } from "../stats/validity-bounds.js";
import { tableView } from "../task-table-view.js";
import { quote } from "../quote.js";
import { commonSet, pairColumns, type CommonSet } from "./common-set.js";
import { holmStepDown, type DirectionalBounds } from "./holm.js";
import { checkRankGate, rankGate } from "./rank-gate.js";
import { modelsAsOfReview } from "./rank-as-of-review.js";
import { rankOrder } from "./rank-order.js";
import {
  RANK_SCHEMA_VERSION,
  type ModelsDataset,
  type PairRelation,
  type RankModel,
  type RankGate,
  type RankPair,
  type RankReport,
  type ReviewFirst,
} from "./rank-types.js";

export interface RankOptions {
  /** --reference: the model the others are placed against (the production config). */
  readonly reference: string | null;
  /** The candidate of the policy's rank.require (docs/rank.md "Gating"); absent or null: none. */
  readonly candidate?: string | null;
  readonly toolVersion: string;
  /** --as-of-review N: only labels with review_revision ≤ N count (null or absent: every label). */
  readonly asOfReview?: number | null;
  /** The append-only check against the previous versions (src/read/previous-versions.ts); null: none given. */
  readonly appendOnly?: AppendOnlyReport | null;
}

/** What a pair's test keeps of analyseMargin's answer (not its task arrays: there are m pairs). */
interface PairBounds extends DirectionalBounds {
  readonly margin: number | null;
  readonly marginLower: number | null;
  readonly marginUpper: number | null;
  readonly se: number | null;
  readonly nu: number | null;
  readonly lcbKind: MarginAnalysis["lcbKind"];
  readonly ucbKind: MarginAnalysis["ucbKind"];
  readonly tasksWithoutCluster: number;
}

/** The validity band holds 0 (touching counts): the open labels alone can decide the pair's order. */
function bandHoldsZero(lower: number | null, upper: number | null): boolean {
  return lower === null || upper === null || (lower <= 0 && upper >= 0);
}

/** The pairs (a, b), a before b in the models' order, as indices. */
function pairIndices(k: number): [number, number][] {
  const out: [number, number][] = [];
  for (let a = 0; a < k; a++) for (let b = a + 1; b < k; b++) out.push([a, b]);
  return out;
}

function checkModels(models: readonly string[], reference: string | null): void {
  if (models.length < 2) {
    throw new InputError(
      `A ranking needs at least 2 models; got ${models.length === 0 ? "none" : quote(models[0] ?? "")}.`,
    );
  }
  if (reference !== null && !models.includes(reference)) {
    throw new InputError(
      `--reference ${quote(reference)} is not among the ranked models (${models.map(quote).join(", ")}): ` +
        `add it to --models.`,
    );
  }
}

export function runRank(given: ModelsDataset, gate: GatePolicy, options: RankOptions): RankReport {
  const asOfReview = options.asOfReview ?? null;
  const data = asOfReview === null ? given : modelsAsOfReview(given, asOfReview);
  const appendOnly = options.appendOnly ?? null;
  const rewritten = appendOnly !== null && appendOnly.rows_changed_or_removed > 0;
  const policy = gate.policy;
  const models = data.models;
  const k = models.length;
  checkModels(models, options.reference);
  const require = policy.rank?.require ?? "top_resolved";
  const candidate = options.candidate ?? null;
  checkRankGate(require, candidate, options.reference, models);
  const set = commonSet(data, policy);
  const tasksView = tableView([data.tasks], null, set.tasks);
  /** A Dataset of the common set for pair (a, b): what influentialTasks reads (records by index). */
  const pairDataset = (a: number, b: number): Dataset => ({
    tasks: tasksView,
    baseline: data.summaries[b] as Dataset["baseline"],
    candidate: data.summaries[a] as Dataset["candidate"],
    modelsPresent: data.modelsPresent,
    inputs: data.inputs,
    rowsRead: data.rowsRead,
    reviewRevisions: data.reviewRevisions,
  });
  const analyse = (a: number, b: number, level: number): MarginAnalysis =>
    analyseMargin(
      pairDataset(a, b),
      { infra: policy.infra_errors, margin: { ...policy.margin, confidence: 1 - level } },
      pairColumns(set, a, b),
    );

  const pairs = pairIndices(k);
  const m = pairs.length;
  const alpha = 1 - policy.margin.confidence;
  const holm = holmStepDown<PairBounds>(
    m,
    alpha,
    (p, level) => {
      const [a, b] = pairs[p] as [number, number];
      const x = analyse(a, b, level);
      return {
        lcb: x.lcb,
        ucb: x.ucb,
        margin: x.margin,
        marginLower: x.marginLower,
        marginUpper: x.marginUpper,
        se: x.seValid,
        nu: x.nuValid,
        lcbKind: x.lcbKind,
        ucbKind: x.ucbKind,
        tasksWithoutCluster: x.tasksWithoutCluster,
      };
    },
    (_, x) => bandHoldsZero(x.marginLower, x.marginUpper) || x.lcb === null || x.ucb === null,
  );

  const above = new Uint8Array(k * k);
  const rankPairs: RankPair[] = pairs.map(([a, b], p) => {
    const x = holm.bounds[p] as PairBounds;
    let relation: PairRelation = "unresolved";
    if (holm.ordered[p] === 1) {
      relation = x.lcb !== null && x.lcb > 0 ? "a_better" : "b_better";
      if (relation === "a_better") above[a * k + b] = 1;
      else above[b * k + a] = 1;
    }
    return {
      a: models[a] as string,
      b: models[b] as string,
      margin: x.margin,
      margin_low: x.marginLower,
      margin_high: x.marginUpper,
      se: x.se,
      nu: x.nu,
      lcb: x.lcb,
      ucb: x.ucb,
      lcb_bound_kind: x.lcbKind,
      ucb_bound_kind: x.ucbKind,
      level: holm.level[p] as number,
      round: holm.round[p] as number,
      relation,
      unresolved_by:
        relation !== "unresolved"
          ? null
          : bandHoldsZero(x.marginLower, x.marginUpper)
            ? "validity"
            : "run_variance",
    };
  });

  const scores = modelScores(set, policy, k);
  const order = Array.from({ length: k }, (_, i) => i).sort((i, j) => {
    const si = scores[i]?.score ?? null;
    const sj = scores[j]?.score ?? null;
    if (si !== sj) {
      if (si === null) return 1;
      if (sj === null) return -1;
      return sj - si;
    }
    return compareCodeUnits(models[i] as string, models[j] as string);
  });
  const ranks = rankOrder(k, above, order);
  const pairOf = (i: number, j: number): number => {
    // Index of the pair {i, j} (i < j) in pairIndices order.
    const [a, b] = i < j ? [i, j] : [j, i];
    return a * k - (a * (a + 1)) / 2 + (b - a - 1);
  };
  const topModel = order[0] as number;
  // Δ_L of (top − other) > 0 for every other model: above under every resolution of the open labels.
  let topValidity: boolean | null = true;
  for (let j = 0; j < k && topValidity !== null; j++) {
    if (j === topModel) continue;
    const pr = rankPairs[pairOf(topModel, j)] as RankPair;
    const low = topModel < j ? pr.margin_low : pr.margin_high === null ? null : -pr.margin_high;
    if (low === null) topValidity = null;
    else if (!(low > 0)) topValidity = false;
  }

  const reference = options.reference === null ? -1 : models.indexOf(options.reference);
  const rankModels: RankModel[] = order.map((i) => ({
    model: models[i] as string,
    score: scores[i]?.score ?? null,
    interval: scores[i]?.interval ?? null,
    run_variance_band: scores[i]?.band ?? null,
    rank_low: ranks.rankLow[i] as number,
    rank_high: ranks.rankHigh[i] as number,
    group: ranks.group[i] as number,
    absence_adds_back: set.addsBack[i] as number,
    absence_adds_back_valid: set.addsBackValid[i] as number,
    vs_reference:
      reference < 0 || reference === i
        ? null
        : above[i * k + reference] === 1
          ? "above"
          : above[reference * k + i] === 1
            ? "below"
            : "unresolved",
    harness_revisions: [...(data.summaries[i]?.harnessRevisions ?? [])],
  }));

  const reviewFirst: ReviewFirst[] = [];
  for (let p = 0; p + 1 < k; p++) {
    const hi = order[p] as number;
    const lo = order[p + 1] as number;
    if (rankPairs[pairOf(hi, lo)]?.unresolved_by !== "validity") continue;
    const x = analyse(hi, lo, alpha);
    const settle = reviewsToSettle(x, policy);
    reviewFirst.push({
      a: models[hi] as string,
      b: models[lo] as string,
      reviews_to_settle_a_better: settle.up,
      reviews_to_settle_b_better: settle.down,
      tasks: influentialTasks(pairDataset(hi, lo), x),
    });
  }

  const groups = ranks.groups.map((g) => g.map((i) => models[i] as string));
  const topGroup = groups[0] ?? [];
  const withoutCluster = holm.bounds.some((b) => b.tasksWithoutCluster > 0);
  // A rewritten history keeps the top from being resolved, as it keeps evaluate from a verdict.
  const top = topGroup.length === 1 && !rewritten ? (topGroup[0] as string) : null;
  const decided = {
    models: rankModels,
    pairs: rankPairs,
    groups,
    top,
    top_resolved: top !== null,
    reference: options.reference,
  };
  return {
    schema_version: RANK_SCHEMA_VERSION,
    kind: "rank",
    top,
    top_resolved: top !== null,
    top_validity_resolved: topValidity,
    reference: options.reference,
    gate: rewritten ? rewrittenGate(require, candidate) : rankGate(decided, require, candidate),
    warnings: rankWarnings(data, gate, withoutCluster, asOfReview, appendOnly),
    models: rankModels,
    groups,
    pairs: rankPairs,
    adjustment: {
      method: "holm",
      pairs: m,
      family_alpha: alpha,
      rounds: holm.rounds,
      ordered_pairs: holm.orderedPairs,
      final_level: holm.finalLevel,
    },
    review_first: reviewFirst,
    common_tasks: set.tasks.length,
    common_valid_tasks: set.validTasks,
    unresolved_tasks: set.tasks.length - set.validTasks,
    disputed_tasks: set.disputedTasks,
    unreviewed_tasks: set.unreviewedTasks,
    broken_tasks: set.brokenTasks,
    universe_tasks: set.universeTasks,
    settings: {
      confidence: policy.margin.confidence,
      quantile: policy.margin.quantile,
      standard_error: policy.margin.standard_error,
      cluster_correction: policy.margin.cluster_correction,
      validity_bound: policy.margin.validity_bound,
      infra_errors: policy.infra_errors,
      common_valid_tasks_threshold: policy.accept_if.common_valid_tasks.text,
    },
    provenance: {
      inputs: data.inputs.map((f) => ({ path: f.path, sha256: f.sha256 })),
      models_given: [...models],
      dataset_revisions: [...new Set(data.summaries.flatMap((s) => s.datasetRevisions))].sort(
        compareCodeUnits,
      ),
      review_revisions: [...data.reviewRevisions],
      as_of_review: asOfReview,
      append_only: appendOnly,
      rows_read: data.rowsRead,
      passes: data.passes,
      policy: {
        path: gate.source.path,
        sha256: gate.source.sha256,
        owner: policy.owner,
        revisit: policy.revisit,
        source: gate.source.source,
        last_commit: gate.source.lastCommit,
      },
      tool_version: options.toolVersion,
    },
  };
}

/** Each model's valid-only score on the common set and its validity interval (the policy's kind). */
function modelScores(set: CommonSet, policy: Policy, k: number): ModelScore[] {
  const out: ModelScore[] = [];
  const n = set.validity.length;
  const q = quantileFunction(policy.margin);
  for (let i = 0; i < k; i++) {
    const counts = set.counts[i] ?? [];
    let validSum = 0;
    let validCount = 0;
    const valid = new Float64Array(n);
    const validCluster = new Int32Array(n);
    const open = new Float64Array(n);
    let openCount = 0;
    for (let j = 0; j < n; j++) {
      const c = counts[j];
      if (c === undefined) continue;
      const kStar = c.pass + c.fail + (policy.infra_errors === "count_as_fail" ? c.infra_error : 0);
      const score = c.pass / kStar;
      if (set.validity[j] === VALID_CODE) {
        validSum += score;
        valid[validCount] = score;
        validCluster[validCount] = set.cluster[j] as number;
        validCount++;
      } else open[openCount++] = score;
    }
    const f = scoreFigures(validSum, validCount, open.subarray(0, openCount));
    const interval = policy.margin.validity_bound === "exact" ? f.interval_exact : f.interval_pessimistic;
    const se = scoreStandardError(
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

interface ModelScore {
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

/**
 * The fewest open labels whose resolution could take 0 out of the pair's validity band, towards
 * a above b (`up`: Δ_L > 0) and towards b above a (`down`: Δ_H < 0); null when none can.
 * Exact bounds: Δ_L > 0 exactly when Σ_V d + Σ of the open d < 0 is > 0, and each open task moves
 * that sum by |d| at best (a task with d < 0 resolved broken, one with d > 0 resolved valid), so
 * the fewest are the largest |d| first. Pessimistic bounds: Δ_L's numerator is Σ_V d − |U|, and
 * a task resolved moves it by 1 (broken) or 1 + d (valid), so by 1 + max(d, 0) at best.
 */
export function reviewsToSettle(
  x: MarginAnalysis,
  policy: Policy,
): { up: number | null; down: number | null } {
  if (x.margin === null) return { up: null, down: null };
  const validSum = x.margin * x.commonValidTasks;
  const d = x.unresolvedD;
  const count = (sign: 1 | -1): number | null => {
    let base = sign * validSum;
    const gains: number[] = [];
    for (const raw of d) {
      const v = sign * raw;
      if (policy.margin.validity_bound === "exact") {
        if (v < 0) base += v;
        if (v !== 0) gains.push(Math.abs(v));
      } else {
        base -= 1;
        gains.push(1 + Math.max(v, 0));
      }
    }
    gains.sort((p, q) => q - p);
    let reviews = 0;
    for (const g of gains) {
      if (base > TIE_TOLERANCE) break;
      base += g;
      reviews++;
    }
    return base > TIE_TOLERANCE ? reviews : null;
  };
  return { up: count(1), down: count(-1) };
}

/**
 * The gate over a rewritten history: unresolved whatever the requirement, as a failed evidence
 * check leaves evaluate unresolved (docs/history.md): neither accept nor reject is carried.
 */
function rewrittenGate(require: RankRequirement, candidate: string | null): RankGate {
  return {
    require,
    candidate,
    verdict: "unresolved",
    reasons: [
      "History rewritten: rows of the previous results or reviews were removed or changed, so the ranking decides nothing (provenance.append_only lists them).",
    ],
  };
}

function rankWarnings(
  data: ModelsDataset,
  gate: GatePolicy,
  withoutCluster: boolean,
  asOfReview: number | null,
  appendOnly: AppendOnlyReport | null,
): string[] {
  const policy = gate.policy;
  const out: string[] = [...gate.warnings];
  if (appendOnly !== null && appendOnly.rows_changed_or_removed > 0) {
    const n = appendOnly.rows_changed_or_removed;
    out.push(
      `History rewritten: ${n} ${n === 1 ? "row" : "rows"} of the previous results or reviews ${n === 1 ? "was" : "were"} removed or changed (provenance.append_only lists them); the top is not taken as resolved.`,
    );
  }
  if (asOfReview !== null) {
    out.push(
      `Ranked as of review revision ${asOfReview}: labels of later review revisions are left out (--as-of-review).`,
    );
  }
  if (gate.expired) {
    out.push(`Policy expired on ${policy.revisit}; owner ${policy.owner} must re-examine the thresholds.`);
  }
  if (policy.infra_errors === "count_as_fail") {
    out.push("Infra errors are counted as fails (infra_errors: count_as_fail): they lower the task scores.");
  }
  const harness = [...new Set(data.summaries.flatMap((s) => s.harnessRevisions))].sort(compareCodeUnits);
  const placeholders = harness.filter(isPlaceholderRevision);
  if (placeholders.length > 0) {
    out.push(
      `Placeholder harness revisions (${placeholders.map(quote).join(", ")}): the report cannot say which harness produced these results.`,
    );
  }
  if (policy.require_same_harness && harness.length > 1) {
    out.push(
      `The ranked models ran on ${harness.length} harness revisions (${harness.slice(0, 5).map(quote).join(", ")}${harness.length > 5 ? ", …" : ""}); the policy requires one.`,
    );
  }
  if (withoutCluster) {
    out.push(
      "standard_error is clustered but some common tasks have no cluster: the standard errors are left undefined rather than guessed, so no pair can be ordered.",
    );
  }
  return out;
}
