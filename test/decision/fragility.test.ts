/**
 * Fragility (SPEC §4): review fragility for accept/reject, resolution distance for unresolved.
 * Oracles: SPEC §6 example 5 (review fragility 7), hand computations, and brute force with the
 * real evaluate() over COUNTS of identical tasks (tasks with the same spec are interchangeable, so
 * trying every count of each spec covers every subset).
 */
import { describe, expect, it } from "vitest";
import { evaluate } from "../../src/core/decision/evaluate.js";
import type { EvaluationContext } from "../../src/core/decision/evaluation-types.js";
import {
  analyseFragility,
  computeFragility,
  FRAGILITY_WORK_BUDGET,
  MAX_FRAGILITY_TASKS,
  relabel,
  type Move,
} from "../../src/core/decision/fragility.js";
import { tableRecords, type Dataset, type Validity } from "../../src/core/model.js";
import type { Policy } from "../../src/core/policy/policy-types.js";
import type { Verdict } from "../../src/core/verdict-types.js";
import { buildDataset, buildPolicy, repeat, type TaskSpec } from "../stats/dataset-builder.js";

const ctx: EvaluationContext = { canary: null, expired: false };

/** A pool of identical tasks (dataset indices) and the label changes allowed for them. */
interface Pool {
  readonly tasks: readonly number[];
  readonly to: readonly Validity[];
}

/** Indices of the tasks whose id is in [from, from + count) of the builder's t00000… numbering. */
function ids(ds: Dataset, from: number, count: number): number[] {
  const out: number[] = [];
  tableRecords(ds.tasks).forEach((t, i) => {
    const n = Number(t.taskId.slice(1));
    if (n >= from && n < from + count) out.push(i);
  });
  return out;
}

/**
 * Fewest changes, by brute force over counts per pool and destination (levels 1..maxLevel, real
 * evaluate), after which `done(verdict)` holds; null when no level up to maxLevel does it.
 */
function bruteByCounts(
  ds: Dataset,
  policy: Policy,
  c: EvaluationContext,
  pools: readonly Pool[],
  maxLevel: number,
  done: (v: Verdict) => boolean,
): number | null {
  const slots = pools.flatMap((p, pi) => p.to.map((to) => ({ pi, to })));
  const counts = new Array<number>(slots.length).fill(0);
  const used = new Array<number>(pools.length).fill(0);
  const test = (): boolean => {
    const moves: Move[] = [];
    const taken = new Array<number>(pools.length).fill(0);
    slots.forEach((s, j) => {
      const pool = pools[s.pi] as Pool;
      for (let x = 0; x < (counts[j] as number); x++) {
        moves.push({ index: pool.tasks[taken[s.pi] as number] as number, to: s.to as "valid" | "broken" });
        taken[s.pi] = (taken[s.pi] as number) + 1;
      }
    });
    return done(evaluate(relabel(ds, moves), policy, c).verdict);
  };
  const rec = (j: number, rem: number): boolean => {
    if (rem === 0) return test();
    if (j === slots.length) return false;
    const s = slots[j] as (typeof slots)[number];
    const cap = Math.min(rem, (pools[s.pi] as Pool).tasks.length - (used[s.pi] as number));
    for (let x = cap; x >= 0; x--) {
      counts[j] = x;
      used[s.pi] = (used[s.pi] as number) + x;
      const ok = rec(j + 1, rem - x);
      used[s.pi] = (used[s.pi] as number) - x;
      counts[j] = 0;
      if (ok) return true;
    }
    return false;
  };
  for (let level = 1; level <= maxLevel; level++) if (rec(0, level)) return level;
  return null;
}

/** SPEC §6 example 5: N_v = 520 (A only 70, B only 40, ties 410); D = 20 (A only 2, B only 6, ties 12). */
function example5(extra: readonly TaskSpec[] = []): TaskSpec[] {
  return [
    ...repeat(70, { validity: "valid", a: "pass", b: "fail" }), // t00000–t00069
    ...repeat(40, { validity: "valid", a: "fail", b: "pass" }), // t00070–t00109
    ...repeat(410, { validity: "valid", a: "pass", b: "pass" }), // t00110–t00519
    ...repeat(2, { validity: "disputed", a: "pass", b: "fail" }), // t00520–t00521
    ...repeat(6, { validity: "disputed", a: "fail", b: "pass" }), // t00522–t00527
    ...repeat(12, { validity: "disputed", a: "fail", b: "fail" }), // t00528–t00539
    ...extra,
  ];
}

describe("SPEC §6 example 5: review fragility 7", () => {
  const ds = buildDataset(example5());
  const policy = buildPolicy();
  const ev = evaluate(ds, policy, ctx);
  const a = analyseFragility(ds, policy, ctx, ev);

  it("accepts, and seven valid tasks only the candidate passes turning broken make it unresolved", () => {
    expect(ev.verdict).toBe("accept");
    expect(ev.comparison.lcb).toBeCloseTo(0.011746, 6);
    const f = a.fragility;
    expect(f.review_fragility).toBe(7);
    expect(f.review_fragility_share).toBe(7 / 520);
    expect(f.resolution_distance).toBeNull();
    expect(f.fragility_exact).toBe(true);
    expect(f.fragility_unbounded).toBe(false);
    expect(f.fragility_tasks).toEqual(
      [0, 1, 2, 3, 4, 5, 6].map((n) => ({
        dataset_revision: "rev1",
        task_id: `t0000${n}`,
        change: "valid → broken",
      })),
    );
    const after = evaluate(relabel(ds, a.moves), policy, ctx);
    expect(after.verdict).toBe("unresolved");
    expect(after.comparison.lcb).not.toBeNull();
    expect(after.comparison.lcb as number).toBeLessThanOrEqual(0);
    expect(computeFragility(ds, policy, ctx, ev)).toEqual(f);
  });

  it("no six relabellings of any kind change it (brute force over counts, real evaluate)", () => {
    // Valid → broken for A-only, B-only and tie tasks; there are no broken tasks to revalidate.
    const pools: Pool[] = [
      { tasks: ids(ds, 0, 70), to: ["broken"] },
      { tasks: ids(ds, 70, 40), to: ["broken"] },
      { tasks: ids(ds, 110, 410), to: ["broken"] },
    ];
    expect(bruteByCounts(ds, policy, ctx, pools, 7, (v) => v !== "accept")).toBe(7);
  });

  it("the open labels alone cannot change it (every resolution of the 20 open tasks, real evaluate)", () => {
    const pools: Pool[] = [
      { tasks: ids(ds, 520, 2), to: ["valid", "broken"] },
      { tasks: ids(ds, 522, 6), to: ["valid", "broken"] },
      { tasks: ids(ds, 528, 12), to: ["valid", "broken"] },
    ];
    // Every count vector (≤ 20 resolutions) keeps the accept: 6 · 28 · 91 combinations.
    let combos = 0;
    const at = (pool: number, x: number): Move[] =>
      (pools[pool] as Pool).tasks.slice(0, x).map((index) => ({ index, to: "valid" as const }));
    const bt = (pool: number, from: number, x: number): Move[] =>
      (pools[pool] as Pool).tasks.slice(from, from + x).map((index) => ({ index, to: "broken" as const }));
    for (let v1 = 0; v1 <= 2; v1++)
      for (let b1 = 0; v1 + b1 <= 2; b1++)
        for (let v2 = 0; v2 <= 6; v2++)
          for (let b2 = 0; v2 + b2 <= 6; b2++)
            for (const [v3, b3] of [
              [0, 0],
              [12, 0],
              [0, 12],
              [6, 6],
              [6, 0],
              [0, 6],
              [3, 9],
            ] as const) {
              const moves = [...at(0, v1), ...bt(0, v1, b1), ...at(1, v2), ...bt(1, v2, b2)];
              moves.push(...at(2, v3), ...bt(2, v3, b3));
              expect(evaluate(relabel(ds, moves), policy, ctx).verdict).toBe("accept");
              combos++;
            }
    expect(combos).toBe(6 * 28 * 7);
  });
});

describe("review fragility: other conditions", () => {
  it("common_valid_tasks binds first: 520 → 514 fails '>= 515' (k = 6 < 7)", () => {
    const ds = buildDataset(example5());
    const policy = buildPolicy({ common_valid_tasks: ">= 515" });
    const ev = evaluate(ds, policy, ctx);
    expect(ev.verdict).toBe("accept");
    const f = computeFragility(ds, policy, ctx, ev);
    expect(f.review_fragility).toBe(6);
    expect(f.review_fragility_share).toBe(6 / 520);
    expect(f.fragility_exact).toBe(true);
    // The most harmful tasks go first: those only the candidate passes.
    expect(f.fragility_tasks.map((t) => t.task_id)).toEqual([
      "t00000",
      "t00001",
      "t00002",
      "t00003",
      "t00004",
      "t00005",
    ]);
  });

  it("the candidate's infra-error rate binds: removing 5 clean attempts lifts 5/545 to ≥ 0.925%", () => {
    // 5 valid tasks the candidate lost to infra (not common): ρ_A = 5/545 = 0.917% < 0.925%.
    // Breaking m clean valid tasks gives 5/(545 − m) ≥ 0.925% once m ≥ 545 − 540.54 → m = 5.
    const ds = buildDataset(example5(repeat(5, { validity: "valid", a: "infra", b: "pass" })));
    const policy = buildPolicy({ infra_error_rate: "< 0.925%" });
    const ev = evaluate(ds, policy, ctx);
    expect(ev.verdict).toBe("accept");
    expect(ev.models.candidate.infra_error_rate).toBeCloseTo(5 / 545, 12);
    const a = analyseFragility(ds, policy, ctx, ev);
    expect(a.fragility.review_fragility).toBe(5);
    expect(a.fragility.fragility_exact).toBe(true);
    const after = evaluate(relabel(ds, a.moves), policy, ctx);
    expect(after.verdict).toBe("unresolved");
    expect(after.checks.find((c) => c.id === "infra_error_rate_candidate")?.passed).toBe(false);
  });

  it("the missing fraction binds: 10 missing of 550; breaking 1 present task reaches 10/549 ≥ 1.82%", () => {
    // Candidate missing on 10 valid tasks: |T| = 540 + 10, 10/550 = 1.8182% < 1.82%;
    // 10/549 = 1.8215% ≥ 1.82%.
    const ds = buildDataset(example5(repeat(10, { validity: "valid", b: "pass" })));
    const policy = buildPolicy({ missing_fraction: "< 1.82%" });
    const ev = evaluate(ds, policy, ctx);
    expect(ev.verdict).toBe("accept");
    const f = computeFragility(ds, policy, ctx, ev);
    expect(f.review_fragility).toBe(1);
    expect(f.fragility_exact).toBe(true);
    expect(f.fragility_tasks).toEqual([
      { dataset_revision: "rev1", task_id: "t00000", change: "valid → broken" },
    ]);
  });

  it("a reject is as fragile as the fewest changes that lift UCB above δ₀ (brute force over counts)", () => {
    // Δ̂ = (40 − 62)/520 = −0.0423, UCB ≈ −0.0105 ≤ 0: reject.
    const specs: TaskSpec[] = [
      ...repeat(40, { validity: "valid", a: "pass", b: "fail" }), // t00000–t00039
      ...repeat(62, { validity: "valid", a: "fail", b: "pass" }), // t00040–t00101
      ...repeat(418, { validity: "valid", a: "pass", b: "pass" }), // t00102–t00519
      ...repeat(3, { validity: "broken", a: "pass", b: "fail" }), // t00520–t00522
    ];
    const ds = buildDataset(specs);
    const policy = buildPolicy();
    const ev = evaluate(ds, policy, ctx);
    expect(ev.verdict).toBe("reject");
    const a = analyseFragility(ds, policy, ctx, ev);
    const pools: Pool[] = [
      { tasks: ids(ds, 0, 40), to: ["broken"] },
      { tasks: ids(ds, 40, 62), to: ["broken"] },
      { tasks: ids(ds, 102, 418), to: ["broken"] },
      { tasks: ids(ds, 520, 3), to: ["valid"] },
    ];
    const brute = bruteByCounts(ds, policy, ctx, pools, 12, (v) => v !== "reject");
    expect(brute).not.toBeNull();
    expect(a.fragility.review_fragility).toBe(brute);
    expect(a.fragility.fragility_exact).toBe(true);
    expect(a.fragility.review_fragility_share).toBe((brute as number) / 520);
    expect(evaluate(relabel(ds, a.moves), policy, ctx).verdict).not.toBe("reject");
  });

  it("a failed canary rejects whatever the labels: unbounded, exactly", () => {
    const ds = buildDataset(example5());
    const policy = buildPolicy({ production_canary: true });
    const c: EvaluationContext = { canary: "fail", expired: false };
    const ev = evaluate(ds, policy, c);
    expect(ev.verdict).toBe("reject");
    expect(computeFragility(ds, policy, c, ev)).toEqual({
      review_fragility: null,
      review_fragility_share: null,
      resolution_distance: null,
      fragility_exact: true,
      fragility_unbounded: true,
      fragility_tasks: [],
    });
  });
});

describe("resolution distance", () => {
  function unresolvedExample(extra: readonly TaskSpec[] = []): TaskSpec[] {
    // Example 5's valid tasks; 16 of the 20 open tasks are B-only, so Δ_L is low: LCB ≤ 0 < UCB.
    return [
      ...repeat(70, { validity: "valid", a: "pass", b: "fail" }), // t00000–t00069
      ...repeat(40, { validity: "valid", a: "fail", b: "pass" }), // t00070–t00109
      ...repeat(410, { validity: "valid", a: "pass", b: "pass" }), // t00110–t00519
      ...repeat(2, { validity: "disputed", a: "pass", b: "fail" }), // t00520–t00521
      ...repeat(16, { validity: "disputed", a: "fail", b: "pass" }), // t00522–t00537
      ...repeat(2, { validity: "unreviewed", a: "fail", b: "fail" }), // t00538–t00539
      ...extra,
    ];
  }

  it("is finite and exact, names the tasks to review first, and matches brute force over counts", () => {
    const ds = buildDataset(unresolvedExample());
    const policy = buildPolicy();
    const ev = evaluate(ds, policy, ctx);
    expect(ev.verdict).toBe("unresolved");
    const a = analyseFragility(ds, policy, ctx, ev);
    const f = a.fragility;
    const pools: Pool[] = [
      { tasks: ids(ds, 520, 2), to: ["valid", "broken"] },
      { tasks: ids(ds, 522, 16), to: ["valid", "broken"] },
      { tasks: ids(ds, 538, 2), to: ["valid", "broken"] },
    ];
    const brute = bruteByCounts(ds, policy, ctx, pools, 20, (v) => v !== "unresolved");
    expect(brute).toBe(5);
    expect(f.resolution_distance).toBe(5);
    expect(f.review_fragility).toBeNull();
    expect(f.review_fragility_share).toBeNull();
    expect(f.fragility_exact).toBe(true);
    expect(f.fragility_unbounded).toBe(false);
    // One of several optima of size 5 (deterministic): an A-only task confirmed valid and four
    // B-only tasks found broken (they leave S_L).
    expect(f.fragility_tasks).toEqual([
      { dataset_revision: "rev1", task_id: "t00520", change: "disputed → valid" },
      { dataset_revision: "rev1", task_id: "t00522", change: "disputed → broken" },
      { dataset_revision: "rev1", task_id: "t00523", change: "disputed → broken" },
      { dataset_revision: "rev1", task_id: "t00524", change: "disputed → broken" },
      { dataset_revision: "rev1", task_id: "t00525", change: "disputed → broken" },
    ]);
    expect(evaluate(relabel(ds, a.moves), policy, ctx).verdict).toBe("accept");
  });

  it("counts resolutions of open tasks outside C when the missing fraction needs them", () => {
    // 12 disputed tasks the candidate never ran: missing 12/552 = 2.17% ≥ 2%. Resolving them broken
    // lowers it: 11/551 = 1.996% < 2% — one resolution decides it (LCB > 0 already).
    const ds = buildDataset(example5(repeat(12, { validity: "disputed", b: "pass" })));
    const policy = buildPolicy({ missing_fraction: "< 2%" });
    const ev = evaluate(ds, policy, ctx);
    expect(ev.verdict).toBe("unresolved");
    const f = computeFragility(ds, policy, ctx, ev);
    expect(f.resolution_distance).toBe(1);
    expect(f.fragility_exact).toBe(true);
    expect(f.fragility_tasks).toEqual([
      { dataset_revision: "rev1", task_id: "t00540", change: "disputed → broken" },
    ]);
  });

  const unbounded = {
    review_fragility: null,
    review_fragility_share: null,
    resolution_distance: null,
    fragility_exact: true,
    fragility_unbounded: true,
    fragility_tasks: [],
  };

  it("is unbounded when the required canary is missing", () => {
    const ds = buildDataset(example5());
    const policy = buildPolicy({ production_canary: true });
    const ev = evaluate(ds, policy, ctx);
    expect(ev.verdict).toBe("unresolved");
    expect(computeFragility(ds, policy, ctx, ev)).toEqual(unbounded);
  });

  it("is unbounded when the harnesses differ", () => {
    const ds = buildDataset(example5(), { baseline: { harnessRevisions: ["git:h0"] } });
    const policy = buildPolicy();
    const ev = evaluate(ds, policy, ctx);
    expect(ev.verdict).toBe("unresolved");
    expect(computeFragility(ds, policy, ctx, ev)).toEqual(unbounded);
  });

  it("is unbounded when there are too few tasks even if every open label became valid", () => {
    // N_v = 520 + D = 20 → at most 540 < 600.
    const ds = buildDataset(example5());
    const policy = buildPolicy({ common_valid_tasks: ">= 600" });
    const ev = evaluate(ds, policy, ctx);
    expect(ev.verdict).toBe("unresolved");
    expect(computeFragility(ds, policy, ctx, ev)).toEqual(unbounded);
  });

  it("is unbounded (proven by exhausting every resolution) when the run variance cannot decide", () => {
    // 3 A-only, 3 B-only valid; 2 open tasks. No resolution brings LCB above 0 or UCB below it.
    const specs: TaskSpec[] = [
      ...repeat(3, { validity: "valid", a: "pass", b: "fail" }),
      ...repeat(3, { validity: "valid", a: "fail", b: "pass" }),
      { validity: "disputed", a: "pass", b: "fail" },
      { validity: "unreviewed", a: "fail", b: "pass" },
    ];
    const ds = buildDataset(specs);
    const policy = buildPolicy({ common_valid_tasks: ">= 1", disputed_fraction: "< 100%" });
    const ev = evaluate(ds, policy, ctx);
    expect(ev.verdict).toBe("unresolved");
    expect(computeFragility(ds, policy, ctx, ev)).toEqual(unbounded);
    const pools: Pool[] = [
      { tasks: [6], to: ["valid", "broken"] },
      { tasks: [7], to: ["valid", "broken"] },
    ];
    expect(bruteByCounts(ds, policy, ctx, pools, 2, (v) => v !== "unresolved")).toBeNull();
  });
});

describe("resolution distance: unbounded proven by a bound, not by search", () => {
  it("a margin band far wider than U can move is unbounded, exactly, without enumerating 3^220", () => {
    // Δ̂ = 10/10010 ≈ 0.001 with SE ≈ 0.0032; 220 open tasks (200 ties, 20 B-only) cannot move the
    // band off 0: LCB' ≤ Δ_H(U) − z·SE_min < 0 and UCB' ≥ Δ_L(U) + z·SE_min > 0 for any resolution.
    const ds = buildDataset([
      ...repeat(510, { validity: "valid", a: "pass", b: "fail" }),
      ...repeat(500, { validity: "valid", a: "fail", b: "pass" }),
      ...repeat(9000, { validity: "valid", a: "pass", b: "pass" }),
      ...repeat(200, { validity: "disputed", a: "pass", b: "pass" }),
      ...repeat(20, { validity: "unreviewed", a: "fail", b: "pass" }),
    ]);
    const policy = buildPolicy();
    const ev = evaluate(ds, policy, ctx);
    expect(ev.verdict).toBe("unresolved");
    // Both extreme resolutions stay unresolved (the real evaluate agrees with the bound).
    for (const to of ["valid", "broken"] as const) {
      const moves = tableRecords(ds.tasks).flatMap((t, index) =>
        t.validity === "valid" ? [] : [{ index, to }],
      );
      expect(evaluate(relabel(ds, moves), policy, ctx).verdict).toBe("unresolved");
    }
    const f = computeFragility(ds, policy, ctx, ev);
    expect(f.resolution_distance).toBeNull();
    expect(f.fragility_unbounded).toBe(true);
    expect(f.fragility_exact).toBe(true);
  });
});

describe("multi-attempt scores are summed exactly", () => {
  it("breaking the d = −1/3 task leaves exactly Σd = 0 (a tie at δ₀), as evaluate computes it", () => {
    // V: d = 0, 0, −1/3 → Δ̂ = −1/9; at confidence 0.5 (z = 0) UCB = Δ_H = −1/9 ≤ 0: reject.
    // Breaking the −1/3 task leaves V = {0, 0}: UCB = 0 ≤ 0, still reject — a float running sum
    // would leave ~5e-17 > 0 and claim a flip. Two changes are needed (brute force: 2).
    const ds = buildDataset([
      { validity: "valid", a: "fail", b: "fail" },
      { validity: "valid", a: "fail", b: "fail" },
      { validity: "broken", a: "fail", b: "pass" },
      { validity: "valid", a: "fail", b: { pass: 1, fail: 2 } },
    ]);
    const policy = buildPolicy({ common_valid_tasks: ">= 0", confidence: 0.5 });
    const ev = evaluate(ds, policy, ctx);
    expect(ev.verdict).toBe("reject");
    const a = analyseFragility(ds, policy, ctx, ev, { verify: false });
    const pools: Pool[] = [
      { tasks: [0, 1], to: ["broken"] },
      { tasks: [3], to: ["broken"] },
      { tasks: [2], to: ["valid"] },
    ];
    expect(bruteByCounts(ds, policy, ctx, pools, 4, (v) => v !== "reject")).toBe(2);
    expect(a.fragility.review_fragility).toBe(2);
    expect(a.fragility.fragility_exact).toBe(true);
  });
});

describe("ties at δ₀ fall as in evaluate", () => {
  it("Σd/N_v is one correctly rounded division: −0.5/5 is exactly δ₀ = −10% (count_as_fail, K* = 2, 3)", () => {
    // V: four d = 0 (1 attempt), one d = −1/2 (baseline pass + infra counted as fail), one d = 0
    // (3 attempts): Δ̂ = −0.5/6 > −0.1 and z = 0: accept. Breaking one d = 0 task gives exactly
    // −0.5/5 = −0.1 = δ₀, not above it: one change flips (in units of 1/6 the mirror must compute
    // −3/30, not (−3/5)/6).
    const ds = buildDataset([
      ...repeat(4, { validity: "valid", a: "fail", b: "fail" }),
      { validity: "valid", a: "fail", b: { pass: 1, infra: 1 } },
      { validity: "valid", a: "fail", b: { fail: 3 } },
      { validity: "broken", a: "fail", b: "infra" },
    ]);
    const policy = buildPolicy({
      common_valid_tasks: ">= 0",
      infra_error_rate: "< 100%",
      disputed_fraction: "< 20%",
      delta0: -0.1,
      confidence: 0.5,
      infra_errors: "count_as_fail",
    });
    const ev = evaluate(ds, policy, ctx);
    expect(ev.verdict).toBe("accept");
    const a = analyseFragility(ds, policy, ctx, ev, { verify: false });
    expect(a.fragility.review_fragility).toBe(1);
    expect(a.fragility.fragility_exact).toBe(true);
    // With z = 0 and no open task, UCB = LCB = −0.1 ≤ δ₀: the accept turns into a reject.
    expect(evaluate(relabel(ds, a.moves), policy, ctx).verdict).toBe("reject");
  });
});

describe("greedy fallback and determinism", () => {
  it("with no exact budget the greedy bound is reported as 'at most' and still realises the flip", () => {
    const ds = buildDataset(example5());
    const policy = buildPolicy();
    const ev = evaluate(ds, policy, ctx);
    const a = analyseFragility(ds, policy, ctx, ev, { budget: 0 });
    expect(a.fragility.review_fragility).not.toBeNull();
    expect(a.fragility.review_fragility as number).toBeGreaterThanOrEqual(7);
    expect(a.fragility.fragility_exact).toBe(
      a.fragility.review_fragility === 7 ? a.fragility.fragility_exact : false,
    );
    expect(evaluate(relabel(ds, a.moves), policy, ctx).verdict).not.toBe("accept");
  });

  it("clustered SE: the figure realises the flip, and is exact or an upper bound", () => {
    const specs = example5().map((s, i) => ({ ...s, cluster: `repo-${i % 40}` }));
    const ds = buildDataset(specs);
    const policy = buildPolicy({ standard_error: "clustered" });
    const ev = evaluate(ds, policy, ctx);
    const a = analyseFragility(ds, policy, ctx, ev);
    const k = ev.verdict === "unresolved" ? a.fragility.resolution_distance : a.fragility.review_fragility;
    expect(k).not.toBeNull();
    const after = evaluate(relabel(ds, a.moves), policy, ctx).verdict;
    expect(ev.verdict === "unresolved" ? after !== "unresolved" : after !== ev.verdict).toBe(true);
  });

  it("is deterministic and lists at most MAX_FRAGILITY_TASKS tasks (the count is not cut)", () => {
    // A firm margin (200 A-only of 520); '>= 450' binds after 71 removals (520 → 449).
    const ds = buildDataset([
      ...repeat(200, { validity: "valid", a: "pass", b: "fail" }),
      ...repeat(320, { validity: "valid", a: "pass", b: "pass" }),
    ]);
    const policy = buildPolicy({ common_valid_tasks: ">= 450" });
    const ev = evaluate(ds, policy, ctx);
    expect(ev.verdict).toBe("accept");
    const a1 = analyseFragility(ds, policy, ctx, ev);
    const a2 = analyseFragility(ds, policy, ctx, ev);
    expect(JSON.stringify(a1)).toBe(JSON.stringify(a2));
    expect(a1.fragility.review_fragility).toBe(71);
    expect(a1.fragility.fragility_exact).toBe(true);
    expect(a1.moves).toHaveLength(71);
    expect(a1.fragility.fragility_tasks).toHaveLength(MAX_FRAGILITY_TASKS);
    expect(FRAGILITY_WORK_BUDGET).toBeGreaterThan(0);
  });
});

describe("performance: 100,000 common tasks", () => {
  /**
   * Hand computation. With p tasks only the candidate passes, no other discordant valid task and
   * N = 100,000 valid tasks, Σd = S, Σd² = Q, LCB·n ≈ S − z·√Q (n ≫ Q, z = 1.644854):
   *   now S = Q = 10: 10 − 5.20 > 0 → accept.
   * Review: breaking a, validating b broken tasks only the baseline passes gives S = 10 − a − b,
   * Q = 10 − a + b; (a, b) = (0, 4): 6 − z·√14 = 6 − 6.155 < 0 flips; no 3 changes do
   * ((0,3): 7 − 5.93; (1,2): 7 − 5.46; (2,1): 7 − 4.93; (3,0): 7 − 4.35 — all > 0; tie tasks move
   * the figures by ~1e-5 only). So review fragility 4: four "broken → valid".
   */
  it("review fragility 4 (hand-computed), exact", () => {
    const ds = buildDataset([
      ...repeat(10, { a: "pass", b: "fail" }),
      ...repeat(99_990, { a: "pass", b: "pass" }),
      ...repeat(100, { validity: "broken", a: "fail", b: "pass" }),
    ]);
    const policy = buildPolicy({ common_valid_tasks: ">= 1000" });
    const ev = evaluate(ds, policy, ctx);
    expect(ev.verdict).toBe("accept");
    const t0 = performance.now();
    const f = computeFragility(ds, policy, ctx, ev);
    console.log(`review fragility on 100,000 tasks: ${(performance.now() - t0).toFixed(0)} ms`);
    expect(f.review_fragility).toBe(4);
    expect(f.review_fragility_share).toBe(4 / 100_000);
    expect(f.fragility_exact).toBe(true);
    expect(f.fragility_tasks.map((t) => t.change)).toEqual(repeat(4, {}).map(() => "broken → valid"));
    expect(f.fragility_tasks.map((t) => t.task_id)).toEqual(["t100000", "t100001", "t100002", "t100003"]);
  });

  /**
   * Hand computation. As above plus 10 disputed tasks only the baseline passes: S_L takes all ten,
   * S = 0 → LCB < 0 < UCB, unresolved. With j of them still open, S = 10 − j, Q = 10 + j:
   * j = 3: 7 − z·√13 = 1.07 > 0 accepts; j = 4: 6 − z·√14 < 0. Resolving one valid adds the same −1
   * to V as leaving it in S_L, so 7 must be resolved broken: resolution distance 7.
   */
  it("resolution distance 7 (hand-computed), exact", () => {
    const ds = buildDataset([
      ...repeat(10, { a: "pass", b: "fail" }),
      ...repeat(99_990, { a: "pass", b: "pass" }),
      ...repeat(10, { validity: "disputed", a: "fail", b: "pass" }),
    ]);
    const policy = buildPolicy({ common_valid_tasks: ">= 1000" });
    const ev = evaluate(ds, policy, ctx);
    expect(ev.verdict).toBe("unresolved");
    const t0 = performance.now();
    const f = computeFragility(ds, policy, ctx, ev);
    console.log(`resolution distance on 100,000 tasks: ${(performance.now() - t0).toFixed(0)} ms`);
    expect(f.resolution_distance).toBe(7);
    expect(f.fragility_exact).toBe(true);
    expect(f.fragility_tasks).toEqual(
      [0, 1, 2, 3, 4, 5, 6].map((n) => ({
        dataset_revision: "rev1",
        task_id: `t10000${n}`,
        change: "disputed → broken",
      })),
    );
  });
});
