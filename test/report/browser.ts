/**
 * The Markdown as GitHub shows it, in a real browser: GFM → HTML with micromark (raw HTML allowed,
 * as GitHub allows <details>/<summary>/<sub>/<code>: the point is to prove that data cannot
 * become live HTML), inside github-markdown-css at GitHub's comment width (880 px of content),
 * opened in the system's headless Chromium through playwright-core. Nothing downloads a browser.
 * The measurements run inside the page (page-probes.js).
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { chromium, type Browser, type Page } from "playwright-core";

export const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
export const CHROMIUM_PRESENT = existsSync(CHROMIUM);

/** GitHub's comment body width, and the height the verdict and its key facts must fit in. */
export const CONTENT_WIDTH = 880;
export const FOLD_HEIGHT = 900;

const require = createRequire(import.meta.url);
const CSS = readFileSync(require.resolve("github-markdown-css/github-markdown-light.css"), "utf8");
const PROBES = join(import.meta.dirname, "page-probes.js");

export function markdownToHtml(md: string): string {
  return micromark(md, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
}

export function pageHtml(md: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><style>${CSS}</style>
<style>html,body{margin:0;padding:0;background:#fff}
.markdown-body{box-sizing:content-box;width:${CONTENT_WIDTH}px;padding:0;margin:0}</style></head>
<body><article class="markdown-body">${markdownToHtml(md)}</article></body></html>`;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

export interface RenderedPage {
  readonly page: Page;
  /** Requests the page tried to make (an <img> from data would show up here); all refused. */
  readonly requests: string[];
}

export async function openPage(browser: Browser, md: string): Promise<RenderedPage> {
  const page = await browser.newPage({ viewport: { width: CONTENT_WIDTH, height: FOLD_HEIGHT } });
  const requests: string[] = [];
  await page.route("**/*", (route) => {
    requests.push(route.request().url());
    return route.abort();
  });
  await page.setContent(pageHtml(md), { waitUntil: "load" });
  await page.addScriptTag({ path: PROBES });
  return { page, requests };
}

async function probe<T>(page: Page, call: string): Promise<T> {
  const result: unknown = await page.evaluate(`window.__probes.${call}`);
  return result as T;
}

export interface Overflow {
  readonly tag: string;
  readonly text: string;
  readonly right: number;
  readonly scrollWidth: number;
  readonly clientWidth: number;
}

/** Visible elements wider than the content box, or scrolling sideways inside it. */
export function overflows(page: Page): Promise<Overflow[]> {
  return probe(page, `overflows(${CONTENT_WIDTH})`);
}

export function setDetailsOpen(page: Page, open: boolean): Promise<void> {
  return probe(page, `setDetailsOpen(${String(open)})`);
}

/** Rendered lines (distinct line boxes of visible text) and the bottom of the last one, in px. */
export function renderedLines(page: Page): Promise<{ lines: number; height: number }> {
  return probe(page, "renderedLines()");
}

/** Bottom edges in px: the verdict heading, the last failing check row, the first item of "what would change". */
export function foldFacts(
  page: Page,
): Promise<{ verdict: number; failing: number | null; change: number | null }> {
  return probe(page, "foldFacts()");
}

export interface LiveContent {
  /** Tags in the page, with counts. */
  readonly tags: Record<string, number>;
  /** Attributes other than a link's href, a cell's align, details' open and the fence's class. */
  readonly attributes: string[];
  readonly hrefs: string[];
  /** Text outside links that GitHub would turn into a mention, an issue link or an autolink. */
  readonly linkable: string[];
  readonly text: string;
}

export function liveContent(page: Page): Promise<LiveContent> {
  return probe(page, "liveContent()");
}
