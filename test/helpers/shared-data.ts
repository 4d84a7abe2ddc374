/**
 * Data from outside the repository. The project's own workspace keeps the seed calculator and real
 * public SWE-bench results beside the checkout as `../shared`; a user's clone has none. Every test
 * that reads `../shared` finds it here and asks `sharedDataPresent` first: when a file is absent the
 * test skips and says so in one line. `.ci/run` runs those tests once more in a copy of the checkout
 * with no `../shared` beside it, so a test that reads it without asking fails CI.
 */
import { existsSync } from "node:fs";
import { join, relative, resolve } from "node:path";

/** `../shared` beside the checkout. */
export const SHARED_DIR = resolve(import.meta.dirname, "../../../shared");

/** Real public SWE-bench results (see SOURCES.md there), read in place, never copied. */
export const PUBLIC_RESULTS = join(SHARED_DIR, "data", "public-results");

/**
 * Whether every path exists. When one does not, prints one line naming what is skipped and the
 * first absent path (relative to the checkout), and returns false: pass it to describe.skipIf, and
 * read nothing from those paths outside a test or hook (a skipped describe's body still runs).
 */
export function sharedDataPresent(skipped: string, paths: readonly string[]): boolean {
  const absent = paths.find((p) => !existsSync(p));
  if (absent === undefined) return true;
  const shown = relative(resolve(import.meta.dirname, "../.."), absent);
  console.warn(`skipped ${skipped}: ${shown} is absent (data kept beside the project's own checkout only)`);
  return false;
}
