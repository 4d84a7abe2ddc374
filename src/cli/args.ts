/**
 * A small, strict argument parser: every flag is declared, unknown flags and missing values are
 * usage errors (exit status 3), and a flag may take several values (`--results a.jsonl b.jsonl`)
 * or be repeated. No positional guessing.
 */
import { InputError } from "../core/errors.js";

export interface FlagSpec {
  /** Takes one value, or many (until the next flag). Booleans take none. */
  readonly kind: "one" | "many" | "boolean";
  /** Allowed values, when the flag is an enum. */
  readonly choices?: readonly string[];
}

export type ParsedFlags = Map<string, string[]>;

export function parseFlags(
  argv: readonly string[],
  specs: Readonly<Record<string, FlagSpec>>,
  command: string,
): ParsedFlags {
  const out: ParsedFlags = new Map();
  let i = 0;
  const usage = (message: string): InputError =>
    new InputError(`${message}\nRun "model-gate ${command} --help" for the list of flags.`);
  while (i < argv.length) {
    const token = argv[i] ?? "";
    i++;
    if (!token.startsWith("-") || token === "-" || token === "--") {
      throw usage(`Unexpected argument "${token}": every value must follow a flag.`);
    }
    const eq = token.indexOf("=");
    const name = (eq >= 0 ? token.slice(0, eq) : token).replace(/^--?/, "");
    const spec = Object.hasOwn(specs, name) ? specs[name] : undefined;
    if (spec === undefined) throw usage(`Unknown flag "${token.slice(0, eq >= 0 ? eq : undefined)}".`);
    const values = out.get(name) ?? [];
    if (spec.kind === "boolean") {
      if (eq >= 0) throw usage(`Flag --${name} takes no value.`);
      values.push("true");
    } else if (eq >= 0) {
      values.push(token.slice(eq + 1));
    } else {
      const start = values.length;
      while (i < argv.length && !(argv[i] ?? "").startsWith("--")) {
        values.push(argv[i] ?? "");
        i++;
        if (spec.kind === "one") break;
      }
      if (values.length === start) throw usage(`Flag --${name} needs a value.`);
    }
    if (spec.kind === "one" && values.length > 1) throw usage(`Flag --${name} is given more than once.`);
    if (spec.choices) {
      for (const v of values) {
        if (!spec.choices.includes(v)) {
          throw usage(`Flag --${name} must be one of ${spec.choices.join(", ")}; got "${v}".`);
        }
      }
    }
    out.set(name, values);
  }
  return out;
}

export function one(flags: ParsedFlags, name: string): string | undefined {
  return flags.get(name)?.[0];
}

export function required(flags: ParsedFlags, name: string, command: string): string {
  const v = one(flags, name);
  if (v === undefined || v === "") {
    throw new InputError(`Missing --${name}.\nRun "model-gate ${command} --help" for the list of flags.`);
  }
  return v;
}
