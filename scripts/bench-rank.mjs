#!/usr/bin/env node
// `node scripts/bench-rank.mjs`: `model-gate rank` (dist/cli.js) on generated exports of many
// models, printing wall time, peak RSS, the passes over the export and the step-down's rounds.
//
// Cases (each export generated once into --out-dir with scripts/generate-export.mjs, reused):
//   20 models × 10,000 tasks, 1 attempt   (the "a few seconds")
//   100 models × 2,000 tasks, 1 attempt   (4,950 pairs: "without running out of memory")
//   100 models × 10,000 tasks, 1 attempt  (with --big)
// Peak RSS is read from `/usr/bin/time -v` when it exists.
//
//   node scripts/bench-rank.mjs [--out-dir bench-out/rank] [--cli dist/cli.js] [--big]
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";

const print = (line) => process.stdout.write(`${line}\n`);

const { values } = parseArgs({
  options: {
    "out-dir": { type: "string", default: "bench-out/rank" },
    cli: { type: "string", default: "dist/cli.js" },
    big: { type: "boolean", default: false },
  },
});
const outDir = values["out-dir"];
mkdirSync(outDir, { recursive: true });
const policy = join(outDir, "policy.yaml");
writeFileSync(
  policy,
  `owner: "@bench"
revisit: 2099-01-01
accept_if:
  common_valid_tasks: ">= 100"
  infra_error_rate: "< 1%"
  disputed_fraction: "< 5%"
  observed_margin: "> validity_sensitivity + run_variance"
`,
);

const cases = [
  { models: 20, tasks: 10_000 },
  { models: 100, tasks: 2_000 },
  ...(values.big ? [{ models: 100, tasks: 10_000 }] : []),
];
const hasTime = existsSync("/usr/bin/time");

print("| models | tasks | pairs | rows | passes | rounds | ordered pairs | wall s | peak RSS MB |");
print("|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
for (const c of cases) {
  const file = join(outDir, `rank-${c.models}x${c.tasks}.jsonl`);
  if (!existsSync(file)) {
    const g = spawnSync(
      process.execPath,
      [
        "scripts/generate-export.mjs",
        "--tasks",
        String(c.tasks),
        "--attempts",
        "1",
        "--noise-models",
        String(c.models - 2),
        "--out",
        file,
        "--seed",
        "7",
      ],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    if (g.status !== 0) throw new Error(`generate-export failed for ${file}`);
  }
  const report = join(outDir, `rank-${c.models}x${c.tasks}.json`);
  const args = [
    values.cli,
    "rank",
    "--results",
    file,
    "--policy",
    policy,
    "--format",
    "json",
    "--report",
    report,
    "--today",
    "2026-11-29",
  ];
  const started = process.hrtime.bigint();
  const r = hasTime
    ? spawnSync("/usr/bin/time", ["-v", process.execPath, ...args], { encoding: "utf8", maxBuffer: 1 << 30 })
    : spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 1 << 30 });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0 && r.status !== 2)
    throw new Error(`rank failed (${r.status}): ${r.stderr.slice(-2000)}`);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr ?? "");
  const out = JSON.parse(r.stdout);
  print(
    `| ${c.models} | ${c.tasks} | ${out.pairs.length} | ${out.provenance.rows_read} | ${out.provenance.passes} | ${out.adjustment.rounds} | ${out.adjustment.ordered_pairs} | ${wall.toFixed(2)} | ${rss ? (Number(rss[1]) / 1024).toFixed(0) : "n/a"} |`,
  );
}
