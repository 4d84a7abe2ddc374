import { describe, expect, it } from "vitest";
import { headlineText, renderWithinBytes } from "../../src/action/run.js";
import type { Report } from "../../src/core/report/report-types.js";

describe("renderWithinBytes", () => {
  it("shrinks the character budget until the UTF-8 size fits", () => {
    const calls: number[] = [];
    const out = renderWithinBytes((max) => {
      calls.push(max);
      return "€".repeat(max); // 3 bytes each
    }, 3000);
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(3000);
    expect(calls[0]).toBe(3000);
    expect(calls.length).toBe(2);
  });

  it("keeps ASCII at the full budget", () => {
    expect(renderWithinBytes((max) => "a".repeat(Math.min(max, 10)), 100)).toBe("a".repeat(10));
  });
});

describe("headlineText", () => {
  it("is numbers and fixed words only", () => {
    const report = {
      verdict: "unresolved",
      comparison: { margin: 0.057692, lcb: -0.0123, delta0: 0.01 },
    } as unknown as Report;
    expect(headlineText(report)).toBe(
      "Unresolved: margin +5.77 pp, lower confidence bound -1.23 pp vs δ₀ +1.00 pp",
    );
  });
});
