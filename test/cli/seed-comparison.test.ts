/**
 * The seed's calculator (../shared/seed/seed_sensitivity.py) is the baseline we replace. On exports
 * where its two defects cannot bite (single attempts, no infra errors, no "missing" rows), its
 * pessimistic interval and valid-only rate must equal the gate's per-model figures.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  exportLines,
  CANDIDATE,
  jsonEvaluateArgs,
  tempDir,
  type TaskSpec,
} from "../helpers/export-writer.js";
import { cliInProcess } from "../helpers/run-cli.js";
import { SHARED_DIR, sharedDataPresent } from "../helpers/shared-data.js";

const SEED = join(SHARED_DIR, "seed", "seed_sensitivity.py");
const python = spawnSync("python3", ["--version"]).status === 0;
if (!python) console.warn("skipped the seed comparison: python3 not found");
const available = python && sharedDataPresent("the seed comparison", [SEED]);

const taskArb = fc.record({
  validity: fc.constantFrom("valid" as const, "disputed" as const, "unreviewed" as const, "broken" as const),
  a: fc.constantFrom("pass" as const, "fail" as const),
  b: fc.constantFrom("pass" as const, "fail" as const),
});

describe.skipIf(!available)("seed comparison (python3 seed_sensitivity.py)", () => {
  it("pessimistic interval and valid-only rate equal the seed's on single-attempt, infra-free exports", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(taskArb, { minLength: 1, maxLength: 40 }), async (specs) => {
        const tasks: TaskSpec[] = specs.map((s, i) => ({
          id: `t-${i}`,
          validity: s.validity,
          a: [s.a],
          b: [s.b],
        }));
        const dir = tempDir();
        // The seed has no notion of models: give it the candidate's rows only.
        const candidateOnly = join(dir, "candidate.jsonl");
        writeFileSync(
          candidateOnly,
          exportLines(tasks)
            .filter((l) => (JSON.parse(l) as { model_config: string }).model_config === CANDIDATE)
            .join("\n") + "\n",
        );
        const seed = spawnSync("python3", [SEED, candidateOnly], { encoding: "utf8" });
        expect(seed.status).toBe(0);
        // Python prints NaN for 0/0; JSON.parse cannot read it.
        const seedOut = JSON.parse(seed.stdout.replace(/\bNaN\b/g, "null")) as {
          valid: { rate: number | null };
          validity_sensitivity: [number | null, number | null];
        };
        const r = await cliInProcess(jsonEvaluateArgs(dir, tasks));
        expect(r.code).toBeLessThan(3);
        const cand = (JSON.parse(r.stdout) as { models: { candidate: Record<string, unknown> } }).models
          .candidate;
        const gateInterval = cand["interval_pessimistic"] as [number, number] | null;
        const [lo, hi] = seedOut.validity_sensitivity;
        if (lo === null || hi === null) {
          expect(gateInterval).toBeNull();
        } else {
          expect(gateInterval?.[0]).toBeCloseTo(lo, 12);
          expect(gateInterval?.[1]).toBeCloseTo(hi, 12);
        }
        if (seedOut.valid.rate === null) expect(cand["valid_only_score"]).toBeNull();
        else expect(cand["valid_only_score"]).toBeCloseTo(seedOut.valid.rate, 12);
      }),
      { numRuns: 40, seed: 20261129 },
    );
  });
});
