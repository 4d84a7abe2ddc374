/**
 * The new fields of an export row (docs/spec.md §1.1): `benchmark`, `metrics` on a row of one
 * attempt, `metrics_sum` and `metrics_n` on a pre-aggregated row. Every malformed value is one
 * problem naming file, line and field; every accepted one is read the same by the byte scanner
 * (row-scanner.ts, metric-scanner.ts) and by the JSON.parse path (row-checks.ts, metric-checks.ts).
 */
import { describe, expect, it } from "vitest";

import type { InputError } from "../../../src/core/errors.js";
import { quote } from "../../../src/core/quote.js";
import {
  checkExportRow,
  checkReviewRow,
  emptyExportRow,
  emptyReviewRow,
  LineIssues,
  parseObject,
  type ExportRow,
} from "../../../src/read/rows/row-checks.js";
import { RowScanner } from "../../../src/read/rows/row-scanner.js";
import { fixtures, inputError, readNamed, row, toJsonl } from "../fixtures.js";

const fx = fixtures("metric-rows");
const HEADER1 = "The results/reviews input has 1 problem:";

const j = (over: Record<string, unknown>): string => JSON.stringify(row(over));
/** A pre-aggregated row of 3 passes and 1 fail (4 attempts). */
const agg = (over: Record<string, unknown>): string =>
  j({ result: undefined, passes: 3, fails: 1, infra_errors: 0, missing: 0, ...over });

async function readWithBadLine(name: string, bad: string): Promise<InputError> {
  const path = await fx.write(name, toJsonl([row(), row({ model_config: "cand" }), bad]));
  return inputError(readNamed([path]));
}

function byJson(line: string): ExportRow | undefined {
  const issues = new LineIssues();
  const obj = parseObject(line, issues);
  const out = emptyExportRow();
  return obj !== undefined && checkExportRow(obj, out, issues) ? out : undefined;
}

function byScanner(line: string): ExportRow | undefined {
  const out = emptyExportRow();
  return new RowScanner(true).scan(Buffer.from(line), 0, Buffer.byteLength(line), out) ? out : undefined;
}

/** What the builder reads of a row's new fields. */
function fields(r: ExportRow): unknown {
  const n = r.metricCount;
  return {
    benchmark: r.benchmark,
    names: r.metricNames.slice(0, n),
    values: [...r.metricValues.subarray(0, n)],
    counts: r.result < 0 ? [...r.metricCounts.subarray(0, n)] : undefined,
  };
}

describe("a malformed benchmark or metric is one problem naming file, line and field", () => {
  const value = "expected a finite number >= 0";
  const cases: [string, string, string][] = [
    [
      "benchmark empty",
      j({ benchmark: "" }),
      `field "benchmark": expected a non-empty string; got an empty string`,
    ],
    ["benchmark number", j({ benchmark: 3 }), `field "benchmark": expected a non-empty string; got 3`],
    [
      "benchmark array",
      j({ benchmark: ["a"] }),
      `field "benchmark": expected a non-empty string; got an array`,
    ],
    [
      "benchmark with a newline",
      j({ benchmark: "a\nb" }),
      `field "benchmark": expected no control characters (U+0000-U+001F, U+007F-U+009F); got "a\\nb"`,
    ],
    ["negative", j({ metrics: { cost_usd: -0.5 } }), `field "metrics.cost_usd": ${value}; got -0.5`],
    ["NaN as a string", j({ metrics: { cost_usd: "NaN" } }), `field "metrics.cost_usd": ${value}; got "NaN"`],
    [
      "Infinity as a string",
      j({ metrics: { latency_s: "Infinity" } }),
      `field "metrics.latency_s": ${value}; got "Infinity"`,
    ],
    [
      "a number as a string",
      j({ metrics: { tokens_in: "12" } }),
      `field "metrics.tokens_in": ${value}; got "12"`,
    ],
    ["nested object", j({ metrics: { cost: { usd: 1 } } }), `field "metrics.cost": ${value}; got an object`],
    ["array value", j({ metrics: { cost: [1] } }), `field "metrics.cost": ${value}; got an array`],
    ["boolean value", j({ metrics: { cost: true } }), `field "metrics.cost": ${value}; got true`],
    [
      "too large for a double",
      `{"task_id":"t1","dataset_revision":"ds1","harness_revision":"h1","model_config":"base","validity":"valid","result":"pass","review_revision":1,"metrics":{"cost":1e400}}`,
      `field "metrics.cost": ${value}; got a number too large for a double`,
    ],
    [
      "metrics an array",
      j({ metrics: [1, 2] }),
      `field "metrics": expected an object from metric name to number; got an array`,
    ],
    [
      "metrics a string",
      j({ metrics: "cost=1" }),
      `field "metrics": expected an object from metric name to number; got "cost=1"`,
    ],
    [
      "metrics a number",
      j({ metrics: 3 }),
      `field "metrics": expected an object from metric name to number; got 3`,
    ],
    ...["Cost", "1x", "cost-usd", "cost usd", "_x", "", "é", "a".repeat(65)].map(
      (name): [string, string, string] => [
        `bad name ${JSON.stringify(name.slice(0, 8))}`,
        j({ metrics: { [name]: 1 } }),
        `field "metrics": expected metric names of a lowercase letter, then up to 63 lowercase letters, digits or underscores ([a-z][a-z0-9_]{0,63}); got ${quote(name)}`,
      ],
    ),
    [
      "a metric given twice",
      '{"task_id":"t1","dataset_revision":"ds1","harness_revision":"h1","model_config":"base","validity":"valid","result":"pass","review_revision":1,"metrics":{"cost":1,"x":2,"cost":1}}',
      `field "metrics.cost": the metric "cost" is given twice in one object on this line; expected each metric once`,
    ],
    [
      "too many metrics",
      j({ metrics: Object.fromEntries(Array.from({ length: 257 }, (_, k) => [`m${k}`, k])) }),
      `field "metrics": expected at most 256 metrics; got 257`,
    ],
    [
      "metrics_sum on a row of one attempt",
      j({ metrics_sum: { cost: 1 } }),
      `field "metrics_sum": only a pre-aggregated row (one with counts instead of a result) carries metrics_sum and metrics_n; a row of one attempt carries metrics`,
    ],
    [
      "metrics on a pre-aggregated row",
      agg({ metrics: { cost: 1 } }),
      `field "metrics": a pre-aggregated row carries metrics_sum (each metric summed over its attempts) and metrics_n (how many of them carry it), not metrics`,
    ],
    [
      "a negative sum",
      agg({ metrics_sum: { cost: -1 }, metrics_n: { cost: 1 } }),
      `field "metrics_sum.cost": ${value}; got -1`,
    ],
    [
      "a count that is not an integer",
      agg({ metrics_sum: { cost: 1 }, metrics_n: { cost: 1.5 } }),
      `field "metrics_n.cost": expected an integer >= 0; got 1.5`,
    ],
    [
      "a negative count",
      agg({ metrics_sum: { cost: 1 }, metrics_n: { cost: -1 } }),
      `field "metrics_n.cost": expected an integer >= 0; got -1`,
    ],
    [
      "more counted than the row's attempts",
      agg({ metrics_sum: { cost: 1 }, metrics_n: { cost: 5 } }),
      `field "metrics_n.cost": expected at most the row's 4 attempts (passes + fails + infra_errors + missing); got 5`,
    ],
    [
      "a sum without its count",
      agg({ metrics_sum: { cost: 1, tokens: 3 }, metrics_n: { cost: 1 } }),
      `field "metrics_n.tokens": metrics_sum gives tokens; expected metrics_n to say how many of the row's attempts its sum covers`,
    ],
    [
      "a sum whose count is null",
      agg({ metrics_sum: { cost: 1 }, metrics_n: { cost: null } }),
      `field "metrics_n.cost": metrics_sum gives cost; expected metrics_n to say how many of the row's attempts its sum covers`,
    ],
    [
      "a count without its sum",
      agg({ metrics_sum: {}, metrics_n: { cost: 2 } }),
      `field "metrics_sum.cost": metrics_n gives cost; expected its sum in metrics_sum (or null in both for none)`,
    ],
    [
      "a sum without metrics_n",
      agg({ metrics_sum: { cost: 1 } }),
      `field "metrics_n.cost": metrics_sum gives cost; expected metrics_n to say how many of the row's attempts its sum covers`,
    ],
    [
      "a sum over no attempts that is not 0",
      agg({ metrics_sum: { cost: 2 }, metrics_n: { cost: 0 } }),
      `field "metrics_sum.cost": metrics_n.cost is 0 (no attempt carries it), so its sum is 0; got 2`,
    ],
    [
      "metrics_n a list",
      agg({ metrics_sum: { cost: 2 }, metrics_n: [1] }),
      `field "metrics_n": expected an object from metric name to number; got an array`,
    ],
  ];

  it.each(cases)("%s", async (name, line, expected) => {
    const file = `bad-${name.replace(/\W+/g, "-")}.jsonl`;
    const err = await readWithBadLine(file, line);
    expect(err.message).toBe(`${HEADER1}\n  ${file}:3: ${expected}`);
    // Neither path takes the line.
    expect(byScanner(line)).toBeUndefined();
    expect(byJson(line)).toBeUndefined();
  });

  it("a review's benchmark follows the same rule", () => {
    const issues = new LineIssues();
    const obj = parseObject(
      JSON.stringify({
        task_id: "t",
        dataset_revision: "d",
        validity: "valid",
        review_revision: 1,
        benchmark: "",
      }),
      issues,
    );
    expect(obj !== undefined && checkReviewRow(obj, emptyReviewRow(), issues)).toBe(false);
    expect([issues.field, issues.text()]).toEqual([
      "benchmark",
      "expected a non-empty string; got an empty string",
    ]);
  });
});

describe("accepted values are read the same on both paths", () => {
  const lines: [string, unknown][] = [
    [j({ metrics: null }), { benchmark: undefined, names: [], values: [], counts: undefined }],
    [
      j({ metrics: {}, benchmark: "swe-verified" }),
      { benchmark: "swe-verified", names: [], values: [], counts: undefined },
    ],
    [
      j({ metrics: { cost_usd: 0.0132, latency_s: 41.7, tokens_in: 12034, tokens_out: 2211 } }),
      {
        benchmark: undefined,
        names: ["cost_usd", "latency_s", "tokens_in", "tokens_out"],
        values: [0.0132, 41.7, 12034, 2211],
        counts: undefined,
      },
    ],
    [
      j({ metrics: { a: null, b: 0 } }),
      { benchmark: undefined, names: ["b"], values: [0], counts: undefined },
    ],
    [
      j({ result: "missing", metrics: { z9_: 1.5, a: 1e-7 } }),
      { benchmark: undefined, names: ["z9_", "a"], values: [1.5, 1e-7], counts: undefined },
    ],
    [
      agg({ metrics_sum: { cost: 0.5, lat: 0, tok: null }, metrics_n: { tok: null, lat: 0, cost: 2 } }),
      { benchmark: undefined, names: ["cost"], values: [0.5], counts: [2] },
    ],
    [
      agg({ metrics_sum: null, metrics_n: null }),
      { benchmark: undefined, names: [], values: [], counts: [] },
    ],
  ];
  it.each(lines.map((l, k) => [k, ...l] as const))("line %i", (_k, line, expected) => {
    const json = byJson(line);
    const scan = byScanner(line);
    expect(json && fields(json)).toEqual(expected);
    expect(scan && fields(scan)).toEqual(expected);
  });

  it("numbers as JSON.parse converts them, -0 as 0, 1e-400 as 0", () => {
    const texts = [
      "0",
      "-0",
      "0.0",
      "1",
      "1.0",
      "10",
      "0.1",
      "0.2",
      "0.3",
      "0.0132",
      "41.7",
      "1e5",
      "1E+5",
      "1.5e-7",
      "2.5e-22",
      "2.5e-23",
      "123456789012345",
      "1234567890123456",
      "12345678901234567890",
      "0.1234567890123456789",
      "9007199254740993",
      "1e22",
      "1e23",
      "4.9e-324",
      "1e-400",
      "1.7976931348623157e308",
      "0.30000000000000004",
      "100000000000000000000000",
      "0.000001",
      "7e-1",
      "64.0",
      "0.8147",
    ];
    for (const t of texts) {
      const line = `{"task_id":"t1","dataset_revision":"ds1","harness_revision":"h1","model_config":"base","validity":"valid","result":"pass","review_revision":1,"metrics":{"m":${t}}}`;
      const expected = Math.abs(JSON.parse(t) as number);
      const json = byJson(line);
      const scan = byScanner(line);
      expect(json, t).toBeDefined();
      // -0 is JSON.parse's; the gate reads it as 0. (The scanner leaves a minus sign to JSON.parse.)
      for (const r of scan === undefined ? [json] : [json, scan]) {
        expect(r?.metricValues[0], t).toBe(expected === 0 ? 0 : expected);
        expect(Object.is(r?.metricValues[0], -0), t).toBe(false);
      }
      if (!t.startsWith("-")) expect(byScanner(line), t).toBeDefined();
    }
  });
});
