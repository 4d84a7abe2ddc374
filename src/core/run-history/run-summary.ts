/**
 * One run of the gate, as small as the PR can remember it: the head commit, the two
 * models, the inputs' digests, the verdict and the margin's figures. It holds nothing per task,
 * so remembering it in the sticky comment leaks nothing the comment does not show. The action
 * parses it back from a comment, which a PR author can edit: runSummarySchema checks every key.
 */
import * as z from "zod";

import type { DecidedReport, RunSummary } from "./run-types.js";

export type { RunSummary } from "./run-types.js";

/**
 * SHA-256 of a string's UTF-8 bytes, as lowercase hex. The core may not import node:crypto: the
 * shells pass theirs in (src/read/sha256-hex.ts).
 */
export type Sha256Hex = (text: string) => string;

/** The longest model_config a summary may carry (a model id is far shorter; the bound is for a hostile comment). */
export const RUN_SUMMARY_NAME_MAX = 500;

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
/** A figure: a finite number, or null where undefined (JSON cannot carry NaN or ±Infinity anyway). */
const figure = z.number().nullable();

export const runSummarySchema = z.strictObject({
  // Git object names: 40 hex digits (SHA-1) or 64 (SHA-256 repositories).
  head_sha: z
    .string()
    .regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/)
    .nullable(),
  baseline: z.string().min(1).max(RUN_SUMMARY_NAME_MAX),
  candidate: z.string().min(1).max(RUN_SUMMARY_NAME_MAX),
  digests: z.strictObject({ results: hex64, reviews: hex64, policy: hex64 }),
  review_revision_max: z.number().int().nonnegative().nullable(),
  verdict: z.enum(["accept", "reject", "unresolved"]),
  margin: figure,
  lcb: figure,
  ucb: figure,
  margin_low: figure,
  margin_high: figure,
});

/** The schema's output is a RunSummary (a compile-time check both ways, here and in parseRunSummary). */
export type ParsedRunSummary = z.infer<typeof runSummarySchema>;

/** A summary parsed from untrusted JSON (a comment): the RunSummary, or null with the first problem. */
export function parseRunSummary(
  value: unknown,
): { summary: RunSummary; problem: null } | { summary: null; problem: string } {
  const parsed = runSummarySchema.safeParse(value);
  if (parsed.success) {
    const summary: RunSummary = parsed.data;
    const back: ParsedRunSummary = summary;
    return { summary: back, problem: null };
  }
  const issue = parsed.error.issues[0];
  const where =
    issue === undefined || issue.path.length === 0 ? "the summary" : issue.path.map(String).join(".");
  return { summary: null, problem: `${where}: ${issue?.message ?? "not a run summary"}` };
}

/**
 * The digest of one kind of input: sha256 over its files' sha256s (hex), sorted, each followed by
 * "\n" (no files: the sha256 of the empty string). Sorted, so giving the same files in another
 * order is the same input.
 */
export function inputsDigest(fileDigests: readonly string[], sha256Hex: Sha256Hex): string {
  return sha256Hex(
    [...fileDigests]
      .sort()
      .map((d) => `${d}\n`)
      .join(""),
  );
}

/** The run that made `report`, on commit `headSha` (null outside a pull request). */
export function summaryOfReport(
  report: DecidedReport,
  headSha: string | null,
  sha256Hex: Sha256Hex,
): RunSummary {
  const p = report.provenance;
  const c = report.comparison;
  let reviewMax: number | null = null;
  for (const r of p.review_revisions) if (reviewMax === null || r > reviewMax) reviewMax = r;
  return {
    head_sha: headSha,
    baseline: report.models.baseline.config,
    candidate: report.models.candidate.config,
    digests: {
      results: inputsDigest(
        p.inputs.filter((i) => i.kind === "results").map((i) => i.sha256),
        sha256Hex,
      ),
      reviews: inputsDigest(
        p.inputs.filter((i) => i.kind === "reviews").map((i) => i.sha256),
        sha256Hex,
      ),
      policy: p.policy.sha256,
    },
    review_revision_max: reviewMax,
    verdict: report.verdict,
    margin: c.margin,
    lcb: c.lcb,
    ucb: c.ucb,
    margin_low: c.margin_lower,
    margin_high: c.margin_upper,
  };
}
