/**
 * The byte scanner (src/read/rows/row-scanner.ts) against the JSON.parse path (row-checks.ts), on fuzzed
 * lines: whenever the scanner accepts a line, the JSON.parse path must accept it too and give the
 * same row; whenever the JSON.parse path refuses a line, the scanner must not accept it. The
 * lines are built from the fields of an export row with mutations aimed at each thing the
 * scanner decides (types, nulls, counts, numbers, escapes, control bytes, non-ASCII text,
 * lengths at the caps, whitespace, repeated keys, nesting, trailing bytes, truncation), so both
 * outcomes are common; the test also checks that the scanner takes most of the common shape.
 */
import { describe, expect, it } from "vitest";

import { MAX_EVIDENCE_LENGTH, MAX_EVIDENCE_PER_TASK, MAX_ID_LENGTH } from "../../../src/read/limits.js";
import {
  checkExportRow,
  emptyExportRow,
  LineIssues,
  parseObject,
  type ExportRow,
} from "../../../src/read/rows/row-checks.js";
import { RowScanner } from "../../../src/read/rows/row-scanner.js";
import { EvidenceArena } from "../../../src/read/rows/evidence-arena.js";
import { isPlainText } from "../../../src/read/rows/scanner-parts.js";
import { prng } from "../../helpers/prng.js";

/**
 * What the Dataset builder reads of a row (counts only for a pre-aggregated one); a packed
 * evidence list (RowScanner's packEvidence) as its items, after checking what it promises.
 */
function view(r: ExportRow): unknown {
  let evidence = r.evidence;
  if (r.packedEvidence !== undefined) {
    expect(r.evidence).toBeUndefined();
    // (A handle is read at once: the arena's next list on trial takes its place.)
    const packed = typeof r.packedEvidence === "number" ? arena.string(r.packedEvidence) : r.packedEvidence;
    const items = packed.split("\n");
    expect(items.length).toBe(r.packedItems);
    expect(items.length).toBeGreaterThanOrEqual(2);
    expect(items.length).toBeLessThanOrEqual(MAX_EVIDENCE_PER_TASK);
    expect(new Set(items).size).toBe(items.length);
    expect(items.every((item) => item.length > 0 && /^[\x20-\x7e]+$/.test(item))).toBe(true);
    evidence = items;
  } else {
    expect(r.packedItems).toBe(0);
  }
  return {
    taskId: r.taskId,
    datasetRevision: r.datasetRevision,
    harnessRevision: r.harnessRevision,
    modelConfig: r.modelConfig,
    validity: r.validity,
    reviewRevision: r.reviewRevision,
    result: r.result,
    counts: r.result < 0 ? [r.passes, r.fails, r.infraErrors, r.missing] : undefined,
    evidence: evidence === undefined ? undefined : typeof evidence === "string" ? evidence : [...evidence],
    attempt: r.attempt,
    cluster: r.cluster,
    benchmark: r.benchmark,
    metrics: r.metricNames
      .slice(0, r.metricCount)
      .map((name, k) => [name, r.metricValues[k], r.result < 0 ? r.metricCounts[k] : undefined]),
  };
}

function byJson(line: string): ExportRow | undefined {
  const issues = new LineIssues();
  const obj = parseObject(line, issues);
  const row = emptyExportRow();
  if (obj === undefined || !checkExportRow(obj, row, issues, false)) return undefined;
  return row;
}

const scanner = new RowScanner();
/** The builder's kind: evidence lists of distinct ASCII items come packed. */
const packing = new RowScanner(true);
/** The builder's own: those lists written into an arena, handed over as handles. */
const arena = new EvidenceArena();
const arenaPacking = new RowScanner(true, arena);
function byScanner(line: string, pad = false, by = scanner): ExportRow | undefined {
  // Bytes around the line (as in a read chunk) must not be read as part of it.
  const before = pad ? Buffer.from('9"}{,') : Buffer.alloc(0);
  const after = pad ? Buffer.from('.5e1"}\n{"x":1}') : Buffer.alloc(0);
  const body = Buffer.from(line, "utf8");
  const b = Buffer.concat([before, body, after]);
  const row = emptyExportRow();
  return by.scan(b, before.length, before.length + body.length, row) ? row : undefined;
}

function pick<T>(rand: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)] as T;
}

const ID_VALUES = [
  "t-1",
  "django__django-11099",
  "sha256:ab12",
  "ünïcödé-✓",
  "日本語",
  "😀",
  "a".repeat(MAX_ID_LENGTH),
  "a".repeat(MAX_ID_LENGTH + 1),
  "é".repeat(MAX_ID_LENGTH),
  "é".repeat(MAX_ID_LENGTH / 2 + 1),
  "",
  "tab\there",
  "nl\nhere",
  "del\u007fhere",
  "c1\u0085here",
  "nbsp\u00a0here",
  'quote"here',
  "back\\slash",
  "\u2028sep",
];
const EVIDENCE_VALUES = [
  "fixtures/t/fixture.log",
  "https://review.example.org/x.json",
  "",
  "x".repeat(MAX_EVIDENCE_LENGTH),
  "x".repeat(MAX_EVIDENCE_LENGTH + 1),
  "tab\tin",
  "ok ✓",
];
const NUMBERS = [
  "0",
  "1",
  "7",
  "12",
  "-1",
  "-0",
  "1.0",
  "1e2",
  "1E+2",
  "2.5",
  "01",
  "999999999999999",
  "9999999999999999",
  "9007199254740993",
  "1e400",
  "-",
  "1.",
  ".5",
];

const METRIC_NAMES = [
  "cost_usd",
  "latency_s",
  "tokens_in",
  "tokens_out",
  "a",
  "Cost",
  "1x",
  "a-b",
  "\\u0061",
];
const METRIC_VALUES = [
  ...["0", "1", "0.0132", "41.7", "1e5", "1.5e-7", "12345678901234567", "0.1234567890123456789", "2.5e-23"],
  ...["-1", "-0", "1e400", '"1"', "null", "true", "{}", "[1]", "01", "1.", ".5", "1e"],
];
const METRIC_COUNTS = ["0", "1", "2", "3", "4", "5", "1.5", "-1", "null", '"2"', "1e0", "01"];

/** A metric object's text: `names` with a value each, often valid, sometimes not. */
function metricObject(rand: () => number, names: readonly string[], counts: boolean): string {
  const values = counts ? METRIC_COUNTS : METRIC_VALUES;
  const entries = names.map((name) => {
    const v = rand() < 1 - 0.3 * noise ? values[Math.floor(rand() * (counts ? 6 : 9))] : pick(rand, values);
    return `"${name}":${v ?? "0"}`;
  });
  if (rand() < 0.05 * noise && entries.length > 0) entries.push(entries[0] ?? "");
  return `{${entries.join(pick(rand, [",", " , "]))}}`;
}

/** One to three metric names, mostly valid. */
function metricNames(rand: () => number): string[] {
  const n = Math.floor(rand() * 4);
  const names = new Set<string>();
  for (let k = 0; k < n; k++)
    names.add(
      rand() < 1 - 0.2 * noise ? (METRIC_NAMES[Math.floor(rand() * 5)] ?? "a") : pick(rand, METRIC_NAMES),
    );
  return [...names];
}

/** A row's metric fields: `metrics`, or metrics_sum with metrics_n (names often the same). */
function metricFields(rand: () => number, aggregated: boolean): [string, string][] {
  if (rand() < 0.5) return [];
  if (rand() < 0.05 * noise)
    return [[pick(rand, ["metrics", "metrics_sum", "metrics_n"]), pick(rand, ["null", "[]", "1", '"x"'])]];
  const names = metricNames(rand);
  if (aggregated === rand() < 0.9) {
    const other = rand() < 0.1 * noise ? metricNames(rand) : names;
    return [
      ["metrics_sum", metricObject(rand, names, false)],
      ["metrics_n", metricObject(rand, other, true)],
    ];
  }
  return [["metrics", metricObject(rand, names, false)]];
}

/** How likely the mutations are, per line: lines are often clean, often not. */
let noise = 1;

/** A raw JSON text for a value of `field`, often valid, sometimes not. */
function value(rand: () => number, field: string): string {
  const r = rand() / noise;
  if (r < 0.04) return "null";
  if (r < 0.07) return pick(rand, ["true", "false", "{}", "[]", '{"a":1}', "[1]", "nul", "tru"]);
  if (r < 0.1) return pick(rand, NUMBERS);
  switch (field) {
    case "validity":
      return JSON.stringify(pick(rand, ["valid", "broken", "disputed", "unreviewed", "Valid", "", "valid "]));
    case "result":
      return JSON.stringify(pick(rand, ["pass", "fail", "infra_error", "missing", "passed", "PASS"]));
    case "review_revision":
    case "passes":
    case "fails":
    case "infra_errors":
    case "missing":
      return rand() < 1 - 0.2 * noise ? pick(rand, ["0", "1", "2", "3", "12"]) : pick(rand, NUMBERS);
    case "attempt":
      if (rand() < 0.5) return rand() < 1 - 0.5 * noise ? pick(rand, ["1", "2", "30"]) : pick(rand, NUMBERS);
      return JSON.stringify(pick(rand, rand() < 1 - 0.5 * noise ? ID_VALUES.slice(0, 6) : ID_VALUES));
    case "evidence": {
      if (rand() < 0.3) return JSON.stringify(pick(rand, EVIDENCE_VALUES));
      if (rand() > noise)
        return JSON.stringify(["fixtures/t/fixture.log", "https://review.example.org/t.json"]);
      const n = Math.floor(rand() * 4);
      const items = Array.from({ length: n }, () => JSON.stringify(pick(rand, EVIDENCE_VALUES)));
      if (rand() < 0.1) items.push(pick(rand, ["1", "null", "[]"]));
      return `[${items.join(pick(rand, [",", " , ", ",\t"]))}]`;
    }
    default:
      if (rand() < 1 - 0.3 * noise) return JSON.stringify(pick(rand, ID_VALUES.slice(0, 6)));
      return JSON.stringify(pick(rand, ID_VALUES));
  }
}

const CORE = [
  "task_id",
  "dataset_revision",
  "harness_revision",
  "model_config",
  "validity",
  "review_revision",
];
const OTHER_KEYS = ["run_id", "duration_s", "tokens_in", "image", "meta", "", "ü", "__proto__"];

function fuzzLine(rand: () => number): string {
  noise = rand() < 0.5 ? 1 : 0.1;
  const fields: [string, string][] = [];
  for (const f of CORE) if (rand() > 0.03 * noise) fields.push([f, value(rand, f)]);
  const aggregated = rand() < 0.25;
  if (aggregated) {
    for (const f of ["passes", "fails", "infra_errors", "missing"]) {
      if (rand() > 0.05 * noise) fields.push([f, value(rand, f)]);
    }
    if (rand() < 0.1 * noise) fields.push(["result", value(rand, "result")]);
    if (rand() < 0.1 * noise) fields.push(["attempt", value(rand, "attempt")]);
  } else {
    if (rand() > 0.03 * noise) fields.push(["result", value(rand, "result")]);
    if (rand() < 0.05 * noise) fields.push([pick(rand, ["passes", "missing"]), "1"]);
    if (rand() < 0.7) fields.push(["attempt", value(rand, "attempt")]);
  }
  if (rand() < 0.7) fields.push(["evidence", value(rand, "evidence")]);
  if (rand() < 0.5) fields.push(["cluster", value(rand, "cluster")]);
  if (rand() < 0.3) fields.push(["benchmark", value(rand, "benchmark")]);
  fields.push(...metricFields(rand, aggregated));
  const others = Math.floor(rand() * 5);
  for (let k = 0; k < others; k++) {
    const v =
      rand() > noise
        ? pick(rand, ['"x"', "12", "-3.5e-2", "0.8147", "true", "null", '"swebench/img:v2"', '"ü"'])
        : rand() < 0.5
          ? JSON.stringify(pick(rand, ["x", "swebench/img:v2", "ü", "tab\tx", "\u0001", "a\\b"]))
          : pick(rand, [...NUMBERS, "true", "false", "null", '{"k":"v"}', "[1,2]", '{"k":1,"k":2}']);
    fields.push([pick(rand, OTHER_KEYS), v]);
  }
  // Repeated keys: the same field again, or a key spelt with an escape.
  if (rand() < 0.08 * noise) {
    const [k, v] = pick(rand, fields) ?? ["task_id", '"t"'];
    fields.push([k, rand() < 0.5 ? v : value(rand, k)]);
  }
  if (rand() < 0.03 * noise) fields.push(["\\u0072esult", '"fail"']);
  // Shuffle sometimes (field order is free).
  if (rand() < 0.3) fields.sort(() => rand() - 0.5);
  const ws = (): string => (rand() < 0.9 ? "" : pick(rand, [" ", "\t", "  ", " \t ", "\r"]));
  let text = `${ws()}{${ws()}${fields.map(([k, v]) => `"${k}"${ws()}:${ws()}${v}${ws()}`).join(`,${ws()}`)}}${ws()}`;
  const m = rand() / noise;
  if (m < 0.02) text = text.slice(0, Math.floor(rand() * text.length));
  else if (m < 0.03) text += pick(rand, ["}", ",", "x", "{}", "\u00a0"]);
  else if (m < 0.04) text = text.replace("}", ",}");
  else if (m < 0.05) text = text.replace('"', "'");
  else if (m < 0.06) text = "[" + text + "]";
  return text;
}

/** Characters a mutation puts in or takes out: structure, spaces, escapes, control bytes, DEL,
 * C1, non-ASCII, digits. */
const MUTATION_CHARS = [
  // By code point (Array.from): the emoji stays whole.
  ...Array.from('{}[]:," \t\r\\ntfu0123456789.-eEaxé✓\u0001\u001f\u007f\u0085\u00a0😀'),
  '"x"',
  ',"x":1',
  ',"task_id":"t"',
  ',"cluster":"c"',
  ',"run_id":"r"',
];

/** The line with a few edits: a character in or out or changed, or two fields swapped. */
function mutate(rand: () => number, base: string): string {
  let text = base;
  const edits = 1 + Math.floor(rand() * 2);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(rand() * (text.length + 1));
    const r = rand();
    if (r < 0.3) text = text.slice(0, at) + pick(rand, MUTATION_CHARS) + text.slice(at);
    else if (r < 0.5) text = text.slice(0, at) + text.slice(at + 1);
    else if (r < 0.75) text = text.slice(0, at) + pick(rand, MUTATION_CHARS) + text.slice(at + 1);
    else if (r < 0.85) {
      // A value of the same length, one byte different (the repeat caches compare bytes).
      const q = text.indexOf('":"', at);
      if (q >= 0 && q + 3 < text.length && text[q + 3] !== '"') {
        text = text.slice(0, q + 3) + pick(rand, ["z", "é", "\u0001", "\\", '"']) + text.slice(q + 4);
      }
    } else if (r < 0.92) {
      // A field again before the end (the shape matches every key, then the line goes on).
      const end = text.lastIndexOf("}");
      if (end >= 0)
        text =
          text.slice(0, end) +
          pick(rand, [',"task_id":"t"', ',"model_config":"m"', ',"image":"i"', ',"run_id":1', ',"x":null']) +
          text.slice(end);
    } else {
      const parts = text.split(",");
      const i = Math.floor(rand() * parts.length);
      const j = Math.floor(rand() * parts.length);
      const a = parts[i];
      const b = parts[j];
      if (a !== undefined && b !== undefined) {
        parts[i] = b;
        parts[j] = a;
      }
      text = parts.join(",");
    }
  }
  return text;
}

describe("the byte scanner and JSON.parse agree", () => {
  it("on 20,000 fuzzed lines: a scanned row is the parsed row; a refused line is never scanned", () => {
    const rand = prng(20261201);
    let scanned = 0;
    let parsed = 0;
    let refused = 0;
    let packedRows = 0;
    let handles = 0;
    // Scanned rows with metrics (of one attempt, pre-aggregated), and with a benchmark.
    let metricRows = [0, 0] as [number, number];
    let benchmarkRows = 0;
    for (let i = 0; i < 20_000; i++) {
      const line = fuzzLine(rand);
      const json = byJson(line);
      const scan = byScanner(line, i % 2 === 1);
      const packed = byScanner(line, i % 2 === 0, packing);
      const viaArena = byScanner(line, i % 3 === 0, arenaPacking);
      // Packing changes how a list is handed over, never which lines are taken.
      expect(packed === undefined, line).toBe(scan === undefined);
      expect(viaArena === undefined, line).toBe(scan === undefined);
      if (viaArena !== undefined && json !== undefined) {
        expect(view(viaArena), line).toEqual(view(json));
        if (typeof viaArena.packedEvidence === "number") handles++;
      }
      if (json === undefined) {
        refused++;
        if (scan !== undefined) expect.fail(`the scanner accepted a line JSON.parse refuses: ${line}`);
        continue;
      }
      parsed++;
      if (scan === undefined || packed === undefined) continue;
      scanned++;
      if (packed.packedEvidence !== undefined) packedRows++;
      if (scan.metricCount > 0) {
        metricRows =
          scan.result < 0 ? [metricRows[0], metricRows[1] + 1] : [metricRows[0] + 1, metricRows[1]];
      }
      if (scan.benchmark !== undefined) benchmarkRows++;
      expect(view(scan), line).toEqual(view(json));
      expect(view(packed), line).toEqual(view(json));
    }
    // Both outcomes are common, and the scanner takes most valid lines of these shapes.
    expect(refused).toBeGreaterThan(8_000);
    expect(parsed).toBeGreaterThan(2_000);
    expect(scanned / parsed).toBeGreaterThan(0.7);
    expect(packedRows).toBeGreaterThan(500);
    expect(handles).toBe(packedRows);
    expect(metricRows[0]).toBeGreaterThan(300);
    expect(metricRows[1]).toBeGreaterThan(100);
    expect(benchmarkRows).toBeGreaterThan(300);
  });

  it("on 20,000 mutants of the line before: the shape of the row before never makes a wrong line pass", () => {
    // The scanner matches a line against the keys of the line it read before (its shape) and
    // compares the repeating fields with their previous bytes: each mutant is scanned right after
    // the line it comes from, so that path meets near misses of every kind.
    const rand = prng(20261202);
    const shaped = new RowScanner();
    const shapedPacking = new RowScanner(true);
    let parsed = 0;
    let scanned = 0;
    let refused = 0;
    for (let i = 0; i < 2_000; i++) {
      let base = fuzzLine(rand);
      for (let tries = 0; byJson(base) === undefined && tries < 50; tries++) base = fuzzLine(rand);
      if (byJson(base) === undefined) continue;
      for (let m = 0; m < 10; m++) {
        // As bytes and back: a mutation may split a surrogate pair, which UTF-8 cannot hold.
        const line = Buffer.from(mutate(rand, base), "utf8").toString("utf8");
        const json = byJson(line);
        const scan =
          byScanner(base, m % 2 === 0, shaped) === undefined
            ? undefined
            : byScanner(line, m % 3 === 0, shaped);
        const packed =
          byScanner(base, m % 2 === 1, shapedPacking) === undefined
            ? undefined
            : byScanner(line, m % 3 === 1, shapedPacking);
        expect(packed === undefined, line).toBe(scan === undefined);
        if (packed !== undefined && json !== undefined) expect(view(packed), line).toEqual(view(json));
        if (json === undefined) {
          refused++;
          if (scan !== undefined)
            expect.fail(`the scanner accepted a line JSON.parse refuses: ${line}\n(after ${base})`);
          continue;
        }
        parsed++;
        if (scan === undefined) continue;
        scanned++;
        expect(view(scan), `${line}\n(after ${base})`).toEqual(view(json));
      }
    }
    expect(refused).toBeGreaterThan(4_000);
    expect(parsed).toBeGreaterThan(4_000);
    expect(scanned / parsed).toBeGreaterThan(0.7);
  });

  it("takes the strings it is told to expect only where the line holds them: guesses never change a row", () => {
    // RowScanner.expect: the builder's guesses (the next task's id, its list, an item) are handed
    // back for bytes that are their characters. Guessed from the line before a mutant (right,
    // near misses, prefixes) or at random (wrong, non-ASCII, empty), the row must stay the parsed
    // row, and lines must be taken exactly as without guesses.
    const rand = prng(20261206);
    const guessing = new RowScanner(true);
    const plain = new RowScanner(true);
    // Guessing the list by its handle: the base line's list, written and kept as a task's first.
    const byHandle = new RowScanner(true, arena);
    let scanned = 0;
    let guessedRight = 0;
    let handedBack = 0;
    for (let i = 0; i < 1_500; i++) {
      let base = fuzzLine(rand);
      for (let tries = 0; byJson(base) === undefined && tries < 50; tries++) base = fuzzLine(rand);
      const known = byJson(base);
      if (known === undefined) continue;
      const ev = known.evidence;
      const items = ev === undefined ? [] : typeof ev === "string" ? [ev] : [...ev];
      byHandle.expect("", "", "");
      const first = byScanner(base, false, byHandle)?.packedEvidence;
      const handle = typeof first === "number" ? first : undefined;
      if (handle !== undefined) arena.keep(handle);
      for (let m = 0; m < 6; m++) {
        const line = m === 0 ? base : Buffer.from(mutate(rand, base), "utf8").toString("utf8");
        const random = rand() < 0.3;
        const task = random ? pick(rand, ID_VALUES) : known.taskId;
        const list = random ? pick(rand, EVIDENCE_VALUES) : items.join("\n");
        const item = random ? pick(rand, EVIDENCE_VALUES) : (items[0] ?? "");
        // (The task and the item must be plain text, as the builder's are.)
        guessing.expect(isPlainText(task) ? task : "", list, isPlainText(item) ? item : "");
        const guessed = byScanner(line, m % 2 === 0, guessing);
        const unguessed = byScanner(line, m % 2 === 1, plain);
        expect(guessed === undefined, line).toBe(unguessed === undefined);
        if (guessed === undefined || unguessed === undefined) continue;
        scanned++;
        if (!random && guessed.taskId === known.taskId) guessedRight++;
        expect(view(guessed), line).toEqual(view(unguessed));
        expect(view(guessed), line).toEqual(view(byJson(line) ?? emptyExportRow()));
        if (handle !== undefined) {
          byHandle.expect(isPlainText(task) ? task : "", random ? list : handle, "");
          const row = byScanner(line, m % 2 === 1, byHandle);
          expect(row === undefined, line).toBe(false);
          if (row !== undefined && row.packedEvidence === handle) handedBack++;
          if (row !== undefined) expect(view(row), line).toEqual(view(unguessed));
        }
      }
    }
    expect(scanned).toBeGreaterThan(1_000);
    expect(guessedRight).toBeGreaterThan(500);
    expect(handedBack).toBeGreaterThan(200);
  });

  it("calls plain text exactly the strings whose bytes read as themselves between quotes", () => {
    for (let c = 0; c < 0x100; c++) {
      const s = `a${String.fromCharCode(c)}b`;
      const plain = c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c;
      expect(isPlainText(s), `U+${c.toString(16)}`).toBe(plain);
    }
    expect(isPlainText("")).toBe(true);
    expect(isPlainText("django__django-11099")).toBe(true);
    expect(isPlainText("日本")).toBe(false);
  });

  it("reads strings a word at a time: a special byte at every offset of every length is seen", () => {
    // Written raw into the line (JSON.parse refuses the control bytes, a lone quote or backslash).
    const specials = [
      "\t",
      "\u0001",
      "\u001f",
      "\u007f",
      "\u0085",
      "\u00a0",
      "é",
      "✓",
      "😀",
      '"',
      "\\",
      '\\"',
      "\\n",
      " ",
      "~",
    ];
    const shaped = new RowScanner();
    const fields = ["task_id", "dataset_revision", "model_config", "cluster", "evidence", "image", "key"];
    let scanned = 0;
    for (const field of fields) {
      for (let length = 0; length <= 13; length++) {
        for (let at = 0; at <= length; at++) {
          for (const special of specials) {
            const chars = "abcdefghijklmnopq".slice(0, length);
            const text = chars.slice(0, at) + special + chars.slice(at);
            const line = (value: string): string => {
              const v = `"${value}"`;
              const key = field === "key" ? v : '"image"';
              const image = field === "image" ? v : '"img"';
              const of = (f: string, d: string): string => (field === f ? v : d);
              return (
                `{"task_id":${of("task_id", '"t"')},"dataset_revision":${of("dataset_revision", '"d"')},` +
                `"harness_revision":"h","model_config":${of("model_config", '"m"')},"validity":"valid",` +
                `"result":"pass","review_revision":0,"evidence":[${of("evidence", '"e"')}],` +
                `"cluster":${of("cluster", '"c"')},${key}:${image}}`
              );
            };
            // The plain value first (the shape and the repeat caches), then the one with the byte.
            expect(byScanner(line(chars + "x"), false, shaped), line(chars + "x")).toBeDefined();
            const special1 = line(text);
            const scan = byScanner(special1, at % 2 === 0, shaped);
            const json = byJson(special1);
            if (json === undefined) {
              expect(scan, special1).toBeUndefined();
            } else if (scan !== undefined) {
              scanned++;
              expect(view(scan), special1).toEqual(view(json));
            }
          }
        }
      }
    }
    expect(scanned).toBeGreaterThan(1_000);
  });

  it("packs exactly the evidence lists of 2 to MAX_EVIDENCE_PER_TASK distinct, non-empty ASCII items", () => {
    const rand = prng(20261203);
    const pool = [
      "fixtures/a/fixture.log",
      "https://review.example.org/a.json",
      "b",
      "bb",
      "abc",
      "",
      "ü-log",
      "x".repeat(MAX_EVIDENCE_LENGTH),
      "y".repeat(MAX_EVIDENCE_LENGTH - 1),
    ];
    let packedLists = 0;
    let itemLists = 0;
    for (let i = 0; i < 4_000; i++) {
      const n = rand() < 0.2 ? MAX_EVIDENCE_PER_TASK - 2 + Math.floor(rand() * 5) : Math.floor(rand() * 5);
      const items = Array.from({ length: n }, (_, k) =>
        rand() < 0.7 ? `item-${k}-${Math.floor(rand() * 3)}` : pick(rand, pool),
      );
      const list = `[${items.map((x) => JSON.stringify(x)).join(pick(rand, [",", " , ", ",\t"]))}]`;
      const line =
        `{"task_id":"t","dataset_revision":"d","harness_revision":"h","model_config":"m",` +
        `"validity":"valid","result":"pass","review_revision":0,"evidence":${list},"run":"r${i}"}`;
      const row = byScanner(line, i % 2 === 0, packing);
      expect(row, line).toBeDefined();
      const may =
        n >= 2 &&
        n <= MAX_EVIDENCE_PER_TASK &&
        new Set(items).size === n &&
        items.every((x) => x.length > 0 && Buffer.byteLength(x) === x.length);
      expect(row?.packedEvidence, line).toBe(may ? items.join("\n") : undefined);
      expect(row?.packedItems, line).toBe(may ? n : 0);
      const written = byScanner(line, i % 2 === 1, arenaPacking)?.packedEvidence;
      if (may) {
        expect(typeof written, line).toBe("number");
        expect(arena.string(written as number), line).toBe(items.join("\n"));
        expect(arena.length(written as number), line).toBe(items.join("\n").length);
      } else {
        expect(written, line).toBeUndefined();
      }
      if (!may) expect(row?.evidence, line).toEqual(items);
      if (may) packedLists++;
      else itemLists++;
      // The plain scanner hands the same list over as items.
      expect(byScanner(line, i % 2 === 1)?.evidence, line).toEqual(items);
    }
    expect(packedLists).toBeGreaterThan(1_000);
    expect(itemLists).toBeGreaterThan(1_000);
  });

  it("takes every line of the common shapes (the generator's), with the same rows", () => {
    const lines = [
      '{"task_id":"sympy__sympy-11234","dataset_revision":"sha256:ea2a","harness_revision":"git:b7a6","model_config":"cfg-baseline","validity":"unreviewed","result":"pass","review_revision":0,"attempt":1,"evidence":["fixtures/a/fixture.log","https://review.example.org/a.json"],"cluster":"sympy/sympy","run_id":"run-adbdc49c-e1","duration_s":64.0,"tokens_in":173027,"tokens_out":19706,"cost_usd":0.8147,"image":"swebench/sweb.eval.x86_64.sympy:v2"}',
      '{"task_id":"t","dataset_revision":"d","harness_revision":"h","model_config":"m","validity":"valid","review_revision":2,"passes":3,"fails":0,"infra_errors":1,"missing":0,"evidence":"one","cluster":null}',
      '{ "task_id" : "t" , "dataset_revision" : "d" , "harness_revision" : "h" , "model_config" : "m" , "validity" : "broken" , "result" : "infra_error" , "review_revision" : 10 , "attempt" : "epoch-2" , "evidence" : [ ] }',
      '{"task_id":"ünï-✓","dataset_revision":"d","harness_revision":"h","model_config":"m","validity":"disputed","result":"missing","review_revision":0,"attempt":null,"evidence":null,"passes":null}',
    ];
    for (const line of lines) {
      const scan = byScanner(line, true);
      expect(scan, line).toBeDefined();
      expect(view(scan as ExportRow)).toEqual(view(byJson(line) as ExportRow));
    }
  });
});
