import { describe, expect, test } from "vitest";

import { InputError } from "../../src/core/errors.js";
import {
  isExpired,
  MAX_POLICY_BYTES,
  parsePolicy,
  POLICY_DEFAULTS,
} from "../../src/core/policy/load-policy.js";
import { inputError, MINIMAL, MINIMAL_POLICY, problems, withLine } from "./helpers.js";

describe("parsePolicy: accepted forms", () => {
  test("a minimal policy gets every default", () => {
    expect(parsePolicy(MINIMAL, "policy.yaml")).toStrictEqual(MINIMAL_POLICY);
  });

  test("the defaults are the documented ones", () => {
    expect(POLICY_DEFAULTS).toStrictEqual({
      on_expired: "warn",
      infra_errors: "exclude",
      require_same_harness: true,
      margin: {
        confidence: 0.95,
        quantile: "t",
        power: 0.8,
        standard_error: "paired",
        cluster_correction: "cr2",
        validity_bound: "exact",
      },
      on_unresolved: "fail",
      reruns: "latest",
    });
  });

  test("SPEC §1.3's example parses", () => {
    const text = `owner: "@acme/eval-owners"          # required: who answers for the thresholds
revisit: 2027-03-31                 # required: date by which the thresholds are re-examined
on_expired: warn                    # warn | fail  (after \`revisit\`)
infra_errors: exclude               # exclude | count_as_fail — always printed in the report
require_same_harness: true          # baseline and candidate ran on one harness revision
accept_if:
  common_valid_tasks: ">= 500"
  infra_error_rate: "< 1%"          # checked for each model
  disputed_fraction: "< 5%"
  missing_fraction: "< 2%"          # optional; checked for each model
  observed_margin: "> validity_sensitivity + run_variance"   # optionally "+ 1%" or "- 1%"
  production_canary: passes         # or omit the key to not require one
margin:
  confidence: 0.95                  # one-sided
  quantile: t                       # t (default) | z
  power: 0.8                        # for the minimum detectable effect (planning only)
  standard_error: paired            # paired | clustered (needs \`cluster\` on rows)
  cluster_correction: cr2           # cr2 (default) | cr1
  validity_bound: exact             # exact | pessimistic (the seed's)
on_unresolved: fail                 # fail | neutral: the check's conclusion for "unresolved"
`;
    expect(parsePolicy(text, "policy.yaml")).toStrictEqual({
      ...MINIMAL_POLICY,
      accept_if: {
        ...MINIMAL_POLICY.accept_if,
        missing_fraction: { op: "<", value: 0.02, percent: true, text: "< 2%" },
        production_canary: true,
      },
    });
  });

  test("every non-default value is read", () => {
    const text =
      MINIMAL +
      `
on_expired: fail
infra_errors: count_as_fail
require_same_harness: false
margin:
  confidence: 0.99
  quantile: z
  power: 0.9
  standard_error: clustered
  cluster_correction: cr1
  validity_bound: pessimistic
on_unresolved: neutral
`;
    expect(parsePolicy(text, "p.yaml")).toStrictEqual({
      ...MINIMAL_POLICY,
      on_expired: "fail",
      infra_errors: "count_as_fail",
      require_same_harness: false,
      margin: {
        confidence: 0.99,
        quantile: "z",
        power: 0.9,
        standard_error: "clustered",
        cluster_correction: "cr1",
        validity_bound: "pessimistic",
      },
      on_unresolved: "neutral",
    });
  });

  test("an empty margin mapping and a partial one take the defaults", () => {
    expect(parsePolicy(MINIMAL + "\nmargin: {}\n", "p.yaml").margin).toStrictEqual(MINIMAL_POLICY.margin);
    expect(parsePolicy(MINIMAL + "\nmargin:\n  confidence: 0.9\n", "p.yaml").margin).toStrictEqual({
      ...MINIMAL_POLICY.margin,
      confidence: 0.9,
    });
  });

  test("quoted date, explicit core tags, flow style, document markers, comments", () => {
    const text = `---
# leading comment
owner: !!str 12345
revisit: "2028-02-29"
accept_if: { common_valid_tasks: ">= 1", infra_error_rate: "<= 0.5", disputed_fraction: '< 100%', observed_margin: "> validity_sensitivity + run_variance" }
require_same_harness: !!bool true
...
`;
    const p = parsePolicy(text, "p.yaml");
    expect(p.owner).toBe("12345");
    expect(p.revisit).toBe("2028-02-29");
    expect(p.accept_if.infra_error_rate).toStrictEqual({
      op: "<=",
      value: 0.5,
      percent: false,
      text: "<= 0.5",
    });
    expect(p.accept_if.disputed_fraction).toStrictEqual({ op: "<", value: 1, percent: true, text: "< 100%" });
  });

  test("a UTF-8 BOM and CRLF line ends are accepted", () => {
    const text = "\uFEFF" + MINIMAL.replaceAll("\n", "\r\n") + "\r\n";
    expect(parsePolicy(text, "p.yaml")).toStrictEqual(MINIMAL_POLICY);
  });

  test("the optional δ₀ term of observed_margin", () => {
    const delta0 = (s: string) =>
      parsePolicy(withLine("  observed_margin", `  observed_margin: "${s}"`), "p.yaml").accept_if.delta0;
    expect(delta0("> validity_sensitivity + run_variance + 1%")).toBe(0.01);
    expect(delta0("> validity_sensitivity + run_variance - 1%")).toBe(-0.01);
    expect(delta0(">validity_sensitivity+run_variance-0.5%")).toBe(-0.005);
    expect(delta0("  >  validity_sensitivity  +  run_variance  +  2.5 %  ")).toBe(0.025);
    expect(delta0("> validity_sensitivity + run_variance + 0%")).toBe(0);
    expect(Object.is(delta0("> validity_sensitivity + run_variance - 0%"), 0)).toBe(true);
    expect(delta0("> validity_sensitivity + run_variance - 100%")).toBe(-1);
  });

  test("production_canary: passes", () => {
    const text = MINIMAL.replace("accept_if:\n", "accept_if:\n  production_canary: passes\n");
    expect(parsePolicy(text, "p.yaml").accept_if.production_canary).toBe(true);
  });

  test("a policy of exactly MAX_POLICY_BYTES bytes is accepted", () => {
    const base = MINIMAL + "\n# ";
    const pad = MAX_POLICY_BYTES - Buffer.byteLength(base) - 1;
    const text = base + "é".repeat(pad / 2) + "\n";
    expect(Buffer.byteLength(text)).toBe(MAX_POLICY_BYTES);
    expect(parsePolicy(text, "p.yaml").owner).toBe("@acme/eval-owners");
  });
});

describe("parsePolicy: thresholds", () => {
  const read = (key: string, value: string) =>
    parsePolicy(withLine(`  ${key}:`, `  ${key}: ${value}`), "p.yaml").accept_if;

  test.each([
    ['">= 500"', { op: ">=", value: 500, percent: false, text: ">= 500" }],
    ['">=500"', { op: ">=", value: 500, percent: false, text: ">=500" }],
    ['"  >\t500  "', { op: ">", value: 500, percent: false, text: "  >\t500  " }],
    ['"> 499.5"', { op: ">", value: 499.5, percent: false, text: "> 499.5" }],
    ['">= 0"', { op: ">=", value: 0, percent: false, text: ">= 0" }],
    ["'>= 0500'", { op: ">=", value: 500, percent: false, text: ">= 0500" }],
  ])("common_valid_tasks %s", (yamlValue, expected) => {
    expect(read("common_valid_tasks", yamlValue).common_valid_tasks).toStrictEqual(expected);
  });

  test.each([
    ['"< 1%"', { op: "<", value: 0.01, percent: true, text: "< 1%" }],
    ['"<1%"', { op: "<", value: 0.01, percent: true, text: "<1%" }],
    ['"<= 1 %"', { op: "<=", value: 0.01, percent: true, text: "<= 1 %" }],
    ['"< 1.1%"', { op: "<", value: 0.011, percent: true, text: "< 1.1%" }],
    ['"< 0.01"', { op: "<", value: 0.01, percent: false, text: "< 0.01" }],
    ['"<= 0%"', { op: "<=", value: 0, percent: true, text: "<= 0%" }],
    ['"<= 100%"', { op: "<=", value: 1, percent: true, text: "<= 100%" }],
    ['"<= 1"', { op: "<=", value: 1, percent: false, text: "<= 1" }],
    ["< 1%", { op: "<", value: 0.01, percent: true, text: "< 1%" }], // unquoted "<" is a plain string
  ])("infra_error_rate %s", (yamlValue, expected) => {
    expect(read("infra_error_rate", yamlValue).infra_error_rate).toStrictEqual(expected);
  });

  test("missing_fraction is optional and read when present", () => {
    expect(parsePolicy(MINIMAL, "p.yaml").accept_if).not.toHaveProperty("missing_fraction");
    const text = MINIMAL + '\n  missing_fraction: "< 2%"\n';
    expect(parsePolicy(text, "p.yaml").accept_if.missing_fraction).toStrictEqual({
      op: "<",
      value: 0.02,
      percent: true,
      text: "< 2%",
    });
  });
});

describe("parsePolicy: rejections name the line, the key and what was expected", () => {
  const FORM = "OP NUMBER[%] with OP one of >=, >, <=, < and NUMBER a plain decimal such as 500, 0.05 or 2.5";

  test.each([
    ['"=> 500"', `expected a threshold like ">= 500" (${FORM}); got "=> 500"`],
    ['"== 500"', `expected a threshold like ">= 500" (${FORM}); got "== 500"`],
    ['"500"', `expected a threshold like ">= 500" (${FORM}); got "500"`],
    ['">="', `expected a threshold like ">= 500" (${FORM}); got ">="`],
    ['""', `expected a threshold like ">= 500" (${FORM}); got ""`],
    ['">= -1"', `expected a threshold like ">= 500" (${FORM}); got ">= -1"`],
    ['">= +1"', `expected a threshold like ">= 500" (${FORM}); got ">= +1"`],
    ['">= 1e3"', `expected a threshold like ">= 500" (${FORM}); got ">= 1e3"`],
    ['">= 0x10"', `expected a threshold like ">= 500" (${FORM}); got ">= 0x10"`],
    ['">= 1,000"', `expected a threshold like ">= 500" (${FORM}); got ">= 1,000"`],
    ['">= .5"', `expected a threshold like ">= 500" (${FORM}); got ">= .5"`],
    ['">= 5."', `expected a threshold like ">= 500" (${FORM}); got ">= 5."`],
    ['"≥ 500"', `expected a threshold like ">= 500" (${FORM}); got "≥ 500"`],
    ['">= 500 tasks"', `expected a threshold like ">= 500" (${FORM}); got ">= 500 tasks"`],
    [
      '">= 50%"',
      'this is a number of tasks, not a fraction: write it without %, e.g. ">= 500"; got ">= 50%"',
    ],
    ['"<= 500"', 'this is a minimum: use >= or >, e.g. ">= 500"; got "<= 500"'],
    ["500", 'a threshold needs an operator: write it as a quoted string, e.g. ">= 500"; got the number 500'],
    ["true", `expected a threshold string like ">= 500" (${FORM}); got the boolean true`],
    ["", `expected a threshold string like ">= 500" (${FORM}); got an empty value`],
    ["[1]", `expected a threshold string like ">= 500" (${FORM}); got a list`],
  ])("common_valid_tasks: %s", (yamlValue, message) => {
    expect(problems(withLine("  common_valid_tasks", `  common_valid_tasks: ${yamlValue}`))).toStrictEqual([
      `policy.yaml:4:3: field "accept_if.common_valid_tasks": ${message}`,
    ]);
  });

  test.each([
    ['"less than 1%"', `expected a threshold like "< 1%" (${FORM}); got "less than 1%"`],
    ['"> 1%"', 'this is a maximum: use < or <=, e.g. "< 1%"; got "> 1%"'],
    ['">= 0.01"', 'this is a maximum: use < or <=, e.g. "< 1%"; got ">= 0.01"'],
    ['"< 101%"', 'a percentage must be between 0% and 100%; got "< 101%"'],
    [
      '"< 1.5"',
      'a fraction without % must be between 0 and 1 (write "< 1.5%" for a percentage); got "< 1.5"',
    ],
    ['"<= 5"', 'a fraction without % must be between 0 and 1 (write "<= 5%" for a percentage); got "<= 5"'],
    [
      "0.01",
      'a threshold needs an operator: write it as a quoted string, e.g. "< 0.01"; got the number 0.01',
    ],
    ["1", 'a threshold needs an operator: write it as a quoted string, e.g. "< 1"; got the number 1'],
    ["5", 'a threshold needs an operator: write it as a quoted string, e.g. "< 5%"; got the number 5'],
  ])("infra_error_rate: %s", (yamlValue, message) => {
    expect(problems(withLine("  infra_error_rate", `  infra_error_rate: ${yamlValue}`))).toStrictEqual([
      `policy.yaml:5:3: field "accept_if.infra_error_rate": ${message}`,
    ]);
  });

  test("disputed_fraction and missing_fraction are checked the same way", () => {
    const text =
      withLine("  disputed_fraction", '  disputed_fraction: "< 5"') + '  missing_fraction: "> 2%"\n';
    expect(problems(text)).toStrictEqual([
      'policy.yaml:6:3: field "accept_if.disputed_fraction": a fraction without % must be between 0 and 1 (write "< 5%" for a percentage); got "< 5"',
      'policy.yaml:8:3: field "accept_if.missing_fraction": this is a maximum: use < or <=, e.g. "< 2%"; got "> 2%"',
    ]);
  });

  const MARGIN_FORMS =
    '"> validity_sensitivity + run_variance", optionally followed by "+ X%" (demand a gain of more than X points)' +
    ' or "- X%" (accept a candidate worse by less than X points), X a plain decimal from 0 to 100';
  const MUST_GT =
    'the margin rule must start with ">" (accept only when the lower confidence bound is above δ₀: LCB > δ₀), e.g. "> validity_sensitivity + run_variance"';

  test.each([
    ['">= validity_sensitivity + run_variance"', `${MUST_GT}; got ">= validity_sensitivity + run_variance"`],
    ['"< validity_sensitivity + run_variance"', `${MUST_GT}; got "< validity_sensitivity + run_variance"`],
    ['"validity_sensitivity + run_variance"', `${MUST_GT}; got "validity_sensitivity + run_variance"`],
    [
      '"> validity_sensitivity + run_variance + 1"',
      'write the margin term as a percentage, e.g. "> validity_sensitivity + run_variance + 1%" (a bare number is ambiguous); got "> validity_sensitivity + run_variance + 1"',
    ],
    [
      '"> validity_sensitivity + run_variance - 0.01"',
      'write the margin term as a percentage, e.g. "> validity_sensitivity + run_variance - 0.01%" (a bare number is ambiguous); got "> validity_sensitivity + run_variance - 0.01"',
    ],
    [
      '"> validity_sensitivity + run_variance + 101%"',
      'the margin term must be between 0% and 100%; got "> validity_sensitivity + run_variance + 101%"',
    ],
    [
      '"> run_variance + validity_sensitivity"',
      `expected ${MARGIN_FORMS}; got "> run_variance + validity_sensitivity"`,
    ],
    ['"> validity_sensitivity"', `expected ${MARGIN_FORMS}; got "> validity_sensitivity"`],
    [
      '"> validity_sensitivity + run_variance + 1% + 1%"',
      `expected ${MARGIN_FORMS}; got "> validity_sensitivity + run_variance + 1% + 1%"`,
    ],
    ['"> 0"', `expected ${MARGIN_FORMS}; got "> 0"`],
    ["0", `expected the rule ${MARGIN_FORMS}; got the number 0`],
  ])("observed_margin: %s", (yamlValue, message) => {
    expect(problems(withLine("  observed_margin", `  observed_margin: ${yamlValue}`))).toStrictEqual([
      `policy.yaml:7:3: field "accept_if.observed_margin": ${message}`,
    ]);
  });

  test.each([
    ["true", "the boolean true"],
    ["pass", '"pass"'],
    ['"yes"', '"yes"'],
    ["", "an empty value"],
  ])("production_canary: %s", (yamlValue, got) => {
    expect(problems(MINIMAL + `\n  production_canary: ${yamlValue}\n`)).toStrictEqual([
      `policy.yaml:8:3: field "accept_if.production_canary": the only value is passes (omit the key to not require a production canary); got ${got}`,
    ]);
  });

  test.each([
    ["0.5", "the number 0.5"],
    ["1", "the number 1"],
    ["1.0", "the number 1"],
    ["95", "the number 95"],
    ["-0.95", "the number -0.95"],
    ['"0.95"', '"0.95"'],
    ["95%", '"95%"'],
    [".nan", "the number .nan"],
    [".inf", "the number .inf"],
  ])("margin.confidence: %s", (yamlValue, got) => {
    expect(problems(MINIMAL + `\nmargin:\n  confidence: ${yamlValue}\n`)).toStrictEqual([
      `policy.yaml:9:3: field "margin.confidence": expected a number strictly between 0.5 and 1 (the one-sided confidence level), e.g. 0.95; got ${got}`,
    ]);
  });

  test("confidence just inside the open interval is accepted", () => {
    expect(parsePolicy(MINIMAL + "\nmargin:\n  confidence: 0.5000001\n", "p.yaml").margin.confidence).toBe(
      0.5000001,
    );
    expect(parsePolicy(MINIMAL + "\nmargin:\n  confidence: 0.999\n", "p.yaml").margin.confidence).toBe(0.999);
  });

  test.each([
    ["0", "the number 0"],
    ["1", "the number 1"],
    ["80%", '"80%"'],
    ["-0.2", "the number -0.2"],
    ['"0.8"', '"0.8"'],
    ["", "an empty value"],
  ])("margin.power: %s", (yamlValue, got) => {
    expect(problems(MINIMAL + `\nmargin:\n  power: ${yamlValue}\n`)).toStrictEqual([
      `policy.yaml:9:3: field "margin.power": expected a number strictly between 0 and 1 (the power of the minimum detectable effect, a planning figure), e.g. 0.8; got ${got}`,
    ]);
  });

  test("margin.quantile and margin.cluster_correction take only their values, on their lines", () => {
    const text = MINIMAL + "\nmargin:\n  confidence: 0.9\n  quantile: normal\n  cluster_correction: CR2\n";
    expect(problems(text)).toStrictEqual([
      'policy.yaml:10:3: field "margin.quantile": expected one of t, z; got "normal"',
      'policy.yaml:11:3: field "margin.cluster_correction": expected one of cr2, cr1; got "CR2"',
    ]);
    const ok = parsePolicy(
      MINIMAL + "\nmargin:\n  quantile: z\n  power: 0.5\n  cluster_correction: cr1\n",
      "p.yaml",
    );
    expect(ok.margin).toStrictEqual({
      ...MINIMAL_POLICY.margin,
      quantile: "z",
      power: 0.5,
      cluster_correction: "cr1",
    });
  });

  test("enumerations and booleans", () => {
    const text =
      MINIMAL +
      `
on_expired: error
infra_errors: drop
require_same_harness: yes
margin:
  standard_error: robust
  validity_bound: loose
on_unresolved: null
`;
    expect(problems(text)).toStrictEqual([
      'policy.yaml:8:1: field "on_expired": expected one of warn, neutral, fail; got "error"',
      'policy.yaml:9:1: field "infra_errors": expected one of exclude, count_as_fail, bound; got "drop"',
      'policy.yaml:10:1: field "require_same_harness": expected true or false; got "yes" (YAML 1.2 reads yes/no/on/off as text)',
      'policy.yaml:12:3: field "margin.standard_error": expected one of paired, clustered; got "robust"',
      'policy.yaml:13:3: field "margin.validity_bound": expected one of exact, pessimistic; got "loose"',
      'policy.yaml:14:1: field "on_unresolved": expected one of fail, neutral; got an empty value',
    ]);
  });

  test("missing owner", () => {
    expect(problems(withLine("owner", null))).toStrictEqual([
      'policy.yaml:1:1: field "owner": missing required key "owner" (who answers for the thresholds, e.g. owner: "@acme/eval-owners")',
    ]);
  });

  test.each([
    ['""', '""'],
    ['"   "', '"   "'],
    ["", "an empty value"],
    ["42", "the number 42"],
  ])("owner: %s", (yamlValue, got) => {
    expect(problems(withLine("owner", `owner: ${yamlValue}`))).toStrictEqual([
      `policy.yaml:1:1: field "owner": expected a non-empty string naming who answers for the thresholds, e.g. "@acme/eval-owners"; got ${got}`,
    ]);
  });

  test("missing revisit", () => {
    expect(problems(withLine("revisit", null))).toStrictEqual([
      'policy.yaml:1:1: field "revisit": missing required key "revisit" (the date by which the thresholds are re-examined, e.g. revisit: 2027-03-31)',
    ]);
  });

  test.each([
    ["2027-02-30", '"2027-02-30" is not a calendar date'],
    ["2100-02-29", '"2100-02-29" is not a calendar date'],
    ["2027-13-01", '"2027-13-01" is not a calendar date'],
    ["2027-04-31", '"2027-04-31" is not a calendar date'],
    ["0000-01-01", '"0000-01-01" is not a calendar date'],
    ["2027-3-31", 'expected a date YYYY-MM-DD, e.g. 2027-03-31; got "2027-3-31"'],
    ["2027-03-31T00:00:00Z", 'expected a date YYYY-MM-DD, e.g. 2027-03-31; got "2027-03-31T00:00:00Z"'],
    ["31/03/2027", 'expected a date YYYY-MM-DD, e.g. 2027-03-31; got "31/03/2027"'],
    ["20270331", "expected a date YYYY-MM-DD, e.g. 2027-03-31; got the number 20270331"],
    ["", "expected a date YYYY-MM-DD, e.g. 2027-03-31; got an empty value"],
  ])("revisit: %s", (yamlValue, message) => {
    expect(problems(withLine("revisit", `revisit: ${yamlValue}`))).toStrictEqual([
      `policy.yaml:2:1: field "revisit": ${message}`,
    ]);
  });

  test("leap days that exist are accepted", () => {
    expect(parsePolicy(withLine("revisit", "revisit: 2000-02-29"), "p.yaml").revisit).toBe("2000-02-29");
    expect(parsePolicy(withLine("revisit", "revisit: 2028-02-29"), "p.yaml").revisit).toBe("2028-02-29");
  });

  test("missing keys of accept_if point at accept_if", () => {
    const text = withLine("  observed_margin", null, withLine("  common_valid_tasks", null));
    expect(problems(text)).toStrictEqual([
      'policy.yaml:3:1: field "accept_if.common_valid_tasks": missing required key "common_valid_tasks" (e.g. common_valid_tasks: ">= 500")',
      'policy.yaml:3:1: field "accept_if.observed_margin": missing required key "observed_margin" (e.g. observed_margin: "> validity_sensitivity + run_variance")',
    ]);
  });

  test("missing accept_if, and accept_if or margin not a mapping", () => {
    expect(problems("owner: a\nrevisit: 2027-01-01\n")).toStrictEqual([
      'policy.yaml:1:1: field "accept_if": missing required key "accept_if" (the acceptance rules: common_valid_tasks, infra_error_rate, disputed_fraction and observed_margin)',
    ]);
    expect(problems("owner: a\nrevisit: 2027-01-01\naccept_if:\nmargin: [0.95]\n")).toStrictEqual([
      'policy.yaml:3:1: field "accept_if": expected a mapping of keys; got an empty value',
      'policy.yaml:4:1: field "margin": expected a mapping of keys; got a list',
    ]);
  });

  test("unknown keys at each level, with a suggestion for near misses", () => {
    const text = `owner: a
revisit: 2027-01-01
infra_error: exclude
accept_if:
  common_valid_tasks: ">= 500"
  infra_error_rate: "< 1%"
  disputed_fraction: "< 5%"
  observed_margin: "> validity_sensitivity + run_variance"
  canary: passes
margin:
  confidence: 0.95
  z: 1.64
<<: {owner: b}
`;
    expect(problems(text)).toStrictEqual([
      'policy.yaml:3:1: field "infra_error": unknown key "infra_error"; did you mean "infra_errors"? the keys allowed here are owner, revisit, on_expired, infra_errors, require_same_harness, accept_if, margin, on_unresolved, rank, benchmarks, reruns, guardrails',
      'policy.yaml:9:3: field "accept_if.canary": unknown key "canary"; the keys allowed here are common_valid_tasks, infra_error_rate, disputed_fraction, missing_fraction, observed_margin, production_canary',
      'policy.yaml:12:3: field "margin.z": unknown key "z"; the keys allowed here are confidence, quantile, power, standard_error, cluster_correction, validity_bound',
      'policy.yaml:13:1: field "<<": unknown key "<<"; the keys allowed here are owner, revisit, on_expired, infra_errors, require_same_harness, accept_if, margin, on_unresolved, rank, benchmarks, reruns, guardrails',
    ]);
  });

  test("a key named __proto__ is an unknown key like any other", () => {
    expect(problems(MINIMAL + "\n__proto__: {owner: x}\n")).toStrictEqual([
      'policy.yaml:8:1: field "__proto__": unknown key "__proto__"; the keys allowed here are owner, revisit, on_expired, infra_errors, require_same_harness, accept_if, margin, on_unresolved, rank, benchmarks, reruns, guardrails',
    ]);
  });

  test("duplicate keys, at the top level and nested", () => {
    const text = MINIMAL + '\n  infra_error_rate: "< 50%"\nowner: someone-else\n';
    expect(problems(text)).toStrictEqual([
      'policy.yaml:8:3: field "accept_if.infra_error_rate": duplicate key "infra_error_rate" (first set at line 5): each key may appear once',
      'policy.yaml:9:1: field "owner": duplicate key "owner" (first set at line 1): each key may appear once',
    ]);
  });

  test("anchors and aliases", () => {
    const text = withLine(
      "  infra_error_rate",
      '  infra_error_rate: &rate "< 1%"',
      withLine("  disputed_fraction", "  disputed_fraction: *rate"),
    );
    expect(problems(text)).toStrictEqual([
      'policy.yaml:5:21: field "accept_if.infra_error_rate": the anchor "&rate" is not allowed: write every value out in full (anchors and aliases hide what a rule says)',
      'policy.yaml:6:22: field "accept_if.disputed_fraction": the alias "*rate" is not allowed: write the value out in full (anchors and aliases hide what a rule says)',
    ]);
  });

  test("an anchor on a mapping", () => {
    expect(problems(MINIMAL.replace("accept_if:", "accept_if: &rules"))).toStrictEqual([
      'policy.yaml:3:12: field "accept_if": the anchor "&rules" is not allowed: write every value out in full (anchors and aliases hide what a rule says)',
    ]);
  });

  test.each([
    ["!foo 12", "!foo"],
    ["!!binary aGk=", "!!binary"],
    ["!!timestamp 2027-03-31", "!!timestamp"],
    ["!!set {a}", "!!set"],
    ["!!omap [a: 1]", "!!omap"],
    ["!!pairs [a: 1]", "!!pairs"],
    ["! x", "!"],
    ["!<tag:example.com,2000:x> 1", "!<tag:example.com,2000:x>"],
  ])("custom tag %s", (yamlValue, shown) => {
    expect(problems(withLine("owner", `owner: ${yamlValue}`))).toStrictEqual([
      `policy.yaml:1:8: field "owner": the tag "${shown}" is not allowed: the policy is plain YAML 1.2 (core schema); remove the tag`,
    ]);
  });

  test("a tag on a key", () => {
    expect(problems(MINIMAL + "\n!foo on_unresolved: fail\n")).toStrictEqual([
      'policy.yaml:8:1: field "on_unresolved": the tag "!foo" is not allowed: the policy is plain YAML 1.2 (core schema); remove the tag',
    ]);
  });

  test.each([
    [
      "%YAML 1.1",
      'the directive "%YAML 1.1" is not allowed (YAML 1.1 would read yes/no/on/off as booleans and dates as timestamps; the policy is read as YAML 1.2 core); remove the line',
    ],
    ["%YAML 1.2", 'the directive "%YAML 1.2" is not allowed; remove the line'],
    [
      "%TAG !e! tag:example.com,2000:",
      'the directive "%TAG !e! tag:example.com,2000:" is not allowed; remove the line',
    ],
  ])("directive %s", (directive, message) => {
    expect(problems(`${directive}\n---\n${MINIMAL}\n`)).toStrictEqual([`policy.yaml:1:1: ${message}`]);
  });

  test("two documents", () => {
    const two =
      'policy.yaml:8:1: a second YAML document starts here: the policy must be a single document (remove the "---" or "..." line and what follows, or merge it)';
    expect(problems(`${MINIMAL}\n---\nowner: b\n`)).toStrictEqual([two]);
    expect(problems(`${MINIMAL}\n---\n`)).toStrictEqual([two]);
    expect(problems(`${MINIMAL}\n...\nowner: b\n`)).toStrictEqual([
      'policy.yaml:9:1: a second YAML document starts here: the policy must be a single document (remove the "---" or "..." line and what follows, or merge it)',
    ]);
  });

  test.each([
    ["", "1:1"],
    ["# only a comment\n", "1:1"],
    ["---\n", "1:1"],
    ["\n\n---\n# nothing\n", "1:1"],
  ])("an empty policy %j", (text, where) => {
    expect(problems(text)).toStrictEqual([
      `policy.yaml:${where}: the policy is empty; expected a mapping with at least owner, revisit and accept_if`,
    ]);
  });

  test.each([
    ["- owner\n- revisit\n", "a list"],
    ["just text\n", '"just text"'],
    ["42\n", "the number 42"],
  ])("a top level that is not a mapping: %j", (text, got) => {
    expect(problems(text)).toStrictEqual([
      `policy.yaml:1:1: the policy must be a mapping of keys (owner, revisit, accept_if, …); got ${got}`,
    ]);
  });

  test("keys that are not strings", () => {
    expect(problems(MINIMAL + "\n1: x\n? [a]\n: y\n")).toStrictEqual([
      "policy.yaml:8:1: expected a key name (a plain string); got the number 1",
      "policy.yaml:9:3: expected a key name (a plain string); got a list",
    ]);
  });

  test("YAML syntax errors, with hints for the usual mistakes", () => {
    const text = `owner: @acme/eval-owners
revisit: 2027-03-31
accept_if:
  common_valid_tasks: >= 500
  infra_error_rate: "< 1%
`;
    expect(problems(text)).toStrictEqual([
      'policy.yaml:1:8: field "owner": YAML syntax error: Plain value cannot start with reserved character @; quote the value, e.g. owner: "@acme/eval-owners"',
      'policy.yaml:4:24: field "accept_if.common_valid_tasks": YAML syntax error: Block scalar header includes extra characters: >=; a value that starts with ">" must be quoted (it starts a block scalar in YAML), e.g. ">= 500"',
      'policy.yaml:5:25: field "accept_if.infra_error_rate": YAML syntax error: Missing closing "quote',
    ]);
  });

  test("bad indentation is a syntax error on its line", () => {
    const text = MINIMAL.replace('  infra_error_rate: "< 1%"', '   infra_error_rate: "< 1%"');
    expect(problems(text)).toStrictEqual([
      'policy.yaml:5:1: field "accept_if": YAML syntax error: All mapping items must start at the same column',
    ]);
  });

  test("an oversized policy is refused before it is parsed", () => {
    const text = MINIMAL + "\n# " + "x".repeat(MAX_POLICY_BYTES) + "\n";
    const err = inputError(text, "big.yaml");
    expect(err.problems).toStrictEqual([
      {
        location: { file: "big.yaml", line: 1, column: 1 },
        message: `the policy file is ${Buffer.byteLength(text)} bytes; the limit is 65536 bytes (64 KiB)`,
      },
    ]);
  });

  test("the error is an InputError with a summary line, one line per problem and structured problems", () => {
    const err = inputError(
      withLine("  infra_error_rate", '  infra_error_rate: "less than 1%"', withLine("owner", null)),
      "ci/policy.yaml",
    );
    expect(err.message).toBe(
      [
        "Invalid policy file ci/policy.yaml: 2 problems",
        '  ci/policy.yaml:1:1: field "owner": missing required key "owner" (who answers for the thresholds, e.g. owner: "@acme/eval-owners")',
        `  ci/policy.yaml:4:3: field "accept_if.infra_error_rate": expected a threshold like "< 1%" (${FORM}); got "less than 1%"`,
      ].join("\n"),
    );
    expect(err.total).toBe(2);
    expect(err.problems[1]).toStrictEqual({
      location: { file: "ci/policy.yaml", line: 4, column: 3 },
      field: "accept_if.infra_error_rate",
      message: `expected a threshold like "< 1%" (${FORM}); got "less than 1%"`,
    });
    expect(err.message).not.toMatch(/zod|ZodError|invalid_type|\bat .*\.ts/);
  });

  test("every problem carries file, line and column", () => {
    const texts = [
      "%YAML 1.1\n---\na: 1\n",
      "a: [\n",
      "a: 1\n---\nb: 2\n",
      "a: &x 1\nb: *x\n",
      "x: !foo 1\n",
      "a: 1\na: 2\n",
      MINIMAL + "\nextra: 1\n",
      "owner: a\n",
    ];
    for (const text of texts) {
      const err = inputError(text);
      expect(err.problems.length).toBeGreaterThan(0);
      for (const p of err.problems) {
        expect(p.location?.file).toBe("policy.yaml");
        expect(p.location?.line).toBeGreaterThanOrEqual(1);
        expect(p.location?.column).toBeGreaterThanOrEqual(1);
      }
    }
  });
});

describe("isExpired", () => {
  const policy = parsePolicy(MINIMAL, "p.yaml"); // revisit 2027-03-31

  test.each([
    ["2026-11-29", false],
    ["2027-03-30", false],
    ["2027-03-31", false],
    ["2027-04-01", true],
    ["2028-01-01", true],
  ])("today %s → %s", (today, expired) => {
    expect(isExpired(policy, today)).toBe(expired);
  });

  test("a today that is not a date is an InputError", () => {
    expect(() => isExpired(policy, "2027-4-1")).toThrow(InputError);
    expect(() => isExpired(policy, "2027-02-30")).toThrow(
      'Invalid date for today: expected YYYY-MM-DD, got "2027-02-30"',
    );
  });
});
