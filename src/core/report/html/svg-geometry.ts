/**
 * The charts' geometry, as small exact functions (tested value by value in
 * test/report/svg-geometry.test.ts): a linear scale from data to pixels, a "nice" axis with round
 * ticks, a band's rectangle (never thinner than a visible minimum), and coordinates written with
 * one decimal so the same report gives byte-identical SVG.
 */

/** A linear map from [d0, d1] (data) to [r0, r1] (pixels); a degenerate domain maps to the middle. */
export function linearScale(d0: number, d1: number, r0: number, r1: number): (v: number) => number {
  if (!(d1 !== d0) || !Number.isFinite(d0) || !Number.isFinite(d1)) return () => (r0 + r1) / 2;
  const k = (r1 - r0) / (d1 - d0);
  return (v) => r0 + (v - d0) * k;
}

/** Clamps v to [lo, hi]. */
export function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

/** Removes floating-point noise (0.30000000000000004 → 0.3). */
function clean(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}

const NICE_STEPS = [0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10, 20, 25, 50] as const;

export interface Axis {
  readonly lo: number;
  readonly hi: number;
  readonly step: number;
  /** Tick values from lo to hi, every step. */
  readonly ticks: readonly number[];
}

/**
 * An axis over the values (in display units: % or pp) rounded out to a nice step with at most
 * `maxIntervals` intervals, padded by 3% of the span, at least `minSpan` wide, and kept within
 * [limitLo, limitHi]. The values must hold at least one finite number (else [limitLo, limitHi]).
 */
export function niceAxis(
  values: readonly number[],
  options: { maxIntervals?: number; minSpan?: number; limitLo?: number; limitHi?: number } = {},
): Axis {
  const maxIntervals = options.maxIntervals ?? 6;
  const limitLo = options.limitLo ?? -100;
  const limitHi = options.limitHi ?? 100;
  const minSpan = options.minSpan ?? 1;
  // A loop, not Math.min(...values): no argument spread (test/hardening/scale.test.ts).
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  if (lo > hi) {
    lo = limitLo;
    hi = limitHi;
  }
  if (hi - lo < minSpan) {
    const mid = (lo + hi) / 2;
    lo = mid - minSpan / 2;
    hi = mid + minSpan / 2;
  } else {
    const pad = (hi - lo) * 0.03;
    lo -= pad;
    hi += pad;
  }
  lo = clamp(lo, limitLo, limitHi);
  hi = clamp(hi, limitLo, limitHi);
  if (hi - lo < minSpan) {
    if (lo >= limitHi - minSpan) lo = limitHi - minSpan;
    else hi = limitLo + minSpan;
  }
  let step: number = NICE_STEPS[NICE_STEPS.length - 1] ?? 50;
  for (const s of NICE_STEPS) {
    if (Math.ceil(clean(hi / s)) - Math.floor(clean(lo / s)) <= maxIntervals) {
      step = s;
      break;
    }
  }
  const niceLo = Math.max(limitLo, clean(Math.floor(clean(lo / step)) * step));
  const niceHi = Math.min(limitHi, clean(Math.ceil(clean(hi / step)) * step));
  const ticks: number[] = [];
  for (let k = Math.ceil(clean(niceLo / step)); k <= Math.floor(clean(niceHi / step)); k++) {
    ticks.push(clean(k * step));
  }
  return { lo: niceLo, hi: niceHi, step, ticks };
}

/** Decimals a tick label needs for its step: 0 for whole steps, 1 for tenths, else 2. */
export function tickDecimals(step: number): number {
  if (Number.isInteger(step)) return 0;
  if (Number.isInteger(clean(step * 10))) return 1;
  return 2;
}

/** A band's rectangle on a scale: left edge and width in px, at least `minWidth` wide (centred). */
export function bandRect(
  a: number,
  b: number,
  scale: (v: number) => number,
  minWidth = 2,
): { x: number; width: number } {
  const x0 = scale(Math.min(a, b));
  const x1 = scale(Math.max(a, b));
  const w = Math.abs(x1 - x0);
  if (w >= minWidth) return { x: Math.min(x0, x1), width: w };
  const mid = (x0 + x1) / 2;
  return { x: mid - minWidth / 2, width: minWidth };
}

/** A coordinate with one decimal, never "-0.0": "12.5", "0.0". */
export function px(v: number): string {
  const s = (Math.round(v * 10) / 10).toFixed(1);
  return s === "-0.0" ? "0.0" : s;
}
