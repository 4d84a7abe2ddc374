/**
 * Fragility (SPEC §4): how firm the verdict is.
 *
 * - accept / reject → review fragility: the fewest changes to reviewed labels (valid → broken, or
 *   broken → valid for a task both models attempted) after which §4, recomputed in full, gives a
 *   different verdict; also as a share of N_v. See fragility-review.ts.
 * - unresolved → resolution distance: the fewest open labels (disputed / unreviewed) whose
 *   resolution to valid or broken makes §4 give accept or reject, and which tasks to review first;
 *   unbounded (null, fragility_unbounded) when no resolution can decide it. See
 *   fragility-resolution.ts.
 *
 * Both searches run on sufficient statistics (fragility-state.ts), never by calling evaluate() per
 * candidate. Exactness: a figure is exact when its search completed within FRAGILITY_WORK_BUDGET,
 * or its greedy bound met the levels already proven, or (unbounded) a check no label can fix or a
 * bound on the margin proves it. For single-attempt data with paired SE the margin depends only
 * on how many tasks with d = −1, 0, +1 move, and review fragility is exact up to about 90–180
 * changes (resolution distance usually further: N_v/φ prune it); beyond, and with many distinct
 * d values (multi-attempt) or many (d, cluster) kinds (clustered SE), the figure is the greedy
 * upper bound with fragility_exact false ("at most"). An answer is always realised: it is checked
 * once against the real evaluate() on the relabelled dataset (one O(n) call).
 *
 * Deterministic: tasks are visited in dataset (task-key) order and every tie is broken by it.
 */
import { validityCode, withReplacedRecords, type Dataset, type TaskRecord } from "../model.js";
import type { Policy } from "../policy/policy-types.js";
import { taskColumns, withLabels, type TaskColumns } from "../stats/task-columns.js";
import { verdictOnly } from "./evaluate.js";
import type { Evaluation, EvaluationContext, Fragility } from "./evaluation-types.js";
import { reviewFragility, type FigureResult, type Move } from "./fragility-review.js";
import { resolutionDistance } from "./fragility-resolution.js";
import { FRAGILITY_WORK_BUDGET, Mirror, mirrorParams } from "./fragility-state.js";
import { CAT_VALID, buildTaskTable } from "./fragility-table.js";

export { FRAGILITY_WORK_BUDGET } from "./fragility-state.js";
export type { FigureResult, Move } from "./fragility-review.js";

/** At most this many tasks are listed in fragility_tasks (the count itself is never cut). */
export const MAX_FRAGILITY_TASKS = 50;

export interface FragilityOptions {
  /**
   * Work budget of the exact search (default FRAGILITY_WORK_BUDGET); 0 forces the greedy bound.
   * The greedy fallback always has FRAGILITY_WORK_BUDGET of its own.
   */
  readonly budget?: number;
  /** Check the answer against the real evaluate() (default true). */
  readonly verify?: boolean;
}

export interface FragilityAnalysis {
  readonly fragility: Fragility;
  /** Which figure applies. */
  readonly figure: "review_fragility" | "resolution_distance";
  /** Every change of the answer (fragility_tasks lists at most MAX_FRAGILITY_TASKS of them). */
  readonly moves: readonly Move[];
}

export function computeFragility(
  dataset: Dataset,
  policy: Policy,
  ctx: EvaluationContext,
  evaluation: Evaluation,
): Fragility {
  return analyseFragility(dataset, policy, ctx, evaluation).fragility;
}

/** The dataset with the given label changes applied. */
export function relabel(dataset: Dataset, moves: readonly Move[]): Dataset {
  const replaced = new Map<number, TaskRecord>();
  for (const m of moves) replaced.set(m.index, { ...dataset.tasks.record(m.index), validity: m.to });
  return { ...dataset, tasks: withReplacedRecords(dataset.tasks, replaced) };
}

/**
 * The columns evaluate(relabel(dataset, moves)) reads, made from the dataset's own with only the
 * label column changed: no record is made for a moved task and no column walks the relabelled
 * table (at 10⁶ tasks the search tries thousands of moves, and remaking the records dominated it).
 */
function relabelledColumns(dataset: Dataset, moves: readonly Move[]): TaskColumns {
  const columns = taskColumns(dataset);
  const codes = columns.validity.slice();
  for (const m of moves) codes[m.index] = validityCode(m.to);
  return withLabels(columns, codes);
}

export function analyseFragility(
  dataset: Dataset,
  policy: Policy,
  ctx: EvaluationContext,
  evaluation: Evaluation,
  opts: FragilityOptions = {},
): FragilityAnalysis {
  const budget = opts.budget ?? FRAGILITY_WORK_BUDGET;
  const verdict = evaluation.verdict;
  const figure = verdict === "unresolved" ? "resolution_distance" : "review_fragility";
  const table = buildTaskTable(dataset, policy);
  const mirror = new Mirror(table, mirrorParams(policy, ctx, evaluation));

  let result: FigureResult;
  if (mirror.verdict() !== verdict) {
    // The statistics disagree with the real evaluation (should not happen): claim nothing.
    result = { k: null, exact: false, moves: [] };
  } else if (verdict === "unresolved") {
    result = resolutionDistance(table, mirror, { budget, greedyBudget: FRAGILITY_WORK_BUDGET });
  } else {
    result = reviewFragility(table, mirror, verdict, { budget, greedyBudget: FRAGILITY_WORK_BUDGET });
  }

  if (result.k !== null && opts.verify !== false) {
    const after = verdictOnly(dataset, policy, ctx, relabelledColumns(dataset, result.moves)).verdict;
    const realised = verdict === "unresolved" ? after !== "unresolved" : after !== verdict;
    if (!realised) {
      if (verdict === "unresolved") result = { k: null, exact: false, moves: [] };
      else {
        // Certain flip: with every valid common task broken the margin is undefined.
        const moves: Move[] = [];
        for (let i = 0; i < table.n; i++)
          if (table.cat[i] === CAT_VALID) moves.push({ index: i, to: "broken" });
        result = { k: moves.length, exact: false, moves };
      }
    }
  }

  const moves =
    figure === "resolution_distance" ? reviewOrder(table.d, table.dHigh, result.moves) : result.moves;
  const tasks = moves.slice(0, MAX_FRAGILITY_TASKS).map((m) => {
    const t = dataset.tasks;
    const i = m.index;
    return {
      dataset_revision: t.datasetRevision(i),
      task_id: t.taskId(i),
      change: `${t.validity(i)} → ${m.to}`,
    };
  });
  const nv = evaluation.comparison.common_valid_tasks;
  const review = figure === "review_fragility";
  return {
    figure,
    moves,
    fragility: {
      review_fragility: review ? result.k : null,
      review_fragility_share: review && result.k !== null && nv > 0 ? result.k / nv : null,
      resolution_distance: review ? null : result.k,
      fragility_exact: result.exact,
      fragility_unbounded: result.k === null,
      fragility_tasks: tasks,
    },
  };
}

/**
 * Tasks to review first: open tasks of C by |d| descending (an interval's larger end), then the
 * others; dataset order within.
 */
function reviewOrder(d: Float64Array, dHigh: Float64Array, moves: readonly Move[]): Move[] {
  const weight = (i: number): number => {
    const x = d[i] as number;
    return Number.isNaN(x) ? -1 : Math.max(Math.abs(x), Math.abs(dHigh[i] as number));
  };
  return [...moves].sort((x, y) => weight(y.index) - weight(x.index) || x.index - y.index);
}
