/**
 * The rank gate's verdict (docs/rank.md "Gating") in words: a Markdown block put above the
 * ranking in the action's comment, job summary and check run (and the CLI's Markdown when the
 * policy gates on a candidate), and a plain-text title for the check run (and the action's log)
 * that names the models that could be first. Model ids are escaped in Markdown; in the title
 * they are JSON-quoted (quote.ts: no line breaks, controls or bidi characters) and cut from the
 * middle so that two never look alike (model-labels.ts).
 */
import { MARKDOWN_INLINE } from "../report/render-markdown.js";
import type { RankRequirement } from "../policy/policy-types.js";
import type { Inline } from "../report/verdict-text.js";
import type { Verdict } from "../verdict-types.js";
import { labelMap, quotedModels, WHOLE_ID_CHARS } from "./model-labels.js";
import type { RankReport } from "./rank-types.js";

const ICON: Record<Verdict, string> = { accept: "✅", reject: "❌", unresolved: "⚠️" };

/** What each requirement asks, in words (no model ids). */
export const REQUIREMENT_TEXT: Record<RankRequirement, string> = {
  top_resolved: "one model is ordered above every other",
  top_group: "the candidate could be first and is ordered above every model that could not",
  above_reference: "the candidate is ordered above the reference",
};

/** The check title names this many models that could be first, then counts the rest. */
const TITLE_MODELS = 3;

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
  const labels = labelMap(
    r.models.map((m) => m.model),
    MODEL_CHARS,
  );
  const code = (id: string): string => f.code(labels.get(id) ?? id, WHOLE_ID_CHARS);
  const who: string[] = [];
  if (g.candidate !== null) who.push(`${f.gen("candidate")} ${code(g.candidate)}`);
  if (g.require === "above_reference" && r.reference !== null)
    who.push(`${f.gen("reference")} ${code(r.reference)}`);
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

/**
 * The check run's title (and the action's log line): the verdict, the requirement, and who could
 * be first — by name, as the headline says it.
 */
export function rankGateTitle(r: RankReport): string {
  const g = r.gate;
  const verdict = g.verdict.charAt(0).toUpperCase() + g.verdict.slice(1);
  const q = quotedModels(
    r.models.map((m) => m.model),
    40,
  );
  const first = r.could_be_first;
  const names = first.slice(0, TITLE_MODELS).map(q).join(", ");
  const more = first.length > TITLE_MODELS ? ` and ${first.length - TITLE_MODELS} more` : "";
  const who =
    r.top !== null
      ? `${q(r.top)} is first`
      : first.length === 1
        ? `${names} could be first (the top is not taken as resolved: the history was rewritten)`
        : `${first.length} models could be first: ${names}${more}`;
  const candidate = g.candidate === null ? "" : `, candidate ${q(g.candidate)}`;
  return `${verdict} (rank.require: ${g.require}${candidate}): ${who}; ${r.models.length} models ranked`;
}
