/** evaluate() against brute force on random small datasets, and at scale. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { evaluate } from "../../src/core/decision/evaluate.js";
import type { Validity } from "../../src/core/model.js";
import { buildDataset, buildPolicy, type TaskSpec } from "../stats/dataset-builder.js";

const ctx = { canary: null, expired: false } as const;

const countsArb = fc.record({
  pass: fc.nat(3),
  fail: fc.nat(3),
  infra: fc.nat(1),
});
const taskArb: fc.Arbitrary<TaskSpec> = fc.record({
  validity: fc.constantFrom<Validity>("valid", "valid", "disputed", "unreviewed", "broken"),
  a: countsArb,
  b: countsArb,
});

/** Brute-force margin bounds over all subsets of U, from the specs directly. */
function bruteMargin(tasks: readonly TaskSpec[], countAsFail: boolean) {
  const score = (c: TaskSpec["a"]) => {
    if (c === undefined || typeof c === "string") throw new Error("record specs only");
    const k = (c.pass ?? 0) + (c.fail ?? 0) + (countAsFail ? (c.infra ?? 0) : 0);
    return k === 0 ? null : (c.pass ?? 0) / k;
  };
  const valid: number[] = [];
  const open: number[] = [];
  for (const t of tasks) {
    if (t.validity === "broken") continue;
    const a = score(t.a);
    const b = score(t.b);
    if (a === null || b === null) continue;
    (t.validity === "valid" ? valid : open).push(a - b);
  }
  let lo = Infinity;
  let hi = -Infinity;
  for (let mask = 0; mask < 1 << open.length; mask++) {
    let s = valid.reduce((x, y) => x + y, 0);
    let n = valid.length;
    open.forEach((d, i) => {
      if (mask & (1 << i)) {
        s += d;
        n++;
      }
    });
    if (n === 0) continue;
    lo = Math.min(lo, s / n);
    hi = Math.max(hi, s / n);
  }
  return { valid, open, lo, hi };
}

describe("evaluate on random small datasets", () => {
  it("margin bounds equal brute force; per-model figures and numbers are finite or null", () => {
    fc.assert(
      fc.property(
        fc
          .array(taskArb, { maxLength: 18 })
          .filter((ts) => ts.filter((t) => t.validity !== "valid").length <= 10),
        fc.boolean(),
        fc.constantFrom("paired" as const, "clustered" as const),
        (tasks, countAsFail, se) => {
          const withClusters = tasks.map((t, i) => ({ ...t, cluster: `c${i % 3}` }));
          const e = evaluate(
            buildDataset(withClusters),
            buildPolicy({ infra_errors: countAsFail ? "count_as_fail" : "exclude", standard_error: se }),
            ctx,
          );
          const bf = bruteMargin(tasks, countAsFail);
          const c = e.comparison;
          expect(c.common_valid_tasks).toBe(bf.valid.length);
          expect(c.unresolved_tasks).toBe(bf.open.length);
          if (bf.valid.length + bf.open.length === 0) {
            expect(c.margin_lower).toBeNull();
          } else {
            expect(c.margin_lower).toBeCloseTo(bf.lo, 12);
            expect(c.margin_upper).toBeCloseTo(bf.hi, 12);
          }
          if (c.lcb !== null && c.ucb !== null) {
            expect(c.lcb).toBeLessThanOrEqual(c.margin_lower ?? Number.NaN);
            expect(c.ucb).toBeGreaterThanOrEqual(c.margin_upper ?? Number.NaN);
          }
          if (c.margin !== null) {
            expect(c.validity_sensitivity).toBeGreaterThanOrEqual(0);
            expect(c.validity_sensitivity_upside).toBeGreaterThanOrEqual(0);
          }
          JSON.stringify(e, (_k, v: unknown) => {
            if (typeof v === "number") expect(Number.isFinite(v)).toBe(true);
            return v;
          });
          expect(e.verdict === "accept").toBe(e.checks.every((ch) => ch.passed));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("is deterministic: the same input gives the same output", () => {
    fc.assert(
      fc.property(fc.array(taskArb, { maxLength: 30 }), (tasks) => {
        const a = evaluate(buildDataset(tasks), buildPolicy(), ctx);
        const b = evaluate(buildDataset(tasks), buildPolicy(), ctx);
        expect(JSON.stringify(a)).toBe(JSON.stringify(b));
      }),
      { numRuns: 50 },
    );
  });
});

describe("evaluate at scale", () => {
  it("handles 100,000 common tasks, every one unresolved too (its speed is npm run bench's, not a test's)", () => {
    const n = 100_000;
    const tasks: TaskSpec[] = Array.from({ length: n }, (_, i) => {
      const r = (i * 2654435761) % 1000;
      return {
        validity: r < 50 ? "disputed" : r < 80 ? "unreviewed" : r < 100 ? "broken" : "valid",
        cluster: `repo-${i % 200}`,
        a: { pass: r % 3 === 0 ? 2 : 1, fail: 1 },
        b: { pass: r % 5 === 0 ? 2 : 1, fail: 1, infra: r === 7 ? 1 : 0 },
      };
    });
    const ds = buildDataset(tasks);
    for (const se of ["paired", "clustered"] as const) {
      const policy = buildPolicy({ standard_error: se, infra_error_rate: "< 5%" });
      const e = evaluate(ds, policy, ctx);
      expect(e.comparison.common_tasks).toBe(n - n / 50);
      expect(e.comparison.lcb).not.toBeNull();
    }
    // Worst case for the sort: every task unresolved.
    const open = buildDataset(tasks.map((t) => ({ ...t, validity: "disputed" as const })));
    const e = evaluate(open, buildPolicy(), ctx);
    expect(e.comparison.unresolved_tasks).toBe(n);
    expect(e.comparison.influential_tasks).toHaveLength(50);
  });
});
