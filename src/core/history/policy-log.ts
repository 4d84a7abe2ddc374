/**
 * The policy's history as evidence (issue #14): every version of the policy file, oldest first,
 * turned into a log of changes in the same semantic diff the PR report uses (policy-diff.ts), with
 * what an auditor looks for flagged. Pure: the versions come from git through src/git/.
 *
 * Flags of an entry:
 * - `loosening`: a changed rule is a loosening (policy-diff.ts says which);
 * - `snoozed`: the revisit date moved later while no threshold (accept_if.*, margin.confidence) was
 *   changed in the same commit;
 * - `owner_changed`;
 * - `expired`: this version's revisit date passed before the next change (or before `today` for the
 *   last version): the policy decided while expired from the day after `revisit` to `until`;
 * - `with_evidence`: the same commit also changed files the caller recognises as results or
 *   reviews (listed, at most MAX_LISTED_FILES);
 * - `unparsable`: the version does not parse (its error is shown; the next version that parses is
 *   compared with the last one that did).
 */
import { InputError, formatProblem } from "../errors.js";
import { parsePolicy } from "../policy/load-policy.js";
import { diffPolicies } from "../policy/policy-diff.js";
import type { Policy } from "../policy/policy-types.js";
import type { PolicyChange } from "../report/report-types.js";

/** Files listed per entry as changed with the policy (the count is exact). */
export const MAX_LISTED_FILES = 10;

export interface PolicyVersion {
  readonly commit: string;
  readonly author: string;
  /** Author date, ISO 8601 with offset (git's %aI). */
  readonly date: string;
  readonly subject: string;
  /** The policy's path in this commit (it follows renames). */
  readonly path: string;
  readonly status: "added" | "modified" | "renamed" | "deleted";
  /** The file's text at this commit; null when deleted, or when its bytes are not UTF-8 (`textError`). */
  readonly text: string | null;
  readonly textError?: string;
  /** Other files the commit changed (repository paths). */
  readonly otherFiles: readonly string[];
}

export type PolicyLogFlag =
  "loosening" | "snoozed" | "owner_changed" | "expired" | "with_evidence" | "unparsable";

export interface PolicyLogEntry {
  readonly commit: string;
  readonly author: string;
  readonly date: string;
  readonly subject: string;
  readonly path: string;
  readonly status: PolicyVersion["status"];
  /** Why this version does not parse (first problem), else null. */
  readonly parse_error: string | null;
  readonly owner: string | null;
  readonly revisit: string | null;
  /** The commit whose version the changes are against (the last one that parsed), or null. */
  readonly compared_with: string | null;
  readonly changes: readonly PolicyChange[];
  readonly flags: readonly PolicyLogFlag[];
  /** When flagged expired: the version's revisit date and until when it was in force (the next change's date, or null: still today). */
  readonly expired: { readonly revisit: string; readonly until: string | null } | null;
  readonly evidence_files: readonly string[];
  readonly evidence_files_total: number;
}

export interface PolicyLog {
  readonly path: string;
  /** `--since REV`: the revision the first entry is compared with (null: from the first commit). */
  readonly since: string | null;
  readonly today: string;
  readonly entries: readonly PolicyLogEntry[];
  readonly counts: Readonly<Record<PolicyLogFlag, number>> & { readonly commits: number };
}

export interface PolicyLogOptions {
  readonly path: string;
  readonly since: string | null;
  /** The version at `since` (its text), the baseline of the first entry; null when none. */
  readonly sinceText: string | null;
  /** YYYY-MM-DD, for the last version's expiry. */
  readonly today: string;
  /** Whether a changed file is a results export or a reviews file. */
  readonly isEvidenceFile: (path: string) => boolean;
}

const THRESHOLD_KEYS = /^(accept_if\.|margin\.confidence$)/;

function parsed(text: string, file: string): { policy: Policy } | { error: string } {
  try {
    return { policy: parsePolicy(text, file) };
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    const first = e.problems[0];
    const more = e.total > 1 ? ` (and ${e.total - 1} more)` : "";
    return {
      error: `${first === undefined ? (e.message.split("\n")[0] ?? "invalid policy") : formatProblem(first)}${more}`,
    };
  }
}

/** YYYY-MM-DD of an ISO timestamp as written (the author's own calendar day). */
function day(iso: string): string {
  return /^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10) : iso;
}

export function buildPolicyLog(versions: readonly PolicyVersion[], opts: PolicyLogOptions): PolicyLog {
  let last: { policy: Policy; commit: string | null } | null = null;
  if (opts.sinceText !== null) {
    const p = parsed(opts.sinceText, opts.path);
    if ("policy" in p) last = { policy: p.policy, commit: opts.since };
  }
  const entries: PolicyLogEntry[] = [];
  // The policy in force before each entry, for the expiry of the one before it.
  const inForce: (Policy | null)[] = [];
  for (const v of versions) {
    const flags: PolicyLogFlag[] = [];
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
    let changes: PolicyChange[] = [];
    const comparedWith = last?.commit ?? null;
    if (policy !== null && last !== null) changes = diffPolicies(last.policy, policy);
    if (parseError !== null) flags.push("unparsable");
    if (changes.some((c) => c.loosening)) flags.push("loosening");
    const revisitLater = changes.some((c) => c.key === "revisit" && c.loosening);
    if (revisitLater && !changes.some((c) => THRESHOLD_KEYS.test(c.key))) flags.push("snoozed");
    if (changes.some((c) => c.key === "owner")) flags.push("owner_changed");
    const evidence = v.otherFiles.filter((f) => opts.isEvidenceFile(f));
    if (evidence.length > 0) flags.push("with_evidence");
    entries.push({
      commit: v.commit,
      author: v.author,
      date: v.date,
      subject: v.subject,
      path: v.path,
      status: v.status,
      parse_error: parseError,
      owner: policy?.owner ?? null,
      revisit: policy?.revisit ?? null,
      compared_with: policy === null ? null : comparedWith,
      changes,
      flags,
      expired: null,
      evidence_files: evidence.slice(0, MAX_LISTED_FILES),
      evidence_files_total: evidence.length,
    });
    inForce.push(policy);
    if (policy !== null) last = { policy, commit: v.commit };
    else if (v.status === "deleted") last = null;
  }
  // Expiry: a version in force (parsed) whose revisit date passed before the next change.
  const out = entries.map((e, i) => {
    const p = inForce[i];
    if (p === null || p === undefined) return e;
    const next = entries[i + 1];
    const until = next === undefined ? opts.today : day(next.date);
    if (!(until > p.revisit)) return e;
    return {
      ...e,
      flags: [...e.flags, "expired" as const],
      expired: { revisit: p.revisit, until: next === undefined ? null : until },
    };
  });
  const counts = {
    commits: out.length,
    loosening: 0,
    snoozed: 0,
    owner_changed: 0,
    expired: 0,
    with_evidence: 0,
    unparsable: 0,
  };
  for (const e of out) for (const f of e.flags) counts[f]++;
  return { path: opts.path, since: opts.since, today: opts.today, entries: out, counts };
}
