/**
 * One side of the fragility mirror's margin bound (fragility-state.ts): the open tasks arranged in
 * blocks of equal d for the sort-and-scan of Δ_L (low ends, ascending) or Δ_H (high ends,
 * descending), with prefix sums and, for a clustered SE, per-prefix cluster aggregates.
 */

/** Sum of squares about the mean from raw sums; tiny negative noise (all values equal) → 0. */
export function centredSquares(q: number, s: number, n: number): number {
  const ss = q - (s * s) / n;
  return ss <= 1e-13 * Math.max(1, q) ? 0 : ss;
}

/**
 * The tasks of U arranged for one bound: blocks of equal value in joining order (ascending for
 * Δ_L, descending for Δ_H; pessimistic: one block of value −1 resp. +1), with prefix sums over
 * the first J blocks for J = 0..nb, recomputed from the block counts when read after a change (the
 * searches change U per candidate state but read the prefix sums only for the pessimistic bound
 * and the S_L figure; the counts are integers, so the sums are exact whenever the values are,
 * and then equal to running sums). For clustered SE it also keeps, for every prefix J, the
 * cluster aggregates of V ∪ P_J: Σ_c S_c², Σ_c n_c S_c, Σ_c n_c² and the number of non-empty
 * clusters, so Σ_c (S_c − n_c·m)² = C1 − 2m·C2 + m²·C3 is O(1) per prefix.
 */
export class BoundSide {
  readonly nb: number;
  readonly vals: Float64Array;
  readonly cnt: Float64Array;
  private readonly pN: Float64Array;
  private readonly pS: Float64Array;
  private readonly pQ: Float64Array;
  /** cnt changed since pN/pS/pQ were computed. */
  private stale = true;
  private readonly index: Map<number, number>;
  private readonly g: number;
  private readonly pcN: Float64Array;
  private readonly pcS: Float64Array;
  readonly c1: Float64Array;
  readonly c2: Float64Array;
  readonly c3: Float64Array;
  readonly gc: Float64Array;

  constructor(
    values: readonly number[],
    private readonly pessimisticValue: number | null,
    clusterCount: number,
  ) {
    const vs = pessimisticValue !== null ? [pessimisticValue] : values;
    this.nb = vs.length;
    this.vals = Float64Array.from(vs);
    this.index = new Map(vs.map((v, j) => [v, j]));
    this.cnt = new Float64Array(this.nb);
    this.pN = new Float64Array(this.nb + 1);
    this.pS = new Float64Array(this.nb + 1);
    this.pQ = new Float64Array(this.nb + 1);
    this.g = clusterCount;
    this.pcN = new Float64Array(clusterCount > 0 ? (this.nb + 1) * clusterCount : 0);
    this.pcS = new Float64Array(this.pcN.length);
    this.c1 = new Float64Array(this.nb + 1);
    this.c2 = new Float64Array(this.nb + 1);
    this.c3 = new Float64Array(this.nb + 1);
    this.gc = new Float64Array(this.nb + 1);
  }

  /** Brings pN/pS/pQ up to date with cnt. */
  private refresh(): void {
    if (!this.stale) return;
    this.stale = false;
    let n = 0;
    let s = 0;
    let q = 0;
    for (let j = 0; j < this.nb; j++) {
      const c = this.cnt[j] as number;
      const v = this.vals[j] as number;
      n += c;
      s += c * v;
      q += c * v * v;
      this.pN[j + 1] = n;
      this.pS[j + 1] = s;
      this.pQ[j + 1] = q;
    }
  }

  /** How many tasks of U the first J blocks hold. */
  prefixCount(J: number): number {
    this.refresh();
    return this.pN[J] as number;
  }

  /** Σd (table units) over the first J blocks. */
  prefixSum(J: number): number {
    this.refresh();
    return this.pS[J] as number;
  }

  /** Σd² (table units²) over the first J blocks. */
  prefixSquares(J: number): number {
    this.refresh();
    return this.pQ[J] as number;
  }

  /** Cluster c's (size, Σd) in V ∪ P_J, given V's vN/vS. */
  clusterSize(J: number, c: number, vN: Float64Array): number {
    return (vN[c] as number) + (this.pcN[J * this.g + c] as number);
  }

  clusterSum(J: number, c: number, vS: Float64Array): number {
    return (vS[c] as number) + (this.pcS[J * this.g + c] as number);
  }

  blockOf(d: number): number {
    if (this.pessimisticValue !== null) return 0;
    const j = this.index.get(d);
    if (j === undefined) throw new Error("fragility: unknown value of d");
    return j;
  }

  /** Change the aggregates of prefix J for cluster c from (n, s) to (n + dn, s + ds). */
  private moveCluster(J: number, n: number, s: number, dn: number, ds: number): void {
    const n2 = n + dn;
    const s2 = s + ds;
    this.c1[J] = (this.c1[J] as number) + s2 * s2 - s * s;
    this.c2[J] = (this.c2[J] as number) + n2 * s2 - n * s;
    this.c3[J] = (this.c3[J] as number) + n2 * n2 - n * n;
    this.gc[J] = (this.gc[J] as number) + (n2 > 0 ? 1 : 0) - (n > 0 ? 1 : 0);
  }

  /** `count` tasks of value d (cluster c, −1 = none) join (count > 0) or leave U. */
  addU(d: number, c: number, count: number, vN: Float64Array, vS: Float64Array): void {
    const j = this.blockOf(d);
    const v = this.vals[j] as number;
    this.cnt[j] = (this.cnt[j] as number) + count;
    this.stale = true;
    if (this.g > 0 && c >= 0) {
      for (let J = j + 1; J <= this.nb; J++) {
        const o = J * this.g + c;
        const n = (vN[c] as number) + (this.pcN[o] as number);
        const s = (vS[c] as number) + (this.pcS[o] as number);
        this.moveCluster(J, n, s, count, count * v);
        this.pcN[o] = (this.pcN[o] as number) + count;
        this.pcS[o] = (this.pcS[o] as number) + count * v;
      }
    }
  }

  /** V's sums for cluster c change by (dn, ds); vN/vS hold the values before the change. */
  onValidChange(c: number, dn: number, ds: number, vN: Float64Array, vS: Float64Array): void {
    for (let J = 0; J <= this.nb; J++) {
      const o = J * this.g + c;
      const n = (vN[c] as number) + (this.pcN[o] as number);
      const s = (vS[c] as number) + (this.pcS[o] as number);
      this.moveCluster(J, n, s, dn, ds);
    }
  }
}
