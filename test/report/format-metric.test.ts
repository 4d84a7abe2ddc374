/** How the report writes a metric's mean per task (docs/spec.md §4.5 "How the report writes them"). */
import { describe, expect, it } from "vitest";
import { formatMetric, formatRatio } from "../../src/core/report/render-guardrails.js";

describe("formatMetric", () => {
  it.each([
    [null, "n/a"],
    [0, "0"],
    [0.0123456, "0.01235"],
    [0.0000123456, "0.00001235"],
    [1.23456e-7, "1.235e-7"],
    [3.5, "3.5"],
    [999.94, "999.9"],
    [999.96, "1,000"],
    [1234.56, "1,235"],
    [-8555, "-8,555"],
    [9999.4, "9,999"],
    [9999.6, "10,000"],
    [42519, "42,520"],
    [374412.3, "374,400"],
    [-56789, "-56,790"],
    [12_345_678, "12,350,000"],
  ])("%s → %s", (x, shown) => {
    expect(formatMetric(x)).toBe(shown);
  });
});

describe("formatRatio", () => {
  it("is the ratio to 3 decimals as a multiple", () => {
    expect(formatRatio(0.11396)).toBe("0.114×");
    expect(formatRatio(1.1)).toBe("1.100×");
    expect(formatRatio(null)).toBe("n/a");
  });
});
