// The two-benchmark example (examples/benchmarks/): reproducible from the committed generator,
// and the gate decides it as its README says.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const dir = join(root, "examples", "benchmarks");
const cli = process.env["GATE_CLI"] ?? join(root, "dist", "cli.js");

const COMMON = "--attempts 1 --lift 0.6 --no-extras --mix valid:0.95,broken:0.04,disputed:0.01 --relabel 0 --infra-rate 0 --missing-rate 0 --lost-rate 0 --quiet".split(" ");

function generate(seed: string, tasks: string, benchmark: string): string {
  const r = spawnSync(process.execPath, [join(root, "scripts", "generate-export.mjs"), "--seed", seed, "--tasks", tasks, ...COMMON, "--benchmark", benchmark], {
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

interface GateRun {
  status: number | null;
  json: {
    verdict: string;
    benchmarks: {
      name: string;
      verdict: string;
      canary: boolean;
      common_valid_tasks: number;
      report: { provenance: { harness_revisions: string[] } };
    }[];
  };
}

function gate(...extra: string[]): GateRun {
  const args = ["evaluate", "--results", join(dir, "public.jsonl.gz"), "--results", join(dir, "canary.jsonl.gz")];
  args.push("--policy", join(dir, "policy.yaml"), "--baseline", "cfg-baseline", "--candidate", "cfg-candidate");
  args.push("--today", "2026-12-01", "--format", "json", ...extra);
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", maxBuffer: 1 << 26 });
  return { status: r.status, json: JSON.parse(r.stdout) as GateRun["json"] };
}

describe("examples/benchmarks", () => {
  it("the files are the generator's", () => {
    const read = (name: string) => gunzipSync(readFileSync(join(dir, name))).toString("utf8");
    expect(read("public.jsonl.gz")).toBe(generate("1", "500", "swe-verified"));
    expect(read("canary.jsonl.gz")).toBe(generate("2", "150", "private-canary"));
  });

  it("the gate accepts on both benchmarks, and rejects with a failed canary", () => {
    const r = gate();
    expect(r.status).toBe(0);
    expect(r.json.verdict).toBe("accept");
    expect(r.json.benchmarks.map((b) => [b.name, b.verdict, b.canary, b.common_valid_tasks])).toStrictEqual([
      ["private-canary", "accept", true, 142],
      ["swe-verified", "accept", false, 475],
    ]);
    // The canary ran on its own harness: each benchmark's harness check passes on its own rows.
    const harness = r.json.benchmarks.map((b) => b.report.provenance.harness_revisions);
    expect(harness).toStrictEqual([["git:b71a4caa6226042da5ad745b79bdf7ee44d8edc8"], ["git:b7a68d2ffab327f3b3d48af308186131452543b1"]]);
    const failed = gate("--canary", "fail");
    expect([failed.status, failed.json.verdict]).toStrictEqual([1, "reject"]);
  });
});
