/**
 * terminal-bench: `tb run` output, on constructed runs (every mapping and refusal) and on the
 * committed fixture (three real runs cut to 12 tasks: fixtures/tool-outputs/PROVENANCE.md).
 */
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { importInputs, importText, parseTaskList, runImport } from "../../src/importers/index.js";
import type { ImportOptions, RelatedFile } from "../../src/importers/types.js";
import { inputErrorOf, parseLines, revisionOf } from "./helpers.js";

const FIXTURES = resolve(import.meta.dirname, "fixtures/tool-outputs/terminal-bench");

interface Trial {
  task: string;
  k: number;
  n?: number;
  resolved: boolean | null;
  mode?: string;
  tokens?: [number | null, number | null];
}
const trial = (t: Trial) => ({
  trial_name: `${t.task}.${t.k}-of-${t.n ?? 2}`,
  task_id: t.task,
  instruction: "do it",
  is_resolved: t.resolved,
  failure_mode: t.mode ?? "unset",
  total_input_tokens: t.tokens?.[0] ?? null,
  total_output_tokens: t.tokens?.[1] ?? null,
  uuid: `u-${t.task}-${t.k}`,
});
const metadata = (extra: Record<string, unknown> = {}) => ({
  run_id: "2026-01-01__00-00-00",
  dataset_name: "terminal-bench-core",
  dataset_version: "0.1.1",
  agent_name: "MyAgent",
  model_name: null,
  task_ids: ["a", "b", "c"],
  n_attempts: 2,
  commit_hash: "abc123",
  ...extra,
});
const TRIALS: Trial[] = [
  { task: "a", k: 1, resolved: true, tokens: [100, 20] },
  { task: "a", k: 2, resolved: false, mode: "agent_timeout", tokens: [150, 30] },
  { task: "b", k: 2, resolved: null, mode: "test_timeout" },
  { task: "b", k: 1, resolved: true, mode: "agent_timeout" },
];
function run(
  dir: string,
  trials: Trial[] = TRIALS,
  meta = metadata(),
  extra: Record<string, unknown> = {},
): RelatedFile[] {
  return [
    {
      role: "results.json",
      group: dir,
      shown: `${dir}/results.json`,
      text: JSON.stringify({ results: trials.map(trial), ...extra }),
    },
    { role: "run_metadata.json", group: dir, shown: `${dir}/run_metadata.json`, text: JSON.stringify(meta) },
  ];
}
/** The i-th element, which the test knows is there. */
function at<T>(xs: readonly T[], i: number): T {
  const x = xs[i];
  if (x === undefined) throw new Error(`no element ${i}`);
  return x;
}
const opts = (more: Partial<ImportOptions> = {}): ImportOptions => ({
  kind: "terminal-bench",
  file: "r1",
  modelConfig: "cfg",
  ...more,
});
const imp = (
  related: RelatedFile[],
  more: Partial<ImportOptions> = {},
  tasks = undefined as ReturnType<typeof parseTaskList> | undefined,
) => importText(opts(more), "", tasks, undefined, { related });

describe("terminal-bench on a constructed run", () => {
  it("is_resolved true/false/null → pass/fail/infra_error; attempt = k; tokens → metrics; tasks without a trial → missing", () => {
    const r = imp(run("r1"));
    const rev = `terminal-bench-core@0.1.1:${revisionOf(["a", "b", "c"])}`;
    expect(r.lines[0]).toBe(
      `{"task_id":"a","dataset_revision":"${rev}","harness_revision":"git:abc123","model_config":"cfg","validity":"unreviewed",` +
        `"result":"pass","review_revision":0,"evidence":["r1/results.json#/results/0/is_resolved"],"attempt":1,` +
        `"metrics":{"tokens_in":100,"tokens_out":20}}`,
    );
    expect(parseLines(r.lines).map((o) => [o["task_id"], o["attempt"], o["result"], o["evidence"]])).toEqual([
      ["a", 1, "pass", ["r1/results.json#/results/0/is_resolved"]],
      ["a", 2, "fail", ["r1/results.json#/results/1/is_resolved"]],
      ["b", 1, "pass", ["r1/results.json#/results/3/is_resolved"]],
      [
        "b",
        2,
        "infra_error",
        ["r1/results.json#/results/2/is_resolved", "r1/results.json#/results/2/failure_mode"],
      ],
      ["c", undefined, "missing", ["r1/run_metadata.json#/task_ids/2"]],
    ]);
    expect(r.notes).toContain(
      "is_resolved: 2 true → pass, 1 false → fail, 1 null → infra_error (failure_mode: 1 test_timeout)",
    );
    expect(r.notes).toContain(
      "agent_timeout: 2 trials where the agent's own time ran out keep their outcome (1 resolved → pass, 1 not → fail)",
    );
    expect(r.notes).toContain("1 tasks have no trial: written as missing (c)");
    expect(r.notes).toContain("metrics: tokens_in on 2 of 5 rows, tokens_out on 2 of 5 rows");
    expect(r.notes).toContain(
      "harness_revision: git:abc123 (default: run_metadata.json commit_hash (the terminal-bench checkout tb ran from); --harness-revision)",
    );
  });

  it("the file's own accuracy is checked against its trials", () => {
    expect(imp(run("r1", TRIALS, metadata(), { accuracy: 0.5 })).notes).toContain(
      "the file's accuracy 0.5 = 2 resolved / 4 trials (it counts is_resolved null as not resolved; here those are infra_error)",
    );
    expect(imp(run("r1", TRIALS, metadata(), { accuracy: 0.75 })).notes).toContain(
      "WARNING: the file's accuracy is 0.75, but 2 of its 4 trials are resolved (0.5000); the trials are imported",
    );
  });

  it("several runs of one config: one export, attempt = <run_id>/<k>, a harness revision per run when they differ", () => {
    const second = run(
      "r2",
      [{ task: "a", k: 1, resolved: false }],
      metadata({ run_id: "2026-01-02__00-00-00", commit_hash: "def456" }),
    );
    const r = imp([...run("r1"), ...second], { file: "runs" });
    const rows = parseLines(r.lines);
    expect(
      rows.filter((o) => o["task_id"] === "a").map((o) => [o["attempt"], o["result"], o["harness_revision"]]),
    ).toEqual([
      ["2026-01-01__00-00-00/1", "pass", "git:abc123"],
      ["2026-01-01__00-00-00/2", "fail", "git:abc123"],
      ["2026-01-02__00-00-00/1", "fail", "git:def456"],
    ]);
    expect(r.notes[0]).toBe(
      "2 runs of one config: 2026-01-01__00-00-00 (4 trials), 2026-01-02__00-00-00 (1 trials); attempt = <run_id>/<k>",
    );
    expect(r.notes).toContain(
      "harness_revision: per row, git:abc123 (4 rows), git:def456 (1 rows) (each run's run_metadata.json commit_hash; --harness-revision)",
    );
  });

  it("--tasks: trials outside are left out, tasks of the list without a trial are missing at their line", () => {
    const tasks = parseTaskList("t.txt", "a\nz\n");
    const r = imp(run("r1"), { tasks: "t.txt" }, tasks);
    expect(parseLines(r.lines).map((o) => [o["task_id"], o["result"], o["evidence"]])).toEqual([
      ["a", "pass", ["r1/results.json#/results/0/is_resolved"]],
      ["a", "fail", ["r1/results.json#/results/1/is_resolved"]],
      ["z", "missing", ["t.txt#L2"]],
    ]);
    expect(r.notes).toContain("1 tasks outside the task list t.txt were left out (not counted): b");
  });

  it("a run that names its model (tb --model) gives the default model config; a local dataset the plain computed revision", () => {
    const r = importText({ kind: "terminal-bench", file: "r1" }, "", undefined, undefined, {
      related: run(
        "r1",
        TRIALS,
        metadata({ model_name: "anthropic/claude-x", dataset_name: null, dataset_path: "/data/tasks" }),
      ),
    });
    const o = parseLines(r.lines)[0];
    expect(o?.["model_config"]).toBe("anthropic/claude-x");
    expect(o?.["dataset_revision"]).toBe(revisionOf(["a", "b", "c"]));
  });

  const refusals: readonly (readonly [string, () => unknown, string])[] = [
    [
      "no --model-config when tb recorded no model",
      () =>
        importText({ kind: "terminal-bench", file: "r1" }, "", undefined, undefined, { related: run("r1") }),
      'r1/run_metadata.json: field "/model_name": the run names no model (model_name is null: tb records it only when --model is given), so the model config cannot be read from it: give its id with --model-config ID',
    ],
    [
      "a trial name that is not <task>.<k>-of-<n>",
      () => imp(run("r1", [{ task: "a", k: 3, n: 2, resolved: true }])),
      'r1/results.json: field "/results/0/trial_name": expected the trial name "a.<k>-of-<n>" (1 ≤ k ≤ n), found a string ("a.3-of-2")',
    ],
    [
      "is_resolved that is not a boolean or null",
      () =>
        imp([
          {
            ...at(run("r1"), 0),
            text: JSON.stringify({ results: [{ ...trial(at(TRIALS, 0)), is_resolved: "yes" }] }),
          },
          at(run("r1"), 1),
        ]),
      'r1/results.json: field "/results/0/is_resolved": expected is_resolved true, false or null, found a string ("yes")',
    ],
    [
      "one trial twice",
      () => imp(run("r1", [at(TRIALS, 0), at(TRIALS, 0)])),
      'r1/results.json: field "/results/1": task "a" trial 1 appears twice (also /results/0): the run is ambiguous',
    ],
    [
      "a task the metadata does not list",
      () => imp(run("r1", [{ task: "q", k: 1, resolved: true }])),
      'r1/results.json: field "/results/0/task_id": task "q" is not among the task_ids of r1/run_metadata.json: the results and the metadata disagree',
    ],
    [
      "a negative token count",
      () => imp(run("r1", [{ task: "a", k: 1, resolved: true, tokens: [-1, 2] }])),
      'r1/results.json: field "/results/0/total_input_tokens": total_input_tokens: expected a number ≥ 0, found -1',
    ],
    [
      "runs on two dataset versions",
      () => imp([...run("r1"), ...run("r2", TRIALS, metadata({ run_id: "x", dataset_version: "0.2.0" }))]),
      'r2/run_metadata.json: field "/dataset_version": dataset_version is "0.2.0", but r1/run_metadata.json has "0.1.1": runs of one export must be on one dataset version; import the runs one by one',
    ],
    [
      "runs of two agents",
      () => imp([...run("r1"), ...run("r2", TRIALS, metadata({ run_id: "x", agent_name: "Other" }))]),
      "runs of one export must be of one config (agent)",
    ],
    [
      "the same run twice",
      () => imp([...run("r1"), ...run("r2")]),
      'r2/run_metadata.json: run_id "2026-01-01__00-00-00" is also the run of r1/run_metadata.json: the same run twice',
    ],
    [
      "no results array",
      () => imp([{ ...at(run("r1"), 0), text: "{}" }, at(run("r1"), 1)]),
      'r1/results.json: field "/results": expected tb\'s results object with a "results" array of trials, found "results": nothing',
    ],
  ];
  it.each(refusals)("refused: %s", async (_what, f, message) => {
    expect(await inputErrorOf(f)).toContain(message);
  });
});

describe("terminal-bench: finding the files", () => {
  const dir = mkdtempSync(join(tmpdir(), "tb-files-"));
  cpSync(FIXTURES, join(dir, "runs"), { recursive: true });
  const RUN = "20250906_orchestrator_claude-4.1-opus";

  it("a results.json, its run directory, and --run-metadata read the same run", async () => {
    const a = await runImport({
      kind: "terminal-bench",
      file: `runs/${RUN}/results.json`,
      cwd: dir,
      modelConfig: "m",
    });
    const b = await runImport({ kind: "terminal-bench", file: `runs/${RUN}`, cwd: dir, modelConfig: "m" });
    expect(b.lines).toEqual(a.lines);
    mkdirSync(join(dir, "elsewhere"));
    cpSync(join(dir, "runs", RUN, "results.json"), join(dir, "elsewhere", "results.json"));
    const c = await runImport({
      kind: "terminal-bench",
      file: "elsewhere/results.json",
      runMetadata: `runs/${RUN}/run_metadata.json`,
      cwd: dir,
      modelConfig: "m",
    });
    expect(c.lines.map((l) => l.replace(/elsewhere/g, `runs/${RUN}`))).toEqual(a.lines);
    expect(await importInputs({ kind: "terminal-bench", file: `runs/${RUN}`, cwd: dir })).toEqual([
      `runs/${RUN}/results.json`,
      `runs/${RUN}/run_metadata.json`,
    ]);
  });

  it("a directory of runs reads each subdirectory, in name order; one without results.json is refused", async () => {
    const inputs = await importInputs({ kind: "terminal-bench", file: "runs", cwd: dir });
    expect(inputs).toHaveLength(6);
    expect(inputs[0]).toBe("runs/20250902_orchestrator_claude-4-sonnet/results.json");
    mkdirSync(join(dir, "runs", "zz-unfinished"));
    expect(
      await inputErrorOf(() =>
        runImport({ kind: "terminal-bench", file: "runs", cwd: dir, modelConfig: "m" }),
      ),
    ).toBe(
      "runs: cannot import\n  runs: 1 subdirectories hold no results.json (zz-unfinished): an unfinished or failed run? Move them out, " +
        "or import the runs one by one: which runs belong to the export would be a guess",
    );
  });

  it("a missing run_metadata.json names the path and the flag's use", async () => {
    const d = mkdtempSync(join(tmpdir(), "tb-nometa-"));
    writeFileSync(join(d, "results.json"), JSON.stringify({ results: [] }));
    expect(
      await inputErrorOf(() => runImport({ kind: "terminal-bench", file: "results.json", cwd: d })),
    ).toMatch(/^cannot read the run metadata run_metadata\.json: /);
  });
});
