/** `model-gate rank` end to end: flags, errors and exit status, the three formats, safe rendering. */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { renderRankMarkdown } from "../../src/core/rank/render-rank-markdown.js";
import type { RankReport } from "../../src/core/rank/rank-types.js";
import { tempDir } from "../helpers/export-writer.js";
import { cliBundle, cliInProcess } from "../helpers/run-cli.js";
import { policyWith, randomTasks, writeMulti, type MultiTask } from "./rank-helpers.js";

const dir = tempDir("rank-cli-");
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const policy = join(dir, "policy.yaml");
writeFileSync(policy, policyWith(10));
const MODELS = ["cfg-b", "cfg-a", "cfg-c"];
const results = writeMulti(dir, randomTasks(11, MODELS, 120), "three.jsonl");
/** `rank` on one results file with the policy and the fixed day, then `more`. */
function rankArgs(path: string, more: readonly string[] = [], policyPath = policy): string[] {
  return ["rank", "--results", path, "--policy", policyPath, "--today", "2026-11-29", ...more];
}
const base = rankArgs(results);
/** The three models given in two --models values, JSON out. */
const GIVEN_JSON = ["--models", "cfg-b,cfg-a", "--models", "cfg-c", "--format", "json"];

/** Two models far apart and one a clone of the best: the top is a tie, the bottom is ordered. */
function tieAtTheTop(n: number): MultiTask[] {
  return Array.from({ length: n }, (_, t) => ({
    id: `t-${String(t).padStart(4, "0")}`,
    validity: t % 10 === 0 ? "disputed" : "valid",
    results: {
      top: [t % 4 === 0 ? "fail" : "pass"],
      twin: [t % 4 === 1 ? "fail" : "pass"],
      low: [t % 4 === 3 ? "pass" : "fail"],
    },
  }));
}

describe("model-gate rank", () => {
  it("JSON: the issue's keys, every pair in --models order, byte-identical on a second run", async () => {
    const run = await cliInProcess([...base, ...GIVEN_JSON]);
    expect(run.stderr).toBe("");
    const r = JSON.parse(run.stdout) as RankReport;
    expect(r).toMatchObject({
      schema_version: "1.5.0",
      kind: "rank",
      adjustment: { method: "max_t", pairs: 3, directional_claims: 6, family_alpha: 1 - 0.95 },
    });
    expect(r.adjustment.guarantee).toBe(
      "The chance that any ordering claim here is wrong — ties included, and whichever way the open labels resolve — is at most α = 5.00%: a max-t step-down over the 3 pairs, each round ordering the pairs whose t clears the 95.00% point of the largest |t| among the pairs still unordered (their correlation, 10,000 fixed-seed normal draws), never stricter than Holm's α/(2(m − r)) after r orderings.",
    );
    expect(r.could_be_first).toEqual(r.models.filter((m) => m.rank_low === 1).map((m) => m.model));
    expect(r.pairs.map((p) => [p.a, p.b])).toEqual([
      ["cfg-b", "cfg-a"],
      ["cfg-b", "cfg-c"],
      ["cfg-a", "cfg-c"],
    ]);
    for (const m of r.models)
      expect(Object.keys(m)).toEqual(
        expect.arrayContaining(["model", "score", "interval", "rank_low", "rank_high", "group"]),
      );
    for (const p of r.pairs)
      expect(Object.keys(p)).toEqual(
        expect.arrayContaining([
          "a",
          "b",
          "margin",
          "margin_low",
          "margin_high",
          "se",
          "lcb",
          "ucb",
          "relation",
          "unresolved_by",
          "level",
        ]),
      );
    expect(run.code).toBe(r.top_resolved ? 0 : 2);
    const again = await cliInProcess([...base, ...GIVEN_JSON]);
    expect(again.stdout).toBe(run.stdout);
    expect(r.provenance.passes).toBe(1);
  });

  it("without --models ranks every model of the export, in sorted order, in the same one pass", async () => {
    const run = await cliInProcess([...base, "--format", "json", "--report", join(dir, "out.json")]);
    const r = JSON.parse(run.stdout) as RankReport;
    expect(r.provenance.models_given).toEqual(["cfg-a", "cfg-b", "cfg-c"]);
    expect(r.provenance.passes).toBe(1);
    expect(readFileSync(join(dir, "out.json"), "utf8")).toBe(run.stdout);
  });

  it("a tie at the top: top null, exit 2; the ordered bottom is its own group", async () => {
    const path = writeMulti(dir, tieAtTheTop(400), "tie.jsonl");
    const run = await cliInProcess(rankArgs(path, ["--format", "json", "--reference", "low"]));
    const r = JSON.parse(run.stdout) as RankReport;
    expect(run.code).toBe(2);
    expect(r.top).toBeNull();
    expect(r.top_resolved).toBe(false);
    expect(r.groups).toEqual([["top", "twin"], ["low"]]);
    expect(r.models.map((m) => [m.model, m.rank_low, m.rank_high, m.group, m.vs_reference])).toEqual([
      ["top", 1, 2, 1, "above"],
      ["twin", 1, 2, 1, "above"],
      ["low", 3, 3, 2, null],
    ]);
    const tie = r.pairs.filter((p) => p.relation === "unresolved");
    expect(tie.map((p) => [p.a, p.b].sort())).toEqual([["top", "twin"]]);
    for (const p of tie) {
      const band =
        (p.margin_low as number) <= 0 &&
        (p.margin_high as number) >= 0 &&
        (p.margin_low as number) < (p.margin_high as number);
      expect(p.unresolved_by).toBe(band ? "validity" : "run_variance");
      // An adjacent pair unresolved by validity lists its open tasks, largest |d| first.
      if (band) {
        const first = r.review_first[0];
        expect([first?.a, first?.b]).toEqual(["top", "twin"]);
        expect(first?.tasks.length).toBeGreaterThan(0);
        const effects = (first?.tasks ?? []).map((t) => Math.abs(t.d));
        expect(effects).toEqual([...effects].sort((x, y) => y - x));
      } else expect(r.review_first).toEqual([]);
    }
  });

  it("errors: unknown model, too few models, a repeated model, --reference outside the ranking (exit 3)", async () => {
    const unknown = await cliInProcess([...base, "--models", "cfg-a,cfg-x"]);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain(
      '"cfg-x" does not appear in the export; model_config ids present (3): "cfg-a", "cfg-b", "cfg-c"',
    );
    const one = await cliInProcess([...base, "--models", "cfg-a"]);
    expect(one.code).toBe(3);
    expect(one.stderr).toContain('A ranking needs at least 2 models; --models names only "cfg-a"');
    const twice = await cliInProcess([...base, "--models", "cfg-a,cfg-a"]);
    expect(twice.stderr).toContain('--models names "cfg-a" twice');
    const ref = await cliInProcess([...base, "--models", "cfg-a,cfg-b", "--reference", "cfg-c"]);
    expect(ref.code).toBe(3);
    expect(ref.stderr).toContain('--reference "cfg-c" is not among the models given with --models');
    const refAll = await cliInProcess([...base, "--reference", "cfg-z"]);
    expect(refAll.code).toBe(3);
    expect(refAll.stderr).toContain('--reference "cfg-z" is not among the ranked models');
  });

  it("refuses a common valid set under the policy's floor, naming the models that shrink it most", async () => {
    // cfg-gap has no row on half the tasks: without it the common set doubles.
    const tasks = randomTasks(5, ["cfg-a", "cfg-b"], 60, { missing: 0, open: 0 }).map((t, i) => ({
      ...t,
      results: i % 2 === 0 ? { ...t.results, "cfg-gap": ["pass" as const] } : t.results,
    }));
    const path = writeMulti(dir, tasks, "gap.jsonl");
    const strict = join(dir, "strict.yaml");
    writeFileSync(strict, policyWith(40));
    const run = await cliInProcess(rankArgs(path, [], strict));
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/The 3 ranked models have \d+ common valid tasks/);
    expect(run.stderr).toContain(
      'common_valid_tasks asks for >= 40. The models that shrink it most: "cfg-gap" (without it, ',
    );
  });

  it("Markdown and text escape model and task ids from the export", async () => {
    const evil = "<img src=x>@octocat #1 ::error::x";
    const tasks = tieAtTheTop(200).map((t) => ({
      ...t,
      id: `${t.id}<script>`,
      results: { [evil]: t.results["top"] ?? [], twin: t.results["twin"] ?? [], low: t.results["low"] ?? [] },
    }));
    const path = writeMulti(dir, tasks, "evil.jsonl");
    const md = await cliInProcess(rankArgs(path));
    expect(md.stdout).toContain("## Model ranking");
    expect(md.stdout).not.toMatch(/<img|<script|@octocat/);
    expect(md.stdout).toContain("&lt;img src\\=x&gt;&#64;&#8203;octocat &#35;&#8203;1");
    const text = await cliInProcess(rankArgs(path, ["--format", "text"]));
    expect(text.stdout).toContain("Leaderboard");
    for (const line of text.stdout.split("\n")) expect(line.trimStart().startsWith("::")).toBe(false);
  });

  it("20 models: a list of unresolved pairs instead of the matrix, under a comment's size", async () => {
    const models = Array.from({ length: 20 }, (_, i) => `model-${String(i).padStart(2, "0")}`);
    const path = writeMulti(dir, randomTasks(21, models, 150, { missing: 0 }), "twenty.jsonl");
    const run = await cliInProcess(rankArgs(path, ["--format", "json"]));
    const r = JSON.parse(run.stdout) as RankReport;
    expect(r.pairs).toHaveLength(190);
    const md = renderRankMarkdown(r);
    expect(md).not.toContain("| #1 |");
    expect(md).toContain("Unresolved pairs:");
    expect(md.length).toBeLessThanOrEqual(65536);
    // A small limit: the lists are cut, and the document says so.
    const short = renderRankMarkdown(r, { maxLength: 6000 });
    expect(short.length).toBeLessThanOrEqual(6000);
    expect(short).toMatch(/Shortened to fit GitHub's size limit|… \(trimmed\)/);
  });

  it("the bundle runs rank as the source does", () => {
    const run = cliBundle([...base, "--format", "json"]);
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toMatchObject({ kind: "rank", provenance: { passes: 1 } });
  });
});
