import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readInputs, splitList, type ActionInputs } from "../../src/action/inputs.js";
import { fileTree } from "../helpers/file-tree.js";
import { inputErrorMessage } from "../helpers/input-error.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function workspace(files: readonly string[]): string {
  const d = fileTree("gate-inputs-", files);
  dirs.push(d);
  return d;
}

function read(
  ws: string,
  given: Record<string, string>,
  onPullRequest = false,
  runnerTemp: string | null = null,
): ActionInputs {
  const inputs: Record<string, string> = {
    results: "r.jsonl",
    policy: "policy.yaml",
    baseline: "b",
    candidate: "a",
    ...given,
  };
  return readInputs((name) => inputs[name] ?? "", { workspace: ws, runnerTemp }, onPullRequest);
}

describe("list inputs", () => {
  it("splits lists on newlines and commas", () => {
    expect(splitList(" a.jsonl,\n b.jsonl \n\n,c.jsonl ")).toEqual(["a.jsonl", "b.jsonl", "c.jsonl"]);
  });
});

describe("readInputs", () => {
  it("resolves paths and globs inside the workspace, sorted and de-duplicated", () => {
    const ws = workspace([
      "policy.yaml",
      "r.jsonl",
      "out/x/2.jsonl",
      "out/1.jsonl",
      "out/skip.txt",
      "rev.jsonl",
    ]);
    const inputs = read(ws, {
      results: "out/**/*.jsonl\nr.jsonl, out/1.jsonl",
      reviews: "rev.jsonl",
      canary: "pass",
    });
    expect(inputs.results).toEqual([join(ws, "out/1.jsonl"), join(ws, "out/x/2.jsonl"), join(ws, "r.jsonl")]);
    expect(inputs.reviews).toEqual([join(ws, "rev.jsonl")]);
    expect(inputs.policy).toEqual({ absPath: join(ws, "policy.yaml"), repoPath: "policy.yaml" });
    expect(inputs.canary).toBe("pass");
    expect(inputs.comment).toBe("always");
    expect(inputs.failOn).toBe("reject-or-unresolved");
    expect(inputs.checkName).toBe("Model acceptance gate");
    expect(inputs.reportPath).toBe(join(ws, "model-gate-report.json"));
  });

  it("puts the report in RUNNER_TEMP by default and resolves report-path in the workspace", () => {
    const ws = workspace(["policy.yaml", "r.jsonl"]);
    expect(read(ws, {}, false, "/runner/temp").reportPath).toBe("/runner/temp/model-gate-report.json");
    expect(read(ws, { "report-path": "out/report.json" }, false, "/runner/temp").reportPath).toBe(
      join(ws, "out/report.json"),
    );
  });

  it("refuses paths outside the workspace, symlinks that escape it, directories and missing files", () => {
    const ws = workspace(["policy.yaml", "r.jsonl"]);
    const outside = workspace(["secret.jsonl"]);
    symlinkSync(join(outside, "secret.jsonl"), join(ws, "link.jsonl"));
    mkdirSync(join(ws, "dir.jsonl"));
    const msg = inputErrorMessage(() =>
      read(ws, { results: `../x.jsonl\n${outside}/secret.jsonl\nlink.jsonl\ndir.jsonl\nnone.jsonl\n*.csv` }),
    );
    expect(msg).toBe(
      [
        "The action's inputs are invalid (6 problems):",
        '  field "results": "../x.jsonl" is outside GITHUB_WORKSPACE; inputs must be files of the workspace',
        `  field "results": "${outside}/secret.jsonl" is outside GITHUB_WORKSPACE; inputs must be files of the workspace`,
        '  field "results": "link.jsonl" resolves outside GITHUB_WORKSPACE; inputs must be files of the workspace',
        '  field "results": "dir.jsonl" is not a regular file',
        '  field "results": "none.jsonl" does not exist',
        '  field "results": "*.csv" matches no file in GITHUB_WORKSPACE',
      ].join("\n"),
    );
  });

  it("refuses a glob match whose symlink leaves the workspace", () => {
    const ws = workspace(["policy.yaml", "r.jsonl"]);
    const outside = workspace(["secret.jsonl"]);
    symlinkSync(join(outside, "secret.jsonl"), join(ws, "z.jsonl"));
    expect(inputErrorMessage(() => read(ws, { results: "*.jsonl" }))).toContain(
      '"z.jsonl" resolves outside GITHUB_WORKSPACE',
    );
  });

  it("validates enumerations and required inputs, all problems at once", () => {
    const ws = workspace(["policy.yaml", "r.jsonl"]);
    const msg = inputErrorMessage(() =>
      read(ws, {
        comment: "sometimes",
        "fail-on": "unresolved",
        canary: "passed",
        baseline: "",
        candidate: " ",
      }),
    );
    expect(msg).toBe(
      [
        "The action's inputs are invalid (5 problems):",
        '  field "baseline": is required',
        '  field "candidate": is required',
        '  field "canary": must be one of "pass", "fail", got "passed"',
        '  field "comment": must be one of "always", "on-change", "never", got "sometimes"',
        '  field "fail-on": must be one of "reject", "reject-or-unresolved", "never", got "unresolved"',
      ].join("\n"),
    );
  });

  it("needs the policy file in the checkout only outside a pull request", () => {
    const ws = workspace(["r.jsonl"]);
    expect(inputErrorMessage(() => read(ws, { policy: "gate/policy.yaml" }))).toContain(
      'field "policy": "gate/policy.yaml" does not exist',
    );
    expect(read(ws, { policy: "gate/policy.yaml" }, true).policy.repoPath).toBe("gate/policy.yaml");
    expect(inputErrorMessage(() => read(ws, { policy: "../policy.yaml" }, true))).toContain(
      '"../policy.yaml" is outside GITHUB_WORKSPACE',
    );
  });

  it("refuses the same model as baseline and candidate", () => {
    const ws = workspace(["policy.yaml", "r.jsonl"]);
    expect(inputErrorMessage(() => read(ws, { baseline: "m", candidate: "m" }))).toContain(
      'field "candidate": must differ from baseline (both are "m")',
    );
  });
});
