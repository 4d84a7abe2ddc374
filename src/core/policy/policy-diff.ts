/**
 * Policy changes on a pull request (SPEC §5.1): the base policy decides; the head's changes are
 * listed rule by rule and every loosening is marked, so a PR cannot quietly soften its own gate.
 *
 * Rules are compared by meaning, not by text: "< 1%" and "< 0.01" are the same rule, and so are
 * `on_expired` omitted and `on_expired: warn` (the default). For `common_valid_tasks`, a count,
 * ">= 500" and "> 499" are the same rule.
 *
 * What counts as a loosening (head laxer than base):
 * - a threshold that is a minimum (>=, >) lowered, or > turned into >= at the same value;
 *   a maximum (<, <=) raised, or < turned into <= at the same value; a threshold whose direction
 *   flips (not produced by parsePolicy) is marked as a loosening, since it cannot be ordered;
 * - `missing_fraction` or `production_canary` removed (adding one is a tightening);
 * - a smaller δ₀ in `observed_margin`; a lower `margin.confidence`;
 * - `validity_bound` pessimistic → exact (the exact bound is narrower, so it clears more often);
 * - `quantile` t → z (z ≤ t_ν for every ν, so the z bound is narrower);
 * - `cluster_correction` cr2 → cr1 (CR1 has the smaller small-sample adjustment and, with
 *   ν = G − 1 ≥ the Bell–McCaffrey ν, the smaller t quantile);
 * - `infra_errors` from `bound` to `exclude` or `count_as_fail` (below);
 * - a later `revisit`; `on_expired` towards warn (fail → neutral → warn); `on_unresolved` fail → neutral;
 *   `require_same_harness` true → false; `reruns` towards `latest` (fail → pool → latest: each
 *   step lets a re-run of the eval count for more);
 * - a guardrail removed or its `max_increase` raised, or its `missing` share raised (adding a
 *   guardrail or lowering either is a tightening): each metric's rules are listed under
 *   `guardrails.<metric>` after the rules above, in metric-name order.
 * Changes that are listed but not marked as loosening, because neither side is laxer in general:
 * - `owner` (who answers for the thresholds);
 * - `infra_errors` exclude ↔ count_as_fail: counting infra errors as fails penalises whichever
 *   model has more of them, which may be the baseline, so it can move the margin either way;
 *   infra errors are gated separately by `infra_error_rate` under every setting. Leaving `bound`
 *   for either is a loosening: bound's [LCB, UCB] contains count_as_fail's, and exclude's on the
 *   same common set (docs/spec.md §3.8);
 * - `margin.power`: it only changes the minimum detectable effect, a planning figure that never
 *   decides, so a lower power is not a loosening;
 * - `standard_error` paired ↔ clustered: the clustered (CR1) error is usually wider with
 *   correlated tasks but can be narrower with few or anti-correlated clusters, so neither is the
 *   stricter one in general;
 * - `benchmarks.NAME.*`: each benchmark's bar as the top-level rules (above); `required` and
 *   `canary` dropped loosen;
 * - `rank.require` and `rank.reference` (the ranking's gate, docs/rank.md): `top_resolved` asks
 *   nothing of the candidate, and `top_group` and `above_reference` ask different things, so no
 *   requirement is stricter than another in general; a new reference is another comparison.
 */
import { InputError, errorLine } from "../errors.js";
import type { PolicyChange } from "../verdict-types.js";
import type { AcceptIf, BenchmarkPolicy, Guardrail, Policy, Threshold } from "./policy-types.js";
import { isMinimumOp } from "./policy-values.js";
import { parsePolicy } from "./load-policy.js";

/** How strictly each `reruns` mode treats a re-run of the eval (higher is stricter). */
const RERUNS_STRICTNESS: Readonly<Record<Policy["reruns"], number>> = { latest: 0, pool: 1, fail: 2 };

type Change = { readonly base: string | null; readonly head: string | null; readonly loosening: boolean };

/** A threshold as a comparable bound. Counts are integers, so "> 499" is the minimum 500. */
interface Bound {
  readonly minimum: boolean;
  readonly value: number;
  /** The bound itself passes (>=, <=). */
  readonly inclusive: boolean;
}

function bound(t: Threshold, count: boolean): Bound {
  const minimum = isMinimumOp(t.op);
  if (count && minimum) {
    return { minimum, value: t.op === ">=" ? Math.ceil(t.value) : Math.floor(t.value) + 1, inclusive: true };
  }
  return { minimum, value: t.value, inclusive: t.op === ">=" || t.op === "<=" };
}

function sameBound(a: Bound, b: Bound): boolean {
  return a.minimum === b.minimum && a.value === b.value && a.inclusive === b.inclusive;
}

/** True when `head` lets through something `base` rejects. */
function laxer(base: Bound, head: Bound): boolean {
  if (base.minimum !== head.minimum) return true;
  if (head.value !== base.value) return base.minimum ? head.value < base.value : head.value > base.value;
  return head.inclusive && !base.inclusive;
}

function thresholdChange(
  base: Threshold | undefined,
  head: Threshold | undefined,
  count: boolean,
): Change | null {
  if (base === undefined && head === undefined) return null;
  if (base === undefined || head === undefined) {
    // Removing a check loosens; adding one tightens.
    return { base: base?.text ?? null, head: head?.text ?? null, loosening: head === undefined };
  }
  const b = bound(base, count);
  const h = bound(head, count);
  if (sameBound(b, h)) return null;
  return { base: base.text, head: head.text, loosening: laxer(b, h) };
}

/** A value that may be absent (e.g. `rank.reference`): listed when it changes, never a loosening. */
function nullableChange(base: string | null, head: string | null): Change | null {
  return base === head ? null : { base, head, loosening: false };
}

function valueChange<T extends string | number | boolean>(
  base: T,
  head: T,
  loosening: (base: T, head: T) => boolean,
): Change | null {
  if (base === head) return null;
  return { base: String(base), head: String(head), loosening: loosening(base, head) };
}

const never = (): boolean => false;

/** `on_expired` from laxest to strictest: neutral keeps an expired policy from a green check. */
const EXPIRY_STRICTNESS: Readonly<Record<Policy["on_expired"], number>> = { warn: 0, neutral: 1, fail: 2 };

/**
 * Every rule that differs between the base and head policies, in a fixed order (the order of the
 * keys in SPEC §1.3), with base and head rendered as text (`null` when the optional rule is absent)
 * and `loosening` set when the head is laxer.
 */
export function diffPolicies(base: Policy, head: Policy): PolicyChange[] {
  const a = base.accept_if;
  const b = head.accept_if;
  const rules: [string, Change | null][] = [
    ["owner", valueChange(base.owner, head.owner, never)],
    ["revisit", valueChange(base.revisit, head.revisit, (x, y) => y > x)],
    [
      "on_expired",
      valueChange(base.on_expired, head.on_expired, (x, y) => EXPIRY_STRICTNESS[y] < EXPIRY_STRICTNESS[x]),
    ],
    [
      "infra_errors",
      valueChange(base.infra_errors, head.infra_errors, (x, y) => x === "bound" && y !== "bound"),
    ],
    [
      "require_same_harness",
      valueChange(base.require_same_harness, head.require_same_harness, (x, y) => x && !y),
    ],
    ["accept_if.common_valid_tasks", thresholdChange(a.common_valid_tasks, b.common_valid_tasks, true)],
    ["accept_if.infra_error_rate", thresholdChange(a.infra_error_rate, b.infra_error_rate, false)],
    ["accept_if.disputed_fraction", thresholdChange(a.disputed_fraction, b.disputed_fraction, false)],
    ["accept_if.missing_fraction", thresholdChange(a.missing_fraction, b.missing_fraction, false)],
    [
      "accept_if.observed_margin",
      a.delta0 === b.delta0
        ? null
        : { base: a.observed_margin_text, head: b.observed_margin_text, loosening: b.delta0 < a.delta0 },
    ],
    [
      "accept_if.production_canary",
      a.production_canary === b.production_canary
        ? null
        : {
            base: a.production_canary ? "passes" : null,
            head: b.production_canary ? "passes" : null,
            loosening: a.production_canary,
          },
    ],
    ["margin.confidence", valueChange(base.margin.confidence, head.margin.confidence, (x, y) => y < x)],
    [
      "margin.quantile",
      valueChange(base.margin.quantile, head.margin.quantile, (x, y) => x === "t" && y === "z"),
    ],
    ["margin.power", valueChange(base.margin.power, head.margin.power, never)],
    ["margin.standard_error", valueChange(base.margin.standard_error, head.margin.standard_error, never)],
    [
      "margin.cluster_correction",
      valueChange(
        base.margin.cluster_correction,
        head.margin.cluster_correction,
        (x, y) => x === "cr2" && y === "cr1",
      ),
    ],
    [
      "margin.validity_bound",
      valueChange(
        base.margin.validity_bound,
        head.margin.validity_bound,
        (x, y) => x === "pessimistic" && y === "exact",
      ),
    ],
    [
      "on_unresolved",
      valueChange(base.on_unresolved, head.on_unresolved, (x, y) => x === "fail" && y === "neutral"),
    ],
    ["reruns", valueChange(base.reruns, head.reruns, (x, y) => RERUNS_STRICTNESS[y] < RERUNS_STRICTNESS[x])],
    [
      "rank.require",
      valueChange(base.rank?.require ?? "top_resolved", head.rank?.require ?? "top_resolved", never),
    ],
    ["rank.reference", nullableChange(base.rank?.reference ?? null, head.rank?.reference ?? null)],
    ...benchmarkRules(base, head),
  ];
  for (const rule of guardrailRules(base.guardrails ?? [], head.guardrails ?? [])) rules.push(rule);
  const out: PolicyChange[] = [];
  for (const [key, change] of rules) if (change !== null) out.push({ key, ...change });
  return out;
}

const guardrailText = (g: Guardrail): string =>
  `max_increase: ${JSON.stringify(g.max_increase_text)}, missing: ${JSON.stringify(g.missing.text)}`;

/** The guardrails' changes, by metric name: a removed one loosens, an added one tightens. */
function guardrailRules(base: readonly Guardrail[], head: readonly Guardrail[]): [string, Change | null][] {
  const metrics = [...new Set([...base, ...head].map((g) => g.metric))].sort((x, y) =>
    x < y ? -1 : x > y ? 1 : 0,
  );
  return metrics.flatMap((metric): [string, Change | null][] => {
    const b = base.find((g) => g.metric === metric);
    const h = head.find((g) => g.metric === metric);
    const key = `guardrails.${metric}`;
    if (b === undefined || h === undefined) {
      const change = { base: b && guardrailText(b), head: h && guardrailText(h), loosening: h === undefined };
      return [[key, { base: change.base ?? null, head: change.head ?? null, loosening: change.loosening }]];
    }
    const increase =
      b.max_increase === h.max_increase
        ? null
        : {
            base: b.max_increase_text,
            head: h.max_increase_text,
            loosening: h.max_increase > b.max_increase,
          };
    return [
      [`${key}.max_increase`, increase],
      [`${key}.missing`, thresholdChange(b.missing, h.missing, false)],
    ];
  });
}

/** The accept_if rules of one benchmark's bar, keyed as in the policy (one-line changes). */
function acceptIfRules(a: AcceptIf, b: AcceptIf): Record<string, Change | null> {
  return {
    common_valid_tasks: thresholdChange(a.common_valid_tasks, b.common_valid_tasks, true),
    infra_error_rate: thresholdChange(a.infra_error_rate, b.infra_error_rate, false),
    disputed_fraction: thresholdChange(a.disputed_fraction, b.disputed_fraction, false),
    missing_fraction: thresholdChange(a.missing_fraction, b.missing_fraction, false),
    observed_margin:
      a.delta0 === b.delta0
        ? null
        : { base: a.observed_margin_text, head: b.observed_margin_text, loosening: b.delta0 < a.delta0 },
    production_canary:
      a.production_canary === b.production_canary
        ? null
        : {
            base: a.production_canary ? "passes" : null,
            head: b.production_canary ? "passes" : null,
            loosening: a.production_canary,
          },
  };
}

/**
 * `benchmarks.NAME.KEY` rules, by name: a key either side's entry sets is compared as the bar that
 * benchmark meets on each side (the entry's, else the top-level one), so an override laxer than
 * the bar it replaces is a loosening; `required` (null: no entry) and `canary` loosen when dropped.
 */
function benchmarkRules(base: Policy, head: Policy): [string, Change | null][] {
  const entries = (p: Policy) => new Map((p.benchmarks ?? []).map((e) => [e.name, e]));
  const b = entries(base);
  const h = entries(head);
  const names = [...new Set([...b.keys(), ...h.keys()])].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const rules: [string, Change | null][] = [];
  for (const name of names) {
    const x: BenchmarkPolicy | undefined = b.get(name);
    const y: BenchmarkPolicy | undefined = h.get(name);
    const keys = new Set([...(x?.overrides ?? []), ...(y?.overrides ?? [])]);
    const bars = acceptIfRules(x?.accept_if ?? base.accept_if, y?.accept_if ?? head.accept_if);
    for (const [key, change] of Object.entries(bars))
      if (keys.has(key)) rules.push([`benchmarks.${name}.${key}`, change]);
    const required = (e: BenchmarkPolicy | undefined) => (e === undefined ? null : String(e.required));
    const [rb, rh] = [required(x), required(y)];
    rules.push([
      `benchmarks.${name}.required`,
      rb === rh ? null : { base: rb, head: rh, loosening: rb === "true" },
    ]);
    const [cb, ch] = [x?.canary ?? false, y?.canary ?? false];
    rules.push([`benchmarks.${name}.canary`, valueChange(cb, ch, (u, v) => u && !v)]);
  }
  return rules;
}

export interface PolicyTextDiff {
  /** The changed rules; empty when the head does not parse. */
  readonly changes: readonly PolicyChange[];
  /**
   * Null when the head parses; else one line saying why it does not (the first problem with its
   * file:line:column, and how many more there are). The base still decides.
   */
  readonly headError: string | null;
}

/**
 * Diff the policy texts at a PR's base and head. The base must parse (it decides; its InputError
 * propagates). A head that does not parse is reported in `headError` instead of thrown.
 */
export function diffPolicyTexts(baseText: string, headText: string, file: string): PolicyTextDiff {
  const base = parsePolicy(baseText, file);
  let head: Policy;
  try {
    head = parsePolicy(headText, file);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    return { changes: [], headError: errorLine(err) };
  }
  return { changes: diffPolicies(base, head), headError: null };
}
