/**
 * The policy's `benchmarks:` (docs/policy.md "Several benchmarks"): a mapping from a benchmark's
 * name (the export rows' `benchmark`) to a flat entry of accept_if keys that override the
 * top-level ones for that benchmark, `required` (default true) and `canary` (default false). The
 * loader (load-policy.ts) checks each entry's shape with the accept_if fields' own parsers; this
 * file checks the names and the canary, and merges each entry over the top-level accept_if.
 */
import * as z from "zod";

import type { AcceptIf, BenchmarkPolicy, Threshold } from "./policy-types.js";
import { describeValue } from "./policy-values.js";

/** The keys of an entry besides the accept_if ones. */
export const BENCHMARK_ENTRY_KEYS = ["required", "canary"] as const;

/** A benchmark name, as the export's rows may give it (docs/spec.md §1.1: at most 4,096 characters). */
const MAX_BENCHMARK_NAME = 4096;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** One entry after its shape was checked (each accept_if key as its parser gives it). */
export interface BenchmarkEntry {
  readonly common_valid_tasks?: Threshold | undefined;
  readonly infra_error_rate?: Threshold | undefined;
  readonly disputed_fraction?: Threshold | undefined;
  readonly missing_fraction?: Threshold | undefined;
  readonly observed_margin?: { readonly delta0: number; readonly text: string } | undefined;
  readonly production_canary?: true | undefined;
  readonly required?: boolean | undefined;
  readonly canary?: boolean | undefined;
}

function nameProblem(name: string): string | null {
  if (name.trim() === "")
    return "expected a benchmark name (a non-empty string, as the export's `benchmark`)";
  if (name.length > MAX_BENCHMARK_NAME) return `a benchmark name is at most ${MAX_BENCHMARK_NAME} characters`;
  if (CONTROL.test(name))
    return `expected no control characters in a benchmark name; got ${describeValue(name)}`;
  return null;
}

/**
 * `benchmarks:` as a zod schema over the loader's entry schema: a mapping (never empty), names the
 * export can carry, a canary that is required, and at most one canary.
 */
export function benchmarksSchema<T extends z.ZodType<BenchmarkEntry>>(
  entry: T,
  mapping: z.core.$ZodRecordParams,
) {
  return z.record(z.string(), entry, mapping).superRefine((entries, ctx) => {
    const names = Object.keys(entries);
    if (names.length === 0) {
      ctx.addIssue({
        code: "custom",
        message:
          "expected at least one benchmark, e.g. benchmarks: { private-canary: { required: true } }; omit the key to decide every benchmark by accept_if",
        input: entries,
      });
    }
    let canary: string | null = null;
    for (const name of names) {
      const e = entries[name] as BenchmarkEntry;
      const bad = nameProblem(name);
      if (bad !== null) ctx.addIssue({ code: "custom", message: bad, path: [name], input: name });
      if (e.canary === true && e.required === false) {
        ctx.addIssue({
          code: "custom",
          message:
            "the canary benchmark is always required (it meets production_canary: passes by accepting); remove required: false or canary: true",
          path: [name, "required"],
          input: false,
        });
      }
      if (e.canary === true) {
        if (canary !== null) {
          ctx.addIssue({
            code: "custom",
            message: `only one benchmark can be the canary; ${describeValue(canary)} already is`,
            path: [name, "canary"],
            input: true,
          });
        } else canary = name;
      }
    }
  });
}

/** The accept_if keys an entry may set, in the order of accept_if. */
export const ACCEPT_IF_KEYS = [
  "common_valid_tasks",
  "infra_error_rate",
  "disputed_fraction",
  "missing_fraction",
  "observed_margin",
  "production_canary",
] as const;

/** The entries merged over the top-level accept_if, sorted by name (code units). */
export function benchmarkPolicies(
  entries: Readonly<Record<string, BenchmarkEntry>>,
  top: AcceptIf,
): BenchmarkPolicy[] {
  const names = Object.keys(entries).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return names.map((name) => {
    const e = entries[name] as BenchmarkEntry;
    const missing = e.missing_fraction ?? top.missing_fraction;
    const acceptIf: AcceptIf = {
      common_valid_tasks: e.common_valid_tasks ?? top.common_valid_tasks,
      infra_error_rate: e.infra_error_rate ?? top.infra_error_rate,
      disputed_fraction: e.disputed_fraction ?? top.disputed_fraction,
      ...(missing !== undefined ? { missing_fraction: missing } : {}),
      delta0: e.observed_margin?.delta0 ?? top.delta0,
      observed_margin_text: e.observed_margin?.text ?? top.observed_margin_text,
      production_canary: e.production_canary ?? top.production_canary,
    };
    return {
      name,
      accept_if: acceptIf,
      overrides: ACCEPT_IF_KEYS.filter((k) => e[k] !== undefined),
      required: e.canary === true || (e.required ?? true),
      canary: e.canary ?? false,
    };
  });
}
