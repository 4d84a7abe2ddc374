/**
 * t_ν⁻¹(p) against tabled values (to the 6 decimals of printed t tables) and against values of an
 * independent implementation (scipy.stats.t.ppf 1.17, double precision; ν non-integer included),
 * to 1e-11 relative.
 */
import { describe, expect, it } from "vitest";
import { normalQuantile } from "../../src/core/stats/normal-quantile.js";
import { regularizedBeta, studentTQuantile } from "../../src/core/stats/student-t-quantile.js";

describe("studentTQuantile", () => {
  it("matches printed t tables to 6 decimals", () => {
    const table: [number, number, number][] = [
      [0.95, 1, 6.313752],
      [0.95, 2, 2.919986],
      [0.95, 10, 1.812461],
      [0.975, 30, 2.042272],
      [0.99, 5, 3.36493],
      [0.999, 1, 318.308839],
    ];
    for (const [p, nu, t] of table) expect(studentTQuantile(p, nu)).toBeCloseTo(t, 6);
  });

  it("matches scipy.stats.t.ppf to 1e-11 relative, integer and real ν", () => {
    const ref: [number, number, number][] = [
      [0.95, 1, 6.313751514675037],
      [0.95, 2, 2.9199855803537242],
      [0.95, 3, 2.3533634348018233],
      [0.95, 10, 1.8124611228116756],
      [0.975, 30, 2.0422724563012378],
      [0.95, 519, 1.6477948778609044],
      [0.95, 537, 1.6476961171889057],
      [0.99, 5, 3.3649299989072174],
      [0.9, 1.5, 2.1963984175655376],
      [0.95, 2.5, 2.5582186141359355],
      [0.95, 7.3, 1.8829300179564308],
      [0.999, 1, 318.30883898555015],
      [0.999, 3.7, 7.795183875029165],
      [0.6, 4, 0.2707222947075976],
      [0.51, 1, 0.03142626604335125],
      [0.95, 30.5, 1.6963751158527451],
      [0.95, 999, 1.646380345427535],
      [0.95, 1000, 1.6463788172854643],
      [0.95, 1e4, 1.645006018069243],
      [0.95, 1e6, 1.6448551507220404],
      [0.999999, 2, 707.1057205157672],
      [0.95, 1.0000001, 6.313750444394746],
      [0.8, 12.25, 0.8719560202909474],
    ];
    for (const [p, nu, t] of ref) {
      const got = studentTQuantile(p, nu);
      expect(Math.abs(got - t) / t, `p=${p} ν=${nu}: ${got} vs ${t}`).toBeLessThan(1e-11);
    }
  });

  it("is the SPEC §6 example 5 quantiles: ν = 537 → 1.647696, ν = 519 → 1.647795", () => {
    expect(studentTQuantile(0.95, 537)).toBeCloseTo(1.647696, 6);
    expect(studentTQuantile(0.95, 519)).toBeCloseTo(1.647795, 6);
  });

  it("tends to z as ν grows, decreases in ν, and is continuous across the method switch at ν = 1000", () => {
    const z = normalQuantile(0.95);
    expect(studentTQuantile(0.95, Infinity)).toBe(z);
    // First-order term of the expansion: (z³ + z)/(4ν).
    expect(studentTQuantile(0.95, 1e9)).toBeCloseTo(z + (z ** 3 + z) / 4e9, 15);
    let prev = Infinity;
    for (const nu of [1, 1.5, 2, 2.5, 3, 5, 10, 30, 100, 999, 999.999, 1000, 1001, 1e5]) {
      const t = studentTQuantile(0.95, nu);
      expect(t).toBeLessThan(prev);
      expect(t).toBeGreaterThan(z);
      prev = t;
    }
    expect(Math.abs(studentTQuantile(0.95, 999.999999) - studentTQuantile(0.95, 1000))).toBeLessThan(1e-12);
  });

  it("is odd in p − ½ and inverts the CDF", () => {
    for (const nu of [1, 2, 3.5, 17, 250]) {
      for (const p of [0.55, 0.8, 0.95, 0.99, 0.9999]) {
        const t = studentTQuantile(p, nu);
        expect(studentTQuantile(1 - p, nu)).toBeCloseTo(-t, 12);
        // P(T > t) = ½ I_{ν/(ν+t²)}(ν/2, ½)
        const tail = 0.5 * regularizedBeta(nu / (nu + t * t), nu / 2, 0.5);
        expect(Math.abs(tail - (1 - p)) / (1 - p)).toBeLessThan(1e-11);
      }
    }
    expect(studentTQuantile(0.5, 4)).toBe(0);
  });

  it("rejects p outside (0, 1) and ν < 1", () => {
    expect(() => studentTQuantile(0, 5)).toThrow(RangeError);
    expect(() => studentTQuantile(1, 5)).toThrow(RangeError);
    expect(() => studentTQuantile(0.95, 0.5)).toThrow(RangeError);
    expect(() => studentTQuantile(0.95, Number.NaN)).toThrow(RangeError);
  });
});
