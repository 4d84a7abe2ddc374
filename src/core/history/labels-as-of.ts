/**
 * Every task's effective label as of one review revision, as one byte a task: the verdict by
 * review revision needs the labels of up to 20 revisions, and a copy of every relabelled
 * TaskRecord per revision would cost memory and most of the history's CPU on a large export. The
 * label at n follows taskAsOfReview exactly (the same helpers decide it); evaluateVerdict takes
 * the labels as the label column of the figures (stats/task-columns.ts).
 */
import { VALIDITIES, validityCode, type Dataset, type Validity } from "../model.js";
import { taskColumns } from "../stats/task-columns.js";
import { conflictingEvent, eventsAtOrBelow, TaskLabels } from "./as-of-review.js";

const CODE: Readonly<Record<Validity, number>> = Object.fromEntries(
  VALIDITIES.map((v) => [v, validityCode(v)]),
) as Record<Validity, number>;

export function validityOfCode(code: number): Validity {
  const v = VALIDITIES[code];
  if (v === undefined) throw new Error(`validityOfCode: no validity has code ${code}`);
  return v;
}

export interface LabelsAsOf {
  /** validityCode of each task's label at n, in dataset order; a task in conflict keeps its current label (as viewAsOfReview). */
  readonly codes: Uint8Array;
  /** Tasks with two different labels at their effective revision ≤ n. */
  readonly conflictCount: number;
}

/** The tasks' current (effective) labels as codes. */
export function currentLabelCodes(dataset: Dataset): Uint8Array {
  return taskColumns(dataset).validity.slice();
}

/** Each task's label code at revision n and how many tasks are in conflict there; allocates only the codes. */
export function labelsAsOfReview(dataset: Dataset, n: number): LabelsAsOf {
  const tasks = dataset.tasks;
  const codes = new Uint8Array(tasks.length);
  let conflictCount = 0;
  const sequence = new TaskLabels(tasks);
  for (let i = 0; i < tasks.length; i++) {
    // Only a task labelled after n has its events made.
    if (tasks.lastLabelRevision(i) <= n) {
      codes[i] = CODE[tasks.validity(i)];
      continue;
    }
    const labels = sequence.at(i);
    const keep = eventsAtOrBelow(labels, n);
    if (keep === 0) codes[i] = CODE.unreviewed;
    else if (conflictingEvent(labels, keep) >= 0) {
      conflictCount++;
      codes[i] = CODE[tasks.validity(i)];
    } else codes[i] = CODE[labels.validity(keep - 1)];
  }
  return { codes, conflictCount };
}

/** Whether two label arrays are equal (then the two revisions evaluate the same). */
export function sameLabels(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
