/**
 * The gate on two real runs: import two SWE-bench Verified leaderboard runs and OpenAI's Verified
 * annotations (as reviews), read them with the core reader, evaluate, and check the figures
 * against numbers computed here straight from the source files (plain JSON.parse, a separate CSV
 * splitter, the SPEC formulas restated). Skipped when ../shared/data/public-results is absent.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { evaluate } from "../../src/core/decision/evaluate.js";
import { InputError } from "../../src/core/errors.js";
import { readDataset } from "../../src/read/read-dataset.js";
import { parsePolicy } from "../../src/core/policy/load-policy.js";
import { runImport } from "../../src/importers/index.js";
import { PUBLIC_RESULTS as PUBLIC, sharedDataPresent } from "../helpers/shared-data.js";
import { REAL_DATA_POLICY as POLICY, exactBounds, pairedSe, sum } from "./helpers.js";

const LEADERBOARDS = join(PUBLIC, "swe-bench.github.io/data/leaderboards.json");
const ANNOTATIONS = join(PUBLIC, "openai-verified-annotations/ensembled_annotations_public.csv");
const present = sharedDataPresent("the gate on real data", [LEADERBOARDS, ANNOTATIONS]);

const CANDIDATE = "20251124_mini-v1.16.0_claude-opus-4-5-20251101";
const BASELINE = "20251118_mini-v1.15.0_gemini-3-pro-preview-20251118";
/** t_{0.95, 499} (scipy.stats.t.ppf): the default quantile t on 500 valid tasks, ν = n − 1. */
const T95_499 = 1.6479129840597124;

/** Per-instance resolved flags of a run, straight from the file. */
function resolvedOf(folder: string): Map<string, boolean> {
  const doc = JSON.parse(readFileSync(LEADERBOARDS, "utf8")) as {
    leaderboards: {
      name: string;
      results: { folder: string; per_instance_details?: Record<string, { resolved: boolean }> }[];
    }[];
  };
  for (const b of doc.leaderboards) {
    for (const e of b.results) {
      if (e.folder === folder && e.per_instance_details) {
        return new Map(Object.entries(e.per_instance_details).map(([id, v]) => [id, v.resolved]));
      }
    }
  }
  throw new Error(`no run ${folder}`);
}

/** A CSV splitter independent of src/importers/csv.ts. */
function splitCsv(text: string): string[][] {
  const re = /(?:"((?:[^"]|"")*)"|([^,\r\n"]*))(,|\r\n|\n|$)/y;
  const rows: string[][] = [];
  let row: string[] = [];
  while (re.lastIndex < text.length) {
    const m = re.exec(text);
    if (m === null) throw new Error("CSV split failed");
    row.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : (m[2] ?? ""));
    if (m[3] !== ",") {
      rows.push(row);
      row = [];
    }
  }
  return rows;
}

/** max(underspecified, false_negative) and other_major_issues per instance. */
function annotationScores(): Map<string, { s: number; other: number }> {
  const [header, ...rows] = splitCsv(readFileSync(ANNOTATIONS, "utf8").replace(/^\uFEFF/, ""));
  const col = (n: string) => (header ?? []).indexOf(n);
  return new Map(
    rows.map((r) => [
      r[col("instance_id")] ?? "",
      {
        s: Math.max(Number(r[col("underspecified")]), Number(r[col("false_negative")])),
        other: Number(r[col("other_major_issues")]),
      },
    ]),
  );
}

describe.skipIf(!present)("the gate on two real SWE-bench Verified runs with OpenAI's annotations", () => {
  const dir = mkdtempSync(join(tmpdir(), "gate-real-"));
  const write = async (name: string, lines: Promise<{ lines: string[] }>) => {
    const path = join(dir, name);
    writeFileSync(path, (await lines).lines.map((l) => `${l}\n`).join(""));
    return path;
  };
  const verifiedTasks = () => {
    const path = join(dir, "verified.txt");
    writeFileSync(path, [...resolvedOf(CANDIDATE).keys()].join("\n") + "\n");
    return path;
  };
  const run = async (reviewArgs: { disputedAt?: number }) => {
    const tasks = verifiedTasks();
    const a = await write(
      "opus.jsonl",
      runImport({ kind: "swebench-leaderboard", file: LEADERBOARDS, run: CANDIDATE }),
    );
    const b = await write(
      "gemini.jsonl",
      runImport({ kind: "swebench-leaderboard", file: LEADERBOARDS, run: BASELINE }),
    );
    const reviews = await write(
      "reviews.jsonl",
      runImport({ kind: "verified-annotations", file: ANNOTATIONS, tasks, ...reviewArgs }),
    );
    const dataset = await readDataset({
      results: [b, a],
      reviews: [reviews],
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

    const ev = await run({});
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
    const scores = annotationScores();
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

    const ev = await run({ disputedAt: 1 });
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
    const gate = async (harness: { a?: string; b?: string }) => {
      const a = await write(
        "newer.jsonl",
        runImport({
          kind: "swebench-leaderboard",
          file: LEADERBOARDS,
          run: newer,
          board: "Verified",
          ...(harness.a !== undefined ? { harnessRevision: harness.a } : {}),
        }),
      );
      const b = await write(
        "older.jsonl",
        runImport({
          kind: "swebench-leaderboard",
          file: LEADERBOARDS,
          run: older,
          board: "Verified",
          ...(harness.b !== undefined ? { harnessRevision: harness.b } : {}),
        }),
      );
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
    const a = await write(
      "opus.jsonl",
      runImport({ kind: "swebench-leaderboard", file: LEADERBOARDS, run: CANDIDATE }),
    );
    const b = await write(
      "gemini.jsonl",
      runImport({ kind: "swebench-leaderboard", file: LEADERBOARDS, run: BASELINE }),
    );
    const reviews = await write(
      "sheet.jsonl",
      runImport({ kind: "verified-annotations", file: ANNOTATIONS }),
    );
    // Independently: the results' revision is that of the 500 run ids, the sheet's that of its 1,699 ids.
    const ids = [...resolvedOf(CANDIDATE).keys()];
    const sheetIds = [...annotationScores().keys()];
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
