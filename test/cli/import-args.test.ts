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
        "--model-config does not apply to reviews-csv (it applies to: swebench-report, swebench-results, swebench-leaderboard, swebench-pro, inspect)",
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
      "-o, --out",
    ]) {
      expect(IMPORT_HELP).toContain(flag);
    }
  });
});
