/**
 * The policy log as Markdown: the whole log (model-gate policy-log) and the few lines of recent
 * history in the PR report's policy section. Commit text (author, subject, paths) and policy values
 * are untrusted: all of it goes through escape.ts.
 */
import type { PolicyLog, PolicyLogEntry, PolicyLogFlag } from "../history/policy-log.js";
import { escapeCode, escapeMarkdownInline } from "./escape.js";
import type { PolicyChange } from "../verdict-types.js";
import type { PolicyHistoryReport } from "./report-types.js";
import { markdownProse } from "./prose.js";
import { cellCode } from "./table-cells.js";

const FLAG_TEXT: Readonly<Record<PolicyLogFlag, string>> = {
  loosening: "⚠️ loosening",
  snoozed: "⏰ snoozed (revisit later, no threshold re-examined)",
  owner_changed: "👤 owner changed",
  expired: "⌛ expired before the next change",
  with_evidence: "📦 changed with results or reviews",
  unparsable: "❌ does not parse",
};

/** Shorter flag labels for one-line entries. */
const FLAG_SHORT: Readonly<Record<PolicyLogFlag, string>> = {
  loosening: "⚠️ loosening",
  snoozed: "⏰ snoozed",
  owner_changed: "👤 owner changed",
  expired: "⌛ expired",
  with_evidence: "📦 with results or reviews",
  unparsable: "❌ does not parse",
};

/** A flag's label; a flag this version does not know (a hand-edited report) is shown escaped. */
function flagText(labels: Readonly<Record<PolicyLogFlag, string>>, f: PolicyLogFlag): string {
  return Object.hasOwn(labels, f) ? labels[f] : escapeMarkdownInline(f, 40);
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The cells of a changed rule: rule, before, after, change (the PR report's policy table too). */
export function policyChangeCells(c: PolicyChange): string[] {
  // Four columns of policy text: break their runs sooner than a task id's.
  const value = (v: string | null): string => (v === null ? "_(absent)_" : cellCode(v, 100, 32, 16));
  return [cellCode(c.key, 80, 32, 16), value(c.base), value(c.head), c.loosening ? "⚠️ loosening" : "—"];
}

function shortCommit(commit: string): string {
  return escapeCode(commit.slice(0, 12), 20);
}

/** "2026-03-04": the author's calendar day as written in the date. */
function dayOf(iso: string): string {
  return escapeMarkdownInline(iso.slice(0, 10), 20);
}

function statusText(e: PolicyLogEntry): string {
  if (e.status === "renamed" && e.previous_path !== null)
    return `renamed from ${escapeCode(e.previous_path, 200)} to ${escapeCode(e.path, 200)}`;
  return `${escapeMarkdownInline(e.status, 20)} ${escapeCode(e.path, 200)}`;
}

function entryLines(e: PolicyLogEntry, index: number): string[] {
  const lines = [
    `### ${index}. ${shortCommit(e.commit)} ${escapeMarkdownInline(e.date, 40)} — ${escapeMarkdownInline(e.subject, 200)}`,
    "",
    `By ${escapeMarkdownInline(e.author, 100)} · ${statusText(e)}` +
      (e.owner === null
        ? ""
        : ` · owner ${escapeMarkdownInline(e.owner, 80)} · revisit by ${escapeMarkdownInline(e.revisit ?? "", 20)}`),
  ];
  if (e.flags.length > 0) lines.push("", `**${e.flags.map((f) => flagText(FLAG_TEXT, f)).join(" · ")}**`);
  if (e.parse_error !== null) lines.push("", `This version does not parse: ${markdownProse(e.parse_error)}`);
  if (e.expired !== null) {
    lines.push(
      "",
      `Expired: its revisit date ${escapeMarkdownInline(e.expired.revisit, 20)} passed ` +
        (e.expired.until === null
          ? "and it is still in force."
          : `before the next change, on ${escapeMarkdownInline(e.expired.until, 20)}.`),
    );
  }
  if (e.evidence_files_total > 0) {
    const more = e.evidence_files_total - e.evidence_files.length;
    lines.push(
      "",
      `Changed with the policy: ${e.evidence_files.map((f) => escapeCode(f, 120)).join(", ")}${more > 0 ? ` and ${more} more` : ""}.`,
    );
  }
  if (e.changes.length > 0) {
    lines.push(
      "",
      `Against ${e.compared_with === null ? "the previous version" : shortCommit(e.compared_with)}:`,
      "",
      "| Rule | Before | After | Change |",
      "|:--|:--|:--|:--|",
    );
    for (const c of e.changes) lines.push(`| ${policyChangeCells(c).join(" | ")} |`);
  } else if (e.status === "deleted") {
    lines.push("", "The policy file was removed.");
  } else if (e.parse_error === null) {
    lines.push(
      "",
      e.compared_with !== null
        ? `No rule changed against ${shortCommit(e.compared_with)} (text only).`
        : e.status === "added"
          ? "First version."
          : "Not compared: no earlier version that parses.",
    );
  }
  return lines;
}

/** The whole log: a summary line, then each commit, oldest first. */
export function renderPolicyLog(log: PolicyLog): string {
  const c = log.counts;
  const lines = [
    `## Policy log of ${escapeCode(log.path, 200)}`,
    "",
    `${count(c.commits, "commit", "commits")}${log.since === null ? "" : ` since ${escapeCode(log.since, 80)}`}, oldest first: ` +
      `${c.loosening} with a loosening, ${c.snoozed} snoozed, ${count(c.owner_changed, "owner change", "owner changes")}, ` +
      `${c.expired} expired before the next change, ${c.with_evidence} changed with results or reviews, ` +
      `${c.unparsable} that ${c.unparsable === 1 ? "does" : "do"} not parse. Expiry is checked against ${escapeMarkdownInline(log.today, 20)}.`,
  ];
  if (log.truncated)
    lines.push("", "Only the newest commits are listed; `--since REV` reads a shorter range.");
  // No spread into push: the number of commits comes from the repository.
  log.entries.forEach((e, i) => {
    lines.push("");
    for (const line of entryLines(e, i + 1)) lines.push(line);
  });
  return lines.join("\n") + "\n";
}

/** One line per change: commit, day, author, subject, then its loosenings and other flags. */
function historyItem(e: PolicyLogEntry): string {
  const loosenings = e.changes.filter((c) => c.loosening);
  const parts: string[] = [];
  if (loosenings.length > 0)
    parts.push(
      `⚠️ ${count(loosenings.length, "loosening", "loosenings")}: ` +
        loosenings
          .slice(0, 3)
          .map(
            (c) =>
              `${escapeCode(c.key, 60)} ${c.base === null ? "_(absent)_" : escapeCode(c.base, 40)} → ${c.head === null ? "_(absent)_" : escapeCode(c.head, 40)}`,
          )
          .join(", ") +
        (loosenings.length > 3 ? ` and ${loosenings.length - 3} more` : ""),
    );
  else if (e.parse_error !== null) parts.push("❌ does not parse");
  else if (e.status === "deleted") parts.push("removed");
  else if (e.compared_with === null) parts.push(e.status === "added" ? "first version" : "not compared");
  else parts.push(count(e.changes.length, "rule changed", "rules changed"));
  for (const f of e.flags) if (f !== "loosening" && f !== "unparsable") parts.push(flagText(FLAG_SHORT, f));
  return (
    `- ${shortCommit(e.commit)} ${dayOf(e.date)} ${escapeMarkdownInline(e.author, 60)} — ` +
    `${escapeMarkdownInline(e.subject, 120)}: ${parts.join(" · ")}`
  );
}

/** The PR report's lines on the deciding policy's recent history. */
export function policyHistoryLines(h: PolicyHistoryReport): string[] {
  if (h.unavailable !== null)
    return [`Recent history of the base policy: not available (${markdownProse(h.unavailable)}).`];
  if (h.entries.length === 0) return ["Recent history of the base policy: no commit changed it."];
  return [
    `Recent history of the base policy at ${shortCommit(h.rev)}, the last ${count(h.entries.length, "change", "changes")}, oldest first` +
      `${h.earlier ? " (earlier ones: `model-gate policy-log`)" : ""}:`,
    "",
    ...h.entries.map(historyItem),
  ];
}
