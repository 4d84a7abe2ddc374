/** rank on an export of several benchmarks says that it pools them (docs/spec.md §4.6). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

import { runRank } from "../../src/core/rank/rank.js";
import { writeLines } from "../helpers/export-writer.js";
import { multiLines, policyWith, randomTasks, rankInputs } from "./rank-helpers.js";

const MODELS = ["m-a", "m-b", "m-c"];

describe("rank with several benchmarks", () => {
  const dir = mkdtempSync(join(tmpdir(), "rank-benchmarks-"));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const tasks = randomTasks(7, MODELS, 60);
  const rank = async (lines: string[]) => {
    const inputs = await rankInputs(
      writeLines(dir, lines, `r${lines.length}-${lines[0]?.length ?? 0}.jsonl`),
      policyWith(1),
      MODELS,
    );
    return runRank(inputs.data, inputs.policy, { reference: null, toolVersion: "test" });
  };

  it("warns that the ranking pools the benchmarks' tasks; one benchmark, no warning", async () => {
    const plain = multiLines(tasks);
    const tagged = plain.map((l) => {
      const row = JSON.parse(l) as { task_id: string };
      return JSON.stringify({
        ...row,
        benchmark: row.task_id < (tasks[30]?.id ?? "") ? "public" : "private-canary",
      });
    });
    const pooled = await rank(tagged);
    expect(pooled.warnings).toContain(
      'The export holds 2 benchmarks ("private-canary", "public"): this ranking pools their tasks as one set; rank one benchmark\'s rows to compare the models within it.',
    );
    const one = await rank(plain);
    expect(one.warnings.some((w) => w.includes("benchmarks"))).toBe(false);
    // The figures are those of the pooled tasks: the benchmark changes nothing else.
    expect(pooled.pairs).toStrictEqual(one.pairs);
  });
});
