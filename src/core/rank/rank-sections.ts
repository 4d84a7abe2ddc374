/**
 * The words and table rows of the rank report, shared by the Markdown and the text renderers
 * (each gives its own Inline: escaped for Markdown, neutralised for a terminal). Untrusted text —
 * model ids, task ids, evidence, revisions, the policy's owner and path — only ever goes through
 * `f.text` / `f.code`; everything else is generated here.
 */
import { formatMetric } from "../report/render-guardrails.js";
import {
  formatCount,
  formatDecimal,
  formatPercent,
  formatPercentInterval,
  formatPp,
  formatSignedDecimal,
} from "../report/format-number.js";
import type { Inline } from "../report/verdict-text.js";
import { labelMap, WHOLE_ID_CHARS } from "./model-labels.js";
import type { RankModel, RankPair, RankReport, ReviewFirst } from "./rank-types.js";
import { plural } from "../words.js";

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

/** The headline names this many models that could be first, then counts the rest. */
export const HEADLINE_MODELS = 10;

const labelsByReport = new WeakMap<RankReport, Map<number, ReadonlyMap<string, string>>>();

/**
 * A model id as shown in the report's prose and tables: cut to about `chars` characters from the
 * middle so that no two ranked models share a label (model-labels.ts); the JSON has the whole id.
 */
export function modelLabel(r: RankReport, id: string, chars = MODEL_ID_CHARS): string {
  let byChars = labelsByReport.get(r);
  if (byChars === undefined) {
    byChars = new Map();
    labelsByReport.set(r, byChars);
  }
  let labels = byChars.get(chars);
  if (labels === undefined) {
    labels = labelMap(
      r.models.map((m) => m.model),
      chars,
    );
    byChars.set(chars, labels);
  }
  return labels.get(id) ?? id;
}

/** modelLabel made safe by `f` (as code). */
export function modelCode(r: RankReport, f: Inline, id: string, chars = MODEL_ID_CHARS): string {
  return f.code(modelLabel(r, id, chars), WHOLE_ID_CHARS);
}

/**
 * What the leaderboard says about ranks and groups, in every format: who could be first, and
 * that a group is a stretch the evidence separates from the next, not a tie.
 */
export const RANK_NOTE =
  "A model's rank lies in its rank range; it could be first exactly when that range starts at 1 (no model is ordered above it). " +
  "Groups are stretches of the leaderboard the evidence separates: every model of a group is ordered above every model of a later group. " +
  "Inside a group some pairs may be ordered too, so a group is not a tie, and group 1 is not the set of models that could be first.";

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
  if (r.top !== null)
    return `${modelCode(r, f, r.top)} ${f.gen("is first: ordered above every other model")}`;
  const first = r.could_be_first;
  const names = first
    .slice(0, HEADLINE_MODELS)
    .map((id) => modelCode(r, f, id))
    .join(f.gen(", "));
  const more =
    first.length > HEADLINE_MODELS
      ? f.gen(` and ${first.length - HEADLINE_MODELS} more (marked in the leaderboard)`)
      : "";
  const lead =
    first.length === 1
      ? "the top is not taken as resolved (the history was rewritten); could be first: "
      : `the top is unresolved: ${first.length} models could be first: `;
  return `${f.gen(lead)}${names}${more}`;
}

function yesNo(x: boolean | null): string {
  return x === null ? "n/a" : x ? "yes" : "no";
}

/** The sentences under the headline: the set, the family's guarantee, the seed's question. */
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
      `${a.ordered_pairs} of ${a.pairs} pairs ordered. ${a.guarantee} Last level ${formatDecimal(a.final_level, 5)}.`,
    ),
  ];
  if (top !== undefined) {
    lines.push(
      `${f.gen("Is")} ${modelCode(r, f, top.model)} ${f.gen(
        `(${top.score === null ? "first in the score order" : "the highest score"}) on top under every resolution of ${r.settings.infra_errors === "bound" ? "the open labels and the lost results" : "the open labels"}? ${yesNo(r.top_validity_resolved)}. With run variance too? ${yesNo(r.top_resolved)}.`,
      )}`,
    );
  }
  return lines;
}

export function leaderboardHeader(r: RankReport): string[] {
  const head = ["rank", "model", "score", "validity interval", "rank range", "could be first", "group"];
  if (r.reference !== null) head.push("vs reference");
  // Figures only: the ranking makes no claim from them (docs/rank.md "Cost and latency").
  for (const m of r.models[0]?.metrics ?? []) head.push(`${m.metric} mean`);
  return head;
}

export function leaderboardRows(r: RankReport, f: Inline): string[][] {
  return r.models.map((m, i) => {
    const row = [
      f.gen(String(i + 1)),
      modelCode(r, f, m.model) + (m.model === r.reference ? f.gen(" (reference)") : ""),
      f.gen(formatPercent(m.score)),
      f.gen(formatPercentInterval(m.interval)),
      f.gen(m.rank_low === m.rank_high ? String(m.rank_low) : `${m.rank_low}–${m.rank_high}`),
      f.gen(m.rank_low === 1 ? "yes" : "no"),
      f.gen(String(m.group)),
    ];
    if (r.reference !== null) row.push(f.gen(m.vs_reference ?? "—"));
    for (const x of m.metrics ?? []) row.push(f.gen(formatMetric(x.mean)));
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
    `${f.gen(`#${i + 1}`)} ${modelCode(r, f, row.model, 30)}`,
    ...r.models.map((col) => f.gen(matrixCell(r, row, col))),
  ]);
  return { header, rows };
}

/** The pair matrix's legend; under infra_errors: bound the lost results, too, can decide a "v" pair. */
export function matrixLegend(r: RankReport): string {
  const v = r.settings.infra_errors === "bound" ? "the open labels or the lost results" : "the open labels";
  return `Row vs column, margin in pp: ▲ row ordered above, ▼ below, ≈ unresolved (v: ${v} can decide it; r: run variance, or an exact tie no label moves).`;
}

export const PAIR_HEADER = ["pair", "margin", "validity band", "SE", "LCB … UCB", "level", "relation"];

export function pairRow(r: RankReport, p: RankPair, f: Inline): string[] {
  const relation =
    p.relation === "a_better"
      ? "first above"
      : p.relation === "b_better"
        ? "second above"
        : `unresolved (${p.unresolved_by === "validity" ? "validity" : "run variance"})`;
  return [
    `${modelCode(r, f, p.a, 40)} ${f.gen("vs")} ${modelCode(r, f, p.b, 40)}`,
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

/**
 * What settles an adjacent pair the open labels can decide, each direction on its own; `shown`
 * tasks follow (none: the sentence does not announce them).
 */
export function reviewSentence(r: RankReport, x: ReviewFirst, f: Inline, shown: number): string {
  const way = (k: number | null, side: string): string =>
    k === null
      ? `no resolution of the open labels puts the ${side} above`
      : `at least ${plural(k, "review")} could put the ${side} above, if ${k === 1 ? "it comes" : "they come"} out that way`;
  return `${modelCode(r, f, x.a)} ${f.gen("vs")} ${modelCode(r, f, x.b)}${f.gen(
    `: the open labels${r.settings.infra_errors === "bound" ? " or the lost results" : ""} can decide this order. ${capitalised(way(x.reviews_to_settle_a_better, "first"))}; ${way(x.reviews_to_settle_b_better, "second")}.${shown > 0 ? " Review these first:" : ""}`,
  )}`;
}

function capitalised(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
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
    modelCode(r, f, m.model),
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
      `; ${p.rows_read} rows, read ${plural(p.passes, "time")}; model-gate ${p.tool_version}.`,
    )}`,
  ];
}
