/**
 * The rank's one-pass K-model read (src/read/read-models.ts) gives the ModelsDataset the former
 * ceil(K/2)-pass read gave (multi-pass-reference.ts), on random and generated exports.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ModelsDataset } from "../../src/core/rank/rank-types.js";
import { reviewLine, tempDir } from "../helpers/export-writer.js";
import { prng } from "../helpers/prng.js";
import { multiPassRead } from "./multi-pass-reference.js";
import { multiLines, policyWith, randomTasks, rankInputs } from "./rank-helpers.js";

/** Everything of a ModelsDataset but how it was read: the tasks as records (the pair's counts left out). */
function plain(d: ModelsDataset): unknown {
  const tasks = Array.from({ length: d.tasks.length }, (_, i) => {
    const record: Record<string, unknown> = { ...d.tasks.record(i) };
    delete record["baseline"];
    delete record["candidate"];
    return { ...record, history: d.tasks.history(i), evidence: d.tasks.evidence(i) };
  });
  return {
    models: d.models,
    tasks,
    counts: d.counts.map((c) => Array.from({ length: d.tasks.length }, (_, i) => c[i])),
    summaries: d.summaries,
    modelsPresent: d.modelsPresent,
    inputs: d.inputs,
    rowsRead: d.rowsRead,
    reviewRevisions: d.reviewRevisions,
    unmatchedLabels: d.unmatchedLabels,
  };
}

async function both(results: string, reviews: readonly string[], models: readonly string[] | null) {
  const one = (await rankInputs(results, policyWith(1), models, reviews)).data;
  const many = await multiPassRead([results], reviews, models);
  return { one, many };
}

const MODELS = ["m-a", "m-b", "m-c", "m-d", "m-e"];

describe("one pass equals the former passes", () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`random export, seed ${seed}: every model and a subset, with reviews`, async () => {
      const dir = tempDir("rank-one-pass-");
      const tasks = randomTasks(seed, MODELS, 120, { attempts: 3, missing: 0.2, open: 0.4 });
      // Rows shuffled by model (the reader must not depend on the order), reviews relabelling some tasks.
      const rnd = prng(seed + 100);
      const lines = multiLines(tasks)
        .map((line) => ({ line, key: rnd() }))
        .sort((x, y) => x.key - y.key)
        .map((x) => x.line);
      const results = join(dir, "results.jsonl");
      writeFileSync(results, lines.join("\n") + "\n");
      const reviews = join(dir, "reviews.jsonl");
      writeFileSync(
        reviews,
        tasks
          .filter((_, i) => i % 9 === seed % 9)
          .map((t) => reviewLine(t.id, "valid", 2, "ann"))
          .join("\n") + "\n",
      );
      for (const models of [null, MODELS, ["m-e", "m-b", "m-c"], ["m-d", "m-a"]]) {
        const { one, many } = await both(results, [reviews], models);
        expect(one.passes).toBe(1);
        expect(many.passes).toBe(models === null ? 4 : Math.ceil(models.length / 2));
        expect(one.tasks.length).toBeGreaterThan(100);
        expect(plain(one)).toEqual(plain(many));
      }
    });
  }

  it("a generated export (clusters, several attempts, infra errors, reviews file)", async () => {
    const dir = tempDir("rank-one-pass-gen-");
    const results = join(dir, "results.jsonl");
    const reviews = join(dir, "reviews.jsonl");
    const g = spawnSync(
      process.execPath,
      [
        "scripts/generate-export.mjs",
        ...["--tasks", "400", "--attempts", "1-3", "--noise-models", "5", "--clusters", "--seed", "11"],
        ...["--lost-rate", "0.05", "--out", results, "--reviews-out", reviews, "--quiet"],
      ],
      { encoding: "utf8" },
    );
    expect(g.status).toBe(0);
    for (const models of [null, ["cfg-candidate", "cfg-baseline", "cfg-2026-10-04-noise-003"]]) {
      const { one, many } = await both(results, [reviews], models);
      expect(one.models.length).toBe(models === null ? 7 : 3);
      expect(one.tasks.length).toBe(400);
      expect(plain(one)).toEqual(plain(many));
    }
  });

  it("an aggregated export with the models on different tasks", async () => {
    const dir = tempDir("rank-one-pass-agg-");
    const results = join(dir, "results.jsonl");
    const g = spawnSync(
      process.execPath,
      [
        "scripts/generate-export.mjs",
        ...["--tasks", "300", "--attempts", "2-5", "--noise-models", "4", "--aggregated", "--seed", "5"],
        ...["--lost-rate", "0.1", "--missing-rate", "0.05", "--out", results, "--quiet"],
      ],
      { encoding: "utf8" },
    );
    expect(g.status).toBe(0);
    const { one, many } = await both(results, [], null);
    expect(one.models.length).toBe(6);
    expect(plain(one)).toEqual(plain(many));
  });
});

describe("the one pass checks every ranked model's rows as evaluate checks a pair's", () => {
  it("a conflicting repeat of a ranked model's attempt is an error naming both lines; a model not ranked is not checked", async () => {
    const dir = tempDir("rank-one-pass-conflict-");
    const tasks = randomTasks(3, MODELS, 30, { missing: 0 });
    const lines = multiLines(tasks);
    const row = (model: string, result: string): string =>
      JSON.stringify({
        ...(JSON.parse(lines[0] as string) as object),
        model_config: model,
        attempt: 7,
        result,
      });
    const results = join(dir, "results.jsonl");
    writeFileSync(
      results,
      [...lines, row("m-c", "pass"), row("m-c", "fail"), row("m-e", "pass"), row("m-e", "fail")].join("\n") +
        "\n",
    );
    const n = lines.length;
    await expect(rankInputs(results, policyWith(1), ["m-a", "m-c"])).rejects.toThrow(
      "The results/reviews input has 1 problem:",
    );
    await expect(rankInputs(results, policyWith(1), ["m-a", "m-c"])).rejects.toThrow(
      `${results}:${n + 2}: field "result": conflicts with ${results}:${n + 1}`,
    );
    // Ranking m-e too: its conflict is the second problem.
    const both = rankInputs(results, policyWith(1), ["m-c", "m-e"]);
    await expect(both).rejects.toThrow("The results/reviews input has 2 problems");
  });
});
