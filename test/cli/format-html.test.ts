/**
 * `--format html` end to end (evaluate and rank): one self-contained page on stdout, the same
 * exit status as the other formats, byte-identical on a second run; a hostile model id from the
 * export reaches the page escaped.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { renderRankHtml } from "../../src/core/rank/render-rank-html.js";
import type { RankReport } from "../../src/core/rank/rank-types.js";
import { tempDir } from "../helpers/export-writer.js";
import { cliInProcess } from "../helpers/run-cli.js";
import { policyWith, randomTasks, writeMulti } from "../rank/rank-helpers.js";

const dir = tempDir("format-html-");
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const HOSTILE = '<img src=x onerror="alert(1)">';
const policy = join(dir, "policy.yaml");
writeFileSync(policy, policyWith(10));
const results = writeMulti(dir, randomTasks(7, ["cfg-a", "cfg-b", HOSTILE], 150), "three.jsonl");
const common = ["--results", results, "--policy", policy, "--today", "2026-11-29"];

describe("--format html", () => {
  it("rank: the page of the report JSON, exit status as with JSON, same bytes twice", async () => {
    const html = await cliInProcess(["rank", ...common, "--format", "html"]);
    const json = await cliInProcess(["rank", ...common, "--format", "json"]);
    expect(html.stderr).toBe("");
    expect(html.code).toBe(json.code);
    expect(html.stdout).toBe(renderRankHtml(JSON.parse(json.stdout) as RankReport));
    expect(html.stdout.startsWith("<!doctype html>\n")).toBe(true);
    expect(html.stdout.match(/class="score-mark"/g)?.length).toBe(3);
    expect(html.stdout).not.toContain("<img");
    expect(html.stdout).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect((await cliInProcess(["rank", ...common, "--format", "html"])).stdout).toBe(html.stdout);
  });
  it("evaluate: one page with both charts, the verdict's exit status", async () => {
    const args = ["evaluate", ...common, "--baseline", "cfg-a", "--candidate", HOSTILE];
    const html = await cliInProcess([...args, "--format", "html"]);
    const md = await cliInProcess(args);
    expect(html.code).toBe(md.code);
    expect(html.stdout).toContain('<svg xmlns="http://www.w3.org/2000/svg" class="margin-chart"');
    expect(html.stdout).toContain('<svg xmlns="http://www.w3.org/2000/svg" class="revision-chart"');
    expect(html.stdout).not.toContain("<img");
    expect(html.stdout).toContain("<code>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</code>");
  });
  it("is named in both commands' help, and a wrong format is refused", async () => {
    for (const command of ["evaluate", "rank"]) {
      expect((await cliInProcess([command, "--help"])).stdout).toContain("--format markdown|json|text|html");
      const wrong = await cliInProcess([command, ...common, "--format", "htm"]);
      expect(wrong.code).toBe(3);
      expect(wrong.stderr).toContain('Flag --format must be one of markdown, json, text, html; got "htm".');
    }
  });
});
