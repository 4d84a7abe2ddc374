/**
 * Table cells that untrusted text cannot widen: escaped Markdown with <wbr> break opportunities in
 * long unbroken runs. Shared by render-markdown.ts and render-history.ts.
 */
import { escapeCode } from "./escape.js";

/** An unbroken run longer than this gets <wbr> break opportunities, one every WBR_EVERY characters. */
const WBR_LONGER_THAN = 64;
const WBR_EVERY = 32;

/** Splits escaped Markdown into atoms: an entity, a backslash escape, a tag, or one code point. */
function atoms(escaped: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < escaped.length;) {
    const c = escaped[i] ?? "";
    let atom = String.fromCodePoint(escaped.codePointAt(i) ?? 0);
    if (c === "&") {
      const end = escaped.indexOf(";", i);
      if (end > i && end - i <= 10) atom = escaped.slice(i, end + 1);
    } else if (c === "\\") {
      const next = escaped.codePointAt(i + 1);
      if (next !== undefined) atom = c + String.fromCodePoint(next);
    } else if (c === "<") {
      const end = escaped.indexOf(">", i);
      if (end > i) atom = escaped.slice(i, end + 1);
    }
    out.push(atom);
    i += atom.length;
  }
  return out;
}

/**
 * Adds <wbr> break opportunities to escaped Markdown, so that a long id cannot widen a table
 * beyond the page: inside runs of more than WBR_LONGER_THAN characters without a space, a
 * zero-width space or a tag, never inside an entity or a backslash escape. It only splits text,
 * so it can never join characters into a mention, a reference or a link.
 */
export function breakable(escaped: string, longerThan = WBR_LONGER_THAN, every = WBR_EVERY): string {
  const parts = atoms(escaped);
  const isBreak = (a: string): boolean => a === " " || a === "&#8203;" || a.startsWith("<");
  let out = "";
  let run: string[] = [];
  const flush = (): void => {
    if (run.length > longerThan) {
      for (let i = 0; i < run.length; i += every) {
        out += (i > 0 ? "<wbr>" : "") + run.slice(i, i + every).join("");
      }
    } else out += run.join("");
    run = [];
  };
  for (const a of parts) {
    if (isBreak(a)) {
      flush();
      out += a;
    } else run.push(a);
  }
  flush();
  return out;
}

/** Untrusted text in monospace in a table cell: escaped, with break opportunities. */
export function cellCode(
  s: string,
  maxChars: number,
  longerThan = WBR_LONGER_THAN,
  every = WBR_EVERY,
): string {
  return breakable(escapeCode(s, maxChars), longerThan, every);
}
