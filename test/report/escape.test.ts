import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  COMMENT_MARKER,
  escapeCode,
  escapeMarkdownInline,
  isHiddenCodePoint,
  neutraliseLogLine,
  neutraliseLogLines,
  safeHttpUrl,
  safeLink,
  visibleCodePoint,
} from "../../src/core/report/escape.js";
import { HOSTILE_STRINGS } from "./fixtures.js";

/** What GitHub shows for escaped text: backslash escapes and our entities decoded, ZWSP dropped. */
function renderedText(md: string): string {
  return md.replace(/\\([!-/:-@[-`{-~])|&(amp|lt|gt|#64|#35|#8203);/g, (_m, esc: string | undefined, ent) => {
    if (esc !== undefined) return esc;
    return ({ amp: "&", lt: "<", gt: ">", "#64": "@", "#35": "#", "#8203": "" } as Record<string, string>)[
      ent as string
    ] as string;
  });
}

/** What escapeMarkdownInline promises to show for `s` (when `s` is under the cap). */
function expectedText(s: string): string {
  let out = "";
  for (const c of s.replace(/\r\n|[\r\n\t\u2028\u2029]/g, " ")) {
    const cp = c.codePointAt(0) ?? 0;
    out += isHiddenCodePoint(cp) ? visibleCodePoint(cp) : c;
  }
  return out;
}

/** The escaped text with every backslash escape and entity removed: what Markdown sees as syntax. */
function syntaxResidue(md: string): string {
  return md.replace(/\\[!-/:-@[-`{-~]/g, "").replace(/&(?:#\d+|[a-z]+);/g, "");
}

const BIDI_AND_ZERO_WIDTH = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B-\u200D\uFEFF\u2060]/u;

/** Strings built from the pieces attackers use, plus arbitrary code units. */
const hostileText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 80 }),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(
          ...HOSTILE_STRINGS,
          "<!--",
          "-->",
          "://",
          "www.",
          "GH-1",
          "@",
          "#",
          "|",
          "`",
          "[",
          "](",
          "\\",
          "&",
          "&#64;",
          "\n",
          "\r",
          "\u202E",
          "\u200B",
          "\uD800",
          "\uDC00",
        ),
        fc.string({ maxLength: 4 }),
      ),
      { maxLength: 25 },
    )
    .map((xs) => xs.join("")),
);

describe("escapeMarkdownInline", () => {
  it.each([
    ["plain", "cfg-2026-11-02-a", "cfg\\-2026\\-11\\-02\\-a"],
    ["emphasis", "**bold** _it_ ~~s~~", "\\*\\*bold\\*\\* \\_it\\_ \\~\\~s\\~\\~"],
    ["mention", "@org/team", "&#64;&#8203;org/team"],
    ["issue", "#1", "&#35;&#8203;1"],
    ["cross-repo issue", "owner/repo#7", "owner/repo&#35;&#8203;7"],
    ["table pipes", "|a|b|", "\\|a\\|b\\|"],
    ["workflow command", "x\n::error::pwned", "x ::error::pwned"],
    ["leading workflow command", "::error::pwned", "\\::error::pwned"],
    ["leading spaces and colons", "  ::x", "  \\::x"],
    ["CRLF is one space", "a\r\nb\rc\td", "a b c d"],
    ["html", "<img src=x onerror=alert(1)>", "&lt;img src\\=x onerror\\=alert\\(1\\)&gt;"],
    ["marker", COMMENT_MARKER, "&lt;\\!\\-\\- model\\-acceptance\\-gate:report \\-\\-&gt;"],
    ["link", "[link](javascript:alert(1))", "\\[link\\]\\(javascript:alert\\(1\\)\\)"],
    ["backticks", "`code`", "\\`code\\`"],
    ["url", "https://x.example/a", "https:&#8203;//x\\.example/a"],
    ["www", "see www.x.example", "see www&#8203;\\.x\\.example"],
    ["GH reference", "gh-12 and xgh-12", "gh\\-&#8203;12 and xgh\\-12"],
    ["entities stay literal", "&#64;x &amp;", "&amp;&#35;&#8203;64;x &amp;amp;"],
    ["math", "$x$", "\\$x\\$"],
    ["bidi", "a\u202Eb", "a\\\\u\\{202E\\}b"],
    ["zero width", "a\u200Bb\uFEFF", "a\\\\u\\{200B\\}b\\\\u\\{FEFF\\}"],
    ["C0 and C1", "\u0000\u001b[\u0085", "\\\\u\\{0000\\}\\\\u\\{001B\\}\\[\\\\u\\{0085\\}"],
    ["lone surrogate", "a\uD800", "a\\\\u\\{D800\\}"],
    ["tag character", "\u{E0041}", "\\\\u\\{E0041\\}"],
    ["emoji kept", "ok ✅ 😀", "ok ✅ 😀"],
  ])("%s", (_name, input, expected) => {
    expect(escapeMarkdownInline(input)).toBe(expected);
  });

  it("caps long input to the given number of code points, marking the cut", () => {
    expect(escapeMarkdownInline("a".repeat(300))).toBe(`${"a".repeat(199)}…`);
    expect(escapeMarkdownInline("😀".repeat(10), 5)).toBe("😀😀😀😀…");
    expect(escapeMarkdownInline("abc", 3)).toBe("abc");
  });

  it("never lets untrusted text contain the comment marker or an HTML comment", () => {
    fc.assert(
      fc.property(hostileText, (s) => {
        const out = escapeMarkdownInline(s);
        expect(out).not.toContain("<!--");
        expect(out).not.toContain("-->");
        expect(out).not.toContain(COMMENT_MARKER);
      }),
      { numRuns: 500 },
    );
  });

  it("leaves no Markdown/HTML syntax, mention, reference, link or hidden character", () => {
    fc.assert(
      fc.property(hostileText, (s) => {
        const out = escapeMarkdownInline(s, 10_000);
        const residue = syntaxResidue(out);
        expect(residue).not.toMatch(/[<>@#|`[\]()\\&*_~$!\n\r\t]/);
        expect(out).not.toContain("](");
        expect(out).not.toContain("://");
        expect(out).not.toMatch(/^\s*::/);
        expect(out).not.toMatch(BIDI_AND_ZERO_WIDTH);
        for (const c of out) expect(isHiddenCodePoint(c.codePointAt(0) ?? 0)).toBe(false);
        // `@` and `#` are always followed by a zero-width space: no mention, no issue reference.
        expect(out.replace(/&#(?:64|35);&#8203;/g, "")).not.toMatch(/&#(?:64|35);/);
      }),
      { numRuns: 1000 },
    );
  });

  it("renders as the literal input text (hidden characters shown as \\u{…})", () => {
    fc.assert(
      fc.property(hostileText, (s) => {
        expect(renderedText(escapeMarkdownInline(s, 10_000))).toBe(expectedText(s));
      }),
      { numRuns: 1000 },
    );
  });
});

describe("escapeCode", () => {
  it("wraps escaped text in <code>, never in backticks", () => {
    expect(escapeCode("a|b`c<d>@e")).toBe("<code>a\\|b\\`c&lt;d&gt;&#64;&#8203;e</code>");
    expect(escapeCode(COMMENT_MARKER)).not.toContain("<!--");
  });
});

describe("safeLink", () => {
  it("links http(s) URLs with an escaped label and an encoded destination", () => {
    expect(safeLink("https://github.com/acme/evals/issues/412")).toBe(
      "[github\\.com/acme/evals/issues/412](https://github.com/acme/evals/issues/412)",
    );
    expect(safeLink("http://ok.example/a?b=(1)&c=<2>|3", "log")).toBe(
      "[log](http://ok.example/a?b=%281%29&amp;c=%3C2%3E%7C3)",
    );
    expect(safeLink("https://x.example/p", "@team #1 [x](y)")).toBe(
      "[&#64;&#8203;team &#35;&#8203;1 \\[x\\]\\(y\\)](https://x.example/p)",
    );
  });

  it("shows the real host: IDN in punycode, long URLs shortened to host/…/last", () => {
    expect(safeLink("https://exämple.com/x")).toBe(
      "[xn\\-\\-exmple\\-cua\\.com/x](https://xn--exmple-cua.com/x)",
    );
    const long = `https://evidence.example/${"d/".repeat(60)}fixture.log`;
    expect(safeLink(long)).toBe(`[evidence\\.example/…/fixture\\.log](${long})`);
  });

  it.each([
    ["javascript:alert(1)", "<code>javascript:alert\\(1\\)</code>"],
    ["data:text/html;base64,PHNjcmlwdD4=", "<code>data:text/html;base64,PHNjcmlwdD4\\=</code>"],
    ["reviews/task-1.json", "<code>reviews/task\\-1\\.json</code>"],
    ["//evil.example/x", "<code>//evil\\.example/x</code>"],
    [
      "https://github.com@evil.example/",
      "<code>https:&#8203;//github\\.com&#64;&#8203;evil\\.example/</code>",
    ],
    ["https://a.example/x y", "<code>https:&#8203;//a\\.example/x y</code>"],
    ["https://a.example/\u202Etxt", "<code>https:&#8203;//a\\.example/\\\\u\\{202E\\}txt</code>"],
    ["https:\\\\evil.example", "<code>https:\\\\\\\\evil\\.example</code>"],
    ["http://a)b/", "<code>http:&#8203;//a\\)b/</code>"],
    ["http://a`b.example/", "<code>http:&#8203;//a\\`b\\.example/</code>"],
    ["file:///etc/passwd", "<code>file:&#8203;///etc/passwd</code>"],
    ["JAVASCRIPT://%0aalert(1)", "<code>JAVASCRIPT:&#8203;//%0aalert\\(1\\)</code>"],
  ])("does not link %j", (url, expected) => {
    expect(safeHttpUrl(url)).toBeNull();
    expect(safeLink(url)).toBe(expected);
  });

  it("never produces a destination Markdown could end early or a table could split", () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), hostileText, (url, tail) => {
        const href = safeHttpUrl(url + tail);
        if (href === null) return;
        expect(href).toMatch(/^https?:\/\//);
        expect(href).not.toMatch(/[\s()<>"'`|\\]/);
        expect(href.replace(/^https?:\/\/\[[0-9A-Fa-f:.]+\]/, "")).not.toMatch(/[[\]]/);
        expect(href.replace(/&amp;/g, "")).not.toContain("&");
      }),
      { numRuns: 500 },
    );
  });
});

describe("log lines", () => {
  it("neutralises lines that the runner would read as commands", () => {
    expect(neutraliseLogLine("::error::pwned")).toBe("\\::error::pwned");
    expect(neutraliseLogLine("  ::warning file=x::y")).toBe("\\  ::warning file=x::y");
    expect(neutraliseLogLine("x\n::error::pwned")).toBe("x␤::error::pwned");
    expect(neutraliseLogLine("see ##[error]boom")).toBe("see #\\#[error]boom");
    expect(neutraliseLogLine("\u001b[31mred\u202E")).toBe("\\u{001B}[31mred\\u{202E}");
    expect(neutraliseLogLine("ok: a::b")).toBe("ok: a::b");
    expect(neutraliseLogLines("a\n::error::b\r\nc")).toBe("a\n\\::error::b\nc");
  });

  it("never yields a line break, a leading `::` or a `##[`", () => {
    fc.assert(
      fc.property(hostileText, (s) => {
        const out = neutraliseLogLine(s);
        expect(out).not.toMatch(/[\r\n]/);
        expect(out.trimStart().startsWith("::")).toBe(false);
        expect(out).not.toContain("##[");
        expect(out).not.toContain("\u001b");
      }),
      { numRuns: 1000 },
    );
  });
});

describe("safeHttpUrl", () => {
  it("keeps IPv6 hosts and encodes brackets elsewhere", () => {
    expect(safeHttpUrl("http://[::1]:8080/a[b]")).toBe("http://[::1]:8080/a%5Bb%5D");
    expect(safeHttpUrl("https://x.example/![img](y)")).toBe("https://x.example/!%5Bimg%5D%28y%29");
  });
});
