/**
 * Proof on real public data (../shared/data/public-results, see its SOURCES.md). The files are read
 * in place, never copied into the repository; the suite is skipped when they are absent. Every
 * expected count is computed here from the source file independently of the importers (plain
 * JSON.parse, a separate regex CSV splitter), and a few are also pinned as literals.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runImport } from "../../src/importers/index.js";
import { PUBLIC_RESULTS as PUBLIC, sharedDataPresent } from "../helpers/shared-data.js";
import { parseLines, revisionOf } from "./helpers.js";

const LEADERBOARDS = join(PUBLIC, "swe-bench.github.io/data/leaderboards.json");
const ANNOTATIONS = join(PUBLIC, "openai-verified-annotations/ensembled_annotations_public.csv");
const PRO_LISTING = join(PUBLIC, "swe-bench-pro/instance_dockerfile_listing.txt");
const PRO_TRAJ = join(PUBLIC, "swe-bench-pro/traj");
const present = sharedDataPresent("the importers on real data", [LEADERBOARDS, ANNOTATIONS, PRO_LISTING]);

interface Entry {
  folder: string;
  resolved: number;
  per_instance_details?: Record<string, { resolved: boolean }>;
}
function leaderboardRuns(): Map<string, Record<string, { resolved: boolean }>> {
  const doc = JSON.parse(readFileSync(LEADERBOARDS, "utf8")) as { leaderboards: { results: Entry[] }[] };
  const runs = new Map<string, Record<string, { resolved: boolean }>>();
  for (const b of doc.leaderboards) {
    for (const e of b.results) if (e.per_instance_details) runs.set(e.folder, e.per_instance_details);
  }
  return runs;
}

/** A CSV splitter written independently of src/importers/csv.ts (one sticky regex). */
function splitCsv(text: string): string[][] {
  const src = text.replace(/^\uFEFF/, "");
  const re = /(?:"((?:[^"]|"")*)"|([^,\r\n"]*))(,|\r\n|\n|$)/y;
  const rows: string[][] = [];
  let row: string[] = [];
  while (re.lastIndex < src.length) {
    const m = re.exec(src);
    if (m === null) throw new Error(`CSV split failed at ${re.lastIndex}`);
    row.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : (m[2] ?? ""));
    if (m[3] !== ",") {
      rows.push(row);
      row = [];
    }
  }
  return rows;
}

/** The default Verified rule, restated independently. */
function label(us: number, fn: number, other: number, brokenAt = 3, disputedAt = 2): string {
  if (other >= 1) return "broken";
  const s = Math.max(us, fn);
  return s >= brokenAt ? "broken" : s >= disputedAt ? "disputed" : "valid";
}

function annotations(): { id: string; us: number; fn: number; other: number; filterOut: string }[] {
  const [header, ...rows] = splitCsv(readFileSync(ANNOTATIONS, "utf8"));
  const col = (name: string) => (header ?? []).indexOf(name);
  return rows.map((r) => ({
    id: r[col("instance_id")] ?? "",
    us: Number(r[col("underspecified")]),
    fn: Number(r[col("false_negative")]),
    other: Number(r[col("other_major_issues")]),
    filterOut: r[col("filter_out")] ?? "",
  }));
}

const count = <T>(xs: readonly T[], f: (x: T) => boolean) => xs.filter(f).length;

describe.skipIf(!present)("real data: SWE-bench Verified leaderboard per-instance results", () => {
  test("every run with per_instance_details: 500 tasks, passes = resolved true in the file, one dataset revision", async () => {
    const runs = leaderboardRuns();
    expect(runs.size).toBe(25);
    const ids = Object.keys(runs.values().next().value ?? {});
    expect(ids.length).toBe(500);
    const rev = revisionOf(ids);
    for (const [folder, details] of runs) {
      const r = await runImport({ kind: "swebench-leaderboard", file: LEADERBOARDS, run: folder });
      const rows = parseLines(r.lines);
      expect(rows.length).toBe(500);
      const expectedPasses = count(Object.values(details), (d) => d.resolved);
      expect(count(rows, (o) => o["result"] === "pass")).toBe(expectedPasses);
      expect(count(rows, (o) => o["result"] === "fail")).toBe(500 - expectedPasses);
      expect(new Set(rows.map((o) => o["dataset_revision"]))).toEqual(new Set([rev]));
      expect(new Set(rows.map((o) => o["model_config"]))).toEqual(new Set([folder]));
      for (const o of rows) {
        expect(o["result"]).toBe(details[o["task_id"] as string]?.resolved ? "pass" : "fail");
      }
    }
  });

  test("pinned: Claude 4.5 Opus 372/500, Gemini 3 Pro 371/500; the 3.7 Sonnet entry's published 52.8% is flagged", async () => {
    const passes = async (run: string) =>
      count(
        parseLines((await runImport({ kind: "swebench-leaderboard", file: LEADERBOARDS, run })).lines),
        (o) => o["result"] === "pass",
      );
    expect(await passes("20251124_mini-v1.16.0_claude-opus-4-5-20251101")).toBe(372);
    expect(await passes("20251118_mini-v1.15.0_gemini-3-pro-preview-20251118")).toBe(371);
    const sonnet37 = await runImport({
      kind: "swebench-leaderboard",
      file: LEADERBOARDS,
      run: "20250720_mini-v0.0.0-claude-3-7-sonnet-20250219",
      board: "Verified",
    });
    expect(sonnet37.notes).toContain(
      "WARNING: the entry publishes resolved = 52.8%, but its per_instance_details have 51/500 resolved = 10.20%; the per-instance values are imported",
    );
  });
});

describe.skipIf(!present)("real data: OpenAI's SWE-bench Verified annotations", () => {
  test("all 1,699 rows: label counts equal an independent count; valid ⇔ filter_out=False", async () => {
    const rows = annotations();
    expect(rows.length).toBe(1699);
    const r = await runImport({ kind: "verified-annotations", file: ANNOTATIONS });
    const out = parseLines(r.lines);
    expect(out.length).toBe(1699);
    const expected = new Map(rows.map((a) => [a.id, label(a.us, a.fn, a.other)]));
    for (const o of out) expect(o["validity"]).toBe(expected.get(o["task_id"] as string));
    const labels = [...expected.values()];
    expect([
      count(labels, (l) => l === "valid"),
      count(labels, (l) => l === "disputed"),
      count(labels, (l) => l === "broken"),
    ]).toEqual([539, 591, 569]);
    // The default rule reproduces OpenAI's own filter: a task is valid exactly when filter_out is False.
    for (const a of rows) expect(label(a.us, a.fn, a.other) === "valid").toBe(a.filterOut === "False");
    expect(r.notes[1]).toBe(
      "labels: 1699 tasks: 539 valid, 591 disputed, 569 broken (1160 of them have filter_out=True, i.e. OpenAI left them out of Verified)",
    );
  });

  test("restricted to the 500 Verified ids: all valid under the default rule; 321 disputed under --disputed-at 1", async () => {
    const dir = mkdtempSync(join(tmpdir(), "verified-"));
    const verified = Object.keys(leaderboardRuns().values().next().value ?? {});
    const tasks = join(dir, "verified.txt");
    writeFileSync(tasks, verified.join("\n") + "\n");
    const r = await runImport({ kind: "verified-annotations", file: ANNOTATIONS, tasks });
    const out = parseLines(r.lines);
    expect(out.length).toBe(500);
    expect(new Set(out.map((o) => o["validity"]))).toEqual(new Set(["valid"]));
    expect(new Set(out.map((o) => o["dataset_revision"]))).toEqual(new Set([revisionOf(verified)]));
    expect(r.notes).toContain(
      `1199 annotated instances outside the task list ${tasks} were left out: ` +
        "astropy__astropy-11693, astropy__astropy-12544, astropy__astropy-12825, astropy__astropy-12842, astropy__astropy-12880 and 1194 more",
    );
    const strict = parseLines(
      (await runImport({ kind: "verified-annotations", file: ANNOTATIONS, tasks, disputedAt: 1 })).lines,
    );
    const inVerified = annotations().filter((a) => verified.includes(a.id));
    const expectedDisputed = count(inVerified, (a) => label(a.us, a.fn, a.other, 3, 1) === "disputed");
    expect(expectedDisputed).toBe(321);
    expect(count(strict, (o) => o["validity"] === "disputed")).toBe(expectedDisputed);
    expect(count(strict, (o) => o["validity"] === "valid")).toBe(179);
  });
});

describe.skipIf(!present)(
  "real data: SWE-Bench Pro eval_results.json against the 731-task public listing",
  () => {
    // The listing holds paths "dockerfiles/instance_dockerfile/<instance id>"; the task list is their last part.
    const listing = () =>
      readFileSync(PRO_LISTING, "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => l.trim().split("/").pop() ?? "");

    const pinned: Record<string, [pass: number, fail: number, missing: number, outside: number]> = {
      "claude-45sonnet-10132025": [319, 411, 1, 0],
      "claude-4sonnet-10132025": [240, 322, 169, 0],
      "claude-opus-4-1-paper": [162, 501, 68, 228],
      "claude-sonnet-4-paper": [166, 497, 68, 0],
      "gemini-2-5-pro-preview-paper": [90, 629, 12, 236],
      "gpt-4o-paper": [36, 583, 112, 0],
      "gpt-5-250-turns-10132025": [265, 464, 2, 0],
      "gptoss-paper": [118, 610, 3, 0],
      "kimi-k2-instruct-10132025": [202, 527, 2, 0],
    };

    test("each run: 731 rows; pass/fail/missing and ids left out match the source", async () => {
      const ids = listing();
      expect(ids.length).toBe(731);
      const set = new Set(ids);
      const dir = mkdtempSync(join(tmpdir(), "pro-"));
      const tasks = join(dir, "pro-tasks.txt");
      writeFileSync(tasks, ids.join("\n") + "\n");
      for (const [run, [pass, fail, missing, outside]] of Object.entries(pinned)) {
        const file = join(PRO_TRAJ, run, "eval_results.json");
        const source = JSON.parse(readFileSync(file, "utf8")) as Record<string, boolean>;
        const inList = Object.keys(source).filter((k) => set.has(k));
        expect([
          count(inList, (k) => source[k] === true),
          count(inList, (k) => source[k] === false),
          731 - inList.length,
          Object.keys(source).length - inList.length,
        ]).toEqual([pass, fail, missing, outside]);
        const r = await runImport({ kind: "swebench-pro", file, tasks });
        const rows = parseLines(r.lines);
        expect(rows.length).toBe(731);
        expect([
          count(rows, (o) => o["result"] === "pass"),
          count(rows, (o) => o["result"] === "fail"),
          count(rows, (o) => o["result"] === "missing"),
        ]).toEqual([pass, fail, missing]);
        expect(new Set(rows.map((o) => o["dataset_revision"]))).toEqual(new Set([revisionOf(ids)]));
        expect(new Set(rows.map((o) => o["model_config"]))).toEqual(new Set([run]));
        const leftOut = r.notes.find((n) => n.includes("outside the task list"));
        if (outside === 0) expect(leftOut).toBeUndefined();
        else
          expect(
            leftOut?.startsWith(
              `${outside} ids of the file outside the task list ${tasks} were left out (not counted): `,
            ),
          ).toBe(true);
      }
    });
  },
);
