import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
var __webpack_exports__ = {};

;// CONCATENATED MODULE: external "node:worker_threads"
const external_node_worker_threads_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:worker_threads");
;// CONCATENATED MODULE: ./src/core/model.ts
/**
 * Domain types shared by the reader, the statistics, the decision and the report.
 * SPEC §1.1 (export rows), §1.2 (reviews) and §2 (sets).
 */
const model_VALIDITIES = ["unreviewed", "valid", "broken", "disputed"];
const RESULTS = (/* unused pure expression or super */ null && (["pass", "fail", "infra_error", "missing"]));
/**
 * Placeholder revisions. A harness revision that is `unknown` or begins with `unknown:` (the
 * letters in any case) is reserved to say "no revision is known": the importers write
 * `unknown:<kind>` when the source names no harness. A placeholder is a label, not a revision, so
 * it never satisfies "same harness revision" and fails "real harness revisions" (SPEC §4; README
 * "Placeholder harness revisions").
 */
const PLACEHOLDER_REVISION_PREFIX = "unknown:";
function isPlaceholderRevision(revision) {
    return /^unknown(?::|$)/i.test(revision);
}
/** Locale-independent string order (UTF-16 code units), so outputs do not depend on the machine's locale. */
function compareCodeUnits(a, b) {
    return a < b ? -1 : a > b ? 1 : 0;
}
/** A TaskTable over records already made. */
class RecordTable {
    records;
    constructor(records) {
        this.records = records;
    }
    get length() {
        return this.records.length;
    }
    record(i) {
        const t = this.records[i];
        if (t === undefined)
            throw new Error(`TaskTable: no task ${i} (of ${this.records.length})`);
        return t;
    }
    datasetRevision(i) {
        return this.record(i).datasetRevision;
    }
    taskId(i) {
        return this.record(i).taskId;
    }
    validity(i) {
        return this.record(i).validity;
    }
    reviewRevision(i) {
        return this.record(i).reviewRevision;
    }
    cluster(i) {
        return this.record(i).cluster;
    }
    baseline(i) {
        return this.record(i).baseline;
    }
    candidate(i) {
        return this.record(i).candidate;
    }
    evidence(i) {
        return this.record(i).evidence;
    }
    labelCount(i) {
        return this.record(i).history.length;
    }
    lastLabelRevision(i) {
        const h = this.record(i).history;
        return h[h.length - 1]?.revision ?? -1;
    }
    history(i) {
        return this.record(i).history;
    }
    eventRevision(i, k) {
        return this.event(this.history(i), i, k).revision;
    }
    eventValidity(i, k) {
        return this.event(this.history(i), i, k).validity;
    }
    eventFile(i, k) {
        return this.event(this.history(i), i, k).source.file;
    }
    eventLine(i, k) {
        return this.event(this.history(i), i, k).source.line;
    }
    event(history, i, k) {
        const e = history[k];
        if (e === undefined)
            throw new Error(`TaskTable: task ${i} has no event ${k}`);
        return e;
    }
}
/** Records as a TaskTable (they are not copied: never modify them). */
function recordTable(records) {
    return new RecordTable(records);
}
/** A table with some tasks' records replaced (task index → record); the others read through. */
class OverlayTable {
    base;
    replaced;
    constructor(base, replaced) {
        this.base = base;
        this.replaced = replaced;
    }
    get length() {
        return this.base.length;
    }
    record(i) {
        return this.replaced.get(i) ?? this.base.record(i);
    }
    datasetRevision(i) {
        return this.replaced.get(i)?.datasetRevision ?? this.base.datasetRevision(i);
    }
    taskId(i) {
        return this.replaced.get(i)?.taskId ?? this.base.taskId(i);
    }
    validity(i) {
        return this.replaced.get(i)?.validity ?? this.base.validity(i);
    }
    reviewRevision(i) {
        return this.replaced.get(i)?.reviewRevision ?? this.base.reviewRevision(i);
    }
    cluster(i) {
        const r = this.replaced.get(i);
        return r === undefined ? this.base.cluster(i) : r.cluster;
    }
    baseline(i) {
        const r = this.replaced.get(i);
        return r === undefined ? this.base.baseline(i) : r.baseline;
    }
    candidate(i) {
        const r = this.replaced.get(i);
        return r === undefined ? this.base.candidate(i) : r.candidate;
    }
    evidence(i) {
        return this.replaced.get(i)?.evidence ?? this.base.evidence(i);
    }
    labelCount(i) {
        return this.replaced.get(i)?.history.length ?? this.base.labelCount(i);
    }
    lastLabelRevision(i) {
        const r = this.replaced.get(i);
        if (r === undefined)
            return this.base.lastLabelRevision(i);
        return r.history[r.history.length - 1]?.revision ?? -1;
    }
    history(i) {
        return this.replaced.get(i)?.history ?? this.base.history(i);
    }
    eventRevision(i, k) {
        const r = this.replaced.get(i);
        return r === undefined ? this.base.eventRevision(i, k) : recordTable([r]).eventRevision(0, k);
    }
    eventValidity(i, k) {
        const r = this.replaced.get(i);
        return r === undefined ? this.base.eventValidity(i, k) : recordTable([r]).eventValidity(0, k);
    }
    eventFile(i, k) {
        const r = this.replaced.get(i);
        return r === undefined ? this.base.eventFile(i, k) : recordTable([r]).eventFile(0, k);
    }
    eventLine(i, k) {
        const r = this.replaced.get(i);
        return r === undefined ? this.base.eventLine(i, k) : recordTable([r]).eventLine(0, k);
    }
}
/**
 * The same tasks with some records replaced (e.g. relabelled): only those are held, so a view of a
 * 10⁶-task Dataset that changes a few labels costs what it changes.
 */
function withReplacedRecords(table, replaced) {
    return replaced.size === 0 ? table : new OverlayTable(table, replaced);
}
/** Every task of a table as a record, in table order. */
function tableRecords(table) {
    const out = [];
    for (let i = 0; i < table.length; i++)
        out.push(table.record(i));
    return out;
}

;// CONCATENATED MODULE: ./src/core/input/line-flags.ts
/** Flags of a line handed over as bytes (line-stream's ByteLineHandler, parse-pool's batches). */
/** The line holds no backslash, DEL or U+0080–U+00BF: none of its JSON strings can hold a
 * control character (see line-stream's LineHandler). */
const LINE_PLAIN = 1;
/** Every byte of the line is below 0x80. */
const LINE_ASCII = 2;

;// CONCATENATED MODULE: ./src/core/input/limits.ts
/**
 * Safety caps of the input reader (SPEC §1.1). They bound memory and keep messages readable; a
 * value over a cap is an input error, never silently cut.
 */
/** Longest accepted line, in bytes of UTF-8 (without the LF; a CR before it counts). Checked while
 * splitting, before JSON.parse, so an overlong line is never held whole in memory. */
const MAX_LINE_BYTES = (/* unused pure expression or super */ null && (1024 * 1024));
/** Longest accepted identifier, in UTF-16 code units: task_id, dataset_revision, harness_revision,
 * model_config, a string attempt, cluster, reviewer. */
const MAX_ID_LENGTH = 4096;
/** Longest accepted evidence item (a path or URL), in UTF-16 code units. */
const MAX_EVIDENCE_LENGTH = 8192;
/** Longest accepted review note, in UTF-16 code units. */
const limits_MAX_NOTE_LENGTH = 65536;
/** Evidence items kept per task (TaskRecord.evidence) and per history event, first seen first.
 * A report shows a handful of links per task; more would only grow memory with the row count. */
const MAX_EVIDENCE_PER_TASK = 20;
/** How many model_config ids an "unknown model id" error lists before it only counts the rest. */
const MAX_LISTED_MODEL_IDS = 20;
/** How many input files one read accepts (results and reviews together). */
const MAX_INPUT_FILES = 10_000;
/** Lines per file the reader can number (file:line locations are packed into one safe integer). */
const MAX_LINES_PER_FILE = (/* unused pure expression or super */ null && (2 ** 32 - 1));
const DEFAULT_INPUT_LIMITS = {
    maxTasks: 1_000_000,
    maxModels: 10_000,
    maxLabelsPerTask: 1_000,
    maxAttemptIds: 20_000_000,
    maxHeldChars: 256 * 1024 * 1024,
};
/**
 * Tasks from which the reader asks for a full collection (ReadOptions.collectGarbage) where a
 * large read leaves most of its memory as garbage; a smaller read's garbage is a few MB.
 */
const COLLECT_MIN_TASKS = 100_000;

;// CONCATENATED MODULE: ./src/core/input/rows.ts
/**
 * Validation of one export row (SPEC §1.1) or one review row (§1.2), by direct checks: this runs
 * once per line, so it allocates nothing on the happy path (one reusable output struct) and only
 * builds messages for bad lines. Each message says what was expected and what the line had.
 *
 * Choices the SPEC leaves open:
 * - `null` in an OPTIONAL field (evidence, attempt, cluster, reviewer, note, and `result` or the
 *   counts when deciding the row's shape) is the same as the field being absent: warehouse and
 *   dataframe exports write null for "no value". A required field that is null is an error.
 * - Identifiers (task_id, dataset_revision, harness_revision, model_config, a string attempt,
 *   cluster, reviewer) must be non-empty, at most MAX_ID_LENGTH long, and free of control
 *   characters (C0 U+0000–U+001F, DEL, C1 U+0080–U+009F). They are map keys (NUL separates the
 *   parts of a task key) and they are printed in terminals and Markdown, where a newline or an
 *   escape sequence could fake report lines or drive the terminal. Tab is refused too: an id
 *   with a tab is a copy-paste accident, and guessing "trim it" is what §1.1 forbids.
 * - Evidence items follow the same rule with MAX_EVIDENCE_LENGTH; an empty evidence string is
 *   ignored (it cannot be a link). A note may hold newlines and tabs (other controls are refused).
 * - `attempt` 1 and `attempt` "1" are different attempts (no type coercion).
 * - A pre-aggregated row carries the four integer counts `passes`, `fails`, `infra_errors`,
 *   `missing` (all four, at least one above 0) instead of `result`, and no `attempt`.
 */

/** Result index used in packed attempt records: 0 pass, 1 fail, 2 infra_error, 3 missing. */
const RESULT_NAMES = (/* unused pure expression or super */ null && (["pass", "fail", "infra_error", "missing"]));
const RESULT_EXPECTED = "expected one of pass, fail, infra_error, missing";
const VALIDITY_EXPECTED = "expected one of unreviewed, valid, broken, disputed";
const COUNT_FIELDS = ["passes", "fails", "infra_errors", "missing"];
// eslint-disable-next-line no-control-regex
const ID_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const NOTE_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const SHOWN_STRING_LENGTH = 60;
/** How a bad value is shown in a message: short, JSON-escaped, never the whole of a huge value. */
function describeValue(v) {
    if (v === undefined)
        return "nothing";
    if (v === null)
        return "null";
    if (typeof v === "string") {
        if (v.length === 0)
            return "an empty string";
        return quote(v);
    }
    if (typeof v === "number" || typeof v === "boolean")
        return String(v);
    if (Array.isArray(v))
        return "an array";
    return "an object";
}
/** Shown escaped in messages besides what JSON escapes: DEL, C1, line separators, bidi controls. */
const ESCAPED_IN_MESSAGES = /[\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same plus C0, for the parser's message, which quotes the line raw. */
const ESCAPED_IN_PARSER_MESSAGES = new RegExp(`[\\u0000-\\u001f${ESCAPED_IN_MESSAGES.source.slice(1)}`, "g");
function escapeChar(c) {
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}
/** JSON-quoted and cut to a readable length. Control characters come out escaped (JSON escapes
 * C0; DEL, C1, line separators and bidi controls are escaped here too), so a message cannot drive
 * a terminal or reorder its own text. */
function quote(s) {
    return quoteUpTo(s, SHOWN_STRING_LENGTH);
}
/** quote() with its own length (e.g. a revision shown whole, to be copied into a flag). */
function quoteUpTo(s, max) {
    const shown = s.length <= max ? s : s.slice(0, max);
    const text = JSON.stringify(shown).replace(ESCAPED_IN_MESSAGES, escapeChar);
    return shown === s ? text : `${text}… (${s.length} characters)`;
}
/** The problems of one line: the first in full, the names of the other fields. */
class LineIssues {
    field = undefined;
    message = undefined;
    otherFields = undefined;
    reset() {
        this.field = undefined;
        this.message = undefined;
        this.otherFields = undefined;
    }
    get any() {
        return this.message !== undefined;
    }
    add(field, message) {
        if (this.message === undefined) {
            this.field = field;
            this.message = message;
        }
        else if (field !== undefined && field !== this.field && !(this.otherFields ?? []).includes(field)) {
            (this.otherFields ??= []).push(field);
        }
    }
    /** The line's message: the first problem, plus which other fields are also wrong. */
    text() {
        const msg = this.message ?? "";
        if (this.otherFields === undefined)
            return msg;
        const names = this.otherFields.map((f) => `"${f}"`).join(", ");
        return this.otherFields.length === 1
            ? `${msg} (field ${names} on this line is wrong too)`
            : `${msg} (fields ${names} on this line are wrong too)`;
    }
}
function rows_emptyExportRow() {
    return {
        taskId: "",
        datasetRevision: "",
        harnessRevision: "",
        modelConfig: "",
        validity: "unreviewed",
        reviewRevision: 0,
        result: -1,
        passes: 0,
        fails: 0,
        infraErrors: 0,
        missing: 0,
        evidence: undefined,
        packedEvidence: undefined,
        packedItems: 0,
        attempt: undefined,
        cluster: undefined,
    };
}
function emptyReviewRow() {
    return {
        taskId: "",
        datasetRevision: "",
        validity: "unreviewed",
        reviewRevision: 0,
        evidence: undefined,
        reviewer: undefined,
        note: undefined,
    };
}
/** Parses a line into an object, or records why it is not one. */
function parseObject(text, issues) {
    let v;
    try {
        v = JSON.parse(text);
    }
    catch (e) {
        // V8 quotes a snippet of the line in its message: escape what could drive a terminal.
        const why = (e instanceof Error ? e.message : String(e)).replace(ESCAPED_IN_PARSER_MESSAGES, escapeChar);
        issues.add(undefined, `expected a JSON object; the line is not valid JSON (${why})`);
        return undefined;
    }
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
        issues.add(undefined, `expected a JSON object; got ${describeValue(v)}`);
        return undefined;
    }
    // Counting the keys is cheap; finding which one repeats is done only when one does.
    const repeated = topLevelKeys(text) === Object.keys(v).length ? undefined : repeatedKey(text);
    if (repeated !== undefined) {
        // JSON.parse keeps the last value: which one was meant is a guess (SPEC §1.1 guesses nothing).
        issues.add(SHOWN_AS_FIELD.test(repeated) ? repeated : undefined, `the key ${quote(repeated)} is given twice on this line; expected each field once`);
        return undefined;
    }
    return v;
}
/** A repeated key is named as the problem's field when it reads safely as one. */
const SHOWN_AS_FIELD = /^[A-Za-z0-9_]{1,64}$/;
/**
 * How many keys the top level of a JSON object's text has, repeats included. `text` must be a
 * valid JSON object. Strings are skipped with indexOf when the text has no backslash.
 */
function topLevelKeys(text) {
    const plain = text.indexOf("\\") === -1;
    let depth = 0;
    let keys = 0;
    let expectKey = false;
    const n = text.length;
    for (let i = 0; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x22) {
            if (depth === 1 && expectKey) {
                keys++;
                expectKey = false;
            }
            if (plain) {
                i = text.indexOf('"', i + 1);
                if (i < 0)
                    break;
            }
            else {
                for (i++; i < n; i++) {
                    const d = text.charCodeAt(i);
                    if (d === 0x5c)
                        i++;
                    else if (d === 0x22)
                        break;
                }
            }
        }
        else if (c === 0x7b || c === 0x5b) {
            depth++;
            if (depth === 1)
                expectKey = true;
        }
        else if (c === 0x7d || c === 0x5d) {
            depth--;
        }
        else if (c === 0x2c && depth === 1) {
            expectKey = true;
        }
    }
    return keys;
}
/**
 * The first top-level key of a JSON object's text that repeats an earlier one (compared after
 * unescaping, as JSON.parse does), or undefined. `text` must be a valid JSON object (JSON.parse
 * accepted it). Nested objects are in fields the gate does not read, and are not checked.
 */
function repeatedKey(text) {
    let depth = 0;
    let expectKey = false;
    let keys;
    let first;
    const n = text.length;
    for (let i = 0; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x22) {
            let j = i + 1;
            let escaped = false;
            for (;;) {
                const d = text.charCodeAt(j);
                if (d === 0x5c) {
                    escaped = true;
                    j += 2;
                }
                else if (d === 0x22 || Number.isNaN(d)) {
                    break;
                }
                else {
                    j++;
                }
            }
            if (depth === 1 && expectKey) {
                const key = escaped ? JSON.parse(text.slice(i, j + 1)) : text.slice(i + 1, j);
                if (first === undefined) {
                    first = key;
                }
                else {
                    if (keys === undefined)
                        keys = new Set([first]);
                    if (keys.has(key))
                        return key;
                    keys.add(key);
                }
                expectKey = false;
            }
            i = j;
        }
        else if (c === 0x7b || c === 0x5b) {
            depth++;
            if (depth === 1)
                expectKey = true;
        }
        else if (c === 0x7d || c === 0x5d) {
            depth--;
        }
        else if (c === 0x2c && depth === 1) {
            expectKey = true;
        }
    }
    return undefined;
}
/**
 * Whether `s` holds a character of ID_FORBIDDEN. `plain` is the line reader's promise that no
 * string of the line can (see line-stream's LineHandler): the RegExp test of every identifier
 * and evidence item of every line was ~6% of a large read.
 */
function hasControl(s, plain) {
    return !plain && ID_FORBIDDEN.test(s);
}
/** A non-empty identifier without control characters. Returns "" after recording a problem. */
function idField(obj, field, issues, plain) {
    const v = obj[field];
    if (typeof v === "string" && v.length > 0 && v.length <= MAX_ID_LENGTH && !hasControl(v, plain))
        return v;
    issues.add(field, idProblem(v));
    return "";
}
/** Like idField, for an optional field: undefined when absent or null. */
function optionalIdField(obj, field, issues, plain) {
    const v = obj[field];
    if (v === undefined || v === null)
        return undefined;
    if (typeof v === "string" && v.length > 0 && v.length <= MAX_ID_LENGTH && !hasControl(v, plain))
        return v;
    issues.add(field, idProblem(v));
    return undefined;
}
function idProblem(v) {
    if (v === undefined)
        return "expected a non-empty string; the field is missing";
    if (typeof v !== "string" || v.length === 0)
        return `expected a non-empty string; got ${describeValue(v)}`;
    if (v.length > MAX_ID_LENGTH) {
        return `expected at most ${MAX_ID_LENGTH} characters; got ${v.length}`;
    }
    return `expected no control characters (U+0000-U+001F, U+007F-U+009F); got ${quote(v)}`;
}
function validityField(obj, issues) {
    const v = obj["validity"];
    switch (v) {
        case "valid":
        case "disputed":
        case "unreviewed":
        case "broken":
            return v;
        default:
            issues.add("validity", v === undefined
                ? `${VALIDITY_EXPECTED}; the field is missing`
                : `${VALIDITY_EXPECTED}; got ${describeValue(v)}`);
            return "unreviewed";
    }
}
function resultIndex(v) {
    switch (v) {
        case "pass":
            return 0;
        case "fail":
            return 1;
        case "infra_error":
            return 2;
        case "missing":
            return 3;
        default:
            return -1;
    }
}
/** An integer >= 0 that is a safe integer; -1 after recording a problem. */
function countField(obj, field, issues) {
    const v = obj[field];
    if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0)
        return v;
    if (v === undefined) {
        issues.add(field, "expected an integer >= 0; the field is missing");
    }
    else if (typeof v === "number" && Number.isInteger(v) && v > 0) {
        issues.add(field, `expected an integer >= 0 no larger than ${Number.MAX_SAFE_INTEGER}; got ${v}`);
    }
    else {
        issues.add(field, `expected an integer >= 0; got ${describeValue(v)}`);
    }
    return -1;
}
/** Validated evidence: undefined, a string, or an array of strings (empty strings allowed, ignored later). */
function evidenceField(obj, issues, plain) {
    const v = obj["evidence"];
    if (v === undefined || v === null)
        return undefined;
    if (typeof v === "string") {
        const bad = evidenceItemProblem(v, plain);
        if (bad === undefined)
            return v;
        issues.add("evidence", bad);
        return undefined;
    }
    if (!Array.isArray(v)) {
        issues.add("evidence", `expected a string or an array of strings; got ${describeValue(v)}`);
        return undefined;
    }
    const items = v;
    for (let i = 0; i < items.length; i++) {
        const item = items[i];
        if (typeof item !== "string") {
            issues.add(`evidence[${i}]`, `expected a string; got ${describeValue(item)}`);
            return undefined;
        }
        const bad = evidenceItemProblem(item, plain);
        if (bad !== undefined) {
            issues.add(`evidence[${i}]`, bad);
            return undefined;
        }
    }
    return items;
}
function evidenceItemProblem(s, plain) {
    if (s.length > MAX_EVIDENCE_LENGTH)
        return `expected at most ${MAX_EVIDENCE_LENGTH} characters; got ${s.length}`;
    if (hasControl(s, plain)) {
        return `expected no control characters (U+0000-U+001F, U+007F-U+009F); got ${quote(s)}`;
    }
    return undefined;
}
/**
 * Checks one export row into `out`. Returns false (and fills `issues`) when the row is bad; every
 * field is checked so that the message can name all the wrong ones.
 */
function checkExportRow(obj, out, issues, plain = false) {
    out.taskId = idField(obj, "task_id", issues, plain);
    out.datasetRevision = idField(obj, "dataset_revision", issues, plain);
    out.harnessRevision = idField(obj, "harness_revision", issues, plain);
    out.modelConfig = idField(obj, "model_config", issues, plain);
    out.validity = validityField(obj, issues);
    const rawResult = obj["result"];
    const hasResult = rawResult !== undefined && rawResult !== null;
    let countsGiven = 0;
    let firstCount;
    for (const f of COUNT_FIELDS) {
        const c = obj[f];
        if (c !== undefined && c !== null) {
            countsGiven++;
            firstCount ??= f;
        }
    }
    if (hasResult) {
        out.result = resultIndex(rawResult);
        if (out.result < 0)
            issues.add("result", `${RESULT_EXPECTED}; got ${describeValue(rawResult)}`);
        if (countsGiven > 0) {
            issues.add("result", `a row has either "result" (one attempt) or the counts passes, fails, infra_errors, missing ` +
                `(a pre-aggregated row), not both; this one also has "${firstCount ?? ""}"`);
        }
    }
    else if (countsGiven === 0) {
        out.result = -1;
        issues.add("result", `${RESULT_EXPECTED} (or, for a pre-aggregated row, the four counts passes, fails, ` +
            `infra_errors, missing); the field is missing`);
    }
    else {
        out.result = -1;
        out.passes = countField(obj, "passes", issues);
        out.fails = countField(obj, "fails", issues);
        out.infraErrors = countField(obj, "infra_errors", issues);
        out.missing = countField(obj, "missing", issues);
        if (out.passes === 0 && out.fails === 0 && out.infraErrors === 0 && out.missing === 0) {
            issues.add("passes", "a pre-aggregated row needs at least one count above 0; all four are 0");
        }
    }
    const rev = obj["review_revision"];
    if (typeof rev === "number" && Number.isSafeInteger(rev) && rev >= 0) {
        out.reviewRevision = rev;
    }
    else {
        countField(obj, "review_revision", issues);
    }
    out.evidence = evidenceField(obj, issues, plain);
    out.packedEvidence = undefined;
    out.packedItems = 0;
    const attempt = obj["attempt"];
    if (attempt === undefined || attempt === null) {
        out.attempt = undefined;
    }
    else if (!hasResult && countsGiven > 0) {
        issues.add("attempt", "not allowed on a pre-aggregated row (one with counts instead of a result)");
    }
    else if (typeof attempt === "number") {
        if (Number.isSafeInteger(attempt)) {
            out.attempt = attempt;
        }
        else {
            issues.add("attempt", `expected a non-empty string or an integer; got ${describeValue(attempt)}`);
        }
    }
    else if (typeof attempt === "string" &&
        attempt.length > 0 &&
        attempt.length <= MAX_ID_LENGTH &&
        !hasControl(attempt, plain)) {
        out.attempt = attempt;
    }
    else if (typeof attempt === "string") {
        issues.add("attempt", idProblem(attempt));
    }
    else {
        issues.add("attempt", `expected a non-empty string or an integer; got ${describeValue(attempt)}`);
    }
    out.cluster = optionalIdField(obj, "cluster", issues, plain);
    return !issues.any;
}
/** Checks one review row into `out` (SPEC §1.2). */
function checkReviewRow(obj, out, issues, plain = false) {
    out.taskId = idField(obj, "task_id", issues, plain);
    out.datasetRevision = idField(obj, "dataset_revision", issues, plain);
    out.validity = validityField(obj, issues);
    const rev = obj["review_revision"];
    if (typeof rev === "number" && Number.isSafeInteger(rev) && rev >= 0) {
        out.reviewRevision = rev;
    }
    else {
        countField(obj, "review_revision", issues);
    }
    out.evidence = evidenceField(obj, issues, plain);
    out.reviewer = optionalIdField(obj, "reviewer", issues, plain);
    const note = obj["note"];
    if (note === undefined || note === null) {
        out.note = undefined;
    }
    else if (typeof note !== "string") {
        issues.add("note", `expected a string; got ${describeValue(note)}`);
    }
    else if (note.length > MAX_NOTE_LENGTH) {
        issues.add("note", `expected at most ${MAX_NOTE_LENGTH} characters; got ${note.length}`);
    }
    else if (NOTE_FORBIDDEN.test(note)) {
        issues.add("note", `expected no control characters other than tab and line ends; got ${quote(note)}`);
    }
    else {
        out.note = note;
    }
    return !issues.any;
}

;// CONCATENATED MODULE: ./src/core/input/packed-evidence.ts
/**
 * A task's evidence list as the reader holds it (issue 15): its items joined by a line feed into
 * one string, undefined when it has none. Items are never empty and never hold a control
 * character (rows.ts refuses them), so the separator cannot occur inside one. One string a task
 * instead of an array, its elements and a string an item: ~70 bytes a task less at 10⁶ tasks, and
 * two fewer objects for every collection to visit. The rows' checks read the packed string in
 * place (`packedRunAt`); only a list that grows is unpacked, and only records and histories made
 * on request unpack it for the report.
 */
const SEPARATOR = "\n";
const SEPARATOR_CODE = 0x0a;
/** The packed form of a list (undefined when it is empty or undefined). */
function pack(items) {
    if (items === undefined || items.length === 0)
        return undefined;
    return items.length === 1 ? items[0] : items.join(SEPARATOR);
}
/** The items of a packed list, as a new array (undefined when it has none). */
function unpack(packed) {
    return packed === undefined ? undefined : packed.split(SEPARATOR);
}
/** How many items a packed list holds. */
function packedCount(packed) {
    if (packed === undefined)
        return 0;
    let n = 1;
    for (let at = packed.indexOf(SEPARATOR); at >= 0; at = packed.indexOf(SEPARATOR, at + 1))
        n++;
    return n;
}
/** The characters of a packed list's items (its separators not counted). */
function packedChars(packed) {
    return packed === undefined ? 0 : packed.length - (packedCount(packed) - 1);
}
/**
 * Whether `items` (one item or several) stand in `packed` one after another as whole items from
 * character `at`, an item's start. With `whole`, they must also end the list there. The items are
 * a row's: they hold no control character either (the reader refused the row otherwise).
 */
function packedRunAt(packed, at, items, whole = false) {
    if (packed === undefined)
        return false;
    if (typeof items === "string")
        return itemAt(packed, at, items, true, whole) >= 0;
    const n = items.length;
    if (n === 0)
        return !whole || at >= packed.length;
    let p = at;
    for (let k = 0; k < n; k++) {
        p = itemAt(packed, p, items[k], k === n - 1, whole);
        if (p < 0)
            return false;
    }
    return true;
}
/** The next item's start after `item` at `at` (or the list's end for the last), else -1. */
function itemAt(packed, at, item, last, whole) {
    const end = at + item.length;
    // (A slice compared with ===, not startsWith: V8's startsWith compares a character at a time,
    // ~4× slower on a row's 50–100-character items; a slice of 13 or more is a view, not a copy.)
    if (end > packed.length || packed.slice(at, end) !== item)
        return -1;
    // (An item before another needs a separator after it.)
    if (end === packed.length)
        return last ? end : -1;
    if (packed.charCodeAt(end) !== SEPARATOR_CODE || (last && whole))
        return -1;
    return end + 1;
}
/** Whether a packed list begins with exactly these items (so holds them all). */
function packedStartsWith(packed, items) {
    return packedRunAt(packed, 0, items);
}
/** Whether a packed list holds exactly these items, in this order (undefined: none). */
function packedEquals(packed, items) {
    if (items === undefined || items.length === 0)
        return packed === undefined;
    return packedRunAt(packed, 0, items, true);
}
/** The start of `item` as a whole item of the packed list, or -1. */
function packedIndexOf(packed, item) {
    if (packed === undefined || item.length === 0)
        return -1;
    for (let at = packed.indexOf(item); at >= 0; at = packed.indexOf(item, at + 1)) {
        const end = at + item.length;
        if ((at === 0 || packed.charCodeAt(at - 1) === SEPARATOR_CODE) &&
            (end === packed.length || packed.charCodeAt(end) === SEPARATOR_CODE))
            return at;
    }
    return -1;
}

;// CONCATENATED MODULE: ./src/core/input/scan-row.ts
/**
 * A byte scanner for the common shape of an export row (issue 15): it reads the fields the gate
 * needs straight from the line's UTF-8 bytes, without building the object JSON.parse builds
 * (which was most of the reader's time), and accepts a line only when it is sure of it.
 *
 * `scan` returns true only for a line that is valid JSON, a flat object whose keys are all
 * distinct, and a row checkExportRow accepts; then `out` holds exactly what checkExportRow would
 * put there. For any other line it returns false and the caller takes the JSON.parse path
 * (rows.ts), which finds and words every problem: so both paths have the same checks and the same
 * messages by construction, and the scanner only has to be right about what it accepts
 * (test/input/scan-row.test.ts compares both on fuzzed lines).
 *
 * What it leaves to JSON.parse (returns false): any backslash (escapes), any control byte, DEL or
 * byte C2 (U+0080–U+00BF: C1 controls are refused in ids) inside a string, an object or array as
 * the value of a field the gate ignores, numbers with a fraction, an exponent or a minus sign, or
 * of more than 15 digits in a field the gate reads, a wrong type or value anywhere, a repeated key,
 * more than MAX_OTHER_KEYS other keys.
 *
 * What makes it cheap per row (most of a row's bytes are the same as in the row before):
 * - The line's shape: the bytes of the row before from the end of one value to the start of the
 *   next (`,"key":` with its spaces), remembered with the field each key names. A line whose keys
 *   come in the same order matches them byte for byte, which also proves them distinct and the
 *   punctuation right (the same bytes in the same place parse the same way); where it differs,
 *   the scanner reads key by key from there, and the line's shape replaces the old one.
 * - The four fields that repeat in runs (dataset and harness revisions, model, cluster) are
 *   compared with the bytes of their last value, then looked up in a small table of recent values
 *   by their bytes: a value seen recently comes back as the same string object, and no string is
 *   made. (A table for task ids and evidence items too cost more than the strings it saved:
 *   measured.)
 * - Bytes are compared, and strings searched for their closing quote, four at a time (DataView
 *   reads, which the JIT inlines; Buffer.compare costs ~150 ns a call, more than the few dozen
 *   bytes of a field, and indexOf would still leave every byte to check for control bytes).
 * It allocates nothing for a row but the strings it hands out (task id, evidence items or, for the
 * builder, one packed evidence list: see the constructor; attempt and repeating values when new).
 */


const FAST_SLICE = typeof Buffer.prototype.latin1Slice === "function" &&
    typeof Buffer.prototype.utf8Slice === "function";
// Field ids, by bit.
const F_TASK = 0;
const F_DATASET = 1;
const F_HARNESS = 2;
const F_MODEL = 3;
const F_VALIDITY = 4;
const F_RESULT = 5;
const F_REVIEW_REVISION = 6;
const F_ATTEMPT = 7;
const F_EVIDENCE = 8;
const F_CLUSTER = 9;
const F_PASSES = 10;
const F_FAILS = 11;
const F_INFRA_ERRORS = 12;
const F_MISSING = 13;
const F_OTHER = -1;
const KNOWN_FIELDS = 14;
const REQUIRED = (1 << F_TASK) |
    (1 << F_DATASET) |
    (1 << F_HARNESS) |
    (1 << F_MODEL) |
    (1 << F_VALIDITY) |
    (1 << F_REVIEW_REVISION);
const COUNTS = (1 << F_PASSES) | (1 << F_FAILS) | (1 << F_INFRA_ERRORS) | (1 << F_MISSING);
/** Keys of fields the gate ignores, remembered per line to find a repeated one. */
const MAX_OTHER_KEYS = 32;
/** A shape's keys and bytes at most (a longer one is not remembered). */
const MAX_SHAPE_KEYS = KNOWN_FIELDS + MAX_OTHER_KEYS;
const MAX_SHAPE_BYTES = 2048;
/** The longest string a StringTable holds, and the slots of the one for the fields that repeat
 * in runs (a cache of ids and evidence items by their bytes cost more than the strings it saved:
 * measured). */
const SLOT_BYTES = 96;
const REPEAT_SLOTS = 1 << 10;
/** A repeating field's bytes are remembered up to this length (longer ones: a string compare). */
const MAX_REPEAT_BYTES = 1024;
/** Evidence arrays of up to this many items are reused, one per length. */
const REUSED_EVIDENCE_LENGTHS = 8;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
/** How a string's byte is treated: one table load per byte. */
const BYTE_PLAIN = 0;
const BYTE_QUOTE = 1;
/** Leave the line to JSON.parse: C0 controls (invalid unescaped), backslash, DEL, C2. */
const BYTE_OTHER = 2;
const BYTE_NON_ASCII = 3;
const BYTE_CLASS = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
    BYTE_CLASS[c] =
        c === QUOTE
            ? BYTE_QUOTE
            : c < 0x20 || c === BACKSLASH || c === 0x7f || c === 0xc2
                ? BYTE_OTHER
                : c >= 0x80
                    ? BYTE_NON_ASCII
                    : BYTE_PLAIN;
}
function bytesOf(s) {
    return Uint8Array.from(s, (c) => c.charCodeAt(0));
}
const KEYS = [
    [bytesOf("task_id"), F_TASK],
    [bytesOf("dataset_revision"), F_DATASET],
    [bytesOf("harness_revision"), F_HARNESS],
    [bytesOf("model_config"), F_MODEL],
    [bytesOf("validity"), F_VALIDITY],
    [bytesOf("result"), F_RESULT],
    [bytesOf("review_revision"), F_REVIEW_REVISION],
    [bytesOf("attempt"), F_ATTEMPT],
    [bytesOf("evidence"), F_EVIDENCE],
    [bytesOf("cluster"), F_CLUSTER],
    [bytesOf("passes"), F_PASSES],
    [bytesOf("fails"), F_FAILS],
    [bytesOf("infra_errors"), F_INFRA_ERRORS],
    [bytesOf("missing"), F_MISSING],
];
/** KEYS by length (keys are 5–16 bytes long). */
const KEYS_BY_LENGTH = [];
for (const entry of KEYS)
    (KEYS_BY_LENGTH[entry[0].length] ??= []).push(entry);
/** The values of validity and result, by index (each starts with its own letter: see wordAt). */
const scan_row_VALIDITIES = ["valid", "broken", "disputed", "unreviewed"];
const VALIDITY_WORDS = scan_row_VALIDITIES.map(bytesOf);
const RESULT_WORDS = ["pass", "fail", "infra_error", "missing"].map(bytesOf);
const TRUE = bytesOf("true");
const FALSE = bytesOf("false");
const NULL = bytesOf("null");
function equalAt(b, begin, end, word) {
    if (end - begin !== word.length)
        return false;
    for (let k = 0; k < word.length; k++)
        if (b[begin + k] !== word[k])
            return false;
    return true;
}
/**
 * The index of the word of `words` that the JSON string at `p` is (`"word"`), or -1. The words
 * start with distinct letters and hold no quote: one candidate, compared with the bytes up to the
 * closing quote that must follow it.
 */
function wordAt(b, p, end, words) {
    if (b[p] !== QUOTE)
        return -1;
    const first = p + 1 < end ? b[p + 1] : -1;
    for (let w = 0; w < words.length; w++) {
        const word = words[w];
        if (word === undefined || word[0] !== first)
            continue;
        const close = p + 1 + word.length;
        return close < end && b[close] === QUOTE && equalAt(b, p + 1, close, word) ? w : -1;
    }
    return -1;
}
function isSpace(c) {
    return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}
function isDigit(c) {
    return c >= ZERO && c <= NINE;
}
/** The first position from `p` that is not JSON whitespace (`end` when the line ends first). */
function skipSpace(b, p, end) {
    while (p < end && isSpace(b[p] ?? 0))
        p++;
    return p;
}
/** `word` at `p`: the position after it, or -1. */
function literal(b, p, end, word) {
    const stop = p + word.length;
    return stop <= end && equalAt(b, p, stop, word) ? stop : -1;
}
/** Any JSON number at `p` (validated, not converted): the position after it, or -1. */
function number(b, p, end) {
    if (p < end && b[p] === MINUS)
        p++;
    const first = p < end ? (b[p] ?? 0) : -1;
    if (first === ZERO) {
        p++;
    }
    else if (first > ZERO && first <= NINE) {
        p = digits(b, p + 1, end);
    }
    else {
        return -1;
    }
    if (p < end && b[p] === 0x2e) {
        const q = digits(b, p + 1, end);
        if (q === p + 1)
            return -1;
        p = q;
    }
    const e = p < end ? b[p] : -1;
    if (e === 0x65 || e === 0x45) {
        p++;
        if (p < end && (b[p] === 0x2b || b[p] === MINUS))
            p++;
        const q = digits(b, p, end);
        if (q === p)
            return -1;
        p = q;
    }
    return p;
}
/** The first position from `p` that is not a digit. */
function digits(b, p, end) {
    while (p < end && isDigit(b[p] ?? 0))
        p++;
    return p;
}
function keyId(b, begin, end) {
    const candidates = KEYS_BY_LENGTH[end - begin];
    if (candidates === undefined)
        return F_OTHER;
    for (const [word, id] of candidates)
        if (equalAt(b, begin, end, word))
            return id;
    return F_OTHER;
}
/**
 * Whether v[at, at + n) holds the bytes of r[rat, rat + n): four bytes at a time (DataView reads
 * are inlined by the JIT; a native compare costs more per call than these bytes do).
 */
function sameBytes(v, at, r, rat, n) {
    if (n < 4) {
        for (let i = 0; i < n; i++)
            if (v.getUint8(at + i) !== r.getUint8(rat + i))
                return false;
        return true;
    }
    const last = n - 4;
    for (let i = 0; i < last; i += 4)
        if (v.getInt32(at + i, true) !== r.getInt32(rat + i, true))
            return false;
    // The last four bytes (overlapping the word before when n is not a multiple of 4).
    return v.getInt32(at + last, true) === r.getInt32(rat + last, true);
}
/**
 * Whether the four bytes of x (any order) are all plain in a string: ASCII, and none a control
 * byte, a quote, a backslash or DEL. Each test is exact on whether some byte has the property
 * (the bit tricks of "Determine if a word has a byte less than n"; DEL as x + 1 reaching 0x80, only
 * once no byte is at or above 0x80).
 */
function plainWord(x) {
    const q = x ^ 0x22222222;
    const s = x ^ 0x5c5c5c5c;
    return (((x | ((x - 0x20202020) & ~x) | ((q - 0x01010101) & ~q) | ((s - 0x01010101) & ~s) | (x + 0x01010101)) &
        0x80808080) ===
        0);
}
function slice(b, begin, end, ascii) {
    if (FAST_SLICE) {
        const s = b;
        return ascii ? s.latin1Slice(begin, end) : s.utf8Slice(begin, end);
    }
    return b.toString(ascii ? "latin1" : "utf8", begin, end);
}
/**
 * The last value of a field that repeats in runs: its length in bytes (-1: not remembered) and
 * where its bytes are, the slot of the StringTable that holds it (short values: the slot's string
 * is then the value, as long as the slot's bytes are the same) or its own copy (`slot` -1).
 */
class RepeatCache {
    length = -1;
    slot = -1;
    value = "";
    bytes = new Uint8Array(MAX_REPEAT_BYTES);
    view = new DataView(this.bytes.buffer);
    /** Remembers `value`, the string of b[begin, end), which the table holds in `slot` (or -1). */
    set(b, begin, end, value, slot) {
        const n = end - begin;
        this.value = value;
        this.slot = slot;
        if (slot >= 0) {
            this.length = n;
        }
        else if (n <= MAX_REPEAT_BYTES) {
            b.copy(this.bytes, 0, begin, end);
            this.length = n;
        }
        else {
            this.length = -1;
        }
    }
}
/** A hash of the n bytes at v[at]: their length and three words (first, middle, last). */
function shortHash(v, at, n) {
    let h = Math.imul(n, 0x9e3779b1);
    if (n >= 4) {
        h = Math.imul(h ^ v.getInt32(at, true), 0x85ebca6b);
        h = Math.imul(h ^ v.getInt32(at + n - 4, true), 0xc2b2ae35);
        h = Math.imul(h ^ v.getInt32(at + ((n - 4) >> 1), true), 0x27d4eb2f);
    }
    else {
        for (let i = 0; i < n; i++)
            h = Math.imul(h ^ v.getUint8(at + i), 0x85ebca6b);
    }
    return h ^ (h >>> 15);
}
/**
 * Strings by their bytes (at most SLOT_BYTES), one per slot, a newer one taking the slot: the same
 * bytes give the same string object while it stays, and no string is made. The slot comes from
 * shortHash; the bytes are compared whole.
 */
class StringTable {
    strings;
    lengths;
    bytes;
    view;
    mask;
    /** `slots`: a power of 2. */
    constructor(slots) {
        this.mask = slots - 1;
        this.strings = new Array(slots).fill("");
        this.lengths = new Int32Array(slots).fill(-1);
        this.bytes = new Uint8Array(slots * SLOT_BYTES);
        this.view = new DataView(this.bytes.buffer);
    }
    /** The slot `get` used last. */
    slot = 0;
    /** The string of `slot` when its bytes are the n bytes at v[at]. */
    at(slot, v, at, n) {
        return this.lengths[slot] === n && sameBytes(v, at, this.view, slot * SLOT_BYTES, n)
            ? this.strings[slot]
            : undefined;
    }
    /** The string of the UTF-8 bytes b[begin, end) (ASCII when `ascii`), which `v` holds at `at`. */
    get(b, v, at, begin, end, ascii) {
        const n = end - begin;
        const slot = shortHash(v, at, n) & this.mask;
        this.slot = slot;
        const o = slot * SLOT_BYTES;
        if (this.lengths[slot] === n && sameBytes(v, at, this.view, o, n))
            return this.strings[slot] ?? "";
        const s = slice(b, begin, end, ascii);
        const bytes = this.bytes;
        for (let i = 0; i < n; i++)
            bytes[o + i] = b[begin + i] ?? 0;
        this.lengths[slot] = n;
        this.strings[slot] = s;
        return s;
    }
}
/**
 * The shape of the last line read key by key: segment k (k < count) is the bytes from the end of
 * value k - 1 (the line's start for k = 0) to the start of value k, which names `fields[k]`;
 * segment `count` is the bytes from the end of the last value to the line's end.
 */
class Shape {
    count = 0;
    /** false: the line was too long or had too many keys to remember (the shape is not used). */
    ok = true;
    bytes = new Uint8Array(MAX_SHAPE_BYTES);
    view = new DataView(this.bytes.buffer);
    /** Segment k is bytes[starts[k], starts[k + 1]). */
    starts = new Int32Array(MAX_SHAPE_KEYS + 2);
    fields = new Int8Array(MAX_SHAPE_KEYS);
    /** Where the key's contents begin and end, from the segment's start (other keys: repeats). */
    keyBegin = new Int32Array(MAX_SHAPE_KEYS);
    keyEnd = new Int32Array(MAX_SHAPE_KEYS);
    /** Segment k at p (of a line ending at `end`, read through `v` at `base`): the position after
     * it, or -1. */
    match(v, base, p, end, k) {
        const s = this.starts[k] ?? 0;
        const n = (this.starts[k + 1] ?? 0) - s;
        return p + n <= end && sameBytes(v, base + p, this.view, s, n) ? p + n : -1;
    }
    /** The first k segments of `other`. */
    startFrom(other, k) {
        const used = other.starts[k] ?? 0;
        this.bytes.set(other.bytes.subarray(0, used));
        this.starts.set(other.starts.subarray(0, k + 1));
        this.fields.set(other.fields.subarray(0, k));
        this.keyBegin.set(other.keyBegin.subarray(0, k));
        this.keyEnd.set(other.keyEnd.subarray(0, k));
        this.count = k;
        // (k is 0 when `other` is not ok: nothing of it is kept.)
        this.ok = true;
    }
    /** Appends segment b[from, to) (the last one when `field` is undefined). */
    add(b, from, to, field, keyBegin = 0, keyEnd = 0) {
        if (!this.ok)
            return;
        const k = this.count;
        const used = this.starts[k] ?? 0;
        if (k >= MAX_SHAPE_KEYS || used + (to - from) > MAX_SHAPE_BYTES) {
            this.ok = false;
            return;
        }
        b.copy(this.bytes, used, from, to);
        this.starts[k + 1] = used + (to - from);
        if (field === undefined)
            return;
        this.fields[k] = field;
        this.keyBegin[k] = keyBegin;
        this.keyEnd[k] = keyEnd;
        this.count = k + 1;
    }
}
class RowScanner {
    packEvidence;
    /** Set by stringEnd: whether the string just scanned is all ASCII. */
    ascii = true;
    /** Set by the value readers: the string or count read. */
    text = "";
    num = 0;
    /** Per line: the fields given as null, and whether an attempt was given. */
    nulls = 0;
    attemptGiven = false;
    otherKeys = new Int32Array(2 * MAX_OTHER_KEYS);
    items = [];
    /** An evidence array's items as they stand in the line: begin and end (closing quote) of each. */
    spans = new Int32Array(2 * MAX_EVIDENCE_PER_TASK);
    /** Where a packed evidence list is put together (packEvidence), grown as needed. */
    packing = Buffer.alloc(2 * 1024);
    packingView = new DataView(this.packing.buffer, this.packing.byteOffset, this.packing.length);
    evidenceArrays = Array.from({ length: REUSED_EVIDENCE_LENGTHS + 1 }, (_, n) => new Array(n).fill(""));
    dataset = new RepeatCache();
    harness = new RepeatCache();
    model = new RepeatCache();
    cluster = new RepeatCache();
    repeats = new StringTable(REPEAT_SLOTS);
    shape = new Shape();
    /** A view of the line's buffer (b.buffer: b starts at `base` in it), kept while it is the same. */
    view = new DataView(new ArrayBuffer(0));
    viewOf;
    /** The buffer `view` and `base` were last set for. */
    viewed;
    base = 0;
    nextShape = new Shape();
    /**
     * With `packEvidence`, an evidence array of 2 to MAX_EVIDENCE_PER_TASK distinct, non-empty ASCII
     * items comes as `packedEvidence`, one string (see ExportRow), instead of a string an item: the
     * builder keeps a task's list packed, and a task-heavy export's rows each made three strings
     * where one does (the items and their join; ~4–5% of the many-tasks preset's wall time). Only a reader
     * that knows packedEvidence may ask for it.
     */
    constructor(packEvidence = false) {
        this.packEvidence = packEvidence;
    }
    /**
     * Scans the line `b[begin, end)` (valid UTF-8, no line end) into `out`. true: the row is valid
     * and `out` holds it (its evidence array is reused by later calls: copy what you keep);
     * false: parse the line with JSON.parse instead (`out` is then in an unspecified state).
     */
    scan(b, begin, end, out) {
        out.result = -1;
        out.passes = 0;
        out.fails = 0;
        out.infraErrors = 0;
        out.missing = 0;
        out.evidence = undefined;
        out.packedEvidence = undefined;
        out.packedItems = 0;
        out.attempt = undefined;
        out.cluster = undefined;
        this.nulls = 0;
        this.attemptGiven = false;
        if (b !== this.viewed) {
            this.viewed = b;
            this.base = b.byteOffset;
            if (b.buffer !== this.viewOf) {
                this.viewOf = b.buffer;
                this.view = new DataView(b.buffer);
            }
        }
        const view = this.view;
        const base = this.base;
        let seen = 0;
        let others = 0;
        let p = begin;
        // The keys of the shape, as long as they match.
        const shape = this.shape;
        const count = shape.ok ? shape.count : 0;
        let k = 0;
        for (; k < count; k++) {
            const q = shape.match(view, base, p, end, k);
            if (q < 0)
                break;
            const field = shape.fields[k] ?? F_OTHER;
            if (field === F_OTHER) {
                this.otherKeys[2 * others] = p + (shape.keyBegin[k] ?? 0);
                this.otherKeys[2 * others + 1] = p + (shape.keyEnd[k] ?? 0);
                others++;
            }
            else {
                seen |= 1 << field;
            }
            p = this.value(b, q, end, field, out);
            if (p < 0)
                return false;
        }
        if (k === count && count > 0 && shape.match(view, base, p, end, k) === end)
            return this.complete(seen, out);
        // Key by key from there (the line's start, or the end of a value), recording the line's shape.
        const next = this.nextShape;
        next.startFrom(shape, k);
        let from;
        for (;; k++) {
            from = p;
            if (k === 0) {
                p = skipSpace(b, p, end);
                if (b[p] !== LBRACE || p >= end)
                    return false;
                p = skipSpace(b, p + 1, end);
                if (p >= end || b[p] === RBRACE)
                    return false; // {} lacks every field
            }
            else {
                p = skipSpace(b, p, end);
                if (p >= end)
                    return false;
                const c = b[p];
                if (c === RBRACE)
                    break;
                if (c !== COMMA)
                    return false;
                p = skipSpace(b, p + 1, end);
            }
            // A key.
            if (p >= end || b[p] !== QUOTE)
                return false;
            const keyBegin = p + 1;
            const keyEnd = this.stringEnd(b, keyBegin, end);
            if (keyEnd < 0)
                return false;
            const field = keyId(b, keyBegin, keyEnd);
            if (field === F_OTHER) {
                if (!this.newOtherKey(b, keyBegin, keyEnd, others))
                    return false;
                others++;
            }
            else {
                const bit = 1 << field;
                if ((seen & bit) !== 0)
                    return false;
                seen |= bit;
            }
            p = skipSpace(b, keyEnd + 1, end);
            if (p >= end || b[p] !== COLON)
                return false;
            p = skipSpace(b, p + 1, end);
            next.add(b, from, p, field, keyBegin - from, keyEnd - from);
            // Its value.
            p = this.value(b, p, end, field, out);
            if (p < 0)
                return false;
        }
        // Only spaces after the object.
        for (let q = p + 1; q < end; q++)
            if (!isSpace(b[q] ?? 0))
                return false;
        if (!this.complete(seen, out))
            return false;
        next.add(b, from, end);
        if (next.ok) {
            this.nextShape = shape;
            this.shape = next;
        }
        return true;
    }
    /** The checks of a whole row once its fields are read: `seen` has a bit per key given. */
    complete(seen, out) {
        const given = seen & ~this.nulls;
        if ((given & REQUIRED) !== REQUIRED)
            return false;
        const counts = given & COUNTS;
        if ((given & (1 << F_RESULT)) !== 0)
            return counts === 0;
        // Pre-aggregated: all four counts, at least one above 0, and no attempt.
        if (counts !== COUNTS || this.attemptGiven)
            return false;
        if (out.passes === 0 && out.fails === 0 && out.infraErrors === 0 && out.missing === 0)
            return false;
        out.result = -1;
        return true;
    }
    /**
     * The string whose contents start at `begin`: returns the index of its closing quote, or -1 to
     * give up (no closing quote, or a byte left to JSON.parse: see the file's comment). Sets
     * `ascii`.
     */
    stringEnd(b, begin, end) {
        const v = this.view;
        const base = this.base;
        let ascii = true;
        let p = begin;
        for (;;) {
            // Four bytes at a time while none of them is special (see plainWord), then the four bytes
            // that hold one (or the last ones) byte by byte.
            while (p + 4 <= end && plainWord(v.getInt32(base + p, true)))
                p += 4;
            const stop = p + 4 < end ? p + 4 : end;
            for (; p < stop; p++) {
                const k = BYTE_CLASS[b[p] ?? 0] ?? BYTE_OTHER;
                if (k === BYTE_PLAIN)
                    continue;
                if (k === BYTE_QUOTE) {
                    this.ascii = ascii;
                    return p;
                }
                if (k === BYTE_OTHER)
                    return -1;
                ascii = false;
            }
            if (p >= end)
                return -1;
        }
    }
    /** A key the gate ignores: false when the line already had it (or too many such keys). */
    newOtherKey(b, begin, end, count) {
        if (count >= MAX_OTHER_KEYS)
            return false;
        const keys = this.otherKeys;
        const n = end - begin;
        for (let k = 0; k < count; k++) {
            const at = keys[2 * k] ?? 0;
            if ((keys[2 * k + 1] ?? 0) - at !== n)
                continue;
            let i = 0;
            while (i < n && b[at + i] === b[begin + i])
                i++;
            if (i === n)
                return false;
        }
        keys[2 * count] = begin;
        keys[2 * count + 1] = end;
        return true;
    }
    /** The value of `field` at `p`, into `out`: the position after it, or -1 to give up. */
    value(b, p, end, field, out) {
        if (p >= end)
            return -1;
        const c = b[p] ?? 0;
        if (field === F_OTHER) {
            // A value of a field the gate ignores: a string, number or literal (objects and arrays: no).
            if (c === QUOTE) {
                const close = this.stringEnd(b, p + 1, end);
                return close < 0 ? -1 : close + 1;
            }
            if (c === 0x74)
                return literal(b, p, end, TRUE);
            if (c === 0x66)
                return literal(b, p, end, FALSE);
            if (c === 0x6e)
                return literal(b, p, end, NULL);
            return number(b, p, end);
        }
        if (c === 0x6e) {
            // null: the same as absent for an optional field, an error for a required one.
            const q = literal(b, p, end, NULL);
            if (q >= 0)
                this.nulls |= 1 << field;
            return q;
        }
        switch (field) {
            case F_TASK: {
                const q = this.id(b, p, end, MAX_ID_LENGTH, false);
                if (q >= 0)
                    out.taskId = this.text;
                return q;
            }
            case F_DATASET: {
                const q = this.repeated(b, p, end, this.dataset);
                if (q >= 0)
                    out.datasetRevision = this.text;
                return q;
            }
            case F_HARNESS: {
                const q = this.repeated(b, p, end, this.harness);
                if (q >= 0)
                    out.harnessRevision = this.text;
                return q;
            }
            case F_MODEL: {
                const q = this.repeated(b, p, end, this.model);
                if (q >= 0)
                    out.modelConfig = this.text;
                return q;
            }
            case F_CLUSTER: {
                const q = this.repeated(b, p, end, this.cluster);
                if (q >= 0)
                    out.cluster = this.text;
                return q;
            }
            case F_VALIDITY: {
                const w = wordAt(b, p, end, VALIDITY_WORDS);
                const validity = scan_row_VALIDITIES[w];
                if (validity === undefined)
                    return -1;
                out.validity = validity;
                return p + 2 + (VALIDITY_WORDS[w]?.length ?? 0);
            }
            case F_RESULT: {
                const r = wordAt(b, p, end, RESULT_WORDS);
                if (r < 0)
                    return -1;
                out.result = r;
                return p + 2 + (RESULT_WORDS[r]?.length ?? 0);
            }
            case F_REVIEW_REVISION: {
                const q = this.count(b, p, end);
                if (q >= 0)
                    out.reviewRevision = this.num;
                return q;
            }
            case F_PASSES:
            case F_FAILS:
            case F_INFRA_ERRORS:
            case F_MISSING: {
                const q = this.count(b, p, end);
                if (q < 0)
                    return -1;
                const v = this.num;
                if (field === F_PASSES)
                    out.passes = v;
                else if (field === F_FAILS)
                    out.fails = v;
                else if (field === F_INFRA_ERRORS)
                    out.infraErrors = v;
                else
                    out.missing = v;
                return q;
            }
            case F_ATTEMPT: {
                const q = c === QUOTE ? this.id(b, p, end, MAX_ID_LENGTH, false) : this.count(b, p, end);
                if (q < 0)
                    return -1;
                out.attempt = c === QUOTE ? this.text : this.num;
                this.attemptGiven = true;
                return q;
            }
            case F_EVIDENCE:
                return this.evidence(b, p, end, c, out);
            default:
                return -1;
        }
    }
    /** An integer >= 0 of at most 15 digits (always safe) at `p`, into `num`: the position after
     * it, or -1 to give up. */
    count(b, p, end) {
        const start = p;
        const first = b[p] ?? 0;
        let v = 0;
        if (first === ZERO) {
            p++;
        }
        else if (first > ZERO && first <= NINE) {
            while (p < end) {
                const d = b[p] ?? 0;
                if (!isDigit(d))
                    break;
                v = v * 10 + (d - ZERO);
                p++;
            }
            if (p - start > 15)
                return -1;
        }
        else {
            return -1;
        }
        // A fraction or an exponent may still make an integer (1.0, 1e2): JSON.parse decides.
        const after = p < end ? b[p] : -1;
        if (after === 0x2e || after === 0x65 || after === 0x45)
            return -1;
        this.num = v;
        return p;
    }
    /**
     * An identifier's string at `p`, into `text`: non-empty (unless `allowEmpty`), at most
     * `maxLength` UTF-16 code units, no control character (stringEnd refuses C0, DEL and C1
     * bytes). Returns the position after its closing quote, or -1.
     */
    id(b, p, end, maxLength, allowEmpty) {
        if (b[p] !== QUOTE)
            return -1;
        const begin = p + 1;
        const close = this.stringEnd(b, begin, end);
        if (close < 0 || (close === begin && !allowEmpty))
            return -1;
        const n = close - begin;
        if (this.ascii) {
            if (n > maxLength)
                return -1;
            this.text = slice(b, begin, close, true);
            return close + 1;
        }
        // UTF-8 never takes fewer bytes than UTF-16 code units: only a long one needs its length.
        const s = slice(b, begin, close, false);
        if (s.length > maxLength)
            return -1;
        this.text = s;
        return close + 1;
    }
    /** A field that repeats in runs (see RepeatCache), into `text`; as `id`. */
    repeated(b, p, end, cache) {
        if (b[p] !== QUOTE)
            return -1;
        const begin = p + 1;
        const n0 = cache.length;
        const close = begin + n0;
        if (n0 > 0 && close < end && b[close] === QUOTE) {
            // The same bytes as a value already read: the same valid id.
            const at = this.base + begin;
            const v = cache.slot >= 0
                ? this.repeats.at(cache.slot, this.view, at, n0)
                : sameBytes(this.view, at, cache.view, 0, n0)
                    ? cache.value
                    : undefined;
            if (v !== undefined) {
                this.text = v;
                return close + 1;
            }
        }
        const q = this.stringEnd(b, begin, end);
        if (q <= begin)
            return -1;
        const ascii = this.ascii;
        const n = q - begin;
        if (n > MAX_ID_LENGTH && (ascii || slice(b, begin, q, false).length > MAX_ID_LENGTH))
            return -1;
        const short = n <= SLOT_BYTES;
        const v = short
            ? this.repeats.get(b, this.view, this.base + begin, begin, q, ascii)
            : slice(b, begin, q, ascii);
        cache.set(b, begin, q, v, short ? this.repeats.slot : -1);
        this.text = v;
        return q + 1;
    }
    /** `evidence` at `p` (first byte `c`): a string or an array of strings, into `out`. */
    evidence(b, p, end, c, out) {
        if (c === QUOTE) {
            const q = this.id(b, p, end, MAX_EVIDENCE_LENGTH, true);
            if (q >= 0)
                out.evidence = this.text;
            return q;
        }
        if (c !== LBRACKET)
            return -1;
        p = skipSpace(b, p + 1, end);
        if (p >= end)
            return -1;
        const items = this.items;
        let n = 0;
        // Whether the items so far may be packed: ASCII, non-empty, and within the cap. An ASCII
        // item's string is made only once it is known the list is not packed (spans say where).
        let packable = this.packEvidence;
        if (b[p] === RBRACKET) {
            p++;
        }
        else {
            for (;;) {
                // (What id() checks of an item, with its string left for later when ASCII.)
                if (b[p] !== QUOTE)
                    return -1;
                const begin = p + 1;
                const close = this.stringEnd(b, begin, end);
                if (close < 0)
                    return -1;
                if (this.ascii) {
                    if (close - begin > MAX_EVIDENCE_LENGTH)
                        return -1;
                    if (close === begin)
                        packable = false;
                    if (n < MAX_EVIDENCE_PER_TASK) {
                        this.spans[2 * n] = begin;
                        this.spans[2 * n + 1] = close;
                    }
                    else {
                        packable = false;
                    }
                    items[n++] = packable ? "" : slice(b, begin, close, true);
                }
                else {
                    const s = slice(b, begin, close, false);
                    if (s.length > MAX_EVIDENCE_LENGTH)
                        return -1;
                    packable = false;
                    items[n++] = s;
                }
                p = skipSpace(b, close + 1, end);
                if (p >= end)
                    return -1;
                const next = b[p];
                p++;
                if (next === RBRACKET)
                    break;
                if (next !== COMMA)
                    return -1;
                p = skipSpace(b, p, end);
                if (p >= end)
                    return -1;
            }
        }
        if (packable && n >= 2 && this.distinctSpans(n)) {
            out.packedEvidence = this.packSpans(n);
            out.packedItems = n;
            return p;
        }
        if (this.packEvidence)
            this.unpackSpans(b, n);
        // An array of exactly n items, reused for that length (no array per row).
        let list = this.evidenceArrays[n];
        if (list === undefined) {
            list = items.slice(0, n);
        }
        else {
            for (let i = 0; i < n; i++)
                list[i] = items[i] ?? "";
        }
        out.evidence = list;
        return p;
    }
    /**
     * Makes the strings of the ASCII items left for later (evidence): each stands as "" in items
     * with its span non-empty (an item made at once is non-empty, or empty in the line too).
     */
    unpackSpans(b, n) {
        const items = this.items;
        const spans = this.spans;
        for (let k = 0; k < n && k < MAX_EVIDENCE_PER_TASK; k++) {
            if (items[k] === "") {
                const begin = spans[2 * k] ?? 0;
                const close = spans[2 * k + 1] ?? 0;
                if (close > begin)
                    items[k] = slice(b, begin, close, true);
            }
        }
    }
    /** Whether the n items of spans are pairwise different (compared by their bytes). */
    distinctSpans(n) {
        const spans = this.spans;
        const v = this.view;
        const base = this.base;
        for (let k = 1; k < n; k++) {
            const bk = spans[2 * k] ?? 0;
            const lk = (spans[2 * k + 1] ?? 0) - bk;
            for (let j = 0; j < k; j++) {
                const bj = spans[2 * j] ?? 0;
                if ((spans[2 * j + 1] ?? 0) - bj === lk && sameBytes(v, base + bk, v, base + bj, lk))
                    return false;
            }
        }
        return true;
    }
    /** The n items of spans joined by the packed list's separator, as one string. */
    packSpans(n) {
        const spans = this.spans;
        let size = n - 1;
        for (let k = 0; k < n; k++)
            size += (spans[2 * k + 1] ?? 0) - (spans[2 * k] ?? 0);
        // (+3: the words copied below may write up to 3 bytes past the last item.)
        if (size + 3 > this.packing.length) {
            this.packing = Buffer.alloc(Math.max(size + 3, 2 * this.packing.length));
            this.packingView = new DataView(this.packing.buffer, this.packing.byteOffset, this.packing.length);
        }
        const out = this.packing;
        const ov = this.packingView;
        const v = this.view;
        const base = this.base;
        let w = 0;
        for (let k = 0; k < n; k++) {
            if (k > 0)
                out[w++] = SEPARATOR_CODE;
            const begin = spans[2 * k] ?? 0;
            const length = (spans[2 * k + 1] ?? 0) - begin;
            // Four bytes at a time (the last word may take up to 3 bytes after the item: the line
            // goes on with its closing quote at least, and the next item or separator overwrites them).
            for (let j = 0; j < length; j += 4)
                ov.setInt32(w + j, v.getInt32(base + begin + j, true), true);
            w += length;
        }
        return slice(out, 0, w, true);
    }
}

;// CONCATENATED MODULE: ./src/core/input/row-codec.ts
/**
 * How a parse worker hands checked export rows back to the main thread (see parse-pool.ts).
 *
 * Posting parsed objects between threads would cost as much as parsing them again, so a batch of
 * lines comes back as numbers plus strings: one fixed-size record of a Float64Array per line, and
 * every string of a record as a reference. The ids, revisions, clusters and evidence that repeat
 * from row to row are interned in a table that both sides keep (the worker sends each new entry
 * once, in the batch that first uses it); anything else (attempt ids, messages, strings past the
 * table's cap) goes in the batch's own list. The main thread then gets the same string object
 * for every row of a task, which also makes its Map lookups and comparisons cheap.
 *
 * Every number of a row is a safe integer (checked by checkExportRow), so a Float64Array holds it
 * exactly; -0 survives too.
 */




/** Record fields, by offset. A problem record uses only TAG, FIELD and MESSAGE. */
const TAG = 0;
const TASK = 1;
const DATASET = 2;
const HARNESS = 3;
const MODEL = 4;
const VALIDITY = 5;
const REVIEW_REVISION = 6;
const RESULT = 7;
const PASSES = 8;
const FAILS = 9;
const INFRA_ERRORS = 10;
const MISSING = 11;
const ATTEMPT_KIND = 12;
const ATTEMPT = 13;
const CLUSTER = 14;
/** Evidence: -1 for none, else how many references follow in the batch's evidence list. */
const EVIDENCE_COUNT = 15;
const EVIDENCE_START = 16;
const RECORD_SIZE = 17;
const FIELD = 1;
const MESSAGE = 2;
const TAG_ROW = 0;
const TAG_PROBLEM = 1;
const ATTEMPT_NONE = 0;
const ATTEMPT_NUMBER = 1;
const ATTEMPT_STRING = 2;
/** An absent optional string. References are table ids (>= 0) or -(batch index + 1). */
const NO_STRING = Number.NaN;
/**
 * Characters the interning table may hold on each side; past it, strings travel in their batch.
 * Bounds the memory of both copies of the table (~2 bytes a character each).
 */
const INTERN_MAX_CHARS = 4 * 1024 * 1024;
/** A slot for `lines` lines of `bytes` bytes in all. */
function newSlot(bytes, lines) {
    return {
        data: new SharedArrayBuffer(bytes),
        offsets: new SharedArrayBuffer(2 * lines * Int32Array.BYTES_PER_ELEMENT),
        flags: new SharedArrayBuffer(lines),
    };
}
/** ASCII lines are decoded in pieces of about this many bytes (see batchLines). */
const PIECE_BYTES = 32 * 1024;
/**
 * The lines of a batch as text, for i = 0, 1, … in order. Workers import this module: it must not
 * pull in the reader's streams, zlib and crypto.
 *
 * Runs of ASCII lines are decoded as latin1 (the same text for ASCII) in pieces of about
 * PIECE_BYTES and cut, instead of one native call per line; pieces stay small because a much
 * larger string is allocated outside V8's regular pages (a map and an unmap each time). Other
 * lines are decoded one by one.
 */
function batchLines(batch) {
    const n = batch.lines;
    const offsets = new Int32Array(batch.offsets, 0, 2 * n);
    const flags = new Uint8Array(batch.flags, 0, n);
    const bytes = Buffer.from(batch.data);
    let piece = "";
    let pieceStart = 0;
    let pieceEnd = -1;
    return (i) => {
        const begin = offsets[2 * i] ?? 0;
        const end = offsets[2 * i + 1] ?? 0;
        if (((flags[i] ?? 0) & LINE_ASCII) === 0)
            return bytes.toString("utf8", begin, end);
        if (begin < pieceStart || end > pieceEnd) {
            let stop = end;
            for (let k = i + 1; k < n; k++) {
                const next = offsets[2 * k + 1] ?? 0;
                if (next - begin > PIECE_BYTES || ((flags[k] ?? 0) & LINE_ASCII) === 0)
                    break;
                stop = next;
            }
            piece = bytes.toString("latin1", begin, stop);
            pieceStart = begin;
            pieceEnd = stop;
        }
        return piece.slice(begin - pieceStart, end - pieceStart);
    };
}
function isLineBatch(m) {
    if (typeof m !== "object" || m === null)
        return false;
    const b = m;
    return (typeof b.seq === "number" &&
        typeof b.lines === "number" &&
        b.data instanceof SharedArrayBuffer &&
        b.offsets instanceof SharedArrayBuffer &&
        b.flags instanceof SharedArrayBuffer &&
        b.offsets.byteLength >= 8 * b.lines &&
        b.flags.byteLength >= b.lines &&
        Array.isArray(b.spare) &&
        b.spare.every((x) => x instanceof ArrayBuffer));
}
function isEncodedBatch(m) {
    if (typeof m !== "object" || m === null)
        return false;
    const b = m;
    return (typeof b.seq === "number" &&
        Array.isArray(b.interned) &&
        Array.isArray(b.local) &&
        b.records instanceof Float64Array &&
        b.evidence instanceof Float64Array);
}
/** Spare answer buffers a worker keeps (two per batch in flight are enough). */
const MAX_FREE_BUFFERS = 16;
/** Evidence items remembered per task, by position. */
const CACHED_EVIDENCE_ITEMS = 4;
/** The worker side: parses and checks lines exactly as DatasetBuilder.addResultLine does. */
class BatchEncoder {
    table = new Map();
    tasks = new Map();
    tableChars = 0;
    free = [];
    issues = new LineIssues();
    row = rows_emptyExportRow();
    scanner = new RowScanner();
    // Per batch:
    interned = [];
    local = [];
    localIndex = new Map();
    evidence = [];
    // The last value of the fields that come in runs, and its reference.
    lastDataset = "";
    lastDatasetRef = NO_STRING;
    lastHarness = "";
    lastHarnessRef = NO_STRING;
    lastModel = "";
    lastModelRef = NO_STRING;
    encode(batch) {
        this.interned = [];
        this.local = [];
        this.localIndex = new Map();
        this.evidence = [];
        // A cached reference may be a batch reference, valid in its own batch only.
        this.lastDatasetRef = NO_STRING;
        this.lastHarnessRef = NO_STRING;
        this.lastModelRef = NO_STRING;
        for (const buffer of batch.spare)
            if (this.free.length < MAX_FREE_BUFFERS)
                this.free.push(buffer);
        const n = batch.lines;
        const flags = new Uint8Array(batch.flags, 0, n);
        const line = batchLines(batch);
        const records = this.take(n * RECORD_SIZE);
        const issues = this.issues;
        const row = this.row;
        const data = Buffer.from(batch.data);
        const offsets = new Int32Array(batch.offsets, 0, 2 * n);
        for (let i = 0; i < n; i++) {
            const at = i * RECORD_SIZE;
            // The common row shape by the byte scanner, anything else as DatasetBuilder.addResultLine.
            if (this.scanner.scan(data, offsets[2 * i] ?? 0, offsets[2 * i + 1] ?? 0, row)) {
                this.encodeRow(records, at);
                continue;
            }
            issues.reset();
            const obj = parseObject(line(i), issues);
            if (obj === undefined || !checkExportRow(obj, row, issues, ((flags[i] ?? 0) & LINE_PLAIN) !== 0)) {
                records[at + TAG] = TAG_PROBLEM;
                records[at + FIELD] = issues.field === undefined ? NO_STRING : this.localRef(issues.field);
                records[at + MESSAGE] = this.localRef(issues.text());
                continue;
            }
            this.encodeRow(records, at);
        }
        // The table is never reset: the main thread's copy stays in step because it decodes one
        // worker's batches in the order they were encoded (see parse-pool.ts).
        return {
            seq: batch.seq,
            interned: this.interned,
            local: this.local,
            records,
            evidence: this.evidenceRecords(),
        };
    }
    evidenceRecords() {
        const refs = this.evidence;
        const out = this.take(refs.length);
        for (let k = 0; k < refs.length; k++)
            out[k] = refs[k] ?? 0;
        return out;
    }
    /** A Float64Array of `length` over a spare buffer when one is large enough. */
    take(length) {
        const bytes = length * Float64Array.BYTES_PER_ELEMENT;
        const i = this.free.findIndex((b) => b.byteLength >= bytes);
        if (i < 0)
            return new Float64Array(length);
        const [buffer] = this.free.splice(i, 1);
        return buffer === undefined ? new Float64Array(length) : new Float64Array(buffer, 0, length);
    }
    encodeRow(records, at) {
        const row = this.row;
        records[at + TAG] = TAG_ROW;
        const task = this.taskCache(row.taskId);
        records[at + TASK] = task === undefined ? this.ref(row.taskId) : task.ref;
        if (row.datasetRevision !== this.lastDataset || Number.isNaN(this.lastDatasetRef)) {
            this.lastDataset = row.datasetRevision;
            this.lastDatasetRef = this.ref(row.datasetRevision);
        }
        records[at + DATASET] = this.lastDatasetRef;
        if (row.harnessRevision !== this.lastHarness || Number.isNaN(this.lastHarnessRef)) {
            this.lastHarness = row.harnessRevision;
            this.lastHarnessRef = this.ref(row.harnessRevision);
        }
        records[at + HARNESS] = this.lastHarnessRef;
        if (row.modelConfig !== this.lastModel || Number.isNaN(this.lastModelRef)) {
            this.lastModel = row.modelConfig;
            this.lastModelRef = this.ref(row.modelConfig);
        }
        records[at + MODEL] = this.lastModelRef;
        records[at + VALIDITY] = model_VALIDITIES.indexOf(row.validity);
        records[at + REVIEW_REVISION] = row.reviewRevision;
        records[at + RESULT] = row.result;
        records[at + PASSES] = row.passes;
        records[at + FAILS] = row.fails;
        records[at + INFRA_ERRORS] = row.infraErrors;
        records[at + MISSING] = row.missing;
        const attempt = row.attempt;
        if (attempt === undefined) {
            records[at + ATTEMPT_KIND] = ATTEMPT_NONE;
        }
        else if (typeof attempt === "number") {
            records[at + ATTEMPT_KIND] = ATTEMPT_NUMBER;
            records[at + ATTEMPT] = attempt;
        }
        else {
            records[at + ATTEMPT_KIND] = ATTEMPT_STRING;
            records[at + ATTEMPT] = this.localRef(attempt);
        }
        const cluster = row.cluster;
        if (cluster === undefined) {
            records[at + CLUSTER] = NO_STRING;
        }
        else if (task !== undefined && cluster === task.cluster) {
            records[at + CLUSTER] = task.clusterRef;
        }
        else {
            const ref = this.ref(cluster);
            records[at + CLUSTER] = ref;
            if (task !== undefined && ref >= 0) {
                task.cluster = cluster;
                task.clusterRef = ref;
            }
        }
        const evidence = row.evidence;
        if (evidence === undefined) {
            records[at + EVIDENCE_COUNT] = -1;
        }
        else if (typeof evidence === "string") {
            records[at + EVIDENCE_COUNT] = 1;
            records[at + EVIDENCE_START] = this.evidence.length;
            this.evidence.push(this.evidenceRef(task, 0, evidence));
        }
        else {
            records[at + EVIDENCE_COUNT] = evidence.length;
            records[at + EVIDENCE_START] = this.evidence.length;
            for (let k = 0; k < evidence.length; k++) {
                this.evidence.push(this.evidenceRef(task, k, evidence[k] ?? ""));
            }
        }
    }
    /**
     * The cache entry of a task id, made when the id is interned. Rows of a task usually repeat its
     * cluster and evidence: comparing with the last ones is much cheaper than hashing them again
     * (hashing ~100-character strings was a quarter of a worker's time).
     */
    taskCache(taskId) {
        const known = this.tasks.get(taskId);
        if (known !== undefined)
            return known;
        const ref = this.ref(taskId);
        if (ref < 0)
            return undefined;
        const entry = {
            ref,
            cluster: undefined,
            clusterRef: NO_STRING,
            evidence: [],
            evidenceRefs: [],
        };
        this.tasks.set(taskId, entry);
        return entry;
    }
    /** The reference of evidence item `k` of a row of `task`, through the task's cache. */
    evidenceRef(task, k, item) {
        if (task !== undefined && k < task.evidence.length && item === task.evidence[k]) {
            return task.evidenceRefs[k] ?? this.ref(item);
        }
        const ref = this.ref(item);
        if (task !== undefined && ref >= 0 && k < CACHED_EVIDENCE_ITEMS && k <= task.evidence.length) {
            task.evidence[k] = item;
            task.evidenceRefs[k] = ref;
        }
        return ref;
    }
    /** A table reference, interning `s` while the table has room; else a batch reference. */
    ref(s) {
        const id = this.table.get(s);
        if (id !== undefined)
            return id;
        if (this.tableChars + s.length > INTERN_MAX_CHARS)
            return this.localRef(s);
        const next = this.table.size;
        this.table.set(s, next);
        this.tableChars += s.length;
        this.interned.push(s);
        return next;
    }
    localRef(s) {
        let i = this.localIndex.get(s);
        if (i === undefined) {
            i = this.local.length;
            this.local.push(s);
            this.localIndex.set(s, i);
        }
        return -(i + 1);
    }
}
/** The main-thread side of one worker: its copy of the interning table. */
class BatchDecoder {
    table = [];
    row = emptyExportRow();
    /** The evidence of the current row; ExportRow users copy the items, never keep the array. */
    evidence = [];
    /** Calls `sink` for each line of the batch, in order (index = the line's position in the batch). */
    decode(batch, sink) {
        for (const s of batch.interned)
            this.table.push(s);
        const { records, local } = batch;
        const str = (ref) => (ref >= 0 ? this.table[ref] : local[-ref - 1]) ?? "";
        const row = this.row;
        const n = records.length / RECORD_SIZE;
        for (let i = 0; i < n; i++) {
            const at = i * RECORD_SIZE;
            if (records[at + TAG] === TAG_PROBLEM) {
                const field = records[at + FIELD] ?? NO_STRING;
                sink.problem(Number.isNaN(field) ? undefined : str(field), str(records[at + MESSAGE] ?? 0), i);
                continue;
            }
            row.taskId = str(records[at + TASK] ?? 0);
            row.datasetRevision = str(records[at + DATASET] ?? 0);
            row.harnessRevision = str(records[at + HARNESS] ?? 0);
            row.modelConfig = str(records[at + MODEL] ?? 0);
            row.validity = validityAt(records[at + VALIDITY] ?? 0);
            row.reviewRevision = records[at + REVIEW_REVISION] ?? 0;
            row.result = records[at + RESULT] ?? -1;
            row.passes = records[at + PASSES] ?? 0;
            row.fails = records[at + FAILS] ?? 0;
            row.infraErrors = records[at + INFRA_ERRORS] ?? 0;
            row.missing = records[at + MISSING] ?? 0;
            const attemptKind = records[at + ATTEMPT_KIND];
            const attempt = records[at + ATTEMPT] ?? 0;
            row.attempt =
                attemptKind === ATTEMPT_NUMBER ? attempt : attemptKind === ATTEMPT_STRING ? str(attempt) : undefined;
            const cluster = records[at + CLUSTER] ?? NO_STRING;
            row.cluster = Number.isNaN(cluster) ? undefined : str(cluster);
            const count = records[at + EVIDENCE_COUNT] ?? -1;
            if (count < 0) {
                row.evidence = undefined;
            }
            else {
                const start = records[at + EVIDENCE_START] ?? 0;
                const items = this.evidence;
                items.length = count;
                for (let k = 0; k < count; k++)
                    items[k] = str(batch.evidence[start + k] ?? 0);
                row.evidence = items;
            }
            sink.row(row, i);
        }
    }
}
function validityAt(i) {
    return VALIDITIES[i] ?? "unreviewed";
}

;// CONCATENATED MODULE: ./src/parse-worker.ts
// Parse worker entry point (bundled to dist/parse-worker.js): parses and checks batches of
// results lines for src/core/input/parse-pool.ts and answers each with its encoding.


const port = external_node_worker_threads_namespaceObject.parentPort;
if (port === null) {
    process.stderr.write("parse-worker.js is started by the gate as a worker thread, not run directly\n");
    process.exitCode = 3;
}
else {
    const encoder = new BatchEncoder();
    port.on("message", (m) => {
        // Not from the pool: a bug. Failing makes the pool parse on the main thread instead.
        if (!isLineBatch(m))
            throw new Error("parse worker: unexpected message");
        const answer = encoder.encode(m);
        port.postMessage(answer, [answer.records.buffer, answer.evidence.buffer]);
    });
}


//# sourceMappingURL=parse-worker.js.map
