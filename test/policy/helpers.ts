import { expect } from "vitest";

import { formatProblem, InputError } from "../../src/core/errors.js";
import { parsePolicy } from "../../src/core/policy/load-policy.js";
import type { Policy } from "../../src/core/policy/policy-types.js";

/** A minimal valid policy; `extra` lines are appended (top level unless indented). */
export const MINIMAL = [
  'owner: "@acme/eval-owners"',
  "revisit: 2027-03-31",
  "accept_if:",
  '  common_valid_tasks: ">= 500"',
  '  infra_error_rate: "< 1%"',
  '  disputed_fraction: "< 5%"',
  '  observed_margin: "> validity_sensitivity + run_variance"',
].join("\n");

/** MINIMAL as parsePolicy returns it: every default filled in. */
export const MINIMAL_POLICY: Policy = {
  owner: "@acme/eval-owners",
  revisit: "2027-03-31",
  on_expired: "warn",
  infra_errors: "exclude",
  require_same_harness: true,
  accept_if: {
    common_valid_tasks: { op: ">=", value: 500, percent: false, text: ">= 500" },
    infra_error_rate: { op: "<", value: 0.01, percent: true, text: "< 1%" },
    disputed_fraction: { op: "<", value: 0.05, percent: true, text: "< 5%" },
    delta0: 0,
    observed_margin_text: "> validity_sensitivity + run_variance",
    production_canary: false,
  },
  margin: {
    confidence: 0.95,
    quantile: "t",
    power: 0.8,
    standard_error: "paired",
    cluster_correction: "cr2",
    validity_bound: "exact",
  },
  on_unresolved: "fail",
  reruns: "latest",
};

/** MINIMAL with the line that starts with `prefix` replaced (or removed when `line` is null). */
export function withLine(prefix: string, line: string | null, base: string = MINIMAL): string {
  const lines = base.split("\n");
  const i = lines.findIndex((l) => l.startsWith(prefix));
  if (i < 0) throw new Error(`no line starts with ${prefix}`);
  if (line === null) lines.splice(i, 1);
  else lines[i] = line;
  return lines.join("\n") + "\n";
}

/** The formatted problems of a policy that must fail to parse. */
export function problems(text: string, file = "policy.yaml"): string[] {
  try {
    parsePolicy(text, file);
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as InputError).problems.map(formatProblem);
  }
  throw new Error("expected the policy to be rejected");
}

/** The error of a policy that must fail to parse. */
export function inputError(text: string, file = "policy.yaml"): InputError {
  try {
    parsePolicy(text, file);
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error("expected the policy to be rejected");
}
