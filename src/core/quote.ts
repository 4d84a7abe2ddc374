/**
 * How the gate shows a string from its input inside a message: JSON-quoted, cut to a readable
 * length, with every character that could drive a terminal or reorder the message's text
 * escaped. Shared by the reader's messages and the core's.
 */

const SHOWN_STRING_LENGTH = 60;

/** Shown escaped in messages besides what JSON escapes: DEL, C1, line separators, bidi controls. */
const ESCAPED_IN_MESSAGES = /[\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same plus C0, for a text quoted raw (a parser's message quotes the line as it is). */
const ESCAPED_IN_RAW_TEXT = new RegExp(`[\\u0000-\\u001f${ESCAPED_IN_MESSAGES.source.slice(1)}`, "g");

function escapeChar(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** JSON-quoted and cut to a readable length. Control characters come out escaped (JSON escapes
 * C0; DEL, C1, line separators and bidi controls are escaped here too), so a message cannot drive
 * a terminal or reorder its own text. */
export function quote(s: string): string {
  return quoteUpTo(s, SHOWN_STRING_LENGTH);
}

/** quote() with its own length (e.g. a revision shown whole, to be copied into a flag). */
export function quoteUpTo(s: string, max: number): string {
  const shown = s.length <= max ? s : s.slice(0, max);
  const text = JSON.stringify(shown).replace(ESCAPED_IN_MESSAGES, escapeChar);
  return shown === s ? text : `${text}… (${s.length} characters)`;
}

/** A text that quotes input raw (e.g. V8's JSON.parse message), with C0 controls escaped too. */
export function escapeRawText(text: string): string {
  return text.replace(ESCAPED_IN_RAW_TEXT, escapeChar);
}
