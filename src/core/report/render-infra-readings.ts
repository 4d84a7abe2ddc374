/**
 * The three readings of the infra errors (docs/spec.md §3.8) as every rendering shows them: one
 * small table, only when either model has an infra error on T (else the three are one, and the
 * report JSON alone carries them). The policy's mode is the one that decides, and is marked.
 * Generated text only: the verdict is mapped to words, never printed raw.
 */
import { INFRA_ERRORS_MODES, type InfraErrorsMode } from "../policy/policy-types.js";
import type { Verdict } from "../verdict-types.js";
import { READING_NAMES } from "../decision/infra-readings.js";
import { formatCount, formatPp } from "./format-number.js";
import type { Report } from "./report-types.js";

/** Words for the report's mode names: the three settings, and anything else (a hostile report) as "?". */
export function infraModeWords(mode: string): string {
  return mode === "count_as_fail"
    ? "counted as fails"
    : mode === "bound"
      ? "bounded"
      : mode === "exclude"
        ? "excluded"
        : "?";
}

/** True when the policy bounds the lost results and there are some: the bounds are over them too. */
export function lostResultsBounded(report: Report): boolean {
  return report.provenance.infra_errors_policy === "bound" && readingsShown(report);
}

/** True when the readings are shown: either model has an infra error on T. */
export function readingsShown(report: Report): boolean {
  const { baseline, candidate } = report.models;
  return baseline.infra_errors + candidate.infra_errors > 0;
}

const VERDICT_WORDS: Readonly<Record<Verdict, string>> = {
  accept: "accept",
  reject: "reject",
  unresolved: "unresolved",
};

function verdictWord(v: string): string {
  return (VERDICT_WORDS as Readonly<Record<string, string>>)[v] ?? "?";
}

/** The table's rows: reading, |C|, N_v, Δ̂, Δ_L … Δ_H, LCB, UCB, verdict; the deciding mode marked. */
export function readingRows(report: Report): { mode: InfraErrorsMode; decides: boolean; cells: string[] }[] {
  const policyMode = report.provenance.infra_errors_policy;
  return INFRA_ERRORS_MODES.map((mode) => {
    const r = report.infra_readings[mode];
    return {
      mode,
      decides: mode === policyMode,
      cells: [
        `${READING_NAMES[mode]} (${mode})`,
        formatCount(r.common_tasks),
        formatCount(r.common_valid_tasks),
        r.margin === null && r.common_valid_tasks > 0 && r.margin_low !== null
          ? "unknown"
          : formatPp(r.margin),
        `${formatPp(r.margin_low)} … ${formatPp(r.margin_high)}`,
        formatPp(r.lcb),
        formatPp(r.ucb),
        verdictWord(r.verdict),
      ],
    };
  });
}

/** The text rendering's narrower header (its rows name each reading by its mode alone). */
export const READING_HEADER_SHORT = [
  "Reading",
  "|C|",
  "N_v",
  "Δ̂",
  "Δ_L … Δ_H",
  "LCB",
  "UCB",
  "Verdict",
] as const;

export const READING_HEADER = [
  "Infra errors",
  "Common tasks",
  "Common valid",
  "Δ̂",
  "Δ_L … Δ_H",
  "LCB",
  "UCB",
  "Verdict",
] as const;

/** The collapsed section's summary words: each reading's verdict, the deciding one marked. */
export function readingsSummary(report: Report): string {
  return readingRows(report)
    .map((r) => `${READING_NAMES[r.mode]}: ${r.cells[7] ?? ""}${r.decides ? " (the policy's)" : ""}`)
    .join(" · ");
}

/** One line under the table: what the readings are. */
export function readingsNote(report: Report): string {
  const { baseline, candidate } = report.models;
  const counted = `${formatCount(baseline.infra_errors)} baseline and ${formatCount(candidate.infra_errors)} candidate infra errors`;
  const b = report.infra_readings.bound;
  const unknown = b.margin === null && b.common_valid_tasks > 0 && b.margin_low !== null;
  return (
    `The same export read three ways (${counted}): dropped leaves them out, and a task a model lost whole leaves the common set; ` +
    "lost as fails counts each as a fail; bounded takes each as a pass and as a fail, and its bounds hold either way " +
    "(conservative ones when a common task has a lost result)." +
    (unknown ? " Bounded, Δ̂ is unknown: a common valid task has a lost result." : "")
  );
}
