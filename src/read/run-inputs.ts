/**
 * Every input file of a gate run, read once, in the order the user's errors are reported: the
 * two model ids, then the policy (parsed and checked against today: a policy error comes before
 * any problem of the export), then the export (results, then reviews), then the previous
 * versions for the append-only check. The CLI and the action call this, then runGate with what
 * it returns; they differ only in where the inputs come from.
 */

import { InputError } from "../core/errors.js";
import { gatePolicy, type GateOptions, type GatePolicy } from "../core/gate.js";
import { datasetAsOfReview } from "../core/history/as-of-review.js";
import type { AppendOnlyBase } from "../core/history/history-types.js";
import type { Dataset } from "../core/model.js";
import type { PolicyHistoryReport } from "../core/report/report-types.js";
import { COLLECT_MIN_TASKS } from "./limits.js";
import { readAppendOnly } from "./previous-versions.js";
import { readDataset, type YoungGeneration } from "./read-dataset.js";
import { sha256Hex } from "./sha256-hex.js";

export interface RunRequest {
  /** Results export files (already resolved, regular files). */
  readonly results: readonly string[];
  readonly reviews: readonly string[];
  /** The policy that decides: on a PR, the base commit's version. */
  readonly policy: {
    readonly path: string;
    readonly text: string;
    /** Where the text came from, e.g. "file" or "base commit 1a2b3c…". */
    readonly source: string;
    readonly lastCommit: string | null;
  };
  /** On a PR whose head changes the policy file: the head version, shown as a base → head diff. */
  readonly headPolicyText: string | null;
  readonly baseline: string;
  readonly candidate: string;
  readonly canary: "pass" | "fail" | null;
  /** YYYY-MM-DD, for the policy's revisit date. */
  readonly today: string;
  readonly toolVersion: string;
  /** How to name input files in messages and provenance (e.g. relative to the workspace). */
  readonly displayPath?: (absPath: string) => string;
  /** A full garbage collection, for a large read (the bundles pass src/io/full-collection.ts's). */
  readonly collectGarbage?: () => void;
  /** What the read asks of the young generation as it goes on (src/io/young-generation.ts). */
  readonly youngGeneration?: YoungGeneration;
  /** The previous versions of the results and reviews files, for the append-only check. */
  readonly previous?: { readonly results: readonly string[]; readonly reviews: readonly string[] } | null;
  /** The action: where the previous versions came from (report key `append_only_base`). */
  readonly appendOnlyBase?: AppendOnlyBase | null;
  /** `--as-of-review N`: only labels with review_revision ≤ N count. */
  readonly asOfReview?: number | null;
  /** The base policy's recent history (the action reads it from git); reported only with a policy change. */
  readonly policyHistory?: PolicyHistoryReport | null;
}

/** What runGate takes. */
export interface RunInputs {
  readonly dataset: Dataset;
  readonly policy: GatePolicy;
  readonly options: GateOptions;
}

/** The policy that decides a run (evaluate's or rank's), parsed and checked against `today`. */
export function runPolicy(
  policy: RunRequest["policy"],
  today: string,
  display: (absPath: string) => string,
  headText: string | null = null,
  history: PolicyHistoryReport | null = null,
): GatePolicy {
  return gatePolicy(
    {
      text: policy.text,
      source: {
        path: display(policy.path),
        sha256: sha256Hex(policy.text),
        source: policy.source,
        lastCommit: policy.lastCommit,
      },
      headText,
      history,
    },
    today,
  );
}

export async function readRunInputs(req: RunRequest): Promise<RunInputs> {
  if (req.baseline === req.candidate) {
    throw new InputError(
      `The baseline and the candidate are the same model_config ("${req.baseline}"): there is nothing to compare.`,
    );
  }
  const display = req.displayPath ?? ((p: string) => p);
  const policy = runPolicy(req.policy, req.today, display, req.headPolicyText, req.policyHistory ?? null);

  const read = await readDataset({
    results: req.results,
    reviews: req.reviews,
    baseline: req.baseline,
    candidate: req.candidate,
    displayPath: display,
    ...(req.collectGarbage === undefined ? {} : { collectGarbage: req.collectGarbage }),
    ...(req.youngGeneration === undefined ? {} : { youngGeneration: req.youngGeneration }),
  });
  // The builder is garbage now: its held state goes before the evaluation allocates.
  const large = req.collectGarbage !== undefined && read.tasks.length >= COLLECT_MIN_TASKS;
  if (large) req.collectGarbage?.();
  const asOfReview = req.asOfReview ?? null;
  const previous = req.previous ?? null;
  // Two labels at a task's revision as of N is a problem of the export: said before the previous
  // versions are read (runGate takes the view as it is).
  const dataset = asOfReview !== null && previous !== null ? datasetAsOfReview(read, asOfReview) : read;
  const appendOnly = previous === null ? null : await readAppendOnly(previous, req, display);
  return {
    dataset,
    policy,
    options: {
      canary: req.canary,
      toolVersion: req.toolVersion,
      asOfReview,
      appendOnly,
      appendOnlyBase: req.appendOnlyBase ?? null,
      ...(large && req.collectGarbage !== undefined ? { collectGarbage: req.collectGarbage } : {}),
    },
  };
}
