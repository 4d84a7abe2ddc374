/**
 * The contract between the statistics/verdict step (evaluate.ts), the fragility step
 * (fragility.ts) and the report builder. SPEC §2–4.
 */
import type { Check, Comparison, InfraReadings, ModelFigures, Verdict } from "../verdict-types.js";
import type { GuardrailOutcome } from "./guardrails.js";

/** Facts from outside the export that §4 needs. */
export interface EvaluationContext {
  /** Result of the production canary, when one was given (CLI --canary / action input). */
  readonly canary: "pass" | "fail" | null;
  /** True when the policy's revisit date has passed (only reached with on_expired: warn). */
  readonly expired: boolean;
  /** Evidence checks decided outside §2–4 (the append-only check), added to the list. */
  readonly extraChecks?: readonly Check[];
}

/** The fields of Comparison that fragility.ts fills in; evaluate.ts leaves them out. */
export type FragilityFields =
  | "review_fragility"
  | "review_fragility_share"
  | "resolution_distance"
  | "fragility_exact"
  | "fragility_unbounded"
  | "fragility_tasks";

export type Fragility = Pick<Comparison, FragilityFields>;

/** Everything §2–4 decide, except fragility. */
export interface Evaluation {
  readonly verdict: Verdict;
  readonly reasons: readonly string[];
  readonly warnings: readonly string[];
  readonly checks: readonly Check[];
  readonly comparison: Omit<Comparison, FragilityFields>;
  /** The comparison under each `infra_errors` mode (SPEC §3.8). */
  readonly infra_readings: InfraReadings;
  readonly models: { readonly baseline: ModelFigures; readonly candidate: ModelFigures };
  /** The guardrails (§4.5); absent when the policy has none and no attempt carries a metric. */
  readonly guardrails?: GuardrailOutcome;
  /** With guardrails: the verdict of accuracy alone, before they join it. */
  readonly accuracyVerdict?: Verdict;
}
