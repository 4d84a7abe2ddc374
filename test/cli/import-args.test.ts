import { describe, expect, test } from "vitest";
import { isImportHelpRequest, parseImportArgs } from "../../src/cli/import-args.js";
import { IMPORT_HELP } from "../../src/cli/import-help.js";
import { IMPORT_KINDS } from "../../src/importers/index.js";
import { inputErrorOf } from "../importers/helpers.js";

const HINT = '\nRun "model-gate import --help" for the kinds and flags.';

describe("parseImportArgs", () => {
  test("kind, file and every common flag, in both --flag VALUE and --flag=VALUE forms", () => {
    expect(
      parseImportArgs([
        "swebench-leaderboard",
        "lb.json",
        "--run",
        "20251124_x",
        "--board=Verified",
        "--model-config",
        "cfg-a",
        "--dataset-revision=sha256:abc",
        "--harness-revision",
        "git:1",
        "--review-revision",
        "0",
        "--validity",
        "valid",
        "--tasks",
        "t.txt",
        "--cluster",
        "none",
        "-o",
        "out.jsonl",
      ]),
    ).toEqual({
      kind: "swebench-leaderboard",
      file: "lb.json",
      run: "20251124_x",
      board: "Verified",
      modelConfig: "cfg-a",
      datasetRevision: "sha256:abc",
      harnessRevision: "git:1",
      reviewRevision: 0,
      validity: "valid",
      tasks: "t.txt",
      cluster: "none",
      out: "out.jsonl",
    });
  });

  test("kind-specific flags", () => {
    expect(parseImportArgs(["swebench-results", "r.json", "--no-generation", "missing", "--out=o"])).toEqual({
      kind: "swebench-results",
      file: "r.json",
      emptyPatch: "missing",
      out: "o",
    });
    expect(
      parseImportArgs([
        "inspect",
        "l.json",
        "--scorer",
        "match",
        "--pass-threshold",
        "0.5",
        "--score-map",
        "P=fail,N=infra_error",
      ]),
    ).toEqual({
      kind: "inspect",
      file: "l.json",
      scorer: "match",
      passThreshold: 0.5,
      scoreMap: { P: "fail", N: "infra_error" },
    });
    expect(
      parseImportArgs([
        "verified-annotations",
        "a.csv",
        "--broken-at",
        "4",
        "--disputed-at",
        "1",
        "--other-issues",
        "ignore",
        "--reviewer",
        "me",
      ]),
    ).toEqual({
      kind: "verified-annotations",
      file: "a.csv",
      brokenAt: 4,
      disputedAt: 1,
      otherIssues: "ignore",
      reviewer: "me",
    });
  });

  test("usage errors are InputErrors with a clear message", async () => {
    const cases: [string[], string][] = [
      [[], "missing KIND; kinds: " + IMPORT_KINDS.join(", ")],
      [["csv", "x"], "KIND: expected one of " + IMPORT_KINDS.join(", ") + ', found "csv"'],
      [["inspect"], "missing FILE after inspect"],
      [["inspect", "a", "b"], 'unexpected argument "b"'],
      [["inspect", "a", "--frobnicate", "1"], "unknown flag --frobnicate"],
      [["inspect", "a", "--scorer"], "--scorer needs a value"],
      [["inspect", "a", "--scorer", "--out", "o.jsonl"], "--scorer needs a value"],
      [["inspect", "a", "--scorer", "x", "--scorer=y"], "--scorer is given twice (also as --scorer)"],
      [
        ["swebench-report", "a", "--empty-patch", "fail", "--no-generation", "fail"],
        "--no-generation is given twice (also as --empty-patch)",
      ],
      [
        ["inspect", "a", "--run", "x"],
        "--run does not apply to inspect (it applies to: swebench-leaderboard)",
      ],
      [
        ["reviews-csv", "a", "--model-config", "x"],
        "--model-config does not apply to reviews-csv (it applies to: swebench-report, swebench-results, swebench-leaderboard, swebench-pro, inspect, terminal-bench, promptfoo, lm-eval, table)",
      ],
      [
        ["inspect", "a", "--cluster", "repo"],
        "--cluster does not apply to inspect (it applies to: swebench-report, swebench-results, swebench-leaderboard, swebench-pro)",
      ],
      [["inspect", "a", "--review-revision", "-1"], '--review-revision: expected an integer ≥ 0, found "-1"'],
      [
        ["inspect", "a", "--review-revision", "1.5"],
        '--review-revision: expected an integer ≥ 0, found "1.5"',
      ],
      [["inspect", "a", "--pass-threshold", "high"], '--pass-threshold: expected a number, found "high"'],
      [["inspect", "a", "--score-map", "P"], '--score-map: expected VALUE=RESULT[,VALUE=RESULT…], found "P"'],
      [
        ["inspect", "a", "--score-map", "P=ok"],
        '--score-map: expected one of pass, fail, infra_error, found "ok"',
      ],
      [
        ["inspect", "a", "--validity", "fine"],
        '--validity: expected one of unreviewed, valid, broken, disputed, found "fine"',
      ],
      [
        ["swebench-report", "a", "--empty-patch", "skip"],
        '--empty-patch: expected one of fail, missing, infra_error, found "skip"',
      ],
      [
        ["verified-annotations", "a", "--disputed-at", "3", "--broken-at", "2"],
        "--disputed-at 3 is above --broken-at 2",
      ],
      [["inspect", "a", "--model-config", ""], "--model-config: expected a non-empty value"],
      [
        ["swebench-pro-audit", "audit", "--claimed", "valid"],
        '--claimed: expected one of broken, disputed, found "valid"',
      ],
      [
        ["verified-annotations", "a", "--claimed", "disputed"],
        "--claimed does not apply to verified-annotations (it applies to: swebench-pro-audit)",
      ],
    ];
    for (const [argv, message] of cases) {
      expect(await inputErrorOf(() => parseImportArgs(argv))).toBe(`model-gate import: ${message}${HINT}`);
    }
  });

  test("the flags of terminal-bench, promptfoo, lm-eval and table", () => {
    expect(
      parseImportArgs([
        "terminal-bench",
        "r/results.json",
        "--run-metadata",
        "m.json",
        "--model-config",
        "c",
      ]),
    ).toEqual({
      kind: "terminal-bench",
      file: "r/results.json",
      runMetadata: "m.json",
      modelConfig: "c",
    });
    expect(
      parseImportArgs([
        "promptfoo",
        "r.json",
        "--provider",
        "echo",
        "--model-config-from=label",
        "--prompt",
        "p1",
      ]),
    ).toEqual({
      kind: "promptfoo",
      file: "r.json",
      provider: "echo",
      modelConfigFrom: "label",
      prompt: "p1",
    });
    expect(
      parseImportArgs([
        "lm-eval",
        "s.jsonl",
        "--results-json",
        "r.json",
        "--metric",
        "acc",
        "--threshold",
        "0.5",
        "--filter",
        "none",
      ]),
    ).toEqual({
      kind: "lm-eval",
      file: "s.jsonl",
      resultsJson: "r.json",
      metric: "acc",
      passThreshold: 0.5,
      filter: "none",
    });
    expect(
      parseImportArgs([
        "table",
        "t.csv",
        "--map",
        "task_id=id,model_config=model,result=correct,attempt=seed,cluster=repo,metrics.cost_usd=cost",
        "--pass-values",
        "yes,Y",
        "--fail-values=no,",
        "--infra-values",
        "err",
        "--format",
        "csv",
      ]),
    ).toEqual({
      kind: "table",
      file: "t.csv",
      map: {
        task_id: "id",
        model_config: "model",
        result: "correct",
        attempt: "seed",
        cluster: "repo",
        "metrics.cost_usd": "cost",
      },
      passValues: ["yes", "Y"],
      failValues: ["no", ""],
      infraValues: ["err"],
      format: "csv",
    });
  });

  test("the new flags' usage errors", async () => {
    const cases: [string[], string][] = [
      [
        ["lm-eval", "s", "--threshold", "0.5", "--pass-threshold", "0.4"],
        "--pass-threshold is given twice (also as --threshold)",
      ],
      [
        ["promptfoo", "r", "--model-config-from", "name"],
        '--model-config-from: expected one of id, label, found "name"',
      ],
      [["table", "t", "--format", "xlsx"], '--format: expected one of csv, jsonl, found "xlsx"'],
      [["table", "t", "--map", "task_id"], '--map: expected FIELD=COLUMN[,FIELD=COLUMN…], found "task_id"'],
      [["table", "t", "--map", "task_id="], '--map: expected FIELD=COLUMN[,FIELD=COLUMN…], found "task_id="'],
      [["table", "t", "--map", "task_id=a,task_id=b"], '--map: "task_id" is mapped twice'],
      [
        ["table", "t", "--pass-values", "1", "--fail-values", "0,1"],
        '"1" is in both --pass-values and --fail-values: a value means one result',
      ],
      [["table", "t", "--pass-values", "y,y"], '--pass-values: "y" is listed twice'],
      [["inspect", "l", "--map", "task_id=x"], "--map does not apply to inspect (it applies to: table)"],
      [
        ["table", "t", "--cluster", "repo"],
        "--cluster does not apply to table (it applies to: swebench-report, swebench-results, swebench-leaderboard, swebench-pro)",
      ],
      [
        ["promptfoo", "r", "--threshold", "1"],
        "--threshold does not apply to promptfoo (it applies to: lm-eval)",
      ],
    ];
    for (const [argv, message] of cases) {
      expect(await inputErrorOf(() => parseImportArgs(argv))).toBe(`model-gate import: ${message}${HINT}`);
    }
  });

  test("swebench-pro-audit: --claimed, --reviewer, --tasks", () => {
    expect(
      parseImportArgs([
        "swebench-pro-audit",
        "audit/",
        "--claimed",
        "disputed",
        "--reviewer=me",
        "--tasks",
        "t",
      ]),
    ).toEqual({
      kind: "swebench-pro-audit",
      file: "audit/",
      claimed: "disputed",
      reviewer: "me",
      tasks: "t",
    });
  });

  test("help requests", () => {
    expect(isImportHelpRequest([])).toBe(true);
    expect(isImportHelpRequest(["help"])).toBe(true);
    expect(isImportHelpRequest(["inspect", "--help"])).toBe(true);
    expect(isImportHelpRequest(["inspect", "l.json"])).toBe(false);
  });

  test("the help text documents every kind and every flag", () => {
    for (const kind of IMPORT_KINDS) expect(IMPORT_HELP).toContain(`  ${kind} `);
    for (const flag of [
      "--run",
      "--board",
      "--model-config",
      "--dataset-revision",
      "--harness-revision",
      "--review-revision",
      "--validity",
      "--tasks",
      "--empty-patch",
      "--no-generation",
      "--cluster",
      "--scorer",
      "--pass-threshold",
      "--score-map",
      "--broken-at",
      "--disputed-at",
      "--other-issues",
      "--claimed",
      "--reviewer",
      "--run-metadata",
      "--provider",
      "--model-config-from",
      "--prompt",
      "--results-json",
      "--metric",
      "--threshold",
      "--filter",
      "--map",
      "--pass-values",
      "--fail-values",
      "--infra-values",
      "--format",
      "-o, --out",
    ]) {
      expect(IMPORT_HELP).toContain(flag);
    }
  });
});
