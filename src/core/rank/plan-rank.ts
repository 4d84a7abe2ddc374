/**
 * What a ranking will be asked, settled from the policy's text and the shell's request before the
 * export is read (a long read would end in the same error): the reference (the request's, else
 * the policy's `rank.reference`), the gate's requirement and candidate, checked against each
 * other and against the models named. The CLI (`model-gate rank`) and the action's rank mode
 * both plan here, so the policy's `rank` section is read in one place.
 */
import { InputError } from "../errors.js";
import { parsePolicy } from "../policy/load-policy.js";
import type { RankRequirement } from "../policy/policy-types.js";
import { quote } from "../quote.js";
import { checkRankGate } from "./rank-gate.js";

export interface RankRequest {
  /** The models named (at least 2); null: every model of the export, not known before the read. */
  readonly models: readonly string[] | null;
  /** The reference the user gave; null: the policy's `rank.reference`, if any. */
  readonly reference: string | null;
  /** The candidate the user gave (the one `rank.require` is about); null: none. */
  readonly candidate: string | null;
  /** How the shell names its models and reference settings in messages ("--models", "the models input"). */
  readonly names: { readonly models: string; readonly reference: string };
}

export interface RankPlan {
  /** The model every other is placed against; null: none. */
  readonly reference: string | null;
  readonly candidate: string | null;
  readonly require: RankRequirement;
}

/**
 * The plan for `request` under the policy text at `policyPath`. Throws an InputError for a policy
 * that does not parse (naming its file and line) and for a plan the ranking could not carry out.
 */
export function planRank(policyText: string, policyPath: string, request: RankRequest): RankPlan {
  const rank = parsePolicy(policyText, policyPath).rank;
  const fromPolicy = rank?.reference ?? null;
  const models = request.models;
  if (request.reference === null && fromPolicy !== null && models !== null && !models.includes(fromPolicy))
    throw new InputError(
      `The policy's rank.reference ${quote(fromPolicy)} is not among ${request.names.models} (${models.map(quote).join(", ")}): add it there, or set ${request.names.reference}.`,
    );
  const reference = request.reference ?? fromPolicy;
  const require = rank?.require ?? "top_resolved";
  checkRankGate(require, request.candidate, reference, models);
  return { reference, candidate: request.candidate, require };
}
