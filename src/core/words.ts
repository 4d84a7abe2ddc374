/**
 * Counts in words, for every sentence the gate writes: the noun (or verb) agrees with its count,
 * "1 task", "2 tasks", "1 check fails", "2 checks fail". One helper, so no rendering says
 * "1 passes".
 */

/** The word that agrees with `n`: `one` for exactly 1, else `many` (default `one` + "s"). */
export function pluralWord(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

/** The count and the word that agrees with it: plural(1, "task") → "1 task", plural(2, "task") → "2 tasks". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${pluralWord(n, one, many)}`;
}
