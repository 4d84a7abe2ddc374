/**
 * The SWE-Bench Pro validity audit on the real files, through the committed imports of
 * test/fixtures/real-data (`model-gate import swebench-pro-audit` and `swebench-pro`; its README.md
 * names the sources and commands): the labels against a reading of the audit's files independent
 * of the importer (made once, pinned here as counts and the sha256 of the sorted "id<TAB>label"
 * lines), and the gate on two real Pro runs with those reviews, checked against figures computed
 * here from the imported rows.
 */
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { evaluate } from "../../src/core/decision/evaluate.js";
import { readDataset } from "../../src/read/read-dataset.js";
import { parsePolicy } from "../../src/core/policy/load-policy.js";
import { realData, realDataNotes, realDataRows } from "../helpers/real-data.js";
import { REAL_DATA_POLICY as POLICY, exactBounds, pairedSe, sum } from "./helpers.js";

const CANDIDATE = "gpt-5-250-turns-10132025";
const BASELINE = "claude-45sonnet-10132025";
const FIXTURE: Record<string, string> = {
  [CANDIDATE]: "pro-gpt-5-250-turns",
  [BASELINE]: "pro-claude-45sonnet",
};

/** The imported audit's label per task. */
function auditLabels(): Map<string, "valid" | "broken" | "disputed"> {
  return new Map(
    realDataRows("pro-audit").map((o) => [
      String(o["task_id"]),
      o["validity"] as "valid" | "broken" | "disputed",
    ]),
  );
}

const count = (xs: Iterable<string>) => {
  const n: Record<string, number> = {};
  for (const x of xs) n[x] = (n[x] ?? 0) + 1;
  return n;
};
const revisionNote = (notes: readonly string[]) =>
  notes.find((n) => n.startsWith("dataset_revision: "))?.split(" ")[1];

describe("real data: the SWE-Bench Pro validity audit", () => {
  test("731 tasks, one label each: 556 valid, 112 broken, 63 disputed; --claimed disputed leaves 3 broken", () => {
    const labels = auditLabels();
    expect(labels.size).toBe(731);
    expect(count(labels.values())).toEqual({ valid: 556, broken: 112, disputed: 63 });
    // The documented rule applied to COVERAGE.md, CLAIMS.md, KNOWN_BAD.md and case_instance_ids.tsv
    // with plain regular expressions, independently of the importer.
    const lines = [...labels].map(([id, label]) => `${id}\t${label}`).sort();
    expect(createHash("sha256").update(lines.join("\n")).digest("hex")).toBe(
      "93044da1894e884a0b74b46d67c052e01e5598ca862ecb8299912711a9ee9ae3",
    );
    expect(realDataNotes("pro-audit")).toContain(
      "labels: 731 tasks: 556 valid (78 DETERMINED-codebase, 478 ENTAILED), 112 broken (3 KNOWN_BAD.md, 109 claimed, COVERAGE.md agrees), " +
        "63 disputed (2 (pending), not claimed, 1 determined, not claimed, 12 hypothesis, not claimed, 48 prose-affirmative, not claimed)",
    );
    // Imported without --tasks, the audit's own 731 ids: the same id set as the Pro task listing,
    // hence the same computed dataset revision.
    const revisions = new Set(realDataRows("pro-audit").map((o) => o["dataset_revision"]));
    expect(revisions.size).toBe(1);
    expect(revisionNote(realDataNotes("pro-audit-own-ids"))).toBe([...revisions][0]);
    expect(realDataNotes("pro-audit-claimed-disputed")).toContain(
      "labels: 731 tasks: 556 valid (78 DETERMINED-codebase, 478 ENTAILED), 3 broken (3 KNOWN_BAD.md), " +
        "172 disputed (2 (pending), not claimed, 109 claimed, COVERAGE.md agrees, 1 determined, not claimed, 12 hypothesis, not claimed, 48 prose-affirmative, not claimed)",
    );
  });

  test(`the gate on ${CANDIDATE} vs ${BASELINE} with the audit's reviews`, async () => {
    const a = realData(FIXTURE[CANDIDATE] ?? "");
    const b = realData(FIXTURE[BASELINE] ?? "");
    const reviews = realData("pro-audit");
    const dataset = await readDataset({
      results: [b, a],
      reviews: [reviews],
      baseline: BASELINE,
      candidate: CANDIDATE,
    });
    const ev = evaluate(dataset, parsePolicy(POLICY, "policy.yaml"), { canary: null, expired: false });

    // Per task a run attempted (pass or fail; not missing): whether it passed.
    const resolved = (run: string) =>
      new Map(
        realDataRows(FIXTURE[run] ?? "")
          .filter((o) => o["result"] === "pass" || o["result"] === "fail")
          .map((o) => [String(o["task_id"]), o["result"] === "pass"]),
      );
    const ra = resolved(CANDIDATE);
    const rb = resolved(BASELINE);
    const labels = auditLabels();
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
