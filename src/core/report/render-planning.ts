/**
 * The planning figures of SPEC §3 (minimum detectable effect, common valid tasks needed) as a
 * sentence a reviewer reads next to the verdict. Numbers only: nothing untrusted is rendered.
 */
import { formatCount, formatPercent, formatPpUnsigned } from "./format-number.js";
import type { Comparison } from "../verdict-types.js";
import type { Inline } from "./verdict-text.js";

/** One sentence, or "" when there is no MDE (no SE on the valid tasks). */
export function planningSentence(c: Pick<Comparison, "mde" | "power" | "tasks_needed">, f: Inline): string {
  if (c.mde === null) return "";
  let s =
    `Planning figure (not used to decide): this benchmark can only detect a margin of ≥ ` +
    `${formatPpUnsigned(c.mde, 1)} above δ₀ at ${formatPercent(c.power, 0)} power.`;
  if (c.tasks_needed !== null) {
    s +=
      ` If the observed margin and per-task variance held, about ${formatCount(c.tasks_needed)} common valid ` +
      `${c.tasks_needed === 1 ? "task" : "tasks"} would clear δ₀.`;
  }
  return f.gen(s);
}
