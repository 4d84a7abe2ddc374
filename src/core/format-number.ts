/**
 * Number formatting for the report: fixed decimals, never locale-dependent (no toLocaleString,
 * no Intl), a plain ASCII "-" for negatives, and never "-0.00". `null` and non-finite numbers are
 * shown as "n/a".
 *
 * Units: fractions (rates, scores, shares) are percentages with 2 decimals ("3.70%"); margins and
 * their bounds, standard errors and δ₀ are percentage points with 2 decimals ("+5.77 pp"), signed
 * where they are differences; per-task effects d are signed decimals with 2 decimals ("+1.00");
 * z is a decimal with 4 decimals; counts are plain integers.
 */

export const NOT_AVAILABLE = "n/a";

function isNumber(x: number | null | undefined): x is number {
  return typeof x === "number" && Number.isFinite(x);
}

/** `x.toFixed(decimals)` without a negative zero ("-0.00" → "0.00"). */
export function fixed(x: number, decimals: number): string {
  const s = x.toFixed(decimals);
  return /^-0(?:\.0*)?$/.test(s) ? s.slice(1) : s;
}

/** `+1.23` / `-1.23` / `0.00`: a sign unless the rounded value is zero. */
export function signedFixed(x: number, decimals: number): string {
  const s = fixed(x, decimals);
  return s.startsWith("-") || /^0(?:\.0*)?$/.test(s) ? s : `+${s}`;
}

/** A count: "520". Non-integers (never expected) keep 2 decimals. */
export function formatCount(x: number | null | undefined): string {
  if (!isNumber(x)) return NOT_AVAILABLE;
  return Number.isInteger(x) ? String(x) : fixed(x, 2);
}

/** A fraction as a percentage: 0.037037 → "3.70%". */
export function formatPercent(x: number | null | undefined, decimals = 2): string {
  if (!isNumber(x)) return NOT_AVAILABLE;
  return `${fixed(x * 100, decimals)}%`;
}

/** A difference of fractions in percentage points, signed: 0.057692 → "+5.77 pp". */
export function formatPp(x: number | null | undefined, decimals = 2): string {
  if (!isNumber(x)) return NOT_AVAILABLE;
  return `${signedFixed(x * 100, decimals)} pp`;
}

/** A non-negative spread in percentage points, unsigned: 0.020029 → "2.00 pp". */
export function formatPpUnsigned(x: number | null | undefined, decimals = 2): string {
  if (!isNumber(x)) return NOT_AVAILABLE;
  return `${fixed(x * 100, decimals)} pp`;
}

/** A plain decimal: 1.644854 → "1.6449". */
export function formatDecimal(x: number | null | undefined, decimals = 4): string {
  if (!isNumber(x)) return NOT_AVAILABLE;
  return fixed(x, decimals);
}

/** A signed decimal: 0.5 → "+0.50". */
export function formatSignedDecimal(x: number | null | undefined, decimals = 2): string {
  if (!isNumber(x)) return NOT_AVAILABLE;
  return signedFixed(x, decimals);
}

/** An interval of fractions as percentages: [0.4615, 0.6364] → "46.15% – 63.64%". */
export function formatPercentInterval(iv: readonly [number, number] | null | undefined): string {
  if (iv === null || iv === undefined || !isNumber(iv[0]) || !isNumber(iv[1])) return NOT_AVAILABLE;
  return `${formatPercent(iv[0])} – ${formatPercent(iv[1])}`;
}
