/** Checks, verdict, reasons and warnings (SPEC §4), one cause at a time. */
import { describe, expect, it } from "vitest";
import { evaluate } from "../../src/core/decision/evaluate.js";
import { computeFragility } from "../../src/core/decision/fragility.js";
import type { EvaluationContext } from "../../src/core/decision/evaluation-types.js";
import type { CheckId } from "../../src/core/verdict-types.js";
import {
  buildDataset,
  buildPolicy,
  repeat,
  SPEC_EXAMPLE_5,
  type DatasetOptions,
  type PolicySpec,
  type TaskSpec,
} from "../stats/dataset-builder.js";

const noCanary: EvaluationContext = { canary: null, expired: false };

/** SPEC §6 example 5: accepted with every check passing (LCB = 0.011746 with the default quantile t). */
const example5 = SPEC_EXAMPLE_5;
/** The same with the models swapped: Δ̂ = −0.0577, UCB = −0.011746 (SE and ν do not change). */
const swapped: TaskSpec[] = example5.map((t) => ({
  validity: t.validity ?? "valid",
  a: t.b ?? "fail",
  b: t.a ?? "fail",
}));

function run(tasks: readonly TaskSpec[], policy: PolicySpec = {}, ctx = noCanary, opts: DatasetOptions = {}) {
  return evaluate(buildDataset(tasks, opts), buildPolicy(policy), ctx);
}

function failed(e: ReturnType<typeof evaluate>): CheckId[] {
  return e.checks.filter((c) => !c.passed).map((c) => c.id);
}

/** Every number in the evaluation is finite (null stands for undefined). */
function expectFinite(value: unknown): void {
  JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v === "number") expect(Number.isFinite(v)).toBe(true);
    return v;
  });
}

describe("baseline cases", () => {
  it("example 5 accepts; swapped it rejects (UCB ≤ 0 with every evidence check passing)", () => {
    expect(run(example5).verdict).toBe("accept");
    const r = run(swapped);
    expect(r.verdict).toBe("reject");
    expect(r.comparison.ucb).toBeCloseTo(-0.011746, 6);
    expect(failed(r)).toEqual(["observed_margin"]);
    expect(r.reasons[0]).toContain("UCB = -1.17 pp does not exceed δ₀ = 0.00 pp");
    expect(r.reasons[0]).toContain("even the most favourable resolution of the 20 disputed/unreviewed tasks");
  });
});

describe("each evidence check failing on its own leaves the verdict unresolved", () => {
  it("common_valid_tasks: says how many more are needed", () => {
    const e = run(example5, { common_valid_tasks: ">= 600" });
    expect(e.verdict).toBe("unresolved");
    expect(failed(e)).toEqual(["common_valid_tasks"]);
    expect(e.checks[0]).toMatchObject({
      observed: 520,
      threshold: ">= 600",
      passed: false,
      kind: "evidence",
    });
    expect(e.reasons[0]).toContain("80 more common valid tasks");
    expect(e.reasons.at(-1)).toContain("would accept");
    expect(run(example5, { common_valid_tasks: "> 520" }).reasons[0]).toContain("1 more common valid task ");
  });

  it("infra_error_rate_candidate: rate, and how many clean attempts would bring it under", () => {
    // 10 extra infra errors on 10 valid ties: 10 / 550 = 1.82% ≥ 1%.
    const tasks = example5.map((t, i) => (i >= 110 && i < 120 ? { ...t, a: { pass: 1, infra: 1 } } : t));
    const e = run(tasks);
    expect(e.verdict).toBe("unresolved");
    expect(failed(e)).toEqual(["infra_error_rate_candidate"]);
    const c = e.checks.find((x) => x.id === "infra_error_rate_candidate");
    expect(c?.observed).toBeCloseTo(10 / 550, 15);
    // 10/(550 + x) < 1%  ⇔  x > 450.
    expect(c?.detail).toContain("451 more attempts without an infra error");
    expect(e.models.candidate.infra_errors).toBe(10);
    expect(e.models.candidate.lost_to_infra_tasks).toBe(0);
    // Infra errors excluded: the scores and the margin are unchanged.
    expect(e.comparison.lcb).toBeCloseTo(0.011746, 6);
  });

  it("infra_error_rate_baseline with no attempts at all fails with a null observation", () => {
    const tasks = example5.map((t) => ({ ...t, b: "infra" as const }));
    const e = run(tasks);
    const c = e.checks.find((x) => x.id === "infra_error_rate_baseline");
    expect(c).toMatchObject({ observed: 1, passed: false });
    const none = run(example5.map((t) => ({ ...t, b: "missing" as const })));
    const n = none.checks.find((x) => x.id === "infra_error_rate_baseline");
    expect(n).toMatchObject({ observed: null, passed: false });
    expect(n?.detail).toContain("no pass, fail or infra_error attempt");
    expect(none.verdict).toBe("unresolved");
    expect(none.comparison.common_tasks).toBe(0);
    expect(none.comparison.lcb).toBeNull();
    expectFinite(none);
  });

  it("disputed_fraction: how many reviews would satisfy it whatever the labels", () => {
    const e = run(example5, { disputed_fraction: "< 3%" });
    expect(e.verdict).toBe("unresolved");
    expect(failed(e)).toEqual(["disputed_fraction"]);
    // Worst case: reviewed tasks turn out broken. 16/536 < 3% ≤ 17/537.
    expect(e.reasons[0]).toContain("reviewing 4 of the 20 disputed/unreviewed tasks");
  });

  it("missing_fraction: only when the policy sets it; missing tasks over |T|", () => {
    const extra = repeat(20, { validity: "valid", b: "pass" });
    const tasks = [...example5, ...extra];
    expect(run(tasks).checks.some((c) => c.id.startsWith("missing_fraction"))).toBe(false);
    const e = run(tasks, { missing_fraction: "< 2%" });
    expect(e.verdict).toBe("unresolved");
    expect(failed(e)).toEqual(["missing_fraction_candidate"]);
    const c = e.checks.find((x) => x.id === "missing_fraction_candidate");
    expect(c?.observed).toBeCloseTo(20 / 560, 15);
    // (20 − x)/560 < 2%  ⇔  x > 8.8.
    expect(c?.detail).toContain("running the candidate on 9 of its 20 missing tasks");
    expect(e.models.candidate.missing_tasks).toBe(20);
    expect(e.models.baseline.missing_tasks).toBe(0);
  });

  it("same_harness: only when required; the union of revisions must have one element", () => {
    const opts: DatasetOptions = { candidate: { harnessRevisions: ["git:h2"] } };
    const e = run(example5, {}, noCanary, opts);
    expect(e.verdict).toBe("unresolved");
    expect(failed(e)).toEqual(["same_harness"]);
    expect(e.checks.find((x) => x.id === "same_harness")?.observed).toBe("git:h1, git:h2");
    const off = run(example5, { require_same_harness: false }, noCanary, opts);
    expect(off.checks.some((c) => c.id === "same_harness")).toBe(false);
    expect(off.verdict).toBe("accept");
  });

  it("dataset_revision: both models' revision sets equal and non-empty", () => {
    const e = run(example5, {}, noCanary, { baseline: { datasetRevisions: ["rev0", "rev1"] } });
    expect(e.verdict).toBe("unresolved");
    expect(failed(e)).toEqual(["dataset_revision"]);
    const c = e.checks.find((x) => x.id === "dataset_revision");
    expect(c?.observed).toBe("baseline: rev0, rev1; candidate: rev1");
    expect(c?.threshold).toBe("same set for both");
    expect(c?.detail).toContain("only the baseline ran rev0");
    // Equal sets of two revisions pass; one side's subset does not.
    const both: DatasetOptions = {
      baseline: { datasetRevisions: ["rev0", "rev1"] },
      candidate: { datasetRevisions: ["rev0", "rev1"] },
    };
    const same = run(example5, {}, noCanary, both).checks.find((x) => x.id === "dataset_revision");
    expect(same).toMatchObject({ observed: "rev0, rev1", passed: true });
    const sub = run(example5, {}, noCanary, { candidate: { datasetRevisions: ["rev0", "rev1"] } });
    expect(sub.checks.find((x) => x.id === "dataset_revision")?.detail).toContain(
      "only the candidate ran rev0",
    );
  });

  it("production_canary: required and not given leaves it unresolved", () => {
    const e = run(example5, { production_canary: true });
    expect(e.verdict).toBe("unresolved");
    expect(failed(e)).toEqual(["production_canary"]);
    expect(e.checks.find((x) => x.id === "production_canary")).toMatchObject({
      observed: null,
      threshold: "given, and passed",
      passed: false,
    });
    expect(e.reasons[0]).toContain("No production canary result was given");
    const given = run(example5, { production_canary: true }, { canary: "pass", expired: false });
    expect(given.verdict).toBe("accept");
    expect(given.checks.find((x) => x.id === "production_canary")).toMatchObject({
      observed: "pass",
      passed: true,
    });
  });

  it("placeholder harness revisions: one placeholder on both sides never satisfies same_harness", () => {
    // The case: two runs of different agent versions, both imported without a revision.
    const placeholder = { harnessRevisions: ["unknown:swebench-leaderboard"] };
    const opts: DatasetOptions = { baseline: placeholder, candidate: placeholder };
    const e = run(example5, {}, noCanary, opts);
    expect(e.verdict).toBe("unresolved");
    expect(failed(e)).toEqual(["same_harness", "real_harness_revisions"]);
    const same = e.checks.find((x) => x.id === "same_harness");
    expect(same).toMatchObject({
      observed: "unknown:swebench-leaderboard",
      threshold: "one real revision",
      passed: false,
    });
    // The why and the fix are said once, by real_harness_revisions (which always runs).
    expect(same?.detail).toBe(
      "A placeholder harness revision (unknown:swebench-leaderboard) cannot show that both models ran on one " +
        "harness; Real harness revisions says how to set real ones.",
    );
    const real = e.checks.find((x) => x.id === "real_harness_revisions");
    expect(real).toMatchObject({
      observed: "unknown:swebench-leaderboard",
      threshold: "no placeholder",
      passed: false,
      kind: "evidence",
    });
    expect(real?.detail).toContain(
      "Both models ran on the placeholder harness revision unknown:swebench-leaderboard",
    );
    expect(real?.detail).toContain("`model-gate import swebench-leaderboard … --harness-revision R`");
    expect(e.reasons.some((r) => r.startsWith("Check real_harness_revisions fails:"))).toBe(true);
    // Once these checks pass, the margin would accept: the reasons say so.
    expect(e.reasons.at(-1)).toContain("would accept");
    // No resolution of the open labels can fix a harness: the resolution distance is unbounded.
    const ds = buildDataset(example5, opts);
    const policy = buildPolicy({});
    expect(computeFragility(ds, policy, noCanary, evaluate(ds, policy, noCanary))).toMatchObject({
      resolution_distance: null,
      fragility_unbounded: true,
      fragility_exact: true,
    });
  });

  it("real_harness_revisions: runs whether or not the same harness is required; names the side", () => {
    const opts: DatasetOptions = { candidate: { harnessRevisions: ["git:h1", "unknown:swebench-pro"] } };
    for (const require_same_harness of [true, false]) {
      const e = run(example5, { require_same_harness }, noCanary, opts);
      expect(e.verdict).toBe("unresolved");
      expect(failed(e)).toEqual(
        require_same_harness ? ["same_harness", "real_harness_revisions"] : ["real_harness_revisions"],
      );
      const real = e.checks.find((x) => x.id === "real_harness_revisions");
      expect(real?.observed).toBe("unknown:swebench-pro");
      expect(real?.detail).toContain(
        "The candidate ran on the placeholder harness revision unknown:swebench-pro (baseline: git:h1; candidate: git:h1, unknown:swebench-pro)",
      );
      expect(real?.detail).toContain("`model-gate import swebench-pro … --harness-revision R`");
      // Labels cannot fix a harness: unbounded resolution distance even when only this check fails.
      const ds = buildDataset(example5, opts);
      const policy = buildPolicy({ require_same_harness });
      expect(computeFragility(ds, policy, noCanary, e)).toMatchObject({
        resolution_distance: null,
        fragility_unbounded: true,
        fragility_exact: true,
      });
    }
    // Real revisions pass, with "all real" observed.
    const ok = run(example5, { require_same_harness: false });
    expect(ok.checks.find((x) => x.id === "real_harness_revisions")).toMatchObject({
      observed: "all real",
      passed: true,
    });
    expect(ok.verdict).toBe("accept");
  });

  it("placeholder rule: `unknown` or an `unknown:` prefix in any letter case, nothing else", () => {
    const verdictWith = (h: string) =>
      failed(
        run(example5, { require_same_harness: false }, noCanary, { baseline: { harnessRevisions: [h] } }),
      );
    for (const h of ["unknown", "unknown:", "UNKNOWN:x", "Unknown:inspect", "unknown:my harness"]) {
      expect(verdictWith(h)).toEqual(["real_harness_revisions"]);
    }
    for (const h of ["unknowns", "git:unknown", "unknown-1", " unknown:x", "v-unknown:1"]) {
      expect(verdictWith(h)).toEqual([]);
    }
    // A placeholder that no importer wrote: the remedy is generic.
    const e = run(example5, {}, noCanary, {
      baseline: { harnessRevisions: ["UNKNOWN"] },
      candidate: { harnessRevisions: ["UNKNOWN"] },
    });
    expect(e.checks.find((x) => x.id === "real_harness_revisions")?.detail).toContain(
      "re-import with the importer's `--harness-revision R`",
    );
  });
});

describe("canary failure rejects whatever else holds", () => {
  it("rejects when required or not, even with failing checks or a winning margin", () => {
    const fail: EvaluationContext = { canary: "fail", expired: false };
    for (const policy of [
      { production_canary: true },
      { production_canary: false },
      { common_valid_tasks: ">= 9999" },
    ]) {
      const e = run(example5, policy, fail);
      expect(e.verdict).toBe("reject");
      expect(e.reasons[0]).toContain("production canary failed");
    }
    // Not required: no canary check appears, the verdict is still reject.
    expect(run(example5, {}, fail).checks.some((c) => c.id === "production_canary")).toBe(false);
  });
});

describe("δ₀ (superiority and non-inferiority margins)", () => {
  it("+1% still accepts example 5 (LCB 0.0118), +2% does not", () => {
    const plus1 = run(example5, { delta0: 0.01 });
    expect(plus1.verdict).toBe("accept");
    expect(plus1.checks.at(-1)).toMatchObject({ id: "observed_margin", threshold: "> +1%", kind: "margin" });
    const plus2 = run(example5, { delta0: 0.02 });
    expect(plus2.verdict).toBe("unresolved");
    expect(plus2.reasons[0]).toContain("does not clear δ₀ = +2.00 pp");
    expect(plus2.comparison.delta0).toBe(0.02);
  });

  it("−1% accepts a candidate not worse by more than a point; 0 leaves it unresolved", () => {
    // Δ̂ = 0 on 1000 valid tasks with 10 wins each way: SE = sqrt(20/(1000·999)) ≈ 0.004475.
    const tie: TaskSpec[] = [
      ...repeat(10, { a: "pass", b: "fail" }),
      ...repeat(10, { a: "fail", b: "pass" }),
      ...repeat(980, { a: "pass", b: "pass" }),
    ];
    const minus1 = run(tie, { delta0: -0.01 });
    // q = t_{0.95, 999} = 1.646380 (scipy.stats.t.ppf).
    expect(minus1.comparison.q_lower).toBeCloseTo(1.64638, 6);
    expect(minus1.comparison.lcb).toBeCloseTo(-1.646380345 * Math.sqrt(20 / (1000 * 999)), 9);
    expect(minus1.verdict).toBe("accept");
    expect(minus1.checks.at(-1)?.threshold).toBe("> -1%");
    const zero = run(tie);
    expect(zero.verdict).toBe("unresolved");
    expect(zero.reasons[0]).toContain("the evidence cannot carry the ranking");
    expect(zero.reasons[0]).toContain("more common valid tasks");
    // Under non-inferiority a candidate is rejected when UCB ≤ δ₀: swapped has UCB = −0.0118.
    expect(run(swapped, { delta0: -0.01 }).verdict).toBe("reject");
    expect(run(swapped, { delta0: -0.05 }).verdict).toBe("unresolved");
    expect(run(swapped, { delta0: -0.1 }).verdict).toBe("accept");
  });
});

describe("infra_errors policy", () => {
  // Task 0: candidate lost to infra, baseline passes. Task 1–2: plain.
  const tasks: TaskSpec[] = [
    { validity: "valid", a: { infra: 2 }, b: "pass" },
    { validity: "valid", a: { pass: 1, infra: 1 }, b: "pass" },
    { validity: "valid", a: "pass", b: "fail" },
  ];

  it("exclude: infra errors leave K*, the lost task is not common", () => {
    const e = run(tasks, { common_valid_tasks: ">= 1", infra_error_rate: "< 100%" });
    expect(e.comparison.common_tasks).toBe(2);
    expect(e.comparison.margin).toBeCloseTo(0.5, 15);
    expect(e.models.candidate.lost_to_infra_tasks).toBe(1);
    expect(e.models.candidate.attempted_tasks).toBe(2);
    expect(e.models.candidate.valid_only_score).toBeCloseTo(1, 15);
    expect(e.warnings).toEqual([]);
  });

  it("count_as_fail: infra errors are fails, d changes, the headline says so", () => {
    const e = run(tasks, {
      common_valid_tasks: ">= 1",
      infra_error_rate: "< 100%",
      infra_errors: "count_as_fail",
    });
    expect(e.comparison.common_tasks).toBe(3);
    // d = [0 − 1, 0.5 − 1, 1 − 0] → Δ̂ = −0.5/3.
    expect(e.comparison.margin).toBeCloseTo(-0.5 / 3, 15);
    expect(e.models.candidate.attempted_tasks).toBe(3);
    expect(e.models.candidate.valid_only_score).toBeCloseTo(1.5 / 3, 15);
    // Row counts stay as read.
    expect(e.models.candidate).toMatchObject({
      infra_errors: 3,
      fails: 0,
      passes: 2,
      lost_to_infra_tasks: 1,
    });
    expect(e.warnings).toHaveLength(1);
    expect(e.warnings[0]).toContain("count_as_fail");
    expect(e.warnings[0]).toContain("3 candidate infra errors");
  });
});

describe("broken tasks", () => {
  it("leave T, are counted in broken_tasks and never enter C or the model counts", () => {
    const broken = repeat(30, { validity: "broken", a: "fail", b: "pass" });
    const e = run([...example5, ...broken], { missing_fraction: "< 2%" });
    expect(e.comparison.broken_tasks).toBe(30);
    expect(e.comparison.common_tasks).toBe(540);
    expect(e.comparison.lcb).toBeCloseTo(0.011746, 6);
    expect(e.models.baseline.attempts).toBe(540);
    expect(e.models.candidate.passes).toBe(70 + 205 + 2 + 12);
    expect(e.verdict).toBe("accept");
    // A broken task only one model ran adds nothing to its missing tasks.
    const e2 = run([...example5, ...repeat(30, { validity: "broken", b: "pass" })], {
      missing_fraction: "< 2%",
    });
    expect(e2.models.candidate.missing_tasks).toBe(0);
    expect(e2.models.candidate.missing_fraction).toBe(0);
  });
});

describe("undefined figures are null, never NaN", () => {
  it("no common valid tasks: Δ̂, SEs, LCB, UCB null and unresolved", () => {
    const e = run(repeat(5, { validity: "disputed", a: "pass", b: "fail" }), { common_valid_tasks: ">= 0" });
    expect(e.comparison.margin).toBeNull();
    expect(e.comparison.lcb).toBeNull();
    expect(e.comparison.ucb).toBeNull();
    expect(e.comparison.validity_sensitivity).toBeNull();
    expect(e.comparison.margin_lower).toBe(1);
    expect(e.verdict).toBe("unresolved");
    expect(e.checks.at(-1)).toMatchObject({ id: "observed_margin", observed: null, passed: false });
    expect(e.reasons.join(" ")).toContain("no common task is labelled valid");
    expectFinite(e);
  });

  it("an empty dataset", () => {
    const e = run([]);
    expect(e.verdict).toBe("unresolved");
    expect(e.comparison.disputed_fraction).toBeNull();
    expect(e.models.candidate.infra_error_rate).toBeNull();
    expect(e.models.candidate.missing_fraction).toBeNull();
    expect(e.models.candidate.interval_exact).toBeNull();
    expectFinite(e);
  });

  it("one common valid task: the SE needs two", () => {
    const e = run([{ a: "pass", b: "fail" }], { common_valid_tasks: ">= 1" });
    expect(e.comparison.margin).toBe(1);
    expect(e.comparison.se_valid).toBeNull();
    expect(e.comparison.lcb).toBeNull();
    expect(e.verdict).toBe("unresolved");
    expect(e.reasons.join(" ")).toContain("fewer than 2 tasks");
  });
});

describe("standard errors", () => {
  it("clustered: reports G, warns below 30 clusters", () => {
    const tasks = example5.map((t, i) => ({ ...t, cluster: `repo-${i % 12}` }));
    const e = run(tasks, { standard_error: "clustered" });
    expect(e.comparison.standard_error).toBe("clustered");
    expect(e.comparison.clusters).toBe(12);
    expect(e.comparison.se_valid).not.toBeNull();
    // 12 near-equal clusters (45 tasks each, 43–44 valid): Bell–McCaffrey ν just under G − 1 = 11.
    expect(e.comparison.cluster_correction).toBe("cr2");
    expect(e.comparison.nu_valid).toBeGreaterThan(10.9);
    expect(e.comparison.nu_valid).toBeLessThanOrEqual(11);
    expect(e.warnings.some((w) => w.includes("over 12 clusters") && w.includes("ν = 11.0"))).toBe(true);
    const cr1 = run(tasks, { standard_error: "clustered", cluster_correction: "cr1" });
    expect(cr1.comparison.nu_valid).toBe(11);
    expect(cr1.warnings.some((w) => w.includes("ν = G − 1 = 11"))).toBe(true);
    const many = run(
      example5.map((t, i) => ({ ...t, cluster: `repo-${String(i % 40).padStart(2, "0")}` })),
      { standard_error: "clustered" },
    );
    expect(many.comparison.clusters).toBe(40);
    expect(many.warnings).toEqual([]);
  });

  it("clustered with every task its own cluster: the paired SE on V, a conservative bound over every resolution", () => {
    const own = run(
      example5.map((t, i) => ({ ...t, cluster: `c${i}` })),
      { standard_error: "clustered" },
    );
    const paired = run(example5);
    expect(own.comparison.se_valid).toBeCloseTo(paired.comparison.se_valid ?? Number.NaN, 12);
    expect(own.comparison.nu_valid).toBeCloseTo(519, 9);
    // Over every resolution the clustered bound is the conservative one (SPEC §3 revision 2): it
    // lies below the exact paired LCB and above the exact UCB, with SE_max ≥ every SE(V ∪ S).
    expect(paired.comparison.lcb_bound_kind).toBe("exact");
    expect(own.comparison.lcb_bound_kind).toBe("conservative");
    expect(own.comparison.lcb_set).toBeNull();
    expect(own.comparison.lcb).toBeLessThan(paired.comparison.lcb ?? Number.NaN);
    expect(own.comparison.ucb).toBeGreaterThan(paired.comparison.ucb ?? Number.NaN);
    expect(own.comparison.se_lower).toBeGreaterThanOrEqual(paired.comparison.se_lower ?? Number.NaN);
    // By hand: SE_max² = (1/520)·(Σ_V (d − Δ_L)²/519 + Σ_U (d − Δ_L)²/520) at Δ_L = 24/538 (the larger
    // end point), SE_max = 0.020806; ν_min = 1/F̄ = 499.81; LCB = 0.044610 − t_499.81⁻¹(0.95)·0.020806.
    expect(own.comparison.se_lower).toBeCloseTo(0.020806, 6);
    expect(own.comparison.nu_lower).toBeCloseTo(499.8119, 4);
    expect(own.comparison.lcb).toBeCloseTo(0.010324, 6);
  });

  it("clustered with a common task lacking a cluster: SEs undefined, a warning and a reason, not a guess", () => {
    const tasks = example5.map((t, i) => (i === 3 ? t : { ...t, cluster: `c${i % 50}` }));
    const e = run(tasks, { standard_error: "clustered" });
    expect(e.comparison.se_valid).toBeNull();
    expect(e.comparison.lcb).toBeNull();
    expect(e.verdict).toBe("unresolved");
    expect(e.warnings.join(" ")).toContain("1 common task has no cluster");
    expect(e.reasons.join(" ")).toContain("has no cluster");
  });

  it("pessimistic: S_L = S_H = U with d replaced by ∓1 in the SE", () => {
    const e = run(example5, { validity_bound: "pessimistic" });
    expect(e.comparison.margin_lower).toBeCloseTo((30 - 20) / 540, 15);
    expect(e.comparison.margin_upper).toBeCloseTo((30 + 20) / 540, 15);
    // SE over 520 valid d plus 20 × (−1): 90 wins / 60 losses... computed directly.
    const d = [...Array<number>(70).fill(1), ...Array<number>(60).fill(-1), ...Array<number>(410).fill(0)];
    const mean = d.reduce((s, x) => s + x, 0) / d.length;
    const se = Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / (d.length * (d.length - 1)));
    expect(e.comparison.se_lower).toBeCloseTo(se, 12);
    expect(e.comparison.influential_tasks.every((t) => t.in_lower_set && t.in_upper_set)).toBe(true);
  });

  it("re-run-only SE when every valid task has ≥ 2 attempts for both models", () => {
    const tasks: TaskSpec[] = [
      { a: { pass: 1, fail: 1 }, b: { pass: 2 } },
      { a: { pass: 2, fail: 2 }, b: { pass: 1, fail: 3 } },
      { a: { pass: 3 }, b: { fail: 3 } },
    ];
    const e = run(tasks, { common_valid_tasks: ">= 1" });
    // terms: .25/1 + 0; .25/3 + .1875/3; 0 + 0.
    const expected = Math.sqrt(0.25 + (0.25 + 0.1875) / 3) / 3;
    expect(e.comparison.se_rerun).toBeCloseTo(expected, 15);
    const single = run([...tasks, { a: "pass", b: "fail" }], { common_valid_tasks: ">= 1" });
    expect(single.comparison.se_rerun).toBeNull();
  });
});

describe("warnings", () => {
  it("an expired policy names the revisit date and the owner", () => {
    const e = run(example5, {}, { canary: null, expired: true });
    expect(e.verdict).toBe("accept");
    expect(e.warnings).toEqual([
      "Policy expired on 2027-03-31; owner @acme/eval-owners must re-examine the thresholds.",
    ]);
  });

  it("one cluster: says 2 are needed; no common valid task: says nothing of clusters", () => {
    const one = run(repeat(10, { validity: "valid", a: "pass", b: "fail", cluster: "org/repo" }), {
      standard_error: "clustered",
    });
    expect(one.warnings).toEqual([
      "Clustered standard error over 1 cluster: at least 2 are needed, so the standard errors are undefined and the margin cannot decide.",
    ]);
    const none = run(repeat(10, { validity: "unreviewed", a: "pass", b: "fail", cluster: "org/repo" }), {
      standard_error: "clustered",
    });
    expect(none.warnings).toEqual([]);
    expect(none.checks.find((k) => k.id === "observed_margin")?.detail).toContain(
      "no common task is labelled valid",
    );
  });
});

describe("influential tasks", () => {
  it("are bounded, ordered by |d|, then the minimising set, then task key, and carry evidence", () => {
    const tasks: TaskSpec[] = [
      ...repeat(100, { a: "pass", b: "fail" }),
      ...repeat(100, { a: "fail", b: "fail" }),
      ...Array.from({ length: 80 }, (_, i): TaskSpec => ({
        id: `u${String(i).padStart(3, "0")}`,
        validity: i % 2 === 0 ? "disputed" : "unreviewed",
        a: i < 10 ? "fail" : "pass",
        b: i < 10 ? "pass" : i < 20 ? "fail" : "pass",
        evidence: [`logs/u${i}.log`],
      })),
    ];
    const e = run(tasks);
    const inf = e.comparison.influential_tasks;
    expect(inf).toHaveLength(50);
    expect(inf.slice(0, 10).map((t) => t.task_id)).toEqual(Array.from({ length: 10 }, (_, i) => `u00${i}`));
    expect(inf.slice(0, 10).every((t) => t.d === -1 && t.in_lower_set)).toBe(true);
    expect(inf.slice(10, 20).every((t) => t.d === 1 && !t.in_lower_set)).toBe(true);
    expect(inf[0]).toMatchObject({
      validity: "disputed",
      evidence: ["logs/u0.log"],
      dataset_revision: "rev1",
    });
    expect(inf[1]?.validity).toBe("unreviewed");
  });
});
