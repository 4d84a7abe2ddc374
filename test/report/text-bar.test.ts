import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_BAR_WIDTH, displayWidth, renderMarginBar } from "../../src/core/report/text-bar.js";

const ROW_LABEL_WIDTH = 11;

/** The plot segment (after the row label) of the Δ̂, Δ_L..Δ_H and LCB..UCB rows. */
function plotRows(lines: readonly string[], width = DEFAULT_BAR_WIDTH): string[] {
  return lines.slice(2, 5).map((l) =>
    Array.from(l.replace(/\u0302/, ""))
      .slice(ROW_LABEL_WIDTH, ROW_LABEL_WIDTH + width)
      .join(""),
  );
}

describe("renderMarginBar", () => {
  it("draws SPEC §6 example 5 (accept)", () => {
    const lines = renderMarginBar(
      { margin: 30 / 520, lower: 24 / 538, upper: 32 / 522, lcb: 0.011803, ucb: 0.094381, delta0: 0 },
      { confidence: 0.95, openLabels: 20 },
    );
    expect(lines).toEqual([
      "                     δ₀ = 0.00 pp",
      "                     │",
      "Δ̂                    │                     ●                   +5.77 pp",
      "Δ_L..Δ_H             │                [======]                 +4.46 .. +6.13 pp",
      "LCB..UCB             │   [--------------------------------]    +1.18 .. +9.44 pp",
      "           ├─────────┼─────────┬────────┬─────────┬─────────┤  pp",
      "           -2.5     0.0       +2.5     +5.0      +7.5   +10.0",
      "",
      "●      Δ̂, the observed margin on the common valid tasks",
      "[===]  validity band Δ_L..Δ_H: the margin under every resolution of the 20 open labels",
      "[---]  run-variance band LCB..UCB: the validity band widened by q·SE (95.00% one-sided)",
      "│      δ₀, the bar: accept needs LCB > δ₀, reject needs UCB ≤ δ₀",
    ]);
  });

  it("draws δ₀ through a band that straddles it", () => {
    const lines =
      renderMarginBar({ margin: 0.01, lower: -0.02, upper: 0.03, lcb: -0.05, ucb: 0.06, delta0: 0 }) ?? [];
    const [point, validity, run] = plotRows(lines);
    const d0 = Array.from(lines[1] ?? "").indexOf("│") - ROW_LABEL_WIDTH;
    expect(Array.from(point ?? "")[d0]).toBe("│");
    expect(Array.from(validity ?? "")[d0]).toBe("│");
    expect(Array.from(run ?? "")[d0]).toBe("│");
    expect(run).toMatch(/\[-+│-+\]/);
    expect(validity).toMatch(/\[=+│=+\]/);
  });

  it("draws a zero-width band as | and says so", () => {
    const lines =
      renderMarginBar({ margin: 0.05, lower: 0.05, upper: 0.05, lcb: 0.02, ucb: 0.08, delta0: 0 }) ?? [];
    expect(plotRows(lines)[1]).toMatch(/^[ │]*\|[ │]*$/);
    expect(lines).toContain("|      a band of zero width");
    expect(lines[3]).toContain("+5.00 .. +5.00 pp");
  });

  it("handles every value equal (degenerate axis)", () => {
    const lines = renderMarginBar({ margin: 0, lower: 0, upper: 0, lcb: 0, ucb: 0, delta0: 0 }) ?? [];
    expect(lines.slice(2, 7)).toEqual([
      "Δ̂                                   ●                          0.00 pp",
      "Δ_L..Δ_H                            |                          0.00 .. 0.00 pp",
      "LCB..UCB                            |                          0.00 .. 0.00 pp",
      "           ├───────────┬────────────┼───────────┬───────────┤  pp",
      "           -1.0       -0.5         0.0         +0.5      +1.0",
    ]);
  });

  it("clamps the axis to ±100 pp and marks values beyond it", () => {
    const lines =
      renderMarginBar({ margin: 0.1, lower: -0.5, upper: 0.6, lcb: -1.4, ucb: 1.2, delta0: 0 }) ?? [];
    expect(plotRows(lines)[2]).toMatch(/^<-+│-+>$/);
    expect(lines).toContain("< >    a value beyond the axis (clamped to -100..+100 pp)");
    expect(lines[4]).toContain("-140.00 .. +120.00 pp");
  });

  it("leaves rows of undefined figures empty and prints n/a", () => {
    const lines =
      renderMarginBar({ margin: 0.02, lower: 0.01, upper: 0.03, lcb: null, ucb: null, delta0: 0 }) ?? [];
    expect(plotRows(lines)[2]?.trim()).toBe("│");
    expect(lines[4]?.endsWith("  n/a")).toBe(true);
  });

  it("returns null when there is nothing to draw", () => {
    expect(
      renderMarginBar({ margin: null, lower: null, upper: null, lcb: null, ucb: null, delta0: 0 }),
    ).toBeNull();
  });

  it("keeps its columns aligned and uses only its own characters, for any figures", () => {
    const value = fc.option(fc.double({ min: -3, max: 3, noNaN: true }), { nil: null });
    fc.assert(
      fc.property(
        value,
        value,
        value,
        value,
        value,
        fc.double({ min: -0.2, max: 0.2, noNaN: true }),
        fc.integer({ min: 20, max: 120 }),
        (margin, lower, upper, lcb, ucb, delta0, width) => {
          const lines = renderMarginBar({ margin, lower, upper, lcb, ucb, delta0 }, { width });
          if ([margin, lower, upper, lcb, ucb].every((v) => v === null)) {
            expect(lines).toBeNull();
            return;
          }
          expect(lines).not.toBeNull();
          const all = (lines ?? []).join("\n");
          expect(all).not.toMatch(/NaN|Infinity|undefined/);
          expect(all).toMatch(/^(?:[\sA-Za-z0-9δ₀Δ_.,:;()/+\-=<>≤|[\]●│├┤┬┼─·%]|\u0302)*$/u);
          const d0 = Array.from((lines ?? [])[1] ?? "").indexOf("│");
          for (const row of (lines ?? []).slice(2, 5)) {
            const cells = Array.from(row.replace(/\u0302/, ""));
            expect(displayWidth(cells.slice(0, ROW_LABEL_WIDTH + width).join(""))).toBe(
              ROW_LABEL_WIDTH + width,
            );
            expect(["│", "●", "[", "]", "|", "<", ">"]).toContain(cells[d0]);
          }
          const axis = Array.from((lines ?? [])[5] ?? "");
          expect(axis.length).toBe(ROW_LABEL_WIDTH + width + 4);
          expect(axis[d0]).toBe("┼");
        },
      ),
      { numRuns: 500 },
    );
  });
});
