/**
 * `model-gate rank`: several model configs ranked on one common task set (docs/rank.md). The
 * shell reads its inputs (src/read/read-models.ts), calls the pure core (rankByBenchmark) and prints or
 * writes the report; the exit status is the gate's verdict (docs/rank.md "Gating").
 */
import { resolve } from "node:path";
import { InputError } from "../core/errors.js";
import { planRank } from "../core/rank/plan-rank.js";
import { rankByBenchmark } from "../core/rank/rank-benchmarks.js";
import {
  renderRankResultGateMarkdown,
  renderRankResultHtml,
  renderRankResultMarkdown,
  renderRankResultText,
} from "../core/rank/render-rank-benchmarks.js";
import { neutraliseLogLines } from "../core/report/escape.js";
import { jsonChunks } from "../core/report/report-json.js";
import { checkOutputTarget } from "../io/file-kind.js";
import { expandFileArgs } from "../io/glob.js";
import { readRankInputs } from "../read/read-models.js";
import { TOOL_VERSION } from "../version.js";
import { one, parseFlags, required, type FlagSpec } from "./args.js";
import {
  displayAs,
  parseAsOfReview,
  readPolicyText,
  todayUtc,
  VERDICT_EXIT,
  writeReport,
} from "./evaluate-command.js";
import type { CliIo } from "./io.js";

export const RANK_HELP = `Usage: model-gate rank --results F [F ...] --policy P [--models A,B,C] [options]

Ranks several model configs on one common task set: every pair's margin with its validity
bounds and run variance, the max-t step-down over the pairs, rank intervals and the groups of
models the evidence cannot order (docs/rank.md). An export of several benchmarks is ranked
within each benchmark; the gate passes only if it passes in every one.

Required:
  --results F [F ...]     results export files (.jsonl or .jsonl.gz), as for evaluate.
  --policy P              the policy (YAML): its confidence, standard error, validity bound,
                          infra_errors and common_valid_tasks apply.

Options:
  --models A,B,C          the model_config ids to rank (at least 2), comma-separated, or as
                          several values; pairs are (A, B), (A, C), (B, C) in this order.
                          Default: every model in the export, in sorted order.
  --reference M           the current production config: each model is placed above, below or
                          unresolved against it. Default: the policy's rank.reference.
  --candidate M           the model the policy's rank.require is about (top_group,
                          above_reference): the gate's verdict sets the exit status.
  --reviews R [R ...]     review files, as for evaluate.
  --format markdown|json|text|html
                          what to print on stdout (default: markdown; html: one
                          self-contained page with the score chart and the pair matrix).
  --report OUT.json       also write the rank report JSON to OUT.json (atomically).
  --today YYYY-MM-DD      the date used for the policy's revisit check (default: today, UTC).
  --previous-results F [F ...], --previous-reviews R [R ...]
                          the previous versions of the results and reviews files: every earlier
                          row must still be there, unchanged (docs/history.md); a rewritten
                          history keeps the top from being resolved (exit 2).
  --as-of-review N        only labels with review_revision <= N count (tasks without a label by
                          then are unreviewed): the ranking as it stood at review revision N.
  -h, --help              this text.

Reads the export once, whatever the number of models.
Exit status: the gate's verdict (docs/rank.md "Gating"): 0 accept, 1 reject, 2 unresolved; with
the default rank.require (top_resolved), 0 the top model is resolved, 2 the top is unresolved (a
tie at the top). 3 input, policy or usage error, 4 internal error.
`;

const FLAGS: Record<string, FlagSpec> = {
  results: { kind: "many" },
  reviews: { kind: "many" },
  policy: { kind: "one" },
  models: { kind: "many" },
  reference: { kind: "one" },
  candidate: { kind: "one" },
  format: { kind: "one", choices: ["markdown", "json", "text", "html"] },
  report: { kind: "one" },
  today: { kind: "one" },
  "as-of-review": { kind: "one" },
  "previous-results": { kind: "many" },
  "previous-reviews": { kind: "many" },
  help: { kind: "boolean" },
  h: { kind: "boolean" },
};

export async function rankCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const flags = parseFlags(argv, FLAGS, "rank");
  if (flags.has("help") || flags.has("h")) {
    io.stdout(RANK_HELP);
    return 0;
  }
  // File patterns expanded as evaluate and the action expand them (src/io/glob.ts).
  const files = (name: string): string[] =>
    expandFileArgs(io.cwd, `--${name}`, flags.get(name) ?? []).map((f) => f.shown);
  const results = files("results");
  if (results.length === 0) throw new InputError('Missing --results.\nRun "model-gate rank --help".');
  const policyPath = required(flags, "policy", "rank");
  const today = one(flags, "today") ?? todayUtc(io.now());
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new InputError(`--today must be YYYY-MM-DD; got "${today}".`);
  const asOfReview = parseAsOfReview(one(flags, "as-of-review"));
  const given = flags.get("models");
  const models = given === undefined ? null : given.flatMap((v) => v.split(","));
  const referenceFlag = one(flags, "reference") ?? null;
  const candidate = one(flags, "candidate") ?? null;
  const reviews = files("reviews");
  const abs = (p: string): string => resolve(io.cwd, p);
  const reportPath = one(flags, "report");
  const previousResults = files("previous-results");
  const previousReviews = files("previous-reviews");
  const inputs = [...results, ...reviews, policyPath, ...previousResults, ...previousReviews];
  if (reportPath !== undefined)
    checkOutputTarget(
      abs(reportPath),
      reportPath,
      "--report",
      inputs.map((p) => ({ path: abs(p), shown: p })),
    );
  if (referenceFlag !== null && models !== null && !models.includes(referenceFlag)) {
    throw new InputError(
      `--reference "${referenceFlag}" is not among the models given with --models: add it there, or leave --models out to rank every model.`,
    );
  }
  if (candidate !== null && models !== null && !models.includes(candidate)) {
    throw new InputError(
      `--candidate "${candidate}" is not among the models given with --models: add it there, or leave --models out to rank every model.`,
    );
  }

  const policyText = await readPolicyText(abs(policyPath), policyPath);
  const plan = planRank(policyText, policyPath, {
    models,
    reference: referenceFlag,
    candidate,
    names: { models: "--models", reference: "--reference" },
  });
  const rankInputs = await readRankInputs({
    results: results.map(abs),
    reviews: reviews.map(abs),
    policy: {
      path: abs(policyPath),
      text: policyText,
      source: "file",
      lastCommit: null,
    },
    models,
    today,
    previous:
      previousResults.length + previousReviews.length === 0
        ? null
        : { results: previousResults.map(abs), reviews: previousReviews.map(abs) },
    displayPath: (p) => displayAs(p, inputs, abs),
    ...(io.collectGarbage === undefined ? {} : { collectGarbage: io.collectGarbage }),
    ...(io.youngGeneration === undefined ? {} : { youngGeneration: io.youngGeneration }),
  });
  const report = rankByBenchmark(rankInputs.data, rankInputs.policy, {
    reference: plan.reference,
    candidate: plan.candidate,
    toolVersion: TOOL_VERSION,
    asOfReview,
    appendOnly: rankInputs.appendOnly,
  });

  if (reportPath !== undefined) await writeReport(abs(reportPath), reportPath, jsonChunks(report));
  const format = one(flags, "format");
  if (format === "json") for (const chunk of jsonChunks(report)) io.stdout(chunk);
  else {
    // The gate's block only when the policy gates on a candidate: top_resolved is the headline's.
    const gated = report.gate.require !== "top_resolved";
    if (format === "text")
      io.stdout(
        (gated
          ? neutraliseLogLines(`Rank gate: ${report.gate.verdict}. ${report.gate.reasons.join(" ")}`) + "\n\n"
          : "") + renderRankResultText(report),
      );
    else if (format === "html") io.stdout(renderRankResultHtml(report));
    else
      io.stdout(
        (gated ? renderRankResultGateMarkdown(report, null) + "\n" : "") + renderRankResultMarkdown(report),
      );
  }
  return VERDICT_EXIT[report.gate.verdict];
}
