/**
 * The append-only check (issue #14) through the CLI: --previous-results / --previous-reviews.
 * Appending rows and review revisions passes; a changed or removed earlier row is "history
 * rewritten", a failed evidence check that blocks accept, listing file, line and what changed.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { hash53, RowTable, CHANGED, PENDING } from "../../src/core/history/row-table.js";
import type { Report } from "../../src/core/report/report-types.js";
import {
  BASELINE,
  CANDIDATE,
  DATASET,
  exportLines,
  JSON_REPORT_ARGS,
  many,
  reviewLine,
  SMALL_POLICY as POLICY,
  tempDir,
  writePolicy,
} from "../helpers/export-writer.js";
import { cliInProcess } from "../helpers/run-cli.js";

const TASKS = [
  ...many(15, "a-only", { validity: "valid", a: ["pass"], b: ["fail"] }),
  ...many(22, "tie", { validity: "valid", a: ["pass"], b: ["pass"] }),
];
const ROWS = exportLines(TASKS);

const review = (id: string, validity: string, revision: number, reviewer = "ana"): string =>
  reviewLine(id, validity, revision, reviewer);
const REVIEWS = [review("tie-0000", "broken", 2), review("tie-0001", "disputed", 2)];

/** Writes the file and returns its name, relative to `dir` (the CLI's working directory). */
function file(dir: string, name: string, lines: readonly string[]): string {
  const text = lines.join("\n") + "\n";
  writeFileSync(join(dir, name), name.endsWith(".gz") ? gzipSync(text) : text);
  return name;
}

interface Case {
  readonly results: readonly string[];
  readonly reviews: readonly string[];
  readonly previousResults?: readonly string[];
  readonly previousReviews?: readonly string[];
  readonly previousName?: string;
}

async function run(c: Case): Promise<{ code: number; report: Report; stderr: string }> {
  const dir = tempDir();
  const argv = [
    "evaluate",
    "--results",
    file(dir, "results.jsonl", c.results),
    "--reviews",
    file(dir, "reviews.jsonl", c.reviews),
    "--policy",
    writePolicy(dir, POLICY),
    ...JSON_REPORT_ARGS,
  ];
  if (c.previousResults !== undefined) {
    argv.push("--previous-results", file(dir, c.previousName ?? "results-before.jsonl", c.previousResults));
  }
  if (c.previousReviews !== undefined) {
    argv.push("--previous-reviews", file(dir, "reviews-before.jsonl", c.previousReviews));
  }
  const r = await cliInProcess(argv, dir);
  if (r.code > 2) return { code: r.code, report: undefined as unknown as Report, stderr: r.stderr };
  return { code: r.code, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
}

function check(r: Report) {
  return r.checks.find((c) => c.id === "append_only");
}

const extra = exportLines(many(3, "new", { validity: "valid", a: ["pass"], b: ["fail"] }));

describe("append-only check", () => {
  it("is absent (report key null, no check) without a previous version", async () => {
    const { report } = await run({ results: ROWS, reviews: REVIEWS });
    expect(report.append_only).toBeNull();
    expect(check(report)).toBeUndefined();
  });

  it("passes when rows and review revisions were only appended, in any order and file", async () => {
    const { report, code } = await run({
      results: [...extra, ...ROWS].reverse(),
      reviews: [...REVIEWS, review("tie-0001", "valid", 3)],
      previousResults: ROWS,
      previousReviews: REVIEWS,
      previousName: "results-before.jsonl.gz",
    });
    expect(check(report)).toMatchObject({ passed: true, observed: 0, kind: "evidence" });
    expect(report.append_only?.previous_rows).toEqual({ results: ROWS.length, reviews: 2 });
    expect(report.append_only?.rows_changed_or_removed).toBe(0);
    expect(report.append_only?.previous_inputs.map((p) => p.kind)).toEqual(["results", "reviews"]);
    expect(report.verdict).toBe("accept");
    expect(code).toBe(0);
  });

  it("fails on a changed result and blocks accept, naming file, line and the change", async () => {
    // Line 1 is a-only-0000's candidate row ("pass"); make it a fail.
    const rewritten = [ROWS[0]?.replace('"result":"pass"', '"result":"fail"') ?? "", ...ROWS.slice(1)];
    const { report, code } = await run({ results: rewritten, reviews: REVIEWS, previousResults: ROWS });
    const c = check(report);
    expect(c?.passed).toBe(false);
    expect(c?.observed).toBe(1);
    expect(c?.detail).toContain("History rewritten: 1 of the 74 earlier rows was changed or removed");
    const row = report.append_only?.rows[0];
    expect(report.append_only?.rows).toHaveLength(1);
    expect(row).toMatchObject({
      kind: "results",
      file: "results-before.jsonl",
      line: 1,
      current_file: "results.jsonl",
      current_line: 1,
    });
    expect(row?.change).toMatch(
      /^changed: model_config "cfg-candidate", task_id "a-only-0000", dataset_revision /,
    );
    expect(row?.change).toMatch(/: result "pass" → "fail"$/);
    expect(report.verdict).toBe("unresolved");
    expect(report.reasons.some((r) => r.startsWith("Check append_only fails: History rewritten"))).toBe(true);
    expect(code).toBe(2);
  });

  it("fails on a removed row and on a review changed at its own revision", async () => {
    const { report } = await run({
      results: ROWS.slice(0, 10).concat(ROWS.slice(11)),
      reviews: [review("tie-0000", "valid", 2), REVIEWS[1] ?? ""],
      previousResults: ROWS,
      previousReviews: REVIEWS,
    });
    const rows = report.append_only?.rows ?? [];
    expect(report.append_only?.rows_changed_or_removed).toBe(2);
    expect(rows[0]).toMatchObject({
      kind: "results",
      file: "results-before.jsonl",
      line: 11,
      current_file: null,
    });
    expect(rows[0]?.change).toMatch(/^removed: model_config "cfg-candidate", task_id "a-only-0005"/);
    expect(rows[1]).toMatchObject({
      kind: "reviews",
      file: "reviews-before.jsonl",
      line: 1,
      current_line: 1,
    });
    expect(rows[1]?.change).toContain('validity "broken" → "valid"');
    expect(check(report)?.passed).toBe(false);
  });

  it("treats repeated attempts without an id as a multiset: reordering passes, a changed result fails", async () => {
    const t = (result: string) =>
      JSON.stringify({
        task_id: "tie-0000",
        dataset_revision: DATASET,
        harness_revision: "git:1111111111111111111111111111111111111111",
        model_config: CANDIDATE,
        validity: "valid",
        result,
        review_revision: 1,
      });
    const before = [...ROWS, t("pass"), t("fail")];
    const ok = await run({
      results: [...ROWS, t("fail"), t("pass")],
      reviews: REVIEWS,
      previousResults: before,
    });
    expect(check(ok.report)?.passed).toBe(true);
    const bad = await run({
      results: [...ROWS, t("fail"), t("fail")],
      reviews: REVIEWS,
      previousResults: before,
    });
    expect(bad.report.append_only?.rows_changed_or_removed).toBe(1);
    expect(bad.report.append_only?.rows[0]?.change).toContain('result "pass" → "fail"');
    expect(bad.report.append_only?.rows[0]?.line).toBe(ROWS.length + 1);
  });

  it("compares a line that is not a valid row by its text", async () => {
    const r = await run({ results: ROWS, reviews: REVIEWS, previousResults: [...ROWS, "{not json"] });
    expect(r.report.append_only?.rows[0]?.change).toBe('removed: the line "{not json" (not a valid row)');
  });

  it("lists at most 20 rows and counts them all; renders the rows in Markdown", async () => {
    const rewritten = ROWS.map((l) => l.replace('"review_revision":1', '"review_revision":0'));
    const { report } = await run({ results: rewritten, reviews: REVIEWS, previousResults: ROWS });
    expect(report.append_only?.rows_changed_or_removed).toBe(ROWS.length);
    expect(report.append_only?.rows).toHaveLength(20);
    expect(report.append_only?.rows.map((r) => r.line)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(report.append_only?.rows[0]?.change).toContain("review_revision 1 → 0");
    const { renderMarkdown } = await import("../../src/core/report/render-markdown.js");
    const md = renderMarkdown(report);
    expect(md).toContain("<summary><b>History rewritten</b>");
    expect(md).toContain(`**${ROWS.length} earlier rows were changed or removed**`);
    expect(md).toContain(
      "| <code>results\\-before\\.jsonl:1</code> | <code>results\\.jsonl:1</code> | changed:",
    );
    expect(md).toContain(`… and ${ROWS.length - 20} more rows.`);
    expect(md).toContain("| ❌&nbsp;fail | **History append-only** |");
  });

  it("refuses an unreadable previous file with a clear message", async () => {
    const dir = tempDir();
    const r = await cliInProcess(
      [
        "evaluate",
        "--results",
        file(dir, "r.jsonl", ROWS),
        "--policy",
        writePolicy(dir, POLICY),
        "--baseline",
        BASELINE,
        "--candidate",
        CANDIDATE,
        "--previous-results",
        "missing.jsonl",
      ],
      dir,
    );
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("The previous results file missing.jsonl cannot be compared");
  });
});

describe("RowTable", () => {
  it("matches each earlier row once, grows, and lists the first unmatched rows in file order", () => {
    const t = new RowTable(4);
    const n = 50_000;
    for (let i = 0; i < n; i++) t.add(hash53(`k${i % 40_000}`), hash53(`v${i}`), i);
    for (let i = n - 1; i >= 0; i--) {
      if (i % 1000 === 7) continue; // removed
      const v = i % 5000 === 3 ? `changed${i}` : `v${i}`;
      t.see(hash53(`k${i % 40_000}`), hash53(v), i, true);
    }
    const removed = Array.from({ length: n }, (_, i) => i).filter((i) => i % 1000 === 7);
    const changed = Array.from({ length: n }, (_, i) => i).filter((i) => i % 5000 === 3);
    expect(t.unmatchedCount()).toBe(removed.length + changed.length);
    const first = t.firstUnmatched(5);
    expect(first.map((u) => u.ordinal)).toEqual([...removed, ...changed].sort((a, b) => a - b).slice(0, 5));
    expect(first.map((u) => u.state)).toEqual([CHANGED, PENDING, PENDING, PENDING, PENDING]);
  });

  it("hashes to 53-bit integers that differ for near strings", () => {
    const seen = new Set<number>();
    let unsafe = 0;
    for (let i = 0; i < 100_000; i++) {
      const h = hash53(`task-${i}\u0000pass`);
      if (!Number.isSafeInteger(h) || h < 0) unsafe++;
      seen.add(h);
    }
    expect(unsafe).toBe(0);
    expect(seen.size).toBe(100_000);
  });
});
