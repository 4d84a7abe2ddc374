/**
 * The policy's history as evidence: every version of the policy file, oldest first,
 * turned into a log of changes in the same semantic diff the PR report uses (policy-diff.ts), with
 * what an auditor looks for flagged. Pure: the versions come from git through src/git/.
 *
 * Flags of an entry:
 * - `loosening`: a changed rule is a loosening (policy-diff.ts says which; a later revisit date is
 *   one, as on a pull request);
 * - `snoozed`: the revisit date moved later while no threshold (`accept_if.*`,
 *   `margin.confidence`) changed in the same commit: the deadline was pushed back without the
 *   thresholds being re-examined;
 * - `owner_changed`;
 * - `expired`: this version's revisit date passed before the next change (or before `today` for
 *   the version still in force): as in `isExpired`, the policy holds on its revisit date itself
 *   and is expired from the day after. The next change is dated by its commit date (when it
 *   entered the history), as a UTC calendar day like the gate's `today`;
 * - `with_evidence`: the same commit also changed files the caller recognises as results or
 *   reviews (listed, at most MAX_LISTED_FILES; the count is exact);
 * - `unparsable`: the version does not parse; it is listed with why, and the next version that
 *   parses is compared with the last one that did.
 */
import { InputError, errorLine } from "../errors.js";
import { isExpired, parsePolicy } from "../policy/load-policy.js";
import { diffPolicies } from "../policy/policy-diff.js";
import type { Policy } from "../policy/policy-types.js";
import type { PolicyChange } from "../verdict-types.js";

/** Files listed per entry as changed with the policy (the count is exact). */
export const MAX_LISTED_FILES = 10;

/** Which changed files are results exports or reviews files when the caller does not say. */
export const DEFAULT_EVIDENCE_GLOBS: readonly string[] = ["**/*.jsonl", "**/*.jsonl.gz"];

export interface PolicyVersion {
  readonly commit: string;
  readonly author: string;
  /** Author date, ISO 8601 with the author's offset (git's %aI). */
  readonly date: string;
  /** Commit date, ISO 8601 (git's %cI): when this version entered the history. */
  readonly committed: string;
  readonly subject: string;
  /** The policy's path in this commit (it follows renames). */
  readonly path: string;
  /** The path before a rename, else null. */
  readonly previous_path: string | null;
  readonly status: "added" | "modified" | "renamed" | "deleted";
  /** The file's text at this commit; null when deleted, or when it cannot be read as text (`textError`). */
  readonly text: string | null;
  readonly textError?: string;
  /** Other files the commit changed (repository paths). */
  readonly otherFiles: readonly string[];
}

/** The flags, in the order they are listed. */
export const POLICY_LOG_FLAGS = [
  "loosening",
  "snoozed",
  "owner_changed",
  "expired",
  "with_evidence",
  "unparsable",
] as const;

export type PolicyLogFlag = (typeof POLICY_LOG_FLAGS)[number];

/** The commit's facts as read from git, then what the log found. */
export interface PolicyLogEntry extends Pick<
  PolicyVersion,
  "commit" | "author" | "date" | "committed" | "subject" | "path" | "previous_path" | "status"
> {
  /** Why this version does not parse (its first problem), else null. */
  readonly parse_error: string | null;
  readonly owner: string | null;
  readonly revisit: string | null;
  /** The commit whose version the changes are against (the last one that parsed), or null. */
  readonly compared_with: string | null;
  readonly changes: readonly PolicyChange[];
  readonly flags: readonly PolicyLogFlag[];
  /** When flagged expired: the version's revisit date, and the day the next change replaced it (null: still in force on `today`). */
  readonly expired: { readonly revisit: string; readonly until: string | null } | null;
  readonly evidence_files: readonly string[];
  readonly evidence_files_total: number;
}

export interface PolicyLog {
  /** The policy's repository path at the last commit read. */
  readonly path: string;
  /** `--since REV` as given (null: from the first commit). */
  readonly since: string | null;
  /** The day the version still in force is checked against for expiry. */
  readonly today: string;
  /** True when older commits changed the file than those listed (a count limit, not --since). */
  readonly truncated: boolean;
  readonly counts: Readonly<Record<PolicyLogFlag, number>> & { readonly commits: number };
  readonly entries: readonly PolicyLogEntry[];
}

/** The version the first entry is compared with: the file at `--since`, or the commit before a count limit. */
export interface PolicyBaseline {
  readonly commit: string;
  /** Null when the file did not exist there or cannot be read. */
  readonly text: string | null;
  readonly path: string;
}

export interface PolicyLogOptions {
  /** The policy's repository path at the last commit read (what the user asked about). */
  readonly path: string;
  readonly since: string | null;
  readonly baseline: PolicyBaseline | null;
  readonly truncated: boolean;
  /** YYYY-MM-DD, for the expiry of the version still in force. */
  readonly today: string;
  /** Whether a changed file (repository path) is a results export or a reviews file. */
  readonly isEvidenceFile: (path: string) => boolean;
}

/** Rules whose change means the thresholds were re-examined (a later revisit with one is no snooze). */
const THRESHOLD_KEYS =
  /^(accept_if\.|margin\.confidence$|guardrails\.|benchmarks\..*\.(common_valid_tasks|infra_error_rate|disputed_fraction|missing_fraction|observed_margin|production_canary)$)/;

function parsed(text: string, file: string): { policy: Policy } | { error: string } {
  try {
    return { policy: parsePolicy(text, file) };
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return { error: errorLine(e) };
  }
}

/** The UTC calendar day of an ISO timestamp (git's %cI), like the gate's `today`. */
export function utcDay(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso.slice(0, 10) : new Date(t).toISOString().slice(0, 10);
}

/** The flags a change earns by its diff alone (everything but expiry and evidence). */
export function changeFlags(changes: readonly PolicyChange[]): PolicyLogFlag[] {
  const flags: PolicyLogFlag[] = [];
  if (changes.some((c) => c.loosening)) flags.push("loosening");
  const later = changes.some((c) => c.key === "revisit" && c.loosening);
  if (later && !changes.some((c) => THRESHOLD_KEYS.test(c.key))) flags.push("snoozed");
  if (changes.some((c) => c.key === "owner")) flags.push("owner_changed");
  return flags;
}

/**
 * The expiry of a version in force from its commit until `until` (the next change's day, or
 * `today`): expired when `until` is after its revisit date.
 */
export function expiryOf(policy: Policy, until: string, stillInForce: boolean): PolicyLogEntry["expired"] {
  if (!isExpired(policy, until)) return null;
  return { revisit: policy.revisit, until: stillInForce ? null : until };
}

export function buildPolicyLog(versions: readonly PolicyVersion[], opts: PolicyLogOptions): PolicyLog {
  let last: { policy: Policy; commit: string } | null = null;
  if (opts.baseline !== null && opts.baseline.text !== null) {
    const p = parsed(opts.baseline.text, opts.baseline.path);
    if ("policy" in p) last = { policy: p.policy, commit: opts.baseline.commit };
  }
  const entries: PolicyLogEntry[] = [];
  versions.forEach((v, i) => {
    let parseError: string | null = null;
    let policy: Policy | null = null;
    if (v.status !== "deleted") {
      if (v.text === null) parseError = v.textError ?? "the file cannot be read";
      else {
        const p = parsed(v.text, v.path);
        if ("policy" in p) policy = p.policy;
        else parseError = p.error;
      }
    }
    const changes = policy !== null && last !== null ? diffPolicies(last.policy, policy) : [];
    const next = versions[i + 1];
    const expired =
      policy === null
        ? null
        : expiryOf(policy, next === undefined ? opts.today : utcDay(next.committed), next === undefined);
    const evidence = v.otherFiles.filter((f) => opts.isEvidenceFile(f));
    const raised = new Set<PolicyLogFlag>(changeFlags(changes));
    if (expired !== null) raised.add("expired");
    if (evidence.length > 0) raised.add("with_evidence");
    if (parseError !== null) raised.add("unparsable");
    entries.push({
      commit: v.commit,
      author: v.author,
      date: v.date,
      committed: v.committed,
      subject: v.subject,
      path: v.path,
      previous_path: v.previous_path,
      status: v.status,
      parse_error: parseError,
      owner: policy?.owner ?? null,
      revisit: policy?.revisit ?? null,
      compared_with: policy !== null && last !== null ? last.commit : null,
      changes,
      flags: POLICY_LOG_FLAGS.filter((f) => raised.has(f)),
      expired,
      evidence_files: evidence.slice(0, MAX_LISTED_FILES),
      evidence_files_total: evidence.length,
    });
    // A deleted file starts over: a later re-add is a first version, not a change.
    if (policy !== null) last = { policy, commit: v.commit };
    else if (v.status === "deleted") last = null;
  });
  const counts = {
    commits: entries.length,
    loosening: 0,
    snoozed: 0,
    owner_changed: 0,
    expired: 0,
    with_evidence: 0,
    unparsable: 0,
  };
  for (const e of entries) for (const f of e.flags) counts[f]++;
  return {
    path: opts.path,
    since: opts.since,
    today: opts.today,
    truncated: opts.truncated,
    counts,
    entries,
  };
}
