/**
 * `infra_errors: bound` (docs/spec.md §3.8) against brute force over every resolution: each lost
 * result (infra_error attempt) a pass or a fail, times each subset S of the open tasks. Δ_L and
 * Δ_H equal the brute-force extremes; LCB is at most the brute-force minimum of Δ(S) − q·SE(V ∪ S)
 * and UCB at least the maximum of Δ(S) + q·SE(V ∪ S) (exact validity bound), or of the bound at U
 * whole at ∓1 (pessimistic); and bound's [LCB, UCB] contains count_as_fail's, and exclude's where
 * the common sets are the same. Small random cases: one attempt and several, paired and
 * clustered, with and without open labels.
 */
import { describe, expect, it } from "vitest";
import type { AttemptCounts } from "../../src/core/model.js";
import type { Policy } from "../../src/core/policy/policy-types.js";
import { analyseMargin, type MarginAnalysis } from "../../src/core/stats/margin.js";
import { quantileFunction } from "../../src/core/stats/quantile.js";
import { clusteredStandardError, pairedStandardError } from "../../src/core/stats/standard-error.js";
import { prng } from "../helpers/prng.js";
import { buildDataset, buildPolicy, counts, type TaskSpec } from "./dataset-builder.js";

interface Case {
  readonly specs: TaskSpec[];
  readonly policy: Policy;
}

const TOL = 1e-12;

/** A random case: 2–7 valid and 0–3 open tasks, 1 attempt each or 1–3, some lost. */
function randomCase(seed: number, opts: { multi: boolean; clustered: boolean; open: boolean }): Case {
  const r = prng(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
  const side = (): AttemptCounts => {
    const k = opts.multi ? int(1, 3) : 1;
    const c = { pass: 0, fail: 0, infra_error: 0, missing: 0 };
    for (let j = 0; j < k; j++) {
      const x = r();
      if (x < 0.25) c.infra_error++;
      else if (x < 0.6) c.pass++;
      else c.fail++;
    }
    return c;
  };
  const specs: TaskSpec[] = [];
  const nValid = int(2, 7);
  const nOpen = opts.open ? int(1, 3) : 0;
  for (let i = 0; i < nValid + nOpen; i++) {
    const a = side();
    const b = side();
    specs.push({
      validity: i < nValid ? "valid" : r() < 0.5 ? "disputed" : "unreviewed",
      ...(opts.clustered ? { cluster: `c${int(0, 2)}` } : {}),
      a: { pass: a.pass, fail: a.fail, infra: a.infra_error },
      b: { pass: b.pass, fail: b.fail, infra: b.infra_error },
    });
  }
  const policy = buildPolicy({
    standard_error: opts.clustered ? "clustered" : "paired",
    cluster_correction: r() < 0.5 ? "cr2" : "cr1",
    quantile: r() < 0.5 ? "t" : "z",
    validity_bound: r() < 0.8 ? "exact" : "pessimistic",
    infra_errors: "bound",
  });
  return { specs, policy };
}

/** Every score a model's lost results allow: each infra_error attempt a pass or a fail. */
function resolutions(c: AttemptCounts): number[] {
  const k = c.pass + c.fail + c.infra_error;
  const out: number[] = [];
  for (let bits = 0; bits < 1 << c.infra_error; bits++) {
    let passes = c.pass;
    for (let j = 0; j < c.infra_error; j++) if ((bits >> j) & 1) passes++;
    out.push(passes / k);
  }
  return out;
}

interface BruteTask {
  readonly valid: boolean;
  readonly cluster: number;
  /** Every d the lost results allow (with repeats: one per resolution). */
  readonly ds: number[];
}

interface Brute {
  readonly minMargin: number;
  readonly maxMargin: number;
  readonly minBound: number;
  readonly maxBound: number;
  /** Some resolution had no SE on its set. */
  readonly undefinedSe: boolean;
}

function bruteTasks(c: Case): BruteTask[] {
  const clusters = new Map<string, number>();
  const out: BruteTask[] = [];
  for (const s of c.specs) {
    const a = counts(s.a ?? {});
    const b = counts(s.b ?? {});
    const ds: number[] = [];
    for (const x of resolutions(a)) for (const y of resolutions(b)) ds.push(x - y);
    let cluster = -1;
    if (s.cluster !== undefined) {
      if (!clusters.has(s.cluster)) clusters.set(s.cluster, clusters.size);
      cluster = clusters.get(s.cluster) as number;
    }
    out.push({ valid: s.validity === "valid", cluster, ds });
  }
  return out;
}

/** Brute force over every resolution of the lost results and every S ⊆ U (pessimistic: U whole at ∓1). */
function brute(c: Case): Brute {
  const tasks = bruteTasks(c);
  const m = c.policy.margin;
  const q = quantileFunction(m);
  const valid = tasks.filter((t) => t.valid);
  const open = tasks.filter((t) => !t.valid);
  let minMargin = Infinity;
  let maxMargin = -Infinity;
  let minBound = Infinity;
  let maxBound = -Infinity;
  let undefinedSe = false;
  const se = (values: number[], clusterOf: number[]): { se: number | null; nu: number | null } => {
    if (m.standard_error === "paired") {
      const s = pairedStandardError(values);
      return { se: s, nu: s === null ? null : values.length - 1 };
    }
    return clusteredStandardError(values, clusterOf, 3, m.cluster_correction);
  };
  const visit = (values: number[], clusterOf: number[], side: 0 | -1 | 1): void => {
    const mean = values.reduce((x, y) => x + y, 0) / values.length;
    if (side <= 0) minMargin = Math.min(minMargin, mean);
    if (side >= 0) maxMargin = Math.max(maxMargin, mean);
    const s = se(values, clusterOf);
    if (s.se === null || s.nu === null) {
      undefinedSe = true;
      return;
    }
    if (side <= 0) minBound = Math.min(minBound, mean - q(s.nu) * s.se);
    if (side >= 0) maxBound = Math.max(maxBound, mean + q(s.nu) * s.se);
  };
  // Every resolution of V's lost results, by index into each task's ds.
  const walk = (
    tasks: readonly BruteTask[],
    k: number,
    acc: number[],
    each: (ds: number[]) => void,
  ): void => {
    if (k === tasks.length) {
      each(acc);
      return;
    }
    for (const d of (tasks[k] as BruteTask).ds) walk(tasks, k + 1, [...acc, d], each);
  };
  const validClusters = valid.map((t) => t.cluster);
  if (m.validity_bound === "pessimistic") {
    walk(valid, 0, [], (vd) => {
      const clusterOf = [...validClusters, ...open.map((t) => t.cluster)];
      visit([...vd, ...open.map(() => -1)], clusterOf, -1);
      visit([...vd, ...open.map(() => 1)], clusterOf, 1);
    });
  } else {
    for (let mask = 0; mask < 1 << open.length; mask++) {
      const members = open.filter((_, j) => (mask >> j) & 1);
      walk([...valid, ...members], 0, [], (ds) => {
        visit(ds, [...validClusters, ...members.map((t) => t.cluster)], 0);
      });
    }
  }
  return { minMargin, maxMargin, minBound, maxBound, undefinedSe };
}

function analyse(c: Case, infra: Policy["infra_errors"]): MarginAnalysis {
  return analyseMargin(buildDataset(c.specs), { infra, margin: c.policy.margin });
}

/** [inner.lo, inner.hi] ⊆ [outer.lo, outer.hi] for the margins and the confidence bounds. */
function expectContains(outer: MarginAnalysis, inner: MarginAnalysis): void {
  if (inner.marginLower !== null)
    expect(outer.marginLower as number).toBeLessThanOrEqual(inner.marginLower + TOL);
  if (inner.marginUpper !== null)
    expect(outer.marginUpper as number).toBeGreaterThanOrEqual(inner.marginUpper - TOL);
  if (inner.lcb !== null && outer.lcb !== null) expect(outer.lcb).toBeLessThanOrEqual(inner.lcb + 1e-9);
  if (inner.ucb !== null && outer.ucb !== null) expect(outer.ucb).toBeGreaterThanOrEqual(inner.ucb - 1e-9);
  // Where the inner reading has bounds the outer one does too (the same V, more tasks at most).
  if (inner.lcb !== null) expect(outer.lcb).not.toBeNull();
}

const KINDS = [
  { name: "one attempt, paired, no open labels", multi: false, clustered: false, open: false },
  { name: "one attempt, paired, open labels", multi: false, clustered: false, open: true },
  { name: "several attempts, paired, open labels", multi: true, clustered: false, open: true },
  { name: "several attempts, paired, no open labels", multi: true, clustered: false, open: false },
  { name: "one attempt, clustered, open labels", multi: false, clustered: true, open: true },
  { name: "one attempt, clustered, no open labels", multi: false, clustered: true, open: false },
  { name: "several attempts, clustered, open labels", multi: true, clustered: true, open: true },
  { name: "several attempts, clustered, no open labels", multi: true, clustered: true, open: false },
] as const;

describe("infra_errors: bound against brute force over every resolution", () => {
  for (const kind of KINDS) {
    it(kind.name, () => {
      let checked = 0;
      for (let seed = 1; seed <= 150; seed++) {
        const c = randomCase(seed * 7919 + kind.name.length, kind);
        const a = analyse(c, "bound");
        const b = brute(c);
        if (a.commonValidTasks === 0) continue;
        // Δ_L and Δ_H are exact.
        expect(a.marginLower as number).toBeCloseTo(b.minMargin, 12);
        expect(a.marginUpper as number).toBeCloseTo(b.maxMargin, 12);
        if (a.lcb !== null) {
          expect(b.undefinedSe).toBe(false);
          expect(a.lcb).toBeLessThanOrEqual(b.minBound + TOL);
          expect(a.ucb as number).toBeGreaterThanOrEqual(b.maxBound - TOL);
          checked++;
        }
        // Containment: count_as_fail's reading is one resolution on the same C.
        const caf = analyse(c, "count_as_fail");
        expect(caf.commonTasks).toBe(a.commonTasks);
        expectContains(a, caf);
        const ex = analyse(c, "exclude");
        if (ex.commonTasks === a.commonTasks && ex.commonValidTasks === a.commonValidTasks)
          expectContains(a, ex);
      }
      expect(checked).toBeGreaterThan(40);
    });
  }

  it("is the point modes' analysis when no task has a lost result", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const c = randomCase(seed, { multi: seed % 2 === 0, clustered: seed % 3 === 0, open: true });
      const specs = c.specs.map((s) => ({
        ...s,
        a: { ...counts(s.a ?? {}), infra: 0 },
        b: { ...counts(s.b ?? {}), infra: 0 },
      }));
      const clean = specs.map((s) => ({
        ...s,
        a: { pass: s.a.pass, fail: s.a.fail + (s.a.pass + s.a.fail === 0 ? 1 : 0) },
        b: { pass: s.b.pass, fail: s.b.fail + (s.b.pass + s.b.fail === 0 ? 1 : 0) },
      }));
      const x = { ...c, specs: clean };
      expect(analyse(x, "bound")).toEqual(analyse(x, "exclude"));
      expect(analyse(x, "bound")).toEqual(analyse(x, "count_as_fail"));
    }
  });
});
