import { describe, expect, it } from "vitest";
import { delta0Text, num, pct, plural, satisfies } from "../../src/core/decision/format.js";
import { threshold } from "../stats/dataset-builder.js";

describe("satisfies", () => {
  it("applies each operator, with equality judged to 1e-12 relative", () => {
    expect(satisfies(500, threshold(">= 500"))).toBe(true);
    expect(satisfies(499, threshold(">= 500"))).toBe(false);
    expect(satisfies(500, threshold("> 500"))).toBe(false);
    expect(satisfies(0.01, threshold("< 1%"))).toBe(false);
    expect(satisfies(0.0099, threshold("< 1%"))).toBe(true);
    expect(satisfies(0.01, threshold("<= 1%"))).toBe(true);
    // 3.7/100 and 37/1000 differ in the last bit; the tolerance treats them as equal.
    expect(3.7 / 100 === 37 / 1000).toBe(false);
    expect(satisfies(37 / 1000, threshold("< 3.7%"))).toBe(false);
    expect(satisfies(37 / 1000, threshold("<= 3.7%"))).toBe(true);
    expect(satisfies(37 / 1000, threshold(">= 3.7%"))).toBe(true);
  });
});

describe("text formatting", () => {
  it("num uses 4 decimals and a true minus sign, never −0", () => {
    expect(num(0.0118028)).toBe("0.0118");
    expect(num(-0.0123)).toBe("\u22120.0123");
    expect(num(-0.00001)).toBe("0.0000");
    expect(num(1.6448536, 6)).toBe("1.644854");
  });

  it("pct trims to at most 2 decimals", () => {
    expect(pct(20 / 540)).toBe("3.7%");
    expect(pct(0.01)).toBe("1%");
    expect(pct(0)).toBe("0%");
    expect(pct(-0.005)).toBe("\u22120.5%");
  });

  it("delta0Text renders δ₀ as in the threshold", () => {
    expect(delta0Text(0)).toBe("0");
    expect(delta0Text(0.01)).toBe("+1%");
    expect(delta0Text(-0.01)).toBe("-1%");
    expect(delta0Text(0.005)).toBe("+0.5%");
    expect(delta0Text(0.07)).toBe("+7%");
  });

  it("plural", () => {
    expect(plural(1, "task")).toBe("1 task");
    expect(plural(2, "task")).toBe("2 tasks");
    expect(plural(0, "more attempt")).toBe("0 more attempts");
  });
});
