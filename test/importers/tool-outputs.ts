/**
 * The promises the new importers keep on real tool outputs, run on the committed cuts of them
 * (test/importers/fixtures/tool-outputs). Each real output imports; the passes, fails and
 * infra errors per model equal a recount made here from the source file, apart from the
 * importers (plain JSON.parse, a regex CSV splitter, a ZIP walk over local headers); the same
 * input gives the same bytes; and rank and evaluate on the imports report the same figures.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { expect, it } from "vitest";
import type { RankReport } from "../../src/core/rank/rank-types.js";
import { runImport } from "../../src/importers/index.js";
import type { ImportOptions } from "../../src/importers/types.js";
import { cliInProcess } from "../helpers/run-cli.js";
import { parseLines } from "./helpers.js";

export interface Counts {
  pass: number;
  fail: number;
  infra_error: number;
}

/** Where one set of tool outputs is, and the counts its source says (SOURCES.md, PROVENANCE.md). */
export interface ToolOutputSet {
  readonly dir: string;
  readonly tbRuns: readonly string[];
  readonly promptfoo: string;
  readonly lmSamples: string;
  readonly inspectJson: readonly string[];
  readonly inspectEval: string;
  readonly table?: string;
  /** Pinned counts by file (and by model config for promptfoo), as the source documents state them. */
  readonly pinned: Readonly<Record<string, Counts>>;
  /** The policy's common_valid_tasks floor that fits the set's size. */
  readonly floor: number;
}

const tally = (results: readonly ("pass" | "fail" | "infra_error")[]): Counts => ({
  pass: results.filter((r) => r === "pass").length,
  fail: results.filter((r) => r === "fail").length,
  infra_error: results.filter((r) => r === "infra_error").length,
});

const json = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;

/** Terminal-Bench: is_resolved true → pass, false → fail, null → infra_error. */
export function recountTerminalBench(dir: string): Counts {
  const trials = json(join(dir, "results.json"))["results"] as { is_resolved: boolean | null }[];
  return tally(trials.map((t) => (t.is_resolved === null ? "infra_error" : t.is_resolved ? "pass" : "fail")));
}

/** promptfoo, per provider id: success → pass, failureReason 2 → infra_error, else fail. */
export function recountPromptfoo(path: string): Map<string, Counts> {
  const results = (json(path)["results"] as { results: Record<string, unknown>[] }).results;
  const by = new Map<string, ("pass" | "fail" | "infra_error")[]>();
  for (const r of results) {
    const id = (r["provider"] as { id: string }).id;
    const list = by.get(id) ?? [];
    list.push(r["success"] === true ? "pass" : r["failureReason"] === 2 ? "infra_error" : "fail");
    by.set(id, list);
  }
  return new Map([...by].map(([k, v]) => [k, tally(v)]));
}

/** lm-eval samples: exact_match 1 → pass, 0 → fail. */
export function recountLmEval(path: string): Counts {
  const lines = readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
  return tally(
    lines.map((l) => ((JSON.parse(l) as { exact_match: number }).exact_match === 1 ? "pass" : "fail")),
  );
}

type Sample = { error?: unknown; scores?: Record<string, { value: unknown }> };
const sampleResult = (s: Sample): "pass" | "fail" | "infra_error" => {
  if (s.error !== undefined && s.error !== null) return "infra_error";
  const value = Object.values(s.scores ?? {})[0]?.value;
  return value === "C" ? "pass" : "fail";
};

export function recountInspectJson(path: string): Counts {
  return tally((json(path)["samples"] as Sample[]).map(sampleResult));
}

/** An .eval log: its samples/*.json entries, found by walking the local headers (not the central directory). */
export function recountInspectEval(path: string): Counts {
  const data = readFileSync(path);
  const results: ("pass" | "fail" | "infra_error")[] = [];
  let at = 0;
  while (data.readUInt32LE(at) === 0x04034b50) {
    const method = data.readUInt16LE(at + 8);
    const size = data.readUInt32LE(at + 18);
    const nameLength = data.readUInt16LE(at + 26);
    const extraLength = data.readUInt16LE(at + 28);
    const name = data.toString("utf8", at + 30, at + 30 + nameLength);
    const start = at + 30 + nameLength + extraLength;
    const body = data.subarray(start, start + size);
    if (/^samples\/.+\.json$/.test(name)) {
      const text = (method === 8 ? inflateRawSync(body) : body).toString("utf8");
      results.push(sampleResult(JSON.parse(text) as Sample));
    }
    at = start + size;
  }
  return tally(results);
}

/** The jq-made CSV of tb trials: "task","trial","resolved",…; resolved true/false/null. */
export function recountTable(path: string): Counts {
  const rows = readFileSync(path, "utf8").trim().split("\n").slice(1);
  return tally(
    rows.map((r) => {
      const resolved = /^"[^"]*","[^"]*","([^"]*)"/.exec(r)?.[1];
      return resolved === "true" ? "pass" : resolved === "null" ? "infra_error" : "fail";
    }),
  );
}

/** Counts per model config of imported lines. */
export function countsOf(lines: readonly string[]): Map<string, Counts> {
  const by = new Map<string, ("pass" | "fail" | "infra_error")[]>();
  for (const o of parseLines(lines)) {
    const r = o["result"];
    if (r !== "pass" && r !== "fail" && r !== "infra_error") continue;
    const list = by.get(o["model_config"] as string) ?? [];
    list.push(r);
    by.set(o["model_config"] as string, list);
  }
  return new Map([...by].map(([k, v]) => [k, tally(v)]));
}

/** Imports twice: the counts of the first, and a check that the second gave the same bytes. */
async function importStable(opts: ImportOptions): Promise<Map<string, Counts>> {
  const a = await runImport(opts);
  const b = await runImport(opts);
  expect(b.lines.join("\n")).toBe(a.lines.join("\n"));
  return countsOf(a.lines);
}

/** The import tests of one set: every file imports, its counts equal the recount and the pinned figures. */
export function toolOutputImportTests(set: ToolOutputSet): void {
  const cwd = set.dir;
  it.each(set.tbRuns.map((r) => [r]))("terminal-bench %s", async (run) => {
    const counts = await importStable({
      kind: "terminal-bench",
      file: `terminal-bench/${run}`,
      modelConfig: run,
      cwd,
    });
    expect(counts).toEqual(new Map([[run, recountTerminalBench(join(cwd, "terminal-bench", run))]]));
    expect(counts.get(run)).toEqual(set.pinned[run]);
  });

  it("promptfoo: one model config per provider", async () => {
    const counts = await importStable({ kind: "promptfoo", file: `promptfoo/${set.promptfoo}`, cwd });
    const recount = recountPromptfoo(join(cwd, "promptfoo", set.promptfoo));
    expect(counts).toEqual(recount);
    for (const [provider, c] of recount) expect(c).toEqual(set.pinned[provider]);
  });

  it("lm-eval: samples with the results file beside them", async () => {
    const counts = await importStable({
      kind: "lm-eval",
      file: `lm-evaluation-harness/${set.lmSamples}`,
      cwd,
    });
    expect([...counts.values()]).toEqual([recountLmEval(join(cwd, "lm-evaluation-harness", set.lmSamples))]);
    expect([...counts.values()]).toEqual([set.pinned[set.lmSamples]]);
  });

  it.each([...set.inspectJson, set.inspectEval].map((f) => [f]))("inspect %s", async (file) => {
    const counts = await importStable({ kind: "inspect", file: `inspect-ai/${file}`, cwd });
    const path = join(cwd, "inspect-ai", file);
    const recount = file.endsWith(".eval") ? recountInspectEval(path) : recountInspectJson(path);
    expect([...counts.values()]).toEqual([recount]);
    expect(recount).toEqual(set.pinned[file]);
  });

  if (set.table !== undefined) {
    const table = set.table;
    it("table: a CSV made from a tb run, with a column map", async () => {
      const counts = await importStable({
        kind: "table",
        file: `table/${table}`,
        cwd,
        modelConfig: "opus",
        map: {
          task_id: "task",
          attempt: "trial",
          result: "resolved",
          "metrics.tokens_in": "in_tokens",
          "metrics.tokens_out": "out_tokens",
        },
        infraValues: ["null"],
      });
      expect(counts).toEqual(new Map([["opus", recountTable(join(cwd, "table", table))]]));
      expect(counts.get("opus")).toEqual(set.pinned[table]);
    });
  }
}

const POLICY = (floor: number) =>
  readFileSync(new URL("../../policy.example.yaml", import.meta.url), "utf8")
    .replace('common_valid_tasks: ">= 500"', `common_valid_tasks: ">= ${floor}"`)
    .replace('infra_error_rate: "< 1%"', 'infra_error_rate: "< 50%"');

/** Imports through the CLI (as a user would), exit 0; the dataset revision from the notes. */
async function cliImport(argv: readonly string[], cwd: string): Promise<string> {
  const r = await cliInProcess(["import", ...argv], cwd);
  expect(r.stderr).not.toContain("model-gate: ");
  expect(r.code).toBe(0);
  return /dataset_revision: (\S+)/.exec(r.stderr)?.[1] ?? "";
}

/** A reviews file labelling `ids` valid for `revision`, made by `import reviews-csv`. */
async function validReviews(out: string, ids: readonly string[], revision: string): Promise<string> {
  const csv = join(out, `reviews-${ids.length}.csv`);
  writeFileSync(
    csv,
    `task_id,validity\n${ids.map((id) => `"${id.replace(/"/g, '""')}",valid`).join("\n")}\n`,
  );
  const file = join(out, `reviews-${ids.length}.jsonl`);
  await cliImport(["reviews-csv", csv, "--dataset-revision", revision, "-o", file], out);
  return file;
}

/** rank on the three imported tb runs, evaluate on two of them and on two promptfoo providers. */
export function toolOutputGateTests(set: ToolOutputSet): void {
  const out = mkdtempSync(join(tmpdir(), "tool-outputs-gate-"));
  const policy = join(out, "policy.yaml");
  writeFileSync(policy, POLICY(set.floor));
  const tb = (run: string) => join(set.dir, "terminal-bench", run);

  it("terminal-bench: rank on three runs and evaluate on two report the files' figures", async () => {
    let revision = "";
    for (const run of set.tbRuns) {
      revision = await cliImport(
        ["terminal-bench", tb(run), "--model-config", run, "-o", join(out, `${run}.jsonl`)],
        out,
      );
    }
    const ids = json(join(tb(set.tbRuns[0] ?? ""), "run_metadata.json"))["task_ids"] as string[];
    const reviews = await validReviews(out, ids, revision);
    const results = set.tbRuns.map((r) => join(out, `${r}.jsonl`));
    const rank = await cliInProcess(
      [
        "rank",
        "--results",
        ...results,
        "--reviews",
        reviews,
        "--policy",
        policy,
        "--format",
        "json",
        "--today",
        "2026-11-29",
      ],
      out,
    );
    expect(rank.stderr).toBe("");
    const report = JSON.parse(rank.stdout) as RankReport;
    // Recounted: a model's task score is passes / (passes + fails), infra errors left out
    // (the policy's `infra_errors: exclude`); the common set is the tasks where each has one.
    const perTask = set.tbRuns.map((run) => {
      const m = new Map<string, [number, number]>();
      for (const t of json(join(tb(run), "results.json"))["results"] as {
        task_id: string;
        is_resolved: boolean | null;
      }[]) {
        if (t.is_resolved === null) continue;
        const [p, n] = m.get(t.task_id) ?? [0, 0];
        m.set(t.task_id, [p + (t.is_resolved ? 1 : 0), n + 1]);
      }
      return m;
    });
    const common = ids.filter((id) => perTask.every((m) => m.has(id)));
    expect(report.common_tasks).toBe(common.length);
    expect(report.common_valid_tasks).toBe(common.length);
    set.tbRuns.forEach((run, k) => {
      const scores = common.map((id) => {
        const [p, n] = perTask[k]?.get(id) ?? [0, 1];
        return p / n;
      });
      const model = report.models.find((m) => m.model === run);
      expect(model?.score).toBeCloseTo(scores.reduce((a, b) => a + b, 0) / scores.length, 12);
    });

    const [candidate, baseline] = set.tbRuns;
    const evaluate = await cliInProcess(
      [
        "evaluate",
        "--results",
        ...results.slice(0, 2),
        "--reviews",
        reviews,
        "--policy",
        policy,
        "--baseline",
        baseline ?? "",
        "--candidate",
        candidate ?? "",
        "--format",
        "json",
        "--today",
        "2026-11-29",
      ],
      out,
    );
    expect(evaluate.stderr).toBe("");
    const models = (JSON.parse(evaluate.stdout) as { models: Record<string, Record<string, unknown>> })
      .models;
    for (const [role, run] of [
      ["baseline", baseline],
      ["candidate", candidate],
    ] as const) {
      const c = recountTerminalBench(tb(run ?? ""));
      expect(models[role]).toMatchObject({
        config: run,
        attempts: c.pass + c.fail + c.infra_error,
        passes: c.pass,
        fails: c.fail,
        infra_errors: c.infra_error,
      });
    }
  });

  it("promptfoo: evaluate on two providers of one output reports the file's figures", async () => {
    const file = join(set.dir, "promptfoo", set.promptfoo);
    const exported = join(out, "promptfoo.jsonl");
    const revision = await cliImport(
      ["promptfoo", file, "--harness-revision", "git:0123abc", "-o", exported],
      out,
    );
    const tasks = [
      ...new Set(
        parseLines(readFileSync(exported, "utf8").trim().split("\n")).map((o) => o["task_id"] as string),
      ),
    ];
    const reviews = await validReviews(out, tasks, revision);
    const [baseline, candidate] = ["file://providers/arith-flaky.js", "file://providers/arith-good.js"];
    const evaluate = await cliInProcess(
      [
        "evaluate",
        "--results",
        exported,
        "--reviews",
        reviews,
        "--policy",
        policy,
        "--baseline",
        baseline,
        "--candidate",
        candidate,
        "--format",
        "json",
        "--today",
        "2026-11-29",
      ],
      out,
    );
    expect(evaluate.stderr).toBe("");
    const models = (JSON.parse(evaluate.stdout) as { models: Record<string, Record<string, unknown>> })
      .models;
    const recount = recountPromptfoo(file);
    for (const [role, provider] of [
      ["baseline", baseline],
      ["candidate", candidate],
    ] as const) {
      const c = recount.get(provider);
      expect(models[role]).toMatchObject({
        config: provider,
        attempts: (c?.pass ?? 0) + (c?.fail ?? 0) + (c?.infra_error ?? 0),
        passes: c?.pass,
        fails: c?.fail,
        infra_errors: c?.infra_error,
      });
    }
  });
}
