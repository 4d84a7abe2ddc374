/**
 * `evaluate --as-of-review N` and the verdict by review revision (issue #14): the verdict as of N
 * equals the verdict of the same export with the later labels taken out, and the report's
 * per-revision table is those verdicts.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Report } from "../../src/core/report/report-types.js";
import {
  BASELINE,
  CANDIDATE,
  exportLines,
  JSON_REPORT_ARGS,
  many,
  reviewLine as review,
  SMALL_POLICY as POLICY,
  tempDir,
  writePolicy,
} from "../helpers/export-writer.js";
import { cliInProcess } from "../helpers/run-cli.js";

const aOnly = many(15, "a-only", { validity: "valid", a: ["pass"], b: ["fail"] });
const bOnly = many(3, "b-only", { validity: "valid", a: ["fail"], b: ["pass"] });
const ties = many(22, "tie", { validity: "valid", a: ["pass"], b: ["pass"] });
const TASKS = [...aOnly, ...bOnly, ...ties];

/** r2: two ties broken; r3: one tie disputed; r4: twelve candidate-only tasks broken. */
const REVIEWS = [
  review("tie-0000", "broken", 2),
  review("tie-0001", "broken", 2),
  review("tie-0002", "disputed", 3),
  ...aOnly.slice(0, 12).map((t) => review(t.id, "broken", 4)),
];

interface Files {
  readonly dir: string;
  readonly results: string;
  readonly reviews: string;
  readonly policy: string;
}

function write(results: readonly string[], reviews: readonly string[], dir = tempDir()): Files {
  const r = join(dir, "results.jsonl");
  const v = join(dir, "reviews.jsonl");
  writeFileSync(r, results.join("\n") + "\n");
  writeFileSync(v, reviews.join("\n") + (reviews.length > 0 ? "\n" : ""));
  return { dir, results: r, reviews: v, policy: writePolicy(dir, POLICY) };
}

async function evaluate(
  f: Files,
  extra: string[] = [],
): Promise<{ code: number; report: Report; stdout: string }> {
  const argv = ["evaluate", "--results", f.results, "--reviews", f.reviews, "--policy", f.policy];
  const r = await cliInProcess([...argv, ...JSON_REPORT_ARGS, ...extra]);
  if (r.code > 2) throw new Error(r.stderr);
  return { code: r.code, report: JSON.parse(r.stdout) as Report, stdout: r.stdout };
}

/** What a past verdict consists of: everything but provenance and the history itself. */
function decision(r: Report): unknown {
  return {
    verdict: r.verdict,
    reasons: r.reasons,
    checks: r.checks,
    comparison: r.comparison,
    models: r.models,
  };
}

describe("evaluate --as-of-review", () => {
  const full = write(exportLines(TASKS), REVIEWS);

  it.each([1, 2, 3, 4, 7])(
    "as of revision %i equals evaluating the export filtered to that revision",
    async (n) => {
      const asOf = await evaluate(full, ["--as-of-review", String(n)]);
      const filtered = await evaluate(
        write(
          exportLines(TASKS),
          REVIEWS.filter((l) => (JSON.parse(l) as { review_revision: number }).review_revision <= n),
        ),
      );
      expect(decision(asOf.report)).toEqual(decision(filtered.report));
      expect(asOf.code).toBe(filtered.code);
      expect(asOf.report.provenance.as_of_review).toBe(n);
      expect(asOf.report.provenance.review_revisions).toEqual([1, 2, 3, 4].filter((r) => r <= n));
    },
  );

  it("as of revision 0 every task is unreviewed (the export's labels are at revision 1)", async () => {
    const asOf = await evaluate(full, ["--as-of-review", "0"]);
    const unreviewed = exportLines(TASKS).map((l) =>
      l
        .replace('"validity":"valid"', '"validity":"unreviewed"')
        .replace('"review_revision":1', '"review_revision":0'),
    );
    const filtered = await evaluate(write(unreviewed, []));
    expect(decision(asOf.report)).toEqual(decision(filtered.report));
    expect(asOf.report.comparison.unreviewed_tasks).toBe(40);
    expect(asOf.report.verdict).toBe("unresolved");
  });

  it("reproduces the known verdicts: accept through revision 3, unresolved at 4", async () => {
    const verdicts = [];
    for (const n of [1, 2, 3, 4])
      verdicts.push((await evaluate(full, ["--as-of-review", String(n)])).report.verdict);
    expect(verdicts).toEqual(["accept", "accept", "accept", "unresolved"]);
  });

  it("refuses a bad revision with a usage error", async () => {
    for (const bad of ["-1", "x", "1.5", ""]) {
      const r = await cliInProcess([
        "evaluate",
        "--results",
        full.results,
        "--policy",
        full.policy,
        "--baseline",
        BASELINE,
        "--candidate",
        CANDIDATE,
        `--as-of-review=${bad}`,
      ]);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain("--as-of-review must be a review revision");
    }
  });
});

describe("verdict by review revision", () => {
  const full = write(exportLines(TASKS), REVIEWS);

  it("has one row per revision, equal to the as-of-review evaluations", async () => {
    const { report } = await evaluate(full);
    const v = report.verdict_by_review_revision;
    expect(v.revisions_present).toBe(4);
    expect(v.revisions.map((r) => r.revision)).toEqual([1, 2, 3, 4]);
    for (const row of v.revisions) {
      const asOf = (await evaluate(full, ["--as-of-review", String(row.revision)])).report;
      expect(row.verdict).toBe(asOf.verdict);
      expect(row.lcb).toBe(asOf.comparison.lcb);
      expect(row.ucb).toBe(asOf.comparison.ucb);
      expect(row.lcb_bound_kind).toBe(asOf.comparison.lcb_bound_kind);
      expect(row.ucb_bound_kind).toBe(asOf.comparison.ucb_bound_kind);
      expect(row.margin).toBe(asOf.comparison.margin);
      expect(row.margin_lower).toBe(asOf.comparison.margin_lower);
      expect(row.margin_upper).toBe(asOf.comparison.margin_upper);
      expect(row.common_valid_tasks).toBe(asOf.comparison.common_valid_tasks);
      expect(row.labels.broken).toBe(asOf.comparison.broken_tasks);
      expect(row.labels.disputed).toBe(asOf.comparison.disputed_tasks);
    }
    expect(v.revisions.map((r) => r.labels)).toEqual([
      { valid: 40, disputed: 0, unreviewed: 0, broken: 0 },
      { valid: 38, disputed: 0, unreviewed: 0, broken: 2 },
      { valid: 37, disputed: 1, unreviewed: 0, broken: 2 },
      { valid: 25, disputed: 1, unreviewed: 0, broken: 14 },
    ]);
  });

  it("lists what changed between revisions and how far each task moved the margin", async () => {
    const { report } = await evaluate(full);
    const [c12, c23, c34] = report.verdict_by_review_revision.changes;
    expect(c12?.tasks_changed).toBe(2);
    expect(c12?.transitions).toEqual([{ change: "valid → broken", tasks: 2 }]);
    expect(c23?.transitions).toEqual([{ change: "valid → disputed", tasks: 1 }]);
    // r3: V = 37 (15 A-only, 3 B-only, 19 ties), Σd = 12. Breaking one A-only task alone:
    // 11/36 − 12/37.
    expect(c34?.tasks_changed).toBe(12);
    expect(c34?.margin_before).toBeCloseTo(12 / 37, 12);
    expect(c34?.margin_after).toBeCloseTo(0 / 25, 12);
    expect(c34?.tasks).toHaveLength(12);
    for (const t of c34?.tasks ?? []) expect(t.margin_move).toBeCloseTo(11 / 36 - 12 / 37, 12);
    expect(c34?.tasks.map((t) => t.task_id)).toEqual(aOnly.slice(0, 12).map((t) => t.id));
    // A tie leaving V moves Δ̂ by Σd/(N−1) − Σd/N.
    expect(c23?.tasks[0]?.margin_move).toBeCloseTo(12 / 37 - 12 / 38, 12);
    expect([c12?.verdict_before, c34?.verdict_before, c34?.verdict_after]).toEqual([
      "accept",
      "accept",
      "unresolved",
    ]);
  });

  it("says in the headline when the latest reclassification changed the verdict", async () => {
    const { report } = await evaluate(full);
    expect(report.verdict_by_review_revision.latest_reclassification).toEqual({
      revision: 4,
      tasks_changed: 12,
      verdict_from: "accept",
      verdict_to: "unresolved",
      verdict_changed: true,
    });
    expect(report.warnings[0]).toBe(
      "Review revision 4 reclassified 12 tasks; the verdict moved from accept to unresolved.",
    );
    const r3 = (await evaluate(full, ["--as-of-review", "3"])).report;
    expect(r3.warnings.some((w) => w.includes("reclassified"))).toBe(false);
  });

  it("renders the table (the fragility said once, above the fold), the same bytes every time", async () => {
    const argv = [
      "evaluate",
      "--results",
      full.results,
      "--reviews",
      full.reviews,
      "--policy",
      full.policy,
      "--baseline",
      BASELINE,
      "--candidate",
      CANDIDATE,
      "--today",
      "2026-11-29",
    ];
    const [m1, m2] = [await cliInProcess(argv), await cliInProcess(argv)];
    if (process.env["SHOW_MD"]) writeFileSync("/tmp/vbr.md", m1.stdout);
    expect(m1.stdout).toBe(m2.stdout);
    expect(m1.stdout).toContain("<summary><b>Verdict by review revision</b>");
    expect(m1.stdout).toContain("| r4 | 25 · 1 · 14 |");
    expect(m1.stdout).toContain("- r3 → r4: 12 tasks reclassified (12 valid → broken)");
    expect(m1.stdout).toContain("**verdict accept → unresolved**");
    // What could change the verdict is said once, under "What would change the verdict".
    expect(m1.stdout).not.toContain("**What could change it:**");
    expect(m1.stdout).toContain("**What would change the verdict**");
    const j = [await evaluate(full), await evaluate(full)];
    expect(j[0]?.stdout).toBe(j[1]?.stdout);
  });

  it("marks a revision whose labels conflict instead of guessing, and as-of-review refuses it", async () => {
    const f = write(exportLines(TASKS), [
      ...REVIEWS,
      review("tie-0003", "valid", 2),
      review("tie-0003", "broken", 2),
      review("tie-0003", "disputed", 3),
    ]);
    const { report } = await evaluate(f);
    const r2 = report.verdict_by_review_revision.revisions.find((r) => r.revision === 2);
    expect(r2?.label_conflicts).toBe(1);
    expect(r2?.verdict).toBeNull();
    const argv = [
      "evaluate",
      "--results",
      f.results,
      "--reviews",
      f.reviews,
      "--policy",
      f.policy,
      "--baseline",
      BASELINE,
      "--candidate",
      CANDIDATE,
      "--as-of-review",
      "2",
    ];
    const r = await cliInProcess(argv);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('task "tie-0003"');
    expect(r.stderr).toContain("two different labels at review_revision 2");
  });
});
