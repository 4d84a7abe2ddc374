/**
 * The leaderboard as a Mermaid bar chart for the rank Markdown (docs/rank.md "The chart in the
 * comment"): GitHub draws ```mermaid fences in comments and Markdown files; elsewhere the fence
 * shows as text and the leaderboard table above it carries the same figures. Mermaid has its own
 * syntax, so model ids are not escaped but reduced: only ASCII letters, digits, `.`, `_` and `-`
 * survive (anything else becomes `_`), cut from the middle to about MERMAID_LABEL_CHARS so that no
 * two bars share a label (model-labels.ts); the exact ids are in the table.
 * At most MERMAID_MAX_MODELS bars; more, and the title says which are shown.
 */
import { fixed } from "../report/format-number.js";
import { niceAxis } from "../report/html/svg-geometry.js";
import { distinctLabels } from "./model-labels.js";
import type { RankReport } from "./rank-types.js";

export const MERMAID_MAX_MODELS = 20;
export const MERMAID_LABEL_CHARS = 18;

/** A model id as a Mermaid axis label: [A-Za-z0-9._-] only, runs of others one `_`, cut with `..`. */
export function mermaidLabel(id: string, maxChars = MERMAID_LABEL_CHARS): string {
  const safe = Array.from(typeof id === "string" ? id : String(id))
    .map((c) => (/^[A-Za-z0-9._-]$/.test(c) ? c : "_"))
    .join("")
    .replace(/_+/g, "_");
  return safe.length <= maxChars ? safe : `${safe.slice(0, Math.max(1, maxChars - 2))}..`;
}

/** The fence's lines (```mermaid … ```), or [] when no model has a score. */
export function rankMermaidChart(r: RankReport): string[] {
  const shown = r.models.slice(0, MERMAID_MAX_MODELS).filter((m) => m.score !== null);
  if (shown.length === 0) return [];
  const values = shown.flatMap((m) => [(m.score ?? 0) * 100, ...(m.interval ?? []).map((v) => v * 100)]);
  const axis = niceAxis(values, { maxIntervals: 8, minSpan: 2, limitLo: 0, limitHi: 100 });
  const which =
    r.models.length > MERMAID_MAX_MODELS
      ? `, the top ${MERMAID_MAX_MODELS} of ${r.models.length} models`
      : "";
  const from = axis.lo > 0 ? ` (axis from ${fixed(axis.lo, 0)}%)` : "";
  const top = r.models.slice(0, MERMAID_MAX_MODELS);
  // Reduced first, then cut: the distinct part is looked for in what the chart can show.
  const names = distinctLabels(
    top.map((m) => mermaidLabel(m.model, Infinity)),
    MERMAID_LABEL_CHARS,
    "..",
  );
  const labels = top
    .map((m, i) => (m.score === null ? null : `"#${i + 1} ${names[i] as string}"`))
    .filter((x): x is string => x !== null);
  return [
    "```mermaid",
    "xychart-beta",
    `  title "Valid-only score on the common set, in rank order${which}${from}"`,
    `  x-axis [${labels.join(", ")}]`,
    `  y-axis "score (%)" ${fixed(axis.lo, 0)} --> ${fixed(axis.hi, 0)}`,
    `  bar [${shown.map((m) => fixed((m.score ?? 0) * 100, 2)).join(", ")}]`,
    "```",
  ];
}
