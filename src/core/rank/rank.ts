/**
 * `model-gate rank` as one pure call (docs/rank.md): several models read from one export and the
 * policy in, the rank report out. Every pair's margin, validity bounds, SE and confidence bounds
 * are evaluate's own (analyseMargin on the pair's columns of the one common set); the ranking
 * adds the max-t step-down over the pairs' directional claims, the rank intervals, the models that
 * could be first, the groups, and for the adjacent pairs that the open labels alone keep
 * unordered, the open tasks to review first.
 */
import { InputError } from "../errors.js";
import type { GatePolicy } from "../gate.js";
import type { AppendOnlyReport } from "../history/history-types.js";
import { compareCodeUnits } from "../model.js";
import { tableView } from "../task-table-view.js";
import type { Policy } from "../policy/policy-types.js";
import { quote } from "../quote.js";
import { commonSet, type CommonSet } from "./common-set.js";
import { rankMetricMeans } from "./rank-metrics.js";
import { familyGuarantee, type StepDownOutcome } from "./step-down.js";
import { MAX_T_DRAWS, MAX_T_SEED, rankProcedure } from "./max-t.js";
import { checkRankGate, rankGate } from "./rank-gate.js";
import { modelsAsOfReview } from "./rank-as-of-review.js";
import { rankOrder, type RankOrder } from "./rank-order.js";
import {
  orderPairs,
  pairAnalyser,
  pairIndex,
  scoreOrder,
  unresolvedBy,
  type PairBounds,
} from "./rank-pairs.js";
import { modelScores, type ModelScore } from "./rank-scores.js";
import { clusteredCheck, rankWarnings, rewrittenGate } from "./rank-warnings.js";
import { reviewFirstOf } from "./review-first.js";
import {
  RANK_SCHEMA_VERSION,
  type ModelsDataset,
  type PairRelation,
  type RankMetricMean,
  type RankModel,
  type RankPair,
  type RankReport,
} from "./rank-types.js";

export { reviewsToSettle } from "./review-first.js";

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
  const view = tableView([data.tasks], null, set.tasks);
  const { analyse, pairDataset } = pairAnalyser(data, set, view, policy.infra_errors);
  const procedure = rankProcedure(set, policy.infra_errors, policy.margin.standard_error, k);
  const ordered = orderPairs(k, analyse, policy.margin, procedure.schedule);
  const { steps, above } = ordered;
  const rankPairs = ordered.pairs.map(([a, b], p) => rankPair(models, a, b, steps, p));
  const order = scoreOrder(models, steps.bounds);
  const ranks = rankOrder(k, above, order);
  const topValidity = topAboveEveryResolution(k, order[0] as number, rankPairs);

  const rankModels = leaderboard(
    data,
    set,
    order,
    ranks,
    modelScores(set, policy, k),
    above,
    options.reference,
  );

  const reviewFirst = reviewFirstOf(models, order, policy, (hi, lo) => rankPairs[pairIndex(k, hi, lo)], {
    analyse,
    pairDataset,
  });

  const groups = ranks.groups.map((g) => g.map((i) => models[i] as string));
  // Could be first: no model is ordered above it (rank_low = 1), in rank order.
  const couldBeFirst = rankModels.filter((m) => m.rank_low === 1).map((m) => m.model);
  const withoutCluster = steps.bounds.some((b) => b.tasksWithoutCluster > 0);
  // A rewritten history keeps the top from being resolved, as it keeps evaluate from a verdict.
  const top = couldBeFirst.length === 1 && !rewritten ? (couldBeFirst[0] as string) : null;
  const decided = {
    models: rankModels,
    pairs: rankPairs,
    groups,
    could_be_first: couldBeFirst,
    top,
    top_resolved: top !== null,
    reference: options.reference,
  };
  const clustered = clusteredCheck(
    models,
    set,
    policy.margin,
    analyse,
    ordered,
    order,
    () => rankProcedure(set, policy.infra_errors, "clustered", k).schedule,
  );
  const m = ordered.pairs.length;
  return {
    schema_version: RANK_SCHEMA_VERSION,
    kind: "rank",
    top,
    top_resolved: top !== null,
    could_be_first: couldBeFirst,
    top_validity_resolved: topValidity,
    reference: options.reference,
    gate: rewritten ? rewrittenGate(require, candidate) : rankGate(decided, require, candidate),
    warnings: rankWarnings(data, gate, withoutCluster, asOfReview, appendOnly, clustered),
    models: rankModels,
    groups,
    pairs: rankPairs,
    adjustment: {
      method: procedure.method,
      pairs: m,
      directional_claims: 2 * m,
      family_alpha: 1 - policy.margin.confidence,
      draws: procedure.method === "max_t" ? MAX_T_DRAWS : null,
      seed: procedure.method === "max_t" ? MAX_T_SEED : null,
      rounds: steps.rounds,
      ordered_pairs: steps.orderedPairs,
      final_level: steps.finalLevel,
      guarantee: familyGuarantee(1 - policy.margin.confidence, m, procedure.method, MAX_T_DRAWS),
    },
    review_first: reviewFirst,
    common_tasks: set.tasks.length,
    common_valid_tasks: set.validTasks,
    unresolved_tasks: set.tasks.length - set.validTasks,
    disputed_tasks: set.disputedTasks,
    unreviewed_tasks: set.unreviewedTasks,
    broken_tasks: set.brokenTasks,
    universe_tasks: set.universeTasks,
    settings: rankSettings(policy),
    provenance: rankProvenance(data, gate, options.toolVersion, asOfReview, appendOnly),
  };
}

/** The policy's settings the ranking used. */
function rankSettings(policy: Policy): RankReport["settings"] {
  return {
    confidence: policy.margin.confidence,
    quantile: policy.margin.quantile,
    standard_error: policy.margin.standard_error,
    cluster_correction: policy.margin.cluster_correction,
    validity_bound: policy.margin.validity_bound,
    infra_errors: policy.infra_errors,
    common_valid_tasks_threshold: policy.accept_if.common_valid_tasks.text,
  };
}

/** What the ranking was made from: the inputs, the models as given, the revisions and the policy. */
function rankProvenance(
  data: ModelsDataset,
  gate: GatePolicy,
  toolVersion: string,
  asOfReview: number | null,
  appendOnly: AppendOnlyReport | null,
): RankReport["provenance"] {
  const policy = gate.policy;
  return {
    inputs: data.inputs.map((f) => ({ path: f.path, sha256: f.sha256 })),
    models_given: [...data.models],
    dataset_revisions: [...new Set(data.summaries.flatMap((s) => s.datasetRevisions))].sort(compareCodeUnits),
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
    tool_version: toolVersion,
  };
}

/** Pair p = (a, b) as reported: its figures at the level that decided it, and its relation. */
function rankPair(
  models: readonly string[],
  a: number,
  b: number,
  steps: StepDownOutcome<PairBounds>,
  p: number,
): RankPair {
  const x = steps.bounds[p] as PairBounds;
  const relation: PairRelation =
    steps.ordered[p] !== 1 ? "unresolved" : x.lcb !== null && x.lcb > 0 ? "a_better" : "b_better";
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
    level: steps.level[p] as number,
    round: steps.round[p] as number,
    relation,
    unresolved_by: relation !== "unresolved" ? null : unresolvedBy(x.marginLower, x.marginUpper),
  };
}

/**
 * Is the highest-scoring model above every other under every resolution of the open labels (Δ_L
 * of top − other > 0 for each)? null when some pair's bound is undefined.
 */
function topAboveEveryResolution(k: number, top: number, pairs: readonly RankPair[]): boolean | null {
  let out: boolean | null = true;
  for (let j = 0; j < k && out !== null; j++) {
    if (j === top) continue;
    const pr = pairs[pairIndex(k, top, j)] as RankPair;
    const low = top < j ? pr.margin_low : pr.margin_high === null ? null : -pr.margin_high;
    if (low === null) out = null;
    else if (!(low > 0)) out = false;
  }
  return out;
}

/** `metrics` of model i when the export carries any (figures only), else nothing. */
function metricMeans(data: ModelsDataset, set: CommonSet, i: number): { metrics?: RankMetricMean[] } {
  const means = rankMetricMeans(data, set, i);
  return means === undefined ? {} : { metrics: means };
}

/** The models in leaderboard order with their figures, ranks and place against the reference. */
function leaderboard(
  data: ModelsDataset,
  set: CommonSet,
  order: readonly number[],
  ranks: RankOrder,
  scores: readonly ModelScore[],
  above: Uint8Array,
  referenceId: string | null,
): RankModel[] {
  const models = data.models;
  const k = models.length;
  const reference = referenceId === null ? -1 : models.indexOf(referenceId);
  return order.map((i) => ({
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
    ...metricMeans(data, set, i),
  }));
}
