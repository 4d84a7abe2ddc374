/**
 * The bundles find and start dist/range-worker.js for a large export (src/read/read-threads.ts),
 * and the report is the same byte for byte with and without worker threads.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { DEFAULT_RANGE_MIN_BYTES } from "../../src/read/range-read.js";
import {
  AUTO_RANGE_LEAN_BELOW_BYTES,
  AUTO_RANGE_MAX_ATTEMPT_IDS,
  AUTO_RANGE_MIN_BYTES,
  bundledReadThreads,
} from "../../src/read/read-threads.js";
import { cliBundle } from "../helpers/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "gate-parse-workers-"));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("bundledReadThreads", () => {
  const bundleDir = join(dir, "bundle");
  const bundleUrl = pathToFileURL(join(bundleDir, "cli.js")).href;
  beforeAll(() => {
    mkdirSync(bundleDir, { recursive: true });
    writeFileSync(join(bundleDir, "range-worker.js"), "");
  });

  it("reads in byte ranges as MODEL_GATE_READ_RANGES asks (2 to 8); 0 and 1 read every file whole", () => {
    const script = pathToFileURL(join(bundleDir, "range-worker.js")).href;
    expect(bundledReadThreads(bundleUrl, { MODEL_GATE_READ_RANGES: "0" })?.ranges).toBeUndefined();
    expect(bundledReadThreads(bundleUrl, { MODEL_GATE_READ_RANGES: "1" })?.ranges).toBeUndefined();
    expect(bundledReadThreads(bundleUrl, { MODEL_GATE_READ_RANGES: "two" })?.ranges).toBeUndefined();
    const two = bundledReadThreads(bundleUrl, { MODEL_GATE_READ_RANGES: "2" })?.ranges;
    expect(two?.script.href).toBe(script);
    expect(two?.ranges).toBe(2);
    // (Asked for: from the reader's own 32 MiB on.)
    expect(two?.minBytes).toBeUndefined();
    expect(bundledReadThreads(bundleUrl, { MODEL_GATE_READ_RANGES: "64" })?.ranges?.ranges).toBe(8);
  });

  it("unset, reads files of 256 MiB or more in 2 ranges on two cores or more, and never on one", () => {
    for (const env of [{}, { MODEL_GATE_READ_RANGES: "" }]) {
      const auto = bundledReadThreads(bundleUrl, env, 2)?.ranges;
      expect(auto?.ranges).toBe(2);
      expect(auto?.minBytes).toBe(AUTO_RANGE_MIN_BYTES);
      expect(AUTO_RANGE_MIN_BYTES).toBe(2 ** 28);
      // Below 1 GiB a worker holding many attempt ids gives its range back (memory first).
      expect(auto?.attemptLimit).toStrictEqual({
        ids: AUTO_RANGE_MAX_ATTEMPT_IDS,
        belowBytes: AUTO_RANGE_LEAN_BELOW_BYTES,
      });
      expect(AUTO_RANGE_LEAN_BELOW_BYTES).toBe(2 ** 30);
      expect(bundledReadThreads(bundleUrl, env, 16)?.ranges?.ranges).toBe(2);
      expect(bundledReadThreads(bundleUrl, env, 1)?.ranges).toBeUndefined();
    }
    // Asked for, ranges are the user's: no attempt-id limit.
    expect(
      bundledReadThreads(bundleUrl, { MODEL_GATE_READ_RANGES: "2" }, 2)?.ranges?.attemptLimit,
    ).toBeUndefined();
    expect(bundledReadThreads(bundleUrl, { MODEL_GATE_READ_RANGES: "1" }, 4)?.ranges).toBeUndefined();
  });

  it("no longer reads MODEL_GATE_PARSE_THREADS (the parse pool was removed): the default read, and a note", () => {
    for (const value of ["0", "1", "4", "two"]) {
      const threads = bundledReadThreads(bundleUrl, { MODEL_GATE_PARSE_THREADS: value }, 2);
      expect(threads?.ranges).toStrictEqual(bundledReadThreads(bundleUrl, {}, 2)?.ranges);
      expect(threads?.note).toBe(
        "MODEL_GATE_PARSE_THREADS is no longer read (the parse pool was removed: it cost more than it saved); reading as without it",
      );
    }
    expect(bundledReadThreads(bundleUrl, {}, 2)?.note).toBeUndefined();
    expect(bundledReadThreads(bundleUrl, { MODEL_GATE_PARSE_THREADS: "" }, 2)?.note).toBeUndefined();
  });

  it("gives nothing when there is no worker script (running from source)", () => {
    expect(bundledReadThreads(pathToFileURL(join(dir, "elsewhere", "cli.js")).href, {})).toBeUndefined();
    expect(bundledReadThreads("https://example.invalid/cli.js", {})).toBeUndefined();
  });
});

/** The policy the CLI runs read. */
function writePolicy(policy: string): void {
  writeFileSync(
    policy,
    [
      'owner: "@acme/eval-owners"',
      "revisit: 2099-12-31",
      "on_expired: warn",
      "infra_errors: exclude",
      "require_same_harness: true",
      "accept_if:",
      '  common_valid_tasks: ">= 100"',
      '  infra_error_rate: "< 5%"',
      '  disputed_fraction: "< 50%"',
      '  missing_fraction: "< 5%"',
      '  observed_margin: "> validity_sensitivity + run_variance"',
      "margin:",
      "  confidence: 0.95",
      "  standard_error: paired",
      "  validity_bound: exact",
      "on_unresolved: fail",
      "",
    ].join("\n"),
  );
}

describe("dist/cli.js on an export of 32 MiB or more", () => {
  const results = join(dir, "larger.jsonl");
  const policy = join(dir, "policy.yaml");
  beforeAll(() => {
    const gen = spawnSync(
      process.execPath,
      [
        new URL("../../scripts/generate-export.mjs", import.meta.url).pathname,
        ...["--seed", "12", "--tasks", "800", "--attempts", "1-3", "--rows", "60000", "--out", results],
      ],
      { encoding: "utf8" },
    );
    expect(gen.status, gen.stderr).toBe(0);
    writePolicy(policy);
  });
  const evaluate = (env: Record<string, string>): ReturnType<typeof cliBundle> =>
    cliBundle(
      [
        ...["evaluate", "--results", results, "--policy", policy, "--baseline", "cfg-baseline"],
        ...["--candidate", "cfg-candidate", "--today", "2026-11-30", "--format", "json"],
      ],
      dir,
      { MODEL_GATE_DEBUG: "1", ...env },
    );

  it("reads it in 2 byte ranges, with the same report and exit status as on the main thread", () => {
    expect(statSync(results).size).toBeGreaterThanOrEqual(DEFAULT_RANGE_MIN_BYTES);
    const ranged = evaluate({ MODEL_GATE_READ_RANGES: "2" });
    const inline = evaluate({ MODEL_GATE_READ_RANGES: "0" });
    expect(ranged.stderr).toContain("in 2 byte ranges");
    expect(ranged.stderr).not.toContain("reading the input again");
    expect(ranged.stderr).not.toContain("range reader");
    expect(inline.stderr).not.toContain("byte ranges");
    expect([0, 1, 2]).toContain(ranged.code);
    expect(ranged.code).toBe(inline.code);
    expect(ranged.stdout.length).toBeGreaterThan(1000);
    expect(ranged.stdout).toBe(inline.stdout);
  });

  it("with MODEL_GATE_PARSE_THREADS set (no longer read): a debug note, the same report and exit status", () => {
    const set = evaluate({ MODEL_GATE_PARSE_THREADS: "1" });
    const unset = evaluate({});
    expect(set.stderr).toContain("model-gate: debug: MODEL_GATE_PARSE_THREADS is no longer read");
    expect(unset.stderr).not.toContain("MODEL_GATE_PARSE_THREADS");
    expect([0, 1, 2]).toContain(set.code);
    expect(set.code).toBe(unset.code);
    expect(set.stdout.length).toBeGreaterThan(1000);
    expect(set.stdout).toBe(unset.stdout);
  });
});
