/**
 * What the label history remembers beside its state, for speed only: a row that repeats the
 * label and evidence of one already added to its task changes nothing, and these find such a row
 * without searching the task's lists.
 */

import { validityCode, type Validity } from "../../core/model.js";
import type { TaskColumns } from "./builder-columns.js";
import { packedRunAt } from "../rows/packed-evidence.js";
import { isPlainText } from "../rows/scanner-parts.js";
import type { ListHandle } from "../rows/evidence-arena.js";

/**
 * Per task, the label (review_revision, validity) and evidence items of a result row already added
 * to it, the items as where they stand in the task's list (a run of `count` from `start`). Adding
 * that label and those items again changes nothing: the label exists, the task's list holds the
 * items (lists only grow at their end, so the run stays where it was), and so does the label's own
 * list (it took them then, or was full; a label's own list never equals the task's, or it would
 * share it: settle). So a row that repeats them skips addLabel: on evidence that differs per
 * (model, task), the rows of one (model, task) otherwise searched the task's list of every model's
 * items, and the label's, every time.
 */
export class EvidenceMemo {
  /** revision * 4 + validity code + 1; 0: nothing remembered. */
  private label = new Float64Array(0);
  /** Where the run starts in the task's packed list (a character offset). */
  private start = new Uint32Array(0);
  private count = new Uint8Array(0);
  /**
   * The item itself where the run is one item ("" otherwise): a whole item of the task's list
   * at `start` is exactly this string, so comparing strings answers repeats() (the same object
   * at once when the scanner was given it: RowScanner.expect).
   */
  private item: string[] = [];
  /** Whether `item` is plain text (isPlainText), which the scanner may be told to expect. */
  private plain = new Uint8Array(0);

  /** Remembers that task i's list holds `evidence` (one item or several) as a run from `start`. */
  set(
    i: number,
    revision: number,
    validity: Validity,
    start: number,
    evidence: string | readonly string[],
  ): void {
    if (i >= this.label.length) {
      const size = Math.max(1024, 2 * i);
      const label = new Float64Array(size);
      label.set(this.label);
      this.label = label;
      const starts = new Uint32Array(size);
      starts.set(this.start);
      this.start = starts;
      const counts = new Uint8Array(size);
      counts.set(this.count);
      this.count = counts;
      const items = new Array<string>(size).fill("");
      for (let k = 0; k < this.item.length; k++) items[k] = this.item[k] ?? "";
      this.item = items;
      const plain = new Uint8Array(size);
      plain.set(this.plain);
      this.plain = plain;
    }
    const one = typeof evidence === "string" ? evidence : evidence.length === 1 ? evidence[0] : undefined;
    this.label[i] = revision * 4 + validityCode(validity) + 1;
    this.start[i] = start;
    this.count[i] = typeof evidence === "string" ? 1 : evidence.length;
    this.item[i] = one ?? "";
    this.plain[i] = one !== undefined && isPlainText(one) ? 1 : 0;
  }

  /** The one item remembered for task i when it is plain text ("" when none, or several). */
  plainItemOf(i: number): string {
    return this.plain[i] === 1 ? (this.item[i] ?? "") : "";
  }

  /** Whether the row's label and evidence are those remembered for task i (compared item by item). */
  repeats(
    i: number,
    revision: number,
    validity: Validity,
    evidence: string | readonly string[],
    cols: TaskColumns,
  ): boolean {
    if (i >= this.label.length || this.label[i] !== revision * 4 + validityCode(validity) + 1) return false;
    const count = typeof evidence === "string" ? 1 : evidence.length;
    if (this.count[i] !== count) return false;
    // (One item: the run is that whole item, and the item is remembered as a string.)
    if (count === 1) return this.item[i] === (typeof evidence === "string" ? evidence : evidence[0]);
    return packedRunAt(cols.listOf(i), this.start[i] ?? 0, evidence);
  }

  /** repeats() of a row whose `count` items came packed (one run of whole items for packedRunAt). */
  repeatsPacked(
    i: number,
    revision: number,
    validity: Validity,
    packed: string,
    count: number,
    cols: TaskColumns,
  ): boolean {
    if (i >= this.label.length || this.label[i] !== revision * 4 + validityCode(validity) + 1) return false;
    return this.count[i] === count && packedRunAt(cols.listOf(i), this.start[i] ?? 0, packed);
  }
}

/** Evidence items a row may hold for LastAdded to remember them (longer lists are not). */
const LAST_ADDED_ITEMS = 4;

/**
 * The label and evidence of the last result row added to a task. A row of the same task with the
 * same label and the same items (the attempts of one model on one task usually come together)
 * changes nothing: adding a label and items is idempotent while nothing else touched the task,
 * and any other row added since is the last one instead (a row the memo skips changes nothing
 * either). Compared with `===` (the scanner's new strings: their characters, faster than reading
 * the packed list).
 */
export class LastAdded {
  private task = -1;
  private revision = 0;
  private validity: Validity = "unreviewed";
  /** NO_EVIDENCE_GIVEN, ONE_STRING (a string alone, in items[0]) or a list of `count` items. */
  private shape = NO_EVIDENCE_GIVEN;
  private count = 0;
  private readonly items: string[] = [];
  /** The packed list of a PACKED_LIST row: a string, or a kept list's handle (never one on trial). */
  private packed: string | ListHandle = "";

  forget(): void {
    this.task = -1;
  }

  set(
    i: number,
    revision: number,
    validity: Validity,
    evidence: string | readonly string[] | undefined,
  ): void {
    if (evidence !== undefined && typeof evidence !== "string" && evidence.length > LAST_ADDED_ITEMS) {
      this.task = -1;
      return;
    }
    this.task = i;
    this.revision = revision;
    this.validity = validity;
    if (evidence === undefined) {
      this.shape = NO_EVIDENCE_GIVEN;
      this.count = 0;
    } else if (typeof evidence === "string") {
      this.shape = ONE_STRING;
      this.count = 1;
      this.items[0] = evidence;
    } else {
      this.shape = ITEM_LIST;
      this.count = evidence.length;
      for (let k = 0; k < evidence.length; k++) this.items[k] = evidence[k] as string;
    }
  }

  /** set() of a row whose list came packed (ExportRow.packedEvidence). */
  setPacked(i: number, revision: number, validity: Validity, packed: string | ListHandle): void {
    this.task = i;
    this.revision = revision;
    this.validity = validity;
    this.shape = PACKED_LIST;
    this.count = 1;
    this.packed = packed;
  }

  /**
   * repeats() of a row whose list came packed: the same packed string, or the same kept list's
   * handle (a kept list is never written again), so the same items.
   */
  repeatsPacked(i: number, revision: number, validity: Validity, packed: string | ListHandle): boolean {
    return (
      i === this.task &&
      revision === this.revision &&
      validity === this.validity &&
      this.shape === PACKED_LIST &&
      this.packed === packed
    );
  }

  repeats(
    i: number,
    revision: number,
    validity: Validity,
    evidence: string | readonly string[] | undefined,
  ): boolean {
    if (i !== this.task || revision !== this.revision || validity !== this.validity) return false;
    if (evidence === undefined) return this.shape === NO_EVIDENCE_GIVEN;
    if (typeof evidence === "string") return this.shape === ONE_STRING && this.items[0] === evidence;
    if (this.shape !== ITEM_LIST || evidence.length !== this.count) return false;
    for (let k = 0; k < evidence.length; k++) if (this.items[k] !== evidence[k]) return false;
    return true;
  }
}

const NO_EVIDENCE_GIVEN = 0;
const ONE_STRING = 1;
const ITEM_LIST = 2;
/** A packed list (ExportRow.packedEvidence) in items[0]; a row of items never repeats it here. */
const PACKED_LIST = 3;
