/**
 * The policy loader (SPEC §1.3): plain YAML 1.2 (core schema) in, a validated `Policy` out, or an
 * InputError whose every problem names the file, line, column and key, so the action can annotate
 * the policy file's lines.
 *
 * Three passes, each stopping the load when it finds problems (later passes would only report
 * noise about a document the earlier pass could not read):
 *   1. text: size cap, non-printable characters, nesting depth, YAML syntax, directives, number
 *      of documents;
 *   2. YAML structure: top level is a mapping; no anchors, aliases, non-core tags, duplicate or
 *      non-string keys;
 *   3. shape (zod strict objects at every level): unknown keys, missing keys, wrong types,
 *      threshold and date syntax.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseAllDocuments, Parser } from "yaml";
import type { CST, Document, Node as YamlNode, ParsedNode } from "yaml";
import * as z from "zod";

import { InputError, type InputProblem, type SourceLocation } from "../errors.js";
import {
  INFRA_ERRORS_MODES,
  RANK_REQUIREMENTS,
  type AcceptIf,
  type MarginSettings,
  type Policy,
  type Threshold,
} from "./policy-types.js";
import { GUARDRAIL_KEYS, guardrailsSchema, toGuardrails } from "./policy-guardrails.js";
import { BENCHMARK_ENTRY_KEYS, benchmarkPolicies, benchmarksSchema } from "./policy-benchmarks.js";
import {
  describeValue,
  editDistance,
  isIsoDate,
  OBSERVED_MARGIN_BASE,
  parseDate,
  parseObservedMargin,
  parseThreshold,
  type ThresholdSpec,
  type ValueResult,
} from "./policy-values.js";
import { plural } from "../words.js";

/** Largest policy text accepted, in UTF-8 bytes (64 KiB). A real policy is well under 2 KiB. */
export const MAX_POLICY_BYTES = 64 * 1024;

/**
 * Deepest nesting of mappings and sequences accepted (a policy is 2 deep: `accept_if.x`). The
 * YAML composer recurses once per level, so without this cap a 64 KiB policy of `[[[[…` or
 * `- - - …` exhausts the call stack.
 */
export const MAX_POLICY_DEPTH = 16;

/** Values of the optional keys when the policy omits them. */
export const POLICY_DEFAULTS = {
  on_expired: "warn",
  infra_errors: "exclude",
  require_same_harness: true,
  margin: {
    confidence: 0.95,
    quantile: "t",
    power: 0.8,
    standard_error: "paired",
    cluster_correction: "cr2",
    validity_bound: "exact",
  },
  on_unresolved: "fail",
  reruns: "latest",
} as const satisfies Pick<
  Policy,
  "on_expired" | "infra_errors" | "require_same_harness" | "margin" | "on_unresolved" | "reruns"
>;

/** Options handed to the `yaml` package: YAML 1.2, core schema, no merge keys, duplicates are errors. */
export const POLICY_YAML_OPTIONS = {
  version: "1.2",
  schema: "core",
  uniqueKeys: true,
  prettyErrors: false,
  merge: false,
  strict: true,
} as const;

/** Explicit tags that are part of the YAML 1.2 core schema and therefore allowed (`!!str 5`). */
const CORE_TAGS = new Set(
  ["str", "int", "float", "bool", "null", "map", "seq"].map((t) => `tag:yaml.org,2002:${t}`),
);

type Path = readonly string[];

/** Where a key and its value start in the text (offsets into the parsed text). */
interface Entry {
  readonly keyOffset: number | null;
  readonly valueOffset: number;
}

class Locator {
  private readonly lines = new LineCounter();
  /** Offsets past the last visible character (e.g. "missing closing quote" at end of input) map to it. */
  private readonly last: number;
  constructor(
    readonly file: string,
    text: string,
  ) {
    this.last = Math.max(0, text.trimEnd().length - 1);
    // Feed line starts in one pass; linePos then maps any offset to a 1-based line and column.
    this.lines.addNewLine(0);
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.lines.addNewLine(i + 1);
  }
  at(offset: number): SourceLocation {
    const { line, col } = this.lines.linePos(Math.min(offset, this.last));
    return { file: this.file, line, column: col };
  }
}

function problem(loc: SourceLocation, path: Path | null, message: string): InputProblem {
  return path !== null && path.length > 0
    ? { location: loc, field: path.join("."), message }
    : { location: loc, message };
}

function fail(file: string, problems: InputProblem[]): never {
  problems.sort(
    (a, b) =>
      (a.location?.line ?? 0) - (b.location?.line ?? 0) ||
      (a.location?.column ?? 0) - (b.location?.column ?? 0) ||
      (a.field ?? "").localeCompare(b.field ?? "") ||
      a.message.localeCompare(b.message),
  );
  const n = problems.length;
  throw new InputError(`Invalid policy file ${file}: ${plural(n, "problem")}`, problems, n);
}

// ---------------------------------------------------------------------------------------------
// Pass 1: text

const HINTS: readonly [RegExp, string][] = [
  [
    /^Block scalar header/,
    'a value that starts with ">" must be quoted (it starts a block scalar in YAML), e.g. ">= 500"',
  ],
  [/reserved character [@`]/, 'quote the value, e.g. owner: "@acme/eval-owners"'],
];

function syntaxMessage(raw: string): string {
  const msg = raw.replace(/\s+/g, " ").trim().replace(/\.$/, "");
  const hint = HINTS.find(([re]) => re.test(msg));
  return `YAML syntax error: ${msg}${hint ? `; ${hint[1]}` : ""}`;
}

/** The key path of the innermost key whose key or value spans `offset` (best effort, for messages). */
function pathAt(node: unknown, offset: number, path: string[] = []): string[] {
  if (!isMap(node)) return path;
  for (const pair of node.items) {
    const key = pair.key as YamlNode | null;
    const value = pair.value as YamlNode | null;
    if (!isScalar(key) || !key.range) continue;
    const end = value?.range?.[1] ?? key.range[1];
    if (offset >= key.range[0] && offset <= end) {
      const here = [...path, String(key.value)];
      return value?.range && offset >= value.range[0] ? pathAt(value, offset, here) : here;
    }
  }
  return path;
}

/**
 * Characters outside YAML 1.2's printable set (c-printable: tab, line breaks, U+0020–U+007E, U+0085,
 * U+00A0–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF): NUL and other controls, lone surrogates. The
 * `yaml` package accepts many of them inside quoted scalars; YAML 1.2 does not.
 */
const NOT_PRINTABLE = /[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

function unprintableProblems(text: string, at: Locator): InputProblem[] {
  const out: InputProblem[] = [];
  for (const m of text.matchAll(NOT_PRINTABLE)) {
    const cp = m[0].codePointAt(0) ?? 0;
    const name = `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
    out.push(
      problem(
        at.at(m.index),
        null,
        `the character ${name} is not allowed in YAML (only printable characters, tab and line breaks are); remove it`,
      ),
    );
  }
  return out;
}

/** The first collection nested deeper than MAX_POLICY_DEPTH, found without recursion. */
function nestingProblem(tokens: readonly CST.Token[], at: Locator): InputProblem | undefined {
  const stack: [CST.Token, number][] = [];
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i];
    if (t?.type === "document" && t.value !== undefined) stack.push([t.value, 1]);
  }
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [token, depth] = next;
    if (token.type !== "block-map" && token.type !== "block-seq" && token.type !== "flow-collection")
      continue;
    if (depth > MAX_POLICY_DEPTH) {
      return problem(
        at.at(token.offset),
        null,
        `mappings and lists are nested more than ${MAX_POLICY_DEPTH} levels deep here; a policy needs 2 ` +
          `(e.g. accept_if: common_valid_tasks)`,
      );
    }
    const items: readonly CST.CollectionItem[] = token.items;
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i];
      if (item?.value) stack.push([item.value, depth + 1]);
      if (item?.key) stack.push([item.key, depth + 1]);
    }
  }
  return undefined;
}

function directiveProblems(tokens: readonly CST.Token[], at: Locator): InputProblem[] {
  const out: InputProblem[] = [];
  for (const token of tokens) {
    if (token.type !== "directive") continue;
    const src = token.source.trim();
    const why = /^%YAML\s+1\.1\b/.test(src)
      ? " (YAML 1.1 would read yes/no/on/off as booleans and dates as timestamps; the policy is read as YAML 1.2 core)"
      : "";
    out.push(
      problem(at.at(token.offset), null, `the directive "${src}" is not allowed${why}; remove the line`),
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Pass 2: YAML structure, converted to plain values with the position of every key

const CORE_PREFIX = "tag:yaml.org,2002:";

/** The tag as it is usually written: `!!set`, `!local`, else the verbatim `!<uri>`. */
function tagShorthand(tag: string): string {
  if (tag.startsWith(CORE_PREFIX)) return `!!${tag.slice(CORE_PREFIX.length)}`;
  return tag.startsWith("!") ? tag : `!<${tag}>`;
}

/** Where `prop` (an anchor or tag written just before the node) starts, else the node's start. */
function propOffset(text: string, nodeStart: number, prop: string): number {
  const i = text.lastIndexOf(prop, nodeStart);
  if (i >= 0 && /^[\s]*(?:[&!]\S*[\s]*)*$/.test(text.slice(i + prop.length, nodeStart))) return i;
  return nodeStart;
}

interface Converted {
  readonly value: unknown;
  readonly entries: Map<string, Entry>;
  readonly problems: InputProblem[];
}

const pathKey = (path: Path): string => JSON.stringify(path);

function convert(doc: Document.Parsed, text: string, at: Locator): Converted {
  const entries = new Map<string, Entry>();
  const problems: InputProblem[] = [];

  const checkProps = (node: ParsedNode, path: Path): void => {
    const start = node.range[0];
    if (node.anchor) {
      problems.push(
        problem(
          at.at(propOffset(text, start, `&${node.anchor}`)),
          path,
          `the anchor "&${node.anchor}" is not allowed: write every value out in full (anchors and aliases hide what a rule says)`,
        ),
      );
    }
    if (node.tag !== undefined && !CORE_TAGS.has(node.tag)) {
      const shown = tagShorthand(node.tag);
      problems.push(
        problem(
          at.at(propOffset(text, start, shown)),
          path,
          `the tag "${shown}" is not allowed: the policy is plain YAML 1.2 (core schema); remove the tag`,
        ),
      );
    }
  };

  const walk = (node: ParsedNode | null, path: Path): unknown => {
    if (node === null) return null;
    if (isAlias(node)) {
      problems.push(
        problem(
          at.at(node.range[0]),
          path,
          `the alias "*${node.source}" is not allowed: write the value out in full (anchors and aliases hide what a rule says)`,
        ),
      );
      return null;
    }
    checkProps(node, path);
    if (isScalar(node)) return node.value;
    if (isSeq(node)) {
      return node.items.map((item: unknown, i) => {
        const p = [...path, String(i)];
        if (isPair(item)) {
          // Only in tagged collections (!!omap, !!pairs), already reported: look inside for more.
          walk(item.key as ParsedNode | null, p);
          walk(item.value as ParsedNode | null, p);
          return null;
        }
        const n = item as ParsedNode | null;
        entries.set(pathKey(p), { keyOffset: null, valueOffset: n?.range[0] ?? node.range[0] });
        return walk(n, p);
      });
    }
    if (!isMap(node)) return null;
    // A mapping. Null prototype: a key named "__proto__" is just an (unknown) key.
    const out = Object.create(null) as Record<string, unknown>;
    const firstSeen = new Map<string, number>();
    for (const pair of node.items) {
      const key = pair.key as ParsedNode | null;
      const value = pair.value;
      const keyOffset = key?.range[0] ?? value?.range[0] ?? node.range[0];
      if (key === null || isAlias(key) || !isScalar(key) || typeof key.value !== "string") {
        if (key !== null) checkProps(key, path);
        const shown =
          key === null
            ? "an empty key"
            : isAlias(key)
              ? `the alias "*${key.source}"`
              : isScalar(key)
                ? describeValue(key.value)
                : describeValue(isSeq(key) ? [] : {});
        problems.push(problem(at.at(keyOffset), path, `expected a key name (a plain string); got ${shown}`));
        continue;
      }
      checkProps(key, [...path, key.value]);
      const name = key.value;
      const p = [...path, name];
      const seen = firstSeen.get(name);
      if (seen !== undefined) {
        problems.push(
          problem(
            at.at(keyOffset),
            p,
            `duplicate key "${name}" (first set at line ${at.at(seen).line ?? 0}): each key may appear once`,
          ),
        );
        walk(value, p);
        continue;
      }
      firstSeen.set(name, keyOffset);
      entries.set(pathKey(p), { keyOffset, valueOffset: value?.range[0] ?? keyOffset });
      out[name] = walk(value, p);
    }
    return out;
  };

  const root = doc.contents;
  const value = walk(root, []);
  if (root !== null) entries.set(pathKey([]), { keyOffset: null, valueOffset: root.range[0] });
  return { value, entries, problems };
}

// ---------------------------------------------------------------------------------------------
// Pass 3: shape

function fromResult<T>(r: ValueResult<T>, input: unknown, ctx: z.RefinementCtx): T {
  if (r.ok) return r.value;
  ctx.issues.push({ code: "custom", message: r.message, input });
  return z.NEVER;
}

const custom = <T>(parse: (input: unknown) => ValueResult<T>) =>
  z.unknown().transform((v, ctx) => fromResult(parse(v), v, ctx));

const threshold = (spec: ThresholdSpec) => custom((v) => parseThreshold(v, spec));

function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, {
    error: (iss) => `expected one of ${values.join(", ")}; got ${describeValue(iss.input)}`,
  });
}

const YAML11_WORDS = new Set(["yes", "no", "on", "off", "y", "n"]);

const booleanField = z.boolean({
  error: (iss) => {
    const got = describeValue(iss.input);
    const word = typeof iss.input === "string" && YAML11_WORDS.has(iss.input.toLowerCase());
    return `expected true or false; got ${got}${word ? " (YAML 1.2 reads yes/no/on/off as text)" : ""}`;
  },
});

const mapping = {
  error: (iss: { input?: unknown }) => `expected a mapping of keys; got ${describeValue(iss.input)}`,
};

const ownerField = custom((v): ValueResult<string> =>
  typeof v === "string" && v.trim() !== ""
    ? { ok: true, value: v }
    : {
        ok: false,
        message: `expected a non-empty string naming who answers for the thresholds, e.g. "@acme/eval-owners"; got ${describeValue(v)}`,
      },
);

const confidenceField = custom((v): ValueResult<number> =>
  typeof v === "number" && v > 0.5 && v < 1
    ? { ok: true, value: v }
    : {
        ok: false,
        message: `expected a number strictly between 0.5 and 1 (the one-sided confidence level), e.g. 0.95; got ${describeValue(v)}`,
      },
);

const powerField = custom((v): ValueResult<number> =>
  typeof v === "number" && v > 0 && v < 1
    ? { ok: true, value: v }
    : {
        ok: false,
        message: `expected a number strictly between 0 and 1 (the power of the minimum detectable effect, a planning figure), e.g. 0.8; got ${describeValue(v)}`,
      },
);

const canaryField = custom((v): ValueResult<true> =>
  v === "passes"
    ? { ok: true, value: true }
    : {
        ok: false,
        message: `the only value is passes (omit the key to not require a production canary); got ${describeValue(v)}`,
      },
);

const observedMarginField = custom((v): ValueResult<{ delta0: number; text: string }> => {
  const r = parseObservedMargin(v);
  return r.ok ? { ok: true, value: { delta0: r.value, text: v as string } } : r;
});

const acceptIfSchema = z.strictObject(
  {
    common_valid_tasks: threshold({ kind: "count", example: '">= 500"' }),
    infra_error_rate: threshold({ kind: "fraction", example: '"< 1%"' }),
    disputed_fraction: threshold({ kind: "fraction", example: '"< 5%"' }),
    missing_fraction: threshold({ kind: "fraction", example: '"< 2%"' }).optional(),
    observed_margin: observedMarginField,
    production_canary: canaryField.optional(),
  },
  mapping,
);

const marginSchema = z.strictObject(
  {
    confidence: confidenceField.optional(),
    quantile: oneOf(["t", "z"]).optional(),
    power: powerField.optional(),
    standard_error: oneOf(["paired", "clustered"]).optional(),
    cluster_correction: oneOf(["cr2", "cr1"]).optional(),
    validity_bound: oneOf(["exact", "pessimistic"]).optional(),
  },
  mapping,
);

const referenceField = custom((v): ValueResult<string> =>
  typeof v === "string" && v.trim() !== ""
    ? { ok: true, value: v }
    : {
        ok: false,
        message: `expected a model_config id (the production config the ranking compares with), e.g. "cfg-prod"; got ${describeValue(v)}`,
      },
);

/** How `model-gate rank` and the action's rank mode gate (docs/rank.md "Gating"). */
const rankSchema = z.strictObject(
  {
    require: oneOf(RANK_REQUIREMENTS).optional(),
    reference: referenceField.optional(),
  },
  mapping,
);

const policySchema = z.strictObject(
  {
    owner: ownerField,
    revisit: custom((v) => parseDate(v, "2027-03-31")),
    on_expired: oneOf(["warn", "neutral", "fail"]).optional(),
    infra_errors: oneOf(INFRA_ERRORS_MODES).optional(),
    require_same_harness: booleanField.optional(),
    accept_if: acceptIfSchema,
    margin: marginSchema.optional(),
    on_unresolved: oneOf(["fail", "neutral"]).optional(),
    rank: rankSchema.optional(),
    benchmarks: benchmarksSchema(
      acceptIfSchema.partial().extend({ required: booleanField.optional(), canary: booleanField.optional() }),
      mapping,
    ).optional(),
    reruns: oneOf(["latest", "pool", "fail"]).optional(),
    guardrails: guardrailsSchema.optional(),
  },
  mapping,
);

const ALLOWED_KEYS = new Map<string, readonly string[]>([
  [pathKey([]), Object.keys(policySchema.shape)],
  [pathKey(["accept_if"]), Object.keys(acceptIfSchema.shape)],
  [pathKey(["margin"]), Object.keys(marginSchema.shape)],
  [pathKey(["rank"]), Object.keys(rankSchema.shape)],
  ["benchmarks.*", [...Object.keys(acceptIfSchema.shape), ...BENCHMARK_ENTRY_KEYS]],
]);

const MISSING_HINT: Readonly<Record<string, string>> = {
  owner: 'who answers for the thresholds, e.g. owner: "@acme/eval-owners"',
  revisit: "the date by which the thresholds are re-examined, e.g. revisit: 2027-03-31",
  accept_if:
    "the acceptance rules: common_valid_tasks, infra_error_rate, disputed_fraction and observed_margin",
  "accept_if.common_valid_tasks": 'e.g. common_valid_tasks: ">= 500"',
  "accept_if.infra_error_rate": 'e.g. infra_error_rate: "< 1%"',
  "accept_if.disputed_fraction": 'e.g. disputed_fraction: "< 5%"',
  "accept_if.observed_margin": `e.g. observed_margin: "${OBSERVED_MARGIN_BASE}"`,
};

function unknownKeyMessage(key: string, allowed: readonly string[]): string {
  const near = allowed
    .map((k) => ({ k, d: editDistance(key.toLowerCase(), k) }))
    .filter(({ d }) => d <= Math.max(2, Math.floor(key.length / 4)))
    .sort((a, b) => a.d - b.d || a.k.localeCompare(b.k))[0];
  const guess = near ? ` did you mean "${near.k}"?` : "";
  return `unknown key "${key}";${guess} the keys allowed here are ${allowed.join(", ")}`;
}

function shapeProblems(issues: readonly z.core.$ZodIssue[], conv: Converted, at: Locator): InputProblem[] {
  const out: InputProblem[] = [];
  const entryAt = (path: Path): Entry | undefined => conv.entries.get(pathKey(path));
  const keyLoc = (e: Entry): SourceLocation => at.at(e.keyOffset ?? e.valueOffset);
  for (const issue of issues) {
    const path = issue.path.map(String);
    if (issue.code === "unrecognized_keys") {
      const entry = path.length === 2 && path[0] === "benchmarks" ? "benchmarks.*" : pathKey(path);
      const allowed = ALLOWED_KEYS.get(entry) ?? (path[0] === "guardrails" ? GUARDRAIL_KEYS : []);
      for (const key of issue.keys) {
        const p = [...path, key];
        const e = entryAt(p);
        out.push(problem(e ? keyLoc(e) : at.at(0), p, unknownKeyMessage(key, allowed)));
      }
      continue;
    }
    const e = entryAt(path);
    if (e === undefined) {
      // The key is absent: point at the mapping that should hold it.
      const parent = entryAt(path.slice(0, -1));
      const field = path.join(".");
      const hint = MISSING_HINT[field];
      out.push(
        problem(
          parent ? keyLoc(parent) : at.at(0),
          path,
          `missing required key "${path[path.length - 1] ?? ""}"${hint ? ` (${hint})` : ""}`,
        ),
      );
      continue;
    }
    out.push(problem(keyLoc(e), path, issue.message));
  }
  return out;
}

/**
 * Parse and validate a policy (SPEC §1.3). `file` is only used in messages. Throws InputError
 * listing every problem found by the first pass that found any, each with file, line, column and
 * (when the problem is about a key) the key path.
 */
export function parsePolicy(text: string, file: string): Policy {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_POLICY_BYTES) {
    fail(file, [
      {
        location: { file, line: 1, column: 1 },
        message: `the policy file is ${bytes} bytes; the limit is ${MAX_POLICY_BYTES} bytes (64 KiB)`,
      },
    ]);
  }
  const src = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const at = new Locator(file, src);

  // Pass 1: text.
  const unprintable = unprintableProblems(src, at);
  if (unprintable.length > 0) fail(file, unprintable);
  const tokens = [...new Parser().parse(src)];
  const deep = nestingProblem(tokens, at);
  if (deep !== undefined) fail(file, [deep]);
  const docs = parseAllDocuments(src, POLICY_YAML_OPTIONS);
  const pass1 = directiveProblems(tokens, at);
  const docList = Array.isArray(docs) ? docs : [];
  const syntaxLines = new Set<number>();
  for (const doc of docList) {
    for (const err of doc.errors) {
      if (err.code === "DUPLICATE_KEY") continue; // reported with its first line in pass 2
      const loc = at.at(err.pos[0]);
      if (syntaxLines.has(loc.line ?? 0)) continue; // one error per line: the rest is usually fallout
      syntaxLines.add(loc.line ?? 0);
      pass1.push(problem(loc, pathAt(doc.contents, err.pos[0]), syntaxMessage(err.message)));
    }
  }
  const second = docList[1];
  if (second) {
    pass1.push(
      problem(
        at.at(second.range[0]),
        null,
        `a second YAML document starts here: the policy must be a single document (remove the "---" or "..." line and what follows, or merge it)`,
      ),
    );
  }
  if (pass1.length > 0) fail(file, pass1);

  const doc = docList[0];
  if (doc === undefined || doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) {
    fail(file, [
      problem(
        at.at(0),
        null,
        "the policy is empty; expected a mapping with at least owner, revisit and accept_if",
      ),
    ]);
  }

  // Pass 2: structure.
  const conv = convert(doc, src, at);
  const root = doc.contents;
  if (!isMap(root)) {
    conv.problems.push(
      problem(
        at.at(root.range[0]),
        null,
        `the policy must be a mapping of keys (owner, revisit, accept_if, …); got ${describeValue(conv.value)}`,
      ),
    );
  }
  if (conv.problems.length > 0) fail(file, conv.problems);

  // Pass 3: shape.
  const parsed = policySchema.safeParse(conv.value);
  if (!parsed.success) fail(file, shapeProblems(parsed.error.issues, conv, at));
  return toPolicy(parsed.data);
}

function toPolicy(d: z.output<typeof policySchema>): Policy {
  const a = d.accept_if;
  const acceptIf: AcceptIf = {
    common_valid_tasks: a.common_valid_tasks,
    infra_error_rate: a.infra_error_rate,
    disputed_fraction: a.disputed_fraction,
    ...(a.missing_fraction !== undefined ? { missing_fraction: a.missing_fraction satisfies Threshold } : {}),
    delta0: a.observed_margin.delta0,
    observed_margin_text: a.observed_margin.text,
    production_canary: a.production_canary ?? false,
  };
  const m = d.margin ?? {};
  const margin: MarginSettings = {
    confidence: m.confidence ?? POLICY_DEFAULTS.margin.confidence,
    quantile: m.quantile ?? POLICY_DEFAULTS.margin.quantile,
    power: m.power ?? POLICY_DEFAULTS.margin.power,
    standard_error: m.standard_error ?? POLICY_DEFAULTS.margin.standard_error,
    cluster_correction: m.cluster_correction ?? POLICY_DEFAULTS.margin.cluster_correction,
    validity_bound: m.validity_bound ?? POLICY_DEFAULTS.margin.validity_bound,
  };
  return {
    owner: d.owner,
    revisit: d.revisit,
    on_expired: d.on_expired ?? POLICY_DEFAULTS.on_expired,
    infra_errors: d.infra_errors ?? POLICY_DEFAULTS.infra_errors,
    require_same_harness: d.require_same_harness ?? POLICY_DEFAULTS.require_same_harness,
    accept_if: acceptIf,
    margin,
    on_unresolved: d.on_unresolved ?? POLICY_DEFAULTS.on_unresolved,
    ...(d.rank !== undefined
      ? { rank: { require: d.rank.require ?? "top_resolved", reference: d.rank.reference ?? null } }
      : {}),
    ...(d.benchmarks !== undefined ? { benchmarks: benchmarkPolicies(d.benchmarks, acceptIf) } : {}),
    reruns: d.reruns ?? POLICY_DEFAULTS.reruns,
    ...(d.guardrails !== undefined ? { guardrails: toGuardrails(d.guardrails) } : {}),
  };
}

/**
 * True when the policy is past its revisit date: `today` (YYYY-MM-DD, the caller's clock or
 * `--today`) is strictly after `revisit`. On the revisit date itself the policy still holds.
 * Throws InputError when `today` is not a calendar date.
 */
export function isExpired(policy: Policy, today: string): boolean {
  if (!isIsoDate(today)) {
    throw new InputError(`Invalid date for today: expected YYYY-MM-DD, got ${JSON.stringify(today)}`, [
      { field: "today", message: `expected a date YYYY-MM-DD; got ${JSON.stringify(today)}` },
    ]);
  }
  return today > policy.revisit; // zero-padded ISO dates order like strings
}
