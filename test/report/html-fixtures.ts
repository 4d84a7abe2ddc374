/**
 * Rank reports built by hand for the HTML page tests (golden, hostile, browser): fixed numbers,
 * no export to read, so a page's bytes change only when its renderer does.
 */
import { familyGuarantee } from "../../src/core/rank/step-down.js";
import type { RevisionVerdict } from "../../src/core/history/history-types.js";
import type { Report } from "../../src/core/report/report-types.js";
import { acceptReport } from "./fixtures.js";
import { exampleReport } from "../run-history/since-fixture.js";
import {
  RANK_SCHEMA_VERSION,
  type RankBenchmarksReport,
  type RankModel,
  type RankPair,
  type RankReport,
} from "../../src/core/rank/rank-types.js";

/** Hostile model ids: markup, quotes, bidi controls, a very long id. */
export const HOSTILE_MODELS: readonly string[] = [
  '<script>alert("x")</script>',
  "cfg-\"quoted\" 'single' & <b>bold</b>",
  "abc\u202Eevil\u202Cdef \u2066iso\u2069",
  `very-long-model-config-${"0123456789".repeat(12)}`,
];

/**
 * K models in rank order, scores 70% down in steps of `step`; a pair is ordered when its margin
 * exceeds `orderAbove`, else unresolved by validity when its band holds 0, else by run variance.
 */
export function syntheticRankReport(
  names: readonly string[],
  options: {
    step?: number;
    orderAbove?: number;
    open?: number;
    reference?: string | null;
    /** Positions after which the scores drop by 6 points more: the groups of the picture. */
    gapsAfter?: readonly number[];
  } = {},
): RankReport {
  const step = options.step ?? 0.02;
  const orderAbove = options.orderAbove ?? 0.05;
  const open = options.open ?? 0.03;
  const k = names.length;
  const gaps = options.gapsAfter ?? [];
  const score = (i: number): number =>
    Math.round((0.7 - i * step - (i % 3) * 0.002 - gaps.filter((g) => g < i).length * 0.06) * 1e6) / 1e6;
  const pairs: RankPair[] = [];
  const above: boolean[][] = names.map(() => names.map(() => false));
  for (let a = 0; a < k; a++) {
    for (let b = a + 1; b < k; b++) {
      const margin = Math.round((score(a) - score(b)) * 1e6) / 1e6;
      const low = Math.round((margin - open) * 1e6) / 1e6;
      const high = Math.round((margin + open * 0.8) * 1e6) / 1e6;
      const ordered = margin > orderAbove;
      if (ordered) (above[a] as boolean[])[b] = true;
      pairs.push({
        a: names[a] as string,
        b: names[b] as string,
        margin,
        margin_low: low,
        margin_high: high,
        se: 0.012,
        nu: 399,
        lcb: Math.round((low - 0.02) * 1e6) / 1e6,
        ucb: Math.round((high + 0.02) * 1e6) / 1e6,
        lcb_bound_kind: "exact",
        ucb_bound_kind: "exact",
        level: 0.05 / (k * (k - 1)),
        round: 1,
        relation: ordered ? "a_better" : "unresolved",
        unresolved_by: ordered ? null : low <= 0 && high >= 0 && low < high ? "validity" : "run_variance",
      });
    }
  }
  // Groups: cut between p and p + 1 when every model above is ordered above every model below.
  const group: number[] = [];
  let g = 1;
  for (let i = 0; i < k; i++) {
    if (i > 0) {
      let cut = true;
      for (let a = 0; a < i && cut; a++)
        for (let b = i; b < k && cut; b++) cut = (above[a] as boolean[])[b] === true;
      if (cut) g++;
    }
    group.push(g);
  }
  const groups: string[][] = [];
  names.forEach((n, i) => {
    const gi = (group[i] as number) - 1;
    (groups[gi] ??= []).push(n);
  });
  const models: RankModel[] = names.map((model, i) => {
    const s = score(i);
    const over = above.filter((row) => row[i] === true).length;
    const under = (above[i] as boolean[]).filter(Boolean).length;
    return {
      model,
      score: s,
      interval: [Math.round((s - open) * 1e6) / 1e6, Math.round((s + open * 0.8) * 1e6) / 1e6],
      run_variance_band: [
        Math.round((s - open - 0.035) * 1e6) / 1e6,
        Math.round((s + open * 0.8 + 0.035) * 1e6) / 1e6,
      ],
      rank_low: 1 + over,
      rank_high: k - under,
      group: group[i] as number,
      absence_adds_back: i % 4,
      absence_adds_back_valid: i % 3,
      vs_reference: null,
      harness_revisions: ["git:1a2b3c4"],
    };
  });
  const first = models.filter((m) => m.rank_low === 1).map((m) => m.model);
  return {
    schema_version: RANK_SCHEMA_VERSION,
    kind: "rank",
    top: first.length === 1 ? (first[0] as string) : null,
    top_resolved: first.length === 1,
    could_be_first: first,
    top_validity_resolved: false,
    reference: options.reference ?? null,
    gate: {
      require: "top_resolved",
      candidate: null,
      verdict: first.length === 1 ? "accept" : "unresolved",
      reasons: [],
    },
    warnings: [],
    models,
    groups,
    pairs,
    adjustment: {
      method: "max_t",
      pairs: pairs.length,
      directional_claims: 2 * pairs.length,
      family_alpha: 0.05,
      draws: 10_000,
      seed: 20_050_101,
      rounds: 2,
      ordered_pairs: pairs.filter((x) => x.relation !== "unresolved").length,
      final_level: 0.05 / (2 * (pairs.length - pairs.filter((x) => x.relation !== "unresolved").length)),
      guarantee: familyGuarantee(0.05, pairs.length, "max_t", 10_000),
    },
    review_first:
      k >= 2
        ? [
            {
              a: names[0] as string,
              b: names[1] as string,
              reviews_to_settle_a_better: 3,
              reviews_to_settle_b_better: null,
              tasks: [
                {
                  dataset_revision: "swe-bench-verified@2026-10",
                  task_id: "django__django-11099",
                  validity: "disputed",
                  d: -1,
                  in_lower_set: true,
                  in_upper_set: false,
                  evidence: ["https://example.org/review/42"],
                },
              ],
            },
          ]
        : [],
    common_tasks: 480,
    common_valid_tasks: 400,
    unresolved_tasks: 80,
    disputed_tasks: 30,
    unreviewed_tasks: 50,
    broken_tasks: 20,
    universe_tasks: 500,
    settings: {
      confidence: 0.95,
      quantile: "t",
      standard_error: "paired",
      cluster_correction: "cr2",
      validity_bound: "exact",
      infra_errors: "exclude",
      common_valid_tasks_threshold: ">= 300",
    },
    provenance: {
      inputs: [{ path: "results.jsonl.gz", sha256: "ab".repeat(32) }],
      models_given: [...names],
      dataset_revisions: ["swe-bench-verified@2026-10"],
      review_revisions: [1, 2],
      as_of_review: null,
      append_only: null,
      rows_read: 500 * k,
      passes: 1,
      policy: {
        path: "policy.yaml",
        sha256: "cd".repeat(32),
        owner: "eval-team",
        revisit: "2027-03-01",
        source: "file",
        last_commit: null,
      },
      tool_version: "0.1.0",
    },
  };
}

/** Twenty plausible model ids (some long), for the 20-model page. */
export const TWENTY_MODELS: readonly string[] = Array.from({ length: 20 }, (_, i) =>
  i % 5 === 3
    ? `20251124_mini-v1.16.0_claude-opus-4-5-20251101-variant-${i}`
    : `cfg-${["alpha", "bravo", "charlie", "delta", "echo"][i % 5] ?? ""}-${String(i + 1).padStart(2, "0")}`,
);

/**
 * The accept fixture with `n` review revisions (the report keeps at most 20): the margin climbs
 * from below 0 to well above δ₀, so the verdict goes reject → unresolved → accept; revision 1
 * has no valid task yet (no Δ̂), and `warnings` warnings.
 */
export function manyRevisionsReport(n: number, warnings = 0): Report {
  const base = acceptReport();
  const revisions: RevisionVerdict[] = Array.from({ length: n }, (_, i) => {
    const margin = i === 0 ? null : Math.round((-0.03 + (0.1 * i) / n) * 1e6) / 1e6;
    const lcb = margin === null ? null : Math.round((margin - 0.045) * 1e6) / 1e6;
    const ucb = margin === null ? null : Math.round((margin + 0.04) * 1e6) / 1e6;
    return {
      revision: i + 1,
      labels: {
        valid: i === 0 ? 0 : 300 + 10 * i,
        disputed: 20,
        unreviewed: i === 0 ? 520 : 200 - 10 * i,
        broken: 9,
      },
      label_conflicts: 0,
      common_valid_tasks: i === 0 ? 0 : 300 + 10 * i,
      unresolved_tasks: i === 0 ? 540 : 220 - 10 * i,
      margin,
      margin_lower: margin === null ? -1 : Math.round((margin - 0.02) * 1e6) / 1e6,
      margin_upper: margin === null ? 1 : Math.round((margin + 0.015) * 1e6) / 1e6,
      lcb,
      ucb,
      lcb_bound_kind: margin === null ? null : "exact",
      ucb_bound_kind: margin === null ? null : "exact",
      verdict:
        lcb === null || ucb === null
          ? "unresolved"
          : lcb > 0.01
            ? "accept"
            : ucb <= 0.01
              ? "reject"
              : "unresolved",
    };
  });
  return {
    ...base,
    warnings: Array.from({ length: warnings }, (_, i) => `Warning number ${i + 1}.`),
    verdict_by_review_revision: { ...base.verdict_by_review_revision, revisions_present: n, revisions },
  };
}

/**
 * The §3.7 example's `since_last_run` made hostile and long: 150 candidate pass → fail flips (15
 * listed, as a report file caps its lists), task ids with markup, quotes, a bidi control and 90
 * unbreakable characters, a previous candidate named with markup.
 */
export function hostileSinceReport(): Report {
  const r = exampleReport();
  const since = r.since_last_run;
  if (since === null || since.candidate === null) throw new Error("the example has since_last_run");
  const id = (k: number): string => `t${k} </td><script>x</script> \u202E"'${"x".repeat(90)}`;
  return {
    ...r,
    since_last_run: {
      ...since,
      models_changed: true,
      previous: { ...since.previous, candidate: "old <b>cand</b>" },
      candidate: {
        ...since.candidate,
        pass_to_fail_count: 150,
        pass_to_fail: Array.from({ length: 15 }, (_, k) => ({
          dataset_revision: "rev1",
          task_id: id(k),
          before: 1,
          after: 0,
        })),
      },
    },
  };
}

/**
 * A rank report of several benchmarks (rank schema 1.4.0's layout) from synthetic rankings: each
 * benchmark's ranking is syntheticRankReport's over its own models, and the gate is unresolved.
 */
export function syntheticBenchmarksRankReport(
  benchmarks: readonly {
    readonly name: string;
    readonly models: readonly string[];
    readonly step?: number;
  }[],
): RankBenchmarksReport {
  const each = benchmarks.map((b) => {
    // A benchmark's ranking is the rank report without its schema_version and kind.
    const rest: { -readonly [K in keyof RankReport]?: RankReport[K] } = {
      ...syntheticRankReport(b.models, { step: b.step ?? 0.03 }),
    };
    delete rest.schema_version;
    delete rest.kind;
    return { name: b.name, ...(rest as Omit<RankReport, "schema_version" | "kind">) };
  });
  const first = syntheticRankReport(benchmarks[0]?.models ?? ["m"], {});
  return {
    schema_version: RANK_SCHEMA_VERSION,
    kind: "rank",
    ranked_within_benchmarks: true,
    top: null,
    top_resolved: false,
    gate: { require: "top_resolved", candidate: null, verdict: "unresolved", reasons: [] },
    warnings: [],
    benchmarks: each,
    provenance: first.provenance,
  };
}
