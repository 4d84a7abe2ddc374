/**
 * The words and table rows of the rank report, shared by the Markdown and the text renderers
 * (each gives its own Inline: escaped for Markdown, neutralised for a terminal). Untrusted text —
 * model ids, task ids, evidence, revisions, the policy's owner and path — only ever goes through
 * `f.text` / `f.code`; everything else is generated here.
 */
import {
  formatCount,
  formatDecimal,
  formatPercent,
  formatPercentInterval,
  formatPp,
  formatSignedDecimal,
} from "../report/format-number.js";
import type { Inline } from "../report/verdict-text.js";
import type { RankModel, RankPair, RankReport, ReviewFirst } from "./rank-types.js";

/** Appends lines and lists of lines, one by one (no argument spread: test/hardening/scale.test.ts). */
export function add(out: string[], ...parts: readonly (string | readonly string[])[]): void {
  for (const part of parts) {
    if (typeof part === "string") out.push(part);
    else for (const line of part) out.push(line);
  }
}

/** Up to this many models the pairs are shown as a matrix; beyond, as a list of the unresolved pairs. */
export const PAIR_MATRIX_MAX_MODELS = 12;

/** Model ids are cut to this many characters in tables. */
export const MODEL_ID_CHARS = 60;

export interface Detail {
  /** Unresolved pairs listed (matrix off). */
  readonly pairs: number;
  /** Tasks listed per adjacent pair to review. */
  readonly tasks: number;
  /** The pair matrix at all (else the list). */
  readonly matrix: boolean;
  /** The Mermaid score chart (Markdown only). */
  readonly chart: boolean;
}

export const FULL_DETAIL: Detail = { pairs: 40, tasks: 10, matrix: true, chart: true };
/** Smaller lists, tried when the full document is over the size limit. */
export const SHORT_DETAILS: readonly Detail[] = [
  { pairs: 15, tasks: 5, matrix: true, chart: true },
  { pairs: 5, tasks: 3, matrix: false, chart: true },
  { pairs: 0, tasks: 0, matrix: false, chart: false },
];

export const RANK_TITLE = "Model ranking";

/**
 * The top of every rendering (Markdown, text, HTML): the title with the headline, the summary
 * sentences and the warnings, each made safe by `f`; each renderer lays them out its own way.
 */
export function rankHeader(
  r: RankReport,
  f: Inline,
): { title: string; summary: string[]; warnings: string[] } {
  return {
    title: `${f.gen(RANK_TITLE)}: ${headline(r, f)}`,
    summary: summaryLines(r, f),
    warnings: r.warnings.map((w) => f.text(w, 400)),
  };
}

export function headline(r: RankReport, f: Inline): string {
  return r.top === null
    ? f.gen(`the top is unresolved: ${r.groups[0]?.length ?? 0} models in the top group`)
    : `${f.code(r.top, MODEL_ID_CHARS)} ${f.gen("is on top")}`;
}

function yesNo(x: boolean | null): string {
  return x === null ? "n/a" : x ? "yes" : "no";
}

/** The sentences under the headline: the set, the adjustment, the seed's question. */
export function summaryLines(r: RankReport, f: Inline): string[] {
  const a = r.adjustment;
  const top = r.models[0];
  const open =
    r.unresolved_tasks === 0
      ? "no open labels"
      : `${r.unresolved_tasks} open (${r.disputed_tasks} disputed, ${r.unreviewed_tasks} unreviewed)`;
  const lines = [
    f.gen(
      `${r.models.length} models on one common set: ${r.common_valid_tasks} valid tasks every model has a score on, ${open}, ${r.broken_tasks} broken left out.`,
    ),
    f.gen(
      `${a.ordered_pairs} of ${a.pairs} pairs ordered by Holm's step-down over the pairs (family α = ${formatPercent(a.family_alpha)}, each directional claim one-sided at α/(m − r); last level ${formatDecimal(a.final_level, 5)}).`,
    ),
  ];
  if (top !== undefined) {
    lines.push(
      `${f.gen("Is")} ${f.code(top.model, MODEL_ID_CHARS)} ${f.gen(
        `(the highest score) on top under every resolution of the open labels? ${yesNo(r.top_validity_resolved)}. With run variance too? ${yesNo(r.top_resolved)}.`,
      )}`,
    );
  }
  return lines;
}

export function leaderboardHeader(r: RankReport): string[] {
  const head = ["rank", "model", "score", "validity interval", "rank range", "group"];
  if (r.reference !== null) head.push("vs reference");
  return head;
}

export function leaderboardRows(r: RankReport, f: Inline): string[][] {
  return r.models.map((m, i) => {
    const row = [
      f.gen(String(i + 1)),
      f.code(m.model, MODEL_ID_CHARS) + (m.model === r.reference ? f.gen(" (reference)") : ""),
      f.gen(formatPercent(m.score)),
      f.gen(formatPercentInterval(m.interval)),
      f.gen(m.rank_low === m.rank_high ? String(m.rank_low) : `${m.rank_low}–${m.rank_high}`),
      f.gen(String(m.group)),
    ];
    if (r.reference !== null) row.push(f.gen(m.vs_reference ?? "—"));
    return row;
  });
}

/** The pair of two models, whichever way round the report holds it, as seen from `x`. */
export function pairFrom(r: RankReport, x: string, y: string): { pair: RankPair; flipped: boolean } | null {
  for (const pair of r.pairs) {
    if (pair.a === x && pair.b === y) return { pair, flipped: false };
    if (pair.a === y && pair.b === x) return { pair, flipped: true };
  }
  return null;
}

/** A matrix cell: row model vs column model. */
function matrixCell(r: RankReport, row: RankModel, col: RankModel): string {
  if (row === col) return "·";
  const found = pairFrom(r, row.model, col.model);
  if (found === null) return "?";
  const { pair, flipped } = found;
  const margin = pair.margin === null ? null : flipped ? -pair.margin : pair.margin;
  const m = formatPp(margin, 1).replace(" pp", "");
  if (pair.relation === "unresolved") return `≈ ${m} ${pair.unresolved_by === "validity" ? "v" : "r"}`;
  const rowAbove = (pair.relation === "a_better") !== flipped;
  return `${rowAbove ? "▲" : "▼"} ${m}`;
}

/** The pair matrix: header (#1 … #K) and one row per model, in rank order. */
export function matrixRows(r: RankReport, f: Inline): { header: string[]; rows: string[][] } {
  const header = ["", ...r.models.map((_, i) => f.gen(`#${i + 1}`))];
  const rows = r.models.map((row, i) => [
    `${f.gen(`#${i + 1}`)} ${f.code(row.model, 30)}`,
    ...r.models.map((col) => f.gen(matrixCell(r, row, col))),
  ]);
  return { header, rows };
}

export const MATRIX_LEGEND =
  "Row vs column, margin in pp: ▲ row ordered above, ▼ below, ≈ unresolved (v: the open labels alone decide it; r: run variance).";

export const PAIR_HEADER = ["pair", "margin", "validity band", "SE", "LCB … UCB", "level", "relation"];

export function pairRow(p: RankPair, f: Inline): string[] {
  const relation =
    p.relation === "a_better"
      ? "first above"
      : p.relation === "b_better"
        ? "second above"
        : `unresolved (${p.unresolved_by === "validity" ? "validity" : "run variance"})`;
  return [
    `${f.code(p.a, 40)} ${f.gen("vs")} ${f.code(p.b, 40)}`,
    f.gen(formatPp(p.margin)),
    f.gen(`${formatPp(p.margin_low)} … ${formatPp(p.margin_high)}`),
    f.gen(formatPp(p.se).replace("+", "")),
    f.gen(`${formatPp(p.lcb)} … ${formatPp(p.ucb)}`),
    f.gen(formatDecimal(p.level, 5)),
    f.gen(relation),
  ];
}

const neg = (x: number | null): number | null => (x === null ? null : -x);

/** The pair seen from b: b − a, its bounds swapped and negated, the relation mirrored. */
export function flipPair(p: RankPair): RankPair {
  return {
    ...p,
    a: p.b,
    b: p.a,
    margin: neg(p.margin),
    margin_low: neg(p.margin_high),
    margin_high: neg(p.margin_low),
    lcb: neg(p.ucb),
    ucb: neg(p.lcb),
    lcb_bound_kind: p.ucb_bound_kind,
    ucb_bound_kind: p.lcb_bound_kind,
    relation: p.relation === "a_better" ? "b_better" : p.relation === "b_better" ? "a_better" : "unresolved",
  };
}

/** Adjacent pairs in rank order, each seen from the higher-ranked model. */
export function adjacentPairs(r: RankReport): RankPair[] {
  const out: RankPair[] = [];
  for (let i = 0; i + 1 < r.models.length; i++) {
    const hi = r.models[i] as RankModel;
    const lo = r.models[i + 1] as RankModel;
    const found = pairFrom(r, hi.model, lo.model);
    if (found !== null) out.push(found.flipped ? flipPair(found.pair) : found.pair);
  }
  return out;
}

export function unresolvedPairs(r: RankReport): RankPair[] {
  return r.pairs.filter((p) => p.relation === "unresolved");
}

export function reviewSentence(x: ReviewFirst, f: Inline): string {
  const n = (k: number | null): string =>
    k === null ? "no resolution can" : `at least ${k} review${k === 1 ? "" : "s"}`;
  return `${f.code(x.a, MODEL_ID_CHARS)} ${f.gen("vs")} ${f.code(x.b, MODEL_ID_CHARS)}${f.gen(
    `: the open labels alone decide this order. To settle it ${n(x.reviews_to_settle_a_better)} (first above) or ${n(x.reviews_to_settle_b_better)} (second above), if they come out that way; review these first:`,
  )}`;
}

export const TASK_HEADER = ["task", "label", "d", "evidence"];

export function taskRows(
  x: ReviewFirst,
  limit: number,
  f: Inline,
  evidence: (e: string) => string,
): string[][] {
  return x.tasks
    .slice(0, limit)
    .map((t) => [
      f.code(t.task_id, 80),
      f.gen(t.validity),
      f.gen(formatSignedDecimal(t.d)),
      t.evidence.length === 0 ? f.gen("—") : t.evidence.slice(0, 3).map(evidence).join(", "),
    ]);
}

export const COMMON_HEADER = ["model", "its absence adds back", "of them valid", "harness revisions"];

export function commonRows(r: RankReport, f: Inline): string[][] {
  return r.models.map((m) => [
    f.code(m.model, MODEL_ID_CHARS),
    f.gen(formatCount(m.absence_adds_back)),
    f.gen(formatCount(m.absence_adds_back_valid)),
    m.harness_revisions.length === 0
      ? f.gen("—")
      : m.harness_revisions
          .slice(0, 3)
          .map((h) => f.code(h, 40))
          .join(", "),
  ]);
}

export function settingsLines(r: RankReport, f: Inline): string[] {
  const s = r.settings;
  const p = r.provenance;
  return [
    f.gen(
      `Settings: confidence ${s.confidence}, quantile ${s.quantile}, standard error ${s.standard_error}${s.standard_error === "clustered" ? ` (${s.cluster_correction})` : ""}, validity bound ${s.validity_bound}, infra errors ${s.infra_errors}, common valid tasks ${s.common_valid_tasks_threshold}.`,
    ),
    `${f.gen("Policy")} ${f.code(p.policy.path, 120)} ${f.gen(`(sha256 ${p.policy.sha256.slice(0, 12)}…), owner`)} ${f.text(p.policy.owner, 80)}${f.gen(`, revisit ${p.policy.revisit}.`)}`,
    `${f.gen("Inputs:")} ${p.inputs.map((i) => `${f.code(i.path, 120)} ${f.gen(`(sha256 ${i.sha256.slice(0, 12)}…)`)}`).join(", ")}${f.gen(
      `; ${p.rows_read} rows, read ${p.passes} time${p.passes === 1 ? "" : "s"}; model-gate ${p.tool_version}.`,
    )}`,
  ];
}
