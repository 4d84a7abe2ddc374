/** The policy's `guardrails` (docs/policy.md "Guardrails"): parsing, errors, and the policy diff. */
import { describe, expect, test } from "vitest";

import { parsePolicy } from "../../src/core/policy/load-policy.js";
import { diffPolicies } from "../../src/core/policy/policy-diff.js";
import { buildPolicyLog } from "../../src/core/history/policy-log.js";
import { MINIMAL, MINIMAL_POLICY, problems } from "../policy/helpers.js";

const withGuardrails = (lines: string): string => `${MINIMAL}\nguardrails:\n${lines}\n`;

describe("guardrails in the policy", () => {
  test("parse to sorted guardrails with the default missing share", () => {
    const p = parsePolicy(
      withGuardrails(
        '  tokens_out: { max_increase: "0%", missing: "< 5%" }\n  cost_usd: { max_increase: "10%" }\n  latency_s:\n    max_increase: "2.5%"',
      ),
      "policy.yaml",
    );
    expect(p.guardrails).toStrictEqual([
      {
        metric: "cost_usd",
        max_increase: 0.1,
        max_increase_text: "10%",
        missing: { op: "<", value: 0.01, percent: true, text: "< 1%" },
      },
      {
        metric: "latency_s",
        max_increase: 0.025,
        max_increase_text: "2.5%",
        missing: { op: "<", value: 0.01, percent: true, text: "< 1%" },
      },
      {
        metric: "tokens_out",
        max_increase: 0,
        max_increase_text: "0%",
        missing: { op: "<", value: 0.05, percent: true, text: "< 5%" },
      },
    ]);
  });

  test("a policy without guardrails has no guardrails key", () => {
    expect(parsePolicy(MINIMAL, "policy.yaml")).toStrictEqual(MINIMAL_POLICY);
  });

  test("an unknown key in a guardrail names the allowed keys", () => {
    expect(problems(withGuardrails('  cost_usd: { max_increase: "10%", max_incr: "5%" }'))).toStrictEqual([
      'policy.yaml:9:36: field "guardrails.cost_usd.max_incr": unknown key "max_incr"; the keys allowed here are max_increase, missing',
    ]);
  });

  test.each([
    ['"-5%"', 'got "-5%"'],
    ['"10"', 'got "10"'],
    ["10", 'got the number 10 (write it with %, e.g. "10%")'],
    ['"> 10%"', 'got "> 10%"'],
    ['"ten%"', 'got "ten%"'],
    ["[10%]", "got a list"],
  ])("max_increase %s is not a percentage ≥ 0", (value, got) => {
    expect(problems(withGuardrails(`  cost_usd: { max_increase: ${value} }`))).toStrictEqual([
      `policy.yaml:9:15: field "guardrails.cost_usd.max_increase": expected a percentage ≥ 0 as a quoted string, e.g. "10%" (the candidate may cost at most 1.10 × the baseline); ${got}`,
    ]);
  });

  test("a missing max_increase, a bad missing share, a bad metric name and an empty section are errors", () => {
    expect(problems(withGuardrails('  cost_usd: { missing: "< 5%" }'))).toStrictEqual([
      'policy.yaml:9:3: field "guardrails.cost_usd.max_increase": missing required key "max_increase"',
    ]);
    expect(problems(withGuardrails('  cost_usd: { max_increase: "5%", missing: "> 5%" }'))).toStrictEqual([
      'policy.yaml:9:35: field "guardrails.cost_usd.missing": this is a maximum: use < or <=, e.g. "< 5%"; got "> 5%"',
    ]);
    expect(problems(withGuardrails('  Cost-USD: { max_increase: "5%" }'))).toStrictEqual([
      'policy.yaml:9:3: field "guardrails.Cost-USD": "Cost-USD" is not a metric name: a metric name is a lowercase letter then up to 63 lowercase letters, digits or underscores, as the export\'s metrics are named (e.g. cost_usd)',
    ]);
    expect(problems(`${MINIMAL}\nguardrails: {}\n`)).toStrictEqual([
      'policy.yaml:8:1: field "guardrails": expected at least one metric, e.g. cost_usd: { max_increase: "10%" } (or remove the key)',
    ]);
    expect(problems(withGuardrails('  cost_usd: "10%"'))).toStrictEqual([
      'policy.yaml:9:3: field "guardrails.cost_usd": expected a mapping such as { max_increase: "10%" } (optionally with missing: "< 5%"); got "10%"',
    ]);
  });
});

describe("guardrails in the policy diff", () => {
  const policy = (lines: string) => parsePolicy(withGuardrails(lines), "policy.yaml");
  const base = policy('  cost_usd: { max_increase: "10%" }\n  latency_s: { max_increase: "25%" }');

  test("a lowered max_increase or an added guardrail tightens; a raised one or a removed one loosens", () => {
    const head = policy(
      '  cost_usd: { max_increase: "5%", missing: "< 2%" }\n  tokens_out: { max_increase: "0%" }',
    );
    expect(diffPolicies(base, head)).toStrictEqual([
      { key: "guardrails.cost_usd.max_increase", base: "10%", head: "5%", loosening: false },
      { key: "guardrails.cost_usd.missing", base: "< 1%", head: "< 2%", loosening: true },
      {
        key: "guardrails.latency_s",
        base: 'max_increase: "25%", missing: "< 1%"',
        head: null,
        loosening: true,
      },
      {
        key: "guardrails.tokens_out",
        base: null,
        head: 'max_increase: "0%", missing: "< 1%"',
        loosening: false,
      },
    ]);
    expect(diffPolicies(head, base).map((c) => [c.key, c.loosening])).toStrictEqual([
      ["guardrails.cost_usd.max_increase", true],
      ["guardrails.cost_usd.missing", false],
      ["guardrails.latency_s", false],
      ["guardrails.tokens_out", true],
    ]);
  });

  test("the same rules written otherwise are no change; removing every guardrail loosens each", () => {
    expect(
      diffPolicies(
        base,
        policy(
          '  latency_s: { max_increase: "25.0%" }\n  cost_usd: { max_increase: "10%", missing: "< 0.01" }',
        ),
      ),
    ).toStrictEqual([]);
    expect(diffPolicies(base, MINIMAL_POLICY).map((c) => [c.key, c.loosening])).toStrictEqual([
      ["guardrails.cost_usd", true],
      ["guardrails.latency_s", true],
    ]);
  });
});

describe("guardrails in policy-log", () => {
  const day = (d: string, text: string, status: "added" | "modified" = "modified") => ({
    commit: d.replace(/-/g, "").padStart(40, "0"),
    author: "Test",
    date: `${d}T12:00:00+00:00`,
    committed: `${d}T12:00:00+00:00`,
    subject: `change ${d}`,
    path: "gate/policy.yaml",
    previous_path: null,
    status,
    text,
    otherFiles: [],
  });
  const opts = {
    path: "gate/policy.yaml",
    since: null,
    baseline: null,
    truncated: false,
    today: "2026-01-10",
    isEvidenceFile: () => false,
  };

  test("a raised max_increase is a loosening; a lowered one is not; either re-examines a threshold", () => {
    const log = buildPolicyLog(
      [
        day("2026-01-01", withGuardrails('  cost_usd: { max_increase: "10%" }'), "added"),
        day("2026-01-02", withGuardrails('  cost_usd: { max_increase: "20%" }')),
        day("2026-01-03", withGuardrails('  cost_usd: { max_increase: "5%" }')),
        day("2026-01-04", MINIMAL.replace("2027-03-31", "2027-06-30")),
      ],
      opts,
    );
    expect(
      log.entries.map((e) => [e.flags, e.changes.map((c) => `${c.key} ${c.base} → ${c.head}`)]),
    ).toStrictEqual([
      [[], []],
      [["loosening"], ["guardrails.cost_usd.max_increase 10% → 20%"]],
      [[], ["guardrails.cost_usd.max_increase 20% → 5%"]],
      [
        ["loosening"],
        ["revisit 2027-03-31 → 2027-06-30", 'guardrails.cost_usd max_increase: "5%", missing: "< 1%" → null'],
      ],
    ]);
  });
});
