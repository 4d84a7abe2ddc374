/**
 * Every hint is whole in every format: for reports that make each check fail in each of
 * its ways, and carry each kind of headline warning, every failing check's detail (its reason and
 * its fix), every reason and every warning appears whole in the report JSON, the Markdown (the
 * comment, the job summary and the check run's summary, each within its GitHub limit) and the
 * plain text; the check run's title names every failing check. And every count of failing checks
 * agrees with the rows it counts, in every format.
 */
import { describe, expect, it } from "vitest";
import { evaluate } from "../../src/core/decision/evaluate.js";
import type { EvaluationContext } from "../../src/core/decision/evaluation-types.js";
import { computeFragility } from "../../src/core/decision/fragility.js";
import { taskIdsRevision } from "../../src/read/derived-revisions.js";
import { appendOnlyCheck } from "../../src/core/history/append-only.js";
import type { AppendOnlyReport } from "../../src/core/history/history-types.js";
import { verdictByReviewRevision } from "../../src/core/history/verdict-by-revision.js";
import type { Dataset } from "../../src/core/model.js";
import type { Policy } from "../../src/core/policy/policy-types.js";
import { buildReport } from "../../src/core/report/build-report.js";
import { knownLabel, thresholdText } from "../../src/core/report/check-display.js";
import { formatPp } from "../../src/core/report/format-number.js";
import { CHECK_RUN_TEXT_MAX, COMMENT_BODY_MAX } from "../../src/core/report/github-limits.js";
import { renderMarkdown } from "../../src/core/report/render-markdown.js";
import { renderText } from "../../src/core/report/render-text.js";
import type { Report } from "../../src/core/report/report-types.js";
import { checkRunTitle } from "../../src/core/report/verdict-text.js";
import { acceptReport } from "./fixtures.js";
import {
  buildDataset,
  buildPolicy,
  repeat,
  type PolicySpec,
  type TaskSpec,
} from "../stats/dataset-builder.js";

/** The report runGate would build from this dataset, without reading files. */
function reportOf(dataset: Dataset, policy: Policy, ctx: EvaluationContext): Report {
  const evaluation = evaluate(dataset, policy, ctx);
  return buildReport({
    dataset,
    policy,
    policySource: { path: "policy.yaml", sha256: "0".repeat(64), source: "file", lastCommit: null },
    policyChanges: null,
    evaluation,
    fragility: computeFragility(dataset, policy, ctx, evaluation),
    extraWarnings: [],
    toolVersion: "0.1.0",
    verdictByReviewRevision: verdictByReviewRevision({ dataset, policy, ctx, evaluation }),
    asOfReview: null,
    appendOnly: null,
  });
}

const ctx: EvaluationContext = { canary: null, expired: false };
const FULL: PolicySpec = { missing_fraction: "< 2%", production_canary: true, common_valid_tasks: ">= 30" };

/** Task ids of a public benchmark: long, like SWE-Bench Pro's. */
const proId = (i: number): string =>
  `instance_NodeBB__NodeBB-${String(i).padStart(4, "0")}c70ce7b0541cfc94afe567921d7668cdc8f4ac-vnan`;

/** Two files imported without one --tasks list: each revision is the hash of its own file's ids. */
function separateUniverses(): Dataset {
  const ids = Array.from({ length: 40 }, (_, i) => proId(i));
  const baselineIds = ids.slice(0, 39);
  const candidateIds = ids.slice(1);
  const rb = taskIdsRevision(baselineIds);
  const rc = taskIdsRevision(candidateIds);
  const tasks: TaskSpec[] = [
    ...baselineIds.map((id, i): TaskSpec => ({
      id,
      rev: rb,
      validity: "unreviewed",
      b: i % 3 === 0 ? "pass" : "fail",
    })),
    ...candidateIds.map((id, i): TaskSpec => ({
      id,
      rev: rc,
      validity: "unreviewed",
      a: i % 2 === 0 ? "pass" : "fail",
    })),
  ];
  const placeholder = { harnessRevisions: ["unknown:swebench-pro"] };
  return buildDataset(tasks, { baseline: placeholder, candidate: placeholder });
}

/** A genuine partial run on one revision, with long real harness revisions that differ. */
function partialRun(): Dataset {
  const long = (side: string): string => `git:${side}-${"0123456789abcdef".repeat(12)}`;
  const tasks: TaskSpec[] = [
    ...repeat(20, { validity: "valid", a: "pass", b: "fail" }),
    ...repeat(5, { validity: "valid", a: "fail", b: "pass" }),
    ...repeat(8, { validity: "disputed", a: "pass", b: "pass" }),
    ...repeat(4, { validity: "valid", a: "pass" }),
    ...repeat(2, { validity: "valid", a: "infra", b: "infra" }),
  ];
  return buildDataset(tasks, {
    baseline: { harnessRevisions: [long("baseline")] },
    candidate: { harnessRevisions: [long("candidate")] },
  });
}

/** Benchmarks that differ by name: no revision is the hash of its ids, so no re-import advice. */
function otherBenchmark(): Dataset {
  const tasks: TaskSpec[] = [
    ...Array.from({ length: 12 }, (_, i): TaskSpec => ({
      id: `t${i}`,
      rev: "swe-bench-verified@v1",
      b: "pass",
    })),
    ...Array.from({ length: 12 }, (_, i): TaskSpec => ({
      id: `t${i}`,
      rev: "swe-bench-verified@v2",
      a: "fail",
    })),
  ];
  return buildDataset(tasks, { candidate: { harnessRevisions: ["git:h1", "unknown"] } });
}

/** Every evidence check passes; the margin cannot decide; clusters missing on some tasks. */
function clusteredWithoutClusters(): Dataset {
  const tasks: TaskSpec[] = [
    ...repeat(20, { validity: "valid", a: "pass", b: "fail", cluster: "org/repo" }),
    ...repeat(20, { validity: "valid", a: "fail", b: "pass" }),
  ];
  return buildDataset(tasks);
}

/** Wins in some repositories, losses in others: the tasks cluster. */
function clustered(clusters: number): Dataset {
  return buildDataset(
    Array.from({ length: 40 }, (_, i): TaskSpec => {
      const cluster = i % clusters;
      return {
        validity: "valid",
        cluster: `org/repo-${cluster}`,
        ...(cluster % 2 === 0 ? { a: "pass", b: "fail" } : { a: "fail", b: i % 3 === 0 ? "fail" : "pass" }),
      };
    }),
  );
}

/** The unmatched-labels warning with a long reviews path and long revisions. */
function unmatched(): Dataset {
  const d = clustered(4);
  return {
    ...d,
    unmatchedLabels: [
      {
        file: `reviews/${"nested/".repeat(30)}annotations.jsonl`,
        rows: 12,
        of: 40,
        revisions: ["a", "b", "c", "d"].map((x) => `sha256:${x.repeat(64)}`),
        moreRevisions: false,
      },
    ],
  };
}

function appendOnly(): AppendOnlyReport {
  return {
    previous_inputs: [{ kind: "results", path: "results.jsonl", sha256: "1".repeat(64) }],
    previous_rows: { results: 40, reviews: 0 },
    rows_changed_or_removed: 4,
    rows: [1, 2, 3, 4].map((line) => ({
      kind: "results" as const,
      file: "results.jsonl",
      line,
      current_file: null,
      current_line: null,
      change: `removed: task ${proId(line)} (rev1), model cfg-baseline, attempt 1`,
    })),
  };
}

const CASES: readonly { name: string; report: () => Report }[] = [
  {
    name: "two files imported without one --tasks list",
    report: () => reportOf(separateUniverses(), buildPolicy(FULL), ctx),
  },
  {
    name: "a genuine partial run, placeholder and long harness revisions, expired policy, infra counted",
    report: () =>
      reportOf(
        partialRun(),
        buildPolicy({ ...FULL, infra_errors: "count_as_fail", infra_error_rate: "< 1%" }),
        { canary: null, expired: true },
      ),
  },
  {
    name: "another benchmark version, a failed canary",
    report: () => reportOf(otherBenchmark(), buildPolicy(FULL), { canary: "fail", expired: false }),
  },
  {
    name: "clustered standard error with tasks lacking a cluster",
    report: () =>
      reportOf(
        clusteredWithoutClusters(),
        buildPolicy({ common_valid_tasks: ">= 30", standard_error: "clustered" }),
        ctx,
      ),
  },
  {
    name: "few clusters, labels that match nothing, rewritten history",
    report: () =>
      reportOf(unmatched(), buildPolicy({ common_valid_tasks: ">= 30", standard_error: "clustered" }), {
        canary: null,
        expired: false,
        extraChecks: [appendOnlyCheck(appendOnly())],
      }),
  },
  {
    name: "tasks that cluster under a paired standard error",
    report: () => reportOf(clustered(6), buildPolicy({ common_valid_tasks: ">= 30" }), ctx),
  },
];

/** Markdown back to the text it shows: tags, escapes, entities and break opportunities undone. */
function shownText(md: string): string {
  return md
    .replace(/<wbr>/g, "")
    .replace(/<\/?code>/g, "`")
    .replace(/<\/?(b|sub|summary|details)>/g, " ")
    .replace(/\\([\\`*_{}[\]()#+\-.!|~<>$^&:;'"=/@%,?])/g, "$1")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&#64;/g, "@")
    .replace(/&#35;/g, "#")
    .replace(/&#8203;|\u200b/g, "")
    .replace(/&amp;/g, "&")
    .replace(/\*\*/g, "")
    .replace(/\s+/g, " ");
}

const flat = (s: string): string => s.replace(/\s+/g, " ");

/** The hints a report holds: each failing check's detail, each reason, each warning. */
function hints(report: Report): { failing: string[]; reasons: string[]; warnings: string[] } {
  return {
    failing: report.checks.filter((c) => !c.passed && c.kind === "evidence").map((c) => c.detail),
    reasons: [...report.reasons],
    warnings: [...report.warnings],
  };
}

describe("every hint is whole in every format", () => {
  for (const c of CASES) {
    describe(c.name, () => {
      const report = c.report();
      const json = JSON.parse(JSON.stringify(report)) as Report;
      const markdowns = {
        comment: renderMarkdown(report, { marker: true, maxLength: COMMENT_BODY_MAX }),
        "check run summary": renderMarkdown(report, { maxLength: CHECK_RUN_TEXT_MAX }),
        "job summary": renderMarkdown(report),
      };
      const text = flat(renderText(report));

      it("fails the checks it is made for, and says why in the reasons", () => {
        const h = hints(report);
        expect(h.failing.length + h.warnings.length).toBeGreaterThan(0);
        if (report.verdict === "unresolved") {
          for (const k of report.checks.filter((x) => !x.passed && x.kind === "evidence")) {
            expect(json.reasons).toContain(`Check ${k.id} fails: ${k.detail}`);
          }
        }
      });

      it("writes no option cut short: every --flag it names is a whole flag of the importers", () => {
        for (const s of [...report.checks.map((k) => k.detail), ...report.reasons, ...report.warnings]) {
          for (const m of s.matchAll(/--[A-Za-z-]*/g)) {
            expect(["--harness-revision", "--tasks", "--dataset-revision"]).toContain(m[0]);
          }
          expect(s).not.toMatch(/--[a-z-]*…/);
        }
      });

      it("shows each failing check's reason and fix whole in the Markdown and the text", () => {
        // Unresolved: each failing evidence check is listed under "what would change the verdict".
        if (report.verdict !== "unresolved") return;
        for (const detail of hints(report).failing) {
          for (const [where, md] of Object.entries(markdowns)) {
            expect(shownText(md), where).toContain(flat(detail));
          }
          expect(text).toContain(flat(detail));
        }
      });

      it("shows each warning whole in the Markdown and the text", () => {
        for (const w of hints(report).warnings) {
          for (const [where, md] of Object.entries(markdowns))
            expect(shownText(md), where).toContain(flat(w));
          expect(text).toContain(flat(w));
        }
      });

      it("shows each check's threshold whole in the checks tables", () => {
        for (const k of report.checks) {
          const needs = thresholdText(k, report);
          for (const md of Object.values(markdowns)) expect(shownText(md)).toContain(` | ${needs} |`);
          expect(renderText(report)).toContain(`needs ${needs}`);
        }
      });

      it("shortens an observed value in the checks tables by whole tokens, never inside a word", () => {
        const mdCells = (md: string): string[] =>
          md
            .split("\n")
            .filter((l) => /^\| (✅&nbsp;pass|❌&nbsp;fail) \| /u.test(l))
            .map((l) => shownText(l.split(" | ")[2] ?? "").trim());
        const textCells = renderText(report)
          .split("\n")
          .map((l) => /^ {2}(?:pass|FAIL) {2}.*? {2,}(.*?) {2,}needs /.exec(l)?.[1])
          .filter((x): x is string => x !== undefined);
        const tables = [...Object.values(markdowns).map(mdCells), textCells];
        for (const cells of tables) {
          expect(cells).toHaveLength(report.checks.length);
          report.checks.forEach((k, i) => {
            if (typeof k.observed !== "string") return;
            const whole = k.observed.split(/[\s,;]+/u);
            for (const t of (cells[i] ?? "").split(/[\s,;]+/u)) {
              if (t === "…" || whole.includes(t)) continue;
              // A shortened token: its `scheme:` or `name@` prefix and 12 characters after it, then "…".
              expect(t, `${k.id}: ${cells[i]}`).toMatch(/^([A-Za-z0-9+.-]{1,7}:|[^@\s]+@)?.{12}…$/u);
              expect(
                whole.some((w) => w.startsWith(t.slice(0, -1))),
                t,
              ).toBe(true);
            }
          });
        }
      });

      it("names every failing check in the check run's title, whole", () => {
        const title = checkRunTitle(report);
        if (report.verdict !== "unresolved") return;
        for (const k of report.checks.filter((x) => !x.passed)) {
          expect(title).toContain(knownLabel(k.id) ?? "");
        }
      });

      it("counts failing checks as the rows it shows, in every format", () => {
        const failing = report.checks.filter((k) => !k.passed).length;
        const total = report.checks.length;
        for (const md of Object.values(markdowns)) {
          const rows = md.split("\n").filter((l) => /^\| (✅&nbsp;pass|❌&nbsp;fail) \| /u.test(l));
          expect(rows).toHaveLength(total);
          expect(rows.filter((l) => l.startsWith("| ❌&nbsp;fail |"))).toHaveLength(failing);
          // The why sentence counts them whenever an evidence check fails (else it says none does).
          const said = /\*\*(\d+) of (\d+) checks? fails?\*\*/.exec(md);
          if (
            report.verdict === "unresolved" &&
            report.checks.some((k) => !k.passed && k.kind === "evidence")
          )
            expect(said).not.toBeNull();
          if (said !== null) expect([Number(said[1]), Number(said[2])]).toEqual([failing, total]);
        }
        const lines = renderText(report).split("\n");
        const textRows = lines.filter((l) => /^ {2}(pass|FAIL) {2}/.test(l));
        expect(textRows).toHaveLength(total);
        expect(textRows.filter((l) => l.startsWith("  FAIL"))).toHaveLength(failing);
        expect(text).toContain(`Failing checks: ${failing} of ${total}.`);
        const title = /(\d+) checks? fails? \(/.exec(checkRunTitle(report));
        if (report.verdict === "unresolved") expect(Number(title?.[1])).toBe(failing);
      });
    });
  }
});

describe("the cases above cover every check's failure and every warning kind", () => {
  it("fails each check at least once, and raises each headline warning", () => {
    const reports = CASES.map((c) => c.report());
    const failed = new Set(reports.flatMap((r) => r.checks.filter((k) => !k.passed).map((k) => k.id)));
    expect([...failed].sort()).toEqual(
      [
        "append_only",
        "common_valid_tasks",
        "dataset_revision",
        "disputed_fraction",
        "infra_error_rate_baseline",
        "infra_error_rate_candidate",
        "missing_fraction_baseline",
        "missing_fraction_candidate",
        "observed_margin",
        "production_canary",
        "real_harness_revisions",
        "same_harness",
      ].sort(),
    );
    const warnings = reports.flatMap((r) => r.warnings).join("\n");
    for (const w of [
      "Policy expired on",
      "Infra errors are counted as fails",
      "standard_error is clustered but",
      "those labels apply to nothing",
      "Clustered standard error over 4 clusters",
      "The tasks cluster",
    ]) {
      expect(warnings).toContain(w);
    }
  });
});

describe("a conservative bound is named so wherever its figure is shown", () => {
  // Clustered: the bounds are conservative (SPEC §3 revision 2).
  const report = reportOf(
    clustered(6),
    buildPolicy({ common_valid_tasks: ">= 30", standard_error: "clustered" }),
    ctx,
  );
  const c = report.comparison;

  it("is a conservative report whose figures are defined", () => {
    expect([c.lcb_bound_kind, c.ucb_bound_kind]).toEqual(["conservative", "conservative"]);
    expect(c.lcb).not.toBeNull();
  });

  it("in every Markdown line and text paragraph that shows LCB or UCB", () => {
    const figures = [formatPp(c.lcb), formatPp(c.ucb)];
    const md = renderMarkdown(report);
    const mdLines = md.split("\n").filter((l) => figures.some((f) => l.includes(f)));
    expect(mdLines.length).toBeGreaterThanOrEqual(4);
    for (const line of mdLines) expect(line).toContain("conservative");
    const paragraphs = renderText(report)
      .split("\n\n")
      .map(flat)
      .filter((p) => figures.some((f) => p.includes(f)));
    expect(paragraphs.length).toBeGreaterThanOrEqual(3);
    for (const p of paragraphs) expect(p).toContain("conservative");
  });

  it("in the report JSON's reasons and the margin check, as the renderings name it", () => {
    expect(report.reasons.join("\n")).toContain(`LCB (conservative) = `);
    expect(report.checks.find((k) => k.id === "observed_margin")?.detail).toMatch(
      /^LCB \(conservative\) = Δ_L − q_max·SE_max = /,
    );
    expect(renderMarkdown(report)).toContain("LCB (conservative) = Δ\\_L − q\\_max · SE\\_max");
    expect(renderText(report)).toContain("LCB (conservative) = Δ_L − q_max · SE_max = ");
  });

  it("in the check run's title", () => {
    expect(checkRunTitle(report)).toContain(`bounds (conservative) ${formatPp(c.lcb)} … ${formatPp(c.ucb)}`);
  });

  it("in the verdict-by-review-revision table, on the rows whose bounds are conservative", () => {
    const base = acceptReport();
    const v = base.verdict_by_review_revision;
    if (v === null) throw new Error("the accept fixture has a verdict-by-review-revision table");
    const [first, second] = v.revisions;
    if (first === undefined || second === undefined) throw new Error("two revisions expected");
    const withKinds: Report = {
      ...base,
      verdict_by_review_revision: {
        ...v,
        revisions: [{ ...first, lcb_bound_kind: "conservative", ucb_bound_kind: "conservative" }, second],
      },
    };
    const lines = renderMarkdown(withKinds).split("\n");
    const rowOf = (r: typeof first): string | undefined =>
      lines.find((l) => l.includes(`| ${formatPp(r.lcb)} … ${formatPp(r.ucb)}`));
    expect(rowOf(first)).toContain(`${formatPp(first.lcb)} … ${formatPp(first.ucb)} (conservative) |`);
    expect(rowOf(second)).toBeDefined();
    expect(rowOf(second)).not.toContain("conservative");
  });

  it("and nowhere for exact bounds", () => {
    const exact = reportOf(clustered(6), buildPolicy({ common_valid_tasks: ">= 30" }), ctx);
    expect(exact.comparison.lcb_bound_kind).toBe("exact");
    for (const s of [renderMarkdown(exact), renderText(exact), checkRunTitle(exact), JSON.stringify(exact)]) {
      expect(s).not.toContain("conservative");
    }
  });
});
