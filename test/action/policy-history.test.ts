/**
 * The base policy's recent history in the PR report (issue #14): read with the policy log's code
 * through git in the checkout, in-process (recentPolicyHistory) and through the bundle
 * dist/index.js on a real git workspace; a shallow checkout, no git or no checkout gives one line
 * why, never a failed run.
 */
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { recentPolicyHistory } from "../../src/git/policy-history.js";
import { runGit, type GitRunner } from "../../src/git/run-git.js";
import type { Report } from "../../src/core/report/report-types.js";
import { buildRepo, git, removeTempDirs, tempDir, type Step } from "../history/policy-repo.js";
import { exportText, policyYaml, tasks, type TaskRow } from "./exports.js";
import { expectGolden } from "./golden.js";
import { cleanupRuns, eventPayload, runDist, type RunResult, useFakeGitHub } from "./run-action.js";

const POLICY_PATH = "gate/policy.yaml";
const TODAY = "2026-12-01";

const owner = (text: string): string => text.replace('"@acme/eval-owners"', '"@acme/ml-platform"');

/** Seven changes up to the base commit, then the pull request's own (confidence 0.95 → 0.8). */
const STEPS: readonly Step[] = [
  {
    date: "2026-01-05T09:00:00Z",
    author: "Alice Owner",
    subject: "Add the policy",
    files: { [POLICY_PATH]: policyYaml({ minTasks: 100, revisit: "2026-03-31" }) },
  },
  {
    date: "2026-02-01T09:00:00Z",
    author: "Bob Tuner",
    subject: "Floor 80",
    files: { [POLICY_PATH]: policyYaml({ minTasks: 80, revisit: "2026-03-31" }) },
  },
  {
    date: "2026-03-01T09:00:00Z",
    author: "Bob Tuner",
    subject: "Floor 50 with the March run",
    files: { [POLICY_PATH]: policyYaml({ minTasks: 50, revisit: "2026-03-31" }), "out/march.jsonl": "{}\n" },
  },
  {
    date: "2026-04-20T09:00:00Z",
    author: "Carol Late",
    subject: "Revisit later",
    files: { [POLICY_PATH]: policyYaml({ minTasks: 50 }) },
  },
  {
    date: "2026-05-01T09:00:00Z",
    author: "Dan Platform",
    subject: "New owner",
    files: { [POLICY_PATH]: owner(policyYaml({ minTasks: 50 })) },
  },
  {
    date: "2026-05-02T09:00:00Z",
    author: "Dan Platform",
    subject: "Broken edit",
    files: { [POLICY_PATH]: "accept_if: 3\n" },
  },
  {
    date: "2026-05-03T09:00:00Z",
    author: "Dan Platform",
    subject: "Fixed",
    files: { [POLICY_PATH]: owner(policyYaml({ minTasks: 60 })) },
  },
  {
    date: "2026-06-01T09:00:00Z",
    author: "Eve Candidate",
    subject: "PR: confidence 0.8",
    files: { [POLICY_PATH]: owner(policyYaml({ minTasks: 60, confidence: 0.8 })) },
  },
];
const BASE = 6;

afterAll(() => {
  removeTempDirs();
  cleanupRuns();
});

describe("recentPolicyHistory (in-process, real git)", () => {
  it("the last five changes up to the base commit, each with its loosenings and flags; earlier ones exist", async () => {
    const { dir, commits } = buildRepo(STEPS);
    const base = commits[BASE] ?? "";
    const h = await recentPolicyHistory({
      workspace: dir,
      path: POLICY_PATH,
      rev: base,
      today: TODAY,
      git: runGit,
    });
    expect(h.unavailable).toBeNull();
    expect(h.earlier).toBe(true);
    expect(h.rev).toBe(base);
    expect(
      h.entries.map((e) => [
        e.subject,
        e.compared_with,
        e.flags,
        e.changes.filter((c) => c.loosening).map((c) => c.key),
      ]),
    ).toEqual([
      [
        "Floor 50 with the March run",
        commits[1],
        ["loosening", "expired", "with_evidence"],
        ["accept_if.common_valid_tasks"],
      ],
      ["Revisit later", commits[2], ["loosening", "snoozed"], ["revisit"]],
      ["New owner", commits[3], ["owner_changed"], []],
      ["Broken edit", null, ["unparsable"], []],
      ["Fixed", commits[4], [], []],
    ]);
    expect(h.entries[0]?.expired).toEqual({ revisit: "2026-03-31", until: "2026-04-20" });
  });

  it("with fewer changes than asked for: all of them, the first a first version, nothing earlier", async () => {
    const { dir, commits } = buildRepo(STEPS.slice(0, 2));
    const h = await recentPolicyHistory({
      workspace: dir,
      path: POLICY_PATH,
      rev: commits[1] ?? "",
      today: TODAY,
      git: runGit,
    });
    expect([h.earlier, h.entries.map((e) => [e.status, e.compared_with])]).toEqual([
      false,
      [
        ["added", null],
        ["modified", commits[0]],
      ],
    ]);
  });

  it("not available, with one line why: shallow, no base commit, not a checkout, no git", async () => {
    const { dir, commits } = buildRepo(STEPS);
    const base = commits[BASE] ?? "";
    const req = { path: POLICY_PATH, rev: base, today: TODAY, git: runGit };
    const shallow = `${tempDir("history-shallow-")}/clone`;
    git(dir, ["clone", "-q", "--depth", "1", `file://${dir}`, shallow]);
    const missing = "b".repeat(40);
    const noGit: GitRunner = () => Promise.resolve({ code: 127, stdout: "" });
    const reasons = [
      await recentPolicyHistory({ ...req, workspace: shallow }),
      await recentPolicyHistory({ ...req, workspace: dir, rev: missing }),
      await recentPolicyHistory({ ...req, workspace: tempDir("history-plain-") }),
      await recentPolicyHistory({ ...req, workspace: dir, git: noGit }),
    ].map((h) => [h.unavailable, h.entries.length, h.earlier]);
    expect(reasons).toEqual([
      ["the checkout is shallow; needs fetch-depth: 0", 0, false],
      ["the checkout does not have the base commit bbbbbbbbbbbb; needs fetch-depth: 0", 0, false],
      ["the workspace is not a git checkout", 0, false],
      ["git is not available", 0, false],
    ]);
  });
});

describe("the action on a pull request that changes the policy (dist/index.js, real git workspace)", () => {
  const fakes = useFakeGitHub();

  const ROWS: TaskRow[] = [
    ...tasks(40, "a-only", { validity: "valid", a: "pass", b: "fail" }),
    ...tasks(30, "both", { validity: "valid", a: "pass", b: "pass" }),
  ];

  /** Runs the bundle in a workspace that `checkout` turns into a git checkout; the base is STEPS[BASE]. */
  async function runIn(checkout: (workspace: string) => string): Promise<RunResult> {
    const f = await fakes.start();
    const payload = eventPayload("pull_request") as { pull_request: { base: { sha: string } } };
    return runDist({
      fake: f,
      event: "pull_request",
      payload,
      inputs: {
        results: "out/results.jsonl",
        policy: POLICY_PATH,
        baseline: "cfg-baseline",
        candidate: "cfg-candidate",
        "fail-on": "never",
      },
      files: { "out/results.jsonl": exportText(ROWS) },
      prepare: (workspace) => {
        const base = checkout(workspace);
        payload.pull_request.base.sha = base;
        f.setFile(base, POLICY_PATH, owner(policyYaml({ minTasks: 60 })));
        f.setCommits(base, POLICY_PATH, [base]);
      },
    });
  }

  function report(r: RunResult): Report {
    return JSON.parse(readFileSync(r.outputs["report-path"] ?? "", "utf8")) as Report;
  }

  it("with the full history (fetch-depth: 0): the policy section lists the base policy's last changes", async () => {
    let commits: string[] = [];
    const r = await runIn((ws) => {
      commits = buildRepo(STEPS, ws).commits;
      return commits[BASE] ?? "";
    });
    expect(r.code).toBe(0);
    const rep = report(r);
    expect(rep.policy_changes).toEqual([
      { key: "margin.confidence", base: "0.95", head: "0.8", loosening: true },
    ]);
    expect(rep.policy_history?.unavailable).toBeNull();
    expect(rep.policy_history?.rev).toBe(commits[BASE]);
    expect(rep.policy_history?.earlier).toBe(true);
    expect(rep.policy_history?.entries.map((e) => e.commit)).toEqual(commits.slice(2, BASE + 1));
    expect(r.summary).toContain("Recent history of the base policy at <code>");
    expect(fakes.current()?.comments[0]?.body).toContain("Recent history of the base policy at <code>");
    expectGolden("action-policy-history-summary.md", r.summary);
  });

  it("in a shallow checkout (the default fetch-depth: 1): one line why, and the run still succeeds", async () => {
    const r = await runIn((ws) => {
      const full = buildRepo(STEPS);
      git(ws, ["init", "-q", "-b", "main"]);
      git(ws, ["fetch", "-q", "--depth", "1", `file://${full.dir}`, "main"]);
      git(ws, ["checkout", "-q", "FETCH_HEAD"]);
      return full.commits[BASE] ?? "";
    });
    expect(r.code).toBe(0);
    expect(r.outputs["verdict"]).toBeDefined();
    const rep = report(r);
    expect(rep.policy_history).toMatchObject({
      unavailable: "the checkout is shallow; needs fetch-depth: 0",
      entries: [],
      earlier: false,
    });
    expect(r.summary).toContain(
      "Recent history of the base policy: not available (the checkout is shallow; needs fetch\\-depth: 0).",
    );
  });
});
