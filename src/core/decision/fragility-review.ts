/**
 * Review fragility (SPEC §4, verdict accept or reject): the fewest changes to reviewed labels —
 * a valid task becomes broken, or a broken task that both models attempted becomes valid —
 * after which §4 gives a different verdict.
 *
 * Decomposition. An accept (or a reject that is not a failed canary) holds only while EVERY
 * label-dependent condition holds: N_v, the disputed fraction, each model's infra-error rate and
 * missing fraction, and the margin (LCB > δ₀, resp. UCB ≤ δ₀). The verdict changes as soon as ANY
 * one of them fails, so the fewest changes that flip the verdict is the minimum over the
 * conditions of the fewest changes that make that one condition fail — side effects on the other
 * conditions cannot make it worse (they can only fail too). Each condition is solved exactly:
 *
 * - N_v and φ = D/(N_v + D) depend only on the net change of N_v (±1 per change) and fail on a
 *   half-line of N_v: a binary search in each direction.
 * - A ratio check num/den against τ (infra-error rate: infra/(pass+fail+infra) attempts on T;
 *   missing fraction: missing/|T|) fails exactly when num − τ·den crosses 0 (or den reaches 0), a
 *   linear function of the moved tasks: the best k moves are the k largest gains, so taking tasks
 *   by gain (grouped by equal side counts, a binary search inside a group) is exact; den = 0 is a
 *   separate, counted route.
 * - The margin depends only on V's d values (U is fixed: open labels are not changed here). Tasks
 *   with equal (d, cluster) are interchangeable, and removing a valid task of a kind and adding a
 *   broken one of the same kind cancel, so only the NET move per kind matters: enumerate integer
 *   vectors n (−#valid ≤ n_x ≤ #broken-attempted) in increasing |n|₁, each checked in
 *   O(#distinct U values) without allocating. Single attempts with paired SE give 3 kinds
 *   (d = −1, 0, +1); clustered SE multiplies them by the clusters. The search stops at the first
 *   level that flips and never goes beyond the cheapest other condition, the certain flip "every
 *   valid task broken" (N_v = 0 leaves the margin undefined), or the greedy bound computed first
 *   (the most harmful single change at each step, re-evaluated incrementally). If it would
 *   exceed FRAGILITY_WORK_BUDGET the greedy bound stands and is reported as "at most", unless it
 *   equals the proven lower bound (every level searched in full).
 */
import type { Threshold } from "../policy/policy-types.js";
import { satisfies } from "./format.js";
import { GREEDY_MAX_KINDS, type Mirror } from "./fragility-state.js";
import {
  CAT_BROKEN_IN,
  CAT_OPEN,
  CAT_OPEN_OUT,
  CAT_VALID,
  CAT_VALID_OUT,
  SIDE_WIDTH,
  dKey,
  sideKeyFunction,
  type TaskTable,
} from "./fragility-table.js";

export interface Move {
  /** Index into dataset.tasks. */
  readonly index: number;
  readonly to: "valid" | "broken";
}

export interface FigureResult {
  /** null = no change of the allowed kind can decide / flip it (unbounded). */
  readonly k: number | null;
  readonly exact: boolean;
  /** The changes that achieve k (all of them, in report order). */
  readonly moves: readonly Move[];
}

/**
 * A way to change the verdict with k moves. `moves` is made when read (a getter for the
 * conditions' candidates): each condition proposes one, at 10⁶ tasks often of most tasks, and only
 * the best one's moves are reported.
 */
interface Candidate {
  readonly k: number;
  readonly moves: Move[];
}

const FOUND = 1;
const ABORT = 2;

/**
 * "Most harmful first": d descending for an accept (ascending for a reject), then dataset order.
 * Bucketed by the few distinct d values: O(n) rather than a comparison sort.
 */
function harmOrder(d: Float64Array, indices: readonly number[], descending: boolean): number[] {
  const buckets = new Map<number, number[]>();
  for (const i of indices) {
    const x = d[i] as number;
    let b = buckets.get(x);
    if (b === undefined) {
      b = [];
      buckets.set(x, b);
    }
    b.push(i);
  }
  const keys = [...buckets.keys()].sort((x, y) => (descending ? y - x : x - y));
  const out: number[] = [];
  for (const k of keys) for (const i of buckets.get(k) as number[]) out.push(i);
  return out;
}

/**
 * Smallest m in [1, limit] with fails(m), for fails monotone in m (false…false true…true);
 * null when fails(limit) is false.
 */
function firstFailing(limit: number, fails: (m: number) => boolean): number | null {
  if (limit < 1 || !fails(limit)) return null;
  let lo = 0; // fails(lo) is false (m = 0 is the current, passing state)
  let hi = limit;
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (fails(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * Smallest m ≥ 1 such that N_v − m (m removals) or N_v + m (m additions) makes `fails` true;
 * removals first on ties. Both checks that use it fail on a half-line of N (a threshold on N_v,
 * or on φ = D/(N + D), which is monotone in N; N + D = 0, φ undefined, is the far end of the
 * removals), so each direction is a binary search.
 */
function countCondition(
  nV: number,
  removable: readonly number[],
  addable: readonly number[],
  fails: (n: number) => boolean,
): Candidate | null {
  const down = firstFailing(removable.length, (m) => fails(nV - m));
  const up = firstFailing(addable.length, (m) => fails(nV + m));
  if (down !== null && (up === null || down <= up)) {
    return {
      k: down,
      get moves(): Move[] {
        return removable.slice(0, down).map((index) => ({ index, to: "broken" }));
      },
    };
  }
  if (up !== null) {
    return {
      k: up,
      get moves(): Move[] {
        return addable.slice(0, up).map((index) => ({ index, to: "valid" }));
      },
    };
  }
  return null;
}

/** Tasks with equal side counts (all six), in the order given; `rep` stands for the group. */
interface SideGroup {
  readonly rep: number;
  readonly tasks: number[];
}

function groupBySide(table: TaskTable, indices: readonly number[]): SideGroup[] {
  const keyOf = sideKeyFunction(table);
  const groups = new Map<number | string, SideGroup>();
  for (const i of indices) {
    const key = keyOf(i);
    let g = groups.get(key);
    if (g === undefined) {
      g = { rep: i, tasks: [] };
      groups.set(key, g);
    }
    g.tasks.push(i);
  }
  return [...groups.values()];
}

/**
 * Fewest moves making num/den fail threshold t (or den = 0). `numOf`/`denOf` give a task's
 * contribution; removals take it away (valid tasks of T), additions bring it (broken tasks
 * attempted by both). `fixedDen` is true when a task of T that cannot move contributes to den
 * (then den never reaches 0).
 *
 * Failing means num − τ·den crossing 0 (upwards for "<", "<="; downwards for ">", ">="), linear
 * in the moved tasks, so the k moves with the largest gains are the best k moves. Tasks with equal
 * side counts form one group (a handful per dataset); groups are taken by gain, and inside a
 * group the ratio moves monotonically toward the group's own ratio, so the crossing is a binary
 * search. O(#groups · log n) after the grouping.
 */
function ratioCondition(
  num: number,
  den: number,
  t: Threshold,
  removable: readonly SideGroup[],
  addable: readonly SideGroup[],
  numOf: (i: number) => number,
  denOf: (i: number) => number,
  fixedDen: boolean,
): Candidate | null {
  const fails = (x: number, y: number): boolean => !(y > 0 && satisfies(x / y, t));
  const s = t.op === "<" || t.op === "<=" ? 1 : -1;
  const tau = t.value;
  interface Step {
    readonly a: number;
    readonly b: number;
    readonly sign: number;
    readonly gain: number;
    readonly tasks: readonly number[];
  }
  const steps: Step[] = [];
  for (const [list, sign] of [
    [removable, -1],
    [addable, 1],
  ] as const) {
    for (const g of list) {
      const a = numOf(g.rep);
      const b = denOf(g.rep);
      const gain = s * sign * (a - tau * b);
      if (gain > 0) steps.push({ a, b, sign, gain, tasks: g.tasks });
    }
  }
  steps.sort((x, y) => y.gain - x.gain || (x.tasks[0] as number) - (y.tasks[0] as number));
  const to = (sign: number): Move["to"] => (sign < 0 ? "broken" : "valid");
  let best: Candidate | null = null;
  let x = num;
  let y = den;
  let taken = 0;
  for (let j = 0; j < steps.length; j++) {
    const g = steps[j] as Step;
    const m = firstFailing(g.tasks.length, (c) => fails(x + g.sign * c * g.a, y + g.sign * c * g.b));
    if (m !== null) {
      best = {
        k: taken + m,
        get moves(): Move[] {
          const moves: Move[] = [];
          for (const h of steps.slice(0, j))
            for (const index of h.tasks) moves.push({ index, to: to(h.sign) });
          for (const index of g.tasks.slice(0, m)) moves.push({ index, to: to(g.sign) });
          return moves;
        },
      };
      break;
    }
    x += g.sign * g.tasks.length * g.a;
    y += g.sign * g.tasks.length * g.b;
    taken += g.tasks.length;
  }
  if (!fixedDen) {
    const zeroing: number[] = [];
    // A loop, not push(...g.tasks): a spread of a data-sized array overflows the stack.
    for (const g of removable) if (denOf(g.rep) > 0) for (const t of g.tasks) zeroing.push(t);
    if (zeroing.length > 0 && (best === null || zeroing.length < best.k)) {
      zeroing.sort((p, q) => p - q);
      best = {
        k: zeroing.length,
        get moves(): Move[] {
          return zeroing.map((index) => ({ index, to: "broken" }));
        },
      };
    }
  }
  return best;
}

interface Kind {
  /** The end of d the verdict's bound moves with (accept: the low end; reject: the high end). */
  readonly d: number;
  /** Both ends of d: the kind's key, and in the table's units (what the mirror adds). */
  readonly key: string;
  readonly du: number;
  readonly duHigh: number;
  readonly cluster: number;
  /** Valid tasks (V) of this kind, in dataset order: the removals. */
  readonly valid: number[];
  /** Broken tasks attempted by both, of this kind, in dataset order: the additions. */
  readonly broken: number[];
}

export interface ReviewOptions {
  /** Work budget of the exact enumeration. */
  readonly budget: number;
  /** Work budget of the greedy fallback. */
  readonly greedyBudget: number;
}

/**
 * Review fragility of an accept or reject. `mirror` is a fresh Mirror of the dataset; it is
 * modified during the search and restored before returning.
 */
export function reviewFragility(
  table: TaskTable,
  mirror: Mirror,
  verdict: "accept" | "reject",
  opts: ReviewOptions,
): FigureResult {
  const p = mirror.p;
  if (p.canary === "fail") return { k: null, exact: true, moves: [] };
  const accept = verdict === "accept";
  const valid: number[] = [];
  const validOut: number[] = [];
  const brokenIn: number[] = [];
  const openT: number[] = [];
  for (let i = 0; i < table.n; i++) {
    const c = table.cat[i];
    if (c === CAT_VALID) valid.push(i);
    else if (c === CAT_VALID_OUT) validOut.push(i);
    else if (c === CAT_BROKEN_IN) brokenIn.push(i);
    else if (c === CAT_OPEN || c === CAT_OPEN_OUT) openT.push(i);
  }
  // Most harmful first: for an accept, remove high-d valid tasks and add low-d broken ones.
  // (With lost results, LCB moves with the low ends of d and UCB with the high ends.)
  const dOf = accept ? table.d : table.dHigh;
  const removeOrder = harmOrder(dOf, [...valid], accept);
  const addOrder = harmOrder(dOf, [...brokenIn], !accept);

  const candidates: Candidate[] = [];
  const push = (c: Candidate | null): void => {
    if (c !== null) candidates.push(c);
  };
  // N_v and the disputed fraction: only N_v moves (D is fixed).
  push(countCondition(mirror.nV, removeOrder, addOrder, (n) => !satisfies(n, p.nvThreshold)));
  push(
    countCondition(mirror.nV, removeOrder, addOrder, (n) => {
      const c = n + mirror.D;
      return !(c > 0 && satisfies(mirror.D / c, p.disputedThreshold));
    }),
  );
  // Ratio checks on T: removals are valid tasks of T (in C or not), additions broken-in tasks.
  const removableT = groupBySide(table, [...removeOrder, ...validOut]);
  const addableT = groupBySide(table, addOrder);
  const side = table.side;
  const col = (k: number) => (i: number) => side[i * SIDE_WIDTH + k] as number;
  const one = (): number => 1;
  for (const [infOff, pfiOff, missOff] of [
    [3, 4, 5],
    [0, 1, 2],
  ] as const) {
    const inf = infOff === 0 ? mirror.infA : mirror.infB;
    const pfi = infOff === 0 ? mirror.pfiA : mirror.pfiB;
    const fixedPfi = openT.some((i) => col(pfiOff)(i) > 0);
    push(
      ratioCondition(inf, pfi, p.infraThreshold, removableT, addableT, col(infOff), col(pfiOff), fixedPfi),
    );
    if (p.missingThreshold !== undefined) {
      const miss = infOff === 0 ? mirror.missA : mirror.missB;
      push(
        ratioCondition(
          miss,
          mirror.T,
          p.missingThreshold,
          removableT,
          addableT,
          col(missOff),
          one,
          openT.length > 0,
        ),
      );
    }
  }
  let otherBest: Candidate | null = null;
  for (const c of candidates) if (otherBest === null || c.k < otherBest.k) otherBest = c;

  // The margin, with the certain flip "every valid task broken" (N_v = 0: margin undefined).
  const certain = {
    k: removeOrder.length,
    get moves(): Move[] {
      return removeOrder.map((index): Move => ({ index, to: "broken" }));
    },
  };
  const limit = Math.min(otherBest?.k ?? Infinity, certain.k);
  const flipped = accept ? (): boolean => !mirror.lcbClears() : (): boolean => !mirror.ucbAtMost();
  const kinds = marginKinds(table, valid, brokenIn, p.clustered, accept);
  // Greedy first: a cheap upper bound that caps the exact search. Split by cluster when that is
  // affordable, else (or if it finds nothing) per d.
  const byCluster = p.clustered && kinds.length <= GREEDY_MAX_KINDS;
  const half = Math.floor(opts.greedyBudget / 2);
  let margin: Candidate | null = null;
  if (byCluster) margin = greedyMargin(mirror, kinds, true, limit, flipped, accept, half);
  if (margin === null) margin = greedyMargin(mirror, kinds, false, limit, flipped, accept, half);
  if (margin === null && certain.k <= limit) margin = certain;
  // Exact search for anything strictly better than the known margin flip; up to `limit`
  // inclusive otherwise, so that the margin wins ties with the other conditions.
  const top = margin !== null ? Math.min(margin.k - 1, limit) : limit;
  const exact = enumerateMargin(mirror, kinds, top, flipped, accept, opts.budget);
  if (exact.found !== null) margin = exact.found;

  // Prefer the margin on ties: it is the substantive condition.
  let best: Candidate | null = margin;
  if (otherBest !== null && (best === null || otherBest.k < best.k)) best = otherBest;
  // Every level below exact.provenBelow is proven not to flip the margin; the others are exact.
  if (best === null) return { k: null, exact: !exact.aborted, moves: [] };
  return { k: best.k, exact: best.k <= exact.provenBelow, moves: best.moves };
}

function marginKinds(
  table: TaskTable,
  valid: readonly number[],
  brokenIn: readonly number[],
  clustered: boolean,
  accept: boolean,
): Kind[] {
  const byD = new Map<string, Map<number, Kind>>();
  const kindOf = (i: number): Kind => {
    const key = dKey(table, i);
    const cluster = clustered ? (table.cluster[i] as number) : -1;
    let m = byD.get(key);
    if (m === undefined) {
      m = new Map();
      byD.set(key, m);
    }
    let k = m.get(cluster);
    if (k === undefined) {
      const d = (accept ? table.d[i] : table.dHigh[i]) as number;
      k = {
        d,
        key,
        du: table.du[i] as number,
        duHigh: table.duHigh[i] as number,
        cluster,
        valid: [],
        broken: [],
      };
      m.set(cluster, k);
    }
    return k;
  };
  for (const i of valid) kindOf(i).valid.push(i);
  for (const i of brokenIn) kindOf(i).broken.push(i);
  // Most harmful kinds first (accept: highest d), then cluster: deterministic search order.
  const kinds: Kind[] = [];
  for (const m of byD.values()) for (const k of m.values()) kinds.push(k);
  return kinds.sort((x, y) => (accept ? y.d - x.d : x.d - y.d) || x.cluster - y.cluster);
}

interface EnumerationResult {
  readonly found: Candidate | null;
  /** Every |n|₁ < provenBelow is proven not to flip. */
  readonly provenBelow: number;
  readonly aborted: boolean;
}

/**
 * Enumerate net moves per kind in increasing |n|₁ = 1..limit; stop at the first flip. Within a
 * level, kinds are tried most harmful first and each kind's harmful direction first, so the
 * reported changes are the natural ones (e.g. "valid tasks only the candidate passes → broken").
 */
function enumerateMargin(
  mirror: Mirror,
  kinds: readonly Kind[],
  limit: number,
  flipped: () => boolean,
  accept: boolean,
  budget: number,
): EnumerationResult {
  const m = kinds.length;
  const lo = kinds.map((k) => k.valid.length);
  const hi = kinds.map((k) => k.broken.length);
  // Harmful direction: for an accept, removing tasks above the margin and adding those below.
  const mean = mirror.nV > 0 ? (accept ? mirror.sV : mirror.sVh) / mirror.nV / mirror.unit : 0;
  const removeFirst = kinds.map((k) => (accept ? k.d > mean : k.d < mean));
  const suffixMax = new Array<number>(m + 1).fill(0);
  for (let i = m - 1; i >= 0; i--) {
    suffixMax[i] = (suffixMax[i + 1] as number) + Math.max(lo[i] as number, hi[i] as number);
  }
  const net = new Array<number>(m).fill(0);
  let work = 0;
  const spent0 = mirror.spent;
  const over = (): boolean => work + mirror.spent - spent0 > budget;

  const rec = (i: number, rem: number): number => {
    if (rem === 0 || i === m) {
      if (rem !== 0) return 0;
      work++;
      if (over()) return ABORT;
      return flipped() ? FOUND : 0;
    }
    if (rem > (suffixMax[i] as number)) return 0;
    const kind = kinds[i] as Kind;
    const down = Math.min(lo[i] as number, rem);
    const up = Math.min(hi[i] as number, rem);
    const nextMax = suffixMax[i + 1] as number;
    // Values of n_i: the harmful direction first, large moves first; then the other; 0 last.
    const first = removeFirst[i] ? -1 : 1;
    for (let pass = 0; pass < 3; pass++) {
      const sign = pass === 0 ? first : -first;
      const most = pass === 2 ? 0 : (pass === 0) === first < 0 ? down : up;
      const least = pass === 2 ? 0 : 1;
      for (let a = most; a >= least; a--) {
        const left = rem - a;
        // left only grows as a shrinks: the rest cannot be placed.
        if (left > nextMax) break;
        const x = sign * a;
        if (x !== 0) mirror.addValidValue(kind.du, kind.duHigh, kind.cluster, x);
        net[i] = x;
        const st = rec(i + 1, left);
        if (x !== 0) mirror.addValidValue(kind.du, kind.duHigh, kind.cluster, -x);
        if (st !== 0) return st;
        net[i] = 0;
      }
    }
    return 0;
  };

  const top = Math.min(limit, suffixMax[0] as number);
  for (let level = 1; level <= top; level++) {
    const st = rec(0, level);
    if (st === ABORT) return { found: null, provenBelow: level, aborted: true };
    if (st === FOUND) {
      const moves: Move[] = [];
      kinds.forEach((k, i) => {
        const x = net[i] as number;
        if (x < 0) for (const index of k.valid.slice(0, -x)) moves.push({ index, to: "broken" });
      });
      kinds.forEach((k, i) => {
        const x = net[i] as number;
        if (x > 0) for (const index of k.broken.slice(0, x)) moves.push({ index, to: "valid" });
      });
      return { found: { k: level, moves }, provenBelow: level, aborted: false };
    }
  }
  // Levels above suffixMax[0] have no vectors at all: everything up to `limit` is proven.
  return { found: null, provenBelow: limit + 1, aborted: false };
}

/**
 * Greedy upper bound for the margin: repeatedly make the single change (per kind (d, cluster): the
 * next valid task to break, or the next broken task to validate, in dataset order) that moves the
 * bound furthest toward δ₀, re-evaluating incrementally; at most `limit` steps.
 */
function greedyMargin(
  mirror: Mirror,
  kinds: readonly Kind[],
  byCluster: boolean,
  limit: number,
  flipped: () => boolean,
  accept: boolean,
  budget: number,
): Candidate | null {
  // Per kind, how many of its valid tasks were broken (ri) / broken tasks validated (ai). Without
  // byCluster, (d, cluster) kinds are merged per d, tasks in dataset order.
  let groups: { rem: readonly number[]; add: readonly number[] }[] = kinds.map((k) => ({
    rem: k.valid,
    add: k.broken,
  }));
  if (!byCluster) {
    const byD = new Map<string, { rem: number[]; add: number[] }>();
    for (const k of kinds) {
      let g = byD.get(k.key);
      if (g === undefined) {
        g = { rem: [], add: [] };
        byD.set(k.key, g);
      }
      for (const t of k.valid) g.rem.push(t);
      for (const t of k.broken) g.add.push(t);
    }
    groups = [...byD.values()].map((g) => ({
      rem: g.rem.sort((x, y) => x - y),
      add: g.add.sort((x, y) => x - y),
    }));
  }
  const list = groups.map((g) => ({ ...g, ri: 0, ai: 0 }));
  const score = (): number => {
    const b = accept ? mirror.lcbEstimate() : mirror.ucbEstimate();
    if (b === null) return -Infinity;
    return accept ? b : -b;
  };
  const moves: Move[] = [];
  let work = 0;
  const spent0 = mirror.spent;
  const over = (): boolean => work + mirror.spent - spent0 > budget;
  let result: Candidate | null = null;
  while (moves.length < limit) {
    let bestScore = Infinity;
    let bestG = -1;
    let bestRemove = true;
    for (let gi = 0; gi < list.length; gi++) {
      const g = list[gi] as (typeof list)[number];
      for (let r = 0; r < 2; r++) {
        const remove = r === 0;
        // No cancelling pairs: a kind only moves in one direction.
        if (remove ? g.ai > 0 || g.ri >= g.rem.length : g.ri > 0 || g.ai >= g.add.length) continue;
        const i = (remove ? g.rem[g.ri] : g.add[g.ai]) as number;
        mirror.addValid(i, remove ? -1 : 1);
        const s = score();
        mirror.addValid(i, remove ? 1 : -1);
        work++;
        if (s < bestScore) {
          bestScore = s;
          bestG = gi;
          bestRemove = remove;
        }
      }
    }
    if (bestG < 0 || over()) break;
    const g = list[bestG] as (typeof list)[number];
    const i = (bestRemove ? g.rem[g.ri++] : g.add[g.ai++]) as number;
    mirror.addValid(i, bestRemove ? -1 : 1);
    moves.push({ index: i, to: bestRemove ? "broken" : "valid" });
    if (flipped()) {
      result = { k: moves.length, moves: [...moves] };
      break;
    }
  }
  for (const m of moves) mirror.addValid(m.index, m.to === "broken" ? 1 : -1);
  return result;
}
