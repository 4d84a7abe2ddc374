/** promptfoo: `promptfoo eval --output results.json`, on constructed outputs (mappings, refusals). */
import { describe, expect, it } from "vitest";
import { importText } from "../../src/importers/index.js";
import { canonicalJson } from "../../src/importers/promptfoo.js";
import type { ImportOptions } from "../../src/importers/types.js";
import { inputErrorOf, parseLines } from "./helpers.js";
import { createHash } from "node:crypto";

interface R {
  provider?: string;
  label?: string;
  prompt?: string;
  testIdx: number;
  description?: string;
  vars?: Record<string, unknown>;
  success: boolean;
  reason?: number;
  error?: string;
  latencyMs?: number;
  cost?: number;
  tokens?: [number, number];
  cached?: boolean;
  assert?: unknown[];
}
function result(r: R) {
  const response = r.reason === 2 ? {} : { response: { output: "x", cached: r.cached ?? false } };
  return {
    provider: {
      id: r.provider ?? "openai:gpt-a",
      label: r.label ?? (r.provider === undefined ? "a" : undefined),
    },
    prompt: { raw: "Q", label: r.prompt ?? "P1" },
    promptId: `id-${r.prompt ?? "P1"}`,
    testIdx: r.testIdx,
    testCase: {
      ...(r.description !== undefined ? { description: r.description } : {}),
      vars: r.vars ?? {},
      assert: r.assert ?? [],
    },
    vars: r.vars ?? {},
    success: r.success,
    score: r.success ? 1 : 0,
    failureReason: r.reason ?? (r.success ? 0 : 1),
    gradingResult: r.reason === 2 ? null : { pass: r.success },
    ...(r.error !== undefined ? { error: r.error } : {}),
    latencyMs: r.latencyMs ?? 1500,
    cost: r.cost ?? 0.002,
    tokenUsage: {
      prompt: r.tokens?.[0] ?? 10,
      completion: r.tokens?.[1] ?? 5,
      numRequests: r.reason === 2 ? 0 : 1,
    },
    ...response,
  };
}
function output(results: R[], repeat = 2, stats?: Record<string, number>) {
  return JSON.stringify({
    evalId: "eval-1",
    results: { version: 3, results: results.map(result), ...(stats !== undefined ? { stats } : {}) },
    metadata: { promptfooVersion: "0.123.1" },
    runtimeOptions: { repeat },
  });
}
const B = { provider: "anthropic:claude-b", label: "b" };
const BASE: R[] = [
  {
    testIdx: 0,
    description: "sum",
    vars: { a: 1 },
    success: true,
    latencyMs: 1200,
    cost: 0.01,
    tokens: [100, 7],
  },
  { ...B, testIdx: 0, description: "sum", vars: { a: 1 }, success: false },
  { testIdx: 1, description: "sum", vars: { a: 1 }, success: false },
  {
    ...B,
    testIdx: 1,
    description: "sum",
    vars: { a: 1 },
    success: false,
    reason: 2,
    error: "Error: 504 Gateway Timeout\n    at x",
  },
  { testIdx: 2, vars: { a: 2 }, success: true },
  { testIdx: 3, vars: { a: 2 }, success: true, cached: true },
];
const opts = (more: Partial<ImportOptions> = {}): ImportOptions => ({
  kind: "promptfoo",
  file: "results.json",
  ...more,
});
const varsId = (vars: unknown) =>
  `vars:${createHash("sha256").update(canonicalJson(vars)).digest("hex").slice(0, 16)}`;

describe("promptfoo on constructed outputs", () => {
  it("providers are model configs, repeats attempts, failureReason 2 infra_error; metrics; the vars-hash id", () => {
    const r = importText(opts(), output(BASE), undefined);
    const rows = parseLines(r.lines);
    const v2 = varsId({ a: 2 });
    expect(
      rows.map((o) => [
        o["task_id"],
        o["model_config"],
        o["attempt"],
        o["result"],
        o["evidence"],
        o["metrics"],
      ]),
    ).toEqual([
      [
        "sum",
        "anthropic:claude-b",
        1,
        "fail",
        ["results.json#/results/results/1/success"],
        { cost_usd: 0.002, latency_s: 1.5, tokens_in: 10, tokens_out: 5 },
      ],
      ["sum", "anthropic:claude-b", 2, "infra_error", ["results.json#/results/results/3/error"], undefined],
      [
        "sum",
        "openai:gpt-a",
        1,
        "pass",
        ["results.json#/results/results/0/success"],
        { cost_usd: 0.01, latency_s: 1.2, tokens_in: 100, tokens_out: 7 },
      ],
      [
        "sum",
        "openai:gpt-a",
        2,
        "fail",
        ["results.json#/results/results/2/success"],
        { cost_usd: 0.002, latency_s: 1.5, tokens_in: 10, tokens_out: 5 },
      ],
      [v2, "anthropic:claude-b", undefined, "missing", ["results.json"], undefined],
      [
        v2,
        "openai:gpt-a",
        1,
        "pass",
        ["results.json#/results/results/4/success"],
        { cost_usd: 0.002, latency_s: 1.5, tokens_in: 10, tokens_out: 5 },
      ],
      [v2, "openai:gpt-a", 2, "pass", ["results.json#/results/results/5/success"], undefined],
    ]);
    expect(r.notes).toContain(
      "infra_error: 1 results whose provider call failed (Error: 504 Gateway Timeout)",
    );
    expect(r.notes).toContain(
      "metrics left out on 2 results (1 provider errors, 1 cached): promptfoo's zero usage and latency there are not measurements",
    );
    expect(r.notes).toContain(`anthropic:claude-b: 1 tasks without a row, written as missing (${v2})`);
    expect(r.notes).toContain(
      `1 tasks are named by a hash of their vars (tests without a description, or a description covering several var combinations): ${v2}`,
    );
  });

  it("--model-config-from label, --provider picks one (then --model-config renames it), --prompt picks one prompt", () => {
    const byLabel = parseLines(importText(opts({ modelConfigFrom: "label" }), output(BASE), undefined).lines);
    expect([...new Set(byLabel.map((o) => o["model_config"]))]).toEqual(["a", "b"]);
    const one = importText(opts({ provider: "b", modelConfig: "claude-b-2026" }), output(BASE), undefined);
    expect([...new Set(parseLines(one.lines).map((o) => o["model_config"]))]).toEqual(["claude-b-2026"]);
    const two = BASE.flatMap((r) => [r, { ...r, prompt: "P2", testIdx: r.testIdx }]);
    const joined = parseLines(importText(opts({ provider: "a" }), output(two), undefined).lines);
    expect([...new Set(joined.map((o) => o["model_config"]))].sort()).toEqual([
      "openai:gpt-a | P1",
      "openai:gpt-a | P2",
    ]);
    const picked = parseLines(
      importText(opts({ provider: "a", prompt: "P2" }), output(two), undefined).lines,
    );
    expect([...new Set(picked.map((o) => o["model_config"]))]).toEqual(["openai:gpt-a"]);
  });

  it("one description over several var combinations: each combination is its own task", () => {
    const rows = [
      { testIdx: 0, description: "q", vars: { x: 1 }, success: true },
      { testIdx: 1, description: "q", vars: { x: 2 }, success: false },
    ];
    const ids = parseLines(importText(opts(), output(rows, 1), undefined).lines).map((o) => o["task_id"]);
    expect(ids).toEqual([`q [${varsId({ x: 1 })}]`, `q [${varsId({ x: 2 })}]`].sort());
  });

  it("the file's results.stats is checked", () => {
    expect(
      importText(opts(), output(BASE, 2, { successes: 3, failures: 2, errors: 1 }), undefined).notes,
    ).toContain("results.stats agrees: 3 successes, 2 failures, 1 errors");
    expect(
      importText(opts(), output(BASE, 2, { successes: 4, failures: 2, errors: 0 }), undefined).notes,
    ).toContain(
      "WARNING: results.stats says 4 successes, 2 failures, 0 errors, but the file's results have 3 successes, 2 failures, 1 errors; the results are imported",
    );
  });

  const refusals: readonly (readonly [string, string, Partial<ImportOptions>, string])[] = [
    [
      "failureReason outside 0, 1, 2",
      output([{ testIdx: 0, description: "s", success: false, reason: 7 }]),
      {},
      'results.json: field "/results/results/0/failureReason": expected failureReason 0 (none), 1 (assertion) or 2 (error), found number 7',
    ],
    [
      "success true with a failure reason",
      output([{ testIdx: 0, description: "s", success: true, reason: 1 }]),
      {},
      "success is true but failureReason is 1: the result contradicts itself",
    ],
    [
      "two tests with one description and one vars beyond the repeat count",
      output(
        [0, 1, 2].map((i) => ({ testIdx: i, description: "s", success: true })),
        2,
      ),
      {},
      'results.json: field "/results/results/2": task "s" has 3 results for openai:gpt-a but the eval ran each test 2 time(s)',
    ],
    [
      "two tests with one description and vars but other asserts",
      output([
        { testIdx: 0, description: "s", success: true },
        { testIdx: 1, description: "s", success: true, assert: [{ type: "contains" }] },
      ]),
      {},
      'task "s" names two different tests (also /results/results/0: other vars, asserts or options): give each test its own description',
    ],
    [
      "an unknown --provider",
      output(BASE),
      { provider: "gpt" },
      '--provider "gpt": no result has that provider; providers: a, anthropic:claude-b, b, openai:gpt-a',
    ],
    [
      "--model-config over several providers",
      output(BASE),
      { modelConfig: "x" },
      "--model-config would give the 2 model configs of the file (anthropic:claude-b, openai:gpt-a) one name; pick one provider with --provider ID|LABEL",
    ],
    [
      "not a promptfoo output",
      '{"results": []}',
      {},
      'field "/results/results": expected promptfoo\'s output',
    ],
    [
      "a negative cost",
      output([{ testIdx: 0, description: "s", success: true, cost: -1 }]),
      {},
      'field "/results/results/0/cost": cost: expected a number ≥ 0, found -1',
    ],
  ];
  it.each(refusals)("refused: %s", async (_what, text, more, message) => {
    expect(await inputErrorOf(() => importText(opts(more), text, undefined))).toContain(message);
  });
});
