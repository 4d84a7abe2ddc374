/**
 * The report's bound figures add up (schema 2.2.0): lcb = margin_at_lcb − q_lower·se_lower and
 * ucb = margin_at_ucb + q_upper·se_upper for every kind of bound, with margin_at_* = Δ(S*) at the
 * attaining set of an exact bound (recomputed here from lcb_set / ucb_set, which need not be S_L
 * or S_H) and Δ_L / Δ_H for a conservative or pessimistic one.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluate } from "../../src/core/decision/evaluate.js";
import type { Validity } from "../../src/core/model.js";
import type { Evaluation } from "../../src/core/decision/evaluation-types.js";
import type { AttainingSet } from "../../src/core/verdict-types.js";

type Comparison = Evaluation["comparison"];
import {
  buildDataset,
  buildPolicy,
  repeat,
  type PolicySpec,
  type TaskSpec,
} from "../stats/dataset-builder.js";

const ctx = { canary: null, expired: false } as const;

function expectAddsUp(c: Comparison): void {
  if (c.lcb === null) {
    expect(c.margin_at_lcb).toBeNull();
  } else {
    expect(c.margin_at_lcb).not.toBeNull();
    expect((c.margin_at_lcb ?? NaN) - (c.q_lower ?? NaN) * (c.se_lower ?? NaN)).toBeCloseTo(c.lcb, 12);
  }
  if (c.ucb === null) {
    expect(c.margin_at_ucb).toBeNull();
  } else {
    expect((c.margin_at_ucb ?? NaN) + (c.q_upper ?? NaN) * (c.se_upper ?? NaN)).toBeCloseTo(c.ucb, 12);
  }
}

/** Δ(S) at an attaining set of single-attempt open tasks: (Σ_V d + k₊ − k₋)/(N_v + |S|). */
function marginAt(c: Comparison, s: AttainingSet): number {
  const validSum = (c.margin ?? NaN) * c.common_valid_tasks;
  return (validSum + s.d_plus - s.d_minus) / (c.common_valid_tasks + s.size);
}

const single = fc.constantFrom<"pass" | "fail">("pass", "fail");
const singleTask: fc.Arbitrary<TaskSpec> = fc.record({
  validity: fc.constantFrom<Validity>("valid", "valid", "disputed", "unreviewed"),
  a: single,
  b: single,
});

describe("margin_at_lcb / margin_at_ucb", () => {
  it("exact bounds: Δ(S*) at the attaining set, and the bound adds up", () => {
    let notAtSL = 0;
    fc.assert(
      fc.property(fc.array(singleTask, { minLength: 3, maxLength: 30 }), (tasks) => {
        const c = evaluate(buildDataset(tasks), buildPolicy({}), ctx).comparison;
        expectAddsUp(c);
        if (c.lcb !== null) {
          expect(c.lcb_bound_kind).toBe("exact");
          expect(c.lcb_set).not.toBeNull();
          expect(c.margin_at_lcb).toBeCloseTo(marginAt(c, c.lcb_set as AttainingSet), 12);
          if (Math.abs((c.margin_at_lcb ?? 0) - (c.margin_lower ?? 0)) > 1e-12) notAtSL++;
        }
        if (c.ucb !== null) {
          expect(c.margin_at_ucb).toBeCloseTo(marginAt(c, c.ucb_set as AttainingSet), 12);
        }
      }),
      { numRuns: 300, seed: 20261204 },
    );
    // The case the figure exists for: an exact LCB attained away from S_L.
    expect(notAtSL).toBeGreaterThan(0);
  });

  it("an exact LCB attained away from S_L: Δ(S*) is not Δ_L", () => {
    // 3 valid wins, 1 valid loss, 2 valid ties of each kind, 3 open ties: adding the ties lowers
    // the SE more than it lowers the margin, so S* leaves them broken.
    const tasks = [
      ...repeat(3, { validity: "valid", a: "pass", b: "fail" }),
      ...repeat(1, { validity: "valid", a: "fail", b: "pass" }),
      ...repeat(2, { validity: "valid", a: "pass", b: "pass" }),
      ...repeat(2, { validity: "valid", a: "fail", b: "fail" }),
      ...repeat(3, { validity: "disputed", a: "fail", b: "fail" }),
    ];
    const c = evaluate(buildDataset(tasks), buildPolicy({}), ctx).comparison;
    expect(c.lcb_bound_kind).toBe("exact");
    expect(c.lcb_set?.size).toBe(0);
    expect(c.margin_at_lcb).toBeCloseTo(2 / 8, 12);
    expect(c.margin_lower).toBeCloseTo(2 / 11, 12);
    expectAddsUp(c);
  });

  const multi = fc.record({ pass: fc.nat(2), fail: fc.nat(2) }).filter((x) => x.pass + x.fail > 0);
  const cases: readonly { name: string; policy: PolicySpec; kind: Comparison["lcb_bound_kind"] }[] = [
    { name: "conservative (multi-attempt)", policy: {}, kind: "conservative" },
    { name: "conservative (clustered)", policy: { standard_error: "clustered" }, kind: "conservative" },
    { name: "pessimistic", policy: { validity_bound: "pessimistic" }, kind: "pessimistic" },
  ];
  for (const k of cases) {
    it(`${k.name}: Δ_L / Δ_H, and the bound adds up`, () => {
      let seen = 0;
      fc.assert(
        fc.property(
          fc.array(
            fc.record({
              validity: fc.constantFrom<Validity>("valid", "valid", "disputed"),
              a: multi,
              b: multi,
              cluster: fc.constantFrom("c1", "c2", "c3", "c4"),
            }),
            { minLength: 4, maxLength: 24 },
          ),
          (tasks) => {
            const c = evaluate(buildDataset(tasks), buildPolicy(k.policy), ctx).comparison;
            expectAddsUp(c);
            // Multi-attempt data whose open tasks all have d in {−1, 0, +1} is bounded exactly.
            if (c.lcb_bound_kind !== k.kind) return;
            seen++;
            expect(c.margin_at_lcb).toBe(c.margin_lower);
            expect(c.margin_at_ucb).toBe(c.margin_upper);
          },
        ),
        { numRuns: 150, seed: 7 },
      );
      expect(seen).toBeGreaterThan(50);
    });
  }
});
