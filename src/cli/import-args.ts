/**
 * `model-gate import KIND FILE [flags]` argument parsing (argv without the leading "import"), on
 * the CLI's parser (args.ts). Every flag takes one value (`--flag VALUE` or `--flag=VALUE`); a
 * flag given twice, an unknown flag, a flag that does not apply to the kind, or a bad value is an
 * InputError.
 */
import { InputError } from "../core/errors.js";
import { VALIDITIES, type AttemptResult, type Validity } from "../core/model.js";
import { parseArgv, type FlagSpec as ArgSpec } from "./args.js";
import {
  CLAIMED_RULES,
  type ClaimedRule,
  CLUSTER_MODES,
  type ClusterMode,
  IMPORT_KINDS,
  type ImportKind,
  type ImportOptions,
  NO_PATCH_RESULTS,
  type NoPatchResult,
  OTHER_ISSUES_RULES,
  type OtherIssuesRule,
  PROVIDER_NAMES,
  type ProviderName,
  RESULT_KINDS,
  TABLE_FORMATS,
  type TableFormat,
} from "../importers/types.js";

export type ParsedImportArgs = ImportOptions & { out?: string };

const ALL = IMPORT_KINDS;
const REVIEW_KINDS: readonly ImportKind[] = ["verified-annotations", "swebench-pro-audit", "reviews-csv"];
const SWEBENCH_KINDS: readonly ImportKind[] = [
  "swebench-report",
  "swebench-results",
  "swebench-leaderboard",
  "swebench-pro",
];

interface FlagSpec {
  /** The option it sets (two flags that set one option are one flag spelled two ways). */
  readonly key: keyof ParsedImportArgs;
  readonly kinds: readonly ImportKind[];
}

/** Flag → option key and the kinds it applies to. */
const FLAGS: Readonly<Record<string, FlagSpec>> = {
  run: { key: "run", kinds: ["swebench-leaderboard"] },
  board: { key: "board", kinds: ["swebench-leaderboard"] },
  "model-config": { key: "modelConfig", kinds: RESULT_KINDS },
  "dataset-revision": { key: "datasetRevision", kinds: ALL },
  "harness-revision": { key: "harnessRevision", kinds: RESULT_KINDS },
  "review-revision": { key: "reviewRevision", kinds: ALL },
  benchmark: { key: "benchmark", kinds: ALL },
  validity: { key: "validity", kinds: RESULT_KINDS },
  tasks: { key: "tasks", kinds: ALL },
  "empty-patch": { key: "emptyPatch", kinds: ["swebench-report", "swebench-results"] },
  "no-generation": { key: "emptyPatch", kinds: ["swebench-report", "swebench-results"] },
  cluster: { key: "cluster", kinds: SWEBENCH_KINDS },
  scorer: { key: "scorer", kinds: ["inspect"] },
  "pass-threshold": { key: "passThreshold", kinds: ["inspect", "lm-eval"] },
  threshold: { key: "passThreshold", kinds: ["lm-eval"] },
  "score-map": { key: "scoreMap", kinds: ["inspect"] },
  "run-metadata": { key: "runMetadata", kinds: ["terminal-bench"] },
  provider: { key: "provider", kinds: ["promptfoo"] },
  "model-config-from": { key: "modelConfigFrom", kinds: ["promptfoo"] },
  prompt: { key: "prompt", kinds: ["promptfoo"] },
  "results-json": { key: "resultsJson", kinds: ["lm-eval"] },
  metric: { key: "metric", kinds: ["lm-eval"] },
  filter: { key: "filter", kinds: ["lm-eval"] },
  map: { key: "map", kinds: ["table"] },
  "pass-values": { key: "passValues", kinds: ["table"] },
  "fail-values": { key: "failValues", kinds: ["table"] },
  "infra-values": { key: "infraValues", kinds: ["table"] },
  format: { key: "format", kinds: ["table"] },
  "broken-at": { key: "brokenAt", kinds: ["verified-annotations"] },
  "disputed-at": { key: "disputedAt", kinds: ["verified-annotations"] },
  "other-issues": { key: "otherIssues", kinds: ["verified-annotations"] },
  claimed: { key: "claimed", kinds: ["swebench-pro-audit"] },
  reviewer: { key: "reviewer", kinds: REVIEW_KINDS },
  o: { key: "out", kinds: ALL },
  out: { key: "out", kinds: ALL },
};

const ARG_SPECS: Readonly<Record<string, ArgSpec>> = Object.fromEntries(
  Object.entries(FLAGS).map(([name, { key }]) => [name, { kind: "one", key }]),
);

/** True when the arguments ask for help (`-h`, `--help`, or `help` as the kind). */
export function isImportHelpRequest(argv: readonly string[]): boolean {
  return argv.length === 0 || argv[0] === "help" || argv.some((a) => a === "-h" || a === "--help");
}

function usage(message: string): InputError {
  return new InputError(
    `model-gate import: ${message}\nRun "model-gate import --help" for the kinds and flags.`,
  );
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw usage(`${flag}: expected one of ${allowed.join(", ")}, found ${JSON.stringify(value)}`);
}

function number(flag: string, value: string, opts: { integer?: boolean; min?: number } = {}): number {
  const v = value.trim() === "" ? Number.NaN : Number(value);
  if (
    !Number.isFinite(v) ||
    (opts.integer === true && !Number.isInteger(v)) ||
    (opts.min !== undefined && v < opts.min)
  ) {
    const what = opts.integer === true ? "an integer" : "a number";
    const min = opts.min !== undefined ? ` ≥ ${opts.min}` : "";
    throw usage(`${flag}: expected ${what}${min}, found ${JSON.stringify(value)}`);
  }
  return v;
}

function scoreMap(flag: string, value: string): Record<string, AttemptResult> {
  // No prototype: a score value "constructor" or "__proto__" is a key like any other.
  const out = Object.create(null) as Record<string, AttemptResult>;
  for (const part of value.split(",")) {
    const eq = part.lastIndexOf("=");
    if (eq <= 0) throw usage(`${flag}: expected VALUE=RESULT[,VALUE=RESULT…], found ${JSON.stringify(part)}`);
    const key = part.slice(0, eq);
    if (Object.hasOwn(out, key)) throw usage(`${flag}: ${JSON.stringify(key)} is mapped twice`);
    out[key] = oneOf(flag, part.slice(eq + 1), ["pass", "fail", "infra_error"] as const);
  }
  return out;
}

/** `--map FIELD=COLUMN[,FIELD=COLUMN…]`: export field → column (a column name holds no comma). */
function columnMap(flag: string, value: string): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const part of value.split(",")) {
    const eq = part.indexOf("=");
    if (eq <= 0 || eq === part.length - 1) {
      throw usage(`${flag}: expected FIELD=COLUMN[,FIELD=COLUMN…], found ${JSON.stringify(part)}`);
    }
    const field = part.slice(0, eq);
    if (Object.hasOwn(out, field)) throw usage(`${flag}: ${JSON.stringify(field)} is mapped twice`);
    out[field] = part.slice(eq + 1);
  }
  return out;
}

/** A benchmark name as the gate reads it (docs/spec.md §1.1): non-empty, no control character, at most 4,096 characters. */
function benchmarkName(flag: string, value: string): string {
  // eslint-disable-next-line no-control-regex
  if (value.trim() === "" || /[\u0000-\u001f\u007f-\u009f]/.test(value) || value.length > 4096) {
    throw usage(
      `${flag}: expected a benchmark name (non-empty, no control characters, at most 4096 characters); got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

export function parseImportArgs(argv: readonly string[]): ParsedImportArgs {
  const parsed = parseArgv(argv, ARG_SPECS, {
    positionals: true,
    problem: (p) => {
      switch (p.kind) {
        case "unknown flag":
          return usage(`unknown flag ${p.flag}`);
        case "needs a value":
          return usage(`${p.flag} needs a value`);
        case "given twice":
          return usage(`${p.flag} is given twice (also as ${p.first})`);
        default:
          // Not met here: every flag takes one value, arguments may stand alone, values are checked below.
          return usage(p.kind);
      }
    },
  });
  const [kindArg, file, ...extra] = parsed.positionals;
  if (kindArg === undefined) throw usage(`missing KIND; kinds: ${IMPORT_KINDS.join(", ")}`);
  const kind = oneOf("KIND", kindArg, IMPORT_KINDS);
  if (file === undefined) throw usage(`missing FILE after ${kind}`);
  if (extra.length > 0) throw usage(`unexpected argument ${JSON.stringify(extra[0])}`);

  const opts: ParsedImportArgs = { kind, file };
  for (const { name, flag, values } of parsed.flags.values()) {
    const { key, kinds } = FLAGS[name] as FlagSpec;
    const value = values[0] ?? "";
    if (!kinds.includes(kind)) {
      throw usage(`${flag} does not apply to ${kind} (it applies to: ${kinds.join(", ")})`);
    }
    switch (key) {
      case "run":
      case "board":
      case "modelConfig":
      case "datasetRevision":
      case "harnessRevision":
      case "tasks":
      case "scorer":
      case "reviewer":
      case "out":
      case "runMetadata":
      case "provider":
      case "prompt":
      case "resultsJson":
      case "metric":
      case "filter":
        if (value.trim() === "") throw usage(`${flag}: expected a non-empty value`);
        opts[key] = value;
        break;
      case "benchmark":
        opts.benchmark = benchmarkName(flag, value);
        break;
      case "reviewRevision":
        opts.reviewRevision = number(flag, value, { integer: true, min: 0 });
        break;
      case "validity":
        opts.validity = oneOf<Validity>(flag, value, VALIDITIES);
        break;
      case "emptyPatch":
        opts.emptyPatch = oneOf<NoPatchResult>(flag, value, NO_PATCH_RESULTS);
        break;
      case "cluster":
        opts.cluster = oneOf<ClusterMode>(flag, value, CLUSTER_MODES);
        break;
      case "passThreshold":
        opts.passThreshold = number(flag, value);
        break;
      case "scoreMap":
        opts.scoreMap = scoreMap(flag, value);
        break;
      case "brokenAt":
        opts.brokenAt = number(flag, value, { min: 0 });
        break;
      case "disputedAt":
        opts.disputedAt = number(flag, value, { min: 0 });
        break;
      case "otherIssues":
        opts.otherIssues = oneOf<OtherIssuesRule>(flag, value, OTHER_ISSUES_RULES);
        break;
      case "claimed":
        opts.claimed = oneOf<ClaimedRule>(flag, value, CLAIMED_RULES);
        break;
      case "modelConfigFrom":
        opts.modelConfigFrom = oneOf<ProviderName>(flag, value, PROVIDER_NAMES);
        break;
      case "format":
        opts.format = oneOf<TableFormat>(flag, value, TABLE_FORMATS);
        break;
      case "map":
        opts.map = columnMap(flag, value);
        break;
      case "passValues":
      case "failValues":
      case "infraValues":
        // A comma-separated list; an empty item stands for an empty cell.
        opts[key] = value.split(",");
        break;
      default:
        throw usage(`unhandled flag ${flag}`);
    }
  }
  const brokenAt = opts.brokenAt ?? 3;
  const disputedAt = opts.disputedAt ?? 2;
  if (disputedAt > brokenAt) {
    throw usage(`--disputed-at ${disputedAt} is above --broken-at ${brokenAt}`);
  }
  checkValueLists(opts);
  return opts;
}

/** table: a result value in two of --pass-values, --fail-values, --infra-values is refused. */
function checkValueLists(opts: ParsedImportArgs): void {
  const seen = new Map<string, string>();
  for (const [flag, list] of [
    ["--pass-values", opts.passValues],
    ["--fail-values", opts.failValues],
    ["--infra-values", opts.infraValues],
  ] as const) {
    for (const v of list ?? []) {
      const first = seen.get(v);
      if (first !== undefined && first !== flag) {
        throw usage(`${JSON.stringify(v)} is in both ${first} and ${flag}: a value means one result`);
      }
      if (first === flag) throw usage(`${flag}: ${JSON.stringify(v)} is listed twice`);
      seen.set(v, flag);
    }
  }
}
