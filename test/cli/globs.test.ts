/**
 * File patterns on the command line (src/io/glob.ts expandFileArgs): a quoted `--results
 * 'runs/*.jsonl'`, as a workflow writes it, is expanded as the action expands its inputs —
 * matches sorted, every file once, a pattern that matches nothing an error (exit 3) naming it —
 * for every file flag of evaluate and rank; the policy is one file, never a pattern.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Report } from "../../src/core/report/report-types.js";
import { expandFileArgs } from "../../src/io/glob.js";
import { cliBundle, cliInProcess } from "../helpers/run-cli.js";
import {
  BASELINE,
  CANDIDATE,
  exportLines,
  many,
  SMALL_POLICY,
  tempDir,
  writeLines,
  writePolicy,
} from "../helpers/export-writer.js";

/** A workspace: runs/b.jsonl and runs/a.jsonl (one export split in two), reviews/, a policy. */
function workspace(): string {
  const dir = tempDir("gate-globs-");
  mkdirSync(join(dir, "runs"));
  mkdirSync(join(dir, "reviews"));
  const lines = exportLines(many(30, "t", { validity: "valid", a: ["pass"], b: ["fail"] }));
  writeLines(join(dir, "runs"), lines.slice(0, 30), "b.jsonl");
  writeLines(join(dir, "runs"), lines.slice(30), "a.jsonl");
  writeLines(join(dir, "reviews"), [], "r1.jsonl");
  writePolicy(dir, SMALL_POLICY);
  return dir;
}

const PAIR = ["--policy", "policy.yaml", "--baseline", BASELINE, "--candidate", CANDIDATE];

async function evaluateJson(dir: string, args: readonly string[]) {
  const r = await cliInProcess(["evaluate", ...args, ...PAIR, "--format", "json"], dir);
  return { ...r, report: r.code < 3 ? (JSON.parse(r.stdout) as Report) : null };
}

describe("evaluate: file flags take patterns as the action's inputs do", () => {
  it("--results 'runs/*.jsonl' reads both files, sorted, as one export", async () => {
    const dir = workspace();
    const r = await evaluateJson(dir, ["--results", "runs/*.jsonl", "--reviews", "reviews/*.jsonl"]);
    expect(r.stderr).toBe("");
    expect(r.report?.provenance.inputs.map((i) => [i.kind, i.path])).toEqual([
      ["results", "runs/a.jsonl"],
      ["results", "runs/b.jsonl"],
      ["reviews", "reviews/r1.jsonl"],
    ]);
    expect(r.report?.comparison.common_valid_tasks).toBe(30);
  });

  it("a file named twice (by a pattern and by its path) is read once, where it first comes", async () => {
    const dir = workspace();
    const r = await evaluateJson(dir, ["--results", "runs/b.jsonl", "runs/**", "./runs/a.jsonl"]);
    expect(r.report?.provenance.inputs.map((i) => i.path)).toEqual(["runs/b.jsonl", "runs/a.jsonl"]);
    expect(r.report?.models.candidate.duplicate_rows).toBe(0);
  });

  it("a pattern that matches nothing is an input error naming the flag and the pattern (exit 3)", async () => {
    const dir = workspace();
    for (const [flag, pattern] of [
      ["--results", "runs/*.jsonl.gz"],
      ["--reviews", "reviews/**/*.csv"],
      ["--previous-results", "old/*.jsonl"],
      ["--since-results", "last/*.jsonl"],
    ] as const) {
      const args = flag === "--results" ? [flag, pattern] : ["--results", "runs/a.jsonl", flag, pattern];
      const r = await evaluateJson(dir, args);
      expect(r.code).toBe(3);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(`${flag} "${pattern}" matches no file`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it("the policy is one file: a pattern is refused as the action refuses it", async () => {
    const dir = workspace();
    const r = await cliInProcess(
      [
        "evaluate",
        "--results",
        "runs/a.jsonl",
        "--policy",
        "*.yaml",
        "--baseline",
        BASELINE,
        "--candidate",
        CANDIDATE,
      ],
      dir,
    );
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('--policy must be one file, not a pattern ("*.yaml")');
  });
});

describe("the bundle, as a workflow runs it", () => {
  it("dist/cli.js expands a quoted pattern and names one that matches nothing (exit 3)", () => {
    const dir = workspace();
    const ok = cliBundle(["evaluate", "--results", "runs/*.jsonl", ...PAIR, "--format", "json"], dir);
    expect(ok.stderr).toBe("");
    const report = JSON.parse(ok.stdout) as Report;
    expect(report.provenance.inputs.map((i) => i.path)).toEqual(["runs/a.jsonl", "runs/b.jsonl"]);
    const none = cliBundle(["evaluate", "--results", "out/*.jsonl", ...PAIR], dir);
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('--results "out/*.jsonl" matches no file');
  });
});

describe("rank: the same expansion", () => {
  it("--results 'runs/*.jsonl' ranks on both files", async () => {
    const dir = workspace();
    const r = await cliInProcess(
      ["rank", "--results", "runs/*.jsonl", "--policy", "policy.yaml", "--format", "json"],
      dir,
    );
    expect(r.code).toBeLessThan(3);
    const report = JSON.parse(r.stdout) as { provenance: { inputs: { path: string }[] } };
    expect(report.provenance.inputs.map((i) => i.path)).toEqual(["runs/a.jsonl", "runs/b.jsonl"]);
    const none = await cliInProcess(["rank", "--results", "none/*.jsonl", "--policy", "policy.yaml"], dir);
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('--results "none/*.jsonl" matches no file');
  });
});

describe("expandFileArgs", () => {
  it("paths stay as given; absolute patterns are shown absolute; matches sorted and deduplicated", () => {
    const dir = workspace();
    expect(expandFileArgs(dir, "--x", ["missing.jsonl"])).toEqual([
      { abs: join(dir, "missing.jsonl"), shown: "missing.jsonl" },
    ]);
    expect(expandFileArgs(dir, "--x", [`${dir}/runs/*.jsonl`, "runs/a.jsonl"]).map((f) => f.shown)).toEqual([
      `${dir}/runs/a.jsonl`,
      `${dir}/runs/b.jsonl`,
    ]);
    expect(expandFileArgs(join(dir, "runs"), "--x", ["../runs/?.jsonl"]).map((f) => f.shown)).toEqual([
      "../runs/a.jsonl",
      "../runs/b.jsonl",
    ]);
  });
});
