/**
 * Exact ties are exact (docs/rank.md "Every pair", "Rank intervals and groups"): margins and
 * bounds come from integer counts, so a margin of exactly 0 is 0 — not −3.7e-17 — and its pair is
 * classified and listed as such; exact score ties are in model-id order; and a tie no label can
 * move is never said to be for the open labels to decide. Each case is built so that a
 * floating-point sum of the task differences is not 0 (checked first), so it fails without the
 * exact sums.
 */
import fc from "fast-check";
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { evaluate } from "../../src/core/decision/evaluate.js";
import { analyseMargin } from "../../src/core/stats/margin.js";
import { ExactSum } from "../../src/core/stats/exact-sum.js";
import { renderRankHtml } from "../../src/core/rank/render-rank-html.js";
import { renderRankMarkdown } from "../../src/core/rank/render-rank-markdown.js";
import { renderRankText } from "../../src/core/rank/render-rank-text.js";
import { InputError } from "../../src/core/errors.js";
import { tempDir } from "../helpers/export-writer.js";
import { buildDataset, buildPolicy, type TaskSpec } from "../stats/dataset-builder.js";
import { policyWith, rankOf, writeMulti, type MultiTask, type Outcome } from "./rank-helpers.js";

const dir = tempDir("rank-ties-");
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** `pass` passes of `k` attempts. */
const of = (pass: number, k: number): Outcome[] =>
  Array.from({ length: k }, (_, i) => (i < pass ? "pass" : "fail"));

/** The naive floating-point Σ (p_a/k_a − p_b/k_b), in task order. */
function floatSum(pairs: readonly (readonly [number, number, number, number])[]): number {
  let s = 0;
  for (const [pa, ka, pb, kb] of pairs) s += pa / ka - pb / kb;
  return s;
}

/** Three valid tasks whose differences sum to exactly 0: −2/3, +2/3, 0. */
const TIE: readonly (readonly [number, number, number, number])[] = [
  [1, 3, 2, 2],
  [2, 3, 0, 2],
  [2, 2, 3, 3],
];

describe("ExactSum", () => {
  it("adds ratios exactly and says the sign", () => {
    const s = new ExactSum();
    for (const [pa, ka, pb, kb] of TIE) {
      s.add(pa, ka);
      s.add(-pb, kb);
    }
    expect(floatSum(TIE)).not.toBe(0);
    expect(s.sign()).toBe(0);
    expect(s.value()).toBe(0);
    s.add(1, 7);
    expect(s.sign()).toBe(1);
    expect(s.value()).toBeCloseTo(1 / 7, 15);
    s.add(-2, 7);
    expect(s.sign()).toBe(-1);
  });
});

describe("analyseMargin and evaluate: a margin or bound at 0 is exactly 0", () => {
  it("the constructed tie: Δ̂ = Δ_H = 0 exactly (open tasks only pull down), in evaluate too", () => {
    const specs: TaskSpec[] = [
      ...TIE.map(([pa, ka, pb, kb]) => ({
        a: { pass: pa, fail: ka - pa },
        b: { pass: pb, fail: kb - pb },
      })),
      { validity: "disputed", a: "fail", b: "pass" },
      { validity: "unreviewed", a: "fail", b: "pass" },
    ];
    const ds = buildDataset(specs);
    for (const bound of ["exact", "pessimistic"] as const) {
      const policy = buildPolicy({ validity_bound: bound });
      const x = analyseMargin(ds, { infra: "exclude", margin: policy.margin });
      expect(Object.is(x.margin, 0)).toBe(true);
      if (bound === "exact") expect(Object.is(x.marginUpper, 0)).toBe(true);
      expect(x.marginLower).toBeLessThan(0);
      const e = evaluate(ds, policy, { canary: null, expired: false });
      expect(Object.is(e.comparison.margin, 0)).toBe(true);
    }
  });

  it("any margin built to be 0 (each task with its mirror, in any order) is exactly 0, and its bounds' signs are exact", () => {
    const counts = fc.tuple(
      fc.integer({ min: 1, max: 7 }),
      fc.integer({ min: 1, max: 7 }),
      fc.nat(),
      fc.nat(),
    );
    fc.assert(
      fc.property(fc.array(counts, { minLength: 1, maxLength: 6 }), fc.nat(), (raw, seed) => {
        const tasks = raw.map(([ka, kb, x, y]) => [x % (ka + 1), ka, y % (kb + 1), kb] as const);
        // Each task and its mirror (the models swapped): Σ d = 0 exactly.
        const all = [...tasks, ...tasks.map(([pa, ka, pb, kb]) => [pb, kb, pa, ka] as const)];
        const order = all
          .map((_, i) => i)
          .sort((i, j) => ((i * 7919 + seed) % 101) - ((j * 7919 + seed) % 101));
        const specs: TaskSpec[] = order.map((i) => {
          const [pa, ka, pb, kb] = all[i] as readonly [number, number, number, number];
          return { a: { pass: pa, fail: ka - pa }, b: { pass: pb, fail: kb - pb } };
        });
        // Open tasks that can only pull the margin down: Δ_H stays Δ̂ = 0.
        specs.push({ validity: "disputed", a: { pass: 0, fail: 3 }, b: { pass: 1, fail: 2 } });
        const x = analyseMargin(buildDataset(specs), { infra: "exclude", margin: buildPolicy({}).margin });
        expect(Object.is(x.margin, 0)).toBe(true);
        expect(Object.is(x.marginUpper, 0)).toBe(true);
        expect(x.marginLower).toBeLessThan(0);
      }),
    );
  });
});

describe("rank: exact ties", () => {
  it("an exact-zero pair with open labels is `validity` and in review_first", async () => {
    const tasks: MultiTask[] = [
      ...TIE.map(([pa, ka, pb, kb], i) => ({
        id: `t-${i}`,
        validity: "valid" as const,
        results: { x: of(pa, ka), y: of(pb, kb) },
      })),
      { id: "t-open-1", validity: "disputed", results: { x: ["fail"], y: ["pass"] } },
      { id: "t-open-2", validity: "unreviewed", results: { x: ["fail"], y: ["pass"] } },
    ];
    const r = await rankOf(writeMulti(dir, tasks, "zero.jsonl"), policyWith(3), ["y", "x"]);
    // The pair is (y, x): d = y − x, and the open tasks can only raise it, so Δ_L = Δ̂ = 0.
    const p = r.pairs[0];
    expect([p?.a, p?.b]).toEqual(["y", "x"]);
    expect(Object.is(p?.margin, 0)).toBe(true);
    expect(Object.is(p?.margin_low, 0)).toBe(true);
    expect(p?.relation).toBe("unresolved");
    expect(p?.unresolved_by).toBe("validity");
    // Exact score tie: model-id order, x before y, whichever way the models were given.
    expect(r.models.map((m) => m.model)).toEqual(["x", "y"]);
    expect(r.review_first.map((f) => [f.a, f.b])).toEqual([["x", "y"]]);
    expect(r.review_first[0]?.tasks.map((t) => t.task_id)).toEqual(["t-open-1", "t-open-2"]);
    // Both open tasks resolved broken leave Δ_L at 0, not above: no resolution puts x above y.
    expect(r.review_first[0]?.reviews_to_settle_a_better).toBeNull();
    expect(r.review_first[0]?.reviews_to_settle_b_better).toBe(1);
  });

  it("exact score ties are in model-id order, though the floating-point scores differ", async () => {
    // The same task scores in reverse task order: equal sums, unequal floating-point sums.
    const scores: [number, number][] = [
      [2, 3],
      [2, 5],
      [1, 7],
      [2, 5],
      [1, 6],
    ];
    let forward = 0;
    for (const [p, k] of scores) forward += p / k;
    let backward = 0;
    for (const [p, k] of [...scores].reverse()) backward += p / k;
    expect(forward).toBeGreaterThan(backward);
    const tasks: MultiTask[] = scores.map(([p, k], i) => {
      const [q, l] = scores[scores.length - 1 - i] as [number, number];
      // m-b has the larger floating-point score; m-a comes first by id.
      return {
        id: `t-${i}`,
        validity: "valid",
        results: { "m-b": of(p, k), "m-a": of(q, l), low: ["fail"] },
      };
    });
    const r = await rankOf(writeMulti(dir, tasks, "score-tie.jsonl"), policyWith(5), ["m-b", "low", "m-a"]);
    expect(r.models.map((m) => m.model)).toEqual(["m-a", "m-b", "low"]);
    const pair = r.pairs.find((p) => p.a === "m-b" && p.b === "m-a");
    expect(Object.is(pair?.margin, 0)).toBe(true);
    expect(pair?.unresolved_by).toBe("run_variance");
  });

  it("an exact score tie with no open label is not for the labels to decide, in any format", async () => {
    const tasks: MultiTask[] = Array.from({ length: 40 }, (_, i) => ({
      id: `t-${String(i).padStart(2, "0")}`,
      validity: "valid",
      results: { p: [i % 2 === 0 ? "pass" : "fail"], q: [i % 2 === 0 ? "pass" : "fail"] },
    }));
    const r = await rankOf(writeMulti(dir, tasks, "no-open.jsonl"), policyWith(10), ["q", "p"]);
    const pair = r.pairs[0];
    expect([pair?.margin, pair?.margin_low, pair?.margin_high]).toEqual([0, 0, 0]);
    expect(pair?.unresolved_by).toBe("run_variance");
    expect(r.review_first).toEqual([]);
    for (const page of [renderRankMarkdown(r), renderRankText(r), renderRankHtml(r)]) {
      expect(page).not.toContain("the open labels alone decide");
      expect(page).not.toContain("the open labels can decide this order");
      expect(page).not.toMatch(/review these first:\s*$/im);
      expect(page).not.toContain("To settle it no resolution can");
      expect(page).toContain("unresolved (run variance)");
    }
  });

  it("no task labelled valid: says so and how to add labels, instead of blaming the models", async () => {
    const tasks: MultiTask[] = Array.from({ length: 30 }, (_, i) => ({
      id: `t-${i}`,
      validity: "unreviewed",
      results: { a: ["pass"], b: [i % 2 === 0 ? "pass" : "fail"] },
    }));
    const error = await rankOf(writeMulti(dir, tasks, "unlabelled.jsonl"), policyWith(10), null).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    const message = (error as Error).message;
    expect(message).toContain(
      "No task is labelled valid: of the 30 non-broken tasks the 2 ranked models ran, none has the label valid",
    );
    expect(message).toContain("a reviews file with --reviews");
    expect(message).toContain(
      "model-gate import verified-annotations with the results' --dataset-revision or the same --tasks list",
    );
    expect(message).not.toContain("the models share few tasks, or most are broken or open");
  });
});
