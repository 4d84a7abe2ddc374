#!/usr/bin/env node
// `node scripts/simulate-rank.mjs`: the family-wise error of `model-gate rank`'s ordering claims,
// by simulation (docs/rank.md "Multiplicity"; the table there comes from this script). Run by
// hand; it prints figures and asserts nothing.
//
// Each run draws a benchmark of 500 tasks in 25 repositories (clusters of 20), all labelled valid
// (with --open F, a fraction F left unreviewed: the bounds then hold over every resolution of
// them, which only widens them), and K models whose per-task pass probability is logistic(θ_k + u_k,c − b_t):
// b_t the task's difficulty (shared by every model, so the paired differences are what they are
// on a real benchmark), θ_k the model's skill, u_k,c a model × repository effect (clustered cases
// only, sd 0.3; 0 otherwise). A claim "a above b" is wrong when θ_a ≤ θ_b: tied models (equal θ)
// are tied in truth whatever the draws, the repositories and the open labels. The cases:
//   full null      5 models, all θ equal;
//   partial null   6 models, θ = 0.6 0.6 0.3 0.3 0 −0.3 (two tied pairs among separated models);
//   separated      5 models, θ = 0.6 0.45 0.3 0.15 0;
// each with 1 and 3 attempts a task, paired (no u, standard_error: paired) and clustered (u, CR2).
// On the same data it runs the shipped procedure (runRank: the max-t step-down over the pairs, never
// stricter than Holm's α/(2(m − r))), Holm at α/(2(m − r)) (both claims of an ordered pair dropped
// from the count), Holm over the 2m directional claims at α/(2m − r) (shipped before rank schema
// 1.5.0) and the one-sided α/(m − r) (before 1.2.0); it prints each one's family-wise error (with a
// 95% Monte-Carlo interval), the mean number of pairs ordered, and in how many runs the shipped
// procedure ordered fewer pairs than Holm at α/(2(m − r)) (it cannot: its level is never below
// Holm's, and the count checks that). α = 5%. Same seed, same figures.
//
// The core is TypeScript: the script transpiles src/core once into node_modules/.cache (the
// TypeScript compiler, no type check) and imports it from there.
//
//   node scripts/simulate-rank.mjs [--runs 1000] [--seed 42] [--cases full,partial,separated] [--open 0]
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import ts from "typescript";
import { mulberry32 as generator, normal } from "./lib/prng.mjs";

const print = (line) => process.stdout.write(`${line}\n`);
const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "1000" },
    seed: { type: "string", default: "42" },
    cases: { type: "string", default: "full,partial,separated" },
    open: { type: "string", default: "0" },
  },
});
const RUNS = Number.parseInt(values.runs, 10);
const SEED = Number.parseInt(values.seed, 10);

// --- the core, transpiled -------------------------------------------------------------------
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "node_modules", ".cache", "simulate-rank");
rmSync(out, { recursive: true, force: true });
const source = join(root, "src", "core");
for (const file of readdirSync(source, { recursive: true, encoding: "utf8" })) {
  if (!file.endsWith(".ts")) continue;
  const js = ts.transpileModule(readFileSync(join(source, file), "utf8"), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const target = join(out, "core", file.replace(/\.ts$/, ".js"));
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, js);
}
const load = (path) => import(pathToFileURL(join(out, "core", path)).href);
const { runRank } = await load("rank/rank.js");
const { commonSet } = await load("rank/common-set.js");
const { orderPairs, pairAnalyser, pairIndices } = await load("rank/rank-pairs.js");
const { maxTSchedule, scoreCovariance } = await load("rank/max-t.js");
const { recordTable } = await load("model.js");
const { gatePolicy } = await load("gate.js");
const { tableView } = await load("task-table-view.js");
print(`(core transpiled into ${relative(root, out)})`);

// --- data ------------------------------------------------------------------------------------
const TASKS = 500;
const CLUSTER_SIZE = 20;
const OPEN = Number.parseFloat(values.open);

function policyText(standardError) {
  return `owner: "@simulation"
revisit: 2099-01-01
accept_if:
  common_valid_tasks: ">= 100"
  infra_error_rate: "< 1%"
  disputed_fraction: "< 50%"
  observed_margin: "> validity_sensitivity + run_variance"
margin:
  confidence: 0.95
  standard_error: ${standardError}
  validity_bound: exact
`;
}

/** One simulated export as the reader would hand it over (a ModelsDataset). */
function draw(rnd, theta, attempts, clustered) {
  const k = theta.length;
  const clusters = TASKS / CLUSTER_SIZE;
  const u = theta.map(() => Array.from({ length: clusters }, () => (clustered ? 0.3 * normal(rnd) : 0)));
  const records = [];
  const counts = theta.map(() => []);
  for (let t = 0; t < TASKS; t++) {
    const c = Math.floor(t / CLUSTER_SIZE);
    const b = 1.2 * normal(rnd);
    const validity = rnd() < OPEN ? "unreviewed" : "valid";
    const id = `t-${String(t).padStart(4, "0")}`;
    records.push({
      datasetRevision: "sim",
      taskId: id,
      validity,
      reviewRevision: 1,
      history: [{ revision: 1, validity, source: { file: "sim.jsonl", line: t + 1 }, evidence: [] }],
      evidence: [],
      cluster: `repo-${c}`,
    });
    for (let m = 0; m < k; m++) {
      const p = 1 / (1 + Math.exp(-(theta[m] + u[m][c] - b)));
      let pass = 0;
      for (let a = 0; a < attempts; a++) if (rnd() < p) pass++;
      counts[m].push({ pass, fail: attempts - pass, infra_error: 0, missing: 0 });
    }
  }
  const models = theta.map((_, m) => `m${m}`);
  return {
    models,
    tasks: recordTable(records),
    counts,
    summaries: models.map((config) => ({
      config,
      harnessRevisions: ["git:sim"],
      datasetRevisions: ["sim"],
      duplicateRows: 0,
    })),
    modelsPresent: models,
    inputs: [],
    rowsRead: TASKS * k * attempts,
    reviewRevisions: [1],
    passes: 1,
  };
}

// --- procedures ------------------------------------------------------------------------------
const SCHEDULES = {
  "Holm, α/(2(m − r))": (alpha, m, r) => alpha / (2 * (m - r)),
  "Holm, 2m claims: α/(2m − r) (before 1.5.0)": (alpha, m, r) => alpha / (2 * m - r),
  "α/(m − r) one-sided (before 1.2.0)": (alpha, m, r) => alpha / (m - r),
};

/** The claims a procedure made, as [above, below] model indices. */
function claimsOfReport(report) {
  const index = (id) => Number(id.slice(1));
  return report.pairs
    .filter((p) => p.relation !== "unresolved")
    .map((p) => (p.relation === "a_better" ? [index(p.a), index(p.b)] : [index(p.b), index(p.a)]));
}
function claimsOfOrdered(k, above) {
  const out = [];
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) if (above[i * k + j] === 1) out.push([i, j]);
  return out;
}

const CASES = {
  full: { name: "full null", theta: [0, 0, 0, 0, 0] },
  partial: { name: "partial null", theta: [0.6, 0.6, 0.3, 0.3, 0, -0.3] },
  separated: { name: "separated", theta: [0.6, 0.45, 0.3, 0.15, 0] },
};

print("");
print(
  `${RUNS} runs a case; ${TASKS} tasks in ${TASKS / CLUSTER_SIZE} repositories, ${(OPEN * 100).toFixed(0)}% unreviewed; α = 5%; seed ${SEED}.`,
);
print("");
print(
  "| case | attempts | SE | procedure | family-wise error (95% MC interval) | mean pairs ordered | of pairs | runs with fewer pairs than Holm α/(2(m − r)) |",
);
print("|:--|--:|:--|:--|:--|--:|--:|--:|");
const started = performance.now();
let caseSeed = SEED;
for (const key of values.cases.split(",")) {
  const c = CASES[key];
  if (c === undefined) throw new Error(`unknown case ${key}`);
  for (const attempts of [1, 3]) {
    for (const se of ["paired", "clustered"]) {
      const rnd = generator(caseSeed++);
      const gate = gatePolicy(
        {
          text: policyText(se),
          source: { path: "sim.yaml", sha256: "0", source: "file", lastCommit: null },
          headText: null,
          history: null,
        },
        "2026-01-01",
      );
      // Under a clustered SE the gate takes Holm's α/(2(m − r)) (max-t.ts rankProcedure); the
      // max-t step-down on the clustered covariance is run beside it, to show why.
      const names = [
        se === "paired" ? "max-t step-down (shipped)" : "shipped: Holm α/(2(m − r)) under a clustered SE",
        ...Object.keys(SCHEDULES),
        ...(se === "clustered" ? ["max-t step-down (not shipped under a clustered SE)"] : []),
      ];
      const errors = names.map(() => 0);
      let fewer = 0;
      const ordered = names.map(() => 0);
      const k = c.theta.length;
      for (let run = 0; run < RUNS; run++) {
        const data = draw(rnd, c.theta, attempts, se === "clustered");
        const report = runRank(data, gate, { reference: null, toolVersion: "sim" });
        const set = commonSet(data, gate.policy);
        const { analyse } = pairAnalyser(
          data,
          set,
          tableView([data.tasks], null, set.tasks),
          gate.policy.infra_errors,
        );
        // The schedules share levels (α/(2m) first): each pair at a level is analysed once.
        const cache = new Map();
        const cached = (a, b, margin) => {
          const key = `${a} ${b} ${margin.confidence}`;
          let x = cache.get(key);
          if (x === undefined) {
            x = analyse(a, b, margin);
            cache.set(key, x);
          }
          return x;
        };
        const schedules = Object.values(SCHEDULES);
        if (se === "clustered") {
          const cov = scoreCovariance(set, gate.policy.infra_errors, "clustered");
          schedules.push(maxTSchedule(cov, pairIndices(k), k));
        }
        const all = [
          claimsOfReport(report),
          ...schedules.map((s) => claimsOfOrdered(k, orderPairs(k, cached, gate.policy.margin, s).above)),
        ];
        if (all[0].length < all[1].length) fewer++;
        all.forEach((claims, p) => {
          ordered[p] += claims.length;
          if (claims.some(([hi, lo]) => !(c.theta[hi] > c.theta[lo]))) errors[p]++;
        });
      }
      names.forEach((name, p) => {
        const rate = errors[p] / RUNS;
        const half = 1.96 * Math.sqrt(Math.max(rate * (1 - rate), 1 / RUNS) / RUNS);
        print(
          `| ${c.name} | ${attempts} | ${se} | ${name} | ${(100 * rate).toFixed(1)}% (${Math.max(0, 100 * (rate - half)).toFixed(1)}–${(100 * (rate + half)).toFixed(1)}%) | ${(ordered[p] / RUNS).toFixed(2)} | ${(k * (k - 1)) / 2} | ${p === 0 ? fewer : ""} |`,
        );
      });
    }
  }
}
print("");
print(`${((performance.now() - started) / 1000).toFixed(0)} s for the simulation (transpiling not counted).`);
