/**
 * A model's figures under each infra mode (docs/spec.md §2, §3.8) against a reference computed
 * task by task from the definitions, on random datasets with infra errors on either side, the
 * modes asked in every order (the per-task scores of all three modes are made in one walk and
 * shared: asking one mode first must not change another's), and modelCounts against modelFigures.
 */
import { describe, expect, it } from "vitest";
import { tableRecords, type AttemptCounts, type Dataset } from "../../src/core/model.js";
import { modelCounts, modelFigures, type Side } from "../../src/core/stats/model-figures.js";
import type { InfraErrorsPolicy } from "../../src/core/stats/task-scores.js";
import { buildDataset, type CountsSpec, type TaskSpec } from "./dataset-builder.js";
import { prng } from "../helpers/prng.js";

const MODES: readonly InfraErrorsPolicy[] = ["exclude", "count_as_fail", "bound"];

/** `infraShare`: how often the candidate's (a) and the baseline's (b) counts hold infra errors. */
function randomSpecs(rand: () => number, n: number, infraShare: { a: number; b: number }): TaskSpec[] {
  const side = (share: number): CountsSpec | undefined => {
    if (rand() < 0.1) return undefined;
    const k = () => Math.floor(rand() * 3);
    return { pass: k(), fail: k(), infra: rand() < share ? 1 + k() : 0, missing: rand() < 0.1 ? 1 : 0 };
  };
  const labels = ["valid", "valid", "broken", "disputed", "unreviewed"] as const;
  return Array.from({ length: n }, (_, i) => {
    const a = side(infraShare.a);
    const b = side(infraShare.b);
    return {
      id: `t${String(i).padStart(4, "0")}`,
      validity: labels[Math.floor(rand() * labels.length)] ?? "valid",
      ...(a === undefined ? {} : { a }),
      ...(b === undefined ? {} : { b }),
    };
  });
}

/** The figures' counts and the scores' low and high ends, task by task from the definitions. */
function reference(d: Dataset, side: Side, infra: InfraErrorsPolicy) {
  const k = (c: AttemptCounts | undefined): number =>
    c === undefined ? 0 : c.pass + c.fail + (infra === "exclude" ? 0 : c.infra_error);
  let universe = 0;
  let attempted = 0;
  let missingTasks = 0;
  let lostTasks = 0;
  let validLow = 0;
  let validHigh = 0;
  let validCount = 0;
  let commonValid = 0;
  let commonLow = 0;
  let commonLost = false;
  for (const r of tableRecords(d.tasks)) {
    if (r.validity === "broken") continue;
    universe++;
    const c = side === "baseline" ? r.baseline : r.candidate;
    const o = side === "baseline" ? r.candidate : r.baseline;
    if (c === undefined || c.pass + c.fail + c.infra_error === 0) missingTasks++;
    if (c !== undefined && c.infra_error > 0 && c.pass + c.fail === 0) lostTasks++;
    const kk = k(c);
    if (c === undefined || kk === 0) continue;
    attempted++;
    if (r.validity !== "valid") continue;
    const lost = infra === "bound" ? c.infra_error : 0;
    validLow += c.pass / kk;
    validHigh += (c.pass + lost) / kk;
    validCount++;
    if (k(o) > 0) {
      commonValid++;
      commonLow += c.pass / kk;
      commonLost ||= lost > 0;
    }
  }
  return {
    attempted_tasks: attempted,
    missing_tasks: missingTasks,
    lost_to_infra_tasks: lostTasks,
    missing_fraction: universe > 0 ? missingTasks / universe : null,
    validLow: validCount > 0 ? validLow / validCount : null,
    validHigh: validCount > 0 ? validHigh / validCount : null,
    commonValid: commonValid > 0 && !commonLost ? commonLow / commonValid : null,
  };
}

describe("a model's figures under each infra mode", () => {
  it("match the per-task definitions whatever mode is asked first, and modelCounts gives the same counts", () => {
    const rand = prng(20261206);
    for (let round = 0; round < 80; round++) {
      // No infra error, the baseline's only, the candidate's only, both's: a mode's scores may
      // first differ from another's at a task where only the other model has an infra error.
      const share = [
        { a: 0, b: 0 },
        { a: 0, b: 0.3 },
        { a: 0.3, b: 0 },
        { a: 0.3, b: 0.3 },
      ][round % 4];
      const specs = randomSpecs(rand, 1 + Math.floor(rand() * 30), share ?? { a: 0, b: 0 });
      const d = buildDataset(specs);
      const order = [...MODES].sort(() => rand() - 0.5);
      for (const infra of order) {
        for (const side of ["baseline", "candidate"] as const) {
          const f = modelFigures(d, side, infra);
          const want = reference(d, side, infra);
          expect({
            attempted_tasks: f.attempted_tasks,
            missing_tasks: f.missing_tasks,
            lost_to_infra_tasks: f.lost_to_infra_tasks,
            missing_fraction: f.missing_fraction,
          }).toEqual({
            attempted_tasks: want.attempted_tasks,
            missing_tasks: want.missing_tasks,
            lost_to_infra_tasks: want.lost_to_infra_tasks,
            missing_fraction: want.missing_fraction,
          });
          // The valid-only score: the mean of the low ends, null when some task of V has an interval.
          const interval = want.validLow !== want.validHigh;
          if (want.validLow === null || interval) expect(f.valid_only_score).toBeNull();
          else expect(f.valid_only_score).toBeCloseTo(want.validLow, 12);
          if (want.commonValid === null) expect(f.common.valid_only_score).toBeNull();
          else expect(f.common.valid_only_score).toBeCloseTo(want.commonValid, 12);
          // Exact interval over U's resolutions holds the valid tasks' low and high means' range.
          if (f.interval_exact !== null && want.validLow !== null && want.validHigh !== null) {
            expect(f.interval_exact[0]).toBeLessThanOrEqual(want.validLow + 1e-12);
            expect(f.interval_exact[1]).toBeGreaterThanOrEqual(want.validHigh - 1e-12);
          }
          const scoreKeys = new Set([
            "valid_only_score",
            "all_attempted_score",
            "interval_exact",
            "interval_pessimistic",
            "common",
          ]);
          const rest = Object.fromEntries(Object.entries(f).filter(([key]) => !scoreKeys.has(key)));
          expect(modelCounts(d, side, infra)).toEqual(rest);
        }
      }
      // A fresh dataset of the same tasks gives the same figures as the one asked in another order.
      const fresh = buildDataset(specs);
      for (const infra of MODES) {
        expect(modelFigures(fresh, "candidate", infra)).toEqual(modelFigures(d, "candidate", infra));
      }
    }
  });

  it("count a task as common under count_as_fail and bound when the other model's only attempts are infra errors", () => {
    // t1 is the first task where the modes differ, and only through the baseline's infra error.
    const d = buildDataset([
      { id: "t1", validity: "valid", a: "pass", b: "infra" },
      { id: "t2", validity: "valid", a: "fail", b: "pass" },
    ]);
    expect(modelFigures(d, "candidate", "exclude").common.valid_only_score).toBe(0);
    expect(modelFigures(d, "candidate", "count_as_fail").common.valid_only_score).toBe(0.5);
    expect(modelFigures(d, "candidate", "bound").common.valid_only_score).toBe(0.5);
    expect(modelFigures(d, "baseline", "exclude").lost_to_infra_tasks).toBe(1);
  });
});
