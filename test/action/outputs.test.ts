import { describe, expect, it } from "vitest";
import { plainDecimal, reportOutputs } from "../../src/action/outputs.js";
import { rejectReport } from "../report/fixtures.js";

describe("plainDecimal", () => {
  it("writes numbers as plain decimals with full precision, never in exponent form", () => {
    expect(plainDecimal(0.057692307692307696)).toBe("0.057692307692307696");
    expect(plainDecimal(520)).toBe("520");
    expect(plainDecimal(-0.04)).toBe("-0.04");
    expect(plainDecimal(1e-7)).toBe("0.0000001");
    expect(plainDecimal(-2.5e-9)).toBe("-0.0000000025");
    expect(plainDecimal(1.5e21)).toBe("1500000000000000000000");
    expect(plainDecimal(-0)).toBe("0");
    expect(plainDecimal(0)).toBe("0");
  });

  it("is empty for undefined figures", () => {
    expect(plainDecimal(null)).toBe("");
    expect(plainDecimal(undefined)).toBe("");
    expect(plainDecimal(Number.NaN)).toBe("");
    expect(plainDecimal(Number.POSITIVE_INFINITY)).toBe("");
  });

  it("round-trips", () => {
    for (const x of [1e-300, 123.456e-12, 9.87654321e-5, 0.1 + 0.2]) expect(Number(plainDecimal(x))).toBe(x);
  });
});

describe("the three readings as step outputs", () => {
  it("verdict-exclude, verdict-count-as-fail and verdict-bound are each reading's verdict", () => {
    const r = rejectReport();
    const report = {
      ...r,
      infra_readings: {
        exclude: { ...r.infra_readings.exclude, verdict: "accept" as const },
        count_as_fail: r.infra_readings.count_as_fail,
        bound: { ...r.infra_readings.bound, verdict: "unresolved" as const, margin: null },
      },
    };
    const out = reportOutputs(report, "/tmp/r.json");
    expect([out.verdict, out["verdict-exclude"], out["verdict-count-as-fail"], out["verdict-bound"]]).toEqual(
      ["reject", "accept", "reject", "unresolved"],
    );
  });
});
