#!/usr/bin/env node
// `node scripts/simulate-guardrails.mjs`: the coverage of a guardrail's bounds on R (docs/spec.md
// §4.5; the table there comes from this script). Run by hand; it prints figures and asserts nothing.
//
// Each run draws n tasks. The baseline's cost per task is heavy-tailed: log-normal (σ = 1 or 1.5)
// or Pareto (tail index α = 2.5, or 1.5: infinite variance); the candidate's is the baseline's
// times θ times a mean-1 log-normal noise (σ = 0.5: the same task is dear for both models), or,
// in the "independent" case, an independent draw of the same law times θ. The true R is θ = 1.1
// in every case (E[candidate] / E[baseline]). The shipped bounds (stats/guardrail-ratio.ts:
// Fieller's, paired SE, Student t at ν = n − 1, 95% one-sided) are taken on each run;
// the script prints how often the upper bound is at or above θ (what "pass" relies on) and how
// often the lower bound is at or below θ (what "fail" relies on): both should be near 95%.
// A second table does the same for the delta method on log R on the same draws (R·exp(∓q·SE)
// with SE the paired SE of uₜ = bₜ/b̄ − aₜ/ā), the alternative the spec weighs. Same seed, same
// figures.
//
// The core is TypeScript: the script transpiles the four files it needs into node_modules/.cache
// (the TypeScript compiler, no type check) and imports them from there.
//
//   node scripts/simulate-guardrails.mjs [--runs 4000] [--seed 7] [--n 10,30,100,300,1000]
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import ts from "typescript";

import { mulberry32, normal as standardNormal } from "./lib/prng.mjs";

const print = (line) => process.stdout.write(`${line}\n`);
const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "4000" },
    seed: { type: "string", default: "7" },
    n: { type: "string", default: "10,30,100,300,1000" },
  },
});
const RUNS = Number.parseInt(values.runs, 10);
const SEED = Number.parseInt(values.seed, 10);
const SIZES = values.n.split(",").map((s) => Number.parseInt(s, 10));
const THETA = 1.1;

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "node_modules", ".cache", "simulate-guardrails");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const file of ["guardrail-ratio", "normal-quantile", "standard-error", "student-t-quantile"]) {
  const source = readFileSync(join(root, "src", "core", "stats", `${file}.ts`), "utf8");
  const js = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  writeFileSync(join(out, `${file}.js`), js);
}
const { guardrailRatio } = await import(pathToFileURL(join(out, "guardrail-ratio.js")).href);

const rnd = mulberry32(SEED);
const uniform = () => Math.max(rnd(), 1e-12);
const normal = () => standardNormal(rnd);
/** Mean 1 whatever σ. */
const logNormal = (sigma) => () => Math.exp(sigma * normal() - (sigma * sigma) / 2);
/** Pareto with x_m = 1 and tail index α, scaled to mean 1. */
const pareto = (alpha) => () => ((alpha - 1) / alpha) * uniform() ** (-1 / alpha);

const CASES = [
  ["log-normal σ 1, paired", logNormal(1), true],
  ["log-normal σ 1.5, paired", logNormal(1.5), true],
  ["Pareto α 2.5, paired", pareto(2.5), true],
  ["Pareto α 1.5, paired", pareto(1.5), true],
  ["log-normal σ 1, independent", logNormal(1), false],
  ["Pareto α 2.5, independent", pareto(2.5), false],
];
const SETTINGS = { confidence: 0.95, quantile: "t", standardError: "paired", clusterCorrection: "cr2" };
const noise = logNormal(0.5);

/** The delta method on log R at quantile q: R·exp(∓q·SE(log R)), paired. */
function deltaLog(a, b, q) {
  const n = a.length;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i];
    mb += b[i];
  }
  ma /= n;
  mb /= n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (b[i] / mb - a[i] / ma) ** 2;
  const se = Math.sqrt(ss / (n * (n - 1)));
  return { low: (mb / ma) * Math.exp(-q * se), high: (mb / ma) * Math.exp(q * se) };
}

const rows = { shipped: [], delta: [] };
for (const [name, draw, paired] of CASES) {
  const cells = { shipped: [], delta: [] };
  for (const n of SIZES) {
    const hits = { shipped: [0, 0], delta: [0, 0] };
    const a = new Float64Array(n);
    const b = new Float64Array(n);
    for (let run = 0; run < RUNS; run++) {
      for (let t = 0; t < n; t++) {
        a[t] = draw();
        b[t] = THETA * (paired ? a[t] * noise() : draw());
      }
      const r = guardrailRatio(a, b, SETTINGS);
      const f = r.q === null ? { low: null, high: null } : deltaLog(a, b, r.q);
      for (const [key, x] of [
        ["shipped", r],
        ["delta", f],
      ]) {
        // An unbounded upper bound (high null beside a low) covers R: the guardrail cannot pass.
        if (x.high === null ? x.low !== null : x.high >= THETA) hits[key][0]++;
        if (x.low !== null && x.low <= THETA) hits[key][1]++;
      }
    }
    for (const key of ["shipped", "delta"]) {
      const [up, low] = hits[key];
      cells[key].push(`${((100 * up) / RUNS).toFixed(1)} / ${((100 * low) / RUNS).toFixed(1)}`);
    }
  }
  for (const key of ["shipped", "delta"]) rows[key].push(`| ${name} | ${cells[key].join(" | ")} |`);
}
for (const [key, title] of [
  ["shipped", "Fieller's bounds (shipped)"],
  ["delta", "Delta method on log R (for comparison)"],
]) {
  print(
    `${title}: coverage of the 95% one-sided bounds on R (true R = ${THETA}), ${RUNS} runs a cell, seed ${SEED}.`,
  );
  print("Each cell: upper bound ≥ R / lower bound ≤ R, in %.");
  print("");
  print(`| baseline cost per task | ${SIZES.map((n) => `n = ${n}`).join(" | ")} |`);
  print(`|---|${SIZES.map(() => "---:").join("|")}|`);
  for (const row of rows[key]) print(row);
  print("");
}
