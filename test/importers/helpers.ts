import { createHash } from "node:crypto";
import { expect } from "vitest";
import { InputError } from "../../src/core/errors.js";

/** sha256: of ids sorted (ASCII ids: byte order = JS order) and joined by "\n", computed independently. */
export function revisionOf(ids: string[]): string {
  return `sha256:${createHash("sha256")
    .update([...ids].sort().join("\n"))
    .digest("hex")}`;
}

export function parseLines(lines: readonly string[]): Record<string, unknown>[] {
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The message of the InputError thrown by f (sync or async). */
export async function inputErrorOf(f: () => unknown): Promise<string> {
  try {
    await f();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return (e as Error).message;
  }
  throw new Error("expected an InputError");
}
