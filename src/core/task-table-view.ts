/**
 * A TaskTable whose task i is task index[i] of tables[which[i]]: no record is copied. The rank
 * (src/core/rank/) uses it twice: the read layer joins the tasks of several two-model reads into
 * one table (src/read/read-models.ts), and the rank takes the common set of that table as the
 * tasks of each pair, so evaluate's task lists (influentialTasks) read the same records.
 *
 * baseline(i) and candidate(i) are those of the source table, which names its own pair: a view
 * that joins several reads holds the attempt counts of every model elsewhere (ModelsDataset).
 */
import type { AttemptCounts, ReviewEvent, TaskRecord, TaskTable, Validity } from "./model.js";

class TableView implements TaskTable {
  constructor(
    private readonly tables: readonly TaskTable[],
    private readonly which: Uint32Array | null,
    private readonly index: Uint32Array,
  ) {}

  get length(): number {
    return this.index.length;
  }

  private table(i: number): TaskTable {
    const t = this.tables[this.which === null ? 0 : (this.which[i] as number)];
    if (t === undefined || i < 0 || i >= this.index.length) {
      throw new Error(`TaskTable view: no task ${i} (of ${this.index.length})`);
    }
    return t;
  }

  private at(i: number): number {
    return this.index[i] as number;
  }

  datasetRevision(i: number): string {
    return this.table(i).datasetRevision(this.at(i));
  }
  taskId(i: number): string {
    return this.table(i).taskId(this.at(i));
  }
  validity(i: number): Validity {
    return this.table(i).validity(this.at(i));
  }
  reviewRevision(i: number): number {
    return this.table(i).reviewRevision(this.at(i));
  }
  cluster(i: number): string | undefined {
    return this.table(i).cluster(this.at(i));
  }
  benchmark(i: number): string {
    return this.table(i).benchmark(this.at(i));
  }
  baseline(i: number): AttemptCounts | undefined {
    return this.table(i).baseline(this.at(i));
  }
  candidate(i: number): AttemptCounts | undefined {
    return this.table(i).candidate(this.at(i));
  }
  evidence(i: number): readonly string[] {
    return this.table(i).evidence(this.at(i));
  }
  labelCount(i: number): number {
    return this.table(i).labelCount(this.at(i));
  }
  lastLabelRevision(i: number): number {
    return this.table(i).lastLabelRevision(this.at(i));
  }
  eventRevision(i: number, k: number): number {
    return this.table(i).eventRevision(this.at(i), k);
  }
  eventValidity(i: number, k: number): Validity {
    return this.table(i).eventValidity(this.at(i), k);
  }
  eventFile(i: number, k: number): string {
    return this.table(i).eventFile(this.at(i), k);
  }
  eventLine(i: number, k: number): number {
    return this.table(i).eventLine(this.at(i), k);
  }
  history(i: number): readonly ReviewEvent[] {
    return this.table(i).history(this.at(i));
  }
  record(i: number): TaskRecord {
    return this.table(i).record(this.at(i));
  }
}

/** Task i of the view is task index[i] of tables[which[i]] (which null: every task from tables[0]). */
export function tableView(
  tables: readonly TaskTable[],
  which: Uint32Array | null,
  index: Uint32Array,
): TaskTable {
  if (which !== null && which.length !== index.length)
    throw new Error("tableView: which and index differ in length");
  return new TableView(tables, which, index);
}
