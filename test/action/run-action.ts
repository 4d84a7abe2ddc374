/**
 * Runs the committed bundle `dist/index.js` as a real child process (on GATE_NODE), the way the runner does:
 * INPUT_* variables, an event payload file, GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files, a temporary
 * workspace, and GITHUB_API_URL pointing at the loopback fake GitHub.
 */
import { execFileSync, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { bundleCoverageEnv, GATE_NODE } from "../helpers/gate-node.js";
import { FakeGitHub } from "./fake-github.js";
import { INSTALLATION_TOKEN } from "./helpers.js";

export const DIST = resolve(import.meta.dirname, "../../dist/index.js");
/** The tests' clock for the bundle: its waits of seconds take milliseconds (test/helpers/short-waits.mjs). */
export const SHORT_WAITS = pathToFileURL(resolve(import.meta.dirname, "../helpers/short-waits.mjs")).href;

export const BASE_SHA = "b".repeat(40);
export const HEAD_SHA = "d".repeat(40);
export const PUSH_SHA = "e".repeat(40);
export const PR_NUMBER = 42;
/** The merge queue's commit: the base plus the queued pull request. */
export const MERGE_GROUP_SHA = "c".repeat(40);
/** The default branch's tip, GITHUB_SHA on workflow_run and pull_request_target. */
export const DEFAULT_BRANCH_SHA = "f".repeat(40);

export type EventKind =
  | "pull_request"
  | "fork"
  | "push"
  | "pull_request_target"
  | "merge_group"
  | "workflow_run"
  | "workflow_run_fork"
  | "schedule"
  | "workflow_dispatch";

/** GITHUB_EVENT_NAME for each kind. */
export function eventName(kind: EventKind): string {
  if (kind === "fork") return "pull_request";
  if (kind === "workflow_run_fork") return "workflow_run";
  return kind;
}

/** GITHUB_SHA for each kind, as the runner sets it. */
export function githubSha(kind: EventKind): string {
  if (kind === "push" || kind === "schedule" || kind === "workflow_dispatch") return PUSH_SHA;
  if (kind === "merge_group") return MERGE_GROUP_SHA;
  return DEFAULT_BRANCH_SHA;
}

export interface RunOptions {
  readonly fake: FakeGitHub;
  readonly event: EventKind;
  /** Replaces the event's payload (the file at GITHUB_EVENT_PATH). */
  readonly payload?: unknown;
  /** Action inputs by their action.yml names. */
  readonly inputs: Readonly<Record<string, string>>;
  /** Files to create in the workspace (relative path → content), or a function that writes them. */
  readonly files?: Readonly<Record<string, string>>;
  readonly prepare?: (workspace: string) => void;
  readonly env?: Readonly<Record<string, string>>;
  /** Reuse a workspace (second run of the same job). */
  readonly workspace?: string;
}

export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly outputs: Record<string, string>;
  readonly summary: string;
  readonly workspace: string;
  readonly runnerTemp: string;
}

export function eventPayload(kind: EventKind): unknown {
  const repository = { full_name: "acme/models" };
  if (kind === "push") return { ref: "refs/heads/main", after: PUSH_SHA, repository };
  if (kind === "schedule") return { schedule: "0 3 * * *", repository };
  if (kind === "workflow_dispatch") return { ref: "refs/heads/main", inputs: {}, repository };
  if (kind === "merge_group")
    return {
      action: "checks_requested",
      merge_group: {
        head_sha: MERGE_GROUP_SHA,
        head_ref: `refs/heads/gh-readonly-queue/main/pr-${PR_NUMBER}-${BASE_SHA}`,
        base_sha: BASE_SHA,
        base_ref: "refs/heads/main",
      },
      repository,
    };
  if (kind === "workflow_run" || kind === "workflow_run_fork")
    return {
      action: "completed",
      workflow_run: {
        id: 7001,
        name: "Model benchmark",
        event: "pull_request",
        status: "completed",
        conclusion: "success",
        head_sha: HEAD_SHA,
        head_branch: "tune",
        // GitHub leaves the list empty for a pull request from a fork.
        pull_requests:
          kind === "workflow_run"
            ? [
                {
                  number: PR_NUMBER,
                  head: { sha: HEAD_SHA, ref: "tune" },
                  base: { sha: BASE_SHA, ref: "main" },
                },
              ]
            : [],
      },
      repository,
    };
  return {
    action: "synchronize",
    number: PR_NUMBER,
    pull_request: {
      number: PR_NUMBER,
      base: { sha: BASE_SHA, ref: "main", repo: { full_name: "acme/models" } },
      head: {
        sha: HEAD_SHA,
        ref: "tune",
        repo: {
          full_name: kind === "fork" || kind === "pull_request_target" ? "outsider/models" : "acme/models",
        },
      },
    },
    repository: { full_name: "acme/models" },
  };
}

/** Parses the runner's GITHUB_OUTPUT file (`name<<DELIM … DELIM`). */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i] ?? "");
    if (!m || m[1] === undefined || m[2] === undefined) continue;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i] ?? "");
    out[m[1]] = value.join("\n");
  }
  return out;
}

const roots: string[] = [];

/** Removes the temporary directories of every run so far. */
export function cleanupRuns(): void {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
}

export async function runDist(opts: RunOptions): Promise<RunResult> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "gate-action-")));
  roots.push(root);
  const workspace = opts.workspace ?? join(root, "workspace");
  const runnerTemp = join(root, "runner-temp");
  mkdirSync(workspace, { recursive: true });
  mkdirSync(runnerTemp, { recursive: true });
  for (const [rel, text] of Object.entries(opts.files ?? {})) {
    mkdirSync(dirname(join(workspace, rel)), { recursive: true });
    writeFileSync(join(workspace, rel), text);
  }
  opts.prepare?.(workspace);
  const eventPath = join(root, "event.json");
  writeFileSync(eventPath, JSON.stringify(opts.payload ?? eventPayload(opts.event)));
  const outputPath = join(root, "output.txt");
  const summaryPath = join(root, "summary.md");
  writeFileSync(outputPath, "");
  writeFileSync(summaryPath, "");

  const env: Record<string, string> = {
    PATH: process.env["PATH"] ?? "/usr/bin:/bin",
    HOME: root,
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: eventName(opts.event),
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    GITHUB_WORKSPACE: workspace,
    GITHUB_REPOSITORY: `${opts.fake.owner}/${opts.fake.repo}`,
    GITHUB_API_URL: opts.fake.baseUrl,
    GITHUB_SHA: githubSha(opts.event),
    RUNNER_TEMP: runnerTemp,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    "INPUT_GITHUB-TOKEN": INSTALLATION_TOKEN,
    ...bundleCoverageEnv(),
    ...opts.env,
  };
  for (const [name, value] of Object.entries(opts.inputs))
    env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] = value;

  const child = spawn(GATE_NODE, ["--import", SHORT_WAITS, DIST], {
    cwd: workspace,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on("data", (b: Buffer) => stdout.push(b));
  child.stderr.on("data", (b: Buffer) => stderr.push(b));
  const code = await new Promise<number | null>((res) => child.on("close", res));
  return {
    code,
    stdout: Buffer.concat(stdout).toString("utf8"),
    stderr: Buffer.concat(stderr).toString("utf8"),
    outputs: parseOutputFile(readFileSync(outputPath, "utf8")),
    summary: readFileSync(summaryPath, "utf8"),
    workspace,
    runnerTemp,
  };
}

/** Where the end-to-end runs keep the policy and the results in their workspace. */
export const POLICY_PATH = "gate/policy.yaml";
export const RESULTS_PATH = "out/results.jsonl";

/** The results and policy inputs of a run whose files lie at the workspace's top. */
export const LOCAL_FILES: Readonly<Record<string, string>> = {
  results: "results.jsonl",
  policy: "policy.yaml",
};

/** The inputs of a gate run on that workspace (baseline cfg-baseline, candidate cfg-candidate), `extra` on top. */
export function gateInputs(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return {
    results: RESULTS_PATH,
    policy: POLICY_PATH,
    baseline: "cfg-baseline",
    candidate: "cfg-candidate",
    ...extra,
  };
}

/** Workflow commands (`::name …::`) the runner would obey, one per stdout line that starts one. */
export function workflowCommands(stdout: string): { name: string; line: string }[] {
  return stdout
    .split("\n")
    .filter((l) => l.trimStart().startsWith("::"))
    .map((line) => ({ name: /^\s*::([^\s:]+)/.exec(line)?.[1] ?? "", line }));
}

/** The whole lines of the run's `name` workflow commands (e.g. every `::warning::…`). */
export function commandLines(r: RunResult, name: string): string[] {
  return workflowCommands(r.stdout)
    .filter((c) => c.name === name)
    .map((c) => c.line);
}

export function distExists(): boolean {
  return existsSync(DIST);
}

/**
 * The hooks of a test file (or describe block) that runs the bundle against the fake GitHub:
 * dist/ built when it is missing (CI builds it and checks it matches the committed one), the run
 * directories removed afterwards, and every fake GitHub `start` opened in a test closed after it,
 * failing the test on any request GitHub would reject. `current` is the last one started in this
 * test (null between tests).
 */
export function useFakeGitHub(): { start(repo?: string): Promise<FakeGitHub>; current(): FakeGitHub | null } {
  const open: FakeGitHub[] = [];
  beforeAll(() => {
    if (!distExists())
      execFileSync("npm", ["run", "package"], {
        cwd: resolve(import.meta.dirname, "../.."),
        stdio: "inherit",
      });
  });
  afterAll(() => {
    cleanupRuns();
  });
  afterEach(async () => {
    const started = open.splice(0);
    for (const f of started) await f.close();
    for (const f of started) expect(f.violations).toEqual([]);
  });
  return {
    async start(repo = "acme/models") {
      const f = await new FakeGitHub(repo).start();
      open.push(f);
      return f;
    },
    current: () => open.at(-1) ?? null,
  };
}
