import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { expect, test } from "vitest";

import { parsePolicy } from "../../src/core/policy/load-policy.js";
import type { Policy } from "../../src/core/policy/policy-types.js";

const path = fileURLToPath(new URL("../../policy.example.yaml", import.meta.url));
const text = readFileSync(path, "utf8");

test("policy.example.yaml parses to the documented policy", () => {
  const expected: Policy = {
    owner: "@acme/eval-owners",
    revisit: "2027-03-31",
    on_expired: "warn",
    infra_errors: "exclude",
    require_same_harness: true,
    accept_if: {
      common_valid_tasks: { op: ">=", value: 500, percent: false, text: ">= 500" },
      infra_error_rate: { op: "<", value: 0.01, percent: true, text: "< 1%" },
      disputed_fraction: { op: "<", value: 0.05, percent: true, text: "< 5%" },
      missing_fraction: { op: "<", value: 0.02, percent: true, text: "< 2%" },
      delta0: 0,
      observed_margin_text: "> validity_sensitivity + run_variance",
      production_canary: true,
    },
    margin: {
      confidence: 0.95,
      quantile: "t",
      power: 0.8,
      standard_error: "paired",
      cluster_correction: "cr2",
      validity_bound: "exact",
    },
    on_unresolved: "fail",
  };
  expect(parsePolicy(text, "policy.example.yaml")).toStrictEqual(expected);
});

test("every key of policy.example.yaml has a comment just above it", () => {
  const lines = text.split("\n");
  const keys = lines.flatMap((line, i) => (/^\s*[a-z_]+:/.test(line) ? [i] : []));
  expect(keys.length).toBe(20);
  for (const i of keys) expect(lines[i - 1]?.trim().startsWith("#"), `line ${i + 1}: ${lines[i]}`).toBe(true);
});
