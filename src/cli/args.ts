/**
 * The command line's one argument parser, for every command (evaluate, policy-log, import), on
 * node:util parseArgs: every flag is declared, and an unknown flag, a missing value, a flag given
 * twice or a value outside its choices is an InputError naming the flag (exit status 3).
 *
 * Forms: `--flag VALUE`, `--flag=VALUE`, and `-x [VALUE]` for a one-letter flag. A "many" flag
 * takes every value up to the next flag (`--results a.jsonl b.jsonl`) and may be repeated. A value
 * that starts with `--` is taken only as `--flag=--value` (else the flag "needs a value"). parseArgs
 * splits and classifies the arguments; what it lacks (several values after one flag, flags that
 * are one flag spelled two ways, the messages) is here.
 */
import { parseArgs } from "node:util";
import { InputError } from "../core/errors.js";

export interface FlagSpec {
  /** Takes one value, or many (until the next flag). Booleans take none. */
  readonly kind: "one" | "many" | "boolean";
  /** Allowed values, when the flag is an enum. */
  readonly choices?: readonly string[];
  /** Where the values go (the flag's name when unset): two flags with one key are one flag. */
  readonly key?: string;
}

/** A flag as given: its declared name, how it was written first (`--out`, `-o`), its values. */
export interface GivenFlag {
  readonly name: string;
  readonly flag: string;
  readonly values: string[];
}

/** What is wrong with the arguments; each command words it (see parseFlags). */
export type ArgProblem =
  | { readonly kind: "unexpected argument"; readonly arg: string }
  | { readonly kind: "unknown flag"; readonly flag: string }
  | { readonly kind: "takes no value"; readonly name: string }
  | { readonly kind: "needs a value"; readonly name: string; readonly flag: string }
  | { readonly kind: "given twice"; readonly name: string; readonly flag: string; readonly first: string }
  | {
      readonly kind: "not a choice";
      readonly name: string;
      readonly value: string;
      readonly choices: readonly string[];
    };

export interface ParsedArgs {
  /** By key, in the order first given. */
  readonly flags: ReadonlyMap<string, GivenFlag>;
  readonly positionals: readonly string[];
}

export interface ParseOptions {
  /** Arguments that are no flag's values (and all after `--`); else each is a problem. */
  readonly positionals: boolean;
  readonly problem: (problem: ArgProblem) => InputError;
}

/** `--name` for a flag of several letters, `-x` for a one-letter flag. */
function spelling(name: string): string {
  return name.length === 1 ? `-${name}` : `--${name}`;
}

/** The flag in an argument: `--name` of `--name=value`; a one-letter form as written whole. */
function flagOf(arg: string): string {
  const eq = arg.indexOf("=");
  return arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
}

export function parseArgv(
  argv: readonly string[],
  specs: Readonly<Record<string, FlagSpec>>,
  options: ParseOptions,
): ParsedArgs {
  const fail = (problem: ArgProblem): never => {
    throw options.problem(problem);
  };
  const declared = Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [
      name,
      {
        type: spec.kind === "boolean" ? ("boolean" as const) : ("string" as const),
        ...(name.length === 1 ? { short: name } : {}),
      },
    ]),
  );
  const { tokens } = parseArgs({
    args: [...argv],
    options: declared,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const flags = new Map<string, GivenFlag>();
  const positionals: string[] = [];
  /** The "many" flag whose values run on, until the next flag. */
  let open: GivenFlag | undefined;
  let afterTerminator = false;
  const add = (given: GivenFlag, value: string): void => {
    const choices = specs[given.name]?.choices;
    if (choices !== undefined && !choices.includes(value))
      fail({ kind: "not a choice", name: given.name, value, choices });
    given.values.push(value);
  };
  const positional = (arg: string): void => {
    if (open !== undefined && !afterTerminator) add(open, arg);
    else if (options.positionals) positionals.push(arg);
    else fail({ kind: "unexpected argument", arg });
  };
  let lastIndex = -1;
  for (const token of tokens) {
    if (token.kind === "option-terminator") {
      if (!options.positionals) fail({ kind: "unexpected argument", arg: "--" });
      afterTerminator = true;
      continue;
    }
    if (token.kind === "positional") {
      positional(token.value);
      continue;
    }
    // parseArgs reads `-abc` as three one-letter flags: one argument, handled once, whole.
    if (token.index === lastIndex) continue;
    lastIndex = token.index;
    const arg = argv[token.index] ?? "";
    const spec = Object.hasOwn(specs, token.name) ? specs[token.name] : undefined;
    const written = token.rawName === spelling(token.name) && (arg.startsWith("--") || arg === token.rawName);
    if (spec === undefined || !written) {
      // A run of values takes what looks like a one-letter flag but is none (`-x.jsonl`).
      if (open !== undefined && !arg.startsWith("--")) {
        add(open, arg);
        const consumed = tokens.find(
          (t) => t.kind === "option" && t.index === token.index && t.inlineValue === false,
        );
        if (consumed?.kind === "option" && consumed.value !== undefined) add(open, consumed.value);
        continue;
      }
      return fail({ kind: "unknown flag", flag: flagOf(arg) });
    }
    open = undefined;
    let value: string | undefined;
    if (spec.kind === "boolean") {
      if (token.value !== undefined) fail({ kind: "takes no value", name: token.name });
    } else if (token.value === undefined || (!token.inlineValue && token.value.startsWith("--"))) {
      return fail({ kind: "needs a value", name: token.name, flag: token.rawName });
    } else {
      value = token.value;
    }
    const key = spec.key ?? token.name;
    const seen = flags.get(key);
    if (seen !== undefined && spec.kind === "one")
      fail({ kind: "given twice", name: token.name, flag: token.rawName, first: seen.flag });
    const given = seen ?? { name: token.name, flag: token.rawName, values: [] };
    flags.set(key, given);
    if (value === undefined) {
      given.values.push("true");
      continue;
    }
    add(given, value);
    if (spec.kind === "many" && !token.inlineValue) open = given;
  }
  return { flags, positionals };
}

/** Flag name → values: what evaluate and policy-log read. */
export type ParsedFlags = Map<string, string[]>;

/** evaluate's and policy-log's parsing: no positional arguments, their messages. */
export function parseFlags(
  argv: readonly string[],
  specs: Readonly<Record<string, FlagSpec>>,
  command: string,
): ParsedFlags {
  const usage = (message: string): InputError =>
    new InputError(`${message}\nRun "model-gate ${command} --help" for the list of flags.`);
  const parsed = parseArgv(argv, specs, {
    positionals: false,
    problem: (p) => {
      switch (p.kind) {
        case "unexpected argument":
          return usage(`Unexpected argument "${p.arg}": every value must follow a flag.`);
        case "unknown flag":
          return usage(`Unknown flag "${p.flag}".`);
        case "takes no value":
          return usage(`Flag --${p.name} takes no value.`);
        case "needs a value":
          return usage(`Flag --${p.name} needs a value.`);
        case "given twice":
          return usage(`Flag --${p.name} is given more than once.`);
        case "not a choice":
          return usage(`Flag --${p.name} must be one of ${p.choices.join(", ")}; got "${p.value}".`);
      }
    },
  });
  return new Map([...parsed.flags].map(([key, given]) => [key, given.values]));
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
