/**
 * Fragility support: an incremental "mirror" of SPEC §2–4 over the dataset reduced to what a
 * label change can move (fragility-table.ts), that recomputes the verdict from sufficient
 * statistics instead of from the tasks.
 *
 * Why sufficient statistics suffice. A label change moves one task into or out of V (valid ∩ C),
 * out of U (open ∩ C) or out of / into T (the non-broken universe). Every figure §4 looks at is a
 * function of sums over those sets:
 *   - N_v, Σ_V d, Σ_V d² (paired SE); per-cluster Σd and counts (clustered SE); with lost results
 *     (`infra_errors: bound`, SPEC §3.8) Σ_V of both ends of d, and V and U by kind (d^lo, d^hi)
 *     for the conservative bound (fragility-lost.ts);
 *   - the multiset of d over U, which we keep as counts per distinct value (Δ_L / Δ_H are the
 *     sort-and-scan of SPEC §2–3, and adding a block of equal values moves the running mean
 *     monotonically toward that value, so the scan stops only at block boundaries);
 *   - |T|, and per model the missing tasks, infra-error attempts and pass+fail+infra attempts
 *     on T (the infra-error rate and the missing fraction).
 * So tasks with the same (d, cluster, side counts) are interchangeable and only the number of
 * each kind that moves matters. Every update here is O(1) (paired) or O(#distinct U values)
 * (clustered), and a verdict is O(#distinct U values): the search never calls evaluate() per
 * candidate.
 *
 * LCB and UCB are the bounds over every resolution of the open labels (SPEC §3 revision 2), by the
 * same functions as analyseMargin (union-bounds.ts, interval-bounds.ts): exact for paired SE,
 * single-attempt U and no lost result in V ∪ U, else conservative. For the exact kind, LCB > δ₀ is first decided by the sandwich conservative ≤ exact
 * ≤ the bound at S_L (both cheap); only between them is the O(D log D) enumeration run.
 *
 * The mirror reuses the threshold comparison (satisfies) and the tie tolerance of the real
 * computation, and it is checked against the real evaluate() by the property tests
 * (test/decision/fragility-property.test.ts).
 */
import type { Policy, Threshold } from "../policy/policy-types.js";
import type { Verdict } from "../verdict-types.js";
import { intervalClusteredSe } from "../stats/interval-bounds.js";
import { quantileFunction, type QuantileFunction } from "../stats/quantile.js";
import { clusteredFromSums, type ClusterCorrection } from "../stats/standard-error.js";
import { PairedSeScan, conservativeClusteredBounds, exactUnionBounds } from "../stats/union-bounds.js";
import { TIE_TOLERANCE } from "../stats/validity-bounds.js";
import { BoundSide, centredSquares } from "./fragility-bound-side.js";
import { LostResults } from "./fragility-lost.js";
import {
  CAT_BROKEN_IN,
  CAT_BROKEN_OUT,
  CAT_OPEN,
  CAT_VALID,
  SIDE_WIDTH,
  type TaskTable,
} from "./fragility-table.js";
import type { Evaluation, EvaluationContext } from "./evaluation-types.js";
import { satisfies } from "./format.js";
import { decideVerdict } from "./verdict.js";

/**
 * Work budget of one fragility figure: the most candidate states the exact enumeration (and,
 * separately, the greedy search) may evaluate. Each evaluation is O(#distinct U values) and
 * allocation-free, so the budget bounds a figure's time whatever the export's size. With single
 * attempts (3 kinds of task) it lets the exact search of review fragility prove every level up to
 * about 90 changes (180 when no broken task can be revalidated). Beyond it the figure is the
 * greedy upper bound, reported as "at most" unless it meets the levels already proven.
 */
export const FRAGILITY_WORK_BUDGET = 1_000_000;

/**
 * The greedy searches try one change per kind of task at each step. With clustered SE they first
 * split kinds by cluster (at most this many kinds, half the greedy budget); if that finds nothing
 * they retry with kinds split by d (and side counts) only, tasks in dataset order, so that a step
 * is O(#distinct d).
 */
export const GREEDY_MAX_KINDS = 1024;

/** A CR2 standard error over this many clusters costs about one state evaluation of the budget. */
export const CLUSTERS_PER_STATE = 8;

/** The fixed parts of §4 that no label can change, taken from the real evaluation. */
export interface MirrorParams {
  readonly nvThreshold: Threshold;
  readonly infraThreshold: Threshold;
  readonly disputedThreshold: Threshold;
  readonly missingThreshold: Threshold | undefined;
  readonly delta0: number;
  /** q as a function of the SE's ν (SPEC §3 revision 2; constant with quantile: z). */
  readonly quantile: QuantileFunction;
  readonly pessimistic: boolean;
  readonly clustered: boolean;
  readonly correction: ClusterCorrection;
  readonly canary: EvaluationContext["canary"];
  /** same_harness, real_harness_revisions, dataset_revision and production_canary (when required) all pass. */
  readonly fixedEvidencePass: boolean;
}

const LABEL_INDEPENDENT_CHECKS = new Set([
  "same_harness",
  "real_harness_revisions",
  "dataset_revision",
  "production_canary",
  "append_only",
  "reruns",
]);

export function mirrorParams(policy: Policy, ctx: EvaluationContext, evaluation: Evaluation): MirrorParams {
  const ai = policy.accept_if;
  return {
    nvThreshold: ai.common_valid_tasks,
    infraThreshold: ai.infra_error_rate,
    disputedThreshold: ai.disputed_fraction,
    missingThreshold: ai.missing_fraction,
    delta0: ai.delta0,
    quantile: quantileFunction(policy.margin),
    pessimistic: policy.margin.validity_bound === "pessimistic",
    clustered: policy.margin.standard_error === "clustered",
    correction: policy.margin.cluster_correction,
    canary: ctx.canary,
    fixedEvidencePass: evaluation.checks.every(
      (c) => c.kind !== "evidence" || !LABEL_INDEPENDENT_CHECKS.has(c.id) || c.passed,
    ),
  };
}

interface Bounds {
  readonly lcb: number | null;
  readonly ucb: number | null;
}

const NO_BOUNDS: Bounds = { lcb: null, ucb: null };

/**
 * The cheap sandwich (conservative ≤ exact LCB ≤ S_L figure) decides only when δ₀ is clearly
 * outside it; closer than this, rounding could differ from analyseMargin's, so the exact bound does.
 */
const SANDWICH_SLACK = 1e-9;

/**
 * Incremental state of SPEC §2–4 under label changes. Sums of d are kept in the table's units
 * (d·unit, exact integers when unit > 1): sV/unit is Σ_V d, qV/unit² is Σ_V d².
 */
export class Mirror {
  nV = 0;
  /** Σ_V of the low and of the high ends of d (equal without a lost result), in the table's units. */
  sV = 0;
  sVh = 0;
  qV = 0;
  /** |U| */
  D = 0;
  T = 0;
  missA = 0;
  missB = 0;
  infA = 0;
  pfiA = 0;
  infB = 0;
  pfiB = 0;
  /** C tasks (V ∪ U) without a cluster, clustered SE only (then every SE is undefined). */
  noCluster = 0;
  /**
   * Work spent beyond one state evaluation, in the same units as the searches' budgets (a CR2
   * standard error is a pass over the clusters). The searches add what it grew by while they ran.
   */
  spent = 0;
  private readonly vN: Float64Array;
  private readonly vS: Float64Array;
  /** Per cluster Σ_V of the high ends: the very array vS when no task has a lost result. */
  private readonly vSh: Float64Array;
  /** V and U by kind (d^lo, d^hi), only when some task has a lost result. */
  private readonly lost: LostResults | null;
  /** Scratch per-cluster sizes and residual sums for the CR2 standard error. */
  private readonly sizes: Float64Array;
  private readonly resid: Float64Array;
  private readonly lower: BoundSide;
  private readonly upper: BoundSide;
  /** Open kinds (cluster, d^lo, d^hi) for the conservative clustered bound, and their counts in U. */
  private readonly openKind = new Map<string, number>();
  private readonly openCluster: number[] = [];
  private readonly openValue: number[] = [];
  private readonly openHigh: number[] = [];
  private readonly openCount: number[] = [];
  /** Bumped by every change of V or U; the bounds over every resolution are cached per version. */
  private version = 0;
  private exactVersion = -1;
  private exactCache: Bounds = NO_BOUNDS;
  private consVersion = -1;
  private consCache: Bounds = NO_BOUNDS;
  /** The conservative paired bound's SE_max and each side's bound, cached per version. */
  private consSeVersion = -1;
  private consSe: number | null = null;
  private consLowerVersion = -1;
  private consLower: number | null = null;
  private consUpperVersion = -1;
  private consUpper: number | null = null;
  /**
   * SE_max of the conservative paired bound over the lower side's block values in d (ascending),
   * kept across states: it reuses its order and partial scan while V stays the same.
   */
  private readonly seScan: PairedSeScan;

  constructor(
    readonly table: TaskTable,
    readonly p: MirrorParams,
  ) {
    const g = p.clustered ? table.clusterCount : 0;
    const intervals = table.duHigh !== table.du;
    this.vN = new Float64Array(g);
    this.vS = new Float64Array(g);
    this.vSh = intervals ? new Float64Array(g) : this.vS;
    this.lost = intervals ? new LostResults(table) : null;
    this.sizes = new Float64Array(g);
    this.resid = new Float64Array(g);
    const lows = new Set<number>();
    const highs = new Set<number>();
    for (let i = 0; i < table.n; i++) {
      if (table.cat[i] !== CAT_OPEN) continue;
      lows.add(table.du[i] as number);
      highs.add(table.duHigh[i] as number);
    }
    if (p.clustered) {
      for (let i = 0; i < table.n; i++) {
        if (table.cat[i] !== CAT_OPEN) continue;
        const key = `${table.cluster[i]}|${table.du[i]}|${table.duHigh[i]}`;
        if (this.openKind.has(key)) continue;
        this.openKind.set(key, this.openCluster.length);
        this.openCluster.push(table.cluster[i] as number);
        this.openValue.push((table.du[i] as number) / table.unit);
        this.openHigh.push((table.duHigh[i] as number) / table.unit);
        this.openCount.push(0);
      }
    }
    // Δ_L scans the low ends ascending, Δ_H the high ends descending.
    this.lower = new BoundSide(
      [...lows].sort((x, y) => x - y),
      p.pessimistic ? -table.unit : null,
      g,
    );
    this.upper = new BoundSide(
      [...highs].sort((x, y) => y - x),
      p.pessimistic ? table.unit : null,
      g,
    );
    const lv = this.lower.vals;
    this.seScan = new PairedSeScan(table.unit === 1 ? lv : lv.map((x) => x / table.unit));
    for (let i = 0; i < table.n; i++) {
      const c = table.cat[i];
      if (c === CAT_BROKEN_IN || c === CAT_BROKEN_OUT) continue;
      this.addSide(i, 1);
      if (c === CAT_VALID) this.addValid(i, 1);
      else if (c === CAT_OPEN) this.addOpen(i, 1);
    }
  }

  /** The units of sV, qV and the U values (see TaskTable.du). */
  get unit(): number {
    return this.table.unit;
  }

  /** Task i's (d, cluster) joins V `count` times (negative: leaves). */
  addValid(i: number, count: number): void {
    const t = this.table;
    this.addValidValue(t.du[i] as number, t.duHigh[i] as number, t.cluster[i] as number, count);
  }

  /**
   * `count` tasks with d in [d, dHigh] (the table's units; equal without a lost result) and
   * cluster c join V (or leave).
   */
  addValidValue(d: number, dHigh: number, c: number, count: number): void {
    this.version++;
    this.nV += count;
    this.sV += count * d;
    this.sVh += count * dHigh;
    this.qV += count * d * d;
    this.lost?.addValid(d, dHigh, count);
    if (!this.p.clustered) return;
    if (c < 0) {
      this.noCluster += count;
      return;
    }
    this.lower.onValidChange(c, count, count * d, this.vN, this.vS);
    this.upper.onValidChange(c, count, count * dHigh, this.vN, this.vSh);
    this.vN[c] = (this.vN[c] as number) + count;
    this.vS[c] = (this.vS[c] as number) + count * d;
    if (this.vSh !== this.vS) this.vSh[c] = (this.vSh[c] as number) + count * dHigh;
  }

  /** Task i's (d, cluster) joins U `count` times (negative: leaves). */
  addOpen(i: number, count: number): void {
    const d = this.table.du[i] as number;
    const dHigh = this.table.duHigh[i] as number;
    const c = this.p.clustered ? (this.table.cluster[i] as number) : -1;
    this.version++;
    this.D += count;
    if (this.p.clustered) {
      const k = this.openKind.get(`${this.table.cluster[i]}|${d}|${dHigh}`);
      if (k !== undefined) this.openCount[k] = (this.openCount[k] as number) + count;
    }
    this.lost?.addOpen(d, dHigh, count);
    this.lower.addU(d, c, count, this.vN, this.vS);
    this.upper.addU(dHigh, c, count, this.vN, this.vSh);
    if (this.p.clustered && c < 0) this.noCluster += count;
  }

  /** A task of V, or of U, has a lost result: no exact search, no bound at one set. */
  lostInV(): boolean {
    return this.lost !== null && this.lost.lostV > 0;
  }

  private lostInC(): boolean {
    return this.lost !== null && this.lost.lostV + this.lost.lostU > 0;
  }

  /** Task i's side counts join T `count` times (negative: the task leaves T). */
  addSide(i: number, count: number): void {
    const s = this.table.side;
    const o = i * SIDE_WIDTH;
    this.T += count;
    this.infA += count * (s[o] as number);
    this.pfiA += count * (s[o + 1] as number);
    this.missA += count * (s[o + 2] as number);
    this.infB += count * (s[o + 3] as number);
    this.pfiB += count * (s[o + 4] as number);
    this.missB += count * (s[o + 5] as number);
  }

  nvPasses(): boolean {
    return satisfies(this.nV, this.p.nvThreshold);
  }

  disputedPasses(): boolean {
    const c = this.nV + this.D;
    return c > 0 && satisfies(this.D / c, this.p.disputedThreshold);
  }

  /** The checks that depend on T alone: infra-error rates and missing fractions. */
  sidePasses(): boolean {
    const t = this.p.infraThreshold;
    if (!(this.pfiA > 0 && satisfies(this.infA / this.pfiA, t))) return false;
    if (!(this.pfiB > 0 && satisfies(this.infB / this.pfiB, t))) return false;
    const m = this.p.missingThreshold;
    if (m === undefined) return true;
    return this.T > 0 && satisfies(this.missA / this.T, m) && satisfies(this.missB / this.T, m);
  }

  evidencePasses(): boolean {
    return this.p.fixedEvidencePass && this.nvPasses() && this.disputedPasses() && this.sidePasses();
  }

  /**
   * The margin extreme over U (Δ_L or Δ_H) by the sort-and-scan at block level: the prefix J of
   * blocks that joins, its sum (table units) and task count. Pessimistic: every block joins.
   */
  private extreme(side: BoundSide, lowerBound: boolean): { J: number; sum: number; count: number } {
    let sum = lowerBound ? this.sV : this.sVh;
    let count = this.nV;
    let J = 0;
    const tol = TIE_TOLERANCE * this.table.unit;
    if (this.p.pessimistic) {
      J = side.nb;
      sum += side.prefixSum(J);
      count += side.prefixCount(J);
    } else {
      for (let j = 0; j < side.nb; j++) {
        const c = side.cnt[j] as number;
        if (c > 0) {
          const v = side.vals[j] as number;
          const mean = sum / count;
          if (lowerBound ? !(v < mean - tol) : !(v > mean + tol)) break;
          sum += v * c;
          count += c;
        }
        J = j + 1;
      }
    }
    return { J, sum, count };
  }

  /**
   * The bound at one resolution: the margin extreme ∓ q·SE over V ∪ S_L (resp. S_H), q with that
   * SE's ν. With validity_bound: pessimistic this is the bound (U joins at ∓1); otherwise it is
   * today's "S_L figure", an upper bound of the LCB over every resolution (a lower bound of the
   * UCB) and a cheap estimate of it. null when N_v = 0 or the SE is undefined.
   */
  private scanBound(side: BoundSide, lowerBound: boolean): number | null {
    if (this.nV === 0) return null;
    const { J, sum, count } = this.extreme(side, lowerBound);
    const se = this.lostInV()
      ? this.pessimisticSe(side, lowerBound)
      : this.standardError(side, J, sum, count);
    if (se === null) return null;
    const unit = this.table.unit;
    // One correctly rounded division of exact integers: the value evaluate's float mean takes
    // whenever its own sum is exact (ties at δ₀ then fall the same way).
    const bound = sum / (count * unit);
    const seReal = unit === 1 ? se.se : se.se / unit;
    const q = this.p.quantile(se.nu);
    return lowerBound ? bound - q * seReal : bound + q * seReal;
  }

  /** The counts of U by d when every task still in U has d = −1, 0 or +1 (else null). */
  private singleAttemptCounts(): { minus: number; zero: number; plus: number } | null {
    const lo = this.lower;
    const unit = this.table.unit;
    let minus = 0;
    let zero = 0;
    let plus = 0;
    for (let j = 0; j < lo.nb; j++) {
      const v = lo.vals[j] as number;
      const c = lo.cnt[j] as number;
      if (c <= 0) continue;
      if (v === -unit) minus += c;
      else if (v === 0) zero += c;
      else if (v === unit) plus += c;
      else return null;
    }
    return { minus, zero, plus };
  }

  /** True when analyseMargin takes the exact bound over every resolution in this state. */
  private exactKind(): boolean {
    return !this.p.clustered && !this.lostInC() && this.singleAttemptCounts() !== null;
  }

  /** The exact LCB/UCB over every resolution (paired, single-attempt U), cached per state. */
  private exactBounds(): Bounds {
    if (this.exactVersion === this.version) return this.exactCache;
    this.exactVersion = this.version;
    this.exactCache = NO_BOUNDS;
    const u = this.singleAttemptCounts();
    if (this.nV < 2 || u === null) return this.exactCache;
    const unit = this.table.unit;
    const sums = { n: this.nV, sum: this.sV / unit, sumSq: this.qV / (unit * unit) };
    // About (D + 1)·4·log₂ D evaluations, counted against the searches' budgets.
    const D = u.minus + u.zero + u.plus;
    this.spent += ((D + 1) * 4 * (Math.ceil(Math.log2(D + 2)) + 2)) / 64;
    const e = exactUnionBounds(sums, u, this.p.quantile);
    // Past the enumeration's own budget analyseMargin takes the conservative bound too.
    this.exactCache = e === null ? this.conservativeBounds() : { lcb: e.lower.value, ucb: e.upper.value };
    return this.exactCache;
  }

  /**
   * The conservative LCB/UCB over every resolution (union-bounds.ts), with the inputs analyseMargin
   * gives it; for single-attempt paired data it is also a cheap lower (upper) bound of the exact one.
   */
  private conservativeBounds(): Bounds {
    if (this.p.clustered) return this.conservativeClustered();
    if (this.lostInC()) return this.conservativeIntervals();
    return { lcb: this.conservativePaired(true), ucb: this.conservativePaired(false) };
  }

  private conservativeLcb(): number | null {
    if (this.p.clustered) return this.conservativeClustered().lcb;
    return this.lostInC() ? this.conservativeIntervals().lcb : this.conservativePaired(true);
  }

  private conservativeUcb(): number | null {
    if (this.p.clustered) return this.conservativeClustered().ucb;
    return this.lostInC() ? this.conservativeIntervals().ucb : this.conservativePaired(false);
  }

  /** Paired with a lost result in V ∪ U: the interval bound of SPEC §3.8 (fragility-lost.ts). */
  private conservativeIntervals(): Bounds {
    if (this.consVersion === this.version) return this.consCache;
    this.consVersion = this.version;
    this.consCache = NO_BOUNDS;
    const lost = this.lost as LostResults;
    if (this.nV < 2) return this.consCache;
    this.spent += lost.work;
    this.consCache = lost.pairedBounds(this.marginExtreme(true), this.marginExtreme(false), this.p.quantile);
    return this.consCache;
  }

  /**
   * The SE bound (in the table's units) and ν of V ∪ U at ∓1 (pessimistic) when V has a lost
   * result: the SE of that set at every resolution is at most it (SPEC §3.8).
   */
  private pessimisticSe(
    side: BoundSide,
    lowerBound: boolean,
  ): { readonly se: number; readonly nu: number } | null {
    const unit = this.table.unit;
    const value = lowerBound ? -1 : 1;
    if (!this.p.clustered) {
      const r = (this.lost as LostResults).pessimisticSe(value, this.D);
      return r === null ? null : { se: r.se * unit, nu: r.nu };
    }
    if (this.noCluster > 0) return null;
    const g = this.table.clusterCount;
    const size = new Float64Array(g);
    const sumLow = new Float64Array(g);
    const sumHigh = new Float64Array(g);
    for (let c = 0; c < g; c++) {
      size[c] = side.clusterSize(side.nb, c, this.vN);
      sumLow[c] = side.clusterSum(side.nb, c, this.vS) / unit;
      sumHigh[c] = side.clusterSum(side.nb, c, this.vSh) / unit;
    }
    this.spent += g / CLUSTERS_PER_STATE;
    const r = intervalClusteredSe(
      { size, sumLow, sumHigh, clusterCount: g },
      this.p.correction,
      this.p.quantile,
    );
    return r === null ? null : { se: r.se * unit, nu: r.nu };
  }

  /** Σ_V d and Σ_V d² in d's own units, as analyseMargin passes them. */
  private validSums(): { n: number; sum: number; sumSq: number } {
    const unit = this.table.unit;
    return { n: this.nV, sum: this.sV / unit, sumSq: this.qV / (unit * unit) };
  }

  /** The margin extreme Δ_L (Δ_H) over U, in d. */
  private marginExtreme(lowerBound: boolean): number {
    const e = this.extreme(lowerBound ? this.lower : this.upper, lowerBound);
    return e.sum / (e.count * this.table.unit);
  }

  /**
   * Paired: Δ_L − q_max·SE_max (Δ_H + q_max·SE_max). SE_max is shared by both and each margin
   * extreme is scanned only when its bound is asked for (a greedy step toward accept asks only for
   * the LCB of every candidate state).
   */
  private conservativePaired(lowerBound: boolean): number | null {
    if (lowerBound ? this.consLowerVersion === this.version : this.consUpperVersion === this.version) {
      return lowerBound ? this.consLower : this.consUpper;
    }
    if (this.consSeVersion !== this.version) {
      this.consSeVersion = this.version;
      this.consSe = this.nV < 2 ? null : this.seScan.se(this.validSums(), this.lower.cnt);
    }
    const se = this.consSe;
    let value: number | null = null;
    if (se !== null) {
      const spread = this.p.quantile(this.nV - 1) * se;
      value = lowerBound ? this.marginExtreme(true) - spread : this.marginExtreme(false) + spread;
    }
    if (lowerBound) {
      this.consLowerVersion = this.version;
      this.consLower = value;
    } else {
      this.consUpperVersion = this.version;
      this.consUpper = value;
    }
    return value;
  }

  /** Clustered: both bounds at once (SE_max takes both margin extremes). */
  private conservativeClustered(): Bounds {
    if (this.consVersion === this.version) return this.consCache;
    this.consVersion = this.version;
    this.consCache = NO_BOUNDS;
    if (this.nV < 2 || this.noCluster > 0) return this.consCache;
    const unit = this.table.unit;
    const marginLower = this.marginExtreme(true);
    const marginUpper = this.marginExtreme(false);
    this.spent += (this.table.clusterCount + this.openCluster.length) / CLUSTERS_PER_STATE;
    const r = conservativeClusteredBounds(
      this.validSums(),
      {
        validSize: this.vN,
        validSum: unit === 1 ? this.vS : this.vS.map((x) => x / unit),
        ...(this.vSh === this.vS ? {} : { validSumHigh: this.vSh.map((x) => x / unit) }),
        openCluster: this.openCluster,
        openValue: this.openValue,
        openHigh: this.openHigh,
        openCount: this.openCount,
        clusterCount: this.table.clusterCount,
      },
      marginLower,
      marginUpper,
      this.p.correction,
      this.p.quantile,
    );
    if (r !== null) this.consCache = { lcb: r.lower.value, ucb: r.upper.value };
    return this.consCache;
  }

  /** The SE (in the table's units) and its ν over V ∪ P_J, with n tasks summing to `sum`. */
  private standardError(
    side: BoundSide,
    J: number,
    sum: number,
    n: number,
  ): { readonly se: number; readonly nu: number } | null {
    if (!this.p.clustered) {
      if (n < 2) return null;
      const q = this.qV + side.prefixSquares(J);
      return { se: Math.sqrt(centredSquares(q, sum, n) / (n * (n - 1))), nu: n - 1 };
    }
    if (this.noCluster > 0) return null;
    const g = side.gc[J] as number;
    if (g < 2) return null;
    const m = sum / n;
    if (this.p.correction === "cr1") {
      const c1 = side.c1[J] as number;
      let ss = c1 - 2 * m * (side.c2[J] as number) + m * m * (side.c3[J] as number);
      if (ss <= 1e-13 * Math.max(1, c1)) ss = 0;
      return { se: Math.sqrt(((g / (g - 1)) * ss) / (n * n)), nu: g - 1 };
    }
    const count = this.table.clusterCount;
    this.spent += count / CLUSTERS_PER_STATE;
    for (let c = 0; c < count; c++) {
      const size = side.clusterSize(J, c, this.vN);
      this.sizes[c] = size;
      this.resid[c] = side.clusterSum(J, c, this.vS) - size * m;
    }
    const r = clusteredFromSums(n, this.sizes, this.resid, count, "cr2");
    return r.se === null || r.nu === null ? null : { se: r.se, nu: r.nu };
  }

  /** LCB as §4 uses it (pessimistic; else over every resolution: exact or conservative). */
  lcb(): number | null {
    if (this.p.pessimistic) return this.scanBound(this.lower, true);
    return this.exactKind() ? this.exactBounds().lcb : this.conservativeLcb();
  }

  ucb(): number | null {
    if (this.p.pessimistic) return this.scanBound(this.upper, false);
    return this.exactKind() ? this.exactBounds().ucb : this.conservativeUcb();
  }

  /**
   * A cheap estimate of LCB (UCB) for ordering greedy moves: the bound at S_L (S_H) when the
   * exact bound applies, else the bound itself. Never used to decide.
   */
  lcbEstimate(): number | null {
    return this.p.pessimistic || this.exactKind() ? this.scanBound(this.lower, true) : this.lcb();
  }

  ucbEstimate(): number | null {
    return this.p.pessimistic || this.exactKind() ? this.scanBound(this.upper, false) : this.ucb();
  }

  /**
   * LCB > δ₀, decided as cheaply as possible: for the exact kind the conservative bound (≤ LCB)
   * and the S_L figure (≥ LCB) settle it unless δ₀ lies between them (within SANDWICH_SLACK),
   * then the exact bound does. The same answer as comparing lcb() with δ₀.
   */
  lcbClears(): boolean {
    const d0 = this.p.delta0;
    if (!this.p.pessimistic && this.exactKind() && this.nV >= 2) {
      const c = this.conservativeLcb();
      if (c !== null && c > d0 + SANDWICH_SLACK) return true;
      const sl = this.scanBound(this.lower, true);
      if (sl !== null && sl <= d0 - SANDWICH_SLACK) return false;
    }
    const l = this.lcb();
    return l !== null && l > d0;
  }

  /** UCB ≤ δ₀, decided like lcbClears. */
  ucbAtMost(): boolean {
    const d0 = this.p.delta0;
    if (!this.p.pessimistic && this.exactKind() && this.nV >= 2) {
      const c = this.conservativeUcb();
      if (c !== null && c <= d0 - SANDWICH_SLACK) return true;
      const sh = this.scanBound(this.upper, false);
      if (sh !== null && sh > d0 + SANDWICH_SLACK) return false;
    }
    const u = this.ucb();
    return u !== null && u <= d0;
  }

  verdict(): Verdict {
    if (this.p.canary === "fail" || !this.evidencePasses()) {
      return decideVerdict(false, this.p.canary, null, null, this.p.delta0);
    }
    if (this.ucbAtMost()) return "reject";
    return this.lcbClears() ? "accept" : "unresolved";
  }
}
