/** Same inputs, byte-identical report; row order does not change any figure. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TOOL_VERSION } from "../../src/version.js";
import { BASELINE, CANDIDATE, exportLines, many, tempDir, writePolicy } from "../helpers/export-writer.js";
import { cliInProcess } from "../helpers/run-cli.js";

const tasks = [
  ...many(30, "v-a", { validity: "valid", a: ["pass", "pass"], b: ["fail", "pass"] }),
  ...many(20, "v-b", { validity: "valid", a: ["fail", "fail"], b: ["pass", "fail"] }),
  ...many(5, "u", { validity: "disputed", a: ["pass", "fail"], b: ["fail", "fail"] }),
  ...many(3, "x", { validity: "broken", a: ["pass", "infra_error"], b: ["fail", "fail"] }),
];

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

async function run(dir: string, lines: string[], extra: string[] = []) {
  const results = join(dir, "results.jsonl");
  writeFileSync(results, lines.join("\n") + "\n");
  const argv = ["evaluate", "--results", results, "--policy", writePolicy(dir), "--baseline", BASELINE];
  return cliInProcess([...argv, "--candidate", CANDIDATE, "--today", "2026-11-29", ...extra]);
}

describe("determinism", () => {
  it("two runs on the same files give byte-identical JSON and Markdown", async () => {
    const dir = tempDir();
    const lines = exportLines(tasks);
    const [j1, j2] = [
      await run(dir, lines, ["--format", "json"]),
      await run(dir, lines, ["--format", "json"]),
    ];
    expect(j1.stdout).toBe(j2.stdout);
    const [m1, m2] = [await run(dir, lines), await run(dir, lines)];
    expect(m1.stdout).toBe(m2.stdout);
    expect(m1.stdout.length).toBeGreaterThan(100);
  });

  it("--report writes the same JSON that --format json prints", async () => {
    const dir = tempDir();
    const out = join(dir, "report.json");
    const r = await run(dir, exportLines(tasks), ["--format", "json", "--report", out]);
    expect(readFileSync(out, "utf8")).toBe(r.stdout);
  });

  it("shuffling the rows changes no figure (only the input's sha256)", async () => {
    const lines = exportLines(tasks);
    const a = JSON.parse((await run(tempDir(), lines, ["--format", "json"])).stdout) as Record<
      string,
      unknown
    >;
    const b = JSON.parse((await run(tempDir(), shuffled(lines, 7), ["--format", "json"])).stdout) as Record<
      string,
      unknown
    >;
    for (const key of ["verdict", "reasons", "checks", "comparison", "models", "broken_tasks"]) {
      expect(b[key]).toEqual(a[key]);
    }
    expect(a["schema_version"]).toBeTypeOf("string");
    expect((a["provenance"] as { tool_version: string }).tool_version).toBe(TOOL_VERSION);
  });

  it("the tool version equals package.json's", async () => {
    const { version } = (await import("../../package.json", { with: { type: "json" } })).default;
    expect(TOOL_VERSION).toBe(version);
  });
});
