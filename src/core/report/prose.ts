/**
 * Sentences shown whole: a check's detail, a reason, a warning, a note. Every rendering (Markdown,
 * plain text) shows them as the report JSON holds them — no cut in the middle of a word, a
 * command or an option. The untrusted values inside them (revisions, paths) are shortened where
 * the sentence is made (decision/format.ts), so a sentence stays short without being cut here.
 */
import { escapeCode, escapeMarkdownInline } from "./escape.js";
import { breakable } from "./table-cells.js";

/** A whole sentence's cap: only a hand-edited report file's text reaches it. */
export const WHOLE_TEXT_MAX_CHARS = 4000;

/**
 * A check's threshold as its table cell shows it: the policy's ("≥ 500") or the gate's own
 * ("0 earlier rows changed or removed") whole; only a hand-edited report's reaches the cap.
 */
export const THRESHOLD_MAX_CHARS = 60;

/** Where a cut sentence's rest is (a table cell's note is "…" alone). */
export const REST_IN_REPORT = " … (the rest is in the report file)";

/**
 * `s` whole, or, past `maxChars` code points (a hand-edited report file), cut after its last whole
 * word with `note`, which says where the rest is.
 */
export function wholeText(s: string, maxChars = WHOLE_TEXT_MAX_CHARS, note = REST_IN_REPORT): string {
  const cps = Array.from(typeof s === "string" ? s : String(s));
  if (cps.length <= maxChars) return cps.join("");
  const head = cps.slice(0, Math.max(1, maxChars - note.length)).join("");
  const space = head.lastIndexOf(" ");
  return (space > 0 ? head.slice(0, space) : head) + note;
}

/**
 * A whole sentence as Markdown: escaped (escape.ts), each `command` of the gate's advice in
 * <code> (escapeCode: as safe as the rest), and break opportunities in long runs (a full
 * revision), so it wraps instead of widening the page.
 */
export function markdownProse(s: string, maxChars = WHOLE_TEXT_MAX_CHARS): string {
  const parts = wholeText(s, maxChars).split("`");
  // An odd count of backticks pairs none reliably: all text then.
  const spans = parts.length % 2 === 1 ? parts : [parts.join("`")];
  return spans
    .map((p, i) =>
      breakable(
        i % 2 === 0
          ? escapeMarkdownInline(p, Infinity)
          : p === ""
            ? escapeMarkdownInline("``", 2)
            : escapeCode(p, Infinity),
      ),
    )
    .join("");
}
