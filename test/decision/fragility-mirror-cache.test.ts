/**
 * The fragility mirror keeps work across states: the conservative SE resumes at the first position
 * of its order whose count changed (same V), the prefix sums of U are recomputed only when read,
 * and the paired LCB and UCB are computed only when asked for. After every change of a random walk
 * over label changes (with the greedy's try-and-undo among them), every bound and the verdict must
 * equal, to the bit, those of a mirror that made the same changes without being asked anything in
 * between (its sums are the walked one's, bit for bit, and every bound is computed from scratch on
 * first use).
 */
import { describe, expect, it } from "vitest";
import { evaluate } from "../../src/core/decision/evaluate.js";
import { Mirror, mirrorParams } from "../../src/core/decision/fragility-state.js";
import {
  CAT_BROKEN_IN,
  CAT_OPEN,
  CAT_VALID,
  buildTaskTable,
} from "../../src/core/decision/fragility-table.js";
import type { Validity } from "../../src/core/model.js";
import { buildDataset, buildPolicy, type PolicySpec, type TaskSpec } from "../stats/dataset-builder.js";
import { prng } from "../helpers/prng.js";

function randomTasks(r: () => number, n: number, maxAttempts: number, lossy = false): TaskSpec[] {
  const score = (rate: number) => {
    const k = 1 + Math.floor(r() * maxAttempts);
    let pass = 0;
    let infra = 0;
    for (let a = 0; a < k; a++) {
      if (lossy && r() < 0.2) infra++;
      else if (r() < rate) pass++;
    }
    return { pass, fail: k - pass - infra, infra };
  };
  return Array.from({ length: n }, (_, i): TaskSpec => {
    const u = r();
    const validity: Validity = u < 0.6 ? "valid" : u < 0.7 ? "broken" : u < 0.85 ? "disputed" : "unreviewed";
    return { validity, cluster: `c${i % 5}`, a: score(0.6), b: score(0.45) };
  });
}

function snapshot(m: Mirror, order: number): (number | string | null)[] {
  // Different orders of asking, so that each bound is computed alone as well as after the other.
  if (order === 0) return [m.lcb(), m.ucb(), m.lcbEstimate(), m.ucbEstimate(), m.verdict()];
  if (order === 1) return [m.ucb(), m.verdict(), m.lcb()];
  return [m.verdict(), m.lcbEstimate(), m.ucb(), m.lcb()];
}

const POLICIES: PolicySpec[] = [
  { common_valid_tasks: ">= 10", disputed_fraction: "< 60%", infra_error_rate: "< 100%" },
  { common_valid_tasks: ">= 10", disputed_fraction: "< 60%", infra_error_rate: "< 100%", delta0: 0.1 },
  { common_valid_tasks: ">= 10", disputed_fraction: "< 60%", validity_bound: "pessimistic" },
  { common_valid_tasks: ">= 10", disputed_fraction: "< 60%", standard_error: "clustered" },
  {
    common_valid_tasks: ">= 10",
    disputed_fraction: "< 60%",
    standard_error: "clustered",
    cluster_correction: "cr1",
  },
  // Lost results (infra_errors: bound): every kind of bound with intervals.
  {
    common_valid_tasks: ">= 10",
    disputed_fraction: "< 60%",
    infra_error_rate: "< 100%",
    infra_errors: "bound",
  },
  {
    common_valid_tasks: ">= 10",
    disputed_fraction: "< 60%",
    infra_error_rate: "< 100%",
    infra_errors: "bound",
    validity_bound: "pessimistic",
  },
  {
    common_valid_tasks: ">= 10",
    disputed_fraction: "< 60%",
    infra_error_rate: "< 100%",
    infra_errors: "bound",
    standard_error: "clustered",
  },
];

describe("fragility mirror: kept scans give the bounds of a mirror asked nothing before", () => {
  it("along random walks of label changes, multi-attempt and single-attempt, every policy kind", () => {
    const r = prng(4242);
    let compared = 0;
    for (let trial = 0; trial < 64; trial++) {
      const spec = POLICIES[trial % POLICIES.length] as PolicySpec;
      const policy = buildPolicy(spec);
      // Single attempts (exact bounds), 1–4 attempts (integer table units), 1–50 (unit 1, d in
      // floating point with near-duplicate values).
      const attempts = [4, 50, 4, 1][trial % 4] as number;
      const ds = buildDataset(
        randomTasks(r, 40 + Math.floor(r() * 160), attempts, spec.infra_errors === "bound"),
      );
      const ctx = { canary: null, expired: false } as const;
      const params = mirrorParams(policy, ctx, evaluate(ds, policy, ctx));
      const table = buildTaskTable(ds, policy);
      expect(table.unit === 1).toBe(attempts !== 4);
      const walked = new Mirror(table, params);
      const cat = Uint8Array.from(table.cat);
      // Every change made so far, undos included: replayed, it gives the walked mirror's sums.
      const log: (readonly [number, number, number])[] = [];
      const apply = (m: Mirror, [i, from, to]: readonly [number, number, number]): void => {
        if (from === CAT_OPEN) m.addOpen(i, -1);
        if (from === CAT_VALID) m.addValid(i, -1);
        if (from === CAT_BROKEN_IN) m.addSide(i, 1);
        if (to === CAT_OPEN) m.addOpen(i, 1);
        if (to === CAT_VALID) m.addValid(i, 1);
        if (to === CAT_BROKEN_IN) m.addSide(i, -1);
      };
      const fresh = (): Mirror => {
        const m = new Mirror(table, params);
        for (const op of log) apply(m, op);
        return m;
      };
      // A move and its undo, as the searches make them.
      const move = (i: number, from: number, to: number): void => {
        log.push([i, from, to]);
        apply(walked, [i, from, to]);
        cat[i] = to;
      };
      const targets = [CAT_VALID, CAT_BROKEN_IN];
      for (let step = 0; step < 60; step++) {
        const i = Math.floor(r() * table.n);
        const from = cat[i] as number;
        if (from !== CAT_OPEN && from !== CAT_VALID && from !== CAT_BROKEN_IN) continue;
        const to =
          from === CAT_OPEN
            ? (targets[Math.floor(r() * 2)] as number)
            : from === CAT_VALID
              ? CAT_BROKEN_IN
              : CAT_VALID;
        move(i, from, to);
        const order = step % 3;
        expect(snapshot(walked, order)).toEqual(snapshot(fresh(), order));
        compared++;
        if (r() < 0.5) {
          move(i, to, from);
          expect(snapshot(walked, order)).toEqual(snapshot(fresh(), order));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(1500);
  });
});
