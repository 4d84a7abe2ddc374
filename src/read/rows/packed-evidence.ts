/**
 * A task's evidence list as the reader holds it: its items joined by a line feed into
 * one string, undefined when it has none. Items are never empty and never hold a control
 * character (row-checks.ts refuses them), so the separator cannot occur inside one. One string a
 * task instead of an array, its elements and a string an item: less memory a task, and two fewer
 * objects for every collection to visit. The rows' checks read the packed string in
 * place (`packedRunAt`); only a list that grows is unpacked, and only records and histories made
 * on request unpack it for the report.
 */

export const SEPARATOR = "\n";
export const SEPARATOR_CODE = 0x0a;

/** The packed form of a list (undefined when it is empty or undefined). */
export function pack(items: readonly string[] | undefined): string | undefined {
  if (items === undefined || items.length === 0) return undefined;
  return items.length === 1 ? items[0] : items.join(SEPARATOR);
}

/** The items of a packed list, as a new array (undefined when it has none). */
export function unpack(packed: string | undefined): string[] | undefined {
  return packed === undefined ? undefined : packed.split(SEPARATOR);
}

/**
 * Whether `items` (one item or several) stand in `packed` one after another as whole items from
 * character `at`, an item's start. With `whole`, they must also end the list there. The items are
 * a row's: they hold no control character either (the reader refused the row otherwise).
 */
export function packedRunAt(
  packed: string | undefined,
  at: number,
  items: string | readonly string[],
  whole = false,
): boolean {
  if (packed === undefined) return false;
  if (typeof items === "string") return itemAt(packed, at, items, true, whole) >= 0;
  const n = items.length;
  if (n === 0) return !whole || at >= packed.length;
  let p = at;
  for (let k = 0; k < n; k++) {
    p = itemAt(packed, p, items[k] as string, k === n - 1, whole);
    if (p < 0) return false;
  }
  return true;
}

/** The next item's start after `item` at `at` (or the list's end for the last), else -1. */
function itemAt(packed: string, at: number, item: string, last: boolean, whole: boolean): number {
  const end = at + item.length;
  // (A slice compared with ===, not startsWith: V8's startsWith compares a character at a time,
  // slower on a row's long items; a slice of 13 or more is a view, not a copy.)
  if (end > packed.length || packed.slice(at, end) !== item) return -1;
  // (An item before another needs a separator after it.)
  if (end === packed.length) return last ? end : -1;
  if (packed.charCodeAt(end) !== SEPARATOR_CODE || (last && whole)) return -1;
  return end + 1;
}

/** Whether a packed list begins with exactly these items (so holds them all). */
export function packedStartsWith(packed: string | undefined, items: string | readonly string[]): boolean {
  return packedRunAt(packed, 0, items);
}

/** Whether a packed list holds exactly these items, in this order (undefined: none). */
export function packedEquals(packed: string | undefined, items: readonly string[] | undefined): boolean {
  if (items === undefined || items.length === 0) return packed === undefined;
  return packedRunAt(packed, 0, items, true);
}

/** The start of `item` as a whole item of the packed list, or -1. */
export function packedIndexOf(packed: string | undefined, item: string): number {
  if (packed === undefined || item.length === 0) return -1;
  for (let at = packed.indexOf(item); at >= 0; at = packed.indexOf(item, at + 1)) {
    const end = at + item.length;
    if (
      (at === 0 || packed.charCodeAt(at - 1) === SEPARATOR_CODE) &&
      (end === packed.length || packed.charCodeAt(end) === SEPARATOR_CODE)
    )
      return at;
  }
  return -1;
}
