/**
 * The problems of a read as one InputError (builder-state.ts's ProblemList, dataset-finish.ts):
 * the first 20 in full and the total, across files in file order; an unknown model id first.
 */
import { describe, expect, it } from "vitest";

import { fixtures, inputError, review, row, readNamed } from "../fixtures.js";

const fx = fixtures("problems");
const HEADER1 = "The results/reviews input has 1 problem:";

describe("the problem list", () => {
  it("lists the first 20 of 25 bad lines and the total", async () => {
    const lines: unknown[] = [row(), row({ model_config: "cand" })];
    for (let i = 0; i < 25; i++) lines.push(row({ task_id: `t${i}`, result: "passed" }));
    const path = await fx.jsonl("bad25.jsonl", lines);
    const err = await inputError(readNamed([path]));
    const expected = [
      "The results/reviews input has 25 problems:",
      ...Array.from(
        { length: 20 },
        (_, i) =>
          `  bad25.jsonl:${i + 3}: field "result": expected one of pass, fail, infra_error, missing; got "passed"`,
      ),
      "  … and 5 more (25 in all)",
    ];
    expect(err.message).toBe(expected.join("\n"));
    expect(err.total).toBe(25);
    expect(err.problems.length).toBe(20);
  });

  it("collects problems across files into one error, in file order", async () => {
    const a = await fx.jsonl("multi-a.jsonl", [row(), row({ validity: "bad" })]);
    const b = await fx.jsonl("multi-b.jsonl", [
      row({ model_config: "cand", result: "?" }),
      row({ model_config: "cand" }),
    ]);
    const r = await fx.jsonl("multi-r.jsonl", [review({ validity: 1 })]);
    const err = await inputError(readNamed([a, b], [r]));
    expect(err.message).toBe(
      [
        "The results/reviews input has 3 problems:",
        `  multi-a.jsonl:2: field "validity": expected one of unreviewed, valid, broken, disputed; got "bad"`,
        `  multi-b.jsonl:1: field "result": expected one of pass, fail, infra_error, missing; got "?"`,
        `  multi-r.jsonl:1: field "validity": expected one of unreviewed, valid, broken, disputed; got 1`,
      ].join("\n"),
    );
  });
});

describe("unknown model ids", () => {
  it("lists the ids present, sorted", async () => {
    const path = await fx.jsonl("models.jsonl", [
      row({ model_config: "zeta" }),
      row({ model_config: "alpha" }),
      row(),
    ]);
    const err = await inputError(readNamed([path], [], { candidate: "nope" }));
    expect(err.message).toBe(
      `${HEADER1}\n  the candidate model_config "nope" does not appear in the export; model_config ids present (3): "alpha", "base", "zeta"`,
    );
  });

  it("caps the list at 20 ids with the count, and reports both roles", async () => {
    const rows = Array.from({ length: 25 }, (_, i) =>
      row({ model_config: `m${String(i).padStart(2, "0")}` }),
    );
    const path = await fx.jsonl("models25.jsonl", rows);
    const err = await inputError(readNamed([path], [], { baseline: "x", candidate: "y" }));
    const shown = Array.from({ length: 20 }, (_, i) => `"m${String(i).padStart(2, "0")}"`).join(", ");
    expect(err.message).toBe(
      [
        "The results/reviews input has 2 problems:",
        `  the baseline model_config "x" does not appear in the export; model_config ids present (25): ${shown}, … (25 in all)`,
        `  the candidate model_config "y" does not appear in the export; model_config ids present (25): ${shown}, … (25 in all)`,
      ].join("\n"),
    );
  });

  it("puts the unknown id first, before line problems", async () => {
    const path = await fx.jsonl("models-bad.jsonl", [row(), row({ result: "x" })]);
    const err = await inputError(readNamed([path]));
    expect(err.message).toBe(
      [
        "The results/reviews input has 2 problems:",
        `  the candidate model_config "cand" does not appear in the export; model_config ids present (1): "base"`,
        `  models-bad.jsonl:2: field "result": expected one of pass, fail, infra_error, missing; got "x"`,
      ].join("\n"),
    );
  });

  it("says so when the export has no valid rows", async () => {
    const path = await fx.write("empty.jsonl", "\n\n");
    const err = await inputError(readNamed([path]));
    expect(err.message).toBe(
      [
        "The results/reviews input has 3 problems:",
        // (The file is named first: test/read/table-and-empty-files.test.ts.)
        "  empty.jsonl: the results file holds no rows: every line of it is blank",
        `  the baseline model_config "base" does not appear in the export: the export has no valid rows`,
        `  the candidate model_config "cand" does not appear in the export: the export has no valid rows`,
      ].join("\n"),
    );
  });
});
