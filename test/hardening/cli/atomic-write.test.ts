/**
 * The report file is written atomically (src/io/atomic-write.ts: temp file in the same directory,
 * then rename). A run that fails, a rename that fails and a process killed mid-write never leave a
 * half-written report where a previous good one stood, and a failed write leaves no temp file.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { afterEach, describe, expect, it, vi } from "vitest";

import {
  BASE,
  evaluateArgs,
  expectUserError,
  jsonl,
  row,
  runBundle,
  useScratch,
  SMALL_POLICY,
} from "../helpers.js";

const renameFault = vi.hoisted(() => ({ error: undefined as Error | undefined }));
vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>();
  return {
    ...actual,
    rename: async (from: string, to: string): Promise<void> => {
      if (renameFault.error !== undefined) throw renameFault.error;
      await actual.rename(from, to);
    },
  };
});

const { writeFileAtomic } = await import("../../../src/io/atomic-write.js");

const scratch = useScratch("gate-atomic-");
afterEach(() => {
  renameFault.error = undefined;
});

const GOOD = '{"verdict":"accept","previous":true}\n';

/** A fresh directory holding a previous good report. */
function withPreviousReport(name: string): { dir: string; report: string } {
  const dir = scratch.path(name);
  mkdirSync(dir);
  const report = join(dir, "report.json");
  writeFileSync(report, GOOD);
  return { dir, report };
}

describe("writeFileAtomic", () => {
  it("replaces the file whole", async () => {
    const { dir, report } = withPreviousReport("replace");
    await writeFileAtomic(report, "new\n");
    expect(readFileSync(report, "utf8")).toBe("new\n");
    expect(readdirSync(dir)).toEqual(["report.json"]);
  });

  it("when the rename fails (EXDEV, EIO, …): the previous report is untouched and the temp file removed", async () => {
    const { dir, report } = withPreviousReport("rename-fails");
    renameFault.error = Object.assign(new Error("EIO: i/o error, rename"), { code: "EIO" });
    await expect(writeFileAtomic(report, "x".repeat(1_000_000))).rejects.toThrow("EIO");
    expect(readFileSync(report, "utf8")).toBe(GOOD);
    expect(readdirSync(dir)).toEqual(["report.json"]);
  });

  it("when the temp file cannot be written (no such directory): nothing is created", async () => {
    const missing = scratch.path("no/such/dir/report.json");
    await expect(writeFileAtomic(missing, "x")).rejects.toThrow("ENOENT");
    expect(existsSync(scratch.path("no"))).toBe(false);
  });

  it("when the target is a directory: the directory is untouched and the temp file removed", async () => {
    const { dir } = withPreviousReport("target-is-dir");
    const target = join(dir, "sub");
    mkdirSync(target);
    await expect(writeFileAtomic(target, "x")).rejects.toThrow();
    expect(readdirSync(dir).sort()).toEqual(["report.json", "sub"]);
    expect(readdirSync(target)).toEqual([]);
  });

  it("a process killed while writing 256 MB leaves the previous report or the new one, never a part", async () => {
    const { dir, report } = withPreviousReport("killed");
    const size = 256 * 1024 * 1024;
    // The source itself, transpiled, in a child process that can be killed.
    const source = readFileSync(new URL("../../../src/io/atomic-write.ts", import.meta.url), "utf8");
    const module = scratch.write(
      ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      }).outputText,
      "atomic-write.mjs",
    );
    const script = `
      const { writeFileAtomic } = await import(${JSON.stringify(module)});
      await writeFileAtomic(${JSON.stringify(report)}, Buffer.alloc(${size}, 0x61));
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: "ignore" });
    // Kill it as soon as its temp file exists (i.e. mid-write), or whenever it gets there.
    let killedWhileTempExisted = false;
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (readdirSync(dir).some((f) => f.endsWith(".tmp"))) {
          killedWhileTempExisted = true;
          child.kill("SIGKILL");
          clearInterval(poll);
        }
      }, 1);
      child.on("exit", () => {
        clearInterval(poll);
        resolve();
      });
    });
    expect(killedWhileTempExisted).toBe(true);
    const content = readFileSync(report);
    // Either untouched or complete: a rename is atomic, so no reader ever sees a prefix.
    expect(content.length === Buffer.byteLength(GOOD) ? content.toString("utf8") : content.length).toBe(
      content.length === Buffer.byteLength(GOOD) ? GOOD : size,
    );
    if (killedWhileTempExisted && content.length !== size) {
      // SIGKILL cannot run cleanup: the temp file (named .report.json.<pid>.<random>.tmp) may remain.
      expect(
        readdirSync(dir)
          .filter((f) => f !== "report.json")
          .every((f) => /^\.report\.json\.\d+\.[0-9a-f]{12}\.tmp$/.test(f)),
      ).toBe(true);
    }
  });
});

describe("the CLI's --report", () => {
  const results = scratch.write(
    jsonl(
      Array.from({ length: 6 }, (_, i) => [
        row({ task_id: `t-${i}` }),
        row({ task_id: `t-${i}`, model_config: BASE, result: "fail" }),
      ]).flat(),
    ),
    "results.jsonl",
  );
  const policy = scratch.write(SMALL_POLICY, "policy.yaml");

  it("a run that fails with exit 3 leaves the previous report untouched and no temp file", () => {
    const { dir, report } = withPreviousReport("cli-exit3");
    const bad = scratch.write(jsonl([row(), "{not json"]), "bad.jsonl");
    expectUserError(
      runBundle(evaluateArgs([bad], policy, ["--report", report])),
      `${bad}:2: expected a JSON object`,
    );
    expect(readFileSync(report, "utf8")).toBe(GOOD);
    expect(readdirSync(dir)).toEqual(["report.json"]);
  });

  it("a policy error (exit 3) leaves it untouched too", () => {
    const { dir, report } = withPreviousReport("cli-policy");
    const badPolicy = scratch.write("owner: x\n", "bad-policy.yaml");
    expectUserError(
      runBundle(evaluateArgs([results], badPolicy, ["--report", report])),
      "missing required key",
    );
    expect(readFileSync(report, "utf8")).toBe(GOOD);
    expect(readdirSync(dir)).toEqual(["report.json"]);
  });

  it("a good run replaces it whole with the report JSON, byte-identical to --format json", () => {
    const { dir, report } = withPreviousReport("cli-good");
    const r = runBundle(evaluateArgs([results], policy, ["--report", report, "--format", "json"]));
    expect(r.code).toBe(0);
    expect(readFileSync(report, "utf8")).toBe(r.stdout);
    expect(readdirSync(dir)).toEqual(["report.json"]);
  });

  it("a report path that is a directory: exit 3, nothing changed, no temp file", () => {
    const { dir } = withPreviousReport("cli-dir");
    const r = runBundle(evaluateArgs([results], policy, ["--report", dir]));
    expectUserError(
      r,
      `Refusing to write --report ${dir}: it is a directory; only a regular file is replaced. Nothing was read or written.`,
    );
    expect(readdirSync(dir)).toEqual(["report.json"]);
    expect(readFileSync(join(dir, "report.json"), "utf8")).toBe(GOOD);
  });
});
