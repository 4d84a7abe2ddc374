import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

/**
 * The suite in four projects that run side by side: `bundle`, every test file that starts the
 * committed bundle (dist/*.js) as a child process (its helpers runDist, cliBundle, runBundle) or
 * the Node that runs it (spawnGateNode);
 * `browser`, the Chromium rendering tests; `mocking`, the in-process files that mock a module
 * (vi.mock); `unit`, everything else, in-process. Found by name and content here, so a new test
 * file lands in the right project by itself. .ci/run runs
 * `--project bundle` once more on Node 24.
 */
const testFiles = readdirSync("test", { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".test.ts"))
  .map((f) => join("test", f).replaceAll("\\", "/"));
const BROWSER = testFiles.filter((f) => /^test\/report\/browser-[^/]*\.test\.ts$/.test(f));
const BUNDLE = testFiles.filter(
  (f) =>
    !BROWSER.includes(f) && /\b(?:runDist|cliBundle|runBundle|spawnGateNode)\(/.test(readFileSync(f, "utf8")),
);
// A file that mocks a module must not share its module graph with others (see `unit`).
const MOCKING = testFiles.filter(
  (f) => !BROWSER.includes(f) && !BUNDLE.includes(f) && /\bvi\.mock\(/.test(readFileSync(f, "utf8")),
);

export default defineConfig({
  test: {
    testTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one at a time on a 2-core machine. The
    // bundle and browser tests spend much of their time waiting on a child process or Chromium,
    // so one worker more than the cores keeps both cores busy.
    maxWorkers: availableParallelism() + 1,
    projects: [
      { extends: true, test: { name: "bundle", include: BUNDLE } },
      { extends: true, test: { name: "browser", include: BROWSER } },
      { extends: true, test: { name: "mocking", include: MOCKING } },
      {
        extends: true,
        test: {
          name: "unit",
          include: testFiles.filter(
            (f) => !BUNDLE.includes(f) && !BROWSER.includes(f) && !MOCKING.includes(f),
          ),
          // In-process tests share a worker's module graph from file to file instead of importing
          // src/ afresh for each (a third of their CPU time): nothing in src/ keeps state across
          // calls but caches keyed by their inputs, and no unit test mocks a module (those run in
          // `mocking`, each file with its own graph) or changes the process's globals.
          isolate: false,
        },
      },
    ],
    coverage: {
      // @vitest/coverage-v8, plus the action bundle's coverage from the end-to-end tests' child
      // processes, mapped to src/ (test/helpers/bundle-coverage.ts). `npm run coverage`; CI runs it.
      provider: "custom",
      customProviderModule: "./test/helpers/bundle-coverage.ts",
      include: ["src/**/*.ts"],
      reporter: ["text-summary", "json-summary", "html"],
      // Floors a few points under what the suite reaches (Dec 2026: statements 87.9%, branches
      // 71.1%, functions 88.0%, lines 94.4%): a change that drops tests or adds untested code
      // fails CI. The action's entry and run/context (only the bundle runs them) have their own.
      // A function the bundles run counts once, with the in-process one on its line
      // (alignFunctions in the provider).
      thresholds: {
        statements: 85,
        branches: 68,
        functions: 85,
        lines: 90,
        "src/{index.ts,action/evaluate-mode.ts,action/context.ts}": {
          statements: 80,
          branches: 65,
          lines: 84,
        },
      },
    },
  },
});
