/**
 * Real git repositories for the policy log tests, built in a temporary directory with fixed
 * names, e-mails and dates, so every commit id (and so every byte of the log) is the same on
 * every machine.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export function policyText(
  over: {
    owner?: string;
    revisit?: string;
    minTasks?: number;
    confidence?: number;
    onExpired?: "warn" | "fail";
  } = {},
): string {
  return [
    `owner: "${over.owner ?? "@acme/eval-owners"}"`,
    `revisit: ${over.revisit ?? "2026-03-31"}`,
    `on_expired: ${over.onExpired ?? "warn"}`,
    "accept_if:",
    `  common_valid_tasks: ">= ${over.minTasks ?? 500}"`,
    '  infra_error_rate: "< 1%"',
    '  disputed_fraction: "< 10%"',
    '  observed_margin: "> validity_sensitivity + run_variance"',
    "margin:",
    `  confidence: ${over.confidence ?? 0.95}`,
    "",
  ].join("\n");
}

export interface Step {
  /** ISO 8601 with offset; the author and commit date. */
  readonly date: string;
  readonly author: string;
  readonly subject: string;
  /** Files to write (path → text) or remove (null). */
  readonly files?: Readonly<Record<string, string | null>>;
  /** `git mv` before writing. */
  readonly move?: readonly [string, string];
}

const roots: string[] = [];

export function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  roots.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const d of roots.splice(0)) rmSync(d, { recursive: true, force: true });
}

function env(step?: Step): NodeJS.ProcessEnv {
  const who = step?.author ?? "Test";
  const email = `${who.toLowerCase().replace(/[^a-z]+/g, ".")}@example.invalid`;
  return {
    PATH: process.env["PATH"] ?? "/usr/bin:/bin",
    HOME: tmpdir(),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_AUTHOR_NAME: who,
    GIT_AUTHOR_EMAIL: email,
    GIT_COMMITTER_NAME: who,
    GIT_COMMITTER_EMAIL: email,
    ...(step === undefined ? {} : { GIT_AUTHOR_DATE: step.date, GIT_COMMITTER_DATE: step.date }),
  };
}

export function git(dir: string, args: readonly string[], step?: Step): string {
  return execFileSync("git", args, { cwd: dir, env: env(step), encoding: "utf8" }).trim();
}

/** A repository with these commits, in order; returns its directory and the commit ids. */
export function buildRepo(
  steps: readonly Step[],
  dir = tempDir("policy-log-"),
): { dir: string; commits: string[] } {
  git(dir, ["init", "-q", "-b", "main"]);
  const commits: string[] = [];
  for (const step of steps) {
    if (step.move !== undefined) {
      mkdirSync(dirname(join(dir, step.move[1])), { recursive: true });
      git(dir, ["mv", "--", step.move[0], step.move[1]]);
    }
    for (const [path, text] of Object.entries(step.files ?? {})) {
      if (text === null) git(dir, ["rm", "-q", "--", path]);
      else {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
        git(dir, ["add", "--", path]);
      }
    }
    git(dir, ["commit", "-q", "--allow-empty", "-m", step.subject], step);
    commits.push(git(dir, ["rev-parse", "HEAD"]));
  }
  return { dir, commits };
}

const P = "gate/policy.yaml";
const Q = "policy/gate.yaml";

/**
 * The audit story the tests check: a loosening; a revisit moved later alone (a snooze) on the
 * revisit day itself in UTC (not an expiry); a revisit moved later with a threshold re-examined
 * (no snooze); an owner change committed with results and reviews; a version that does not parse
 * and its fix; a rename after the revisit date passed (expired); the next revisit set with a
 * tighter confidence. An unrelated commit in between is not listed.
 */
export const STORY: readonly Step[] = [
  {
    date: "2026-01-05T09:00:00+00:00",
    author: "Alice Owner",
    subject: "Add the acceptance policy",
    files: { [P]: policyText() },
  },
  {
    date: "2026-02-10T10:00:00+00:00",
    author: "Bob Tuner",
    subject: "Lower the task floor to 300",
    files: { [P]: policyText({ minTasks: 300 }) },
  },
  {
    date: "2026-03-01T10:00:00+00:00",
    author: "Bob Tuner",
    subject: "Unrelated: README",
    files: { "README.md": "readme\n" },
  },
  // 2026-03-31T22:30Z: the revisit day itself in UTC, though the author's clock says April 1.
  {
    date: "2026-04-01T00:30:00+02:00",
    author: "Carol Late",
    subject: "Push the revisit date",
    files: { [P]: policyText({ minTasks: 300, revisit: "2026-06-30" }) },
  },
  {
    date: "2026-04-15T10:00:00+00:00",
    author: "Alice Owner",
    subject: "Re-examine the floor, next revisit in September",
    files: { [P]: policyText({ minTasks: 400, revisit: "2026-09-30" }) },
  },
  {
    date: "2026-05-01T10:00:00+00:00",
    author: "Dan Platform",
    subject: "Hand the gate to ml-platform with the May run",
    files: {
      [P]: policyText({ owner: "@acme/ml-platform", minTasks: 400, revisit: "2026-09-30" }),
      "results/may.jsonl": '{"task_id":"t1"}\n',
      "reviews/may.jsonl": '{"task_id":"t1"}\n',
      "notes.txt": "not evidence\n",
    },
  },
  {
    date: "2026-06-01T10:00:00+00:00",
    author: "Dan Platform",
    subject: "Edit the thresholds (broken)",
    files: { [P]: "owner: [unclosed\n" },
  },
  {
    date: "2026-06-02T10:00:00+00:00",
    author: "Dan Platform",
    subject: "Fix the edit; expired policies fail",
    files: {
      [P]: policyText({
        owner: "@acme/ml-platform",
        minTasks: 400,
        revisit: "2026-09-30",
        onExpired: "fail",
      }),
    },
  },
  {
    date: "2026-11-15T10:00:00+00:00",
    author: "Erin Tidy",
    subject: "Move the policy under policy/",
    move: [P, Q],
  },
  {
    date: "2026-11-20T10:00:00+00:00",
    author: "Alice Owner",
    subject: "Next revisit in March, confidence 0.975",
    files: {
      [Q]: policyText({
        owner: "@acme/ml-platform",
        minTasks: 400,
        revisit: "2027-03-31",
        onExpired: "fail",
        confidence: 0.975,
      }),
    },
  },
];

/** The story's commits that changed the policy, as indexes into STORY (the README commit is not one). */
export const POLICY_COMMITS = [0, 1, 3, 4, 5, 6, 7, 8, 9] as const;
