// The warehouse SQL of docs/warehouse.md, run for real on DuckDB: it reduces a generated attempts
// table to the pre-aggregated shape, and the gate's report on those rows equals its report on the
// raw attempts. The SQL is read out of the Markdown so the documentation and the test cannot drift.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";

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

/** JSON-ready: BIGINT to number, lists to arrays, NULL columns left out (as Spark writes JSON). */
function plain(row: Record<string, unknown>): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) {
    if (v === null || v === undefined) continue;
    if (typeof v === "bigint") out[k] = Number(v);
    else if (Array.isArray(v)) out[k] = v.map((x: unknown) => (typeof x === "bigint" ? Number(x) : x));
    else out[k] = v;
  }
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
];

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
    });
  });

  it("gives one row per (model, dataset, task, harness), equal to the generator's --aggregated rows", async () => {
    const rows = await aggregate();
    const expected = readJsonl(join(dir, "generator-aggregated.jsonl"));
    expect(rows.length).toBe(990);
    expect(rows.map(canonical).sort()).toEqual(expected.map(canonical).sort());
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
           99 AS attempt) FROM raw WHERE model_config = 'cfg-candidate' AND task_id = (SELECT min(task_id) FROM raw)`,
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
    ];
    for (const [edit, message] of cases) {
      const rows = await aggregate(edit);
      const bad = rows.filter((r) => String(r["validity"]).startsWith("invalid"));
      expect(bad.map((r) => [r["model_config"], r["validity"]])).toEqual([["cfg-candidate", message]]);
    }
  });
});

// ------------------------------------------------------------------------------------------------
// Through the gate: raw attempts vs the SQL's aggregated rows. Needs the built CLI with `evaluate`.

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
