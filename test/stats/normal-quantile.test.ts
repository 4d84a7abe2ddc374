import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { normalQuantile } from "../../src/core/stats/normal-quantile.js";

describe("normalQuantile (AS 241)", () => {
  it("matches reference quantiles to 1e-9", () => {
    expect(normalQuantile(0.95)).toBeCloseTo(1.644853627, 9);
    expect(normalQuantile(0.975)).toBeCloseTo(1.9599639845, 9);
    expect(normalQuantile(0.99)).toBeCloseTo(2.326347874, 9);
    expect(normalQuantile(0.8413447460685429)).toBeCloseTo(1, 9);
    expect(normalQuantile(1e-10)).toBeCloseTo(-6.3613409024, 9);
    expect(normalQuantile(1e-300)).toBeCloseTo(-37.0471, 3);
  });

  it("is 0 at 0.5 and antisymmetric", () => {
    expect(normalQuantile(0.5)).toBe(0);
    fc.assert(
      // Dyadic p keeps 1 − p exact, so the check is about Φ⁻¹, not about rounding 1 − p.
      fc.property(fc.integer({ min: 1, max: 2 ** 40 }), (k) => {
        const p = k / 2 ** 41;
        expect(normalQuantile(p) + normalQuantile(1 - p)).toBeCloseTo(0, 9);
      }),
    );
  });

  it("is increasing", () => {
    let prev = -Infinity;
    for (let i = 1; i < 1000; i++) {
      const z = normalQuantile(i / 1000);
      expect(z).toBeGreaterThan(prev);
      prev = z;
    }
  });

  it("rejects p outside (0, 1)", () => {
    for (const p of [0, 1, -0.1, 1.1, Number.NaN]) expect(() => normalQuantile(p)).toThrow(RangeError);
  });
});
