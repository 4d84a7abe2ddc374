/**
 * Scale without crashing. A call `f(...xs)` (and `f.apply(null, xs)`) puts every element of `xs`
 * on the stack: past ~10⁵ elements V8 throws "Maximum call stack size exceeded". The review-
 * fragility step did that at 200,000 valid tasks (`push(...g.tasks)`). The guard below reads the
 * source with the TypeScript parser and lists every argument spread and every `.apply`; the only
 * ones allowed are in files whose spreads are bounded by a constant, each listed with the reason.
 * The gate itself is then run on 200,000 tasks in several shapes, and with each verdict on 10⁶
 * tasks × 2 models under FUZZ_RUNS (`npm run fuzz`; 200,000 otherwise: past the ~10⁵ elements a
 * spread breaks at, and 10⁶ adds no code path, only ~2 GiB and half a minute per case);
 * `npm run bench` runs the same three at 10⁶ through the bundle and checks each verdict.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

import { runCli } from "../../../src/cli/main.js";
import { COLLECT_MIN_TASKS } from "../../../src/read/limits.js";
import { YOUNG_GENERATION_CHECK_LINES } from "../../../src/read/read-dataset.js";
import { BASE, CAND, DATASET, evaluateArgs, HARNESS, LONG, SMALL_POLICY, useScratch } from "../helpers.js";

const require = createRequire(import.meta.url);
// typescript is a dev dependency; its CommonJS API is the parser the guard needs.
const ts = require("typescript") as typeof import("typescript");

const scratch = useScratch("gate-scale-");

/**
 * Files whose argument spreads are over arrays of constant-bounded length. Anything else in src/
 * that spreads into a call, or calls `.apply`, fails the guard.
 */
const BOUNDED_SPREADS: Readonly<Record<string, string>> = {
  "src/core/report/html/evaluate-since-html.ts":
    "the HTML page's lists of what changed are cut at SINCE_LAST_RUN_ITEMS rows (10)",
  "src/core/report/render-clusters.ts":
    "the cluster table's rows above and below the fold (at most 10 and 40)",
  "src/core/report/render-markdown.ts": "rendered lists are cut at LIST_LIMIT rows (or a policy's few rules)",
  "src/core/report/render-task-tables.ts":
    "the task lists are cut at LIST_LIMIT rows before they are rendered",
  "src/core/report/render-runs.ts":
    "the run history's rows, at most RUN_HISTORY_MAX (20): runsReport cuts them",
  "src/core/report/render-since-last-run.ts":
    "each list of what changed since the last run is cut at SINCE_LAST_RUN_ITEMS rows (10) before rendering",
  "src/core/report/text-bar.ts": "the margin bar's handful of figures",
  "src/importers/swebench-leaderboard.ts": "a JSON pointer of a fixed depth",
};

interface Finding {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

function callSpreads(file: string): Finding[] {
  const sf = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const out: Finding[] = [];
  const at = (n: import("typescript").Node, text: string): void => {
    out.push({ file, line: sf.getLineAndCharacterOfPosition(n.getStart()).line + 1, text });
  };
  const visit = (n: import("typescript").Node): void => {
    if (ts.isSpreadElement(n) && (ts.isCallExpression(n.parent) || ts.isNewExpression(n.parent)))
      at(n, n.parent.getText().slice(0, 80));
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
      const name = n.expression.name.text;
      if (name === "apply" && n.arguments.length === 2) at(n, n.getText().slice(0, 80));
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

function sourceFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "src"], {
    encoding: "utf8",
  });
  return listed.split("\n").filter((f) => f.endsWith(".ts"));
}

describe("no call spreads an array whose length comes from the data", () => {
  it("the guard finds a spread and an apply (it can fail)", () => {
    const file = scratch.write(
      "const xs = [1, 2];\nMath.max(...xs);\nout.push(1, ...xs);\nnew Set(...xs);\nf.apply(null, xs);\n",
      "sample.ts",
    );
    expect(callSpreads(file).map((f) => f.line)).toEqual([2, 3, 4, 5]);
  });

  it("src/ has none outside the files whose spreads are bounded by a constant", () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap(callSpreads).filter((f) => BOUNDED_SPREADS[f.file] === undefined);
    expect(found).toEqual([]);
  });

  it("an allowed file still exists (the list is not stale)", () => {
    const files = new Set(sourceFiles());
    for (const f of Object.keys(BOUNDED_SPREADS)) expect(files.has(f), f).toBe(true);
  });
});

/**
 * Writes `tasks` valid tasks, one attempt per model; returns the path. Written in chunks of 10,000
 * tasks, so 10⁶ tasks (~340 MB) never stand in one string.
 */
function writeTasks(
  name: string,
  tasks: number,
  shape: { candidatePasses: (i: number) => boolean; baselinePasses: (i: number) => boolean },
  extra: (i: number) => Record<string, unknown> = () => ({}),
): string {
  const path = scratch.write("", name);
  const CHUNK = 10_000;
  for (let start = 0; start < tasks; start += CHUNK) {
    const parts: string[] = [];
    for (let i = start; i < Math.min(tasks, start + CHUNK); i++) {
      for (const [model, pass] of [
        [CAND, shape.candidatePasses(i)],
        [BASE, shape.baselinePasses(i)],
      ] as const) {
        parts.push(
          JSON.stringify({
            task_id: `t${i}`,
            dataset_revision: DATASET,
            harness_revision: HARNESS,
            model_config: model,
            validity: "valid",
            result: pass ? "pass" : "fail",
            review_revision: 1,
            ...extra(i),
          }),
        );
      }
    }
    appendFileSync(path, parts.join("\n") + "\n");
  }
  return path;
}

interface CountedRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Full collections the read asked for. */
  collections: number;
  /** Young-generation checks, and those told the read is task-heavy. */
  youngChecks: number;
  heavyChecks: number;
}

/** The CLI in-process on `argv`, counting the memory hooks the read calls. */
async function runCounted(argv: readonly string[]): Promise<CountedRun> {
  const run: CountedRun = {
    code: -1,
    stdout: "",
    stderr: "",
    collections: 0,
    youngChecks: 0,
    heavyChecks: 0,
  };
  run.code = await runCli(argv, {
    stdout: (t) => (run.stdout += t),
    stderr: (t) => (run.stderr += t),
    cwd: process.cwd(),
    now: () => new Date(),
    collectGarbage: () => {
      run.collections++;
    },
    youngGeneration: {
      cap: (taskHeavy) => {
        run.youngChecks++;
        if (taskHeavy) run.heavyChecks++;
      },
    },
  });
  return run;
}

async function gate(results: string): Promise<CountedRun & { report: Record<string, unknown> }> {
  const reportPath = scratch.path(`report-${Math.random().toString(36).slice(2)}.json`);
  const policy = scratch.write(SMALL_POLICY, `policy-${Math.random().toString(36).slice(2)}.yaml`);
  const run = await runCounted(evaluateArgs([results], policy, ["--report", reportPath]));
  const report =
    run.code <= 2 ? (JSON.parse(readFileSync(reportPath, "utf8")) as Record<string, unknown>) : {};
  return { ...run, report };
}

describe("200,000 valid tasks through the whole gate (was: Maximum call stack size exceeded)", () => {
  const N = 200_000;

  it("a clear accept: verdict accept, review fragility a finite count", async () => {
    const file = writeTasks("accept.jsonl", N, {
      candidatePasses: (i) => i % 10 < 8,
      baselinePasses: (i) => i % 10 < 5,
    });
    const r = await gate(file);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const c = r.report["comparison"] as Record<string, unknown>;
    expect(r.report["verdict"]).toBe("accept");
    expect(c["common_valid_tasks"]).toBe(N);
    expect(typeof c["review_fragility"]).toBe("number");
    expect(c["review_fragility"]).toBeGreaterThan(10_000);
    // A read of 200,000 tasks (≥ COLLECT_MIN_TASKS) asks for a collection in finish(), one after
    // the read and one before the verdicts by review revision; a small one asks for none
    // (test/read/read-dataset.test.ts).
    expect(r.collections).toBe(3);
    // The young generation's check: every 4,096 lines of the results file (2 rows a task), told
    // the read is task-heavy from line 2 × COLLECT_MIN_TASKS on.
    expect(r.youngChecks).toBe(Math.floor((2 * N) / YOUNG_GENERATION_CHECK_LINES));
    expect(r.heavyChecks).toBe(
      r.youngChecks - Math.floor((2 * COLLECT_MIN_TASKS - 1) / YOUNG_GENERATION_CHECK_LINES),
    );
  }, 60_000);

  it("a clear accept with 1,000 clusters (the clustered fragility path)", async () => {
    const file = writeTasks(
      "accept-clustered.jsonl",
      N,
      { candidatePasses: (i) => i % 10 < 8, baselinePasses: (i) => i % 10 < 5 },
      (i) => ({ cluster: `c${i % 1000}` }),
    );
    const r = await gate(file);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.report["verdict"]).toBe("accept");
  }, 60_000);

  it("model-gate rank: the read asks for the same collections and young-generation checks", async () => {
    const file = writeTasks("rank.jsonl", N, {
      candidatePasses: (i) => i % 10 < 8,
      baselinePasses: (i) => i % 10 < 5,
    });
    const policy = scratch.write(SMALL_POLICY, "rank-policy.yaml");
    const r = await runCounted([
      ...["rank", "--results", file, "--policy", policy],
      ...["--models", `${BASE},${CAND}`, "--format", "json"],
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const ranking = JSON.parse(r.stdout) as { top: string | null; models: { model: string }[] };
    expect(ranking.top).toBe(CAND);
    expect(ranking.models.map((m) => m.model)).toEqual([CAND, BASE]);
    // The one in finish(), before the task table is made (rank's own steps ask for none).
    expect(r.collections).toBe(1);
    expect(r.youngChecks).toBe(Math.floor((2 * N) / YOUNG_GENERATION_CHECK_LINES));
    expect(r.heavyChecks).toBe(
      r.youngChecks - Math.floor((2 * COLLECT_MIN_TASKS - 1) / YOUNG_GENERATION_CHECK_LINES),
    );
  }, 60_000);

  it("a clear reject: verdict reject, exit 1", async () => {
    const file = writeTasks("reject.jsonl", N, {
      candidatePasses: (i) => i % 10 < 3,
      baselinePasses: (i) => i % 10 < 7,
    });
    const r = await gate(file);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
    expect(r.report["verdict"]).toBe("reject");
  }, 60_000);
});

// The whole-gate run: 10⁶ tasks × 2 models with FUZZ_RUNS (`npm run fuzz`; ~20–30 s and
// ~2 GiB each), generated here and deleted after each case; 200,000 tasks otherwise, where the
// three verdicts take the same code paths.
const WHOLE_GATE_TASKS = LONG ? 1_000_000 : 200_000;
describe(`${WHOLE_GATE_TASKS.toLocaleString("en-US")} valid tasks × 2 models through the whole gate, each verdict`, () => {
  const N = WHOLE_GATE_TASKS;
  const cases = [
    {
      verdict: "accept",
      code: 0,
      candidate: (i: number) => i % 10 < 6,
      baseline: (i: number) => i % 10 < 5,
    },
    {
      verdict: "reject",
      code: 1,
      candidate: (i: number) => i % 10 < 4,
      baseline: (i: number) => i % 10 < 5,
    },
    // Equal pass rates on disjoint tasks: Δ̂ = 0, well inside the run-variance band.
    {
      verdict: "unresolved",
      code: 2,
      candidate: (i: number) => i % 2 === 0,
      baseline: (i: number) => i % 2 === 1,
    },
  ] as const;
  for (const c of cases) {
    it(`${c.verdict}: exit ${c.code}, every task compared`, async () => {
      const file = writeTasks(`million-${c.verdict}.jsonl`, N, {
        candidatePasses: c.candidate,
        baselinePasses: c.baseline,
      });
      try {
        const r = await gate(file);
        expect(r.stderr).toBe("");
        expect(r.report["verdict"]).toBe(c.verdict);
        expect(r.code).toBe(c.code);
        const comparison = r.report["comparison"] as Record<string, unknown>;
        expect(comparison["common_valid_tasks"]).toBe(N);
      } finally {
        rmSync(file, { force: true });
      }
    }, 600_000);
  }
});
