/**
 * This gate's runs on a pull request (docs/runs.md): the report key `runs`, the
 * evidence check the `reruns` policy adds, and the headline words for a re-run that shopped for a
 * pass. Pure: the action (src/action/run-history.ts) reads the check runs and the comment's block
 * and hands over what it found.
 */
import type { RunSummary } from "./run-types.js";
import type { Check, Verdict } from "../verdict-types.js";
import { plural } from "../words.js";

export type RerunsMode = "latest" | "pool" | "fail";

/** One earlier run of this gate on the head commit, as its own check run records it. */
export interface EarlierRun {
  /** The check run's id (GitHub's), oldest first by it. */
  readonly check_run_id: number;
  readonly verdict: Verdict;
  /** The first 16 hex digits of its results digest (RunSummary.digests.results). */
  readonly results_digest: string;
  /** Its results were not the same as this run's (a re-run of the eval, not a code change). */
  readonly other_results: boolean;
  /** Under `reruns: pool`: every one of its results files is among this run's inputs; else null. */
  readonly pooled: boolean | null;
}

/** The report key `runs` (schema 2.4.0; the action only). */
export interface RunsReport {
  /** This gate's runs on the head commit, this one included. */
  readonly run_count: number;
  /** The earlier runs' verdicts on the head commit, oldest first. */
  readonly earlier_verdicts: readonly Verdict[];
  /** How many earlier runs on the head commit had other results. */
  readonly earlier_other_results: number;
  /** The verdict moved towards accept (reject < unresolved < accept) over re-runs with other results. */
  readonly towards_accept: boolean;
  /**
   * Where the rows come from: "verified" (the comment's block matches one of the gate's own check
   * runs), "display_only" (a block that could not be verified: shown, never used to decide),
   * "none" (no block: the first run, no comment, or a broken block).
   */
  readonly history: "verified" | "display_only" | "none";
  /** Why the earlier runs could not be read (then run_count counts this run only), else null. */
  readonly unavailable: string | null;
  /** This run and the remembered ones, newest first (at most RUN_HISTORY_MAX). */
  readonly rows: readonly RunSummary[];
  /** Older runs the comment no longer keeps. */
  readonly rows_not_kept: number;
  /** The policy's `reruns` mode and what it did: "none", "rejected" or "unresolved" (with why). */
  readonly reruns: {
    readonly mode: RerunsMode;
    readonly effect: "none" | "rejected" | "unresolved";
    readonly detail: string | null;
  };
}

/** The most runs the comment remembers. */
export const RUN_HISTORY_MAX = 20;
/** Runs shown above the fold of the history table; the rest are folded. */
export const RUN_HISTORY_FOLD = 5;

const RANK: Readonly<Record<Verdict, number>> = { reject: 0, unresolved: 1, accept: 2 };

/** True when `now` ranks above the verdict of an earlier run that had other results. */
export function movedTowardsAccept(now: Verdict, earlier: readonly EarlierRun[]): boolean {
  return earlier.some((r) => r.other_results && RANK[now] > RANK[r.verdict]);
}

/** 1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, 21st. */
export function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix}`;
}

/** "accept on the 3rd run of the same config; earlier: unresolved, unresolved", or null when not shopping. */
export function shoppingLine(verdict: Verdict, runs: RunsReport | undefined): string | null {
  if (runs === undefined || !runs.towards_accept) return null;
  return `${verdict} on the ${ordinal(runs.run_count)} run of the same config; earlier: ${runs.earlier_verdicts.join(", ")}`;
}

/** What the action found out about the earlier runs, for the `reruns` check. */
export interface RerunsFindings {
  readonly mode: RerunsMode;
  /** Why the earlier runs could not be read, else null. */
  readonly unavailable: string | null;
  readonly earlier: readonly EarlierRun[];
  /** This run's results digest (16 hex, as EarlierRun.results_digest), to name beside theirs. */
  readonly current?: string;
}

/** The earlier runs a `reruns` check compared with, each by its check run: the first 5, then how many more. */
function namedRuns(runs: readonly EarlierRun[]): string {
  const named = runs
    .slice(0, 5)
    .map((r) => `check run ${r.check_run_id} (${r.verdict}, results ${r.results_digest})`)
    .join("; ");
  return runs.length > 5 ? `${named}; and ${runs.length - 5} more` : named;
}

/**
 * The evidence check `reruns` under `reruns: fail | pool` (null under `latest`: today's checks).
 * It fails when the history cannot be read (the gate never goes green when it cannot tell), under
 * `fail` when an earlier run had other results, and under `pool` when an earlier run's results
 * are not among this run's inputs. `rejects` says the verdict is reject (`fail`), not unresolved.
 */
export function rerunsCheck(f: RerunsFindings): { check: Check; rejects: boolean } | null {
  if (f.mode === "latest") return null;
  const base = { id: "reruns" as const, kind: "evidence" as const };
  if (f.unavailable !== null) {
    return {
      check: {
        ...base,
        observed: null,
        threshold: f.mode === "fail" ? "no re-run with other results" : "every run's results pooled",
        passed: false,
        detail: `The gate's earlier runs on this commit cannot be read (${f.unavailable}), so reruns: ${f.mode} cannot tell whether the eval was re-run; the verdict cannot be accept.`,
      },
      rejects: false,
    };
  }
  const other = f.earlier.filter((r) => r.other_results);
  if (f.mode === "fail") {
    const passed = other.length === 0;
    return {
      check: {
        ...base,
        observed: other.length,
        threshold: "no re-run with other results",
        passed,
        detail: passed
          ? `No earlier run of this gate on this commit had other results (${f.earlier.length} earlier).`
          : `The eval was re-run on this commit: ${plural(other.length, "earlier run")} of this gate had other results${f.current === undefined ? "" : ` than this run's (results ${f.current})`}: ${namedRuns(other)}. reruns: fail rejects a re-run; push a new commit, or use reruns: pool to decide on every run's attempts together.`,
      },
      rejects: !passed,
    };
  }
  const missing = f.earlier.filter((r) => r.pooled !== true);
  const passed = missing.length === 0;
  const named = namedRuns(missing);
  return {
    check: {
      ...base,
      observed: missing.length,
      threshold: "every run's results pooled",
      passed,
      detail: passed
        ? `Every earlier run's results on this commit (${f.earlier.length}) are among this run's results inputs: decided on all their attempts together.`
        : `reruns: pool needs every run's results on this commit among the results inputs; missing: ${named}. Keep each run's export (an artifact or cache directory) and list them all in results.`,
    },
    rejects: false,
  };
}

/** What the action knows of the runs, to build the report key `runs`. */
export interface RunsInput {
  readonly findings: RerunsFindings;
  /** The `reruns` check's outcome (null under `latest`). */
  readonly check: { readonly check: Check; readonly rejects: boolean } | null;
  /** The engine's verdict before `reruns: fail` turned it into reject. */
  readonly engineVerdict: Verdict;
  readonly verdict: Verdict;
  readonly history: RunsReport["history"];
  /** This run's summary first, then the remembered rows (newest first). */
  readonly rows: readonly RunSummary[];
  readonly rowsNotKept: number;
}

export function runsReport(input: RunsInput): RunsReport {
  const f = input.findings;
  const readable = f.unavailable === null;
  const earlier = readable ? f.earlier : [];
  const check = input.check;
  const failed = check !== null && !check.check.passed;
  const effect: RunsReport["reruns"]["effect"] = !failed
    ? "none"
    : check.rejects && input.engineVerdict !== "reject"
      ? "rejected"
      : input.engineVerdict === "unresolved"
        ? "unresolved"
        : "none";
  return {
    run_count: earlier.length + 1,
    earlier_verdicts: earlier.map((r) => r.verdict),
    earlier_other_results: earlier.filter((r) => r.other_results).length,
    // A pooled decision over every run's attempts is not a re-run shopping for a pass.
    towards_accept:
      !(f.mode === "pool" && check !== null && check.check.passed) &&
      movedTowardsAccept(input.verdict, earlier),
    history: input.history,
    unavailable: f.unavailable,
    rows: input.rows.slice(0, RUN_HISTORY_MAX),
    rows_not_kept: input.rowsNotKept,
    reruns: { mode: f.mode, effect, detail: failed ? check.check.detail : null },
  };
}
