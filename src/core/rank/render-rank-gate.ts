/**
 * The rank gate's verdict (docs/rank.md "Gating") in words: a Markdown block put above the
 * ranking in the action's comment, job summary and check run (and the CLI's Markdown when the
 * policy gates on a candidate), and a plain-text title for the check run. Model ids are escaped
 * in Markdown and left out of the title (the check run's title is not rendered, but stays
 * generated words and numbers only, like evaluate's).
 */
import { MARKDOWN_INLINE } from "../report/render-markdown.js";
import type { RankRequirement } from "../policy/policy-types.js";
import type { Inline } from "../report/verdict-text.js";
import type { Verdict } from "../verdict-types.js";
import type { RankReport } from "./rank-types.js";

const ICON: Record<Verdict, string> = { accept: "✅", reject: "❌", unresolved: "⚠️" };

/** What each requirement asks, in words (no model ids). */
export const REQUIREMENT_TEXT: Record<RankRequirement, string> = {
  top_resolved: "the top model is resolved",
  top_group: "the candidate is in a top group the evidence separates from the rest",
  above_reference: "the candidate is ordered above the reference",
};

const MODEL_CHARS = 120;

/**
 * The gate block's parts through one formatter (Markdown here, HTML on the rank page): the
 * heading (generated), the requirement line and the reasons, each already safe for `f`'s output.
 */
export function rankGateParts(
  r: RankReport,
  f: Inline,
): { readonly heading: string; readonly requirement: string; readonly reasons: readonly string[] } {
  const g = r.gate;
  const who: string[] = [];
  if (g.candidate !== null) who.push(`${f.gen("candidate")} ${f.code(g.candidate, MODEL_CHARS)}`);
  if (g.require === "above_reference" && r.reference !== null)
    who.push(`${f.gen("reference")} ${f.code(r.reference, MODEL_CHARS)}`);
  return {
    heading: f.gen(`${ICON[g.verdict]} ${g.verdict} — rank gate`),
    requirement:
      f.gen(`Requirement (rank.require: ${g.require}): ${REQUIREMENT_TEXT[g.require]}`) +
      `${who.length > 0 ? `${f.gen("; ")}${who.join(f.gen(", "))}` : ""}${f.gen(".")}`,
    reasons: g.reasons.map((reason) => f.text(reason, 600)),
  };
}

/** The gate block: verdict, the title under it (the check name), the requirement and why. */
export function renderRankGateMarkdown(r: RankReport, title: string | null): string {
  const f = MARKDOWN_INLINE;
  const parts = rankGateParts(r, f);
  const lines = [`## ${parts.heading}`, ""];
  if (title !== null) lines.push(`<sub>${f.text(title, 120)}</sub>`, "");
  lines.push(parts.requirement, "");
  for (const reason of parts.reasons) lines.push(`- ${reason}`);
  return lines.join("\n") + "\n";
}

/** The check run's title: verdict and requirement, generated words only. */
export function rankGateTitle(r: RankReport): string {
  const g = r.gate;
  const verdict = g.verdict.charAt(0).toUpperCase() + g.verdict.slice(1);
  const top = r.top_resolved ? "top resolved" : `top unresolved (${r.groups[0]?.length ?? 0} tied)`;
  return `${verdict}: ${REQUIREMENT_TEXT[g.require]}; ${r.models.length} models, ${top}`;
}
