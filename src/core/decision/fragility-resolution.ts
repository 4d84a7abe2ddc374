/**
 * Resolution distance (SPEC §4, verdict unresolved): the fewest open labels (disputed or
 * unreviewed) whose resolution to valid or broken makes §4 give accept or reject; unbounded when
 * no resolution can.
 *
 * Here every condition must hold at once, so the conditions do not decompose as in review
 * fragility; instead the search runs over COUNTS of interchangeable moves:
 *   - an open task of C resolved valid moves (d, cluster) from U to V;
 *   - resolved broken it leaves U and T (its side counts leave the infra-error and missing
 *     figures), so those kinds are keyed by (d, cluster, side counts);
 *   - an open task outside C resolved broken only leaves T (kind = side counts); resolving it
 *     valid changes no figure and is never needed.
 * "Unbounded" is proven without a search when a check no label can fix fails (harness, dataset
 * revision, a required canary missing), when N_v cannot reach its threshold even with every open
 * label valid, when φ cannot, or when a bound on the margin shows that no resolution can move LCB
 * above δ₀ nor UCB to δ₀ or below (reachableVerdicts, paired SE).
 * Otherwise a greedy order (the move that most reduces the remaining shortfall first, toward
 * accept and toward reject) gives an upper bound G, and levels k = total resolutions are
 * enumerated in increasing order below G, starting from a lower bound that N_v and φ alone imply
 * (with ">="/">" on N_v and "<"/"<=" on φ, nothing beats resolving every one valid). Within a
 * level the split (v valid, b broken in C, r broken outside C) is pruned on N_v and φ, which depend
 * on the split only, then on the T-only checks, before the margin is evaluated — so the common
 * "φ too high" case costs O(k²) per level, not O(k⁵). A level that completes without success is
 * proven; the first success is exact; completing every level below G proves G (or, without G,
 * "unbounded"). FRAGILITY_WORK_BUDGET caps the enumeration; past it G is reported as "at most"
 * unless it meets the proven levels, and "unbounded" without a proof is reported as not exact.
 */
import { exactRatioBounds } from "../stats/validity-bounds.js";
import { satisfies } from "./format.js";
import type { FigureResult, Move } from "./fragility-review.js";
import { GREEDY_MAX_KINDS, type Mirror } from "./fragility-state.js";
import { CAT_OPEN, CAT_OPEN_OUT, dKey, sideKeyFunction, type TaskTable } from "./fragility-table.js";

const FOUND = 1;
const ABORT = 2;

interface Group {
  /** The kind's d interval (dKey) and cluster. */
  readonly d: string;
  readonly cluster: number;
  readonly tasks: number[];
}

interface BrokenKind {
  readonly group: number;
  readonly tasks: number[];
}

export interface ResolutionOptions {
  /** Work budget of the exact enumeration. */
  readonly budget: number;
  /** Work budget of the greedy fallback. */
  readonly greedyBudget: number;
}

export function resolutionDistance(table: TaskTable, mirror: Mirror, opts: ResolutionOptions): FigureResult {
  const p = mirror.p;
  const unbounded: FigureResult = { k: null, exact: true, moves: [] };
  // A failing check that no label can fix (harness, dataset revision, missing canary).
  if (!p.fixedEvidencePass || p.canary === "fail") return unbounded;

  const open: number[] = [];
  const openOut: number[] = [];
  for (let i = 0; i < table.n; i++) {
    if (table.cat[i] === CAT_OPEN) open.push(i);
    else if (table.cat[i] === CAT_OPEN_OUT) openOut.push(i);
  }
  const nU = open.length;
  const nUn = openOut.length;
  const nv = mirror.nV;
  const D = mirror.D;
  const t = p.nvThreshold;
  const nvUp = t.op === ">=" || t.op === ">";
  // Too few tasks even if every open label became valid.
  if (nvUp && !satisfies(nv + nU, t)) return unbounded;

  // Kinds.
  const sideKey = sideKeyFunction(table);
  const groups: Group[] = [];
  const groupIndex = new Map<string, number>();
  const brokenKinds: BrokenKind[] = [];
  const brokenIndex = new Map<string, number>();
  for (const i of open) {
    const d = dKey(table, i);
    const cluster = p.clustered ? (table.cluster[i] as number) : -1;
    const gk = `${d}|${cluster}`;
    let g = groupIndex.get(gk);
    if (g === undefined) {
      g = groups.length;
      groups.push({ d, cluster, tasks: [] });
      groupIndex.set(gk, g);
    }
    (groups[g] as Group).tasks.push(i);
    const bk = `${gk}|${sideKey(i)}`;
    let b = brokenIndex.get(bk);
    if (b === undefined) {
      b = brokenKinds.length;
      brokenKinds.push({ group: g, tasks: [] });
      brokenIndex.set(bk, b);
    }
    (brokenKinds[b] as BrokenKind).tasks.push(i);
  }
  const outKinds: number[][] = [];
  const outIndex = new Map<number | string, number>();
  for (const i of openOut) {
    const key = sideKey(i);
    let o = outIndex.get(key);
    if (o === undefined) {
      o = outKinds.length;
      outKinds.push([]);
      outIndex.set(key, o);
    }
    (outKinds[o] as number[]).push(i);
  }

  // Lower bound on k from N_v and φ (monotone operators only).
  let kLow = 1;
  if (nvUp) {
    let v = 0;
    while (!satisfies(nv + v, t)) v++;
    kLow = Math.max(kLow, v);
  }
  const tp = p.disputedThreshold;
  if ((tp.op === "<" || tp.op === "<=") && nv + D > 0) {
    let k = 0;
    while (k <= D && !satisfies((D - k) / (nv + D), tp)) k++;
    if (k > D) return unbounded;
    kLow = Math.max(kLow, k);
  }

  const reachable = reachableVerdicts(table, mirror, open);
  if (!reachable.accept && !reachable.reject) return unbounded;

  // Greedy first (toward accept, then reject): an upper bound that caps the exact search.
  let greedyBest: Move[] | null = null;
  for (const target of ["accept", "reject"] as const) {
    if (!reachable[target]) continue;
    const limit: number = greedyBest?.length ?? Infinity;
    // At most four greedy runs (two targets, by cluster then per d) share the greedy budget.
    const share = Math.floor(opts.greedyBudget / 4);
    let g: Move[] | null = p.clustered
      ? greedy(table, mirror, open, openOut, target, true, limit, share)
      : null;
    if (g === null) g = greedy(table, mirror, open, openOut, target, false, limit, share);
    if (g !== null && (greedyBest === null || g.length < greedyBest.length)) greedyBest = g;
  }
  const maxLevel = greedyBest !== null ? greedyBest.length - 1 : nU + nUn;
  const search = enumerate(mirror, groups, brokenKinds, outKinds, nU, nUn, kLow, maxLevel, opts.budget);
  if (search.found !== null) return { k: search.found.length, exact: true, moves: search.found };
  if (greedyBest === null) return search.aborted ? { k: null, exact: false, moves: [] } : unbounded;
  return { k: greedyBest.length, exact: greedyBest.length <= search.provenBelow, moves: greedyBest };
}

/**
 * Which verdicts some resolution could still reach, by a bound on the margin (paired SE; with
 * clustered SE both stay possible). After any resolution V' ⊇ V and every set the SE is taken on
 * is a superset of V with at most N_v + D tasks; adding tasks never lowers Σ(d − d̄)², so
 * SE' ≥ SE_min = sqrt(SS(V) / ((N_v + D)(N_v + D − 1))). Every bound lies between the exact
 * extremes over U: Δ_L(U) ≤ Δ_L', Δ_H' ≤ Δ_H(U) (pessimistic bounds are wider, which only helps).
 * The quantile q' ≥ q_min = q(ν = N_v + D − 1), since t_ν⁻¹ decreases in ν (constant for z).
 * With lost results (SPEC §3.8) Δ_L takes the low ends of d and Δ_H the high ends, and with one
 * in V, SE_min is 0 (V's sum of squares is not fixed).
 * So LCB' ≤ Δ_H(U) − q_min·SE_min and UCB' ≥ Δ_L(U) + q_min·SE_min: when the first is ≤ δ₀ no resolution
 * accepts, when the second is > δ₀ none rejects — a proof of "unbounded" without a search.
 */
function reachableVerdicts(
  table: TaskTable,
  mirror: Mirror,
  open: readonly number[],
): { accept: boolean; reject: boolean } {
  const p = mirror.p;
  if (p.clustered) return { accept: true, reject: true };
  const nv = mirror.nV;
  const n = nv + mirror.D;
  const u = mirror.unit;
  const low = exactRatioBounds(
    mirror.sV / u,
    nv,
    Float64Array.from(open, (i) => table.d[i] as number),
  );
  const high =
    table.dHigh === table.d
      ? low
      : exactRatioBounds(
          mirror.sVh / u,
          nv,
          Float64Array.from(open, (i) => table.dHigh[i] as number),
        );
  const lower = low.lower;
  const upper = high.upper;
  if (lower === null || upper === null) return { accept: false, reject: false };
  const pointV = !mirror.lostInV();
  const ss = nv > 0 && pointV ? Math.max(0, mirror.qV - (mirror.sV * mirror.sV) / nv) / (u * u) : 0;
  const seMin = n >= 2 ? Math.sqrt(ss / (n * (n - 1))) : 0;
  // The smallest quantile any such set can have: t_ν⁻¹ decreases in ν = n' − 1 ≤ n − 1.
  const qMin = n >= 2 ? p.quantile(n - 1) : 0;
  // A small safety margin: only rule a verdict out when the bound is clearly on the other side.
  const eps = 1e-9;
  return {
    accept: upper - qMin * seMin > p.delta0 - eps,
    reject: lower + qMin * seMin <= p.delta0 + eps,
  };
}

interface SearchResult {
  readonly found: Move[] | null;
  readonly provenBelow: number;
  readonly aborted: boolean;
}

/**
 * The enumeration's state: how many open tasks of each kind are resolved valid (vCount, per
 * (d, cluster) group), broken in C (bCount, per broken kind) and broken outside C (rCount), applied
 * to the mirror as the recursion descends and undone as it returns.
 */
class ResolutionSearch {
  readonly usedB: number[];
  readonly vCount: number[];
  readonly bCount: number[];
  readonly rCount: number[];
  private readonly bSuffix: number[];
  private readonly rSuffix: number[];
  private readonly vSuffix: number[];
  private work = 0;
  private readonly spent0: number;

  constructor(
    private readonly mirror: Mirror,
    private readonly groups: readonly Group[],
    private readonly brokenKinds: readonly BrokenKind[],
    private readonly outKinds: readonly (readonly number[])[],
    private readonly budget: number,
  ) {
    const G = groups.length;
    this.usedB = new Array<number>(G).fill(0);
    this.vCount = new Array<number>(G).fill(0);
    this.bCount = new Array<number>(brokenKinds.length).fill(0);
    this.rCount = new Array<number>(outKinds.length).fill(0);
    this.bSuffix = suffixSums(brokenKinds.map((k) => k.tasks.length));
    this.rSuffix = suffixSums(outKinds.map((k) => k.length));
    this.vSuffix = new Array<number>(G + 1).fill(0);
    this.spent0 = mirror.spent;
  }

  /** One more state evaluated; true past the budget. */
  tick(): boolean {
    this.work++;
    return this.work + this.mirror.spent - this.spent0 > this.budget;
  }

  /** `rem` open tasks of the groups from g on resolved valid (those not already broken). */
  recV(g: number, rem: number): number {
    const { mirror, groups } = this;
    if (rem === 0 || g === groups.length) {
      if (rem !== 0) return 0;
      if (this.tick()) return ABORT;
      const v = mirror.verdict();
      return v === "accept" || v === "reject" ? FOUND : 0;
    }
    if (rem > (this.vSuffix[g] as number)) return 0;
    const grp = groups[g] as Group;
    const cap = Math.min(grp.tasks.length - (this.usedB[g] as number), rem);
    const rep = grp.tasks[0] as number;
    for (let x = cap; x >= 0; x--) {
      if (rem - x > (this.vSuffix[g + 1] as number)) break;
      if (x > 0) {
        mirror.addOpen(rep, -x);
        mirror.addValid(rep, x);
      }
      this.vCount[g] = x;
      const st = this.recV(g + 1, rem - x);
      if (x > 0) {
        mirror.addOpen(rep, x);
        mirror.addValid(rep, -x);
      }
      if (st !== 0) return st;
      this.vCount[g] = 0;
    }
    return 0;
  }

  /** `rem` open tasks of C of the broken kinds from j on resolved broken, then `v` resolved valid. */
  recB(j: number, rem: number, v: number): number {
    const { mirror, brokenKinds, groups } = this;
    if (rem === 0 || j === brokenKinds.length) {
      if (rem !== 0) return 0;
      if (this.tick()) return ABORT;
      if (!mirror.sidePasses()) return 0;
      for (let g = groups.length - 1; g >= 0; g--) {
        this.vSuffix[g] =
          (this.vSuffix[g + 1] as number) + (groups[g] as Group).tasks.length - (this.usedB[g] as number);
      }
      return this.recV(0, v);
    }
    if (rem > (this.bSuffix[j] as number)) return 0;
    const kind = brokenKinds[j] as BrokenKind;
    const rep = kind.tasks[0] as number;
    const cap = Math.min(kind.tasks.length, rem);
    for (let x = cap; x >= 0; x--) {
      if (rem - x > (this.bSuffix[j + 1] as number)) break;
      if (x > 0) {
        mirror.addOpen(rep, -x);
        mirror.addSide(rep, -x);
      }
      this.usedB[kind.group] = (this.usedB[kind.group] as number) + x;
      this.bCount[j] = x;
      const st = this.recB(j + 1, rem - x, v);
      if (x > 0) {
        mirror.addOpen(rep, x);
        mirror.addSide(rep, x);
      }
      this.usedB[kind.group] = (this.usedB[kind.group] as number) - x;
      if (st !== 0) return st;
      this.bCount[j] = 0;
    }
    return 0;
  }

  /** `rem` open tasks outside C of the kinds from j on resolved broken, then b and v as above. */
  recR(j: number, rem: number, b: number, v: number): number {
    const { mirror, outKinds } = this;
    if (rem === 0 || j === outKinds.length) {
      if (rem !== 0) return 0;
      return this.recB(0, b, v);
    }
    if (rem > (this.rSuffix[j] as number)) return 0;
    const kind = outKinds[j] as readonly number[];
    const rep = kind[0] as number;
    const cap = Math.min(kind.length, rem);
    for (let x = cap; x >= 0; x--) {
      if (rem - x > (this.rSuffix[j + 1] as number)) break;
      if (x > 0) mirror.addSide(rep, -x);
      this.rCount[j] = x;
      const st = this.recR(j + 1, rem - x, b, v);
      if (x > 0) mirror.addSide(rep, x);
      if (st !== 0) return st;
      this.rCount[j] = 0;
    }
    return 0;
  }

  /** The moves of the state found: the first tasks of each kind, in dataset order. */
  moves(): Move[] {
    const used = new Set<number>();
    const moves: Move[] = [];
    this.brokenKinds.forEach((kind, j) => {
      for (const index of kind.tasks.slice(0, this.bCount[j])) {
        used.add(index);
        moves.push({ index, to: "broken" });
      }
    });
    this.groups.forEach((grp, g) => {
      let left = this.vCount[g] as number;
      for (const index of grp.tasks) {
        if (left === 0) break;
        if (used.has(index)) continue;
        moves.push({ index, to: "valid" });
        left--;
      }
    });
    this.outKinds.forEach((kind, j) => {
      for (const index of kind.slice(0, this.rCount[j])) moves.push({ index, to: "broken" });
    });
    return moves;
  }
}

/** s[j] = Σ_{i ≥ j} x[i], with s[x.length] = 0. */
function suffixSums(x: readonly number[]): number[] {
  const s = new Array<number>(x.length + 1).fill(0);
  for (let j = x.length - 1; j >= 0; j--) s[j] = (s[j + 1] as number) + (x[j] as number);
  return s;
}

function enumerate(
  mirror: Mirror,
  groups: readonly Group[],
  brokenKinds: readonly BrokenKind[],
  outKinds: readonly (readonly number[])[],
  nU: number,
  nUn: number,
  kLow: number,
  maxLevel: number,
  budget: number,
): SearchResult {
  const p = mirror.p;
  const nv = mirror.nV;
  const D = mirror.D;
  const search = new ResolutionSearch(mirror, groups, brokenKinds, outKinds, budget);
  const maxK = Math.min(maxLevel, nU + nUn);
  // Levels k = v (valid) + b (broken in C) + r (broken outside C), pruned on N_v and φ first.
  for (let k = kLow; k <= maxK; k++) {
    for (let v = Math.min(k, nU); v >= 0; v--) {
      for (let b = Math.min(k - v, nU - v); b >= 0; b--) {
        const r = k - v - b;
        if (r > nUn) break;
        if (search.tick()) return { found: null, provenBelow: k, aborted: true };
        const nv2 = nv + v;
        const d2 = D - v - b;
        if (!satisfies(nv2, p.nvThreshold)) continue;
        if (!(nv2 + d2 > 0 && satisfies(d2 / (nv2 + d2), p.disputedThreshold))) continue;
        const st = search.recR(0, r, b, v);
        if (st === ABORT) return { found: null, provenBelow: k, aborted: true };
        if (st === FOUND) return { found: search.moves(), provenBelow: k, aborted: false };
      }
    }
  }
  return { found: null, provenBelow: maxLevel + 1, aborted: false };
}

/**
 * Greedy toward one verdict: at each step try, per kind (d, cluster), the next open task of C
 * resolved valid; per (d, cluster, side counts) the next resolved broken (without the cluster
 * unless `splitByCluster`; null when splitting makes more than GREEDY_MAX_KINDS kinds); per side counts the next open
 * task outside C resolved broken — and keep the one that leaves the smallest shortfall (failing
 * checks, each weighted by roughly how many tasks it still needs). Incremental; ≤ `limit` steps.
 */
function greedy(
  table: TaskTable,
  mirror: Mirror,
  open: readonly number[],
  openOut: readonly number[],
  target: "accept" | "reject",
  splitByCluster: boolean,
  limit: number,
  budget: number,
): Move[] | null {
  const p = mirror.p;
  type Queue = { tasks: number[]; at: number };
  const queues = (indices: readonly number[], key: (i: number) => string): Queue[] => {
    const m = new Map<string, Queue>();
    for (const i of indices) {
      const k = key(i);
      let q = m.get(k);
      if (q === undefined) {
        q = { tasks: [], at: 0 };
        m.set(k, q);
      }
      q.tasks.push(i);
    }
    return [...m.values()];
  };
  const sideKey = sideKeyFunction(table);
  const clusterOf = (i: number): number => (splitByCluster ? (table.cluster[i] as number) : -1);
  const toValid = queues(open, (i) => `${dKey(table, i)}|${clusterOf(i)}`);
  if (splitByCluster && toValid.length > GREEDY_MAX_KINDS) return null;
  const toBroken = queues(open, (i) => `${dKey(table, i)}|${clusterOf(i)}|${sideKey(i)}`);
  const outBroken = queues(openOut, (i) => String(sideKey(i)));
  const done = new Set<number>();
  const apply = (i: number, kind: 0 | 1 | 2, sign: number): void => {
    if (kind === 0) {
      mirror.addOpen(i, -sign);
      mirror.addValid(i, sign);
    } else if (kind === 1) {
      mirror.addOpen(i, -sign);
      mirror.addSide(i, -sign);
    } else mirror.addSide(i, -sign);
  };
  const next = (q: Queue): number | null => {
    while (q.at < q.tasks.length && done.has(q.tasks[q.at] as number)) q.at++;
    return q.at < q.tasks.length ? (q.tasks[q.at] as number) : null;
  };
  const shortfall = (): number => {
    let s = 0;
    const up = (op: string): boolean => op === ">=" || op === ">";
    if (!mirror.nvPasses())
      s += 1 + (up(p.nvThreshold.op) ? Math.max(0, p.nvThreshold.value - mirror.nV) : 0);
    if (!mirror.disputedPasses()) {
      const tp = p.disputedThreshold;
      s += 1 + (!up(tp.op) ? Math.max(0, mirror.D - tp.value * (mirror.nV + mirror.D)) : 0);
    }
    const ratio = (num: number, den: number, tp: typeof p.infraThreshold): void => {
      if (den > 0 && satisfies(num / den, tp)) return;
      s += 1 + (!up(tp.op) ? Math.max(0, num - tp.value * den) : 0);
    };
    ratio(mirror.infA, mirror.pfiA, p.infraThreshold);
    ratio(mirror.infB, mirror.pfiB, p.infraThreshold);
    if (p.missingThreshold !== undefined) {
      ratio(mirror.missA, mirror.T, p.missingThreshold);
      ratio(mirror.missB, mirror.T, p.missingThreshold);
    }
    if (target === "accept") {
      const l = mirror.lcbEstimate();
      if (l === null) s += 3;
      else if (!(l > p.delta0)) s += 1 + (p.delta0 - l) * mirror.nV;
    } else {
      const u = mirror.ucbEstimate();
      if (u === null) s += 3;
      else if (!(u <= p.delta0)) s += 1 + (u - p.delta0) * mirror.nV;
    }
    return s;
  };
  const moves: { index: number; kind: 0 | 1 | 2 }[] = [];
  let work = 0;
  const spent0 = mirror.spent;
  const over = (): boolean => work + mirror.spent - spent0 > budget;
  let success = false;
  const lists: [Queue[], 0 | 1 | 2][] = [
    [toValid, 0],
    [toBroken, 1],
    [outBroken, 2],
  ];
  while (moves.length < limit && !over()) {
    let bestS = Infinity;
    let best: { index: number; kind: 0 | 1 | 2 } | null = null;
    for (const [qs, kind] of lists) {
      for (const q of qs) {
        const i = next(q);
        if (i === null) continue;
        apply(i, kind, 1);
        const s = shortfall();
        apply(i, kind, -1);
        work++;
        if (s < bestS) {
          bestS = s;
          best = { index: i, kind };
        }
      }
    }
    if (best === null) break;
    apply(best.index, best.kind, 1);
    done.add(best.index);
    moves.push(best);
    if (mirror.verdict() === target) {
      success = true;
      break;
    }
  }
  for (let j = moves.length - 1; j >= 0; j--) {
    const m = moves[j] as (typeof moves)[number];
    apply(m.index, m.kind, -1);
  }
  if (!success) return null;
  return moves.map((m) => ({ index: m.index, to: m.kind === 0 ? "valid" : "broken" }));
}
