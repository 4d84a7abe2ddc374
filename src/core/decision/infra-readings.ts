/**
 * The three readings of SPEC §3.8: the comparison under `infra_errors: exclude`,
 * `count_as_fail` and `bound`, whatever the policy's mode — one function (the §2–4 verdict with
 * the mode set) called three times, the policy's own reading reused. With no infra error on T for
 * either model the three are one: every task score is the same point under each mode.
 */
import { INFRA_ERRORS_MODES, type InfraErrorsMode, type Policy } from "../policy/policy-types.js";
import type { MarginAnalysis } from "../stats/margin.js";
import type { InfraReading, InfraReadings, ModelFigures, Verdict } from "../verdict-types.js";

/** What a reading needs of evaluate's VerdictCore (declared here so evaluate.ts alone imports this file). */
export interface ReadingCore {
  readonly analysis: MarginAnalysis;
  readonly baseline: Pick<ModelFigures, "infra_errors">;
  readonly candidate: Pick<ModelFigures, "infra_errors">;
  readonly verdict: Verdict;
}

/** What one reading reports of a verdict and the figures it rests on. */
export function infraReading(core: ReadingCore): InfraReading {
  const a = core.analysis;
  return {
    common_tasks: a.commonTasks,
    common_valid_tasks: a.commonValidTasks,
    margin: a.margin,
    margin_low: a.marginLower,
    margin_high: a.marginUpper,
    lcb: a.lcb,
    ucb: a.ucb,
    verdict: core.verdict,
  };
}

/** The three readings: `decided` is the policy's own, `verdictUnder` the verdict under another mode. */
export function infraReadings(
  policy: Policy,
  decided: ReadingCore,
  verdictUnder: (mode: InfraErrorsMode) => ReadingCore,
): InfraReadings {
  const anyInfra = decided.baseline.infra_errors + decided.candidate.infra_errors > 0;
  const own = infraReading(decided);
  const of = (mode: InfraErrorsMode): InfraReading =>
    mode === policy.infra_errors || !anyInfra ? own : infraReading(verdictUnder(mode));
  return { exclude: of("exclude"), count_as_fail: of("count_as_fail"), bound: of("bound") };
}

/** How each mode counts a lost task, in the report's words. */
export const READING_NAMES: Readonly<Record<InfraErrorsMode, string>> = {
  exclude: "dropped",
  count_as_fail: "lost as fails",
  bound: "bounded",
};

/** The headline when the three verdicts differ, else null. */
export function readingsHeadline(readings: InfraReadings, mode: InfraErrorsMode): string | null {
  const verdicts = new Set(INFRA_ERRORS_MODES.map((m) => readings[m].verdict));
  if (verdicts.size === 1) return null;
  const each = INFRA_ERRORS_MODES.map((m) => `${READING_NAMES[m]} (${m}) ${readings[m].verdict}`).join(", ");
  return `The verdict depends on how lost tasks are counted: ${each}; the policy's infra_errors: ${mode} decides.`;
}
