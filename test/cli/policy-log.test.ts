/**
 * `model-gate policy-log` end to end on real git repositories built here (fixed names and dates,
 * so fixed commit ids): the exact JSON and Markdown (test/golden/policy-log.md), --since,
 * --evidence, --fail-on exit statuses, every user error, and the bundle dist/cli.js as a process.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PolicyLog } from "../../src/core/history/policy-log.js";
import { POLICY_LOG_HELP } from "../../src/cli/policy-log-command.js";
import { cliBundle, cliInProcess } from "../helpers/run-cli.js";
import { expectGolden } from "../action/golden.js";
import {
  buildRepo,
  git,
  policyText,
  removeTempDirs,
  STORY,
  tempDir,
  type Step,
} from "../history/policy-repo.js";
import { distExists } from "../action/run-action.js";

const TODAY = ["--today", "2026-12-01"];
const Q = "policy/gate.yaml";

let repo: { dir: string; commits: string[] };
beforeAll(() => {
  repo = buildRepo(STORY);
  if (!distExists())
    execFileSync("npm", ["run", "package"], { cwd: resolve(import.meta.dirname, "../.."), stdio: "inherit" });
});
afterAll(removeTempDirs);

async function jsonLog(args: readonly string[], cwd = repo.dir): Promise<PolicyLog> {
  const r = await cliInProcess(["policy-log", "--format", "json", ...TODAY, ...args], cwd);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as PolicyLog;
}

/** The entry of STORY[i] as the log must show it, from its known content. */
function entry(i: number, over: Record<string, unknown>): Record<string, unknown> {
  const step = STORY[i];
  const email = step?.author;
  return {
    commit: repo.commits[i],
    author: email,
    date: step?.date,
    committed: step?.date,
    subject: step?.subject,
    path: "gate/policy.yaml",
    previous_path: null,
    status: "modified",
    parse_error: null,
    owner: "@acme/eval-owners",
    revisit: "2026-03-31",
    changes: [],
    flags: [],
    expired: null,
    evidence_files: [],
    evidence_files_total: 0,
    ...over,
  };
}

const c = (i: number): string => repo.commits[i] ?? "";

describe("policy-log on a repository with a known history", () => {
  it("lists every commit that changed the file, across the rename, oldest first, with the exact flags and diffs", async () => {
    const log = await jsonLog(["--policy", Q]);
    const ml = { owner: "@acme/ml-platform" };
    expect(log).toEqual({
      path: Q,
      since: null,
      today: "2026-12-01",
      truncated: false,
      counts: {
        commits: 9,
        loosening: 4,
        snoozed: 1,
        owner_changed: 1,
        expired: 2,
        with_evidence: 1,
        unparsable: 1,
      },
      entries: [
        entry(0, { status: "added", compared_with: null }),
        entry(1, {
          compared_with: c(0),
          changes: [{ key: "accept_if.common_valid_tasks", base: ">= 500", head: ">= 300", loosening: true }],
          flags: ["loosening"],
        }),
        // Committed 2026-03-31T22:30Z, on the revisit day: not an expiry of the version before.
        entry(3, {
          revisit: "2026-06-30",
          compared_with: c(1),
          changes: [{ key: "revisit", base: "2026-03-31", head: "2026-06-30", loosening: true }],
          flags: ["loosening", "snoozed"],
        }),
        entry(4, {
          revisit: "2026-09-30",
          compared_with: c(3),
          changes: [
            { key: "revisit", base: "2026-06-30", head: "2026-09-30", loosening: true },
            { key: "accept_if.common_valid_tasks", base: ">= 300", head: ">= 400", loosening: false },
          ],
          flags: ["loosening"],
        }),
        entry(5, {
          ...ml,
          revisit: "2026-09-30",
          compared_with: c(4),
          changes: [{ key: "owner", base: "@acme/eval-owners", head: "@acme/ml-platform", loosening: false }],
          flags: ["owner_changed", "with_evidence"],
          evidence_files: ["results/may.jsonl", "reviews/may.jsonl"],
          evidence_files_total: 2,
        }),
        entry(6, {
          owner: null,
          revisit: null,
          compared_with: null,
          parse_error:
            'gate/policy.yaml:1:16: field "owner": YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]',
          flags: ["unparsable"],
        }),
        entry(7, {
          ...ml,
          revisit: "2026-09-30",
          compared_with: c(5),
          changes: [{ key: "on_expired", base: "warn", head: "fail", loosening: false }],
          flags: ["expired"],
          expired: { revisit: "2026-09-30", until: "2026-11-15" },
        }),
        entry(8, {
          ...ml,
          path: Q,
          previous_path: "gate/policy.yaml",
          status: "renamed",
          revisit: "2026-09-30",
          compared_with: c(7),
          flags: ["expired"],
          expired: { revisit: "2026-09-30", until: "2026-11-20" },
        }),
        entry(9, {
          ...ml,
          path: Q,
          revisit: "2027-03-31",
          compared_with: c(8),
          changes: [
            { key: "revisit", base: "2026-09-30", head: "2027-03-31", loosening: true },
            { key: "margin.confidence", base: "0.95", head: "0.975", loosening: false },
          ],
          flags: ["loosening"],
        }),
      ],
    });
  });

  it("prints the log as Markdown (golden), byte for byte the same on every run", async () => {
    const a = await cliInProcess(["policy-log", "--policy", Q, ...TODAY], repo.dir);
    expect(a.code).toBe(0);
    expect(a.stderr).toBe("");
    expectGolden("policy-log.md", a.stdout);
    const b = await cliInProcess(["policy-log", "--policy", Q, ...TODAY], repo.dir);
    expect(b.stdout).toBe(a.stdout);
  });

  it("--since REV: only later commits, the first compared with the file at REV (before a rename, by its old path)", async () => {
    const after5 = await jsonLog(["--policy", Q, "--since", c(5)]);
    expect(after5.since).toBe(c(5));
    expect(after5.entries.map((e) => [e.commit, e.compared_with, e.flags])).toEqual([
      [c(6), null, ["unparsable"]],
      [c(7), c(5), ["expired"]],
      [c(8), c(7), ["expired"]],
      [c(9), c(8), ["loosening"]],
    ]);
    const after7 = await jsonLog(["--policy", Q, "--since", c(7).slice(0, 12)]);
    expect(after7.entries.map((e) => [e.status, e.compared_with, e.changes.length])).toEqual([
      ["renamed", c(7), 0],
      ["modified", c(8), 2],
    ]);
  });

  it("--since HEAD: no commit since, an empty log and exit 0", async () => {
    const r = await cliInProcess(["policy-log", "--policy", Q, "--since", "HEAD", ...TODAY], repo.dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("0 commits since <code>HEAD</code>, oldest first: 0 with a loosening");
  });

  it("runs from a subdirectory, the path relative to it", async () => {
    const sub = join(repo.dir, "results");
    const log = await jsonLog(["--policy", "../policy/gate.yaml"], sub);
    expect(log.path).toBe(Q);
    expect(log.counts.commits).toBe(9);
  });

  it("--evidence names which files are results or reviews", async () => {
    const log = await jsonLog(["--policy", Q, "--evidence", "notes.txt", "results/*.jsonl"]);
    expect(log.entries.filter((e) => e.evidence_files_total > 0).map((e) => e.evidence_files)).toEqual([
      ["notes.txt", "results/may.jsonl"],
    ]);
  });

  it("--fail-on: exit 1 when a listed commit has a loosening (or any flag), 0 otherwise", async () => {
    const run = async (args: readonly string[], cwd = repo.dir): Promise<number> =>
      (await cliInProcess(["policy-log", "--policy", Q, ...TODAY, ...args], cwd)).code;
    expect(await run([])).toBe(0);
    expect(await run(["--fail-on", "loosening"])).toBe(1);
    expect(await run(["--fail-on", "any"])).toBe(1);
    // After c(5): no loosening until c(9).
    expect(await run(["--fail-on", "loosening", "--since", c(8)])).toBe(1);
    expect(await run(["--fail-on", "loosening", "--since", c(4)])).toBe(1);
    const clean = buildRepo([
      {
        date: "2026-01-05T09:00:00+00:00",
        author: "Alice Owner",
        subject: "Add",
        files: { [Q]: policyText({ revisit: "2027-01-01" }) },
      },
      {
        date: "2026-02-05T09:00:00+00:00",
        author: "Alice Owner",
        subject: "Tighten",
        files: { [Q]: policyText({ revisit: "2027-01-01", minTasks: 600 }) },
      },
    ]);
    expect(await run(["--fail-on", "loosening"], clean.dir)).toBe(0);
    expect(await run(["--fail-on", "any"], clean.dir)).toBe(0);
    // The version in force expires after its revisit date: a flag for --fail-on any only.
    const late = await cliInProcess(
      ["policy-log", "--policy", Q, "--today", "2027-01-02", "--fail-on", "any"],
      clean.dir,
    );
    expect(late.code).toBe(1);
    expect(late.stdout).toContain(
      "Expired: its revisit date 2027\\-01\\-01 passed and it is still in force.",
    );
  });
});

describe("policy-log on a history with merges", () => {
  it("lists the branch's own line: a merged pull request is its merge commit, with what it changed (a change made in the merge itself too)", async () => {
    const step = (date: string, subject: string): Step => ({ date, author: "Merge Bot", subject });
    const { dir, commits } = buildRepo([
      {
        date: "2026-01-05T09:00:00+00:00",
        author: "Alice Owner",
        subject: "Add",
        files: { [Q]: policyText({ revisit: "2027-01-01" }) },
      },
    ]);
    git(dir, ["checkout", "-q", "-b", "feat"]);
    writeFileSync(join(dir, Q), policyText({ revisit: "2027-01-01", minTasks: 300 }));
    mkdirSync(join(dir, "results"));
    writeFileSync(join(dir, "results/feat.jsonl"), "{}\n");
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-q", "-m", "feat: floor 300"], step("2026-01-10T09:00:00+00:00", "feat"));
    git(dir, ["checkout", "-q", "main"]);
    writeFileSync(join(dir, "README.md"), "x\n");
    git(dir, ["add", "README.md"]);
    git(dir, ["commit", "-q", "-m", "main: readme"], step("2026-01-12T09:00:00+00:00", "readme"));
    const m1 = step("2026-01-15T09:00:00+00:00", "Merge pull request #1 from feat");
    git(dir, ["merge", "-q", "--no-ff", "-m", m1.subject, "feat"], m1);
    git(dir, ["checkout", "-q", "-b", "feat2"]);
    writeFileSync(join(dir, Q), policyText({ revisit: "2027-01-01", minTasks: 300, confidence: 0.9 }));
    git(dir, ["commit", "-q", "-am", "feat2: confidence 0.9"], step("2026-01-20T09:00:00+00:00", "feat2"));
    git(dir, ["checkout", "-q", "main"]);
    const m2 = step("2026-01-25T09:00:00+00:00", "Merge pull request #2 from feat2");
    git(dir, ["merge", "-q", "--no-ff", "--no-commit", "feat2"], m2);
    // A change nobody reviewed, made in the merge itself.
    writeFileSync(join(dir, Q), policyText({ revisit: "2027-01-01", minTasks: 100, confidence: 0.9 }));
    git(dir, ["commit", "-q", "-am", m2.subject], m2);
    const log = await jsonLog(["--policy", Q], dir);
    const merge1 = git(dir, ["rev-parse", "HEAD^1"]);
    expect(log.entries.map((e) => [e.subject, e.compared_with, e.flags])).toEqual([
      ["Add", null, []],
      [m1.subject, commits[0], ["loosening", "with_evidence"]],
      [m2.subject, merge1, ["loosening"]],
    ]);
    expect(log.entries[1]?.evidence_files).toEqual(["results/feat.jsonl"]);
    expect(log.entries[1]?.commit).toBe(merge1);
    expect(log.entries[2]?.changes).toEqual([
      { key: "accept_if.common_valid_tasks", base: ">= 300", head: ">= 100", loosening: true },
      { key: "margin.confidence", base: "0.95", head: "0.9", loosening: true },
    ]);
  });
});

describe("policy-log on untrusted commit text", () => {
  it("escapes subjects, author names and paths in Markdown; JSON keeps them as they are", async () => {
    const subject = "@org/team #1 <img src=x onerror=alert(1)> [x](javascript:1) \u202Eevil";
    // git itself drops "<" and ">" from names.
    const author = "Mallory |x| *b* @admin";
    const path = "gate/[p]*.yaml";
    const r = buildRepo([
      {
        date: "2026-01-05T09:00:00+00:00",
        author,
        subject,
        files: { [path]: policyText(), "gate/p1.yaml": policyText() },
      },
      {
        date: "2026-01-06T09:00:00+00:00",
        author,
        subject: "other file only",
        files: { "gate/p1.yaml": policyText({ minTasks: 1 }) },
      },
    ]);
    const md = await cliInProcess(["policy-log", "--policy", path, ...TODAY], r.dir);
    expect(md.code).toBe(0);
    const lines = md.stdout.split("\n");
    expect(lines[4]).toBe(
      `### 1. <code>${r.commits[0]?.slice(0, 12) ?? ""}</code> 2026\\-01\\-05T09:00:00\\+00:00 — ` +
        "&#64;&#8203;org/team &#35;&#8203;1 &lt;img src\\=x onerror\\=alert\\(1\\)&gt; \\[x\\]\\(javascript:1\\) \\\\u\\{202E\\}evil",
    );
    expect(lines[6]).toBe(
      "By Mallory \\|x\\| \\*b\\* &#64;&#8203;admin · added <code>gate/\\[p\\]\\*\\.yaml</code> · " +
        "owner &#64;&#8203;acme/eval\\-owners · revisit by 2026\\-03\\-31",
    );
    expect(md.stdout).not.toMatch(/<img|@org|@admin|\u202E/);
    // A pathspec with glob characters is literal: the other file's commit is not listed.
    const json = await jsonLog(["--policy", path], r.dir);
    expect(json.entries.map((e) => [e.subject, e.author, e.path])).toEqual([[subject, author, path]]);
  });
});

describe("policy-log user errors: one message, exit 3, no stack", () => {
  async function fails(args: readonly string[], cwd: string): Promise<string> {
    const r = await cliInProcess(["policy-log", ...TODAY, ...args], cwd);
    expect(r.stdout).toBe("");
    expect(r.code).toBe(3);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    return r.stderr;
  }

  it("not a git checkout", async () => {
    const dir = tempDir("policy-log-plain-");
    writeFileSync(join(dir, "policy.yaml"), policyText());
    const err = await fails(["--policy", "policy.yaml"], dir);
    expect(err).toBe(
      `model-gate: ${dir} is not in a git checkout (fatal: not a git repository (or any of the parent directories): .git): ` +
        "the policy's history is read from git; run this inside the repository's checkout.\n",
    );
  });

  it("a path that never existed in the history", async () => {
    expect(await fails(["--policy", "gate/nope.yaml"], repo.dir)).toBe(
      "model-gate: No commit has the file gate/nope.yaml: is the path right, and is the file committed?\n",
    );
  });

  it("a file that is only in the working tree, not committed", async () => {
    writeFileSync(join(repo.dir, "draft.yaml"), policyText());
    expect(await fails(["--policy", "draft.yaml"], repo.dir)).toContain("No commit has the file draft.yaml");
  });

  it("a bad --since revision, and one that looks like a flag", async () => {
    expect(await fails(["--policy", Q, "--since", "no-such-tag"], repo.dir)).toBe(
      'model-gate: --since "no-such-tag" is not a commit of this repository (a commit id, tag or branch is expected).\n',
    );
    expect(await fails(["--policy", Q, "--since=--all"], repo.dir)).toContain(
      '--since "--all" is not a commit',
    );
  });

  it("--since a commit where the file did not exist, with nothing after it", async () => {
    const r = buildRepo([
      { date: "2026-01-05T09:00:00+00:00", author: "A", subject: "readme", files: { "README.md": "x\n" } },
    ]);
    expect(await fails(["--policy", Q, "--since", "HEAD"], r.dir)).toBe(
      `model-gate: No commit since HEAD has the file ${Q}, nor does that commit: is the path right, and is the file committed?\n`,
    );
  });

  it("a shallow clone: the history may be incomplete, and how to fix it", async () => {
    const shallow = join(tempDir("policy-log-shallow-"), "clone");
    git(repo.dir, ["clone", "-q", "--depth", "2", `file://${repo.dir}`, shallow]);
    expect(await fails(["--policy", Q], shallow)).toBe(
      "model-gate: This checkout is a shallow clone: older commits are not in it, so the policy's history may be incomplete. " +
        "Fetch the whole history (git fetch --unshallow), or in GitHub Actions check out with `fetch-depth: 0`.\n",
    );
  });

  it("a path outside the checkout", async () => {
    expect(await fails(["--policy", "../elsewhere.yaml"], repo.dir)).toBe(
      "model-gate: The policy ../elsewhere.yaml is not a file inside this git checkout.\n",
    );
  });

  it("a repository without commits", async () => {
    const dir = tempDir("policy-log-empty-");
    git(dir, ["init", "-q", "-b", "main"]);
    expect(await fails(["--policy", Q], dir)).toBe("model-gate: The repository has no commits yet (HEAD).\n");
  });

  it("--help prints the flags (exit 0); the main help lists the command", async () => {
    const help = await cliInProcess(["policy-log", "--help"], repo.dir);
    expect([help.code, help.stdout, help.stderr]).toEqual([0, POLICY_LOG_HELP, ""]);
    expect((await cliInProcess(["--help"], repo.dir)).stdout).toContain(
      "policy-log the policy file's history from git",
    );
  });

  it("usage: no --policy, a bad --today, a bad --format", async () => {
    expect(await fails([], repo.dir)).toContain("Missing --policy.");
    const r = await cliInProcess(["policy-log", "--policy", Q, "--today", "2026-02-30"], repo.dir);
    expect([r.code, r.stdout]).toEqual([3, ""]);
    expect(r.stderr).toContain('--today must be a date YYYY-MM-DD; got "2026-02-30".');
    expect(await fails(["--policy", Q, "--format", "html"], repo.dir)).toContain(
      'Flag --format must be one of markdown, json; got "html".',
    );
  });
});

describe("dist/cli.js policy-log (the bundle, a real process)", () => {
  it("prints the same log as the source, and exits 1 with --fail-on loosening", async () => {
    const r = cliBundle(["policy-log", "--policy", Q, ...TODAY], repo.dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe((await cliInProcess(["policy-log", "--policy", Q, ...TODAY], repo.dir)).stdout);
    expect(cliBundle(["policy-log", "--policy", Q, ...TODAY, "--fail-on", "loosening"], repo.dir).code).toBe(
      1,
    );
  });

  it("git not installed: one message, exit 3", () => {
    const empty = tempDir("policy-log-nogit-");
    mkdirSync(join(empty, "bin"));
    const r = cliBundle(["policy-log", "--policy", Q, ...TODAY], repo.dir, { PATH: join(empty, "bin") });
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "model-gate: Cannot run git (is it installed and on PATH?): the policy's history is read from git.\n",
    );
    expect(r.code).toBe(3);
  });
});
