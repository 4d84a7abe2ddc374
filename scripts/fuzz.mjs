#!/usr/bin/env node
// `npm run fuzz`: the hardening suite (test/hardening) with long fuzz runs, for people.
//
// CI runs the same properties with small run counts and a fixed seed (a few seconds). This script
// sets FUZZ_RUNS (runs per property; the slow cap tests, e.g. 1,000,001 tasks, run too), FUZZ_SEED
// (default: the suite's fixed seed, so a run is reproducible) and FUZZ_TALLY, then prints how many
// inputs each property tried. A failure prints fast-check's counterexample and seed; replay it with
// `--seed` and the same `--runs`.
//
//   node scripts/fuzz.mjs [--runs 10000] [--seed N] [--filter TEXT]
import { spawnSync } from "node:child_process";
import console from "node:console";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "10000" },
    seed: { type: "string" },
    filter: { type: "string" },
    help: { type: "boolean", default: false },
  },
});
if (args.help) {
  console.log("Usage: node scripts/fuzz.mjs [--runs 10000] [--seed N] [--filter TEXT]");
  process.exit(0);
}
const runs = Number.parseInt(args.runs, 10);
if (!Number.isSafeInteger(runs) || runs < 1) {
  console.error(`--runs must be a positive integer; got ${JSON.stringify(args.runs)}`);
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), "gate-fuzz-"));
const tally = join(work, "tally.jsonl");
const env = { ...process.env, FUZZ_RUNS: String(runs), FUZZ_TALLY: tally };
if (args.seed !== undefined) env.FUZZ_SEED = args.seed;

const vitestArgs = ["node_modules/vitest/vitest.mjs", "run", "test/hardening"];
if (args.filter !== undefined) vitestArgs.push("-t", args.filter);
const start = performance.now();
const r = spawnSync(process.execPath, vitestArgs, { stdio: "inherit", env });
const seconds = ((performance.now() - start) / 1000).toFixed(0);

let rows = [];
try {
  rows = readFileSync(tally, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
} catch {
  // No property ran (e.g. a filter that matched none).
}
rmSync(work, { recursive: true, force: true });

const total = rows.reduce((n, row) => n + row.runs, 0);
console.log(`\n## Fuzz runs (${seconds} s, exit status ${r.status ?? "signal " + r.signal})\n`);
console.log("| Property | Inputs tried | Seed |");
console.log("|:--|--:|--:|");
for (const row of rows) console.log(`| ${row.property} | ${row.runs} | ${row.seed} |`);
console.log(`| **All** | **${total}** | |`);
process.exit(r.status ?? 1);
