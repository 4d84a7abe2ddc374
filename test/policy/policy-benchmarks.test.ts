import { describe, expect, test } from "vitest";

import { parsePolicy } from "../../src/core/policy/load-policy.js";
import { diffPolicies } from "../../src/core/policy/policy-diff.js";
import { changeFlags } from "../../src/core/history/policy-log.js";
import { MINIMAL, MINIMAL_POLICY, problems } from "./helpers.js";

const WITH_BENCHMARKS = `${MINIMAL}
benchmarks:
  swe-verified:
    common_valid_tasks: ">= 450"
  private-canary:
    observed_margin: "> validity_sensitivity + run_variance - 1%"
    canary: true
  swe-pro:
    required: false
`;

describe("policy benchmarks:", () => {
  test("each entry is the top-level accept_if with its keys over it, sorted by name", () => {
    const p = parsePolicy(WITH_BENCHMARKS, "policy.yaml");
    const top = MINIMAL_POLICY.accept_if;
    expect(p.accept_if).toStrictEqual(top);
    expect(p.benchmarks).toStrictEqual([
      {
        name: "private-canary",
        accept_if: {
          ...top,
          delta0: -0.01,
          observed_margin_text: "> validity_sensitivity + run_variance - 1%",
        },
        overrides: ["observed_margin"],
        required: true,
        canary: true,
      },
      { name: "swe-pro", accept_if: top, overrides: [], required: false, canary: false },
      {
        name: "swe-verified",
        accept_if: { ...top, common_valid_tasks: { op: ">=", value: 450, percent: false, text: ">= 450" } },
        overrides: ["common_valid_tasks"],
        required: true,
        canary: false,
      },
    ]);
  });

  test("a policy without benchmarks: has none", () => {
    expect(parsePolicy(MINIMAL, "policy.yaml")).toStrictEqual(MINIMAL_POLICY);
  });

  test("an unknown key in an entry names the file, line and field, with the keys allowed", () => {
    const text = `${MINIMAL}\nbenchmarks:\n  swe-verified:\n    common_valid_task: ">= 450"\n`;
    expect(problems(text)).toStrictEqual([
      'policy.yaml:10:5: field "benchmarks.swe-verified.common_valid_task": unknown key "common_valid_task"; did you mean "common_valid_tasks"? the keys allowed here are common_valid_tasks, infra_error_rate, disputed_fraction, missing_fraction, observed_margin, production_canary, required, canary',
    ]);
  });

  test("bad values name their field: a threshold, required, an entry that is not a mapping", () => {
    const text = `${MINIMAL}\nbenchmarks:\n  a:\n    infra_error_rate: 2\n    required: yes\n  b: 3\n`;
    expect(problems(text)).toStrictEqual([
      'policy.yaml:10:5: field "benchmarks.a.infra_error_rate": a threshold needs an operator: write it as a quoted string, e.g. "< 2%"; got the number 2',
      'policy.yaml:11:5: field "benchmarks.a.required": expected true or false; got "yes" (YAML 1.2 reads yes/no/on/off as text)',
      'policy.yaml:12:3: field "benchmarks.b": expected a mapping of keys; got the number 3',
    ]);
  });

  test("a canary is required, only one benchmark is the canary, and the mapping is not empty", () => {
    const text = `${MINIMAL}\nbenchmarks:\n  a:\n    canary: true\n    required: false\n  b:\n    canary: true\n`;
    expect(problems(text)).toStrictEqual([
      'policy.yaml:11:5: field "benchmarks.a.required": the canary benchmark is always required (it meets production_canary: passes by accepting); remove required: false or canary: true',
      'policy.yaml:13:5: field "benchmarks.b.canary": only one benchmark can be the canary; "a" already is',
    ]);
    expect(problems(`${MINIMAL}\nbenchmarks: {}\n`)).toStrictEqual([
      'policy.yaml:8:1: field "benchmarks": expected at least one benchmark, e.g. benchmarks: { private-canary: { required: true } }; omit the key to decide every benchmark by accept_if',
    ]);
  });

  test("an empty benchmark name is refused", () => {
    expect(problems(`${MINIMAL}\nbenchmarks:\n  "":\n    required: false\n`)).toStrictEqual([
      'policy.yaml:9:3: field "benchmarks.": expected a benchmark name (a non-empty string, as the export\'s `benchmark`)',
    ]);
  });
});

describe("policy diff: per-benchmark keys", () => {
  const base = parsePolicy(WITH_BENCHMARKS, "policy.yaml");
  const change = (text: string) => diffPolicies(base, parsePolicy(text, "policy.yaml"));

  test("a loosened per-benchmark bar is a loosening, a tightened one is not", () => {
    expect(change(WITH_BENCHMARKS.replace('">= 450"', '">= 400"'))).toStrictEqual([
      { key: "benchmarks.swe-verified.common_valid_tasks", base: ">= 450", head: ">= 400", loosening: true },
    ]);
    expect(change(WITH_BENCHMARKS.replace('">= 450"', '">= 480"'))).toStrictEqual([
      { key: "benchmarks.swe-verified.common_valid_tasks", base: ">= 450", head: ">= 480", loosening: false },
    ]);
  });

  test("an override that replaces the top-level bar compares with it; required and canary removed loosen", () => {
    const head = WITH_BENCHMARKS.replace(
      "    required: false\n",
      '    required: false\n    disputed_fraction: "< 10%"\n',
    )
      .replace("    canary: true\n", "")
      .replace("  swe-verified:\n", "  swe-verified:\n    required: false\n");
    expect(change(head)).toStrictEqual([
      { key: "benchmarks.private-canary.canary", base: "true", head: "false", loosening: true },
      { key: "benchmarks.swe-pro.disputed_fraction", base: "< 5%", head: "< 10%", loosening: true },
      { key: "benchmarks.swe-verified.required", base: "true", head: "false", loosening: true },
    ]);
  });

  test("a benchmark entry removed or added is listed by each key it set", () => {
    const head = WITH_BENCHMARKS.replace('  swe-verified:\n    common_valid_tasks: ">= 450"\n', "");
    expect(change(head)).toStrictEqual([
      { key: "benchmarks.swe-verified.common_valid_tasks", base: ">= 450", head: ">= 500", loosening: false },
      { key: "benchmarks.swe-verified.required", base: "true", head: null, loosening: true },
    ]);
    expect(diffPolicies(parsePolicy(head, "p"), base)).toStrictEqual([
      { key: "benchmarks.swe-verified.common_valid_tasks", base: ">= 500", head: ">= 450", loosening: true },
      { key: "benchmarks.swe-verified.required", base: null, head: "true", loosening: false },
    ]);
  });
});

describe("policy-log: per-benchmark keys", () => {
  const revisit = { key: "revisit", base: "2026-03-31", head: "2026-06-30", loosening: true };
  test("a per-benchmark bar re-examined with a later revisit is no snooze; required alone is", () => {
    expect(
      changeFlags([
        revisit,
        { key: "benchmarks.canary.observed_margin", base: "> a", head: "> b", loosening: false },
      ]),
    ).toStrictEqual(["loosening"]);
    expect(
      changeFlags([
        revisit,
        { key: "benchmarks.canary.required", base: "true", head: "false", loosening: true },
      ]),
    ).toStrictEqual(["loosening", "snoozed"]);
  });

  test("a loosened per-benchmark bar in the policy's history is flagged a loosening", () => {
    const base = parsePolicy(WITH_BENCHMARKS, "policy.yaml");
    const head = parsePolicy(WITH_BENCHMARKS.replace('">= 450"', '">= 300"'), "policy.yaml");
    expect(changeFlags(diffPolicies(base, head))).toStrictEqual(["loosening"]);
  });
});
