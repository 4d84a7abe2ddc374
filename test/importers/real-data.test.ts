/**
 * The importers on real public data, through the committed imports of test/fixtures/real-data
 * (scripts/test-fixtures.mjs ran `model-gate import` on the public files; its README.md names them).
 * The expected figures were computed from the source files independently of the importers (plain
 * JSON and CSV readers, the labelling rule restated) and are pinned here: counts, and the sha256 of
 * the sorted ids that pass (or of the sorted "id<TAB>label" lines), so every row is checked, not
 * only a count. `node scripts/test-fixtures.mjs --check` (in .ci/run where the sources exist)
 * fails when the importers would now write something else.
 */
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { realDataNotes, realDataRows } from "../helpers/real-data.js";
import { revisionOf } from "./helpers.js";

const sha = (lines: readonly string[]) =>
  createHash("sha256")
    .update([...lines].sort().join("\n"))
    .digest("hex");
const count = <T>(xs: readonly T[], f: (x: T) => boolean) => xs.filter(f).length;
const ids = (
  rows: readonly Record<string, unknown>[],
  f: (o: Record<string, unknown>) => boolean = () => true,
) => rows.filter(f).map((o) => String(o["task_id"]));

/** The default Verified rule, restated independently. */
function label(us: number, fn: number, other: number, brokenAt = 3, disputedAt = 2): string {
  if (other >= 1) return "broken";
  const s = Math.max(us, fn);
  return s >= brokenAt ? "broken" : s >= disputedAt ? "disputed" : "valid";
}

/** The scores a verified-annotations row's note quotes from the CSV. */
function scores(note: unknown): [us: number, fn: number, other: number] {
  const m = /^underspecified=([\d.]+), false_negative=([\d.]+), other_major_issues=([\d.]+):/.exec(
    String(note),
  );
  if (m === null) throw new Error(`no scores in ${String(note)}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

describe("real data: SWE-bench Verified leaderboard per-instance results", () => {
  // Run folder → [resolved of 500, sha256 of the sorted resolved ids], from leaderboards.json.
  const runs: Record<string, [string, number, string]> = {
    "verified-opus-4-5": [
      "20251124_mini-v1.16.0_claude-opus-4-5-20251101",
      372,
      "2cd44bfb2a0142d4eb766435ac294fcdfd95ca50c4846528624351a9e05303eb",
    ],
    "verified-gemini-3-pro": [
      "20251118_mini-v1.15.0_gemini-3-pro-preview-20251118",
      371,
      "94302a399125be1993a0fd42d67e2f3a70f8a1a4efaedd4993ac1a465d30499e",
    ],
    "verified-claude-4-opus": [
      "20250802_mini-v1.0.0_claude-4-opus-20250514",
      338,
      "65d03392e7381ef4fa64b86b949caf65155ae54a1feff962d1803fcfd1c47a0f",
    ],
    "verified-gpt-5-mini-v1.7.0": [
      "20250807_mini-v1.7.0_gpt-5",
      325,
      "373d8b595107157d9c74650958dc93addfe11707682336dfefae51066929f09c",
    ],
    "verified-sonnet-4-5-mini-v1.13.3": [
      "20250929_mini-v1.13.3_sonnet-4-5-20250929",
      353,
      "2667dd47a91023e298ec1d02d7d58fd18b21b5a311e9d8a2457b4fae93ffda50",
    ],
  };

  test("each run: 500 tasks, pass exactly where the file says resolved, one dataset revision, the run's folder as model", () => {
    for (const [name, [folder, passes, passIds]] of Object.entries(runs)) {
      const rows = realDataRows(name);
      expect(rows.length, name).toBe(500);
      expect(
        count(rows, (o) => o["result"] === "pass"),
        name,
      ).toBe(passes);
      expect(
        count(rows, (o) => o["result"] === "fail"),
        name,
      ).toBe(500 - passes);
      expect(sha(ids(rows, (o) => o["result"] === "pass")), name).toBe(passIds);
      expect(new Set(rows.map((o) => o["dataset_revision"]))).toEqual(new Set([revisionOf(ids(rows))]));
      expect(new Set(rows.map((o) => o["model_config"]))).toEqual(new Set([folder]));
      expect(new Set(rows.map((o) => o["harness_revision"]))).toEqual(
        new Set(["unknown:swebench-leaderboard"]),
      );
      expect(realDataNotes(name)).toContain(
        `500 rows: ${passes} pass, ${500 - passes} fail, 0 infra_error, 0 missing`,
      );
    }
    // Every run covers the same 500 Verified ids.
    expect(new Set(Object.keys(runs).map((n) => sha(ids(realDataRows(n))))).size).toBe(1);
  });

  test("the 3.7 Sonnet entry's published 52.8% is flagged: its per-instance values say 51/500", () => {
    expect(realDataNotes("verified-sonnet-3-7")).toContain(
      "WARNING: the entry publishes resolved = 52.8%, but its per_instance_details have 51/500 resolved = 10.20%; the per-instance values are imported",
    );
  });
});

describe("real data: OpenAI's SWE-bench Verified annotations", () => {
  test("all 1,699 rows: each label follows the rule from the scores it quotes; the counts equal an independent count", () => {
    const rows = realDataRows("annotations-all");
    expect(rows.length).toBe(1699);
    for (const o of rows) expect(o["validity"], String(o["task_id"])).toBe(label(...scores(o["note"])));
    expect(sha(rows.map((o) => `${String(o["task_id"])}\t${String(o["validity"])}`))).toBe(
      "7667c416e5f07614441b0b16ff73eb13465a6c332b4b6b82df58e838faa4e8d7",
    );
    expect([
      count(rows, (o) => o["validity"] === "valid"),
      count(rows, (o) => o["validity"] === "disputed"),
      count(rows, (o) => o["validity"] === "broken"),
    ]).toEqual([539, 591, 569]);
    // The default rule reproduces OpenAI's own filter: 591 + 569 = the 1160 with filter_out=True.
    expect(realDataNotes("annotations-all")).toContain(
      "labels: 1699 tasks: 539 valid, 591 disputed, 569 broken (1160 of them have filter_out=True, i.e. OpenAI left them out of Verified)",
    );
  });

  test("restricted to the 500 Verified ids: all valid under the default rule; 321 disputed under --disputed-at 1", () => {
    const verified = ids(realDataRows("verified-opus-4-5"));
    const rows = realDataRows("annotations-verified");
    expect(rows.length).toBe(500);
    expect(new Set(rows.map((o) => o["validity"]))).toEqual(new Set(["valid"]));
    expect(new Set(rows.map((o) => o["dataset_revision"]))).toEqual(new Set([revisionOf(verified)]));
    expect(realDataNotes("annotations-verified")).toContain(
      "1199 annotated instances outside the task list verified-tasks.txt were left out: " +
        "astropy__astropy-11693, astropy__astropy-12544, astropy__astropy-12825, astropy__astropy-12842, astropy__astropy-12880 and 1194 more",
    );
    const strict = realDataRows("annotations-verified-disputed-at-1");
    for (const o of strict)
      expect(o["validity"], String(o["task_id"])).toBe(label(...scores(o["note"]), 3, 1));
    expect(sha(strict.map((o) => `${String(o["task_id"])}\t${String(o["validity"])}`))).toBe(
      "bd8370f110194456f8972f863a1aaae89cb810c9f13e07a168936e5894180e75",
    );
    expect(count(strict, (o) => o["validity"] === "disputed")).toBe(321);
    expect(count(strict, (o) => o["validity"] === "valid")).toBe(179);
  });
});

describe("real data: SWE-Bench Pro eval_results.json against the 731-task public listing", () => {
  // Run → [pass, fail, missing, ids of the file outside the listing], counted from the source.
  const pinned: Record<string, [pass: number, fail: number, missing: number, outside: number]> = {
    "pro-claude-45sonnet": [319, 411, 1, 0],
    "pro-claude-4sonnet": [240, 322, 169, 0],
    "pro-claude-opus-4-1-paper": [162, 501, 68, 228],
    "pro-claude-sonnet-4-paper": [166, 497, 68, 0],
    "pro-gemini-2-5-pro-paper": [90, 629, 12, 236],
    "pro-gpt-4o-paper": [36, 583, 112, 0],
    "pro-gpt-5-250-turns": [265, 464, 2, 0],
    "pro-gptoss-paper": [118, 610, 3, 0],
    "pro-kimi-k2": [202, 527, 2, 0],
  };

  test("each run: 731 rows; pass/fail/missing and the ids left out match the source", () => {
    for (const [name, [pass, fail, missing, outside]] of Object.entries(pinned)) {
      const notes = realDataNotes(name);
      expect(notes, name).toContain(
        `731 rows: ${pass} pass, ${fail} fail, 0 infra_error, ${missing} missing`,
      );
      const leftOut = notes.find((n) => n.includes("outside the task list"));
      if (outside === 0) expect(leftOut, name).toBeUndefined();
      else
        expect(
          leftOut?.startsWith(
            `${outside} ids of the file outside the task list pro-tasks.txt were left out (not counted): `,
          ),
          name,
        ).toBe(true);
    }
  });

  // Run → [sha256 of the sorted ids that pass, of the sorted listed ids absent from the file].
  const rowsPinned: Record<string, [string, string, string]> = {
    "pro-gpt-5-250-turns": [
      "gpt-5-250-turns-10132025",
      "655fdaef0ff9a7f737595e9f7d24ff2d7467faffdf82b97288c42b3063daab9a",
      "46dfd2cde8dcc8dcad461c4676a1aad4150180097e615aed9371f7d50d9d8b1f",
    ],
    "pro-claude-45sonnet": [
      "claude-45sonnet-10132025",
      "d89194b3b5d3805321f95938df26d1867fd6aad73d806dce7a4038b9f092aed7",
      "e70dbe70731d55a216c3971924ffa188b5cd8df69f382da55642354024d5c3e0",
    ],
    "pro-kimi-k2": [
      "kimi-k2-instruct-10132025",
      "92f77dc8e343682ce01c680adfcac90e298e1fc811567514aaaac39ad9a7b723",
      "92d31d882ab92ad7199f5e8d67c0527a4f1d664d676f64e74434f69ae8214d84",
    ],
  };

  test("the runs the gate tests read: every row as the source has it, one revision of the 731 listed ids", () => {
    const revisions = new Set<unknown>();
    for (const [name, [run, passIds, missingIds]] of Object.entries(rowsPinned)) {
      const rows = realDataRows(name);
      const [pass = 0, fail = 0, missing = 0] = pinned[name] ?? [];
      expect(rows.length, name).toBe(731);
      expect([
        count(rows, (o) => o["result"] === "pass"),
        count(rows, (o) => o["result"] === "fail"),
        count(rows, (o) => o["result"] === "missing"),
      ]).toEqual([pass, fail, missing]);
      expect(sha(ids(rows, (o) => o["result"] === "pass")), name).toBe(passIds);
      expect(sha(ids(rows, (o) => o["result"] === "missing")), name).toBe(missingIds);
      expect(new Set(rows.map((o) => o["model_config"]))).toEqual(new Set([run]));
      expect(new Set(rows.map((o) => o["dataset_revision"]))).toEqual(new Set([revisionOf(ids(rows))]));
      for (const o of rows) revisions.add(o["dataset_revision"]);
    }
    expect(revisions.size).toBe(1);
  });
});
