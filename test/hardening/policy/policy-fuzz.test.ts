/**
 * The policy loader (parsePolicy) under fuzzing and hostile YAML. For any text: a Policy whose
 * values are within their documented ranges, or an InputError whose every problem names the file
 * and a line and column inside the text — never another exception, never a hang (inputs are at
 * most a few KiB and every parse is timed), never a change to Object.prototype. The YAML attacks
 * of the issue (alias bombs, custom tags, %YAML 1.1, duplicate keys, several documents, deep
 * nesting) also go through the CLI bundle: exit 3, file and line named, no stack trace.
 */
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";

import { InputError } from "../../../src/core/errors.js";
import { MAX_POLICY_BYTES, parsePolicy } from "../../../src/core/policy/load-policy.js";
import type { Policy } from "../../../src/core/policy/policy-types.js";
import {
  evaluateArgs,
  expectUserError,
  FUZZ_TIMEOUT,
  fuzzParams,
  jsonl,
  row,
  runBundle,
  useScratch,
  BASE,
  SMALL_POLICY,
} from "../helpers.js";

const scratch = useScratch("gate-policy-fuzz-");

const VALID = `owner: "@acme/eval-owners"
revisit: 2027-03-31
on_expired: warn
infra_errors: exclude
require_same_harness: true
accept_if:
  common_valid_tasks: ">= 500"
  infra_error_rate: "< 1%"
  disputed_fraction: "< 5%"
  missing_fraction: "< 2%"
  observed_margin: "> validity_sensitivity + run_variance + 1%"
  production_canary: passes
margin:
  confidence: 0.95
  standard_error: paired
  validity_bound: exact
on_unresolved: fail
`;

const PROTO_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();
let slowest = 0;

type Outcome = { kind: "policy"; policy: Policy } | { kind: "error"; error: InputError };

/** parsePolicy with its outcome checked; anything but a Policy or an InputError fails the property. */
function parse(text: string): Outcome {
  const start = performance.now();
  let out: Outcome;
  try {
    out = { kind: "policy", policy: parsePolicy(text, "policy.yaml") };
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    out = { kind: "error", error: e };
  }
  slowest = Math.max(slowest, performance.now() - start);
  const src = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const lines = src.split("\n").length;
  if (out.kind === "error") {
    expect(out.error.problems.length).toBeGreaterThanOrEqual(1);
    expect(out.error.message).toMatch(/^Invalid policy file policy\.yaml: \d+ problems?\n/);
    expect(out.error.message).not.toMatch(/^\s+at .+:\d+:\d+/m);
    expect(out.error.message).not.toMatch(/Maximum call stack|RangeError|TypeError|undefined is not/);
    for (const p of out.error.problems) {
      expect(p.location?.file).toBe("policy.yaml");
      expect(p.location?.line).toBeGreaterThanOrEqual(1);
      expect(p.location?.line).toBeLessThanOrEqual(lines);
      expect(p.location?.column).toBeGreaterThanOrEqual(1);
    }
  } else {
    const p = out.policy;
    expect(typeof p.owner === "string" && p.owner.trim() !== "").toBe(true);
    expect(p.revisit).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(p.margin.confidence > 0.5 && p.margin.confidence < 1).toBe(true);
    expect(Number.isFinite(p.accept_if.delta0)).toBe(true);
    for (const t of [
      p.accept_if.common_valid_tasks,
      p.accept_if.infra_error_rate,
      p.accept_if.disputed_fraction,
    ]) {
      expect(Number.isFinite(t.value)).toBe(true);
    }
    // Deterministic: the same text gives the same policy.
    expect(parsePolicy(text, "policy.yaml")).toEqual(p);
  }
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTO_KEYS);
  expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  return out;
}

/** YAML fragments that reach the loader's less travelled paths. */
const FRAGMENTS = [
  "&a ",
  "*a",
  "!!str ",
  "!!binary ",
  "!custom ",
  "!<tag:evil.com,2000:x> ",
  "%YAML 1.1\n",
  "%YAML 1.2\n---\n",
  "%TAG ! tag:evil.com,2000:\n",
  "---\n",
  "...\n",
  "? ",
  "- ",
  "[",
  "]",
  "{",
  "}",
  ": ",
  ",",
  '"',
  "'",
  "# c\n",
  "\n",
  "  ",
  "\t",
  "<<: ",
  "|\n",
  ">-\n",
  "\\",
  "\u0000",
  "\uFEFF",
  "\u2028",
  "\u202e",
  "\ud800",
  "yes",
  "1e400",
  "-.inf",
  ".nan",
  "0x10",
  "2027-02-30",
  "__proto__: ",
  "constructor: ",
  "owner: ",
  "accept_if:\n  ",
  '">= 1e400"',
  '"< -0%"',
  '"> validity_sensitivity + run_variance - 1e400%"',
] as const;

type Edit =
  | { readonly kind: "insert"; readonly at: number; readonly text: string }
  | { readonly kind: "delete"; readonly at: number; readonly length: number }
  | { readonly kind: "dup-line"; readonly at: number }
  | { readonly kind: "swap-lines"; readonly at: number; readonly with: number };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), text: fc.constantFrom(...FRAGMENTS) }),
  fc.record({
    kind: fc.constant("insert" as const),
    at: fc.nat(),
    text: fc.string({ unit: "binary", maxLength: 8 }),
  }),
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ kind: fc.constant("dup-line" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("swap-lines" as const), at: fc.nat(), with: fc.nat() }),
);

function applyEdit(text: string, e: Edit): string {
  const at = text.length === 0 ? 0 : e.at % (text.length + 1);
  if (e.kind === "insert") return text.slice(0, at) + e.text + text.slice(at);
  if (e.kind === "delete") return text.slice(0, at) + text.slice(at + e.length);
  const lines = text.split("\n");
  const i = e.at % lines.length;
  if (e.kind === "dup-line") {
    lines.splice(i, 0, lines[i] ?? "");
  } else {
    const j = e.with % lines.length;
    [lines[i], lines[j]] = [lines[j] ?? "", lines[i] ?? ""];
  }
  return lines.join("\n");
}

describe("policy fuzz: a Policy within range or a located InputError, for any text", () => {
  it(
    "arbitrary Unicode text (lone surrogates, controls, bidi)",
    () => {
      const unit = fc.oneof(
        fc.string({ unit: "binary", maxLength: 1 }),
        fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n)),
      );
      fc.assert(
        fc.property(fc.string({ unit, maxLength: 400 }), (text) => {
          parse(text);
        }),
        fuzzParams("policy: arbitrary text", 400),
      );
    },
    FUZZ_TIMEOUT,
  );

  it(
    "a valid policy with up to 6 edits from a YAML-fragment alphabet",
    () => {
      const outcomes = { policy: 0, error: 0 };
      fc.assert(
        fc.property(fc.array(edit, { maxLength: 6 }), (edits) => {
          outcomes[parse(edits.reduce(applyEdit, VALID)).kind]++;
        }),
        fuzzParams("policy: mutated valid policy", 600),
      );
      expect(outcomes.policy).toBeGreaterThan(10);
      expect(outcomes.error).toBeGreaterThan(10);
    },
    FUZZ_TIMEOUT,
  );

  it(
    "YAML-fragment soup",
    () => {
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 60 }), (parts) => {
          parse(parts.join(""));
        }),
        fuzzParams("policy: fragment soup", 400),
      );
    },
    FUZZ_TIMEOUT,
  );

  it("no parse took longer than 2 s", () => {
    expect(slowest).toBeLessThan(2_000);
  });
});

describe("hostile YAML through the CLI bundle: exit 3, file and line named, no stack trace", () => {
  const results = scratch.write(
    jsonl(
      Array.from({ length: 5 }, (_, i) => [
        row({ task_id: `t-${i}` }),
        row({ task_id: `t-${i}`, model_config: BASE, result: "fail" }),
      ]).flat(),
    ),
    "results.jsonl",
  );
  const run = (name: string, text: string | Buffer) => {
    scratch.write(text, name);
    return runBundle(evaluateArgs([results], name), { cwd: scratch.dir });
  };

  it("a billion-laughs alias bomb is refused at its first anchor", () => {
    const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++)
      lines.push(`a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(",")}]`);
    const r = run("laughs.yaml", lines.join("\n") + "\n");
    expectUserError(
      r,
      /^model-gate: Invalid policy file laughs\.yaml: \d+ problems\n/,
      'laughs.yaml:1:5: field "a0": the anchor "&a0" is not allowed',
      'laughs.yaml:2:10: field "a1.0": the alias "*a0" is not allowed',
    );
  });

  it("a merge key with an alias", () => {
    expectUserError(
      run("merge.yaml", "base: &b {owner: x}\n<<: *b\nrevisit: 2027-01-01\n"),
      'merge.yaml:2:5: field "<<": the alias "*b" is not allowed',
    );
  });

  it.each([
    ["!!python/object:os.system", 'the tag "!!python/object:os.system" is not allowed'],
    ["!custom", 'the tag "!custom" is not allowed'],
    ["!!binary", 'the tag "!!binary" is not allowed'],
    ["!<tag:evil.com,2000:x>", 'the tag "!<tag:evil.com,2000:x>" is not allowed'],
  ])("the custom tag %s", (tag, message) => {
    expectUserError(
      run("tag.yaml", SMALL_POLICY.replace('owner: "@acme/eval-owners"', `owner: ${tag} x`)),
      `tag.yaml:1:8: field "owner": ${message}`,
    );
  });

  it("a %YAML 1.1 directive, and a %TAG directive", () => {
    expectUserError(
      run("v11.yaml", `%YAML 1.1\n---\n${SMALL_POLICY}`),
      'v11.yaml:1:1: the directive "%YAML 1.1" is not allowed (YAML 1.1 would read yes/no/on/off as booleans and dates as timestamps; the policy is read as YAML 1.2 core); remove the line',
    );
    expectUserError(
      run("tagdir.yaml", `%TAG ! tag:evil.com,2000:\n---\n${SMALL_POLICY}`),
      'tagdir.yaml:1:1: the directive "%TAG ! tag:evil.com,2000:" is not allowed; remove the line',
    );
  });

  it("duplicate keys, top-level and nested, each naming the first line", () => {
    const text = SMALL_POLICY + 'owner: "@someone/else"\n';
    const nested = SMALL_POLICY.replace(
      '  infra_error_rate: "< 1%"\n',
      '  infra_error_rate: "< 1%"\n  infra_error_rate: "< 90%"\n',
    );
    expectUserError(
      run("dup.yaml", text),
      'dup.yaml:8:1: field "owner": duplicate key "owner" (first set at line 1): each key may appear once',
    );
    expectUserError(
      run("dup2.yaml", nested),
      'dup2.yaml:6:3: field "accept_if.infra_error_rate": duplicate key "infra_error_rate" (first set at line 5): each key may appear once',
    );
  });

  it("a second document, after --- or ...", () => {
    expectUserError(
      run("two.yaml", `${SMALL_POLICY}---\nowner: x\n`),
      "two.yaml:8:1: a second YAML document starts here",
    );
    expectUserError(
      run("dots.yaml", `${SMALL_POLICY}...\n---\nowner: x\n`),
      "dots.yaml:9:1: a second YAML document starts here",
    );
  });

  it("deep nesting", () => {
    expectUserError(
      run("deep.yaml", `${SMALL_POLICY}x: ${"[".repeat(20_000)}\n`),
      "deep.yaml:8:19: mappings and lists are nested more than 16 levels deep here",
    );
  });

  it("a policy over 64 KiB", () => {
    expectUserError(
      run("big.yaml", SMALL_POLICY + "#".repeat(MAX_POLICY_BYTES) + "\n"),
      // Refused while reading (the cap holds before the whole file is read), so the size is not known.
      "big.yaml: it is larger than the limit of 65536 bytes.",
    );
  });

  it("a NUL byte, and bytes that are not UTF-8", () => {
    expectUserError(
      run("nul.yaml", SMALL_POLICY.replace("eval-owners", "eval\u0000owners")),
      "nul.yaml:1:19: the character U+0000 is not allowed in YAML",
    );
    expectUserError(
      run("latin1.yaml", Buffer.concat([Buffer.from(SMALL_POLICY), Buffer.from([0x23, 0xe9, 0x0a])])),
      "latin1.yaml:8: the file is not valid UTF-8 text",
    );
  });

  it("YAML 1.1 booleans and a key named __proto__", () => {
    expectUserError(
      run("yes.yaml", `${SMALL_POLICY}require_same_harness: yes\n__proto__: {polluted: 1}\n`),
      'yes.yaml:8:1: field "require_same_harness": expected true or false; got "yes" (YAML 1.2 reads yes/no/on/off as text)',
      'yes.yaml:9:1: field "__proto__": unknown key "__proto__"',
    );
  });
});
