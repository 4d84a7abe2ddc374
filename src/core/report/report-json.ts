/**
 * The report's JSON text (`JSON.stringify(report, null, 2)` and a newline) in pieces of about
 * JSON_CHUNK_CHARS, so a writer never holds it whole: the text grows with the tasks, and the one
 * string, its copy with the newline and the bytes written out would be held at once, several
 * times the text's size on top of everything the read and the evaluation hold.
 *
 * The pieces joined are byte for byte what JSON.stringify gives (test/report/report-json.test.ts
 * compares them on random values): containers are walked here, and runs of scalars (an array's
 * task ids, a field's value) are left to JSON.stringify in batches, with the text of a nested
 * value indented by its depth. A nested value's text is JSON.stringify's at depth 0 with every
 * line after the first indented: a JSON text has no line break but between tokens.
 */

/** About this many characters a piece (a batch or a long value may make one longer). */
export const JSON_CHUNK_CHARS = 1 << 16;

/** Scalars of an array given to JSON.stringify at once. */
const SCALAR_BATCH = 1024;

const STEP = "  ";

/** Walked here (an object with toJSON is JSON.stringify's: it says what it stands for). */
function isContainer(v: unknown): v is object {
  return typeof v === "object" && v !== null && typeof (v as { toJSON?: unknown }).toJSON !== "function";
}

/** JSON.stringify's text of `v` at an indentation of `indent`; undefined where it gives none. */
function leaf(v: unknown, indent: string): string | undefined {
  const text = JSON.stringify(v, null, 2) as string | undefined;
  return text === undefined || indent === "" || !text.includes("\n")
    ? text
    : text.replaceAll("\n", "\n" + indent);
}

function* arrayPieces(a: readonly unknown[], indent: string): Generator<string> {
  if (a.length === 0) {
    yield "[]";
    return;
  }
  const inner = indent + STEP;
  yield "[\n" + inner;
  let k = 0;
  while (k < a.length) {
    if (k > 0) yield ",\n" + inner;
    const v = a[k];
    if (isContainer(v)) {
      yield* pieces(v, inner);
      k++;
      continue;
    }
    // A run of scalars (holes, undefined and functions are null, as JSON.stringify writes them).
    let end = k + 1;
    while (end < a.length && end - k < SCALAR_BATCH && !isContainer(a[end])) end++;
    const text = JSON.stringify(a.slice(k, end), null, 2);
    // "[\n  x,\n  y\n]" → "x,\n" + inner + "y".
    yield text.slice(2 + STEP.length, -2).replaceAll("\n" + STEP, "\n" + inner);
    k = end;
  }
  yield "\n" + indent + "]";
}

function* objectPieces(o: object, indent: string): Generator<string> {
  const inner = indent + STEP;
  let first = true;
  for (const key of Object.keys(o)) {
    const v = (o as Record<string, unknown>)[key];
    const text = isContainer(v) ? undefined : leaf(v, inner);
    // JSON.stringify leaves out a key whose value has no text (undefined, a function, a symbol).
    if (!isContainer(v) && text === undefined) continue;
    yield (first ? "{\n" : ",\n") + inner + JSON.stringify(key) + ": ";
    first = false;
    if (text !== undefined) yield text;
    else yield* pieces(v as object, inner);
  }
  yield first ? "{}" : "\n" + indent + "}";
}

function* pieces(v: object, indent: string): Generator<string> {
  if (Array.isArray(v)) yield* arrayPieces(v as readonly unknown[], indent);
  else yield* objectPieces(v, indent);
}

/**
 * `JSON.stringify(value, null, 2) + "\n"` in pieces of about `size` characters (the last one ends
 * with the newline). `value` is plain data: an object or an array.
 */
export function* jsonChunks(value: object, size = JSON_CHUNK_CHARS): Generator<string> {
  let buffer = "";
  const root = isContainer(value) ? pieces(value, "") : [leaf(value, "") ?? ""];
  for (const piece of root) {
    buffer += piece;
    if (buffer.length >= size) {
      yield buffer;
      buffer = "";
    }
  }
  yield buffer + "\n";
}
