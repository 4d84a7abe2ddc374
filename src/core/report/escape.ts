/**
 * Escaping of untrusted text (SPEC §5): task ids, model ids, evidence paths/URLs, revisions, the
 * policy owner, and any reason that embeds them. Everything read from the export, the reviews,
 * the pull request or the policy is untrusted.
 *
 * Markdown (GitHub-flavoured, as rendered in PR comments, check runs and job summaries):
 * - ASCII punctuation that Markdown gives meaning to is backslash-escaped; `&`, `<`, `>` become
 *   entities, so no raw `<` or `>` ever comes out (hence no HTML, no `<!--`, no `-->`).
 * - `@` and `#` become `&#64;` / `&#35;` *followed by a zero-width space entity*. The entity alone
 *   is not enough: GitHub decodes entities before it looks for mentions and issue references
 *   (github/cmark-gfm#181, openjdk/skara#1548), so `&#64;org` still pings. The zero-width space
 *   after the sign is what breaks `@user`, `#123` and `owner/repo#123` (Renovate does the same).
 *   For the same reason `://`, `www.` and `GH-123` get a zero-width space so they are not
 *   autolinked.
 * - Line breaks and tabs become a space. Control characters (C0, C1), bidirectional controls,
 *   zero-width and other invisible format characters, lone surrogates and noncharacters are shown
 *   as visible `\u{202E}` text, so they can neither reorder nor hide text.
 * - Input is capped to a number of code points; a cut is marked with "…".
 *
 * Runner logs: `neutraliseLogLine` keeps a line from being read as a `::command::` or `##[…]`.
 * Workflow commands themselves are written by @actions/core, which escapes their data and
 * properties (`%`, CR, LF; `:` and `,` in properties).
 */

/** The hidden marker that identifies the sticky PR comment. Escaped text can never contain it. */
export const COMMENT_MARKER = "<!-- model-acceptance-gate:report -->";

/** Default cap, in code points of the input, for one untrusted string in Markdown. */
export const INLINE_MAX_CHARS = 200;

/** Zero-width space as an entity: invisible, but breaks GitHub's mention/reference/URL patterns. */
const ZWSP = "&#8203;";

/** ASCII punctuation escaped with a backslash (everything Markdown, GFM or GitHub math uses). */
const BACKSLASH_ESCAPED = new Set(["\\", "`", "*", "_", "{", "}", "[", "]", "(", ")", "+", "-", "."]);
for (const c of ["!", "|", "~", "$", "^", "="]) BACKSLASH_ESCAPED.add(c);

/** Characters with no visible glyph that are not in a Unicode "format" or "control" category. */
const EXTRA_INVISIBLE = new Set([
  0x034f, // combining grapheme joiner
  0x115f, // hangul choseong filler
  0x1160, // hangul jungseong filler
  0x17b4, // khmer vowel inherent aq
  0x17b5, // khmer vowel inherent aa
  0x180b, // mongolian free variation selectors
  0x180c,
  0x180d,
  0x180f,
  0x2800, // braille pattern blank
  0x3164, // hangul filler
  0xffa0, // halfwidth hangul filler
]);

const FORMAT_CHAR = /^\p{Cf}$/u;
const LINE_OR_PARAGRAPH_SEPARATOR = /^[\p{Zl}\p{Zp}]$/u;

/**
 * True for a code point that must be shown as `\u{…}`: controls, bidi controls, zero-width and
 * other invisible characters, lone surrogates, noncharacters, tag and variation-selector
 * supplements (which can smuggle hidden text).
 */
export function isHiddenCodePoint(cp: number): boolean {
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return true;
  if (cp >= 0xd800 && cp <= 0xdfff) return true;
  if ((cp & 0xfffe) === 0xfffe || (cp >= 0xfdd0 && cp <= 0xfdef)) return true;
  if (cp >= 0xe0000 && cp <= 0xe01ef) return true;
  if (EXTRA_INVISIBLE.has(cp)) return true;
  return FORMAT_CHAR.test(String.fromCodePoint(cp));
}

/** `\u{202E}`: the visible stand-in for a hidden code point (plain text, not yet escaped). */
export function visibleCodePoint(cp: number): string {
  return `\\u{${cp.toString(16).toUpperCase().padStart(4, "0")}}`;
}

/**
 * Splits into code points (lone surrogates stay single units), turns CR LF / CR / LF / tab / line
 * and paragraph separators into one space each, and caps to `maxChars` code points with "…".
 */
/** Untrusted values may not be strings at run time (a hand-edited report JSON): never throw. */
function asText(s: unknown): string {
  return typeof s === "string" ? s : String(s);
}

function normalisedCodePoints(s: string, maxChars: number): string[] {
  const flat = asText(s).replace(/\r\n|[\r\n\t\u2028\u2029]/g, " ");
  const cps = Array.from(flat);
  const cap = Math.max(1, Math.floor(maxChars));
  if (cps.length <= cap) return cps;
  return [...cps.slice(0, cap - 1), "…"];
}

function isAsciiAlnum(c: string | undefined): boolean {
  return c !== undefined && /^[A-Za-z0-9]$/.test(c);
}

/**
 * Untrusted text → GitHub Markdown that renders as the same literal text (up to the visible
 * stand-ins above) in a paragraph, a heading, a list item, a table cell or inline HTML such as
 * `<code>`. The result never contains a raw `<`, `>`, `@`, `#`, line break, unescaped `|`, `` ` ``,
 * `[`, `]`, `(`, `)`, nor any hidden code point.
 */
export function escapeMarkdownInline(s: string, maxChars: number = INLINE_MAX_CHARS): string {
  const cps = normalisedCodePoints(s, maxChars);
  let out = "";
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i] ?? "";
    const cp = c.codePointAt(0) ?? 0;
    if (isHiddenCodePoint(cp) || LINE_OR_PARAGRAPH_SEPARATOR.test(c)) {
      out += escapePunctuation(visibleCodePoint(cp));
      continue;
    }
    // "://" would start an autolink: break it after the colon.
    if (c === ":" && cps[i + 1] === "/" && cps[i + 2] === "/") {
      out += `:${ZWSP}//`;
      i += 2;
      continue;
    }
    // A leading ":" is escaped, so that no value starts a line with "::" (a workflow command
    // where the text is echoed to a log); "\:" renders as ":".
    if (c === ":" && out.trim() === "") {
      out += "\\:";
      continue;
    }
    // "www." autolinks at a word start.
    if (
      (c === "w" || c === "W") &&
      !isAsciiAlnum(cps[i - 1]) &&
      cps
        .slice(i, i + 4)
        .join("")
        .toLowerCase() === "www."
    ) {
      out += `${cps.slice(i, i + 3).join("")}${ZWSP}\\.`;
      i += 3;
      continue;
    }
    // "GH-123" is an issue reference at a word start.
    if (
      (c === "g" || c === "G") &&
      !isAsciiAlnum(cps[i - 1]) &&
      (cps[i + 1] === "h" || cps[i + 1] === "H") &&
      cps[i + 2] === "-" &&
      /^[0-9]$/.test(cps[i + 3] ?? "")
    ) {
      out += `${c}${cps[i + 1] ?? ""}\\-${ZWSP}`;
      i += 2;
      continue;
    }
    out += escapeChar(c);
  }
  return out;
}

function escapeChar(c: string): string {
  switch (c) {
    case "&":
      return "&amp;";
    case "<":
      return "&lt;";
    case ">":
      return "&gt;";
    case "@":
      return `&#64;${ZWSP}`;
    case "#":
      return `&#35;${ZWSP}`;
    default:
      return BACKSLASH_ESCAPED.has(c) ? `\\${c}` : c;
  }
}

/** Backslash-escapes generated ASCII text (used for the `\u{…}` stand-ins). */
function escapePunctuation(s: string): string {
  let out = "";
  for (const c of s) out += escapeChar(c);
  return out;
}

/**
 * Untrusted text shown in a monospace font: `<code>…</code>` around escaped text. Markdown code
 * spans (backticks) are not used for untrusted text: entities do not work inside them, a `|` still
 * splits a table cell, and `<!--` would appear verbatim in the comment body. Inline `<code>` keeps
 * every guarantee of `escapeMarkdownInline` and works in table cells.
 */
export function escapeCode(s: string, maxChars: number = INLINE_MAX_CHARS): string {
  return `<code>${escapeMarkdownInline(s, maxChars)}</code>`;
}

/** Characters percent-encoded in a link destination beyond what WHATWG URL serialisation does. */
const DESTINATION_ENCODE: Readonly<Record<string, string>> = {
  " ": "%20",
  '"': "%22",
  "'": "%27",
  "(": "%28",
  ")": "%29",
  "<": "%3C",
  ">": "%3E",
  "\\": "%5C",
  "`": "%60",
  "|": "%7C",
};

/** The URL parsed, when it may become a link (see `safeHttpUrl`); else null. */
function parseHttpUrl(url: string): URL | null {
  const raw = asText(url);
  if (!/^https?:\/\/[^/]/i.test(raw)) return null;
  for (const c of raw) {
    const cp = c.codePointAt(0) ?? 0;
    if (cp <= 0x20 || c === "\\" || isHiddenCodePoint(cp)) return null;
  }
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  if (parsed.username !== "" || parsed.password !== "") return null;
  // WHATWG URLs allow ( ) ` " ' & and more in a host; a real host is letters, digits, - _ . (IDN
  // hosts are punycode by now) or an IPv6 literal. Anything else is not linked.
  if (!/^(?:[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.?|\[[0-9A-Fa-f:.]+\])$/.test(parsed.hostname)) return null;
  return parsed;
}

/**
 * The URL as a link destination, or null when it must not become a link: only absolute http(s)
 * URLs with a plain host name or IPv6 literal and without credentials (`https://github.com@evil.example`
 * is refused), no whitespace, controls, backslashes or hidden characters. The destination is the WHATWG
 * serialisation (IDN hosts in punycode) with `( ) [ ] < > space quotes \ | backtick` percent-encoded
 * after the host, and `&` as `&amp;`.
 */
export function safeHttpUrl(url: string): string | null {
  const parsed = parseHttpUrl(url);
  if (parsed === null) return null;
  // The host is kept as serialised (IPv6 literals need their brackets); the rest is encoded.
  const origin = `${parsed.protocol}//${parsed.host}`;
  if (!parsed.href.startsWith(origin)) return null;
  let href = origin;
  for (const c of parsed.href.slice(origin.length)) {
    if (c === "&") href += "&amp;";
    else if (c === "[") href += "%5B";
    else if (c === "]") href += "%5D";
    else href += DESTINATION_ENCODE[c] ?? c;
  }
  return href;
}

/**
 * The default label of a link: the URL as parsed, without the scheme (so the label shows the host
 * the link really goes to, punycode included), shortened to `host/…/last-segment` when long.
 */
function defaultLinkLabel(u: URL, maxChars: number): string {
  const full = u.href.replace(/^https?:\/\//, "");
  if (Array.from(full).length <= maxChars) return full;
  const last = u.pathname
    .split("/")
    .filter((p) => p !== "")
    .pop();
  return last === undefined ? u.host : `${u.host}/…/${last}`;
}

/**
 * A Markdown link for an http(s) URL (label escaped, destination percent-encoded); anything else —
 * a relative path, `javascript:`, `data:`, `file:` — is shown as escaped monospace text and never
 * becomes a link or an image. Without a label, the label is the URL without its scheme.
 */
export function safeLink(url: string, label?: string, maxLabelChars = 80): string {
  const parsed = parseHttpUrl(url);
  const href = safeHttpUrl(url);
  if (parsed === null || href === null) return escapeCode(url, maxLabelChars);
  return `[${escapeMarkdownInline(label ?? defaultLinkLabel(parsed, maxLabelChars), maxLabelChars)}](${href})`;
}

/**
 * Makes untrusted text safe to print as one log line that the runner reads line by line: line
 * breaks become a visible `␤`, controls (including ANSI escapes) and hidden characters become
 * `\u{…}`; a line that would start with `::` (after leading whitespace, which the runner trims) is
 * prefixed with `\`, and the legacy `##[` command prefix is broken as `#\#[`.
 */
export function neutraliseLogLine(s: string): string {
  let line = "";
  for (const c of asText(s).replace(/\r\n|\r|\n/g, "␤")) {
    const cp = c.codePointAt(0) ?? 0;
    line += isHiddenCodePoint(cp) && c !== "\t" ? visibleCodePoint(cp) : c;
  }
  line = line.replace(/##\[/g, "#\\#[");
  if (line.trimStart().startsWith("::")) line = `\\${line}`;
  return line;
}

/** `neutraliseLogLine` applied to each line of a multi-line text; line breaks are kept as LF. */
export function neutraliseLogLines(text: string): string {
  return asText(text)
    .split(/\r\n|\r|\n/)
    .map(neutraliseLogLine)
    .join("\n");
}
