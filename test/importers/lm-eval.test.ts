/** lm-eval: lm-evaluation-harness `--log_samples` output, on constructed samples (mappings, refusals). */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importInputs, importText, parseTaskList, runImport } from "../../src/importers/index.js";
import type { ImportOptions, RelatedFile } from "../../src/importers/types.js";
import { inputErrorOf, parseLines, revisionOf } from "./helpers.js";

const SAMPLES = "out/samples_gsm8k_2026-01-21T03-44-18.458309.jsonl";
const RESULTS = "out/results_2026-01-21T03-44-18.458309.json";
const line = (doc: number, value: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    doc_id: doc,
    doc: {},
    target: "1",
    filter: "none",
    metrics: ["exact_match"],
    exact_match: value,
    ...extra,
  });
const results = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    results: { gsm8k: { alias: "gsm8k", "exact_match,none": 0.5 } },
    configs: { gsm8k: { task: "gsm8k" } },
    higher_is_better: { gsm8k: { exact_match: true, perplexity: false } },
    "n-samples": { gsm8k: { original: 4, effective: 4 } },
    model_name: "org/model-7b",
    git_hash: "1f84a09f",
    lm_eval_version: "0.4.9.2",
    ...extra,
  });
const related = (text = results()): RelatedFile[] => [
  { role: "lm-eval results", group: "", shown: RESULTS, text },
];
const opts = (more: Partial<ImportOptions> = {}): ImportOptions => ({
  kind: "lm-eval",
  file: SAMPLES,
  ...more,
});
const imp = (
  lines: string[],
  more: Partial<ImportOptions> = {},
  res = related(),
  tasks?: ReturnType<typeof parseTaskList>,
) => importText(opts(more), `${lines.join("\n")}\n`, tasks, undefined, { related: res });

const FOUR = [line(0, 1), line(1, 0), line(2, 0.0), line(3, true)];

describe("lm-eval on constructed samples", () => {
  it("task = <task>/<doc_id>; 1 → pass, 0 → fail; the model and harness from the results file; the line is the evidence", () => {
    const r = imp(FOUR);
    expect(r.lines[0]).toBe(
      `{"task_id":"gsm8k/0","dataset_revision":"${revisionOf(["gsm8k/0", "gsm8k/1", "gsm8k/2", "gsm8k/3"])}",` +
        `"harness_revision":"git:1f84a09f","model_config":"org/model-7b","validity":"unreviewed","result":"pass",` +
        `"review_revision":0,"evidence":["${SAMPLES}#L1"]}`,
    );
    expect(parseLines(r.lines).map((o) => [o["task_id"], o["result"]])).toEqual([
      ["gsm8k/0", "pass"],
      ["gsm8k/1", "fail"],
      ["gsm8k/2", "fail"],
      ["gsm8k/3", "pass"],
    ]);
    expect(r.notes.slice(0, 3)).toEqual([
      'task gsm8k (from the file name), filter "none", metric exact_match',
      "exact_match 1 → pass, 0 → fail",
      "no infra_error: lm-eval's samples record no error state; a failed generation reads as its metric says",
    ]);
    expect(r.notes).toContain(`${RESULTS} publishes exact_match,none = 0.5, the mean of the lines`);
  });

  it("a cut samples file and a published mean that disagrees are warned about", () => {
    expect(imp(FOUR.slice(0, 2)).notes).toContain(
      `WARNING: ${RESULTS} says 4 documents were evaluated, but the samples file holds 2 with filter "none": only these are imported`,
    );
    const off = results({ results: { gsm8k: { "exact_match,none": 0.25 } } });
    expect(imp(FOUR, {}, related(off)).notes).toContain(
      `WARNING: ${RESULTS} publishes exact_match,none = 0.25, but the lines' mean is 0.5`,
    );
  });

  it("--threshold for a metric that is not 0/1, ≤ for one the results file marks lower-is-better; --filter picks one", () => {
    const scored = [line(0, 0.8, { f1: 0.8 }), line(1, 0.3, { f1: 0.3 })];
    const r = imp(scored, { metric: "f1", passThreshold: 0.5 });
    expect(parseLines(r.lines).map((o) => o["result"])).toEqual(["pass", "fail"]);
    const ppl = [line(0, 0, { perplexity: 12 }), line(1, 0, { perplexity: 40 })];
    const low = imp(ppl, { metric: "perplexity", passThreshold: 20 });
    expect(parseLines(low.lines).map((o) => o["result"])).toEqual(["pass", "fail"]);
    expect(low.notes[1]).toBe(
      "perplexity ≤ 20 → pass, else fail (the results file says lower is better for perplexity)",
    );
    const filters = [line(0, 1, { filter: "strict-match" }), line(0, 0, { filter: "flexible-extract" })];
    expect(parseLines(imp(filters, { filter: "flexible-extract" }).lines).map((o) => o["result"])).toEqual([
      "fail",
    ]);
  });

  it("--tasks: documents outside are left out, tasks without a sample are missing", () => {
    const tasks = parseTaskList("t.txt", "gsm8k/0\ngsm8k/9\n");
    const r = imp(FOUR, { tasks: "t.txt" }, related(), tasks);
    expect(parseLines(r.lines).map((o) => [o["task_id"], o["result"]])).toEqual([
      ["gsm8k/0", "pass"],
      ["gsm8k/9", "missing"],
    ]);
  });

  const refusals: readonly (readonly [string, () => unknown, string])[] = [
    [
      "several filters without --filter",
      () => imp([line(0, 1, { filter: "strict-match" }), line(0, 0, { filter: "flexible-extract" })]),
      `${SAMPLES}: the samples hold several filters (flexible-extract, strict-match): choose one with --filter NAME`,
    ],
    [
      "a metric that is not 0/1 without --threshold",
      () => imp([line(0, 1), line(1, 0.5)]),
      `${SAMPLES}:2: field "exact_match": exact_match = 0.5 is neither 1 nor 0: give --threshold X (values ≥ X pass)`,
    ],
    [
      "a metric that is a list",
      () => imp([line(0, [1, 2])]),
      `${SAMPLES}:1: field "exact_match": exact_match is an array, which cannot be read as pass or fail: choose another --metric`,
    ],
    [
      "a line listing several metrics",
      () => imp([line(0, 1, { metrics: ["acc", "acc_norm"] })]),
      'line 1 lists the metrics "acc", "acc_norm": choose the one that decides pass or fail with --metric NAME',
    ],
    [
      "an unknown --metric",
      () => imp(FOUR, { metric: "acc" }),
      '--metric "acc": line 1 has no such field (its metrics: exact_match)',
    ],
    [
      "one document twice",
      () => imp([line(0, 1), line(0, 0)]),
      `${SAMPLES}:2: doc_id 0 with filter "none" appears twice (first on line 1): the samples are ambiguous`,
    ],
    [
      "a line that is not JSON",
      () => imp([line(0, 1), "{oops"]),
      `${SAMPLES}: line 2 is not valid JSON\n  ${SAMPLES}:2:2:`,
    ],
    [
      "a results file of another task",
      () => imp(FOUR, {}, related(results({ configs: { mmlu: {} } }))),
      `${RESULTS}: the results file has no task "gsm8k" (the samples file's name says it holds that task); its tasks: mmlu`,
    ],
    [
      "a results file without model_name",
      () => imp(FOUR, {}, related(results({ model_name: undefined }))),
      `${RESULTS}: field "/model_name": the results file names no model (model_name): give the model config's id with --model-config ID`,
    ],
  ];
  it.each(refusals)("refused: %s", async (_what, f, message) => {
    expect(await inputErrorOf(f)).toContain(message);
  });
});

describe("lm-eval: finding the results file", () => {
  it("results_<timestamp>.json beside the samples, or --results-json; a renamed samples file needs the flag", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lm-eval-"));
    writeFileSync(join(dir, "samples_gsm8k_2026-01-21T03-44-18.458309.jsonl"), `${FOUR.join("\n")}\n`);
    writeFileSync(join(dir, "results_2026-01-21T03-44-18.458309.json"), results());
    writeFileSync(join(dir, "mine.jsonl"), `${FOUR.join("\n")}\n`);
    const beside = await runImport({
      kind: "lm-eval",
      file: "samples_gsm8k_2026-01-21T03-44-18.458309.jsonl",
      cwd: dir,
    });
    expect(parseLines(beside.lines)).toHaveLength(4);
    expect(
      await importInputs({
        kind: "lm-eval",
        file: "samples_gsm8k_2026-01-21T03-44-18.458309.jsonl",
        cwd: dir,
      }),
    ).toEqual(["samples_gsm8k_2026-01-21T03-44-18.458309.jsonl", "results_2026-01-21T03-44-18.458309.json"]);
    expect(await inputErrorOf(() => runImport({ kind: "lm-eval", file: "mine.jsonl", cwd: dir }))).toContain(
      "the file name is not samples_<task>_<timestamp>.jsonl (as lm-eval --log_samples writes it), so the results file beside it cannot be found: name it with --results-json FILE",
    );
    const named = await runImport({
      kind: "lm-eval",
      file: "mine.jsonl",
      resultsJson: "results_2026-01-21T03-44-18.458309.json",
      cwd: dir,
    });
    expect(named.notes[0]).toBe(
      'task gsm8k (the only task of results_2026-01-21T03-44-18.458309.json), filter "none", metric exact_match',
    );
    expect(
      await inputErrorOf(() =>
        runImport({ kind: "lm-eval", file: "samples_x_2026-01-01T00-00-00.1.jsonl", cwd: dir }),
      ),
    ).toMatch(/^cannot read the input file samples_x_2026-01-01T00-00-00\.1\.jsonl: /);
  });
});
