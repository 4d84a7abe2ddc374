import { expect } from "vitest";
import { InputError } from "../../src/core/errors.js";

/** The message of the InputError that `f` throws; fails the test when it throws nothing or anything else. */
export function inputErrorMessage(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return (e as Error).message;
  }
  throw new Error("expected an InputError");
}
