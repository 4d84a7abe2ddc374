/**
 * The clustered-SE check of a paired policy (docs/spec.md §3 "Design effect"): when every common
 * task carries a cluster, evaluate also takes the CR2 standard error and warns in the headline when
 * — and only when — the verdict's margin bound would not hold under it.
 */
import { describe, expect, it } from "vitest";
import { evaluate } from "../../src/core/decision/evaluate.js";
import { buildDataset, buildPolicy, type TaskSpec } from "../stats/dataset-builder.js";

const ctx = { canary: null, expired: false } as const;

/**
 * 200 valid tasks in 10 clusters of 20: on `lopsided` the candidate's every win (d = +1, or −1
 * with `sign` −1) is in the first two clusters; else four a cluster. Either way 40 wins, Δ̂ = ±0.2.
 */
function clustered(lopsided: boolean, sign: 1 | -1 = 1): TaskSpec[] {
  return Array.from({ length: 200 }, (_, i) => {
    const cluster = Math.floor(i / 20);
    const win = lopsided ? cluster < 2 : i % 20 < 4;
    const [a, b] =
      win === (sign === 1)
        ? win
          ? ["pass", "fail"]
          : ["pass", "pass"]
        : win
          ? ["fail", "pass"]
          : ["fail", "fail"];
    return { cluster: `repo-${cluster}`, a: a as "pass" | "fail", b: b as "pass" | "fail" };
  });
}

const policy = buildPolicy({ common_valid_tasks: ">= 100" });
const clusterWarnings = (specs: TaskSpec[], p = policy) =>
  evaluate(buildDataset(specs), p, ctx).warnings.filter((w) => w.startsWith("The tasks cluster"));

describe("evaluate: the clustered-SE warning", () => {
  it("says an accept would not hold under CR2 when the wins sit in two clusters", () => {
    const e = evaluate(buildDataset(clustered(true)), policy, ctx);
    expect(e.verdict).toBe("accept");
    const w = e.warnings.filter((x) => x.startsWith("The tasks cluster"));
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(
      /^The tasks cluster \(10 clusters by the rows' `cluster`\): under the clustered standard error \(CR2\) the lower bound would be −\d+\.\d\d pp, not above δ₀ \+0\.00 pp, so this accept would not hold; consider standard_error: clustered\.$/,
    );
    // The figure is evaluate's own bound with standard_error: clustered.
    const cr2 = evaluate(
      buildDataset(clustered(true)),
      { ...policy, margin: { ...policy.margin, standard_error: "clustered" } },
      ctx,
    );
    expect(cr2.verdict).not.toBe("accept");
    expect(w[0]).toContain(`${(Math.abs(cr2.comparison.lcb as number) * 100).toFixed(2)} pp`);
  });

  it("says a reject by the margin would not hold", () => {
    const e = evaluate(buildDataset(clustered(true, -1)), policy, ctx);
    expect(e.verdict).toBe("reject");
    expect(clusterWarnings(clustered(true, -1))[0]).toContain("the upper bound would be +");
    expect(clusterWarnings(clustered(true, -1))[0]).toContain("so this reject would not hold");
  });

  it("is absent when the verdict holds under CR2, without clusters, or with a clustered policy", () => {
    const even = evaluate(buildDataset(clustered(false)), policy, ctx);
    expect(even.verdict).toBe("accept");
    expect(even.warnings.some((w) => w.includes("would not hold"))).toBe(false);
    const none = clustered(true).map((t): TaskSpec => {
      const { cluster, ...rest } = t;
      expect(cluster).toBeDefined();
      return rest;
    });
    expect(evaluate(buildDataset(none), policy, ctx).verdict).toBe("accept");
    expect(clusterWarnings(none)).toEqual([]);
    const byCluster = buildPolicy({ common_valid_tasks: ">= 100", standard_error: "clustered" });
    expect(clusterWarnings(clustered(true), byCluster).filter((w) => w.includes("would not hold"))).toEqual(
      [],
    );
  });
});
