/**
 * `model-gate evaluate --since-results …`: what changed since the last run, end to end through
 * the CLI (docs/cli.md, docs/spec.md §3.7), with the figures worked out by hand.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import type { Report } from "../../src/core/report/report-types.js";
import {
  BASELINE,
  CANDIDATE,
  reviewLine,
  SMALL_POLICY,
  tempDir,
  writeExport,
  writePolicy,
  type TaskSpec,
} from "../helpers/export-writer.js";
import { cliInProcess } from "../helpers/run-cli.js";

const id = (k: number): string => `t-${String(k).padStart(4, "0")}`;

/** 30 valid tasks: the candidate alone passes the first 20 (Δ̂ = 20/30). */
const PREVIOUS: TaskSpec[] = Array.from({ length: 30 }, (_, k) => ({
  id: id(k),
  validity: "valid",
  a: [k < 20 ? "pass" : "fail"],
  b: ["fail"],
}));

/** The candidate fails t-0000 and passes t-0020; the baseline passes t-0021. */
const CURRENT: TaskSpec[] = PREVIOUS.map((t, k) =>
  k === 0 ? { ...t, a: ["fail"] } : k === 20 ? { ...t, a: ["pass"] } : k === 21 ? { ...t, b: ["pass"] } : t,
);

function setUp(): { dir: string; args: (format: string, extra?: readonly string[]) => string[] } {
  const dir = tempDir("since-last-run-");
  writeExport(dir, PREVIOUS, "previous.jsonl");
  writeExport(dir, CURRENT, "current.jsonl");
  writeFileSync(join(dir, "previous-reviews.jsonl"), reviewLine(id(25), "valid", 1) + "\n");
  // Review revision 2 disputes t-0025: it leaves V (N_v 29).
  writeFileSync(
    join(dir, "reviews.jsonl"),
    [reviewLine(id(25), "valid", 1), reviewLine(id(25), "disputed", 2)].join("\n") + "\n",
  );
  writePolicy(dir, SMALL_POLICY);
  const args = (format: string, extra: readonly string[] = []): string[] => [
    "evaluate",
    "--results",
    "current.jsonl",
    "--reviews",
    "reviews.jsonl",
    "--policy",
    "policy.yaml",
    "--baseline",
    BASELINE,
    "--candidate",
    CANDIDATE,
    "--today",
    "2026-11-29",
    "--format",
    format,
    ...extra,
  ];
  return { dir, args };
}

describe("model-gate evaluate --since-results", () => {
  it("reports the flips, the label, the margin's change and its movers, in JSON and text", async () => {
    const { dir, args } = setUp();
    const since = ["--since-results", "previous.jsonl", "--since-reviews", "previous-reviews.jsonl"];
    const json = await cliInProcess(args("json", since), dir);
    expect(json.stderr).toBe("");
    const report = JSON.parse(json.stdout) as Report;
    const s = report.since_last_run;
    expect(s?.inputs_changed).toEqual({ results: true, reviews: true, policy: false });
    expect(s?.margin.before).toBe(20 / 30);
    expect(s?.margin.after).toBe(19 / 29);
    expect(s?.labels).toEqual({
      compared: "readings",
      count: 1,
      tasks: [
        {
          dataset_revision: report.provenance.dataset_revisions[0],
          task_id: id(25),
          before: "valid",
          after: "disputed",
          review_revision: 2,
        },
      ],
    });
    expect(s?.candidate).toMatchObject({ pass_to_fail_count: 1, fail_to_pass_count: 1 });
    expect(s?.baseline).toMatchObject({ pass_to_fail_count: 0, fail_to_pass_count: 1 });
    // t-0020 and t-0021 move by ±1/29, t-0000 by −1/30, the 19 others of V by 1/29 − 1/30.
    expect(s?.movers?.count).toBe(22);
    expect(s?.movers?.tasks.slice(0, 4).map((m) => [m.task_id, m.change])).toEqual([
      [id(20), 1 / 29],
      [id(21), -1 / 29],
      [id(0), -1 / 30],
      [id(1), 1 / 29 - 1 / 30],
    ]);

    const text = await cliInProcess(args("text", since), dir);
    const lines = text.stdout.split("\n");
    const at = lines.findIndex((l) => l.startsWith("What changed since the last run"));
    // Previous: d = 1 on 20 of 30 tasks, SE = √(60/9 / 29 / 30), q = t₂₉(0.95) = 1.6991: LCB 51.79 pp.
    // Now: Σd = 19 over N_v = 29; t-0025 (d = 0) is open: Δ_L = 19/30, Δ_H = 19/29.
    expect(lines.slice(at, at + 7)).toEqual([
      "What changed since the last run: verdict accept as before; Δ̂ -1.15 pp; 3 tasks flipped; 1 label changed; changed: results, reviews",
      "  Compared with the previous run (verdict accept).",
      "  Δ̂ (margin): +66.67 pp → +65.52 pp (-1.15 pp)",
      "  LCB: +51.79 pp → +46.08 pp (-5.71 pp)",
      "  UCB: +81.54 pp → +82.97 pp (+1.43 pp)",
      "  Δ_L (validity low): +66.67 pp → +63.33 pp (-3.33 pp)",
      "  Δ_H (validity high): +66.67 pp → +65.52 pp (-1.15 pp)",
    ]);
    expect(lines.slice(at + 7, at + 23)).toEqual([
      "  candidate cfg-candidate: 1 pass → fail, 1 fail → pass",
      "    pass → fail t-0000: 100% → 0%",
      "    fail → pass t-0020: 0% → 100%",
      "  baseline cfg-baseline: 0 pass → fail, 1 fail → pass",
      "    fail → pass t-0021: 0% → 100%",
      "  Labels changed: 1",
      "    t-0025: valid → disputed (r2)",
      "  Moved the margin most (22 tasks moved it):",
      "    t-0020: +3.448 pp",
      "    t-0021: -3.448 pp",
      "    t-0000: -3.333 pp",
      "    t-0001: +0.115 pp",
      "    t-0002: +0.115 pp",
      "    … and 17 more",
      "",
      lines[at + 22],
    ]);
  });

  it("without --since-reviews the previous run is read with the current reviews; the same inputs change nothing", async () => {
    const { dir, args } = setUp();
    const json = await cliInProcess(args("json", ["--since-results", "current.jsonl"]), dir);
    const s = (JSON.parse(json.stdout) as Report).since_last_run;
    expect(s?.inputs_changed).toEqual({ results: false, reviews: false, policy: false });
    expect(s?.verdict.changed).toBe(false);
    expect(s?.margin.change).toBe(0);
    expect(s?.labels.count).toBe(0);
    expect(s?.candidate).toMatchObject({
      pass_to_fail_count: 0,
      fail_to_pass_count: 0,
      only_previous: 0,
      only_current: 0,
    });
    expect(s?.movers).toEqual({ count: 0, tasks: [] });
  });

  it("--since-policy: a policy change is named", async () => {
    const { dir, args } = setUp();
    writePolicy(dir, SMALL_POLICY.replace("confidence: 0.95", "confidence: 0.9"), "old-policy.yaml");
    const json = await cliInProcess(
      args("json", ["--since-results", "current.jsonl", "--since-policy", "old-policy.yaml"]),
      dir,
    );
    const s = (JSON.parse(json.stdout) as Report).since_last_run;
    expect(s?.inputs_changed).toEqual({ results: false, reviews: false, policy: true });
    expect(s?.margin.change).toBe(0);
    expect(s?.lcb.change).toBeLessThan(0);
  });

  it("without --since-results the key is null, and --since-reviews alone is a usage error", async () => {
    const { dir, args } = setUp();
    const plain = await cliInProcess(args("json"), dir);
    expect((JSON.parse(plain.stdout) as Report).since_last_run).toBeNull();
    const bad = await cliInProcess(args("json", ["--since-reviews", "reviews.jsonl"]), dir);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toBe(
      'model-gate: --since-reviews needs --since-results: the previous run is read from its results.\nRun "model-gate evaluate --help" for the list of flags.\n',
    );
  });

  it("an unreadable previous export is an input error naming the file", async () => {
    const { dir, args } = setUp();
    const r = await cliInProcess(args("json", ["--since-results", "nope.jsonl"]), dir);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("nope.jsonl");
  });
});
