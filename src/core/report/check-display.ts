/**
 * How a check is shown to a reader, shared by the Markdown, the plain-text rendering and the check
 * run's title: its label, its observed value in the report's units (counts, % for rates, pp for
 * the margin), its threshold with ≥/≤ glyphs, and long values (revisions) shortened so that no
 * table cell is wider than a short value. Returned strings are plain text; untrusted parts
 * (observed strings, threshold text) are escaped by the caller's formatter.
 */
import type { Check, CheckId } from "../verdict-types.js";
import type { Report } from "./report-types.js";
import { NOT_AVAILABLE, formatCount, formatDecimal, formatPercent, formatPp } from "./format-number.js";

export const CHECK_LABEL: Readonly<Record<CheckId, string>> = {
  common_valid_tasks: "Common valid tasks",
  infra_error_rate_baseline: "Infra error rate, baseline",
  infra_error_rate_candidate: "Infra error rate, candidate",
  disputed_fraction: "Disputed fraction",
  missing_fraction_baseline: "Missing fraction, baseline",
  missing_fraction_candidate: "Missing fraction, candidate",
  same_harness: "Same harness revision",
  real_harness_revisions: "Real harness revisions",
  // The check compares the two models' sets of dataset revisions (threshold "same set for both").
  dataset_revision: "Same dataset revisions",
  production_canary: "Production canary",
  observed_margin: "Margin lower bound (LCB)",
  append_only: "History append-only",
  reruns: "Re-runs of the eval",
  benchmark_present: "Benchmark in the export",
};

type CheckUnit = "count" | "fraction" | "pp" | "text";

const CHECK_UNIT: Readonly<Record<CheckId, CheckUnit>> = {
  common_valid_tasks: "count",
  infra_error_rate_baseline: "fraction",
  infra_error_rate_candidate: "fraction",
  disputed_fraction: "fraction",
  missing_fraction_baseline: "fraction",
  missing_fraction_candidate: "fraction",
  same_harness: "text",
  real_harness_revisions: "text",
  dataset_revision: "text",
  production_canary: "text",
  observed_margin: "pp",
  append_only: "count",
  reruns: "count",
  benchmark_present: "count",
};

/** A check id we know (a report file from a newer version may carry others). */
export function isKnownCheck(id: string): id is CheckId {
  return Object.hasOwn(CHECK_LABEL, id);
}

/**
 * The check's label; for an unknown id, the id itself when it is a plain identifier (so it can
 * be written as generated text), else null: the caller escapes the raw id.
 */
export function knownLabel(id: string): string | null {
  if (isKnownCheck(id)) return CHECK_LABEL[id];
  return /^[a-z][a-z0-9_]{0,59}$/.test(id) ? id.replace(/_/g, " ") : null;
}

/** Characters of a shortened token (after an optional `scheme:` prefix), e.g. a revision's hash. */
export const SHORT_TOKEN_CHARS = 12;
/** A shortened value (a revision in a task table's column) is at most this many code points. */
export const SHORT_VALUE_CHARS = 32;

/**
 * A check's observed value is at most this many code points: two shortened revisions with their
 * sides ("baseline: sha256:3785f65a2213…; candidate: sha256:ff14f71101b9…") fit whole, and so do
 * two versions of a named benchmark ("baseline: swe-bench-verified@v1; candidate: …@v2").
 */
export const OBSERVED_VALUE_CHARS = 80;

/**
 * The part of a token kept whole when it is shortened: a `scheme:` (up to 8 characters), or a
 * `name@` before a version (`swe-bench-verified@v2`), whose version is what tells two apart.
 */
function tokenPrefix(token: string): string {
  return /^[A-Za-z0-9+.-]{1,7}:|^[^@\s]{1,40}@/u.exec(token)?.[0] ?? "";
}

/** Shortens a long token to its prefix and the SHORT_TOKEN_CHARS characters after it, then "…". */
function shortenToken(token: string): string {
  const cps = Array.from(token);
  const prefix = Array.from(tokenPrefix(token)).length;
  if (cps.length <= prefix + SHORT_TOKEN_CHARS + 2) return token;
  return `${cps.slice(0, prefix + SHORT_TOKEN_CHARS).join("")}…`;
}

/**
 * A digest shortened as git shortens a commit: a token whose part after its prefix is 16 or more
 * hex digits (`sha256:66bcf338b688ee7a…`, `git:be19ac0b…`) keeps the prefix and SHORT_TOKEN_CHARS
 * digits; anything else is returned whole.
 */
function shortenDigest(token: string): string {
  const prefix = Array.from(tokenPrefix(token)).length;
  const rest = Array.from(token).slice(prefix).join("");
  return /^[0-9a-f]{16,}$/iu.test(rest) ? shortenToken(token) : token;
}

/**
 * A table value within its column of `maxChars` code points. Digests are shortened as git shows a
 * commit (`sha256:66bcf338b688ee7a…` → `sha256:66bcf338b688…`); nothing else is cut while the
 * value fits the column, so a short value (`unknown:swebench-leaderboard`) is never cut inside a
 * word. Past the column every long token keeps its prefix (`scheme:` or `name@`) and the
 * SHORT_TOKEN_CHARS characters after it, and the value ends after its last whole token that fits,
 * with "…"; separators (spaces, commas, semicolons) are kept. The full value stays in the report
 * JSON, in the check's detail and in the provenance section.
 */
export function shortenValue(value: string, maxChars = SHORT_VALUE_CHARS): string {
  const split = value.split(/([\s,;]+)/u);
  const digests = split.map((p, i) => (i % 2 === 1 ? p : shortenDigest(p)));
  // Past the column: whole tokens first; only when not even one fits, every long token shortened.
  const fitted =
    wholeTokens(digests, maxChars) ??
    wholeTokens(
      split.map((p, i) => (i % 2 === 1 ? p : shortenToken(p))),
      maxChars,
    );
  if (fitted !== null) return fitted;
  // A first token longer than the cap alone (no prefix to shorten it by) is cut.
  return `${Array.from(split[0] ?? "")
    .slice(0, maxChars - 1)
    .join("")}…`;
}

/** The parts whole when they fit `maxChars`, else up to the last whole token that fits with " …"; null when none fits. */
function wholeTokens(parts: readonly string[], maxChars: number): string | null {
  const length = (s: string): number => Array.from(s).length;
  if (length(parts.join("")) <= maxChars) return parts.join("");
  let out = "";
  for (let i = 0; i < parts.length; i += 2) {
    const next = out + (parts[i - 1] ?? "") + (parts[i] ?? "");
    if (length(next) > maxChars - 2) break;
    out = next;
  }
  return out === "" ? null : `${out.replace(/[\s,;]+$/u, "")} …`;
}

/** The observed value: generated text (`number`), or an untrusted string (`text`), already shortened. */
export type ObservedValue =
  { readonly kind: "number"; readonly text: string } | { readonly kind: "text"; readonly text: string };

/** `maxChars`: the column's width; a string is shortened to it after whole tokens, never cut inside one. */
export function observedValue(check: Check, maxChars = OBSERVED_VALUE_CHARS): ObservedValue {
  const unit: CheckUnit = isKnownCheck(check.id) ? CHECK_UNIT[check.id] : "text";
  const v = check.observed;
  if (v === null) return { kind: "number", text: NOT_AVAILABLE };
  if (typeof v === "string") return { kind: "text", text: shortenValue(v, maxChars) };
  switch (unit) {
    case "count":
      return { kind: "number", text: formatCount(v) };
    case "fraction":
      return { kind: "number", text: formatPercent(v) };
    case "pp":
      return { kind: "number", text: formatPp(v) };
    case "text":
      return { kind: "number", text: Number.isInteger(v) ? formatCount(v) : formatDecimal(v) };
  }
}

/**
 * The threshold as shown: the policy's text with `>=`/`<=` written ≥/≤ (untrusted: the caller
 * escapes it); the margin check's bar in pp from the report, the unit of the margin.
 */
export function thresholdText(check: Check, report: Report): string {
  if (check.id === "observed_margin") return `> ${formatPp(report.comparison.delta0)}`;
  return check.threshold.replace(/^(\s*)>=/, "$1≥").replace(/^(\s*)<=/, "$1≤");
}

/**
 * The checks that fail, in report order, as the checks table shows them (one failing row each):
 * every count of failing checks a rendering prints is this list's length.
 */
export function failingChecks(report: Report): Check[] {
  return report.checks.filter((c) => !c.passed);
}

/** Evidence checks that fail, in report order (the margin check is the margin's, not evidence). */
export function failedEvidence(report: Report): Check[] {
  return report.checks.filter((c) => c.kind !== "margin" && !c.passed);
}
