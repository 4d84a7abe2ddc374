/**
 * Hand-built Report fixtures for the Markdown renderer: accept (SPEC §6 example 5), reject,
 * unresolved with unbounded fragility, a degenerate one without common tasks, a hostile one in
 * which every free-text string is an injection attempt, and a generator of large reports.
 */

import { createHash } from "node:crypto";
import { COMMENT_MARKER } from "../../src/core/report/escape.js";
import type { Check, InfluentialTask, ModelFigures } from "../../src/core/verdict-types.js";
import { withReadings } from "./fixture-readings.js";
import type { BrokenTasks, Report, ReviewHistory } from "../../src/core/report/report-types.js";
import {
  compactBrokenTasks,
  compactReviewHistory,
  type HistoryInput,
} from "../../src/core/report/task-lists.js";
import { SCHEMA_VERSION } from "../../src/core/report/report-types.js";
import type { PolicyLogEntry } from "../../src/core/history/policy-log.js";
import { compareClusterRows } from "../../src/core/stats/margin-by-cluster.js";
import type { MarginByCluster } from "../../src/core/verdict-types.js";

const DATASET = "sha256:9f2c41d07be3";

/**
 * The margin by cluster from [cluster (null: no cluster), tasks, Σd] over `nv` valid tasks whose
 * Σd is `total` (as the report builds it: SPEC §3.6).
 */
function clusterTable(
  nv: number,
  total: number,
  sums: readonly [string | null, number, number][],
): MarginByCluster {
  return {
    clusters: sums.filter(([c]) => c !== null).length,
    rows: sums
      .map(([cluster, tasks, s]) => ({
        cluster,
        tasks,
        margin: s / tasks,
        contribution: s / nv,
        share: total === 0 ? null : s / total,
        worse: s < 0,
      }))
      .sort(compareClusterRows),
    unclustered_tasks: sums.filter(([c]) => c === null).reduce((n, [, t]) => n + t, 0),
  };
}

/** Broken tasks of DATASET in the report's compact form. */
function brokenList(taskIds: readonly string[]): BrokenTasks {
  return compactBrokenTasks(taskIds.map((taskId) => ({ datasetRevision: DATASET, taskId })));
}

/** Review history of tasks of DATASET in the report's compact form. */
function historyList(tasks: readonly Omit<HistoryInput, "datasetRevision">[]): ReviewHistory {
  return compactReviewHistory(tasks.map((t) => ({ ...t, datasetRevision: DATASET })));
}
const HARNESS = "git:4e1a9c0";

function sha(seed: number): string {
  return createHash("sha256").update(`fixture-${seed}`).digest("hex");
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

function check(
  id: Check["id"],
  observed: Check["observed"],
  threshold: string,
  passed: boolean,
  detail: string,
  kind: Check["kind"] = "evidence",
): Check {
  return { id, observed, threshold, passed, kind, detail };
}

function model(config: string, over: Partial<ModelFigures>): ModelFigures {
  return {
    config,
    harness_revisions: [HARNESS],
    dataset_revisions: [DATASET],
    attempts: 545,
    passes: 331,
    fails: 212,
    infra_errors: 2,
    missing_attempts: 0,
    duplicate_rows: 0,
    attempted_tasks: 545,
    missing_tasks: 0,
    lost_to_infra_tasks: 0,
    infra_error_rate: 2 / 545,
    missing_fraction: 0,
    valid_only_score: 0.611538,
    all_attempted_score: 0.609595,
    interval_exact: [0.600746, 0.618774],
    interval_pessimistic: [0.589235, 0.626591],
    common: {
      valid_only_score: 0.611538,
      all_attempted_score: 0.609259,
      interval_exact: [0.60223, 0.617747],
      interval_pessimistic: [0.588889, 0.625926],
    },
    ...over,
  };
}

const POLICY = {
  path: ".github/model-gate.yaml",
  sha256: sha(7),
  owner: "@acme/eval-owners",
  revisit: "2027-03-31",
  source: "base-commit 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b",
  last_commit: "5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1a2b3c4d",
  on_unresolved: "fail" as const,
  on_expired: "warn" as const,
  expired: false,
};

/** SPEC §6 example 5: N_v = 520, D = 20, LCB = 0.011803 > 0 → accept; review fragility 7. */
export function acceptReport(): Report {
  const influential: InfluentialTask[] = [
    ...range(6).map((i) => ({
      dataset_revision: DATASET,
      task_id: `django__django-${11001 + i}`,
      validity: i < 4 ? ("disputed" as const) : ("unreviewed" as const),
      d: -1,
      in_lower_set: true,
      in_upper_set: false,
      evidence:
        i === 0
          ? ["https://github.com/acme/evals/issues/412", "reviews/django-11001.json"]
          : [`reviews/django-${11001 + i}.json`],
    })),
    ...range(2).map((i) => ({
      dataset_revision: DATASET,
      task_id: `sympy__sympy-${20590 + i}`,
      validity: "disputed" as const,
      d: 1,
      in_lower_set: false,
      in_upper_set: true,
      evidence: [`https://evidence.acme.example/runs/77/sympy-${20590 + i}/fixture.log`],
    })),
    ...range(2).map((i) => ({
      dataset_revision: DATASET,
      task_id: `astropy__astropy-${1400 + i}`,
      validity: "disputed" as const,
      d: 0,
      in_lower_set: true,
      in_upper_set: false,
      evidence: [],
    })),
  ];
  return withReadings({
    schema_version: SCHEMA_VERSION,
    verdict: "accept",
    reasons: [
      "All 9 evidence checks pass.",
      "LCB = +1.18 pp > δ₀ = 0.00 pp: the candidate clears the bar under every resolution of the 20 open labels.",
    ],
    warnings: [],
    checks: [
      check("common_valid_tasks", 520, ">= 500", true, "520 common valid tasks."),
      check("infra_error_rate_baseline", 2 / 545, "< 1%", true, "2 infra errors in 545 attempts."),
      check("infra_error_rate_candidate", 4 / 542, "< 1%", true, "4 infra errors in 542 attempts."),
      check("disputed_fraction", 20 / 540, "< 5%", true, "20 open labels among 540 common tasks."),
      check("missing_fraction_baseline", 0, "< 2%", true, "No missing tasks."),
      check("missing_fraction_candidate", 3 / 545, "< 2%", true, "3 of 545 tasks missing."),
      check("same_harness", HARNESS, "one real revision", true, "Both models ran on git:4e1a9c0."),
      check("real_harness_revisions", "all real", "no placeholder", true, "No placeholder revision."),
      check(
        "dataset_revision",
        DATASET,
        "same set for both",
        true,
        "Both models ran on sha256:9f2c41d07be3.",
      ),
      check("production_canary", "pass", "given, and passed", true, "The production canary passed."),
      check("observed_margin", 0.011803, "> 0", true, "LCB = +1.18 pp > δ₀ = 0.00 pp.", "margin"),
    ],
    comparison: {
      common_tasks: 540,
      common_valid_tasks: 520,
      unresolved_tasks: 20,
      disputed_tasks: 14,
      unreviewed_tasks: 6,
      broken_tasks: 31,
      disputed_fraction: 20 / 540,
      margin: 30 / 520,
      margin_lower: 24 / 538,
      margin_upper: 32 / 522,
      validity_sensitivity: 30 / 520 - 24 / 538,
      validity_sensitivity_upside: 32 / 522 - 30 / 520,
      se_valid: 0.020029,
      se_lower: 0.019945,
      se_upper: 0.02011,
      se_rerun: null,
      standard_error: "paired",
      cluster_correction: "cr2",
      clusters: null,
      largest_cluster_share: null,
      nu_valid: 519,
      nu_lower: 537,
      nu_upper: 521,
      se_valid_paired: 0.020029,
      se_valid_cr2: null,
      design_effect: null,
      validity_bound: "exact",
      confidence: 0.95,
      quantile: "z",
      z: 1.6448536269514722,
      q_valid: 1.6448536269514722,
      q_lower: 1.6448536269514722,
      q_upper: 1.6448536269514722,
      delta0: 0,
      lcb: 0.011803,
      ucb: 32 / 522 + 1.6448536269514722 * 0.02011,
      margin_at_lcb: 24 / 538,
      margin_at_ucb: 32 / 522,
      lcb_bound_kind: "exact",
      ucb_bound_kind: "exact",
      lcb_set: {
        size: 18,
        d_minus: 6,
        d_zero: 12,
        d_plus: 0,
        tasks: range(18).map((i) => ({
          dataset_revision: DATASET,
          task_id: `django__django-${11000 + i}`,
          d: i < 6 ? -1 : 0,
        })),
      },
      ucb_set: {
        size: 2,
        d_minus: 0,
        d_zero: 0,
        d_plus: 2,
        tasks: range(2).map((i) => ({
          dataset_revision: DATASET,
          task_id: `django__django-${11100 + i}`,
          d: 1,
        })),
      },
      mde: (1.6448536269514722 + 0.8416212335729143) * 0.020029,
      power: 0.8,
      tasks_needed: null,
      review_fragility: 7,
      review_fragility_share: 7 / 520,
      resolution_distance: null,
      fragility_exact: true,
      fragility_unbounded: false,
      fragility_tasks: range(7).map((i) => ({
        dataset_revision: DATASET,
        task_id: `pallets__flask-${4040 + i}`,
        change: "valid → broken (only the candidate passes)",
      })),
      influential_tasks: influential,
    },
    models: {
      baseline: model("cfg-2026-10-14-base", {}),
      candidate: model("cfg-2026-11-02-a", {
        passes: 362,
        fails: 176,
        infra_errors: 4,
        missing_attempts: 3,
        attempted_tasks: 542,
        missing_tasks: 3,
        lost_to_infra_tasks: 2,
        infra_error_rate: 4 / 542,
        missing_fraction: 3 / 545,
        valid_only_score: 0.669231,
        all_attempted_score: 0.667904,
        interval_exact: [0.659851, 0.673563],
        interval_pessimistic: [0.644444, 0.681481],
        common: {
          valid_only_score: 0.669231,
          all_attempted_score: 0.666667,
          interval_exact: [0.659851, 0.673563],
          interval_pessimistic: [0.644444, 0.681481],
        },
      }),
    },
    margin_by_cluster: clusterTable(520, 30, [
      ["django/django", 230, 14],
      ["sympy/sympy", 75, 9],
      ["sphinx-doc/sphinx", 44, -4],
      ["matplotlib/matplotlib", 34, 5],
      ["scikit-learn/scikit-learn", 32, 4],
      ["pydata/xarray", 22, 3],
      ["pytest-dev/pytest", 19, -2],
      ["astropy/astropy", 22, 2],
      ["pylint-dev/pylint", 10, -1],
      ["psf/requests", 8, 1],
      ["mwaskom/seaborn", 2, 0],
      ["pallets/flask", 1, 0],
      [null, 21, -1],
    ]),
    broken_tasks: brokenList(range(25).map((i) => `matplotlib__matplotlib-${23000 + i}`)),
    review_history: historyList([
      {
        taskId: "django__django-11001",
        history: [
          { revision: 1, validity: "valid", source: { file: "results-baseline.jsonl.gz", line: 17 } },
          { revision: 3, validity: "disputed", source: { file: "reviews.jsonl", line: 4 } },
        ],
      },
      {
        taskId: "matplotlib__matplotlib-23003",
        history: [
          { revision: 1, validity: "valid", source: { file: "results-baseline.jsonl.gz", line: 201 } },
          { revision: 2, validity: "broken", source: { file: "reviews.jsonl", line: 9 } },
        ],
      },
    ]),
    verdict_by_review_revision: {
      revisions_present: 4,
      revisions: [
        {
          revision: 2,
          labels: { valid: 521, disputed: 18, unreviewed: 2, broken: 9 },
          label_conflicts: 0,
          common_valid_tasks: 521,
          unresolved_tasks: 20,
          margin: 0.05566,
          margin_lower: 0.043,
          margin_upper: 0.0594,
          lcb: 0.0101,
          ucb: 0.0925,
          lcb_bound_kind: "exact",
          ucb_bound_kind: "exact",
          verdict: "accept",
        },
        {
          revision: 3,
          labels: { valid: 520, disputed: 19, unreviewed: 1, broken: 10 },
          label_conflicts: 0,
          common_valid_tasks: 520,
          unresolved_tasks: 20,
          margin: 0.057692,
          margin_lower: 0.04461,
          margin_upper: 0.061303,
          lcb: 0.011746,
          ucb: 0.094448,
          lcb_bound_kind: "exact",
          ucb_bound_kind: "exact",
          verdict: "accept",
        },
      ],
      changes: [
        {
          from_revision: 2,
          to_revision: 3,
          tasks_changed: 2,
          first_labels: 0,
          transitions: [
            { change: "valid → disputed", tasks: 1 },
            { change: "valid → broken", tasks: 1 },
          ],
          margin_before: 0.05566,
          margin_after: 0.057692,
          verdict_before: "accept",
          verdict_after: "accept",
          tasks: [
            {
              dataset_revision: DATASET,
              task_id: "django__django-11001",
              from: "valid",
              to: "disputed",
              margin_move: 0.001816,
            },
            {
              dataset_revision: DATASET,
              task_id: "matplotlib__matplotlib-23003",
              from: "valid",
              to: "broken",
              margin_move: 0,
            },
          ],
        },
      ],
      latest_reclassification: {
        revision: 3,
        tasks_changed: 2,
        verdict_from: "accept",
        verdict_to: "accept",
        verdict_changed: false,
      },
    },
    append_only: null,
    append_only_base: null,
    policy_changes: null,
    policy_history: null,
    since_last_run: null,
    provenance: {
      inputs: [
        { kind: "results", path: "results/baseline.jsonl.gz", sha256: sha(1) },
        { kind: "results", path: "results/candidate.jsonl.gz", sha256: sha(2) },
        { kind: "reviews", path: "reviews/reviews.jsonl", sha256: sha(3) },
      ],
      dataset_revisions: [DATASET],
      harness_revisions: [HARNESS],
      review_revisions: [0, 1, 2, 3],
      as_of_review: null,
      policy: POLICY,
      infra_errors_policy: "exclude",
      tool_version: "0.1.0",
      rows_read: 1121,
    },
  });
}

/** Every evidence check passes, UCB ≤ δ₀ → reject; infra errors counted as fails; fragility is a bound. */
export function rejectReport(): Report {
  const a = acceptReport();
  const lcb = -0.040323 - 1.6448536269514722 * 0.0121;
  const ucb = -0.02439 + 1.6448536269514722 * 0.0119;
  return withReadings({
    ...a,
    verdict: "reject",
    reasons: [
      "UCB = -0.48 pp ≤ δ₀ = 0.00 pp: even the most favourable resolution of the 30 open labels does not clear the bar.",
    ],
    warnings: ["Infra errors are counted as fails (infra_errors: count_as_fail)."],
    checks: a.checks.map((c) =>
      c.id === "observed_margin"
        ? {
            ...c,
            observed: lcb,
            passed: false,
            detail: "LCB ≤ δ₀ and UCB ≤ δ₀: the candidate is not better.",
          }
        : c.id === "common_valid_tasks"
          ? { ...c, observed: 610, detail: "610 common valid tasks." }
          : c.id === "disputed_fraction"
            ? { ...c, observed: 30 / 640, detail: "30 open labels among 640 common tasks." }
            : c,
    ),
    comparison: {
      ...a.comparison,
      common_tasks: 640,
      common_valid_tasks: 610,
      unresolved_tasks: 30,
      disputed_tasks: 30,
      unreviewed_tasks: 0,
      broken_tasks: 4,
      disputed_fraction: 30 / 640,
      margin: -0.031148,
      margin_lower: -0.040323,
      margin_upper: -0.02439,
      validity_sensitivity: 0.009175,
      validity_sensitivity_upside: 0.006758,
      se_valid: 0.012,
      se_lower: 0.0121,
      se_upper: 0.0119,
      lcb,
      ucb,
      margin_at_lcb: -0.040323,
      margin_at_ucb: -0.02439,
      lcb_bound_kind: "conservative",
      ucb_bound_kind: "conservative",
      lcb_set: null,
      ucb_set: null,
      mde: (1.6448536269514722 + 0.8416212335729143) * 0.012,
      review_fragility: 12,
      review_fragility_share: 12 / 610,
      fragility_exact: false,
      fragility_tasks: range(12).map((i) => ({
        dataset_revision: DATASET,
        task_id: `scikit-learn__scikit-learn-${13000 + i}`,
        change: "valid → broken (only the baseline passes)",
      })),
      influential_tasks: range(25).map((i) => ({
        dataset_revision: DATASET,
        task_id: `sphinx-doc__sphinx-${8000 + i}`,
        validity: "disputed" as const,
        d: i < 15 ? -1 : i < 22 ? 1 : 0.5,
        in_lower_set: i < 15,
        in_upper_set: i >= 15,
        evidence: [`https://evidence.acme.example/review/${8000 + i}`],
      })),
    },
    models: {
      baseline: { ...a.models.baseline, config: "cfg-2026-10-14-base" },
      candidate: {
        ...a.models.candidate,
        config: "cfg-2026-11-09-rc2",
        passes: 340,
        fails: 205,
        valid_only_score: 0.58,
        common: { ...a.models.candidate.common, valid_only_score: 0.580328 },
      },
    },
    broken_tasks: brokenList(range(4).map((i) => `pylint-dev__pylint-${7000 + i}`)),
    review_history: historyList([]),
    provenance: { ...a.provenance, infra_errors_policy: "count_as_fail", review_revisions: [0, 1] },
  });
}

/** Evidence fails (too few valid tasks, too many disputed, two harnesses, no canary); ∞ resolution distance. */
export function unresolvedReport(): Report {
  const a = acceptReport();
  return withReadings({
    ...a,
    verdict: "unresolved",
    reasons: [
      "Only 180 common valid tasks; the policy needs >= 500: add 320 more common valid tasks.",
      "Disputed fraction 43.75% is not < 5%: review 140 disputed or unreviewed tasks.",
      "The models ran on two harness revisions (git:4e1a9c0, git:77fe012); rerun on one.",
      "No production canary result was given.",
      "LCB ≤ δ₀ < UCB: the margin cannot decide either way.",
    ],
    warnings: [
      "The policy's revisit date 2026-10-01 has passed (owner @acme/eval-owners); on_expired: warn.",
      "Only 12 clusters (G < 30): the clustered standard error may be too small.",
    ],
    checks: [
      check("common_valid_tasks", 180, ">= 500", false, "180 common valid tasks; 320 more are needed."),
      check("infra_error_rate_baseline", 0.0125, "< 1%", false, "5 infra errors in 400 attempts."),
      check("infra_error_rate_candidate", 0.0075, "< 1%", true, "3 infra errors in 400 attempts."),
      check("disputed_fraction", 140 / 320, "< 5%", false, "140 open labels among 320 common tasks."),
      check("same_harness", "git:4e1a9c0, git:77fe012", "one real revision", false, "Two harness revisions."),
      check(
        "dataset_revision",
        DATASET,
        "same set for both",
        true,
        "Both models ran on sha256:9f2c41d07be3.",
      ),
      check("production_canary", null, "given, and passed", false, "No canary result was given."),
      check("observed_margin", -0.349346, "> 1%", false, "LCB ≤ δ₀.", "margin"),
    ],
    comparison: {
      ...a.comparison,
      common_tasks: 320,
      common_valid_tasks: 180,
      unresolved_tasks: 140,
      disputed_tasks: 90,
      unreviewed_tasks: 50,
      broken_tasks: 0,
      disputed_fraction: 140 / 320,
      margin: 0.044444,
      margin_lower: -0.3,
      margin_upper: 0.4,
      validity_sensitivity: 0.344444,
      validity_sensitivity_upside: 0.355556,
      se_valid: 0.035,
      se_lower: 0.03,
      se_upper: 0.031,
      se_rerun: 0.012,
      standard_error: "clustered",
      clusters: 12,
      validity_bound: "pessimistic",
      delta0: 0.01,
      lcb: -0.3 - 1.6448536269514722 * 0.03,
      ucb: 0.4 + 1.6448536269514722 * 0.031,
      margin_at_lcb: -0.3,
      margin_at_ucb: 0.4,
      lcb_bound_kind: "pessimistic",
      ucb_bound_kind: "pessimistic",
      lcb_set: null,
      ucb_set: null,
      mde: (1.6448536269514722 + 0.8416212335729143) * 0.035,
      tasks_needed: 160,
      review_fragility: null,
      review_fragility_share: null,
      resolution_distance: null,
      fragility_exact: true,
      fragility_unbounded: true,
      fragility_tasks: range(3).map((i) => ({
        dataset_revision: DATASET,
        task_id: `requests__requests-${3300 + i}`,
        change: "disputed → valid or broken",
      })),
      influential_tasks: range(30).map((i) => ({
        dataset_revision: i % 2 === 0 ? DATASET : "sha256:0aa1c2d3e4f5",
        task_id: `pytest-dev__pytest-${5100 + i}`,
        validity: i % 3 === 0 ? ("unreviewed" as const) : ("disputed" as const),
        d: i % 2 === 0 ? -1 : 1,
        in_lower_set: i % 2 === 0,
        in_upper_set: i % 2 === 1,
        evidence: [
          `https://evidence.acme.example/review/pytest-${5100 + i}`,
          `logs/pytest-${5100 + i}.log`,
          "review.json",
          "notes.md",
        ],
      })),
    },
    models: {
      baseline: {
        ...a.models.baseline,
        harness_revisions: [HARNESS],
        attempts: 400,
        infra_errors: 5,
        infra_error_rate: 0.0125,
      },
      candidate: {
        ...a.models.candidate,
        config: "cfg-2026-11-20-exp",
        harness_revisions: ["git:77fe012"],
        attempts: 400,
        infra_errors: 3,
        infra_error_rate: 0.0075,
        interval_exact: null,
        common: { ...a.models.candidate.common, interval_exact: null },
      },
    },
    broken_tasks: brokenList([]),
    review_history: historyList(
      range(25).map((i) => ({
        taskId: `pytest-dev__pytest-${5100 + i}`,
        history: [
          { revision: 1, validity: "valid", source: { file: "results.jsonl", line: i + 1 } },
          { revision: 2, validity: "disputed", source: { file: "reviews.jsonl", line: i + 1 } },
        ],
      })),
    ),
    policy_changes: [
      { key: "accept_if.common_valid_tasks", base: ">= 500", head: ">= 100", loosening: true },
      { key: "margin.confidence", base: "0.95", head: "0.9", loosening: true },
      { key: "accept_if.production_canary", base: "passes", head: null, loosening: true },
      { key: "owner", base: "@acme/eval-owners", head: "@acme/ml-platform", loosening: false },
      { key: "accept_if.missing_fraction", base: null, head: "< 2%", loosening: false },
    ],
    policy_history: {
      path: "gate/policy.yaml",
      rev: "5".repeat(40),
      unavailable: null,
      earlier: true,
      entries: [
        policyLogEntry({
          commit: "1".repeat(40),
          author: "Dana Evals",
          date: "2026-04-02T10:00:00+02:00",
          subject: "Push the revisit date",
          changes: [{ key: "revisit", base: "2026-04-01", head: "2026-10-01", loosening: true }],
          flags: ["loosening", "snoozed", "expired"],
          expired: { revisit: "2026-04-01", until: "2026-04-02" },
        }),
        policyLogEntry({
          commit: "2".repeat(40),
          author: "Lee Platform",
          date: "2026-05-10T09:30:00Z",
          subject: "Hand the gate to ml-platform",
          changes: [{ key: "owner", base: "@acme/eval-owners", head: "@acme/ml-platform", loosening: false }],
          flags: ["owner_changed", "with_evidence"],
          evidence_files: ["results/candidate.jsonl"],
          evidence_files_total: 1,
        }),
        policyLogEntry({
          commit: "3".repeat(40),
          author: "Lee Platform",
          date: "2026-05-11T09:30:00Z",
          subject: "Typo in the thresholds",
          changes: [],
          compared_with: null,
          owner: null,
          revisit: null,
          parse_error: 'gate/policy.yaml:4:3: field "accept_if": expected a mapping',
          flags: ["unparsable"],
        }),
      ],
    },
    provenance: {
      ...a.provenance,
      dataset_revisions: [DATASET, "sha256:0aa1c2d3e4f5"],
      harness_revisions: [HARNESS, "git:77fe012"],
      policy: { ...POLICY, revisit: "2026-10-01" },
    },
  });
}

/** No common tasks: every margin figure is null. */
export function emptyReport(): Report {
  const u = unresolvedReport();
  return withReadings({
    ...u,
    reasons: ["The models have no common tasks."],
    warnings: [],
    checks: u.checks.map((c) =>
      c.id === "common_valid_tasks"
        ? { ...c, observed: 0, detail: "No common valid tasks." }
        : c.id === "disputed_fraction" || c.id === "observed_margin"
          ? { ...c, observed: null, detail: "Undefined without common tasks." }
          : c,
    ),
    comparison: {
      ...u.comparison,
      common_tasks: 0,
      common_valid_tasks: 0,
      unresolved_tasks: 0,
      disputed_tasks: 0,
      unreviewed_tasks: 0,
      disputed_fraction: null,
      margin: null,
      margin_lower: null,
      margin_upper: null,
      validity_sensitivity: null,
      validity_sensitivity_upside: null,
      se_valid: null,
      se_lower: null,
      se_upper: null,
      se_rerun: null,
      standard_error: "paired",
      clusters: null,
      lcb: null,
      ucb: null,
      margin_at_lcb: null,
      margin_at_ucb: null,
      lcb_bound_kind: null,
      ucb_bound_kind: null,
      lcb_set: null,
      ucb_set: null,
      mde: null,
      tasks_needed: null,
      fragility_tasks: [],
      influential_tasks: [],
    },
    margin_by_cluster: null,
    policy_changes: null,
    policy_history: null,
    since_last_run: null,
    review_history: historyList([]),
  });
}

/** A policy log entry (src/core/history/policy-log.ts) with benign defaults. */
function policyLogEntry(over: Partial<PolicyLogEntry>): PolicyLogEntry {
  return {
    commit: "0".repeat(40),
    author: "Test",
    date: "2026-01-01T00:00:00Z",
    committed: over.date ?? "2026-01-01T00:00:00Z",
    subject: "Policy change",
    path: "gate/policy.yaml",
    previous_path: null,
    status: "modified",
    parse_error: null,
    owner: "@acme/eval-owners",
    revisit: "2026-10-01",
    compared_with: "4".repeat(40),
    changes: [],
    flags: [],
    expired: null,
    evidence_files: [],
    evidence_files_total: 0,
    ...over,
  };
}

/** Injection attempts: each free-text string of a fixture is replaced by one of these, in turn. */
export const HOSTILE_STRINGS: readonly string[] = [
  "x\n::error::pwned",
  "@org/team",
  "#1",
  "|a|b|",
  "```js\nalert(1)\n``` `tick`",
  "<img src=x onerror=alert(1)>",
  COMMENT_MARKER,
  "[link](javascript:alert(1))",
  "abc\u202Eevil\u202Cdef \u2066iso\u2069 \u200Fr",
  "zero\u200Bwidth\u200C\u200D\uFEFFchars\u2060",
  "**bold** _it_ ~~strike~~",
  `very-long-id-${"0123456789".repeat(60)}`,
  "https://evil.example/x) [y](javascript:alert(1)",
  "javascript:alert(1)",
  "</details><details open><summary>gotcha",
  "$x^2$ and $$\\sum$$",
  "\r\n# heading\r\n---\n| a | b |\n|---|---|",
  "\u0000\u001b[31mred\u007f\u0085",
  "www.evil.example GH-42 owner/repo#7 user@example.com",
  "&lt;script&gt; &#64;x &amp; -->",
  "\\|escaped pipe\\",
  "data:text/html;base64,PHNjcmlwdD4=",
  "![img](https://evil.example/pixel.png)",
  "http://ok.example/a?b=(1)&c=<2>|3",
];

/** Keys whose string values are enums the renderer branches on; everything else becomes hostile. */
const ENUM_KEYS = new Set([
  "verdict",
  "id",
  "kind",
  "validity",
  "standard_error",
  "cluster_correction",
  "quantile",
  "validity_bound",
  "infra_errors_policy",
  "lcb_bound_kind",
  "ucb_bound_kind",
  // review_history events strings: a grammar of revisions, labels and indices, no free text
  // (the file names they point to, in `files`, do become hostile).
  "events",
]);

/** The report with every free-text string replaced by a hostile one (same shape, same list lengths). */
export function hostileReport(base: Report = unresolvedReport()): Report {
  // Equal strings stay equal and distinct ones distinct, so layout decisions that compare values
  // (e.g. whether a dataset-revision column is needed) come out as for the benign report.
  const seen = new Map<string, string>();
  const hostile = (s: string): string => {
    let h = seen.get(s);
    if (h === undefined) {
      const k = seen.size;
      const n = HOSTILE_STRINGS.length;
      h = `${HOSTILE_STRINGS[k % n] ?? ""}${k >= n ? `~${k}` : ""}`;
      seen.set(s, h);
    }
    return h;
  };
  const walk = (v: unknown, key: string): unknown => {
    if (typeof v === "string") {
      if (ENUM_KEYS.has(key)) return v;
      // Evidence also gets hostile URLs: some parse (and must be encoded), some must not link.
      return key === "evidence" && seen.size % 2 === 0
        ? `https://evidence.example/${hostile(v)}`
        : hostile(v);
    }
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    }
    return v;
  };
  return walk(base, "") as Report;
}

/** A report with `n` entries in every list (tasks, history, inputs, reasons…), hostile when asked. */
export function largeReport(n: number, hostile = false): Report {
  const u = unresolvedReport();
  const id = (i: number): string =>
    hostile ? `${HOSTILE_STRINGS[i % HOSTILE_STRINGS.length] ?? ""}-${i}` : `task-${i}`;
  return withReadings({
    ...u,
    reasons: range(Math.min(n, 200)).map((i) => `Reason ${i} about ${id(i)}.`),
    warnings: range(Math.min(n, 50)).map((i) => `Warning ${i} about ${id(i)}.`),
    comparison: {
      ...u.comparison,
      unresolved_tasks: n,
      fragility_tasks: range(n).map((i) => ({
        dataset_revision: DATASET,
        task_id: id(i),
        change: `change ${id(i)}`,
      })),
      influential_tasks: range(n).map((i) => ({
        dataset_revision: DATASET,
        task_id: id(i),
        validity: "disputed" as const,
        d: i % 2 === 0 ? 1 : -1,
        in_lower_set: i % 2 === 1,
        in_upper_set: i % 2 === 0,
        evidence: range(5).map((k) => `https://evidence.example/${id(i)}/${k}`),
      })),
    },
    broken_tasks: brokenList(range(n).map(id)),
    review_history: historyList(
      range(n).map((i) => ({
        taskId: id(i),
        history: range(8).map((r) => ({
          revision: r,
          validity: r % 2 === 0 ? ("valid" as const) : ("disputed" as const),
          source: { file: id(r), line: r + 1 },
        })),
      })),
    ),
    policy_changes: range(Math.min(n, 100)).map((i) => ({
      key: `rule.${id(i)}`,
      base: id(i),
      head: id(i + 1),
      loosening: i % 2 === 0,
    })),
    provenance: {
      ...u.provenance,
      inputs: range(n).map((i) => ({
        kind: "results" as const,
        path: `results/${id(i)}.jsonl.gz`,
        sha256: sha(i),
      })),
      review_revisions: range(n),
      dataset_revisions: range(Math.min(n, 100)).map(id),
      harness_revisions: range(Math.min(n, 100)).map(id),
    },
  });
}
