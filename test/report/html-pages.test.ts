/**
 * The `--format html` pages (src/core/report/html/, src/core/rank/render-rank-html.ts): golden
 * files byte for byte (`UPDATE_GOLDEN=1` rewrites them), the same report giving the same bytes,
 * nothing that loads or runs, and hostile ids (markup, quotes, bidi controls) shown as text.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderRankHtml } from "../../src/core/rank/render-rank-html.js";
import { renderEvaluateHtml } from "../../src/core/report/html/render-evaluate-html.js";
import { PAGE_CSP } from "../../src/core/report/html/html-page.js";
import { chartLabel, escapeHtmlText } from "../../src/core/report/html/html-text.js";
import { acceptReport, hostileReport, unresolvedReport } from "./fixtures.js";
import {
  HOSTILE_MODELS,
  hostileSinceReport,
  manyRevisionsReport,
  syntheticRankReport,
  TWENTY_MODELS,
} from "./html-fixtures.js";
import { exampleReport } from "../run-history/since-fixture.js";
import { SINCE_LAST_RUN_ITEMS } from "../../src/core/report/render-since-last-run.js";

const GOLDEN = join(import.meta.dirname, "..", "golden");
const UPDATE = process.env["UPDATE_GOLDEN"] === "1";

function golden(name: string, actual: string): void {
  const file = join(GOLDEN, name);
  if (UPDATE || !existsSync(file)) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, actual, "utf8");
    if (!UPDATE) throw new Error(`${file} was missing and has been written; rerun to compare.`);
  }
  expect(actual).toBe(readFileSync(file, "utf8"));
}

const smallRank = () => syntheticRankReport(["cfg-a", "cfg-b", "cfg-c", "cfg-d"], { step: 0.04 });
const hostileRank = () => syntheticRankReport(HOSTILE_MODELS, { step: 0.04 });

/**
 * Everything a page must never hold: scripts, handlers, external loads, links. Escaped text may
 * say "onerror=" or "url(": the checks look inside the markup (tags and the style sheet) only.
 */
function expectInert(html: string): void {
  const tags = html.match(/<[^>]*>/g) ?? [];
  expect(
    tags.filter((t) =>
      /^<\/?(?:script|img|iframe|object|embed|link|a|form|input|base|image|use|foreignobject)[\s>/]/i.test(t),
    ),
  ).toEqual([]);
  expect(tags.filter((t) => /\son[a-z]+\s*=|\s(?:src|href|xlink:href|srcset|action)\s*=/i.test(t))).toEqual(
    [],
  );
  const styles = [...html.matchAll(/<style>([^<]*)<\/style>/g)].map((m) => m[1] ?? "").join("");
  const inline = tags.flatMap((t) => [...t.matchAll(/style="([^"]*)"/g)].map((m) => m[1] ?? "")).join(";");
  expect(`${styles};${inline}`).not.toMatch(/url\(|@import|expression\(/i);
  expect(html.match(/<meta http-equiv="[^"]*"/g)).toEqual(['<meta http-equiv="Content-Security-Policy"']);
  expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">`);
  // No bidi control or other hidden character survives as such.
  expect(html).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B-\u200F\uFEFF]/u);
  expect(Array.from(html).filter((c) => (c.codePointAt(0) ?? 0) < 0x20 && c !== "\n")).toEqual([]);
}

describe("golden HTML pages", () => {
  it("rank-small.html: four models", () => {
    golden("rank-small.html", renderRankHtml(smallRank()));
  });
  it("evaluate-accept.html: the accept fixture", () => {
    golden("evaluate-accept.html", renderEvaluateHtml(acceptReport()));
  });
});

describe("the pages are deterministic and inert", () => {
  it("the same report gives the same bytes", () => {
    expect(renderRankHtml(smallRank())).toBe(renderRankHtml(smallRank()));
    expect(renderEvaluateHtml(unresolvedReport())).toBe(renderEvaluateHtml(unresolvedReport()));
  });
  for (const [name, html] of [
    ["rank, 4 models", () => renderRankHtml(smallRank())],
    [
      "rank, 20 models",
      () => renderRankHtml(syntheticRankReport(TWENTY_MODELS, { step: 0.006, gapsAfter: [1, 6, 12] })),
    ],
    ["rank, hostile ids", () => renderRankHtml(hostileRank())],
    ["evaluate, accept", () => renderEvaluateHtml(acceptReport())],
    ["evaluate, hostile", () => renderEvaluateHtml(hostileReport())],
  ] as const) {
    it(`${name}: no script, handler, link or load; the CSP forbids them anyway`, () => {
      expectInert(html());
    });
  }
  it("the rank page has one score mark per model and one matrix row per model", () => {
    const html = renderRankHtml(syntheticRankReport(TWENTY_MODELS, { step: 0.006, gapsAfter: [1, 6, 12] }));
    expect(html.match(/class="score-mark"/g)?.length).toBe(20);
    expect(html.match(/class="validity-band"/g)?.length).toBe(20);
    expect(html.match(/class="run-band"/g)?.length).toBe(20);
    expect(html.match(/<tr><th class="row" title=/g)?.length).toBe(20);
    expect(html.match(/<td class="(?:rel-above|rel-below|rel-validity|rel-run|self)"/g)?.length).toBe(400);
  });
});

describe("bounded lists", () => {
  it("the evaluate page: 20 revisions drawn (one without Δ̂ named), 20 warnings and a count", () => {
    const html = renderEvaluateHtml(manyRevisionsReport(20, 25));
    expect(html.match(/class="revision-mark"/g)?.length).toBe(19);
    expect(html.match(/>no Δ̂<\/text>/g)?.length).toBe(1);
    expect(html.match(/<div class="warning">/g)?.length).toBe(21);
    expect(html).toContain("⚠️ … and 5 more warnings in the report file.</div>");
    // 37 px a column: verdicts as letters, with the key under the chart.
    expect(html).toContain("verdict: A accept, R reject, U unresolved");
  });
});

describe("many models", () => {
  const names = (k: number): string[] =>
    Array.from({ length: k }, (_, i) => `model-${String(i + 1).padStart(3, "0")}`);
  it("beyond 30 models the pairs are a list of the unresolved ones, not a matrix", () => {
    const html = renderRankHtml(syntheticRankReport(names(31), { step: 0.004 }));
    expect(html).not.toContain('<table class="matrix"');
    expect(html).toMatch(/<p>Unresolved pairs: \d+ of 465\.<\/p>/);
    expect(html.match(/class="score-mark"/g)?.length).toBe(31);
  });
  it("beyond 60 models the chart draws the top 60 and says so", () => {
    const html = renderRankHtml(syntheticRankReport(names(61), { step: 0.002 }));
    expect(html.match(/class="score-mark"/g)?.length).toBe(60);
    expect(html).toContain("The top 60 of 61 models (the tables have every model).");
  });
});

describe("hostile model ids", () => {
  const html = renderRankHtml(hostileRank());
  it("are escaped in text and attributes", () => {
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).toContain("cfg-&quot;quoted&quot; &#39;single&#39; &amp; &lt;b&gt;bold&lt;/b&gt;");
    // The full id in the chart's <title> and the matrix's title attribute.
    expect(html).toContain('title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"');
  });
  it("show bidi controls as visible code points", () => {
    expect(html).toContain("abc\\u{202E}evil\\u{202C}def \\u{2066}iso\\u{2069}");
  });
  it("are cut for the chart with an ellipsis (start … end), whole in the <title>", () => {
    const long = HOSTILE_MODELS[3] ?? "";
    expect(html).toContain(`#4 ${long.slice(0, 21)}…${long.slice(-7)}</text>`);
    expect(html).toContain(`<title>#4 ${long}: score`);
  });
  it("the evaluate page shows the hostile fixture's strings as text", () => {
    const page = renderEvaluateHtml(hostileReport());
    expect(page).toContain("&lt;/details&gt;&lt;details open&gt;&lt;summary&gt;gotcha");
    expect(page).not.toContain("<details");
    expect(page).toContain("http://ok.example/a?b=(1)&amp;c=&lt;2&gt;|3");
  });
});

describe("escapeHtmlText and chartLabel", () => {
  it("escape the five HTML characters, flatten line breaks, show hidden code points, cap", () => {
    expect(escapeHtmlText(`a<b>&"c'\nd\u202Ee`)).toBe("a&lt;b&gt;&amp;&quot;c&#39; d\\u{202E}e");
    expect(escapeHtmlText("abcdef", 4)).toBe("abc…");
  });
  it("cut by what is seen: a stand-in counts as its characters", () => {
    expect(chartLabel("ab\u202Ecdef", 8)).toEqual({ shown: "ab\\u{20…", full: "ab\\u{202E}cdef", cut: true });
    expect(chartLabel("short", 8)).toEqual({ shown: "short", full: "short", cut: false });
  });
});

describe("what changed since the last run (evaluate page)", () => {
  it("the worked example of docs/spec.md §3.7: headline, figures, flips, labels, movers", () => {
    const html = renderEvaluateHtml(exampleReport());
    const start = html.indexOf("<h2>What changed since the last run</h2>");
    const section = html.slice(start, html.indexOf("<h2>", start + 1)).split("\n");
    expect(section.slice(0, 3)).toEqual([
      "<h2>What changed since the last run</h2>",
      "<p><strong>verdict unresolved → accept; Δ̂ -13.33 pp; 3 tasks flipped; 1 label changed; changed: results, reviews</strong></p>",
      "<p>Compared with the previous run at commit <code>0123456789ab</code> (verdict unresolved).</p>",
    ]);
    expect(section).toContain(
      '<tr><td>Δ_H (validity high)</td><td class="num">+50.00 pp</td><td class="num">+20.00 pp</td><td class="num">-30.00 pp</td></tr>',
    );
    expect(section.join("\n")).toContain(
      "<li>candidate <code>cand</code>: 1 pass → fail, 1 fail → pass (1 task new)</li>",
    );
    expect(section).toContain(
      '<tr><td><code>t3</code></td><td class="keep">baseline</td><td class="keep">pass → fail</td><td class="num">100%</td><td class="num">0%</td></tr>',
    );
    expect(section).toContain(
      '<tr><td><code>t4</code></td><td>disputed</td><td>valid</td><td class="num">r2</td></tr>',
    );
    expect(section).toContain(
      '<tr><td><code>t4</code></td><td class="num">not in V</td><td class="num">-1.00</td><td class="num">0.000 pp</td><td class="num">-20.000 pp</td><td class="num"><strong>-20.000 pp</strong></td></tr>',
    );
    expect(section.filter((l) => l.startsWith("<h3>"))).toEqual([
      "<h3>3 tasks whose result flipped</h3>",
      "<h3>1 label changed (both runs&#39; labels compared)</h3>",
      "<h3>The tasks that moved the margin most (4 tasks moved it)</h3>",
    ]);
    // The section sits after the checks and before the margin by review revision.
    expect(html.indexOf("<h2>Checks</h2>")).toBeLessThan(start);
    expect(start).toBeLessThan(html.indexOf("<h2>Margin by review revision</h2>"));
  });
  it("no section without since_last_run", () => {
    expect(renderEvaluateHtml(acceptReport())).not.toContain("What changed since the last run");
  });
  it("lists bounded like the Markdown's; hostile ids, models and reasons escaped", () => {
    const html = renderEvaluateHtml(hostileSinceReport());
    expectInert(html);
    expect(html.match(/<td class="keep">candidate<\/td><td class="keep">pass → fail<\/td>/g)?.length).toBe(
      SINCE_LAST_RUN_ITEMS,
    );
    expect(html).toContain(
      '<p class="small">… and 140 more candidate pass → fail tasks (the report file lists the first 15).</p>',
    );
    // Cut at 100 code points, the bidi control's stand-in counted as the 8 it shows.
    expect(html).toContain(
      `<code>t0 &lt;/td&gt;&lt;script&gt;x&lt;/script&gt; \\u{202E}&quot;&#39;${"x".repeat(62)}…</code>`,
    );
    expect(html).not.toContain("t10 </td>");
    expect(html).toContain(
      "The models changed: the previous run compared <code>old &lt;b&gt;cand&lt;/b&gt;</code> with <code>base</code>;",
    );
  });
  it("an unavailable previous run: the reason escaped, no flips", () => {
    const base = exampleReport();
    const since = base.since_last_run;
    if (since === null) throw new Error("fixture");
    const html = renderEvaluateHtml({ ...base, since_last_run: { ...since, unavailable: "gone <i>x</i>" } });
    expect(html).toContain(
      "<p><em>The previous run&#39;s inputs could not be read (gone &lt;i&gt;x&lt;/i&gt;): the flipped tasks and the margin&#39;s movers are not shown; the figures and the labels are.</em></p>",
    );
    expect(html).not.toContain("whose result flipped");
  });
});

describe("the rank gate on the rank page", () => {
  const gated = (candidate: string) => {
    const r = syntheticRankReport(["cfg-a", candidate, "cfg-c"], { step: 0.04 });
    return {
      ...r,
      gate: {
        require: "top_group" as const,
        candidate,
        verdict: "reject" as const,
        reasons: [`The candidate ${candidate} is not in the top group <b>.`],
      },
    };
  };
  it("is the block above the ranking when gated, the candidate escaped", () => {
    const html = renderRankHtml(gated('<img src=x onerror="alert(1)">'));
    const top = html.slice(html.indexOf("<main>") + "<main>".length, html.indexOf("<h1>"));
    expect(top.split("\n").filter((l) => l !== "")).toEqual([
      '<h2><span class="verdict-reject">❌ reject — rank gate</span></h2>',
      "<p>Requirement (rank.require: top_group): the candidate could be first and is ordered above every model that could not; candidate <code>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</code>.</p>",
      "<ul><li>The candidate &lt;img src=x onerror=&quot;alert(1)&quot;&gt; is not in the top group &lt;b&gt;.</li></ul>",
    ]);
    // Everywhere on the page (the matrix's title attributes too) the id stays text.
    expect(html).not.toContain("<img");
    expect(html).not.toContain('onerror="');
  });
  it("is not shown for top_resolved (the headline says it)", () => {
    expect(renderRankHtml(smallRank())).not.toContain("rank gate");
  });
});
