import { describe, expect, it } from "vitest";
import { headlineText } from "../../src/action/evaluate-mode.js";
import { renderWithinBytes } from "../../src/action/publish.js";
import { acceptReport, hostileReport, unresolvedReport } from "../report/fixtures.js";

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
  it("is the check run title: verdict, margin and failing checks, numbers and fixed words only", () => {
    expect(headlineText(acceptReport())).toBe("Accept: margin +5.77 pp, lower bound +1.18 pp > δ₀ 0.00 pp");
    expect(headlineText(hostileReport())).toBe(headlineText(unresolvedReport()));
    // Counted as the checks table shows them: the margin's failing row among them.
    expect(headlineText(unresolvedReport())).toMatch(/^Unresolved: 6 checks fail \(Common valid tasks; /);
  });
});
