/**
 * Generators for the reader fuzzers: valid exports and reviews with hostile-but-legal ids
 * (`__proto__`, `constructor`, bidi, Markdown), consistent labels (so that most generated files
 * are valid), and mutations that real exports suffer (a flipped or missing byte, a truncated last
 * line, a NUL, a bad field value such as 1e400 or -0, a `__proto__` key, CRLF, blank and BOM lines).
 */
import * as fc from "fast-check";

import { BASE, CAND, DATASET, HARNESS } from "./helpers.js";

export const TASK_IDS = [
  "t-1",
  "t-2",
  "t-3",
  "__proto__",
  "constructor",
  "prototype",
  "hasOwnProperty",
  "toString",
  "ü-ß-😀",
  "\u202eevil",
  "a|b",
  "<!-- model-acceptance-gate:report -->",
  "@org/team",
  "#1",
] as const;
export const DATASETS = [DATASET, "sha256:d2"] as const;
export const HARNESSES = [HARNESS, "git:h2"] as const;
export const MODELS = [CAND, BASE, "cfg-noise", "__proto__"] as const;
const VALIDITIES = ["valid", "broken", "disputed", "unreviewed"] as const;
const RESULTS = ["pass", "fail", "infra_error", "missing"] as const;
export const REVISIONS = [0, 1, 2, 3, Number.MAX_SAFE_INTEGER] as const;

/** One label per (task, revision): labels never conflict unless a mutation makes them. */
export function labelOf(task: number, revision: number): (typeof VALIDITIES)[number] {
  return VALIDITIES[(task * 7 + (revision % 1000) * 3) % 4] ?? "valid";
}

function clusterOf(task: number): string | undefined {
  return task % 3 === 0 ? undefined : task % 3 === 1 ? "repo-a" : "__proto__";
}

/** The result of an attempt with an id is a function of its key: a repeat is a true duplicate. */
function resultOf(
  model: number,
  task: number,
  harness: number,
  attempt: string | number,
): (typeof RESULTS)[number] {
  const s = `${model}/${task}/${harness}/${typeof attempt}/${String(attempt)}`;
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) >>> 0;
  return RESULTS[h % 4] ?? "pass";
}

const rowSpec = fc.record({
  task: fc.nat(TASK_IDS.length - 1),
  ds: fc.nat(DATASETS.length - 1),
  harness: fc.nat(HARNESSES.length - 1),
  model: fc.nat(MODELS.length - 1),
  rev: fc.constantFrom(...REVISIONS),
  result: fc.constantFrom(...RESULTS),
  attempt: fc.option(fc.oneof(fc.integer({ min: -2, max: 3 }), fc.constantFrom("1", "a", "__proto__")), {
    nil: undefined,
  }),
  aggregated: fc.boolean(),
  counts: fc.tuple(fc.nat(3), fc.nat(3), fc.nat(2), fc.nat(1)),
  cluster: fc.boolean(),
  evidence: fc.option(
    fc.oneof(
      fc.constantFrom("https://example.com/log?a=1&b=(2)", "logs/x.txt", "javascript:alert(1)", ""),
      fc.array(fc.constantFrom("a.log", "https://evil.example/@x", "", "b.log"), { maxLength: 3 }),
    ),
    { nil: undefined },
  ),
});

/** Valid export rows: both compared models on task t-1 at least, then random rows. */
export const exportRows = fc.array(rowSpec, { minLength: 0, maxLength: 30 }).map((specs) => {
  const rows: Record<string, unknown>[] = [
    {
      task_id: "t-1",
      dataset_revision: DATASET,
      harness_revision: HARNESS,
      model_config: CAND,
      validity: labelOf(0, 1),
      result: "pass",
      review_revision: 1,
    },
    {
      task_id: "t-1",
      dataset_revision: DATASET,
      harness_revision: HARNESS,
      model_config: BASE,
      validity: labelOf(0, 1),
      result: "fail",
      review_revision: 1,
    },
  ];
  const aggregatedDone = new Set<string>();
  for (const s of specs) {
    const base: Record<string, unknown> = {
      task_id: TASK_IDS[s.task],
      dataset_revision: DATASETS[s.ds],
      model_config: MODELS[s.model],
      validity: labelOf(s.task, s.rev),
      review_revision: s.rev,
    };
    const cluster = clusterOf(s.task);
    if (s.cluster && cluster !== undefined) base["cluster"] = cluster;
    if (s.evidence !== undefined) base["evidence"] = s.evidence;
    const aggKey = `${s.model}/${s.task}/${s.ds}`;
    if (s.aggregated && !aggregatedDone.has(aggKey) && s.counts.some((c) => c > 0)) {
      aggregatedDone.add(aggKey);
      const [passes, fails, infra, missing] = s.counts;
      rows.push({ ...base, harness_revision: "git:aggregated", passes, fails, infra_errors: infra, missing });
      continue;
    }
    const r: Record<string, unknown> = { ...base, harness_revision: HARNESSES[s.harness] };
    if (s.attempt !== undefined) {
      r["attempt"] = s.attempt;
      r["result"] = resultOf(s.model, s.task, s.harness, s.attempt);
    } else {
      r["result"] = s.result;
    }
    rows.push(r);
  }
  return rows;
});

/** Valid review rows whose labels agree with the export's at shared revisions. */
export const reviewRows = fc
  .array(
    fc.record({
      task: fc.nat(TASK_IDS.length - 1),
      ds: fc.nat(DATASETS.length - 1),
      rev: fc.constantFrom(...REVISIONS, 4, 5),
      reviewer: fc.option(fc.constantFrom("alice", "@org/team", "\u200bzw"), { nil: undefined }),
      note: fc.option(fc.constantFrom("ok", "line1\nline2\t<b>x</b>", "\n::error::x"), { nil: undefined }),
    }),
    { maxLength: 8 },
  )
  .map((specs) =>
    specs.map((s) => {
      const r: Record<string, unknown> = {
        task_id: TASK_IDS[s.task],
        dataset_revision: DATASETS[s.ds],
        validity: labelOf(s.task, s.rev),
        review_revision: s.rev,
      };
      if (s.reviewer !== undefined) r["reviewer"] = s.reviewer;
      if (s.note !== undefined) r["note"] = s.note;
      return r;
    }),
  );

/** Raw JSON texts put in a field by a mutation: out of range, wrong type, hostile. */
const RAW_VALUES = [
  "1e400",
  "-1e400",
  "-0",
  "1.5",
  "-1",
  "9007199254740992",
  "9007199254740993",
  "1e21",
  '""',
  "null",
  "[]",
  "{}",
  "true",
  '"\\u0000"',
  '"a\\nb"',
  '"\\ud800"',
  '"valid"',
  '"pass"',
  '"x\\u202ey"',
  '"__proto__"',
  "[[[[[[[[1]]]]]]]]",
  '{"__proto__":{"polluted":1}}',
  `"${"a".repeat(5000)}"`,
] as const;

const FIELDS = [
  "task_id",
  "dataset_revision",
  "harness_revision",
  "model_config",
  "validity",
  "result",
  "review_revision",
  "evidence",
  "attempt",
  "cluster",
  "passes",
  "fails",
  "infra_errors",
  "missing",
  "reviewer",
  "note",
  "__proto__",
  "constructor",
] as const;

export type Mutation =
  | { readonly kind: "insert-byte"; readonly at: number; readonly byte: number }
  | { readonly kind: "delete"; readonly at: number; readonly length: number }
  | { readonly kind: "truncate"; readonly at: number }
  | { readonly kind: "duplicate-line"; readonly line: number }
  | { readonly kind: "random-line"; readonly line: number; readonly bytes: Uint8Array }
  | { readonly kind: "field"; readonly line: number; readonly field: string; readonly raw: string }
  | { readonly kind: "blank-line"; readonly line: number; readonly text: string }
  | { readonly kind: "crlf" }
  | { readonly kind: "proto-key"; readonly line: number };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant("insert-byte" as const),
    at: fc.nat(),
    byte: fc.constantFrom(0x00, 0x0a, 0x0d, 0xff, 0xc3, 0xe2, 0x22, 0x7b, 0x7d, 0x5c, 0x20, 0x09, 0xef, 0x2c),
  }),
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 20 }) }),
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("duplicate-line" as const), line: fc.nat() }),
  fc.record({
    kind: fc.constant("random-line" as const),
    line: fc.nat(),
    bytes: fc.uint8Array({ maxLength: 40 }),
  }),
  fc.record({
    kind: fc.constant("field" as const),
    line: fc.nat(),
    field: fc.constantFrom(...FIELDS),
    raw: fc.constantFrom(...RAW_VALUES),
  }),
  fc.record({
    kind: fc.constant("blank-line" as const),
    line: fc.nat(),
    text: fc.constantFrom("", " ", "\t", "\r", "\uFEFF", "\uFEFF \t", "\u00a0", "\f", "\u0000"),
  }),
  fc.record({ kind: fc.constant("crlf" as const) }),
  fc.record({ kind: fc.constant("proto-key" as const), line: fc.nat() }),
);

function splitLines(buf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let i = buf.indexOf(0x0a); i !== -1; i = buf.indexOf(0x0a, start)) {
    out.push(buf.subarray(start, i));
    start = i + 1;
  }
  out.push(buf.subarray(start));
  return out;
}

const joinLines = (lines: readonly Buffer[]): Buffer =>
  Buffer.concat(lines.flatMap((l, i) => (i === 0 ? [l] : [Buffer.from("\n"), l])));

/** Applies one mutation to a file's bytes. */
export function mutate(input: Buffer, m: Mutation): Buffer {
  const at = (n: number, len: number): number => (len === 0 ? 0 : n % (len + 1));
  switch (m.kind) {
    case "insert-byte": {
      const i = at(m.at, input.length);
      return Buffer.concat([input.subarray(0, i), Buffer.from([m.byte]), input.subarray(i)]);
    }
    case "delete": {
      const i = at(m.at, input.length);
      return Buffer.concat([input.subarray(0, i), input.subarray(Math.min(input.length, i + m.length))]);
    }
    case "truncate":
      return input.subarray(0, at(m.at, input.length));
    case "crlf":
      return Buffer.from(input.toString("latin1").replace(/\n/g, "\r\n"), "latin1");
    default: {
      const lines = splitLines(input);
      const i = m.line % lines.length;
      const line = lines[i] ?? Buffer.alloc(0);
      if (m.kind === "duplicate-line") lines.splice(i, 0, line);
      else if (m.kind === "random-line") lines.splice(i, 0, Buffer.from(m.bytes));
      else if (m.kind === "blank-line") lines.splice(i, 0, Buffer.from(m.text, "utf8"));
      else if (m.kind === "proto-key") {
        const text = line.toString("utf8");
        if (text.startsWith("{")) {
          lines[i] = Buffer.from(
            `{"__proto__":{"result":"fail","task_id":"x","polluted":true},${text.slice(1)}`,
            "utf8",
          );
        }
      } else {
        let obj: unknown;
        try {
          obj = JSON.parse(line.toString("utf8"));
        } catch {
          return input;
        }
        if (typeof obj !== "object" || obj === null || Array.isArray(obj)) return input;
        const copy = Object.fromEntries(Object.entries(obj).filter(([k]) => k !== m.field));
        const text = JSON.stringify(copy);
        const extra = `"${m.field}":${m.raw}`;
        lines[i] = Buffer.from(text === "{}" ? `{${extra}}` : `{${extra},${text.slice(1)}`, "utf8");
      }
      return joinLines(lines);
    }
  }
}

export function applyAll(input: Buffer, ms: readonly Mutation[]): Buffer {
  return ms.reduce(mutate, input);
}
