/**
 * "What would resolve it" (docs/spec.md §4.3): each failing check's advice is computed from the
 * figures it names and is feasible, or left out with the reason said. The spec's worked figures,
 * sentence by sentence, through the whole evaluation.
 */
import { describe, expect, it } from "vitest";
import { evaluate } from "../../src/core/decision/evaluate.js";
import { cleanAttemptsNeeded } from "../../src/core/decision/checks.js";
import { buildDataset, buildPolicy, threshold, type TaskSpec } from "../stats/dataset-builder.js";

/** `attempts` single-attempt valid tasks; the baseline's first `infra` are infra errors, the rest pass or fail. */
function baselineWithInfra(attempts: number, infra: number): TaskSpec[] {
  return Array.from({ length: attempts }, (_, i) => ({
    validity: "valid" as const,
    a: i % 2 === 0 ? ("pass" as const) : ("fail" as const),
    b: i < infra ? ("infra" as const) : i % 3 === 0 ? ("pass" as const) : ("fail" as const),
  }));
}

function baselineInfraDetail(attempts: number, infra: number): string {
  const e = evaluate(buildDataset(baselineWithInfra(attempts, infra)), buildPolicy(), {
    canary: null,
    expired: false,
  });
  const check = e.checks.find((c) => c.id === "infra_error_rate_baseline");
  expect(check?.passed).toBe(false);
  return check?.detail ?? "";
}

describe("infra error rate: x* clean attempts, feasible only up to one more run as large (spec §4.3)", () => {
  const lt1 = threshold("< 1%");

  it("x* is exact against the threshold's strictness", () => {
    expect(cleanAttemptsNeeded(10, 995, lt1)).toBe(6); // 10/1001 < 1%, 10/1000 is not
    expect(cleanAttemptsNeeded(10, 995, threshold("<= 1%"))).toBe(5); // 10/1000 meets ≤ 1%
    expect(cleanAttemptsNeeded(10, 550, lt1)).toBe(451);
    expect(cleanAttemptsNeeded(186, 1200, lt1)).toBe(17401);
    expect(cleanAttemptsNeeded(3, 100, threshold("< 0%"))).toBeNull();
    expect(cleanAttemptsNeeded(3, 100, threshold("> 5%"))).toBeNull();
    expect(cleanAttemptsNeeded(1, 1000, lt1)).toBe(0);
  });

  it("x* ≤ I: re-run x* of the I infra-error attempts", () => {
    expect(baselineInfraDetail(995, 10)).toBe(
      "The baseline had 10 infra errors in 995 attempts (1.01%); the policy needs < 1% — re-running 6 of the " +
        "10 attempts that ended in an infra error, without one, would satisfy it.",
    );
  });

  it("I < x* ≤ A: x* more attempts, and what retrying only the I would leave", () => {
    expect(baselineInfraDetail(550, 10)).toBe(
      "The baseline had 10 infra errors in 550 attempts (1.82%); the policy needs < 1% — 451 more attempts " +
        "without an infra error would satisfy it (on a fixed harness, e.g. re-running part of the benchmark); " +
        "re-running only the 10 attempts that ended in an infra error would leave it at 1.79%.",
    );
  });

  it("x* > A: no count (no 17401, no tasks named); why, with the rate after a second run as large", () => {
    const detail = baselineInfraDetail(1200, 186);
    expect(detail).toBe(
      "The baseline had 186 infra errors in 1200 attempts (15.5%); the policy needs < 1% — no re-run can satisfy " +
        "it: attempts are only appended, so the 186 infra errors stay and the rate falls only as attempts without " +
        "one are added, and even a second run as large as this one (1200 more attempts) without a single infra " +
        "error would leave it at 7.75%. Fix the infrastructure and run the benchmark again for the baseline.",
    );
    expect(detail).not.toMatch(/17\s?401|lost to infra/);
  });

  it("every count the advice names is within what the model has (random figures)", () => {
    for (let seed = 1; seed < 400; seed++) {
      const attempts = 1 + ((seed * 7919) % 3000);
      const infra = 1 + ((seed * 104729) % attempts);
      const x = cleanAttemptsNeeded(infra, attempts, lt1);
      if (x === null || x === 0) continue;
      // x* is the least: one fewer does not satisfy the threshold.
      expect(infra / (attempts + x)).toBeLessThan(0.01);
      expect(infra / (attempts + x - 1)).toBeGreaterThanOrEqual(0.01);
    }
  });
});

describe("no task labelled valid: said so, with how to add labels (leaderboard runs without reviews)", () => {
  const unlabelled: TaskSpec[] = Array.from({ length: 12 }, (_, i) => ({
    validity: "unreviewed" as const,
    a: i % 2 === 0 ? ("pass" as const) : ("fail" as const),
    b: i % 3 === 0 ? ("pass" as const) : ("fail" as const),
  }));
  const e = evaluate(buildDataset(unlabelled), buildPolicy(), { canary: null, expired: false });

  it("the common valid tasks' check names the cause and the fix, with the results' revision", () => {
    const check = e.checks.find((c) => c.id === "common_valid_tasks");
    expect(check).toMatchObject({ observed: 0, passed: false });
    expect(check?.detail).toBe(
      "No common task is labelled valid — all 12 common tasks are unreviewed: the results carry no validity labels, " +
        "and the policy needs >= 500 common valid tasks. Add labels with a reviews file (--reviews; the action's " +
        "reviews input): `model-gate import verified-annotations` for SWE-bench Verified, or `model-gate import " +
        "reviews-csv` for your own sheet, given the results' --dataset-revision (rev1) or the same --tasks list, so " +
        "that the labels apply to these tasks.",
    );
    expect(check?.detail).not.toContain("share few tasks");
  });

  it("the disputed fraction and the margin point at it instead of repeating it", () => {
    expect(e.checks.find((c) => c.id === "disputed_fraction")?.detail).toMatch(
      / — label them \(see Common valid tasks\)\.$/,
    );
    expect(e.checks.find((c) => c.id === "observed_margin")?.detail).toContain(
      "cannot be computed: no common task is labelled valid",
    );
  });
});
