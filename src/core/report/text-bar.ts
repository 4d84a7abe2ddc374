/**
 * The margin drawn as a text bar (a small forest plot) for a ```text fence in the Markdown report.
 * Every character is generated here — fixed labels, box-drawing glyphs and numbers formatted with
 * toFixed — so untrusted text can never reach the fence.
 *
 *                δ₀ = 0.00 pp
 *                │
 *   Δ̂            │                 ●                    +5.77 pp
 *   Δ_L..Δ_H     │               [=====]                +4.46 .. +6.13 pp
 *   LCB..UCB     │    [--------------------------]      +1.18 .. +9.42 pp
 *             ├──┼──────────┬──────────┬──────────┬──┤  pp
 *             -2  0         +3         +6        +9  …
 *
 * The axis is in percentage points, spans every drawn value (plus a small margin) rounded out to
 * a "nice" step, and is clamped to [-100, +100] pp; a value beyond the axis is drawn as `<` or `>`
 * at its edge. A band of zero width is drawn as `|`. A missing value leaves its row empty and
 * prints "n/a".
 */

import { fixed, signedFixed } from "./format-number.js";
import { plural } from "../words.js";

export interface MarginBarInput {
  /** Δ̂ */
  readonly margin: number | null;
  /** Δ_L */
  readonly lower: number | null;
  /** Δ_H */
  readonly upper: number | null;
  readonly lcb: number | null;
  readonly ucb: number | null;
  readonly delta0: number;
}

export interface MarginBarOptions {
  /** Columns of the plot area (default 50, clamped to 20..200). */
  readonly width?: number;
  /** Confidence, for the legend (e.g. 0.95). */
  readonly confidence?: number;
  /** Number of open labels (disputed + unreviewed), for the legend. */
  readonly openLabels?: number;
  /** LCB..UCB are conservative bounds (the report's bound kinds), said so in the legend. */
  readonly conservative?: boolean;
  /** The bounds are over lost results too (infra_errors: bound with infra errors), said so in the legend. */
  readonly lostResults?: boolean;
}

export const DEFAULT_BAR_WIDTH = 50;

const ROW_LABEL_WIDTH = 11;
const AXIS_LIMIT_PP = 100;
const NICE_STEPS = [0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10, 20, 25, 50] as const;
const MAX_TICK_INTERVALS = 5;

const GLYPH = {
  point: "●",
  delta0: "│",
  runFill: "-",
  validityFill: "=",
  open: "[",
  close: "]",
  degenerate: "|",
  offLeft: "<",
  offRight: ">",
  axis: "─",
  axisStart: "├",
  axisEnd: "┤",
  tick: "┬",
  axisDelta0: "┼",
} as const;

function finite(x: number | null | undefined): x is number {
  return typeof x === "number" && Number.isFinite(x);
}

/** Display width in a monospace font: combining marks take no column. */
export function displayWidth(s: string): number {
  let w = 0;
  for (const c of s) if (!/^\p{M}$/u.test(c)) w += 1;
  return w;
}

function padDisplay(s: string, width: number): string {
  return s + " ".repeat(Math.max(0, width - displayWidth(s)));
}

/** Removes floating-point noise from a value in pp (e.g. 0.30000000000000004 → 0.3). */
function clean(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

interface Axis {
  readonly lo: number;
  readonly hi: number;
  readonly step: number;
  readonly width: number;
}

function buildAxis(valuesPp: readonly number[], width: number): Axis {
  let lo = Math.min(...valuesPp);
  let hi = Math.max(...valuesPp);
  if (hi - lo < 1) {
    const mid = (lo + hi) / 2;
    lo = mid - 1;
    hi = mid + 1;
  } else {
    const pad = (hi - lo) * 0.03;
    lo -= pad;
    hi += pad;
  }
  lo = Math.max(lo, -AXIS_LIMIT_PP);
  hi = Math.min(hi, AXIS_LIMIT_PP);
  if (hi - lo < 1) {
    // Only possible when every value sits beyond one end of the clamped axis.
    if (lo >= AXIS_LIMIT_PP - 1) lo = AXIS_LIMIT_PP - 2;
    else hi = -AXIS_LIMIT_PP + 2;
  }
  let step: number = NICE_STEPS[NICE_STEPS.length - 1] ?? 50;
  for (const s of NICE_STEPS) {
    if (Math.ceil(clean(hi / s)) - Math.floor(clean(lo / s)) <= MAX_TICK_INTERVALS) {
      step = s;
      break;
    }
  }
  const niceLo = Math.max(-AXIS_LIMIT_PP, clean(Math.floor(clean(lo / step)) * step));
  const niceHi = Math.min(AXIS_LIMIT_PP, clean(Math.ceil(clean(hi / step)) * step));
  return { lo: niceLo, hi: niceHi, step, width };
}

type Placement = { readonly col: number; readonly off: "left" | "right" | null };

function place(axis: Axis, vPp: number): Placement {
  if (vPp < axis.lo) return { col: 0, off: "left" };
  if (vPp > axis.hi) return { col: axis.width - 1, off: "right" };
  const col = Math.round(((vPp - axis.lo) / (axis.hi - axis.lo)) * (axis.width - 1));
  return { col: Math.min(axis.width - 1, Math.max(0, col)), off: null };
}

function tickDecimals(step: number): number {
  if (Number.isInteger(step)) return 0;
  if (Number.isInteger(step * 10)) return 1;
  return 2;
}

function formatTick(vPp: number, decimals: number): string {
  return signedFixed(vPp, decimals);
}

function ppText(x: number): string {
  return signedFixed(x * 100, 2);
}

interface DrawState {
  clipped: boolean;
  degenerate: boolean;
}

function bandRow(
  axis: Axis,
  delta0: Placement,
  a: number | null,
  b: number | null,
  fill: string,
  state: DrawState,
): string[] {
  const row: string[] = Array.from({ length: axis.width }, () => " ");
  if (finite(a) && finite(b)) {
    const lo = Math.min(a, b) * 100;
    const hi = Math.max(a, b) * 100;
    const pa = place(axis, lo);
    const pb = place(axis, hi);
    for (let c = pa.col; c <= pb.col; c++) row[c] = fill;
    row[delta0.col] = GLYPH.delta0;
    if (pa.col === pb.col && pa.off === null && pb.off === null) {
      row[pa.col] = GLYPH.degenerate;
      state.degenerate = true;
    } else {
      row[pa.col] = pa.off === "left" ? GLYPH.offLeft : GLYPH.open;
      row[pb.col] = pb.off === "right" ? GLYPH.offRight : GLYPH.close;
      if (pa.off !== null || pb.off !== null) state.clipped = true;
    }
  } else {
    row[delta0.col] = GLYPH.delta0;
  }
  return row;
}

function pointRow(axis: Axis, delta0: Placement, v: number | null, state: DrawState): string[] {
  const row: string[] = Array.from({ length: axis.width }, () => " ");
  row[delta0.col] = GLYPH.delta0;
  if (finite(v)) {
    const p = place(axis, v * 100);
    row[p.col] = p.off === "left" ? GLYPH.offLeft : p.off === "right" ? GLYPH.offRight : GLYPH.point;
    if (p.off !== null) state.clipped = true;
  }
  return row;
}

/**
 * Places labels centred on their columns on one line; the first and the last label are placed
 * first, and a label that would touch one already placed is skipped.
 */
function labelLine(width: number, labels: readonly { col: number; text: string }[]): string {
  const line: string[] = Array.from({ length: width }, () => " ");
  const placed: [number, number][] = [];
  const order = labels.length <= 2 ? labels : [labels[0], labels[labels.length - 1], ...labels.slice(1, -1)];
  for (const label of order) {
    if (label === undefined) continue;
    const chars = Array.from(label.text);
    if (chars.length > width) continue;
    const start = Math.max(0, Math.min(label.col - Math.floor((chars.length - 1) / 2), width - chars.length));
    const end = start + chars.length - 1;
    if (placed.some(([a, b]) => start <= b + 1 && end >= a - 1)) continue;
    chars.forEach((c, i) => {
      line[start + i] = c;
    });
    placed.push([start, end]);
  }
  return line.join("").trimEnd();
}

function bandText(a: number | null, b: number | null): string {
  if (!finite(a) || !finite(b)) return "n/a";
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  return `${ppText(lo)} .. ${ppText(hi)} pp`;
}

/**
 * The bar as lines of text (no fence), with a legend in words; null when there is nothing to draw
 * (Δ̂ and every bound undefined).
 */
export function renderMarginBar(input: MarginBarInput, options: MarginBarOptions = {}): string[] | null {
  const drawn = [input.margin, input.lower, input.upper, input.lcb, input.ucb].filter(finite);
  if (drawn.length === 0) return null;
  const delta0 = finite(input.delta0) ? input.delta0 : 0;
  const width = Math.min(200, Math.max(20, Math.floor(options.width ?? DEFAULT_BAR_WIDTH)));
  const axis = buildAxis(
    [...drawn, delta0].map((v) => v * 100),
    width,
  );
  const d0 = place(axis, delta0 * 100);
  const state: DrawState = { clipped: false, degenerate: false };

  const indent = " ".repeat(ROW_LABEL_WIDTH);
  const rows: { label: string; cells: string[]; value: string }[] = [
    {
      label: "Δ̂",
      cells: pointRow(axis, d0, input.margin, state),
      value: finite(input.margin) ? `${ppText(input.margin)} pp` : "n/a",
    },
    {
      label: "Δ_L..Δ_H",
      cells: bandRow(axis, d0, input.lower, input.upper, GLYPH.validityFill, state),
      value: bandText(input.lower, input.upper),
    },
    {
      label: "LCB..UCB",
      cells: bandRow(axis, d0, input.lcb, input.ucb, GLYPH.runFill, state),
      // A conservative band says so beside its figures, as every rendering does.
      value:
        bandText(input.lcb, input.ucb) +
        (options.conservative === true && finite(input.lcb) && finite(input.ucb) ? " (conservative)" : ""),
    },
  ];

  const lines: string[] = [];
  const d0Label = `δ₀ = ${ppText(delta0)} pp`;
  const d0Start = Math.max(0, Math.min(d0.col, width - displayWidth(d0Label)));
  lines.push(`${indent}${" ".repeat(d0Start)}${d0Label}`.trimEnd());
  lines.push(`${indent}${" ".repeat(d0.col)}${GLYPH.delta0}`);
  for (const r of rows) {
    lines.push(`${padDisplay(r.label, ROW_LABEL_WIDTH)}${r.cells.join("")}  ${r.value}`);
  }

  const axisCells: string[] = Array.from({ length: width }, () => GLYPH.axis);
  const ticks: { col: number; text: string }[] = [];
  const decimals = tickDecimals(axis.step);
  const first = Math.ceil(clean(axis.lo / axis.step));
  const last = Math.floor(clean(axis.hi / axis.step));
  for (let k = first; k <= last; k++) {
    const v = clean(k * axis.step);
    const p = place(axis, v);
    axisCells[p.col] = GLYPH.tick;
    ticks.push({ col: p.col, text: formatTick(v, decimals) });
  }
  axisCells[0] = GLYPH.axisStart;
  axisCells[width - 1] = GLYPH.axisEnd;
  axisCells[d0.col] = GLYPH.axisDelta0;
  lines.push(`${indent}${axisCells.join("")}  pp`);
  lines.push(`${indent}${labelLine(width, ticks)}`.trimEnd());

  const confidence = finite(options.confidence)
    ? `${fixed(options.confidence * 100, 2)}% one-sided`
    : "one-sided";
  const open =
    options.openLabels !== undefined && Number.isInteger(options.openLabels)
      ? `the ${plural(options.openLabels, "open label")}`
      : "the open labels";
  lines.push("");
  lines.push(`${GLYPH.point}      Δ̂, the observed margin on the common valid tasks`);
  // With lost results and no open label, the band is over the lost results alone.
  const over =
    options.lostResults !== true
      ? open
      : options.openLabels === 0
        ? "the lost results"
        : `${open} and the lost results`;
  lines.push(`[===]  validity band Δ_L..Δ_H: the margin under every resolution of ${over}`);
  lines.push(
    options.conservative === true
      ? `[---]  run-variance band LCB..UCB (conservative): widened by q_max·SE_max (${confidence})`
      : `[---]  run-variance band LCB..UCB: the validity band widened by q·SE (${confidence})`,
  );
  lines.push(`${GLYPH.delta0}      δ₀, the bar: accept needs LCB > δ₀, reject needs UCB ≤ δ₀`);
  if (state.degenerate) lines.push(`${GLYPH.degenerate}      a band of zero width`);
  if (state.clipped) lines.push(`< >    a value beyond the axis (clamped to -100..+100 pp)`);
  return lines;
}
