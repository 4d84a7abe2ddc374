/**
 * An internal error in a bundle prints a stack that names src/ files and lines, not offsets in
 * dist/*.js: scripts/package.mjs writes dist/*.js.map and src/source-mapped-stack.ts maps the
 * frames. The bug is injected from outside (a preloaded module makes Date#toISOString throw), so
 * the bundles carry no test hook; the frame that called it must point at the line in src/ that
 * calls toISOString (src/index.ts) or at least its file and function (evaluate-command.ts).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

import { exportText, policyYaml, tasks } from "../action/exports.js";
import { gateInputs, LOCAL_FILES, runDist, useFakeGitHub } from "../action/run-action.js";
import { runBundle } from "../hardening/helpers.js";

const root = resolve(import.meta.dirname, "../..");
// No spaces or double quotes: it also goes through NODE_OPTIONS, which splits on them.
const INJECT =
  "--import=data:text/javascript,Date.prototype.toISOString=function(){throw%20new%20Error('injected%20fault')}";

/** 1-based line of `needle` in a source file (exactly one). */
function lineOf(file: string, needle: string): number {
  const lines = readFileSync(resolve(root, file), "utf8").split("\n");
  const hits = lines.flatMap((l, i) => (l.includes(needle) ? [i + 1] : []));
  expect(hits).toHaveLength(1);
  return hits[0] ?? 0;
}

const fakes = useFakeGitHub();

describe("an internal error's stack points at src/", () => {
  it("dist/cli.js (exit 4; the stack with MODEL_GATE_DEBUG=1)", () => {
    const r = runBundle(
      [
        "evaluate",
        "--results",
        "examples/results.jsonl.gz",
        "--policy",
        "policy.example.yaml",
        "--baseline",
        "cfg-baseline",
        "--candidate",
        "cfg-candidate",
      ],
      { cwd: root, nodeArgs: [INJECT], env: { MODEL_GATE_DEBUG: "1" } },
    );
    expect(r.code).toBe(4);
    expect(r.stderr).toContain("model-gate: internal error: injected fault");
    // ncc writes line-level maps (webpack's cheap-module-source-map), which drift by a line or
    // two after a multi-line template literal, as in evaluate-command.ts: the file and function
    // are exact, the line is within 2.
    const line = lineOf("src/cli/evaluate-command.ts", "toISOString()");
    const frame = new RegExp(`at todayUtc \\(${resolve(root, "src/cli/evaluate-command.ts")}:(\\d+):\\d+\\)`);
    const mapped = Number(frame.exec(r.stderr)?.[1]);
    expect(Math.abs(mapped - line)).toBeLessThanOrEqual(2);
    expect(r.stderr).toMatch(new RegExp(`${resolve(root, "src/cli/main.ts")}:\\d+:\\d+`));
    // Our functions' frames are all mapped (webpack's own bootstrap frames may stay in dist/).
    expect(r.stderr).not.toMatch(/at (todayUtc|evaluateCommand|runCli) \(file:/);
  });

  it("dist/index.js (the step fails; the stack in the debug log)", async () => {
    const fake = await fakes.start();
    const r = await runDist({
      fake,
      event: "push",
      inputs: gateInputs(LOCAL_FILES),
      env: { "INPUT_GITHUB-TOKEN": "", NODE_OPTIONS: INJECT },
      files: {
        "results.jsonl": exportText(tasks(30, "t", { validity: "valid", a: "pass", b: "fail" })),
        "policy.yaml": policyYaml(),
      },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^::error::Internal error in model-acceptance-gate: injected fault\./m);
    const debug = r.stdout.split("\n").filter((l) => l.startsWith("::debug::Error: injected fault"));
    expect(debug).toHaveLength(1);
    const line = lineOf("src/index.ts", "toISOString()");
    expect(debug[0]).toContain(`${resolve(root, "src/index.ts")}:${line}:`);
    expect(debug[0]).not.toContain("dist/index.js");
  });
});
