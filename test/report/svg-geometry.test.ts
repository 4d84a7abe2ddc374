/** The chart geometry of the HTML pages (src/core/report/html/svg-geometry.ts), value by value. */
import { describe, expect, it } from "vitest";
import {
  bandRect,
  clamp,
  linearScale,
  niceAxis,
  px,
  tickDecimals,
} from "../../src/core/report/html/svg-geometry.js";
import { SCORE_CHART, scoreAxisValues } from "../../src/core/rank/rank-charts-html.js";
import { syntheticRankReport } from "./html-fixtures.js";

describe("linearScale", () => {
  it("maps the domain's ends to the range's ends and is linear between", () => {
    const x = linearScale(40, 80, 250, 790);
    expect(x(40)).toBe(250);
    expect(x(80)).toBe(790);
    expect(x(60)).toBe(520);
    expect(x(30)).toBe(115);
  });
  it("inverts for a y axis (range high to low)", () => {
    const y = linearScale(-2, 8, 178, 24);
    expect(y(-2)).toBe(178);
    expect(y(8)).toBe(24);
    expect(y(0)).toBeCloseTo(147.2, 12);
  });
  it("maps a degenerate domain to the middle of the range", () => {
    expect(linearScale(5, 5, 0, 100)(5)).toBe(50);
    expect(linearScale(Number.NaN, 1, 0, 100)(0.5)).toBe(50);
  });
});

describe("niceAxis", () => {
  it("rounds out to a nice step with at most the intervals asked for", () => {
    const a = niceAxis([41.3, 72.9], { maxIntervals: 8, limitLo: 0, limitHi: 100 });
    // span 31.6 padded by 3% each side: 40.352 .. 73.848 → step 5: 40 .. 75.
    expect(a).toEqual({ lo: 40, hi: 75, step: 5, ticks: [40, 45, 50, 55, 60, 65, 70, 75] });
  });
  it("widens a narrow range to minSpan around its middle", () => {
    // 3.55 .. 5.55: step 0.25 would need 9 intervals (more than the default 6), 0.5 needs 5.
    expect(niceAxis([4.5, 4.6], { minSpan: 2 })).toEqual({
      lo: 3.5,
      hi: 6,
      step: 0.5,
      ticks: [3.5, 4, 4.5, 5, 5.5, 6],
    });
  });
  it("keeps within the limits", () => {
    const a = niceAxis([-100, 100]);
    expect(a.lo).toBe(-100);
    expect(a.hi).toBe(100);
    expect(a.step).toBe(50);
    expect(a.ticks).toEqual([-100, -50, 0, 50, 100]);
    expect(niceAxis([0, 0.4], { limitLo: 0, limitHi: 100, minSpan: 2 })).toMatchObject({ lo: 0, hi: 2 });
  });
  it("covers -2 .. +8 pp for the demo's margin figures", () => {
    expect(niceAxis([4.58, 4.29, 4.79, 2.16, 6.92, 0, 0], { maxIntervals: 6, minSpan: 2 })).toEqual({
      lo: -2,
      hi: 8,
      step: 2,
      ticks: [-2, 0, 2, 4, 6, 8],
    });
  });
  it("without a finite value, is the limits", () => {
    expect(niceAxis([Number.NaN], { limitLo: 0, limitHi: 100 })).toMatchObject({ lo: 0, hi: 100 });
  });
});

describe("bandRect", () => {
  const x = linearScale(0, 100, 0, 500);
  it("is the band's pixel extent, in either order", () => {
    expect(bandRect(20, 30, x)).toEqual({ x: 100, width: 50 });
    expect(bandRect(30, 20, x)).toEqual({ x: 100, width: 50 });
  });
  it("is never thinner than the minimum, centred on the band", () => {
    expect(bandRect(50, 50, x)).toEqual({ x: 249, width: 2 });
    expect(bandRect(50, 50.1, x, 4)).toEqual({ x: 248.25, width: 4 });
  });
});

describe("px, tickDecimals, clamp", () => {
  it("writes one decimal and never -0.0", () => {
    expect(px(12.345)).toBe("12.3");
    expect(px(-0.04)).toBe("0.0");
    expect(px(0)).toBe("0.0");
    expect(px(249.96)).toBe("250.0");
  });
  it("gives the decimals a step needs", () => {
    expect(tickDecimals(5)).toBe(0);
    expect(tickDecimals(0.5)).toBe(1);
    expect(tickDecimals(0.25)).toBe(2);
  });
  it("clamps", () => {
    expect(clamp(-1, 0, 1)).toBe(0);
    expect(clamp(2, 0, 1)).toBe(1);
    expect(clamp(0.5, 0, 1)).toBe(0.5);
  });
});

describe("the score chart's band widths", () => {
  it("hold every score and both bands' ends, in %", () => {
    const r = syntheticRankReport(["a", "b"], { step: 0.04 });
    // a: score 70%, validity 67 .. 72.4, run 63.5 .. 75.9; b: 65.8% (−4 − 0.2), 62.8 .. 68.2, 59.3 .. 71.7.
    expect(scoreAxisValues(r.models).map((v) => Math.round(v * 1e6) / 1e6)).toEqual([
      70, 67, 72.4, 63.5, 75.9, 65.8, 62.8, 68.2, 59.3, 71.7,
    ]);
    const axis = niceAxis(scoreAxisValues(r.models), {
      maxIntervals: 8,
      minSpan: 2,
      limitLo: 0,
      limitHi: 100,
    });
    // 59.3 .. 75.9 padded to 58.802 .. 76.398: step 2 needs 10 intervals, 2.5 needs 8.
    expect(axis).toMatchObject({ lo: 57.5, hi: 77.5, step: 2.5 });
    const x = linearScale(axis.lo, axis.hi, SCORE_CHART.plotLeft, SCORE_CHART.plotRight);
    // 27 px a point: a's validity band 67 .. 72.4 is 145.8 px from x = 250 + 9.5 · 27 = 506.5.
    const band = bandRect(67, 72.4, x);
    expect(band.x).toBeCloseTo(506.5, 9);
    expect(band.width).toBeCloseTo(145.8, 9);
  });
});
