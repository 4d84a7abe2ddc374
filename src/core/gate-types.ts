/**
 * The types runGate takes (src/core/gate.ts), in a file of their own so that gate-benchmarks.ts,
 * which gate.ts calls, can name them without importing gate.ts.
 */
import type { AppendOnlyBase, AppendOnlyReport } from "./history/history-types.js";
import type { Policy, PolicySource } from "./policy/policy-types.js";
import type { PolicyHistoryReport } from "./report/report-types.js";
import type { Check, PolicyChange } from "./verdict-types.js";

/** The policy that decides (on a PR, the base commit's version), checked: see gatePolicy. */
export interface GatePolicy {
  readonly policy: Policy;
  /** Where it came from, as the report's provenance names it. */
  readonly source: PolicySource;
  /** Its revisit date has passed (and it says on_expired: warn: with fail, gatePolicy throws). */
  readonly expired: boolean;
  /** On a PR whose head changes the policy file: the changes base → head; else null. */
  readonly changes: readonly PolicyChange[] | null;
  /** Headline warnings about the head's version (it does not parse). */
  readonly warnings: readonly string[];
  /** The base policy's recent history (the action reads it from git); reported only with a change. */
  readonly history: PolicyHistoryReport | null;
}

export interface PolicyText {
  readonly text: string;
  readonly source: PolicySource;
  /** On a PR whose head changes the policy file: the head version (shown as a diff, not applied). */
  readonly headText: string | null;
  readonly history: PolicyHistoryReport | null;
}

export interface GateOptions {
  readonly canary: "pass" | "fail" | null;
  readonly toolVersion: string;
  /** `--as-of-review N`: only labels with review_revision ≤ N count. */
  readonly asOfReview: number | null;
  /** The append-only check's comparison with the previous versions (src/read/previous-versions.ts). */
  readonly appendOnly: AppendOnlyReport | null;
  /** The action: where the previous versions came from (report key `append_only_base`). */
  readonly appendOnlyBase: AppendOnlyBase | null;
  /** Evidence checks the caller adds (the action's `reruns` check, src/core/run-history/runs-report.ts). */
  readonly extraChecks?: readonly Check[];
  /**
   * A full garbage collection, asked for once the fragility search's garbage can go, before the
   * evaluations at each review revision add theirs (the shells pass one for a large read).
   */
  readonly collectGarbage?: () => void;
}
