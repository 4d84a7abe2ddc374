// The shipped example (examples/) is reproducible from the committed generator and has the shape
// examples/README.md promises.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const results = join(root, "examples", "results.jsonl.gz");
const reviews = join(root, "examples", "reviews.jsonl");
const cli = process.env["GATE_CLI"] ?? join(root, "dist", "cli.js");

interface Row {
  task_id: string;
  dataset_revision: string;
  harness_revision: string;
  model_config: string;
  validity: string;
  result: string;
  review_revision: number;
  attempt: number;
  evidence: string[];
  cluster: string;
}

interface Review {
  task_id: string;
  dataset_revision: string;
  validity: string;
  review_revision: number;
  reviewer: string;
  note: string;
  evidence: string[];
}

function lines<T>(text: string): T[] {
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as T);
}

function tally(values: Iterable<string>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

describe("examples/ regenerates byte for byte", () => {
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "gate-example-"));
    const run = spawnSync(
      process.execPath,
      ["scripts/generate-export.mjs", "--example", "--out-dir", dir, "--quiet"],
      { cwd: root, encoding: "utf8" },
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("reviews.jsonl is identical", () => {
    expect(readFileSync(join(dir, "reviews.jsonl")).equals(readFileSync(reviews))).toBe(true);
  });

  it("results.jsonl.gz decompresses to identical bytes", () => {
    const fresh = gunzipSync(readFileSync(join(dir, "results.jsonl.gz")));
    const committed = gunzipSync(readFileSync(results));
    expect(fresh.length).toBe(committed.length);
    expect(fresh.equals(committed)).toBe(true);
  });

  it("results.jsonl.gz has a fixed header, and is identical wherever this Node's deflate matches the one that made it", () => {
    const committed = readFileSync(results);
    // Fixed header: no timestamp, Unix OS byte.
    expect([...committed.subarray(0, 10)]).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
    // Node bundles Chromium's zlib, whose deflate output depends on the CPU (CRC32C hashing on
    // SSE4.2/Arm-CRC machines, Rabin-Karp elsewhere). Probe: recompress the committed content; where
    // this Node deflates differently, the content comparison above is what holds.
    const probe = gzipSync(gunzipSync(committed), { level: 6 });
    probe[9] = 3;
    const fresh = readFileSync(join(dir, "results.jsonl.gz"));
    expect(fresh.equals(committed)).toBe(probe.equals(committed));
  });
});

describe("examples/ has the documented shape", () => {
  const rows = lines<Row>(gunzipSync(readFileSync(results)).toString("utf8"));
  const reviewRows = lines<Review>(readFileSync(reviews, "utf8"));

  it("is small", () => {
    expect(statSync(results).size + statSync(reviews).size).toBeLessThan(1_000_000);
  });

  it("has 600 tasks, 3 models and 3 attempts per (model, task)", () => {
    expect(rows.length).toBe(5400);
    expect(new Set(rows.map((r) => r.task_id)).size).toBe(600);
    expect(tally(rows.map((r) => r.model_config))).toEqual({
      "cfg-2026-10-30-nightly": 1800,
      "cfg-baseline": 1800,
      "cfg-candidate": 1800,
    });
    const attempts = tally(rows.map((r) => `${r.model_config}|${r.task_id}`));
    expect(new Set(Object.values(attempts))).toEqual(new Set([3]));
    expect(new Set(rows.map((r) => r.attempt))).toEqual(new Set([1, 2, 3]));
  });

  it("has well-formed revisions, ids and clusters", () => {
    const datasets = new Set(rows.map((r) => r.dataset_revision));
    expect(datasets.size).toBe(1);
    expect([...datasets][0]).toMatch(/^sha256:[0-9a-f]{64}$/);
    for (const r of rows) {
      expect(r.harness_revision).toMatch(/^git:[0-9a-f]{40}$/);
      expect(r.task_id).toMatch(/^[a-z-]+__[a-z-]+-\d+$/);
      expect(r.cluster.replace("/", "__")).toBe(r.task_id.replace(/-\d+$/, ""));
    }
    expect(new Set(rows.map((r) => r.cluster)).size).toBe(12);
    const harness = (m: string) => new Set(rows.filter((r) => r.model_config === m).map((r) => r.harness_revision));
    expect(harness("cfg-baseline").size).toBe(1);
    expect(harness("cfg-candidate")).toEqual(harness("cfg-baseline"));
  });

  it("has a few infra errors and missing attempts", () => {
    expect(tally(rows.map((r) => `${r.model_config} ${r.result}`))).toEqual({
      "cfg-2026-10-30-nightly fail": 857,
      "cfg-2026-10-30-nightly infra_error": 5,
      "cfg-2026-10-30-nightly missing": 4,
      "cfg-2026-10-30-nightly pass": 934,
      "cfg-baseline fail": 987,
      "cfg-baseline infra_error": 1,
      "cfg-baseline missing": 11,
      "cfg-baseline pass": 801,
      "cfg-candidate fail": 915,
      "cfg-candidate infra_error": 6,
      "cfg-candidate missing": 4,
      "cfg-candidate pass": 875,
    });
    // Tasks where the baseline recorded no result at all (all three attempts missing).
    const byPair = new Map<string, string[]>();
    for (const r of rows) {
      const k = `${r.model_config}|${r.task_id}`;
      byPair.set(k, [...(byPair.get(k) ?? []), r.result]);
    }
    const allMissing = [...byPair].filter(([, v]) => v.every((x) => x === "missing")).map(([k]) => k.split("|")[0]);
    expect(tally(allMissing as string[])).toEqual({ "cfg-2026-10-30-nightly": 1, "cfg-baseline": 3 });
  });

  it("carries labels at review revisions 0..2 in the export, consistent per (task, revision)", () => {
    expect(tally(rows.map((r) => `${r.validity}@${r.review_revision}`))).toEqual({
      "broken@1": 191,
      "broken@2": 32,
      "disputed@1": 340,
      "unreviewed@0": 1084,
      "valid@1": 3111,
      "valid@2": 642,
    });
    const label = new Map<string, string>();
    for (const r of rows) {
      const k = `${r.task_id}@${r.review_revision}`;
      expect(label.get(k) ?? r.validity).toBe(r.validity);
      label.set(k, r.validity);
    }
  });

  it("has a reviews file with later revisions that relabel 29 tasks", () => {
    expect(reviewRows.length).toBe(29);
    expect(tally(reviewRows.map((r) => `${r.validity}@${r.review_revision}`))).toEqual({
      "broken@1": 1,
      "broken@2": 4,
      "valid@1": 12,
      "valid@2": 12,
    });
    const exported = new Map<string, number>();
    for (const r of rows) exported.set(r.task_id, Math.max(exported.get(r.task_id) ?? 0, r.review_revision));
    for (const review of reviewRows) {
      expect(review.review_revision).toBe((exported.get(review.task_id) ?? -1) + 1);
      expect(review.reviewer).toMatch(/^reviewer-[a-z]+$/);
      expect(review.note.length).toBeGreaterThan(10);
      expect(review.dataset_revision).toBe(rows[0]?.dataset_revision);
    }
  });

  it("has effective validity mostly valid, with some broken, disputed and unreviewed tasks", () => {
    const effective = new Map<string, { revision: number; validity: string }>();
    for (const r of [...rows, ...reviewRows]) {
      const seen = effective.get(r.task_id);
      if (seen === undefined || r.review_revision > seen.revision) {
        effective.set(r.task_id, { revision: r.review_revision, validity: r.validity });
      }
    }
    expect(tally([...effective.values()].map((e) => e.validity))).toEqual({
      broken: 37,
      disputed: 10,
      unreviewed: 8,
      valid: 545,
    });
  });
});

// The demo's verdict through the committed bundle.
describe("npm run demo on the example", () => {
  it("accepts the candidate with the figures examples/README.md quotes", () => {
    const run = spawnSync(
      process.execPath,
      [
        cli,
        "evaluate",
        "--results",
        "examples/results.jsonl.gz",
        "--reviews",
        "examples/reviews.jsonl",
        "--policy",
        "policy.example.yaml",
        "--baseline",
        "cfg-baseline",
        "--candidate",
        "cfg-candidate",
        "--canary",
        "pass",
        "--today",
        "2026-11-29",
        "--format",
        "json",
      ],
      { cwd: root, encoding: "utf8" },
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as {
      verdict: string;
      comparison: Record<string, number | null>;
    };
    expect(report.verdict).toBe("accept");
    expect(report.comparison["common_valid_tasks"]).toBe(542);
    expect(report.comparison["unresolved_tasks"]).toBe(18);
    expect(report.comparison["broken_tasks"]).toBe(37);
    expect(report.comparison["margin"]).toBeCloseTo(0.045818, 6);
    // Multi-attempt data, so the union LCB is the conservative one (SPEC §3 revision 2):
    // Δ_L − q(N_v − 1)·SE_max, SE_max the largest SE(V ∪ S) over every S. Here SE(V) is that
    // maximum (adding open tasks only lowers the SE), so LCB = 0.042866 − t_{0.95, 541} × 0.012935
    // = 0.042866 − 1.647675 × 0.012935 = 0.021554, below the one-resolution figure
    // Δ_L − t_{0.95, 555}·SE(V ∪ S_L) = 0.021997 that 1.3.0 reported.
    const c = report.comparison as Record<string, number | string | null>;
    expect(c["lcb_bound_kind"]).toBe("conservative");
    expect(c["nu_lower"]).toBe(541);
    expect(c["q_lower"]).toBeCloseTo(1.647675, 6);
    expect(c["se_lower"]).toBeCloseTo(c["se_valid"] as number, 12);
    expect(c["se_lower"]).toBeCloseTo(0.012935, 6);
    expect(c["lcb"]).toBeCloseTo(0.042866 - 1.647675 * 0.0129345, 5);
    expect(c["lcb"]).toBeCloseTo(0.021554, 6);
    expect(c["lcb"] as number).toBeLessThan(0.021997);
  });
});
