/**
 * What an import writes is checked once, in one place (src/importers/written-values.ts), for
 * every kind: a value the gate's reader would refuse (an id with a control character, an overlong
 * id or evidence item, a bad metric) is refused at import, exit status 3, naming the file and the
 * place it was read. The first three cases are the hostile corpus's: a NUL from a reviews CSV, a
 * BEL from a SWE-Bench Pro id, a newline and U+202E from an Inspect sample id.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/core/errors.js";
import { exportLines } from "../../src/importers/export-rows.js";
import { importText, parseTaskList } from "../../src/importers/index.js";
import type { ImportOptions } from "../../src/importers/types.js";
import { checkExportValues, idProblem, placeOf } from "../../src/importers/written-values.js";
import { readDataset } from "../../src/read/read-dataset.js";
import { cliInProcess } from "../helpers/run-cli.js";
import { inputErrorOf } from "./helpers.js";

function problemsOf(f: () => unknown): { file?: string; line?: number; field?: string; message: string }[] {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return (e as InputError).problems.map((p) => ({
      ...(p.location?.file !== undefined ? { file: p.location.file } : {}),
      ...(p.location?.line !== undefined ? { line: p.location.line } : {}),
      ...(p.field !== undefined ? { field: p.field } : {}),
      message: p.message,
    }));
  }
  throw new Error("expected an InputError");
}

const inspectLog = (id: string) =>
  JSON.stringify({
    version: 2,
    status: "success",
    eval: { task: "t", model: "m", dataset: { name: "d" }, config: {} },
    samples: [
      { id: "ok-1", epoch: 1, scores: { match: { value: "C" } } },
      { id, epoch: 1, scores: { match: { value: "I" } } },
    ],
  });

describe("the hostile corpus's three cases are refused at import, located", () => {
  it("reviews-csv: a NUL in a task id names the file, the line and the field", () => {
    const text = "task_id,validity\nacme__a-1,valid\nacme\u0000__a-2,broken\n";
    const p = problemsOf(() => importText({ kind: "reviews-csv", file: "sheet.csv" }, text, undefined));
    expect(p).toEqual([
      {
        file: "sheet.csv",
        line: 3,
        message: expect.stringContaining(
          'task_id "acme\\u0000__a-2" holds a NUL (U+0000) at character 5',
        ) as string,
      },
    ]);
  });

  it("swebench-pro: a BEL in an instance id names the JSON Pointer (in URI-fragment form)", () => {
    const text = JSON.stringify({ "acme__a-1": true, "acme__a\u0007-2": false });
    const p = problemsOf(() =>
      importText({ kind: "swebench-pro", file: "traj/r/eval_results.json" }, text, undefined),
    );
    expect(p).toEqual([
      {
        file: "traj/r/eval_results.json",
        field: "/acme__a%07-2",
        message: expect.stringContaining(
          'task_id "acme__a\\u0007-2" holds a control character (U+0007) at character 8',
        ) as string,
      },
    ]);
  });

  it("inspect: a newline and a right-to-left override in a sample id name the sample's id field", () => {
    const p = problemsOf(() =>
      importText({ kind: "inspect", file: "log.json" }, inspectLog("evil\n\u202eid"), undefined),
    );
    expect(p).toEqual([
      {
        file: "log.json",
        field: "/samples/1/id",
        message: expect.stringContaining(
          'task_id "evil\\n\\u202eid" holds a line break (U+000A) at character 5',
        ) as string,
      },
    ]);
    const rlo = problemsOf(() =>
      importText({ kind: "inspect", file: "log.json" }, inspectLog("evil\u202eid"), undefined),
    );
    expect(rlo[0]?.message).toContain("holds a bidirectional control (U+202E) at character 5");
  });

  it("the CLI exits 3 with the message and writes nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "written-values-"));
    writeFileSync(join(dir, "sheet.csv"), "task_id,validity\nacme\u0000__a-2,broken\n");
    const r = await cliInProcess(["import", "reviews-csv", "sheet.csv", "-o", "out.jsonl"], dir);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("sheet.csv:2:");
    expect(r.stderr).toContain("holds a NUL (U+0000)");
    expect(r.stderr).not.toContain("\u0000");
  });
});

describe("every kind, every written value", () => {
  it("a task of the --tasks list with a control character names the list's line", () => {
    const tasks = parseTaskList("tasks.txt", "acme__a-1\nacme__a\u001b-2\n");
    const p = problemsOf(() =>
      importText({ kind: "swebench-pro", file: "e.json", tasks: "tasks.txt" }, '{"acme__a-1": true}', tasks),
    );
    expect(p).toEqual([
      {
        file: "tasks.txt",
        line: 2,
        message: expect.stringContaining("holds a control character (U+001B) at character 8") as string,
      },
    ]);
  });

  it("leaderboard ids, annotation ids and a reviewer too; the first 20 are listed with the total", () => {
    const lb = JSON.stringify({
      leaderboards: [
        {
          name: "V",
          results: [{ folder: "r", per_instance_details: { "acme__a\u0085-1": { resolved: true } } }],
        },
      ],
    });
    const p = problemsOf(() => importText({ kind: "swebench-leaderboard", file: "lb.json" }, lb, undefined));
    expect(p[0]?.field).toBe("/leaderboards/0/results/0/per_instance_details/acme__a%C2%85-1/resolved");
    expect(p[0]?.message).toContain("U+0085");
    const va = `instance_id,underspecified,false_negative,other_major_issues\nacme__a\u007f-1,0,0,0\n`;
    const q = problemsOf(() => importText({ kind: "verified-annotations", file: "a.csv" }, va, undefined));
    expect(q[0]).toMatchObject({ file: "a.csv", line: 2 });
    expect(q[0]?.message).toContain("U+007F");
    const sheet = `task_id,validity,reviewer\n${Array.from({ length: 25 }, (_, i) => `t-${i},valid,bo\u0007b`).join("\n")}\n`;
    const m = problemsOf(() => importText({ kind: "reviews-csv", file: "s.csv" }, sheet, undefined));
    expect(m).toHaveLength(20);
    expect(m[0]?.message).toContain('task "t-0": reviewer "bo\\u0007b" holds a control character');
  });

  it("a flag's value is checked too: --model-config with a line break", () => {
    const opts: ImportOptions = { kind: "swebench-pro", file: "e.json", modelConfig: "cfg\nforged" };
    const p = problemsOf(() => importText(opts, '{"acme__a-1": true}', undefined));
    expect(p[0]?.message).toContain('model_config "cfg\\nforged" (--model-config) holds a line break');
  });

  it("review notes may hold tabs and line breaks (the reader allows them), not other controls", () => {
    const ok = importText(
      { kind: "reviews-csv", file: "s.csv" },
      'task_id,validity,note\nt-1,valid,"two\tcols\r\nand a line"\n',
      undefined,
    );
    expect(ok.lines).toHaveLength(1);
    const p = problemsOf(() =>
      importText(
        { kind: "reviews-csv", file: "s.csv" },
        "task_id,validity,note\nt-1,valid,bell\u0007\n",
        undefined,
      ),
    );
    expect(p[0]?.message).toContain('task "t-1": note holds a control character (U+0007) at character 5');
  });

  it("metrics: a name outside [a-z][a-z0-9_]{0,63}, a negative or non-finite value is refused", () => {
    const row = { task_id: "t", result: "pass" as const, evidence: ["f.json#/0"] };
    const shared = [{ field: "model_config", value: "m", from: "--model-config" }];
    const message = (metrics: Record<string, number>) =>
      problemsOf(() => {
        checkExportValues([{ ...row, metrics }], shared, "f.json");
      })[0]?.message;
    expect(message({ Cost: 1 })).toContain('metric name "Cost" does not match');
    expect(message({ [`a${"b".repeat(64)}`]: 1 })).toContain("does not match");
    expect(message({ cost_usd: -0.5 })).toContain("metrics.cost_usd: expected a number ≥ 0, found -0.5");
    expect(message({ cost_usd: Number.NaN })).toContain("expected a finite number ≥ 0, found NaN");
    expect(() => {
      checkExportValues([{ ...row, metrics: { [`a${"b".repeat(63)}`]: 0 } }], shared, "f");
    }).not.toThrow();
  });

  it("one attempt written twice with two results is refused (a net under each importer's own check)", () => {
    const rows = [
      { task_id: "t", attempt: 1, result: "pass" as const, evidence: ["f.json#/a"] },
      { task_id: "t", attempt: 1, result: "fail" as const, evidence: ["f.json#/b"] },
    ];
    const p = problemsOf(() => {
      checkExportValues(rows, [], "f.json");
    });
    expect(p[0]).toMatchObject({ file: "f.json", field: "/b" });
    expect(p[0]?.message).toContain(
      'attempt "1" would be written twice, as pass (from f.json#/a) and as fail',
    );
  });
});

describe("the import's rule agrees with the reader's", () => {
  // Every character the reader refuses in an id, the import refuses; the import refuses the
  // bidirectional controls besides (docs/importers.md says why).
  const readerRefuses = ["\u0000", "\u0007", "\t", "\n", "\r", "\u001f", "\u007f", "\u0080", "\u009f"];
  const onlyImportRefuses = ["\u200e", "\u200f", "\u2028", "\u2029", "\u202a", "\u202e", "\u2066", "\u2069"];
  const allowed = ["é", "\u00a0", "\u00ad", "\u200b", "\u2060", "\ufeff", "😀", " "];

  async function readerAccepts(taskId: string): Promise<boolean> {
    const dir = mkdtempSync(join(tmpdir(), "written-values-reader-"));
    const lines = exportLines(
      [
        { task_id: taskId, result: "pass", evidence: [] },
        { task_id: "t-2", result: "fail", evidence: [] },
      ],
      { datasetRevision: "d", harnessRevision: "h", modelConfig: "a", validity: "valid", reviewRevision: 0 },
    );
    const other = lines.map((l) => l.replace('"model_config":"a"', '"model_config":"b"'));
    writeFileSync(join(dir, "e.jsonl"), [...lines, ...other].join("\n") + "\n");
    try {
      await readDataset({ results: [join(dir, "e.jsonl")], reviews: [], baseline: "a", candidate: "b" });
      return true;
    } catch (e) {
      if (e instanceof InputError) return false;
      throw e;
    }
  }

  it.each(readerRefuses.map((c) => [c]))("%j: the reader refuses it, so does the import", async (c) => {
    expect(await readerAccepts(`a${c}b`)).toBe(false);
    expect(idProblem(`a${c}b`)).not.toBeNull();
  });
  it.each(onlyImportRefuses.map((c) => [c]))(
    "%j: the reader accepts it, the import refuses it",
    async (c) => {
      expect(await readerAccepts(`a${c}b`)).toBe(true);
      expect(idProblem(`a${c}b`)).toMatch(/holds a (bidirectional control|line break) \(U\+20[0-9A-F]{2}\)/);
    },
  );
  it.each(allowed.map((c) => [c]))("%j: both accept it", async (c) => {
    expect(await readerAccepts(`a${c}b`)).toBe(true);
    expect(idProblem(`a${c}b`)).toBeNull();
  });
});

describe("placeOf: the place named when a row gives none", () => {
  it("reads the file and fragment of the first evidence item", () => {
    expect(placeOf(undefined, ["a/b.json#/x/0"], "f")).toEqual({ file: "a/b.json", field: "/x/0" });
    expect(placeOf(undefined, ["tasks#1.txt#L7"], "f")).toEqual({ file: "tasks#1.txt", line: 7 });
    expect(placeOf(undefined, ["plain.json"], "f")).toEqual({ file: "plain.json" });
    expect(placeOf(undefined, [], "f")).toEqual({ file: "f" });
    expect(placeOf({ file: "g", line: 2 }, ["a#/x"], "f")).toEqual({ file: "g", line: 2 });
  });
});

it("inputErrorOf sees the same message through the async path", async () => {
  const m = await inputErrorOf(() =>
    importText({ kind: "swebench-pro", file: "e.json" }, JSON.stringify({ "a\u0007": true }), undefined),
  );
  expect(m).toContain("e.json: cannot import: the gate would refuse what the import would write");
});
