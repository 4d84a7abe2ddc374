/**
 * The rank's one common set (docs/rank.md "One common set"): the tasks every ranked model has a
 * score on (K* ≥ 1, as evaluate's C) that are not broken, and for each model how many tasks its
 * absence would add back. Every pair of the ranking is computed on this set, so all pairs share
 * its valid tasks V and open tasks U, and a pair's margin is the difference of the two scores.
 */
import { InputError } from "../errors.js";
import { satisfies } from "../decision/format.js";
import { compareCodeUnits, validityCode, type AttemptCounts } from "../model.js";
import type { Policy } from "../policy/policy-types.js";
import { quote } from "../quote.js";
import { BROKEN_CODE, DISPUTED_CODE, VALID_CODE, type TaskColumns } from "../stats/task-columns.js";
import { effectiveAttempts } from "../stats/task-scores.js";
import type { ModelsDataset } from "./rank-types.js";
import { plural } from "../words.js";

/** How many models the "too few common valid tasks" error names. */
const MODELS_NAMED = 3;

export interface CommonSet {
  /** Indices into the ModelsDataset's tasks, in task-key order. */
  readonly tasks: Uint32Array;
  /** Labels and clusters of the common tasks (the columns every pair shares). */
  readonly validity: Uint8Array;
  readonly cluster: Int32Array;
  readonly clusterCount: number;
  /** counts[k][j]: model k's attempts on common task j. */
  readonly counts: readonly (readonly (AttemptCounts | undefined)[])[];
  readonly validTasks: number;
  readonly disputedTasks: number;
  readonly unreviewedTasks: number;
  readonly brokenTasks: number;
  readonly universeTasks: number;
  readonly addsBack: Uint32Array;
  readonly addsBackValid: Uint32Array;
}

export function commonSet(data: ModelsDataset, policy: Policy): CommonSet {
  const k = data.models.length;
  const tasks = data.tasks;
  const n = tasks.length;
  const infra = policy.infra_errors;
  const common: number[] = [];
  const addsBack = new Uint32Array(k);
  const addsBackValid = new Uint32Array(k);
  let broken = 0;
  let universe = 0;
  let labelledValid = 0;
  for (let i = 0; i < n; i++) {
    const label = validityCode(tasks.validity(i));
    if (label === BROKEN_CODE) {
      broken++;
      continue;
    }
    universe++;
    if (label === VALID_CODE) labelledValid++;
    let without = 0;
    let absent = -1;
    for (let m = 0; m < k; m++) {
      if (effectiveAttempts(data.counts[m]?.[i], infra) === 0) {
        without++;
        absent = m;
        if (without > 1) break;
      }
    }
    if (without === 0) common.push(i);
    else if (without === 1) {
      addsBack[absent] = (addsBack[absent] as number) + 1;
      if (label === VALID_CODE) addsBackValid[absent] = (addsBackValid[absent] as number) + 1;
    }
  }
  const size = common.length;
  const validity = new Uint8Array(size);
  const cluster = new Int32Array(size);
  const numbers = new Map<string, number>();
  let valid = 0;
  let disputed = 0;
  for (let j = 0; j < size; j++) {
    const i = common[j] as number;
    const code = validityCode(tasks.validity(i));
    validity[j] = code;
    if (code === VALID_CODE) valid++;
    else if (code === DISPUTED_CODE) disputed++;
    const c = tasks.cluster(i);
    if (c === undefined) cluster[j] = -1;
    else {
      let id = numbers.get(c);
      if (id === undefined) {
        id = numbers.size;
        numbers.set(c, id);
      }
      cluster[j] = id;
    }
  }
  const threshold = policy.accept_if.common_valid_tasks;
  if (!satisfies(valid, threshold) && labelledValid === 0) {
    throw new InputError(
      `No task is labelled valid: of the ${plural(universe, "non-broken task")} the ${k} ranked models ran, none has the label valid ` +
        `(a ranking counts only valid tasks; the policy's common_valid_tasks asks for ${threshold.text}). ` +
        "Add labels: a reviews file with --reviews (model-gate import reviews-csv for your own review sheet), " +
        "or, for SWE-bench Verified, model-gate import verified-annotations with the results' --dataset-revision " +
        "or the same --tasks list the results were imported with, so that its labels apply to these tasks (docs/importers.md).",
    );
  }
  if (!satisfies(valid, threshold)) {
    const shrink = data.models
      .map((model, m) => ({ model, valid: addsBackValid[m] as number, all: addsBack[m] as number }))
      .filter((x) => x.all > 0)
      .sort((x, y) => y.valid - x.valid || y.all - x.all || compareCodeUnits(x.model, y.model))
      .slice(0, MODELS_NAMED);
    const named =
      shrink.length === 0
        ? "No single model's absence would add a task back: the models share few tasks, or most are broken or open."
        : `The models that shrink it most: ${shrink
            .map(
              (x) => `${quote(x.model)} (without it, ${plural(x.valid, "more valid task")}, ${x.all} in all)`,
            )
            .join(", ")}.`;
    throw new InputError(
      `The ${k} ranked models have ${plural(valid, "common valid task")} (tasks every one of them ` +
        `has a score on, labelled valid); the policy's common_valid_tasks asks for ${threshold.text}. ${named} ` +
        `Leave a model out with --models, or run the missing tasks.`,
    );
  }
  const counts = data.models.map((_, m) => {
    const own = data.counts[m] ?? [];
    return common.map((i) => own[i]);
  });
  return {
    tasks: Uint32Array.from(common),
    validity,
    cluster,
    clusterCount: numbers.size,
    counts,
    validTasks: valid,
    disputedTasks: disputed,
    unreviewedTasks: size - valid - disputed,
    brokenTasks: broken,
    universeTasks: universe,
    addsBack,
    addsBackValid,
  };
}

/**
 * The columns of pair (a, b) on the common set: d = m_a − m_b. The candidate's array is a fresh
 * copy so that analyseMargin's per-columns cache (keyed by the count arrays) lives only as long as
 * this pair's columns do: a ranking of 100 models has 4,950 pairs.
 */
export function pairColumns(set: CommonSet, a: number, b: number): TaskColumns {
  const candidate = set.counts[a];
  const baseline = set.counts[b];
  if (candidate === undefined || baseline === undefined)
    throw new Error(`pairColumns: no model ${a} or ${b}`);
  return {
    validity: set.validity,
    cluster: set.cluster,
    clusterCount: set.clusterCount,
    candidate: candidate.slice(),
    baseline,
  };
}
