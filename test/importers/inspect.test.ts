import { describe, expect, test } from "vitest";
import { importText, parseTaskList } from "../../src/importers/index.js";
import { inputErrorOf, parseLines, revisionOf } from "./helpers.js";

// A synthetic Inspect AI eval log in the JSON log format (EvalLog, version 2), trimmed to the
// fields that matter here plus a few realistic neighbours.
interface Sample {
  id: string | number;
  epoch: number;
  scores?: Record<string, { value: unknown; answer?: string }> | null;
  error?: { message: string; traceback: string } | null;
  invalidation?: unknown;
}
function log(samples: Sample[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    version: 2,
    status: "success",
    eval: {
      run_id: "run-1",
      created: "2026-11-01T10:00:00+00:00",
      task: "swe_tasks",
      task_id: "t-1",
      dataset: { name: "swe", samples: 4, sample_ids: [1, 2, 3, "x-4"] },
      model: "openai/gpt-4o",
      config: { epochs: 2 },
      revision: { type: "git", origin: "https://github.com/acme/evals.git", commit: "4e1a9c0" },
      packages: { inspect_ai: "0.3.140" },
      ...extra,
    },
    plan: { name: "plan", steps: [] },
    results: { total_samples: 8, completed_samples: 7, scores: [] },
    stats: { started_at: "", completed_at: "" },
    samples: samples.map((s) => ({ input: "fix it", target: "", messages: [], ...s })),
  });
}
const S = (id: string | number, epoch: number, value: unknown, scorer = "match"): Sample => ({
  id,
  epoch,
  scores: { [scorer]: { value, answer: "x" } },
  error: null,
});
const BASE: Sample[] = [
  S(1, 1, "C"),
  S(1, 2, "I"),
  S(2, 1, 1),
  { id: 2, epoch: 2, scores: { match: { value: 1 } }, error: { message: "sandbox died", traceback: "…" } },
  S("x-4", 1, true),
  S("x-4", 2, false),
];

describe("inspect", () => {
  test("one row per sample and epoch; errors → infra_error; dataset ids without samples → missing", () => {
    const r = importText({ kind: "inspect", file: "logs/run.json" }, log(BASE), undefined);
    const rev = revisionOf(["1", "2", "3", "x-4"]);
    expect(r.lines[0]).toBe(
      `{"task_id":"1","dataset_revision":"${rev}","harness_revision":"git:4e1a9c0","model_config":"openai/gpt-4o",` +
        `"validity":"unreviewed","result":"pass","review_revision":0,"evidence":["logs/run.json#/samples/0/scores/match/value"],"attempt":1}`,
    );
    expect(parseLines(r.lines).map((o) => [o["task_id"], o["attempt"], o["result"], o["evidence"]])).toEqual([
      ["1", 1, "pass", ["logs/run.json#/samples/0/scores/match/value"]],
      ["1", 2, "fail", ["logs/run.json#/samples/1/scores/match/value"]],
      ["2", 1, "pass", ["logs/run.json#/samples/2/scores/match/value"]],
      ["2", 2, "infra_error", ["logs/run.json#/samples/3/error/message"]],
      ["3", undefined, "missing", ["logs/run.json"]],
      ["x-4", 1, "pass", ["logs/run.json#/samples/4/scores/match/value"]],
      ["x-4", 2, "fail", ["logs/run.json#/samples/5/scores/match/value"]],
    ]);
    expect(r.notes).toEqual([
      "infra_error: 1 sample with an error (sandbox died)",
      'scores read from scorer "match"',
      'score rule: sample error → infra_error; "C" → pass, "I" → fail; true → pass, false → fail; 1 → pass, 0 → fail (other numbers need --pass-threshold)',
      "1 tasks have no sample in the log: written as missing (3)",
      "metrics: none written (the source records no cost, time or token counts here)",
      "model_config: openai/gpt-4o (default: eval.model; --model-config to set it)",
      "harness_revision: git:4e1a9c0 (default: eval.revision (the eval's git commit of https://github.com/acme/evals.git); --harness-revision)",
      `dataset_revision: ${rev} (computed: sha256 of the 4 task ids in eval.dataset.sample_ids, sorted by UTF-8 bytes and joined by "\\n"; --dataset-revision to set it)`,
      "validity: unreviewed at review_revision 0 (defaults: labels come from a reviews file at a higher revision; --validity, --review-revision)",
      "7 rows: 3 pass, 2 fail, 1 infra_error, 1 missing",
    ]);
  });

  test("numeric scores other than 1/0 need --pass-threshold; the error names the sample", async () => {
    const samples = [S(1, 1, 0.75), S(2, 1, 0.25), S("x-4", 1, 0.5)];
    expect(
      await inputErrorOf(() => importText({ kind: "inspect", file: "l.json" }, log(samples), undefined)),
    ).toBe(
      "l.json: not a usable Inspect AI eval log\n" +
        '  l.json: field "/samples/0/scores/match/value": sample "1" epoch 1: numeric score 0.75 is neither 1 nor 0: give --pass-threshold X\n' +
        '  l.json: field "/samples/1/scores/match/value": sample "2" epoch 1: numeric score 0.25 is neither 1 nor 0: give --pass-threshold X\n' +
        '  l.json: field "/samples/2/scores/match/value": sample "x-4" epoch 1: numeric score 0.5 is neither 1 nor 0: give --pass-threshold X',
    );
    const r = importText({ kind: "inspect", file: "l.json", passThreshold: 0.5 }, log(samples), undefined);
    expect(parseLines(r.lines).map((o) => [o["task_id"], o["result"]])).toEqual([
      ["1", "pass"],
      ["2", "fail"],
      ["3", "missing"],
      ["x-4", "pass"],
    ]);
    expect(r.notes[1]).toBe(
      'score rule: sample error → infra_error; "C" → pass, "I" → fail; true → pass, false → fail; numbers ≥ 0.5 → pass, below → fail',
    );
  });

  test('other strings ("P", "N") are errors unless --score-map maps them', async () => {
    const samples = [S(1, 1, "P"), S(2, 1, "N")];
    expect(
      await inputErrorOf(() => importText({ kind: "inspect", file: "l.json" }, log(samples), undefined)),
    ).toBe(
      "l.json: not a usable Inspect AI eval log\n" +
        '  l.json: field "/samples/0/scores/match/value": sample "1" epoch 1: score value "P" has no mapping (C → pass, I → fail; add e.g. --score-map P=fail)\n' +
        '  l.json: field "/samples/1/scores/match/value": sample "2" epoch 1: score value "N" has no mapping (C → pass, I → fail; add e.g. --score-map N=fail)',
    );
    const r = importText(
      { kind: "inspect", file: "l.json", scoreMap: { P: "fail", N: "infra_error" } },
      log(samples),
      undefined,
    );
    expect(parseLines(r.lines).map((o) => o["result"])).toEqual([
      "fail",
      "infra_error",
      "missing",
      "missing",
    ]);
  });

  test("lists and objects cannot be mapped", async () => {
    expect(
      await inputErrorOf(() =>
        importText({ kind: "inspect", file: "l.json" }, log([S(1, 1, { a: 1 })]), undefined),
      ),
    ).toBe(
      "l.json: not a usable Inspect AI eval log\n" +
        '  l.json: field "/samples/0/scores/match/value": sample "1" epoch 1: score value an object cannot be mapped to pass or fail',
    );
  });

  test("several scorers need --scorer; --scorer picks one and must exist", async () => {
    const samples: Sample[] = [{ id: 1, epoch: 1, scores: { match: { value: "C" }, judge: { value: 0 } } }];
    expect(
      await inputErrorOf(() => importText({ kind: "inspect", file: "l.json" }, log(samples), undefined)),
    ).toBe(
      "l.json: cannot import\n  l.json: samples have several scorers (judge, match): choose one with --scorer NAME",
    );
    const r = importText({ kind: "inspect", file: "l.json", scorer: "judge" }, log(samples), undefined);
    expect(parseLines(r.lines)[0]?.["result"]).toBe("fail");
    expect(
      await inputErrorOf(() =>
        importText({ kind: "inspect", file: "l.json", scorer: "nope" }, log(samples), undefined),
      ),
    ).toBe(
      'l.json: cannot import\n  l.json: --scorer "nope": no sample has that scorer; scorers: judge, match',
    );
  });

  test("a repeated sample and epoch, and a sample with neither score nor error, are refused", async () => {
    const samples: Sample[] = [S(1, 1, "C"), S(1, 1, "I"), { id: 2, epoch: 1, scores: null, error: null }];
    expect(
      await inputErrorOf(() => importText({ kind: "inspect", file: "l.json" }, log(samples), undefined)),
    ).toBe(
      "l.json: not a usable Inspect AI eval log\n" +
        '  l.json: field "/samples/1": sample "1" epoch 1 appears twice (also /samples/0): the log is ambiguous\n' +
        '  l.json: field "/samples/2/scores": sample "2" epoch 1 has neither an error nor a score from scorer "match"',
    );
  });

  test("--tasks restricts; ids outside are reported; a task with fewer epochs is noted; invalidated samples left out", () => {
    const samples: Sample[] = [
      ...BASE,
      { ...S(3, 1, "C"), invalidation: { author: "x" } },
      S("extra", 1, "C"),
    ];
    const tasks = parseTaskList("t.txt", "1\n2\n3\n");
    const r = importText(
      { kind: "inspect", file: "l.json", harnessRevision: "git:h", modelConfig: "cfg" },
      log(samples, { config: { epochs: 3 } }),
      tasks,
    );
    expect(parseLines(r.lines).map((o) => [o["task_id"], o["attempt"], o["result"]])).toEqual([
      ["1", 1, "pass"],
      ["1", 2, "fail"],
      ["2", 1, "pass"],
      ["2", 2, "infra_error"],
      ["3", undefined, "missing"],
    ]);
    expect(r.notes.slice(0, 7)).toEqual([
      "1 invalidated samples were left out",
      "infra_error: 1 sample with an error (sandbox died)",
      'scores read from scorer "match"',
      'score rule: sample error → infra_error; "C" → pass, "I" → fail; true → pass, false → fail; 1 → pass, 0 → fail (other numbers need --pass-threshold)',
      "2 sample ids outside the task list t.txt were left out (not counted): extra, x-4",
      "1 tasks have no sample in the log: written as missing (3)",
      "2 tasks have fewer than the 3 configured epochs: 1, 2",
    ]);
  });

  test("a binary log given as text, and logs without samples, are refused with a hint", async () => {
    expect(
      await inputErrorOf(() => importText({ kind: "inspect", file: "l.eval" }, "PK\u0003\u0004…", undefined)),
    ).toBe(
      "l.eval: cannot import\n  l.eval: this is a binary .eval log given as text: read it from its file",
    );
    const header = JSON.stringify({ version: 2, status: "success", eval: { model: "m" } });
    expect(await inputErrorOf(() => importText({ kind: "inspect", file: "l.json" }, header, undefined))).toBe(
      "l.json: not a usable Inspect AI eval log\n" +
        '  l.json: field "/samples": expected a "samples" array, found nothing (was the log written with log_samples=False, or is it a header-only read?)',
    );
  });
});
