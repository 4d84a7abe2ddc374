/**
 * Parsers for the scalar values of a policy (SPEC §1.3): thresholds, the observed-margin rule and
 * dates. Each returns either a value or one user-facing sentence saying what was expected and what
 * was found; the loader attaches the file, line and key.
 */
import type { Threshold, ThresholdOp } from "./policy-types.js";

export type ValueResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

const ok = <T>(value: T): ValueResult<T> => ({ ok: true, value });
const fail = <T>(message: string): ValueResult<T> => ({ ok: false, message });

/** A short, quoted description of a YAML value for error messages ("got …"). */
export function describeValue(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "an empty value";
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number") return `the number ${formatNumber(v)}`;
  if (typeof v === "boolean") return `the boolean ${String(v)}`;
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "a mapping";
  return typeof v;
}

function formatNumber(n: number): string {
  if (Number.isNaN(n)) return ".nan";
  if (n === Infinity) return ".inf";
  if (n === -Infinity) return "-.inf";
  return String(n);
}

/**
 * NUMBER in a threshold: plain decimal digits with an optional fractional part (`500`, `0.05`,
 * `2.5`, `007`). No sign, exponent, hexadecimal, thousands separator, or leading/trailing dot.
 */
const NUMBER = String.raw`(\d+(?:\.\d+)?)`;
const THRESHOLD_RE = new RegExp(String.raw`^[ \t]*(>=|<=|>|<)[ \t]*${NUMBER}[ \t]*(%?)[ \t]*$`);

/** How a threshold is checked: a minimum (>=, >) or a maximum (<=, <). */
export type ThresholdKind = "count" | "fraction";

export interface ThresholdSpec {
  /** "count": a number of tasks (no %, must be a minimum). "fraction": a rate (must be a maximum). */
  readonly kind: ThresholdKind;
  /** An example written the right way, used in messages. */
  readonly example: string;
}

export const THRESHOLD_FORM =
  "OP NUMBER[%] with OP one of >=, >, <=, < and NUMBER a plain decimal such as 500, 0.05 or 2.5";

export function isMinimumOp(op: ThresholdOp): boolean {
  return op === ">=" || op === ">";
}

/** Parse `OP NUMBER[%]` without field-specific rules. `%` divides by 100 (exactly, in decimal). */
export function parseThresholdText(text: string): ValueResult<Threshold> {
  const m = THRESHOLD_RE.exec(text);
  if (!m) return fail(`expected a threshold (${THRESHOLD_FORM}); got ${JSON.stringify(text)}`);
  const op = m[1] as ThresholdOp;
  const digits = m[2] ?? "";
  const percent = m[3] === "%";
  // Shift the decimal point in text so "1.1%" is the double nearest 0.011, not 1.1 / 100.
  const value = Number(percent ? `${digits}e-2` : digits);
  if (!Number.isFinite(value)) return fail(`the number in ${JSON.stringify(text)} is too large`);
  return ok({ op, value, percent, text });
}

/** Parse a threshold field: a quoted string `OP NUMBER[%]`, checked for its direction and range. */
export function parseThreshold(input: unknown, spec: ThresholdSpec): ValueResult<Threshold> {
  if (typeof input === "number") {
    const op = spec.kind === "count" ? ">=" : "<";
    const pct = spec.kind === "fraction" && input > 1 ? "%" : "";
    return fail(
      `a threshold needs an operator: write it as a quoted string, e.g. "${op} ${formatNumber(input)}${pct}"; got ${describeValue(input)}`,
    );
  }
  if (typeof input !== "string") {
    return fail(
      `expected a threshold string like ${spec.example} (${THRESHOLD_FORM}); got ${describeValue(input)}`,
    );
  }
  const parsed = parseThresholdText(input);
  if (!parsed.ok) {
    return fail(
      `expected a threshold like ${spec.example} (${THRESHOLD_FORM}); got ${JSON.stringify(input)}`,
    );
  }
  const t = parsed.value;
  const shown = JSON.stringify(input);
  if (spec.kind === "count") {
    if (t.percent) {
      return fail(
        `this is a number of tasks, not a fraction: write it without %, e.g. ${spec.example}; got ${shown}`,
      );
    }
    if (!isMinimumOp(t.op)) {
      return fail(`this is a minimum: use >= or >, e.g. ${spec.example}; got ${shown}`);
    }
    return ok(t);
  }
  if (isMinimumOp(t.op)) {
    return fail(`this is a maximum: use < or <=, e.g. ${spec.example}; got ${shown}`);
  }
  if (t.percent && t.value > 1) {
    return fail(`a percentage must be between 0% and 100%; got ${shown}`);
  }
  if (!t.percent && t.value > 1) {
    return fail(
      `a fraction without % must be between 0 and 1 (write "${t.op} ${formatNumber(t.value)}%" for a percentage); got ${shown}`,
    );
  }
  return ok(t);
}

/** The only accepted form of `observed_margin`, without its optional δ₀ term. */
export const OBSERVED_MARGIN_BASE = "> validity_sensitivity + run_variance";

const MARGIN_RE = new RegExp(
  String.raw`^[ \t]*(>=|<=|>|<|=)?[ \t]*validity_sensitivity[ \t]*\+[ \t]*run_variance[ \t]*` +
    String.raw`(?:([+-])[ \t]*${NUMBER}[ \t]*(%?))?[ \t]*$`,
);

const MARGIN_FORMS =
  `"${OBSERVED_MARGIN_BASE}", optionally followed by "+ X%" (demand a gain of more than X points)` +
  ` or "- X%" (accept a candidate worse by less than X points), X a plain decimal from 0 to 100`;

/**
 * Parse `observed_margin`. Returns δ₀ as a fraction: "+ 1%" → 0.01, "- 1%" → −0.01, none → 0.
 * The operator must be `>` (accept when LCB > δ₀); X must carry `%` (a bare "+ 1" would be
 * ambiguous between one point and 100 points).
 */
export function parseObservedMargin(input: unknown): ValueResult<number> {
  if (typeof input !== "string") {
    return fail(`expected the rule ${MARGIN_FORMS}; got ${describeValue(input)}`);
  }
  const shown = JSON.stringify(input);
  const m = MARGIN_RE.exec(input);
  if (!m) return fail(`expected ${MARGIN_FORMS}; got ${shown}`);
  const op = m[1];
  if (op !== ">") {
    return fail(
      `the margin rule must start with ">" (accept only when the lower confidence bound is above δ₀:` +
        ` LCB > δ₀), e.g. "${OBSERVED_MARGIN_BASE}"; got ${shown}`,
    );
  }
  const sign = m[2];
  const digits = m[3];
  if (sign === undefined || digits === undefined) return ok(0);
  if (m[4] !== "%") {
    return fail(
      `write the margin term as a percentage, e.g. "${OBSERVED_MARGIN_BASE} ${sign} ${digits}%"` +
        ` (a bare number is ambiguous); got ${shown}`,
    );
  }
  const magnitude = Number(`${digits}e-2`);
  if (!(magnitude <= 1)) return fail(`the margin term must be between 0% and 100%; got ${shown}`);
  // "- 0%" is δ₀ = 0, never −0.
  return ok(sign === "-" && magnitude !== 0 ? -magnitude : magnitude);
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when `s` is a real calendar date written YYYY-MM-DD (proleptic Gregorian, year ≥ 1). */
export function isIsoDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  return day <= days;
}

/** Parse a `YYYY-MM-DD` date value (in YAML 1.2 core an unquoted date is a string). */
export function parseDate(input: unknown, example: string): ValueResult<string> {
  if (typeof input !== "string") {
    return fail(`expected a date YYYY-MM-DD, e.g. ${example}; got ${describeValue(input)}`);
  }
  if (!DATE_RE.test(input)) {
    return fail(`expected a date YYYY-MM-DD, e.g. ${example}; got ${JSON.stringify(input)}`);
  }
  if (!isIsoDate(input)) return fail(`${JSON.stringify(input)} is not a calendar date`);
  return ok(input);
}

/** Edit distance, for "did you mean" on unknown keys. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const sub = (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      cur.push(Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, sub));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}
