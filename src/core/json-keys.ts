/**
 * The keys of JSON text that JSON.parse has accepted. JSON.parse keeps the last value of a key
 * given twice in one object, and which one was meant would be a guess: the reader (a line of an
 * export or reviews file, src/read/rows/row-checks.ts) and the importers (a whole harness file,
 * src/importers/common.ts) refuse it instead. Counting the keys in the text and in the parsed
 * value is cheap and tells whether one repeats; only then is the text walked again to find which.
 *
 * Both walks assume valid JSON (the caller parsed it first): strings are skipped to their closing
 * quote, brackets outside strings open and close objects and arrays, and a key is the string
 * after an object's "{" or after a comma in an object. Neither recurses: nesting depth costs a
 * stack entry, never the call stack.
 *
 * The byte scanner (src/read/rows/row-scanner.ts) is a walk of its own on purpose: it reads one
 * row shape straight from the UTF-8 bytes, values and all, and gives any line it is unsure of (a
 * repeated key among them) to JSON.parse and to the walks here.
 */

/** Which keys: those of the outermost object only (a row's fields), or those of every object. */
export type KeyScope = "top" | "all";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

/**
 * Texts up to this long without a backslash have their strings skipped with indexOf. Optimised
 * by V8 for short lines, `indexOf(…, position)` was seen to take time in proportion to the whole
 * text on every call: on a long line of many strings, the square of its length. Longer texts are
 * walked character by character, in time proportional to their length.
 */
const INDEX_OF_MAX_CHARS = 4096;

/** Whether `text` is short and has no backslash (its strings end at the next quote). */
function isPlain(text: string): boolean {
  return text.length <= INDEX_OF_MAX_CHARS && text.indexOf("\\") === -1;
}

/** Where the string whose opening quote is at `at` ends (its closing quote), or -1. */
function stringEnd(text: string, at: number, plain: boolean): number {
  if (plain) return text.indexOf('"', at + 1);
  for (let i = at + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return -1;
}

/**
 * Whether each open bracket is an object (1) or an array (0), outermost first: reused from call
 * to call (the walks are synchronous), grown as deep text needs. (A JS array pushed and popped
 * here turned slow on deep text once the JIT had seen many shallow lines.)
 */
let objects = new Uint8Array(64);

/** Opens a bracket at `depth`: whether it is an object. */
function open(depth: number, object: boolean): void {
  if (depth === objects.length) {
    const grown = new Uint8Array(depth * 2);
    grown.set(objects);
    objects = grown;
  }
  objects[depth] = object ? 1 : 0;
}

/** How many keys valid JSON text has in `scope`, repeats included. */
export function countKeys(text: string, scope: KeyScope): number {
  const everywhere = scope === "all";
  const plain = isPlain(text);
  let depth = 0;
  // Whether the next string is a key: after "{", or after a comma in an object.
  let expectKey = false;
  let keys = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      if (expectKey) {
        expectKey = false;
        if (everywhere || depth === 1) keys++;
      }
      i = stringEnd(text, i, plain);
      if (i < 0) break;
    } else if (c === LBRACE || c === LBRACKET) {
      expectKey = c === LBRACE;
      open(depth++, expectKey);
    } else if (c === RBRACE || c === RBRACKET) {
      depth--;
    } else if (c === COMMA) {
      expectKey = depth > 0 && objects[depth - 1] === 1;
    }
  }
  return keys;
}

/** A key given again in one object: as JSON.parse reads it, and where its repeat's opening quote is. */
export interface RepeatedKey {
  readonly key: string;
  readonly offset: number;
}

/**
 * The first key, in text order, that repeats an earlier key of its object in `scope` (compared
 * as JSON.parse decodes them, so "a" and "\u0061" are one key), or undefined.
 */
export function firstRepeatedKey(text: string, scope: KeyScope): RepeatedKey | undefined {
  const everywhere = scope === "all";
  const plain = isPlain(text);
  // Per open object, by depth: its keys so far (the first alone, a set from the second on).
  const keysAt: (string | Set<string> | undefined)[] = [];
  let depth = 0;
  let expectKey = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i, plain);
      if (end < 0) break;
      if (expectKey && (everywhere || depth === 1)) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes("\\") ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        const held = keysAt[depth - 1];
        if (held === undefined) {
          keysAt[depth - 1] = key;
        } else if (typeof held === "string") {
          if (held === key) return { key, offset: i };
          keysAt[depth - 1] = new Set([held, key]);
        } else {
          if (held.has(key)) return { key, offset: i };
          held.add(key);
        }
      }
      expectKey = false;
      i = end;
    } else if (c === LBRACE || c === LBRACKET) {
      expectKey = c === LBRACE;
      open(depth, expectKey);
      keysAt[depth++] = undefined;
    } else if (c === RBRACE || c === RBRACKET) {
      keysAt[--depth] = undefined;
    } else if (c === COMMA) {
      expectKey = depth > 0 && objects[depth - 1] === 1;
    }
  }
  return undefined;
}
