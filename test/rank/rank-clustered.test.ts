/**
 * rank's clustered-SE check (docs/rank.md "Clustered tasks"): with a paired policy and every common
 * task in a cluster, the ranking is taken again under the CR2 standard error, and the headline
 * names the orderings — and the "could be first" set — that would not hold under it; only then.
 */
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/export-writer.js";
import { policyWith, rankOf, writeMulti, type MultiTask } from "./rank-helpers.js";

const dir = tempDir("rank-clustered-");
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/**
 * 300 valid tasks in 10 clusters of 30. `top` passes everywhere `mid` does and, on `lopsided`,
 * 40 more tasks all in the first two clusters (else spread, 4 a cluster); `low` passes nothing.
 */
function tasks(lopsided: boolean): MultiTask[] {
  return Array.from({ length: 300 }, (_, i) => {
    const cluster = Math.floor(i / 30);
    const extra = lopsided ? cluster < 2 && i % 30 < 20 : i % 30 < 4;
    const mid = i % 3 === 0;
    return {
      id: `t-${String(i).padStart(3, "0")}`,
      validity: "valid",
      cluster: `repo-${cluster}`,
      results: { top: [mid || extra ? "pass" : "fail"], mid: [mid ? "pass" : "fail"], low: ["fail"] },
    };
  });
}

const rankWarnings = async (lopsided: boolean, policy = policyWith(100)) =>
  (
    await rankOf(writeMulti(dir, tasks(lopsided), `c-${lopsided}-${policy.length}.jsonl`), policy, null)
  ).warnings.filter((w) => w.startsWith("The tasks cluster"));

describe("rank: the clustered-SE check of a paired policy", () => {
  it("names the orderings and the could-be-first set that would not hold under CR2", async () => {
    const r = await rankOf(writeMulti(dir, tasks(true), "lopsided.jsonl"), policyWith(100), null);
    expect(r.top).toBe("top");
    const w = r.warnings.filter((x) => x.startsWith("The tasks cluster"));
    expect(w).toEqual([
      'The tasks cluster (10 clusters by the rows\' `cluster`): under the clustered standard error (CR2) 1 of the 3 orderings would not hold ("top" above "mid"), and 2 models could be first ("top", "mid") instead of 1 ("top"); consider standard_error: clustered.',
    ]);
  });

  it("is absent when every ordering holds under CR2, or the policy is clustered", async () => {
    expect(await rankWarnings(false)).toEqual([]);
    const clustered = policyWith(100).replace("standard_error: paired", "standard_error: clustered");
    expect(await rankWarnings(true, clustered)).toEqual([]);
  });
});
