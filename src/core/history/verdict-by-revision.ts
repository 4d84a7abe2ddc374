/**
 * The verdict at every review revision: for each review revision present, the
 * effective labels then, the margin, its validity bounds, LCB/UCB and the verdict, each computed by
 * the gate's own evaluation (verdictOnly: the verdict, not the scores) with the labels as of that revision (as-of-review.ts),
 * so these figures follow whatever SPEC §3–4 say the evaluation computes. Between consecutive revisions: which tasks
 * changed label and how far each alone moved the observed margin.
 *
 * Bounded: at most MAX_REVISIONS_EVALUATED revisions (the latest) are evaluated, and at most
 * MAX_TASKS_PER_CHANGE tasks are listed per change (the counts are exact). Deterministic: tasks in
 * dataset (task-key) order, ties by it.
 */
import type { Evaluation, EvaluationContext } from "../decision/evaluation-types.js";
import { verdictOnly, type VerdictCore } from "../decision/evaluate.js";
import { compareCodeUnits, VALIDITIES, validityCode, type Dataset, type Validity } from "../model.js";
import type { Policy } from "../policy/policy-types.js";
import type { RevisionChange, RevisionVerdict, VerdictByReviewRevision } from "./history-types.js";
import type { Comparison, ModelCounts, Verdict } from "../verdict-types.js";
import { taskIntervals, type TaskIntervals } from "../stats/task-intervals.js";
import { taskColumns, withLabels } from "../stats/task-columns.js";
import { currentLabelCodes, labelsAsOfReview, sameLabels, validityOfCode } from "./labels-as-of.js";
import { plural } from "../words.js";

/** What a revision's row and change show of its evaluation. */
interface RevisionFigures {
  readonly verdict: Verdict;
  readonly commonValidTasks: number;
  readonly unresolvedTasks: number;
  readonly margin: number | null;
  readonly marginLower: number | null;
  readonly marginUpper: number | null;
  readonly lcb: number | null;
  readonly ucb: number | null;
  readonly lcbKind: Comparison["lcb_bound_kind"];
  readonly ucbKind: Comparison["ucb_bound_kind"];
}

function figuresOfEvaluation(e: Evaluation): RevisionFigures {
  const c = e.comparison;
  return {
    verdict: e.verdict,
    commonValidTasks: c.common_valid_tasks,
    unresolvedTasks: c.unresolved_tasks,
    margin: c.margin,
    marginLower: c.margin_lower,
    marginUpper: c.margin_upper,
    lcb: c.lcb,
    ucb: c.ucb,
    lcbKind: c.lcb_bound_kind,
    ucbKind: c.ucb_bound_kind,
  };
}

/** The same figures as evaluate() copies them into its comparison. */
function figuresOfCore(v: VerdictCore<ModelCounts>): RevisionFigures {
  const a = v.analysis;
  return {
    verdict: v.verdict,
    commonValidTasks: a.commonValidTasks,
    unresolvedTasks: a.unresolvedTasks,
    margin: a.margin,
    marginLower: a.marginLower,
    marginUpper: a.marginUpper,
    lcb: a.lcb,
    ucb: a.ucb,
    lcbKind: a.lcbKind,
    ucbKind: a.ucbKind,
  };
}

const UNREVIEWED_CODE = validityCode("unreviewed");

/** The latest this many review revisions are evaluated in full. */
export const MAX_REVISIONS_EVALUATED = 20;
/** Tasks listed per change between two revisions (largest margin move first). */
export const MAX_TASKS_PER_CHANGE = 20;

function labelCounts(codes: Uint8Array): RevisionVerdict["labels"] {
  const byCode = [0, 0, 0, 0];
  // (Indexed: a for-of over 10⁶ codes, run a few times, stays unoptimized and makes an object each.)
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i] as number;
    byCode[code] = (byCode[code] as number) + 1;
  }
  const c = { valid: 0, disputed: 0, unreviewed: 0, broken: 0 };
  byCode.forEach((count, code) => (c[validityOfCode(code)] = count));
  return c;
}

function revisionRow(
  revision: number,
  codes: Uint8Array,
  e: RevisionFigures | null,
  conflicts: number,
): RevisionVerdict {
  return {
    revision,
    labels: labelCounts(codes),
    label_conflicts: conflicts,
    common_valid_tasks: e?.commonValidTasks ?? null,
    unresolved_tasks: e?.unresolvedTasks ?? null,
    margin: e?.margin ?? null,
    margin_lower: e?.marginLower ?? null,
    margin_upper: e?.marginUpper ?? null,
    lcb: e?.lcb ?? null,
    ucb: e?.ucb ?? null,
    lcb_bound_kind: e?.lcbKind ?? null,
    ucb_bound_kind: e?.ucbKind ?? null,
    verdict: e?.verdict ?? null,
  };
}

/**
 * Δ̂ after one task's label change alone, minus Δ̂ before (V = the valid tasks of C). Only
 * entering or leaving V moves Δ̂; null when Δ̂ is undefined before or after.
 */
function marginMove(
  sum: number,
  n: number,
  d: number,
  dHigh: number,
  from: Validity,
  to: Validity,
): number | null {
  if (Number.isNaN(d)) return 0;
  const wasValid = from === "valid";
  const isValid = to === "valid";
  if (wasValid === isValid) return 0;
  // A task whose d is an interval (a lost result under infra_errors: bound) leaves Δ̂ undefined in V.
  if (d !== dHigh) return null;
  const before = n > 0 ? sum / n : null;
  const after = isValid ? (sum + d) / (n + 1) : n - 1 > 0 ? (sum - d) / (n - 1) : null;
  return before === null || after === null ? null : after - before;
}

export interface RevisionInputs {
  readonly dataset: Dataset;
  readonly policy: Policy;
  readonly ctx: EvaluationContext;
  /** The evaluation of `dataset` itself (the latest revision): reused, not recomputed. */
  readonly evaluation: Evaluation;
}

export function verdictByReviewRevision(inp: RevisionInputs): VerdictByReviewRevision {
  const { dataset, policy, ctx } = inp;
  const all = dataset.reviewRevisions;
  const evaluated = all.slice(Math.max(0, all.length - MAX_REVISIONS_EVALUATED));
  // dₜ's ends for tasks of C, NaN elsewhere; a broken task is outside T: the caller never counts it in V.
  const d = taskIntervals(taskColumns(dataset), policy.infra_errors);
  const rows: RevisionVerdict[] = [];
  const changes: RevisionChange[] = [];
  let prev: { codes: Uint8Array; e: RevisionFigures | null; conflicts: number } | null = null;
  for (let k = 0; k < evaluated.length; k++) {
    const revision = evaluated[k] as number;
    const latest = k === evaluated.length - 1;
    const labels = latest
      ? { codes: currentLabelCodes(dataset), conflictCount: 0 }
      : labelsAsOfReview(dataset, revision);
    const { codes, conflictCount } = labels;
    let e: RevisionFigures | null;
    if (latest) e = figuresOfEvaluation(inp.evaluation);
    else if (conflictCount > 0) e = null;
    else if (prev !== null && prev.conflicts === 0 && sameLabels(prev.codes, codes)) e = prev.e;
    else e = figuresOfCore(verdictOnly(dataset, policy, ctx, withLabels(taskColumns(dataset), codes)));
    rows.push(revisionRow(revision, codes, e, conflictCount));
    if (prev !== null)
      changes.push(changeBetween(dataset, d, evaluated[k - 1] as number, revision, prev, { codes, e }));
    prev = { codes, e, conflicts: conflictCount };
  }
  const last = changes[changes.length - 1];
  // Only a revision that changed an earlier label is a reclassification (first labels are not).
  const reclassified = last !== undefined && last.tasks_changed > 0 ? last : undefined;
  return {
    revisions_present: all.length,
    revisions: rows,
    changes,
    latest_reclassification:
      reclassified === undefined
        ? null
        : {
            revision: reclassified.to_revision,
            tasks_changed: reclassified.tasks_changed,
            verdict_from: reclassified.verdict_before,
            verdict_to: reclassified.verdict_after,
            verdict_changed: reclassified.verdict_before !== reclassified.verdict_after,
          },
  };
}

interface Moved {
  readonly index: number;
  readonly from: Validity;
  readonly to: Validity;
  readonly move: number | null;
}

const listedSize = (move: number | null): number => (move === null ? -1 : Math.abs(move));

/** Largest |margin move| first (an undefined move last), then dataset order. */
function listedBefore(x: Moved, y: Moved): boolean {
  const sx = listedSize(x.move);
  const sy = listedSize(y.move);
  return sx > sy || (sx === sy && x.index < y.index);
}

/**
 * Insert the moved task into the sorted top list (at most MAX_TASKS_PER_CHANGE), as a full sort
 * then a cut would. Tasks come in dataset order, so one no larger than the last listed is out.
 */
function keepTop(top: Moved[], index: number, from: Validity, to: Validity, move: number | null): void {
  const worst = top[top.length - 1];
  if (
    top.length === MAX_TASKS_PER_CHANGE &&
    worst !== undefined &&
    !(listedSize(move) > listedSize(worst.move))
  )
    return;
  const m = { index, from, to, move };
  let at = top.length;
  while (at > 0 && listedBefore(m, top[at - 1] as Moved)) at--;
  top.splice(at, 0, m);
  if (top.length > MAX_TASKS_PER_CHANGE) top.pop();
}

function changeBetween(
  dataset: Dataset,
  d: TaskIntervals,
  from: number,
  to: number,
  before: { codes: Uint8Array; e: RevisionFigures | null },
  after: { codes: Uint8Array; e: RevisionFigures | null },
): RevisionChange {
  const n = before.e?.commonValidTasks ?? 0;
  const margin = before.e?.margin ?? null;
  const sum = margin === null ? 0 : margin * n;
  // Counted by (from, to) code and the listed tasks kept as a bounded top list: a change can
  // relabel most of 10⁶ tasks, so no per-task string or object is made.
  const transitions = new Int32Array(VALIDITIES.length * VALIDITIES.length);
  const moved: Moved[] = [];
  let changed = 0;
  let firstLabels = 0;
  for (let i = 0; i < before.codes.length; i++) {
    const ca = before.codes[i] as number;
    const cb = after.codes[i] as number;
    if (ca === cb) continue;
    // A label given to an unreviewed task (an importer writes every task unreviewed at r0) is a
    // first label, not a reclassification: counted apart, never listed or made a headline.
    if (ca === UNREVIEWED_CODE) {
      firstLabels++;
      continue;
    }
    changed++;
    const t = ca * VALIDITIES.length + cb;
    transitions[t] = (transitions[t] as number) + 1;
    const a = validityOfCode(ca);
    const b = validityOfCode(cb);
    const move = margin === null ? null : marginMove(sum, n, d.low[i] as number, d.high[i] as number, a, b);
    keepTop(moved, i, a, b, move);
  }
  const counted: { change: string; tasks: number }[] = [];
  transitions.forEach((tasks, k) => {
    if (tasks === 0) return;
    const a = validityOfCode(Math.floor(k / VALIDITIES.length));
    const b = validityOfCode(k % VALIDITIES.length);
    counted.push({ change: `${a} → ${b}`, tasks });
  });
  return {
    from_revision: from,
    to_revision: to,
    tasks_changed: changed,
    first_labels: firstLabels,
    transitions: counted.sort((x, y) => y.tasks - x.tasks || compareCodeUnits(x.change, y.change)),
    margin_before: margin,
    margin_after: after.e?.margin ?? null,
    verdict_before: before.e?.verdict ?? null,
    verdict_after: after.e?.verdict ?? null,
    tasks: moved.map((m) => {
      return {
        dataset_revision: dataset.tasks.datasetRevision(m.index),
        task_id: dataset.tasks.taskId(m.index),
        from: m.from,
        to: m.to,
        margin_move: m.move,
      };
    }),
  };
}

/** The headline sentence when the latest reclassification changed the verdict, else null. */
export function reclassificationHeadline(v: VerdictByReviewRevision): string | null {
  const r = v.latest_reclassification;
  if (r === null || !r.verdict_changed) return null;
  const tasks = plural(r.tasks_changed, "task");
  const from = r.verdict_from ?? "undecided (labels in conflict)";
  const to = r.verdict_to ?? "undecided (labels in conflict)";
  return `Review revision ${r.revision} reclassified ${tasks}; the verdict moved from ${from} to ${to}.`;
}
