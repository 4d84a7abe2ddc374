import { resolve, relative } from "node:path";
import { InputError } from "../core/errors.js";
import { buildPolicyLog } from "../core/history/policy-log.js";
import { renderPolicyLog } from "../core/report/render-policy-log.js";
import { globToRegExp } from "../action/glob.js";
import { readPolicyHistory } from "../git/policy-history.js";
import { one, parseFlags, required, type FlagSpec } from "./args.js";
import type { CliIo } from "./io.js";

export const POLICY_LOG_HELP = `Usage: model-gate policy-log --policy P [options]

In a git checkout: every commit that changed the policy file (following renames), oldest first,
with author, date, subject and each changed rule (the PR report's semantic diff; loosenings
marked), and flags: a loosening, a snoozed revisit date (moved later, no threshold changed), an
owner change, a period when the policy was expired, a commit that also changed results or reviews
files, a version that does not parse.

Options:
  --policy P               the policy file (path in the checkout).
  --since REV              only commits after REV (compared with the version at REV).
  --format markdown|json   what to print (default: markdown).
  --evidence GLOB [...]    which changed files are results or reviews (repository paths; default
                           **/*.jsonl and **/*.jsonl.gz).
  --fail-on loosening|any  exit 1 when a commit has a loosening (or any flag); default: exit 0.
  --today YYYY-MM-DD       the date for the last version's expiry (default: today, UTC).
  -h, --help               this text.

Exit status: 0, or 1 with --fail-on; 3 usage, git or input error.
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

const DEFAULT_EVIDENCE = ["**/*.jsonl", "**/*.jsonl.gz"];

export async function policyLogCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const flags = parseFlags(argv, FLAGS, "policy-log");
  if (flags.has("help") || flags.has("h")) {
    io.stdout(POLICY_LOG_HELP);
    return 0;
  }
  const policy = required(flags, "policy", "policy-log");
  const today = one(flags, "today") ?? io.now().toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new InputError(`--today must be YYYY-MM-DD; got "${today}".`);
  const since = one(flags, "since") ?? null;
  const globs = (flags.get("evidence") ?? DEFAULT_EVIDENCE).map((g) => globToRegExp(g));
  const rel = relative(io.cwd, resolve(io.cwd, policy)).split("\\").join("/");
  const history = await readPolicyHistory(io.cwd, rel, { since });
  if (history.versions.length === 0) {
    throw new InputError(
      `No commit changed ${policy}${since === null ? "" : ` since ${since}`} (is it tracked by git?).`,
    );
  }
  const log = buildPolicyLog(history.versions, {
    path: history.repoPath,
    since,
    sinceText: history.sinceText,
    today,
    isEvidenceFile: (p) => globs.some((re) => re.test(p)),
  });
  const json = one(flags, "format") === "json";
  io.stdout(
    json
      ? JSON.stringify({ ...log, shallow: history.shallow }, null, 2) + "\n"
      : renderPolicyLog(log) +
          (history.shallow
            ? "\nThis checkout is shallow: older commits are not in it (fetch-depth: 0 reads them all).\n"
            : ""),
  );
  const failOn = one(flags, "fail-on");
  if (failOn === "loosening" && log.counts.loosening > 0) return 1;
  if (failOn === "any" && log.entries.some((e) => e.flags.length > 0)) return 1;
  return 0;
}
