/**
 * This gate's runs on the pull request (report key `runs`, docs/runs.md): the re-run line under
 * the headline and the history table, newest first, the first RUN_HISTORY_FOLD rows above a fold.
 * Every cell is generated from validated values (hex commit ids and digests, verdict words,
 * numbers), so nothing here needs escaping beyond what the formatters do.
 */
import { RUN_HISTORY_FOLD, ordinal, shoppingLine, type RunsReport } from "../run-history/runs-report.js";
import type { RunSummary } from "../run-history/run-types.js";
import { formatPp } from "./format-number.js";
import type { Report } from "./report-types.js";
import { plural } from "../words.js";

const DISPLAY_ONLY_NOTE =
  "This history could not be verified against the gate's own check runs (the comment was edited, or the check runs cannot be read): shown only, never used to decide.";

/** A row's cells; `code` sets the commit and the digest in a monospace font (Markdown) or not (text). */
function rowCells(s: RunSummary, i: number, code: (hex: string) => string = (x) => x): string[] {
  return [
    i === 0 ? "this run" : String(i + 1),
    s.head_sha === null ? "—" : code(s.head_sha.slice(0, 7)),
    s.verdict,
    formatPp(s.margin),
    formatPp(s.lcb),
    formatPp(s.ucb),
    code(s.digests.results.slice(0, 8)),
  ];
}

function table(rows: readonly string[][]): string[] {
  return [
    "| Run (newest first) | Commit | Verdict | Δ̂ | LCB | UCB | Results digest |",
    "|---|---|---|--:|--:|--:|---|",
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ];
}

/** "Runs on this commit: 3 (earlier: unresolved, unresolved)." */
function countSentence(runs: RunsReport): string {
  if (runs.unavailable !== null) return `The gate's earlier runs could not be read (${runs.unavailable}).`;
  const earlier = runs.earlier_verdicts.length > 0 ? ` (earlier: ${runs.earlier_verdicts.join(", ")})` : "";
  const other =
    runs.earlier_other_results > 0
      ? ` ${runs.earlier_other_results} earlier ${runs.earlier_other_results === 1 ? "run" : "runs"} had other results: the eval was re-run, not the code changed.`
      : "";
  return `This is the ${ordinal(runs.run_count)} run of this gate on this commit${earlier}.${other}`;
}

function rerunsSentence(runs: RunsReport): string | null {
  const r = runs.reruns;
  if (r.mode === "latest") return null;
  if (r.effect === "none") return `Policy reruns: ${r.mode}.`;
  return `Policy reruns: ${r.mode} made the verdict ${r.effect === "rejected" ? "reject" : "unresolved"}.`;
}

/** The line under the Markdown headline when the verdict moved towards accept over re-runs; [] otherwise. */
export function runsHeadlineMarkdown(report: Report): string[] {
  const line = shoppingLine(report.verdict, report.runs);
  return line === null
    ? []
    : [`**🔁 ${line}** — the eval was re-run on this commit with other results; see the runs below.`];
}

/**
 * Nothing to remember yet: the first run on its commit, no earlier rows, no block problem, and the
 * policy did nothing. The section is left out then (the hidden block still starts the history).
 */
function firstAndPlain(runs: RunsReport): boolean {
  return (
    runs.run_count <= 1 &&
    runs.rows.length <= 1 &&
    runs.rows_not_kept === 0 &&
    runs.history === "none" &&
    runs.unavailable === null &&
    runs.reruns.effect === "none"
  );
}

/** The folded history section; [] without `runs`, or on a first run with nothing to show. */
export function runsMarkdown(report: Report): string[] {
  const runs = report.runs;
  if (runs === undefined || firstAndPlain(runs)) return [];
  const rows = runs.rows.map((s, i) => rowCells(s, i, (x) => `<code>${x}</code>`));
  const above = rows.slice(0, RUN_HISTORY_FOLD);
  const below = rows.slice(RUN_HISTORY_FOLD);
  const body: string[] = [countSentence(runs)];
  const policy = rerunsSentence(runs);
  if (policy !== null) body.push("", policy);
  if (runs.history === "display_only") body.push("", `⚠️ ${DISPLAY_ONLY_NOTE}`);
  body.push("", ...table(above));
  if (below.length > 0)
    body.push(
      "",
      "<details>",
      `<summary>${plural(below.length, "older run")}</summary>`,
      "",
      ...table(below),
      "",
      "</details>",
    );
  if (runs.rows_not_kept > 0)
    body.push("", `_${runs.rows_not_kept} older ${runs.rows_not_kept === 1 ? "run" : "runs"} not kept._`);
  const summary = `<b>Runs of this gate</b> — ${runs.run_count} on this commit${runs.towards_accept ? ", re-run towards accept" : ""}`;
  return ["<details>", `<summary>${summary}</summary>`, "", ...body, "", "</details>"];
}

/** The same in plain text; [] when the Markdown has none. */
export function runsText(report: Report): string[] {
  const runs = report.runs;
  if (runs === undefined || firstAndPlain(runs)) return [];
  const out = ["Runs of this gate (newest first)", `  ${countSentence(runs)}`];
  const line = shoppingLine(report.verdict, runs);
  if (line !== null) out.push(`  ! ${line}`);
  const policy = rerunsSentence(runs);
  if (policy !== null) out.push(`  ${policy}`);
  if (runs.history === "display_only") out.push(`  ! ${DISPLAY_ONLY_NOTE}`);
  runs.rows.forEach((s, i) => {
    const [run, commit, verdict, margin, lcb, ucb, digest] = rowCells(s, i);
    out.push(
      `  ${(run ?? "").padEnd(8)} ${(commit ?? "").padEnd(7)} ${(verdict ?? "").padEnd(10)} Δ̂ ${margin ?? ""}  LCB ${lcb ?? ""}  UCB ${ucb ?? ""}  results ${digest ?? ""}`,
    );
  });
  if (runs.rows_not_kept > 0) out.push(`  ${plural(runs.rows_not_kept, "older run")} not kept.`);
  return out;
}
