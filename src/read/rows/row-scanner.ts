/**
 * A byte scanner for the common shape of an export row: it reads the fields the gate
 * needs straight from the line's UTF-8 bytes, without building the object JSON.parse builds
 * (which was most of the reader's time), and accepts a line only when it is sure of it.
 *
 * `scan` returns true only for a line that is valid JSON, a flat object whose keys are all
 * distinct, and a row checkExportRow accepts; then `out` holds exactly what checkExportRow would
 * put there. For any other line it returns false and the caller takes the JSON.parse path
 * (row-checks.ts), which finds and words every problem: so both paths have the same checks and the same
 * messages by construction, and the scanner only has to be right about what it accepts
 * (test/read/rows/row-scanner.test.ts compares both on fuzzed lines).
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
 *   made. (A table for task ids and evidence items too cost more than the strings it saved.)
 * - Bytes are compared, and strings searched for their closing quote, four at a time (DataView
 *   reads, which the JIT inlines; a native Buffer.compare costs more a call than the few dozen
 *   bytes of a field, and indexOf would still leave every byte to check for control bytes).
 * It allocates nothing for a row but the strings it hands out (task id, evidence items or, for the
 * builder, one packed evidence list: see the constructor; attempt and repeating values when new).
 */

import { MAX_EVIDENCE_LENGTH, MAX_EVIDENCE_PER_TASK, MAX_ID_LENGTH, MAX_METRICS } from "../limits.js";
import { MetricScanner } from "./metric-scanner.js";
import { distinctSpans, ListMatcher, SpanPacker } from "./evidence-spans.js";
import type { EvidenceArena, ListHandle } from "./evidence-arena.js";
import type { ExportRow } from "./row-checks.js";
import {
  F_TASK,
  F_DATASET,
  F_HARNESS,
  F_MODEL,
  F_VALIDITY,
  F_RESULT,
  F_REVIEW_REVISION,
  F_ATTEMPT,
  F_EVIDENCE,
  F_CLUSTER,
  F_PASSES,
  F_FAILS,
  F_INFRA_ERRORS,
  F_MISSING,
  F_BENCHMARK,
  F_METRICS,
  F_METRICS_SUM,
  F_METRICS_N,
  F_OTHER,
  REQUIRED,
  COUNTS,
  METRIC_SUMS,
  MAX_OTHER_KEYS,
  SLOT_BYTES,
  REPEAT_SLOTS,
  REUSED_EVIDENCE_LENGTHS,
  QUOTE,
  COLON,
  COMMA,
  LBRACE,
  RBRACE,
  LBRACKET,
  RBRACKET,
  ZERO,
  NINE,
  BYTE_PLAIN,
  BYTE_QUOTE,
  BYTE_OTHER,
  BYTE_CLASS,
  VALIDITIES,
  VALIDITY_WORDS,
  RESULT_WORDS,
  TRUE,
  FALSE,
  NULL,
  isSpace,
  isDigit,
  skipSpace,
  literal,
  number,
  keyId,
  sameBytes,
  plainWord,
  slice,
  sameChars,
  knownStringEnd,
  RepeatCache,
  StringTable,
  Shape,
} from "./scanner-parts.js";

export class RowScanner {
  /** Set by stringEnd: whether the string just scanned is all ASCII. */
  private ascii = true;
  /** Set by the value readers: the string or count read. */
  private text = "";
  private num = 0;
  /** Per line: the fields given as null, and whether an attempt was given. */
  private nulls = 0;
  private attemptGiven = false;
  private readonly otherKeys = new Int32Array(2 * MAX_OTHER_KEYS);
  private readonly items: string[] = [];
  /** An evidence array's items as they stand in the line: begin and end (closing quote) of each. */
  private spans = new Int32Array(2 * MAX_EVIDENCE_PER_TASK);
  /** Puts a packed evidence list together (packEvidence). */
  private readonly packer = new SpanPacker();
  private readonly listMatcher = new ListMatcher();
  private readonly evidenceArrays: string[][] = Array.from({ length: REUSED_EVIDENCE_LENGTHS + 1 }, (_, n) =>
    new Array<string>(n).fill(""),
  );
  private readonly dataset = new RepeatCache();
  private readonly harness = new RepeatCache();
  private readonly model = new RepeatCache();
  private readonly cluster = new RepeatCache();
  private readonly benchmark = new RepeatCache();
  private readonly metrics = new MetricScanner();
  /** The entries of metrics_sum (read into the row's arrays) and of metrics_n (here). */
  private sumCount = 0;
  private nCount = 0;
  private readonly nNames: string[] = new Array<string>(MAX_METRICS).fill("");
  private readonly nValues = new Float64Array(MAX_METRICS);
  private readonly repeats = new StringTable(REPEAT_SLOTS);
  private shape = new Shape();
  /** A view of the line's buffer (b.buffer: b starts at `base` in it), kept while it is the same. */
  private view: DataView = new DataView(new ArrayBuffer(0));
  private viewOf: ArrayBufferLike | undefined;
  /** The buffer `view` and `base` were last set for. */
  private viewed: Buffer | undefined;
  private base = 0;
  private nextShape = new Shape();
  /** The caller's guess at the next line's strings (see expect); "" for none. */
  private expectedTask = "";
  private expectedList: string | ListHandle = "";
  private expectedItem = "";

  /**
   * With `packEvidence`, an evidence array of 2 to MAX_EVIDENCE_PER_TASK distinct, non-empty ASCII
   * items comes as `packedEvidence`, one string (see ExportRow), instead of a string an item: the
   * builder keeps a task's list packed, and a task-heavy export's rows would each make three
   * strings where one does (the items and their join). Only a reader that knows packedEvidence
   * may ask for it. With an `arena` as well, a list that is not the expected one is written there
   * on trial and comes as its handle (the reader keeps it or lets the next row's take its place).
   */
  constructor(
    private readonly packEvidence = false,
    /** Where a packed list is written instead of a string of its own, when given (evidence-arena.ts). */
    private readonly arena?: EvidenceArena,
  ) {}

  /**
   * Strings the next line probably holds, "" for none: its task_id, its evidence list packed (or
   * its handle in the arena) and one evidence item. The builder guesses them from the task after the
   * last row's (rows usually come task after task) and what it holds of that task. Where the
   * line's bytes are a guess's characters, the row gets that very string instead of a new one: no
   * string is made a row, and the builder's comparisons with what it holds find the same object
   * at once. The row is the same either way (the same characters); a wrong guess costs a
   * comparison that usually stops at the first bytes. Holds until the next call.
   */
  expect(task: string, list: string | ListHandle, item: string): void {
    this.expectedTask = task;
    this.expectedList = list;
    this.expectedItem = item;
  }

  /**
   * Scans the line `b[begin, end)` (valid UTF-8, no line end) into `out`. true: the row is valid
   * and `out` holds it (its evidence array is reused by later calls: copy what you keep);
   * false: parse the line with JSON.parse instead (`out` is then in an unspecified state).
   */
  scan(b: Buffer, begin: number, end: number, out: ExportRow): boolean {
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
    out.benchmark = undefined;
    out.metricCount = 0;
    this.sumCount = 0;
    this.nCount = 0;
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
      if (q < 0) break;
      const field = shape.fields[k] ?? F_OTHER;
      if (field === F_OTHER) {
        this.otherKeys[2 * others] = p + (shape.keyBegin[k] ?? 0);
        this.otherKeys[2 * others + 1] = p + (shape.keyEnd[k] ?? 0);
        others++;
      } else {
        seen |= 1 << field;
      }
      p = this.value(b, q, end, field, out);
      if (p < 0) return false;
    }
    if (k === count && count > 0 && shape.match(view, base, p, end, k) === end)
      return this.complete(seen, out);

    // Key by key from there (the line's start, or the end of a value), recording the line's shape.
    const next = this.nextShape;
    next.startFrom(shape, k);
    let from: number;
    for (; ; k++) {
      from = p;
      if (k === 0) {
        p = skipSpace(b, p, end);
        if (b[p] !== LBRACE || p >= end) return false;
        p = skipSpace(b, p + 1, end);
        if (p >= end || b[p] === RBRACE) return false; // {} lacks every field
      } else {
        p = skipSpace(b, p, end);
        if (p >= end) return false;
        const c = b[p];
        if (c === RBRACE) break;
        if (c !== COMMA) return false;
        p = skipSpace(b, p + 1, end);
      }
      // A key.
      if (p >= end || b[p] !== QUOTE) return false;
      const keyBegin = p + 1;
      const keyEnd = this.stringEnd(b, keyBegin, end);
      if (keyEnd < 0) return false;
      const field = keyId(b, keyBegin, keyEnd);
      if (field === F_OTHER) {
        if (!this.newOtherKey(b, keyBegin, keyEnd, others)) return false;
        others++;
      } else {
        const bit = 1 << field;
        if ((seen & bit) !== 0) return false;
        seen |= bit;
      }
      p = skipSpace(b, keyEnd + 1, end);
      if (p >= end || b[p] !== COLON) return false;
      p = skipSpace(b, p + 1, end);
      next.add(b, from, p, field, keyBegin - from, keyEnd - from);
      // Its value.
      p = this.value(b, p, end, field, out);
      if (p < 0) return false;
    }
    // Only spaces after the object.
    for (let q = p + 1; q < end; q++) if (!isSpace(b[q] ?? 0)) return false;
    if (!this.complete(seen, out)) return false;
    next.add(b, from, end);
    if (next.ok) {
      this.nextShape = shape;
      this.shape = next;
    }
    return true;
  }

  /** The checks of a whole row once its fields are read: `seen` has a bit per key given. */
  private complete(seen: number, out: ExportRow): boolean {
    const given = seen & ~this.nulls;
    if ((given & REQUIRED) !== REQUIRED) return false;
    const counts = given & COUNTS;
    if ((given & (1 << F_RESULT)) !== 0) return counts === 0 && (given & METRIC_SUMS) === 0;
    // Pre-aggregated: all four counts, at least one above 0, and no attempt.
    if (counts !== COUNTS || this.attemptGiven || (given & (1 << F_METRICS)) !== 0) return false;
    if (out.passes === 0 && out.fails === 0 && out.infraErrors === 0 && out.missing === 0) return false;
    out.result = -1;
    out.metricCount = 0;
    return this.sumCount + this.nCount === 0 || this.metricSums(out);
  }

  /**
   * A pre-aggregated row's metrics_sum (in the row's arrays) with its metrics_n: the same names,
   * each count at most the row's attempts, a sum of 0 where the count is 0 (left out, as it adds
   * nothing). Into the row as metric-checks.ts puts them; false to give up.
   */
  private metricSums(out: ExportRow): boolean {
    const n = this.sumCount;
    if (this.nCount !== n) return false;
    const attempts = out.passes + out.fails + out.infraErrors + out.missing;
    const names = out.metricNames;
    let kept = 0;
    for (let k = 0; k < n; k++) {
      const name = names[k];
      // The names usually come in the same order in both objects.
      let j = this.nNames[k] === name ? k : -1;
      for (let m = 0; j < 0 && m < n; m++) if (this.nNames[m] === name) j = m;
      if (j < 0) return false;
      const count = this.nValues[j] ?? 0;
      const value = out.metricValues[k] ?? 0;
      if (count > attempts) return false;
      if (count === 0) {
        if (value !== 0) return false;
        continue;
      }
      names[kept] = name ?? "";
      out.metricValues[kept] = value;
      out.metricCounts[kept] = count;
      kept++;
    }
    out.metricCount = kept;
    return true;
  }

  /**
   * The string whose contents start at `begin`: returns the index of its closing quote, or -1 to
   * give up (no closing quote, or a byte left to JSON.parse: see the file's comment). Sets
   * `ascii`.
   */
  private stringEnd(b: Buffer, begin: number, end: number): number {
    const v = this.view;
    const base = this.base;
    let ascii = true;
    let p = begin;
    for (;;) {
      // Four bytes at a time while none of them is special (see plainWord), then the four bytes
      // that hold one (or the last ones) byte by byte.
      while (p + 4 <= end && plainWord(v.getInt32(base + p, true))) p += 4;
      const stop = p + 4 < end ? p + 4 : end;
      for (; p < stop; p++) {
        const k = BYTE_CLASS[b[p] ?? 0] ?? BYTE_OTHER;
        if (k === BYTE_PLAIN) continue;
        if (k === BYTE_QUOTE) {
          this.ascii = ascii;
          return p;
        }
        if (k === BYTE_OTHER) return -1;
        ascii = false;
      }
      if (p >= end) return -1;
    }
  }

  /** A key the gate ignores: false when the line already had it (or too many such keys). */
  private newOtherKey(b: Buffer, begin: number, end: number, count: number): boolean {
    if (count >= MAX_OTHER_KEYS) return false;
    const keys = this.otherKeys;
    const n = end - begin;
    for (let k = 0; k < count; k++) {
      const at = keys[2 * k] ?? 0;
      if ((keys[2 * k + 1] ?? 0) - at !== n) continue;
      let i = 0;
      while (i < n && b[at + i] === b[begin + i]) i++;
      if (i === n) return false;
    }
    keys[2 * count] = begin;
    keys[2 * count + 1] = end;
    return true;
  }

  /** The value of `field` at `p`, into `out`: the position after it, or -1 to give up. */
  private value(b: Buffer, p: number, end: number, field: number, out: ExportRow): number {
    if (p >= end) return -1;
    const c = b[p] ?? 0;
    if (field === F_OTHER) {
      // A value of a field the gate ignores: a string, number or literal (objects and arrays: no).
      if (c === QUOTE) {
        const close = this.stringEnd(b, p + 1, end);
        return close < 0 ? -1 : close + 1;
      }
      if (c === 0x74) return literal(b, p, end, TRUE);
      if (c === 0x66) return literal(b, p, end, FALSE);
      if (c === 0x6e) return literal(b, p, end, NULL);
      return number(b, p, end);
    }
    if (c === 0x6e) {
      // null: the same as absent for an optional field, an error for a required one.
      const q = literal(b, p, end, NULL);
      if (q >= 0) this.nulls |= 1 << field;
      return q;
    }
    switch (field) {
      case F_TASK: {
        const q = this.id(b, p, end, MAX_ID_LENGTH, false, this.expectedTask);
        if (q >= 0) out.taskId = this.text;
        return q;
      }
      case F_DATASET: {
        const q = this.repeated(b, p, end, this.dataset);
        if (q >= 0) out.datasetRevision = this.text;
        return q;
      }
      case F_HARNESS: {
        const q = this.repeated(b, p, end, this.harness);
        if (q >= 0) out.harnessRevision = this.text;
        return q;
      }
      case F_MODEL: {
        const q = this.repeated(b, p, end, this.model);
        if (q >= 0) out.modelConfig = this.text;
        return q;
      }
      case F_CLUSTER: {
        const q = this.repeated(b, p, end, this.cluster);
        if (q >= 0) out.cluster = this.text;
        return q;
      }
      case F_VALIDITY: {
        const w = VALIDITY_WORDS.at(b, this.view, this.base, p, end);
        const validity = VALIDITIES[w];
        if (validity === undefined) return -1;
        out.validity = validity;
        return p + 2 + (VALIDITY_WORDS.words[w]?.length ?? 0);
      }
      case F_RESULT: {
        const r = RESULT_WORDS.at(b, this.view, this.base, p, end);
        if (r < 0) return -1;
        out.result = r;
        return p + 2 + (RESULT_WORDS.words[r]?.length ?? 0);
      }
      case F_REVIEW_REVISION: {
        const q = this.count(b, p, end);
        if (q >= 0) out.reviewRevision = this.num;
        return q;
      }
      case F_PASSES:
      case F_FAILS:
      case F_INFRA_ERRORS:
      case F_MISSING: {
        const q = this.count(b, p, end);
        if (q < 0) return -1;
        const v = this.num;
        if (field === F_PASSES) out.passes = v;
        else if (field === F_FAILS) out.fails = v;
        else if (field === F_INFRA_ERRORS) out.infraErrors = v;
        else out.missing = v;
        return q;
      }
      case F_ATTEMPT: {
        const q = c === QUOTE ? this.id(b, p, end, MAX_ID_LENGTH, false) : this.count(b, p, end);
        if (q < 0) return -1;
        out.attempt = c === QUOTE ? this.text : this.num;
        this.attemptGiven = true;
        return q;
      }
      case F_EVIDENCE:
        return this.evidence(b, p, end, c, out);
      case F_BENCHMARK: {
        const q = this.repeated(b, p, end, this.benchmark);
        if (q >= 0) out.benchmark = this.text;
        return q;
      }
      case F_METRICS:
      case F_METRICS_SUM: {
        const q = this.metrics.read(
          b,
          this.view,
          this.base,
          p,
          end,
          out.metricNames,
          out.metricValues,
          false,
        );
        if (field === F_METRICS) out.metricCount = this.metrics.count;
        else this.sumCount = this.metrics.count;
        return q;
      }
      case F_METRICS_N: {
        const q = this.metrics.read(b, this.view, this.base, p, end, this.nNames, this.nValues, true);
        this.nCount = this.metrics.count;
        return q;
      }
      default:
        return -1;
    }
  }

  /** An integer >= 0 of at most 15 digits (always safe) at `p`, into `num`: the position after
   * it, or -1 to give up. */
  private count(b: Buffer, p: number, end: number): number {
    const start = p;
    const first = b[p] ?? 0;
    let v = 0;
    if (first === ZERO) {
      p++;
    } else if (first > ZERO && first <= NINE) {
      while (p < end) {
        const d = b[p] ?? 0;
        if (!isDigit(d)) break;
        v = v * 10 + (d - ZERO);
        p++;
      }
      if (p - start > 15) return -1;
    } else {
      return -1;
    }
    // A fraction or an exponent may still make an integer (1.0, 1e2): JSON.parse decides.
    const after = p < end ? b[p] : -1;
    if (after === 0x2e || after === 0x65 || after === 0x45) return -1;
    this.num = v;
    return p;
  }

  /**
   * An identifier's string at `p`, into `text`: non-empty (unless `allowEmpty`), at most
   * `maxLength` UTF-16 code units, no control character (stringEnd refuses C0, DEL and C1
   * bytes). Returns the position after its closing quote, or -1.
   */
  private id(
    b: Buffer,
    p: number,
    end: number,
    maxLength: number,
    allowEmpty: boolean,
    expected = "",
  ): number {
    if (b[p] !== QUOTE) return -1;
    const begin = p + 1;
    // (The expected string when the bytes are its characters: see expect.)
    const known = knownStringEnd(b, begin, end, expected);
    if (known >= 0 && known - begin <= maxLength) {
      this.text = expected;
      return known + 1;
    }
    const close = this.stringEnd(b, begin, end);
    if (close < 0 || (close === begin && !allowEmpty)) return -1;
    const n = close - begin;
    if (this.ascii) {
      if (n > maxLength) return -1;
      this.text = slice(b, begin, close, true);
      return close + 1;
    }
    // UTF-8 never takes fewer bytes than UTF-16 code units: only a long one needs its length.
    const s = slice(b, begin, close, false);
    if (s.length > maxLength) return -1;
    this.text = s;
    return close + 1;
  }

  /** A field that repeats in runs (see RepeatCache), into `text`; as `id`. */
  private repeated(b: Buffer, p: number, end: number, cache: RepeatCache): number {
    if (b[p] !== QUOTE) return -1;
    const begin = p + 1;
    const n0 = cache.length;
    const close = begin + n0;
    if (n0 > 0 && close < end && b[close] === QUOTE) {
      // The same bytes as a value already read: the same valid id.
      const at = this.base + begin;
      const v =
        cache.slot >= 0
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
    if (q <= begin) return -1;
    const ascii = this.ascii;
    const n = q - begin;
    if (n > MAX_ID_LENGTH && (ascii || slice(b, begin, q, false).length > MAX_ID_LENGTH)) return -1;
    const short = n <= SLOT_BYTES;
    const v = short
      ? this.repeats.get(b, this.view, this.base + begin, begin, q, ascii)
      : slice(b, begin, q, ascii);
    cache.set(b, begin, q, v, short ? this.repeats.slot : -1);
    this.text = v;
    return q + 1;
  }

  /** `evidence` at `p` (first byte `c`): a string or an array of strings, into `out`. */
  private evidence(b: Buffer, p: number, end: number, c: number, out: ExportRow): number {
    if (c === QUOTE) {
      const q = this.id(b, p, end, MAX_EVIDENCE_LENGTH, true);
      if (q >= 0) out.evidence = this.text;
      return q;
    }
    if (c !== LBRACKET) return -1;
    p = skipSpace(b, p + 1, end);
    if (p >= end) return -1;
    const items = this.items;
    let n = 0;
    // Whether the items so far may be packed: ASCII, non-empty, and within the cap. An ASCII
    // item's string is made only once it is known the list is not packed (spans say where).
    let packable = this.packEvidence;
    if (b[p] === RBRACKET) {
      p++;
    } else {
      for (;;) {
        // (What id() checks of an item, with its string left for later when ASCII.)
        if (b[p] !== QUOTE) return -1;
        const begin = p + 1;
        // (The first item may be the expected one: see expect.)
        const known = n === 0 ? knownStringEnd(b, begin, end, this.expectedItem) : -1;
        const close = known >= 0 ? known : this.stringEnd(b, begin, end);
        if (close < 0) return -1;
        if (known >= 0 || this.ascii) {
          if (close - begin > MAX_EVIDENCE_LENGTH) return -1;
          if (close === begin) packable = false;
          if (n < MAX_EVIDENCE_PER_TASK) {
            this.spans[2 * n] = begin;
            this.spans[2 * n + 1] = close;
          } else {
            packable = false;
          }
          items[n++] = known >= 0 ? this.expectedItem : packable ? "" : slice(b, begin, close, true);
        } else {
          const s = slice(b, begin, close, false);
          if (s.length > MAX_EVIDENCE_LENGTH) return -1;
          packable = false;
          items[n++] = s;
        }
        p = skipSpace(b, close + 1, end);
        if (p >= end) return -1;
        const next = b[p];
        p++;
        if (next === RBRACKET) break;
        if (next !== COMMA) return -1;
        p = skipSpace(b, p, end);
        if (p >= end) return -1;
      }
    }
    if (packable && n >= 2 && distinctSpans(this.spans, n, this.view, this.base)) {
      // (The task's list itself when the row gives exactly its items: see expect.)
      const expected = this.expectedList;
      const arena = this.arena;
      const same =
        typeof expected === "string"
          ? this.listMatcher.spansAre(b, this.spans, n, this.view, this.base, expected)
          : arena !== undefined && arena.spansAre(expected, this.spans, n, this.view, this.base);
      if (same) {
        out.packedEvidence = expected;
      } else {
        const h = arena === undefined ? -1 : arena.write(this.spans, n, this.view, this.base);
        out.packedEvidence = h >= 0 ? h : this.packer.pack(this.spans, n, this.view, this.base);
      }
      out.packedItems = n;
      return p;
    }
    if (this.packEvidence) this.unpackSpans(b, n);
    // An array of exactly n items, reused for that length (no array per row).
    let list = this.evidenceArrays[n];
    if (list === undefined) {
      list = items.slice(0, n);
    } else {
      for (let i = 0; i < n; i++) list[i] = items[i] ?? "";
    }
    out.evidence = list;
    return p;
  }

  /**
   * Makes the strings of the ASCII items left for later (evidence): each stands as "" in items
   * with its span non-empty (an item made at once is non-empty, or empty in the line too).
   */
  private unpackSpans(b: Buffer, n: number): void {
    const items = this.items;
    const spans = this.spans;
    for (let k = 0; k < n && k < MAX_EVIDENCE_PER_TASK; k++) {
      if (items[k] === "") {
        const begin = spans[2 * k] ?? 0;
        const close = spans[2 * k + 1] ?? 0;
        if (close > begin)
          items[k] = n === 1 ? this.expectedOne(b, begin, close) : slice(b, begin, close, true);
      }
    }
  }

  /** A lone ASCII item's string: the expected list when it is these characters, else a new one. */
  private expectedOne(b: Buffer, begin: number, close: number): string {
    const n = close - begin;
    // (The expected item was compared as the bytes were read.)
    const list = this.expectedList;
    // (A handle is a list of two or more items: never one item.)
    if (typeof list === "string" && n === list.length && sameChars(b, begin, close, list, 0)) return list;
    return slice(b, begin, close, true);
  }
}
