/**
 * The cheap verdict by review revision (labels as one byte a task, given to the evaluation as its
 * label column: no record rebuilt) equals evaluate() on the dataset as of each revision
 * (viewAsOfReview), on random small exports with several revisions, re-reviews and label conflicts.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { evaluate, evaluateVerdict } from "../../src/core/decision/evaluate.js";
import {
  recordTable,
  tableRecords,
  type Dataset,
  type ReviewEvent,
  type TaskRecord,
  type Validity,
} from "../../src/core/model.js";
import { viewAsOfReview } from "../../src/core/history/as-of-review.js";
import { labelsAsOfReview, validityOfCode } from "../../src/core/history/labels-as-of.js";
import { validityCode } from "../../src/core/model.js";
import { taskColumns, withLabels } from "../../src/core/stats/task-columns.js";
import { verdictByReviewRevision } from "../../src/core/history/verdict-by-revision.js";
import { buildDataset, buildPolicy, type TaskSpec } from "../stats/dataset-builder.js";

const ctx = { canary: null, expired: false } as const;
const VALIDITY = fc.constantFrom<Validity>("valid", "valid", "disputed", "unreviewed", "broken");
const countsArb = fc.record({ pass: fc.nat(2), fail: fc.nat(2), infra: fc.nat(1) });
const eventArb = fc.record({ revision: fc.integer({ min: 1, max: 5 }), validity: VALIDITY });
const taskArb = fc.record({
  spec: fc.record({ validity: VALIDITY, a: countsArb, b: countsArb }),
  events: fc.array(eventArb, { maxLength: 4 }),
});

/**
 * A dataset whose tasks carry the given label histories, as the reader leaves them: ascending by
 * revision, the effective label the one at the highest revision. Two different labels at a lower
 * revision are kept (a conflict as of that revision); at the highest they are made equal (the
 * reader refuses that).
 */
function withHistories(
  tasks: readonly { spec: TaskSpec; events: { revision: number; validity: Validity }[] }[],
): Dataset {
  const base = buildDataset(tasks.map((t, i) => ({ ...t.spec, id: `t${String(i).padStart(3, "0")}` })));
  let line = 0;
  const revisions = new Set<number>();
  const records = tableRecords(base.tasks).map((task, i): TaskRecord => {
    const events = [...(tasks[i]?.events ?? [])].sort((x, y) => x.revision - y.revision);
    const top = events[events.length - 1];
    const history: ReviewEvent[] = events.map((e) => {
      revisions.add(e.revision);
      const validity = top !== undefined && e.revision === top.revision ? top.validity : e.validity;
      return {
        revision: e.revision,
        validity,
        source: { file: "reviews.jsonl", line: ++line },
        evidence: [],
      };
    });
    return top === undefined
      ? { ...task, validity: "unreviewed", reviewRevision: -1, history }
      : { ...task, validity: top.validity, reviewRevision: top.revision, history };
  });
  return { ...base, tasks: recordTable(records), reviewRevisions: [...revisions].sort((x, y) => x - y) };
}

describe("labels as of a review revision", () => {
  it("equal viewAsOfReview's labels and conflicts, and evaluate the same", () => {
    fc.assert(
      fc.property(
        fc.array(taskArb, { minLength: 1, maxLength: 14 }),
        fc.integer({ min: 0, max: 6 }),
        (tasks, n) => {
          const dataset = withHistories(tasks);
          const view = viewAsOfReview(dataset, n);
          const labels = labelsAsOfReview(dataset, n);
          expect(labels.conflictCount).toBe(view.conflictCount);
          expect([...labels.codes].map(validityOfCode)).toEqual(
            tableRecords(view.dataset.tasks).map((t) => t.validity),
          );
          if (labels.conflictCount > 0) return;
          // The labels as a column, no record copied: the same verdict and figures as the
          // records as of n give.
          const policy = buildPolicy();
          expect(
            evaluateVerdict(dataset, policy, ctx, withLabels(taskColumns(dataset), labels.codes)),
          ).toEqual(evaluateVerdict(view.dataset, policy, ctx));
        },
      ),
      { numRuns: 300, seed: 14 },
    );
  });

  it("give a verdict by revision whose rows and changes are evaluate() of each as-of dataset", () => {
    let conflicted = 0;
    let changedVerdict = 0;
    fc.assert(
      fc.property(
        fc.array(taskArb, { minLength: 1, maxLength: 14 }),
        fc.constantFrom<"exact" | "pessimistic">("exact", "pessimistic"),
        (tasks, bound) => {
          const dataset = withHistories(tasks);
          const policy = buildPolicy({ validity_bound: bound });
          const evaluation = evaluate(dataset, policy, ctx);
          const v = verdictByReviewRevision({ dataset, policy, ctx, evaluation });
          expect(v.revisions.map((r) => r.revision)).toEqual(dataset.reviewRevisions);
          const views = dataset.reviewRevisions.map((n) => viewAsOfReview(dataset, n));
          v.revisions.forEach((row, k) => {
            const view = views[k];
            if (view === undefined) throw new Error("no view");
            const e = view.conflictCount > 0 ? null : evaluate(view.dataset, policy, ctx);
            if (e === null) conflicted++;
            const labels = { valid: 0, disputed: 0, unreviewed: 0, broken: 0 };
            for (const t of tableRecords(view.dataset.tasks)) labels[t.validity]++;
            const c = e?.comparison;
            expect(row).toEqual({
              revision: row.revision,
              labels,
              label_conflicts: view.conflictCount,
              common_valid_tasks: c?.common_valid_tasks ?? null,
              unresolved_tasks: c?.unresolved_tasks ?? null,
              margin: c?.margin ?? null,
              margin_lower: c?.margin_lower ?? null,
              margin_upper: c?.margin_upper ?? null,
              lcb: c?.lcb ?? null,
              ucb: c?.ucb ?? null,
              lcb_bound_kind: c?.lcb_bound_kind ?? null,
              ucb_bound_kind: c?.ucb_bound_kind ?? null,
              verdict: e?.verdict ?? null,
            });
          });
          v.changes.forEach((change, k) => {
            const [before, after] = [views[k], views[k + 1]];
            if (before === undefined || after === undefined) throw new Error("no view");
            const afterTasks = tableRecords(after.dataset.tasks);
            const differ = tableRecords(before.dataset.tasks).filter(
              (t, i) => afterTasks[i]?.validity !== t.validity,
            );
            // A label given to an unreviewed task is a first label, not a reclassification.
            const moved = differ.filter((t) => t.validity !== "unreviewed");
            expect(change.tasks_changed).toBe(moved.length);
            expect(change.first_labels).toBe(differ.length - moved.length);
            expect(change.tasks.map((t) => t.task_id).sort()).toEqual(moved.map((t) => t.taskId).sort());
            const verdictOf = (x: typeof before) =>
              x.conflictCount > 0 ? null : evaluate(x.dataset, policy, ctx).verdict;
            expect([change.verdict_before, change.verdict_after]).toEqual([
              verdictOf(before),
              verdictOf(after),
            ]);
            if (change.verdict_before !== change.verdict_after) changedVerdict++;
          });
        },
      ),
      { numRuns: 300, seed: 15 },
    );
    // The random exports do reach the cases that matter.
    expect(conflicted).toBeGreaterThan(0);
    expect(changedVerdict).toBeGreaterThan(0);
  });

  it("lists the tasks that moved the margin most, as evaluating each change alone ranks them", () => {
    fc.assert(
      fc.property(fc.array(taskArb, { minLength: 30, maxLength: 45 }), (tasks) => {
        // Revision 1 labels every task; revision 2 relabels most of them (more than are listed).
        const relabelled = tasks.map((t, i) => ({
          ...t,
          events: [
            { revision: 1, validity: t.events[0]?.validity ?? "valid" },
            ...(i % 5 === 4 ? [] : [{ revision: 2, validity: t.spec.validity ?? "valid" }]),
          ],
        }));
        const dataset = withHistories(relabelled);
        const policy = buildPolicy();
        const evaluation = evaluate(dataset, policy, ctx);
        const change = verdictByReviewRevision({ dataset, policy, ctx, evaluation }).changes.at(-1);
        if (change === undefined) throw new Error("no change");
        const before = viewAsOfReview(dataset, 1).dataset;
        const margin = evaluate(before, policy, ctx).comparison.margin;
        const beforeTasks = tableRecords(before.tasks);
        const alone = tableRecords(dataset.tasks).flatMap((t, i) => {
          const from = beforeTasks[i]?.validity;
          if (from === undefined || from === t.validity || from === "unreviewed") return [];
          const one = {
            ...before,
            tasks: recordTable(beforeTasks.map((u, j) => (j === i ? { ...u, validity: t.validity } : u))),
          };
          const after = evaluate(one, policy, ctx).comparison.margin;
          const move = margin === null || after === null ? null : after - margin;
          return [{ i, id: t.taskId, move, size: move === null ? -1 : Math.round(Math.abs(move) * 1e9) }];
        });
        expect(change.tasks_changed).toBe(alone.length);
        expect(change.tasks).toHaveLength(Math.min(20, alone.length));
        const byId = new Map(alone.map((a) => [a.id, a]));
        const size = (m: number | null): number => (m === null ? -1 : Math.abs(m));
        change.tasks.forEach((t, k) => {
          const a = byId.get(t.task_id);
          if (a === undefined) throw new Error(`${t.task_id} did not change`);
          if (a.move === null) expect(t.margin_move).toBeNull();
          else expect(t.margin_move).toBeCloseTo(a.move, 12);
          const next = change.tasks[k + 1];
          if (next === undefined) return;
          // Largest move first; equal moves in dataset order.
          const [sx, sy] = [size(t.margin_move), size(next.margin_move)];
          expect(sx > sy || (sx === sy && t.task_id < next.task_id)).toBe(true);
        });
        const last = change.tasks.at(-1);
        const cut = last === undefined ? -1 : (byId.get(last.task_id)?.size ?? -1);
        const listed = new Set(change.tasks.map((t) => t.task_id));
        for (const a of alone) if (!listed.has(a.id)) expect(a.size).toBeLessThanOrEqual(cut);
      }),
      { numRuns: 60, seed: 20 },
    );
  });

  it("codes round-trip every validity", () => {
    for (const v of ["unreviewed", "valid", "broken", "disputed"] as const)
      expect(validityOfCode(validityCode(v))).toBe(v);
    expect(() => validityOfCode(9)).toThrow(/no validity/);
  });
});
