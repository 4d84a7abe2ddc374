/**
 * Reviews that match nothing (README "Reviews that match nothing"): a reviews file none of whose
 * rows labels a compared task is an input error naming the file and the revisions on both sides;
 * one that labels some tasks but also names revisions no compared task has gives a headline
 * warning; so do labelled export rows of other models under such revisions.
 */
import { basename } from "node:path";
import { tableRecords } from "../../../src/core/model.js";
import { describe, expect, it } from "vitest";
import { evaluate } from "../../../src/core/decision/evaluate.js";
import { readDataset } from "../../../src/read/read-dataset.js";
import { buildPolicy } from "../../stats/dataset-builder.js";
import { fixtures, inputError, review, row } from "../fixtures.js";

const fx = fixtures("unmatched");

/** Two models on tasks t1..t3 of dataset revision ds1. */
async function results(extra: Record<string, unknown>[] = []): Promise<string> {
  const rows = ["t1", "t2", "t3"].flatMap((t) => [
    row({ task_id: t, validity: "unreviewed", review_revision: 0 }),
    row({ task_id: t, model_config: "cand", validity: "unreviewed", review_revision: 0 }),
  ]);
  return fx.jsonl(`results-${extra.length}.jsonl`, [...rows, ...extra]);
}

const read = (res: string, reviews: string[]) =>
  readDataset({ results: [res], reviews, baseline: "base", candidate: "cand", displayPath: basename });

const warningsOf = async (res: string, reviews: string[]) =>
  evaluate(await read(res, reviews), buildPolicy({}), { canary: null, expired: false }).warnings;

describe("a reviews file that labels no compared task is an input error", () => {
  it("under another dataset revision (import verified-annotations without --tasks): names both sides and the fix", async () => {
    const res = await results();
    const rev = await fx.jsonl("sheet.jsonl", [
      review({ task_id: "t1", dataset_revision: "sha256:sheet" }),
      review({ task_id: "t2", dataset_revision: "sha256:sheet" }),
      review({ task_id: "t9", dataset_revision: "sha256:sheet" }),
    ]);
    const e = await inputError(read(res, [rev]));
    expect(e.message).toBe(
      "The results/reviews input has 1 problem:\n" +
        '  sheet.jsonl: none of its 3 review rows labels a task the baseline or the candidate ran: its rows are under dataset revision "sha256:sheet", and the compared tasks under "ds1". ' +
        "A review applies to a task only under the same dataset_revision: re-import the reviews with --dataset-revision set to the results' revision, or with the same --tasks list as the results " +
        "(model-gate import verified-annotations without --tasks computes the revision from the sheet's own ids)",
    );
  });

  it("under the right revision but for other tasks only", async () => {
    const res = await results();
    const rev = await fx.jsonl("others.jsonl", [review({ task_id: "t8" }), review({ task_id: "t9" })]);
    const e = await inputError(read(res, [rev]));
    expect(e.message).toContain(
      'others.jsonl: none of its 2 review rows labels a task the baseline or the candidate ran: its rows under dataset revision "ds1" name none of the tasks the baseline or the candidate ran (the compared tasks are under "ds1")',
    );
  });

  it("each file is judged on its own: a matching file does not excuse one that matches nothing", async () => {
    const res = await results();
    const good = await fx.jsonl("good.jsonl", [review({ task_id: "t1" })]);
    const bad = await fx.jsonl("bad.jsonl", [review({ task_id: "t1", dataset_revision: "ds0" })]);
    const e = await inputError(read(res, [good, bad]));
    expect(e.problems.map((p) => p.location?.file)).toEqual(["bad.jsonl"]);
    // An empty reviews file matches nothing but names nothing either: no error, no warning.
    const empty = await fx.write("empty.jsonl", "\n");
    expect(await warningsOf(res, [good, empty])).toEqual([]);
  });
});

describe("labels under revisions no compared task has are a headline warning", () => {
  it("a reviews file matching some tasks, with rows under other revisions", async () => {
    const res = await results();
    const rev = await fx.jsonl("mixed.jsonl", [
      review({ task_id: "t1", validity: "broken" }),
      review({ task_id: "t1", dataset_revision: "ds0" }),
      review({ task_id: "t2", dataset_revision: "ds0" }),
      review({ task_id: "t2", dataset_revision: "ds2" }),
    ]);
    const ds = await read(res, [rev]);
    expect(ds.unmatchedLabels).toEqual([
      { file: "mixed.jsonl", rows: 3, of: 4, revisions: ["ds0", "ds2"], moreRevisions: false },
    ]);
    expect(tableRecords(ds.tasks).find((t) => t.taskId === "t1")?.validity).toBe("broken");
    expect(await warningsOf(res, [rev])).toEqual([
      "mixed.jsonl: 3 of its 4 review rows are under dataset revisions ds0, ds2, which no compared task has " +
        "(the compared tasks are under ds1): those labels apply to nothing. A review applies only under the " +
        "same dataset_revision: re-import them with the results' --dataset-revision or --tasks list.",
    ]);
  });

  it("labelled export rows of other models; unreviewed ones say nothing", async () => {
    const res = await results([
      row({ task_id: "t1", dataset_revision: "ds0", model_config: "labels", validity: "disputed" }),
      row({ task_id: "t2", dataset_revision: "ds0", model_config: "labels", validity: "valid" }),
      row({ task_id: "t2", dataset_revision: "ds0", model_config: "other", validity: "valid" }),
      row({ task_id: "t1", dataset_revision: "ds5", model_config: "other", validity: "unreviewed" }),
    ]);
    expect(await warningsOf(res, [])).toEqual([
      "The results label 2 tasks of other models under dataset revision ds0, which no compared task has " +
        "(the compared tasks are under ds1): those labels apply to nothing.",
    ]);
    // Labels of other models under the compared revision apply, and warn of nothing.
    const same = await results([
      row({ task_id: "t1", model_config: "labels", validity: "broken", review_revision: 5 }),
    ]);
    expect(await warningsOf(same, [])).toEqual([]);
    expect(tableRecords((await read(same, [])).tasks).find((t) => t.taskId === "t1")?.validity).toBe(
      "broken",
    );
  });

  it("without such labels the Dataset has no unmatchedLabels key", async () => {
    const res = await results();
    const rev = await fx.jsonl("fine.jsonl", [review({ task_id: "t1" }), review({ task_id: "t9" })]);
    expect("unmatchedLabels" in (await read(res, [rev]))).toBe(false);
  });
});
