/**
 * The coverage provider's alignment of a bundle's functions with the in-process ones
 * (test/helpers/bundle-coverage.ts): mapped back through a bundle's source map a function starts
 * at column 0 of its line, and without the alignment istanbul would count it a second time.
 */
import { describe, expect, it } from "vitest";

import { alignFunctions } from "../helpers/bundle-coverage.js";

type Fn = Parameters<typeof alignFunctions>[0][string]["fnMap"][string];

/** A function entry as istanbul holds it; `column` null for a bundle's (mapped to a line). */
function fn(name: string, line: number, column: number | null, endLine = line + 2): Fn {
  const decl = {
    start: { line, column: column ?? 0 },
    end: { line, column: column === null ? null : column + name.length },
  };
  const loc = {
    start: { line, column: column ?? 0 },
    end: { line: endLine, column: column === null ? null : 1 },
  };
  return { name, decl, loc, line };
}

function inProcessMap(files: Record<string, Fn[]>): Parameters<typeof alignFunctions>[1] {
  const data = Object.fromEntries(
    Object.entries(files).map(([file, fns]) => [
      file,
      {
        fnMap: Object.fromEntries(fns.map((f, i) => [String(i), f])),
        f: Object.fromEntries(fns.map((_, i) => [String(i), 0])),
      },
    ]),
  );
  return {
    merge: () => undefined,
    filter: () => undefined,
    files: () => Object.keys(data),
    fileCoverageFor: (file) => ({ data: data[file] ?? { fnMap: {}, f: {} } }),
  };
}

describe("alignFunctions", () => {
  it("gives a bundle's function the location of the one in-process function on its line", () => {
    const own = fn("settle", 19, 9, 25);
    const inProcess = inProcessMap({ "/src/cli.ts": [own, fn("main", 40, 0, 60)] });
    const bundle = { "/src/cli.ts": { fnMap: { "0": fn("settle", 19, null, 25) }, f: { "0": 8 } } };
    alignFunctions(bundle, inProcess);
    expect(bundle["/src/cli.ts"].fnMap["0"]).toStrictEqual(own);
    expect(bundle["/src/cli.ts"].f["0"]).toBe(8);
  });

  it("drops a bundle's function on a line where several in-process functions start", () => {
    const inProcess = inProcessMap({ "/src/a.ts": [fn("outer", 5, 2), fn("inner", 5, 30)] });
    const bundle = {
      "/src/a.ts": { fnMap: { "0": fn("outer", 5, null), "1": fn("later", 9, null) }, f: { "0": 3, "1": 1 } },
    };
    alignFunctions(bundle, inProcess);
    expect(Object.keys(bundle["/src/a.ts"].fnMap)).toStrictEqual(["1"]);
    expect(bundle["/src/a.ts"].f).toStrictEqual({ "1": 1 });
  });

  it("keeps what only the bundle has: a line with no in-process function, a file never loaded", () => {
    const inProcess = inProcessMap({ "/src/a.ts": [fn("f", 1, 0)] });
    const lone = fn("g", 30, null);
    const other = fn("h", 2, null);
    const bundle = {
      "/src/a.ts": { fnMap: { "0": lone }, f: { "0": 2 } },
      "/src/index.ts": { fnMap: { "0": other }, f: { "0": 1 } },
    };
    alignFunctions(bundle, inProcess);
    expect(bundle["/src/a.ts"].fnMap["0"]).toBe(lone);
    expect(bundle["/src/index.ts"].fnMap["0"]).toBe(other);
  });
});
