import { describe, expect, it } from "vitest";

import {
  changesSinceLastRun,
  RUN_LIST_MAX,
  RUN_MOVERS_MAX,
} from "../../src/core/run-history/changes-since-last-run.js";
import { prng } from "../helpers/prng.js";
import { counts, type CountsSpec } from "../stats/dataset-builder.js";
import {
  dataset,
  EXAMPLE_AFTER,
  EXAMPLE_BEFORE,
  EXAMPLE_CURRENT,
  EXAMPLE_PREVIOUS,
  report,
  summary,
  type Spec,
} from "./since-fixture.js";

describe("changesSinceLastRun: the worked example of docs/spec.md §3.7", () => {
  const previous = dataset(EXAMPLE_PREVIOUS);
  const current = dataset(EXAMPLE_CURRENT);
  const before = EXAMPLE_BEFORE;
  const after = EXAMPLE_AFTER;
  const changes = changesSinceLastRun(
    { summary: before, dataset: previous, unavailable: null },
    { dataset: current, report: report(), summary: after },
  );

  it("says which inputs changed, the verdict and each figure's change", () => {
    expect(changes.previous).toBe(before);
    expect(changes.unavailable).toBeNull();
    expect(changes.inputs_changed).toEqual({ results: true, reviews: true, policy: false });
    expect(changes.models_changed).toBe(false);
    expect(changes.verdict).toEqual({ before: "unresolved", after: "accept", changed: true });
    expect(changes.margin).toEqual({ before: 1 / 3, after: 0.2, change: 0.2 - 1 / 3 });
    expect(changes.lcb).toEqual({ before: -0.1, after: 0.05, change: 0.05 - -0.1 });
    expect(changes.ucb).toEqual({ before: 0.7, after: 0.35, change: 0.35 - 0.7 });
    expect(changes.margin_low).toEqual({ before: 0.25, after: 0.2, change: 0.2 - 0.25 });
    expect(changes.margin_high).toEqual({ before: 0.5, after: 0.2, change: 0.2 - 0.5 });
  });

  it("lists each model's flipped tasks by direction, and counts tasks in one run only", () => {
    expect(changes.candidate).toEqual({
      model: "cand",
      pass_to_fail_count: 1,
      pass_to_fail: [{ dataset_revision: "rev1", task_id: "t1", before: 1, after: 0 }],
      fail_to_pass_count: 1,
      fail_to_pass: [{ dataset_revision: "rev1", task_id: "t2", before: 0, after: 1 }],
      only_previous: 0,
      only_current: 1,
    });
    expect(changes.baseline).toEqual({
      model: "base",
      pass_to_fail_count: 1,
      pass_to_fail: [{ dataset_revision: "rev1", task_id: "t3", before: 1, after: 0 }],
      fail_to_pass_count: 0,
      fail_to_pass: [],
      only_previous: 0,
      only_current: 1,
    });
  });

  it("lists the label that changed with its review revision", () => {
    expect(changes.labels).toEqual({
      compared: "readings",
      count: 1,
      tasks: [
        { dataset_revision: "rev1", task_id: "t4", before: "disputed", after: "valid", review_revision: 2 },
      ],
    });
  });

  it("lists the tasks that moved Δ̂, |change| first, ties in dataset order; they add up to Δ̂'s change", () => {
    // Before: V = {t1, t2, t3}, N_v = 3, Δ̂ = 1/3. After: V = {t1..t5}, N_v = 5, Δ̂ = 1/5.
    expect(changes.movers).toEqual({
      count: 4,
      tasks: [
        {
          dataset_revision: "rev1",
          task_id: "t1",
          d_before: 1,
          d_after: 0,
          contribution_before: 1 / 3,
          contribution_after: 0,
          change: -1 / 3,
        },
        {
          dataset_revision: "rev1",
          task_id: "t2",
          d_before: 0,
          d_after: 1,
          contribution_before: 0,
          contribution_after: 0.2,
          change: 0.2,
        },
        {
          dataset_revision: "rev1",
          task_id: "t3",
          d_before: 0,
          d_after: 1,
          contribution_before: 0,
          contribution_after: 0.2,
          change: 0.2,
        },
        {
          dataset_revision: "rev1",
          task_id: "t4",
          d_before: null,
          d_after: -1,
          contribution_before: 0,
          contribution_after: -0.2,
          change: -0.2,
        },
      ],
    });
    const sum = (changes.movers?.tasks ?? []).reduce((s, m) => s + m.change, 0);
    expect(sum).toBeCloseTo(0.2 - 1 / 3, 15);
  });
});

describe("changesSinceLastRun: scores of several attempts, and infra errors", () => {
  it("a task's pass rate that rises is fail_to_pass with the exact rates; count_as_fail counts infra errors", () => {
    const previous = dataset([{ id: "t1", a: { pass: 2, fail: 2 }, b: { pass: 1, infra: 1 } }]);
    const current = dataset([{ id: "t1", a: { pass: 3, fail: 1 }, b: { pass: 1, fail: 1 } }]);
    const run = (infra: "exclude" | "count_as_fail") =>
      changesSinceLastRun(
        { summary: summary(), dataset: previous, unavailable: null },
        { dataset: current, report: report(infra), summary: summary() },
      );
    const exclude = run("exclude");
    expect(exclude.candidate?.fail_to_pass).toEqual([
      { dataset_revision: "rev1", task_id: "t1", before: 0.5, after: 0.75 },
    ]);
    // Baseline: 1 of 1 counted before (the infra error is excluded), 1 of 2 now.
    expect(exclude.baseline?.pass_to_fail).toEqual([
      { dataset_revision: "rev1", task_id: "t1", before: 1, after: 0.5 },
    ]);
    expect(exclude.movers?.tasks.map((m) => [m.d_before, m.d_after, m.change])).toEqual([[-0.5, 0.25, 0.75]]);
    // Under count_as_fail the infra error is a fail: 1 of 2 both times, no flip.
    const asFail = run("count_as_fail");
    expect(asFail.baseline?.pass_to_fail_count).toBe(0);
    expect(asFail.candidate?.fail_to_pass_count).toBe(1);
  });

  it("a task without a counted attempt in one run is only counted, on that side", () => {
    const previous = dataset([
      { id: "t1", a: "pass", b: "pass" },
      { id: "t2", a: "infra", b: "pass" },
    ]);
    const current = dataset([{ id: "t2", a: "pass", b: "pass" }]);
    const c = changesSinceLastRun(
      { summary: summary(), dataset: previous, unavailable: null },
      { dataset: current, report: report(), summary: summary() },
    );
    expect(c.candidate).toMatchObject({
      pass_to_fail_count: 0,
      fail_to_pass_count: 0,
      only_previous: 1,
      only_current: 1,
    });
    expect(c.baseline).toMatchObject({
      pass_to_fail_count: 0,
      fail_to_pass_count: 0,
      only_previous: 1,
      only_current: 0,
    });
  });
});

describe("changesSinceLastRun: bounded lists, complete counts", () => {
  it("lists 100 flips and 10 movers of 150, and counts all 150", () => {
    const ids = Array.from({ length: 150 }, (_, k) => `t${String(k).padStart(3, "0")}`);
    const previous = dataset(ids.map((id) => ({ id, a: "fail", b: "fail" })));
    const current = dataset(ids.map((id) => ({ id, a: "pass", b: "fail" })));
    const c = changesSinceLastRun(
      { summary: summary(), dataset: previous, unavailable: null },
      { dataset: current, report: report(), summary: summary() },
    );
    expect([RUN_LIST_MAX, RUN_MOVERS_MAX]).toEqual([100, 10]);
    expect(c.candidate?.fail_to_pass_count).toBe(150);
    expect(c.candidate?.fail_to_pass.length).toBe(RUN_LIST_MAX);
    expect(c.candidate?.fail_to_pass.at(-1)?.task_id).toBe("t099");
    expect(c.movers?.count).toBe(150);
    expect(c.movers?.tasks.map((m) => m.task_id)).toEqual(ids.slice(0, RUN_MOVERS_MAX));
    expect(c.movers?.tasks[0]?.change).toBe(1 / 150);
  });
});

describe("changesSinceLastRun: the previous run's inputs unavailable", () => {
  const current = dataset([
    {
      id: "t1",
      a: "pass",
      b: "fail",
      labels: [
        [1, "disputed"],
        [2, "valid"],
      ],
    },
    {
      id: "t2",
      a: "pass",
      b: "fail",
      labels: [
        [1, "valid"],
        [2, "valid"],
      ],
    },
    { id: "t3", a: "pass", b: "fail", labels: [[2, "broken"]] },
    { id: "t4", a: "pass", b: "fail", labels: [[0, "valid"]] },
  ]);
  const run = (max: number | null) =>
    changesSinceLastRun(
      {
        summary: summary({ review_revision_max: max, margin: 0.5 }),
        dataset: null,
        unavailable: "the previous results are not tracked in the repository",
      },
      { dataset: current, report: report(), summary: summary({ review_revision_max: 2, margin: 1 }) },
    );

  it("says why, still gives the figures, and takes the labels from the review revisions above the previous run's", () => {
    const c = run(1);
    expect(c.unavailable).toBe("the previous results are not tracked in the repository");
    expect(c.margin).toEqual({ before: 0.5, after: 1, change: 0.5 });
    expect(c.baseline).toBeNull();
    expect(c.candidate).toBeNull();
    expect(c.movers).toBeNull();
    // t2 was re-labelled with the same label; t4's label is older than revision 1.
    expect(c.labels).toEqual({
      compared: "review_revisions",
      count: 2,
      tasks: [
        { dataset_revision: "rev1", task_id: "t1", before: "disputed", after: "valid", review_revision: 2 },
        {
          dataset_revision: "rev1",
          task_id: "t3",
          before: "unreviewed",
          after: "broken",
          review_revision: 2,
        },
      ],
    });
  });

  it("a previous run without labels: every labelled task changed from unreviewed", () => {
    expect(run(null).labels.tasks.map((l) => [l.task_id, l.before, l.after])).toEqual([
      ["t1", "unreviewed", "valid"],
      ["t2", "unreviewed", "valid"],
      ["t3", "unreviewed", "broken"],
      ["t4", "unreviewed", "valid"],
    ]);
  });

  it("a missing reason is named", () => {
    const c = changesSinceLastRun(
      { summary: summary(), dataset: null, unavailable: null },
      { dataset: current, report: report(), summary: summary() },
    );
    expect(c.unavailable).toBe("the previous run's inputs were not given");
  });
});

describe("changesSinceLastRun: the movers add up to Δ̂'s change (property, brute force)", () => {
  it("on 500 random pairs of runs of up to 8 tasks", () => {
    const next = prng(30);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
    const attempts = (): CountsSpec | undefined =>
      next() < 0.1
        ? undefined
        : { pass: Math.floor(next() * 3), fail: Math.floor(next() * 3), infra: Math.floor(next() * 2) };
    const run = (): Spec[] =>
      ["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"]
        .filter(() => next() < 0.85)
        .map((id) => ({
          id,
          a: attempts(),
          b: attempts(),
          labels: [[1, pick(["valid", "valid", "valid", "disputed", "broken"] as const)]],
        }));
    // Brute force: Δ̂ = Σ_V d / N_v straight from the counts.
    const marginOf = (specs: readonly Spec[]): number | null => {
      let sum = 0;
      let nv = 0;
      for (const s of specs) {
        if (s.labels?.[0]?.[1] !== "valid" || s.a === undefined || s.b === undefined) continue;
        const a = counts(s.a);
        const b = counts(s.b);
        if (a.pass + a.fail === 0 || b.pass + b.fail === 0) continue;
        sum += a.pass / (a.pass + a.fail) - b.pass / (b.pass + b.fail);
        nv++;
      }
      return nv === 0 ? null : sum / nv;
    };
    let checked = 0;
    for (let k = 0; k < 500; k++) {
      const p = run();
      const c = run();
      const before = marginOf(p);
      const after = marginOf(c);
      const changes = changesSinceLastRun(
        { summary: summary(), dataset: dataset(p), unavailable: null },
        { dataset: dataset(c), report: report(), summary: summary() },
      );
      const movers = changes.movers;
      expect(movers?.tasks.length).toBe(movers?.count);
      const total = (movers?.tasks ?? []).reduce((s, m) => s + m.change, 0);
      if (before !== null && after !== null) {
        expect(total).toBeCloseTo(after - before, 12);
        checked++;
      }
      for (const m of movers?.tasks ?? [])
        expect(m.change).toBe(m.contribution_after - m.contribution_before);
    }
    expect(checked).toBeGreaterThan(300);
  });
});
