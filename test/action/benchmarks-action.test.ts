/** The action over several benchmarks (docs/spec.md §4.6): the comment, the check run and the outputs. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

import type { Report } from "../../src/core/report/report-types.js";
import { exportText, policyYaml, tasks, type TaskRow } from "./exports.js";
import { BASE_SHA, gateInputs, POLICY_PATH, RESULTS_PATH, runDist, useFakeGitHub } from "./run-action.js";

const fakes = useFakeGitHub();

const POLICY = `${policyYaml()}benchmarks:\n  private-canary:\n    canary: true\n    common_valid_tasks: ">= 20"\n`;

/** A clear accept on the public benchmark; on the canary the baseline alone passes 20 of 30. */
const ROWS: TaskRow[] = [
  ...tasks(20, "pub-a-only", { validity: "valid", a: "pass", b: "fail", benchmark: "swe-verified" }),
  ...tasks(30, "pub-both", { validity: "valid", a: "pass", b: "pass", benchmark: "swe-verified" }),
  ...tasks(10, "pub-neither", { validity: "valid", a: "fail", b: "fail", benchmark: "swe-verified" }),
  ...tasks(20, "canary-b-only", { validity: "valid", a: "fail", b: "pass", benchmark: "private-canary" }),
  ...tasks(10, "canary-both", { validity: "valid", a: "pass", b: "pass", benchmark: "private-canary" }),
];

describe("the action with a public benchmark and a private canary", () => {
  it("one line per benchmark in the comment and check run, the overall verdict, the benchmarks output", async () => {
    const f = await fakes.start();
    f.setFile(BASE_SHA, POLICY_PATH, POLICY);
    const r = await runDist({
      fake: f,
      event: "pull_request",
      inputs: gateInputs({}),
      files: { [RESULTS_PATH]: exportText(ROWS), [POLICY_PATH]: POLICY },
    });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
    expect(r.outputs["verdict"]).toBe("reject");
    const lines = JSON.parse(r.outputs["benchmarks"] ?? "") as {
      name: string;
      verdict: string;
      canary: boolean;
    }[];
    expect(lines.map((b) => [b.name, b.verdict, b.canary])).toStrictEqual([
      ["private-canary", "reject", true],
      ["swe-verified", "accept", false],
    ]);
    const rep = JSON.parse(readFileSync(r.outputs["report-path"] ?? "", "utf8")) as Report;
    expect(rep.verdict).toBe("reject");
    expect(rep.benchmarks?.map((b) => b.holm.harm)).toStrictEqual([true, false]);
    expect(f.checkRuns[0]?.output.title).toBe(
      "Reject: shown worse on 1 of 2 benchmarks after Holm's adjustment",
    );
    for (const text of [f.checkRuns[0]?.output.summary ?? "", f.comments[0]?.body ?? ""]) {
      const start = text.indexOf("| Benchmark | Verdict |");
      expect(start).toBeGreaterThanOrEqual(0);
      expect(
        text.indexOf("<code>private\\-canary</code> · canary · harm holds after Holm | ❌&nbsp;reject"),
      ).toBeGreaterThan(start);
      expect(text.indexOf("## ❌ reject — candidate")).toBeGreaterThan(start);
      expect(text).toContain("<summary><b>Benchmark <code>swe-verified</code></b> — ✅ accept</summary>");
    }
  });
});
