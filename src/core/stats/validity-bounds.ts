/**
 * Validity intervals (SPEC §2) and margin bounds (SPEC §3): the extremes over S ⊆ U of
 *
 *     R(S) = (baseSum + Σ_{i∈S} xᵢ) / (baseCount + |S|)
 *
 * where the base is the valid set (Σ_V, N_v) and the xᵢ are the values of the unresolved tasks
 * (task scores for a per-model interval, dₜ for the margin). One function serves both, and for
 * the margin one S is shared by both models because each xᵢ is already a per-task difference.
 *
 * Exact (Dinkelbach 1967): adding a value moves the mean toward it, so the minimum adds U's
 * values in ascending order for as long as the next value is below the running mean (and the
 * maximum, in descending order, while above it). This is the scan of the D+1 prefixes of U sorted
 * once, stopped at the first prefix whose successor cannot improve: every later value is at
 * least as far on the wrong side, so the ratio along the prefixes is unimodal and the stop point
 * is the optimum. O(D log D) for the sort, O(D) for the scan.
 *
 * Determinism and tie-breaking: values are ordered by (value, index), and callers fill `extras`
 * in dataset order (sorted by task key), so ties are broken by task key. A value equal to the
 * optimum (within TIE_TOLERANCE) does not join: the returned sets are the SMALLEST optimising sets.
 * Within a run of equal values that straddles the stop point (possible only when baseCount = 0),
 * the lowest index joins first, for the minimum and for the maximum alike.
 */

/**
 * Two means closer than this are treated as equal when deciding whether a value improves the
 * ratio; it absorbs floating-point noise in the running sums so that tie-breaking (and hence the
 * optimising sets) stays deterministic. Values are of order 1 (scores in [0, 1], d in [−1, 1]);
 * distinct rational ratios over ≤ 10⁶ tasks differ by far more than this.
 */
export const TIE_TOLERANCE = 1e-12;

export interface RatioBounds {
  /** min over S of R(S); null when baseCount = 0 and there are no extras (R undefined everywhere). */
  readonly lower: number | null;
  /** max over S of R(S); null under the same condition. */
  readonly upper: number | null;
  /** Indices into `extras` of the smallest minimising set, in joining order (most extreme first). */
  readonly lowerSet: readonly number[];
  /** Indices into `extras` of the smallest maximising set, in joining order (most extreme first). */
  readonly upperSet: readonly number[];
}

/**
 * Indices 0..n−1 ordered by (value ascending, index ascending). Task scores and differences take
 * few distinct values (k/K), so the indices are bucketed by value in one pass (keeping index order
 * within a bucket) and only the distinct values are sorted, natively: O(n + V log V).
 */
export function ascendingOrder(values: ArrayLike<number>): Uint32Array {
  const n = values.length;
  // Each index's bucket (numbered in order of first appearance) and the buckets' sizes: no
  // array per bucket. Equal values often come in runs, which skip the Map.
  const bucketOf = new Map<number, number>();
  const bucket = new Uint32Array(n);
  const sizes: number[] = [];
  let last = NaN;
  let lastBucket = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i] as number;
    if (v !== last) {
      let b = bucketOf.get(v);
      if (b === undefined) {
        b = sizes.length;
        bucketOf.set(v, b);
        sizes.push(0);
      }
      last = v;
      lastBucket = b;
    }
    bucket[i] = lastBucket;
    sizes[lastBucket] = (sizes[lastBucket] as number) + 1;
  }
  // Where each bucket starts in the order: its values ascending.
  const start = new Uint32Array(sizes.length);
  let at = 0;
  for (const v of Float64Array.from(bucketOf.keys()).sort()) {
    const b = bucketOf.get(v) as number;
    start[b] = at;
    at += sizes[b] as number;
  }
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const b = bucket[i] as number;
    order[start[b] as number] = i;
    start[b] = (start[b] as number) + 1;
  }
  return order;
}

/**
 * Exact bounds of R(S) over all subsets S of the extras, with the smallest optimising sets.
 * `baseCount` = 0 is allowed: then S = ∅ is excluded (R undefined) and the extremes are taken over
 * non-empty S; with no extras either, everything is null. With `withSets` false the sets are left
 * empty (a model's score interval needs only the bounds, and the sets, as long as the unresolved
 * tasks, would be garbage on every call).
 */
export function exactRatioBounds(
  baseSum: number,
  baseCount: number,
  extras: ArrayLike<number>,
  withSets = true,
): RatioBounds {
  const n = extras.length;
  if (baseCount === 0 && n === 0) return { lower: null, upper: null, lowerSet: [], upperSet: [] };
  const order = ascendingOrder(extras);

  // Minimum: ascending values, join while strictly below the running mean.
  let sum = baseSum;
  let count = baseCount;
  let k = 0;
  while (k < n) {
    const v = extras[order[k] as number] as number;
    if (count > 0 && !(v < sum / count - TIE_TOLERANCE)) break;
    sum += v;
    count++;
    k++;
  }
  const lower = sum / count;
  const lowerSet: number[] = [];
  if (withSets) for (let j = 0; j < k; j++) lowerSet.push(order[j] as number);

  // Maximum: descending values; within a run of equal values, ascending index.
  sum = baseSum;
  count = baseCount;
  const upperSet: number[] = [];
  let end = n;
  scan: while (end > 0) {
    const groupValue = extras[order[end - 1] as number] as number;
    let start = end - 1;
    while (start > 0 && extras[order[start - 1] as number] === groupValue) start--;
    for (let j = start; j < end; j++) {
      if (count > 0 && !(groupValue > sum / count + TIE_TOLERANCE)) break scan;
      sum += groupValue;
      count++;
      if (withSets) upperSet.push(order[j] as number);
    }
    end = start;
  }
  const upper = sum / count;
  return { lower, upper, lowerSet, upperSet };
}

export interface PessimisticBounds {
  readonly lower: number | null;
  readonly upper: number | null;
}

/**
 * The seed's bound: every one of the `extraCount` unresolved tasks joins, with the worst value
 * (`worst`) for the lower bound and the best (`best`) for the upper. Per model worst/best are
 * 0/1: [P_v/(N_v+D), (P_v+D)/(N_v+D)]; for the margin they are −1/+1. Null when nothing is counted.
 */
export function pessimisticBounds(
  baseSum: number,
  baseCount: number,
  extraCount: number,
  worst: number,
  best: number,
): PessimisticBounds {
  const count = baseCount + extraCount;
  if (count === 0) return { lower: null, upper: null };
  return { lower: (baseSum + worst * extraCount) / count, upper: (baseSum + best * extraCount) / count };
}
