/**
 * Results that are not JSON lines: a CSV or TSV table is one problem naming the file,
 * what it looks like and which importer or format to use (not one "not valid JSON" a line), and
 * an empty results file is named, and said to be empty, when a compared model is missing from
 * the export. The reader, the CLI and the action say the same.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

import { describe, expect, it } from "vitest";

import { escapeMarkdownInline } from "../../src/core/report/escape.js";
import { cliInProcess } from "../helpers/run-cli.js";
import { tempDir, writePolicy } from "../helpers/export-writer.js";
import { policyYaml } from "../action/exports.js";
import { runDist, useFakeGitHub, workflowCommands } from "../action/run-action.js";
import { fixtures, inputError, readNamed, row, toJsonl } from "./fixtures.js";

const fx = fixtures("tables");

const CSV_HEADER = "task_id,model_config,result,validity";
const csvRows = (n: number): string =>
  [CSV_HEADER, ...Array.from({ length: n }, (_, i) => `t${i},base,pass,valid`)].join("\n") + "\n";
const TABLE_PROBLEM =
  `the file is a CSV table (its first line is the header "task_id", "model_config", "result", "validity"), not JSON lines, and is not read: ` +
  "the gate reads one JSON object per line, with the fields task_id, dataset_revision, harness_revision, model_config, validity, result and review_revision. " +
  "Export the rows as JSON lines (DuckDB: COPY (SELECT …) TO 'out.jsonl' (FORMAT JSON); pandas: df.to_json('out.jsonl', orient='records', lines=True)), " +
  "or turn your harness's own output into them with model-gate import (model-gate import --help lists the kinds)";
const EMPTY = "the results file is empty (0 bytes): it holds no rows";
const MISSING = [
  `the baseline model_config "base" does not appear in the export: the export has no valid rows`,
  `the candidate model_config "cand" does not appear in the export: the export has no valid rows`,
];

describe("a CSV or TSV table given as JSON lines: one problem for the file", () => {
  it("plain or gzip, after a BOM, CRLF and blank lines: its header line named, nothing else", async () => {
    const plain = await fx.write("results.csv", csvRows(1000));
    const gz = await fx.write("results.csv.gz", gzipSync(csvRows(1000)));
    const padded = await fx.write("padded.csv", `\uFEFF\r\n  \r\n${csvRows(3).replaceAll("\n", "\r\n")}`);
    for (const [path, name, line] of [
      [plain, "results.csv", 1],
      [gz, "results.csv.gz", 1],
      [padded, "padded.csv", 3],
    ] as const) {
      const err = await inputError(readNamed([path]));
      expect(err.total).toBe(1);
      expect(err.problems).toEqual([{ location: { file: name, line }, message: TABLE_PROBLEM }]);
    }
  });

  it("a reviews file that is a review sheet: model-gate import reviews-csv, after the results' problems", async () => {
    const results = await fx.jsonl("ok.jsonl", [row(), row({ model_config: "cand", result: "?" })]);
    const sheet = await fx.write("team.tsv", "task_id\tvalidity\treviewer\nt1\tbroken\tana\n");
    const err = await inputError(readNamed([results], [sheet]));
    expect(err.message).toBe(
      [
        "The results/reviews input has 2 problems:",
        `  ok.jsonl:2: field "result": expected one of pass, fail, infra_error, missing; got "?"`,
        `  team.tsv:1: the file is a TSV table (its first line is the header "task_id", "validity", "reviewer"), not JSON lines, and is not read: ` +
          "it looks like a review sheet; turn it into a reviews file with model-gate import reviews-csv team.tsv -o reviews.jsonl",
      ].join("\n"),
    );
  });

  it("a table after a JSON line is read as JSON lines: each bad line is its own problem, as before", async () => {
    const path = await fx.write("mixed.jsonl", toJsonl([row(), row({ model_config: "cand" }), CSV_HEADER]));
    const err = await inputError(readNamed([path]));
    expect(err.problems).toEqual([
      {
        location: { file: "mixed.jsonl", line: 3 },
        message: expect.stringMatching(/^expected a JSON object; the line is not valid JSON/) as unknown,
      },
    ]);
  });
});

describe("an empty results file is named when a compared model is missing", () => {
  it("0 bytes, blank lines, or gzip of nothing: the file first, then the missing models", async () => {
    const empty = await fx.write("empty.jsonl", "");
    const blank = await fx.write("blank.jsonl", "\n \r\n\t\n");
    const gz = await fx.write("nothing.jsonl.gz", gzipSync(""));
    const blankMessage = "the results file holds no rows: every line of it is blank";
    for (const [path, message] of [
      [empty, EMPTY],
      [blank, blankMessage],
      [gz, blankMessage],
    ] as const) {
      const err = await inputError(readNamed([path]));
      expect(err.message.split("\n").slice(1)).toEqual([
        `  ${path.slice(path.lastIndexOf("/") + 1)}: ${message}`,
        ...MISSING.map((m) => `  ${m}`),
      ]);
    }
  });

  it("beside a file that holds one model: named with the other model's problem; with both models, no problem", async () => {
    const empty = await fx.write("none.jsonl", "");
    const base = await fx.jsonl("base-only.jsonl", [row()]);
    const err = await inputError(readNamed([base, empty]));
    expect(err.message).toBe(
      [
        "The results/reviews input has 2 problems:",
        `  none.jsonl: ${EMPTY}`,
        `  the candidate model_config "cand" does not appear in the export; model_config ids present (1): "base"`,
      ].join("\n"),
    );
    const both = await fx.jsonl("both.jsonl", [row(), row({ model_config: "cand" })]);
    expect((await readNamed([both, empty])).rowsRead).toBe(2);
  });
});

describe("the CLI and the action say the same", () => {
  it("the CLI: exit 3, the problem on stderr", async () => {
    const dir = tempDir("gate-tables-cli-");
    writePolicy(dir);
    writeFileSync(join(dir, "results.csv"), csvRows(30));
    writeFileSync(join(dir, "empty.jsonl"), "");
    const argv = (file: string): string[] => [
      ...["evaluate", "--results", file, "--policy", "policy.yaml"],
      ...["--baseline", "base", "--candidate", "cand", "--today", "2026-11-29"],
    ];
    const table = await cliInProcess(argv("results.csv"), dir);
    expect(table.code).toBe(3);
    expect(table.stderr).toBe(
      `model-gate: The results/reviews input has 1 problem:\n  results.csv:1: ${TABLE_PROBLEM}\n`,
    );
    const empty = await cliInProcess(argv("empty.jsonl"), dir);
    expect(empty.code).toBe(3);
    expect(empty.stderr).toBe(
      [
        "model-gate: The results/reviews input has 3 problems:",
        `  empty.jsonl: ${EMPTY}`,
        ...MISSING.map((m) => `  ${m}`),
      ].join("\n") + "\n",
    );
  });

  describe("the action", () => {
    const fakes = useFakeGitHub();
    const run = async (file: string, text: string) =>
      runDist({
        fake: await fakes.start(),
        event: "push",
        inputs: { results: file, policy: "gate/policy.yaml", baseline: "base", candidate: "cand" },
        files: { [file]: text, "gate/policy.yaml": policyYaml() },
      });

    it("a table: an input error naming the file and its first line, in the summary and as an annotation", async () => {
      const r = await run("out/results.csv", csvRows(30));
      expect(r.code).toBe(1);
      expect(r.summary).toMatch(/^## ❗ input error — no verdict\n/);
      expect(r.summary).toContain(`- ${escapeMarkdownInline(`out/results.csv:1: ${TABLE_PROBLEM}`, 1000)}\n`);
      const located = workflowCommands(r.stdout).filter((c) => c.line.startsWith("::error file="));
      expect(located.map((c) => /^::error file=([^,]+),line=(\d+)/.exec(c.line)?.slice(1))).toEqual([
        ["out/results.csv", "1"],
      ]);
    });

    it("an empty results file: named, and said to be empty", async () => {
      const r = await run("out/empty.jsonl", "");
      expect(r.code).toBe(1);
      expect(r.summary).toContain(
        [`out/empty.jsonl: ${EMPTY}`, ...MISSING].map((m) => `- ${escapeMarkdownInline(m, 1000)}`).join("\n"),
      );
    });
  });
});
