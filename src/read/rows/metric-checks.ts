/**
 * The metrics of an export row (SPEC §1.1 `metrics`, `metrics_sum`, `metrics_n`) on the JSON.parse
 * path: checked into the row's metric arrays (ExportRow.metricNames …), every problem named by its
 * field (`metrics.cost_usd`). The byte scanner (metric-scanner.ts) reads the same objects from
 * bytes and gives any line it is unsure of to this path, so both give the same entries in the
 * same order (the object's), or this one words the problem.
 *
 * Choices the SPEC leaves open, written down in docs/spec.md §1.1:
 * - A metric whose value is `null` is absent, as `null` in an optional field is (a warehouse writes
 *   null for "no value"), and so is a name that `metrics_sum` and `metrics_n` both give as null.
 * - `-0` is read as 0.
 * - On a pre-aggregated row a metric with `metrics_n` 0 covers no attempt: its sum must be 0, and
 *   it adds nothing (not even its name).
 */

import { MAX_METRICS, METRIC_NAME } from "../limits.js";
import { quote } from "../../core/quote.js";

type Obj = Record<string, unknown>;

/**
 * The metric arrays of row-checks.ts's ExportRow, and the part of its LineIssues this file uses:
 * declared here so that row-checks.ts, which calls this file, is the only one of the two that
 * imports the other.
 */
interface MetricRow {
  metricCount: number;
  readonly metricNames: string[];
  readonly metricValues: Float64Array;
  readonly metricCounts: Float64Array;
}
interface IssueSink {
  add(field: string | undefined, message: string): void;
}

/** The metric objects a row may carry, by field name. */
export const METRIC_FIELDS = ["metrics", "metrics_sum", "metrics_n"] as const;

const VALUE_EXPECTED = "expected a finite number >= 0";
const COUNT_EXPECTED = "expected an integer >= 0";

function describe(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (typeof v === "string") return v.length === 0 ? "an empty string" : quote(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return Array.isArray(v) ? "an array" : "an object";
}

/**
 * The object of a metric field, or undefined when it is absent or null (or bad: a problem is
 * recorded). Its names are checked here; values by the caller.
 */
function metricObject(obj: Obj, field: string, issues: IssueSink): Obj | undefined {
  const v = obj[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "object" || Array.isArray(v)) {
    issues.add(field, `expected an object from metric name to number; got ${describe(v)}`);
    return undefined;
  }
  const o = v as Obj;
  const names = Object.keys(o);
  if (names.length > MAX_METRICS) {
    issues.add(field, `expected at most ${MAX_METRICS} metrics; got ${names.length}`);
    return undefined;
  }
  for (const name of names) {
    if (!METRIC_NAME.test(name)) {
      issues.add(
        field,
        `expected metric names of a lowercase letter, then up to 63 lowercase letters, digits or ` +
          `underscores ([a-z][a-z0-9_]{0,63}); got ${quote(name)}`,
      );
      return undefined;
    }
  }
  return o;
}

/** A metric's value: finite and >= 0 (-0 as 0); undefined for null; NaN after recording a problem. */
function metricValue(o: Obj, field: string, name: string, issues: IssueSink): number | undefined {
  const v = o[name];
  if (v === null) return undefined;
  if (typeof v === "number" && Number.isFinite(v) && v >= 0) return v + 0;
  const got = typeof v === "number" && !Number.isFinite(v) ? "a number too large for a double" : describe(v);
  issues.add(`${field}.${name}`, `${VALUE_EXPECTED}; got ${got}`);
  return NaN;
}

/** `metrics` of a row with a result (one attempt) into `out`. */
export function attemptMetrics(obj: Obj, out: MetricRow, issues: IssueSink): void {
  out.metricCount = 0;
  for (const field of ["metrics_sum", "metrics_n"]) {
    const v = obj[field];
    if (v !== undefined && v !== null) {
      issues.add(
        field,
        "only a pre-aggregated row (one with counts instead of a result) carries metrics_sum and " +
          "metrics_n; a row of one attempt carries metrics",
      );
    }
  }
  const o = metricObject(obj, "metrics", issues);
  if (o === undefined) return;
  for (const name in o) {
    const v = metricValue(o, "metrics", name, issues);
    if (v === undefined || Number.isNaN(v)) continue;
    out.metricNames[out.metricCount] = name;
    out.metricValues[out.metricCount] = v;
    out.metricCount++;
  }
}

/**
 * `metrics_sum` and `metrics_n` of a pre-aggregated row into `out`; `attempts` is the attempts
 * the row stands for (its four counts added), or -1 when a count is bad (already reported).
 */
export function aggregatedMetrics(obj: Obj, out: MetricRow, issues: IssueSink, attempts: number): void {
  out.metricCount = 0;
  const given = obj["metrics"];
  if (given !== undefined && given !== null) {
    issues.add(
      "metrics",
      "a pre-aggregated row carries metrics_sum (each metric summed over its attempts) and metrics_n " +
        "(how many of them carry it), not metrics",
    );
  }
  const sums = metricObject(obj, "metrics_sum", issues);
  const counts = metricObject(obj, "metrics_n", issues);
  const bad = sums === undefined && obj["metrics_sum"] != null;
  if (bad || (counts === undefined && obj["metrics_n"] != null)) return;
  for (const name in counts ?? {}) {
    const n = (counts as Obj)[name];
    if (n === null) {
      if (sums !== undefined && sums[name] != null) missingCount(name, issues);
      continue;
    }
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) {
      issues.add(`metrics_n.${name}`, `${COUNT_EXPECTED}; got ${describe(n)}`);
    } else if (attempts >= 0 && n > attempts) {
      issues.add(
        `metrics_n.${name}`,
        `expected at most the row's ${attempts} attempts (passes + fails + infra_errors + missing); got ${n}`,
      );
    } else if (sums === undefined || sums[name] == null) {
      issues.add(
        `metrics_sum.${name}`,
        `metrics_n gives ${name}; expected its sum in metrics_sum (or null in both for none)`,
      );
    }
  }
  for (const name in sums ?? {}) {
    const v = metricValue(sums as Obj, "metrics_sum", name, issues);
    if (v === undefined || Number.isNaN(v)) continue;
    const n = counts?.[name];
    if (n === undefined || n === null) {
      if (n === undefined) missingCount(name, issues);
      continue;
    }
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0 || (attempts >= 0 && n > attempts))
      continue;
    if (n === 0) {
      if (v !== 0) {
        issues.add(
          `metrics_sum.${name}`,
          `metrics_n.${name} is 0 (no attempt carries it), so its sum is 0; got ${describe(v)}`,
        );
      }
      continue;
    }
    out.metricNames[out.metricCount] = name;
    out.metricValues[out.metricCount] = v;
    out.metricCounts[out.metricCount] = n;
    out.metricCount++;
  }
}

function missingCount(name: string, issues: IssueSink): void {
  issues.add(
    `metrics_n.${name}`,
    `metrics_sum gives ${name}; expected metrics_n to say how many of the row's attempts its sum covers`,
  );
}

/**
 * The first metric name given twice in one metric object of a line JSON.parse accepted (which
 * keeps the last value: a guess), as the problem's field and the name; undefined when none.
 * Walks the line's top-level keys and the keys of a metric field's object; anything nested
 * deeper is skipped (a row's other nested values are fields the gate ignores).
 */
export function repeatedMetricName(text: string): { field: string; name: string } | undefined {
  let depth = 0;
  let expectKey = false;
  /** The last key at depth 1, and whether the value open at depth 2 is an object. */
  let lastKey = "";
  let innerObject = false;
  /** The metric field whose object is open at depth 2 (undefined: none), and its names so far. */
  let field: string | undefined;
  let names: Set<string> | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (expectKey) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes("\\") ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        if (depth === 1) lastKey = key;
        else if (field !== undefined) {
          if (names?.has(key) === true) return { field: `${field}.${key}`, name: key };
          (names ??= new Set()).add(key);
        }
      }
      expectKey = false;
      i = end;
    } else if (c === LBRACE || c === LBRACKET) {
      if (depth >= 2) {
        i = closingBracket(text, i);
        continue;
      }
      depth++;
      expectKey = c === LBRACE;
      if (depth === 2) {
        innerObject = c === LBRACE;
        field = innerObject && (METRIC_FIELDS as readonly string[]).includes(lastKey) ? lastKey : undefined;
        names = undefined;
      }
    } else if (c === RBRACE || c === RBRACKET) {
      depth--;
      field = undefined;
    } else if (c === COMMA) {
      expectKey = depth === 1 || (depth === 2 && innerObject);
    }
  }
  return undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

/** The closing quote of the string whose opening quote is at `at` (the text's end when none). */
function stringEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    const d = text.charCodeAt(i);
    if (d === BACKSLASH) i++;
    else if (d === QUOTE) return i;
  }
  return text.length;
}

/** The closing bracket of the object or array opening at `at` (valid JSON; the text's end when none). */
function closingBracket(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i);
    else if (c === LBRACE || c === LBRACKET) depth++;
    else if ((c === RBRACE || c === RBRACKET) && --depth === 0) return i;
  }
  return text.length;
}
