/** SPEC §6 worked examples as test oracles (6 decimals). */
import { describe, expect, it } from "vitest";
import { evaluate } from "../../src/core/decision/evaluate.js";
import { modelFigures, scoreFigures } from "../../src/core/stats/model-figures.js";
import { exactRatioBounds } from "../../src/core/stats/validity-bounds.js";
import {
  buildDataset,
  buildPolicy,
  repeat,
  SPEC_EXAMPLE_5,
  type TaskSpec,
} from "../stats/dataset-builder.js";
import type { Validity } from "../../src/core/model.js";

const ctx = { canary: null, expired: false } as const;

/** Task specs with per-task d in {k/2} and K = 2 for both models. */
function dK2(d: number, validity: Validity): TaskSpec {
  const table: Record<string, [number, number]> = {
    "1": [2, 0],
    "0.5": [2, 1],
    "0": [1, 1],
    "-0.5": [1, 2],
    "-1": [0, 2],
  };
  const [pa, pb] = table[String(d)] ?? [0, 0];
  return { validity, a: { pass: pa, fail: 2 - pa }, b: { pass: pb, fail: 2 - pb } };
}

describe("SPEC §6 example 1: per-model, single attempt", () => {
  const tasks: TaskSpec[] = [
    ...repeat(6, { validity: "valid", a: "pass" }),
    ...repeat(4, { validity: "valid", a: "fail" }),
    ...repeat(1, { validity: "disputed", a: "pass" }),
    ...repeat(3, { validity: "unreviewed", a: "fail" }),
  ];
  it("gives valid-only 0.6, exact [6/13, 7/11], pessimistic [6/14, 10/14]", () => {
    const m = modelFigures(buildDataset(tasks), "candidate", "exclude");
    expect(m.valid_only_score).toBeCloseTo(0.6, 12);
    expect(m.all_attempted_score).toBeCloseTo(7 / 14, 12);
    expect(m.interval_exact?.[0]).toBeCloseTo(0.461538, 6);
    expect(m.interval_exact?.[1]).toBeCloseTo(0.636364, 6);
    expect(m.interval_exact).toEqual([6 / 13, 7 / 11]);
    expect(m.interval_pessimistic?.[0]).toBeCloseTo(0.428571, 6);
    expect(m.interval_pessimistic?.[1]).toBeCloseTo(0.714286, 6);
    // The baseline never ran these tasks: no common set.
    expect(m.common.valid_only_score).toBeNull();
    expect(m.common.interval_exact).toBeNull();
    expect(m.attempted_tasks).toBe(14);
  });
});

describe("SPEC §6 example 2: per-model, 4 attempts", () => {
  it("gives exact [0.425, 0.527778] with min set {0, .25} and max set {.75}", () => {
    const valid = [1, 1, 0.75, 0.5, 0.5, 0.25, 0, 0];
    const unresolved = [0.75, 0.25, 0];
    const b = exactRatioBounds(
      valid.reduce((s, x) => s + x, 0),
      valid.length,
      unresolved,
    );
    expect(b.lower).toBeCloseTo(0.425, 6);
    expect(b.upper).toBeCloseTo(0.527778, 6);
    expect(b.lowerSet.map((i) => unresolved[i])).toEqual([0, 0.25]);
    expect(b.upperSet.map((i) => unresolved[i])).toEqual([0.75]);

    const spec = (s: number, validity: Validity): TaskSpec => ({
      validity,
      a: { pass: s * 4, fail: 4 - s * 4 },
    });
    const m = modelFigures(
      buildDataset([...valid.map((s) => spec(s, "valid")), ...unresolved.map((s) => spec(s, "disputed"))]),
      "candidate",
      "exclude",
    );
    expect(m.valid_only_score).toBeCloseTo(0.5, 12);
    expect(m.interval_exact?.[0]).toBeCloseTo(0.425, 6);
    expect(m.interval_exact?.[1]).toBeCloseTo(0.527778, 6);
  });
});

describe("SPEC §6 example 3: pair, single attempt", () => {
  const tasks: TaskSpec[] = [
    ...repeat(8, { validity: "valid", a: "pass", b: "pass" }),
    ...repeat(6, { validity: "valid", a: "pass", b: "fail" }),
    ...repeat(2, { validity: "valid", a: "fail", b: "pass" }),
    ...repeat(4, { validity: "valid", a: "fail", b: "fail" }),
    { validity: "disputed", a: "pass", b: "fail" },
    ...repeat(3, { validity: "disputed", a: "fail", b: "pass" }),
    { validity: "unreviewed", a: "pass", b: "pass" },
    { validity: "unreviewed", a: "fail", b: "fail" },
  ];
  const ds = buildDataset(tasks);

  it("gives Δ̂ 0.2 and exact Δ ∈ [1/25, 5/21]", () => {
    const e = evaluate(ds, buildPolicy({ common_valid_tasks: ">= 20" }), ctx);
    expect(e.comparison.margin).toBeCloseTo(0.2, 12);
    expect(e.comparison.margin_lower).toBeCloseTo(0.04, 6);
    expect(e.comparison.margin_upper).toBeCloseTo(0.238095, 6);
    expect(e.comparison.margin_lower).toBeCloseTo(1 / 25, 12);
    expect(e.comparison.margin_upper).toBeCloseTo(5 / 21, 12);
    expect(e.comparison.unresolved_tasks).toBe(6);
    expect(e.comparison.disputed_tasks).toBe(4);
    expect(e.comparison.unreviewed_tasks).toBe(2);
  });

  it("per-model subtraction would give the looser [0, 0.272727]", () => {
    const e = evaluate(ds, buildPolicy(), ctx);
    const a = e.models.candidate.common.interval_exact;
    const b = e.models.baseline.common.interval_exact;
    expect(a).not.toBeNull();
    expect(b).not.toBeNull();
    if (a === null || b === null) return;
    expect(a[0] - b[1]).toBeCloseTo(0, 6);
    expect(a[1] - b[0]).toBeCloseTo(0.272727, 6);
  });

  it("pessimistic bound gives [−0.076923, 0.384615]", () => {
    const e = evaluate(ds, buildPolicy({ validity_bound: "pessimistic" }), ctx);
    expect(e.comparison.margin_lower).toBeCloseTo(-0.076923, 6);
    expect(e.comparison.margin_upper).toBeCloseTo(0.384615, 6);
  });
});

describe("SPEC §6 example 4: pair, K = 2", () => {
  it("gives Δ̂ 0.25 and exact Δ ∈ [0.035714, 0.272727]", () => {
    const valid = [1, 0.5, 0.5, 0, 0, 0, -0.5, 1, 0, 0];
    const unresolved = [-1, -0.5, 0.5, 0, -0.5];
    const ds = buildDataset([
      ...valid.map((d) => dK2(d, "valid")),
      ...unresolved.map((d) => dK2(d, "disputed")),
    ]);
    const e = evaluate(ds, buildPolicy(), ctx);
    expect(e.comparison.margin).toBeCloseTo(0.25, 12);
    expect(e.comparison.margin_lower).toBeCloseTo(0.035714, 6);
    expect(e.comparison.margin_upper).toBeCloseTo(0.272727, 6);
    // Every task has 2 attempts for both models: the re-run-only SE is reported.
    expect(e.comparison.se_rerun).not.toBeNull();
  });
});

describe("SPEC §6 example 5: gate-sized", () => {
  const tasks = SPEC_EXAMPLE_5;
  const policySpec = {
    common_valid_tasks: ">= 500",
    infra_error_rate: "< 1%",
    disputed_fraction: "< 5%",
  } as const;
  const policy = buildPolicy(policySpec);
  const e = evaluate(buildDataset(tasks), policy, ctx);

  it("reproduces every figure to 6 decimals", () => {
    const c = e.comparison;
    expect(c.common_valid_tasks).toBe(520);
    expect(c.unresolved_tasks).toBe(20);
    expect(c.disputed_fraction).toBeCloseTo(20 / 540, 12);
    expect(c.margin).toBeCloseTo(0.057692, 6);
    expect(c.se_valid).toBeCloseTo(0.020029, 6);
    expect(c.margin_lower).toBeCloseTo(24 / 538, 12);
    expect(c.margin_lower).toBeCloseTo(0.04461, 6);
    expect(c.margin_upper).toBeCloseTo(32 / 522, 12);
    expect(c.margin_upper).toBeCloseTo(0.061303, 6);
    expect(c.validity_sensitivity).toBeCloseTo(0.013083, 6);
    expect(c.z).toBeCloseTo(1.644854, 6);
    expect(c.se_lower).toBeCloseTo(0.019945, 6);
    expect(c.se_rerun).toBeNull();
    // The default quantile t with ν = n − 1 per set: 537 for V ∪ S_L (538 tasks), 521 for V ∪ S_H.
    expect(c.quantile).toBe("t");
    expect(c.nu_lower).toBe(537);
    expect(c.nu_upper).toBe(521);
    expect(c.nu_valid).toBe(519);
    expect(c.q_lower).toBeCloseTo(1.647696, 6);
    expect(c.q_valid).toBeCloseTo(1.647795, 6);
    expect(c.lcb).toBeCloseTo(0.011746, 6);
    expect(c.ucb).toBeCloseTo(0.094448, 6);
  });

  it("takes the bound over every resolution exactly: attained at S_L (6 B-only + 12 ties) and S_H (2 A-only)", () => {
    const c = e.comparison;
    expect(c.lcb_bound_kind).toBe("exact");
    expect(c.ucb_bound_kind).toBe("exact");
    expect(c.lcb_set).toMatchObject({ size: 18, d_minus: 6, d_zero: 12, d_plus: 0 });
    expect(c.lcb_set?.tasks.slice(0, 6).every((t) => t.d === -1)).toBe(true);
    expect(c.ucb_set).toMatchObject({ size: 2, d_minus: 0, d_zero: 0, d_plus: 2 });
  });

  it("gives the planning figure MDE = (1.647795 + 0.841621)·0.020029 = 0.049861 at power 0.8", () => {
    expect(e.comparison.power).toBe(0.8);
    expect(e.comparison.mde).toBeCloseTo(0.049861, 6);
    // Accepted: no common valid tasks needed.
    expect(e.comparison.tasks_needed).toBeNull();
  });

  it("with quantile: z gives LCB 0.011803 and UCB 0.094389", () => {
    const z = evaluate(buildDataset(tasks), buildPolicy({ ...policySpec, quantile: "z" }), ctx).comparison;
    expect(z.quantile).toBe("z");
    expect(z.q_lower).toBe(z.z);
    expect(z.q_upper).toBe(z.z);
    expect(z.lcb).toBeCloseTo(0.011803, 6);
    expect(z.ucb).toBeCloseTo(0.094389, 6);
    expect(z.se_upper).toBeCloseTo(0.020115, 6);
    expect(z.lcb_set).toMatchObject({ size: 18, d_minus: 6, d_zero: 12 });
    expect(z.ucb_set).toMatchObject({ size: 2, d_plus: 2 });
  });

  it("accepts with every check passing", () => {
    expect(e.verdict).toBe("accept");
    expect(e.checks.every((ch) => ch.passed)).toBe(true);
    expect(e.checks.map((ch) => ch.id)).toEqual([
      "common_valid_tasks",
      "infra_error_rate_baseline",
      "infra_error_rate_candidate",
      "disputed_fraction",
      "same_harness",
      "real_harness_revisions",
      "dataset_revision",
      "observed_margin",
    ]);
    const margin = e.checks.find((ch) => ch.id === "observed_margin");
    expect(margin?.threshold).toBe("> 0");
    expect(margin?.observed).toBeCloseTo(0.011746, 6);
    expect(e.warnings).toEqual([]);
  });

  it("lists the minimising set's tasks (d = −1 first, then the ties) as influential", () => {
    const inf = e.comparison.influential_tasks;
    expect(inf).toHaveLength(20);
    expect(inf.slice(0, 6).every((t) => t.d === -1 && t.in_lower_set && !t.in_upper_set)).toBe(true);
    expect(inf.slice(6, 8).every((t) => t.d === 1 && !t.in_lower_set && t.in_upper_set)).toBe(true);
    expect(inf.slice(8).every((t) => t.d === 0 && t.in_lower_set && !t.in_upper_set)).toBe(true);
  });
});

/** The seed's calculator (seed/seed_sensitivity.py) over rows, for the record of its defects. */
function seedCalculator(rows: readonly { validity: string; result: string }[]) {
  const valid = rows.filter((r) => r.validity === "valid");
  const disputed = rows.filter((r) => r.validity === "unreviewed" || r.validity === "disputed");
  const validPass = valid.filter((r) => r.result === "pass").length;
  return {
    valid: { pass: validPass, n: valid.length, rate: validPass / valid.length },
    validity_sensitivity: [
      validPass / (valid.length + disputed.length),
      (validPass + disputed.length) / (valid.length + disputed.length),
    ],
  };
}

describe("SPEC §6 example 6: the seed's defect", () => {
  const rows = [
    ...Array.from({ length: 6 }, () => ({ validity: "valid", result: "pass" })),
    ...Array.from({ length: 4 }, () => ({ validity: "valid", result: "fail" })),
    { validity: "valid", result: "infra_error" },
    { validity: "disputed", result: "pass" },
    ...Array.from({ length: 3 }, () => ({ validity: "disputed", result: "fail" })),
    { validity: "disputed", result: "infra_error" },
  ];
  const tasks: TaskSpec[] = rows.map((r) => ({
    validity: r.validity as Validity,
    a: r.result === "infra_error" ? "infra" : (r.result as "pass" | "fail"),
  }));

  it("the seed prints valid n = 11, rate 0.545455, interval [0.375, 0.6875]", () => {
    const seed = seedCalculator(rows);
    expect(seed.valid.n).toBe(11);
    expect(seed.valid.rate).toBeCloseTo(0.545455, 6);
    expect(seed.validity_sensitivity).toEqual([0.375, 0.6875]);
  });

  it("the gate (infra excluded) gives valid-only 0.6, pessimistic [0.428571, 0.714286], exact [0.461538, 0.636364]", () => {
    const m = modelFigures(buildDataset(tasks), "candidate", "exclude");
    expect(m.valid_only_score).toBeCloseTo(0.6, 12);
    expect(m.interval_pessimistic?.[0]).toBeCloseTo(0.428571, 6);
    expect(m.interval_pessimistic?.[1]).toBeCloseTo(0.714286, 6);
    expect(m.interval_exact?.[0]).toBeCloseTo(0.461538, 6);
    expect(m.interval_exact?.[1]).toBeCloseTo(0.636364, 6);
    expect(m.lost_to_infra_tasks).toBe(2);
    expect(m.infra_errors).toBe(2);
    expect(m.infra_error_rate).toBeCloseTo(2 / 16, 12);
  });

  it("under count_as_fail the infra errors become fails", () => {
    const m = modelFigures(buildDataset(tasks), "candidate", "count_as_fail");
    expect(m.valid_only_score).toBeCloseTo(6 / 11, 12);
    expect(m.interval_pessimistic).toEqual([6 / 16, 11 / 16]);
    expect(scoreFigures(6, 11, [1, 0, 0, 0, 0]).interval_exact).toEqual([6 / 15, 7 / 12]);
  });
});
