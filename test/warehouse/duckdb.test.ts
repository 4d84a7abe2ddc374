// The warehouse SQL of docs/warehouse.md, run for real on DuckDB: it reduces a generated attempts
// table to the pre-aggregated shape, and the gate's report on those rows equals its report on the
// raw attempts. The SQL is read out of the Markdown so the documentation and the test cannot drift.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";

import { tableRecords, type Dataset } from "../../src/core/model.js";
import { readDataset } from "../../src/read/read-dataset.js";

const root = join(import.meta.dirname, "..", "..");
const cli = process.env["GATE_CLI"] ?? join(root, "dist", "cli.js");

/** The one ```sql block of docs/warehouse.md (the README holds no copy). */
function warehouseSql(): string {
  expect(readFileSync(join(root, "README.md"), "utf8")).not.toMatch(/^```sql$/m);
  const markdown = readFileSync(join(root, "docs", "warehouse.md"), "utf8");
  const blocks = [...markdown.matchAll(/^```sql\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? "");
  expect(blocks.length).toBe(1);
  return blocks[0] ?? "";
}

type Row = Record<string, unknown>;

/** A value JSON-ready: BIGINT / HUGEINT (SUM of integers) to number, in lists and structs too. */
function jsonValue(v: unknown): unknown {
  if (typeof v === "bigint") return Number(v);
  if (Array.isArray(v)) return v.map(jsonValue);
  if (v !== null && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonValue(x)]));
  return v;
}

/**
 * A row JSON-ready: NULL columns left out (as Spark writes JSON); a NULL inside a struct stays
 * `null` (`metrics_sum.tokens_out: null` where no attempt carries it, which the gate reads as absent).
 */
function plain(row: Record<string, unknown>): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) if (v !== null && v !== undefined) out[k] = jsonValue(v);
  return out;
}

/** Key order does not matter to the gate; compare rows as canonical JSON. */
function canonical(row: Row): string {
  return JSON.stringify(
    Object.keys(row)
      .sort()
      .map((k) => [k, row[k]]),
  );
}

function readJsonl(path: string): Row[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Row);
}

function generate(args: string[]): void {
  const run = spawnSync(process.execPath, ["scripts/generate-export.mjs", "--quiet", ...args], {
    cwd: root,
    encoding: "utf8",
  });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
}

const GEN = [
  "--seed",
  "4242",
  "--tasks",
  "330",
  "--attempts",
  "1-5",
  "--models",
  "cfg-baseline,cfg-candidate",
  "--noise-models",
  "1",
  "--clusters",
  "--metrics",
  "--benchmark",
  "swe-verified",
];

const METRICS = ["cost_usd", "latency_s", "tokens_in", "tokens_out"];

let dir = "";
let instance: DuckDBInstance;
let con: DuckDBConnection;
let sql = "";

async function query(text: string): Promise<Row[]> {
  const reader = await con.runAndReadAll(text);
  return reader.getRowObjectsJS().map((r) => plain(r as Record<string, unknown>));
}

/** Fresh `attempts` table from the raw export, then `edit` statements, then the documented SQL. */
async function aggregate(...edits: string[]): Promise<Row[]> {
  await con.run("CREATE OR REPLACE TABLE attempts AS SELECT * FROM raw");
  for (const edit of edits) await con.run(edit);
  return query(sql);
}

function byKey(rows: Row[]): Map<string, Row> {
  const key = (r: Row) =>
    [r["model_config"], r["dataset_revision"], r["task_id"], r["harness_revision"]].map(String).join("|");
  return new Map(rows.map((r) => [key(r), r]));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "gate-warehouse-"));
  generate([...GEN, "--out", join(dir, "attempts.jsonl")]);
  generate([...GEN, "--aggregated", "--out", join(dir, "generator-aggregated.jsonl")]);
  sql = warehouseSql();
  const { DuckDBInstance } = await import("@duckdb/node-api");
  instance = await DuckDBInstance.create(":memory:");
  con = await instance.connect();
  await con.run(
    `CREATE TABLE raw AS SELECT * FROM read_json_auto('${join(dir, "attempts.jsonl").replaceAll("'", "''")}')`,
  );
});

afterAll(() => {
  con.closeSync();
  instance.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

describe("the documented SQL on DuckDB", () => {
  it("loads the generated attempts as a typed table", async () => {
    const rows = await query("SELECT count(*) AS n, count(DISTINCT model_config) AS models FROM raw");
    expect(rows).toEqual([{ n: 2966, models: 3 }]);
    const types = await query("SELECT column_name, column_type FROM (DESCRIBE raw)");
    expect(Object.fromEntries(types.map((t) => [t["column_name"], t["column_type"]]))).toMatchObject({
      attempt: "BIGINT",
      review_revision: "BIGINT",
      evidence: "VARCHAR[]",
      cluster: "VARCHAR",
      benchmark: "VARCHAR",
      metrics: "STRUCT(cost_usd DOUBLE, latency_s DOUBLE, tokens_in BIGINT, tokens_out BIGINT)",
    });
  });

  it("gives one row per (model, dataset, task, harness), equal to the generator's --aggregated rows", async () => {
    const rows = await aggregate();
    const expected = readJsonl(join(dir, "generator-aggregated.jsonl"));
    expect(rows.length).toBe(990);
    expect(rows.map(canonical).sort()).toEqual(expected.map(canonical).sort());
    // The metrics came through, some carried by fewer attempts than the row stands for.
    const attempts = (r: Row) =>
      Number(r["passes"]) + Number(r["fails"]) + Number(r["infra_errors"]) + Number(r["missing"]);
    const counts = rows.map((r) => r["metrics_n"] as Record<string, number | null>);
    expect(rows.every((r) => r["benchmark"] === "swe-verified")).toBe(true);
    expect(counts.every((n) => Object.keys(n).join() === METRICS.join())).toBe(true);
    expect(
      rows.filter((r, i) => METRICS.some((m) => (counts[i]?.[m] ?? 0) < attempts(r))).length,
    ).toBeGreaterThan(20);
    // Rows whose attempts carried two revisions get the label at the higher one.
    const stale = await query(
      "SELECT count(*) AS n FROM (SELECT 1 FROM raw GROUP BY model_config, task_id HAVING count(DISTINCT review_revision) > 1)",
    );
    expect(stale[0]?.["n"]).toBeGreaterThan(10);
  });

  it("counts an attempt seen twice with the same result once, and rows without attempt id each once", async () => {
    const base = await aggregate();
    const duplicated = await aggregate(
      "INSERT INTO attempts SELECT * FROM raw WHERE attempt <= 2 AND task_id < 'm'",
      "UPDATE attempts SET attempt = NULL WHERE model_config = 'cfg-baseline' AND task_id >= 'm'",
    );
    expect(duplicated).toEqual(base);
  });

  it("takes the label at the highest review_revision of the group", async () => {
    const rows = byKey(
      await aggregate(
        `INSERT INTO attempts SELECT * REPLACE (review_revision + 5 AS review_revision, 'disputed' AS validity,
           attempt + 90 AS attempt) FROM raw WHERE model_config = 'cfg-candidate' AND task_id = (SELECT min(task_id) FROM raw)`,
      ),
    );
    const hit = [...rows.values()].filter(
      (r) => r["validity"] === "disputed" && Number(r["review_revision"]) >= 5,
    );
    expect(hit.length).toBe(1);
    expect(hit[0]?.["model_config"]).toBe("cfg-candidate");
  });

  it("turns what the raw export would refuse into an `invalid: …` validity", async () => {
    // The candidate's rows all carry the task's latest exported label (the generator's rule).
    const one =
      "FROM raw WHERE model_config = 'cfg-candidate' AND attempt = 1 AND task_id = (SELECT min(task_id) FROM raw)";
    // The candidate's first attempt of the first task whose first attempt has a cost.
    const costly = `FROM raw WHERE model_config = 'cfg-candidate' AND attempt = 1 AND task_id = (SELECT min(task_id)
      FROM raw WHERE model_config = 'cfg-candidate' AND attempt = 1 AND metrics.cost_usd IS NOT NULL)`;
    const metricsWith = (cost: string) =>
      `struct_pack(cost_usd := CAST(${cost} AS DOUBLE), latency_s := metrics.latency_s,
         tokens_in := metrics.tokens_in, tokens_out := metrics.tokens_out)`;
    const cases: [string, string][] = [
      [
        `INSERT INTO attempts SELECT * REPLACE ('timeout' AS result, 77 AS attempt) ${one}`,
        "invalid: a row has an unknown validity or result, or no review_revision",
      ],
      [
        `INSERT INTO attempts SELECT * REPLACE (NULL AS review_revision, 77 AS attempt) ${one}`,
        "invalid: a row has an unknown validity or result, or no review_revision",
      ],
      [
        `INSERT INTO attempts SELECT * REPLACE (CASE WHEN result = 'pass' THEN 'fail' ELSE 'pass' END AS result) ${one}`,
        "invalid: one attempt with two results",
      ],
      [
        `INSERT INTO attempts SELECT * REPLACE (CASE WHEN validity = 'broken' THEN 'valid' ELSE 'broken' END AS validity,
           77 AS attempt) ${one}`,
        "invalid: two labels at the highest review_revision",
      ],
      [
        `INSERT INTO attempts SELECT * REPLACE ('other/repo' AS cluster, 77 AS attempt) ${one}`,
        "invalid: two clusters",
      ],
      [
        `INSERT INTO attempts SELECT * REPLACE ('private-canary' AS benchmark, 77 AS attempt) ${one}`,
        "invalid: two benchmarks",
      ],
      // No benchmark is `default`, another benchmark than swe-verified.
      [
        `INSERT INTO attempts SELECT * REPLACE (NULL AS benchmark, 77 AS attempt) ${one}`,
        "invalid: two benchmarks",
      ],
      [
        `INSERT INTO attempts SELECT * REPLACE (${metricsWith("metrics.cost_usd + 1")} AS metrics) ${costly}`,
        "invalid: one attempt with two sets of metrics",
      ],
      // A duplicate row of the attempt without the metric its first row carries.
      [
        `INSERT INTO attempts SELECT * REPLACE (${metricsWith("NULL")} AS metrics) ${costly}`,
        "invalid: one attempt with two sets of metrics",
      ],
    ];
    for (const [edit, message] of cases) {
      const rows = await aggregate(edit);
      const bad = rows.filter((r) => String(r["validity"]).startsWith("invalid"));
      expect(bad.map((r) => [r["model_config"], r["validity"]])).toEqual([["cfg-candidate", message]]);
    }
  });
});

// ------------------------------------------------------------------------------------------------
// Through the gate: raw attempts vs the SQL's aggregated rows, read in process (the Dataset, with
// its metrics and benchmarks) and by the built CLI (dist/cli.js, committed) as a real process.

/**
 * Drops what may differ between the two files: digests, rowsRead and the label history (an
 * aggregated row carries only its group's label at the highest revision, not the earlier ones the
 * attempts show; the effective label, validity and review_revision, is compared).
 */
function comparable(d: Dataset): object {
  return {
    ...d,
    inputs: d.inputs.length,
    rowsRead: 0,
    tasks: tableRecords(d.tasks).map((t) => ({
      ...t,
      history: [],
    })),
  };
}

function read(results: string): Promise<Dataset> {
  return readDataset({
    results: [results],
    reviews: [],
    baseline: "cfg-baseline",
    candidate: "cfg-candidate",
    displayPath: basename,
  });
}

const POLICIES: Record<string, string> = {
  paired: `owner: "@acme/eval-owners"
revisit: 2099-12-31
accept_if:
  common_valid_tasks: ">= 200"
  infra_error_rate: "< 2%"
  disputed_fraction: "< 20%"
  missing_fraction: "< 5%"
  observed_margin: "> validity_sensitivity + run_variance"
margin:
  confidence: 0.95
  standard_error: paired
  validity_bound: exact
`,
  clustered: `owner: "@acme/eval-owners"
revisit: 2099-12-31
infra_errors: count_as_fail
require_same_harness: true
accept_if:
  common_valid_tasks: ">= 500"
  infra_error_rate: "< 1%"
  disputed_fraction: "< 5%"
  observed_margin: "> validity_sensitivity + run_variance - 1%"
margin:
  confidence: 0.9
  standard_error: clustered
  validity_bound: pessimistic
on_unresolved: neutral
`,
};

interface GateRun {
  status: number | null;
  stderr: string;
  report: Record<string, unknown> | undefined;
}

function gate(results: string, policy: string): GateRun {
  const run = spawnSync(
    process.execPath,
    [
      cli,
      "evaluate",
      "--results",
      results,
      "--policy",
      policy,
      "--baseline",
      "cfg-baseline",
      "--candidate",
      "cfg-candidate",
      "--format",
      "json",
    ],
    { encoding: "utf8" },
  );
  return {
    status: run.status,
    stderr: run.stderr,
    report:
      run.status !== null && run.status <= 2
        ? (JSON.parse(run.stdout) as Record<string, unknown>)
        : undefined,
  };
}

describe("the gate on raw attempts and on the SQL's aggregated rows", () => {
  let aggregated = "";
  beforeAll(async () => {
    aggregated = join(dir, "sql-aggregated.jsonl");
    const rows = await aggregate();
    writeFileSync(aggregated, rows.map((r) => JSON.stringify(r) + "\n").join(""));
    for (const [name, text] of Object.entries(POLICIES)) writeFileSync(join(dir, `${name}.yaml`), text);
  });

  for (const name of Object.keys(POLICIES)) {
    it(`gives byte-identical checks, comparison and models (${name} policy)`, () => {
      const policy = join(dir, `${name}.yaml`);
      const raw = gate(join(dir, "attempts.jsonl"), policy);
      const agg = gate(aggregated, policy);
      expect(raw.stderr).toBe("");
      expect(agg.stderr).toBe("");
      expect(agg.status).toBe(raw.status);
      // The two policies take both fragility paths: review fragility (accept) and resolution distance.
      expect(raw.report?.["verdict"]).toBe(name === "paired" ? "accept" : "unresolved");
      for (const part of ["verdict", "reasons", "checks", "comparison", "models"]) {
        expect(JSON.stringify(agg.report?.[part]), part).toBe(JSON.stringify(raw.report?.[part]));
      }
      const rowsRead = (r: GateRun) =>
        (r.report?.["provenance"] as { rows_read?: number } | undefined)?.rows_read;
      expect([rowsRead(raw), rowsRead(agg)]).toEqual([2966, 990]);
    });
  }

  it("reads both to the same Dataset: counts, labels, benchmark, metric sums and counts", async () => {
    const [raw, agg] = await Promise.all([read(join(dir, "attempts.jsonl")), read(aggregated)]);
    expect(comparable(agg)).toEqual(comparable(raw));
    expect([raw.rowsRead, agg.rowsRead]).toEqual([2966, 990]);
    expect(raw.benchmarks).toEqual(["swe-verified"]);
    expect(raw.metrics?.names).toEqual(METRICS);
    // Not vacuous: each model has each metric on most tasks, and on some tasks fewer times than it ran
    // (the generator leaves a metric out on a few attempts and every metric out on missing ones).
    const pairs = [
      [raw.metrics?.baseline ?? [], (i: number) => raw.tasks.baseline(i)],
      [raw.metrics?.candidate ?? [], (i: number) => raw.tasks.candidate(i)],
    ] as const;
    for (const [columns, countsOf] of pairs) {
      expect(columns.length).toBe(METRICS.length);
      for (const column of columns) {
        expect(column?.count.filter((n) => n > 0).length).toBeGreaterThan(250);
        let fewer = 0;
        for (let i = 0; i < raw.tasks.length; i++) {
          const c = countsOf(i);
          const n = column?.count[i] ?? 0;
          if (c !== undefined && n < c.pass + c.fail + c.infra_error + c.missing) fewer += 1;
        }
        expect(fewer).toBeGreaterThan(5);
      }
    }
  });

  it("reads several benchmarks, a missing one as `default`, from the SQL as from the attempts", async () => {
    // Tasks before "d" lose their benchmark (default), tasks from "p" on move to another one.
    const edits = [
      "UPDATE attempts SET benchmark = NULL WHERE task_id < 'd'",
      "UPDATE attempts SET benchmark = 'private-canary' WHERE task_id >= 'p'",
    ];
    const rows = await aggregate(...edits);
    const rawFile = join(dir, "mixed-attempts.jsonl");
    const aggFile = join(dir, "mixed-aggregated.jsonl");
    await con.run(`COPY attempts TO '${rawFile.replaceAll("'", "''")}' (FORMAT JSON)`);
    writeFileSync(aggFile, rows.map((r) => JSON.stringify(r) + "\n").join(""));
    const [raw, agg] = await Promise.all([read(rawFile), read(aggFile)]);
    expect(comparable(agg)).toEqual(comparable(raw));
    expect(raw.benchmarks).toEqual(["default", "private-canary", "swe-verified"]);
    const perTask = new Map(tableRecords(raw.tasks).map((t, i) => [t.taskId, raw.tasks.benchmark(i)]));
    expect(
      [...perTask].every(
        ([id, b]) => b === (id < "d" ? "default" : id >= "p" ? "private-canary" : "swe-verified"),
      ),
    ).toBe(true);
    const policy = join(dir, "paired.yaml");
    expect(JSON.stringify(gate(aggFile, policy).report?.["comparison"])).toBe(
      JSON.stringify(gate(rawFile, policy).report?.["comparison"]),
    );
  });

  it("refuses an aggregated row the SQL marked invalid (exit status 3, naming the problem)", async () => {
    const rows = await aggregate(
      `INSERT INTO attempts SELECT * REPLACE (CASE WHEN result = 'pass' THEN 'fail' ELSE 'pass' END AS result)
         FROM raw WHERE model_config = 'cfg-candidate' AND attempt = 1 AND task_id = (SELECT min(task_id) FROM raw)`,
    );
    const poisoned = join(dir, "poisoned.jsonl");
    writeFileSync(poisoned, rows.map((r) => JSON.stringify(r) + "\n").join(""));
    const run = gate(poisoned, join(dir, "paired.yaml"));
    expect(run.status).toBe(3);
    expect(run.stderr).toContain("invalid: one attempt with two results");
  });
});
