/**
 * The gate on two real runs: two SWE-bench Verified leaderboard runs and OpenAI's Verified
 * annotations (as reviews), imported by `model-gate import` into test/fixtures/real-data (its
 * README.md names the sources and commands), read with the core reader and evaluated; the figures
 * are checked against numbers computed here from the imported rows (pass/fail per task, the
 * annotation scores each review quotes, the SPEC formulas restated).
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import { evaluate } from "../../src/core/decision/evaluate.js";
import { InputError } from "../../src/core/errors.js";
import { readDataset } from "../../src/read/read-dataset.js";
import { parsePolicy } from "../../src/core/policy/load-policy.js";
import { realData, realDataRows } from "../helpers/real-data.js";
import { REAL_DATA_POLICY as POLICY, exactBounds, pairedSe, sum } from "./helpers.js";

const CANDIDATE = "20251124_mini-v1.16.0_claude-opus-4-5-20251101";
const BASELINE = "20251118_mini-v1.15.0_gemini-3-pro-preview-20251118";
const FIXTURE: Record<string, string> = {
  [CANDIDATE]: "verified-opus-4-5",
  [BASELINE]: "verified-gemini-3-pro",
};
/** t_{0.95, 499} (scipy.stats.t.ppf): the default quantile t on 500 valid tasks, ν = n − 1. */
const T95_499 = 1.6479129840597124;

/** Per-task pass of a run, from its imported rows. */
function resolvedOf(folder: string): Map<string, boolean> {
  return new Map(
    realDataRows(FIXTURE[folder] ?? "").map((o) => [String(o["task_id"]), o["result"] === "pass"]),
  );
}

/** max(underspecified, false_negative) and other_major_issues per task, as each review's note quotes them. */
function annotationScores(name: string): Map<string, { s: number; other: number }> {
  return new Map(
    realDataRows(name).map((o) => {
      const m = /^underspecified=([\d.]+), false_negative=([\d.]+), other_major_issues=([\d.]+):/.exec(
        String(o["note"]),
      );
      if (m === null) throw new Error(`no scores in ${String(o["note"])}`);
      return [String(o["task_id"]), { s: Math.max(Number(m[1]), Number(m[2])), other: Number(m[3]) }];
    }),
  );
}

describe("the gate on two real SWE-bench Verified runs with OpenAI's annotations", () => {
  const run = async (reviews: string) => {
    const dataset = await readDataset({
      results: [realData(FIXTURE[BASELINE] ?? ""), realData(FIXTURE[CANDIDATE] ?? "")],
      reviews: [realData(reviews)],
      baseline: BASELINE,
      candidate: CANDIDATE,
    });
    return evaluate(dataset, parsePolicy(POLICY, "policy.yaml"), { canary: null, expired: false });
  };

  test("default annotation rule: 500 valid common tasks, 372 vs 371 passes, margin 0.002 ± t·SE → unresolved", async () => {
    const a = resolvedOf(CANDIDATE);
    const b = resolvedOf(BASELINE);
    const ids = [...a.keys()];
    const d = ids.map((id) => Number(a.get(id)) - Number(b.get(id)));
    const passesA = ids.filter((id) => a.get(id)).length;
    const passesB = ids.filter((id) => b.get(id)).length;
    expect([ids.length, passesA, passesB]).toEqual([500, 372, 371]);
    const margin = sum(d) / d.length;
    const se = pairedSe(d);

    const ev = await run("annotations-verified");
    expect(ev.models.candidate.passes).toBe(passesA);
    expect(ev.models.baseline.passes).toBe(passesB);
    expect(ev.models.candidate.valid_only_score).toBeCloseTo(passesA / 500, 12);
    expect(ev.models.baseline.valid_only_score).toBeCloseTo(passesB / 500, 12);
    expect(ev.comparison.common_tasks).toBe(500);
    expect(ev.comparison.common_valid_tasks).toBe(500);
    expect(ev.comparison.disputed_tasks).toBe(0);
    expect(ev.comparison.broken_tasks).toBe(0);
    expect(ev.comparison.margin).toBeCloseTo(margin, 12);
    expect(margin).toBeCloseTo(0.002, 12);
    expect(ev.comparison.se_valid).toBeCloseTo(se, 12);
    expect(ev.comparison.q_lower).toBeCloseTo(T95_499, 12);
    expect(ev.comparison.lcb).toBeCloseTo(margin - T95_499 * se, 9);
    expect(ev.comparison.ucb).toBeCloseTo(margin + T95_499 * se, 9);
    expect(ev.verdict).toBe("unresolved");
  });

  test("--disputed-at 1: 179 valid, 321 disputed; margin and exact bounds match the source", async () => {
    const a = resolvedOf(CANDIDATE);
    const b = resolvedOf(BASELINE);
    const scores = annotationScores("annotations-verified-disputed-at-1");
    const valid: number[] = [];
    const open: number[] = [];
    for (const id of a.keys()) {
      const s = scores.get(id);
      if (s === undefined) throw new Error(`no annotation for ${id}`);
      const dt = Number(a.get(id)) - Number(b.get(id));
      if (s.other >= 1 || s.s >= 3) continue; // broken (none among the Verified ids)
      (s.s >= 1 ? open : valid).push(dt);
    }
    expect([valid.length, open.length]).toEqual([179, 321]);
    const [lo, hi] = exactBounds(valid, open);

    const ev = await run("annotations-verified-disputed-at-1");
    expect(ev.comparison.common_valid_tasks).toBe(179);
    expect(ev.comparison.disputed_tasks).toBe(321);
    expect(ev.comparison.disputed_fraction).toBeCloseTo(321 / 500, 12);
    expect(ev.comparison.margin).toBeCloseTo(sum(valid) / valid.length, 12);
    expect(ev.comparison.margin_lower).toBeCloseTo(lo, 12);
    expect(ev.comparison.margin_upper).toBeCloseTo(hi, 12);
    expect(ev.comparison.se_valid).toBeCloseTo(pairedSe(valid), 12);
    expect(ev.verdict).toBe("unresolved");
    const failing = ev.checks.filter((c) => !c.passed).map((c) => c.id);
    expect(failing).toEqual(expect.arrayContaining(["common_valid_tasks", "disputed_fraction"]));
  });

  test("the issue's case: mini-v1.7.0 vs mini-v1.13.3 both imported without a revision never pass same_harness", async () => {
    const older = "20250807_mini-v1.7.0_gpt-5";
    const newer = "20250929_mini-v1.13.3_sonnet-4-5-20250929";
    const dir = mkdtempSync(join(tmpdir(), "gate-real-"));
    // The imports again with `--harness-revision R`, which sets that field on every row (and
    // nothing else: test/importers/swebench.test.ts); undefined keeps the committed import.
    const withHarness = (name: string, harness: string | undefined): string => {
      if (harness === undefined) return realData(name);
      const path = join(dir, `${name}-${harness.replace(/\W/g, "_")}.jsonl`);
      const rows = gunzipSync(readFileSync(realData(name))).toString("utf8");
      writeFileSync(
        path,
        rows.replaceAll(
          '"harness_revision":"unknown:swebench-leaderboard"',
          `"harness_revision":${JSON.stringify(harness)}`,
        ),
      );
      return path;
    };
    const gate = async (harness: { a?: string; b?: string }) => {
      const a = withHarness("verified-sonnet-4-5-mini-v1.13.3", harness.a);
      const b = withHarness("verified-gpt-5-mini-v1.7.0", harness.b);
      const dataset = await readDataset({ results: [b, a], reviews: [], baseline: older, candidate: newer });
      return evaluate(dataset, parsePolicy(POLICY, "policy.yaml"), { canary: null, expired: false });
    };
    const placeholder = await gate({});
    expect(placeholder.models.baseline.harness_revisions).toEqual(["unknown:swebench-leaderboard"]);
    expect(placeholder.models.candidate.harness_revisions).toEqual(["unknown:swebench-leaderboard"]);
    const same = placeholder.checks.find((c) => c.id === "same_harness");
    const real = placeholder.checks.find((c) => c.id === "real_harness_revisions");
    expect([same?.passed, real?.passed]).toEqual([false, false]);
    expect(real?.detail).toContain("`model-gate import swebench-leaderboard … --harness-revision R`");
    expect(placeholder.verdict).toBe("unresolved");
    // With real (different) revisions, same_harness reports the difference; with one, it passes.
    const two = await gate({ a: "mini-swe-agent@v1.13.3", b: "mini-swe-agent@v1.7.0" });
    expect(two.checks.find((c) => c.id === "same_harness")).toMatchObject({
      observed: "mini-swe-agent@v1.13.3, mini-swe-agent@v1.7.0",
      passed: false,
    });
    expect(two.checks.find((c) => c.id === "real_harness_revisions")?.passed).toBe(true);
    const one = await gate({ a: "git:harness-1", b: "git:harness-1" });
    expect(one.checks.find((c) => c.id === "same_harness")?.passed).toBe(true);
    expect(one.checks.find((c) => c.id === "real_harness_revisions")?.passed).toBe(true);
  });

  test("reviews imported without --tasks match no compared task: an input error naming both revisions and the fix", async () => {
    const a = realData(FIXTURE[CANDIDATE] ?? "");
    const b = realData(FIXTURE[BASELINE] ?? "");
    const reviews = realData("annotations-all");
    // Independently: the results' revision is that of the 500 run ids, the sheet's that of its 1,699 ids.
    const ids = [...resolvedOf(CANDIDATE).keys()];
    const sheetIds = [...annotationScores("annotations-all").keys()];
    expect([ids.length, sheetIds.length]).toEqual([500, 1699]);
    const sha = (xs: string[]) =>
      `sha256:${createHash("sha256")
        .update([...xs].sort().join("\n"))
        .digest("hex")}`;
    let message = "";
    try {
      await readDataset({ results: [b, a], reviews: [reviews], baseline: BASELINE, candidate: CANDIDATE });
    } catch (e) {
      expect(e).toBeInstanceOf(InputError);
      message = (e as Error).message;
    }
    expect(message).toContain(
      `none of its 1699 review rows labels a task the baseline or the candidate ran: its rows are under dataset revision "${sha(sheetIds)}", and the compared tasks under "${sha(ids)}"`,
    );
    expect(message).toContain(
      "re-import the reviews with --dataset-revision set to the results' revision, or with the same --tasks list",
    );
  });
});
