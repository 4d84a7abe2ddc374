/**
 * The labels and evidence of each task (SPEC §1.1, §1.2): its distinct (review_revision,
 * validity) labels, each with the source, reviewer and note of the first row or review that gave
 * it, and at most MAX_EVIDENCE_PER_TASK evidence items, the task's and each label's (first seen
 * first). Any model's rows count toward a task's labels, and so do the reviews of a task a
 * compared model ran.
 *
 * A task's first label is held inline in the columns (label0*), later ones as LabelEvents
 * (moreLabels; by labelKey in labelIndex once there are many). A label's evidence is the task's
 * list (packed: packed-evidence.ts) while it holds the same items, else a list of its own. Beside
 * the state, for speed only, EvidenceMemo and LastAdded (label-memo.ts) let the rows that repeat
 * a label and its items skip searching the task's lists.
 *
 * The builder is one object made in layers, one a file: BuilderState (builder-state.ts, what the
 * parts share), LabelHistory (here), DatasetBuilder (dataset-builder.ts, the row path). One
 * object, so that a row's calls into its labels stay direct: a label object of its own, reached
 * through a field, cost more work a row.
 */

import { VALIDITIES, validityCode, type Validity } from "../../core/model.js";
import { quote } from "../../core/quote.js";
import { MAX_EVIDENCE_PER_TASK } from "../limits.js";
import {
  pack,
  packedEquals,
  packedIndexOf,
  packedRunAt,
  packedStartsWith,
  SEPARATOR,
  unpack,
} from "../rows/packed-evidence.js";
import type { ListHandle } from "../rows/evidence-arena.js";
import type { ExportRow } from "../rows/row-checks.js";
import {
  F_LABEL0,
  F_LABEL0_OWN,
  F_MORE_LABELS,
  laterAt,
  laterCount,
  type LaterLabels,
  type LabelEvent,
  type TaskColumns,
} from "./builder-columns.js";
import { BuilderState } from "./builder-state.js";
import { EvidenceMemo, LastAdded } from "./label-memo.js";
import { NO_EVIDENCE, small } from "./task-table.js";

/** Labels of a task looked up by a scan up to this many, by a map beyond. */
const LABEL_SCAN_MAX = 8;

export function labelKey(revision: number, validity: Validity): string {
  return `${revision}:${validity}`;
}

/** The builder's labels and evidence: the layer between its state and its row path. */
export class LabelHistory extends BuilderState {
  /** The task whose later labels were looked up last, and those labels. */
  private lastMoreTask = -1;
  private lastMore: LaterLabels | undefined = undefined;
  /** Beside the state, for speed only: a result row's label and evidence last added to a task
   * (made once a task's evidence differs between its rows). */
  private memo: EvidenceMemo | undefined = undefined;
  /** The last result row's label and evidence added to a task (LastAdded; for speed only). */
  private readonly lastAdded = new LastAdded();

  /** The one evidence item EvidenceMemo remembers for task i's rows if plain text, else "". */
  protected rememberedItem(i: number): string {
    return this.memo?.plainItemOf(i) ?? "";
  }

  /** The label and evidence of a result row on task i. Returns false when a cap was passed (reported). */
  protected labelRow(i: number, row: ExportRow, src: number): boolean {
    const evidence = row.evidence;
    const memo = this.memo;
    const last = this.lastAdded;
    if (row.packedEvidence !== undefined) {
      if (!this.packedRow(i, row.reviewRevision, row.validity, src, row.packedEvidence, row.packedItems))
        return false;
    } else if (
      !last.repeats(i, row.reviewRevision, row.validity, evidence) &&
      (memo === undefined ||
        evidence === undefined ||
        !memo.repeats(i, row.reviewRevision, row.validity, evidence, this.cols))
    ) {
      last.forget();
      if (!this.addLabel(i, row.reviewRevision, row.validity, src, evidence, undefined, undefined))
        return false;
      if (evidence !== undefined) this.remember(i, row.reviewRevision, row.validity, evidence);
      last.set(i, row.reviewRevision, row.validity, evidence);
    }
    return true;
  }

  /**
   * After a row's label and evidence were added to task i: when its items stand together in the
   * task's list but not at its start (where addLabel's own check finds a repeat cheaply), e.g.
   * evidence that differs per (model, task), the next row with that label and those items is
   * known to change nothing (EvidenceMemo).
   */
  private remember(
    i: number,
    revision: number,
    validity: Validity,
    evidence: string | readonly string[],
  ): void {
    const list = this.cols.listOf(i);
    // (revision * 4 + code is exact below 2^51.)
    if (list === undefined || revision >= 2 ** 48) return;
    const first = typeof evidence === "string" ? evidence : evidence[0];
    if (first === undefined || first.length === 0 || packedStartsWith(list, first)) return;
    // (Items are distinct: the first is found at most once, and the rest must follow it.)
    const start = packedIndexOf(list, first);
    if (start < 0 || !packedRunAt(list, start, evidence)) return;
    (this.memo ??= new EvidenceMemo()).set(i, revision, validity, start, evidence);
  }

  /**
   * The label and evidence of a row whose list came packed (`packed`, `count` items: see
   * ExportRow.packedEvidence), as the row path above takes a list of items. The packed functions
   * read `packed` as one run of whole items (its separators are the list's), so each check is
   * the one the items would get; a task's first list is `packed` itself.
   */
  private packedRow(
    i: number,
    revision: number,
    validity: Validity,
    src: number,
    given: string | ListHandle,
    count: number,
  ): boolean {
    const cols = this.cols;
    let packed = given;
    // A handle goes on as a handle only where the task's list answers without its characters: it
    // is the task's list (the scanner found the row's items to be it), or the list on trial and
    // the task has none yet (packedListAdded keeps it as the task's first). Else its string.
    if (typeof packed === "number") {
      const held = cols.evidence[i];
      if (packed !== held && !(held === undefined && cols.arena.onTrial(packed)))
        packed = cols.arena.string(packed);
    }
    const last = this.lastAdded;
    if (last.repeatsPacked(i, revision, validity, packed)) return true;
    if (
      typeof packed === "string" &&
      this.memo?.repeatsPacked(i, revision, validity, packed, count, cols) === true
    )
      return true;
    last.forget();
    if (!this.addLabel(i, revision, validity, src, undefined, undefined, undefined, packed, count))
      return false;
    // (A list on trial that the task did not keep is read now, before another row's replaces it.)
    if (typeof packed === "number" && cols.arena.onTrial(packed)) packed = cols.arena.string(packed);
    // remember() with the items, unless the task's list begins with the first (it returns then).
    if (cols.evidence[i] !== undefined && cols.evidence[i] !== packed) {
      const list = cols.listOf(i);
      const text = cols.arena.textOf(packed);
      if (!packedStartsWith(list, text)) {
        const first = text.slice(0, text.indexOf(SEPARATOR));
        if (!packedStartsWith(list, first)) this.remember(i, revision, validity, unpack(text) ?? []);
      }
    }
    last.setPacked(i, revision, validity, packed);
    return true;
  }

  /** Task i's labels after its first (looked up once for a run of rows of one task). */
  private moreLabels(i: number): LaterLabels | undefined {
    if (i !== this.lastMoreTask) {
      this.lastMoreTask = i;
      this.lastMore = this.cols.moreLabels[i];
    }
    return this.lastMore;
  }

  /**
   * Adds a row's or review's label to task i (the first time it is seen: with its source,
   * reviewer and note) and its evidence items to the label's and the task's lists. Returns false
   * when the labels cap was passed (reported).
   */
  protected addLabel(
    i: number,
    revision: number,
    validity: Validity,
    src: number,
    evidence: string | readonly string[] | undefined,
    reviewer: string | undefined,
    note: string | undefined,
    // A row's list given packed instead of `evidence` (packedRow), of `packedCount` items.
    packedList?: string | ListHandle,
    packedCount = 0,
  ): boolean {
    const cols = this.cols;
    const code = validityCode(validity);
    const flags = cols.flags[i] ?? 0;
    // The label of the row: the task's first (inline), a later one (`event`), or a new one.
    let event: LabelEvent | undefined;
    let fresh = false;
    if ((flags & F_LABEL0) === 0 || cols.label0Revision[i] !== revision || cols.label0Validity[i] !== code) {
      event = this.laterLabel(i, flags, revision, validity);
      if (event === undefined) {
        if (this.labelsCapPassed(i, flags, src)) return false;
        event = this.newLabel(i, flags, revision, validity, src, reviewer, note);
        fresh = true;
      }
    }
    const own = event === undefined ? ((cols.flags[i] ?? 0) & F_LABEL0_OWN) !== 0 : event.own;
    if (packedList !== undefined) {
      if (this.packedListAdded(i, event, own, packedList, packedCount)) return true;
      evidence = unpack(cols.arena.textOf(packedList));
    }
    if (evidence === undefined) {
      if (fresh && own) this.settle(i, event);
      return true;
    }
    this.addEvidence(i, event, own, evidence);
    return true;
  }

  /** Task i's later label (revision, validity), undefined when it has none such. */
  private laterLabel(i: number, flags: number, revision: number, validity: Validity): LabelEvent | undefined {
    const more = (flags & F_MORE_LABELS) === 0 ? undefined : this.moreLabels(i);
    if (more === undefined) return undefined;
    const index = laterCount(more) >= LABEL_SCAN_MAX ? this.cols.labelIndex.get(i) : undefined;
    return index !== undefined
      ? index.get(labelKey(revision, validity))
      : findLabel(more, revision, validity);
  }

  /** Whether task i already holds as many labels as allowed (then reported, at `src`). */
  private labelsCapPassed(i: number, flags: number, src: number): boolean {
    const more = (flags & F_MORE_LABELS) === 0 ? undefined : this.moreLabels(i);
    const count = ((flags & F_LABEL0) === 0 ? 0 : 1) + laterCount(more);
    if (count < this.limits.maxLabelsPerTask) return false;
    this.capPassed(
      src,
      `task ${quote(this.cols.taskIds[i] ?? "")} (dataset_revision ${quote(this.revisionOf(i))}) has more than ` +
        `${this.limits.maxLabelsPerTask} distinct (review_revision, validity) labels (the limit)`,
    );
    return true;
  }

  /**
   * A label task i did not have yet: its first (inline in the columns; returns undefined) or a
   * later one (returns its event). Its evidence list starts empty.
   */
  private newLabel(
    i: number,
    flags: number,
    revision: number,
    validity: Validity,
    src: number,
    reviewer: string | undefined,
    note: string | undefined,
  ): LabelEvent | undefined {
    const cols = this.cols;
    const code = validityCode(validity);
    this.heldChars += (reviewer?.length ?? 0) + (note?.length ?? 0);
    // A new label's list starts empty: it is the task's list only while that is empty too.
    const own = cols.evidence[i] !== undefined;
    let event: LabelEvent | undefined;
    if ((flags & F_LABEL0) === 0) {
      cols.flags[i] = flags | F_LABEL0 | (own ? F_LABEL0_OWN : 0);
      cols.label0Revision[i] = revision;
      cols.label0Validity[i] = code;
      cols.label0Src[i] = src;
      if (reviewer !== undefined || note !== undefined) cols.label0Meta.set(i, { reviewer, note });
    } else {
      event = { revision, validity, src, reviewer, note, own, evidence: undefined };
      const held = (flags & F_MORE_LABELS) === 0 ? undefined : this.moreLabels(i);
      if (held === undefined) {
        cols.moreLabels[i] = event;
        cols.flags[i] = flags | F_MORE_LABELS;
        this.lastMoreTask = i;
        this.lastMore = event;
      } else {
        this.addLater(i, held, event);
      }
    }
    if (revision > (cols.topRevision[i] ?? -1)) {
      cols.topRevision[i] = revision;
      cols.topValidity[i] = code;
    }
    return event;
  }

  /** A later label of task i besides those it holds (`held`), indexed once there are many. */
  private addLater(i: number, held: LaterLabels, event: LabelEvent): void {
    const cols = this.cols;
    let more: LabelEvent[];
    if (Array.isArray(held)) {
      more = held;
      more.push(event);
    } else {
      more = [held, event];
      cols.moreLabels[i] = more;
      this.lastMoreTask = i;
      this.lastMore = more;
    }
    // (Labels come one at a time: the index is made when the count reaches LABEL_SCAN_MAX.)
    const key = labelKey(event.revision, event.validity);
    if (more.length > LABEL_SCAN_MAX) {
      cols.labelIndex.get(i)?.set(key, event);
    } else if (more.length === LABEL_SCAN_MAX) {
      cols.labelIndex.set(i, new Map(more.map((e) => [labelKey(e.revision, e.validity), e])));
    }
  }

  /**
   * What addEvidence does with a row's packed items, where `packedList` alone answers (a task's
   * first list: the items are distinct, non-empty and within the cap, so firstPacked would join
   * them as they are). Returns false when the items must go on as a list.
   */
  private packedListAdded(
    i: number,
    event: LabelEvent | undefined,
    own: boolean,
    packedList: string | ListHandle,
    packedCount: number,
  ): boolean {
    const cols = this.cols;
    const packed = cols.evidence[i];
    if (packed === undefined && !own) {
      cols.evidence[i] = packedList;
      let length: number;
      if (typeof packedList === "number") {
        cols.arena.keep(packedList);
        length = cols.arena.length(packedList);
      } else {
        length = packedList.length;
      }
      this.heldChars += length - (packedCount - 1);
      this.detachLabels(i, event, undefined, 0);
      return true;
    }
    // (The same list, or a handle read as its characters where the other is a string.)
    const same = packed === packedList || (packed !== undefined && this.sameList(i, packedList));
    const has = same || packedStartsWith(cols.listOf(i), cols.arena.textOf(packedList));
    if (has && !own) return true;
    if (has && own && this.ownList(i, event) === undefined && same) {
      this.disown(i, event);
      return true;
    }
    return false;
  }

  /** Whether task i's list has the characters of a row's packed list. */
  private sameList(i: number, list: string | ListHandle): boolean {
    const held = this.cols.evidence[i];
    if (held === list) return true;
    if (typeof held !== "number" && typeof list !== "number") return false;
    return this.cols.listOf(i) === this.cols.arena.textOf(list);
  }

  /** Adds a row's evidence items to task i's list and, when it holds its own, to the label's. */
  private addEvidence(
    i: number,
    event: LabelEvent | undefined,
    own: boolean,
    evidence: string | readonly string[],
  ): void {
    const cols = this.cols;
    const packed = cols.listOf(i);
    // Rows of a task usually repeat its evidence, which then stands first in both lists: adding
    // it again would change nothing, and checking that by position is cheaper than searching.
    const taskHas = packedStartsWith(packed, evidence);
    if (taskHas && (!own || startsWith(this.ownList(i, event), evidence))) return;
    // The task's list first: a label keeps the task's string for an item both hold, and the
    // characters of a string are counted once. (withEvidence grows `before` in place.) When the
    // task's list begins with the row's items it gains none, and they are all the label shares.
    // A new label whose row gives exactly the task's list: settle() would find the list it built
    // equal to the task's and drop it (a task-heavy export's second label, on many of its tasks).
    if (taskHas && own && this.ownList(i, event) === undefined && packedRunAt(packed, 0, evidence, true)) {
      this.disown(i, event);
      return;
    }
    let shared: string | readonly string[] | undefined = evidence;
    if (!taskHas) {
      // A task's first items (no label can have a list of its own yet): packed as the row gives
      // them, without the list withEvidence builds and pack() joins (a task-heavy export's rows).
      if (packed === undefined && !own) {
        const first = this.firstPacked(evidence);
        if (first !== undefined) {
          cols.evidence[i] = first;
          this.detachLabels(i, event, undefined, 0);
        }
        return;
      }
      const before = unpack(packed);
      const length = before?.length ?? 0;
      const after = this.withEvidence(before, evidence, undefined);
      if ((after?.length ?? 0) !== length) {
        cols.evidence[i] = pack(after);
        this.detachLabels(i, event, before, length);
      }
      shared = after;
    }
    if (own) {
      const list = this.withEvidence(this.ownList(i, event), evidence, shared);
      if (event === undefined) cols.label0Evidence.set(i, list);
      else event.evidence = list;
      this.settle(i, event);
    }
  }

  /** The own evidence list of task i's first label (event undefined) or of a later one. */
  private ownList(i: number, event: LabelEvent | undefined): string[] | undefined {
    return event === undefined ? this.cols.label0Evidence.get(i) : event.evidence;
  }

  /** A label whose own list holds the task's items again shares the task's list. */
  private settle(i: number, event: LabelEvent | undefined): void {
    if (packedEquals(this.cols.listOf(i), this.ownList(i, event))) this.disown(i, event);
  }

  /** The label (event undefined: the first) shares the task's list from now on. */
  private disown(i: number, event: LabelEvent | undefined): void {
    const cols = this.cols;
    if (event === undefined) {
      cols.label0Evidence.delete(i);
      cols.flags[i] = (cols.flags[i] ?? 0) & ~F_LABEL0_OWN;
    } else {
      event.own = false;
      event.evidence = undefined;
    }
  }

  /**
   * The task's list grew by a row of another label (`event`, undefined for the first): every
   * other label that shared it gets its own copy of what it held (the first `length` items).
   */
  private detachLabels(
    i: number,
    event: LabelEvent | undefined,
    before: string[] | undefined,
    length: number,
  ): void {
    const cols = this.cols;
    const flags = cols.flags[i] ?? 0;
    const copy = (): string[] | undefined =>
      length === 0 || before === undefined ? undefined : before.slice(0, length);
    if (event !== undefined && (flags & (F_LABEL0 | F_LABEL0_OWN)) === F_LABEL0) {
      cols.flags[i] = flags | F_LABEL0_OWN;
      cols.label0Evidence.set(i, copy());
    }
    if ((flags & F_MORE_LABELS) === 0) return;
    const more = this.moreLabels(i);
    for (let k = 0; k < laterCount(more); k++) {
      const e = laterAt(more, k);
      if (e !== event && !e.own) {
        e.own = true;
        e.evidence = copy();
      }
    }
  }

  /**
   * Adds evidence items to a list: non-empty, de-duplicated, first seen first, capped. An item
   * equal to one of `shared` is kept as that string (no second copy); the characters of new
   * strings are counted as held. Returns the list (a new one when `list` was undefined).
   */
  private withEvidence(
    list: string[] | undefined,
    evidence: string | readonly string[],
    shared: string | readonly string[] | undefined,
  ): string[] | undefined {
    if (typeof evidence === "string") return this.withItem(list, evidence, shared);
    let out = list;
    for (const item of evidence) out = this.withItem(out, item, shared);
    // An array grown by push has room for 17 items: a task's first list is usually final, so it
    // is kept at its size (a third of a task's memory in a task-heavy export).
    if (list === undefined && out !== undefined && out.length > 1) out = out.slice();
    return out;
  }

  /**
   * The packed list withEvidence(undefined, evidence, undefined) gives (its characters counted as
   * held): the row's items joined as they are when they are distinct, non-empty and within the cap.
   */
  private firstPacked(evidence: string | readonly string[]): string | undefined {
    if (typeof evidence !== "string") {
      const n = evidence.length;
      let plain = n <= MAX_EVIDENCE_PER_TASK;
      for (let k = 0; plain && k < n; k++) {
        const item = evidence[k] as string;
        if (item.length === 0) plain = false;
        for (let j = 0; plain && j < k; j++) if (evidence[j] === item) plain = false;
      }
      if (!plain) return pack(this.withEvidence(undefined, evidence, undefined));
      for (let k = 0; k < n; k++) this.heldChars += (evidence[k] as string).length;
      return pack(evidence);
    }
    if (evidence.length === 0) return undefined;
    this.heldChars += evidence.length;
    return evidence;
  }

  private withItem(
    list: string[] | undefined,
    item: string,
    shared: string | readonly string[] | undefined,
  ): string[] | undefined {
    if (item.length === 0) return list;
    if (list !== undefined && (list.length >= MAX_EVIDENCE_PER_TASK || list.includes(item))) return list;
    const i =
      shared === undefined
        ? -1
        : typeof shared === "string"
          ? shared === item
            ? 0
            : -1
          : shared.indexOf(item);
    const value = i < 0 ? item : typeof shared === "string" ? shared : (shared?.[i] ?? item);
    if (i < 0) this.heldChars += item.length;
    if (list === undefined) return [value];
    list.push(value);
    return list;
  }
}

/** Every label of task i in the order found (the first, inline, as a LabelEvent too). */
export function labelsOf(cols: TaskColumns, i: number, flags: number): LabelEvent[] {
  const out: LabelEvent[] = [];
  if ((flags & F_LABEL0) !== 0) {
    const meta = cols.label0Meta.get(i);
    const own = (flags & F_LABEL0_OWN) !== 0;
    out.push({
      revision: small(cols.label0Revision[i] ?? 0),
      validity: VALIDITIES[cols.label0Validity[i] ?? 0] ?? "unreviewed",
      src: cols.label0Src[i] ?? 0,
      reviewer: meta?.reviewer,
      note: meta?.note,
      own,
      evidence: own ? cols.label0Evidence.get(i) : undefined,
    });
  }
  const more = cols.moreLabels[i];
  for (let k = 0; k < laterCount(more); k++) out.push(laterAt(more, k));
  return out;
}

/** A task's label events in history order: by revision, then source. */
export function historyOrder(a: LabelEvent, b: LabelEvent): number {
  return a.revision - b.revision || a.src - b.src;
}

/** Whether task i's later labels follow its first in history order (as they usually come). */
export function laterInOrder(cols: TaskColumns, i: number, later: LaterLabels): boolean {
  let revision = cols.label0Revision[i] ?? 0;
  let src = cols.label0Src[i] ?? 0;
  for (let k = 0; k < laterCount(later); k++) {
    const e = laterAt(later, k);
    if (e.revision < revision || (e.revision === revision && e.src < src)) return false;
    revision = e.revision;
    src = e.src;
  }
  return true;
}

/** Whether task i has a label other than unreviewed. */
export function hasLabel(cols: TaskColumns, i: number): boolean {
  const flags = cols.flags[i] ?? 0;
  if ((flags & F_LABEL0) !== 0 && cols.label0Validity[i] !== validityCode("unreviewed")) return true;
  if ((flags & F_MORE_LABELS) === 0) return false;
  const more = cols.moreLabels[i];
  for (let k = 0; k < laterCount(more); k++) if (laterAt(more, k).validity !== "unreviewed") return true;
  return false;
}

/** The label (revision, validity) of a task's later labels (a loop: `find` with a closure cost
 * a closure per row). */
function findLabel(held: LaterLabels, revision: number, validity: Validity): LabelEvent | undefined {
  for (let k = 0; k < laterCount(held); k++) {
    const e = laterAt(held, k);
    if (e.revision === revision && e.validity === validity) return e;
  }
  return undefined;
}

/**
 * A label's own evidence list as the table keeps it: undefined when it has the task's items (the
 * table then gives the task's list), else the list itself (empty when there is none).
 */
export function ownEvidence(
  own: string[] | undefined,
  task: string | undefined,
): readonly string[] | undefined {
  return packedEquals(task, own) ? undefined : (own ?? NO_EVIDENCE);
}

/** Whether a list begins with exactly these items (so holds them all). */
function startsWith(kept: readonly string[] | undefined, evidence: string | readonly string[]): boolean {
  if (kept === undefined) return false;
  if (typeof evidence === "string") return kept[0] === evidence;
  if (evidence.length > kept.length) return false;
  for (let i = 0; i < evidence.length; i++) if (kept[i] !== evidence[i]) return false;
  return true;
}
