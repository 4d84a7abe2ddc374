/**
 * The importers' JSON documents (#11, "more of the same kind"): a key given twice in one object is
 * a located error, not the last value (JSON.parse's silent choice), in every JSON kind; nesting
 * that a broken file makes deep is a located error, not "Maximum call stack size exceeded".
 */
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, parseJsonFile } from "../../../src/importers/common.js";
import { importText, parseTaskList } from "../../../src/importers/index.js";
import type { ImportOptions } from "../../../src/importers/types.js";
import { inputErrorOf } from "../../importers/helpers.js";

function problemOf(f: () => unknown): {
  message: string;
  line: number | undefined;
  column: number | undefined;
} {
  try {
    f();
  } catch (e) {
    const p = (e as { problems?: { message: string; location?: { line?: number; column?: number } }[] })
      .problems?.[0];
    return { message: p?.message ?? String(e), line: p?.location?.line, column: p?.location?.column };
  }
  throw new Error("expected an error");
}

describe("a key given twice in one object", () => {
  const cases: readonly (readonly [kind: string, file: string, text: string, key: string])[] = [
    ["swebench-pro", "eval_results.json", '{\n  "acme__a-1": true,\n  "acme__a-1": false\n}', "acme__a-1"],
    [
      "swebench-report",
      "m.run.json",
      '{"resolved_ids": ["acme__a-1"],\n "unresolved_ids": [],\n "resolved_ids": []}',
      "resolved_ids",
    ],
    [
      "swebench-leaderboard",
      "lb.json",
      '{"leaderboards": [{"name": "V", "results": [{"folder": "r", "per_instance_details":\n' +
        '{"acme__a-1": {"resolved": true, "resolved": false}}}]}]}',
      "resolved",
    ],
    [
      "inspect",
      "log.json",
      '{"version": 2, "status": "success", "eval": {"task": "t", "model": "m", "dataset": {"name": "d"}, "config": {}},\n' +
        '"samples": [{"id": 1, "epoch": 1, "scores": {"match": {"value": "C"}, "match": {"value": "I"}}}]}',
      "match",
    ],
    [
      "swebench-results",
      "results.json",
      '{"resolved": [], "no_logs": [],\n"resolved": ["acme__a-1"]}',
      "resolved",
    ],
  ];

  it.each(cases)("%s: refused at the repeat, with line and column", async (kind, file, text, key) => {
    const opts = { kind, file } as ImportOptions;
    const tasks = kind === "swebench-results" ? parseTaskList("tasks.txt", "acme__a-1\n") : undefined;
    const m = await inputErrorOf(() => importText(opts, text, tasks));
    expect(m).toContain(`${file}: not valid JSON`);
    expect(m).toContain(`the key ${JSON.stringify(key)} is given twice in one object`);
  });

  it("the location is the second occurrence; escaped keys are compared decoded", () => {
    const p = problemOf(() => parseJsonFile("f.json", '{"a": 1,\n  "\\u0061": 2}'));
    expect(p).toEqual({
      message:
        'the key "a" is given twice in one object; expected each key once (which value was meant would be a guess)',
      line: 2,
      column: 3,
    });
  });

  it("the same key in different objects, keys that are values, and escaped quotes are fine", () => {
    const text = '{"a": {"a": "a:"}, "b": ["a", {"a": "\\"a\\": 1"}], "c\\\\": "\\\\", "d": "x\\\\\\"y"}';
    expect(parseJsonFile("f.json", text)).toEqual(JSON.parse(text));
  });

  it("a __proto__ key given twice is refused too; given once it is an ordinary key", () => {
    expect(problemOf(() => parseJsonFile("f.json", '{"__proto__": 1, "__proto__": 2}')).message).toContain(
      'the key "__proto__" is given twice',
    );
    expect(Object.keys(parseJsonFile("f.json", '{"__proto__": 1}') as object)).toEqual(["__proto__"]);
  });
});

describe("deep nesting", () => {
  it("a truncated, deeply nested file: a located error, no stack overflow", () => {
    const p = problemOf(() => parseJsonFile("deep.json", "[".repeat(200_000)));
    expect(p.message).toBe(`nested more than ${MAX_JSON_DEPTH} levels deep`);
    expect(p.column).toBe(MAX_JSON_DEPTH + 1);
  });

  it("a deep but valid file still parses (the walker runs only on a syntax error or a repeat)", () => {
    const text = "[".repeat(5000) + "]".repeat(5000);
    expect(Array.isArray(parseJsonFile("deep.json", text))).toBe(true);
  });

  it("a deeply nested valid file with a repeated key at the bottom: the repeat, located (the key walk does not recurse)", () => {
    const text = '{"x":'.repeat(MAX_JSON_DEPTH + 5) + '{"a":1,"a":2}' + "}".repeat(MAX_JSON_DEPTH + 5);
    expect(problemOf(() => parseJsonFile("deep.json", text))).toEqual({
      message:
        'the key "a" is given twice in one object; expected each key once (which value was meant would be a guess)',
      line: 1,
      column: 5 * (MAX_JSON_DEPTH + 5) + 8,
    });
  });
});
