// action.yml, the code and docs/action.md must agree on every input and output.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { OUTPUT_NAMES } from "../../src/action/outputs.js";
import { readInputs } from "../../src/action/inputs.js";
import { readRankActionInputs } from "../../src/action/rank-inputs.js";
import { RANK_OUTPUT_NAMES } from "../../src/action/rank-mode.js";
import { InputError } from "../../src/core/errors.js";

const ROOT = resolve(import.meta.dirname, "../..");
const action = parse(readFileSync(resolve(ROOT, "action.yml"), "utf8")) as {
  inputs: Record<string, { required?: boolean; default?: string }>;
  outputs: Record<string, unknown>;
  runs: { using: string; main: string };
};

describe("action.yml", () => {
  it("declares exactly the outputs the action sets (evaluate's, then rank mode's own)", () => {
    expect(Object.keys(action.outputs)).toEqual([...new Set([...OUTPUT_NAMES, ...RANK_OUTPUT_NAMES])]);
  });

  it("declares exactly the inputs the action reads", () => {
    const read: string[] = [];
    for (const readAll of [readInputs, readRankActionInputs]) {
      try {
        readAll(
          (name) => {
            read.push(name);
            return "";
          },
          { workspace: ROOT, runnerTemp: null },
          false,
        );
      } catch (e) {
        expect(e).toBeInstanceOf(InputError);
      }
    }
    expect([...new Set(read)].sort()).toEqual(Object.keys(action.inputs).sort());
  });

  it("runs the committed bundle", () => {
    expect(action.runs).toEqual({ using: "node24", main: "dist/index.js" });
  });

  it("docs/action.md's input and output tables are generated from it", () => {
    expect(() =>
      execFileSync(process.execPath, ["scripts/gen-action-docs.mjs", "--check"], {
        cwd: ROOT,
        stdio: "pipe",
      }),
    ).not.toThrow();
  });
});
