/**
 * Every relative link and image in the README and the documentation resolves: the file (or folder)
 * exists, and an anchor into a Markdown file names one of its headings as GitHub slugs them. The
 * Markdown is parsed with micromark (GFM), so links inside code are not links.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const docs = readdirSync(join(root, "docs"))
  .filter((f) => f.endsWith(".md"))
  .map((f) => join("docs", f));
const FILES = [
  "README.md",
  "CONTRIBUTING.md",
  "CHANGELOG.md",
  "RELIABILITY.md",
  "SECURITY.md",
  "BENCHMARKS.md",
  "examples/README.md",
  ...docs,
];

const html = (md: string) =>
  micromark(md, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });

function decode(text: string): string {
  return text
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

/** GitHub's heading ids: lower case, punctuation dropped (but `-` and `_`), spaces → `-`, repeats numbered. */
function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of html(markdown).matchAll(/<h[1-6]>([\s\S]*?)<\/h[1-6]>/g)) {
    const base = decode(m[1] ?? "")
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) ids.add(m[1] ?? "");
  return ids;
}

/** The relative targets of links and images, as written (entities decoded). */
function targets(markdown: string): string[] {
  const out: string[] = [];
  for (const m of html(markdown).matchAll(/<(?:a|img)\s[^>]*?(?:href|src)="([^"]*)"/g)) {
    const t = decode(m[1] ?? "");
    if (!/^[a-z][a-z0-9+.-]*:/i.test(t)) out.push(t);
  }
  return out;
}

describe("relative links in the documentation", () => {
  it("finds GitHub's ids (so a pass means something)", () => {
    const ids = headingIds(
      "# A title\n## The policy's history: `model-gate policy-log`\n### 3.4 LCB and UCB: x\n## A title\n",
    );
    expect([...ids]).toEqual([
      "a-title",
      "the-policys-history-model-gate-policy-log",
      "34-lcb-and-ucb-x",
      "a-title-1",
    ]);
    expect(targets("[a](b.md#c) `[d](e.md)` ![i](img.png) [w](https://x.y/z) [h](#top)")).toEqual([
      "b.md#c",
      "img.png",
      "#top",
    ]);
  });

  it.each(FILES)("%s: every relative link and anchor resolves", (file) => {
    const markdown = readFileSync(join(root, file), "utf8");
    const broken: string[] = [];
    for (const target of targets(markdown)) {
      const [path = "", anchor] = target.split("#", 2);
      const at = path === "" ? join(root, file) : resolve(dirname(join(root, file)), decodeURI(path));
      if (!existsSync(at)) {
        broken.push(`${target}: ${relative(root, at)} does not exist`);
        continue;
      }
      if (anchor !== undefined && anchor !== "" && at.endsWith(".md")) {
        if (!headingIds(readFileSync(at, "utf8")).has(decodeURIComponent(anchor)))
          broken.push(`${target}: ${relative(root, at)} has no heading #${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
