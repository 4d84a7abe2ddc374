/**
 * The SWE-Bench Pro validity audit on the real files (../shared/data/public-results, see its
 * SOURCES.md), read in place, never copied: the exact counts per label, and the gate on two real
 * Pro runs with those reviews, checked against figures computed here from the source files with a
 * separate reading (plain regular expressions and JSON.parse). Skipped when the files are absent.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { evaluate } from "../../src/core/decision/evaluate.js";
import { readDataset } from "../../src/read/read-dataset.js";
import { parsePolicy } from "../../src/core/policy/load-policy.js";
import { runImport } from "../../src/importers/index.js";
import { PUBLIC_RESULTS as PUBLIC, sharedDataPresent } from "../helpers/shared-data.js";
import { REAL_DATA_POLICY as POLICY, exactBounds, pairedSe, parseLines, sum } from "./helpers.js";

const repoRoot = resolve(import.meta.dirname, "../..");
const AUDIT = join(PUBLIC, "swebench-pro-audit");
const PRO = join(PUBLIC, "swe-bench-pro");
const LISTING = join(PRO, "instance_dockerfile_listing.txt");
const runFile = (run: string) => join(PRO, "traj", run, "eval_results.json");
const CANDIDATE = "gpt-5-250-turns-10132025";
const BASELINE = "claude-45sonnet-10132025";
const present = sharedDataPresent("the SWE-Bench Pro audit on real data", [
  join(AUDIT, "COVERAGE.md"),
  LISTING,
  runFile(CANDIDATE),
  runFile(BASELINE),
]);

const read = (name: string) => readFileSync(join(AUDIT, name), "utf8");

/** The labels the documented rule gives, from a reading of the files independent of the importer. */
function expectedLabels(): Map<string, "valid" | "broken" | "disputed"> {
  const instance = new Map(
    read("case_instance_ids.tsv")
      .trim()
      .split("\n")
      .map((l) => l.split("\t") as [string, string]),
  );
  const claimed = new Set([...read("CLAIMS.md").matchAll(/^\| `([^`]+)` \| `instance_/gm)].map((m) => m[1]));
  const labels = new Map<string, "valid" | "broken" | "disputed">();
  for (const m of read("COVERAGE.md").matchAll(/^\| (\S+) \| (\S+) \|/gm)) {
    const [, name = "", verdict = ""] = m;
    if (name === "case") continue;
    const id = instance.get(name) ?? `unmapped:${name}`;
    labels.set(
      id,
      claimed.has(name)
        ? "broken"
        : ["ENTAILED", "DETERMINED-codebase"].includes(verdict)
          ? "valid"
          : "disputed",
    );
  }
  for (const m of read("KNOWN_BAD.md").matchAll(/^\| `(instance_[^`]+)` \|/gm))
    labels.set(m[1] ?? "", "broken");
  return labels;
}

const count = (xs: Iterable<string>) => {
  const n: Record<string, number> = {};
  for (const x of xs) n[x] = (n[x] ?? 0) + 1;
  return n;
};
describe.skipIf(!present)("real data: the SWE-Bench Pro validity audit", () => {
  const dir = mkdtempSync(join(tmpdir(), "pro-audit-real-"));
  const tasks = join(dir, "pro-tasks.txt");
  // In a hook: a skipped describe's body still runs, and the listing is absent then.
  beforeAll(() => {
    writeFileSync(
      tasks,
      readFileSync(LISTING, "utf8")
        .trim()
        .split("\n")
        .map((l) => l.replace(/.*\//, ""))
        .join("\n") + "\n",
    );
  });
  const write = async (name: string, result: Promise<{ lines: string[] }>) => {
    const path = join(dir, name);
    writeFileSync(path, (await result).lines.map((l) => `${l}\n`).join(""));
    return path;
  };

  test("731 tasks, one label each: 556 valid, 112 broken, 63 disputed; --claimed disputed leaves 3 broken", async () => {
    const expected = expectedLabels();
    expect(expected.size).toBe(731);
    expect(count(expected.values())).toEqual({ valid: 556, broken: 112, disputed: 63 });

    const r = await runImport({
      kind: "swebench-pro-audit",
      file: relative(repoRoot, AUDIT), // a relative path, resolved against cwd
      cwd: repoRoot,
    });
    const rows = parseLines(r.lines);
    expect(rows).toHaveLength(731);
    expect(new Map(rows.map((o) => [o["task_id"], o["validity"]]))).toEqual(expected);
    expect(r.notes[1]).toBe(
      "labels: 731 tasks: 556 valid (78 DETERMINED-codebase, 478 ENTAILED), 112 broken (3 KNOWN_BAD.md, 109 claimed, COVERAGE.md agrees), " +
        "63 disputed (2 (pending), not claimed, 1 determined, not claimed, 12 hypothesis, not claimed, 48 prose-affirmative, not claimed)",
    );
    // The same id set as the Pro task listing, hence the same computed dataset revision.
    const listed = await runImport({ kind: "swebench-pro-audit", file: AUDIT, tasks });
    expect(parseLines(listed.lines).map((o) => o["dataset_revision"])).toEqual(
      rows.map((o) => o["dataset_revision"]),
    );

    const strict = parseLines(
      (await runImport({ kind: "swebench-pro-audit", file: AUDIT, claimed: "disputed" })).lines,
    );
    expect(count(strict.map((o) => String(o["validity"])))).toEqual({ valid: 556, broken: 3, disputed: 172 });
  });

  test(`the gate on ${CANDIDATE} vs ${BASELINE} with the audit's reviews`, async () => {
    const a = await write("a.jsonl", runImport({ kind: "swebench-pro", file: runFile(CANDIDATE), tasks }));
    const b = await write("b.jsonl", runImport({ kind: "swebench-pro", file: runFile(BASELINE), tasks }));
    const reviews = await write(
      "reviews.jsonl",
      runImport({ kind: "swebench-pro-audit", file: AUDIT, tasks }),
    );
    const dataset = await readDataset({
      results: [b, a],
      reviews: [reviews],
      baseline: BASELINE,
      candidate: CANDIDATE,
    });
    const ev = evaluate(dataset, parsePolicy(POLICY, "policy.yaml"), { canary: null, expired: false });

    const resolved = (run: string) =>
      new Map(Object.entries(JSON.parse(readFileSync(runFile(run), "utf8")) as Record<string, boolean>));
    const ra = resolved(CANDIDATE);
    const rb = resolved(BASELINE);
    const labels = expectedLabels();
    const both = [...labels.keys()].filter((id) => ra.has(id) && rb.has(id));
    const valid = both.filter((id) => labels.get(id) === "valid");
    const disputed = both.filter((id) => labels.get(id) === "disputed");
    const d = valid.map((id) => Number(ra.get(id)) - Number(rb.get(id)));
    const broken = both.filter((id) => labels.get(id) === "broken");
    expect([both.length, valid.length, disputed.length, broken.length]).toEqual([729, 554, 63, 112]);

    // Broken tasks are left out of the comparison: 729 − 112 = 617 common tasks.
    expect(ev.comparison.common_tasks).toBe(both.length - broken.length);

    expect(ev.comparison.common_valid_tasks).toBe(valid.length);
    expect(ev.comparison.disputed_tasks).toBe(disputed.length);
    expect(ev.comparison.broken_tasks).toBe(112);
    expect(ev.comparison.margin).toBeCloseTo(sum(d) / d.length, 12);
    expect(ev.comparison.margin).toBeCloseTo(-0.074007, 6);
    expect(ev.comparison.se_valid).toBeCloseTo(pairedSe(d), 12);
    const [lo, hi] = exactBounds(
      d,
      disputed.map((id) => Number(ra.get(id)) - Number(rb.get(id))),
    );
    expect(ev.comparison.margin_lower).toBeCloseTo(lo, 12);
    expect(ev.comparison.margin_upper).toBeCloseTo(hi, 12);
    expect([lo, hi]).toEqual([expect.closeTo(-0.0936, 4), expect.closeTo(-0.0645, 4)]);
    // The figures docs/importers.md quotes (LCB..UCB, the CR2/paired ratio of the cluster warning).
    expect(ev.comparison.lcb).toBeCloseTo(-0.1303, 4);
    expect(ev.comparison.ucb).toBeCloseTo(-0.031, 4);
    const { se_valid: se, se_valid_cr2: cr2 } = ev.comparison;
    expect(se !== null && cr2 !== null ? cr2 / se : Number.NaN).toBeCloseTo(1.65, 2);
    // 63 disputed of 617 common tasks fail the disputed-fraction check, and the Pro files name no
    // harness (the placeholder unknown:swebench-pro): no verdict can be reached although the
    // candidate is below the baseline at every resolution of the open labels (UCB < 0).
    expect(ev.comparison.ucb).toBeLessThan(0);
    expect(ev.checks.filter((c) => !c.passed).map((c) => c.id)).toEqual([
      "disputed_fraction",
      "same_harness",
      "real_harness_revisions",
      "observed_margin",
    ]);
    expect(ev.verdict).toBe("unresolved");
  });
});
