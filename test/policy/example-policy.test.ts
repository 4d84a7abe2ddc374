import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { expect, test } from "vitest";

import { parsePolicy } from "../../src/core/policy/load-policy.js";
import type { Policy } from "../../src/core/policy/policy-types.js";
import { MINIMAL_POLICY } from "./helpers.js";

const path = fileURLToPath(new URL("../../policy.example.yaml", import.meta.url));
const text = readFileSync(path, "utf8");

test("policy.example.yaml parses to the documented policy", () => {
  // The minimal policy plus the example's missing-fraction bound and production canary.
  const expected: Policy = {
    ...MINIMAL_POLICY,
    accept_if: {
      ...MINIMAL_POLICY.accept_if,
      missing_fraction: { op: "<", value: 0.02, percent: true, text: "< 2%" },
      production_canary: true,
    },
  };
  expect(parsePolicy(text, "policy.example.yaml")).toStrictEqual(expected);
});

test("every key of policy.example.yaml has a comment just above it", () => {
  const lines = text.split("\n");
  const keys = lines.flatMap((line, i) => (/^\s*[a-z_]+:/.test(line) ? [i] : []));
  expect(keys.length).toBe(20);
  for (const i of keys) expect(lines[i - 1]?.trim().startsWith("#"), `line ${i + 1}: ${lines[i]}`).toBe(true);
});
