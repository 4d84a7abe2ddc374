/**
 * The rank gate (docs/rank.md "Gating"): what the policy's `rank.require` asks of the candidate,
 * decided from the ranking alone (the Holm-adjusted pairs and the models that could be first).
 * Accept when the evidence shows the requirement holds, reject when it orders the candidate out,
 * unresolved otherwise; like evaluate, a tie is never read as a pass.
 */
import { InputError } from "../errors.js";
import { quote } from "../quote.js";
import { quotedModels } from "./model-labels.js";
import type { RankRequirement } from "../policy/policy-types.js";
import type { Verdict } from "../verdict-types.js";
import type { RankGate, RankReport } from "./rank-types.js";
import { plural } from "../words.js";

/**
 * The gate's inputs are consistent, checked before anything is computed (and by the shells before the export is read): a candidate
 * when the requirement is about one, among the ranked models; a reference for above_reference,
 * other than the candidate. `models` null: every model of the export (not known yet).
 */
export function checkRankGate(
  require: RankRequirement,
  candidate: string | null,
  reference: string | null,
  models: readonly string[] | null,
): void {
  if (candidate === null) {
    if (require !== "top_resolved")
      throw new InputError(
        `The policy's rank.require is ${require}: name the candidate (the action's candidate input, the CLI's --candidate).`,
      );
    return;
  }
  if (models !== null && !models.includes(candidate))
    throw new InputError(
      `The candidate ${quote(candidate)} is not among the ranked models (${models.map(quote).join(", ")}): add it to the models.`,
    );
  if (require === "above_reference") {
    if (reference === null)
      throw new InputError(
        "The policy's rank.require is above_reference: name the reference (the policy's rank.reference, the action's reference input, the CLI's --reference).",
      );
    if (reference === candidate)
      throw new InputError(
        `The candidate and the reference are the same model (${quote(candidate)}): above_reference compares two models.`,
      );
  }
}

/** The models the pairs order above `model`, in the report's leaderboard order. */
export function orderedAbove(report: Pick<RankReport, "models" | "pairs">, model: string): string[] {
  const above = new Set<string>();
  for (const p of report.pairs) {
    if (p.a === model && p.relation === "b_better") above.add(p.b);
    if (p.b === model && p.relation === "a_better") above.add(p.a);
  }
  return report.models.map((m) => m.model).filter((m) => above.has(m));
}

/** The models the pairs order below `model`, in the report's leaderboard order. */
export function orderedBelow(report: Pick<RankReport, "models" | "pairs">, model: string): string[] {
  const below = new Set<string>();
  for (const p of report.pairs) {
    if (p.a === model && p.relation === "a_better") below.add(p.b);
    if (p.b === model && p.relation === "b_better") below.add(p.a);
  }
  return report.models.map((m) => m.model).filter((m) => below.has(m));
}

function listed(models: readonly string[], q: (id: string) => string): string {
  const shown = models.slice(0, 5).map(q).join(", ");
  return models.length > 5 ? `${shown}, …` : shown;
}

/** The gate's verdict on a ranking. Pure; checkRankGate has accepted its inputs. */
export function rankGate(
  report: Pick<
    RankReport,
    "models" | "pairs" | "groups" | "could_be_first" | "top" | "top_resolved" | "reference"
  >,
  require: RankRequirement,
  candidate: string | null,
): RankGate {
  const out = (verdict: Verdict, reason: string): RankGate => ({
    require,
    candidate,
    verdict,
    reasons: [reason],
  });
  const first = report.could_be_first;
  const q = quotedModels(report.models.map((m) => m.model));
  if (require === "top_resolved") {
    return report.top_resolved && report.top !== null
      ? out("accept", `The top is resolved: ${q(report.top)} is ordered above every other model.`)
      : out(
          "unresolved",
          `The top is unresolved: ${plural(first.length, "model", "models")} could be first (${listed(first, q)}): no model is ordered above ${first.length === 1 ? "it" : "them"}, and none is ordered above every other.`,
        );
  }
  const c = candidate ?? "";
  const model = report.models.find((m) => m.model === c);
  if (model === undefined) throw new InputError(`The candidate ${quote(c)} is not among the ranked models.`);
  if (require === "top_group") return topGroupGate(report, c, out, q);
  const reference = report.reference ?? "";
  const pair = report.pairs.find((p) => (p.a === c && p.b === reference) || (p.a === reference && p.b === c));
  if (pair === undefined)
    throw new InputError(`The reference ${quote(reference)} is not among the ranked models.`);
  const candidateAbove =
    pair.relation === "unresolved" ? null : (pair.relation === "a_better") === (pair.a === c);
  if (candidateAbove === true)
    return out("accept", `${q(c)} is ordered above the reference ${q(reference)}.`);
  if (candidateAbove === false)
    return out("reject", `The reference ${q(reference)} is ordered above ${q(c)}.`);
  const why =
    pair.unresolved_by === "validity"
      ? "the open validity labels alone can decide their order"
      : "run variance keeps them apart by less than the adjusted confidence bounds";
  return out("unresolved", `${q(c)} and the reference ${q(reference)} are not ordered: ${why}.`);
}

/**
 * top_group: the candidate is in the top group — the models that could be first (no model is
 * ordered above them) — and the evidence separates it from the rest: it is ordered above every
 * model that could not be first. Reject when a model is ordered above it; unresolved otherwise.
 */
function topGroupGate(
  report: Pick<RankReport, "models" | "pairs" | "could_be_first">,
  c: string,
  out: (verdict: Verdict, reason: string) => RankGate,
  q: (id: string) => string,
): RankGate {
  const above = orderedAbove(report, c);
  if (above.length > 0)
    return out(
      "reject",
      `${q(c)} could not be first: ${plural(above.length, "model is", "models are")} ordered above it (${listed(above, q)}).`,
    );
  const first = new Set(report.could_be_first);
  const rest = report.models.map((m) => m.model).filter((m) => !first.has(m));
  if (rest.length === 0)
    return out(
      "unresolved",
      `${q(c)} could be first, but so could every one of the ${report.models.length} models: the evidence separates no top group from the rest.`,
    );
  const below = new Set(orderedBelow(report, c));
  const notBelow = rest.filter((m) => !below.has(m));
  if (notBelow.length === 0)
    return out(
      "accept",
      `${q(c)} is in the top group: it could be first (no model is ordered above it), and it is ordered above every model that could not (${plural(rest.length, "model", "models")}).`,
    );
  return out(
    "unresolved",
    `${q(c)} could be first (no model is ordered above it), but it is not ordered above ${plural(notBelow.length, "model", "models")} that could not (${listed(notBelow, q)}).`,
  );
}
