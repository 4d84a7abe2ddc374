/** `rank --as-of-review N`: the ranking as it stood at an earlier review revision (docs/rank.md). */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RankReport } from "../../src/core/rank/rank-types.js";
import { reviewLine, tempDir, writeLines } from "../helpers/export-writer.js";
import { cliInProcess } from "../helpers/run-cli.js";
import { policyWith, writeMulti, type MultiTask } from "./rank-helpers.js";

const dir = tempDir("rank-as-of-");
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/**
 * 40 tasks, all valid at review revision 1: A passes 30, B 25, C none. The reviews file finds
 * tasks 20–29 (A passes, B fails) broken at revision 2: then A passes 20 of 30, B 25 of 30.
 */
const tasks: MultiTask[] = Array.from({ length: 40 }, (_, t) => ({
  id: `t-${String(t).padStart(2, "0")}`,
  validity: "valid",
  results: {
    "cfg-a": [t < 30 ? "pass" : "fail"],
    "cfg-b": [t < 20 || (t >= 30 && t < 35) ? "pass" : "fail"],
    "cfg-c": ["fail"],
  },
}));
const results = writeMulti(dir, tasks, "results.jsonl");
const reviews = writeLines(
  dir,
  tasks.slice(20, 30).map((t) => reviewLine(t.id, "broken", 2, "ann")),
  "reviews.jsonl",
);
const policy = join(dir, "policy.yaml");
writeFileSync(policy, policyWith(10));

async function rank(more: readonly string[]): Promise<{ code: number; report: RankReport }> {
  const run = await cliInProcess([
    ...["rank", "--results", results, "--reviews", reviews, "--policy", policy],
    ...["--today", "2026-11-29", "--format", "json", ...more],
  ]);
  expect(run.stderr).toBe("");
  return { code: run.code, report: JSON.parse(run.stdout) as RankReport };
}

const scores = (r: RankReport): [string, number | null][] => r.models.map((m) => [m.model, m.score]);

/** What changes with the revision: the leaderboard, the common valid and broken tasks, the (a, b) margin. */
function figures(r: RankReport): unknown {
  return {
    scores: scores(r),
    common: [r.common_valid_tasks, r.broken_tasks],
    asOf: r.provenance.as_of_review,
    revisions: r.provenance.review_revisions,
    margin: r.pairs[0]?.a === "cfg-a" && r.pairs[0].b === "cfg-b" ? r.pairs[0].margin : "other pair",
  };
}

describe("rank --as-of-review", () => {
  it("the top changes between revisions: A at revision 1, B at revision 2", async () => {
    const now = (await rank([])).report;
    expect(figures(now)).toEqual({
      scores: [
        ["cfg-b", 25 / 30],
        ["cfg-a", 20 / 30],
        ["cfg-c", 0],
      ],
      common: [30, 10],
      asOf: null,
      revisions: [1, 2],
      margin: -5 / 30,
    });
    const then = (await rank(["--as-of-review", "1"])).report;
    expect(figures(then)).toEqual({
      scores: [
        ["cfg-a", 30 / 40],
        ["cfg-b", 25 / 40],
        ["cfg-c", 0],
      ],
      common: [40, 0],
      asOf: 1,
      revisions: [1],
      margin: 5 / 40,
    });
    expect(then.warnings).toContain(
      "Ranked as of review revision 1: labels of later review revisions are left out (--as-of-review).",
    );
    // As of the latest revision: the same ranking as without the flag, but for the flag's traces.
    const latest = (await rank(["--as-of-review", "2"])).report;
    expect(scores(latest)).toEqual(scores(now));
    expect(latest.pairs).toEqual(now.pairs);
  });

  it("a bad revision is a usage error (exit 3)", async () => {
    const run = await cliInProcess([
      ...["rank", "--results", results, "--policy", policy, "--as-of-review", "-1"],
    ]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('--as-of-review must be a review revision, an integer >= 0; got "-1".');
  });

  it("two labels at a task's revision as of N are an input error naming both rows", async () => {
    // Two labels at revision 2, settled by a third at revision 3: only a view as of 2 sees them.
    const split = writeLines(
      dir,
      [
        reviewLine("t-00", "broken", 2, "ann"),
        reviewLine("t-00", "valid", 2, "bob"),
        reviewLine("t-00", "disputed", 3, "cy"),
      ],
      "split.jsonl",
    );
    const args = [
      "rank",
      "--results",
      results,
      "--reviews",
      split,
      "--policy",
      policy,
      "--today",
      "2026-11-29",
    ];
    expect((await cliInProcess(args)).code).not.toBe(3);
    const run = await cliInProcess([...args, "--as-of-review", "2"]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      "As of review revision 2, 1 task has two different labels at the same revision; " +
        'record a disagreement as a later revision labelled "disputed":',
    );
    expect(run.stderr).toContain(`${split}:2: field "validity": task "t-00"`);
    expect(run.stderr).toContain(
      `has two different labels at review_revision 2: "broken" at ${split}:1 and "valid" here`,
    );
  });
});

describe("rank --previous-results / --previous-reviews", () => {
  /** A clear winner: cfg-a passes every task, cfg-b every third, cfg-c none. */
  const clear: MultiTask[] = Array.from({ length: 60 }, (_, t) => ({
    id: `c-${String(t).padStart(2, "0")}`,
    validity: "valid",
    results: { "cfg-a": ["pass"], "cfg-b": [t % 3 === 0 ? "pass" : "fail"], "cfg-c": ["fail"] },
  }));
  const now = writeMulti(dir, clear, "clear.jsonl");
  const args = (previous: string): string[] => [
    ...["rank", "--results", now, "--policy", policy, "--today", "2026-11-29", "--format", "json"],
    ...["--previous-results", previous],
  ];

  it("rows only appended: the check passes and the top stands", async () => {
    const earlier = writeMulti(dir, clear.slice(0, 40), "clear-earlier.jsonl");
    const run = await cliInProcess(args(earlier));
    const r = JSON.parse(run.stdout) as RankReport;
    expect(run.code).toBe(0);
    expect(r.top).toBe("cfg-a");
    expect(r.top_resolved).toBe(true);
    expect(r.provenance.append_only).toMatchObject({
      previous_rows: { results: 120, reviews: 0 },
      rows_changed_or_removed: 0,
      rows: [],
    });
  });

  it("a changed row: named in append_only, a headline warning, the top not resolved (exit 2)", async () => {
    const rewritten = clear.map((t, i) =>
      i === 5 ? { ...t, results: { ...t.results, "cfg-c": ["pass" as const] } } : t,
    );
    const earlier = writeMulti(dir, rewritten, "clear-rewritten.jsonl");
    const run = await cliInProcess(args(earlier));
    const r = JSON.parse(run.stdout) as RankReport;
    expect(run.code).toBe(2);
    expect(r.top).toBeNull();
    expect(r.top_resolved).toBe(false);
    expect(r.groups[0]).toEqual(["cfg-a"]);
    expect(r.provenance.append_only?.rows_changed_or_removed).toBe(1);
    expect(r.provenance.append_only?.rows[0]).toMatchObject({ kind: "results", line: 18 });
    expect(r.warnings[0]).toBe(
      "History rewritten: 1 row of the previous results or reviews was removed or changed (provenance.append_only lists them); the top is not taken as resolved.",
    );
    // Without the previous version the same export's top is resolved.
    expect((await cliInProcess(args(earlier).slice(0, -2))).code).toBe(0);
  });
});
