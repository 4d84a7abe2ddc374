/**
 * Plain-text formatting and threshold comparison for checks, reasons and warnings. The renderer
 * escapes untrusted text; this module only produces plain strings.
 */
import type { Threshold } from "../policy/policy-types.js";

/** Relative tolerance for "observed equals the threshold" (absorbs 3.7/100 ≠ 0.037 style noise). */
const THRESHOLD_TOLERANCE = 1e-12;

/** Does `observed` satisfy `OP value`? Equality is judged with a 1e-12 relative tolerance. */
export function satisfies(observed: number, t: Threshold): boolean {
  const equal = Math.abs(observed - t.value) <= THRESHOLD_TOLERANCE * Math.max(1, Math.abs(t.value));
  switch (t.op) {
    case ">=":
      return equal || observed > t.value;
    case ">":
      return !equal && observed > t.value;
    case "<=":
      return equal || observed < t.value;
    case "<":
      return !equal && observed < t.value;
  }
}

/** A figure with 4 decimals and a true minus sign, e.g. "0.0118", "−0.0123". */
export function num(x: number, digits = 4): string {
  const s = Math.abs(x).toFixed(digits);
  return x < 0 && Number(s) !== 0 ? `\u2212${s}` : s;
}

/** A fraction as a percentage with at most 2 decimals, e.g. 0.037037 → "3.7%", 0.01 → "1%". */
export function pct(x: number): string {
  const s = String(Number((x * 100).toFixed(2)));
  return `${s.startsWith("-") ? `\u2212${s.slice(1)}` : s}%`;
}

/** δ₀ as written in a threshold: 0 → "0", 0.01 → "+1%", −0.01 → "-1%". */
export function delta0Text(delta0: number): string {
  if (delta0 === 0) return "0";
  const p = String(Number((Math.abs(delta0) * 100).toPrecision(12)));
  return `${delta0 > 0 ? "+" : "-"}${p}%`;
}

/** "1 task" / "2 tasks" (words.ts). */
export { plural } from "../words.js";

/**
 * An untrusted value (a revision, a path) is shown in a sentence with at most this many code
 * points, a longer one shortened with "…": the sentence, its advice above all, stays whole and
 * short, and the whole value is in the report's own fields (observed, provenance).
 */
export const SHOWN_VALUE_CHARS = 100;

/** Values a sentence names before "and N more". */
export const SHOWN_VALUES = 3;

/** One untrusted value as a sentence shows it (see SHOWN_VALUE_CHARS). */
export function shownValue(value: string): string {
  const cps = Array.from(value);
  return cps.length > SHOWN_VALUE_CHARS ? `${cps.slice(0, SHOWN_VALUE_CHARS - 1).join("")}…` : value;
}

/**
 * Values as a sentence lists them: the first SHOWN_VALUES, then "and N more"; `empty` for none,
 * with its reason (a model's revisions are empty only when it has no rows).
 */
export function shownList(values: readonly string[], empty = "none (no rows)"): string {
  if (values.length === 0) return empty;
  const shown = values.slice(0, SHOWN_VALUES).map(shownValue).join(", ");
  const rest = values.length - SHOWN_VALUES;
  return rest > 0 ? `${shown} and ${rest} more` : shown;
}
