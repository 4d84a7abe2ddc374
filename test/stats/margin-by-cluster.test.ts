/**
 * Where the margin comes from (SPEC §3.6): exact values on the spec's worked example, the
 * contributions adding up to Δ̂ on random inputs, the order, null without clusters, sums that
 * are 0 in exact arithmetic, and the same JSON from the same dataset.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyseMargin } from "../../src/core/stats/margin.js";
import { clusterSortKey, marginByCluster } from "../../src/core/stats/margin-by-cluster.js";
import { compareCodeUnits } from "../../src/core/model.js";
import { buildDataset, buildPolicy, type TaskSpec } from "./dataset-builder.js";

/** SPEC §3.6's worked example. */
export const SPEC_EXAMPLE: readonly TaskSpec[] = [
  { id: "t1", cluster: "org/a", a: "pass", b: "fail" },
  { id: "t2", cluster: "org/a", a: { pass: 1, fail: 1 }, b: "fail" },
  { id: "t3", cluster: "org/b", a: "fail", b: "pass" },
  { id: "t4", cluster: "org/b", a: "pass", b: "pass" },
  { id: "t5", a: "pass", b: "fail" },
  { id: "t6", cluster: "org/c", validity: "disputed", a: "pass", b: "fail" },
  { id: "t7", cluster: "org/c", validity: "broken", a: "pass", b: "fail" },
  { id: "t8", cluster: "org/b", a: "pass" },
];

describe("margin by cluster", () => {
  it("gives the exact values of SPEC §3.6's worked example", () => {
    const dataset = buildDataset(SPEC_EXAMPLE);
    expect(marginByCluster(dataset, "exclude")).toEqual({
      clusters: 2,
      rows: [
        { cluster: "org/a", tasks: 2, margin: 0.75, contribution: 0.3, share: 1, worse: false },
        { cluster: "org/b", tasks: 2, margin: -0.5, contribution: -0.2, share: -1 / 1.5, worse: true },
        { cluster: null, tasks: 1, margin: 1, contribution: 0.2, share: 1 / 1.5, worse: false },
      ],
      unclustered_tasks: 1,
    });
    expect(analyseMargin(dataset, { infra: "exclude", margin: buildPolicy().margin }).margin).toBe(0.3);
  });

  it("is null when no common valid task has a cluster", () => {
    expect(
      marginByCluster(
        buildDataset([
          { a: "pass", b: "fail" },
          { a: "fail", b: "fail" },
        ]),
        "exclude",
      ),
    ).toBe(null);
    // Clusters only on tasks outside V (disputed, broken, one model only) do not count.
    const outside = buildDataset([
      { a: "pass", b: "fail" },
      { cluster: "x", validity: "disputed", a: "pass", b: "fail" },
      { cluster: "y", validity: "broken", a: "pass", b: "pass" },
      { cluster: "z", a: "pass" },
    ]);
    expect(marginByCluster(outside, "exclude")).toBe(null);
    expect(marginByCluster(buildDataset([]), "exclude")).toBe(null);
  });

  it("takes d under the infra policy", () => {
    const dataset = buildDataset([{ cluster: "x", a: { pass: 1, infra: 1 }, b: "fail" }]);
    expect(marginByCluster(dataset, "exclude")?.rows[0]?.margin).toBe(1);
    expect(marginByCluster(dataset, "count_as_fail")?.rows[0]?.margin).toBe(0.5);
  });

  it("counts a sum that is 0 in exact arithmetic as 0: no share, not worse", () => {
    // d = 0.1, 0.2 and −0.3: Σd is 0, but 0.1 + 0.2 − 0.3 in floating point is 5.6e-17.
    const dataset = buildDataset([
      { id: "t1", cluster: "x", a: { pass: 1, fail: 9 }, b: "fail" },
      { id: "t2", cluster: "x", a: { pass: 2, fail: 8 }, b: "fail" },
      { id: "t3", cluster: "x", a: "fail", b: { pass: 3, fail: 7 } },
    ]);
    expect(1 / 10 + 2 / 10 - 3 / 10).not.toBe(0);
    const m = marginByCluster(dataset, "exclude");
    expect(m?.rows).toEqual([
      { cluster: "x", tasks: 3, margin: 0, contribution: 0, share: null, worse: false },
    ]);
  });

  it("orders by |contribution| descending, then cluster name by code units, the unclustered row last", () => {
    const dataset = buildDataset([
      { cluster: "b", a: "pass", b: "fail" },
      { cluster: "a", a: "fail", b: "pass" },
      { a: "pass", b: "fail" },
      { cluster: "Z", a: "pass", b: "fail" },
      { cluster: "big", a: "pass", b: "fail" },
      { cluster: "big", a: "pass", b: "fail" },
      { cluster: "zero", a: "pass", b: "pass" },
    ]);
    expect(marginByCluster(dataset, "exclude")?.rows.map((r) => r.cluster)).toEqual([
      "big",
      "Z",
      "a",
      "b",
      null,
      "zero",
    ]);
  });

  it("ties contributions that are equal in exact arithmetic, whatever the last bits, and orders them by name", () => {
    // Σd of "b" is 0.1 + 0.2 = 0.30000000000000004, of "a" 0.3: both 3/10.
    const dataset = buildDataset([
      { id: "t1", cluster: "b", a: { pass: 1, fail: 9 }, b: "fail" },
      { id: "t2", cluster: "b", a: { pass: 2, fail: 8 }, b: "fail" },
      { id: "t3", cluster: "a", a: { pass: 3, fail: 7 }, b: "fail" },
    ]);
    const rows = marginByCluster(dataset, "exclude")?.rows ?? [];
    // "b" is the larger in floating point, yet they tie and "a" comes first.
    expect(rows[1]?.contribution).toBeGreaterThan(rows[0]?.contribution ?? 1);
    expect(rows.map((r) => r.cluster)).toEqual(["a", "b"]);
  });

  it("adds up to Δ̂, matches a brute-force split and sorts, on random inputs", () => {
    const outcome = fc.constantFrom("pass", "fail", "infra", undefined);
    const counts = fc.oneof(outcome, fc.record({ pass: fc.nat(3), fail: fc.nat(3), infra: fc.nat(1) }));
    const task = fc.record({
      cluster: fc.option(fc.constantFrom("a", "b", "B", "c/d", "é", "z"), { nil: undefined }),
      validity: fc.constantFrom("valid", "valid", "valid", "disputed", "broken", "unreviewed"),
      a: counts,
      b: counts,
    });
    fc.assert(
      fc.property(
        fc.array(task, { maxLength: 40 }),
        fc.constantFrom("exclude", "count_as_fail"),
        (tasks, infra) => {
          const specs: TaskSpec[] = tasks.map((t) => {
            const spec: { -readonly [K in keyof TaskSpec]: TaskSpec[K] } = { validity: t.validity };
            if (t.cluster !== undefined) spec.cluster = t.cluster;
            if (t.a !== undefined) spec.a = t.a;
            if (t.b !== undefined) spec.b = t.b;
            return spec;
          });
          const dataset = buildDataset(specs);
          const policy = buildPolicy({ infra_errors: infra });
          const analysis = analyseMargin(dataset, { infra, margin: policy.margin });
          const m = marginByCluster(dataset, infra);
          // Brute force: the valid common tasks by cluster, from the task scores.
          const score = (
            c: { pass: number; fail: number; infra_error: number } | undefined,
          ): number | null => {
            if (c === undefined) return null;
            const k = c.pass + c.fail + (infra === "count_as_fail" ? c.infra_error : 0);
            return k === 0 ? null : c.pass / k;
          };
          const byCluster = new Map<string | null, number[]>();
          for (let i = 0; i < dataset.tasks.length; i++) {
            const r = dataset.tasks.record(i);
            const ma = score(r.candidate);
            const mb = score(r.baseline);
            if (r.validity !== "valid" || ma === null || mb === null) continue;
            const key = r.cluster ?? null;
            byCluster.set(key, [...(byCluster.get(key) ?? []), ma - mb]);
          }
          const named = [...byCluster.keys()].filter((k) => k !== null);
          if (named.length === 0) {
            expect(m).toBe(null);
            return;
          }
          expect(m).not.toBe(null);
          if (m === null) return;
          const nv = analysis.commonValidTasks;
          expect(m.clusters).toBe(named.length);
          expect(m.unclustered_tasks).toBe(byCluster.get(null)?.length ?? 0);
          expect(m.rows.length).toBe(byCluster.size);
          expect(m.rows.reduce((s, r) => s + r.tasks, 0)).toBe(nv);
          const delta = analysis.margin ?? NaN;
          const sum = m.rows.reduce((s, r) => s + r.contribution, 0);
          expect(Math.abs(sum - delta)).toBeLessThanOrEqual(1e-10);
          const shares = m.rows.map((r) => r.share);
          if (Math.abs(delta) > 1e-9) {
            expect(Math.abs(shares.reduce<number>((s, x) => s + (x ?? NaN), 0) - 1)).toBeLessThanOrEqual(
              1e-9,
            );
          }
          for (const r of m.rows) {
            const ds = byCluster.get(r.cluster) ?? [];
            const exact = ds.reduce((s, x) => s + x, 0);
            expect(r.tasks).toBe(ds.length);
            expect(Math.abs(r.margin - exact / ds.length)).toBeLessThanOrEqual(1e-10);
            expect(Math.abs(r.contribution - exact / nv)).toBeLessThanOrEqual(1e-10);
            expect(r.worse).toBe(r.margin < 0);
            if (r.share !== null)
              expect(Math.abs(r.share * delta - r.contribution)).toBeLessThanOrEqual(1e-10);
          }
          for (let j = 1; j < m.rows.length; j++) {
            const x = m.rows[j - 1];
            const y = m.rows[j];
            if (x === undefined || y === undefined) continue;
            const ax = clusterSortKey(x);
            const ay = clusterSortKey(y);
            expect(ax).toBeGreaterThanOrEqual(ay);
            if (ax === ay) {
              expect(x.cluster).not.toBe(null);
              if (y.cluster !== null) expect(compareCodeUnits(x.cluster ?? "", y.cluster)).toBeLessThan(0);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("gives byte-identical JSON for the same dataset", () => {
    const one = JSON.stringify(marginByCluster(buildDataset(SPEC_EXAMPLE), "exclude"));
    const two = JSON.stringify(marginByCluster(buildDataset([...SPEC_EXAMPLE].reverse()), "exclude"));
    expect(two).toBe(one);
  });
});
