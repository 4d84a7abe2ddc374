import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  clusteredStandardError,
  pairedStandardError,
  rerunStandardError,
} from "../../src/core/stats/standard-error.js";

const diff = fc.integer({ min: -4, max: 4 }).map((k) => k / 4);

/** The textbook one-pass form: sqrt((Σd² − n·d̄²) / (n(n−1))). */
function naivePaired(d: readonly number[]): number {
  const n = d.length;
  const s = d.reduce((a, x) => a + x, 0);
  const s2 = d.reduce((a, x) => a + x * x, 0);
  return Math.sqrt(Math.max(0, s2 - (s * s) / n) / (n * (n - 1)));
}

describe("pairedStandardError", () => {
  it("is null below 2 tasks and 0 for constant values", () => {
    expect(pairedStandardError([])).toBeNull();
    expect(pairedStandardError([1])).toBeNull();
    expect(pairedStandardError([0.5, 0.5, 0.5])).toBe(0);
  });

  it("matches a hand computation", () => {
    // d = [1, 0, −1, 0]: mean 0, Σ(d−d̄)² = 2, n(n−1) = 12.
    expect(pairedStandardError([1, 0, -1, 0])).toBeCloseTo(Math.sqrt(2 / 12), 15);
  });

  it("agrees with the naive formula", () => {
    fc.assert(
      fc.property(fc.array(diff, { minLength: 2, maxLength: 200 }), (d) => {
        expect(pairedStandardError(d)).toBeCloseTo(naivePaired(d), 12);
      }),
    );
  });
});

describe("clusteredStandardError (CR1, cluster_correction: cr1)", () => {
  it("with every task its own cluster equals the paired SE exactly (G = n)", () => {
    // (1/n)·sqrt(n/(n−1)·Σ(d−d̄)²) = sqrt(Σ(d−d̄)²/(n(n−1))).
    fc.assert(
      fc.property(fc.array(diff, { minLength: 2, maxLength: 200 }), (d) => {
        const own = clusteredStandardError(
          d,
          d.map((_, i) => i),
          d.length,
          "cr1",
        );
        expect(own.clusters).toBe(d.length);
        expect(own.se).toBeCloseTo(pairedStandardError(d) ?? Number.NaN, 12);
      }),
    );
  });

  it("matches the formula computed directly from groups", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(diff, fc.integer({ min: 0, max: 5 })), { minLength: 2, maxLength: 60 }),
        (rows) => {
          const d = rows.map((r) => r[0]);
          const c = rows.map((r) => r[1]);
          const n = d.length;
          const mean = d.reduce((a, x) => a + x, 0) / n;
          const groups = new Map<number, number>();
          rows.forEach(([x, g]) => groups.set(g, (groups.get(g) ?? 0) + (x - mean)));
          const g = groups.size;
          const got = clusteredStandardError(d, c, 6, "cr1");
          expect(got.clusters).toBe(g);
          if (g < 2) {
            expect(got.se).toBeNull();
            return;
          }
          let ss = 0;
          for (const s of groups.values()) ss += s * s;
          expect(got.se).toBeCloseTo((1 / n) * Math.sqrt((g / (g - 1)) * ss), 12);
          expect(got.nu).toBe(g - 1);
        },
      ),
    );
  });

  it("matches a hand computation and is null with one cluster", () => {
    // d = [1, 1, 0, 0] in clusters {0, 0, 1, 1}: d̄ = .5, sums ±1, G = 2 → (1/4)·sqrt(2·2) = 0.5.
    expect(clusteredStandardError([1, 1, 0, 0], [0, 0, 1, 1], 2, "cr1")).toEqual({
      se: 0.5,
      nu: 1,
      clusters: 2,
      largestShare: 0.5,
    });
    expect(clusteredStandardError([1, 0, 1], [3, 3, 3], 4, "cr1")).toEqual({
      se: null,
      nu: null,
      clusters: 1,
      largestShare: 1,
    });
    expect(clusteredStandardError([], [], 0, "cr1")).toEqual({
      se: null,
      nu: null,
      clusters: 0,
      largestShare: null,
    });
    expect(() => clusteredStandardError([1, 0], [0], 1)).toThrow(RangeError);
  });
});

describe("rerunStandardError", () => {
  it("is sqrt(Σ terms)/n, null for no tasks", () => {
    expect(rerunStandardError([])).toBeNull();
    expect(rerunStandardError([0.25, 0.25, 0.5, 0])).toBeCloseTo(1 / 4, 15);
  });
});
