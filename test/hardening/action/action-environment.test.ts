/**
 * The runner's environment gone wrong, end to end with the committed bundle dist/index.js and the
 * fake GitHub: GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_WORKSPACE and GITHUB_EVENT_PATH that
 * cannot be used, and a report-path that is a directory, a device or one of the run's inputs.
 * Each gives exactly one `::error::` naming the variable or input (never "Internal error … this is
 * a bug", never a stack trace), the step fails, and whatever can still be delivered (outputs,
 * summary, check run, verdict) is. Was: an uncaught SyntaxError inside @actions/github's Context at
 * import time (a payload that is not JSON), and "Internal error" for the others.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

import { exportText, policyYaml, tasks } from "../../action/exports.js";
import {
  BASE_SHA,
  gateInputs,
  LOCAL_FILES,
  runDist,
  useFakeGitHub,
  workflowCommands,
  type EventKind,
  type RunResult,
} from "../../action/run-action.js";

const fakes = useFakeGitHub();

const ROWS = [
  ...tasks(20, "a-only", { validity: "valid", a: "pass", b: "fail" }),
  ...tasks(30, "both", { validity: "valid", a: "pass", b: "pass" }),
];
const RESULTS = exportText(ROWS);
const POLICY = policyYaml();

/**
 * One run of the bundle; `setup` gets the workspace (its parent is the run's scratch root) and
 * returns extra environment (it may create files first).
 */
async function run(
  setup: (workspace: string) => Record<string, string>,
  opts: { event?: EventKind; inputs?: Record<string, string> } = {},
): Promise<RunResult> {
  const fake = await fakes.start();
  fake.setFile(BASE_SHA, "policy.yaml", POLICY);
  const env: Record<string, string> = {};
  return runDist({
    fake,
    event: opts.event ?? "push",
    inputs: gateInputs({ ...LOCAL_FILES, ...opts.inputs }),
    files: { "results.jsonl": RESULTS, "policy.yaml": POLICY },
    prepare: (workspace) => {
      Object.assign(env, setup(workspace));
    },
    env,
  });
}

/** Exactly one ::error:: and it matches; no internal error, no stack trace; the step failed. */
function expectOneError(r: RunResult, pattern: RegExp): void {
  const errors = workflowCommands(r.stdout).filter((c) => c.name === "error");
  expect(
    errors.map((e) => e.line),
    r.stdout,
  ).toHaveLength(1);
  expect(errors[0]?.line).toMatch(pattern);
  expect(r.stdout + r.stderr).not.toMatch(/Internal error|this is a bug/i);
  expect(r.stderr).not.toMatch(/^\s+at .+[:(]\d+/m);
  expect(r.code).toBe(1);
}

/** The verdict reached the job summary. */
function expectSummaryVerdict(r: RunResult): void {
  expect(r.summary).toMatch(/^## ✅ accept/);
}

/** The verdict reached the step outputs. */
function expectOutputsVerdict(r: RunResult): void {
  expect(r.outputs["verdict"]).toBe("accept");
  expect(r.outputs["check-run-id"]).toMatch(/^\d+$/);
}

describe("GITHUB_OUTPUT that cannot be written", () => {
  it("in a missing directory: one error naming it; summary, check run and report delivered", async () => {
    let reportDir = "";
    const r = await run((ws) => {
      reportDir = join(ws, "..", "runner-temp");
      return { GITHUB_OUTPUT: join(ws, "..", "no", "such", "dir", "output.txt") };
    });
    expectOneError(
      r,
      /^::error::GITHUB_OUTPUT .*no[/]such[/]dir[/]output\.txt cannot be written \(no such file\)/,
    );
    expectSummaryVerdict(r);
    expect(fakes.current()?.checkRuns).toHaveLength(1);
    expect(
      (JSON.parse(readFileSync(join(reportDir, "model-gate-report.json"), "utf8")) as { verdict: string })
        .verdict,
    ).toBe("accept");
  });

  it("a directory: one error naming it (not one per output)", async () => {
    const r = await run((ws) => {
      const dir = join(ws, "..", "out-dir");
      mkdirSync(dir);
      return { GITHUB_OUTPUT: dir };
    });
    expectOneError(r, /^::error::GITHUB_OUTPUT .*out-dir cannot be written \(it is not a regular file\)/);
    expectSummaryVerdict(r);
  });

  it("a FIFO: refused at once, the step does not hang", async () => {
    const r = await run((ws) => {
      const fifo = join(ws, "..", "out.fifo");
      execFileSync("mkfifo", [fifo]);
      return { GITHUB_OUTPUT: fifo };
    });
    expectOneError(r, /^::error::GITHUB_OUTPUT .*out\.fifo cannot be written/);
    expectSummaryVerdict(r);
  });
});

describe("GITHUB_STEP_SUMMARY that cannot be written", () => {
  it("a directory: one error naming it; outputs, check run and verdict delivered", async () => {
    const r = await run((ws) => {
      const dir = join(ws, "..", "summary-dir");
      mkdirSync(dir);
      return { GITHUB_STEP_SUMMARY: dir };
    });
    expectOneError(r, /^::error::GITHUB_STEP_SUMMARY .*summary-dir cannot be written \(it is a directory\)/);
    expectOutputsVerdict(r);
  });

  it("below a regular file (ENOTDIR): one error naming it", async () => {
    const r = await run((ws) => ({ GITHUB_STEP_SUMMARY: join(ws, "results.jsonl", "summary.md") }));
    expectOneError(r, /^::error::GITHUB_STEP_SUMMARY .*cannot be written \(no such file \(a parent/);
    expectOutputsVerdict(r);
    expect(readFileSync(join(r.workspace, "results.jsonl"), "utf8")).toBe(RESULTS);
  });

  it("a FIFO with no reader: refused at once (no hang), one error", async () => {
    const r = await run((ws) => {
      const fifo = join(ws, "..", "summary.fifo");
      execFileSync("mkfifo", [fifo]);
      return { GITHUB_STEP_SUMMARY: fifo };
    });
    expectOneError(r, /^::error::GITHUB_STEP_SUMMARY .*summary\.fifo cannot be written/);
    expectOutputsVerdict(r);
  });

  it("a character device (/dev/null): refused, one error", async () => {
    const r = await run(() => ({ GITHUB_STEP_SUMMARY: "/dev/null" }));
    expectOneError(
      r,
      /^::error::GITHUB_STEP_SUMMARY \/dev\/null cannot be written \(it is not a regular file\)/,
    );
    expectOutputsVerdict(r);
  });
});

describe("GITHUB_WORKSPACE that cannot be used", () => {
  it("missing: one error naming it, the summary says why; no verdict", async () => {
    const r = await run((ws) => ({ GITHUB_WORKSPACE: join(ws, "..", "gone") }));
    expectOneError(r, /^::error::GITHUB_WORKSPACE .*gone cannot be used \(no such file\)/);
    expect(r.summary).toMatch(/^## ❗ input error — no verdict/);
    expect(r.summary).toContain("GITHUB\\_WORKSPACE");
    expect(r.outputs["verdict"]).toBeUndefined();
  });

  it("a regular file: one error naming it", async () => {
    const r = await run((ws) => ({ GITHUB_WORKSPACE: join(ws, "results.jsonl") }));
    expectOneError(r, /^::error::GITHUB_WORKSPACE .*results\.jsonl cannot be used \(not a directory\)/);
  });
});

describe("GITHUB_EVENT_PATH that cannot be used", () => {
  const broken = (text: string) => (ws: string) => {
    const path = join(ws, "..", "event-broken.json");
    writeFileSync(path, text);
    return { GITHUB_EVENT_PATH: path };
  };

  it("not JSON, on a pull request: one error naming it (was: an uncaught SyntaxError at import)", async () => {
    const r = await run(broken("{not json"), { event: "pull_request" });
    expectOneError(r, /^::error::GITHUB_EVENT_PATH .*event-broken\.json is not JSON\.$/);
    expect(r.stderr).toBe("");
    expect(r.summary).toMatch(/^## ❗ input error — no verdict/);
    expect(fakes.current()?.checkRuns).toHaveLength(0);
  });

  it("not JSON, on a push; and truncated JSON, and an empty file", async () => {
    for (const text of ["{not json", '{"pull_request": {"number": 4', ""]) {
      const r = await run(broken(text), { event: "push" });
      expectOneError(r, /^::error::GITHUB_EVENT_PATH .* is not JSON\.$/);
      expect(r.stderr).toBe("");
    }
  });

  it("a directory, a FIFO (no hang), a missing file, one over 25 MB: one error naming it and why", async () => {
    const cases: [(ws: string) => string, RegExp][] = [
      [(ws) => join(ws, ".."), /cannot be read \(it is a directory\)/],
      [
        (ws) => {
          const fifo = join(ws, "..", "event.fifo");
          execFileSync("mkfifo", [fifo]);
          return fifo;
        },
        /cannot be read \(it is a FIFO \(named pipe\)\)/,
      ],
      [(ws) => join(ws, "..", "missing.json"), /cannot be read \(no such file\)/],
      [
        (ws) => {
          // Valid JSON, one byte over GitHub's 25 MB payload cap: refused before parsing.
          const big = join(ws, "..", "event-big.json");
          writeFileSync(big, `{"pad":"${"x".repeat(25 * 1024 * 1024 - 9)}"}`);
          return big;
        },
        /cannot be read \(it is larger than 26214400 bytes, GitHub's largest event payload\)/,
      ],
    ];
    for (const [path, why] of cases) {
      const r = await run((ws) => ({ GITHUB_EVENT_PATH: path(ws) }), { event: "pull_request" });
      expectOneError(r, why);
      expect(r.stdout).toMatch(/::error::GITHUB_EVENT_PATH /);
    }
  });
});

describe("report-path that must not be written", () => {
  /** The report is refused: one error naming report-path, everything else delivered. */
  function expectRefused(r: RunResult, why: RegExp): void {
    expectOneError(r, /^::error::report-path /);
    expect(workflowCommands(r.stdout).find((c) => c.name === "error")?.line).toMatch(why);
    expectSummaryVerdict(r);
    expect(r.outputs["verdict"]).toBe("accept");
    expect(r.outputs["report-path"]).toBe("");
    expect(fakes.current()?.checkRuns).toHaveLength(1);
    // Inputs untouched.
    expect(readFileSync(join(r.workspace, "results.jsonl"), "utf8")).toBe(RESULTS);
    expect(readFileSync(join(r.workspace, "policy.yaml"), "utf8")).toBe(POLICY);
  }

  it("a directory", async () => {
    const r = await run(() => ({}), { inputs: { "report-path": "." } });
    expectRefused(r, /it is a directory; only a regular file is replaced/);
  });

  it("the results export itself", async () => {
    const r = await run(() => ({}), { inputs: { "report-path": "results.jsonl" } });
    expectRefused(r, /it is the input results\.jsonl; writing there would replace it/);
  });

  it("the policy, through ./ and a parent segment", async () => {
    const r = await run(
      (ws) => {
        mkdirSync(join(ws, "sub"));
        return {};
      },
      { inputs: { "report-path": "./sub/../policy.yaml" } },
    );
    expectRefused(r, /it is the input policy\.yaml/);
  });

  it("a symbolic link to the results export", async () => {
    const r = await run(
      (ws) => {
        symlinkSync(join(ws, "results.jsonl"), join(ws, "link.json"));
        return {};
      },
      { inputs: { "report-path": "link.json" } },
    );
    expectRefused(r, /it is the input results\.jsonl/);
  });

  it("a hard link to the results export (same device and inode)", async () => {
    const r = await run(
      (ws) => {
        execFileSync("ln", [join(ws, "results.jsonl"), join(ws, "hard.json")]);
        return {};
      },
      { inputs: { "report-path": "hard.json" } },
    );
    expectRefused(r, /it is the input results\.jsonl/);
  });

  it("a character device (/dev/null)", async () => {
    const r = await run(() => ({}), { inputs: { "report-path": "/dev/null" } });
    expectRefused(r, /it is a character device/);
  });

  it("a good report-path next to those: written, output set, no error", async () => {
    const r = await run(() => ({}), { inputs: { "report-path": "out/report.json" } });
    expect(r.code).toBe(0);
    expect(workflowCommands(r.stdout).filter((c) => c.name === "error")).toEqual([]);
    expect(r.outputs["report-path"]).toBe(join(r.workspace, "out", "report.json"));
    expect(
      (JSON.parse(readFileSync(join(r.workspace, "out", "report.json"), "utf8")) as { verdict: string })
        .verdict,
    ).toBe("accept");
  });
});
