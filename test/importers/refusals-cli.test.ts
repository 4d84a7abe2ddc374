/**
 * Every refusal of the new importers, through the CLI: exit status 3, nothing on stdout, no file
 * written, and a message that names the file and the place (line, JSON Pointer, archive entry),
 * with no stack trace.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { cliInProcess } from "../helpers/run-cli.js";
import { writeZip } from "./zip-writer.js";

const FIXTURES = resolve(import.meta.dirname, "fixtures/tool-outputs");
const dir = mkdtempSync(join(tmpdir(), "import-refusals-"));
cpSync(FIXTURES, dir, { recursive: true });
const OPUS = "terminal-bench/20250906_orchestrator_claude-4.1-opus";
const PF = "promptfoo/offline-arith_3providers_repeat2.trimmed.json";
const LM = "lm-evaluation-harness/samples_math_perturbed_full_2026-01-21T03-44-18.458309.jsonl";

/** A copy of a fixture with one edit, under a new name (and, for tb, its own run directory). */
function edited(from: string, to: string, edit: (text: string) => string): string {
  writeFileSync(join(dir, to), edit(readFileSync(join(dir, from), "utf8")));
  return to;
}
cpSync(join(dir, OPUS), join(dir, "tb-bad"), { recursive: true });
edited(`${OPUS}/results.json`, "tb-bad/results.json", (t) =>
  t.replace('"is_resolved": false', '"is_resolved": "no"'),
);
edited(PF, "pf-bad.json", (t) => t.replace('"failureReason": 2', '"failureReason": 3'));
cpSync(
  join(dir, "lm-evaluation-harness/results_2026-01-21T03-44-18.458309.json"),
  join(dir, "results_2026-01-21T03-44-18.458309.json"),
);
edited(LM, "samples_math_perturbed_full_2026-01-21T03-44-18.458309.jsonl", (t) =>
  t.replace('"exact_match": 0.0}', '"exact_match": 0.5}'),
);
writeFileSync(
  join(dir, "bad.eval"),
  writeZip([
    { name: "header.json", data: '{"version": 2, "status": "success", "eval": {"model": "m"}}' },
    {
      name: "samples/1_epoch_1.json",
      data: '{"id": 1, "epoch": 1, "scores": {"match": {"value": "C"}}}',
      crc: 7,
    },
  ]),
);
writeFileSync(join(dir, "sheet.csv"), "id,model,ok\nt-1,m,yes\nt-2,m,maybe\n");

const CASES: readonly (readonly [string, readonly string[], readonly string[]])[] = [
  [
    "terminal-bench without --model-config",
    ["terminal-bench", OPUS],
    [`${OPUS}/run_metadata.json: field "/model_name":`, "--model-config ID"],
  ],
  [
    "terminal-bench: is_resolved not a boolean",
    ["terminal-bench", "tb-bad", "--model-config", "m"],
    ['tb-bad/results.json: field "/results/', '/is_resolved": expected is_resolved true, false or null'],
  ],
  [
    "promptfoo: an unknown failureReason",
    ["promptfoo", "pf-bad.json"],
    [
      'pf-bad.json: field "/results/results/',
      '/failureReason": expected failureReason 0 (none), 1 (assertion) or 2 (error), found number 3',
    ],
  ],
  [
    "promptfoo: --model-config over three providers",
    ["promptfoo", PF, "--model-config", "x"],
    [`${PF}: --model-config would give the 3 model configs`],
  ],
  [
    "lm-eval: a metric that is not 0/1",
    ["lm-eval", "samples_math_perturbed_full_2026-01-21T03-44-18.458309.jsonl"],
    [
      'samples_math_perturbed_full_2026-01-21T03-44-18.458309.jsonl:1: field "exact_match": exact_match = 0.5 is neither 1 nor 0',
    ],
  ],
  [
    "inspect: a damaged .eval entry",
    ["inspect", "bad.eval"],
    ['bad.eval: ZIP entry "samples/1_epoch_1.json" fails its CRC-32 check'],
  ],
  [
    "table: an unmapped required field",
    ["table", "sheet.csv", "--map", "task_id=id,result=ok"],
    ["sheet.csv: model_config is not mapped"],
  ],
  [
    "table: a result value in no list",
    ["table", "sheet.csv", "--map", "task_id=id,model_config=model,result=ok", "--pass-values", "yes"],
    ['sheet.csv:3: result (column "ok"): "maybe" is in none of'],
  ],
];

describe("refusals of the new importers through the CLI", () => {
  it.each(CASES)("%s: exit 3, the file and the place named, nothing written", async (_what, argv, parts) => {
    const out = join(dir, "out.jsonl");
    const r = await cliInProcess(["import", ...argv, "-o", "out.jsonl"], dir);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe("");
    for (const p of parts) expect(r.stderr).toContain(p);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
  });
});
