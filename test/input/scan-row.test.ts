/**
 * The byte scanner (src/core/input/scan-row.ts) against the JSON.parse path (rows.ts), on fuzzed
 * lines: whenever the scanner accepts a line, the JSON.parse path must accept it too and give the
 * same row; whenever the JSON.parse path refuses a line, the scanner must not accept it. The
 * lines are built from the fields of an export row with mutations aimed at each thing the
 * scanner decides (types, nulls, counts, numbers, escapes, control bytes, non-ASCII text,
 * lengths at the caps, whitespace, repeated keys, nesting, trailing bytes, truncation), so both
 * outcomes are common; the test also checks that the scanner takes most of the common shape.
 */
import { describe, expect, it } from "vitest";

import { MAX_EVIDENCE_LENGTH, MAX_ID_LENGTH } from "../../src/core/input/limits.js";
import {
  checkExportRow,
  emptyExportRow,
  LineIssues,
  parseObject,
  type ExportRow,
} from "../../src/core/input/rows.js";
import { RowScanner } from "../../src/core/input/scan-row.js";
import { prng } from "../helpers/prng.js";

/** What the Dataset builder reads of a row (counts only for a pre-aggregated one). */
function view(r: ExportRow): unknown {
  return {
    taskId: r.taskId,
    datasetRevision: r.datasetRevision,
    harnessRevision: r.harnessRevision,
    modelConfig: r.modelConfig,
    validity: r.validity,
    reviewRevision: r.reviewRevision,
    result: r.result,
    counts: r.result < 0 ? [r.passes, r.fails, r.infraErrors, r.missing] : undefined,
    evidence:
      r.evidence === undefined ? undefined : typeof r.evidence === "string" ? r.evidence : [...r.evidence],
    attempt: r.attempt,
    cluster: r.cluster,
  };
}

function byJson(line: string): ExportRow | undefined {
  const issues = new LineIssues();
  const obj = parseObject(line, issues);
  const row = emptyExportRow();
  if (obj === undefined || !checkExportRow(obj, row, issues, false)) return undefined;
  return row;
}

const scanner = new RowScanner();
function byScanner(line: string, pad = false): ExportRow | undefined {
  // Bytes around the line (as in a read chunk) must not be read as part of it.
  const before = pad ? Buffer.from('9"}{,') : Buffer.alloc(0);
  const after = pad ? Buffer.from('.5e1"}\n{"x":1}') : Buffer.alloc(0);
  const body = Buffer.from(line, "utf8");
  const b = Buffer.concat([before, body, after]);
  const row = emptyExportRow();
  return scanner.scan(b, before.length, before.length + body.length, row) ? row : undefined;
}

function pick<T>(rand: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)] as T;
}

const ID_VALUES = [
  "t-1",
  "django__django-11099",
  "sha256:ab12",
  "ünïcödé-✓",
  "日本語",
  "😀",
  "a".repeat(MAX_ID_LENGTH),
  "a".repeat(MAX_ID_LENGTH + 1),
  "é".repeat(MAX_ID_LENGTH),
  "é".repeat(MAX_ID_LENGTH / 2 + 1),
  "",
  "tab\there",
  "nl\nhere",
  "del\u007fhere",
  "c1\u0085here",
  "nbsp\u00a0here",
  'quote"here',
  "back\\slash",
  "\u2028sep",
];
const EVIDENCE_VALUES = [
  "fixtures/t/fixture.log",
  "https://review.example.org/x.json",
  "",
  "x".repeat(MAX_EVIDENCE_LENGTH),
  "x".repeat(MAX_EVIDENCE_LENGTH + 1),
  "tab\tin",
  "ok ✓",
];
const NUMBERS = [
  "0",
  "1",
  "7",
  "12",
  "-1",
  "-0",
  "1.0",
  "1e2",
  "1E+2",
  "2.5",
  "01",
  "999999999999999",
  "9999999999999999",
  "9007199254740993",
  "1e400",
  "-",
  "1.",
  ".5",
];

/** How likely the mutations are, per line: lines are often clean, often not. */
let noise = 1;

/** A raw JSON text for a value of `field`, often valid, sometimes not. */
function value(rand: () => number, field: string): string {
  const r = rand() / noise;
  if (r < 0.04) return "null";
  if (r < 0.07) return pick(rand, ["true", "false", "{}", "[]", '{"a":1}', "[1]", "nul", "tru"]);
  if (r < 0.1) return pick(rand, NUMBERS);
  switch (field) {
    case "validity":
      return JSON.stringify(pick(rand, ["valid", "broken", "disputed", "unreviewed", "Valid", "", "valid "]));
    case "result":
      return JSON.stringify(pick(rand, ["pass", "fail", "infra_error", "missing", "passed", "PASS"]));
    case "review_revision":
    case "passes":
    case "fails":
    case "infra_errors":
    case "missing":
      return rand() < 1 - 0.2 * noise ? pick(rand, ["0", "1", "2", "3", "12"]) : pick(rand, NUMBERS);
    case "attempt":
      if (rand() < 0.5) return rand() < 1 - 0.5 * noise ? pick(rand, ["1", "2", "30"]) : pick(rand, NUMBERS);
      return JSON.stringify(pick(rand, rand() < 1 - 0.5 * noise ? ID_VALUES.slice(0, 6) : ID_VALUES));
    case "evidence": {
      if (rand() < 0.3) return JSON.stringify(pick(rand, EVIDENCE_VALUES));
      if (rand() > noise)
        return JSON.stringify(["fixtures/t/fixture.log", "https://review.example.org/t.json"]);
      const n = Math.floor(rand() * 4);
      const items = Array.from({ length: n }, () => JSON.stringify(pick(rand, EVIDENCE_VALUES)));
      if (rand() < 0.1) items.push(pick(rand, ["1", "null", "[]"]));
      return `[${items.join(pick(rand, [",", " , ", ",\t"]))}]`;
    }
    default:
      if (rand() < 1 - 0.3 * noise) return JSON.stringify(pick(rand, ID_VALUES.slice(0, 6)));
      return JSON.stringify(pick(rand, ID_VALUES));
  }
}

const CORE = [
  "task_id",
  "dataset_revision",
  "harness_revision",
  "model_config",
  "validity",
  "review_revision",
];
const OTHER_KEYS = ["run_id", "duration_s", "tokens_in", "image", "meta", "", "ü", "__proto__"];

function fuzzLine(rand: () => number): string {
  noise = rand() < 0.5 ? 1 : 0.1;
  const fields: [string, string][] = [];
  for (const f of CORE) if (rand() > 0.03 * noise) fields.push([f, value(rand, f)]);
  const aggregated = rand() < 0.25;
  if (aggregated) {
    for (const f of ["passes", "fails", "infra_errors", "missing"]) {
      if (rand() > 0.05 * noise) fields.push([f, value(rand, f)]);
    }
    if (rand() < 0.1 * noise) fields.push(["result", value(rand, "result")]);
    if (rand() < 0.1 * noise) fields.push(["attempt", value(rand, "attempt")]);
  } else {
    if (rand() > 0.03 * noise) fields.push(["result", value(rand, "result")]);
    if (rand() < 0.05 * noise) fields.push([pick(rand, ["passes", "missing"]), "1"]);
    if (rand() < 0.7) fields.push(["attempt", value(rand, "attempt")]);
  }
  if (rand() < 0.7) fields.push(["evidence", value(rand, "evidence")]);
  if (rand() < 0.5) fields.push(["cluster", value(rand, "cluster")]);
  const others = Math.floor(rand() * 5);
  for (let k = 0; k < others; k++) {
    const v =
      rand() > noise
        ? pick(rand, ['"x"', "12", "-3.5e-2", "0.8147", "true", "null", '"swebench/img:v2"', '"ü"'])
        : rand() < 0.5
          ? JSON.stringify(pick(rand, ["x", "swebench/img:v2", "ü", "tab\tx", "\u0001", "a\\b"]))
          : pick(rand, [...NUMBERS, "true", "false", "null", '{"k":"v"}', "[1,2]", '{"k":1,"k":2}']);
    fields.push([pick(rand, OTHER_KEYS), v]);
  }
  // Repeated keys: the same field again, or a key spelt with an escape.
  if (rand() < 0.08 * noise) {
    const [k, v] = pick(rand, fields) ?? ["task_id", '"t"'];
    fields.push([k, rand() < 0.5 ? v : value(rand, k)]);
  }
  if (rand() < 0.03 * noise) fields.push(["\\u0072esult", '"fail"']);
  // Shuffle sometimes (field order is free).
  if (rand() < 0.3) fields.sort(() => rand() - 0.5);
  const ws = (): string => (rand() < 0.9 ? "" : pick(rand, [" ", "\t", "  ", " \t ", "\r"]));
  let text = `${ws()}{${ws()}${fields.map(([k, v]) => `"${k}"${ws()}:${ws()}${v}${ws()}`).join(`,${ws()}`)}}${ws()}`;
  const m = rand() / noise;
  if (m < 0.02) text = text.slice(0, Math.floor(rand() * text.length));
  else if (m < 0.03) text += pick(rand, ["}", ",", "x", "{}", "\u00a0"]);
  else if (m < 0.04) text = text.replace("}", ",}");
  else if (m < 0.05) text = text.replace('"', "'");
  else if (m < 0.06) text = "[" + text + "]";
  return text;
}

describe("the byte scanner and JSON.parse agree", () => {
  it("on 20,000 fuzzed lines: a scanned row is the parsed row; a refused line is never scanned", () => {
    const rand = prng(20261201);
    let scanned = 0;
    let parsed = 0;
    let refused = 0;
    for (let i = 0; i < 20_000; i++) {
      const line = fuzzLine(rand);
      const json = byJson(line);
      const scan = byScanner(line, i % 2 === 1);
      if (json === undefined) {
        refused++;
        if (scan !== undefined) expect.fail(`the scanner accepted a line JSON.parse refuses: ${line}`);
        continue;
      }
      parsed++;
      if (scan === undefined) continue;
      scanned++;
      expect(view(scan), line).toEqual(view(json));
    }
    // Both outcomes are common, and the scanner takes most valid lines of these shapes.
    expect(refused).toBeGreaterThan(8_000);
    expect(parsed).toBeGreaterThan(2_000);
    expect(scanned / parsed).toBeGreaterThan(0.7);
  });

  it("takes every line of the common shapes (the generator's), with the same rows", () => {
    const lines = [
      '{"task_id":"sympy__sympy-11234","dataset_revision":"sha256:ea2a","harness_revision":"git:b7a6","model_config":"cfg-baseline","validity":"unreviewed","result":"pass","review_revision":0,"attempt":1,"evidence":["fixtures/a/fixture.log","https://review.example.org/a.json"],"cluster":"sympy/sympy","run_id":"run-adbdc49c-e1","duration_s":64.0,"tokens_in":173027,"tokens_out":19706,"cost_usd":0.8147,"image":"swebench/sweb.eval.x86_64.sympy:v2"}',
      '{"task_id":"t","dataset_revision":"d","harness_revision":"h","model_config":"m","validity":"valid","review_revision":2,"passes":3,"fails":0,"infra_errors":1,"missing":0,"evidence":"one","cluster":null}',
      '{ "task_id" : "t" , "dataset_revision" : "d" , "harness_revision" : "h" , "model_config" : "m" , "validity" : "broken" , "result" : "infra_error" , "review_revision" : 10 , "attempt" : "epoch-2" , "evidence" : [ ] }',
      '{"task_id":"ünï-✓","dataset_revision":"d","harness_revision":"h","model_config":"m","validity":"disputed","result":"missing","review_revision":0,"attempt":null,"evidence":null,"passes":null}',
    ];
    for (const line of lines) {
      const scan = byScanner(line, true);
      expect(scan, line).toBeDefined();
      expect(view(scan as ExportRow)).toEqual(view(byJson(line) as ExportRow));
    }
  });
});
