#!/usr/bin/env node
// Makes the committed test fixtures that come from public data, so that the tests carry their data
// and none needs the project's own workspace (`../shared`, beside the checkout) to run:
//
//   test/fixtures/real-data/  `model-gate import` (dist/cli.js import, the shipped importer) of
//                             real public SWE-bench results and validity annotations kept in
//                             ../shared/data/public-results: each import's rows (.jsonl.gz, where a
//                             test reads them) and its notes on stderr (.notes.txt), never the
//                             source files themselves; README.md names every source and command.
//   test/fixtures/tool-imports/ `model-gate import` of the whole real eval-tool outputs kept in
//                             ../shared/data/tool-outputs (Terminal-Bench, promptfoo,
//                             lm-evaluation-harness, Inspect): rows and notes, as above.
//   test/fixtures/seed/       what the seed's calculator (../shared/seed/seed_sensitivity.py)
//                             prints for 40 generated exports (test/cli/seed-comparison.test.ts).
//
//   node scripts/test-fixtures.mjs           # (re)write them; needs ../shared, python3, dist/
//   node scripts/test-fixtures.mjs --check   # make them again in a temporary directory and
//                                            # compare: exit 1 naming each one that differs
//
// Run it after changing an importer's output or notes (then review the diff and the tests that
// read the files); .ci/run runs --check where ../shared exists. The .gz files are compared
// decompressed (the deflate bytes depend on the local zlib build).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import console from "node:console";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gunzipSync, gzipSync } from "node:zlib";

import { mulberry32 } from "./lib/prng.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SHARED = resolve(root, "..", "shared");
const PUBLIC = join(SHARED, "data", "public-results");
const SEED = join(SHARED, "seed", "seed_sensitivity.py");
const CLI = join(root, "dist", "cli.js");
const TOOLS = join(SHARED, "data", "tool-outputs");
const REAL_DIR = join(root, "test", "fixtures", "real-data");
const TOOL_DIR = join(root, "test", "fixtures", "tool-imports");
const SEED_DIR = join(root, "test", "fixtures", "seed");

const { values: args } = parseArgs({ options: { check: { type: "boolean", default: false } } });

function die(message) {
  console.error(`test-fixtures: ${message}`);
  process.exit(2);
}
for (const need of [PUBLIC, TOOLS, SEED, CLI]) if (!existsSync(need)) die(`${need} is absent`);

// --- sources ---------------------------------------------------------------------------------
// Paths relative to ../shared/data/public-results, which the imports see as "public-results/…"
// (so evidence and notes name no machine path). Origin and licence as its SOURCES.md records them.
const LEADERBOARDS = "public-results/swe-bench.github.io/data/leaderboards.json";
const ANNOTATIONS = "public-results/openai-verified-annotations/ensembled_annotations_public.csv";
const PRO_LISTING = "public-results/swe-bench-pro/instance_dockerfile_listing.txt";
const PRO_AUDIT = "public-results/swebench-pro-audit";
const proRun = (run) => `public-results/swe-bench-pro/traj/${run}/eval_results.json`;

const ORIGIN = {
  [LEADERBOARDS]:
    "SWE-bench/swe-bench.github.io `data/leaderboards.json` at f1176b65ae29d14f4f52208b48e3d8cfc972bc17 " +
    "(2025-12-10), the data behind swebench.com. Licence CC BY-NC 4.0 (non-commercial).",
  [ANNOTATIONS]:
    "OpenAI's SWE-bench Verified annotations `ensembled_annotations_public.csv`, as vendored in " +
    "OpenAutoCoder/Agentless at 2a47c1b8ac286202994f0314db35c823a79b980d (refs/pull/28/head). " +
    "The data's terms are OpenAI's.",
  [PRO_LISTING]:
    "The 731 directory names under `dockerfiles/instance_dockerfile/` of scaleapi/SWE-bench_Pro-os at " +
    "ca10a60a5fcae51e6948ffe1485d4153d421e6c5 (`git ls-tree --name-only`): the public task set. MIT.",
  "public-results/swe-bench-pro/traj":
    "scaleapi/SWE-bench_Pro-os `traj/<run>/eval_results.json` at ca10a60a5fcae51e6948ffe1485d4153d421e6c5. MIT.",
  [PRO_AUDIT]:
    "kimjune01/swebench-pro-audit at 354b3c02a2e055fcd332488600d251338c841380 (COVERAGE.md, CLAIMS.md, " +
    "KNOWN_BAD.md, and case_instance_ids.tsv, a listing of its data/cases/<case>/instance_id.txt). " +
    "Content licence CC BY-SA 4.0 with a network-services clause: the files derived from it here " +
    "are under the same terms.",
};

// --- the imports -----------------------------------------------------------------------------
// Task lists the imports use, made in the working directory from the sources (not committed).
const TASK_LISTS = {
  "verified-tasks.txt": {
    from: `the task ids of the verified-opus-4-5 import (the 500 SWE-bench Verified ids of ${LEADERBOARDS})`,
  },
  "pro-tasks.txt": { from: `the last path part of each line of ${PRO_LISTING} (731 ids)` },
};

const PRO_RUNS = [
  "claude-45sonnet-10132025",
  "claude-4sonnet-10132025",
  "claude-opus-4-1-paper",
  "claude-sonnet-4-paper",
  "gemini-2-5-pro-preview-paper",
  "gpt-4o-paper",
  "gpt-5-250-turns-10132025",
  "gptoss-paper",
  "kimi-k2-instruct-10132025",
];
/** The Pro runs whose rows a test reads; the others keep their notes only. */
const PRO_ROWS = new Set([
  "claude-45sonnet-10132025",
  "gpt-5-250-turns-10132025",
  "kimi-k2-instruct-10132025",
]);
const PRO_NAME = {
  "claude-45sonnet-10132025": "claude-45sonnet",
  "claude-4sonnet-10132025": "claude-4sonnet",
  "claude-opus-4-1-paper": "claude-opus-4-1-paper",
  "claude-sonnet-4-paper": "claude-sonnet-4-paper",
  "gemini-2-5-pro-preview-paper": "gemini-2-5-pro-paper",
  "gpt-4o-paper": "gpt-4o-paper",
  "gpt-5-250-turns-10132025": "gpt-5-250-turns",
  "gptoss-paper": "gptoss-paper",
  "kimi-k2-instruct-10132025": "kimi-k2",
};

/** name → import arguments (after `import`), whether its rows are kept, and its source. */
const IMPORTS = [
  ...[
    ["verified-opus-4-5", "20251124_mini-v1.16.0_claude-opus-4-5-20251101", []],
    ["verified-gemini-3-pro", "20251118_mini-v1.15.0_gemini-3-pro-preview-20251118", []],
    ["verified-claude-4-opus", "20250802_mini-v1.0.0_claude-4-opus-20250514", []],
    ["verified-gpt-5-mini-v1.7.0", "20250807_mini-v1.7.0_gpt-5", ["--board", "Verified"]],
    [
      "verified-sonnet-4-5-mini-v1.13.3",
      "20250929_mini-v1.13.3_sonnet-4-5-20250929",
      ["--board", "Verified"],
    ],
  ].map(([name, run, extra]) => ({
    name,
    args: ["swebench-leaderboard", LEADERBOARDS, "--run", run, ...extra],
    rows: true,
    source: LEADERBOARDS,
  })),
  {
    // Its entry publishes a resolved share its per-instance values contradict: the notes warn.
    name: "verified-sonnet-3-7",
    args: [
      "swebench-leaderboard",
      LEADERBOARDS,
      "--run",
      "20250720_mini-v0.0.0-claude-3-7-sonnet-20250219",
      "--board",
      "Verified",
    ],
    rows: false,
    source: LEADERBOARDS,
  },
  { name: "annotations-all", args: ["verified-annotations", ANNOTATIONS], rows: true, source: ANNOTATIONS },
  {
    name: "annotations-verified",
    args: ["verified-annotations", ANNOTATIONS, "--tasks", "verified-tasks.txt"],
    rows: true,
    source: ANNOTATIONS,
  },
  {
    name: "annotations-verified-disputed-at-1",
    args: ["verified-annotations", ANNOTATIONS, "--tasks", "verified-tasks.txt", "--disputed-at", "1"],
    rows: true,
    source: ANNOTATIONS,
  },
  ...PRO_RUNS.map((run) => ({
    name: `pro-${PRO_NAME[run]}`,
    args: ["swebench-pro", proRun(run), "--tasks", "pro-tasks.txt"],
    rows: PRO_ROWS.has(run),
    source: "public-results/swe-bench-pro/traj",
  })),
  // Each file's own ids as its task set (no --tasks): two dataset revisions that do not match.
  ...["gpt-5-250-turns-10132025", "kimi-k2-instruct-10132025"].map((run) => ({
    name: `pro-${PRO_NAME[run]}-own-ids`,
    args: ["swebench-pro", proRun(run)],
    rows: true,
    source: "public-results/swe-bench-pro/traj",
  })),
  {
    name: "pro-audit",
    args: ["swebench-pro-audit", PRO_AUDIT, "--tasks", "pro-tasks.txt"],
    rows: true,
    source: PRO_AUDIT,
  },
  { name: "pro-audit-own-ids", args: ["swebench-pro-audit", PRO_AUDIT], rows: false, source: PRO_AUDIT },
  {
    name: "pro-audit-claimed-disputed",
    args: ["swebench-pro-audit", PRO_AUDIT, "--claimed", "disputed"],
    rows: false,
    source: PRO_AUDIT,
  },
];

function sha256(path) {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

function importOne(work, spec, outDir) {
  const out = join(work, `${spec.name}.jsonl`);
  const r = spawnSync(process.execPath, [CLI, "import", ...spec.args, "-o", out], {
    cwd: work,
    encoding: "utf8",
  });
  if (r.status !== 0) die(`model-gate import ${spec.args.join(" ")} failed (exit ${r.status}):\n${r.stderr}`);
  writeFileSync(join(outDir, `${spec.name}.notes.txt`), r.stderr);
  if (spec.rows)
    writeFileSync(join(outDir, `${spec.name}.jsonl.gz`), gzipSync(readFileSync(out), { level: 9 }));
  return readFileSync(out, "utf8");
}

function makeRealData(outDir) {
  const work = mkdtempSync(join(tmpdir(), "gate-fixtures-"));
  try {
    symlinkSync(PUBLIC, join(work, "public-results"));
    const listing = readFileSync(join(work, PRO_LISTING), "utf8");
    const proIds = listing
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => l.trim().split("/").pop());
    writeFileSync(join(work, "pro-tasks.txt"), proIds.join("\n") + "\n");
    for (const spec of IMPORTS) {
      const text = importOne(work, spec, outDir);
      if (spec.name === "verified-opus-4-5") {
        const ids = text
          .split("\n")
          .filter((l) => l !== "")
          .map((l) => JSON.parse(l).task_id);
        writeFileSync(join(work, "verified-tasks.txt"), ids.join("\n") + "\n");
      }
    }
    writeFileSync(join(outDir, "README.md"), realDataReadme(work));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function realDataReadme(work) {
  const sourceFiles = (source) =>
    source === PRO_AUDIT
      ? ["COVERAGE.md", "CLAIMS.md", "KNOWN_BAD.md", "case_instance_ids.tsv"].map((f) => `${source}/${f}`)
      : source === "public-results/swe-bench-pro/traj"
        ? PRO_RUNS.map(proRun)
        : [source];
  const lines = [
    "# Real-data test fixtures",
    "",
    "Made by `node scripts/test-fixtures.mjs` (do not edit by hand): `model-gate import` (the shipped",
    "`dist/cli.js import`) of public SWE-bench results and validity annotations that the project's own",
    "workspace keeps in `../shared/data/public-results` (its SOURCES.md has each file's origin). The",
    "sources themselves are not copied here: each import's rows (`NAME.jsonl.gz`, only where a test",
    "reads them) and its notes on stderr (`NAME.notes.txt`). The imports ran in a directory where",
    "`public-results` is that folder, so evidence and notes name `public-results/…`.",
    "`node scripts/test-fixtures.mjs --check` makes them again and fails when one differs (`.ci/run`",
    "runs it where `../shared` exists): after changing an importer, rerun the script and review the diff.",
    "",
    "## Sources",
    "",
    "| source (under `public-results/`) | origin and licence | sha256 of the file read |",
    "|---|---|---|",
  ];
  for (const source of Object.keys(ORIGIN)) {
    for (const f of sourceFiles(source)) {
      lines.push(
        `| \`${f.replace(/^public-results\//, "")}\` | ${ORIGIN[source]} | \`${sha256(join(work, f))}\` |`,
      );
    }
  }
  lines.push("", "## Task lists the commands use (made by the script, not kept)", "");
  for (const [name, { from }] of Object.entries(TASK_LISTS)) lines.push(`- \`${name}\`: ${from}.`);
  lines.push("", "## Files and commands", "", "| file | command (`model-gate import …`) |", "|---|---|");
  for (const spec of IMPORTS) {
    const files = [...(spec.rows ? [`${spec.name}.jsonl.gz`] : []), `${spec.name}.notes.txt`];
    lines.push(
      `| ${files.map((f) => `\`${f}\``).join(", ")} | \`${spec.args.join(" ")} -o ${spec.name}.jsonl\` |`,
    );
  }
  return lines.join("\n") + "\n";
}

// --- the eval tools' outputs ------------------------------------------------------------------
// Paths relative to ../shared/data/tool-outputs, seen by the imports as "tool-outputs/…". Origin,
// commit and licence of each: its SOURCES.md, and test/importers/fixtures/tool-outputs/PROVENANCE.md
// (which also holds small cuts of the same files, for the importers' edge cases).
const TB_RUNS = [
  "20250906_orchestrator_claude-4.1-opus",
  "20250902_orchestrator_claude-4-sonnet",
  "20250902_orchestrator_qwen-3-coder-480B",
];
const TOOL_IMPORTS = [
  ...TB_RUNS.map((run) => ({
    name: `terminal-bench-${run}`,
    args: ["terminal-bench", `tool-outputs/terminal-bench/${run}`, "--model-config", run],
    sources: [`terminal-bench/${run}/results.json`, `terminal-bench/${run}/run_metadata.json`],
  })),
  {
    name: "promptfoo-offline-arith",
    args: [
      "promptfoo",
      "tool-outputs/promptfoo/offline-arith_3providers_repeat2_results.json",
      "--harness-revision",
      "git:0123abc",
    ],
    sources: ["promptfoo/offline-arith_3providers_repeat2_results.json"],
  },
  {
    name: "lm-eval-math-perturbed",
    args: [
      "lm-eval",
      "tool-outputs/lm-evaluation-harness/samples_math_perturbed_full_2026-01-21T03-44-18.458309.jsonl",
    ],
    sources: [
      "lm-evaluation-harness/samples_math_perturbed_full_2026-01-21T03-44-18.458309.jsonl",
      "lm-evaluation-harness/results_2026-01-21T03-44-18.458309.json",
    ],
  },
  ...[
    "arc_easy_ollama-qwen2.5-0.5b.json",
    "arc_easy_claude-sonnet-4-0.json",
    "cvebench_claude-opus-4-6_sample-error_excerpt.json",
    "popularity_openai-gpt-4o-mini.eval",
  ].map((file) => ({
    name: `inspect-${file.replace(/\.(json|eval)$/, "")}`,
    args: ["inspect", `tool-outputs/inspect-ai/${file}`],
    sources: [`inspect-ai/${file}`],
  })),
];

function makeToolImports(outDir) {
  const work = mkdtempSync(join(tmpdir(), "gate-tool-fixtures-"));
  try {
    symlinkSync(TOOLS, join(work, "tool-outputs"));
    for (const spec of TOOL_IMPORTS) importOne(work, { ...spec, rows: true }, outDir);
    const lines = [
      "# Tool-output import fixtures",
      "",
      "Made by `node scripts/test-fixtures.mjs` (do not edit by hand): `model-gate import` (the shipped",
      "`dist/cli.js import`) of the whole real eval-tool outputs that the project's own workspace keeps in",
      "`../shared/data/tool-outputs` (its SOURCES.md, and `test/importers/fixtures/tool-outputs/PROVENANCE.md`,",
      "give each file's origin, commit and licence). The sources are not copied here: each import's rows",
      "(`NAME.jsonl.gz`) and its notes on stderr (`NAME.notes.txt`), made in a directory where",
      "`tool-outputs` is that folder. `node scripts/test-fixtures.mjs --check` makes them again and fails",
      "when one differs (`.ci/run` runs it where `../shared` exists).",
      "",
      "| file | command (`model-gate import …`) | sources (sha256) |",
      "|---|---|---|",
    ];
    for (const spec of TOOL_IMPORTS) {
      const sums = spec.sources.map((f) => `\`${f}\` \`${sha256(join(TOOLS, f))}\``).join("<br>");
      lines.push(
        `| \`${spec.name}.jsonl.gz\`, \`${spec.name}.notes.txt\` | \`${spec.args.join(" ")} -o ${spec.name}.jsonl\` | ${sums} |`,
      );
    }
    writeFileSync(join(outDir, "README.md"), lines.join("\n") + "\n");
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// --- the seed's figures ----------------------------------------------------------------------
// 40 exports of 1–40 tasks, each with one validity and one pass/fail attempt per model, drawn
// from a fixed-seed PRNG (mulberry32), plus two edge cases: no valid task, every task valid.
const VALIDITY = { v: "valid", d: "disputed", u: "unreviewed", b: "broken" };
const RESULT = { p: "pass", f: "fail" };

function seedCases() {
  const rand = mulberry32(20261129);
  const pick = (s) => s[Math.floor(rand() * s.length)];
  const cases = [
    ["bpf", "bfp"],
    ["vpp", "vff", "vpf", "vfp"],
  ];
  while (cases.length < 40) {
    const n = 1 + Math.floor(rand() * 40);
    cases.push(Array.from({ length: n }, () => pick("vdub") + pick("pf") + pick("pf")));
  }
  return cases;
}

function makeSeed(outDir) {
  const work = mkdtempSync(join(tmpdir(), "gate-seed-"));
  try {
    const cases = seedCases().map((tasks, i) => {
      // The seed has no notion of models and reads only validity and result: it gets the
      // candidate's rows (the first result letter), one per task.
      const file = join(work, `case-${i}.jsonl`);
      const rows = tasks.map((t, k) =>
        JSON.stringify({ task_id: `t-${k}`, validity: VALIDITY[t[0]], result: RESULT[t[1]] }),
      );
      writeFileSync(file, rows.join("\n") + "\n");
      const r = spawnSync("python3", [SEED, file], { encoding: "utf8" });
      if (r.status !== 0) die(`python3 seed_sensitivity.py failed on case ${i}:\n${r.stderr}`);
      // Python prints NaN for 0/0, which JSON cannot hold: null here.
      return { tasks: tasks.join(" "), seed: JSON.parse(r.stdout.replace(/\bNaN\b/g, "null")) };
    });
    const doc = {
      about:
        "What the seed's calculator (../shared/seed/seed_sensitivity.py, sha256 " +
        `${sha256(SEED)}) printed for each export, run as \`python3 seed_sensitivity.py case.jsonl\` ` +
        "(NaN written as null). Made by `node scripts/test-fixtures.mjs`; do not edit by hand. " +
        "tasks: one word per task, t-0, t-1, …: its validity (v valid, d disputed, u unreviewed, " +
        "b broken), the candidate's result, the baseline's (p pass, f fail); the seed saw the " +
        "candidate's rows only.",
      cases,
    };
    // One case per line, so a change shows as the cases it touched.
    const body = doc.cases.map((c) => `  ${JSON.stringify(c)}`).join(",\n");
    writeFileSync(
      join(outDir, "seed-outputs.json"),
      `{\n "about": ${JSON.stringify(doc.about)},\n "cases": [\n${body}\n ]\n}\n`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// --- write or check ----------------------------------------------------------------------------
const contents = (dir, f) => {
  const bytes = readFileSync(join(dir, f));
  return f.endsWith(".gz") ? gunzipSync(bytes) : bytes;
};

if (!args.check) {
  for (const dir of [REAL_DIR, TOOL_DIR, SEED_DIR]) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }
  makeRealData(REAL_DIR);
  makeToolImports(TOOL_DIR);
  makeSeed(SEED_DIR);
  console.log(`wrote ${REAL_DIR}, ${TOOL_DIR} and ${SEED_DIR}`);
} else {
  const fresh = mkdtempSync(join(tmpdir(), "gate-fixtures-check-"));
  try {
    const stale = [];
    for (const [committed, name] of [
      [REAL_DIR, "real-data"],
      [TOOL_DIR, "tool-imports"],
      [SEED_DIR, "seed"],
    ]) {
      const made = join(fresh, name);
      mkdirSync(made);
      if (name === "real-data") makeRealData(made);
      else if (name === "tool-imports") makeToolImports(made);
      else makeSeed(made);
      const have = existsSync(committed) ? readdirSync(committed).sort() : [];
      const want = readdirSync(made).sort();
      for (const f of new Set([...have, ...want])) {
        if (!have.includes(f) || !want.includes(f) || !contents(committed, f).equals(contents(made, f)))
          stale.push(`test/fixtures/${name}/${f}`);
      }
    }
    if (stale.length > 0) {
      console.error(
        `test-fixtures: these differ from what the importers make now (run node scripts/test-fixtures.mjs):\n  ${stale.join("\n  ")}`,
      );
      process.exit(1);
    }
    console.log("test fixtures: up to date with the importers and the seed");
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
}
