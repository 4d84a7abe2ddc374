/**
 * `rank` shows each metric's mean per task per model in the leaderboard (docs/rank.md "Cost and
 * latency"), figures only; read from a real export through the reader.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

import { renderRankMarkdown } from "../../src/core/rank/render-rank-markdown.js";
import { renderRankText } from "../../src/core/rank/render-rank-text.js";
import { writeLines } from "../helpers/export-writer.js";
import { policyWith, rankOf } from "../rank/rank-helpers.js";

const MODELS = ["m-a", "m-b", "m-c"];

/** 40 valid tasks; m-a passes 30, m-b 20, m-c 10. Costs: m-a 3 + t % 2, m-b 2, m-c has none on odd tasks; latency only m-a. */
function lines(): string[] {
  const out: string[] = [];
  for (let t = 0; t < 40; t++) {
    MODELS.forEach((model, k) => {
      const metrics: Record<string, number> = {};
      if (k === 0) Object.assign(metrics, { cost_usd: 3 + (t % 2), latency_s: 10 });
      if (k === 1) metrics["cost_usd"] = 2;
      if (k === 2 && t % 2 === 0) metrics["cost_usd"] = 1;
      out.push(
        JSON.stringify({
          task_id: `t${String(t).padStart(2, "0")}`,
          dataset_revision: "rev1",
          harness_revision: "git:h1",
          model_config: model,
          validity: "valid",
          review_revision: 1,
          result: t < 40 - 10 * (k + 1) ? "pass" : "fail",
          ...(Object.keys(metrics).length > 0 ? { metrics } : {}),
        }),
      );
    });
  }
  return out;
}

describe("rank with metrics", () => {
  it("gives each model's mean per task of each metric over the common tasks, and shows it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gate-rank-metrics-"));
    const r = await rankOf(writeLines(dir, lines(), "results.jsonl"), policyWith(10), null);
    const byModel = Object.fromEntries(r.models.map((m) => [m.model, m.metrics]));
    expect(byModel).toStrictEqual({
      "m-a": [
        { metric: "cost_usd", mean: 3.5, tasks: 40 },
        { metric: "latency_s", mean: 10, tasks: 40 },
      ],
      "m-b": [
        { metric: "cost_usd", mean: 2, tasks: 40 },
        { metric: "latency_s", mean: null, tasks: 0 },
      ],
      "m-c": [
        { metric: "cost_usd", mean: 1, tasks: 20 },
        { metric: "latency_s", mean: null, tasks: 0 },
      ],
    });
    // The order is the scores', whatever the costs.
    expect(r.models.map((m) => m.model)).toStrictEqual(MODELS);
    const md = renderRankMarkdown(r);
    expect(md).toMatch(/\| rank \| model \| score \|.*\| cost\\?_usd mean \| latency\\?_s mean \|/);
    expect(md).toMatch(/\| 3\.5 \| 10 \|/);
    expect(renderRankText(r)).toContain("cost_usd mean");
  });

  it("without metrics: no key and no column", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gate-rank-metrics-"));
    const plain = lines().map((l) => {
      const o = JSON.parse(l) as Record<string, unknown>;
      delete o["metrics"];
      return JSON.stringify(o);
    });
    const r = await rankOf(writeLines(dir, plain, "results.jsonl"), policyWith(10), null);
    expect(r.models.every((m) => !("metrics" in m))).toBe(true);
    expect(renderRankMarkdown(r)).not.toContain(" mean |");
  });
});
