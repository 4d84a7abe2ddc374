/**
 * Every pair of a ranking against the real evaluate: on a two-model export of that pair holding
 * only the common tasks, evaluate gives the same Δ̂, Δ_L, Δ_H and SE (and, with K = 2, the LCB and
 * UCB of evaluate at confidence 1 − α/2: Holm over one pair's two directional claims).
 */
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { evaluate } from "../../src/core/decision/evaluate.js";
import { readDataset } from "../../src/read/read-dataset.js";
import { tempDir } from "../helpers/export-writer.js";
import {
  policyOf,
  policyWith,
  randomTasks,
  rankInputs,
  rankOf,
  writeMulti,
  type MultiTask,
} from "./rank-helpers.js";
import { runRank } from "../../src/core/rank/rank.js";

const dir = tempDir("rank-vs-evaluate-");
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const ctx = { canary: null, expired: false } as const;

/** evaluate on (a, b) over the tasks every ranked model has a score on (K* ≥ 1), not broken. */
async function evaluatePair(
  tasks: readonly MultiTask[],
  models: readonly string[],
  a: string,
  b: string,
  policy: string,
  name: string,
) {
  // K* ≥ 1: under infra_errors: bound an infra error counts (a lost result), else it does not.
  const bound = policy.includes("infra_errors: bound");
  const common = tasks.filter(
    (t) =>
      t.validity !== "broken" &&
      models.every((m) => (t.results[m] ?? []).some((r) => bound || r !== "infra_error")),
  );
  const path = writeMulti(dir, common, name, new Set([a, b]));
  const dataset = await readDataset({ results: [path], reviews: [], baseline: b, candidate: a });
  return evaluate(dataset, policyOf(policy).policy, ctx);
}

const POLICIES: Record<string, string> = {
  paired: policyWith(5),
  "paired z": policyWith(5).replace("standard_error: paired", "standard_error: paired\n  quantile: z"),
  clustered: policyWith(5).replace("standard_error: paired", "standard_error: clustered"),
  pessimistic: policyWith(5).replace("validity_bound: exact", "validity_bound: pessimistic"),
};

describe("each pair of a ranking equals evaluate on that pair and the common set", () => {
  for (const [label, policy] of Object.entries(POLICIES)) {
    for (const seed of [1, 2, 3]) {
      it(`${label}, seed ${seed}`, async () => {
        const models = ["m-c", "m-a", "m-b", "m-d"].slice(0, 3 + (seed % 2));
        const tasks = randomTasks(seed * 31 + label.length, models, 40, { attempts: seed === 3 ? 3 : 1 });
        const results = writeMulti(dir, tasks, `all-${label}-${seed}.jsonl`);
        const report = await rankOf(results, policy, models);
        expect(report.pairs).toHaveLength((models.length * (models.length - 1)) / 2);
        for (const p of report.pairs) {
          const e = await evaluatePair(
            tasks,
            models,
            p.a,
            p.b,
            policy,
            `pair-${label}-${seed}-${p.a}-${p.b}.jsonl`,
          );
          const c = e.comparison;
          expect(c.common_valid_tasks).toBe(report.common_valid_tasks);
          expect(c.common_tasks).toBe(report.common_tasks);
          expect(p.margin).toBeCloseTo(c.margin as number, 12);
          expect(p.margin_low).toBeCloseTo(c.margin_lower as number, 12);
          expect(p.margin_high).toBeCloseTo(c.margin_upper as number, 12);
          if (c.se_valid === null) expect(p.se).toBeNull();
          else expect(p.se).toBeCloseTo(c.se_valid, 12);
          expect(p.nu).toBe(c.nu_valid);
          // Each model's score on the common set is evaluate's common valid-only score.
          const ma = report.models.find((m) => m.model === p.a);
          expect(ma?.score).toBeCloseTo(e.models.candidate.common.valid_only_score as number, 12);
        }
      });
    }
  }

  it("with K = 2 the pair's LCB and UCB are evaluate's at confidence 1 − α/2 (two claims, each at α/2)", async () => {
    for (const seed of [4, 5, 6]) {
      const models = ["x", "y"];
      const tasks = randomTasks(seed, models, 60);
      const results = writeMulti(dir, tasks, `two-${seed}.jsonl`);
      const report = await rankOf(results, policyWith(5), models);
      const p = report.pairs[0];
      const halved = policyWith(5).replace("confidence: 0.95", "confidence: 0.975");
      expect(halved).not.toBe(policyWith(5));
      const e = await evaluatePair(tasks, models, "x", "y", halved, `two-pair-${seed}.jsonl`);
      expect(p?.level).toBe((1 - 0.95) / 2);
      expect(p?.lcb).toBe(e.comparison.lcb);
      expect(p?.ucb).toBe(e.comparison.ucb);
      expect(p?.lcb_bound_kind).toBe(e.comparison.lcb_bound_kind);
      expect(report.adjustment).toMatchObject({ method: "max_t", pairs: 1, directional_claims: 2 });
    }
  });

  it("infra_errors: bound: every pair's figures are evaluate's, each model's interval its common one", async () => {
    for (const [label, se] of [
      ["paired", "paired"],
      ["clustered", "clustered"],
    ] as const) {
      for (const seed of [7, 8]) {
        const models = ["m-a", "m-b", "m-c"];
        const tasks = randomTasks(seed, models, 40, { attempts: seed === 8 ? 3 : 1, infra: 0.15 });
        const policy = policyWith(5)
          .replace("infra_errors: exclude", "infra_errors: bound")
          .replace("standard_error: paired", `standard_error: ${se}`)
          .replace('infra_error_rate: "< 1%"', 'infra_error_rate: "< 50%"');
        expect(policy).toContain("infra_errors: bound");
        const results = writeMulti(dir, tasks, `bound-${label}-${seed}.jsonl`);
        const report = await rankOf(results, policy, models);
        expect(report.warnings.join(" ")).toContain("infra_errors: bound");
        let lost = 0;
        for (const p of report.pairs) {
          const e = await evaluatePair(
            tasks,
            models,
            p.a,
            p.b,
            policy,
            `bound-pair-${label}-${seed}-${p.a}-${p.b}.jsonl`,
          );
          const c = e.comparison;
          expect(c.common_tasks).toBe(report.common_tasks);
          if (c.margin === null) lost++;
          expect(p.margin).toBe(c.margin === null ? null : p.margin);
          if (c.margin !== null) expect(p.margin).toBeCloseTo(c.margin, 12);
          expect(p.margin_low).toBeCloseTo(c.margin_lower as number, 12);
          expect(p.margin_high).toBeCloseTo(c.margin_upper as number, 12);
          const ma = report.models.find((m) => m.model === p.a);
          const own = e.models.candidate.common;
          expect(ma?.score ?? null).toBe(own.valid_only_score === null ? null : ma?.score);
          const interval = own.interval_exact;
          expect(ma?.interval?.[0]).toBeCloseTo(interval?.[0] as number, 12);
          expect(ma?.interval?.[1]).toBeCloseTo(interval?.[1] as number, 12);
        }
        // The random cases do hold lost results on the valid tasks.
        expect(lost).toBeGreaterThan(0);
        // The leaderboard follows the middle of each score's range (no open labels: its interval).
        const open = await rankOf(
          writeMulti(
            dir,
            randomTasks(seed, models, 40, { infra: 0.15, open: 0 }),
            `bound-${label}-${seed}-v.jsonl`,
          ),
          policy,
          models,
        );
        const mids = open.models.map((m) => ((m.interval?.[0] ?? NaN) + (m.interval?.[1] ?? NaN)) / 2);
        expect(mids.every((x) => Number.isFinite(x))).toBe(true);
        expect(mids).toEqual([...mids].sort((x, y) => y - x));
      }
    }
  });

  it("the one read holds every task's label and cluster, and each model's own counts", async () => {
    const models = ["m1", "m2", "m3", "m4", "m5"];
    const tasks = randomTasks(9, models, 50, { missing: 0.2 });
    const results = writeMulti(dir, tasks, "labels.jsonl");
    const inputs = await rankInputs(results, policyWith(1), models);
    expect(inputs.data.passes).toBe(1);
    const byId = new Map(tasks.map((t) => [t.id, t]));
    const table = inputs.data.tasks;
    for (let i = 0; i < table.length; i++) {
      const t = byId.get(table.taskId(i));
      expect(table.validity(i)).toBe(t?.validity);
      expect(table.cluster(i)).toBe(t?.cluster);
      // Each model's counts are its own rows.
      models.forEach((m, k) => {
        const own = t?.results[m] ?? [];
        const c = inputs.data.counts[k]?.[i];
        expect(c === undefined ? 0 : c.pass + c.fail).toBe(own.length);
        expect(c?.pass ?? 0).toBe(own.filter((r) => r === "pass").length);
      });
    }
    // Every task any model ran is in the table, once, in key order.
    const ids = Array.from({ length: table.length }, (_, i) => table.taskId(i));
    expect(ids).toEqual(tasks.filter((t) => Object.keys(t.results).length > 0).map((t) => t.id));
    // The same report from the same inputs, every time.
    const again = await rankInputs(results, policyWith(1), models);
    const r1 = runRank(inputs.data, inputs.policy, { reference: null, toolVersion: "t" });
    const r2 = runRank(again.data, again.policy, { reference: null, toolVersion: "t" });
    expect(JSON.stringify(r2)).toBe(JSON.stringify(r1));
  });
});
