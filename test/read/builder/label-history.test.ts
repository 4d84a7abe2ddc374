/**
 * The DatasetBuilder's records against a brute-force reading of SPEC §1.1/§1.2 on random small
 * exports and reviews: per task, every distinct (review_revision, validity) with the source,
 * reviewer and note of the first row or review that gave it and the evidence of every row and
 * review that gave it (de-duplicated, first seen first, capped); the task's evidence over all of
 * them; the counts of both compared models (repeated attempts folded). The builder keeps a label's
 * evidence as the task's own list while the two hold the same items, which this checks.
 */

import { describe, expect, it } from "vitest";

import { DatasetBuilder } from "../../../src/read/builder/dataset-builder.js";
import { MAX_EVIDENCE_PER_TASK } from "../../../src/read/limits.js";
import { ARENA_CHUNK_BYTES } from "../../../src/read/rows/evidence-arena.js";
import { InputError } from "../../../src/core/errors.js";
import { tableRecords, VALIDITIES, type TaskRecord, type TaskTable } from "../../../src/core/model.js";
import { prng } from "../../helpers/prng.js";

const FILES = ["r.jsonl", "v.jsonl"];
const MODELS = ["base", "cand", "other"];
const RESULTS = ["pass", "fail", "infra_error", "missing"] as const;

interface Label {
  revision: number;
  validity: string;
  source: { file: string; line: number };
  reviewer?: string;
  note?: string;
  evidence: string[];
}

interface Expected {
  datasetRevision: string;
  taskId: string;
  labels: Map<string, Label>;
  evidence: string[];
  counts: Map<string, number[]>;
  seen: Map<string, string>;
}

function addItems(list: string[], evidence: unknown): void {
  const items =
    evidence === undefined ? [] : typeof evidence === "string" ? [evidence] : (evidence as string[]);
  for (const item of items) {
    if (list.length < MAX_EVIDENCE_PER_TASK && !list.includes(item)) list.push(item);
  }
}

function scenario(seed: number): { results: Record<string, unknown>[]; reviews: Record<string, unknown>[] } {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const tasks = Array.from({ length: 1 + Math.floor(rnd() * 4) }, (_, k) => ({
    ds: pick(["ds1", "ds2"]),
    id: `t${k}`,
  }));
  // Mostly one validity per (task, revision), so that most reads have no conflicting top label.
  const usual = (task: string, rev: number): string =>
    VALIDITIES[(task.charCodeAt(1) + rev) % VALIDITIES.length] ?? "valid";
  const label = (task: string): { review_revision: number; validity: string } => {
    const rev = Math.floor(rnd() * 3);
    return { review_revision: rev, validity: rnd() < 0.08 ? pick(VALIDITIES) : usual(task, rev) };
  };
  const pool = Array.from({ length: 26 }, (_, k) => `ev/${k}`);
  const evidence = (): unknown => {
    const r = rnd();
    if (r < 0.25) return undefined;
    if (r < 0.4) return pick(pool);
    // Repeats of a task's usual items, and now and then many new ones (the cap).
    const n = rnd() < 0.1 ? (rnd() < 0.3 ? MAX_EVIDENCE_PER_TASK + 3 : 12) : Math.floor(rnd() * 4);
    return Array.from({ length: n }, () => (rnd() < 0.5 ? pick(pool.slice(0, 3)) : pick(pool)));
  };
  const results: Record<string, unknown>[] = [];
  const n = 1 + Math.floor(rnd() * 40);
  for (let k = 0; k < n; k++) {
    const t = pick(tasks);
    const model = pick(MODELS);
    const attempt = rnd() < 0.2 ? undefined : Math.floor(rnd() * 3);
    const harness = rnd() < 0.8 ? "h1" : "h2";
    // One result per (model, task, harness, attempt): repeats are duplicates, never conflicts.
    const result = RESULTS[(model.length + t.id.length * 7 + (attempt ?? k) + harness.length) % 4];
    const e = evidence();
    results.push({
      task_id: t.id,
      dataset_revision: t.ds,
      harness_revision: harness,
      model_config: model,
      ...label(t.id),
      result,
      ...(attempt === undefined ? {} : { attempt }),
      ...(e === undefined ? {} : { evidence: e }),
      ...(rnd() < 0.5 ? { cluster: `c-${t.id}` } : {}),
    });
  }
  const reviews: Record<string, unknown>[] = [];
  const m = Math.floor(rnd() * 6);
  for (let k = 0; k < m; k++) {
    const t = pick(tasks);
    const e = evidence();
    reviews.push({
      task_id: t.id,
      dataset_revision: t.ds,
      ...label(t.id),
      ...(rnd() < 0.5 ? { reviewer: pick(["ann", "bob"]) } : {}),
      ...(rnd() < 0.3 ? { note: pick(["see log", "flaky"]) } : {}),
      ...(e === undefined ? {} : { evidence: e }),
    });
  }
  return { results, reviews };
}

/**
 * Rows as a benchmark writes them, model after model, attempt after attempt, task after task,
 * with evidence and labels per (model, task) that mostly repeat (the rows a builder skips once it
 * knows them: EvidenceMemo), now and then another item, label or order.
 */
function perModelScenario(seed: number): {
  results: Record<string, unknown>[];
  reviews: Record<string, unknown>[];
} {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const models = [...MODELS, "m4"].slice(0, 2 + Math.floor(rnd() * 3));
  const tasks = Array.from({ length: 1 + Math.floor(rnd() * 5) }, (_, k) => `t${k}`);
  const attempts = 1 + Math.floor(rnd() * 5);
  const labelOf = new Map<string, { review_revision: number; validity: string }>();
  const results: Record<string, unknown>[] = [];
  for (const model of models) {
    for (let a = 0; a < attempts; a++) {
      const order = rnd() < 0.2 ? [...tasks].reverse() : tasks;
      for (const t of order) {
        const key = `${model}/${t}`;
        let label = labelOf.get(key);
        if (label === undefined || rnd() < 0.05) {
          // Mostly one validity per (task, revision), so that most reads have no conflicting top label.
          const rev = Math.floor(rnd() * 3);
          const validity =
            rnd() < 0.05 ? pick(VALIDITIES) : (VALIDITIES[(t.charCodeAt(1) + rev) % 4] ?? "valid");
          label = { review_revision: rev, validity };
          labelOf.set(key, label);
        }
        const own = `run/${model}/${t}`;
        const r = rnd();
        const evidence =
          r < 0.45
            ? own
            : r < 0.8
              ? [own, `log/${t}`]
              : r < 0.9
                ? [`log/${t}`, own]
                : r < 0.95
                  ? [own, own]
                  : `x/${Math.floor(rnd() * 30)}`;
        results.push({
          task_id: t,
          dataset_revision: "ds",
          harness_revision: "h",
          model_config: model,
          ...label,
          result: RESULTS[(model.length + t.length + a) % 4],
          attempt: a,
          evidence,
        });
      }
    }
  }
  const reviews = Array.from({ length: Math.floor(rnd() * 3) }, () => ({
    task_id: pick(tasks),
    dataset_revision: "ds",
    review_revision: 3,
    validity: pick(VALIDITIES),
    evidence: `review/${Math.floor(rnd() * 3)}`,
  }));
  return { results, reviews };
}

/** What the records must hold, or undefined when the read must end in an InputError. */
function expected(
  results: readonly Record<string, unknown>[],
  reviews: readonly Record<string, unknown>[],
): Expected[] | undefined {
  const tasks = new Map<string, Expected>();
  const labelRow = (t: Expected, r: Record<string, unknown>, file: number, line: number): void => {
    const key = `${String(r["review_revision"])}:${String(r["validity"])}`;
    let l = t.labels.get(key);
    if (l === undefined) {
      l = {
        revision: r["review_revision"] as number,
        validity: r["validity"] as string,
        source: { file: FILES[file] ?? "?", line },
        evidence: [],
      };
      if (r["reviewer"] !== undefined) l.reviewer = r["reviewer"] as string;
      if (r["note"] !== undefined) l.note = r["note"] as string;
      t.labels.set(key, l);
    }
    addItems(t.evidence, r["evidence"]);
    addItems(l.evidence, r["evidence"]);
  };
  results.forEach((r, k) => {
    const key = `${String(r["dataset_revision"])}/${String(r["task_id"])}`;
    let t = tasks.get(key);
    if (t === undefined) {
      t = {
        datasetRevision: r["dataset_revision"] as string,
        taskId: r["task_id"] as string,
        labels: new Map(),
        evidence: [],
        counts: new Map(),
        seen: new Map(),
      };
      tasks.set(key, t);
    }
    const model = r["model_config"] as string;
    if (model !== "other") {
      const counts = t.counts.get(model) ?? [0, 0, 0, 0];
      t.counts.set(model, counts);
      const attempt = r["attempt"];
      const id = `${model}/${String(r["harness_revision"])}/${String(attempt)}`;
      if (attempt === undefined || !t.seen.has(id)) {
        const at = RESULTS.indexOf(r["result"] as (typeof RESULTS)[number]);
        counts[at] = (counts[at] ?? 0) + 1;
        if (attempt !== undefined) t.seen.set(id, String(r["result"]));
      }
    }
    labelRow(t, r, 0, k + 1);
  });
  const inUniverse = (t: Expected | undefined): t is Expected => t !== undefined && t.counts.size > 0;
  let matched = 0;
  reviews.forEach((r, k) => {
    const t = tasks.get(`${String(r["dataset_revision"])}/${String(r["task_id"])}`);
    if (!inUniverse(t)) return;
    matched++;
    labelRow(t, r, 1, k + 1);
  });
  if (reviews.length > 0 && matched === 0) return undefined;
  if (!MODELS.slice(0, 2).every((m) => results.some((r) => r["model_config"] === m))) return undefined;
  const out = [...tasks.values()].filter(inUniverse);
  for (const t of out) {
    const top = Math.max(...[...t.labels.values()].map((l) => l.revision));
    if ([...t.labels.values()].filter((l) => l.revision === top).length > 1) return undefined;
    if (
      new Set(
        results
          .filter(
            (r) =>
              r["task_id"] === t.taskId &&
              r["dataset_revision"] === t.datasetRevision &&
              r["cluster"] !== undefined,
          )
          .map((r) => r["cluster"]),
      ).size > 1
    )
      return undefined;
  }
  return out.sort((a, b) =>
    a.datasetRevision < b.datasetRevision
      ? -1
      : a.datasetRevision > b.datasetRevision
        ? 1
        : a.taskId < b.taskId
          ? -1
          : a.taskId > b.taskId
            ? 1
            : 0,
  );
}

/**
 * How result lines reach the builder: parsed (addResultLine: JSON.parse) or as bytes
 * (addResultBytes: the byte scanner, whose evidence lists of distinct items come packed).
 */
type Via = "json" | "bytes";

function readTable(
  results: readonly Record<string, unknown>[],
  reviews: readonly Record<string, unknown>[],
  via: Via = "json",
): TaskTable | undefined {
  const b = new DatasetBuilder("base", "cand", FILES);
  results.forEach((r, k) => {
    const line = JSON.stringify(r);
    if (via === "json") b.addResultLine(line, 0, k + 1);
    else {
      // Bytes around the line, as in a read chunk.
      const bytes = Buffer.from(`{"x":1}\n${line}\n{"y":`, "utf8");
      const begin = 8;
      b.addResultBytes(bytes, begin, begin + Buffer.byteLength(line), 0, k + 1);
    }
  });
  reviews.forEach((r, k) => {
    b.addReviewLine(JSON.stringify(r), 1, k + 1);
  });
  try {
    return b.finish([], results.length + reviews.length, true).tasks;
  } catch (e) {
    if (e instanceof InputError) return undefined;
    throw e;
  }
}

function read(
  results: readonly Record<string, unknown>[],
  reviews: readonly Record<string, unknown>[],
  via: Via,
): readonly TaskRecord[] | undefined {
  const table = readTable(results, reviews, via);
  return table === undefined ? undefined : tableRecords(table);
}

describe("labels and evidence of a task, against a brute-force reading", () => {
  it("gives every label its first source and its own evidence, and the task all of it", () => {
    check(scenario, 3000, { compared: 1000, multiLabel: 500, ownLists: 300 });
  });

  it("does so on rows of many models whose labels and evidence repeat per (model, task)", () => {
    check(perModelScenario, 1500, { compared: 1000, multiLabel: 1000, ownLists: 500 });
  });

  it("does so with the rows read by the byte scanner (evidence lists handed over packed)", () => {
    check(scenario, 3000, { compared: 1000, multiLabel: 500, ownLists: 300 }, "bytes");
    check(perModelScenario, 1500, { compared: 1000, multiLabel: 1000, ownLists: 500 }, "bytes");
  });

  it("keeps the tasks' lists past the evidence arena's first chunk, as the parsed rows give them", () => {
    // 12,000 tasks of about 100 bytes of list each: more than one chunk (ARENA_CHUNK_BYTES). The
    // candidate's rows repeat the baseline's lists (the handle itself comes back), and a third
    // model's rows on every 7th task give another list: the task's grows, read out of the arena.
    const long = "x".repeat(80);
    const results: Record<string, unknown>[] = [];
    for (const model of MODELS) {
      for (let t = 0; t < 12_000; t++) {
        if (model === "other" && t % 7 !== 0) continue;
        results.push({
          task_id: `t${t}`,
          dataset_revision: "ds1",
          harness_revision: "h",
          model_config: model,
          validity: "valid",
          result: "pass",
          review_revision: 0,
          evidence: model === "other" ? [`o/${t}`, `a/${t}/${long}`] : [`a/${t}/${long}`, `b/${t}`],
        });
      }
    }
    expect(12_000 * (`a/0/${long}`.length + 8)).toBeGreaterThan(ARENA_CHUNK_BYTES);
    const bytes = read(results, [], "bytes");
    expect(bytes).toEqual(read(results, [], "json"));
    const byId = new Map(bytes?.map((r) => [r.taskId, r]));
    expect(byId.get("t11999")?.evidence).toEqual([`a/11999/${long}`, "b/11999"]);
    expect(byId.get("t11998")?.evidence).toEqual([`a/11998/${long}`, "b/11998", "o/11998"]);
  });

  it("reads every field by index as the task's record holds it (the reader's table)", () => {
    let tasks = 0;
    for (let seed = 1; seed <= 1000; seed++) {
      const { results, reviews } = scenario(seed);
      const table = readTable(results, reviews);
      if (table === undefined) continue;
      for (let i = 0; i < table.length; i++) {
        tasks++;
        const r = table.record(i);
        // The keys in the order the records always had, the optional ones only when present.
        expect(Object.keys(r), `seed ${seed}`).toEqual(
          ["datasetRevision", "taskId", "validity", "reviewRevision", "history", "evidence"].concat(
            ["cluster", "baseline", "candidate"].filter(
              (k) => (r as unknown as Record<string, unknown>)[k] !== undefined,
            ),
          ),
        );
        expect(table.record(i), `seed ${seed}`).toStrictEqual(r);
        expect(table.datasetRevision(i)).toBe(r.datasetRevision);
        expect(table.taskId(i)).toBe(r.taskId);
        expect(table.validity(i)).toBe(r.validity);
        expect(table.reviewRevision(i)).toBe(r.reviewRevision);
        expect(table.cluster(i)).toBe(r.cluster);
        expect(table.baseline(i)).toStrictEqual(r.baseline);
        expect(table.candidate(i)).toStrictEqual(r.candidate);
        expect(table.evidence(i)).toStrictEqual(r.evidence);
        expect(table.history(i)).toStrictEqual(r.history);
        expect(table.labelCount(i)).toBe(r.history.length);
        expect(table.lastLabelRevision(i)).toBe(r.history[r.history.length - 1]?.revision ?? -1);
        r.history.forEach((e, k) => {
          expect(table.eventRevision(i, k)).toBe(e.revision);
          expect(table.eventValidity(i, k)).toBe(e.validity);
        });
        expect(() => table.eventRevision(i, r.history.length)).toThrow(/no event/);
        // The top label is the last event's (the history ascends by revision).
        if (r.history.length > 0) expect(r.reviewRevision).toBe(table.lastLabelRevision(i));
      }
      expect(() => table.record(table.length)).toThrow(/no task/);
    }
    expect(tasks).toBeGreaterThan(1000);
  });
});

function check(
  make: typeof scenario,
  seeds: number,
  least: { compared: number; multiLabel: number; ownLists: number },
  via: Via = "json",
): void {
  let compared = 0;
  let multiLabel = 0;
  let ownLists = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    const { results, reviews } = make(seed);
    const want = expected(results, reviews);
    const got = read(results, reviews, via);
    expect(got === undefined, `seed ${seed}`).toBe(want === undefined);
    if (want === undefined || got === undefined) continue;
    compared++;
    expect(
      got.map((t) => `${t.datasetRevision}/${t.taskId}`),
      `seed ${seed}`,
    ).toEqual(want.map((t) => `${t.datasetRevision}/${t.taskId}`));
    want.forEach((w, k) => {
      const t = got[k];
      const history = [...w.labels.values()].sort(
        (a, b) =>
          a.revision - b.revision ||
          a.source.file.localeCompare(b.source.file) ||
          a.source.line - b.source.line,
      );
      if (history.length > 1) multiLabel++;
      if (history.some((l) => l.evidence.join("\n") !== w.evidence.join("\n"))) ownLists++;
      expect(t?.evidence, `seed ${seed}`).toEqual(w.evidence);
      expect(t?.history, `seed ${seed}`).toStrictEqual(history);
      const c = (m: string): object | undefined => {
        const n = w.counts.get(m);
        return n === undefined ? undefined : { pass: n[0], fail: n[1], infra_error: n[2], missing: n[3] };
      };
      expect(t?.baseline, `seed ${seed}`).toEqual(c("base"));
      expect(t?.candidate, `seed ${seed}`).toEqual(c("cand"));
    });
  }
  // The random exports reach every case: most reads succeed, labels with their own lists.
  expect(compared).toBeGreaterThan(least.compared);
  expect(multiLabel).toBeGreaterThan(least.multiLabel);
  expect(ownLists).toBeGreaterThan(least.ownLists);
}
