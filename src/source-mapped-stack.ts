// Maps the frames of a stack trace that point into a bundle (dist/*.js) back to src/ through the
// bundle's source map (dist/*.js.map, written by scripts/package.mjs). Node applies source maps
// only to files loaded after they are turned on, and the bundle is the file that would turn them
// on, so the entry points map the stack they print themselves. Frames without a map (Node's own,
// or running from source as the tests do) are left as they are.
import { readFileSync } from "node:fs";
import { SourceMap, type SourceMapPayload } from "node:module";
import { fileURLToPath } from "node:url";

/** `file:///…/x.js:LINE:COLUMN` as V8 prints an ES module's frames. */
const FRAME = /(file:\/\/\/[^\s()]+?\.js):(\d+):(\d+)/g;

export function sourceMappedStack(stack: string): string {
  const maps = new Map<string, SourceMap | undefined>();
  return stack.replace(FRAME, (frame, url: string, line: string, column: string) => {
    if (!maps.has(url)) maps.set(url, readMap(url));
    const entry = maps.get(url)?.findEntry(Number(line) - 1, Number(column) - 1);
    if (entry === undefined || !("originalSource" in entry)) return frame;
    const source = new URL(entry.originalSource, url);
    if (source.protocol !== "file:") return frame;
    return `${fileURLToPath(source)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}

function readMap(url: string): SourceMap | undefined {
  try {
    return new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, "utf8")) as SourceMapPayload);
  } catch {
    return undefined; // no map (running from source) or an unreadable one: keep the frame
  }
}
