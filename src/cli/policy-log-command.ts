import { resolve, relative } from "node:path";
import { InputError } from "../core/errors.js";
import { buildPolicyLog, DEFAULT_EVIDENCE_GLOBS } from "../core/history/policy-log.js";
import { isIsoDate } from "../core/policy/policy-values.js";
import { renderPolicyLog } from "../core/report/render-policy-log.js";
import { globToRegExp } from "../io/glob.js";
import { readPolicyHistory } from "../git/policy-history.js";
import { one, parseFlags, required, type FlagSpec } from "./args.js";
import type { CliIo } from "./io.js";

export const POLICY_LOG_HELP = `Usage: model-gate policy-log --policy P [options]

In a git checkout: every commit that changed the policy file on the branch's first-parent line
(a merged pull request is its merge commit; renames followed), oldest first, with author, date,
subject and each changed rule (the PR report's semantic diff; loosenings marked), and flags: a
loosening, a snoozed revisit date (moved later, no threshold changed), an owner change, a period
when the policy was expired, a commit that also changed results or reviews files, a version that
does not parse. A shallow clone is refused (its history may be incomplete).

Options:
  --policy P               the policy file (path in the checkout).
  --since REV              only commits after REV (the first is compared with the file at REV).
  --format markdown|json   what to print (default: markdown).
  --evidence GLOB [...]    which changed files are results or reviews (repository paths; default
                           **/*.jsonl **/*.jsonl.gz).
  --fail-on loosening|any  exit 1 when a commit has a loosening (or any flag); default: exit 0.
  --today YYYY-MM-DD       the date for the expiry of the version in force (default: today, UTC).
  -h, --help               this text.

Exit status: 0; 1 with --fail-on when a listed commit is flagged; 3 usage, git or input error.
`;

const FLAGS: Record<string, FlagSpec> = {
  policy: { kind: "one" },
  since: { kind: "one" },
  format: { kind: "one", choices: ["markdown", "json"] },
  evidence: { kind: "many" },
  "fail-on": { kind: "one", choices: ["loosening", "any"] },
  today: { kind: "one" },
  help: { kind: "boolean" },
  h: { kind: "boolean" },
};

export async function policyLogCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const flags = parseFlags(argv, FLAGS, "policy-log");
  if (flags.has("help") || flags.has("h")) {
    io.stdout(POLICY_LOG_HELP);
    return 0;
  }
  const policy = required(flags, "policy", "policy-log");
  const today = one(flags, "today") ?? io.now().toISOString().slice(0, 10);
  if (!isIsoDate(today)) throw new InputError(`--today must be a date YYYY-MM-DD; got "${today}".`);
  const since = one(flags, "since") ?? null;
  const globs = (flags.get("evidence") ?? DEFAULT_EVIDENCE_GLOBS).map((g) =>
    globToRegExp(g.replace(/^\.\//, "")),
  );
  const history = await readPolicyHistory(io.cwd, relative(io.cwd, resolve(io.cwd, policy)), { since });
  const log = buildPolicyLog(history.versions, {
    path: history.repoPath,
    since,
    baseline: history.baseline,
    truncated: history.truncated,
    today,
    isEvidenceFile: (p) => globs.some((re) => re.test(p)),
  });
  io.stdout(one(flags, "format") === "json" ? JSON.stringify(log, null, 2) + "\n" : renderPolicyLog(log));
  const failOn = one(flags, "fail-on");
  if (failOn === "loosening" && log.counts.loosening > 0) return 1;
  if (failOn === "any" && log.entries.some((e) => e.flags.length > 0)) return 1;
  return 0;
}
