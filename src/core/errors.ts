/**
 * User mistakes (bad export, bad policy, unknown model id, bad flag) are a distinct class so the
 * single error boundary at each entry point can print them as one clear message with exit status
 * 3, and treat anything else as a bug. A verdict is never an error: accept/reject/unresolved are
 * results.
 */
import { plural } from "./words.js";

/** Where a problem was found. `line` and `column` are 1-based. */
export interface SourceLocation {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
}

export interface InputProblem {
  readonly location?: SourceLocation;
  /** The offending field or key path, e.g. `result` or `accept_if.common_valid_tasks`. */
  readonly field?: string;
  /** What was wrong and what was expected, as one sentence. */
  readonly message: string;
}

/** How many problems an error lists before it only counts the rest (SPEC §1.1). */
export const MAX_LISTED_PROBLEMS = 20;

export function formatLocation(loc: SourceLocation): string {
  let out = loc.file;
  if (loc.line !== undefined) out += `:${loc.line}`;
  if (loc.line !== undefined && loc.column !== undefined) out += `:${loc.column}`;
  return out;
}

export function formatProblem(p: InputProblem): string {
  const where = p.location ? `${formatLocation(p.location)}: ` : "";
  const field = p.field !== undefined ? `field "${p.field}": ` : "";
  return `${where}${field}${p.message}`;
}

/** Bad input given by the user: exit status 3, one message, no stack trace. */
export class InputError extends Error {
  override readonly name: string = "InputError";
  /** The problems listed (at most MAX_LISTED_PROBLEMS). */
  readonly problems: readonly InputProblem[];
  /** The total number of problems found, which may exceed problems.length. */
  readonly total: number;

  constructor(summary: string, problems: readonly InputProblem[] = [], total: number = problems.length) {
    const listed = problems.slice(0, MAX_LISTED_PROBLEMS);
    const lines = [summary, ...listed.map((p) => `  ${formatProblem(p)}`)];
    if (total > listed.length) lines.push(`  … and ${total - listed.length} more (${total} in all)`);
    super(lines.join("\n"));
    this.problems = listed;
    this.total = total;
  }
}

/**
 * The policy stops the run by itself (e.g. expired with `on_expired: fail`). Still a user-side
 * condition with exit status 3, but named apart so callers can say "policy", not "input".
 */
export class PolicyError extends InputError {
  override readonly name: string = "PolicyError";
}

/**
 * An InputError as one line: its first problem (with file:line:column) and how many more there
 * are, or its summary when it lists none. Used where a bad file is reported, not thrown (a PR's
 * head policy, an old version of the policy in its history).
 */
export function errorLine(err: InputError): string {
  const first = err.problems[0];
  const more = err.total - 1;
  const text = first ? formatProblem(first) : (err.message.split("\n")[0] ?? "invalid input");
  return more > 0 ? `${text} (and ${plural(more, "more problem")})` : text;
}
