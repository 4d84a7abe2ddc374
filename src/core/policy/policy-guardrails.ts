/**
 * The policy's `guardrails` section (docs/policy.md "Guardrails", docs/spec.md §4.5): per metric
 * of the export rows' `metrics`, how much dearer, slower or longer the candidate may be than the
 * baseline, and how large a share of the common tasks may lack the metric.
 *
 *     guardrails:
 *       cost_usd:   { max_increase: "10%" }
 *       tokens_out: { max_increase: "0%", missing: "< 5%" }
 */
import * as z from "zod";

import type { Guardrail, Threshold } from "./policy-types.js";
export type { Guardrail };
import { describeValue, parseThreshold, parseThresholdText, type ValueResult } from "./policy-values.js";

/** A metric name, as the export rows write it (docs/spec.md §1.1 `metrics`). */
export const METRIC_NAME = /^[a-z][a-z0-9_]{0,63}$/;

/** `missing` when a guardrail omits it: at most 1% of the common tasks may lack the metric. */
export const DEFAULT_GUARDRAIL_MISSING = "< 1%";

/** `NUMBER%`: a plain decimal percentage, no operator (the increase is a maximum by its name). */
const PERCENT_RE = /^[ \t]*(\d+(?:\.\d+)?)[ \t]*%[ \t]*$/;

/** Parse `max_increase`: a percentage ≥ 0 written as a string, e.g. "10%" (→ 0.1). */
export function parseMaxIncrease(input: unknown): ValueResult<{ value: number; text: string }> {
  const expected =
    'expected a percentage ≥ 0 as a quoted string, e.g. "10%" (the candidate may cost at most 1.10 × the baseline)';
  if (typeof input === "number") {
    return {
      ok: false,
      message: `${expected}; got ${describeValue(input)} (write it with %, e.g. "${input}%")`,
    };
  }
  if (typeof input !== "string") return { ok: false, message: `${expected}; got ${describeValue(input)}` };
  const m = PERCENT_RE.exec(input);
  if (m === null) return { ok: false, message: `${expected}; got ${JSON.stringify(input)}` };
  // Shift the decimal point in text so "1.1%" is the double nearest 0.011, as thresholds do.
  const value = Number(`${m[1] ?? ""}e-2`);
  if (!Number.isFinite(value))
    return { ok: false, message: `the number in ${JSON.stringify(input)} is too large` };
  return { ok: true, value: { value, text: input } };
}

function fromResult<T>(r: ValueResult<T>, input: unknown, ctx: z.RefinementCtx): T {
  if (r.ok) return r.value;
  ctx.issues.push({ code: "custom", message: r.message, input });
  return z.NEVER;
}

const mapping = {
  error: (iss: { input?: unknown }) => `expected a mapping of keys; got ${describeValue(iss.input)}`,
};

export const guardrailSchema = z.strictObject(
  {
    max_increase: z.unknown().transform((v, ctx) => fromResult(parseMaxIncrease(v), v, ctx)),
    missing: z
      .unknown()
      .transform((v, ctx) => fromResult(parseThreshold(v, { kind: "fraction", example: '"< 5%"' }), v, ctx))
      .optional(),
  },
  {
    error: (iss: { input?: unknown }) =>
      `expected a mapping such as { max_increase: "10%" } (optionally with missing: "< 5%"); got ${describeValue(iss.input)}`,
  },
);

/** `guardrails`: metric name → guardrail; the names follow the export's metric names. */
export const guardrailsSchema = z.record(z.string(), guardrailSchema, mapping).superRefine((record, ctx) => {
  const names = Object.keys(record);
  if (names.length === 0) {
    ctx.addIssue({
      code: "custom",
      message: 'expected at least one metric, e.g. cost_usd: { max_increase: "10%" } (or remove the key)',
    });
  }
  for (const name of names) {
    if (METRIC_NAME.test(name)) continue;
    ctx.addIssue({
      code: "custom",
      path: [name],
      message: `"${name}" is not a metric name: a metric name is a lowercase letter then up to 63 lowercase letters, digits or underscores, as the export's metrics are named (e.g. cost_usd)`,
    });
  }
});

/** The allowed keys of one guardrail, for "unknown key" messages. */
export const GUARDRAIL_KEYS: readonly string[] = Object.keys(guardrailSchema.shape);

const DEFAULT_MISSING: Threshold = (() => {
  const r = parseThresholdText(DEFAULT_GUARDRAIL_MISSING);
  if (!r.ok) throw new Error("the default guardrail missing share does not parse");
  return r.value;
})();

/** The parsed section as the Policy holds it: sorted by metric name (code units). */
export function toGuardrails(d: z.output<typeof guardrailsSchema>): Guardrail[] {
  return Object.keys(d)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((metric) => {
      const g = d[metric];
      if (g === undefined) throw new Error(`guardrail ${metric} vanished`);
      return {
        metric,
        max_increase: g.max_increase.value,
        max_increase_text: g.max_increase.text,
        missing: g.missing ?? DEFAULT_MISSING,
      };
    });
}
