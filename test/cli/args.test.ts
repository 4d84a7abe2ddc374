/**
 * The command line's one parser (src/cli/args.ts, on node:util parseArgs): the forms every command
 * accepts and the problems it names. evaluate's and import's wording of them is tested with their
 * commands (errors.test.ts, import-args.test.ts).
 */
import { describe, expect, it } from "vitest";
import { parseArgv, parseFlags, type ArgProblem, type FlagSpec } from "../../src/cli/args.js";
import { InputError } from "../../src/core/errors.js";
import { inputErrorOf } from "../importers/helpers.js";

const SPECS: Record<string, FlagSpec> = {
  results: { kind: "many" },
  policy: { kind: "one" },
  format: { kind: "one", choices: ["markdown", "json"] },
  help: { kind: "boolean" },
  h: { kind: "boolean" },
  out: { kind: "one" },
  o: { kind: "one", key: "out" },
};

/** The flags as {key: values}, or the problem as data. */
function parse(argv: readonly string[], positionals = false): unknown {
  try {
    const parsed = parseArgv(argv, SPECS, {
      positionals,
      problem: (p) => new InputError(JSON.stringify(p)),
    });
    const flags = Object.fromEntries([...parsed.flags].map(([key, given]) => [key, given.values]));
    return positionals ? { flags, positionals: parsed.positionals } : flags;
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return JSON.parse((error as Error).message) as ArgProblem;
  }
}

describe("parseArgv: the forms", () => {
  it("--flag VALUE, --flag=VALUE, one-letter flags, several values after one flag, a repeated many-flag", () => {
    expect(
      parse([
        "--results",
        "a.jsonl",
        "b.jsonl",
        "--policy=p.yaml",
        "--results",
        "c.jsonl",
        "-h",
        "--format",
        "json",
      ]),
    ).toEqual({
      results: ["a.jsonl", "b.jsonl", "c.jsonl"],
      policy: ["p.yaml"],
      h: ["true"],
      format: ["json"],
    });
    expect(parse(["-o", "x.jsonl"])).toEqual({ out: ["x.jsonl"] });
    expect(parse(["--help"])).toEqual({ help: ["true"] });
  });

  it("values may start with one dash (a file -x.jsonl, a number -1, stdin's -); one that starts with -- only after =", () => {
    expect(parse(["--results", "-a.jsonl", "-", "-b.jsonl", "--policy", "-1"])).toEqual({
      results: ["-a.jsonl", "-", "-b.jsonl"],
      policy: ["-1"],
    });
    // parseArgs reads -xo as -x and -o, whose value is b: the run of values takes both, as written.
    expect(parse(["--results", "a", "-xo", "b"])).toEqual({ results: ["a", "-xo", "b"] });
    expect(parse(["--policy=--odd", "--results=--x"])).toEqual({ policy: ["--odd"], results: ["--x"] });
    expect(parse(["--policy=", "--results", ""])).toEqual({ policy: [""], results: [""] });
  });

  it("a many-flag's run of values ends at the next flag, and after --flag=VALUE", () => {
    expect(parse(["--results", "a", "-h", "b"])).toEqual({
      kind: "unexpected argument",
      arg: "b",
    });
    expect(parse(["--results=a", "b"])).toEqual({ kind: "unexpected argument", arg: "b" });
  });

  it("positional arguments, where allowed, and everything after --", () => {
    expect(parse(["inspect", "--policy", "p", "log.json", "--", "--results", "-h"], true)).toEqual({
      flags: { policy: ["p"] },
      positionals: ["inspect", "log.json", "--results", "-h"],
    });
  });
});

describe("parseArgv: the problems, each naming the flag", () => {
  it.each([
    [["a.jsonl"], { kind: "unexpected argument", arg: "a.jsonl" }],
    [["--"], { kind: "unexpected argument", arg: "--" }],
    [["--policy", "p", "q"], { kind: "unexpected argument", arg: "q" }],
    [["--bogus"], { kind: "unknown flag", flag: "--bogus" }],
    [["--bogus=1"], { kind: "unknown flag", flag: "--bogus" }],
    [["-x"], { kind: "unknown flag", flag: "-x" }],
    [["--h"], { kind: "unknown flag", flag: "--h" }],
    [["-help"], { kind: "unknown flag", flag: "-help" }],
    [["-o=x"], { kind: "unknown flag", flag: "-o=x" }],
    [["-ox"], { kind: "unknown flag", flag: "-ox" }],
    [["--help=yes"], { kind: "takes no value", name: "help" }],
    [["--results"], { kind: "needs a value", name: "results", flag: "--results" }],
    [["--results", "--policy", "p"], { kind: "needs a value", name: "results", flag: "--results" }],
    [["-o"], { kind: "needs a value", name: "o", flag: "-o" }],
    [
      ["--policy", "a", "--policy", "b"],
      { kind: "given twice", name: "policy", flag: "--policy", first: "--policy" },
    ],
    [["-o", "a", "--out", "b"], { kind: "given twice", name: "out", flag: "--out", first: "-o" }],
    [["--policy", "a", "--policy"], { kind: "needs a value", name: "policy", flag: "--policy" }],
    [
      ["--format", "xml"],
      { kind: "not a choice", name: "format", value: "xml", choices: ["markdown", "json"] },
    ],
    [
      ["--format=xml", "--bogus"],
      { kind: "not a choice", name: "format", value: "xml", choices: ["markdown", "json"] },
    ],
  ])("%j", (argv, problem) => {
    expect(parse(argv)).toEqual(problem);
  });
});

describe("parseFlags: evaluate's and policy-log's wording", () => {
  it.each([
    [["x"], 'Unexpected argument "x": every value must follow a flag.'],
    [["--bogus=1"], 'Unknown flag "--bogus".'],
    [["--help=1"], "Flag --help takes no value."],
    [["--results"], "Flag --results needs a value."],
    [["--policy", "a", "--policy", "b"], "Flag --policy is given more than once."],
    [["--format", "xml"], 'Flag --format must be one of markdown, json; got "xml".'],
  ])("%j", async (argv, text) => {
    expect(await inputErrorOf(() => parseFlags(argv, SPECS, "evaluate"))).toBe(
      `${text}\nRun "model-gate evaluate --help" for the list of flags.`,
    );
  });
});
