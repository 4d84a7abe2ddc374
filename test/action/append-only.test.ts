/**
 * The append-only check in the action (issue #14), end to end: the bundled dist/index.js against
 * the fake GitHub, in a real git checkout built here. The previous version of each results and
 * reviews file is its version at the base commit (git when the checkout has it, else the contents
 * API); a file git does not track, or one the change adds, is named with the reason and skipped.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import type { RankReport } from "../../src/core/rank/rank-types.js";
import type { Report } from "../../src/core/report/report-types.js";
import { exportText, policyYaml, tasks, type TaskRow } from "./exports.js";
import { git, initRepo } from "./helpers.js";
import {
  BASE_SHA,
  eventPayload,
  HEAD_SHA,
  PR_NUMBER,
  runDist,
  workflowCommands,
  useFakeGitHub,
  type EventKind,
  type RunResult,
} from "./run-action.js";

const POLICY_PATH = "gate/policy.yaml";
const RESULTS_PATH = "bench/results.jsonl";
const REVIEWS_PATH = "bench/reviews.jsonl";

const fakes = useFakeGitHub();

/** 60 valid tasks, a clear accept; the first 40 are at the base commit, the rest appended. */
const ROWS: TaskRow[] = [
  ...tasks(20, "a-only", { validity: "valid", a: "pass", b: "fail" }),
  ...tasks(30, "both", { validity: "valid", a: "pass", b: "pass" }),
  ...tasks(10, "neither", { validity: "valid", a: "fail", b: "fail" }),
];
const BEFORE = exportText(ROWS.slice(0, 40));
const AFTER = exportText(ROWS);
const REVIEW_1 = JSON.stringify({
  task_id: "neither-00000",
  dataset_revision: "sha256:0001",
  validity: "valid",
  review_revision: 2,
  reviewer: "ana",
});
const REVIEW_2 = JSON.stringify({
  task_id: "neither-00001",
  dataset_revision: "sha256:0001",
  validity: "valid",
  review_revision: 2,
  reviewer: "ana",
});

/** AFTER with the result of line `line` (1-based) changed from pass to fail. */
function rewritten(text: string, line: number): string {
  const lines = text.split("\n");
  lines[line - 1] = (lines[line - 1] ?? "").replace('"result":"pass"', '"result":"fail"');
  return lines.join("\n");
}

interface Repo {
  /** Files at the base commit (besides the policy). */
  readonly base: Readonly<Record<string, string | Buffer>>;
  /** Files committed on top (the change); the workspace ends there. */
  readonly head: Readonly<Record<string, string | Buffer>>;
  /** Files the change deletes. */
  readonly deleted?: readonly string[];
  /** Files written into the workspace without committing (a downloaded artifact). */
  readonly untracked?: Readonly<Record<string, string | Buffer>>;
  /** fetch-depth: 1: the checkout holds the head's tree only, not the base commit. */
  readonly shallow?: boolean;
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function commit(ws: string, files: Readonly<Record<string, string | Buffer>>, message: string): string {
  for (const [rel, data] of Object.entries(files)) {
    mkdirSync(dirname(join(ws, rel)), { recursive: true });
    writeFileSync(join(ws, rel), data);
  }
  git(ws, "add", "-A");
  git(ws, "commit", "-q", "--allow-empty", "-m", message);
  return git(ws, "rev-parse", "HEAD");
}

/** Builds the checkout; returns it and the base commit the event names. */
function checkout(repo: Repo): { ws: string; base: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "gate-append-only-")));
  dirs.push(root);
  const ws = join(root, "workspace");
  mkdirSync(ws);
  initRepo(ws);
  let base = commit(ws, { [POLICY_PATH]: policyYaml(), ...repo.base }, "base");
  for (const rel of repo.deleted ?? []) rmSync(join(ws, rel));
  commit(ws, repo.head, "the change");
  if (repo.shallow === true) {
    // A repository with only the head's tree: the base commit is not in it (the API must answer).
    rmSync(join(ws, ".git"), { recursive: true, force: true });
    initRepo(ws);
    commit(ws, {}, "shallow");
    base = BASE_SHA;
  }
  for (const [rel, data] of Object.entries(repo.untracked ?? {})) {
    mkdirSync(dirname(join(ws, rel)), { recursive: true });
    writeFileSync(join(ws, rel), data);
  }
  return { ws, base };
}

interface Case {
  readonly event?: EventKind;
  readonly repo: Repo;
  readonly inputs?: Readonly<Record<string, string>>;
  /** Files the contents API serves at the base commit (besides the policy). */
  readonly apiFiles?: Readonly<Record<string, string | Buffer>>;
}

async function run(c: Case): Promise<{ r: RunResult; report: Report; base: string }> {
  const f = await fakes.start();
  const { ws, base } = checkout(c.repo);
  const event = c.event ?? "pull_request";
  f.setFile(base, POLICY_PATH, policyYaml());
  for (const [path, data] of Object.entries(c.apiFiles ?? {})) f.setFile(base, path, data);
  f.setPullRequest(PR_NUMBER, { headSha: HEAD_SHA, baseSha: base });
  const payload = JSON.parse(JSON.stringify(eventPayload(event))) as Record<string, Record<string, unknown>>;
  if (event === "pull_request") (payload["pull_request"]?.["base"] as Record<string, unknown>)["sha"] = base;
  if (event === "merge_group") (payload["merge_group"] as Record<string, unknown>)["base_sha"] = base;
  const r = await runDist({
    fake: f,
    event,
    payload,
    workspace: ws,
    inputs: {
      results: RESULTS_PATH,
      reviews: REVIEWS_PATH,
      policy: POLICY_PATH,
      baseline: "cfg-baseline",
      candidate: "cfg-candidate",
      ...c.inputs,
    },
  });
  expect(r.stderr).toBe("");
  const report = JSON.parse(readFileSync(r.outputs["report-path"] ?? "", "utf8")) as Report;
  return { r, report, base };
}

function appendOnlyCheck(report: Report): Report["checks"][number] | undefined {
  return report.checks.find((c) => c.id === "append_only");
}

function logLines(r: RunResult, prefix: string): string[] {
  return r.stdout.split("\n").filter((l) => l.replace(/^::warning::/, "").startsWith(prefix));
}

describe("append-only in the action: the files at the base commit", () => {
  it("an appended export and reviews (git, fetch-depth: 0): the check passes, accept", async () => {
    const { r, report, base } = await run({
      repo: {
        base: { [RESULTS_PATH]: BEFORE, [REVIEWS_PATH]: REVIEW_1 + "\n" },
        head: { [RESULTS_PATH]: AFTER, [REVIEWS_PATH]: `${REVIEW_1}\n${REVIEW_2}\n` },
      },
    });
    const short = base.slice(0, 12);
    expect(r.code).toBe(0);
    expect(report.verdict).toBe("accept");
    expect(appendOnlyCheck(report)).toMatchObject({ passed: true, observed: 0, kind: "evidence" });
    expect(report.append_only).toMatchObject({
      previous_rows: { results: 80, reviews: 1 },
      rows_changed_or_removed: 0,
      rows: [],
    });
    expect(report.append_only?.previous_inputs.map((p) => [p.kind, p.path])).toEqual([
      ["results", `${RESULTS_PATH}@${short}`],
      ["reviews", `${REVIEWS_PATH}@${short}`],
    ]);
    expect(report.append_only?.previous_inputs[0]?.sha256).toBe(
      execFileSync("sha256sum", { input: BEFORE }).toString().split(" ")[0],
    );
    expect(report.append_only_base).toEqual({
      commit: base,
      files: [
        { kind: "results", path: RESULTS_PATH, compared: true, via: "git", note: null },
        { kind: "reviews", path: REVIEWS_PATH, compared: true, via: "git", note: null },
      ],
    });
    expect(logLines(r, "Append-only:")).toEqual([
      `Append-only: results ${RESULTS_PATH}: its version at the base commit ${short} is read (git) to compare with.`,
      `Append-only: reviews ${REVIEWS_PATH}: its version at the base commit ${short} is read (git) to compare with.`,
    ]);
    // git, not the API: only the policy was read from GitHub.
    expect(
      fakes
        .current()
        ?.calls()
        .filter((c) => c === "GET repos/get-content"),
    ).toHaveLength(1);
    expect(r.summary).toContain(
      `| Append-only against | base commit <code>${short}</code>: results <code>bench/results\\.jsonl</code> ` +
        "compared (git); reviews <code>bench/reviews\\.jsonl</code> compared (git) |",
    );
  });

  it("a rewritten result and a removed review: the check fails with file and line, accept is blocked, the step fails", async () => {
    const { r, report, base } = await run({
      repo: {
        base: { [RESULTS_PATH]: BEFORE, [REVIEWS_PATH]: `${REVIEW_1}\n${REVIEW_2}\n` },
        // Line 3: the candidate's a-only-00001 (pass → fail); REVIEW_1 gone.
        head: { [RESULTS_PATH]: rewritten(AFTER, 3), [REVIEWS_PATH]: REVIEW_2 + "\n" },
      },
    });
    const short = base.slice(0, 12);
    expect(report.verdict).toBe("unresolved");
    expect(r.code).toBe(1);
    const check = appendOnlyCheck(report);
    expect(check).toMatchObject({ passed: false, observed: 2, kind: "evidence" });
    expect(check?.detail).toContain(`History rewritten: 2 of the 82 earlier rows were changed or removed`);
    expect(report.append_only?.rows).toEqual([
      {
        kind: "results",
        file: `${RESULTS_PATH}@${short}`,
        line: 3,
        current_file: RESULTS_PATH,
        current_line: 3,
        change:
          'changed: model_config "cfg-candidate", task_id "a-only-00001", dataset_revision "sha256:0001", ' +
          'harness_revision "git:1111111": result "pass" → "fail"',
      },
      {
        kind: "reviews",
        file: `${REVIEWS_PATH}@${short}`,
        line: 1,
        current_file: null,
        current_line: null,
        change:
          'removed: task_id "neither-00000", dataset_revision "sha256:0001", review_revision 2, reviewer "ana"',
      },
    ]);
    expect(r.summary).toContain("History rewritten");
    expect(workflowCommands(r.stdout).some((c) => c.name === "error" && c.line.includes("unresolved"))).toBe(
      true,
    );
  });

  it("files absent at the base commit: an untracked artifact and a file this change adds are named and skipped, the run goes on", async () => {
    const { r, report, base } = await run({
      repo: {
        base: {},
        head: { [REVIEWS_PATH]: REVIEW_1 + "\n" },
        untracked: { [RESULTS_PATH]: AFTER },
      },
    });
    const short = base.slice(0, 12);
    expect(r.code).toBe(0);
    expect(report.verdict).toBe("accept");
    expect(appendOnlyCheck(report)).toBeUndefined();
    expect(report.append_only).toBeNull();
    expect(report.append_only_base).toEqual({
      commit: base,
      files: [
        {
          kind: "results",
          path: RESULTS_PATH,
          compared: false,
          via: null,
          note: "not in the repository (git does not track it: e.g. a downloaded artifact)",
        },
        {
          kind: "reviews",
          path: REVIEWS_PATH,
          compared: false,
          via: null,
          note: `not at the base commit ${short} (added by this change)`,
        },
      ],
    });
    expect(logLines(r, "Append-only:")).toEqual([
      `Append-only: results ${RESULTS_PATH} not compared: not in the repository (git does not track it: e.g. a downloaded artifact).`,
      `Append-only: reviews ${REVIEWS_PATH} not compared: not at the base commit ${short} (added by this change).`,
    ]);
    expect(workflowCommands(r.stdout).filter((c) => c.name === "warning" || c.name === "error")).toEqual([]);
  });

  it("a shallow checkout (fetch-depth: 1): the contents API's raw bytes (gzip); a rewritten row fails the check", async () => {
    const GZ = "bench/results.jsonl.gz";
    const { r, report } = await run({
      repo: {
        base: {},
        // Line 1: the candidate's a-only-00000, pass → fail.
        head: { [GZ]: gzipSync(rewritten(AFTER, 1)), [REVIEWS_PATH]: `${REVIEW_1}\n${REVIEW_2}\n` },
        shallow: true,
      },
      inputs: { results: GZ },
      apiFiles: { [GZ]: gzipSync(BEFORE), [REVIEWS_PATH]: REVIEW_1 + "\n" },
    });
    const short = BASE_SHA.slice(0, 12);
    expect(report.append_only_base?.files).toEqual([
      { kind: "results", path: GZ, compared: true, via: "contents API", note: null },
      { kind: "reviews", path: REVIEWS_PATH, compared: true, via: "contents API", note: null },
    ]);
    expect(report.append_only?.previous_rows).toEqual({ results: 80, reviews: 1 });
    expect(
      report.append_only?.rows.map((v) => `${v.file}:${v.line} ${v.change.split(":")[0] ?? ""}`),
    ).toEqual([`${GZ}@${short}:1 changed`]);
    expect(report.verdict).toBe("unresolved");
    expect(r.code).toBe(1);
    expect(
      fakes
        .current()
        ?.calls()
        .filter((c) => c === "GET repos/get-content"),
    ).toHaveLength(3);
  });

  it("merge_group: the merge group's base commit; an appended export passes", async () => {
    const { r, report, base } = await run({
      event: "merge_group",
      repo: {
        base: { [RESULTS_PATH]: BEFORE },
        head: { [RESULTS_PATH]: AFTER, [REVIEWS_PATH]: REVIEW_1 + "\n" },
      },
    });
    expect(report.append_only_base?.commit).toBe(base);
    expect(report.append_only_base?.files.map((f) => [f.path, f.compared])).toEqual([
      [RESULTS_PATH, true],
      [REVIEWS_PATH, false],
    ]);
    expect(appendOnlyCheck(report)?.passed).toBe(true);
    expect(report.verdict).toBe("accept");
    expect(r.code).toBe(0);
  });

  it("workflow_run: the confirmed pull request's base; the checkout's reviews are compared, the downloaded export is not", async () => {
    const { r, report, base } = await run({
      event: "workflow_run",
      repo: {
        base: { [REVIEWS_PATH]: `${REVIEW_1}\n${REVIEW_2}\n` },
        // The default branch rewrote a review since the pull request's base.
        head: { [REVIEWS_PATH]: `${REVIEW_1.replace('"valid"', '"broken"')}\n${REVIEW_2}\n` },
        untracked: { [RESULTS_PATH]: AFTER },
      },
    });
    expect(report.append_only_base?.commit).toBe(base);
    expect(report.append_only_base?.files.map((f) => [f.kind, f.compared, f.note])).toEqual([
      ["results", false, "not in the repository (git does not track it: e.g. a downloaded artifact)"],
      ["reviews", true, null],
    ]);
    expect(report.append_only?.rows[0]?.change).toBe(
      'changed: task_id "neither-00000", dataset_revision "sha256:0001", review_revision 2, reviewer "ana": validity "valid" → "broken"',
    );
    expect(report.verdict).toBe("unresolved");
    expect(r.code).toBe(1);
  });

  it("a glob input: a file it matched at the base commit and the change removed is compared (rows gone: rewritten; rows moved: fine)", async () => {
    const A = exportText(ROWS.slice(0, 30));
    const B = exportText(ROWS.slice(30, 40));
    const removed = await run({
      repo: {
        base: { "bench/r-a.jsonl": A, "bench/r-b.jsonl": B },
        head: { "bench/r-a.jsonl": A + exportText(ROWS.slice(40)), [REVIEWS_PATH]: REVIEW_1 + "\n" },
        deleted: ["bench/r-b.jsonl"],
      },
      inputs: { results: "bench/r-*.jsonl" },
    });
    const short = removed.base.slice(0, 12);
    expect(removed.report.append_only_base?.files).toEqual([
      { kind: "results", path: "bench/r-a.jsonl", compared: true, via: "git", note: null },
      {
        kind: "reviews",
        path: REVIEWS_PATH,
        compared: false,
        via: null,
        note: `not at the base commit ${short} (added by this change)`,
      },
      {
        kind: "results",
        path: "bench/r-b.jsonl",
        compared: true,
        via: "git",
        note: "removed by this change (bench/r-*.jsonl matched it at the base commit)",
      },
    ]);
    expect(removed.report.append_only?.rows_changed_or_removed).toBe(20);
    expect(removed.report.append_only?.rows[0]).toMatchObject({ file: `bench/r-b.jsonl@${short}`, line: 1 });
    expect(removed.report.verdict).toBe("unresolved");
    expect(removed.r.summary).toContain(
      "compared (git; removed by this change \\(bench/r\\-\\*\\.jsonl matched it",
    );

    const moved = await run({
      repo: {
        base: { "bench/r-a.jsonl": A, "bench/r-b.jsonl": B },
        head: { "bench/r-a.jsonl": AFTER, [REVIEWS_PATH]: REVIEW_1 + "\n" },
        deleted: ["bench/r-b.jsonl"],
      },
      inputs: { results: "bench/r-*.jsonl" },
    });
    expect(appendOnlyCheck(moved.report)?.passed).toBe(true);
    expect(moved.report.append_only?.previous_rows.results).toBe(80);
    expect(moved.report.verdict).toBe("accept");
  });

  it("push: no base commit, one line says the check does not run", async () => {
    const { r, report } = await run({
      event: "push",
      repo: {
        base: { [RESULTS_PATH]: BEFORE },
        head: { [RESULTS_PATH]: AFTER, [REVIEWS_PATH]: REVIEW_1 + "\n" },
      },
    });
    expect(report.append_only_base).toBeNull();
    expect(report.append_only).toBeNull();
    expect(logLines(r, "Append-only:")).toEqual([
      "Append-only: no base commit on push; the results and reviews are not compared with an earlier version.",
    ]);
  });
});

describe("append-only in the action's rank mode (models input)", () => {
  const RANK = { baseline: "", candidate: "", models: "cfg-baseline, cfg-candidate" } as const;

  it("an appended export: compared with the base commit's, the ranking decides (top resolved)", async () => {
    const { r } = await run({
      repo: { base: { [RESULTS_PATH]: BEFORE }, head: { [RESULTS_PATH]: AFTER } },
      inputs: { ...RANK, reviews: "" },
    });
    const report = JSON.parse(readFileSync(r.outputs["report-path"] ?? "", "utf8")) as RankReport;
    expect(report.kind).toBe("rank");
    expect(report.provenance.append_only).toMatchObject({ rows_changed_or_removed: 0 });
    expect(r.outputs["top"]).toBe("cfg-candidate");
    expect(r.outputs["top-resolved"]).toBe("true");
    expect(r.outputs["verdict"]).toBe("accept");
  });

  it("a rewritten result at the base commit leaves the top unresolved and the rank gate unresolved, naming the row", async () => {
    const { r, base } = await run({
      repo: { base: { [RESULTS_PATH]: BEFORE }, head: { [RESULTS_PATH]: rewritten(AFTER, 3) } },
      inputs: { ...RANK, reviews: "" },
    });
    const report = JSON.parse(readFileSync(r.outputs["report-path"] ?? "", "utf8")) as RankReport;
    expect(report.provenance.append_only?.rows_changed_or_removed).toBe(1);
    expect(report.provenance.append_only?.rows[0]).toMatchObject({
      kind: "results",
      file: `${RESULTS_PATH}@${base.slice(0, 12)}`,
      line: 3,
    });
    expect(report.top).toBeNull();
    expect(report.gate.verdict).toBe("unresolved");
    expect(report.gate.reasons[0]).toMatch(/^History rewritten: /);
    expect(r.outputs["top"]).toBe("");
    expect(r.outputs["top-resolved"]).toBe("false");
    expect(r.outputs["verdict"]).toBe("unresolved");
  });
});
