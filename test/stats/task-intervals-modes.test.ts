/**
 * Each task's d interval and re-run term under each infra mode (docs/spec.md §3, §3.8) against the
 * definitions task by task, on random datasets: the three modes are made in one walk over the
 * counts and share arrays until they differ, so a mode's values must not depend on where the
 * first infra error falls, or on which mode is asked first.
 */
import { describe, expect, it } from "vitest";
import { tableRecords, type AttemptCounts } from "../../src/core/model.js";
import { taskColumns } from "../../src/core/stats/task-columns.js";
import { taskIntervals } from "../../src/core/stats/task-intervals.js";
import type { InfraErrorsPolicy } from "../../src/core/stats/task-scores.js";
import { buildDataset, type CountsSpec, type TaskSpec } from "./dataset-builder.js";
import { prng } from "../helpers/prng.js";

const MODES: readonly InfraErrorsPolicy[] = ["exclude", "count_as_fail", "bound"];

/** d's ends and the re-run term of one task from the definitions (NaN: not a task of C / undefined). */
function expected(a: AttemptCounts | undefined, b: AttemptCounts | undefined, infra: InfraErrorsPolicy) {
  const none = { low: Number.NaN, high: Number.NaN, rerun: Number.NaN };
  if (a === undefined || b === undefined) return none;
  const extra = (c: AttemptCounts): number => (infra === "exclude" ? 0 : c.infra_error);
  const ka = a.pass + a.fail + extra(a);
  const kb = b.pass + b.fail + extra(b);
  if (ka === 0 || kb === 0) return none;
  const la = infra === "bound" ? a.infra_error : 0;
  const lb = infra === "bound" ? b.infra_error : 0;
  const v = (m: number, k: number): number | null => (k >= 2 ? (m * (1 - m)) / (k - 1) : null);
  const va = v(a.pass / ka, ka);
  const vb = v(b.pass / kb, kb);
  return {
    low: a.pass / ka - (b.pass + lb) / kb,
    high: (a.pass + la) / ka - b.pass / kb,
    rerun: va === null || vb === null || la + lb > 0 ? Number.NaN : va + vb,
  };
}

describe("task intervals under each infra mode", () => {
  it("are each task's d ends and re-run term by the definitions, whatever the order asked", () => {
    const rand = prng(11);
    for (let round = 0; round < 120; round++) {
      const share = [0, 0.05, 0.3][round % 3] ?? 0;
      const side = (): CountsSpec | undefined =>
        rand() < 0.1
          ? undefined
          : {
              pass: Math.floor(rand() * 3),
              fail: Math.floor(rand() * 3),
              infra: rand() < share ? 1 + Math.floor(rand() * 2) : 0,
            };
      const specs: TaskSpec[] = Array.from({ length: 1 + Math.floor(rand() * 25) }, (_, i) => {
        const a = side();
        const b = side();
        return {
          id: `t${String(i).padStart(3, "0")}`,
          ...(a === undefined ? {} : { a }),
          ...(b === undefined ? {} : { b }),
        };
      });
      const d = buildDataset(specs);
      const records = tableRecords(d.tasks);
      const columns = taskColumns(d);
      for (const infra of [...MODES].sort(() => rand() - 0.5)) {
        const got = taskIntervals(columns, infra);
        records.forEach((r, i) => {
          const want = expected(r.candidate, r.baseline, infra);
          expect([got.low[i], got.high[i], got.rerun[i]]).toEqual([want.low, want.high, want.rerun]);
        });
        // Points share one array: high is low exactly when no task of the mode has a lost result.
        const lost = records.some((r) => {
          const w = expected(r.candidate, r.baseline, infra);
          return !Number.isNaN(w.low) && w.low !== w.high;
        });
        if (!lost) expect(got.high).toBe(got.low);
        if (infra !== "bound") expect(got.high).toBe(got.low);
      }
    }
  });
});
