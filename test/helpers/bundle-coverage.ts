/**
 * Coverage provider for `npm run coverage`: @vitest/coverage-v8 for the code the tests run
 * in-process, plus the coverage of the bundles (dist/index.js, dist/cli.js) run as child
 * processes by the end-to-end tests (test/action/run-action.ts, test/helpers/run-cli.ts,
 * test/hardening/helpers.ts), mapped back to src/ through dist/*.js.map. Without it
 * src/index.ts, src/action/evaluate-mode.ts and context.ts, which only the bundle runs, would count as
 * untested. The children write V8 coverage (NODE_V8_COVERAGE) into the directory in
 * GATE_BUNDLE_COVERAGE; it is merged once per script and converted like the workers' coverage.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Profiler } from "node:inspector";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import v8 from "@vitest/coverage-v8";
import type { CoverageProvider, CoverageProviderModule, ReportContext } from "vitest/node";

import { BUNDLE_COVERAGE_ENV } from "./gate-node.js";

interface Range {
  readonly start: { readonly line: number; readonly column: number | null };
  readonly end: { readonly line: number; readonly column: number | null };
}
interface FunctionEntry {
  readonly name: string;
  readonly decl: Range;
  readonly loc: Range;
  readonly line: number;
}
/** A file's coverage as istanbul holds it (the part used here). */
interface FileCoverageData {
  fnMap: Record<string, FunctionEntry>;
  f: Record<string, number>;
}
/** What a bundle's coverage converts to: each file's coverage, by path. */
type CoverageMapData = Record<string, FileCoverageData>;
/** The part of istanbul-lib-coverage's CoverageMap used here. */
interface CoverageMap {
  merge(other: CoverageMap | CoverageMapData): void;
  filter(keep: (file: string) => boolean): void;
  files(): string[];
  fileCoverageFor(file: string): { data: FileCoverageData };
}

/**
 * Gives a bundle's functions the locations the in-process coverage has for them. Mapped back
 * through a bundle's source map, a function starts at column 0 of its line, and istanbul merges
 * functions by location: without this, each function would count once in-process and once more
 * for each bundle, uncovered there when that bundle's runs never call it. A bundle's function
 * takes the location of the one in-process function that starts on its line, so their counts add
 * up; where several start on that line its count cannot be told apart, and it is dropped (the
 * in-process counts stand); on a line with none (a file the tests never load) it stays as it is.
 */
export function alignFunctions(bundle: CoverageMapData, inProcess: CoverageMap): void {
  const known = new Set(inProcess.files());
  for (const [file, data] of Object.entries(bundle)) {
    if (!known.has(file)) continue;
    const byLine = new Map<number, FunctionEntry[]>();
    for (const fn of Object.values(inProcess.fileCoverageFor(file).data.fnMap)) {
      const line = fn.decl.start.line;
      byLine.set(line, [...(byLine.get(line) ?? []), fn]);
    }
    for (const [key, fn] of Object.entries(data.fnMap)) {
      const same = byLine.get(fn.decl.start.line);
      if (same === undefined) continue;
      const [only] = same;
      if (same.length === 1 && only !== undefined) {
        data.fnMap[key] = { ...fn, name: only.name, decl: only.decl, loc: only.loc, line: only.line };
      } else {
        // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- istanbul's keyed records
        delete data.fnMap[key];
        // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- istanbul's keyed records
        delete data.f[key];
      }
    }
  }
}

interface ProcessCov {
  result: Profiler.ScriptCoverage[];
}
// @vitest/coverage-v8's own merger (a dependency of it, without types).
const { mergeProcessCovs } = createRequire(import.meta.url)("@bcoe/v8-coverage") as {
  mergeProcessCovs: (covs: readonly ProcessCov[]) => ProcessCov;
};

const root = resolve(import.meta.dirname, "../..");
/** The bundles whose child-process coverage counts, by file URL. */
const BUNDLES = new Set(["index.js", "cli.js"].map((f) => pathToFileURL(join(root, "dist", f)).href));

interface V8Internals {
  isIncluded(file: string): boolean;
  remapCoverage(
    url: string,
    wrapperLength: number,
    sources: { code: string; map: unknown },
    functions: Profiler.FunctionCoverage[],
  ): Promise<CoverageMapData>;
  options: { reportsDirectory: string };
}

function bundleCoverage(dir: string): ProcessCov {
  const covs: ProcessCov[] = [];
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".json"));
  } catch {
    return { result: [] }; // no bundle ran
  }
  for (const name of names) {
    const cov = JSON.parse(readFileSync(join(dir, name), "utf8")) as ProcessCov;
    covs.push({ result: cov.result.filter((s) => BUNDLES.has(s.url)) });
  }
  return mergeProcessCovs(covs);
}

const module: CoverageProviderModule = {
  ...v8,
  async getProvider(): Promise<CoverageProvider> {
    const base = await v8.getProvider();
    const provider = base as CoverageProvider & V8Internals;
    const initialize = provider.initialize.bind(provider);
    provider.initialize = async (ctx) => {
      await initialize(ctx);
      // The forked test workers inherit it and pass it on to the bundles they start.
      process.env[BUNDLE_COVERAGE_ENV] = join(provider.options.reportsDirectory, ".bundle");
    };
    const generate = provider.generateCoverage.bind(provider);
    provider.generateCoverage = async (context: ReportContext) => {
      const map = (await generate(context)) as CoverageMap;
      const dir = process.env[BUNDLE_COVERAGE_ENV];
      if (dir === undefined) return map;
      for (const script of bundleCoverage(dir).result) {
        const file = new URL(script.url).pathname;
        const sourceMap = JSON.parse(readFileSync(`${file}.map`, "utf8")) as { sources: string[] };
        sourceMap.sources = sourceMap.sources.map((s) => new URL(s, script.url).href);
        const code = readFileSync(file, "utf8");
        const converted = await provider.remapCoverage(
          script.url,
          0,
          { code, map: sourceMap },
          script.functions,
        );
        alignFunctions(converted, map);
        map.merge(converted);
      }
      map.filter((file) => provider.isIncluded(file));
      return map;
    };
    return provider;
  },
};
export default module;
