/**
 * The action's rank mode end to end: dist/index.js as a child process (INPUT_* variables, an
 * event file, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY) against the loopback fake GitHub, which
 * fails the test on any request GitHub would reject. The in-process cases are in
 * test/action/rank-mode.test.ts.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readHeader } from "../../src/action/sticky-comment.js";
import type { RankReport } from "../../src/core/rank/rank-types.js";
import { multiLines, policyWith, type MultiTask } from "../rank/rank-helpers.js";
import { expectGolden } from "./golden.js";
import {
  BASE_SHA,
  commandLines,
  HEAD_SHA,
  PR_NUMBER,
  POLICY_PATH,
  RESULTS_PATH,
  runDist,
  useFakeGitHub,
} from "./run-action.js";

const fakes = useFakeGitHub();

/** 60 valid tasks and 4 disputed: a passes 50, b 25, c 24 (b and c differ on 5): a on top, b and c tied. */
const TASKS: MultiTask[] = Array.from({ length: 64 }, (_, i) => ({
  id: `t-${String(i).padStart(3, "0")}`,
  validity: i < 60 ? "valid" : "disputed",
  results: {
    "cfg-a": [i < 50 ? "pass" : "fail"],
    "cfg-b": [i < 25 || i >= 62 ? "pass" : "fail"],
    "cfg-c": [i >= 3 && i < 27 ? "pass" : "fail"],
  },
}));

const POLICY = policyWith(50, "rank:\n  require: top_group\n");

describe("the bundle in rank mode", () => {
  it("ranks, gates the candidate, and keeps one check run and one keyed comment (golden)", async () => {
    const f = await fakes.start();
    f.setFile(BASE_SHA, POLICY_PATH, POLICY);
    f.setCommits(BASE_SHA, POLICY_PATH, ["9".repeat(40)]);
    const run = (candidate: string) =>
      runDist({
        fake: f,
        event: "pull_request",
        inputs: {
          results: RESULTS_PATH,
          policy: POLICY_PATH,
          models: "cfg-a,cfg-b,cfg-c",
          candidate,
          "fail-on": "reject",
        },
        files: { [RESULTS_PATH]: multiLines(TASKS).join("\n") + "\n", [POLICY_PATH]: POLICY },
      });
    const r = await run("cfg-a");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(commandLines(r, "warning")).toEqual([]);
    expect(commandLines(r, "error")).toEqual([]);
    expect(r.outputs).toEqual({
      verdict: "accept",
      top: "cfg-a",
      "top-resolved": "true",
      "report-path": `${r.runnerTemp}/model-gate-report.json`,
      "check-run-id": String(f.checkRuns[0]?.id),
      "comment-id": String(f.comments[0]?.id),
    });
    const report = JSON.parse(readFileSync(r.outputs["report-path"] ?? "", "utf8")) as RankReport;
    expect(report.kind).toBe("rank");
    expect(report.gate.verdict).toBe("accept");
    expect(report.review_first).toEqual([]);
    expect(f.checkRuns.map((c) => [c.name, c.head_sha, c.conclusion])).toEqual([
      ["Model ranking", HEAD_SHA, "success"],
    ]);
    expect(f.comments).toHaveLength(1);
    expect(f.comments[0]?.issue).toBe(PR_NUMBER);
    expect(readHeader(f.comments[0]?.body ?? "")?.key).toBe("Model%20ranking");
    expectGolden("action-rank-comment.md", f.comments[0]?.body ?? "");

    // The next run, with a candidate ordered out: the same comment updated, a failing check run,
    // and the step fails once per fail-on.
    const again = await run("cfg-c");
    expect(again.code).toBe(1);
    expect(again.outputs).toMatchObject({ verdict: "reject", top: "cfg-a", "top-resolved": "true" });
    expect(commandLines(again, "error")).toEqual([
      '::error::Model ranking gate verdict: reject (fail-on: reject). "cfg-c" could not be first: 1 model is ordered above it ("cfg-a").',
    ]);
    expect(f.comments).toHaveLength(1);
    expect(f.comments[0]?.updates).toBe(1);
    expect(f.checkRuns.map((c) => c.conclusion)).toEqual(["success", "failure"]);
  });

  it("an evaluate input in rank mode is an input error: exit 1, one message, no verdict", async () => {
    const f = await fakes.start();
    f.setFile(BASE_SHA, POLICY_PATH, POLICY);
    const r = await runDist({
      fake: f,
      event: "push",
      inputs: {
        results: RESULTS_PATH,
        policy: POLICY_PATH,
        models: "cfg-a,cfg-b",
        baseline: "cfg-a",
        "github-token": "",
      },
      files: { [RESULTS_PATH]: multiLines(TASKS).join("\n") + "\n", [POLICY_PATH]: POLICY },
    });
    expect(r.code).toBe(1);
    expect(r.outputs).toEqual({});
    expect(commandLines(r, "error")).toEqual([
      '::error::The action\'s inputs are invalid (1 problem):%0A  field "baseline": is for evaluate (one pair); with models set the action ranks: leave it empty, and name the production config with reference',
    ]);
    expect(r.summary.startsWith("## ❗ input error — no verdict\n\n<sub>Model ranking</sub>\n")).toBe(true);
    expect(f.calls()).toEqual([]);
  });
});
