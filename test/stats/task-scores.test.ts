import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  binarySampleVariance,
  effectiveAttempts,
  hasAttempt,
  isLostToInfra,
  scoreRerunVariance,
  taskScore,
} from "../../src/core/stats/task-scores.js";
import { counts } from "./dataset-builder.js";

describe("task scores", () => {
  it("K* excludes infra errors under exclude and counts them as fails under count_as_fail", () => {
    const c = counts({ pass: 2, fail: 1, infra: 3, missing: 4 });
    expect(effectiveAttempts(c, "exclude")).toBe(3);
    expect(effectiveAttempts(c, "count_as_fail")).toBe(6);
    expect(taskScore(c, "exclude")).toBeCloseTo(2 / 3, 15);
    expect(taskScore(c, "count_as_fail")).toBeCloseTo(2 / 6, 15);
    expect(effectiveAttempts(undefined, "exclude")).toBe(0);
  });

  it("a task with only infra errors or missing results has no score (unless infra counts as fail)", () => {
    expect(taskScore(counts({ infra: 2 }), "exclude")).toBeNull();
    expect(taskScore(counts({ infra: 2 }), "count_as_fail")).toBe(0);
    expect(taskScore(counts("missing"), "count_as_fail")).toBeNull();
    expect(taskScore(undefined, "exclude")).toBeNull();
  });

  it("missing and lost-to-infra tasks", () => {
    expect(hasAttempt(undefined)).toBe(false);
    expect(hasAttempt(counts("missing"))).toBe(false);
    expect(hasAttempt(counts("infra"))).toBe(true);
    expect(isLostToInfra(counts({ infra: 2 }))).toBe(true);
    expect(isLostToInfra(counts({ infra: 2, fail: 1 }))).toBe(false);
    expect(isLostToInfra(counts("missing"))).toBe(false);
    expect(isLostToInfra(undefined)).toBe(false);
  });

  it("binary s² equals the sample variance of the 0/1 outcomes", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 20 }), fc.nat(20), (k, p0) => {
        const p = Math.min(p0, k);
        const xs = [...Array<number>(p).fill(1), ...Array<number>(k - p).fill(0)];
        const mean = p / k;
        const s2 = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (k - 1);
        expect(binarySampleVariance(mean, k)).toBeCloseTo(s2, 12);
        expect(scoreRerunVariance(mean, k)).toBeCloseTo(s2 / k, 12);
      }),
    );
    expect(binarySampleVariance(1, 1)).toBeNull();
    expect(scoreRerunVariance(0, 1)).toBeNull();
  });
});
