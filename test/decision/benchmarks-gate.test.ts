/** Several benchmarks in one gate (docs/spec.md §4.6): each decided alone, then together. */
import { describe, expect, test } from "vitest";

import { runGate } from "../../src/core/gate.js";
import { parsePolicy } from "../../src/core/policy/load-policy.js";
import type { Report } from "../../src/core/report/report-types.js";
import type { TaskSpec } from "../stats/dataset-builder.js";
import { ACCEPTS, benchmarks, gatePolicy, OPTIONS, POLICY, REJECTS, WEAK_HARM } from "./benchmark-data.js";

/** The gate on one benchmark's tasks alone (the same task ids). */
function alone(tasks: readonly TaskSpec[], name = "default", confidence?: number): Report {
  const p = gatePolicy();
  const policy =
    confidence === undefined ? p.policy : { ...p.policy, margin: { ...p.policy.margin, confidence } };
  return runGate(benchmarks({ [name]: tasks }), { ...p, policy }, OPTIONS);
}

function byName(r: Report, name: string) {
  const b = r.benchmarks?.find((x) => x.name === name);
  if (b === undefined) throw new Error(`no benchmark ${name}`);
  return b;
}

describe("each benchmark is today's whole gate on its own tasks", () => {
  test("two that accept: accept, with one line per benchmark equal to each one alone", () => {
    const r = runGate(
      benchmarks({ "swe-verified": ACCEPTS, "private-canary": ACCEPTS }),
      gatePolicy(),
      OPTIONS,
    );
    expect(r.verdict).toBe("accept");
    expect(r.benchmarks?.map((b) => b.name)).toStrictEqual(["private-canary", "swe-verified"]);
    for (const b of r.benchmarks ?? []) {
      const one = alone(ACCEPTS, b.name);
      expect(b.verdict).toBe("accept");
      expect([b.margin, b.margin_low, b.margin_high, b.lcb, b.ucb, b.common_valid_tasks]).toStrictEqual([
        one.comparison.margin,
        one.comparison.margin_lower,
        one.comparison.margin_upper,
        one.comparison.lcb,
        one.comparison.ucb,
        520,
      ]);
      expect(b.checks).toStrictEqual(one.checks);
      expect(b.report?.comparison).toStrictEqual(one.comparison);
    }
    expect(r.reasons).toStrictEqual([
      "Every required benchmark accepts (private-canary, swe-verified).",
      "Accept needs each of the 2 required benchmarks to accept at the policy's level: an intersection–union test, so no adjustment for several benchmarks is needed.",
    ]);
  });

  test("one export benchmark only: the report is today's, without a benchmarks key", () => {
    const r = runGate(benchmarks({ default: ACCEPTS }), gatePolicy(), OPTIONS);
    expect(r).toStrictEqual(alone(ACCEPTS));
    expect("benchmarks" in r).toBe(false);
  });

  test("an override decides its benchmark: its own common_valid_tasks", () => {
    const extra = `benchmarks:\n  swe-verified:\n    common_valid_tasks: ">= 600"\n`;
    const r = runGate(benchmarks({ "swe-verified": ACCEPTS, canary: ACCEPTS }), gatePolicy(extra), OPTIONS);
    expect(byName(r, "swe-verified").verdict).toBe("unresolved");
    expect(byName(r, "canary").verdict).toBe("accept");
    expect(r.verdict).toBe("unresolved");
    expect(r.reasons[0]).toBe("Unresolved: 1 required benchmark does not accept: swe-verified (unresolved).");
  });
});

describe("the overall verdict", () => {
  test("a harm claim that holds after Holm rejects; its UCB is the one at α/(B − r)", () => {
    const r = runGate(benchmarks({ a: ACCEPTS, b: REJECTS }), gatePolicy(), OPTIONS);
    expect(r.verdict).toBe("reject");
    const b = byName(r, "b");
    expect(b.holm.harm).toBe(true);
    expect(b.holm.level).toBeCloseTo(0.025, 15);
    expect(b.holm.ucb).toBe(alone(REJECTS, "b", 0.975).comparison.ucb);
    // a's claim is tested again once b's is made, at α/(2 − 1).
    const a = byName(r, "a").holm;
    expect(a.level).toBeCloseTo(0.05, 15);
    expect([a.ucb, a.harm]).toStrictEqual([alone(ACCEPTS, "a").comparison.ucb, false]);
    expect(r.reasons[0]).toMatch(
      /^The candidate is shown worse on b \(UCB = -\d\.\d\d pp at the one-sided level 2\.500% of Holm's step-down across the 2 benchmarks, not above δ₀ = 0\.00 pp\)/,
    );
  });

  test("a benchmark that rejects at α but not at α/2 leaves the gate unresolved, and says why", () => {
    expect(alone(WEAK_HARM).verdict).toBe("reject");
    expect(alone(WEAK_HARM, "b", 0.975).comparison.ucb as number).toBeGreaterThan(0);
    const r = runGate(benchmarks({ a: ACCEPTS, b: WEAK_HARM }), gatePolicy(), OPTIONS);
    expect(byName(r, "b").verdict).toBe("reject");
    expect(byName(r, "b").holm.harm).toBe(false);
    expect(r.verdict).toBe("unresolved");
    expect(r.reasons[0]).toContain(
      "b (rejects at the policy's level, but its harm claim does not hold after Holm's adjustment",
    );
    // Alone, the same tasks reject: the adjustment is what several benchmarks cost.
    expect(runGate(benchmarks({ b: WEAK_HARM }), gatePolicy(), OPTIONS).verdict).toBe("reject");
  });

  test("a required benchmark the export lacks fails its evidence and keeps the gate from accept", () => {
    const extra = `benchmarks:\n  private-canary:\n    required: true\n`;
    const r = runGate(benchmarks({ default: ACCEPTS }), gatePolicy(extra), OPTIONS);
    expect(r.verdict).toBe("unresolved");
    const missing = byName(r, "private-canary");
    expect(missing.report).toBeNull();
    expect(missing.checks.map((c) => [c.id, c.passed, c.kind])).toStrictEqual([
      ["benchmark_present", false, "evidence"],
    ]);
    expect(byName(r, "default").verdict).toBe("accept");
    expect(r.reasons[0]).toBe(
      "Unresolved: 1 required benchmark does not accept: private-canary (required, not in the export).",
    );
  });

  test("a benchmark that is not required does not hold back an accept, and still can reject", () => {
    const extra = `benchmarks:\n  pro:\n    required: false\n`;
    expect(
      runGate(benchmarks({ a: ACCEPTS, pro: WEAK_HARM.slice(0, 120) }), gatePolicy(extra), OPTIONS).verdict,
    ).toBe("accept");
    expect(runGate(benchmarks({ a: ACCEPTS, pro: REJECTS }), gatePolicy(extra), OPTIONS).verdict).toBe(
      "reject",
    );
  });

  test("a canary benchmark stands for production_canary: passes; --canary fail still rejects", () => {
    const extra = `benchmarks:\n  private-canary:\n    canary: true\n`;
    const text = POLICY.replace("accept_if:\n", "accept_if:\n  production_canary: passes\n");
    const p = { ...gatePolicy(), policy: parsePolicy(text + extra, "policy.yaml") };
    const data = benchmarks({ "private-canary": ACCEPTS, public: ACCEPTS });
    const r = runGate(data, p, OPTIONS);
    expect(r.verdict).toBe("accept");
    expect(byName(r, "private-canary").canary).toBe(true);
    expect(byName(r, "public").checks.some((c) => c.id === "production_canary")).toBe(false);
    const failed = runGate(data, p, { ...OPTIONS, canary: "fail" });
    expect(failed.verdict).toBe("reject");
    expect(failed.reasons[0]).toBe(
      "The production canary failed: a failed canary rejects the change whatever the benchmarks say.",
    );
    // Without a canary benchmark the policy's production_canary waits for --canary, as today.
    const plain = { ...gatePolicy(), policy: parsePolicy(text, "policy.yaml") };
    expect(runGate(data, plain, OPTIONS).verdict).toBe("unresolved");
    expect(runGate(data, plain, { ...OPTIONS, canary: "pass" }).verdict).toBe("accept");
  });
});
