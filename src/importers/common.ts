/**
 * Shared pieces of the importers: JSON Pointer evidence, the rows (export-rows.ts, re-exported),
 * the computed dataset revision, the task list (--tasks), SWE-bench repository clusters, and an
 * InputError collector that names the file and the JSON path / CSV line of each problem.
 */
import { InputError, type InputProblem } from "../core/errors.js";
import { countKeys, firstRepeatedKey } from "../core/json-keys.js";
import { taskIdsRevision } from "../read/derived-revisions.js";
import { type ExportRow, compareIds } from "./export-rows.js";

export {
  type ExportCommon,
  type ExportRow,
  type Metrics,
  type ReviewRow,
  type SourcePlace,
  compareIds,
  exportLines,
  resultCounts,
  reviewLines,
} from "./export-rows.js";

/** How many ids a note lists before it only counts the rest. */
export const NOTE_LIST_LIMIT = 5;

// ---------------------------------------------------------------------------------------------
// Problems

/** Collects problems found in one input file and throws them as one InputError. */
export class Problems {
  private readonly list: InputProblem[] = [];
  private count = 0;

  constructor(readonly file: string) {}

  /** A problem at a JSON path (`field` is a JSON Pointer) or a CSV line. */
  add(message: string, where: { field?: string; line?: number } = {}): void {
    this.count += 1;
    if (this.list.length >= 20) return;
    const location = where.line !== undefined ? { file: this.file, line: where.line } : { file: this.file };
    this.list.push(
      where.field !== undefined ? { location, field: where.field, message } : { location, message },
    );
  }

  get size(): number {
    return this.count;
  }

  throwIfAny(summary: string): void {
    if (this.count > 0) throw new InputError(summary, this.list, this.count);
  }

  /** Adds one problem and throws at once. */
  fail(summary: string, message: string, where: { field?: string; line?: number } = {}): never {
    this.add(message, where);
    throw new InputError(summary, this.list, this.count);
  }
}

/** A one-problem InputError about a file. */
export function fileError(
  file: string,
  message: string,
  where: { field?: string; line?: number } = {},
): never {
  const p = new Problems(file);
  return p.fail(`${file}: cannot import`, message, where);
}

// ---------------------------------------------------------------------------------------------
// JSON

/**
 * Parses JSON text; a syntax error names the file, line and column. A UTF-8 BOM is accepted. A key
 * given twice in one object is an error too (JSON.parse keeps the last value: which one was meant
 * is a guess): keys are counted in the text and in the parsed value, and only when the counts
 * differ is the text walked again to find the repeat.
 */
export function parseJsonFile(file: string, text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body) as unknown;
  } catch {
    jsonError(file, body, locateJsonError(body));
  }
  if (countKeys(body, "all") !== keysInValue(parsed)) {
    const repeat = firstRepeatedKey(body, "all");
    // (Only a repeat makes JSON.parse hold fewer keys than the text has.)
    if (repeat === undefined) throw new Error("parseJsonFile: a key count differs without a repeated key");
    jsonError(file, body, {
      offset: repeat.offset,
      message:
        `the key ${JSON.stringify(repeat.key.slice(0, 200))} is given twice in one object; expected each key once ` +
        "(which value was meant would be a guess)",
    });
  }
  return parsed;
}

function jsonError(file: string, body: string, at: { offset: number; message: string }): never {
  const { offset, message } = at;
  let line = 1;
  let column = 1;
  for (let i = 0; i < offset && i < body.length; i++) {
    if (body.charCodeAt(i) === 10) {
      line += 1;
      column = 1;
    } else column += 1;
  }
  throw new InputError(`${file}: not valid JSON`, [{ location: { file, line, column }, message }]);
}

/** Object keys in a parsed JSON value (iterative: depth comes from the data). */
function keysInValue(v: unknown): number {
  let n = 0;
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (typeof x !== "object" || x === null) continue;
    if (Array.isArray(x)) {
      for (const item of x) stack.push(item);
      continue;
    }
    const values = Object.values(x);
    n += values.length;
    for (const item of values) stack.push(item);
  }
  return n;
}

/** Nesting the JSON walker below follows (it recurses; real files nest a few levels). */
export const MAX_JSON_DEPTH = 1000;

/** The first syntax error, where the walk below stopped. */
class Stop extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

/** A recursive-descent walk over JSON text (RFC 8259) that stops at the first syntax error. */
class JsonWalk {
  private i = 0;
  private depth = 0;

  constructor(private readonly s: string) {}

  /** The walk over the whole text; throws Stop at the first error. */
  document(): void {
    this.value();
    this.ws();
    if (this.i < this.s.length) this.stop("unexpected text after the JSON value");
  }

  private stop(message: string): never {
    const { s, i } = this;
    throw new Stop(
      i,
      i >= s.length ? `unexpected end of input: ${message}` : `${message}, found ${JSON.stringify(s[i])}`,
    );
  }

  private ws(): void {
    const s = this.s;
    while (
      this.i < s.length &&
      (s[this.i] === " " || s[this.i] === "\t" || s[this.i] === "\n" || s[this.i] === "\r")
    )
      this.i++;
  }

  private at(): string | undefined {
    return this.s[this.i];
  }

  private digits(): void {
    while (/[0-9]/.test(this.at() ?? "")) this.i++;
  }

  private literal(word: string): void {
    for (const ch of word) {
      if (this.at() !== ch) this.stop(`expected ${word}`);
      this.i++;
    }
  }

  private string(): void {
    this.i++; // opening quote
    for (;;) {
      if (this.i >= this.s.length) this.stop("unterminated string");
      const c = this.s.charCodeAt(this.i);
      if (c === 0x22) {
        this.i++;
        return;
      }
      if (c < 0x20) this.stop("a control character inside a string");
      this.i++;
      if (c === 0x5c) this.escape();
    }
  }

  /** After a backslash: one of the escapes JSON allows. */
  private escape(): void {
    const e = this.at();
    if (e === "u") {
      this.i++;
      for (let k = 0; k < 4; k++) {
        if (!/[0-9a-fA-F]/.test(this.at() ?? "")) this.stop("expected 4 hex digits after \\u");
        this.i++;
      }
    } else if (e !== undefined && '"\\/bfnrt'.includes(e)) this.i++;
    else this.stop("an invalid escape");
  }

  private number(): void {
    if (this.at() === "-") this.i++;
    if (this.at() === "0") this.i++;
    else if (/[1-9]/.test(this.at() ?? "")) this.digits();
    else this.stop("expected a digit");
    if (this.at() === ".") {
      this.i++;
      if (!/[0-9]/.test(this.at() ?? "")) this.stop("expected a digit after the decimal point");
      this.digits();
    }
    if (this.at() === "e" || this.at() === "E") {
      this.i++;
      if (this.at() === "+" || this.at() === "-") this.i++;
      if (!/[0-9]/.test(this.at() ?? "")) this.stop("expected a digit in the exponent");
      this.digits();
    }
  }

  /** An object or an array: `member` reads one entry; `close` ends it. */
  private container(close: "}" | "]", member: () => void, what: string): void {
    this.i++;
    this.ws();
    if (this.at() === close) {
      this.i++;
      this.depth--;
      return;
    }
    for (;;) {
      member();
      this.ws();
      if (this.at() === ",") {
        this.i++;
        continue;
      }
      if (this.at() === close) {
        this.i++;
        this.depth--;
        return;
      }
      this.stop(`expected ',' or '${close}' in ${what}`);
    }
  }

  private property(): void {
    this.ws();
    if (this.at() !== '"') this.stop("expected a property name in double quotes");
    this.string();
    this.ws();
    if (this.at() !== ":") this.stop("expected ':' after a property name");
    this.i++;
    this.value();
  }

  private value(): void {
    this.ws();
    const c = this.at();
    if ((c === "{" || c === "[") && ++this.depth > MAX_JSON_DEPTH)
      throw new Stop(this.i, `nested more than ${MAX_JSON_DEPTH} levels deep`);
    if (c === "{")
      this.container(
        "}",
        () => {
          this.property();
        },
        "an object",
      );
    else if (c === "[")
      this.container(
        "]",
        () => {
          this.value();
        },
        "an array",
      );
    else if (c === '"') this.string();
    else if (c === "t") this.literal("true");
    else if (c === "f") this.literal("false");
    else if (c === "n") this.literal("null");
    else if (c === "-" || /[0-9]/.test(c ?? "")) this.number();
    else this.stop("expected a JSON value");
  }
}

/**
 * Finds the first JSON syntax error (RFC 8259) in text that JSON.parse rejected, because the
 * engine's own message does not always give a position.
 */
export function locateJsonError(s: string): { offset: number; message: string } {
  try {
    new JsonWalk(s).document();
  } catch (e) {
    if (e instanceof Stop) return { offset: e.offset, message: e.message };
    throw e;
  }
  return { offset: 0, message: "not valid JSON" };
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function typeName(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return `a string (${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)})`;
  return `${typeof v} ${JSON.stringify(v)}`;
}

/** Escapes one JSON Pointer reference token (RFC 6901 §3). */
export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** A JSON Pointer from reference tokens, e.g. `/leaderboards/0/results/3`. */
export function pointer(...tokens: (string | number)[]): string {
  return tokens.map((t) => `/${escapePointerToken(t)}`).join("");
}

/**
 * The URI-fragment form of a JSON Pointer (RFC 6901 §6): characters not allowed in a fragment are
 * percent-encoded as UTF-8. Ordinary task ids (letters, digits, `_`, `-`, `.`) pass unchanged.
 */
export function fragmentOf(ptr: string): string {
  let out = "";
  for (const ch of ptr) {
    if (/[A-Za-z0-9\-._~!$&'()*+,;=:@/?]/.test(ch)) out += ch;
    else for (const b of Buffer.from(ch, "utf8")) out += `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** `file#/json/pointer`: evidence pointing at one value of a JSON file. */
export function jsonEvidence(file: string, ptr: string): string {
  return `${file}#${fragmentOf(ptr)}`;
}

/** `file#row=N`: evidence pointing at one record of a CSV file (RFC 7111; the header is row 1). */
export function csvEvidence(file: string, row: number): string {
  return `${file}#row=${row}`;
}

// ---------------------------------------------------------------------------------------------
// Ordering and revisions

/** `sha256:` of the task ids sorted by UTF-8 bytes and joined by "\n" (no trailing newline). */
export function computeDatasetRevision(ids: Iterable<string>): string {
  // The gate recognises a revision computed this way (two files imported without one --tasks list).
  return taskIdsRevision(ids);
}

/** `dir/name` as shown to the user (the directory as typed, without trailing slashes). */
export function inDirectory(dir: string, name: string): string {
  return `${dir.replace(/\/+$/, "")}/${name}`;
}

/** "a, b, c and 4 more" — the first few of a list, for notes. */
export function listSome(ids: readonly string[], limit = NOTE_LIST_LIMIT): string {
  const shown = ids.slice(0, limit).join(", ");
  return ids.length > limit ? `${shown} and ${ids.length - limit} more` : shown;
}

// ---------------------------------------------------------------------------------------------
// Task list (--tasks)

/** A task list read from a file: one id per line; blank lines skipped; surrounding spaces trimmed. */
export interface TaskList {
  readonly file: string;
  readonly ids: readonly string[];
  readonly set: ReadonlySet<string>;
  /** 1-based line of each id, for evidence and messages. */
  readonly lineOf: ReadonlyMap<string, number>;
}

export function parseTaskList(file: string, text: string): TaskList {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const problems: Problems = new Problems(file);
  const lineOf = new Map<string, number>();
  const ids: string[] = [];
  body.split(/\r\n|\n|\r/).forEach((raw, i) => {
    const id = raw.trim();
    if (id === "") return;
    const seen = lineOf.get(id);
    if (seen !== undefined) {
      problems.add(`task id ${JSON.stringify(id)} is listed twice (first on line ${seen})`, { line: i + 1 });
      return;
    }
    lineOf.set(id, i + 1);
    ids.push(id);
  });
  problems.throwIfAny(`${file}: the task list (--tasks) has duplicated ids`);
  if (ids.length === 0) fileError(file, "the task list (--tasks) is empty: expected one task id per line");
  return { file, ids, set: new Set(ids), lineOf };
}

/**
 * A reviews importer's notes on --tasks: the labelled ids left out (outside the list) and the
 * tasks of the list the source does not label, in the importer's words.
 */
export function taskListReviewNotes(
  tasks: TaskList | undefined,
  outside: string[],
  labelled: ReadonlyMap<string, unknown>,
  words: { outside: string; unlabelled: string },
): string[] {
  const notes: string[] = [];
  if (outside.length > 0) {
    outside.sort(compareIds);
    notes.push(
      `${outside.length} ${words.outside} outside the task list ${tasks?.file ?? ""} were left out: ${listSome(outside)}`,
    );
  }
  const unlabelled = tasks?.ids.filter((id) => !labelled.has(id)) ?? [];
  if (unlabelled.length > 0) {
    notes.push(
      `${unlabelled.length} tasks of the task list ${words.unlabelled} (they stay as the export says): ${listSome(unlabelled)}`,
    );
  }
  return notes;
}

/**
 * Splits the ids found in a results file against the task list: ids outside the list are dropped
 * (and reported in the notes), ids in the list but absent from the file are returned as missing.
 */
export function applyTaskList(
  found: readonly string[],
  tasks: TaskList | undefined,
  notes: string[],
  what: string,
): { keep: Set<string>; missing: string[] } {
  if (tasks === undefined) return { keep: new Set(found), missing: [] };
  const foundSet = new Set(found);
  const outside = [...foundSet].filter((id) => !tasks.set.has(id)).sort(compareIds);
  if (outside.length > 0) {
    notes.push(
      `${outside.length} ${what} outside the task list ${tasks.file} were left out (not counted): ${listSome(outside)}`,
    );
  }
  const missing = tasks.ids.filter((id) => !foundSet.has(id));
  const keep = new Set([...foundSet].filter((id) => tasks.set.has(id)));
  return { keep, missing };
}

/** `tasks.txt#L12`: evidence pointing at the line of the task list that names a task. */
export function taskListEvidence(tasks: TaskList, id: string): string {
  return `${tasks.file}#L${tasks.lineOf.get(id) ?? 0}`;
}

/** A `missing` row for a task of the list that the results file does not mention. */
export function missingRow(id: string, file: string, tasks: TaskList | undefined): ExportRow {
  if (tasks === undefined) return { task_id: id, result: "missing", evidence: [file] };
  const from = { file: tasks.file, line: tasks.lineOf.get(id) ?? 0 };
  return { task_id: id, result: "missing", evidence: [file, taskListEvidence(tasks, id)], from };
}

/**
 * Files that hold several model configs (promptfoo, a table): the rows of the task universe (the
 * task list, or the file's tasks), and for each config the tasks it has no row for, as missing.
 */
export function perConfigTasks(
  rows: readonly ExportRow[],
  file: string,
  tasks: TaskList | undefined,
  notes: string[],
): { rows: ExportRow[]; universe: readonly string[] } {
  const seen = [...new Set(rows.map((r) => r.task_id))].sort(compareIds);
  const universe = tasks?.ids ?? seen;
  const inside = new Set(universe);
  const outside = seen.filter((t) => !inside.has(t));
  if (outside.length > 0) {
    notes.push(
      `${outside.length} tasks outside the task list ${tasks?.file ?? ""} were left out (not counted): ${listSome(outside)}`,
    );
  }
  const kept = rows.filter((r) => inside.has(r.task_id));
  const configs = [...new Set(rows.map((r) => r.model_config ?? ""))].sort(compareIds);
  for (const c of configs) {
    const has = new Set(kept.filter((r) => (r.model_config ?? "") === c).map((r) => r.task_id));
    const lacking = universe.filter((t) => !has.has(t));
    for (const t of lacking) {
      const row = missingRow(t, file, tasks);
      kept.push(c === "" ? row : { ...row, model_config: c });
    }
    if (lacking.length > 0) {
      notes.push(
        `${c === "" ? "" : `${c}: `}${lacking.length} tasks without a row, written as missing (${listSome(lacking)})`,
      );
    }
  }
  return { rows: kept, universe };
}

// ---------------------------------------------------------------------------------------------
// SWE-bench repository clusters

/**
 * The repository of a SWE-bench-style instance id, for clustered standard errors:
 * `astropy__astropy-12907` → `astropy/astropy`; SWE-Bench Pro
 * `instance_NodeBB__NodeBB-<40 hex>[-v…]` → `NodeBB/NodeBB`. Undefined when the id has neither shape.
 */
export function swebenchRepo(id: string): string | undefined {
  const pro = /^instance_([^_][^/]*?)__(.+)-[0-9a-f]{40}(?:-v[0-9a-z]+)?$/.exec(id);
  if (pro?.[1] !== undefined && pro[2] !== undefined) return `${pro[1]}/${pro[2]}`;
  const classic = /^([^_][^/]*?)__(.+)-\d+$/.exec(id);
  if (classic?.[1] !== undefined && classic[2] !== undefined) return `${classic[1]}/${classic[2]}`;
  return undefined;
}

/**
 * Adds `cluster` (the repository) to every row when asked. With the default ("auto"), rows get no
 * cluster if any id has no recognisable repository (said in the notes); with "repo" that is an error.
 */
export function addRepoClusters(
  rows: ExportRow[],
  mode: "auto" | "repo" | "none",
  file: string,
  notes: string[],
): void {
  if (mode === "none") return;
  const unknown = [...new Set(rows.map((r) => r.task_id).filter((id) => swebenchRepo(id) === undefined))];
  if (unknown.length > 0) {
    if (mode === "repo") {
      fileError(
        file,
        `--cluster repo: ${unknown.length} task ids have no owner__repo-NUMBER shape: ${listSome(unknown)}`,
      );
    }
    notes.push(
      `cluster: not written, because ${unknown.length} task ids have no SWE-bench owner__repo shape (${listSome(unknown)})`,
    );
    return;
  }
  for (const r of rows) {
    const repo = swebenchRepo(r.task_id);
    if (repo !== undefined) r.cluster = repo;
  }
  const repos = new Set(rows.map((r) => r.cluster));
  notes.push(
    `cluster: the repository from each task id (${repos.size} repositories); --cluster none to omit`,
  );
}

/** Where an instance id was found: which outcome list, and the JSON Pointer of the entry. */
export interface ListedId<L extends string> {
  readonly list: L;
  readonly ptr: string;
}

/**
 * Reads the named arrays of instance ids of a harness file (e.g. `resolved_ids`, `error_ids`) into
 * one map id → where it was found, counting each list. An id in two places (two lists, or twice in
 * one) is a problem: the file contradicts itself and nothing is guessed. Absent lists are skipped.
 */
export function collectOutcomeLists<L extends string>(
  doc: Record<string, unknown>,
  lists: readonly L[],
  problems: Problems,
  what: string,
): { where: Map<string, ListedId<L>>; counts: Record<L, number> } {
  const where = new Map<string, ListedId<L>>();
  const counts = Object.fromEntries(lists.map((l) => [l, 0])) as Record<L, number>;
  for (const list of lists) {
    const value = doc[list];
    if (value === undefined) continue;
    if (!Array.isArray(value)) {
      problems.add(`expected an array of instance ids, found ${typeName(value)}`, { field: pointer(list) });
      continue;
    }
    value.forEach((id: unknown, i) => {
      const ptr = pointer(list, i);
      if (typeof id !== "string" || id === "") {
        problems.add(`expected an instance id (non-empty string), found ${typeName(id)}`, { field: ptr });
        return;
      }
      const seen = where.get(id);
      if (seen !== undefined) {
        const how = seen.list === list ? "twice in the same list" : `also in "${seen.list}" at ${seen.ptr}`;
        problems.add(`instance ${JSON.stringify(id)} is ${how}: the ${what} is ambiguous`, { field: ptr });
        return;
      }
      where.set(id, { list, ptr });
      counts[list] += 1;
    });
  }
  return { where, counts };
}
