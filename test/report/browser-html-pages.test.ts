/**
 * The `--format html` pages in a real browser (Debian's Chromium through playwright-core, as
 * browser-render.test.ts): at an 880 px viewport nothing overflows sideways (the document, and
 * every element against the page's column; no table box needs its scroll bar; no matrix cell is
 * cut), the SVG charts are there with one mark per model (or revision), and the page asks for
 * nothing: every request is intercepted, and there must be none.
 *
 * Screenshots go to $TMPDIR/model-gate-html-pages/ each run; with SCREENSHOTS=1 (`npm run screenshots`) also to
 * screenshots/ (gitignored) and the docs' pictures docs/images/rank-page.png and
 * docs/images/evaluate-page.png are regenerated.
 *
 * Skipped with a loud warning without Chromium; fails instead when REQUIRE_BROWSER=1 (CI).
 */
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderRankHtml } from "../../src/core/rank/render-rank-html.js";
import { renderRankResultHtml } from "../../src/core/rank/render-rank-benchmarks.js";
import { renderEvaluateHtml } from "../../src/core/report/html/render-evaluate-html.js";
import type { Report } from "../../src/core/report/report-types.js";
import { CHROMIUM, CHROMIUM_PRESENT, CONTENT_WIDTH, launchChromium } from "./browser.js";
import { hostileReport } from "./fixtures.js";
import {
  HOSTILE_MODELS,
  hostileSinceReport,
  manyRevisionsReport,
  syntheticBenchmarksRankReport,
  syntheticRankReport,
  TWENTY_MODELS,
} from "./html-fixtures.js";
import { demoReport, REPO_ROOT } from "./pages.js";

const SCREENSHOTS = process.env["SCREENSHOTS"] === "1";
const REQUIRE = process.env["REQUIRE_BROWSER"] === "1";

if (!CHROMIUM_PRESENT) {
  const message =
    `\n${"!".repeat(78)}\n!! HTML page browser test SKIPPED: no Chromium at ${CHROMIUM}.\n` +
    `!! Install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH.\n${"!".repeat(78)}\n`;
  if (REQUIRE) throw new Error(message);
  console.warn(message);
}

interface PageCase {
  readonly name: string;
  readonly html: () => Promise<string>;
  /** CSS selector → how many the page must draw. */
  readonly marks: Readonly<Record<string, number>>;
  /** The docs' picture of this page (its top, this many px), regenerated with SCREENSHOTS=1. */
  readonly docsImage?: { readonly file: string; readonly height: number };
}

const revisionsWithMargin = (r: Report): number =>
  r.verdict_by_review_revision.revisions.filter((x) => x.margin !== null).length;

const CASES: readonly PageCase[] = [
  {
    name: "rank-20-models",
    html: () =>
      Promise.resolve(
        renderRankHtml(syntheticRankReport(TWENTY_MODELS, { step: 0.006, gapsAfter: [1, 6, 12] })),
      ),
    marks: {
      "svg.score-chart .score-mark": 20,
      "svg.score-chart .validity-band": 20,
      "table.matrix tbody tr": 20,
    },
    docsImage: { file: "rank-page.png", height: 1560 },
  },
  {
    name: "rank-hostile",
    html: () => Promise.resolve(renderRankHtml(syntheticRankReport(HOSTILE_MODELS, { step: 0.04 }))),
    marks: { "svg.score-chart .score-mark": 4, "table.matrix tbody tr": 4 },
  },
  {
    // Several benchmarks: one page, a ranking per benchmark, each with its own chart and matrix.
    name: "rank-benchmarks",
    html: () =>
      Promise.resolve(
        renderRankResultHtml(
          syntheticBenchmarksRankReport([
            { name: "private-canary", models: TWENTY_MODELS.slice(0, 6) },
            { name: "swe-bench-verified", models: TWENTY_MODELS.slice(0, 12), step: 0.01 },
            { name: '<img src=x onerror="alert(1)">', models: HOSTILE_MODELS },
          ]),
        ),
      ),
    marks: {
      "svg.score-chart": 3,
      "svg.score-chart .score-mark": 6 + 12 + HOSTILE_MODELS.length,
      "table.matrix": 3,
      "table.matrix tbody tr": 6 + 12 + HOSTILE_MODELS.length,
      section: 3,
      img: 0,
    },
  },
  {
    name: "evaluate-demo",
    html: async () => renderEvaluateHtml(await demoReport()),
    marks: { "svg.margin-chart .margin-mark": 1, "svg.revision-chart .revision-mark": 2 },
    docsImage: { file: "evaluate-page.png", height: 1460 },
  },
  {
    name: "evaluate-20-revisions",
    html: () => Promise.resolve(renderEvaluateHtml(manyRevisionsReport(20, 3))),
    marks: { "svg.margin-chart .margin-mark": 1, "svg.revision-chart .revision-mark": 19 },
  },
  {
    name: "evaluate-hostile",
    html: () => Promise.resolve(renderEvaluateHtml(hostileReport())),
    marks: {
      "svg.margin-chart .margin-mark": 1,
      "svg.revision-chart .revision-mark": revisionsWithMargin(hostileReport()),
    },
  },
  {
    // What changed since the last run: 150 flips (10 shown), hostile 100-code-point task ids.
    name: "evaluate-since-hostile",
    html: () => Promise.resolve(renderEvaluateHtml(hostileSinceReport())),
    marks: { "svg.margin-chart .margin-mark": 1, h3: 3, "table code": 10 + 2 + 1 + 4 },
  },
];

/**
 * What sticks out: elements past the column's right edge, boxes that scroll, cells that cut text.
 * Plain browser JavaScript (the project's TypeScript has no DOM types), run inside the page.
 */
const LAYOUT_PROBE = `(() => {
  const out = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > window.innerWidth) out.push("document scrollWidth " + doc.scrollWidth);
  const main = document.querySelector("main");
  if (main === null) return ["no <main>"];
  const right = main.getBoundingClientRect().right;
  const name = (e) =>
    e.tagName.toLowerCase() + "." + (e.getAttribute("class") || "") + ' "' + (e.textContent || "").trim().slice(0, 40) + '"';
  for (const e of Array.from(main.querySelectorAll("*"))) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.right > right + 0.5) out.push(name(e) + " right " + Math.round(r.right) + " > " + Math.round(right));
  }
  for (const e of Array.from(main.querySelectorAll(".table-box")))
    if (e.scrollWidth > e.clientWidth + 1) out.push(name(e) + " scrolls " + e.scrollWidth + "/" + e.clientWidth);
  for (const e of Array.from(main.querySelectorAll("table.matrix td, table.matrix th")))
    if (e.scrollWidth > e.clientWidth + 1) out.push(name(e) + " cut " + e.scrollWidth + "/" + e.clientWidth);
  return out;
})()`;

function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(LAYOUT_PROBE);
}

describe.skipIf(!CHROMIUM_PRESENT)("the HTML pages in Chromium at 880 px", () => {
  let browser: Browser;
  // One fixed folder, overwritten each run (no pile of temp dirs), to look at after a run.
  const shots = join(tmpdir(), "model-gate-html-pages");
  mkdirSync(shots, { recursive: true });
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    console.log(`HTML page screenshots: ${shots}`);
  });

  it("the layout probe sees an overflow and a cut matrix cell (it can fail)", async () => {
    const page = await browser.newPage({ viewport: { width: CONTENT_WIDTH, height: 900 } });
    try {
      await page.setContent(
        '<main style="max-width:880px"><div style="width:1200px">wide</div><table class="matrix"><tr><td style="max-width:10px;overflow:hidden;white-space:nowrap">a long cell</td></tr></table></main>',
      );
      const problems = await layoutProblems(page);
      expect(problems.some((p) => p.startsWith("document scrollWidth"))).toBe(true);
      expect(problems.some((p) => p.includes("cut"))).toBe(true);
    } finally {
      await page.close();
    }
  });

  for (const c of CASES) {
    it(`${c.name}: fits 880 px, draws its marks, requests nothing`, async () => {
      // The page's CSP is bypassed, so that anything it tried to load would reach the route below.
      const page = await browser.newPage({
        viewport: { width: CONTENT_WIDTH, height: 900 },
        bypassCSP: true,
      });
      const requests: string[] = [];
      await page.route("**/*", (route) => {
        requests.push(route.request().url());
        return route.abort();
      });
      try {
        await page.setContent(await c.html(), { waitUntil: "load" });
        // Pictures first, so a failing page can be looked at.
        await page.screenshot({ path: join(shots, `${c.name}.png`), fullPage: true });
        if (SCREENSHOTS) {
          mkdirSync(join(REPO_ROOT, "screenshots"), { recursive: true });
          await page.screenshot({
            path: join(REPO_ROOT, "screenshots", `html-${c.name}.png`),
            fullPage: true,
          });
          if (c.docsImage !== undefined) {
            await page.screenshot({
              path: join(REPO_ROOT, "docs", "images", c.docsImage.file),
              fullPage: true,
              clip: { x: 0, y: 0, width: CONTENT_WIDTH, height: c.docsImage.height },
            });
          }
        }
        expect(await layoutProblems(page)).toEqual([]);
        for (const [selector, n] of Object.entries(c.marks))
          expect(await page.locator(selector).count(), selector).toBe(n);
        expect(await page.locator("script").count()).toBe(0);
        expect(requests, "requests the page tried to make").toEqual([]);
        // Narrower screens: the document still never scrolls sideways (charts scale, tables scroll in their box).
        await page.setViewportSize({ width: 480, height: 900 });
        expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(480);
      } finally {
        await page.close();
      }
    }, 60_000);
  }
});
