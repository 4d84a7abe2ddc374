/**
 * rank on an export of several benchmarks ranks within each (docs/rank.md "Several benchmarks"):
 * each benchmark's ranking is exactly the ranking of that benchmark's rows alone, the gate passes
 * only if it passes in every benchmark, and the benchmarks' names are escaped in every format.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

import { runRank } from "../../src/core/rank/rank.js";
import {
  combineRankGates,
  isBenchmarksReport,
  rankByBenchmark,
} from "../../src/core/rank/rank-benchmarks.js";
import type { RankBenchmark, RankReport, RankResult } from "../../src/core/rank/rank-types.js";
import {
  headingsDown,
  renderRankResultHtml,
  renderRankResultMarkdown,
  renderRankResultText,
  rankResultTitle,
} from "../../src/core/rank/render-rank-benchmarks.js";
import { renderRankMarkdown } from "../../src/core/rank/render-rank-markdown.js";
import type { Verdict } from "../../src/core/verdict-types.js";
import { writeLines } from "../helpers/export-writer.js";
import { prng } from "../helpers/prng.js";
import { multiLines, policyWith, randomTasks, rankInputs } from "./rank-helpers.js";

const MODELS = ["m-a", "m-b", "m-c"];

/** The rows of `lines` with each task put in the benchmark `of(task_id)`. */
function tagged(lines: readonly string[], of: (taskId: string) => string): string[] {
  return lines.map((l) => {
    const row = JSON.parse(l) as { task_id: string };
    return JSON.stringify({ ...row, benchmark: of(row.task_id) });
  });
}

/** A rank report without what depends on which file was read (its path, digest, rows). */
function figures(r: RankReport | RankBenchmark): unknown {
  const { provenance, ...rest } = r as RankReport;
  delete (rest as { schema_version?: unknown }).schema_version;
  delete (rest as { kind?: unknown }).kind;
  delete (rest as { name?: unknown }).name;
  return {
    ...rest,
    dataset_revisions: provenance.dataset_revisions,
    review_revisions: provenance.review_revisions,
  };
}

describe("rank with several benchmarks", () => {
  const dir = mkdtempSync(join(tmpdir(), "rank-benchmarks-"));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  let file = 0;
  const rank = async (
    lines: string[],
    policy = policyWith(1),
    opts: { candidate?: string; reference?: string } = {},
  ) => {
    const inputs = await rankInputs(writeLines(dir, lines, `r${file++}.jsonl`), policy, MODELS);
    const options = {
      reference: opts.reference ?? null,
      candidate: opts.candidate ?? null,
      toolVersion: "test",
    };
    return {
      result: rankByBenchmark(inputs.data, inputs.policy, options),
      one: () => runRank(inputs.data, inputs.policy, options),
    };
  };

  it("ranks each benchmark exactly as that benchmark's rows alone (random exports and splits)", async () => {
    for (let seed = 1; seed <= 6; seed++) {
      const rnd = prng(100 + seed);
      const names = ["public", "private-canary", "zeta"].slice(0, 2 + (seed % 2));
      const tasks = randomTasks(seed, MODELS, 40 + 10 * seed, { attempts: seed % 3 === 0 ? 3 : 1 });
      const where = new Map(tasks.map((t) => [t.id, names[Math.floor(rnd() * names.length)] as string]));
      const policy = policyWith(1, "rank:\n  require: above_reference\n");
      const opts = { candidate: "m-a", reference: "m-b" };
      const all = tagged(multiLines(tasks), (id) => where.get(id) as string);
      const { result } = await rank(all, policy, opts);
      expect(isBenchmarksReport(result)).toBe(true);
      if (!isBenchmarksReport(result)) return;
      const present = [...new Set(where.values())].sort();
      expect(result.benchmarks.map((b) => b.name)).toEqual(present);
      for (const b of result.benchmarks) {
        const alone = (
          await rank(
            all.filter((l) => (JSON.parse(l) as { benchmark: string }).benchmark === b.name),
            policy,
            opts,
          )
        ).result;
        expect(isBenchmarksReport(alone)).toBe(false);
        expect(figures(b)).toStrictEqual(figures(alone as RankReport));
      }
      expect(result.gate).toStrictEqual(combineRankGates(result.benchmarks));
      expect(result.warnings.some((w) => w.includes("pools"))).toBe(false);
    }
  });

  it("one benchmark: the report is runRank's, with or without the benchmark key", async () => {
    const plain = multiLines(randomTasks(7, MODELS, 60));
    const a = await rank(plain);
    expect(a.result).toStrictEqual(a.one());
    const b = await rank(tagged(plain, () => "public"));
    expect(isBenchmarksReport(b.result)).toBe(false);
    expect(figures(b.result as RankReport)).toStrictEqual(figures(a.result as RankReport));
  });

  it("combines the gates: accept only when every benchmark accepts, reject when one rejects", () => {
    const bench = (name: string, verdict: Verdict) =>
      ({
        name,
        gate: { require: "top_group", candidate: "m-a", verdict, reasons: [`r-${name}`] },
      }) as unknown as RankBenchmark;
    const v = (...vs: Verdict[]) => combineRankGates(vs.map((x, i) => bench(`b${i}`, x))).verdict;
    expect(v("accept", "accept")).toBe("accept");
    expect(v("accept", "unresolved")).toBe("unresolved");
    expect(v("unresolved", "reject")).toBe("reject");
    expect(v("accept", "reject")).toBe("reject");
    expect(combineRankGates([bench("x", "accept"), bench("y", "unresolved")]).reasons).toEqual([
      'Benchmark "x" (accept): r-x',
      'Benchmark "y" (unresolved): r-y',
    ]);
  });

  it("says it ranked within each benchmark, a line per benchmark, and escapes hostile names", async () => {
    const tasks = randomTasks(11, MODELS, 60);
    const hostile = "<img src=x onerror=alert(1)>|`*x*`";
    const all = tagged(multiLines(tasks), (id) => (id < "task-0030" ? hostile : "public"));
    const { result } = await rank(all);
    if (!isBenchmarksReport(result)) throw new Error("expected several benchmarks");
    const md = renderRankResultMarkdown(result);
    expect(md).toContain("Ranked within each of 2 benchmarks");
    for (const b of result.benchmarks) expect(md).toContain(`${b.common_valid_tasks} common valid tasks`);
    expect(md).not.toContain("<img");
    expect(md).toContain(
      renderRankMarkdown(
        { schema_version: result.schema_version, kind: "rank", ...(result.benchmarks[1] as RankBenchmark) },
        { maxLength: 1e9 },
      ).split("\n")[0] as string,
    );
    const html = renderRankResultHtml(result);
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img");
    expect(html.match(/id="score-chart-title-\d"/g)).toEqual([
      'id="score-chart-title-1"',
      'id="score-chart-title-2"',
    ]);
    // One h1 (the page's title); each benchmark an h2, its ranking's title an h3 and its tables' h4.
    expect(html.match(/<h1\b/g)).toHaveLength(1);
    expect(html.match(/<h2>Benchmark /g)).toHaveLength(2);
    expect(html.match(/<h3\b/g)).toHaveLength(2);
    expect(html.match(/<h4>Leaderboard<\/h4>/g)).toHaveLength(2);
    for (const [open, close] of [...html.matchAll(/<h(\d)\b[^>]*>[^]*?<\/h(\d)>/g)].map((m) => [m[1], m[2]]))
      expect(close).toBe(open);
    const text = renderRankResultText(result);
    expect(text).toContain("Ranked within each of 2 benchmarks");
    expect(text).toContain("=== Benchmark");
    expect(rankResultTitle(result)).toContain("ranked within 2 benchmarks");
    expect(rankResultTitle(result)).not.toContain("\n");
  });

  it("JSON: benchmarks in name order, each a rank report with its name", async () => {
    const tasks = randomTasks(3, MODELS, 50);
    const { result } = await rank(tagged(multiLines(tasks), (id) => (id < "task-0020" ? "b" : "a")));
    const json = JSON.parse(JSON.stringify(result)) as RankResult & {
      benchmarks: { name: string; pairs: unknown[] }[];
    };
    expect(json.schema_version).toBe("1.5.0");
    expect(json.benchmarks.map((b) => b.name)).toEqual(["a", "b"]);
    expect(json.benchmarks.every((b) => b.pairs.length === 3)).toBe(true);
  });

  it("headingsDown lowers each heading tag, open and close, at most to h6, and nothing else", () => {
    expect(headingsDown('<h1 class="t">A</h1><h2>B</h2><h5>C</h5><hr><header>D</header>', 2)).toBe(
      '<h3 class="t">A</h3><h4>B</h4><h6>C</h6><hr><header>D</header>',
    );
    expect(headingsDown("<p>&lt;h1&gt; stays text</p>", 2)).toBe("<p>&lt;h1&gt; stays text</p>");
  });
});
