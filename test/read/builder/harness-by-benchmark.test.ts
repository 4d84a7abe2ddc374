/**
 * The harness revisions of each model's rows by their task's benchmark (ModelSummary
 * `harnessByBenchmark`): each benchmark's harness checks look at its own rows (docs/spec.md §4.6).
 */
import { describe, expect, it } from "vitest";

import { fixtures, readNamed, row } from "../fixtures.js";

const fx = fixtures("harness-by-benchmark");

describe("harness revisions by benchmark", () => {
  it("are kept per benchmark when a model's rows are in several, in any row order", async () => {
    const rows = [
      row({ task_id: "a", benchmark: "public", harness_revision: "h1" }),
      row({ task_id: "a", model_config: "cand", benchmark: "public", harness_revision: "h1" }),
      row({ task_id: "b", benchmark: "canary", harness_revision: "h2" }),
      row({ task_id: "b", model_config: "cand", benchmark: "canary", harness_revision: "h2" }),
      row({ task_id: "c", harness_revision: "h1" }),
      row({ task_id: "c", model_config: "cand", harness_revision: "h3" }),
      // The same harness as the row before, another benchmark: still counted for it.
      row({ task_id: "d", model_config: "cand", benchmark: "canary", harness_revision: "h3" }),
    ];
    for (const order of [rows, [...rows].reverse()]) {
      const d = await readNamed([await fx.jsonl(`r${order === rows ? 1 : 2}.jsonl`, order)]);
      expect(d.baseline.harnessRevisions).toEqual(["h1", "h2"]);
      expect(d.baseline.harnessByBenchmark).toEqual({ default: ["h1"], public: ["h1"], canary: ["h2"] });
      expect(d.candidate.harnessRevisions).toEqual(["h1", "h2", "h3"]);
      expect(d.candidate.harnessByBenchmark).toEqual({
        default: ["h3"],
        public: ["h1"],
        canary: ["h2", "h3"],
      });
    }
  });

  it("are not given when every row of a model is in one benchmark", async () => {
    const d = await readNamed([
      await fx.jsonl("one.jsonl", [
        row({ benchmark: "public" }),
        row({ model_config: "cand", benchmark: "public" }),
      ]),
    ]);
    expect("harnessByBenchmark" in d.baseline).toBe(false);
    expect("harnessByBenchmark" in d.candidate).toBe(false);
  });
});
