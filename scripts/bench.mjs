#!/usr/bin/env node
// `npm run bench`: the gate's CLI against the seed's calculator on the same generated exports.
//
// 1. Generates (once; reused while the generator options are unchanged) seeded exports of 10⁵,
//    10⁶ and 5·10⁶ attempt rows into bench-out/ (two models plus noise models, ~5,000 tasks,
//    1–5 attempts), a .jsonl.gz and a pre-aggregated variant of the 10⁶ file, and two
//    single-attempt exports of 100,000 common tasks for the fragility figures.
// 2. Times, on those files and in this one run, `node dist/cli.js evaluate … --format json` and
//    `python3 ../shared/seed/seed_sensitivity.py FILE` (plain .jsonl only; skipped with a message
//    when python3 or the script is absent): wall time and peak RSS, median of --runs runs.
//    Peak RSS comes from `/usr/bin/time -v` when it exists, else from the child itself (a
//    --require hook reporting process.resourceUsage().maxRSS for node; resource.getrusage for
//    python), because Node's spawnSync does not return the child's rusage.
// 3. Prints Markdown: the machine, the command, the table and the issue's targets, met or not.
//
//   node scripts/bench.mjs [--sizes 1e5,1e6,5e6] [--runs 3] [--out-dir bench-out] [--cli dist/cli.js]
//                          [--baseline-cli OTHER/dist/cli.js]
//                          [--seed-script ../shared/seed/seed_sensitivity.py] [--no-seed] [--regen]
//                          [--presets generator,wide-evidence,many-tasks,deep-attempts] [--no-presets]
//                          [--no-duckdb] [--no-whole-gate] [--big] [--blank] [--markdown FILE]
//    The presets (issue 15) are the shapes of export at 10⁶ rows, each timed as gate, seed and
//    DuckDB (read_json + docs/warehouse.md's SQL), runs alternating.
//    --baseline-cli times another build of the gate (e.g. an earlier commit's dist/cli.js, with
//    any worker scripts of its own beside it) side by side in the same run, with its defaults: on
//    the presets, the 10⁶-row .gz and aggregated files and the whole gate, alternating with this
//    build's runs, and checks that both print the same report byte for byte; the tables get its
//    columns and the ratios, and the targets the issue-28 one (within 10% of its time and peak
//    RSS on every shape at 10⁶ rows). --big adds 10⁷ rows of two shapes, one at a time (in a temp dir, deleted;
//    the baseline too, when given):
//    the generator's (~6 GB) and the issue's ~3.3 GB one (wide-evidence scaled to 50,000 tasks);
//    --blank times 2 GiB of blank lines inflated from gzip against inflating alone.
//    The whole-gate run (issue 11; --no-whole-gate skips it) gates 10⁶ tasks × 2 models × 1
//    attempt for an accept, a reject and an unresolved verdict (~0.9 GB each, generated in a temp
//    dir and deleted), checks each verdict and prints time, peak RSS and the report JSON's size.
//    The refusal run (issue 15; --no-refusal skips it) gives 10⁶ + 1 tasks of both compared
//    models, rows interleaved (baseline and candidate row of each task together), checks that the
//    task cap refuses it and prints time and peak RSS.
import { Buffer } from "node:buffer";
import { spawnSync } from "node:child_process";
import { cpus, loadavg, tmpdir } from "node:os";
import { gzipSync } from "node:zlib";
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  readdirSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    sizes: { type: "string", default: "1e5,1e6,5e6" },
    runs: { type: "string", default: "3" },
    "seed-runs": { type: "string" },
    "out-dir": { type: "string", default: "bench-out" },
    cli: { type: "string", default: "dist/cli.js" },
    "baseline-cli": { type: "string" },
    "seed-script": { type: "string", default: "../shared/seed/seed_sensitivity.py" },
    "no-seed": { type: "boolean", default: false },
    "no-fragility": { type: "boolean", default: false },
    presets: { type: "string", default: "generator,wide-evidence,many-tasks,deep-attempts" },
    "no-presets": { type: "boolean", default: false },
    "no-duckdb": { type: "boolean", default: false },
    big: { type: "boolean", default: false },
    "no-whole-gate": { type: "boolean", default: false },
    "no-refusal": { type: "boolean", default: false },
    blank: { type: "boolean", default: false },
    regen: { type: "boolean", default: false },
    markdown: { type: "string" },
    help: { type: "boolean", default: false },
  },
});

if (args.help) {
  process.stdout.write(
    readFileSync(fileURLToPath(import.meta.url), "utf8")
      .split("\n")
      .slice(1)
      .filter((line, i, all) => all.slice(0, i + 1).every((l) => l.startsWith("//")))
      .join("\n") + "\n",
  );
  process.exit(0);
}

const runs = Number(args.runs);
if (!Number.isInteger(runs) || runs < 1) die("--runs needs a positive integer");
const seedRuns = args["seed-runs"] === undefined ? runs : Number(args["seed-runs"]);
if (!Number.isInteger(seedRuns) || seedRuns < 1) die("--seed-runs needs a positive integer");
const sizes = args.sizes.split(",").map((s) => {
  const n = Number(s);
  if (!Number.isFinite(n) || n < 1) die(`--sizes: "${s}" is not a row count`);
  return n;
});
const out = resolve(args["out-dir"]);
const cliSource = resolve(args.cli);
const seedScript = resolve(args["seed-script"]);
mkdirSync(out, { recursive: true });

// Snapshot the bundle: `npm run package` (here or in another checkout step) deletes and rebuilds
// dist/, which must not change the program half-way through the runs.
function snapshot(source, name, workers) {
  if (!existsSync(source)) die(`${source} not found (build it with npm run package)`);
  mkdirSync(join(out, name), { recursive: true });
  const copy = join(out, name, "cli.js");
  copyFileSync(source, copy);
  // An earlier build starts the worker scripts found next to it: copied too, or the snapshot
  // would not read as that build reads.
  for (const worker of workers) {
    const workerSource = join(dirname(source), worker);
    if (existsSync(workerSource)) copyFileSync(workerSource, join(out, name, worker));
  }
  writeFileSync(join(out, name, "package.json"), '{ "type": "module" }\n');
  return copy;
}
const cli = snapshot(cliSource, "gate", []);
const baselineCli =
  args["baseline-cli"] === undefined
    ? undefined
    : snapshot(resolve(args["baseline-cli"]), "baseline", ["range-worker.js", "parse-worker.js"]);
const cliCommit =
  spawnSync("git", ["log", "-1", "--format=%h %cs", "--", args.cli], { encoding: "utf8" }).stdout?.trim() ||
  null;
const cliDirty = spawnSync("git", ["status", "--porcelain", "--", args.cli], {
  encoding: "utf8",
}).stdout?.trim();

function die(message) {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}

function log(message) {
  process.stderr.write(`bench: ${message}\n`);
}

// ---------------------------------------------------------------------------------------------
// What can measure peak RSS here

const gnuTime =
  existsSync("/usr/bin/time") &&
  spawnSync("/usr/bin/time", ["-v", "true"], { encoding: "utf8" }).status === 0;
const python = spawnSync("python3", ["--version"], { encoding: "utf8" });
const havePython = python.status === 0;
const runSeed = !args["no-seed"] && havePython && existsSync(seedScript);
if (!args["no-seed"] && !havePython) log("python3 not found: the seed script's column is left empty");
if (!args["no-seed"] && havePython && !existsSync(seedScript)) {
  log(`${seedScript} not found: the seed script's column is left empty`);
}

const rssHook = join(out, "rss-hook.cjs");
writeFileSync(
  rssHook,
  `process.on("exit", () => {
  require("node:fs").writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS));
});\n`,
);
const rssFile = join(out, "rss.txt");
const PY_RSS =
  "import os, resource, runpy, sys\n" +
  "sys.argv = sys.argv[1:]\n" +
  "try:\n    runpy.run_path(sys.argv[0], run_name='__main__')\n" +
  "finally:\n    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n" +
  "    kb = kb // 1024 if sys.platform == 'darwin' else kb\n" +
  "    open(os.environ['BENCH_RSS_FILE'], 'w').write(str(kb))\n";

/**
 * Runs one command; returns wall seconds, peak RSS in KiB (or null), CPU seconds (user + system,
 * all threads; null without GNU time) and the child's output. On a shared machine CPU time moves
 * less with the load than wall time: both are reported.
 */
function measure(kind, file, extra = []) {
  let command;
  let argv;
  const env = { ...process.env, BENCH_RSS_FILE: rssFile };
  if (kind === "gate" || kind === "baseline") {
    argv = [kind === "gate" ? cli : baselineCli, "evaluate", "--results", file, ...extra];
    command = process.execPath;
  } else if (kind === "duckdb") {
    argv = [duckdbScript, file, duckdbSql];
    command = process.execPath;
  } else {
    argv = [seedScript, file];
    command = "python3";
  }
  if (gnuTime) {
    argv = ["-v", command, ...argv];
    command = "/usr/bin/time";
  } else if (kind !== "seed") {
    argv = ["--require", rssHook, ...argv];
  } else {
    argv = ["-c", PY_RSS, ...argv];
  }
  rmSync(rssFile, { force: true });
  const start = performance.now();
  const run = spawnSync(command, argv, { env, encoding: "utf8", maxBuffer: 1 << 30 });
  const wall = (performance.now() - start) / 1000;
  let rss = null;
  let cpu = null;
  let stderr = run.stderr ?? "";
  if (gnuTime) {
    const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
    if (m) rss = Number(m[1]);
    const user = /User time \(seconds\): ([\d.]+)/.exec(stderr);
    const system = /System time \(seconds\): ([\d.]+)/.exec(stderr);
    if (user && system) cpu = Number(user[1]) + Number(system[1]);
    stderr = stderr.slice(0, stderr.lastIndexOf("\tCommand being timed:"));
  } else if (existsSync(rssFile)) {
    rss = Number(readFileSync(rssFile, "utf8"));
  }
  return { wall, rss, cpu, status: run.status, stdout: run.stdout ?? "", stderr };
}

function isReport(stdout) {
  try {
    return ["accept", "reject", "unresolved"].includes(JSON.parse(stdout).verdict);
  } catch {
    return false;
  }
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function repeat(kind, file, extra) {
  const results = [];
  const n = kind === "seed" ? seedRuns : runs;
  for (let i = 0; i < n; i++) {
    const r = measure(kind, file, extra);
    if (
      (kind === "gate" || kind === "baseline") &&
      (r.status === null || r.status > 2 || !isReport(r.stdout))
    ) {
      die(`the ${kind} gate failed on ${file} (exit ${r.status}):\n${r.stderr}`);
    }
    if (kind === "seed" && r.status !== 0)
      die(`the seed script failed on ${file} (exit ${r.status}):\n${r.stderr}`);
    results.push(r);
    log(`${kind} ${file.replace(out + "/", "")} run ${i + 1}/${n}: ${r.wall.toFixed(2)} s, ${mib(r.rss)}`);
  }
  return {
    wall: median(results.map((r) => r.wall)),
    rss: results.some((r) => r.rss === null) ? null : Math.max(...results.map((r) => r.rss)),
    runs: n,
    last: results[results.length - 1],
  };
}

// ---------------------------------------------------------------------------------------------
// Inputs

const generator = join(dirname(fileURLToPath(import.meta.url)), "generate-export.mjs");

/** Generates FILE with the generator options unless it exists with exactly those options. */
function ensure(file, options) {
  const meta = `${file}.meta.json`;
  const wanted = JSON.stringify(options);
  if (!args.regen && existsSync(file) && existsSync(meta)) {
    const had = JSON.parse(readFileSync(meta, "utf8"));
    if (JSON.stringify(had.options) === wanted) return had.summary;
  }
  log(`generating ${file.replace(out + "/", "")} …`);
  const run = spawnSync(process.execPath, [generator, ...options, "--out", file], { encoding: "utf8" });
  if (run.status !== 0) die(`generator failed:\n${run.stderr}`);
  const summary = JSON.parse(run.stderr.trim().split("\n").pop());
  writeFileSync(meta, JSON.stringify({ options, summary }) + "\n");
  return summary;
}

function sizeLabel(n) {
  const exp = Math.floor(Math.log10(n));
  const mant = n / 10 ** exp;
  return mant === 1 ? `1e${exp}` : `${mant}e${exp}`;
}

function sizeText(n) {
  const exp = Math.floor(Math.log10(n));
  const mant = n / 10 ** exp;
  const sup = String(exp)
    .split("")
    .map((d) => "⁰¹²³⁴⁵⁶⁷⁸⁹"[Number(d)])
    .join("");
  return mant === 1 ? `10${sup}` : `${mant}·10${sup}`;
}

const BASE = ["--seed", "1", "--tasks", "5000", "--attempts", "1-5", "--clusters", "--lift", "0.3"];
const variantSize = sizes.includes(1e6) ? 1e6 : sizes[0];

const POLICY = `owner: "@acme/eval-owners"
revisit: 2099-12-31
on_expired: warn
infra_errors: exclude
require_same_harness: true
accept_if:
  common_valid_tasks: ">= 500"
  infra_error_rate: "< 1%"
  disputed_fraction: "< 15%"
  missing_fraction: "< 2%"
  observed_margin: "> validity_sensitivity + run_variance"
margin:
  confidence: 0.95
  standard_error: paired
  validity_bound: exact
on_unresolved: fail
`;
const policy = join(out, "policy.yaml");
writeFileSync(policy, POLICY);

const gateFlags = [
  "--policy",
  policy,
  "--baseline",
  "cfg-baseline",
  "--candidate",
  "cfg-candidate",
  "--format",
  "json",
];

for (const program of [cli, baselineCli].filter((p) => p !== undefined)) {
  const probe = spawnSync(process.execPath, [program, "evaluate", "--help"], { encoding: "utf8" });
  if (probe.status !== 0 || !probe.stdout.includes("--results")) {
    die(`${program} has no working "evaluate" command yet (build it with npm run package)`);
  }
}

/**
 * This build's runs of `file` and, with --baseline-cli, the baseline's, alternating (a change of
 * load hits both alike); checks that both print the same report.
 */
function sideBySide(file) {
  const gate = [];
  const baseline = [];
  for (let i = 0; i < runs; i++) {
    const pair =
      baselineCli === undefined ? ["gate"] : i % 2 === 0 ? ["gate", "baseline"] : ["baseline", "gate"];
    for (const kind of pair) (kind === "gate" ? gate : baseline).push(measureChecked(kind, file, gateFlags));
  }
  const same = baseline.every((r) => r.stdout === gate[0].stdout);
  if (!same) log(`WARNING: ${file}: the baseline's report differs from this build's`);
  return { gate, baseline, same };
}

// ---------------------------------------------------------------------------------------------
// Runs

function figures(stdout) {
  const r = JSON.parse(stdout);
  return JSON.stringify([r.verdict, r.checks, r.comparison, r.models]);
}

function memAvailable() {
  if (!existsSync("/proc/meminfo")) return null;
  const kb = /MemAvailable:\s*(\d+)/.exec(readFileSync("/proc/meminfo", "utf8"))?.[1];
  return kb === undefined ? null : Number(kb) * 1024;
}
let seedBytesPerRow = 3000;
const loadBefore = loadavg();

const rowsTable = [];
for (const n of sizes) {
  const label = sizeLabel(n);
  const plain = join(out, `attempts-${label}.jsonl`);
  const summary = ensure(plain, [...BASE, "--rows", String(n)]);
  const row = { n, rows: summary.rows, models: summary.models, bytes: statSync(plain).size };
  row.gate = repeat("gate", plain, gateFlags);
  row.verdict = JSON.parse(row.gate.last.stdout).verdict;
  if (runSeed) {
    // The seed script holds every row as a Python dict (~2.7 KB a row here): do not run it where
    // it would push the machine out of memory (other work shares it).
    const need = summary.rows * seedBytesPerRow;
    const available = memAvailable();
    if (available !== null && need > 0.75 * available) {
      log(
        `seed script skipped on ${sizeText(n)}: needs ~${(need / 2 ** 30).toFixed(1)} GiB, ${(available / 2 ** 30).toFixed(1)} GiB available`,
      );
      row.seedSkipped = need;
    } else {
      row.seed = repeat("seed", plain);
      if (row.seed.rss !== null)
        seedBytesPerRow = Math.max(seedBytesPerRow, (row.seed.rss * 1024) / summary.rows);
    }
  }
  if (n === variantSize) {
    const gz = join(out, `attempts-${label}.jsonl.gz`);
    ensure(gz, [...BASE, "--rows", String(n), "--gzip"]);
    row.gzBytes = statSync(gz).size;
    row.gz = repeat("gate", gz, gateFlags);
    const agg = join(out, `attempts-${label}.agg.jsonl`);
    const aggSummary = ensure(agg, [...BASE, "--rows", String(n), "--aggregated"]);
    row.aggRows = aggSummary.rows;
    row.agg = repeat("gate", agg, gateFlags);
    if (baselineCli !== undefined) {
      row.gzSide = sideBySide(gz);
      row.aggSide = sideBySide(agg);
    }
    const base = figures(row.gate.last.stdout);
    row.gzSame = figures(row.gz.last.stdout) === base;
    row.aggSame = figures(row.agg.last.stdout) === base;
    if (!row.gzSame) log("WARNING: the .gz report differs from the plain one");
    if (!row.aggSame) log("WARNING: the aggregated report differs from the raw one");
  }
  rowsTable.push(row);
}

// ---------------------------------------------------------------------------------------------
// Presets (issue 15): shapes of export at 10⁶ rows × {gate, baseline, seed, DuckDB}

const PRESETS = {
  generator: [...BASE, "--rows", "1000000"],
  "wide-evidence": [
    ...["--seed", "1", "--tasks", "5000", "--attempts", "20", "--noise-models", "8"],
    ...["--no-extras", "--evidence", "model", "--lift", "0.3"],
  ],
  "many-tasks": ["--seed", "1", "--tasks", "500000", "--attempts", "1", "--clusters", "--lift", "0.3"],
  "deep-attempts": ["--seed", "1", "--tasks", "10000", "--attempts", "50", "--clusters", "--lift", "0.3"],
};
const PRESET_TEXT = {
  generator: "the generator (67 models, 1–5 attempts, 610-byte lines)",
  "wide-evidence": "10 models × 5,000 tasks × 20 attempts, evidence per (model, task), no extra fields",
  "many-tasks": "2 models × 500,000 tasks × 1 attempt",
  "deep-attempts": "2 models × 10,000 tasks × 50 attempts",
};

// DuckDB: read_json of the export as the `attempts` table, then docs/warehouse.md's SQL (counted).
const duckdbScript = join(out, "duckdb-run.mjs");
const duckdbSql = join(out, "warehouse.sql");
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const warehouseSql = [
  ...readFileSync(join(repoRoot, "docs", "warehouse.md"), "utf8").matchAll(/^```sql\n([\s\S]*?)^```$/gm),
];
writeFileSync(duckdbSql, (warehouseSql[0]?.[1] ?? "").trim().replace(/;$/, ""));
writeFileSync(
  duckdbScript,
  `import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
const require = createRequire(${JSON.stringify(join(repoRoot, "package.json"))});
const { DuckDBInstance } = await import(require.resolve("@duckdb/node-api"));
const [file, sqlFile] = process.argv.slice(2);
const db = await DuckDBInstance.create(":memory:");
const con = await db.connect();
await con.run(\`CREATE VIEW raw AS SELECT * FROM read_json('\${file.replaceAll("'", "''")}', format = 'newline_delimited')\`);
// Optional columns an export may lack (docs/warehouse.md): NULL, as the gate reads a missing one.
const have = new Set((await con.runAndReadAll("DESCRIBE raw")).getRowObjects().map((r) => r.column_name));
const missing = ["attempt", "evidence", "cluster"].filter((c) => !have.has(c));
await con.run(\`CREATE VIEW attempts AS SELECT *\${missing.map((c) => \`, NULL::VARCHAR AS \${c}\`).join("")} FROM raw\`);
const reader = await con.runAndReadAll(\`SELECT count(*) AS n FROM (\${readFileSync(sqlFile, "utf8")})\`);
process.stdout.write(JSON.stringify({ groups: Number(reader.getRowObjects()[0].n) }) + "\\n");
`,
);
const haveDuckdb =
  !args["no-duckdb"] &&
  spawnSync(process.execPath, [
    "-e",
    `require(${JSON.stringify(join(repoRoot, "node_modules", "@duckdb", "node-api"))})`,
  ]).status === 0;

const presetTable = [];
if (!args["no-presets"]) {
  for (const name of args.presets.split(",")) {
    const options = PRESETS[name];
    if (options === undefined)
      die(`--presets: unknown preset "${name}" (${Object.keys(PRESETS).join(", ")})`);
    const file = join(out, `preset-${name}.jsonl`);
    const summary = ensure(file, options);
    const runsOf = { gate: [], baseline: [], seed: [], duckdb: [] };
    // Alternating runs: a change of load hits every column alike. The gate's variants take turns
    // at going first: the run after the seed's (2.6 GB) came out slowest, whichever it was.
    const variants = [["gate", "gate"], ...(baselineCli === undefined ? [] : [["baseline", "baseline"]])];
    for (let i = 0; i < runs; i++) {
      for (let k = 0; k < variants.length; k++) {
        const [column, kind] = variants[(i + k) % variants.length];
        runsOf[column].push(measureChecked(kind, file, gateFlags));
      }
      if (runSeed && i < seedRuns) runsOf.seed.push(measureChecked("seed", file));
      if (haveDuckdb) runsOf.duckdb.push(measureChecked("duckdb", file));
    }
    const same = runsOf.baseline.every((r) => r.stdout === runsOf.gate[0].stdout);
    if (!same) log(`WARNING: ${name}: the report of the baseline differs from this build's`);
    presetTable.push({ name, summary, bytes: statSync(file).size, runsOf, same });
  }
}

function measureChecked(kind, file, extra = []) {
  const r = measure(kind, file, extra);
  const gate = kind === "gate" || kind === "baseline";
  if (gate && (r.status === null || r.status > 2 || !isReport(r.stdout))) {
    die(`the ${kind} gate failed on ${file} (exit ${r.status}):\n${r.stderr}`);
  }
  if (!gate && r.status !== 0) die(`${kind} failed on ${file} (exit ${r.status}):\n${r.stderr}`);
  log(`${kind} ${file.replace(out + "/", "")}: ${r.wall.toFixed(2)} s, ${mib(r.rss)}`);
  return r;
}

// 10⁷ rows, generated into a temp dir and deleted, one shape at a time (disk): the generator's
// 610-byte lines (~6 GB), and issue 15's "~3.3 GB" file: the wide-evidence shape (10 models,
// 20 attempts, evidence per (model, task), no extra fields) at 50,000 tasks.
const BIG_SHAPES = [
  ["generator", [...BASE, "--rows", "10000000"]],
  [
    "wide-evidence",
    [
      ...["--seed", "1", "--tasks", "50000", "--attempts", "20", "--noise-models", "8"],
      ...["--no-extras", "--evidence", "model", "--lift", "0.3"],
    ],
  ],
];
const bigs = [];
if (args.big) {
  for (const [name, genArgs] of BIG_SHAPES) {
    const dir = mkdtempSync(join(tmpdir(), "gate-bench-1e7-"));
    try {
      const file = join(dir, `attempts-1e7-${name}.jsonl`);
      const summary = ensure(file, genArgs);
      const runsOf = [];
      const baselineRuns = [];
      for (let i = 0; i < runs; i++) {
        runsOf.push(measureChecked("gate", file, gateFlags));
        if (baselineCli !== undefined) baselineRuns.push(measureChecked("baseline", file, gateFlags));
      }
      bigs.push({ name, summary, bytes: statSync(file).size, runsOf, baselineRuns });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

// The whole gate at 10⁶ tasks × 2 models (issue 11): one export per verdict, generated and deleted.
const WHOLE_GATE = {
  accept: ["--lift", "0.3", "--mix", "valid:0.8,broken:0.1,disputed:0.05,unreviewed:0.05"],
  reject: ["--lift=-0.3", "--mix", "valid:0.8,broken:0.1,disputed:0.05,unreviewed:0.05"],
  // The default mix leaves 15.4% of the common tasks disputed or unreviewed: over the policy's 15%.
  unresolved: ["--lift", "0.3"],
};
const wholeGate = [];
if (!args["no-whole-gate"]) {
  const dir = mkdtempSync(join(tmpdir(), "gate-bench-1e6-tasks-"));
  try {
    for (const [verdict, options] of Object.entries(WHOLE_GATE)) {
      const file = join(dir, `tasks-1e6-${verdict}.jsonl`);
      const common = ["--seed", "1", "--tasks", "1000000", "--attempts", "1", "--clusters", "--no-extras"];
      const summary = ensure(file, [...common, ...options]);
      const side = sideBySide(file);
      const r = side.gate[side.gate.length - 1];
      const got = JSON.parse(r.stdout).verdict;
      if (got !== verdict) die(`the whole-gate run for ${verdict} gave ${got} (${file})`);
      wholeGate.push({ verdict, summary, bytes: statSync(file).size, result: r, side });
      rmSync(file, { force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// The refusal at the task cap (issue 15): 10⁶ + 1 tasks, each with its baseline and candidate
// row side by side, so both compared models hold state for every task when the cap is passed.
let refusal;
if (!args["no-refusal"]) {
  const dir = mkdtempSync(join(tmpdir(), "gate-bench-cap-"));
  try {
    const byModel = join(dir, "by-model.jsonl");
    const file = join(dir, "tasks-1e6-plus-1.jsonl");
    const n = 1_000_001;
    const common = ["--seed", "1", "--tasks", String(n), "--attempts", "1", "--clusters", "--no-extras"];
    const summary = ensure(byModel, [...common, "--lift", "0.3"]);
    // The generator writes every baseline row, then every candidate row: interleave the halves.
    const paste = spawnSync("bash", [
      "-c",
      'paste -d "\\n" <(head -n "$2" "$1") <(tail -n +"$(($2 + 1))" "$1") > "$3"',
      "bash",
      byModel,
      String(n),
      file,
    ]);
    if (paste.status !== 0) die(`interleaving the refusal export failed:\n${paste.stderr}`);
    rmSync(byModel, { force: true });
    const r = measure("gate", file, gateFlags);
    if (r.status !== 3 || !r.stderr.includes("distinct tasks (dataset_revision, task_id)"))
      die(`the task cap did not refuse ${file} (exit ${r.status}):\n${r.stderr.slice(0, 2000)}`);
    log(`gate refused ${file}: ${r.wall.toFixed(2)} s, ${mib(r.rss)}`);
    refusal = { summary, bytes: statSync(file).size, result: r };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Blank runs (issue 11): 2 GiB of LF inflated from gzip, read by the gate vs inflated alone.
let blank;
if (args.blank) {
  const dir = mkdtempSync(join(tmpdir(), "gate-bench-blank-"));
  try {
    const file = join(dir, "blank.jsonl.gz");
    const member = gzipSync(Buffer.alloc(256 * 1024 * 1024, 10), { level: 9 });
    writeFileSync(file, "");
    for (let i = 0; i < 8; i++) appendFileSync(file, member);
    const head = readFileSync(join(out, "preset-generator.jsonl")).subarray(0, 65536);
    appendFileSync(file, gzipSync(head.subarray(0, head.lastIndexOf(10) + 1)));
    const inflate = spawnSync(
      process.execPath,
      [
        "-e",
        `const z=require("node:zlib"),f=require("node:fs");let n=0;f.createReadStream(${JSON.stringify(file)}).pipe(z.createGunzip({chunkSize:262144})).on("data",c=>n+=c.length).on("end",()=>console.log(n))`,
      ],
      { encoding: "utf8" },
    );
    const t0 = performance.now();
    spawnSync(process.execPath, [
      "-e",
      `const z=require("node:zlib"),f=require("node:fs");f.createReadStream(${JSON.stringify(file)}).pipe(z.createGunzip({chunkSize:262144})).on("data",()=>{})`,
    ]);
    const inflateWall = (performance.now() - t0) / 1000;
    const gate = measure("gate", file, gateFlags);
    blank = { gz: statSync(file).size, inflated: Number(inflate.stdout.trim()), inflateWall, gate };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const FRAGILITY = {
  accept: ["--lift", "0.4", "--mix", "valid:0.9,broken:0.05,disputed:0.03,unreviewed:0.02"],
  unresolved: ["--lift", "0.02", "--mix", "valid:0.8,broken:0.05,disputed:0.1,unreviewed:0.05"],
};
const fragility = [];
if (!args["no-fragility"]) {
  for (const [name, options] of Object.entries(FRAGILITY)) {
    const file = join(out, `fragility-100k-${name}.jsonl`);
    ensure(file, ["--seed", "7", "--tasks", "100000", "--attempts", "1", "--lost-rate", "0", ...options]);
    const result = repeat("gate", file, gateFlags);
    const report = JSON.parse(result.last.stdout);
    const profile = profileFragility(file);
    fragility.push({ name, result, report, profile });
  }
}

/** Inclusive CPU time of the fragility functions, from a V8 CPU profile of one CLI run. */
function profileFragility(file) {
  const dir = join(out, "cpuprof");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  const start = performance.now();
  const run = spawnSync(
    process.execPath,
    ["--cpu-prof", "--cpu-prof-dir", dir, cli, "evaluate", "--results", file, ...gateFlags],
    { encoding: "utf8", maxBuffer: 1 << 30 },
  );
  const wall = (performance.now() - start) / 1000;
  if (run.status === null || run.status > 2) return null;
  const name = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
  if (name === undefined) return null;
  return {
    wall,
    ...inclusive(
      JSON.parse(readFileSync(join(dir, name), "utf8")),
      /^(computeFragility|analyseFragility|reviewFragility|resolutionDistance)$/,
    ),
  };
}

/** Seconds of samples whose stack holds a function matching `pattern`, and the functions seen. */
function inclusive(profile, pattern) {
  const parent = new Map();
  const byId = new Map();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const c of node.children ?? []) parent.set(c, node.id);
  }
  const hits = new Map();
  let total = 0;
  let all = 0;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1e6;
    all += dt;
    let matched = null;
    for (let n = id; n !== undefined; n = parent.get(n)) {
      const fn = byId.get(n).callFrame.functionName;
      if (pattern.test(fn)) matched = fn;
    }
    if (matched !== null) {
      total += dt;
      hits.set(matched, (hits.get(matched) ?? 0) + dt);
    }
  });
  return { seconds: total, profiled: all, functions: [...hits.keys()].sort() };
}

// ---------------------------------------------------------------------------------------------
// Report

function mib(kib) {
  return kib === null || kib === undefined ? "n/a" : `${(kib / 1024).toFixed(0)} MiB`;
}
function sec(s) {
  return s === undefined ? "—" : `${s.toFixed(2)} s`;
}

const cpuModel =
  (existsSync("/proc/cpuinfo") && /model name\s*:\s*(.*)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]) ||
  cpus()[0]?.model ||
  "unknown";
const nproc = spawnSync("nproc", [], { encoding: "utf8" }).stdout?.trim() || String(cpus().length);
const memTotal = existsSync("/proc/meminfo")
  ? /MemTotal:\s*(\d+)/.exec(readFileSync("/proc/meminfo", "utf8"))?.[1]
  : null;

const lines = [];
lines.push(
  `Machine: ${cpuModel}, ${nproc} CPUs (nproc)${memTotal ? `, ${(memTotal / 1048576).toFixed(0)} GiB RAM` : ""}; ` +
    `Node ${process.version}${havePython ? `; ${python.stdout.trim() || python.stderr.trim()}` : "; no python3"}.`,
);
lines.push(
  `Gate: \`${args.cli}\`${cliCommit ? ` as of commit ${cliCommit}` : ""}${cliDirty ? " (with uncommitted changes)" : ""}; ` +
    `seed: \`${args["seed-script"]}\`.`,
);
lines.push(
  `Load average (1 min) ${loadBefore[0].toFixed(1)} when the run started, ${loadavg()[0].toFixed(1)} when it ended ` +
    `(other work shared the machine: compare ratios more than absolute times).`,
);
lines.push(
  `Peak RSS from ${gnuTime ? "`/usr/bin/time -v` (Maximum resident set size)" : "the child's own rusage (maxRSS)"}; ` +
    `times are the median of ${runs} run${runs > 1 ? "s" : ""}` +
    (seedRuns !== runs ? ` (${seedRuns} for the seed script)` : "") +
    `, RSS the largest of them.`,
);
lines.push("");
lines.push(
  "| rows | models | file | gate time | seed time | ratio | gate peak RSS | seed peak RSS | .gz gate time (throughput vs plain) | aggregated gate time (rows) |",
);
lines.push("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const r of rowsTable) {
  const ratio = r.seed ? `${(r.seed.wall / r.gate.wall).toFixed(1)}×` : "—";
  const gz = r.gz
    ? `${sec(r.gz.wall)} (${((100 * r.gate.wall) / r.gz.wall).toFixed(0)}%, ${(r.gzBytes / 1048576).toFixed(0)} MiB)`
    : "—";
  const agg = r.agg ? `${sec(r.agg.wall)} (${r.aggRows.toLocaleString("en-US")} rows)` : "—";
  lines.push(
    `| ${sizeText(r.n)} (${r.rows.toLocaleString("en-US")}) | ${r.models} | ${(r.bytes / 1048576).toFixed(0)} MiB | ` +
      `${sec(r.gate.wall)} | ${r.seed ? sec(r.seed.wall) : r.seedSkipped ? "skipped (memory)" : "—"} | ${ratio} | ${mib(r.gate.rss)} | ${r.seed ? mib(r.seed.rss) : r.seedSkipped ? `~${(r.seedSkipped / 2 ** 30).toFixed(1)} GiB (est.)` : "—"} | ${gz} | ${agg} |`,
  );
}
lines.push("");
const verdicts = rowsTable.map((r) => `${sizeText(r.n)}: ${r.verdict}`).join(", ");
lines.push(
  `Gate verdicts: ${verdicts}.` +
    (rowsTable.some((r) => r.gz)
      ? ` The .gz and aggregated reports ${rowsTable.every((r) => r.gzSame !== false && r.aggSame !== false) ? "equal" : "DIFFER FROM"} the plain one (verdict, checks, comparison, models).`
      : ""),
);

if (fragility.length > 0) {
  lines.push("");
  lines.push(
    "| fragility export (100,000 tasks, 1 attempt, 2 models) | verdict | figure | CLI wall (median) | CLI peak RSS | fragility CPU time (profile) |",
  );
  lines.push("|---|---|---|---:|---:|---:|");
  for (const f of fragility) {
    const c = f.report.comparison;
    const figure =
      f.report.verdict === "unresolved"
        ? `resolution distance ${c.fragility_unbounded ? "∞" : c.resolution_distance}${c.fragility_exact ? "" : " (at most)"}`
        : `review fragility ${c.fragility_unbounded ? "∞" : c.review_fragility}${c.fragility_exact ? "" : " (at most)"}`;
    const prof = f.profile
      ? `${f.profile.seconds.toFixed(3)} s (${f.profile.functions.join(", ") || "no matching function"})`
      : "n/a";
    lines.push(
      `| ${f.name}: ${c.common_tasks.toLocaleString("en-US")} common tasks | ${f.report.verdict} | ${figure} | ${sec(f.result.wall)} | ${mib(f.result.rss)} | ${prof} |`,
    );
  }
}

// Presets (issue 15)
const med = (rs) => (rs.length === 0 ? undefined : median(rs.map((r) => r.wall)));
/** The median CPU time (user + system) of runs, undefined when not measured. */
const medCpu = (rs) =>
  rs.length === 0 || rs.some((r) => r.cpu === null) ? undefined : median(rs.map((r) => r.cpu));
const peak = (rs) =>
  rs.length === 0 || rs.some((r) => r.rss === null) ? null : Math.max(...rs.map((r) => r.rss));
if (presetTable.length > 0) {
  lines.push("");
  lines.push(
    "| shape at 10⁶ rows | tasks | file | gate | seed | DuckDB read_json + README SQL | seed ÷ gate | seed ÷ gate, CPU | gate peak RSS | per task | seed peak RSS | DuckDB peak RSS |",
  );
  lines.push("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const p of presetTable) {
    const g = med(p.runsOf.gate);
    const sd = med(p.runsOf.seed);
    const dk = med(p.runsOf.duckdb);
    const rss = peak(p.runsOf.gate);
    const cg = medCpu(p.runsOf.gate);
    const cs = medCpu(p.runsOf.seed);
    lines.push(
      `| ${p.name}: ${PRESET_TEXT[p.name]} | ${p.summary.tasks.toLocaleString("en-US")} | ${(p.bytes / 1048576).toFixed(0)} MiB | ` +
        `${sec(g)} | ${sec(sd)} | ${sec(dk)} | ${sd ? `${(sd / g).toFixed(1)}×` : "—"} | ` +
        `${cg && cs ? `${(cs / cg).toFixed(1)}×` : "—"} | ` +
        `${mib(rss)} | ${rss === null ? "—" : `${((rss * 1024) / p.summary.tasks / 1024).toFixed(2)} KiB`} | ${mib(peak(p.runsOf.seed))} | ${mib(peak(p.runsOf.duckdb))} |`,
    );
  }
}

/** One row of the side-by-side table: this build's and the baseline's median time and peak RSS. */
function sideRow(name, gate, baseline) {
  const g = med(gate);
  const b = med(baseline);
  const cg = medCpu(gate);
  const cb = medCpu(baseline);
  const rg = peak(gate);
  const rb = peak(baseline);
  return {
    name,
    time: g / b,
    rss: rg === null || rb === null ? null : rg / rb,
    line:
      `| ${name} | ${sec(g)} | ${sec(b)} | ${(g / b).toFixed(2)} | ${sec(cg)} | ${sec(cb)} | ` +
      `${cg && cb ? (cg / cb).toFixed(2) : "—"} | ${mib(rg)} | ${mib(rb)} | ` +
      `${rg === null || rb === null ? "—" : (rg / rb).toFixed(2)} |`,
  };
}
const sideRows = [];
if (baselineCli !== undefined) {
  for (const p of presetTable) {
    sideRows.push(sideRow(p.name, p.runsOf.gate, p.runsOf.baseline));
  }
  for (const r of rowsTable) {
    if (r.gzSide)
      sideRows.push(sideRow(`generator ${sizeText(r.n)}, .jsonl.gz`, r.gzSide.gate, r.gzSide.baseline));
    if (r.aggSide)
      sideRows.push(
        sideRow(`generator ${sizeText(r.n)}, pre-aggregated`, r.aggSide.gate, r.aggSide.baseline),
      );
  }
  for (const w of wholeGate)
    sideRows.push(sideRow(`whole gate, 10⁶ tasks (${w.verdict})`, w.side.gate, w.side.baseline));
  if (sideRows.length > 0) {
    const sameAll =
      presetTable.every((p) => p.same) &&
      rowsTable.every((r) => (r.gzSide?.same ?? true) && (r.aggSide?.same ?? true)) &&
      wholeGate.every((w) => w.side.same);
    lines.push("");
    lines.push(`Side by side with the baseline \`${args["baseline-cli"]}\` (runs alternating):`);
    lines.push("");
    lines.push(
      "| shape | gate time | baseline time | ÷ baseline | gate CPU | baseline CPU | ÷ baseline | gate peak RSS | baseline peak RSS | ÷ baseline |",
    );
    lines.push("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const r of sideRows) lines.push(r.line);
    lines.push("");
    lines.push(
      `Reports of this build and the baseline ${sameAll ? "are byte-identical on every shape" : "DIFFER on some shape"}.`,
    );
  }
}
for (const big of bigs) {
  lines.push("");
  lines.push(
    `10⁷ rows, ${big.name} shape (${big.summary.rows.toLocaleString("en-US")} rows, ${(big.bytes / 2 ** 30).toFixed(1)} GiB, generated in a temp dir and deleted): ` +
      `gate ${sec(med(big.runsOf))} (CPU ${sec(medCpu(big.runsOf))}), peak RSS ${mib(peak(big.runsOf))}` +
      (big.baselineRuns.length === 0
        ? "."
        : `; the baseline ${sec(med(big.baselineRuns))} (CPU ${sec(medCpu(big.baselineRuns))}), ` +
          `peak RSS ${mib(peak(big.baselineRuns))}.`),
  );
}
if (wholeGate.length > 0) {
  lines.push("");
  lines.push(
    "| whole gate, 10⁶ tasks × 2 models × 1 attempt | file | verdict | time | peak RSS | per task | report JSON |",
  );
  lines.push("|---|---:|---|---:|---:|---:|---:|");
  for (const w of wholeGate) {
    const rss = w.result.rss;
    lines.push(
      `| ${w.verdict} (${w.summary.tasks.toLocaleString("en-US")} tasks, ${w.summary.rows.toLocaleString("en-US")} rows) | ` +
        `${(w.bytes / 1048576).toFixed(0)} MiB | ${w.verdict} | ${sec(w.result.wall)} | ${mib(rss)} | ` +
        `${rss === null ? "—" : `${((rss * 1024) / w.summary.tasks / 1024).toFixed(2)} KiB`} | ` +
        `${(Buffer.byteLength(w.result.stdout) / 1048576).toFixed(1)} MiB |`,
    );
  }
}
if (refusal) {
  lines.push("");
  lines.push(
    `Refusal at the task cap: ${refusal.summary.tasks.toLocaleString("en-US")} tasks of both compared models ` +
      `(${(refusal.bytes / 1048576).toFixed(0)} MiB, rows interleaved) refused in ${sec(refusal.result.wall)}, ` +
      `peak RSS ${mib(refusal.result.rss)}.`,
  );
}
if (blank) {
  lines.push("");
  lines.push(
    `Blank lines: ${(blank.inflated / 2 ** 30).toFixed(1)} GiB of LF inflated from ${(blank.gz / 2 ** 20).toFixed(1)} MiB of gzip: ` +
      `the gate read it in ${sec(blank.gate.wall)} (peak ${mib(blank.gate.rss)}); inflating alone took ${sec(blank.inflateWall)}.`,
  );
}

// Targets (issue 4)
const at1e6 = rowsTable.find((r) => r.n === 1e6);
const targets = [];
if (at1e6?.seed) {
  const ratio = at1e6.seed.wall / at1e6.gate.wall;
  targets.push([`≥ 5× faster than the seed script on 10⁶ rows`, `${ratio.toFixed(1)}×`, ratio >= 5]);
}
const maxRss = Math.max(...rowsTable.map((r) => Math.max(r.gate.rss ?? 0, r.gz?.rss ?? 0, r.agg?.rss ?? 0)));
if (rowsTable.every((r) => r.gate.rss !== null)) {
  targets.push([
    `peak RSS < 150 MB at every size`,
    `${(maxRss / 1024).toFixed(0)} MiB (${((maxRss * 1024) / 1e6).toFixed(0)} MB) at most`,
    maxRss * 1024 < 150e6,
  ]);
}
const gzRow = rowsTable.find((r) => r.gz);
if (gzRow) {
  const share = gzRow.gate.wall / gzRow.gz.wall;
  targets.push([`.jsonl.gz at ≥ 60% of plain throughput`, `${(100 * share).toFixed(0)}%`, share >= 0.6]);
}
for (const f of fragility) {
  const seconds = f.profile?.seconds;
  const what = f.report.verdict === "unresolved" ? "resolution distance" : "review fragility";
  if (seconds !== undefined) {
    targets.push([
      `${what} for 100,000 common tasks < 1 s`,
      `${seconds.toFixed(3)} s of CPU in the fragility step (whole CLI run ${sec(f.result.wall)})`,
      seconds < 1,
    ]);
  }
}
// Targets (issue 15), from the presets, the 10⁷-row run and the whole gate at 10⁶ tasks.
for (const r of sideRows) {
  // Issue 28: no shape at 10⁶ rows more than 10% slower or larger than the baseline.
  targets.push([
    `${r.name}: within 10% of the baseline's time and peak RSS`,
    `time ${r.time.toFixed(2)}×, peak RSS ${r.rss === null ? "n/a" : `${r.rss.toFixed(2)}×`}`,
    r.time <= 1.1 && (r.rss === null || r.rss <= 1.1),
  ]);
}
for (const p of presetTable) {
  const g = med(p.runsOf.gate);
  const sd = med(p.runsOf.seed);
  if (sd !== undefined) {
    const ratio = sd / g;
    targets.push([`${p.name}: ≥ 5× the seed at 10⁶ rows (goal 10×)`, `${ratio.toFixed(1)}×`, ratio >= 5]);
  }
  const rss = peak(p.runsOf.gate);
  if (rss !== null && p.summary.tasks <= 10000) {
    targets.push([
      `${p.name}: peak RSS ≤ 150 MB (≤ 10,000 tasks)`,
      `${((rss * 1024) / 1e6).toFixed(0)} MB`,
      rss * 1024 <= 150e6,
    ]);
  } else if (rss !== null) {
    const perTask = (rss * 1024) / p.summary.tasks;
    targets.push([
      `${p.name}: ≤ 1 KB per task (task-heavy)`,
      `${(perTask / 1000).toFixed(2)} KB a task (peak RSS ÷ tasks)`,
      perTask <= 1000,
    ]);
  }
}
for (const big of bigs) {
  const g = med(big.runsOf);
  const gib = (big.bytes / 2 ** 30).toFixed(1);
  targets.push([`10⁷ rows < 15 s (${big.name} shape, ${gib} GiB)`, `${g.toFixed(1)} s`, g < 15]);
}
for (const w of wholeGate) {
  const rss = w.result.rss;
  if (rss !== null)
    targets.push([
      `whole gate at 10⁶ tasks (${w.verdict}) well under 1 GB`,
      `${((rss * 1024) / 1e6).toFixed(0)} MB`,
      rss * 1024 < 0.8e9,
    ]);
}
lines.push("");
lines.push("| target (issues 4, 15 and 28) | measured | met |");
lines.push("|---|---|---|");
for (const [t, m, ok] of targets) lines.push(`| ${t} | ${m} | ${ok ? "met" : "**not met**"} |`);

const text = lines.join("\n") + "\n";
process.stdout.write(text);
if (args.markdown) writeFileSync(args.markdown, text);
