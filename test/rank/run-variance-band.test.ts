/**
 * The rank report's run-variance band (schema 1.1.0): each model's validity interval widened by
 * q·SE of its own score on the common valid tasks, clipped to [0, 1]. Checked against the formula
 * worked by hand on a small export.
 */
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { studentTQuantile } from "../../src/core/stats/student-t-quantile.js";
import { tempDir } from "../helpers/export-writer.js";
import { policyWith, rankOf, writeMulti, type MultiTask } from "./rank-helpers.js";

const dir = tempDir("rank-band-");
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

// 10 valid tasks and 2 disputed ones. "hi" passes 8 of the valid ones, "lo" 3; on the disputed
// tasks "hi" passes one, "lo" none. Both models have every task.
const TASKS: MultiTask[] = Array.from({ length: 12 }, (_, t) => ({
  id: `t-${String(t).padStart(2, "0")}`,
  validity: t >= 10 ? "disputed" : "valid",
  results: {
    hi: [(t < 10 ? t < 8 : t === 10) ? "pass" : "fail"],
    lo: [t < 3 ? "pass" : "fail"],
  },
}));

describe("run_variance_band", () => {
  it("is the exact validity interval widened by t(ν = n − 1)·SE on both sides, clipped to [0, 1]", async () => {
    const results = writeMulti(dir, TASKS, "band.jsonl");
    const r = await rankOf(results, policyWith(5), ["hi", "lo"]);
    const q = studentTQuantile(0.95, 9);
    // hi: mean 0.8 on V; sample variance of eight 1s and two 0s = 10·0.16/9; SE = sqrt(var/10).
    const seHi = Math.sqrt((10 * 0.8 * 0.2) / 9 / 10);
    const seLo = Math.sqrt((10 * 0.3 * 0.7) / 9 / 10);
    const hi = r.models.find((m) => m.model === "hi");
    const lo = r.models.find((m) => m.model === "lo");
    // Exact interval over the 2 open tasks: hi 8/11 .. 9/11 (the open fail counted, or the open pass), lo 3/12 .. 3/10.
    expect(hi?.interval?.[0]).toBeCloseTo(8 / 11, 12);
    expect(hi?.interval?.[1]).toBeCloseTo(9 / 11, 12);
    expect(hi?.run_variance_band?.[0]).toBeCloseTo(8 / 11 - q * seHi, 12);
    expect(hi?.run_variance_band?.[1]).toBeCloseTo(Math.min(1, 9 / 11 + q * seHi), 12);
    expect(lo?.run_variance_band?.[0]).toBeCloseTo(Math.max(0, 3 / 12 - q * seLo), 12);
    expect(lo?.run_variance_band?.[1]).toBeCloseTo(3 / 10 + q * seLo, 12);
    expect(r.schema_version).toBe("1.5.0");
  });
});
