/**
 * An id given on the command line (or as an action input) is matched against the data exactly:
 * "café" in NFC (U+00E9) and in NFD (U+0065 U+0301) are different ids, and the gate never
 * guesses which one was meant. But both print identically, so an error that only says "not
 * found" leaves the user staring at two equal-looking strings. When the given id matches a
 * present one after folding what cannot be seen, the error says so and shows the code points
 * where they differ.
 *
 * Folded: Unicode normalisation (NFKC, which covers NFC/NFD and compatibility forms such as
 * full-width letters), invisible format characters (zero-width space and joiners, BOM, soft
 * hyphen, bidi marks), every kind of space (no-break, thin, ideographic…) to one space, leading
 * and trailing space, Unicode dashes and minus to "-", and the Cyrillic and Greek letters that
 * look like Latin ones.
 */
import { quote } from "./quote.js";

/** Cyrillic and Greek letters drawn like Latin ones (position by position), and Unicode dashes. */
const LOOKALIKE_FROM = "аеорсухіјѕԁһАВЕКМНОРСТХІЈЅονΑΒΕΖΗΙΚΜΝΟΡΤΥΧ";
const LOOKALIKE_TO = "aeopcyxijsdhABEKMHOPCTXIJSovABEZHIKMNOPTYX";
const DASHES = /[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]/g;

/** What folds away or together; exported for the tests. */
export function foldInvisible(s: string): string {
  return s
    .normalize("NFKC")
    .replace(/\p{Cf}/gu, "")
    .replace(/[\p{White_Space}]+/gu, " ")
    .trim()
    .replace(DASHES, "-")
    .replace(/./gu, (c) => {
      const i = LOOKALIKE_FROM.indexOf(c);
      return i < 0 ? c : (LOOKALIKE_TO[i] ?? c);
    });
}

/** Code points as U+XXXX, separated by spaces; "nothing" for none. */
export function codePoints(s: string): string {
  const out: string[] = [];
  for (const c of s) out.push(`U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`);
  return out.length === 0 ? "nothing" : out.join(" ");
}

/** The differing middle of two strings (common prefix and suffix taken off, by code point). */
function difference(a: string, b: string): { at: number; a: string; b: string } {
  const x = Array.from(a); // code points, not graphemes: the message counts code points
  const y = Array.from(b);
  let start = 0;
  while (start < x.length && start < y.length && x[start] === y[start]) start++;
  let end = 0;
  while (end < x.length - start && end < y.length - start && x[x.length - 1 - end] === y[y.length - 1 - end])
    end++;
  return {
    at: start + 1,
    a: x.slice(start, x.length - end).join(""),
    b: y.slice(start, y.length - end).join(""),
  };
}

function kindOf(given: string, present: string): string {
  if (given.normalize("NFC") === present.normalize("NFC"))
    return "another Unicode normalisation form (NFC vs NFD)";
  if (given.normalize("NFKC") === present.normalize("NFKC")) return "Unicode compatibility forms (NFKC)";
  return "invisible characters, look-alike spaces, dashes or letters";
}

/** Present ids compared at most (the check is linear in their number). */
const MAX_COMPARED = 100_000;

/** How the two sides are named in the sentence. */
export interface NearMatchWords {
  /** e.g. "is present", "is in --score-map" */
  readonly found: string;
  /** The given side: "the given id". */
  readonly given: string;
  /** The other side: "the data". */
  readonly other: string;
  /** What to do: "give the data's id (or fix the data)". */
  readonly fix: string;
}

const ID_WORDS: NearMatchWords = {
  found: "is present",
  given: "the given id",
  other: "the data",
  fix: "give the data's id (or fix the data)",
};

/**
 * "" when no present id looks the same as `given`; else a clause (starting "; ") naming the
 * present id that does and the code points where they differ, to append to a "not found" error.
 */
export function unicodeNearMatch(
  given: string,
  present: Iterable<string>,
  words: NearMatchWords = ID_WORDS,
): string {
  const key = foldInvisible(given);
  let n = 0;
  for (const p of present) {
    if (++n > MAX_COMPARED) break;
    if (p === given || foldInvisible(p) !== key) continue;
    const d = difference(given, p);
    return (
      `; but ${quote(p)} ${words.found} and differs from it only by ${kindOf(given, p)}: from character ${d.at}, ` +
      `${words.given} has ${codePoints(d.a)} where ${words.other} has ${codePoints(d.b)}. Ids are compared exactly: ` +
      words.fix
    );
  }
  return "";
}
