import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readDataset } from "../../src/read/read-dataset.js";
import {
  recordTable,
  tableRecords,
  type TaskRecord,
  type TaskTable,
  type Validity,
} from "../../src/core/model.js";
import { renderMarkdown } from "../../src/core/report/render-markdown.js";
import {
  brokenTasksOf,
  compactBrokenTasks,
  compactReviewHistory,
  parseHistoryEvents,
  reviewHistoryOf,
  shownBrokenTasks,
  shownReviewHistory,
  type HistoryInput,
} from "../../src/core/report/task-lists.js";
import { BASELINE, CANDIDATE, reviewLine, tempDir, writeExport } from "../helpers/export-writer.js";
import { unresolvedReport } from "./fixtures.js";

const VALIDITY: readonly Validity[] = ["unreviewed", "valid", "broken", "disputed"];

function event(
  revision: number,
  validity: Validity,
  file: string,
  line: number,
): HistoryInput["history"][number] {
  return { revision, validity, source: { file, line } };
}

/** Seeded tasks over two dataset revisions with 1–4 events each, some with one label throughout. */
function tasks(n: number): HistoryInput[] {
  let s = 7;
  const next = (k: number): number => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return Math.floor(s / 65536) % k;
  };
  return Array.from({ length: n }, (_, i) => ({
    datasetRevision: i < n / 2 ? "sha256:a" : "sha256:b",
    taskId: `t ${i}; r1 valid 0:1`,
    history: Array.from({ length: 1 + next(4) }, (_, r) =>
      event(
        r,
        VALIDITY[next(3) === 0 ? 1 : next(4)] ?? "valid",
        next(2) === 0 ? "results.jsonl" : "r:eviews; x",
        1 + next(1000),
      ),
    ),
  }));
}

describe("compact broken tasks", () => {
  it("groups ids by dataset revision in the given order and decodes back to every key", () => {
    const keys = [
      { datasetRevision: "sha256:a", taskId: "x" },
      { datasetRevision: "sha256:a", taskId: "y" },
      { datasetRevision: "sha256:b", taskId: "x" },
    ];
    const broken = compactBrokenTasks(keys);
    expect(broken).toEqual({
      count: 3,
      by_dataset_revision: [
        { dataset_revision: "sha256:a", task_ids: ["x", "y"] },
        { dataset_revision: "sha256:b", task_ids: ["x"] },
      ],
    });
    expect(shownBrokenTasks(broken, Infinity)).toEqual(
      keys.map((k) => ({ dataset_revision: k.datasetRevision, task_id: k.taskId })),
    );
    expect(shownBrokenTasks(broken, 2).map((t) => t.task_id)).toEqual(["x", "y"]);
  });
});

describe("compact review history", () => {
  it("writes one string of events per task, file names indexed", () => {
    const h = compactReviewHistory([
      {
        datasetRevision: "sha256:a",
        taskId: "t-1",
        history: [
          event(1, "valid", "results.jsonl", 5),
          event(1, "broken", "rev.jsonl", 1),
          event(2, "disputed", "rev.jsonl", 2),
        ],
      },
      { datasetRevision: "sha256:a", taskId: "t-2", history: [event(0, "valid", "results.jsonl", 9)] },
      {
        datasetRevision: "sha256:a",
        taskId: "t-3",
        history: [event(0, "valid", "results.jsonl", 7), event(3, "valid", "rev.jsonl", 4)],
      },
    ]);
    expect(h).toEqual({
      count: 1,
      events: 3,
      same_label_tasks: 1,
      files: ["results.jsonl", "rev.jsonl"],
      by_dataset_revision: [
        {
          dataset_revision: "sha256:a",
          task_ids: ["t-1"],
          events: ["r1 valid 0:5; r1 broken 1:1; r2 disputed 1:2"],
        },
      ],
    });
  });

  it("is complete: every task whose label changed comes back with every event, the others are counted", () => {
    const input = tasks(2000);
    const h = compactReviewHistory(input);
    // The unreviewed events before a task's first label are no label (docs/history.md).
    const labels = (t: (typeof input)[number]) => {
      const k = t.history.findIndex((e) => e.validity !== "unreviewed");
      return k < 0 ? [] : t.history.slice(k).map((e) => e.validity);
    };
    const changed = input.filter((t) => new Set(labels(t)).size > 1);
    const same = input.filter((t) => labels(t).length > 1 && new Set(labels(t)).size === 1);
    expect(changed.length).toBeGreaterThan(100);
    expect(same.length).toBeGreaterThan(10);
    expect([h.count, h.same_label_tasks, h.events]).toEqual([
      changed.length,
      same.length,
      changed.reduce((n, t) => n + t.history.length, 0),
    ]);
    expect(shownReviewHistory(h, Infinity)).toEqual(
      changed.map((t) => ({
        dataset_revision: t.datasetRevision,
        task_id: t.taskId,
        events: t.history.map((e) => ({
          revision: e.revision,
          validity: e.validity,
          source: `${e.source.file}:${e.source.line}`,
        })),
      })),
    );
    expect(shownReviewHistory(h, 3)).toHaveLength(3);
  });

  it("reads back only its own grammar: anything else is returned as text", () => {
    for (const bad of [
      "",
      "r1 valid 0:5;r2 broken 0:6",
      "r1 valid 1:5",
      "r1 fine 0:5",
      "r01 valid 0:5",
      "valid 0:5",
    ]) {
      expect(parseHistoryEvents(bad, ["f"]), bad).toBeNull();
    }
    const h = {
      count: 1,
      events: 1,
      same_label_tasks: 0,
      files: ["f"],
      by_dataset_revision: [{ dataset_revision: "sha256:a", task_ids: ["t"], events: ["<b>x</b>"] }],
    };
    expect(shownReviewHistory(h, 5)).toEqual([
      { dataset_revision: "sha256:a", task_id: "t", events: "<b>x</b>" },
    ]);
    const md = renderMarkdown({ ...unresolvedReport(), review_history: h });
    expect(md).toContain("&lt;b&gt;x&lt;/b&gt;");
    expect(md).not.toContain("<b>x</b>");
  });
});

describe("the Markdown does not grow with the task count", () => {
  /** The unresolved fixture with n broken tasks and n tasks in the review history. */
  function withTasks(n: number): string {
    const base = unresolvedReport();
    const revision = base.provenance.dataset_revisions[0] ?? "";
    const keys = Array.from({ length: n }, (_, i) => ({ datasetRevision: revision, taskId: `task-${i}` }));
    return renderMarkdown({
      ...base,
      comparison: { ...base.comparison, broken_tasks: n },
      broken_tasks: compactBrokenTasks(keys),
      review_history: compactReviewHistory(
        keys.map((k, i) => ({
          ...k,
          history: [event(1, "valid", "results.jsonl", i + 1), event(2, "broken", "reviews.jsonl", i + 1)],
        })),
      ),
    });
  }

  it("1,000 and 200,000 listed tasks give Markdown of the same length, but for the counts' digits", () => {
    const small = withTasks(1000);
    const large = withTasks(200_000);
    // "1,000" → "200,000" in the broken-task and history summaries and their "and N more" lines.
    expect(large.length - small.length).toBeLessThanOrEqual(2 * 6);
    expect(large.replace(/\d[\d,]*/g, "N")).toBe(small.replace(/\d[\d,]*/g, "N"));
  });
});

describe("the task lists read straight from a table", () => {
  /** What buildReport's walks must equal: the lists made from every task's records. */
  function fromRecords(table: TaskTable): { broken: unknown; history: unknown } {
    const records = tableRecords(table);
    return {
      broken: compactBrokenTasks(records.filter((r) => r.validity === "broken")),
      history: compactReviewHistory(records.filter((r) => r.history.length >= 2)),
    };
  }

  it("give what the records give, on a table of records", () => {
    const records: TaskRecord[] = tasks(400).map((t) => {
      const last = t.history[t.history.length - 1];
      return {
        datasetRevision: t.datasetRevision,
        taskId: t.taskId,
        validity: last?.validity ?? "unreviewed",
        reviewRevision: last?.revision ?? -1,
        history: t.history.map((e) => ({ ...e, evidence: [] })),
        evidence: [],
      };
    });
    const table = recordTable(records);
    const lists = { broken: brokenTasksOf(table), history: reviewHistoryOf(table) };
    expect(lists).toEqual(fromRecords(table));
    expect(lists.broken.count).toBeGreaterThan(0);
    expect(lists.history.count).toBeGreaterThan(0);
    expect(lists.history.same_label_tasks).toBeGreaterThan(0);
  });

  it("give what the records give, on the reader's table (labels from the export and two reviews files)", async () => {
    const dir = tempDir();
    const ids = Array.from({ length: 60 }, (_, i) => `t-${String(i).padStart(2, "0")}`);
    const results = writeExport(
      dir,
      ids.map((id, i) => ({
        id,
        validity: (["valid", "unreviewed", "disputed", "broken"] as const)[i % 4] ?? "valid",
        a: ["pass"],
        b: ["fail"],
      })),
    );
    const reviews = [join(dir, "reviews-1.jsonl"), join(dir, "reviews-2.jsonl")];
    writeFileSync(
      reviews[0] ?? "",
      ids
        .filter((_, i) => i % 3 === 0)
        .map((id, k) => reviewLine(id, k % 2 === 0 ? "broken" : "valid", 2))
        .join("\n") + "\n",
    );
    writeFileSync(
      reviews[1] ?? "",
      ids
        .filter((_, i) => i % 5 === 0)
        .map((id) => reviewLine(id, "disputed", 3))
        .join("\n") + "\n",
    );
    const dataset = await readDataset({
      results: [results],
      reviews,
      baseline: BASELINE,
      candidate: CANDIDATE,
    });
    const lists = { broken: brokenTasksOf(dataset.tasks), history: reviewHistoryOf(dataset.tasks) };
    expect(lists).toEqual(fromRecords(dataset.tasks));
    expect(lists.history.files.length).toBe(3);
    expect(lists.history.count).toBeGreaterThan(10);
  });
});
