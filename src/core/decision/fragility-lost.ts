/**
 * The fragility mirror's view of lost results (`infra_errors: bound`, SPEC §3.8): when a task of
 * V or U has an interval d, the exact search does not apply and the paired bounds are the
 * conservative ones of stats/interval-bounds.ts, the same functions analyseMargin uses. They need
 * V and U as kinds (d^lo, d^hi) with counts, kept here as labels move; made only for a table with
 * an interval (the point modes never pay for it).
 */
import { intervalPairedBounds, intervalPairedSe } from "../stats/interval-bounds.js";
import type { QuantileFunction } from "../stats/quantile.js";
import { CAT_BROKEN_IN, CAT_OPEN, CAT_VALID, type TaskTable } from "./fragility-table.js";

export class LostResults {
  /** Each kind's ends in d (not the table's units) and how many of its tasks are in V and in U. */
  readonly low: number[] = [];
  readonly high: number[] = [];
  readonly inV: number[] = [];
  readonly inU: number[] = [];
  /** Tasks of V, and of U, whose d is an interval. */
  lostV = 0;
  lostU = 0;
  private readonly byEnds = new Map<number, Map<number, number>>();

  constructor(private readonly table: TaskTable) {
    for (let i = 0; i < table.n; i++) {
      const c = table.cat[i];
      if (c === CAT_VALID || c === CAT_OPEN || c === CAT_BROKEN_IN)
        this.kind(table.du[i] as number, table.duHigh[i] as number);
    }
  }

  /** The kind of tasks with these ends (table units), made on first sight. */
  private kind(du: number, duHigh: number): number {
    let m = this.byEnds.get(du);
    if (m === undefined) {
      m = new Map();
      this.byEnds.set(du, m);
    }
    let k = m.get(duHigh);
    if (k === undefined) {
      k = this.low.length;
      m.set(duHigh, k);
      this.low.push(du / this.table.unit);
      this.high.push(duHigh / this.table.unit);
      this.inV.push(0);
      this.inU.push(0);
    }
    return k;
  }

  /** `count` tasks with these ends join V (negative: leave). */
  addValid(du: number, duHigh: number, count: number): void {
    const k = this.kind(du, duHigh);
    this.inV[k] = (this.inV[k] as number) + count;
    if (duHigh !== du) this.lostV += count;
  }

  addOpen(du: number, duHigh: number, count: number): void {
    const k = this.kind(du, duHigh);
    this.inU[k] = (this.inU[k] as number) + count;
    if (duHigh !== du) this.lostU += count;
  }

  /** A kind is one state evaluation's worth of work per this many (the searches' budgets). */
  get work(): number {
    return this.low.length / 8;
  }

  /** The conservative paired LCB and UCB over every resolution of U and the lost results. */
  pairedBounds(
    marginLower: number,
    marginUpper: number,
    quantile: QuantileFunction,
  ): { lcb: number | null; ucb: number | null } {
    const fixed = { low: this.low, high: this.high, count: this.inV };
    const open = { low: this.low, high: this.high, count: this.inU };
    const r = intervalPairedBounds(fixed, open, marginLower, marginUpper, quantile);
    return { lcb: r?.lower.value ?? null, ucb: r?.upper.value ?? null };
  }

  /** The SE bound of V with every task of U at `value` (the pessimistic set), and its ν. */
  pessimisticSe(value: number, D: number): { se: number; nu: number } | null {
    const se = intervalPairedSe({
      low: [...this.low, value],
      high: [...this.high, value],
      count: [...this.inV, D],
    });
    let n = D;
    for (const c of this.inV) n += c;
    return se === null ? null : { se, nu: n - 1 };
  }
}
