/** table: any CSV or JSON Lines with a column map, on constructed tables (mappings, refusals). */
import { describe, expect, it } from "vitest";
import { importText } from "../../src/importers/index.js";
import type { ImportOptions } from "../../src/importers/types.js";
import { inputErrorOf, parseLines, revisionOf } from "./helpers.js";

const CSV = [
  "id,model,correct,seed,repo,cost,secs",
  "t-1,cfg-a,yes,1,r1,0.01,2.5",
  "t-1,cfg-a,no,2,r1,0.02,",
  "t-1,cfg-b,yes,1,r1,,3",
  " t-2 ,cfg-b,err,1,r2,0.5,1",
  "t-3,cfg-a,missing,1,r2,,",
].join("\n");
const MAP = {
  task_id: "id",
  model_config: "model",
  result: "correct",
  attempt: "seed",
  cluster: "repo",
  "metrics.cost_usd": "cost",
  "metrics.latency_s": "secs",
};
const opts = (more: Partial<ImportOptions> = {}): ImportOptions => ({
  kind: "table",
  file: "sheet.csv",
  map: MAP,
  passValues: ["yes"],
  failValues: ["no"],
  infraValues: ["err"],
  ...more,
});

describe("table on constructed tables", () => {
  it("CSV: the column map, the value lists, integer attempts, metrics from numbers, per-config missing tasks", () => {
    const r = importText(opts(), CSV, undefined);
    expect(r.lines[0]).toBe(
      `{"task_id":"t-1","dataset_revision":"${revisionOf(["t-1", "t-2", "t-3"])}","harness_revision":"unknown:table",` +
        `"model_config":"cfg-a","validity":"unreviewed","result":"pass","review_revision":0,"evidence":["sheet.csv#row=2"],` +
        `"attempt":1,"cluster":"r1","metrics":{"cost_usd":0.01,"latency_s":2.5}}`,
    );
    expect(
      parseLines(r.lines).map((o) => [
        o["task_id"],
        o["model_config"],
        o["attempt"],
        o["result"],
        o["metrics"],
      ]),
    ).toEqual([
      ["t-1", "cfg-a", 1, "pass", { cost_usd: 0.01, latency_s: 2.5 }],
      ["t-1", "cfg-a", 2, "fail", { cost_usd: 0.02 }],
      ["t-1", "cfg-b", 1, "pass", { latency_s: 3 }],
      ["t-2", "cfg-a", undefined, "missing", undefined],
      ["t-2", "cfg-b", 1, "infra_error", { cost_usd: 0.5, latency_s: 1 }],
      ["t-3", "cfg-a", 1, "missing", undefined],
      ["t-3", "cfg-b", undefined, "missing", undefined],
    ]);
    expect(r.notes.slice(0, 3)).toEqual([
      "read as CSV (the .csv extension): 5 rows",
      "columns: task_id ← id, model_config ← model, result ← correct, attempt ← seed, cluster ← repo, metrics.cost_usd ← cost, metrics.latency_s ← secs",
      'result values: "yes" → pass; "no" → fail; "err" → infra_error; "missing" → missing',
    ]);
  });

  it('JSON Lines: values keep their JSON type (true → "true"), string attempts stay strings, same-name columns need no map', () => {
    const text = [
      '{"task_id": "a", "model_config": "m", "result": true, "attempt": "seed-1", "harness_revision": "git:1"}',
      '{"task_id": "a", "model_config": "m", "result": 0, "attempt": 2, "harness_revision": "git:2"}',
    ].join("\n");
    const r = importText({ kind: "table", file: "runs.jsonl" }, text, undefined);
    expect(
      parseLines(r.lines).map((o) => [o["attempt"], o["result"], o["harness_revision"], o["evidence"]]),
    ).toEqual([
      [2, "fail", "git:2", ["runs.jsonl#L2"]],
      ["seed-1", "pass", "git:1", ["runs.jsonl#L1"]],
    ]);
    expect(r.notes[1]).toBe(
      "columns: task_id ← task_id (same name), model_config ← model_config (same name), result ← result (same name), attempt ← attempt (same name), harness_revision ← harness_revision (same name)",
    );
  });

  it("--model-config names the one config when the table has no model column; the format is read from content", () => {
    const r = importText(
      { kind: "table", file: "data", modelConfig: "solo" },
      "task_id,result\nx,1\n",
      undefined,
    );
    expect(parseLines(r.lines)[0]?.["model_config"]).toBe("solo");
    expect(r.notes[0]).toBe("read as CSV (content: not a JSON object): 1 rows");
  });

  const refusals: readonly (readonly [string, string, Partial<ImportOptions>, string])[] = [
    [
      "unmapped required fields",
      "a,b\n1,2\n",
      { map: {} },
      "sheet.csv: task_id, result, model_config are not mapped and the table has no column of that name: map them with --map task_id=COLUMN,result=COLUMN,model_config=COLUMN (or name the one config with --model-config ID); columns: a, b",
    ],
    [
      "a result value in no list",
      CSV.replace("t-1,cfg-a,no", "t-1,cfg-a,No"),
      {},
      'sheet.csv:3: result (column "correct"): "No" is in none of --pass-values, --fail-values, --infra-values ("yes", "no", "err", "missing")',
    ],
    [
      "a map to a column that is not there",
      CSV,
      { map: { ...MAP, cluster: "repository" } },
      'sheet.csv: --map cluster=repository: the table has no column "repository"',
    ],
    [
      "a field a table does not map",
      CSV,
      { map: { ...MAP, validity: "x" } },
      "--map validity=…: not a field a table maps",
    ],
    [
      "a metric that is not a number",
      CSV.replace("0.5,1", "0.5,fast"),
      {},
      'sheet.csv:5: metrics.latency_s (column "secs"): expected a number ≥ 0, found a string ("fast")',
    ],
    [
      "a negative metric",
      CSV.replace("0.5,1", "-0.5,1"),
      {},
      'sheet.csv:5: metrics.cost_usd (column "cost"): expected a number ≥ 0, found -0.5',
    ],
    [
      "one attempt twice",
      `${CSV}\nt-1,cfg-a,yes,1,r1,,`,
      {},
      'sheet.csv:7: task "t-1" attempt 1 appears twice (first on line 2): which result holds would be a guess',
    ],
    [
      "an empty task id",
      `${CSV}\n,cfg-a,yes,9,r1,,`,
      {},
      'sheet.csv:7: task_id (column "id"): expected a non-empty value, found a string ("")',
    ],
    [
      "a value in two lists",
      CSV,
      { passValues: ["yes"], failValues: ["yes"] },
      'the result value "yes" would mean both pass and fail: list it once',
    ],
  ];
  it.each(refusals)("refused: %s", async (_what, text, more, message) => {
    expect(await inputErrorOf(() => importText(opts(more), text, undefined))).toContain(message);
  });
});
