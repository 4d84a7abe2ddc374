import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import { importText, parseTaskList, runImport } from "../../src/importers/index.js";
import { inputErrorOf, parseLines, revisionOf } from "./helpers.js";

// A synthetic harness report in the shape swebench.harness.reporting writes (schema_version 2).
const REPORT = JSON.stringify({
  total_instances: 6,
  submitted_instances: 5,
  completed_instances: 3,
  resolved_instances: 2,
  unresolved_instances: 1,
  empty_patch_instances: 1,
  error_instances: 1,
  completed_ids: ["astropy__astropy-1", "django__django-2", "django__django-3"],
  incomplete_ids: ["sympy__sympy-6"],
  empty_patch_ids: ["sympy__sympy-5"],
  submitted_ids: [
    "astropy__astropy-1",
    "django__django-2",
    "django__django-3",
    "sympy__sympy-4",
    "sympy__sympy-5",
  ],
  resolved_ids: ["astropy__astropy-1", "django__django-3"],
  unresolved_ids: ["django__django-2"],
  error_ids: ["sympy__sympy-4"],
  schema_version: 2,
});
const REPORT_IDS = [
  "astropy__astropy-1",
  "django__django-2",
  "django__django-3",
  "sympy__sympy-4",
  "sympy__sympy-5",
  "sympy__sympy-6",
];

describe("swebench-report", () => {
  test("maps each outcome list, with evidence, clusters and defaults; exact first line", () => {
    const r = importText({ kind: "swebench-report", file: "gpt-x.run1.json" }, REPORT, undefined);
    const rev = revisionOf(REPORT_IDS);
    expect(r.lines[0]).toBe(
      `{"task_id":"astropy__astropy-1","dataset_revision":"${rev}","harness_revision":"unknown:swebench-report",` +
        `"model_config":"gpt-x.run1","validity":"unreviewed","result":"pass","review_revision":0,` +
        `"evidence":["gpt-x.run1.json#/resolved_ids/0"],"cluster":"astropy/astropy"}`,
    );
    expect(
      parseLines(r.lines).map((o) => [o["task_id"], o["result"], (o["evidence"] as string[])[0]]),
    ).toEqual([
      ["astropy__astropy-1", "pass", "gpt-x.run1.json#/resolved_ids/0"],
      ["django__django-2", "fail", "gpt-x.run1.json#/unresolved_ids/0"],
      ["django__django-3", "pass", "gpt-x.run1.json#/resolved_ids/1"],
      ["sympy__sympy-4", "infra_error", "gpt-x.run1.json#/error_ids/0"],
      ["sympy__sympy-5", "fail", "gpt-x.run1.json#/empty_patch_ids/0"],
      ["sympy__sympy-6", "missing", "gpt-x.run1.json#/incomplete_ids/0"],
    ]);
    expect(r.notes).toEqual([
      "outcome lists: resolved_ids 2, unresolved_ids 1, error_ids 1, empty_patch_ids 1, incomplete_ids 1; " +
        "resolved_ids → pass, unresolved_ids → fail, error_ids → infra_error, incomplete_ids → missing",
      "empty_patch_ids → fail (default; --empty-patch fail|missing|infra_error)",
      "cluster: the repository from each task id (3 repositories); --cluster none to omit",
      "model_config: gpt-x.run1 (default: the report's file name (the harness writes <model>.<run_id>.json); --model-config to set it)",
      "harness_revision: unknown:swebench-report (default: the file names no harness; a placeholder, not a revision: the gate's harness checks fail on it; --harness-revision to set a real one)",
      `dataset_revision: ${rev} (computed: sha256 of the 6 task ids in the report's outcome lists, ` +
        'sorted by UTF-8 bytes and joined by "\\n"; --dataset-revision to set it)',
      "validity: unreviewed at review_revision 0 (defaults: labels come from a reviews file at a higher revision; --validity, --review-revision)",
      "6 rows: 2 pass, 2 fail, 1 infra_error, 1 missing",
    ]);
  });

  test("flags: --empty-patch, revisions, model config, validity, --cluster none", () => {
    const r = importText(
      {
        kind: "swebench-report",
        file: "r.json",
        emptyPatch: "infra_error",
        datasetRevision: "hf:verified@c104f84",
        harnessRevision: "git:abc",
        modelConfig: "cfg-a",
        validity: "valid",
        reviewRevision: 2,
        cluster: "none",
      },
      REPORT,
      undefined,
    );
    const rows = parseLines(r.lines);
    expect(rows[4]).toEqual({
      task_id: "sympy__sympy-5",
      dataset_revision: "hf:verified@c104f84",
      harness_revision: "git:abc",
      model_config: "cfg-a",
      validity: "valid",
      result: "infra_error",
      review_revision: 2,
      evidence: ["r.json#/empty_patch_ids/0"],
    });
    expect(r.notes).toContain("empty_patch_ids → infra_error (--empty-patch)");
    expect(r.notes).toContain("dataset_revision: hf:verified@c104f84 (--dataset-revision)");
  });

  test("--tasks: ids outside are left out and reported; ids absent are missing; revision from the list", () => {
    const tasks = parseTaskList("tasks.txt", "astropy__astropy-1\ndjango__django-2\nzeta__zeta-9\n");
    const r = importText({ kind: "swebench-report", file: "r.json" }, REPORT, tasks);
    expect(parseLines(r.lines).map((o) => [o["task_id"], o["result"], o["evidence"]])).toEqual([
      ["astropy__astropy-1", "pass", ["r.json#/resolved_ids/0"]],
      ["django__django-2", "fail", ["r.json#/unresolved_ids/0"]],
      ["zeta__zeta-9", "missing", ["r.json", "tasks.txt#L3"]],
    ]);
    expect(r.notes).toContain(
      "4 instances of the report outside the task list tasks.txt were left out (not counted): " +
        "django__django-3, sympy__sympy-4, sympy__sympy-5, sympy__sympy-6",
    );
    expect(parseLines(r.lines)[0]?.["dataset_revision"]).toBe(
      revisionOf(["astropy__astropy-1", "django__django-2", "zeta__zeta-9"]),
    );
  });

  test("an id in two outcome lists is refused, naming both JSON paths", async () => {
    const bad = JSON.stringify({ resolved_ids: ["a__a-1"], unresolved_ids: ["b__b-2", "a__a-1"] });
    expect(
      await inputErrorOf(() => importText({ kind: "swebench-report", file: "r.json" }, bad, undefined)),
    ).toBe(
      "r.json: not a usable SWE-bench harness report\n" +
        '  r.json: field "/unresolved_ids/1": instance "a__a-1" is also in "resolved_ids" at /resolved_ids/0: the report is ambiguous',
    );
  });

  test("wrong shapes are refused with the JSON path; a results.json is recognised", async () => {
    expect(
      await inputErrorOf(() =>
        importText(
          { kind: "swebench-report", file: "r.json" },
          '{"resolved_ids": [1], "error_ids": {}}',
          undefined,
        ),
      ),
    ).toBe(
      "r.json: not a usable SWE-bench harness report\n" +
        '  r.json: field "/resolved_ids/0": expected an instance id (non-empty string), found number 1\n' +
        '  r.json: field "/error_ids": expected an array of instance ids, found an object',
    );
    expect(
      await inputErrorOf(() =>
        importText({ kind: "swebench-report", file: "r.json" }, '{"resolved": []}', undefined),
      ),
    ).toBe(
      "r.json: not a usable SWE-bench harness report\n" +
        '  r.json: field "": expected the keys resolved_ids and unresolved_ids (this looks like an experiments results.json: use the swebench-results kind)',
    );
  });

  test("invalid JSON names the line and column", async () => {
    const msg = await inputErrorOf(() =>
      importText({ kind: "swebench-report", file: "r.json" }, '{\n  "resolved_ids": [,]\n}', undefined),
    );
    expect(msg).toBe('r.json: not valid JSON\n  r.json:2:20: expected a JSON value, found ","');
    expect(
      await inputErrorOf(() =>
        importText({ kind: "swebench-report", file: "r.json" }, '{"a": "b\n', undefined),
      ),
    ).toBe('r.json: not valid JSON\n  r.json:1:9: a control character inside a string, found "\\n"');
    expect(
      await inputErrorOf(() =>
        importText({ kind: "swebench-report", file: "r.json" }, '{"a": [1, 2', undefined),
      ),
    ).toBe("r.json: not valid JSON\n  r.json:1:12: unexpected end of input: expected ',' or ']' in an array");
  });
});

describe("swebench-results", () => {
  const RESULTS = JSON.stringify({
    no_generation: ["django__django-3"],
    no_logs: ["sympy__sympy-4"],
    resolved: ["astropy__astropy-1", "other__other-99"],
  });
  const tasks = () =>
    parseTaskList("verified.txt", "astropy__astropy-1\ndjango__django-2\ndjango__django-3\nsympy__sympy-4\n");

  test("requires --tasks, and says why", async () => {
    expect(
      await inputErrorOf(() =>
        importText({ kind: "swebench-results", file: "x/results/results.json" }, RESULTS, undefined),
      ),
    ).toBe(
      "x/results/results.json: cannot import\n" +
        "  x/results/results.json: results.json lists only resolved ids (unresolved ones are implicit), so --tasks FILE " +
        "(the benchmark's task ids, one per line) is required to tell unresolved from absent",
    );
  });

  test("resolved → pass, no_logs → infra_error, no_generation → fail by default, the rest of the list → fail", () => {
    const file = "evaluation/verified/20240620_agent/results/results.json";
    const r = importText({ kind: "swebench-results", file }, RESULTS, tasks());
    expect(
      parseLines(r.lines).map((o) => [o["task_id"], o["result"], o["evidence"], o["model_config"]]),
    ).toEqual([
      ["astropy__astropy-1", "pass", [`${file}#/resolved/0`], "20240620_agent"],
      ["django__django-2", "fail", [`${file}#/resolved`, "verified.txt#L2"], "20240620_agent"],
      ["django__django-3", "fail", [`${file}#/no_generation/0`], "20240620_agent"],
      ["sympy__sympy-4", "infra_error", [`${file}#/no_logs/0`], "20240620_agent"],
    ]);
    expect(r.notes.slice(0, 3)).toEqual([
      "1 ids of the file outside the task list verified.txt were left out (not counted): other__other-99",
      "lists: resolved 2, no_generation 1, no_logs 1; resolved → pass, no_logs → infra_error, tasks of the list in no list → fail",
      "no_generation → fail (default; --empty-patch fail|missing|infra_error)",
    ]);
  });

  test("--empty-patch missing applies to no_generation", () => {
    const r = importText(
      { kind: "swebench-results", file: "results.json", emptyPatch: "missing" },
      RESULTS,
      tasks(),
    );
    expect(parseLines(r.lines)[2]?.["result"]).toBe("missing");
  });

  test("an id both resolved and no_logs is refused", async () => {
    const bad = JSON.stringify({ resolved: ["a__a-1"], no_logs: ["a__a-1"] });
    expect(
      await inputErrorOf(() =>
        importText({ kind: "swebench-results", file: "r.json" }, bad, parseTaskList("t", "a__a-1")),
      ),
    ).toBe(
      "r.json: not a usable SWE-bench experiments results.json\n" +
        '  r.json: field "/no_logs/0": instance "a__a-1" is also in "resolved" at /resolved/0: the file is ambiguous',
    );
  });
});

describe("swebench-leaderboard (synthetic)", () => {
  const board = (name: string, results: unknown[]) => ({ name, results });
  const entry = (folder: string, details?: Record<string, boolean>, resolved?: number) => ({
    folder,
    name: `Agent ${folder}`,
    resolved,
    ...(details
      ? {
          per_instance_details: Object.fromEntries(
            Object.entries(details).map(([k, v]) => [k, { resolved: v, cost: 0.1, api_calls: 3 }]),
          ),
        }
      : {}),
  });
  const FILE = JSON.stringify({
    leaderboards: [
      board("bash-only", [
        entry("run-a", { "a__a-1": true, "a/b~c__d-2": false }, 50),
        entry("run-b", { "a__a-1": false }),
      ]),
      board("Verified", [
        entry("agg-only"),
        entry("run-a", { "a__a-1": true, "a/b~c__d-2": false }, 50),
        entry("run-c", { "a__a-1": true }),
      ]),
      board("Lite", [entry("run-c", { "a__a-1": false })]),
    ],
  });

  test("several runs and no --run: the error lists the runs with per-instance details", async () => {
    expect(
      await inputErrorOf(() =>
        importText({ kind: "swebench-leaderboard", file: "lb.json" }, FILE, undefined),
      ),
    ).toBe(
      "lb.json: cannot import\n" +
        "  lb.json: the file holds several runs; choose one with --run FOLDER. " +
        "runs with per_instance_details (3): run-a, run-b, run-c",
    );
  });

  test("--run by folder; JSON Pointer escaping of ~ and / in ids; identical copies on two boards", () => {
    const r = importText({ kind: "swebench-leaderboard", file: "lb.json", run: "run-a" }, FILE, undefined);
    expect(parseLines(r.lines).map((o) => [o["task_id"], o["result"], o["evidence"], o["cluster"]])).toEqual([
      [
        "a/b~c__d-2",
        "fail",
        ["lb.json#/leaderboards/0/results/0/per_instance_details/a~1b~0c__d-2/resolved"],
        undefined,
      ],
      [
        "a__a-1",
        "pass",
        ["lb.json#/leaderboards/0/results/0/per_instance_details/a__a-1/resolved"],
        undefined,
      ],
    ]);
    expect(r.notes.slice(0, 4)).toEqual([
      "run: run-a (matched by folder)",
      'the run is on 2 boards (bash-only, Verified) with identical per-instance results; read from board "bash-only" (--board to choose)',
      "per_instance_details: 2 instances, 1 resolved; resolved true → pass, false → fail",
      "cluster: not written, because 1 task ids have no SWE-bench owner__repo shape (a/b~c__d-2)",
    ]);
  });

  test("--run by name; --board; a run on boards with different results needs --board", async () => {
    const byName = importText(
      { kind: "swebench-leaderboard", file: "lb.json", run: "Agent run-b" },
      FILE,
      undefined,
    );
    expect(byName.notes[0]).toBe("run: run-b (matched by name)");
    expect(
      await inputErrorOf(() =>
        importText({ kind: "swebench-leaderboard", file: "lb.json", run: "run-c" }, FILE, undefined),
      ),
    ).toBe(
      "lb.json: cannot import\n" +
        '  lb.json: run "run-c" is on several boards with different per-instance results ("Verified", "Lite"): choose one with --board',
    );
    const lite = importText(
      { kind: "swebench-leaderboard", file: "lb.json", run: "run-c", board: "Lite" },
      FILE,
      undefined,
    );
    expect(parseLines(lite.lines).map((o) => o["result"])).toEqual(["fail"]);
  });

  test("an entry with aggregates only, an unknown run, an unknown board", async () => {
    expect(
      await inputErrorOf(() =>
        importText({ kind: "swebench-leaderboard", file: "lb.json", run: "agg-only" }, FILE, undefined),
      ),
    ).toBe(
      "lb.json: cannot import\n" +
        '  lb.json: --run "agg-only": agg-only on board "Verified" has no per_instance_details (aggregates only). ' +
        "runs with per_instance_details (3): run-a, run-b, run-c",
    );
    expect(
      await inputErrorOf(() =>
        importText(
          { kind: "swebench-leaderboard", file: "lb.json", run: "nope", board: "Lite" },
          FILE,
          undefined,
        ),
      ),
    ).toBe(
      "lb.json: cannot import\n" +
        '  lb.json: --run "nope": no entry has folder or name "nope". runs with per_instance_details (1): run-c',
    );
    expect(
      await inputErrorOf(() =>
        importText(
          { kind: "swebench-leaderboard", file: "lb.json", run: "run-a", board: "Full" },
          FILE,
          undefined,
        ),
      ),
    ).toBe(
      'lb.json: cannot import\n  lb.json: --board "Full": no such board; boards: bash-only, Verified, Lite',
    );
  });

  test("a published percentage that disagrees with the per-instance values gives a warning note", () => {
    const f = JSON.stringify({
      leaderboards: [board("V", [entry("r", { "a__a-1": true, "a__a-2": false }, 60)])],
    });
    const r = importText({ kind: "swebench-leaderboard", file: "lb.json" }, f, undefined);
    expect(r.notes.slice(0, 2)).toEqual([
      "run: r (the only run with per_instance_details)",
      "WARNING: the entry publishes resolved = 60%, but its per_instance_details have 1/2 resolved = 50.00%; the per-instance values are imported",
    ]);
  });

  test("a non-boolean resolved is refused with its JSON path", async () => {
    const f = JSON.stringify({
      leaderboards: [board("V", [{ folder: "r", per_instance_details: { "a__a-1": { resolved: "yes" } } }])],
    });
    expect(
      await inputErrorOf(() => importText({ kind: "swebench-leaderboard", file: "lb.json" }, f, undefined)),
    ).toBe(
      "lb.json: not a usable SWE-bench leaderboards.json\n" +
        '  lb.json: field "/leaderboards/0/results/0/per_instance_details/a__a-1/resolved": ' +
        'expected {"resolved": true|false, …}, found a string ("yes")',
    );
  });
});

describe("swebench-pro (synthetic)", () => {
  const ids = {
    ok: "instance_org__repo-0123456789abcdef0123456789abcdef01234567-vnan",
    no: "instance_org__repo-1123456789abcdef0123456789abcdef01234567",
  };

  test("true → pass, false → fail, repository clusters, model from the run directory", () => {
    const r = importText(
      { kind: "swebench-pro", file: "traj/my-run/eval_results.json" },
      JSON.stringify({ [ids.ok]: true, [ids.no]: false }),
      undefined,
    );
    expect(
      parseLines(r.lines).map((o) => [o["task_id"], o["result"], o["cluster"], o["model_config"]]),
    ).toEqual([
      [ids.ok, "pass", "org/repo", "my-run"],
      [ids.no, "fail", "org/repo", "my-run"],
    ]);
  });

  test("a non-boolean value is refused with its JSON path", async () => {
    expect(
      await inputErrorOf(() =>
        importText({ kind: "swebench-pro", file: "e.json" }, JSON.stringify({ [ids.ok]: 1 }), undefined),
      ),
    ).toBe(
      `e.json: not a usable SWE-Bench Pro eval_results.json\n  e.json: field "/${ids.ok}": expected true or false (resolved), found number 1`,
    );
  });
});

describe("runImport reads files", () => {
  const dir = mkdtempSync(join(tmpdir(), "importers-"));

  test(".gz input and a task list file", async () => {
    const file = join(dir, "eval_results.json.gz");
    writeFileSync(file, gzipSync(JSON.stringify({ "a__a-1": true, "b__b-2": false })));
    const tasksFile = join(dir, "tasks.txt");
    writeFileSync(tasksFile, "\uFEFFa__a-1\r\n\r\nc__c-3\r\n");
    const r = await runImport({ kind: "swebench-pro", file, tasks: tasksFile, modelConfig: "m" });
    expect(parseLines(r.lines).map((o) => [o["task_id"], o["result"]])).toEqual([
      ["a__a-1", "pass"],
      ["c__c-3", "missing"],
    ]);
    expect(r.notes[0]).toBe(
      `1 ids of the file outside the task list ${tasksFile} were left out (not counted): b__b-2`,
    );
  });

  test("a missing file, a duplicated id in --tasks, an empty --tasks", async () => {
    expect(await inputErrorOf(() => runImport({ kind: "swebench-pro", file: join(dir, "nope.json") }))).toBe(
      `cannot read the input file ${join(dir, "nope.json")}: no such file`,
    );
    const file = join(dir, "e.json");
    writeFileSync(file, "{}");
    const dup = join(dir, "dup.txt");
    writeFileSync(dup, "a\nb\na\n");
    expect(await inputErrorOf(() => runImport({ kind: "swebench-pro", file, tasks: dup }))).toBe(
      `${dup}: the task list (--tasks) has duplicated ids\n  ${dup}:3: task id "a" is listed twice (first on line 1)`,
    );
    const empty = join(dir, "empty.txt");
    writeFileSync(empty, "\n\n");
    expect(await inputErrorOf(() => runImport({ kind: "swebench-pro", file, tasks: empty }))).toBe(
      `${empty}: cannot import\n  ${empty}: the task list (--tasks) is empty: expected one task id per line`,
    );
  });

  test("cwd: relative paths are read from it and named as given in evidence and messages", async () => {
    writeFileSync(join(dir, "run.json"), JSON.stringify({ "a__a-1": true }));
    writeFileSync(join(dir, "list.txt"), "a__a-1\n");
    const r = await runImport({ kind: "swebench-pro", file: "run.json", tasks: "list.txt", cwd: dir });
    expect(parseLines(r.lines)[0]?.["evidence"]).toEqual(["run.json#/a__a-1"]);
    expect(await inputErrorOf(() => runImport({ kind: "swebench-pro", file: "nope.json", cwd: dir }))).toBe(
      "cannot read the input file nope.json: no such file",
    );
  });

  test("nothing to import is an error", async () => {
    const file = join(dir, "e2.json");
    writeFileSync(file, "{}");
    expect(await inputErrorOf(() => runImport({ kind: "swebench-pro", file }))).toBe(
      `${file}: cannot import\n  ${file}: nothing to import: no task found`,
    );
  });
});
