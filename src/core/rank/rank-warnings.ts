/**
 * The rank report's headline warnings (docs/rank.md), the gate over a rewritten history, and the
 * clustered-SE check of a paired policy: which orderings, and which "could be first" set, would
 * not hold under the clustered standard error (CR2) when the tasks carry a cluster.
 */
import type { GatePolicy } from "../gate.js";
import type { AppendOnlyReport } from "../history/history-types.js";
import { compareCodeUnits, isPlaceholderRevision } from "../model.js";
import type { MarginSettings, RankRequirement } from "../policy/policy-types.js";
import { quote } from "../quote.js";
import type { CommonSet } from "./common-set.js";
import { orderPairs, type OrderedPairs, type PairAnalyser } from "./rank-pairs.js";
import type { LevelSchedule } from "./step-down.js";
import { quotedModels } from "./model-labels.js";
import { rankOrder } from "./rank-order.js";
import type { ModelsDataset, RankGate } from "./rank-types.js";
import { plural } from "../words.js";

/** How many orderings the clustered-SE warning names before it counts the rest. */
const ORDERINGS_NAMED = 5;

function named(ids: readonly string[], max: number): string {
  const shown = ids.slice(0, max).join(", ");
  return ids.length > max ? `${shown} and ${ids.length - max} more` : shown;
}

/**
 * With a paired policy and every common task in a cluster (at least 2 clusters): the ranking again
 * under the clustered SE (CR2), and a warning when some ordering made under the paired SE would
 * not be made under it — naming those orderings and, when it changes, the "could be first" set.
 * null when the check does not apply or every ordering holds (an ordering CR2 adds changes no
 * conclusion the report draws).
 */
export function clusteredCheck(
  models: readonly string[],
  set: CommonSet,
  margin: MarginSettings,
  analyse: PairAnalyser,
  paired: OrderedPairs,
  order: readonly number[],
  clusteredSchedule: () => LevelSchedule,
): string | null {
  if (margin.standard_error !== "paired" || set.clusterCount < 2 || set.cluster.some((c) => c < 0))
    return null;
  const k = models.length;
  const q = quotedModels(models);
  const clustered = orderPairs(
    k,
    analyse,
    {
      ...margin,
      standard_error: "clustered",
      cluster_correction: "cr2",
    },
    clusteredSchedule(),
  );
  const lost: string[] = [];
  for (const [hi, lo] of order.flatMap((i) => order.map((j) => [i, j] as const))) {
    if (paired.above[hi * k + lo] === 1 && clustered.above[hi * k + lo] !== 1)
      lost.push(`${q(models[hi] as string)} above ${q(models[lo] as string)}`);
  }
  if (lost.length === 0) return null;
  const first = (above: Uint8Array): string[] => {
    const r = rankOrder(k, above, order);
    return order.filter((i) => r.rankLow[i] === 1).map((i) => q(models[i] as string));
  };
  const before = first(paired.above);
  const after = first(clustered.above);
  const ordered = paired.steps.orderedPairs;
  const cbf =
    after.length === before.length
      ? ""
      : `, and ${after.length} models could be first (${named(after, ORDERINGS_NAMED)}) instead of ${before.length} (${named(before, ORDERINGS_NAMED)})`;
  return (
    `The tasks cluster (${set.clusterCount} clusters by the rows' \`cluster\`): under the clustered standard error (CR2) ` +
    `${lost.length} of the ${plural(ordered, "ordering")} would not hold (${named(lost, ORDERINGS_NAMED)})${cbf}; ` +
    "consider standard_error: clustered."
  );
}

/**
 * The gate over a rewritten history: unresolved whatever the requirement, as a failed evidence
 * check leaves evaluate unresolved (docs/history.md): neither accept nor reject is carried.
 */
export function rewrittenGate(require: RankRequirement, candidate: string | null): RankGate {
  return {
    require,
    candidate,
    verdict: "unresolved",
    reasons: [
      "History rewritten: rows of the previous results or reviews were removed or changed, so the ranking decides nothing (provenance.append_only lists them).",
    ],
  };
}

export function rankWarnings(
  data: ModelsDataset,
  gate: GatePolicy,
  withoutCluster: boolean,
  asOfReview: number | null,
  appendOnly: AppendOnlyReport | null,
  clustered: string | null,
): string[] {
  const policy = gate.policy;
  const out: string[] = [...gate.warnings];
  if (appendOnly !== null && appendOnly.rows_changed_or_removed > 0) {
    const n = appendOnly.rows_changed_or_removed;
    out.push(
      `History rewritten: ${plural(n, "row")} of the previous results or reviews ${n === 1 ? "was" : "were"} removed or changed (provenance.append_only lists them); the top is not taken as resolved.`,
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
  } else if (policy.infra_errors === "bound") {
    out.push(
      "Infra errors are lost results (infra_errors: bound): each is taken as a pass and as a fail, and every pair's bounds hold either way.",
    );
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
  if (clustered !== null) out.push(clustered);
  if (withoutCluster) {
    out.push(
      "standard_error is clustered but some common tasks have no cluster: the standard errors are left undefined rather than guessed, so no pair can be ordered.",
    );
  }
  return out;
}
