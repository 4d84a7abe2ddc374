/**
 * Fragility support: the dataset reduced to what a label change can move, and an incremental
 * "mirror" of SPEC §2–4 that recomputes the verdict from sufficient statistics instead of from
 * the tasks.
 *
 * Why sufficient statistics suffice. A label change moves one task into or out of V (valid ∩ C),
 * out of U (open ∩ C) or out of / into T (the non-broken universe). Every figure §4 looks at is a
 * function of sums over those sets:
 *   - N_v, Σ_V d, Σ_V d² (paired SE); per-cluster Σd and counts (clustered SE);
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
 * same functions as analyseMargin (union-bounds.ts): exact for paired SE and single-attempt U, else
 * conservative. For the exact kind, LCB > δ₀ is first decided by the sandwich conservative ≤ exact
 * ≤ the bound at S_L (both cheap); only between them is the O(D log D) enumeration run.
 *
 * The mirror reuses the threshold comparison (satisfies) and the tie tolerance of the real
 * computation, and it is checked against the real evaluate() by the property tests
 * (test/decision/fragility-property.test.ts).
 */
import type { AttemptCounts, Dataset } from "../model.js";
import type { Policy, Threshold } from "../policy/policy-types.js";
import type { Verdict } from "../verdict-types.js";
import { quantileFunction, type QuantileFunction } from "../stats/quantile.js";
import { clusteredFromSums, type ClusterCorrection } from "../stats/standard-error.js";
import { PairedSeScan, conservativeClusteredBounds, exactUnionBounds } from "../stats/union-bounds.js";
import { effectiveAttempts, hasAttempt } from "../stats/task-scores.js";
import { TIE_TOLERANCE } from "../stats/validity-bounds.js";
import type { Evaluation, EvaluationContext } from "./evaluation-types.js";
import { satisfies } from "./format.js";
import { decideVerdict } from "./verdict.js";

/**
 * Work budget of one fragility figure: the most candidate states the exact enumeration (and,
 * separately, the greedy search) may evaluate. Each evaluation is O(#distinct U values) and
 * allocation-free, about 0.1 µs, so the budget caps a figure at roughly 0.1–0.3 s. With single
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

/** Task categories for fragility (indices into Dataset.tasks keep their dataset order). */
export const CAT_VALID = 0; // valid and in C (V)
export const CAT_VALID_OUT = 1; // valid, in T, not in C
export const CAT_OPEN = 2; // disputed/unreviewed and in C (U)
export const CAT_OPEN_OUT = 3; // disputed/unreviewed, in T, not in C
export const CAT_BROKEN_IN = 4; // broken, attempted by both models (K* ≥ 1 for both)
export const CAT_BROKEN_OUT = 5; // broken, not attempted by both

/** Per-task side counts, 6 per task: candidate (infra, pass+fail+infra, missing), then baseline. */
export const SIDE_WIDTH = 6;

export interface TaskTable {
  readonly n: number;
  readonly cat: Uint8Array;
  /** dₜ for tasks attempted by both (V, U, broken-in), else NaN. */
  readonly d: Float64Array;
  /**
   * dₜ in units of 1/unit, where unit = lcm of every K* involved: exact integers, so the mirror's
   * running sums never drift (adding then removing 1/3 leaves exactly 0, as evaluate's fresh sum
   * does). unit = 1 (and du = d) when that lcm would be too large for exact sums.
   */
  readonly du: Float64Array;
  readonly unit: number;
  /** Cluster index (clustered SE only), −1 when the task has none or SE is paired. */
  readonly cluster: Int32Array;
  readonly clusterCount: number;
  readonly side: Float64Array;
}

/** Writes a model's (infra attempts, pass+fail+infra attempts, missing 0/1) at side[o..o+2]. */
function writeSide(side: Float64Array, o: number, c: AttemptCounts | undefined): void {
  if (c === undefined) {
    side[o + 2] = 1;
    return;
  }
  const pfi = c.pass + c.fail + c.infra_error;
  side[o] = c.infra_error;
  side[o + 1] = pfi;
  side[o + 2] = hasAttempt(c) ? 0 : 1;
}

/**
 * A key for a task's six side counts, equal exactly when the counts are: a number when the
 * counts are small enough to pack exactly, else a string.
 */
export function sideKeyFunction(table: TaskTable): (i: number) => number | string {
  const side = table.side;
  let max = 0;
  for (let j = 0; j < side.length; j++) if ((side[j] as number) > max) max = side[j] as number;
  const base = max + 1;
  if (base ** SIDE_WIDTH < 2 ** 52) {
    return (i) => {
      const o = i * SIDE_WIDTH;
      let k = 0;
      for (let j = 0; j < SIDE_WIDTH; j++) k = k * base + (side[o + j] as number);
      return k;
    };
  }
  return (i) => Array.from(side.subarray(i * SIDE_WIDTH, (i + 1) * SIDE_WIDTH)).join(",");
}

export function buildTaskTable(dataset: Dataset, policy: Policy): TaskTable {
  const tasks = dataset.tasks;
  const n = tasks.length;
  const infra = policy.infra_errors;
  const clustered = policy.margin.standard_error === "clustered";
  const cat = new Uint8Array(n);
  const d = new Float64Array(n).fill(Number.NaN);
  const cluster = new Int32Array(n).fill(-1);
  const side = new Float64Array(n * SIDE_WIDTH);
  const clusterIndex = new Map<string, number>();
  const denominators = new Set<number>();
  for (let i = 0; i < n; i++) {
    const a = tasks.candidate(i);
    const b = tasks.baseline(i);
    const ka = effectiveAttempts(a, infra);
    const kb = effectiveAttempts(b, infra);
    const both = a !== undefined && b !== undefined && ka > 0 && kb > 0;
    if (both) {
      d[i] = a.pass / ka - b.pass / kb;
      denominators.add(ka);
      denominators.add(kb);
      const name = clustered ? tasks.cluster(i) : undefined;
      if (name !== undefined) {
        let c = clusterIndex.get(name);
        if (c === undefined) {
          c = clusterIndex.size;
          clusterIndex.set(name, c);
        }
        cluster[i] = c;
      }
    }
    const validity = tasks.validity(i);
    if (validity === "broken") cat[i] = both ? CAT_BROKEN_IN : CAT_BROKEN_OUT;
    else if (validity === "valid") cat[i] = both ? CAT_VALID : CAT_VALID_OUT;
    else cat[i] = both ? CAT_OPEN : CAT_OPEN_OUT;
    writeSide(side, i * SIDE_WIDTH, a);
    writeSide(side, i * SIDE_WIDTH + 3, b);
  }
  // The common denominator of all scores, when sums of squares in its units stay exact.
  const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
  let unit = 1;
  for (const k of denominators) {
    unit = (unit / gcd(unit, k)) * k;
    if (unit > 1e6) break;
  }
  if (unit > 1e6 || n * unit * unit > 2 ** 52) unit = 1;
  const du = new Float64Array(n).fill(Number.NaN);
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(d[i])) continue;
    const a = tasks.candidate(i) as AttemptCounts;
    const b = tasks.baseline(i) as AttemptCounts;
    du[i] =
      unit === 1
        ? (d[i] as number)
        : a.pass * (unit / effectiveAttempts(a, infra)) - b.pass * (unit / effectiveAttempts(b, infra));
  }
  return { n, cat, d, du, unit, cluster, clusterCount: clusterIndex.size, side };
}

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

/** Sum of squares about the mean from raw sums; tiny negative noise (all values equal) → 0. */
function centredSquares(q: number, s: number, n: number): number {
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
class BoundSide {
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
  sV = 0;
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
  /** Scratch per-cluster sizes and residual sums for the CR2 standard error. */
  private readonly sizes: Float64Array;
  private readonly resid: Float64Array;
  private readonly lower: BoundSide;
  private readonly upper: BoundSide;
  /** Open kinds (cluster, d) for the conservative clustered bound, and their counts in U. */
  private readonly openKind = new Map<string, number>();
  private readonly openCluster: number[] = [];
  private readonly openValue: number[] = [];
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
    this.vN = new Float64Array(g);
    this.vS = new Float64Array(g);
    this.sizes = new Float64Array(g);
    this.resid = new Float64Array(g);
    const values = new Set<number>();
    for (let i = 0; i < table.n; i++) {
      const c = table.cat[i];
      if (c === CAT_OPEN) values.add(table.du[i] as number);
    }
    const asc = [...values].sort((x, y) => x - y);
    if (p.clustered) {
      for (let i = 0; i < table.n; i++) {
        if (table.cat[i] !== CAT_OPEN) continue;
        const key = `${table.cluster[i]}|${table.du[i]}`;
        if (this.openKind.has(key)) continue;
        this.openKind.set(key, this.openCluster.length);
        this.openCluster.push(table.cluster[i] as number);
        this.openValue.push((table.du[i] as number) / table.unit);
        this.openCount.push(0);
      }
    }
    this.lower = new BoundSide(asc, p.pessimistic ? -table.unit : null, g);
    this.upper = new BoundSide([...asc].reverse(), p.pessimistic ? table.unit : null, g);
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
    this.addValidValue(this.table.du[i] as number, this.table.cluster[i] as number, count);
  }

  /** `count` tasks with d = du/unit (du in the table's units) and cluster c join V (or leave). */
  addValidValue(d: number, c: number, count: number): void {
    this.version++;
    this.nV += count;
    this.sV += count * d;
    this.qV += count * d * d;
    if (!this.p.clustered) return;
    if (c < 0) {
      this.noCluster += count;
      return;
    }
    this.lower.onValidChange(c, count, count * d, this.vN, this.vS);
    this.upper.onValidChange(c, count, count * d, this.vN, this.vS);
    this.vN[c] = (this.vN[c] as number) + count;
    this.vS[c] = (this.vS[c] as number) + count * d;
  }

  /** Task i's (d, cluster) joins U `count` times (negative: leaves). */
  addOpen(i: number, count: number): void {
    const d = this.table.du[i] as number;
    const c = this.p.clustered ? (this.table.cluster[i] as number) : -1;
    this.version++;
    this.D += count;
    if (this.p.clustered) {
      const k = this.openKind.get(`${this.table.cluster[i]}|${d}`);
      if (k !== undefined) this.openCount[k] = (this.openCount[k] as number) + count;
    }
    this.lower.addU(d, c, count, this.vN, this.vS);
    this.upper.addU(d, c, count, this.vN, this.vS);
    if (this.p.clustered && c < 0) this.noCluster += count;
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
    let sum = this.sV;
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
    const se = this.standardError(side, J, sum, count);
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
    return !this.p.clustered && this.singleAttemptCounts() !== null;
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
    return { lcb: this.conservativePaired(true), ucb: this.conservativePaired(false) };
  }

  private conservativeLcb(): number | null {
    return this.p.clustered ? this.conservativeClustered().lcb : this.conservativePaired(true);
  }

  private conservativeUcb(): number | null {
    return this.p.clustered ? this.conservativeClustered().ucb : this.conservativePaired(false);
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
        openCluster: this.openCluster,
        openValue: this.openValue,
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
