/**
 * HTML text for the `--format html` pages (html-page.ts): untrusted text (model ids, task ids,
 * evidence, revisions, the policy's owner) escaped for element content and attribute values alike,
 * and the `Inline` formatter the shared sentence and table builders write through.
 *
 * Escaping: `&`, `<`, `>`, `"` and `'` become entities, so a string can close neither an element
 * nor a quoted attribute. Line breaks and tabs become a space. Controls, bidirectional controls,
 * zero-width and other invisible characters are shown as visible `\u{202E}` text (escape.ts's rule
 * for Markdown), so they can neither reorder nor hide text. Input is capped to a number of code
 * points, a cut marked with "…".
 */
import { isHiddenCodePoint, visibleCodePoint } from "../escape.js";
import { wholeText, WHOLE_TEXT_MAX_CHARS } from "../prose.js";
import type { Inline } from "../verdict-text.js";

/** Default cap, in code points, for one untrusted string. */
export const HTML_INLINE_MAX_CHARS = 200;

const ENTITY: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Generated text (ours, never from the data) for element content or a quoted attribute. */
export function escapeHtmlGenerated(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITY[c] ?? c);
}

/** The code points of untrusted text, flattened to one line, hidden ones made visible, capped. */
function visibleCodePoints(s: unknown, maxChars: number): string[] {
  const flat = (typeof s === "string" ? s : String(s)).replace(/\r\n|[\r\n\t\u2028\u2029]/g, " ");
  const out: string[] = [];
  for (const c of flat) {
    const cp = c.codePointAt(0) ?? 0;
    // A stand-in counts as the characters it shows, so a cut measures what is seen.
    if (isHiddenCodePoint(cp)) for (const v of visibleCodePoint(cp)) out.push(v);
    else out.push(c);
  }
  const cap = Math.max(1, Math.floor(maxChars));
  return out.length <= cap ? out : [...out.slice(0, cap - 1), "…"];
}

/** Untrusted text → HTML that shows it literally, in element content or a quoted attribute. */
export function escapeHtmlText(s: string, maxChars: number = HTML_INLINE_MAX_CHARS): string {
  return escapeHtmlGenerated(visibleCodePoints(s, maxChars).join(""));
}

/**
 * An untrusted label cut for a chart: `shown` at most `maxChars` code points (a cut ends in "…"),
 * `full` the whole (up to `fullMaxChars`), both escaped; the page puts `full` in a <title>.
 */
export function chartLabel(
  s: string,
  maxChars: number,
  fullMaxChars = HTML_INLINE_MAX_CHARS,
): { shown: string; full: string; cut: boolean } {
  const all = visibleCodePoints(s, fullMaxChars);
  const cut = all.length > maxChars;
  const shown = cut ? [...all.slice(0, Math.max(1, maxChars) - 1), "…"] : all;
  return { shown: escapeHtmlGenerated(shown.join("")), full: escapeHtmlGenerated(all.join("")), cut };
}

/** The HTML formatter of verdict-text.ts and rank-sections.ts. */
export const HTML_INLINE: Inline = {
  text: (s, max) => escapeHtmlText(wholeText(s, max ?? WHOLE_TEXT_MAX_CHARS), Infinity),
  code: (s, max) => `<code>${escapeHtmlText(s, max ?? HTML_INLINE_MAX_CHARS)}</code>`,
  gen: escapeHtmlGenerated,
  strong: (safe) => `<strong>${safe}</strong>`,
};

/** A table from cells already made safe; `numeric` columns are right-aligned, `keep` ones never wrap (short words). */
export function htmlTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  options: {
    readonly numeric?: readonly number[];
    readonly keep?: readonly number[];
    readonly className?: string;
  } = {},
): string {
  const num = new Set(options.numeric ?? []);
  const keep = new Set(options.keep ?? []);
  const cell = (tag: "th" | "td", c: string, i: number): string =>
    `<${tag}${num.has(i) ? ' class="num"' : keep.has(i) ? ' class="keep"' : ""}>${c}</${tag}>`;
  const head = `<thead><tr>${header.map((h, i) => cell("th", h, i)).join("")}</tr></thead>`;
  const body = rows.map((r) => `<tr>${r.map((c, i) => cell("td", c, i)).join("")}</tr>`).join("\n");
  const cls = options.className === undefined ? "" : ` class="${escapeHtmlGenerated(options.className)}"`;
  return `<div class="table-box"><table${cls}>${head}\n<tbody>\n${body}\n</tbody></table></div>`;
}
