/**
 * Dataset mixups that real exports contain, through the CLI bundle. Each gets its documented
 * treatment and a visible line in the report JSON and the Markdown — never a silent merge:
 *   - tasks outside the dataset revision the other model ran → the dataset_revision check fails,
 *     naming the revision only one model ran; those tasks are missing for the other model;
 *   - two dataset revisions in one export → two task sets (a task is keyed by revision and id),
 *     shown with a dataset-revision column, both revisions in the provenance;
 *   - a model with the same attempt id twice → counted once (models.*.duplicate_rows), or an
 *     error naming both lines when the results differ;
 *   - labels that differ across files at one revision → an error naming both sources when it is
 *     the task's highest revision; otherwise every label stays in the review history;
 *   - the models on different harness revisions → the same_harness check fails, naming them.
 */
import { describe, expect, it } from "vitest";

import type { Report } from "../../../src/core/report/report-types.js";
import {
  BASE,
  CAND,
  evaluateArgs,
  expectUserError,
  jsonl,
  row,
  runBundle,
  useScratch,
  SMALL_POLICY,
} from "../helpers.js";

const scratch = useScratch("gate-mixups-");

const policy = scratch.write(SMALL_POLICY, "policy.yaml");

/** Both models on `n` tasks of `dataset`: the candidate passes, the baseline fails. */
function pairs(n: number, over: Record<string, unknown> = {}, prefix = "t"): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => [
    row({ task_id: `${prefix}-${i}`, ...over }),
    row({ task_id: `${prefix}-${i}`, model_config: BASE, result: "fail", ...over }),
  ]).flat();
}

interface Both {
  readonly code: number | null;
  readonly report: Report;
  readonly markdown: string;
}

/** Runs the bundle twice (JSON and Markdown) on the given files. */
function evaluate(results: readonly string[], extra: readonly string[] = []): Both {
  const json = runBundle(evaluateArgs(results, policy, [...extra, "--format", "json"]));
  const md = runBundle(evaluateArgs(results, policy, extra));
  expect(json.stderr).toBe("");
  expect(md.stderr).toBe("");
  expect(md.code).toBe(json.code);
  return { code: json.code, report: JSON.parse(json.stdout) as Report, markdown: md.stdout };
}

const check = (r: Report, id: string) => r.checks.find((c) => c.id === id);

describe("tasks outside the dataset revision the other model ran", () => {
  const file = scratch.write(
    jsonl([
      ...pairs(6),
      row({ task_id: "extra-1", dataset_revision: "sha256:d2" }),
      row({ task_id: "extra-2", dataset_revision: "sha256:d2" }),
    ]),
    "d2-only-candidate.jsonl",
  );
  const run = evaluate([file]);

  it("fail the dataset_revision check, naming the revision only the candidate ran; the verdict is unresolved", () => {
    expect(run.code).toBe(2);
    expect(run.report.verdict).toBe("unresolved");
    expect(check(run.report, "dataset_revision")).toEqual({
      id: "dataset_revision",
      observed: "baseline: sha256:d1; candidate: sha256:d1, sha256:d2",
      threshold: "same set for both",
      passed: false,
      kind: "evidence",
      detail:
        "The dataset revisions differ: only the candidate ran sha256:d2 — run both models on the same dataset revision(s).",
    });
  });

  it("are missing for the baseline, outside the common set, and counted", () => {
    expect(run.report.comparison.common_tasks).toBe(6);
    expect(run.report.models.baseline.missing_tasks).toBe(2);
    expect(run.report.models.candidate.attempted_tasks).toBe(8);
    expect(run.report.models.candidate.dataset_revisions).toEqual(["sha256:d1", "sha256:d2"]);
  });

  it("show in the Markdown as a failed check with its detail", () => {
    expect(run.markdown).toContain(
      "| ❌&nbsp;fail | **Same dataset revisions** | baseline: sha256:d1; candidate: sha256:d1, sha256:d2 | same set for both |",
    );
    expect(run.markdown).toContain(
      "- **Same dataset revisions**: The dataset revisions differ: only the candidate ran sha256:d2 — run both models on the same dataset revision\\(s\\)\\.",
    );
    expect(run.markdown).toContain("| Missing tasks | 2 | 0 |");
  });
});

describe("two dataset revisions in one export, both run by both models", () => {
  // The same task ids in both revisions, with opposite results: two task sets, never merged.
  const rows = [
    ...pairs(6, { dataset_revision: "sha256:d1" }),
    ...pairs(6, { dataset_revision: "sha256:d2", result: "fail" }).map((r) => ({
      ...r,
      result: r["model_config"] === BASE ? "pass" : "fail",
    })),
    row({ task_id: "b-1", dataset_revision: "sha256:d2", validity: "broken" }),
    row({ task_id: "b-1", dataset_revision: "sha256:d2", validity: "broken", model_config: BASE }),
  ];
  const run = evaluate([scratch.write(jsonl(rows), "two-revisions.jsonl")]);

  it("keep a task per (revision, id): 12 common tasks, margin 0, the check passes naming both", () => {
    expect(run.report.comparison.common_tasks).toBe(12);
    expect(run.report.comparison.margin).toBe(0);
    expect(check(run.report, "dataset_revision")?.passed).toBe(true);
    expect(check(run.report, "dataset_revision")?.detail).toBe(
      "Both models ran dataset revisions sha256:d1, sha256:d2.",
    );
    expect(run.report.provenance.dataset_revisions).toEqual(["sha256:d1", "sha256:d2"]);
    expect(run.report.broken_tasks).toEqual({
      count: 1,
      by_dataset_revision: [{ dataset_revision: "sha256:d2", task_ids: ["b-1"] }],
    });
  });

  it("show a dataset-revision column in the task tables of the Markdown", () => {
    expect(run.markdown).toContain("| Task | Dataset revision |");
    expect(run.markdown).toContain("| <code>b\\-1</code> | <code>sha256:d2</code> |");
    expect(run.markdown).toContain("| Dataset revisions | <code>sha256:d1</code>, <code>sha256:d2</code> |");
  });
});

describe("a model with the same attempt id twice", () => {
  it("with the same result: one attempt, counted in duplicate_rows and shown", () => {
    const rows = [
      ...pairs(6, { attempt: 1 }),
      row({ task_id: "t-0", attempt: 1 }),
      row({ task_id: "t-1", attempt: 1 }),
      row({ task_id: "t-2", model_config: BASE, result: "fail", attempt: 1 }),
    ];
    const run = evaluate([scratch.write(jsonl(rows), "dup.jsonl")]);
    expect(run.code).toBe(0);
    expect([run.report.models.candidate.duplicate_rows, run.report.models.baseline.duplicate_rows]).toEqual([
      2, 1,
    ]);
    expect([run.report.models.candidate.attempts, run.report.models.baseline.attempts]).toEqual([6, 6]);
    expect(run.report.provenance.rows_read).toBe(15);
    expect(run.markdown).toContain("| Duplicate rows | 1 | 2 |");
    expect(run.markdown).toContain("| Rows read | 15 |");
  });

  it("with different results: an error naming both lines", () => {
    const path = scratch.write(
      jsonl([...pairs(6, { attempt: 1 }), row({ task_id: "t-4", attempt: 1, result: "fail" })]),
      "conflict.jsonl",
    );
    expectUserError(
      runBundle(evaluateArgs([path], policy)),
      `${path}:13: field "result": conflicts with ${path}:9: the same attempt (model_config "${CAND}", task "t-4", dataset_revision "sha256:d1", harness_revision "git:h1", attempt 1) is "pass" there and "fail" here; a repeated attempt must repeat its result`,
    );
  });

  it("across two files: the same, naming both files", () => {
    const a = scratch.write(jsonl(pairs(6, { attempt: "e1" })), "part-a.jsonl");
    const b = scratch.write(
      jsonl([row({ task_id: "t-3", attempt: "e1", result: "infra_error" })]),
      "part-b.jsonl",
    );
    expectUserError(
      runBundle(evaluateArgs([a, b], policy)),
      `${b}:1: field "result": conflicts with ${a}:7: the same attempt`,
    );
  });
});

describe("labels that differ across files at one review revision", () => {
  const results = scratch.write(jsonl(pairs(6)), "labels-results.jsonl");

  it("at the task's highest revision: an error naming both sources", () => {
    const reviews = scratch.write(
      jsonl([{ task_id: "t-2", dataset_revision: "sha256:d1", validity: "broken", review_revision: 1 }]),
      "same-rev.jsonl",
    );
    expectUserError(
      runBundle(evaluateArgs([results], policy, ["--reviews", reviews])),
      `${reviews}:1: field "validity": task "t-2" (dataset_revision "sha256:d1") has two different labels at its highest review_revision 1: "valid" at ${results}:5 and "broken" here; record a disagreement as a later revision labelled "disputed"`,
    );
  });

  it("across two results files: the same", () => {
    const other = scratch.write(
      jsonl([row({ task_id: "t-5", model_config: "cfg-other", validity: "disputed" })]),
      "other-model.jsonl",
    );
    expectUserError(
      runBundle(evaluateArgs([results, other], policy)),
      `${other}:1: field "validity": task "t-5" (dataset_revision "sha256:d1") has two different labels at its highest review_revision 1: "valid" at ${results}:11 and "disputed" here`,
    );
  });

  it("resolved by a later revision: every label stays in the history, in the JSON and the Markdown", () => {
    const reviews = scratch.write(
      jsonl([
        { task_id: "t-2", dataset_revision: "sha256:d1", validity: "broken", review_revision: 1 },
        { task_id: "t-2", dataset_revision: "sha256:d1", validity: "disputed", review_revision: 2 },
      ]),
      "resolved.jsonl",
    );
    const run = evaluate([results], ["--reviews", reviews]);
    expect(run.report.review_history).toEqual({
      count: 1,
      events: 3,
      same_label_tasks: 0,
      files: [results, reviews],
      by_dataset_revision: [
        {
          dataset_revision: "sha256:d1",
          task_ids: ["t-2"],
          events: ["r1 valid 0:5; r1 broken 1:1; r2 disputed 1:2"],
        },
      ],
    });
    expect(run.report.comparison.disputed_tasks).toBe(1);
    expect(run.markdown).toContain(
      "<summary><b>Review history</b> — 1 task changed label across review revisions</summary>",
    );
    // <wbr> break opportunities in long paths are invisible: compare the text without them.
    expect(run.markdown.replace(/<wbr>/g, "")).toMatch(
      /\| <code>t\\-2<\/code> \| r1 valid \(.*labels\\-results\\\.jsonl:5\) → r1 broken \(.*resolved\\\.jsonl:1\) → r2 disputed \(.*resolved\\\.jsonl:2\) \|/,
    );
  });
});

describe("the models on different harness revisions", () => {
  it("fail the same_harness check, naming each model's revisions", () => {
    const rows = [
      ...pairs(6).map((r) => (r["model_config"] === BASE ? { ...r, harness_revision: "git:h0" } : r)),
      row({ task_id: "t-0", harness_revision: "git:h2", attempt: 2 }),
    ];
    const run = evaluate([scratch.write(jsonl(rows), "harness.jsonl")]);
    expect(run.code).toBe(2);
    expect(check(run.report, "same_harness")).toMatchObject({
      observed: "git:h0, git:h1, git:h2",
      passed: false,
      detail:
        "The models ran on 3 harness revisions (baseline: git:h0; candidate: git:h1, git:h2) — re-run both on one harness revision to compare like with like.",
    });
    expect(run.markdown).toContain(
      "| ❌&nbsp;fail | **Same harness revision** | git:h0, git:h1, git:h2 | one real revision |",
    );
  });
});
