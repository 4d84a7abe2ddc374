/**
 * Small Markdown builders the summary's sections share (render-markdown.ts, render-task-tables.ts):
 * the Markdown inline formatter, escaped text, tables, collapsed sections, "… and N more" lines.
 * Cells and summaries passed in must already be escaped or generated.
 */
import { escapeCode, escapeMarkdownInline } from "./escape.js";
import { markdownProse } from "./prose.js";
import { cellCode } from "./table-cells.js";
import type { Inline } from "./verdict-text.js";
import { pluralWord } from "../words.js";

/** Generated text in Markdown: no HTML, no emphasis by accident. */
export function genMd(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/_/g, "\\_")
    .replace(/\*/g, "\\*");
}

/** The Markdown formatter of verdict-text.ts: untrusted text through escape.ts. */
export const MARKDOWN_INLINE: Inline = {
  text: (s, max) => markdownProse(s, max),
  code: (s, max) => escapeCode(s, max),
  gen: genMd,
  strong: (safe) => `**${safe}**`,
};

export function md(s: string, maxChars?: number): string {
  return maxChars === undefined ? escapeMarkdownInline(s) : escapeMarkdownInline(s, maxChars);
}

export function table(
  header: readonly string[],
  align: readonly ("l" | "r" | "c")[],
  rows: readonly string[][],
): string[] {
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((c) => (c === "" ? " " : c)).join(" | ")} |`;
  const sep = align.map((a) => (a === "r" ? "--:" : a === "c" ? ":-:" : ":--"));
  return [line(header), `|${sep.join("|")}|`, ...rows.map(line)];
}

export function details(summary: string, body: readonly string[], open = false): string[] {
  return [
    open ? "<details open>" : "<details>",
    `<summary>${summary}</summary>`,
    "",
    ...body,
    "",
    "</details>",
  ];
}

/** "… and 1 more task." / "… and 2 more tasks." under a list cut at `shown` of `total`. */
export function moreLine(shown: number, total: number, one: string, many = `${one}s`): string[] {
  const rest = total - shown;
  return rest > 0 ? ["", `… and ${rest} more ${pluralWord(rest, one, many)}.`] : [];
}

/** Values in <code>, the first `limit`, then "and N more"; a model without rows has none. */
export function codeList(items: readonly string[], limit: number): string {
  if (items.length === 0) return "none (no rows)";
  const shown = items.slice(0, limit).map((s) => cellCode(s, 80));
  const rest = items.length - shown.length;
  return rest > 0 ? `${shown.join(", ")} and ${rest} more` : shown.join(", ");
}
