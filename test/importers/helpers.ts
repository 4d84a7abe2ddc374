import { createHash } from "node:crypto";
import { expect } from "vitest";
import { InputError } from "../../src/core/errors.js";

/** sha256: of ids sorted (ASCII ids: byte order = JS order) and joined by "\n", computed independently. */
export function revisionOf(ids: string[]): string {
  return `sha256:${createHash("sha256")
    .update([...ids].sort().join("\n"))
    .digest("hex")}`;
}

export function parseLines(lines: readonly string[]): Record<string, unknown>[] {
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The message of the InputError thrown by f (sync or async). */
export async function inputErrorOf(f: () => unknown): Promise<string> {
  try {
    await f();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return (e as Error).message;
  }
  throw new Error("expected an InputError");
}

/** The acceptance policy of the real-data gate tests (paired SE, exact bound, no canary). */
export const REAL_DATA_POLICY = `owner: "@acme/eval-owners"
revisit: 2027-03-31
infra_errors: exclude
require_same_harness: true
accept_if:
  common_valid_tasks: ">= 500"
  infra_error_rate: "< 1%"
  disputed_fraction: "< 5%"
  missing_fraction: "< 2%"
  observed_margin: "> validity_sensitivity + run_variance"
margin:
  confidence: 0.95
  standard_error: paired
  validity_bound: exact
`;

export const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** Paired SE (SPEC §3): sqrt(Σ (d − d̄)² / (n (n − 1))), restated for the tests. */
export function pairedSe(d: readonly number[]): number {
  const mean = sum(d) / d.length;
  return Math.sqrt(sum(d.map((x) => (x - mean) ** 2)) / (d.length * (d.length - 1)));
}

/** Exact margin bounds (SPEC §3) by scanning every prefix of U sorted by d, restated here. */
export function exactBounds(valid: readonly number[], open: readonly number[]): [number, number] {
  const asc = [...open].sort((a, b) => a - b);
  let lo = Infinity;
  let hi = -Infinity;
  for (let k = 0; k <= asc.length; k++) {
    const low = (sum(valid) + sum(asc.slice(0, k))) / (valid.length + k);
    const high = (sum(valid) + sum(asc.slice(asc.length - k))) / (valid.length + k);
    lo = Math.min(lo, low);
    hi = Math.max(hi, high);
  }
  return [lo, hi];
}
