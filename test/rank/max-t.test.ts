/**
 * The max-t step-down's critical values (src/core/rank/max-t.ts, docs/rank.md "Multiplicity"):
 * the score covariance against hand sums, the factor against L·Lᵀ = Σ, the quantile against the
 * studentized range (Tukey's all-pairs critical value, the oracle for independent equal-variance
 * models), and on random rankings: never stricter than Holm at α/(2(m − r)), so every pair Holm
 * orders is ordered, and the same inputs give the same levels.
 */
import { rmSync } from "node:fs";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { AttemptCounts } from "../../src/core/model.js";
import type { CommonSet } from "../../src/core/rank/common-set.js";
import {
  MAX_T_DRAWS,
  MAX_T_SEED,
  PAIRWISE_HOLM,
  maxTSchedule,
  scoreCovariance,
  semidefiniteCholesky,
  upperTail,
} from "../../src/core/rank/max-t.js";
import { commonSet } from "../../src/core/rank/common-set.js";
import { orderPairs, pairAnalyser, pairIndices } from "../../src/core/rank/rank-pairs.js";
import { runRank } from "../../src/core/rank/rank.js";
import { normalQuantile } from "../../src/core/stats/normal-quantile.js";
import { DISPUTED_CODE, VALID_CODE } from "../../src/core/stats/task-columns.js";
import { tableView } from "../../src/core/task-table-view.js";
import { tempDir } from "../helpers/export-writer.js";
import { policyOf, policyWith, randomTasks, rankInputs, writeMulti } from "./rank-helpers.js";

const dir = tempDir("rank-max-t-");
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const counts = (pass: number, fail: number, infra = 0): AttemptCounts => ({
  pass,
  fail,
  infra_error: infra,
  missing: 0,
});

/** A common set of the given per-model counts (rows: tasks), labels and clusters. */
function setOf(
  rows: readonly (readonly AttemptCounts[])[],
  validity: readonly number[],
  cluster: readonly number[],
): CommonSet {
  const k = rows[0]?.length ?? 0;
  return {
    tasks: Uint32Array.from(rows.map((_, j) => j)),
    validity: Uint8Array.from(validity),
    cluster: Int32Array.from(cluster),
    clusterCount: Math.max(0, ...cluster) + 1,
    counts: Array.from({ length: k }, (_, m) => rows.map((r) => r[m])),
    validTasks: validity.filter((v) => v === VALID_CODE).length,
    disputedTasks: 0,
    unreviewedTasks: 0,
    brokenTasks: 0,
    universeTasks: rows.length,
    addsBack: new Uint32Array(k),
    addsBackValid: new Uint32Array(k),
  };
}

/** The identity covariance of k models: independent, equal variances. */
const identity = (k: number): Float64Array => {
  const out = new Float64Array(k * k);
  for (let i = 0; i < k; i++) out[i * k + i] = 1;
  return out;
};

describe("scoreCovariance", () => {
  // Three models, four tasks; the third task is disputed (left out), the second has 2 attempts.
  const rows = [
    [counts(1, 0), counts(0, 1), counts(1, 0)],
    [counts(1, 1), counts(2, 0), counts(0, 2, 1)],
    [counts(1, 0), counts(1, 0), counts(1, 0)],
    [counts(0, 1), counts(1, 0), counts(1, 0)],
  ];
  const validity = [VALID_CODE, VALID_CODE, DISPUTED_CODE, VALID_CODE];
  // Scores on the valid tasks (exclude): a = 1, ½, 0; b = 0, 1, 1; c = 1, 0, 1.
  const a = [1, 0.5, 0];
  const b = [0, 1, 1];
  const c = [1, 0, 1];
  const centred = (x: number[]) => x.map((v) => v - x.reduce((s, y) => s + y, 0) / x.length);

  it("paired: Σ_ab = Σ_j (s_aj − s̄_a)(s_bj − s̄_b) over the labelled-valid tasks", () => {
    const cov = scoreCovariance(setOf(rows, validity, [0, 0, 1, 1]), "exclude", "paired");
    const s = [a, b, c].map(centred);
    const dot = (x: number[], y: number[]) => x.reduce((t, v, i) => t + v * (y[i] as number), 0);
    const expected = s.flatMap((x) => s.map((y) => dot(x, y)));
    expect(cov).not.toBeNull();
    expected.forEach((v, i) => {
      expect(cov?.[i]).toBeCloseTo(v, 14);
    });
  });

  it("clustered: the same over the clusters' sums of centred scores", () => {
    const cov = scoreCovariance(setOf(rows, validity, [0, 0, 1, 1]), "exclude", "clustered");
    // Cluster 0 holds valid tasks 1 and 2 (indices 0, 1); cluster 1 the last one.
    const s = [a, b, c].map(centred).map((x) => [(x[0] as number) + (x[1] as number), x[2] as number]);
    const dot = (x: number[], y: number[]) => x.reduce((t, v, i) => t + v * (y[i] as number), 0);
    expect(cov).not.toBeNull();
    s.flatMap((x) => s.map((y) => dot(x, y))).forEach((v, i) => {
      expect(cov?.[i]).toBeCloseTo(v, 14);
    });
  });

  it("counts an infra error as a fail under count_as_fail, and takes a lost result's middle under bound", () => {
    const twoTasks = [
      [counts(1, 0, 1), counts(0, 1)],
      [counts(0, 1), counts(1, 0)],
    ];
    const set = setOf(twoTasks, [VALID_CODE, VALID_CODE], [0, 1]);
    // count_as_fail: a = ½, 0; b = 0, 1. bound: a = ¾ (1 pass, 1 lost of 2), 0.
    const cf = scoreCovariance(set, "count_as_fail", "paired");
    expect(cf?.[0]).toBeCloseTo(2 * 0.25 ** 2, 14);
    const bd = scoreCovariance(set, "bound", "paired");
    expect(bd?.[0]).toBeCloseTo(2 * 0.375 ** 2, 14);
    expect(bd?.[1]).toBeCloseTo(2 * (0.375 * -0.5), 14);
  });

  it("is null with fewer than two valid tasks", () => {
    const set = setOf([[counts(1, 0), counts(0, 1)]], [VALID_CODE], [0]);
    expect(scoreCovariance(set, "exclude", "paired")).toBeNull();
  });
});

describe("semidefiniteCholesky", () => {
  it("gives L·Lᵀ = Σ for random covariances, singular ones included", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 48, maxLength: 48 }),
        (k, rank, entries) => {
          // Σ = A·Aᵀ with A k × rank: of rank at most `rank`, so often singular.
          const at = (i: number, r: number) => entries[(i * 8 + r) % entries.length] as number;
          const cov = new Float64Array(k * k);
          for (let i = 0; i < k; i++)
            for (let j = 0; j < k; j++) {
              let s = 0;
              for (let r = 0; r < rank; r++) s += at(i, r) * at(j, r);
              cov[i * k + j] = s;
            }
          const l = semidefiniteCholesky(cov, k);
          for (let i = 0; i < k; i++)
            for (let j = 0; j < k; j++) {
              expect(l[i * k + j], "lower triangular").toBe(j > i ? 0 : l[i * k + j]);
              let s = 0;
              for (let p = 0; p < k; p++) s += (l[i * k + p] as number) * (l[j * k + p] as number);
              expect(s).toBeCloseTo(cov[i * k + j] as number, 8);
            }
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });
});

describe("upperTail", () => {
  it("is Φ(−c): the inverse of the normal quantile", () => {
    for (const level of [0.25, 0.025, 0.005, 0.05 / 20, 1e-6, 1e-9]) {
      expect(upperTail(-normalQuantile(level)) / level).toBeCloseTo(1, 12);
    }
    expect(upperTail(0)).toBe(0.5);
  });
});

describe("maxTSchedule", () => {
  // The studentized range's 95% point q(K, ∞) (Tukey; e.g. Hochberg & Tamhane 1987, table 8):
  // for independent models of equal variance, max over the pairs of |Z_a − Z_b|/√2 = range/√2.
  const tukey: [number, number][] = [
    [3, 3.314],
    [5, 3.858],
    [10, 4.474],
  ];
  it.each(tukey)("with %i independent models the first critical value is Tukey's q/√2 (q = %f)", (k, q) => {
    const pairs = pairIndices(k);
    const level = maxTSchedule(identity(k), pairs, k)(0.05, pairs.length, 0, new Uint8Array(pairs.length));
    // Monte-Carlo error of a 95% quantile over 10,000 draws: about 0.02 in c.
    expect(Math.abs(normalQuantile(1 - level) - q / Math.SQRT2)).toBeLessThan(0.04);
    // And below Holm's first critical value, so it orders more.
    expect(level).toBeGreaterThan(PAIRWISE_HOLM(0.05, pairs.length, 0));
  });

  it("with one pair left is Holm's α/2 exactly, and without a covariance Holm's throughout", () => {
    const pairs = pairIndices(3);
    const s = maxTSchedule(identity(3), pairs, 3);
    expect(s(0.05, 3, 2, Uint8Array.from([1, 1, 0]))).toBe(0.025);
    const none = maxTSchedule(null, pairs, 3);
    expect(none(0.05, 3, 0, new Uint8Array(3))).toBe(0.05 / 6);
    expect(none(0.05, 3, 1, Uint8Array.from([1, 0, 0]))).toBe(0.05 / 4);
  });

  it("leaves a pair without variance out of the maximum", () => {
    // Models 0 and 1 identical: the pair (0, 1) cannot move; (0, 2) and (1, 2) are one statistic.
    const cov = Float64Array.from([1, 1, 0, 1, 1, 0, 0, 0, 1]);
    const pairs = pairIndices(3);
    const level = maxTSchedule(cov, pairs, 3)(0.05, 3, 0, new Uint8Array(3));
    // max of |t| over two identical statistics: the two-sided 5% point, 1.96.
    expect(Math.abs(normalQuantile(1 - level) - 1.96)).toBeLessThan(0.04);
  });

  it("never falls below Holm's α/(2(m − r)), grows as pairs are ordered, and is the same every time", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 6 }),
        fc.array(fc.integer({ min: -2, max: 2 }), { minLength: 36, maxLength: 36 }),
        fc.array(fc.boolean(), { minLength: 15, maxLength: 15 }),
        (k, entries, orderedFlags) => {
          const cov = new Float64Array(k * k);
          for (let i = 0; i < k; i++)
            for (let j = 0; j < k; j++) {
              let s = i === j ? 0.5 : 0;
              for (let r = 0; r < 6; r++)
                s += (entries[i * 6 + r] as number) * (entries[j * 6 + r] as number);
              cov[i * k + j] = s;
            }
          const pairs = pairIndices(k);
          const m = pairs.length;
          const s = maxTSchedule(cov, pairs, k, 2_000);
          const ordered = Uint8Array.from(pairs.map((_, p) => (orderedFlags[p] === true ? 1 : 0)));
          const r = ordered.reduce((t, v) => t + v, 0);
          if (r === m) return;
          const level = s(0.05, m, r, ordered);
          expect(level).toBeGreaterThanOrEqual(PAIRWISE_HOLM(0.05, m, r));
          expect(level).toBeLessThanOrEqual(0.025);
          // One more pair ordered: the level does not fall.
          const next = ordered.indexOf(0);
          const more = ordered.slice();
          more[next] = 1;
          if (r + 1 < m) expect(s(0.05, m, r + 1, more)).toBeGreaterThanOrEqual(level);
          expect(maxTSchedule(cov, pairs, k, 2_000)(0.05, m, r, ordered)).toBe(level);
        },
      ),
      { numRuns: 60, seed: 11 },
    );
  });
});

describe("the max-t step-down in a ranking", () => {
  it("orders every pair Holm at α/(2(m − r)) orders, on random several-model exports", async () => {
    let more = 0;
    for (let seed = 1; seed <= 24; seed++) {
      const models = ["m-a", "m-b", "m-c", "m-d", "m-e"].slice(0, 3 + (seed % 3));
      const se = seed % 2 === 0 ? "paired" : "clustered";
      const text = policyWith(20).replace("standard_error: paired", `standard_error: ${se}`);
      const file = writeMulti(
        dir,
        randomTasks(seed, models, 300, { attempts: 2, open: 0.04, missing: 0 }),
        `r-${seed}.jsonl`,
      );
      const inputs = await rankInputs(file, text, null);
      const report = runRank(inputs.data, inputs.policy, { reference: null, toolVersion: "test" });
      const policy = policyOf(text).policy;
      const set = commonSet(inputs.data, policy);
      const { analyse } = pairAnalyser(
        inputs.data,
        set,
        tableView([inputs.data.tasks], null, set.tasks),
        policy.infra_errors,
      );
      const k = inputs.data.models.length;
      const holm = orderPairs(k, analyse, policy.margin, PAIRWISE_HOLM);
      const ids = inputs.data.models;
      for (const [a, b] of pairIndices(k)) {
        const pair = report.pairs.find((p) => p.a === ids[a] && p.b === ids[b]);
        if (holm.above[a * k + b] === 1) expect(pair?.relation).toBe("a_better");
        if (holm.above[b * k + a] === 1) expect(pair?.relation).toBe("b_better");
      }
      more += report.adjustment.ordered_pairs - holm.steps.orderedPairs;
      // A clustered SE takes Holm's levels (max-t.ts rankProcedure): the same pairs exactly.
      if (se === "clustered") expect(report.adjustment.ordered_pairs).toBe(holm.steps.orderedPairs);
      expect(report.adjustment).toMatchObject(
        se === "paired"
          ? { method: "max_t", draws: MAX_T_DRAWS, seed: MAX_T_SEED }
          : { method: "holm_pairs", draws: null, seed: null },
      );
    }
    // Max-t's smaller critical value orders a pair Holm does not on 2 of the 12 paired exports
    // (seeds 8 and 14, one pair each).
    expect(more).toBe(2);
  });
});
