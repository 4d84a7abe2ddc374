/**
 * A read's outcome as data, so two ways of reading the same input can be compared with toEqual:
 * the Dataset, or the InputError's message, problems and total. Anything else thrown is rethrown.
 */
import { InputError, type InputProblem } from "../../src/core/errors.js";
import type { Dataset } from "../../src/core/model.js";

export type Outcome =
  | { readonly kind: "dataset"; readonly dataset: Dataset }
  | {
      readonly kind: "error";
      readonly message: string;
      readonly problems: readonly InputProblem[];
      readonly total: number;
    };

export async function settle(read: Promise<Dataset>): Promise<Outcome> {
  try {
    return { kind: "dataset", dataset: await read };
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return { kind: "error", message: e.message, problems: [...e.problems], total: e.total };
  }
}
