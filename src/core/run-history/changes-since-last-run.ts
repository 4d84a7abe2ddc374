/**
 * What changed since the last run (docs/spec.md §3.7), from two full readings: the
 * previous run's Dataset (its results and reviews) and summary, and the current run's. Pure; a
 * description of the two runs, never used to decide.
 */
import { labelsAsOfReview, validityOfCode } from "../history/labels-as-of.js";
import { compareCodeUnits, type Dataset, type TaskTable } from "../model.js";
import type {
  DecidedReport,
  FigureChange,
  LabelChange,
  MarginMover,
  ModelFlips,
  RunChanges,
  RunSummary,
  TaskFlip,
} from "./run-types.js";
import { taskDifferences } from "../stats/margin.js";
import { taskColumns, VALID_CODE } from "../stats/task-columns.js";
import { taskScore, type PointInfraErrorsPolicy } from "../stats/task-scores.js";

export type { RunChanges } from "./run-types.js";

/** The most flipped tasks (per model and direction) and changed labels the report lists; the counts are complete. */
export const RUN_LIST_MAX = 100;
/** The tasks that moved the margin most, listed. */
export const RUN_MOVERS_MAX = 10;

/** The previous run: its summary, and its Dataset when its inputs could be read (else why not). */
export interface PreviousRun {
  readonly summary: RunSummary;
  readonly dataset: Dataset | null;
  /** Why `dataset` is null (one line), else null. */
  readonly unavailable: string | null;
}

export interface CurrentRun {
  readonly dataset: Dataset;
  readonly report: DecidedReport;
  readonly summary: RunSummary;
}

function figure(before: number | null, after: number | null): FigureChange {
  return { before, after, change: before === null || after === null ? null : after - before };
}

/**
 * The tasks of two tables matched by key, in dataset order: [i, j] with i the previous table's
 * index and j the current one's (−1 when the task is not in that table). Both tables are sorted
 * by (dataset revision, task id) in code units (model.ts).
 */
function* matched(prev: TaskTable, cur: TaskTable): Generator<readonly [number, number]> {
  let i = 0;
  let j = 0;
  while (i < prev.length || j < cur.length) {
    let order: number;
    if (i >= prev.length) order = 1;
    else if (j >= cur.length) order = -1;
    else {
      order = compareCodeUnits(prev.datasetRevision(i), cur.datasetRevision(j));
      if (order === 0) order = compareCodeUnits(prev.taskId(i), cur.taskId(j));
    }
    if (order === 0) yield [i++, j++];
    else if (order < 0) yield [i++, -1];
    else yield [-1, j++];
  }
}

class FlipList {
  down = 0;
  up = 0;
  onlyPrevious = 0;
  onlyCurrent = 0;
  readonly downs: TaskFlip[] = [];
  readonly ups: TaskFlip[] = [];
  add(tasks: TaskTable, j: number, before: number | null, after: number | null): void {
    if (before === null && after === null) return;
    if (after === null) this.onlyPrevious++;
    else if (before === null) this.onlyCurrent++;
    else if (after !== before) {
      const flip = { dataset_revision: tasks.datasetRevision(j), task_id: tasks.taskId(j), before, after };
      if (after < before) {
        this.down++;
        if (this.downs.length < RUN_LIST_MAX) this.downs.push(flip);
      } else {
        this.up++;
        if (this.ups.length < RUN_LIST_MAX) this.ups.push(flip);
      }
    }
  }
  result(model: string): ModelFlips {
    return {
      model,
      pass_to_fail_count: this.down,
      pass_to_fail: this.downs,
      fail_to_pass_count: this.up,
      fail_to_pass: this.ups,
      only_previous: this.onlyPrevious,
      only_current: this.onlyCurrent,
    };
  }
}

/** Each task's contribution to Δ̂: d / N_v on the common valid set V, NaN elsewhere (d: taskDifferences). */
function contributions(dataset: Dataset, infra: PointInfraErrorsPolicy): { d: Float64Array; nv: number } {
  const columns = taskColumns(dataset);
  const d = taskDifferences(columns, infra);
  let nv = 0;
  for (let i = 0; i < d.length; i++) if (columns.validity[i] === VALID_CODE && d[i] === d[i]) nv++;
  const inV = new Float64Array(d.length).fill(Number.NaN);
  for (let i = 0; i < d.length; i++) if (columns.validity[i] === VALID_CODE) inV[i] = d[i] as number;
  return { d: inV, nv };
}

/** The sort key of a mover: |change| to 12 significant digits, so equal changes tie and go by task (as clusterSortKey). */
function moverKey(m: MarginMover): number {
  return Number(Math.abs(m.change).toPrecision(12));
}

/**
 * Puts `m` into `top` (at most RUN_MOVERS_MAX, by moverKey descending) when it belongs there:
 * after those it ties with, so ties stay in dataset order. Bounded, so a change of N_v (which
 * moves every task of V a little) does not hold an object per task.
 */
function keepTop(top: MarginMover[], m: MarginMover): void {
  const key = moverKey(m);
  let at = top.length;
  while (at > 0 && moverKey(top[at - 1] as MarginMover) < key) at--;
  if (at >= RUN_MOVERS_MAX) return;
  top.splice(at, 0, m);
  if (top.length > RUN_MOVERS_MAX) top.pop();
}

/** Labels changed since a run known only by its summary: events above its highest review revision. */
function labelsByRevision(current: Dataset, previousMax: number | null): LabelChange[] {
  const tasks = current.tasks;
  // Revisions are ≥ 0, so "as of −1" is every task before its first label (unreviewed).
  const n = previousMax ?? -1;
  const asOf = labelsAsOfReview(current, n).codes;
  const out: LabelChange[] = [];
  for (let j = 0; j < tasks.length; j++) {
    if (tasks.lastLabelRevision(j) <= n) continue;
    const before = validityOfCode(asOf[j] as number);
    const after = tasks.validity(j);
    if (before !== after) out.push(labelChange(tasks, j, before));
  }
  return out;
}

function labelChange(tasks: TaskTable, j: number, before: LabelChange["before"]): LabelChange {
  const last = tasks.lastLabelRevision(j);
  return {
    dataset_revision: tasks.datasetRevision(j),
    task_id: tasks.taskId(j),
    before,
    after: tasks.validity(j),
    review_revision: last < 0 ? null : tasks.reviewRevision(j),
  };
}

/**
 * What changed between the previous run and the current one. Scores and d are taken under the
 * current policy's `infra_errors` for both runs, so a flip is a change of the results (a changed
 * policy shows as `inputs_changed.policy`).
 */
export function changesSinceLastRun(previous: PreviousRun, current: CurrentRun): RunChanges {
  const before = previous.summary;
  const after = current.summary;
  const base = {
    previous: before,
    inputs_changed: {
      results: before.digests.results !== after.digests.results,
      reviews: before.digests.reviews !== after.digests.reviews,
      policy: before.digests.policy !== after.digests.policy,
    },
    models_changed: before.baseline !== after.baseline || before.candidate !== after.candidate,
    verdict: { before: before.verdict, after: after.verdict, changed: before.verdict !== after.verdict },
    margin: figure(before.margin, after.margin),
    lcb: figure(before.lcb, after.lcb),
    ucb: figure(before.ucb, after.ucb),
    margin_low: figure(before.margin_low, after.margin_low),
    margin_high: figure(before.margin_high, after.margin_high),
  };
  const prevData = previous.dataset;
  if (prevData === null) {
    const labels = labelsByRevision(current.dataset, before.review_revision_max);
    return {
      ...base,
      unavailable: previous.unavailable ?? "the previous run's inputs were not given",
      labels: { compared: "review_revisions", count: labels.length, tasks: labels.slice(0, RUN_LIST_MAX) },
      baseline: null,
      candidate: null,
      movers: null,
    };
  }

  // Under bound, the scores of the known results (docs/spec.md §3.7): a lost result is no result.
  const mode = current.report.provenance.infra_errors_policy;
  const infra = mode === "bound" ? "exclude" : mode;
  const prevTasks = prevData.tasks;
  const curTasks = current.dataset.tasks;
  const baseline = new FlipList();
  const candidate = new FlipList();
  let labelCount = 0;
  const labels: LabelChange[] = [];
  const prevC = contributions(prevData, infra);
  const curC = contributions(current.dataset, infra);
  const movers: MarginMover[] = [];
  let moverCount = 0;
  for (const [i, j] of matched(prevTasks, curTasks)) {
    const scoreOf = (tasks: TaskTable, k: number, side: "baseline" | "candidate"): number | null =>
      k < 0 ? null : taskScore(side === "baseline" ? tasks.baseline(k) : tasks.candidate(k), infra);
    const key = j >= 0 ? ([curTasks, j] as const) : ([prevTasks, i] as const);
    baseline.add(key[0], key[1], scoreOf(prevTasks, i, "baseline"), scoreOf(curTasks, j, "baseline"));
    candidate.add(key[0], key[1], scoreOf(prevTasks, i, "candidate"), scoreOf(curTasks, j, "candidate"));
    if (i >= 0 && j >= 0 && prevTasks.validity(i) !== curTasks.validity(j)) {
      labelCount++;
      if (labels.length < RUN_LIST_MAX) labels.push(labelChange(curTasks, j, prevTasks.validity(i)));
    }
    const dBefore = i < 0 ? Number.NaN : (prevC.d[i] as number);
    const dAfter = j < 0 ? Number.NaN : (curC.d[j] as number);
    const cBefore = dBefore === dBefore ? dBefore / prevC.nv : 0;
    const cAfter = dAfter === dAfter ? dAfter / curC.nv : 0;
    if (cAfter !== cBefore) {
      moverCount++;
      keepTop(movers, {
        dataset_revision: key[0].datasetRevision(key[1]),
        task_id: key[0].taskId(key[1]),
        d_before: dBefore === dBefore ? dBefore : null,
        d_after: dAfter === dAfter ? dAfter : null,
        contribution_before: cBefore,
        contribution_after: cAfter,
        change: cAfter - cBefore,
      });
    }
  }
  return {
    ...base,
    unavailable: null,
    labels: { compared: "readings", count: labelCount, tasks: labels },
    baseline: baseline.result(after.baseline),
    candidate: candidate.result(after.candidate),
    movers: { count: moverCount, tasks: movers },
  };
}
