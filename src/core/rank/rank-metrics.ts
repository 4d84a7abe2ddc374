/**
 * Each ranked model's mean per task of each metric the export carries (docs/rank.md "Cost and
 * latency"), shown in the leaderboard beside the scores. Figures only: the ranking makes no
 * ordering claim from them (a guardrail is `evaluate`'s, docs/spec.md §4.5).
 */
import type { ModelsDataset, RankMetricMean } from "./rank-types.js";
import type { CommonSet } from "./common-set.js";

/** Model k's means, in metric-name order; undefined when no ranked model's attempt carries a metric. */
export function rankMetricMeans(
  data: ModelsDataset,
  set: CommonSet,
  k: number,
): RankMetricMean[] | undefined {
  const metrics = data.metrics;
  if (metrics === undefined) return undefined;
  return metrics.names.map((metric, j) => {
    const column = metrics.byModel[k]?.[j];
    let sum = 0;
    let tasks = 0;
    if (column !== undefined) {
      for (const i of set.tasks) {
        const n = column.count[i] as number;
        if (n === 0) continue;
        sum += (column.sum[i] as number) / n;
        tasks++;
      }
    }
    return { metric, mean: tasks === 0 ? null : sum / tasks, tasks };
  });
}
