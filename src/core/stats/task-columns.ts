/**
 * The per-task inputs of the model figures and the margin, as arrays in dataset order.
 * evaluate() reads every task three times (the margin, then each model's figures), and the verdict
 * by review revision evaluates again per revision: at 500,000 tasks each walk over the tasks is
 * mostly cache misses, so they are read once here. The labels as of an earlier review revision
 * (history/labels-as-of.ts) replace the label column alone: no record is copied for them.
 */
import { validityCode, type AttemptCounts, type Dataset } from "../model.js";

// A label is one byte: validityCode, its index in VALIDITIES.
export const VALID_CODE = validityCode("valid");
export const BROKEN_CODE = validityCode("broken");
export const DISPUTED_CODE = validityCode("disputed");

export interface TaskColumns {
  /** validityCode of each task's label. */
  readonly validity: Uint8Array;
  readonly baseline: readonly (AttemptCounts | undefined)[];
  readonly candidate: readonly (AttemptCounts | undefined)[];
  /** Each task's cluster as a number, in order of first appearance in the dataset; -1: none. */
  readonly cluster: Int32Array;
  /** How many distinct clusters `cluster` numbers. */
  readonly clusterCount: number;
}

/** Columns by dataset: a Dataset is never modified once built (model.ts). */
const known = new WeakMap<Dataset, TaskColumns>();

/** The columns of a dataset, made on the first call (one walk over its tasks). */
export function taskColumns(dataset: Dataset): TaskColumns {
  const had = known.get(dataset);
  if (had !== undefined) return had;
  const tasks = dataset.tasks;
  const n = tasks.length;
  const validity = new Uint8Array(n);
  const baseline: (AttemptCounts | undefined)[] = new Array<AttemptCounts | undefined>(n);
  const candidate: (AttemptCounts | undefined)[] = new Array<AttemptCounts | undefined>(n);
  const cluster = new Int32Array(n);
  const numbers = new Map<string, number>();
  let last: string | undefined;
  let lastNumber = -1;
  for (let i = 0; i < n; i++) {
    validity[i] = validityCode(tasks.validity(i));
    baseline[i] = tasks.baseline(i);
    candidate[i] = tasks.candidate(i);
    const c = tasks.cluster(i);
    if (c === undefined) cluster[i] = -1;
    else if (c === last) cluster[i] = lastNumber;
    else {
      let k = numbers.get(c);
      if (k === undefined) {
        k = numbers.size;
        numbers.set(c, k);
      }
      last = c;
      lastNumber = k;
      cluster[i] = k;
    }
  }
  const columns: TaskColumns = { validity, baseline, candidate, cluster, clusterCount: numbers.size };
  known.set(dataset, columns);
  return columns;
}

/** The same tasks with other labels (validityCode per task, in dataset order): every other column shared. */
export function withLabels(columns: TaskColumns, codes: Uint8Array): TaskColumns {
  if (codes.length !== columns.validity.length) throw new Error("withLabels: the labels are not one a task");
  return { ...columns, validity: codes };
}
