/**
 * The policy log (model-gate policy-log) as Markdown. Commit text (author, subject, paths) and
 * policy values are untrusted: all of it goes through escape.ts.
 */
import type { PolicyLog, PolicyLogFlag } from "../history/policy-log.js";
import { escapeCode, escapeMarkdownInline } from "./escape.js";

const FLAG_TEXT: Readonly<Record<PolicyLogFlag, string>> = {
  loosening: "⚠️ loosening",
  snoozed: "⏰ snoozed (revisit later, no threshold re-examined)",
  owner_changed: "👤 owner changed",
  expired: "⌛ expired before the next change",
  with_evidence: "📦 changed with results/reviews",
  unparsable: "❌ does not parse",
};

function value(v: string | null): string {
  return v === null ? "_(absent)_" : escapeCode(v, 100);
}

export function renderPolicyLog(log: PolicyLog): string {
  const c = log.counts;
  const lines = [
    `## Policy log of ${escapeCode(log.path, 200)}`,
    "",
    `${c.commits} ${c.commits === 1 ? "commit" : "commits"}${log.since === null ? "" : ` since ${escapeCode(log.since, 80)}`}, oldest first: ` +
      `${c.loosening} with a loosening, ${c.snoozed} snoozed, ${c.owner_changed} owner changes, ` +
      `${c.expired} expired before the next change, ${c.with_evidence} changed with results/reviews, ` +
      `${c.unparsable} that do not parse.`,
  ];
  for (const e of log.entries) {
    lines.push(
      "",
      `### ${escapeCode(e.commit.slice(0, 12), 20)} ${escapeMarkdownInline(e.date, 40)} — ${escapeMarkdownInline(e.subject, 200)}`,
      "",
      `By ${escapeMarkdownInline(e.author, 100)} · ${e.status} ${escapeCode(e.path, 200)}` +
        (e.owner === null
          ? ""
          : ` · owner ${escapeMarkdownInline(e.owner, 80)} · revisit by ${escapeMarkdownInline(e.revisit ?? "", 20)}`),
    );
    if (e.flags.length > 0) lines.push("", `**${e.flags.map((f) => FLAG_TEXT[f]).join(" · ")}**`);
    if (e.parse_error !== null)
      lines.push("", `This version does not parse: ${escapeMarkdownInline(e.parse_error, 400)}`);
    if (e.expired !== null) {
      lines.push(
        "",
        `Expired: revisit by ${escapeMarkdownInline(e.expired.revisit, 20)} passed ${e.expired.until === null ? "and it is still in force" : `before the next change on ${escapeMarkdownInline(e.expired.until, 20)}`}.`,
      );
    }
    if (e.evidence_files_total > 0) {
      const more = e.evidence_files_total - e.evidence_files.length;
      lines.push(
        "",
        `Also changed: ${e.evidence_files.map((f) => escapeCode(f, 120)).join(", ")}${more > 0 ? ` and ${more} more` : ""}.`,
      );
    }
    if (e.changes.length > 0) {
      lines.push("", "| Rule | Before | After | Change |", "|:--|:--|:--|:--|");
      for (const ch of e.changes) {
        lines.push(
          `| ${escapeCode(ch.key, 80)} | ${value(ch.base)} | ${value(ch.head)} | ${ch.loosening ? "⚠️ loosening" : "—"} |`,
        );
      }
    } else if (e.parse_error === null && e.status !== "deleted") {
      lines.push("", e.compared_with === null ? "First version." : "No rule changed (text only).");
    }
  }
  return lines.join("\n") + "\n";
}
