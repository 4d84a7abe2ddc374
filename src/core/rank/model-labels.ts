/**
 * Short labels for model ids that stay distinct (docs/rank.md "Output"). Leaderboard ids often
 * share a long prefix ("20251118_mini-v1.15.0_gemini-3-pro-preview-20251118" and its neighbours),
 * and a hostile export can hold ids that differ only after 200 characters: cutting every id to its
 * first N characters makes them one label. Here an id longer than the budget keeps its start, the
 * stretch where it first differs from the ids closest to it, and its end, with "…" where it is
 * cut; two ids never get the same label (where a cut would make two equal, those labels grow until
 * they differ — at worst to the whole id).
 */

import { quoteUpTo } from "../quote.js";

/** The ellipsis that marks a cut (Mermaid's labels use ".."). */
const CUT = "…";

/**
 * Where a part of an id ends: the window on the difference starts after the nearest strong one
 * ("20251118_mini-v1.15.0_gemini-3-pro" shows "gemini-3-pro"), else after a weak one.
 */
const STRONG_SEPARATORS = new Set(["_", "/", ":", "@", " "]);
const WEAK_SEPARATORS = new Set(["-", "."]);

/** The last position p in [from, to) with id[p] in `set`; −1 when none. */
function lastIndexIn(id: readonly string[], set: ReadonlySet<string>, from: number, to: number): number {
  for (let p = to - 1; p >= from; p--) if (set.has(id[p] as string)) return p;
  return -1;
}

/** Longer than any label: model ids are at most 4,096 characters (src/read/limits.ts). */
export const WHOLE_ID_CHARS = 8192;

/** Length of the common prefix of two code-point arrays. */
function commonPrefix(x: readonly string[], y: readonly string[]): number {
  const n = Math.min(x.length, y.length);
  let i = 0;
  while (i < n && x[i] === y[i]) i++;
  return i;
}

/** Length of the common suffix of two code-point arrays. */
function commonSuffix(x: readonly string[], y: readonly string[]): number {
  const n = Math.min(x.length, y.length);
  let i = 0;
  while (i < n && x[x.length - 1 - i] === y[y.length - 1 - i]) i++;
  return i;
}

function compare(x: readonly string[], y: readonly string[]): number {
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const a = x[i] as string;
    const b = y[i] as string;
    if (a !== b) return a < b ? -1 : 1;
  }
  return x.length - y.length;
}

/**
 * For each id, the longest prefix (and suffix) it shares with another id: found among its
 * neighbours in sorted order (of the ids, and of the reversed ids). The prefix's length is where
 * the id first differs from the id closest to it.
 */
function sharedEnds(cps: readonly (readonly string[])[]): { late: number[]; suffix: number[] } {
  const n = cps.length;
  const late = new Array<number>(n).fill(0);
  const suffix = new Array<number>(n).fill(0);
  const longest = (out: number[], order: number[], shared: (i: number, j: number) => number): void => {
    for (let p = 0; p + 1 < n; p++) {
      const i = order[p] as number;
      const j = order[p + 1] as number;
      const l = shared(i, j);
      out[i] = Math.max(out[i] as number, l);
      out[j] = Math.max(out[j] as number, l);
    }
  };
  const byStart = cps.map((_, i) => i).sort((i, j) => compare(cps[i] ?? [], cps[j] ?? []));
  longest(late, byStart, (i, j) => commonPrefix(cps[i] ?? [], cps[j] ?? []));
  const reversed = cps.map((c) => [...c].reverse());
  const byEnd = cps.map((_, i) => i).sort((i, j) => compare(reversed[i] ?? [], reversed[j] ?? []));
  longest(suffix, byEnd, (i, j) => commonSuffix(cps[i] ?? [], cps[j] ?? []));
  return { late, suffix };
}

/**
 * Where the part of the id holding position `at` starts (after a separator), looking back at most
 * `reach` characters; −1 when there is no separator that near.
 */
function partStart(id: readonly string[], at: number, reach: number): number {
  const from = Math.max(0, at - reach);
  for (const separators of [STRONG_SEPARATORS, WEAK_SEPARATORS]) {
    const p = lastIndexIn(id, separators, from, at);
    if (p >= 0) return p + 1;
  }
  return -1;
}

/**
 * One id cut to about `budget` code points: whole when it fits; else its start and end with the
 * first difference (`at`: the first position where it differs from its closest id) kept in view,
 * from the start of the part that holds it.
 */
function cut(id: readonly string[], budget: number, at: number, mark: string): string {
  const b = Math.max(4, budget);
  if (id.length <= b) return id.join("");
  const keep = b - 1;
  const tail = Math.max(1, Math.floor(keep / 4));
  const head = keep - tail;
  // The difference is within the start (or there is none): start … end.
  if (at < head || at >= id.length)
    return [...id.slice(0, head), mark, ...id.slice(id.length - tail)].join("");
  // The rest of the id from the differing part fits: start … that part to the end.
  const part = partStart(id, at, keep - 2);
  if (part >= 0 && id.length - part <= keep - 1)
    return [...id.slice(0, keep - (id.length - part)), mark, ...id.slice(part)].join("");
  // Start … the stretch from the differing part on … end.
  const keep2 = b - 2;
  const start = Math.max(1, Math.floor(keep2 / 4));
  const end = Math.max(1, Math.floor(keep2 / 6));
  const middle = keep2 - start - end;
  const near = partStart(id, at, middle - 1);
  const from = Math.max(start, near >= 0 ? near : at - Math.floor(middle / 4));
  const to = Math.min(id.length - end, from + middle);
  return [...id.slice(0, start), mark, ...id.slice(from, to), mark, ...id.slice(id.length - end)].join("");
}

/**
 * Labels for `ids` (distinct strings), each at most about `maxChars` code points where that keeps
 * the labels distinct, aligned with `ids`. Equal ids get equal labels.
 */
export function distinctLabels(ids: readonly string[], maxChars: number, mark = CUT): string[] {
  const cps = ids.map((id) => Array.from(typeof id === "string" ? id : String(id)));
  const { late, suffix } = sharedEnds(cps);
  // The window shows where the id first differs from the id closest to it.
  const at = late;
  const budget = cps.map(() => maxChars);
  const labels = cps.map((c, i) => cut(c, maxChars, at[i] as number, mark));
  // Each round at least doubles a colliding label's budget, and a budget of the id's length is
  // the id itself, so this ends.
  for (;;) {
    const owners = new Map<string, Set<string>>();
    labels.forEach((l, i) => {
      const set = owners.get(l) ?? new Set<string>();
      set.add(ids[i] as string);
      owners.set(l, set);
    });
    let grew = false;
    labels.forEach((l, i) => {
      if ((owners.get(l)?.size ?? 0) < 2) return;
      const c = cps[i] ?? [];
      if (l === c.join("")) return;
      if (at[i] !== late[i]) at[i] = late[i] as number;
      else
        budget[i] = Math.min(c.length, Math.max(2 * (budget[i] as number), maxChars + (suffix[i] as number)));
      labels[i] = cut(c, budget[i] as number, at[i] as number, mark);
      grew = true;
    });
    if (!grew) return labels;
  }
}

/** distinctLabels as a lookup by id. */
export function labelMap(ids: readonly string[], maxChars: number): ReadonlyMap<string, string> {
  const labels = distinctLabels(ids, maxChars);
  return new Map(ids.map((id, i) => [id, labels[i] as string]));
}

/** Each id JSON-quoted (quote.ts's escapes) as its distinct label of about `maxChars`: for messages. */
export function quotedModels(ids: readonly string[], maxChars = 60): (id: string) => string {
  const labels = labelMap(ids, maxChars);
  return (id) => quoteUpTo(labels.get(id) ?? id, WHOLE_ID_CHARS);
}
