/**
 * The seed's calculator (seed_sensitivity.py, restored from the article this project starts from)
 * is the baseline we replace. On exports where its two defects cannot bite (single attempts, no
 * infra errors, no "missing" rows), its pessimistic interval and valid-only rate must equal the
 * gate's per-model figures. What the seed printed for 40 generated exports is committed in
 * test/fixtures/seed/seed-outputs.json (scripts/test-fixtures.mjs ran it; the file says how).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonEvaluateArgs, tempDir, type TaskSpec } from "../helpers/export-writer.js";
import { cliInProcess } from "../helpers/run-cli.js";

interface SeedCase {
  /** One word per task: validity letter, the candidate's result letter, the baseline's. */
  readonly tasks: string;
  readonly seed: {
    readonly valid: { readonly rate: number | null };
    readonly validity_sensitivity: readonly [number | null, number | null];
  };
}

const { cases } = JSON.parse(
  readFileSync(resolve(import.meta.dirname, "../fixtures/seed/seed-outputs.json"), "utf8"),
) as { cases: SeedCase[] };

const VALIDITY = { v: "valid", d: "disputed", u: "unreviewed", b: "broken" } as const;
const RESULT = { p: "pass", f: "fail" } as const;

function specs(words: string): TaskSpec[] {
  return words.split(" ").map((w, i) => {
    const [v, a, b] = w as unknown as [keyof typeof VALIDITY, keyof typeof RESULT, keyof typeof RESULT];
    return { id: `t-${i}`, validity: VALIDITY[v], a: [RESULT[a]], b: [RESULT[b]] };
  });
}

describe("seed comparison (what seed_sensitivity.py printed)", () => {
  it("the fixture holds 40 exports, among them one without a valid task and one of valid tasks only", () => {
    expect(cases).toHaveLength(40);
    expect(cases.some((c) => c.seed.valid.rate === null)).toBe(true);
    expect(cases.some((c) => /^(v\S\S ?)+$/.test(c.tasks))).toBe(true);
  });

  it("pessimistic interval and valid-only rate equal the seed's on single-attempt, infra-free exports", async () => {
    for (const c of cases) {
      const tasks = specs(c.tasks);
      const r = await cliInProcess(jsonEvaluateArgs(tempDir(), tasks));
      expect(r.code, c.tasks).toBeLessThan(3);
      const cand = (JSON.parse(r.stdout) as { models: { candidate: Record<string, unknown> } }).models
        .candidate;
      const gateInterval = cand["interval_pessimistic"] as [number, number] | null;
      const [lo, hi] = c.seed.validity_sensitivity;
      if (lo === null || hi === null) {
        expect(gateInterval, c.tasks).toBeNull();
      } else {
        expect(gateInterval?.[0], c.tasks).toBeCloseTo(lo, 12);
        expect(gateInterval?.[1], c.tasks).toBeCloseTo(hi, 12);
      }
      if (c.seed.valid.rate === null) expect(cand["valid_only_score"], c.tasks).toBeNull();
      else expect(cand["valid_only_score"], c.tasks).toBeCloseTo(c.seed.valid.rate, 12);
    }
  });
});
