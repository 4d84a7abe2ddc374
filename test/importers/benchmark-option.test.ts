/** `--benchmark NAME` (docs/importers.md): one option of every kind, written on every row. */
import { describe, expect, test } from "vitest";

import { parseImportArgs } from "../../src/cli/import-args.js";
import { importText, IMPORT_KINDS } from "../../src/importers/index.js";
import { inputErrorOf, parseLines } from "./helpers.js";

describe("--benchmark", () => {
  test("every kind takes it", () => {
    for (const kind of IMPORT_KINDS) {
      expect(parseImportArgs([kind, "f", "--benchmark", "private-canary"]).benchmark).toBe("private-canary");
    }
  });

  test("an empty name or one with a control character is refused", async () => {
    for (const bad of ["", "  ", "a\u0007b"]) {
      expect(await inputErrorOf(() => parseImportArgs(["swebench-pro", "f", `--benchmark=${bad}`]))).toMatch(
        /^model-gate import: --benchmark: expected a benchmark name \(non-empty, no control characters, at most 4096 characters\); got /,
      );
    }
  });

  test("a results import writes it on every row, after cluster; without it, no benchmark key", () => {
    const text = JSON.stringify({ "a__a-1": true, "b__b-2": false });
    const opts = { kind: "swebench-pro" as const, file: "r.json", modelConfig: "m" };
    const rows = parseLines(importText({ ...opts, benchmark: "swe-pro" }, text, undefined).lines);
    expect(rows.map((r) => [r["task_id"], r["benchmark"]])).toStrictEqual([
      ["a__a-1", "swe-pro"],
      ["b__b-2", "swe-pro"],
    ]);
    expect(Object.keys(rows[0] ?? {}).slice(-2)).toStrictEqual(["cluster", "benchmark"]);
    const plain = importText(opts, text, undefined).lines;
    expect(plain.some((l) => l.includes('"benchmark"'))).toBe(false);
    expect(
      importText({ ...opts, benchmark: "swe-pro" }, text, undefined).lines.map((l) =>
        l.replace(',"benchmark":"swe-pro"', ""),
      ),
    ).toStrictEqual(plain);
  });

  test("a reviews import writes it on every row", () => {
    const text = "task_id,validity\nt1,valid\nt2,broken\n";
    const rows = parseLines(
      importText({ kind: "reviews-csv", file: "s.csv", benchmark: "canary" }, text, undefined).lines,
    );
    expect(rows.map((r) => [r["task_id"], r["benchmark"]])).toStrictEqual([
      ["t1", "canary"],
      ["t2", "canary"],
    ]);
  });
});
