import { describe, expect, test } from "vitest";

import { InputError } from "../../src/core/errors.js";
import { parsePolicy } from "../../src/core/policy/load-policy.js";
import { diffPolicies, diffPolicyTexts } from "../../src/core/policy/policy-diff.js";
import type { PolicyChange } from "../../src/core/verdict-types.js";

/** A full policy; `over` replaces whole lines by their key (indented keys included). */
const FULL: Readonly<Record<string, string>> = {
  owner: 'owner: "@acme/eval-owners"',
  revisit: "revisit: 2027-03-31",
  on_expired: "on_expired: fail",
  infra_errors: "infra_errors: exclude",
  require_same_harness: "require_same_harness: true",
  accept_if: "accept_if:",
  "accept_if.common_valid_tasks": '  common_valid_tasks: ">= 500"',
  "accept_if.infra_error_rate": '  infra_error_rate: "< 1%"',
  "accept_if.disputed_fraction": '  disputed_fraction: "< 5%"',
  "accept_if.missing_fraction": '  missing_fraction: "< 2%"',
  "accept_if.observed_margin": '  observed_margin: "> validity_sensitivity + run_variance"',
  "accept_if.production_canary": "  production_canary: passes",
  margin: "margin:",
  "margin.confidence": "  confidence: 0.95",
  "margin.quantile": "  quantile: t",
  "margin.power": "  power: 0.8",
  "margin.standard_error": "  standard_error: paired",
  "margin.cluster_correction": "  cluster_correction: cr2",
  "margin.validity_bound": "  validity_bound: pessimistic",
  on_unresolved: "on_unresolved: fail",
};

function text(over: Readonly<Record<string, string | null>> = {}): string {
  const lines: string[] = [];
  for (const [key, line] of Object.entries(FULL)) {
    const v = key in over ? over[key] : line;
    if (v !== null && v !== undefined) lines.push(v);
  }
  return lines.join("\n") + "\n";
}

const policy = (over: Readonly<Record<string, string | null>> = {}) => parsePolicy(text(over), "policy.yaml");

function diff(base: Readonly<Record<string, string | null>>, head: Readonly<Record<string, string | null>>) {
  return diffPolicies(policy(base), policy(head));
}

describe("diffPolicies: one rule at a time, both directions", () => {
  // [key, base line, head line, rendered base, rendered head, loosening base→head, loosening head→base]
  const table: [string, string | null, string | null, string | null, string | null, boolean, boolean][] = [
    ["owner", 'owner: "@acme/eval-owners"', "owner: someone", "@acme/eval-owners", "someone", false, false],
    ["revisit", "revisit: 2027-03-31", "revisit: 2027-06-30", "2027-03-31", "2027-06-30", true, false],
    ["on_expired", "on_expired: fail", "on_expired: warn", "fail", "warn", true, false],
    ["on_expired", "on_expired: fail", "on_expired: neutral", "fail", "neutral", true, false],
    ["on_expired", "on_expired: neutral", "on_expired: warn", "neutral", "warn", true, false],
    [
      "infra_errors",
      "infra_errors: exclude",
      "infra_errors: count_as_fail",
      "exclude",
      "count_as_fail",
      false,
      false,
    ],
    [
      "require_same_harness",
      "require_same_harness: true",
      "require_same_harness: false",
      "true",
      "false",
      true,
      false,
    ],
    [
      "accept_if.common_valid_tasks",
      '  common_valid_tasks: ">= 500"',
      '  common_valid_tasks: ">= 400"',
      ">= 500",
      ">= 400",
      true,
      false,
    ],
    [
      "accept_if.common_valid_tasks",
      '  common_valid_tasks: "> 500"',
      '  common_valid_tasks: ">= 500"',
      "> 500",
      ">= 500",
      true,
      false,
    ],
    [
      "accept_if.infra_error_rate",
      '  infra_error_rate: "< 1%"',
      '  infra_error_rate: "< 2%"',
      "< 1%",
      "< 2%",
      true,
      false,
    ],
    [
      "accept_if.infra_error_rate",
      '  infra_error_rate: "< 1%"',
      '  infra_error_rate: "<= 1%"',
      "< 1%",
      "<= 1%",
      true,
      false,
    ],
    [
      "accept_if.disputed_fraction",
      '  disputed_fraction: "< 5%"',
      '  disputed_fraction: "<= 0.1"',
      "< 5%",
      "<= 0.1",
      true,
      false,
    ],
    [
      "accept_if.missing_fraction",
      '  missing_fraction: "< 2%"',
      '  missing_fraction: "< 3%"',
      "< 2%",
      "< 3%",
      true,
      false,
    ],
    ["accept_if.missing_fraction", '  missing_fraction: "< 2%"', null, "< 2%", null, true, false],
    [
      "accept_if.observed_margin",
      '  observed_margin: "> validity_sensitivity + run_variance"',
      '  observed_margin: "> validity_sensitivity + run_variance - 1%"',
      "> validity_sensitivity + run_variance",
      "> validity_sensitivity + run_variance - 1%",
      true,
      false,
    ],
    [
      "accept_if.observed_margin",
      '  observed_margin: "> validity_sensitivity + run_variance + 2%"',
      '  observed_margin: "> validity_sensitivity + run_variance + 1%"',
      "> validity_sensitivity + run_variance + 2%",
      "> validity_sensitivity + run_variance + 1%",
      true,
      false,
    ],
    ["accept_if.production_canary", "  production_canary: passes", null, "passes", null, true, false],
    ["margin.confidence", "  confidence: 0.95", "  confidence: 0.9", "0.95", "0.9", true, false],
    // z ≤ t_ν: the z bound is narrower, so t → z loosens.
    ["margin.quantile", "  quantile: t", "  quantile: z", "t", "z", true, false],
    // Power only changes a planning figure: neither direction loosens the gate.
    ["margin.power", "  power: 0.8", "  power: 0.5", "0.8", "0.5", false, false],
    // CR1 is the smaller correction with the larger ν: cr2 → cr1 loosens.
    [
      "margin.cluster_correction",
      "  cluster_correction: cr2",
      "  cluster_correction: cr1",
      "cr2",
      "cr1",
      true,
      false,
    ],
    [
      "margin.standard_error",
      "  standard_error: paired",
      "  standard_error: clustered",
      "paired",
      "clustered",
      false,
      false,
    ],
    [
      "margin.validity_bound",
      "  validity_bound: pessimistic",
      "  validity_bound: exact",
      "pessimistic",
      "exact",
      true,
      false,
    ],
    ["on_unresolved", "on_unresolved: fail", "on_unresolved: neutral", "fail", "neutral", true, false],
  ];

  test.each(table)("%s: %j → %j", (key, baseLine, headLine, baseText, headText, forward, backward) => {
    const base = { [key]: baseLine };
    const head = { [key]: headLine };
    expect(diff(base, head)).toStrictEqual([{ key, base: baseText, head: headText, loosening: forward }]);
    expect(diff(head, base)).toStrictEqual([{ key, base: headText, head: baseText, loosening: backward }]);
  });
});

describe("diffPolicies: same meaning, different text", () => {
  test.each([
    ["accept_if.infra_error_rate", '  infra_error_rate: "< 1%"', '  infra_error_rate: "<0.01"'],
    ["accept_if.common_valid_tasks", '  common_valid_tasks: ">= 500"', '  common_valid_tasks: "> 499"'],
    ["accept_if.common_valid_tasks", '  common_valid_tasks: ">= 500"', '  common_valid_tasks: "> 499.5"'],
    ["accept_if.common_valid_tasks", '  common_valid_tasks: ">= 500"', '  common_valid_tasks: ">= 499.2"'],
    [
      "accept_if.observed_margin",
      '  observed_margin: "> validity_sensitivity + run_variance"',
      '  observed_margin: ">validity_sensitivity + run_variance + 0%"',
    ],
    ["on_expired", "on_expired: warn", null],
    ["infra_errors", "infra_errors: exclude", null],
    ["require_same_harness", "require_same_harness: true", null],
    ["margin.standard_error", "  standard_error: paired", null],
    ["margin.confidence", "  confidence: 0.95", null],
    ["margin.quantile", "  quantile: t", null],
    ["margin.power", "  power: 0.8", null],
    ["margin.cluster_correction", "  cluster_correction: cr2", null],
    ["on_unresolved", "on_unresolved: fail", null],
    ["owner", "owner: x", 'owner: "x"'],
  ])("%s: %j and %j are the same rule", (key, a, b) => {
    expect(diff({ [key]: a }, { [key]: b })).toStrictEqual([]);
  });

  test("a count bound that differs once rounded to whole tasks is a change", () => {
    expect(diff({}, { "accept_if.common_valid_tasks": '  common_valid_tasks: "> 500"' })).toStrictEqual([
      { key: "accept_if.common_valid_tasks", base: ">= 500", head: "> 500", loosening: false },
    ]);
  });

  test("an absent optional rule renders as null and adding it is not a loosening", () => {
    expect(diff({ "accept_if.missing_fraction": null }, {})).toStrictEqual([
      { key: "accept_if.missing_fraction", base: null, head: "< 2%", loosening: false },
    ]);
    expect(diff({ "accept_if.production_canary": null }, {})).toStrictEqual([
      { key: "accept_if.production_canary", base: null, head: "passes", loosening: false },
    ]);
  });

  test("dropping on_expired: fail falls back to the default warn, a loosening", () => {
    expect(diff({}, { on_expired: null })).toStrictEqual([
      { key: "on_expired", base: "fail", head: "warn", loosening: true },
    ]);
  });

  test("removing the whole margin mapping compares against the defaults", () => {
    expect(
      diff(
        {},
        {
          margin: null,
          "margin.confidence": null,
          "margin.quantile": null,
          "margin.power": null,
          "margin.standard_error": null,
          "margin.cluster_correction": null,
          "margin.validity_bound": null,
        },
      ),
    ).toStrictEqual([{ key: "margin.validity_bound", base: "pessimistic", head: "exact", loosening: true }]);
  });
});

describe("diffPolicies: many changes", () => {
  const head = {
    on_unresolved: "on_unresolved: neutral",
    "margin.confidence": "  confidence: 0.99",
    owner: "owner: team-b",
    "accept_if.infra_error_rate": '  infra_error_rate: "< 0.5%"',
    "accept_if.common_valid_tasks": '  common_valid_tasks: ">= 300"',
    revisit: "revisit: 2026-12-31",
  };
  const expected: PolicyChange[] = [
    { key: "owner", base: "@acme/eval-owners", head: "team-b", loosening: false },
    { key: "revisit", base: "2027-03-31", head: "2026-12-31", loosening: false },
    { key: "accept_if.common_valid_tasks", base: ">= 500", head: ">= 300", loosening: true },
    { key: "accept_if.infra_error_rate", base: "< 1%", head: "< 0.5%", loosening: false },
    { key: "margin.confidence", base: "0.95", head: "0.99", loosening: false },
    { key: "on_unresolved", base: "fail", head: "neutral", loosening: true },
  ];

  test("are listed in the fixed rule order, whatever the order of the file", () => {
    expect(diff({}, head)).toStrictEqual(expected);
    const shuffled = [
      "on_unresolved: neutral",
      "margin:",
      "  validity_bound: pessimistic",
      "  standard_error: paired",
      "  confidence: 0.99",
      "accept_if:",
      "  production_canary: passes",
      '  observed_margin: "> validity_sensitivity + run_variance"',
      '  missing_fraction: "< 2%"',
      '  disputed_fraction: "< 5%"',
      '  infra_error_rate: "< 0.5%"',
      '  common_valid_tasks: ">= 300"',
      "require_same_harness: true",
      "infra_errors: exclude",
      "on_expired: fail",
      "revisit: 2026-12-31",
      "owner: team-b",
    ].join("\n");
    expect(diffPolicies(policy(), parsePolicy(shuffled, "p.yaml"))).toStrictEqual(expected);
  });

  test("a policy compared with itself has no changes", () => {
    expect(diffPolicies(policy(), policy())).toStrictEqual([]);
    expect(diffPolicies(policy(head), policy(head))).toStrictEqual([]);
  });
});

describe("diffPolicyTexts", () => {
  test("returns the changes when both parse", () => {
    expect(
      diffPolicyTexts(text(), text({ "margin.confidence": "  confidence: 0.9" }), "policy.yaml"),
    ).toStrictEqual({
      changes: [{ key: "margin.confidence", base: "0.95", head: "0.9", loosening: true }],
      headError: null,
    });
  });

  test("a head that does not parse is reported, not thrown", () => {
    const head = text({ "accept_if.infra_error_rate": '  infra_error_rate: "less than 1%"', owner: null });
    expect(diffPolicyTexts(text(), head, "policy.yaml")).toStrictEqual({
      changes: [],
      headError:
        'policy.yaml:1:1: field "owner": missing required key "owner" (who answers for the thresholds, e.g. owner: "@acme/eval-owners") (and 1 more problem)',
    });
    expect(diffPolicyTexts(text(), "a: [\n", "policy.yaml").headError).toBe(
      'policy.yaml:1:4: field "a": YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]',
    );
    expect(diffPolicyTexts(text(), text() + "---\n", "policy.yaml").headError).toBe(
      'policy.yaml:21:1: a second YAML document starts here: the policy must be a single document (remove the "---" or "..." line and what follows, or merge it)',
    );
  });

  test("a base that does not parse throws its InputError", () => {
    expect(() => diffPolicyTexts("owner: a\n", text(), "policy.yaml")).toThrow(InputError);
  });
});

describe("the keys added with the rank and the runs (issues 29 and 30)", () => {
  const diff = (baseExtra: string, headExtra: string): readonly PolicyChange[] =>
    diffPolicies(parsePolicy(text() + baseExtra, "p.yaml"), parsePolicy(text() + headExtra, "p.yaml"));

  test("reruns towards latest is a loosening, towards fail is not", () => {
    expect(diff("reruns: fail\n", "reruns: pool\n")).toStrictEqual([
      { key: "reruns", base: "fail", head: "pool", loosening: true },
    ]);
    expect(diff("", "reruns: fail\n")).toStrictEqual([
      { key: "reruns", base: "latest", head: "fail", loosening: false },
    ]);
  });

  test("rank.require and rank.reference are listed, never marked as loosening", () => {
    expect(diff("", "rank:\n  require: top_group\n  reference: cfg-prod\n")).toStrictEqual([
      { key: "rank.require", base: "top_resolved", head: "top_group", loosening: false },
      { key: "rank.reference", base: null, head: "cfg-prod", loosening: false },
    ]);
    expect(
      diff("rank:\n  require: above_reference\n  reference: a\n", "rank:\n  require: top_group\n"),
    ).toStrictEqual([
      { key: "rank.require", base: "above_reference", head: "top_group", loosening: false },
      { key: "rank.reference", base: "a", head: null, loosening: false },
    ]);
    expect(diff("rank:\n  require: top_group\n", "rank:\n  require: top_group\n")).toStrictEqual([]);
  });
});
